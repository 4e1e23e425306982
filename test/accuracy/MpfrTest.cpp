//===- MpfrTest.cpp - MPFR references: values, modes, Ziv, runs -----------===//
//
// Reference against exactly known values (exp(0), log(1), exp2 of every
// integer exponent, log2 of powers of two, log10 of exact powers of ten,
// sqrt of squares, rsqrt, pow), against constants given to 45 digits, the
// IEEE special values of every function, the subnormal and overflow edges in
// every rounding mode, against MPFR's direct route (MPFRoracle.h) on random
// inputs of every function in f32 and f64, and the Ziv loop's run lengths,
// precision steps and ternary fallback on inputs picked for them.
//
//===----------------------------------------------------------------------===//
#include "MpfrOracle.h"

#include "approx/accuracy/Rounding.h"
#include "approx/accuracy/Ulp.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>

using namespace approx::accuracy;
using namespace approx::accuracy::test;

namespace {
const double kInf = std::numeric_limits<double>::infinity();
const FormatInfo kF32 = FormatInfo::of<F32>();
const FormatInfo kF64 = FormatInfo::of<F64>();
const RoundingMode kRN = RoundingMode::NearestEven,
                   kRZ = RoundingMode::TowardZero, kRU = RoundingMode::Upward,
                   kRD = RoundingMode::Downward;

/// f(x) is exactly `want` in `fmt`: every mode gives it, ternary 0.
void expectExact(Func f, const FormatInfo &fmt, double x, double y,
                 double want) {
  Reference ref(f, fmt, x, y);
  for (RoundingMode m : kAllRoundingModes) {
    int t = 7;
    double got = ref.rounded(m, &t);
    EXPECT_TRUE(sameValue(got, want))
        << funcName(f) << "(" << x << ", " << y << ") " << fmt.name << " "
        << roundingModeName(m) << ": " << got << ", want " << want;
    EXPECT_EQ(t, 0) << funcName(f) << "(" << x << ") " << roundingModeName(m);
  }
}

/// The next value of `fmt` after `x` towards `to` (x finite, f32 or f64).
double stepIn(const FormatInfo &fmt, double x, double to) {
  if (fmt.precision == 24)
    return std::nextafter(float(x), float(to));
  return std::nextafter(x, to);
}

/// For an inexact f(x): RD < RU adjacent, RN one of them, RZ towards 0,
/// ternaries -1/+1, and RN within half an ulp while the other one is not.
void expectBracket(const Reference &ref, double want) {
  int tn, tz, tu, td;
  double rn = ref.rounded(kRN, &tn), rz = ref.rounded(kRZ, &tz),
         ru = ref.rounded(kRU, &tu), rd = ref.rounded(kRD, &td);
  EXPECT_EQ(rn, want) << funcName(ref.func()) << " " << ref.format().name;
  EXPECT_EQ(td, -1);
  EXPECT_EQ(tu, 1);
  EXPECT_EQ(stepIn(ref.format(), rd, kInf), ru);
  EXPECT_TRUE(rn == rd || rn == ru);
  EXPECT_EQ(tn, rn == ru ? 1 : -1);
  EXPECT_EQ(rz, rd > 0 || ru > 0 ? rd : ru);
  EXPECT_EQ(tz, rz == rd ? -1 : 1);
  double other = rn == rd ? ru : rd;
  EXPECT_LT(ref.ulpError(rn), 0.5);
  EXPECT_GT(ref.ulpError(other), 0.5);
}
} // namespace

