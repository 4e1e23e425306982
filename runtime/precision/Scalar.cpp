//===- Scalar.cpp - the portable conversion path --------------------------===//
//
// One element at a time, in integer arithmetic only, so that the result
// depends on no floating-point state (MXCSR's FTZ/DAZ/rounding mode, ARM's
// FPCR) and on no compiler's float-conversion code. Every source value is
// first widened exactly to binary64 bits, then rounded once to the target
// (round to nearest, ties to even, with the target's subnormals), so every
// pair is correctly rounded by construction. NaNs come out quiet with the
// top payload bits that fit: exactly what x86's cvtps2pd, cvtpd2ps,
// vcvtph2ps and vcvtps2ph do, so the AVX2 path can match this bit for bit.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"

#include "approx/runtime/core/FloatBits.h"

#include <cstring>

namespace approx::rt::precision::detail {
namespace {

using namespace floatbits;

/// Storage and binary64 mapping of each precision.
template <int F> struct Format;
template <> struct Format<kF64> {
  using Bits = uint64_t;
  static constexpr Bits kAbs = kF64Abs, kInf = kF64Inf;
  static uint64_t toF64(Bits b) { return b; }
  static Bits fromF64(uint64_t x) { return x; }
};
template <> struct Format<kF32> {
  using Bits = uint32_t;
  static constexpr Bits kAbs = 0x7fffffffu, kInf = 0x7f800000u;
  static uint64_t toF64(Bits b) { return widenToF64<23, 8>(b); }
  static Bits fromF64(uint64_t x) { return roundFromF64<23, 8>(x); }
};
template <> struct Format<kF16> {
  using Bits = uint16_t;
  static constexpr Bits kAbs = 0x7fff, kInf = 0x7c00;
  static uint64_t toF64(Bits b) { return widenToF64<10, 5>(b); }
  static Bits fromF64(uint64_t x) { return Bits(roundFromF64<10, 5>(x)); }
};
template <> struct Format<kBF16> {
  using Bits = uint16_t;
  static constexpr Bits kAbs = 0x7fff, kInf = 0x7f80;
  static uint64_t toF64(Bits b) { return widenToF64<7, 8>(b); }
  static Bits fromF64(uint64_t x) { return Bits(roundFromF64<7, 8>(x)); }
};

template <int From, int To>
void convertKernel(const void *src, void *dst, size_t n) {
  if constexpr (From == To) {
    std::memcpy(dst, src, n * sizeof(typename Format<From>::Bits));
  } else {
    using S = typename Format<From>::Bits;
    using D = typename Format<To>::Bits;
    const auto *in = static_cast<const unsigned char *>(src);
    auto *out = static_cast<unsigned char *>(dst);
    for (size_t i = 0; i < n; ++i) {
      S b;
      std::memcpy(&b, in + i * sizeof(S), sizeof(S));
      const D r = Format<To>::fromF64(Format<From>::toF64(b));
      std::memcpy(out + i * sizeof(D), &r, sizeof(D));
    }
  }
}

template <int F> void countKernel(const void *p, size_t n, ClassCounts &acc) {
  using B = typename Format<F>::Bits;
  const auto *in = static_cast<const unsigned char *>(p);
  uint64_t inf = 0, zero = 0, nan = 0;
  for (size_t i = 0; i < n; ++i) {
    B b;
    std::memcpy(&b, in + i * sizeof(B), sizeof(B));
    const B a = B(b & Format<F>::kAbs);
    zero += a == 0;
    inf += a == Format<F>::kInf;
    nan += a > Format<F>::kInf;
  }
  acc.inf += inf;
  acc.zero += zero;
  acc.nan += nan;
}

constexpr KernelTable kScalarTable = {
    {{&convertKernel<kF64, kF64>, &convertKernel<kF64, kF32>,
      &convertKernel<kF64, kF16>, &convertKernel<kF64, kBF16>},
     {&convertKernel<kF32, kF64>, &convertKernel<kF32, kF32>,
      &convertKernel<kF32, kF16>, &convertKernel<kF32, kBF16>},
     {&convertKernel<kF16, kF64>, &convertKernel<kF16, kF32>,
      &convertKernel<kF16, kF16>, &convertKernel<kF16, kBF16>},
     {&convertKernel<kBF16, kF64>, &convertKernel<kBF16, kF32>,
      &convertKernel<kBF16, kF16>, &convertKernel<kBF16, kBF16>}},
    {&countKernel<kF64>, &countKernel<kF32>, &countKernel<kF16>,
     &countKernel<kBF16>},
    {}}; // no streaming variants: the portable path stays portable

} // namespace

const KernelTable &scalarKernels() { return kScalarTable; }

} // namespace approx::rt::precision::detail
