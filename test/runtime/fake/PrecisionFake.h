//===- PrecisionFake.h - the fake driver for precision tests -*- C++ -*-===//
//
// What the precision runtime (TransferEngine, Session, the system inspector)
// needs of the fake driver beyond FakeDriver.h: pinned host memory
// (cuMemHostAlloc, cuMemFreeHost) and stream waits (cuStreamWaitEvent),
// added to a copy of the fake's table; and
// the device conversion kernels, run as the host's convert() with the
// overflow, underflow and NaN counts added to the launch's counter block.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TEST_RUNTIME_FAKE_PRECISIONFAKE_H
#define APPROX_TEST_RUNTIME_FAKE_PRECISIONFAKE_H

#include "FakeDriver.h"

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/precision/HostConvert.h"

#include <memory>
#include <string>
#include <vector>

namespace approx::rt::fake {

/// f64, f32, f16, bf16.
extern const ScalarType kPrecisions[4];

/// The fake's table with the pinned-memory, stream-wait and UUID entry
/// points. cuMemHostAlloc fails with CUDA_ERROR_OUT_OF_MEMORY for 0 bytes
/// or more than 4 GiB; cuMemFreeHost fails on a block it did not allocate.
const detail::Driver *precisionTable();

/// Pinned blocks allocated and not yet freed.
size_t livePinned();

/// Registers the conversion kernels of every ordered pair of distinct
/// precisions (deviceConvertKernelName) on `f`.
void setConvertKernels(FakeDriver &f);

/// Resets the fake, forgets the pinned blocks and registers the conversion
/// kernels; then opens a context over precisionTable().
Expected<std::shared_ptr<Context>> resetPrecisionFake();

/// Expects nothing left: modules, allocations, streams, events, primary
/// context references, pinned blocks (call after dropping the context).
void expectPrecisionFakeClean();

/// n elements of `t` at `p` as doubles (exact: every precision widens to
/// f64 without rounding).
std::vector<double> toF64(const void *p, ScalarType t, size_t n);

/// Registers `name` on `f` as axpy in storage types (x: `tx`, y: `ty`): y
/// += 2 x computed in f64, the result rounded to `ty`. Its parameters are
/// two rank-1 memref descriptors (x's aligned pointer at 1, y's at 6) and
/// n at 10, as approx-to-ptx lays out axpy(x, y, n); each launch takes
/// `durationMs` on the fake clock.
void setFakeAxpyKernel(FakeDriver &f, const std::string &name, ScalarType tx,
                       ScalarType ty, double durationMs = 0);

} // namespace approx::rt::fake

#endif // APPROX_TEST_RUNTIME_FAKE_PRECISIONFAKE_H