TEST(MpfrKnown, ExpLogAtTheirFixedPoints) {
  for (const FormatInfo &fmt : {kF32, kF64}) {
    expectExact(Func::Exp, fmt, 0.0, 0, 1.0);
    expectExact(Func::Exp, fmt, -0.0, 0, 1.0);
    expectExact(Func::Exp2, fmt, 0.0, 0, 1.0);
    expectExact(Func::Expm1, fmt, 0.0, 0, 0.0);
    expectExact(Func::Expm1, fmt, -0.0, 0, -0.0);
    expectExact(Func::Log, fmt, 1.0, 0, 0.0); // +0 in every mode
    expectExact(Func::Log2, fmt, 1.0, 0, 0.0);
    expectExact(Func::Log10, fmt, 1.0, 0, 0.0);
    expectExact(Func::Log1p, fmt, 0.0, 0, 0.0);
    expectExact(Func::Log1p, fmt, -0.0, 0, -0.0);
    expectExact(Func::Sin, fmt, -0.0, 0, -0.0);
    expectExact(Func::Cos, fmt, 0.0, 0, 1.0);
    expectExact(Func::Tan, fmt, -0.0, 0, -0.0);
    expectExact(Func::Tanh, fmt, 0.0, 0, 0.0);
    expectExact(Func::Sqrt, fmt, -0.0, 0, -0.0);
  }
}

TEST(MpfrKnown, Exp2OfEveryIntegerExponent) {
  for (int n = -1074; n <= 1023; ++n)
    expectExact(Func::Exp2, kF64, n, 0, std::ldexp(1.0, n));
  for (int n = -149; n <= 127; ++n)
    expectExact(Func::Exp2, kF32, n, 0, std::ldexp(1.0, n));
}

TEST(MpfrKnown, Log2OfPowersOfTwoAndLog10OfPowersOfTen) {
  for (int n = -1074; n <= 1023; ++n)
    expectExact(Func::Log2, kF64, std::ldexp(1.0, n), 0, n);
  for (int n = -149; n <= 127; ++n)
    expectExact(Func::Log2, kF32, std::ldexp(1.0, n), 0, n);
  double p10 = 1;
  for (int k = 0; k <= 22; ++k, p10 *= 10) // 10^22 is the last exact one
    expectExact(Func::Log10, kF64, p10, 0, k);
  float p10f = 1;
  for (int k = 0; k <= 10; ++k, p10f *= 10) // 10^10 = 2^10 5^10, 5^10 < 2^24
    expectExact(Func::Log10, kF32, p10f, 0, k);
}

TEST(MpfrKnown, SqrtOfSquaresAndRsqrt) {
  std::mt19937_64 rng(21);
  for (int i = 0; i < 20000; ++i) {
    double k = double(rng() >> 38); // < 2^26: k^2 exact in a double
    int e = int(rng() % 1800) - 900;
    double kk = std::ldexp(k * k, 2 * e);
    if (kk == 0 || !std::isfinite(kk) || kk < DBL_MIN)
      continue;
    expectExact(Func::Sqrt, kF64, kk, 0, std::ldexp(k, e));
    float kf = float(rng() >> 52); // < 2^12
    expectExact(Func::Sqrt, kF32, kf * kf, 0, kf);
  }
  for (int n = -537; n <= 511; ++n)
    expectExact(Func::Rsqrt, kF64, std::ldexp(1.0, 2 * n), 0,
                std::ldexp(1.0, -n));
  expectExact(Func::Rsqrt, kF32, 4.0, 0, 0.5);
  expectExact(Func::Rsqrt, kF64, 0.0, 0, kInf);
  expectExact(Func::Rsqrt, kF64, -0.0, 0, -kInf); // IEEE 754 rSqrt
  expectExact(Func::Rsqrt, kF32, kInf, 0, 0.0);
  expectExact(Func::Rsqrt, kF64, -1.0, 0, std::nan(""));
  expectExact(Func::Sqrt, kF64, -1.0, 0, std::nan(""));
}

