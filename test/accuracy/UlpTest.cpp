//===- UlpTest.cpp - Formats, ulp distance and ulp error ------------------===//
//
// Bit-level facts of f16/bf16/f32/f64 (checked against <cfloat> and, for f16
// and bf16, exhaustively against exact double values), ulpDistance with the
// special values, ulpOf's binade rule and ulpError against double, long
// double and double-double references.
//
//===----------------------------------------------------------------------===//
#include "approx/accuracy/Ulp.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>

using namespace approx::accuracy;

namespace {
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The bits of the value at ordinal `o` (o in [-ordinal(inf), ordinal(inf)]).
template <class F> typename F::Bits fromOrdinal(int64_t o) {
  return o < 0 ? typename F::Bits(F::kSignMask | typename F::Bits(-o))
               : typename F::Bits(o);
}

/// Every value of a 16-bit format, -inf to +inf by ordinal: the ordinal
/// round-trips, the exact double values increase, neighbours are 1 apart.
template <class F> void checkOrdinalsExhaustive() {
  const int64_t top = ordinal<F>(F::kInf);
  EXPECT_EQ(top, int64_t(F::kMaxFinite) + 1);
  EXPECT_EQ(ordinal<F>(typename F::Bits(F::kSignMask | F::kInf)), -top);
  double prev = -kInf;
  for (int64_t o = -top; o <= top; ++o) {
    typename F::Bits b = fromOrdinal<F>(o);
    ASSERT_EQ(ordinal<F>(b), o);
    double v = toDouble<F>(b);
    if (o > -top) {
      ASSERT_GT(v, prev) << F::kName << " ordinal " << o;
      ASSERT_EQ(ulpDistance<F>(b, fromOrdinal<F>(o - 1)), 1u);
      ASSERT_EQ(ulpDistance<F>(b, fromOrdinal<F>(-top)), uint64_t(o + top));
    }
    prev = v;
  }
}
} // namespace

TEST(Format, ConstantsMatchCfloat) {
  EXPECT_EQ(toDouble<F32>(F32::kMaxFinite), double(FLT_MAX));
  EXPECT_EQ(toDouble<F64>(F64::kMaxFinite), DBL_MAX);
  EXPECT_EQ(std::ldexp(1.0, F32::kEmin), double(FLT_MIN));
  EXPECT_EQ(std::ldexp(1.0, F32::kQmin), double(FLT_TRUE_MIN));
  EXPECT_EQ(std::ldexp(1.0, F64::kQmin), DBL_TRUE_MIN);
  EXPECT_EQ(F32::kPrecision, FLT_MANT_DIG);
  EXPECT_EQ(F64::kPrecision, DBL_MANT_DIG);
  EXPECT_EQ(F32::kEmax + 1, FLT_MAX_EXP);
  EXPECT_EQ(F64::kEmin + 1, DBL_MIN_EXP);
  // f16: max 65504, min normal 2^-14, min subnormal 2^-24.
  EXPECT_EQ(toDouble<F16>(F16::kMaxFinite), 65504.0);
  EXPECT_EQ(toDouble<F16>(0x0400), 0x1p-14);
  EXPECT_EQ(toDouble<F16>(0x0001), 0x1p-24);
  EXPECT_EQ(toDouble<F16>(0x3c00), 1.0);
  EXPECT_EQ(toDouble<F16>(0xc000), -2.0);
  // bf16: the top half of an f32.
  EXPECT_EQ(toDouble<BF16>(0x3f80), 1.0);
  EXPECT_EQ(toDouble<BF16>(0x7f7f), double(floatFromBits(0x7f7f0000u)));
  EXPECT_EQ(toDouble<BF16>(0x0001), 0x1p-133);
  EXPECT_TRUE(std::isinf(toDouble<F16>(F16::kInf)));
  EXPECT_TRUE(std::isnan(toDouble<BF16>(BF16::kQuietNaN)));
  EXPECT_TRUE(std::signbit(toDouble<F16>(0x8000)));
}

