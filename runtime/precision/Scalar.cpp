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

#include <cstring>

namespace approx::rt::precision::detail {
namespace {

constexpr uint64_t kF64Frac = (uint64_t(1) << 52) - 1;
constexpr uint64_t kF64Inf = uint64_t(0x7ff) << 52;
constexpr uint64_t kF64Quiet = uint64_t(1) << 51;
constexpr uint64_t kF64Abs = ~(uint64_t(1) << 63);

/// Binary64 bits of the value with bits `b` in a binary format with M
/// fraction bits and E exponent bits (exact: every such value is a double).
template <int M, int E> uint64_t widenToF64(uint32_t b) {
  constexpr uint32_t kExpMax = (1u << E) - 1;
  constexpr int kBias = (1 << (E - 1)) - 1;
  const uint64_t sign = uint64_t(b >> (M + E)) << 63;
  const uint32_t exp = (b >> M) & kExpMax;
  uint64_t frac = b & ((1u << M) - 1);
  if (exp == kExpMax)
    return frac == 0 ? sign | kF64Inf
                     : sign | kF64Inf | kF64Quiet | (frac << (52 - M));
  if (exp == 0) {
    if (frac == 0)
      return sign;
    // Subnormal: frac * 2^(1 - bias - M). Normalise the leading one to bit
    // M; each shift lowers the exponent by one.
    int e = 1 - kBias;
    while (!(frac & (uint64_t(1) << M))) {
      frac <<= 1;
      --e;
    }
    return sign | (uint64_t(e + 1023) << 52) |
           ((frac & ((uint64_t(1) << M) - 1)) << (52 - M));
  }
  return sign | (uint64_t(int(exp) - kBias + 1023) << 52) | (frac << (52 - M));
}

/// Bits of binary64 `x` rounded to nearest even in a binary format with M
/// fraction bits and E exponent bits (subnormals, overflow to infinity).
template <int M, int E> uint32_t roundFromF64(uint64_t x) {
  constexpr uint32_t kInf = ((1u << E) - 1) << M;
  constexpr int kBias = (1 << (E - 1)) - 1;
  constexpr int kEmin = 1 - kBias;
  const uint32_t sign = uint32_t(x >> 63) << (M + E);
  const uint64_t ax = x & kF64Abs;
  if (ax >= kF64Inf) {
    if (ax == kF64Inf)
      return sign | kInf;
    return sign | kInf | (1u << (M - 1)) |
           uint32_t((ax & kF64Frac) >> (52 - M));
  }
  const int biased = int(ax >> 52);
  // Zero, or a binary64 subnormal: below half the least subnormal of every
  // target (2^-150 for binary32), so it rounds to zero.
  if (biased == 0)
    return sign;
  const int e = biased - 1023;
  if (e > kBias) // |x| >= 2^(emax+1)
    return sign | kInf;
  const uint64_t m = (ax & kF64Frac) | (uint64_t(1) << 52); // 53 bits
  // Bits of m below the target's last place: 52 - M, plus one per binade
  // below the normal range. Past 54 every bit of m is below half an ulp.
  int shift = 52 - M + (e < kEmin ? kEmin - e : 0);
  if (shift > 54)
    shift = 54;
  uint64_t q = m >> shift;
  const uint64_t rem = m & ((uint64_t(1) << shift) - 1);
  const uint64_t half = uint64_t(1) << (shift - 1);
  // Branch-free: the direction is data-dependent, a branch would mispredict.
  q += uint64_t(rem > half) | (uint64_t(rem == half) & q & 1);
  // A normal q holds the hidden bit, which adds one to the exponent field; a
  // subnormal q that rounds up to 2^M is the least normal, as wanted, and a
  // carry out of the top binade reaches the infinity pattern.
  const uint64_t bits = e < kEmin ? q : (uint64_t(e - kEmin) << M) + q;
  return bits >= kInf ? sign | kInf : sign | uint32_t(bits);
}

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
     &countKernel<kBF16>}};

} // namespace

const KernelTable &scalarKernels() { return kScalarTable; }

} // namespace approx::rt::precision::detail