TEST(MpfrKnown, PowExactAndSpecial) {
  expectExact(Func::Pow, kF64, 2, 10, 1024);
  expectExact(Func::Pow, kF64, -2, 3, -8);
  expectExact(Func::Pow, kF64, 4, 0.5, 2);
  expectExact(Func::Pow, kF64, 0x1p-537, 2, 0x1p-1074);
  expectExact(Func::Pow, kF64, std::nan(""), 0, 1); // C Annex F
  expectExact(Func::Pow, kF64, 1, std::nan(""), 1);
  expectExact(Func::Pow, kF64, -1, kInf, 1);
  expectExact(Func::Pow, kF64, 0.0, -1, kInf);
  expectExact(Func::Pow, kF64, -0.0, -1, -kInf);
  expectExact(Func::Pow, kF64, -8, 1.0 / 3, std::nan(""));
  expectExact(Func::Pow, kF32, 3, 4, 81);
  // 4097^2 = 2^24 + 2^13 + 1 is an f32 midpoint: ties to even.
  Reference mid(Func::Pow, kF32, 4097, 2);
  int t;
  EXPECT_EQ(mid.rounded(kRN, &t), 16785408.0);
  EXPECT_EQ(t, -1);
  EXPECT_EQ(mid.rounded(kRU, &t), 16785410.0);
  EXPECT_EQ(t, 1);
  EXPECT_EQ(mid.direction(), 0);
  EXPECT_EQ(mid.run(), Reference::kRunInfinite); // p + 1 bits
}

TEST(MpfrKnown, SpecialValues) {
  for (const FormatInfo &fmt : {kF32, kF64}) {
    expectExact(Func::Log, fmt, 0.0, 0, -kInf);
    expectExact(Func::Log, fmt, -0.0, 0, -kInf);
    expectExact(Func::Log2, fmt, -1.0, 0, std::nan(""));
    expectExact(Func::Log, fmt, kInf, 0, kInf);
    expectExact(Func::Log1p, fmt, -1.0, 0, -kInf);
    expectExact(Func::Exp, fmt, -kInf, 0, 0.0);
    expectExact(Func::Exp, fmt, kInf, 0, kInf);
    expectExact(Func::Expm1, fmt, -kInf, 0, -1.0);
    expectExact(Func::Sin, fmt, kInf, 0, std::nan(""));
    expectExact(Func::Cos, fmt, -kInf, 0, std::nan(""));
    expectExact(Func::Tanh, fmt, kInf, 0, 1.0);
    expectExact(Func::Tanh, fmt, -kInf, 0, -1.0);
    for (Func f : kAllFuncs)
      expectExact(f, fmt, std::nan(""), 2, std::nan(""));
  }
}

TEST(MpfrKnown, ConstantsTo45Digits) {
  // Decimal literals are rounded to nearest by the compiler.
  struct Case {
    Func f;
    double x;
    double f64;
    float f32;
  } cases[] = {
      {Func::Exp, 1, 2.71828182845904523536028747135266249775724709,
       2.71828182845904523536028747135266249775724709f},
      {Func::Log, 2, 0.693147180559945309417232121458176568075500134,
       0.693147180559945309417232121458176568075500134f},
      {Func::Log, 10, 2.30258509299404568401799145468436420760110149,
       2.30258509299404568401799145468436420760110149f},
      {Func::Log1p, 1, 0.693147180559945309417232121458176568075500134,
       0.693147180559945309417232121458176568075500134f},
      {Func::Expm1, 1, 1.71828182845904523536028747135266249775724709,
       1.71828182845904523536028747135266249775724709f},
      {Func::Log2, 3, 1.58496250072115618145373894394781650875981441,
       1.58496250072115618145373894394781650875981441f},
      {Func::Log10, 2, 0.301029995663981195213738894724493026768189881,
       0.301029995663981195213738894724493026768189881f},
      {Func::Sqrt, 2, 1.41421356237309504880168872420969807856967188,
       1.41421356237309504880168872420969807856967188f},
      {Func::Rsqrt, 2, 0.707106781186547524400844362104849039284835938,
       0.707106781186547524400844362104849039284835938f},
      {Func::Exp2, 0.5, 1.41421356237309504880168872420969807856967188,
       1.41421356237309504880168872420969807856967188f},
      {Func::Sin, 1, 0.841470984807896506652502321630298999622563061,
       0.841470984807896506652502321630298999622563061f},
      {Func::Cos, 1, 0.540302305868139717400936607442976603732310421,
       0.540302305868139717400936607442976603732310421f},
      {Func::Tan, 1, 1.55740772465490223050697480745836017308725077,
       1.55740772465490223050697480745836017308725077f},
      {Func::Tanh, 1, 0.761594155955764888119458282604793590412768597,
       0.761594155955764888119458282604793590412768597f},
  };
  for (const Case &c : cases) {
    expectBracket(Reference(c.f, kF64, c.x), c.f64);
    expectBracket(Reference(c.f, kF32, c.x), c.f32);
    EXPECT_EQ(correctlyRounded(c.f, c.x), c.f64);
    EXPECT_EQ(correctlyRounded(c.f, float(c.x)), c.f32);
  }
  expectBracket(Reference(Func::Pow, kF64, 2, 0.5),
                1.41421356237309504880168872420969807856967188);
}