TEST(Format, Classification) {
  EXPECT_TRUE(isNaN<F16>(0x7e00));
  EXPECT_TRUE(isNaN<F16>(0xfc01)); // negative signaling NaN
  EXPECT_FALSE(isNaN<F16>(0x7c00));
  EXPECT_TRUE(isInf<F16>(0xfc00));
  EXPECT_TRUE(isSubnormal<F32>(0x00000001u));
  EXPECT_FALSE(isSubnormal<F32>(0x00800000u));
  EXPECT_TRUE(isZero<F64>(F64::kSignMask));
  EXPECT_TRUE(isFinite<BF16>(0x7f7f));
  EXPECT_FALSE(isFinite<BF16>(0x7f80));
}

TEST(Format, F32BitsToDoubleMatchesHardware) {
  std::mt19937 rng(1);
  for (int i = 0; i < 100000; ++i) {
    uint32_t b = rng();
    float f = floatFromBits(b);
    double d = toDouble<F32>(b);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(d));
    } else {
      ASSERT_EQ(bitsOf(d), bitsOf(double(f))) << std::hex << b;
    }
  }
}

TEST(Format, Pow2AndExponentOf) {
  EXPECT_EQ(pow2(0), 1.0);
  EXPECT_EQ(pow2(-1074), DBL_TRUE_MIN);
  EXPECT_EQ(pow2(-1022), DBL_MIN);
  EXPECT_EQ(pow2(1023), 0x1p1023);
  EXPECT_EQ(exponentOf(1.0), 0);
  EXPECT_EQ(exponentOf(-0.75), -1);
  EXPECT_EQ(exponentOf(DBL_MAX), 1023);
  EXPECT_EQ(exponentOf(DBL_TRUE_MIN), -1074);
  EXPECT_EQ(exponentOf(3 * DBL_TRUE_MIN), -1073);
}

TEST(Ordinal, F16Exhaustive) { checkOrdinalsExhaustive<F16>(); }
TEST(Ordinal, BF16Exhaustive) { checkOrdinalsExhaustive<BF16>(); }

TEST(Ordinal, SignedZerosAndInfinities) {
  EXPECT_EQ(ordinal<F32>(bitsOf(0.0f)), 0);
  EXPECT_EQ(ordinal<F32>(bitsOf(-0.0f)), 0);
  EXPECT_EQ(ordinal<F32>(bitsOf(FLT_TRUE_MIN)), 1);
  EXPECT_EQ(ordinal<F32>(bitsOf(-FLT_TRUE_MIN)), -1);
  EXPECT_EQ(ordinal<F64>(bitsOf(kInf)), ordinal<F64>(bitsOf(DBL_MAX)) + 1);
  EXPECT_EQ(ordinal<F64>(bitsOf(-kInf)), -ordinal<F64>(bitsOf(kInf)));
}

TEST(Ordinal, F32AndF64MonotoneOnRandomPairs) {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 100000; ++i) {
    uint64_t a = rng(), b = rng();
    float fa = floatFromBits(uint32_t(a)), fb = floatFromBits(uint32_t(b));
    if (!std::isnan(fa) && !std::isnan(fb) && fa != fb) {
      ASSERT_EQ(fa < fb, ordinal<F32>(uint32_t(a)) < ordinal<F32>(uint32_t(b)));
    }
    double da = doubleFromBits(a), db = doubleFromBits(b);
    if (!std::isnan(da) && !std::isnan(db) && da != db) {
      ASSERT_EQ(da < db, ordinal<F64>(a) < ordinal<F64>(b));
    }
  }
}

TEST(UlpDistance, Basics) {
  EXPECT_EQ(ulpDistance(1.0f, 1.0f), 0u);
  EXPECT_EQ(ulpDistance(1.0f, std::nextafter(1.0f, 2.0f)), 1u);
  EXPECT_EQ(ulpDistance(1.0f, std::nextafter(1.0f, 0.0f)), 1u);
  EXPECT_EQ(ulpDistance(1.0f, 2.0f), 1u << 23);
  EXPECT_EQ(ulpDistance(1.0, 2.0), uint64_t(1) << 52);
  // Across the binade boundary below 1: 2^24 steps down to 0.5.
  EXPECT_EQ(ulpDistance(0.5f, 1.0f), 1u << 23);
}

