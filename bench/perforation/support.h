// support.h - what every part of perforation-bench uses: dying with a
// one-line message (exit status 2), unwrapping the runtime's Expected and
// Status, wall-clock seconds, a parallel for over row ranges, and copying
// f32 images to and from the device. Everything here is in namespace pbench,
// which sees approx::rt's names (and approx::rt::perforation as pf).
#ifndef APPROX_BENCH_PERFORATION_SUPPORT_H
#define APPROX_BENCH_PERFORATION_SUPPORT_H

#include "approx/runtime/core/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace approx::rt::perforation {}

namespace pbench {

using namespace approx::rt;
namespace pf = approx::rt::perforation;

[[noreturn]] inline void die(const std::string &msg) {
  std::fprintf(stderr, "perforation-bench: %s\n", msg.c_str());
  std::exit(2);
}

template <typename T> T must(Expected<T> e, const std::string &what) {
  if (!e)
    die(what + ": " + e.status().toString());
  return e.take();
}

inline void must(Status s, const std::string &what) {
  if (!s.isOk())
    die(what + ": " + s.toString());
}

inline double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

/// Runs f(begin, end) on `threads` threads over [0, n) in contiguous chunks
/// (0: every core).
template <typename F> void parallelFor(int64_t n, F f, unsigned threads = 0) {
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  threads = unsigned(std::max<int64_t>(1, std::min<int64_t>(threads, n)));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    int64_t b = n * t / threads, e = n * (t + 1) / threads;
    pool.emplace_back([=] { f(b, e); });
  }
  for (std::thread &th : pool)
    th.join();
}

inline DeviceBuffer upload(std::shared_ptr<Context> ctx,
                           const std::vector<float> &v) {
  return must(DeviceBuffer::fromHost(ctx, v.data(), v.size(), ScalarType::F32),
              "upload");
}

inline std::vector<float> download(const DeviceBuffer &b, int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  must(b.copyToHost(v.data(), v.size() * 4), "copy back");
  return v;
}

} // namespace pbench

#endif // APPROX_BENCH_PERFORATION_SUPPORT_H