TEST(MpfrEdges, SubnormalAndOverflowInEveryMode) {
  struct Case {
    double x;
    double rn, rz, ru, rd;
  };
  // exp2 around the bottom and the top of f64 (exact values, so the edge
  // handling alone decides): 2^-1075 is the midpoint of [0, 2^-1074].
  const double tm = 0x1p-1074, mx = DBL_MAX;
  for (Case c : {Case{-1075, 0, 0, tm, 0}, Case{-1076, 0, 0, tm, 0},
                 Case{-1074, tm, tm, tm, tm}, Case{1024, kInf, mx, kInf, mx},
                 Case{5000, kInf, mx, kInf, mx}}) {
    Reference ref(Func::Exp2, kF64, c.x);
    EXPECT_EQ(ref.rounded(kRN), c.rn) << c.x;
    EXPECT_EQ(ref.rounded(kRZ), c.rz) << c.x;
    EXPECT_EQ(ref.rounded(kRU), c.ru) << c.x;
    EXPECT_EQ(ref.rounded(kRD), c.rd) << c.x;
  }
  // An exact subnormal tie: sqrt(9 2^-300) = 3 2^-150 lies halfway between
  // the f32 subnormals 2^-149 (odd) and 2^-148 (even).
  Reference tie(Func::Sqrt, kF32, 9 * 0x1p-300);
  int tt;
  EXPECT_EQ(tie.direction(), 0);
  EXPECT_EQ(tie.rounded(kRN, &tt), 0x1p-148);
  EXPECT_EQ(tt, 1);
  EXPECT_EQ(tie.rounded(kRD, &tt), 0x1p-149);
  EXPECT_EQ(tt, -1);
  // Negative overflow: -exp(1000) does not exist, pow(-e^k, odd) does.
  Reference neg(Func::Pow, kF64, -1e200, 3);
  EXPECT_EQ(neg.rounded(kRN), -kInf);
  EXPECT_EQ(neg.rounded(kRZ), -mx);
  EXPECT_EQ(neg.rounded(kRU), -mx);
  EXPECT_EQ(neg.rounded(kRD), -kInf);
  // Beyond MPFR's own exponent range (2^(2^30)): still inf/max by mode.
  Reference huge(Func::Exp, kF64, 1e300);
  EXPECT_EQ(huge.rounded(kRN), kInf);
  EXPECT_EQ(huge.rounded(kRD), mx);
  EXPECT_EQ(huge.run(), Reference::kRunNone);
  Reference tiny(Func::Exp, kF64, -1e300);
  int t;
  EXPECT_EQ(tiny.rounded(kRN, &t), 0.0);
  EXPECT_EQ(t, -1);
  EXPECT_EQ(tiny.rounded(kRU, &t), tm);
  EXPECT_EQ(t, 1);
  Reference f32tiny(Func::Exp, kF32, -104);
  EXPECT_EQ(f32tiny.rounded(kRN), 0.0);
  EXPECT_EQ(f32tiny.rounded(kRU), 0x1p-149);
  Reference f32big(Func::Exp, kF32, 89);
  EXPECT_EQ(f32big.rounded(kRN), kInf);
  EXPECT_EQ(f32big.rounded(kRZ), double(FLT_MAX));
}

