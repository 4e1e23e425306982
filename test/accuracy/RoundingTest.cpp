//===- RoundingTest.cpp - roundNearest and the ambiguity decision ---------===//
//
// roundNearest against the hardware conversions (double -> float, and
// double -> _Float16 where the compiler has it; bf16 against the usual
// float-bits rounding), the distance `frac` against an independent
// computation, and the ambiguity decisions bench/accuracy relies on: exact
// midpoints, the binade-boundary rule (the regression of commit c98a97d),
// subnormal ties, the overflow threshold, double-double and x87 long double
// references (sqrt(DBL_MAX), the case that commit found).
//
//===----------------------------------------------------------------------===//
#include "approx/accuracy/Rounding.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>

using namespace approx::accuracy;

namespace {
const double kInf = std::numeric_limits<double>::infinity();

/// Doubles that exercise a conversion to a format with exponent range
/// [qmin - 3, emax + 2]: random significands, exact values of the format,
/// exact midpoints and midpoints +- one double ulp.
std::vector<double> conversionInputs(int qmin, int emax, int p, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> v;
  for (int i = 0; i < 200000; ++i) {
    int e = qmin - 3 + int(rng() % uint64_t(emax + 6 - qmin));
    double m = 1 + double(rng() >> 12) * 0x1p-52;
    double x = std::ldexp(m, e);
    switch (i % 4) {
    case 1: // a value of the format (p bits), or a midpoint (p + 1 bits)
    case 2: {
      int bits = i % 4 == 1 ? p : p + 1;
      double scale = std::ldexp(1.0, bits - 1);
      x = std::ldexp(std::floor(m * scale) / scale, e);
      break;
    }
    case 3: { // a midpoint, nudged by one double ulp
      double scale = std::ldexp(1.0, p);
      x = std::ldexp(std::floor(m * scale) / scale, e);
      x = std::nextafter(x, (rng() & 1) ? kInf : 0.0);
      break;
    }
    }
    v.push_back((rng() & 1) ? -x : x);
    // Near powers of two, where the spacing changes: 2^e (1 -+ j 2^-(p+3)).
    double j = double(1 + rng() % 24) * std::ldexp(1.0, -(p + 3));
    v.push_back(std::ldexp((i & 1) ? 1 - j : 1 + j, e));
  }
  for (uint64_t b :
       {0x0ull, 0x8000000000000000ull, 0x1ull, 0x7ff0000000000000ull,
        0xfff0000000000000ull, 0x7fefffffffffffffull})
    v.push_back(doubleFromBits(b));
  return v;
}

/// frac recomputed from the rounded value: |ref - r| / ulpOf<F>(ref).
template <class F> double expectedFrac(double ref, typename F::Bits r) {
  if (std::isnan(ref) || std::isinf(ref) || isInf<F>(r) || ref == 0)
    return 0;
  return std::fabs(ref - toDouble<F>(r)) / ulpOf<F>(ref);
}
} // namespace

TEST(RoundNearest, F32MatchesHardwareConversion) {
  for (double x : conversionInputs(F32::kQmin, F32::kEmax, 24, 11)) {
    NearestRounding<F32> r = roundNearest<F32>(x);
    float hw = float(x);
    ASSERT_EQ(r.bits, bitsOf(hw)) << std::hexfloat << x;
    if (!isInf<F32>(r.bits)) {
      ASSERT_EQ(r.frac, expectedFrac<F32>(x, r.bits)) << std::hexfloat << x;
    }
    ASSERT_LE(r.frac, 0.5);
  }
  EXPECT_TRUE(isNaN<F32>(roundNearest<F32>(std::nan("")).bits));
  EXPECT_TRUE(signBit<F32>(roundNearest<F32>(-std::nan("")).bits));
}

#ifdef __FLT16_MAX__
TEST(RoundNearest, F16MatchesCompilerConversion) {
  for (double x : conversionInputs(F16::kQmin, F16::kEmax, 11, 12)) {
    NearestRounding<F16> r = roundNearest<F16>(x);
    _Float16 h = _Float16(x);
    uint16_t hb;
    std::memcpy(&hb, &h, 2);
    ASSERT_EQ(r.bits, hb) << std::hexfloat << x;
    if (!isInf<F16>(r.bits)) {
      ASSERT_EQ(r.frac, expectedFrac<F16>(x, r.bits)) << std::hexfloat << x;
    }
  }
}
#else
TEST(RoundNearest, F16MatchesCompilerConversion) {
  GTEST_SKIP() << "this compiler has no _Float16 to compare with";
}
#endif

