//===- Kernels.h - conversion kernels of HostConvert (private) --*- C++ -*-===//
//
// HostConvert.cpp validates, splits the array over threads and into
// L1-sized blocks, and calls these per block: one table of kernels per code
// path (Scalar.cpp, Avx2.cpp). Each table converts every ordered pair of
// the four precisions and counts the classes (inf, zero, NaN) of an array,
// from which HostConvert derives the overflow and underflow counts.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_KERNELS_H
#define APPROX_RUNTIME_PRECISION_KERNELS_H

#include <cstddef>
#include <cstdint>

namespace approx::rt::precision::detail {

/// The four precisions as table indices.
enum Fmt : int { kF64 = 0, kF32 = 1, kF16 = 2, kBF16 = 3, kNumFmts = 4 };

/// Bytes per element of each Fmt.
constexpr size_t kFmtBytes[kNumFmts] = {8, 4, 2, 2};

/// Converts n elements; src and dst do not overlap; any alignment. Kernels
/// that use floating-point instructions set and restore MXCSR themselves.
using ConvertFn = void (*)(const void *src, void *dst, size_t n);

/// Infinities, zeros (either sign) and NaNs in an array.
struct ClassCounts {
  uint64_t inf = 0, zero = 0, nan = 0;
};
/// Adds the classes of n elements at p to `acc`.
using CountFn = void (*)(const void *p, size_t n, ClassCounts &acc);

/// One code path.
struct KernelTable {
  ConvertFn convert[kNumFmts][kNumFmts]; ///< [from][to]; from == to copies
  CountFn count[kNumFmts];
  /// [from][to] or null: the same conversion writing with non-temporal
  /// stores (same bits), for destinations too large to stay in cache. A
  /// normal store to memory not in cache first reads the line (read for
  /// ownership), so filling a large f64 array moves twice its bytes; the
  /// widening pairs' host-side conversion in a d2h transfer was bound by it
  /// (about 55 GB/s of f64 written on an H100 host, 2026-11-26). Each call
  /// ends with a store fence.
  ConvertFn stream[kNumFmts][kNumFmts];
};

/// The portable path (integer arithmetic only: no dependence on the
/// floating-point environment). Always available.
const KernelTable &scalarKernels();

/// The AVX2 + F16C path, or null in a build without it (non-x86).
const KernelTable *avx2Kernels();
/// True when this CPU (and OS) can run avx2Kernels().
bool cpuHasAvx2F16c();

} // namespace approx::rt::precision::detail

#endif // APPROX_RUNTIME_PRECISION_KERNELS_H