// Reference (Ziv loop, (value, direction) rounding) against MPFR's direct
// route, every function, every mode, random inputs of both formats.
TEST(MpfrRandom, AgreesWithDirectRounding) {
  std::mt19937_64 rng(22);
  long checked = 0;
  for (Func f : kAllFuncs) {
    for (int i = 0; i < 300; ++i) {
      double x, y = 0;
      // Half random bit patterns (every binade, specials), half the
      // function's busy range.
      bool f32 = i & 1;
      if (i % 4 < 2) {
        x = f32 ? double(floatFromBits(uint32_t(rng())))
                : doubleFromBits(rng());
        y = f32 ? double(floatFromBits(uint32_t(rng())))
                : doubleFromBits(rng());
      } else {
        x = (double(rng() >> 11) * 0x1p-53 - 0.5) * 40;
        y = (double(rng() >> 11) * 0x1p-53 - 0.5) * 16;
        if (f32) {
          x = float(x);
          y = float(y);
        }
      }
      const FormatInfo &fmt = f32 ? kF32 : kF64;
      Reference ref(f, fmt, x, y);
      for (RoundingMode m : kAllRoundingModes) {
        int t1, t2;
        double a = ref.rounded(m, &t1);
        double b = directRounding(f, fmt, x, y, m, &t2);
        ASSERT_TRUE(sameValue(a, b))
            << funcName(f) << " " << fmt.name << " " << roundingModeName(m)
            << std::hexfloat << " x=" << x << " y=" << y << ": " << a << " vs "
            << b;
        ASSERT_EQ(t1, t2) << funcName(f) << std::hexfloat << " x=" << x;
        ++checked;
      }
      if (ref.zivDecided()) {
        for (RoundingMode m : kAllRoundingModes) {
          ASSERT_TRUE(sameValue(valueAloneRounding(ref, m), ref.rounded(m)))
              << funcName(f) << std::hexfloat << " x=" << x;
        }
      }
    }
  }
  EXPECT_EQ(checked, 14 * 300 * 4);
}

TEST(MpfrZiv, RunsOfExactValues) {
  // 4097^3 = 2^36 + 3 2^24 + 3 2^12 + 1: in f32 the round bit is bit 12,
  // bits 11..0 are 0000 0000 0001: eleven zeros.
  Reference cube(Func::Pow, kF32, 4097, 3);
  EXPECT_EQ(cube.direction(), 0);
  EXPECT_EQ(cube.run(), 11);
  EXPECT_TRUE(cube.zivDecided());
  // 8 = 2^3 and log(1) = 0: nothing after the round bit.
  EXPECT_EQ(Reference(Func::Exp2, kF64, 3).run(), Reference::kRunInfinite);
  EXPECT_EQ(Reference(Func::Log, kF64, 1).run(), Reference::kRunInfinite);
  EXPECT_EQ(Reference(Func::Log, kF64, -1).run(), Reference::kRunNone);
  // 4095^2 = 2^24 - 2^13 + 1 < 2^24: an f32.
  EXPECT_EQ(Reference(Func::Pow, kF32, 4095, 2).run(), Reference::kRunInfinite);
}

