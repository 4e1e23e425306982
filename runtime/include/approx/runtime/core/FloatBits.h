//===- FloatBits.h - exact IEEE conversions on bit patterns -----*- C++ -*-===//
//
// One value at a time, in integer arithmetic only, so that the result
// depends on no floating-point state (MXCSR's FTZ/DAZ/rounding mode, ARM's
// FPCR): widening any binary format to binary64 (exact) and rounding
// binary64 to a narrower format (round to nearest, ties to even, once, with
// the target's subnormals and overflow to infinity). NaNs come out quiet
// with the top payload bits that fit, as x86's conversion instructions do.
// The launch-argument encoders (core/Args.h: f16 and bf16 scalars) and the
// precision technique's scalar conversion path (runtime/precision/Scalar.cpp)
// both use these, so the runtime rounds one way everywhere; core holds them
// because core needs them and core includes no technique.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_FLOATBITS_H
#define APPROX_RUNTIME_CORE_FLOATBITS_H

#include <cstdint>

namespace approx::rt::floatbits {

constexpr uint64_t kF64Frac = (uint64_t(1) << 52) - 1;
constexpr uint64_t kF64Inf = uint64_t(0x7ff) << 52;
constexpr uint64_t kF64Quiet = uint64_t(1) << 51;
constexpr uint64_t kF64Abs = ~(uint64_t(1) << 63);

/// Binary64 bits of the value with bits `b` in a binary format with M
/// fraction bits and E exponent bits (exact: every such value is a double).
template <int M, int E> inline uint64_t widenToF64(uint32_t b) {
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
template <int M, int E> inline uint32_t roundFromF64(uint64_t x) {
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

} // namespace approx::rt::floatbits

#endif // APPROX_RUNTIME_CORE_FLOATBITS_H
