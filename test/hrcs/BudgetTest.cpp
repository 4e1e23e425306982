//===- BudgetTest.cpp - The error budget of a unit, term by term ----------===//
//
// errorBudget (hrcs/src/Plan.cpp, docs/hrcs.md "Error budget"): the degree-3
// remainder of phases 2 and 3 is the whole interval's whatever the split
// (the unsoundness fixed in 2026-11), the binomial bounds vanish where the
// models are exact, every threshold covers eps and its terms, and a term
// that is not finite is refused.
//
//===----------------------------------------------------------------------===//
#include "approx/hrcs/Plan.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace approx::hrcs;

namespace {

/// A unit like binary32 exp on [64, 128) (q = 25): large |P'''|.
void fill(BudgetInputs &in, mpfr_srcptr eps) {
  in.eps = eps;
  in.log2Derivative = 186; // |exp| <= 2^185 on [64, 128)
  in.degree = 6;
  in.unitArgs = 1 << 10;
  in.argExp = -17;
  in.ulpExp = 185 - 24;
  mpfr_set_d(in.valueBound, 0x1p25, MPFR_RNDU);
  mpfr_set_d(in.secondBound, 0x1p-9, MPFR_RNDU);
  mpfr_set_d(in.thirdBound, 0x1p-26, MPFR_RNDU);
  in.coefPrecision = 120;
  in.intervalArgs = 1 << 8;
  in.split = 1;
  in.packetIntervals = 4;
  in.packets = 1;
  in.words = 2;
  in.tableBits = 256;
}

double toDouble(U128 v) { return std::ldexp((double)v.hi, -64) + std::ldexp((double)v.lo, -128); }

} // namespace

TEST(BudgetTest, SubIntervalsKeepTheIntervalsCubicTerm) {
  Real eps(64);
  mpfr_set_d(eps, 0x1p-24, MPFR_RNDN);
  BudgetInputs in;
  fill(in, eps);
  ErrorBudget one = errorBudget(in);
  ASSERT_TRUE(one.unproven.empty()) << one.unproven;
  // K = 2^-26 C(255, 3) ~ 2^-4.6 whatever the split: phase 3's threshold
  // may not shrink with the sub-interval (it did before the fix).
  const double K = 0x1p-26 * (255.0 * 254 * 253 / 6);
  EXPECT_NEAR(one.log2K, std::log2(K), 1e-6);
  for (uint64_t split : {2, 8, 16, 256}) {
    in.split = split;
    ErrorBudget b = errorBudget(in);
    EXPECT_EQ(b.log2K, one.log2K) << split;
    EXPECT_GE(toDouble(b.eps3), K) << split;
    EXPECT_GE(std::ldexp((double)b.eps2, -64), K) << split;
    EXPECT_EQ(b.eps3.hi, one.eps3.hi) << split;
    // Only the sub-interval truncation shrinks.
    EXPECT_LT(b.log2Q2, one.log2Q2) << split;
  }
}

TEST(BudgetTest, ExactModelsCostNothing) {
  Real eps(64);
  mpfr_set_d(eps, 0x1p-24, MPFR_RNDN);
  BudgetInputs in;
  fill(in, eps);
  in.intervalArgs = 2; // a line through 2 points, a quadratic through 3
  ErrorBudget b = errorBudget(in);
  EXPECT_EQ(b.log2Q1, -INFINITY);
  EXPECT_EQ(b.log2K, -INFINITY);
  in.intervalArgs = 4; // C(3, 3) = 1: K = max|P'''| exactly
  b = errorBudget(in);
  EXPECT_NEAR(b.log2K, -26, 1e-9);
}

TEST(BudgetTest, ThresholdsCoverEpsAndEveryTerm) {
  Real eps(64);
  mpfr_set_d(eps, 0x1p-40, MPFR_RNDN);
  BudgetInputs in;
  fill(in, eps);
  mpfr_set_d(in.thirdBound, 0x1p-80, MPFR_RNDU);
  mpfr_set_d(in.secondBound, 0x1p-60, MPFR_RNDU);
  ErrorBudget b = errorBudget(in);
  ASSERT_TRUE(b.unproven.empty());
  // The sum of the terms, less the doubles' rounding (the thresholds are
  // exact upper bounds; this only checks that each term is in its sum).
  auto sum = [&](std::initializer_list<double> l2) {
    double s = 0x1p-40;
    for (double t : l2)
      s += std::exp2(t);
    return s * (1 - 1e-12);
  };
  EXPECT_GE(std::ldexp((double)b.eps1, -64),
            sum({b.log2R, b.log2C, b.log2T, b.log2Q1, b.log2X1}));
  EXPECT_GE(std::ldexp((double)b.eps2, -64),
            sum({b.log2R, b.log2C, b.log2T, b.log2K, b.log2Q2, b.log2X2}));
  EXPECT_GE(toDouble(b.eps3), sum({b.log2R, b.log2C, b.log2T, b.log2K, b.log2X3}));
  // The tabulation term grows with N^2 (a2's error times C(m, 2)).
  in.intervalArgs = 1 << 16;
  ErrorBudget big = errorBudget(in);
  EXPECT_GT(big.log2T, b.log2T + 15);
}

TEST(BudgetTest, RefusesWhatItCannotProve) {
  Real eps(64);
  mpfr_set_d(eps, 0x1p-24, MPFR_RNDN);
  BudgetInputs in;
  fill(in, eps);
  in.log2Derivative = INFINITY;
  ErrorBudget b = errorBudget(in);
  EXPECT_EQ(b.unproven, "the bound on f's derivative of order 7 is not finite");
  in.log2Derivative = 186;
  mpfr_set_inf(in.valueBound, 1);
  b = errorBudget(in);
  EXPECT_EQ(b.unproven, "the coefficients' rounding error is not finite");
}