TEST(UlpDistance, ZerosSubnormalsAndSignChange) {
  EXPECT_EQ(ulpDistance(0.0f, -0.0f), 0u);
  EXPECT_EQ(ulpDistance(0.0, -0.0), 0u);
  EXPECT_EQ(ulpDistance(-FLT_TRUE_MIN, FLT_TRUE_MIN), 2u);
  EXPECT_EQ(ulpDistance(-0.0f, FLT_TRUE_MIN), 1u);
  EXPECT_EQ(ulpDistance(0.0, DBL_MIN), uint64_t(1) << 52);
  EXPECT_EQ(ulpDistance(-1.0f, 1.0f), 2u * 0x3f800000u);
  EXPECT_EQ(ulpDistance<F16>(0x8001, 0x0001), 2u);
  EXPECT_EQ(ulpDistance<BF16>(0x0080, 0x007f), 1u); // min normal / max sub
}

TEST(UlpDistance, InfinitiesAndNaNs) {
  EXPECT_EQ(ulpDistance(FLT_MAX, std::numeric_limits<float>::infinity()), 1u);
  EXPECT_EQ(ulpDistance(-kInf, kInf), 2 * uint64_t(0x7ff0000000000000));
  EXPECT_EQ(ulpDistance<F16>(0xfc00, 0x7c00), 2u * 0x7c00u);
  EXPECT_EQ(ulpDistance(kNaN, kNaN), 0u);
  EXPECT_EQ(ulpDistance(kNaN, -kNaN), 0u);
  EXPECT_EQ(ulpDistance<F32>(0x7fc00001u, 0xffc00000u), 0u); // payloads
  EXPECT_EQ(ulpDistance(kNaN, 1.0), kNaNDistance);
  EXPECT_EQ(ulpDistance(kInf, kNaN), kNaNDistance);
  EXPECT_EQ(ulpDistance<BF16>(0x7fc0, 0x0000), kNaNDistance);
}

TEST(UlpOf, BinadeRule) {
  EXPECT_EQ(ulpOf<F32>(1.0), 0x1p-23);
  EXPECT_EQ(ulpOf<F32>(std::nextafter(1.0, 0.0)), 0x1p-24); // lower binade
  EXPECT_EQ(ulpOf<F32>(1.9999), 0x1p-23);
  EXPECT_EQ(ulpOf<F32>(-3.0), 0x1p-22);
  EXPECT_EQ(ulpOf<F64>(1.0), 0x1p-52);
  EXPECT_EQ(ulpOf<F16>(1.0), 0x1p-10);
  EXPECT_EQ(ulpOf<BF16>(1.0), 0x1p-7);
  EXPECT_EQ(ulpOf<F16>(65504.0), 32.0);
}

TEST(UlpOf, SubnormalZeroAndBeyondRange) {
  EXPECT_EQ(ulpOf<F32>(0.0), 0x1p-149);
  EXPECT_EQ(ulpOf<F32>(1e-40), 0x1p-149);
  EXPECT_EQ(ulpOf<F32>(0x1p-126), 0x1p-149); // min normal: same spacing
  EXPECT_EQ(ulpOf<F64>(DBL_TRUE_MIN), 0x1p-1074);
  EXPECT_EQ(ulpOf<F64>(-0.0), 0x1p-1074);
  EXPECT_EQ(ulpOf<F16>(1e-7), 0x1p-24);
  EXPECT_EQ(ulpOf<F16>(1e6), 32.0); // past the top binade: its spacing
  EXPECT_EQ(ulpOf<F32>(1e300), 0x1p104);
  EXPECT_EQ(ulpOf<F32>(kInf), 0x1p104);
  EXPECT_TRUE(std::isnan(ulpOf<F32>(kNaN)));
}