TEST(MpfrZiv, TinyArgumentsEscalate) {
  // exp(2^-1074) = 1 + 2^-1074 + ...: after the round bit (2^-53) come
  // 1020 zeros. The loop needs more than 117 bits to see their end.
  Reference e(Func::Exp, kF64, 0x1p-1074);
  EXPECT_EQ(e.run(), 1020);
  EXPECT_FALSE(e.runIsLowerBound());
  EXPECT_TRUE(e.zivDecided());
  EXPECT_GT(e.precision(), 1020 + 53);
  EXPECT_GT(e.evaluations(), 1);
  EXPECT_EQ(e.rounded(kRN), 1.0);
  EXPECT_EQ(e.rounded(kRU), 1.0 + 0x1p-52);
  EXPECT_EQ(e.rounded(kRD), 1.0);
  // sin(2^-1074) = 2^-1074 - 2^-3222/6: just below a subnormal, so RD and
  // RZ give 0.
  Reference s(Func::Sin, kF64, 0x1p-1074);
  EXPECT_TRUE(s.zivDecided());
  EXPECT_EQ(s.rounded(kRN), 0x1p-1074);
  EXPECT_EQ(s.rounded(kRD), 0.0);
  EXPECT_EQ(s.rounded(kRZ), 0.0);
  EXPECT_EQ(s.rounded(kRU), 0x1p-1074);
  for (RoundingMode m : kAllRoundingModes)
    EXPECT_EQ(s.rounded(m), directRounding(Func::Sin, kF64, 0x1p-1074, 0, m));
  EXPECT_GT(s.run(), 2000);
}

TEST(MpfrZiv, CapFallsBackOnTheTernary) {
  // tanh(1e300) = 1 - 2 e^-2e300: no precision separates it from 1. The
  // loop stops at the cap with a lower bound; the ternary still rounds it.
  Reference t(Func::Tanh, kF64, 1e300);
  EXPECT_TRUE(t.runIsLowerBound());
  EXPECT_FALSE(t.zivDecided());
  EXPECT_EQ(t.precision(), 8192);
  EXPECT_EQ(t.evaluations(), 8); // 117, 234, ..., 7488, 8192
  EXPECT_GE(t.run(), 8192 - 53 - 2);
  EXPECT_EQ(t.rounded(kRN), 1.0);
  EXPECT_EQ(t.rounded(kRU), 1.0);
  EXPECT_EQ(t.rounded(kRD), 1.0 - 0x1p-53);
  EXPECT_EQ(t.rounded(kRZ), 1.0 - 0x1p-53);
  // Rounding the value alone (it is 1) would get RD wrong.
  EXPECT_EQ(valueAloneRounding(t, kRD), 1.0);
  for (RoundingMode m : kAllRoundingModes)
    EXPECT_EQ(t.rounded(m), directRounding(Func::Tanh, kF64, 1e300, 0, m));
  // A smaller cap: one evaluation, same results.
  Reference one(Func::Tanh, kF64, 1e300, 0, {117, 117});
  EXPECT_EQ(one.evaluations(), 1);
  EXPECT_TRUE(one.runIsLowerBound());
  EXPECT_EQ(one.rounded(kRD), 1.0 - 0x1p-53);
  // expm1(-1e300) = -1 + tiny, in f32.
  Reference m(Func::Expm1, kF32, -1e30);
  EXPECT_EQ(m.rounded(kRN), -1.0);
  EXPECT_EQ(m.rounded(kRU), -1.0 + 0x1p-24);
  EXPECT_EQ(m.rounded(kRD), -1.0);
}

