//===- GlibcTest.cpp - MPFR references and the ambiguity rule vs glibc ----===//
//
// Where glibc is known to round correctly, the references must agree with it
// bit for bit: sqrtf and sqrt (IEEE 754 requires it; SSE does it in every
// rounding mode). glibc 2.36 (Debian 12) has no other correctly rounded f32
// function, so the rest is checked the way bench/accuracy measures: glibc's
// double functions (within 1-2 f64 ulp) rounded to f32, and glibc's x87
// long double functions rounded to f64, must give the correctly rounded
// result wherever Rounding.h does not call the reference ambiguous with the
// bench's tolerances. A failure there would mean the bench's tolerance is
// too small for its reference, not only a bug here.
//
//===----------------------------------------------------------------------===//
#include "approx/accuracy/Mpfr.h"
#include "approx/accuracy/Rounding.h"

#include <gtest/gtest.h>

#include <cfenv>
#include <cfloat>
#include <cmath>
#include <random>

using namespace approx::accuracy;

namespace {
int fenvMode(RoundingMode m) {
  switch (m) {
  case RoundingMode::NearestEven:
    return FE_TONEAREST;
  case RoundingMode::TowardZero:
    return FE_TOWARDZERO;
  case RoundingMode::Upward:
    return FE_UPWARD;
  case RoundingMode::Downward:
    return FE_DOWNWARD;
  }
  return FE_TONEAREST;
}

// Through volatile pointers: no constant folding, no motion across
// fesetround.
float (*volatile glibcSqrtf)(float) = sqrtf;
double (*volatile glibcSqrt)(double) = sqrt;

/// glibc's double function for `f` (1/sqrt and pow composed as C would).
double glibcDouble(Func f, double x, double y) {
  switch (f) {
  case Func::Exp:
    return std::exp(x);
  case Func::Exp2:
    return std::exp2(x);
  case Func::Expm1:
    return std::expm1(x);
  case Func::Log:
    return std::log(x);
  case Func::Log2:
    return std::log2(x);
  case Func::Log10:
    return std::log10(x);
  case Func::Log1p:
    return std::log1p(x);
  case Func::Sin:
    return std::sin(x);
  case Func::Cos:
    return std::cos(x);
  case Func::Tan:
    return std::tan(x);
  case Func::Tanh:
    return std::tanh(x);
  case Func::Sqrt:
    return std::sqrt(x);
  case Func::Rsqrt:
    return 1.0 / std::sqrt(x);
  case Func::Pow:
    return std::pow(x, y);
  }
  return NAN;
}

bool sameBits(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || bitsOf(a) == bitsOf(b);
}
} // namespace

TEST(Glibc, SqrtfIsCorrectlyRoundedInEveryMode) {
  std::vector<float> xs;
  for (uint32_t b = 0; b < 0x7f800000u; b += 40009u) // every binade
    xs.push_back(floatFromBits(b));
  for (float x :
       {0.0f, -0.0f, FLT_TRUE_MIN, FLT_MIN, FLT_MAX, 2.0f, -1.0f, INFINITY})
    xs.push_back(x);
  for (RoundingMode m : kAllRoundingModes) {
    for (float x : xs) {
      std::fesetround(fenvMode(m));
      float g = glibcSqrtf(x);
      std::fesetround(FE_TONEAREST);
      float r = correctlyRounded(Func::Sqrt, x, 0.0f, m);
      ASSERT_TRUE(sameBits(g, r))
          << std::hexfloat << x << " " << roundingModeName(m) << ": glibc " << g
          << ", reference " << r;
    }
  }
}

TEST(Glibc, SqrtIsCorrectlyRoundedInEveryMode) {
  std::mt19937_64 rng(31);
  for (RoundingMode m : kAllRoundingModes) {
    for (int i = 0; i < 20000; ++i) {
      double x = doubleFromBits(rng() & 0x7fffffffffffffffull);
      std::fesetround(fenvMode(m));
      double g = glibcSqrt(x);
      std::fesetround(FE_TONEAREST);
      double r = correctlyRounded(Func::Sqrt, x, 0.0, m);
      ASSERT_TRUE(sameBits(g, r))
          << std::hexfloat << x << " " << roundingModeName(m);
    }
  }
}

