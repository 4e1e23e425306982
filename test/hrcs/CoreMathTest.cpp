//===- CoreMathTest.cpp - CORE-MATH's published binary64 hard cases -------===//
//
// ../shared/data/worst-cases/ holds CORE-MATH's lists of binary64 arguments
// whose exp(x) / log(x) has a long run of identical bits after the round
// bit (read from there, never copied). For a sample of them: search the
// 2^16-argument segment holding x (p = 53, boundaries of every rounding
// mode: q = 54, subnormal results on their fixed grid) with epsilon =
// 2^-32, and require that every listed case
// whose MPFR distance is below epsilon is found. Skipped, with the reason,
// when the data directory is absent.
//
//===----------------------------------------------------------------------===//
#include "approx/hrcs/Search.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>

using namespace approx::hrcs;

namespace {

std::vector<std::string> readCases(const std::string &path) {
  std::vector<std::string> out;
  std::ifstream f(path);
  std::string line;
  bool started = false; // the files open with overflow/underflow inputs
  while (std::getline(f, line)) {
    if (line.find("hard-to-round") != std::string::npos ||
        line.find("worst cases") != std::string::npos)
      started = true;
    if (line.empty() || line[0] == '#' || !started)
      continue;
    out.push_back(line.substr(0, line.find_first_of(" \t#")));
  }
  return out;
}

void checkSample(const char *fn, const char *file, size_t want) {
  std::string path = std::string(APPROX_WORST_CASES_DIR) + "/" + file;
  std::vector<std::string> all = readCases(path);
  if (all.empty())
    GTEST_SKIP() << "no CORE-MATH cases at " << path;
  const Function *f = lookupFunction(fn);
  ASSERT_NE(f, nullptr);
  const char *eps = "0x1p-32";
  size_t tried = 0, reached = 0;
  for (size_t i = 0; i < all.size() && tried < want;
       i += all.size() / want + 1) {
    Real x(53), lo(53), hi(53), ulp(64);
    if (mpfr_set_str(x, all[i].c_str(), 0, MPFR_RNDN) != 0 ||
        !mpfr_regular_p(x))
      continue;
    if (std::string(fn) == "log" && mpfr_sgn(x) <= 0)
      continue;
    // The aligned 2^16-argument segment of x's binade holding x.
    long e = mpfr_get_exp(x) - 1;
    Real t(128);
    mpfr_abs(t, x, MPFR_RNDN);
    mpfr_mul_2si(t, t, 52 - e, MPFR_RNDN); // integer significand
    mpfr_div_2ui(t, t, 16, MPFR_RNDN);
    mpfr_floor(t, t);
    mpfr_mul_2ui(t, t, 16, MPFR_RNDN);
    mpfr_mul_2si(lo, t, e - 52, MPFR_RNDN);
    mpfr_set(hi, lo, MPFR_RNDN);
    mpfr_set_ui_2exp(ulp, 1, e - 52 + 16, MPFR_RNDN);
    mpfr_add(hi, hi, ulp, MPFR_RNDN);
    if (mpfr_sgn(x) < 0) {
      // [-(lo + 2^16 ulp), -lo), as ascending bounds
      mpfr_neg(t, hi, MPFR_RNDN);
      mpfr_neg(hi, lo, MPFR_RNDN);
      mpfr_set(lo, t, MPFR_RNDN);
    }
    char *slo, *shi;
    mpfr_asprintf(&slo, "%Ra", lo.get());
    mpfr_asprintf(&shi, "%Ra", hi.get());
    SearchParams sp;
    sp.function = fn;
    sp.lo = slo;
    sp.hi = shi;
    sp.argPrecision = 53;
    sp.precision = 54;
    sp.emin = -1022; // binary64 subnormal results (exp near -745)
    sp.epsilon = eps;
    mpfr_free_str(slo);
    mpfr_free_str(shi);
    Plan plan;
    std::string err;
    if (!plan.init(sp, false, err)) {
      // e.g. a segment crossing a binade at -lo (the next binade's first
      // argument); such a case is skipped, not counted.
      continue;
    }
    ++tried;
    // Is x's run long enough for this epsilon? Then the search must list it.
    Real j(128);
    mpfr_sub(j, x, lo, MPFR_RNDN);
    mpfr_mul_2si(j, j, 52 - e, MPFR_RNDN);
    uint64_t index = mpfr_get_uj(j, MPFR_RNDN);
    Case c;
    bool isCase = confirmCase(plan, index, c);
    if (!isCase) {
      if (getenv("HRCS_VERBOSE"))
        std::printf("not within epsilon: %s\n", all[i].c_str());
      continue;
    }
    ++reached;
    std::string dir = ::testing::TempDir() + "hrcs-coremath-" + fn;
    ASSERT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
    CpuBackend cpu;
    RunOptions ro;
    ro.outDir = dir;
    ro.progress = false;
    RunResult res;
    ASSERT_TRUE(runSearch(plan, cpu, ro, res, err)) << err;
    bool found = std::any_of(res.cases.begin(), res.cases.end(),
                             [&](const Case &k) { return k.argument == c.argument; });
    EXPECT_TRUE(found) << fn << "(" << all[i] << ") is listed by CORE-MATH, "
                       << "lies 2^" << c.log2Distance
                       << " ulp from a boundary, and the search missed it";
  }
  EXPECT_GE(tried, want * 3 / 4);
  // CORE-MATH's lists hold runs of >= 33 (subnormal exp results) or >= 44
  // identical bits, plus a few entries that are not hard cases at all (in
  // log.wc, e.g. 0x1.0000000078004p+0 lies 2^-17.3 ulp from a boundary):
  // nearly every sampled case is in reach at 2^-32.
  EXPECT_GE(reached, tried * 3 / 4);
  std::printf("%s: %zu CORE-MATH cases sampled, %zu within 2^-32, all found\n",
              fn, tried, reached);
}

} // namespace

TEST(CoreMathTest, Exp) { checkSample("exp", "core-math-binary64-exp.wc", 24); }
TEST(CoreMathTest, Log) { checkSample("log", "core-math-binary64-log.wc", 24); }
