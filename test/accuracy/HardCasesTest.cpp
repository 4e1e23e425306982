//===- HardCasesTest.cpp - The hard-case oracle against MPFR alone --------===//
//
// The oracle decides most arguments in double (C library) and the rest with
// MPFR; on segments of every function, its sets must equal the sets of
// hardCaseByMpfr evaluated on every argument (MPFR alone, Ziv's strategy),
// at several q, eps and emin, subnormal results and exact values included.
// Bad queries get one-line errors.
//
//===----------------------------------------------------------------------===//
#include "approx/accuracy/HardCases.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace approx::accuracy;

namespace {

struct Segment {
  Func f;
  double lo, ulp;
  uint64_t count;
  int q;
  long emin;
};

} // namespace

TEST(HardCasesTest, EqualsMpfrOnEveryArgument) {
  const Segment segs[] = {
      {Func::Exp, 1.25, 0x1p-23, 1 << 14, 25, 0},
      {Func::Exp, -0x1.9p6, 0x1p-17, 1 << 13, 25, -126}, // subnormal results
      {Func::Exp2, 3.0, 0x1p-22, 1 << 13, 24, 0},        // exp2(3) = 8 exact
      {Func::Log, 1.0, 0x1p-23, 1 << 13, 25, 0},         // log(1) = 0
      {Func::Log2, 0.5, 0x1p-24, 1 << 13, 26, 0},        // log2(1/2) = -1
      {Func::Sin, 0x1.8p10, 0x1p-13, 1 << 14, 25, 0},
      {Func::Cos, -0x1.8p1, 0x1p-22, 1 << 13, 25, 0},
      {Func::Log, 0x1p-140, 0x1p-149, 1 << 12, 24, 0},   // subnormal args
  };
  const std::vector<double> eps{0x1p-6, 0x1p-10, 0x1p-14};
  for (const Segment &s : segs) {
    HardCaseQuery q;
    q.func = s.f;
    q.lo = s.lo;
    q.ulp = s.ulp;
    q.count = s.count;
    q.q = s.q;
    q.emin = s.emin;
    q.epsilons = eps;
    q.threads = 2;
    HardCaseAnswer a;
    std::string err;
    ASSERT_TRUE(findHardCases(q, a, err)) << err;
    std::vector<std::vector<uint64_t>> want(eps.size());
    for (uint64_t j = 0; j < s.count; ++j) {
      std::vector<bool> v = hardCaseByMpfr(s.f, s.lo + (double)j * s.ulp, s.q,
                                           s.emin, eps);
      for (size_t i = 0; i < eps.size(); ++i)
        if (v[i])
          want[i].push_back(j);
    }
    for (size_t i = 0; i < eps.size(); ++i)
      EXPECT_EQ(a.cases[i], want[i])
          << funcName(s.f) << " from " << s.lo << " eps 2^" << std::log2(eps[i]);
    // The expected density: about 2 eps of the arguments.
    EXPECT_GT(a.cases[0].size(), s.count / 64 / 2) << funcName(s.f);
  }
}

TEST(HardCasesTest, ExactValuesAreCases) {
  // exp2(3) = 8 and log(1) = 0 are exact: distance 0 at every eps.
  EXPECT_EQ(hardCaseByMpfr(Func::Exp2, 3.0, 24, 0, {0x1p-30}),
            std::vector<bool>{true});
  EXPECT_EQ(hardCaseByMpfr(Func::Log, 1.0, 24, 0, {0x1p-30}),
            std::vector<bool>{true});
  // exp(1) is far from a 24-bit boundary at 2^-30.
  EXPECT_EQ(hardCaseByMpfr(Func::Exp, 1.0, 24, 0, {0x1p-30}),
            std::vector<bool>{false});
}

TEST(HardCasesTest, RefusesWhatItCannotAnswer) {
  HardCaseQuery q;
  HardCaseAnswer a;
  std::string err;
  q.func = Func::Tan;
  q.count = 1;
  q.epsilons = {0x1p-10};
  EXPECT_FALSE(findHardCases(q, a, err));
  EXPECT_NE(err.find("covers exp, exp2, log, log2, sin and cos"),
            std::string::npos);
  q.func = Func::Exp;
  q.q = 61;
  EXPECT_FALSE(findHardCases(q, a, err));
  EXPECT_NE(err.find("2 <= q <= 60"), std::string::npos);
  q.q = 24;
  q.epsilons = {0.5};
  EXPECT_FALSE(findHardCases(q, a, err));
  EXPECT_NE(err.find("(0, 1/4]"), std::string::npos);
  q.epsilons = {0x1p-10};
  q.lo = 1.0 + 0x1p-30; // not on the grid of ulp 2^-23
  EXPECT_FALSE(findHardCases(q, a, err));
  EXPECT_NE(err.find("doubles on the grid"), std::string::npos);
}