// bench/accuracy's f32 method with glibc in place of libdevice.
TEST(Glibc, F32FromDoubleReferencesOutsideTheAmbiguousBand) {
  std::mt19937 rng(32);
  long ambiguous = 0, compared = 0;
  for (Func f : kAllFuncs) {
    for (int i = 0; i < 4000; ++i) {
      float x, y = 0;
      if (i & 1) {
        x = floatFromBits(rng() & 0x7f7fffffu) * ((rng() & 1) ? -1.0f : 1.0f);
        y = floatFromBits(rng() & 0x7f7fffffu) * ((rng() & 1) ? -1.0f : 1.0f);
      } else {
        x = float(double(rng()) * 0x1p-32 * 40 - 20);
        y = float(double(rng()) * 0x1p-32 * 16 - 8);
      }
      if (f == Func::Pow)
        x = std::fabs(x);
      double ref = glibcDouble(f, x, y);
      NearestRounding<F32> rr = roundNearest<F32>(ref);
      if (rr.ambiguous(kF32FromF64RefTolerance)) {
        ++ambiguous;
        continue;
      }
      float cr = correctlyRounded(f, x, y);
      ASSERT_TRUE(sameBits(toFloat(rr), cr))
          << funcName(f) << std::hexfloat << " x=" << x << " y=" << y
          << ": glibc double " << ref << " rounds to " << toFloat(rr)
          << ", correctly rounded " << cr;
      ++compared;
    }
  }
  // Near-midpoint references are rare (a band of 2^-19 ulp).
  EXPECT_LT(ambiguous, 10);
  EXPECT_EQ(compared + ambiguous, 14 * 4000);
}

// bench/accuracy's f64 method: the functions it takes from x87 long double.
TEST(Glibc, F64FromLongDoubleReferencesOutsideTheAmbiguousBand) {
  if (LDBL_MANT_DIG != 64)
    GTEST_SKIP() << "long double has " << LDBL_MANT_DIG
                 << " significand bits here, not x87's 64";
  struct {
    Func f;
    long double (*ld)(long double, long double);
  } funcs[] = {
      {Func::Sin, [](long double x, long double) { return sinl(x); }},
      {Func::Cos, [](long double x, long double) { return cosl(x); }},
      {Func::Exp, [](long double x, long double) { return expl(x); }},
      {Func::Log, [](long double x, long double) { return logl(x); }},
      {Func::Sqrt, [](long double x, long double) { return sqrtl(x); }},
      {Func::Rsqrt, [](long double x, long double) { return 1.0L / sqrtl(x); }},
      {Func::Pow, [](long double x, long double y) { return powl(x, y); }},
  };
  std::mt19937_64 rng(33);
  long ambiguous = 0, compared = 0;
  for (auto &fn : funcs) {
    for (int i = 0; i < 3000; ++i) {
      // As the bench samples: random finite bit patterns; pow: x > 0,
      // y in [-8, 8) on a 2^-20 grid; half over a busy range.
      double x = doubleFromBits(rng() & 0x7fefffffffffffffull), y = 0;
      if (i & 1)
        x = (double(rng() >> 11) * 0x1p-53 - 0.5) * 60;
      if (fn.f == Func::Pow) {
        x = std::fabs(x);
        y = double(int64_t(rng() >> 40) - (int64_t(1) << 23)) / double(1 << 20);
      }
      NearestRounding<F64> rr = roundNearest(fn.ld(x, y));
      if (rr.ambiguous(kF64FromLongDoubleRefTolerance)) {
        ++ambiguous;
        continue;
      }
      double cr = correctlyRounded(fn.f, x, y);
      ASSERT_TRUE(sameBits(toDouble(rr), cr))
          << funcName(fn.f) << std::hexfloat << " x=" << x << " y=" << y
          << ": long double rounds to " << toDouble(rr)
          << ", correctly rounded " << cr;
      ++compared;
    }
  }
  // The band is 2^-9 ulp wide: about 0.2% of the samples (the bench reports
  // ~0.15%).
  EXPECT_LT(ambiguous, 7 * 3000 / 100);
  EXPECT_GT(compared, 7 * 3000 * 95 / 100);
}