TEST(RoundNearest, BF16MatchesFloatBitsRounding) {
  // The usual f32 -> bf16 rounding (add 0x7fff plus the lsb, shift): valid
  // for doubles that are floats, which is all this checks.
  for (double x : conversionInputs(BF16::kQmin, BF16::kEmax, 8, 13)) {
    float f = float(x);
    if (double(f) != x || std::isnan(f))
      continue;
    uint32_t u = bitsOf(f);
    uint16_t want = uint16_t((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
    NearestRounding<BF16> r = roundNearest<BF16>(x);
    ASSERT_EQ(r.bits, want) << std::hexfloat << x;
    if (!isInf<BF16>(r.bits)) {
      ASSERT_EQ(r.frac, expectedFrac<BF16>(x, r.bits)) << std::hexfloat << x;
    }
  }
}

TEST(Ambiguity, MidpointsAndTolerance) {
  const double tol = kF32FromF64RefTolerance;                // 2^-20
  NearestRounding<F32> r = roundNearest<F32>(1.0 + 0x1p-24); // midpoint
  EXPECT_EQ(r.bits, bitsOf(1.0f));                           // to even
  EXPECT_EQ(r.frac, 0.5);
  EXPECT_TRUE(r.ambiguous(tol));
  EXPECT_TRUE(r.ambiguous(0x1p-60));
  EXPECT_FALSE(r.ambiguous(0)); // no tolerance: never ambiguous
  // 2^-21 ulp above the midpoint: within 2^-20, not within 2^-22.
  r = roundNearest<F32>(1.0 + 0x1p-24 + 0x1p-44);
  EXPECT_EQ(r.bits, bitsOf(1.0f + 0x1p-23f));
  EXPECT_EQ(r.frac, 0.5 - 0x1p-21);
  EXPECT_TRUE(r.ambiguous(tol));
  EXPECT_FALSE(r.ambiguous(0x1p-22));
  // 2^-19 ulp below the midpoint: decided.
  r = roundNearest<F32>(1.0 + 0x1p-24 - 0x1p-42);
  EXPECT_EQ(r.bits, bitsOf(1.0f));
  EXPECT_FALSE(r.ambiguous(tol));
  // Representable: frac 0.
  r = roundNearest<F32>(1.5);
  EXPECT_EQ(r.frac, 0.0);
  EXPECT_FALSE(r.ambiguous(tol));
}

TEST(Ambiguity, BinadeBoundaryUsesTheSideOfTheReference) {
  // Just below 1 the f32 spacing is 2^-24, above it 2^-23. 1 - 2^-25 is the
  // midpoint of [1 - 2^-24, 1]: ambiguous. Measured with the spacing above
  // 1 (the rule before commit c98a97d) it would be 0.25 ulp: decided.
  NearestRounding<F32> r = roundNearest<F32>(1.0 - 0x1p-25);
  EXPECT_EQ(r.bits, bitsOf(1.0f));
  EXPECT_EQ(r.frac, 0.5);
  EXPECT_TRUE(r.ambiguous(kF32FromF64RefTolerance));
  r = roundNearest<F32>(1.0 - 0x1p-25 - 0x1p-50);
  EXPECT_EQ(r.bits, bitsOf(1.0f - 0x1p-24f));
  EXPECT_EQ(r.frac, 0.5 - 0x1p-26);
  EXPECT_TRUE(r.ambiguous(kF32FromF64RefTolerance));
  r = roundNearest<F32>(-(1.0 - 0x1p-27)); // rounds onto -1
  EXPECT_EQ(r.bits, bitsOf(-1.0f));
  EXPECT_EQ(r.frac, 0.125);
  // Above the boundary the upper spacing counts.
  r = roundNearest<F32>(1.0 + 0x1p-25);
  EXPECT_EQ(r.frac, 0.25);
  EXPECT_FALSE(r.ambiguous(kF32FromF64RefTolerance));
  // f16 and bf16 follow the same rule.
  EXPECT_EQ(roundNearest<F16>(1.0 - 0x1p-12).frac, 0.5);
  EXPECT_EQ(roundNearest<BF16>(2.0 - 0x1p-8).frac, 0.5);
}

TEST(Ambiguity, SubnormalTiesAndUnderflow) {
  NearestRounding<F32> r = roundNearest<F32>(0x1p-150); // 0 or 2^-149
  EXPECT_EQ(r.bits, 0u);
  EXPECT_EQ(r.frac, 0.5);
  EXPECT_TRUE(r.ambiguous(kF32FromF64RefTolerance));
  r = roundNearest<F32>(3 * 0x1p-150); // 2^-149 or 2^-148: to even
  EXPECT_EQ(r.bits, 2u);
  EXPECT_EQ(r.frac, 0.5);
  r = roundNearest<F32>(-0x1p-151);
  EXPECT_EQ(r.bits, F32::kSignMask); // -0
  EXPECT_EQ(r.frac, 0.25);
  r = roundNearest<F32>(DBL_TRUE_MIN);
  EXPECT_EQ(r.bits, 0u);
  EXPECT_EQ(r.frac, 0x1p-925);
  // The largest subnormal rounding up into the normal range.
  r = roundNearest<F32>(0x1p-126 - 0x1p-151);
  EXPECT_EQ(r.bits, 0x00800000u);
  EXPECT_EQ(r.frac, 0.25);
}

TEST(Ambiguity, OverflowThreshold) {
  const double maxf = FLT_MAX, half = 0x1p103; // ulp(FLT_MAX) / 2
  NearestRounding<F32> r = roundNearest<F32>(maxf + half);
  EXPECT_EQ(r.bits, F32::kInf); // the threshold itself overflows
  EXPECT_EQ(r.frac, 0.5);
  EXPECT_TRUE(r.ambiguous(kF32FromF64RefTolerance));
  r = roundNearest<F32>(maxf + half - 0x1p80);
  EXPECT_EQ(r.bits, F32::kMaxFinite);
  EXPECT_EQ(r.frac, 0.5 - 0x1p-24);
  EXPECT_TRUE(r.ambiguous(kF32FromF64RefTolerance));
  r = roundNearest<F32>(-0x1p128);
  EXPECT_EQ(r.bits, F32::kSignMask | F32::kInf);
  EXPECT_EQ(r.frac, 0.0);
  r = roundNearest<F32>(1e300);
  EXPECT_EQ(r.frac, 0.0);
  EXPECT_EQ(roundNearest<F32>(kInf).bits, F32::kInf);
}

TEST(Ambiguity, DoubleDoubleReference) {
  NearestRounding<F64> r = roundNearest(DoubleDouble{1.0, 0x1p-53});
  EXPECT_EQ(toDouble(r), 1.0); // tie to even
  EXPECT_EQ(r.frac, 0.5);
  r = roundNearest(DoubleDouble{1.0 + 0x1p-52, -0x1p-53 + 0x1p-90});
  EXPECT_EQ(toDouble(r), 1.0 + 0x1p-52);
  EXPECT_EQ(r.frac, 0.5 - 0x1p-38);
  EXPECT_TRUE(r.ambiguous(0x1p-30));
  EXPECT_FALSE(r.ambiguous(0x1p-40));
  // Below 1: the lower binade's spacing 2^-53.
  r = roundNearest(DoubleDouble{1.0, -0x1p-54});
  EXPECT_EQ(toDouble(r), 1.0);
  EXPECT_EQ(r.frac, 0.5);
  r = roundNearest(DoubleDouble{1.0, -0x1p-56});
  EXPECT_EQ(r.frac, 0.125);
  // Unnormalized input.
  r = roundNearest(DoubleDouble{0x1p-60, 1.0});
  EXPECT_EQ(toDouble(r), 1.0);
  EXPECT_EQ(r.frac, 0x1p-8);
  // Subnormal: every double-double there is a double (no rest).
  r = roundNearest(DoubleDouble{0x1p-1073, 0x1p-1074});
  EXPECT_EQ(toDouble(r), 3 * 0x1p-1074);
  EXPECT_EQ(r.frac, 0.0);
}

TEST(Ambiguity, DoubleDoubleOverflow) {
  NearestRounding<F64> r = roundNearest(DoubleDouble{DBL_MAX, 0x1p970});
  EXPECT_EQ(toDouble(r), kInf);
  EXPECT_EQ(r.frac, 0.5);
  r = roundNearest(DoubleDouble{DBL_MAX, 0x1p970 - 0x1p920});
  EXPECT_EQ(toDouble(r), DBL_MAX);
  EXPECT_EQ(r.frac, 0.5 - 0x1p-51);
  r = roundNearest(DoubleDouble{-DBL_MAX, -0x1p971});
  EXPECT_EQ(toDouble(r), -kInf);
  EXPECT_EQ(r.frac, 0.0); // exactly -2^1024: beyond
  r = roundNearest(DoubleDouble{DBL_MAX, 0x1p970 + 0x1p960});
  EXPECT_EQ(toDouble(r), kInf);
  EXPECT_EQ(r.frac, 0.5 - 0x1p-11);
  EXPECT_TRUE(std::isnan(toDouble(roundNearest(DoubleDouble{kInf, -kInf}))));
  EXPECT_EQ(toDouble(roundNearest(DoubleDouble{-kInf, 1})), -kInf);
}

TEST(Ambiguity, LongDoubleReference) {
  if (LDBL_MANT_DIG != 64)
    GTEST_SKIP() << "long double has " << LDBL_MANT_DIG
                 << " significand bits here, not x87's 64";
  NearestRounding<F64> r = roundNearest(1.0L + 0x1p-53L);
  EXPECT_EQ(toDouble(r), 1.0);
  EXPECT_EQ(r.frac, 0.5);
  r = roundNearest(1.0L + 0x1p-53L + 0x1p-63L);
  EXPECT_EQ(toDouble(r), 1.0 + 0x1p-52);
  EXPECT_EQ(r.frac, 0.5 - 0x1p-11);
  EXPECT_TRUE(r.ambiguous(kF64FromLongDoubleRefTolerance));
  EXPECT_FALSE(r.ambiguous(0x1p-12));
  // sqrt(DBL_MAX) = 2^512 sqrt(1 - 2^-53) rounds in long double to
  // 2^512 (1 - 2^-54): exactly the midpoint of the binade below 2^512.
  // The spacing above 2^512 would call it a quarter ulp, and decided.
  long double s = sqrtl((long double)DBL_MAX);
  EXPECT_EQ(s, 0x1p512L - 0x1p458L);
  r = roundNearest(s);
  EXPECT_EQ(toDouble(r), 0x1p512);
  EXPECT_EQ(r.frac, 0.5);
  EXPECT_TRUE(r.ambiguous(kF64FromLongDoubleRefTolerance));
  // Overflow threshold and beyond.
  r = roundNearest((long double)DBL_MAX + 0x1p970L);
  EXPECT_EQ(toDouble(r), kInf);
  EXPECT_EQ(r.frac, 0.5);
  r = roundNearest((long double)DBL_MAX + 0x1p969L);
  EXPECT_EQ(toDouble(r), DBL_MAX);
  EXPECT_EQ(r.frac, 0.25);
  r = roundNearest(0x1p2000L);
  EXPECT_EQ(toDouble(r), kInf);
  EXPECT_EQ(r.frac, 0.0);
  // Below the subnormal range.
  r = roundNearest(0x1p-1076L);
  EXPECT_EQ(toDouble(r), 0.0);
  EXPECT_EQ(r.frac, 0.25);
}

TEST(Ambiguity, LongDoubleAgreesWithDoubleDouble) {
  if (LDBL_MANT_DIG != 64)
    GTEST_SKIP() << "needs x87 long double";
  std::mt19937_64 rng(14);
  for (int i = 0; i < 100000; ++i) {
    uint64_t b = rng() & 0x7fefffffffffffffull;
    double hi = doubleFromBits(b);
    // A trailing part, |lo| <= ulp(hi)/2, that keeps hi + lo exact in 64
    // bits (bits e down to e - 62).
    double lo =
        std::ldexp(double(int64_t(rng() >> 54) - 512), exponentOf(hi) - 62);
    if (hi < 0x1p-1000)
      continue;
    long double ld = (long double)hi + (long double)lo;
    NearestRounding<F64> a = roundNearest(ld);
    NearestRounding<F64> d = roundNearest(DoubleDouble{hi, lo});
    ASSERT_EQ(a.bits, d.bits) << std::hexfloat << hi << " " << lo;
    ASSERT_EQ(a.frac, d.frac) << std::hexfloat << hi << " " << lo;
  }
}