TEST(UlpOf, DoubleDoubleAndLongDouble) {
  EXPECT_EQ(ulpOf(DoubleDouble{1.0, 0x1p-80}), 0x1p-52);
  EXPECT_EQ(ulpOf(DoubleDouble{1.0, -0x1p-80}), 0x1p-53); // below 1
  EXPECT_EQ(ulpOf(DoubleDouble{-1.0, 0x1p-80}), 0x1p-53); // |.| below 1
  EXPECT_EQ(ulpOf(DoubleDouble{-1.0, -0x1p-80}), 0x1p-52);
  EXPECT_EQ(ulpOf(DoubleDouble{DBL_MIN, -0x1p-1074}), 0x1p-1074);
  // An unnormalized pair: 0.75 + 0.5 = 1.25.
  EXPECT_EQ(ulpOf(DoubleDouble{0.75, 0.5}), 0x1p-52);
  EXPECT_EQ(ulpOfF64(1.0L), 0x1p-52);
  EXPECT_EQ(ulpOfF64(0.0L), 0x1p-1074);
  if (LDBL_MANT_DIG > 53) {
    long double justBelow = 1.0L - 0x1p-60L; // rounds to 1.0 as a double
    EXPECT_EQ(double(justBelow), 1.0);
    EXPECT_EQ(ulpOfF64(justBelow), 0x1p-53);
  }
}

TEST(UlpError, AgainstDouble) {
  // f32 result 1.0 and exact values on either side of it.
  EXPECT_EQ(ulpError(1.0f, 1.0 + 0x1p-24), 0.5);
  EXPECT_EQ(ulpError(1.0f, 1.0 - 0x1p-25), 0.5); // lower binade's ulp
  EXPECT_EQ(ulpError(1.0f, 1.0 - 0x1p-30), 0x1p-6);
  EXPECT_EQ(ulpError(std::nextafter(1.0f, 0.0f), 1.0 - 0x1p-30), 1 - 0x1p-6);
  EXPECT_EQ(ulpError(2.0f, 1.0), 0x1p23);
  EXPECT_EQ(ulpError(-1.5f, -1.5), 0.0);
  // Subnormal results are measured in the subnormal spacing.
  EXPECT_EQ(ulpError(0.0f, 0x1p-150), 0.5);
  EXPECT_EQ(ulpError<F16>(0x0001, 0x1p-24 * 1.25), 0.25);
  // Beyond the largest finite value: the top binade's spacing.
  EXPECT_EQ(ulpError(FLT_MAX, double(FLT_MAX) + 0x1p103), 0.5);
  EXPECT_EQ(ulpError<BF16>(0x3f80, 1.0 + 0x1p-9), 0.25);
}

TEST(UlpError, NonFinite) {
  const float finf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(ulpError(std::nanf(""), kNaN), 0.0);
  EXPECT_EQ(ulpError(std::nanf(""), 1.0), kInf);
  EXPECT_EQ(ulpError(1.0f, kNaN), kInf);
  EXPECT_EQ(ulpError(finf, kInf), 0.0);
  EXPECT_EQ(ulpError(finf, -kInf), kInf);
  EXPECT_EQ(ulpError(1.0f, kInf), kInf);
  // +inf is the correct rounding of anything at or past max + ulp/2.
  double threshold = double(FLT_MAX) + 0x1p103;
  EXPECT_EQ(ulpError(finf, threshold), 0.0);
  EXPECT_EQ(ulpError(finf, std::nextafter(threshold, 0.0)), kInf);
  EXPECT_EQ(ulpError(-finf, -1e300), 0.0);
  EXPECT_EQ(ulpError(finf, -1e300), kInf);
  EXPECT_EQ(ulpError(kInf, DBL_MAX), kInf);
  EXPECT_EQ(ulpError(DBL_MAX, kInf), kInf);
}

