//===- WorkerPool.h - persistent threads for convert() ----------*- C++ -*-===//
//
// convert() used to start and join one std::thread per chunk on every call.
// That costs tens of microseconds per thread, which is nothing for one
// 256 MiB conversion but dominates a pipelined transfer that converts a
// 1 MiB chunk at a time (measured on an H100 host, 2026-11-25: 4.5 GB/s
// pipelined at 1 MiB chunks against 122 GB/s for one host conversion). The
// pool keeps its threads between calls; a call hands out chunk indices
// through an atomic counter, runs chunks on the calling thread too, and
// returns when every chunk is done. Idle threads spin for 100 us before
// they sleep, so back-to-back calls do not pay a wake-up per thread.
//
// Internal to runtime/precision (not installed).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_WORKERPOOL_H
#define APPROX_RUNTIME_PRECISION_WORKERPOOL_H

#include <cstddef>
#include <functional>

namespace approx::rt::precision::detail {

/// Runs fn(0) .. fn(chunks - 1), each exactly once, on the calling thread
/// and at most `threads - 1` pool threads, and returns when all are done.
/// fn must not throw. Calls from several threads are served one at a time
/// (the pool is process-wide); should the system refuse to start a thread,
/// the chunks run on the threads there are (in the end, the caller alone).
void parallelChunks(size_t chunks, unsigned threads,
                    const std::function<void(size_t)> &fn);

/// Pool threads started so far (for tests).
unsigned poolThreads();

} // namespace approx::rt::precision::detail

#endif // APPROX_RUNTIME_PRECISION_WORKERPOOL_H