TEST(MpfrUlpError, MeasuresAgainstTheExactValue) {
  Reference e(Func::Exp, kF64, 1);
  double rn = e.rounded(kRN);
  double err = e.ulpError(rn);
  EXPECT_GT(err, 0.0);
  EXPECT_LT(err, 0.5);
  EXPECT_NEAR(e.ulpError(std::nextafter(rn, kInf)) + err, 1.0, 1e-15);
  EXPECT_EQ(Reference(Func::Exp2, kF64, 3).ulpError(8.0), 0.0);
  EXPECT_EQ(Reference(Func::Exp2, kF64, 3).ulpError(8.0 + 0x1p-49), 1.0);
  // Exact 1 lies in [1, 2): its ulp is 2^-52 on both sides.
  EXPECT_EQ(Reference(Func::Exp2, kF64, 0).ulpError(1.0 - 0x1p-53), 0.5);
  // Exact just below 1: the lower binade's ulp (2^-53), also when the
  // working value has rounded up onto 1 (exp(-2^-200) at 117 bits).
  Reference below(Func::Exp, kF64, -0x1p-200, 0, {117, 117});
  EXPECT_EQ(mpfr_cmp_ui(below.value(), 1), 0);
  EXPECT_EQ(below.direction(), 1);
  EXPECT_EQ(below.ulpError(1.0 - 0x1p-53), 1.0);
  EXPECT_EQ(below.ulpError(1.0 + 0x1p-52), 2.0);
  // Non-finite.
  EXPECT_EQ(Reference(Func::Log, kF64, 0).ulpError(-kInf), 0.0);
  EXPECT_EQ(Reference(Func::Log, kF64, 0).ulpError(-DBL_MAX), kInf);
  EXPECT_EQ(Reference(Func::Log, kF64, -1).ulpError(std::nan("")), 0.0);
  EXPECT_EQ(Reference(Func::Exp, kF64, 710).ulpError(kInf), 0.0);
  EXPECT_EQ(Reference(Func::Exp, kF64, 709).ulpError(kInf), kInf);
  // f32 against Ulp.h's double-reference measure.
  std::mt19937 rng(23);
  for (int i = 0; i < 2000; ++i) {
    float x = float(double(rng()) * 0x1p-32 * 20 - 10);
    Reference r(Func::Sin, kF32, x);
    float res = float(r.rounded(kRN));
    double viaDouble = ulpError(res, mpfr_get_d(r.value(), MPFR_RNDN));
    EXPECT_NEAR(r.ulpError(res), viaDouble, 0x1p-27) << x;
  }
}

TEST(MpfrApi, MoveAndNames) {
  Reference a(Func::Log, kF64, 2);
  double want = a.rounded(kRN);
  Reference b(std::move(a));
  EXPECT_EQ(b.rounded(kRN), want);
  Reference c(Func::Exp, kF32, 0);
  c = std::move(b);
  EXPECT_EQ(c.rounded(kRN), want);
  EXPECT_EQ(c.func(), Func::Log);
  for (Func f : kAllFuncs)
    EXPECT_EQ(parseFunc(funcName(f)), f);
  EXPECT_FALSE(parseFunc("cbrt").has_value());
  for (RoundingMode m : kAllRoundingModes)
    EXPECT_EQ(parseRoundingMode(roundingModeName(m)), m);
  EXPECT_EQ(funcArity(Func::Pow), 2);
  EXPECT_EQ(funcArity(Func::Rsqrt), 1);
}

TEST(MpfrFormats, F16AndBF16Targets) {
  const FormatInfo f16 = FormatInfo::of<F16>(), bf16 = FormatInfo::of<BF16>();
  Reference e(Func::Exp, f16, 1.0);
  EXPECT_EQ(e.rounded(kRN), 2.71875); // 10.10111b
  EXPECT_EQ(e.rounded(kRD), 2.71875 - 0x1p-9);
  Reference big(Func::Exp, f16, 12.0); // 162755 > 65504
  EXPECT_EQ(big.rounded(kRN), kInf);
  EXPECT_EQ(big.rounded(kRZ), 65504.0);
  EXPECT_EQ(Reference(Func::Exp2, bf16, -133).rounded(kRN), 0x1p-133);
  EXPECT_EQ(Reference(Func::Exp2, bf16, -134).rounded(kRN), 0.0); // tie
  // A double reference rounded by Rounding.h agrees with the MPFR result
  // wherever it is not ambiguous, on every f16 input.
  int compared = 0;
  for (uint32_t b = 0; b < 0x7c00u; ++b) {
    double x = toDouble<F16>(uint16_t(b));
    NearestRounding<F16> rr = roundNearest<F16>(std::log1p(x));
    if (rr.ambiguous(kF32FromF64RefTolerance))
      continue;
    ASSERT_EQ(toDouble<F16>(rr.bits),
              Reference(Func::Log1p, f16, x).rounded(kRN))
        << x;
    ++compared;
  }
  EXPECT_GT(compared, 0x7c00 - 4);
}