TEST(UlpError, F64AgainstDoubleDoubleAndLongDouble) {
  EXPECT_EQ(ulpError(1.0, DoubleDouble{1.0, 0x1p-53}), 0.5);
  EXPECT_EQ(ulpError(1.0, DoubleDouble{1.0, -0x1p-54}), 0.5); // lower binade
  EXPECT_EQ(ulpError(std::nextafter(1.0, 2.0), DoubleDouble{1.0, 0x1p-54}),
            0.75);
  EXPECT_EQ(ulpError(DBL_MAX, DoubleDouble{DBL_MAX, 0x1p969}), 0.25);
  // DBL_MAX + 2^970 is the overflow threshold: RN gives +inf.
  EXPECT_EQ(ulpError(kInf, DoubleDouble{DBL_MAX, 0x1p970}), 0.0);
  EXPECT_EQ(ulpError(kInf, DoubleDouble{DBL_MAX, 0x1p969}), kInf);
  EXPECT_EQ(ulpError(-DBL_MAX, DoubleDouble{DBL_MAX, 0}),
            ulpError(-DBL_MAX, DBL_MAX));
  EXPECT_EQ(ulpError(-DBL_MAX, DBL_MAX), 0x1p54 - 2); // 2 DBL_MAX / 2^971
  EXPECT_EQ(ulpError(kNaN, DoubleDouble{kInf, -kInf}), 0.0);
  EXPECT_EQ(ulpError(1.0, 1.0L), 0.0);
  if (LDBL_MANT_DIG > 53) {
    EXPECT_EQ(ulpError(1.0, 1.0L + 0x1p-54L), 0.25);
    EXPECT_EQ(ulpError(1.0, 1.0L - 0x1p-55L), 0.25); // lower binade
    EXPECT_EQ(ulpError(kInf, (long double)DBL_MAX + 0x1p970L), 0.0);
    EXPECT_EQ(ulpError(kInf, (long double)DBL_MAX + 0x1p969L), kInf);
  }
}

// The defining property of the binade rule: RN(x) is within half an ulp of
// x, and the neighbour on the other side of x is not.
template <class F> static void checkHalfUlpProperty(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 50000; ++i) {
    // Values spanning F's range, near binade boundaries half of the time.
    int e = int(rng() % (F::kEmax - F::kQmin + 4)) + F::kQmin - 2;
    double m = 1 + double(rng() >> 11) * 0x1p-53;
    if (i & 1)
      m = (rng() & 1) ? 1 + double(rng() % 64) * 0x1p-52
                      : 2 - double(1 + rng() % 64) * 0x1p-52;
    double x = std::ldexp(m, e);
    if (x >= toDouble<F>(F::kMaxFinite))
      continue;
    // Round down and up in F by bracketing with ordinals.
    double lo = 0, hi = 0;
    typename F::Bits b = 0;
    // Binary search the largest F value <= x.
    int64_t a = 0, z = int64_t(F::kMaxFinite);
    while (a < z) {
      int64_t mid = (a + z + 1) / 2;
      if (toDouble<F>(typename F::Bits(mid)) <= x)
        a = mid;
      else
        z = mid - 1;
    }
    b = typename F::Bits(a);
    lo = toDouble<F>(b);
    hi = toDouble<F>(typename F::Bits(a + 1));
    double elo = ulpError<F>(b, x),
           ehi = ulpError<F>(typename F::Bits(a + 1), x);
    if (lo == x) {
      ASSERT_EQ(elo, 0.0);
      continue;
    }
    // Exactly one side is within 1/2 (both at a midpoint); they sum to 1.
    ASSERT_EQ(elo + ehi, 1.0)
        << F::kName << " x=" << x << " " << lo << " " << hi;
    ASSERT_TRUE(std::min(elo, ehi) <= 0.5);
  }
}

TEST(UlpError, HalfUlpPropertyAllFormats) {
  checkHalfUlpProperty<F16>(3);
  checkHalfUlpProperty<BF16>(4);
  checkHalfUlpProperty<F32>(5);
}
