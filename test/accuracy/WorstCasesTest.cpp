//===- WorstCasesTest.cpp - CORE-MATH's binary64 exp/log worst cases ------===//
//
// The published hard-to-round inputs of exp and log (CORE-MATH's exp.wc and
// log.wc, read at run time from $APPROX_WORST_CASES_DIR or the build's
// APPROX_WORST_CASES_DIR; skipped, with the reason, when absent). On every
// input: the reference rounds like MPFR's direct route in all four modes,
// value() alone rounds correctly (Ziv's criterion), the run of identical bits
// after the round bit ended inside the working precision, and escalation
// happened only where half the precision could not decide. Per section, the
// run lengths meet what the file's comments state.
//
//===----------------------------------------------------------------------===//
#include "MpfrOracle.h"

#include "approx/accuracy/NumberList.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

using namespace approx::accuracy;
using namespace approx::accuracy::test;

namespace {
const FormatInfo kF64 = FormatInfo::of<F64>();

std::string worstCasesDir() {
  if (const char *env = std::getenv("APPROX_WORST_CASES_DIR"))
    return env;
  return APPROX_WORST_CASES_DIR;
}

/// Reads `file` into sections, or says why not (the test then skips).
bool load(const std::string &file, std::vector<NumberSection> &sections,
          std::string &why) {
  std::string path = worstCasesDir() + "/" + file;
  if (!std::ifstream(path)) {
    why = path + " not found (set APPROX_WORST_CASES_DIR to the directory "
                 "holding CORE-MATH's worst-case lists; they are not in the "
                 "repository)";
    return false;
  }
  if (!readNumberSections(path, sections, why)) {
    ADD_FAILURE() << why;
    return false;
  }
  return true;
}

/// The first section whose first comment line starts with `prefix`.
const NumberSection *findSection(const std::vector<NumberSection> &sections,
                                 const std::string &prefix) {
  for (const NumberSection &s : sections)
    if (!s.comments.empty() && s.comments[0].rfind(prefix, 0) == 0)
      return &s;
  return nullptr;
}

/// Run lengths of one section: the smallest, and how many reach `at`.
struct RunStats {
  long minRun = Reference::kRunInfinite;
  size_t atLeast = 0, rows = 0;
};

/// Checks the inputs of `s` and returns its run statistics: the run and
/// the Ziv properties on every row, the rounding against MPFR's direct
/// route on every `stride`-th row in round-to-nearest and every 4 stride-th
/// in all modes (the direct route is what costs: ~10 us a call).
RunStats checkSection(Func f, const NumberSection &s, long at, size_t stride) {
  RunStats st;
  for (size_t i = 0; i < s.rows(); ++i) {
    double x = s.values[i];
    Reference ref(f, kF64, x);
    std::string where = std::string(funcName(f)) + "(" + hexFloat(x) +
                        ") line " + std::to_string(s.firstLine + i);
    for (RoundingMode m : kAllRoundingModes) {
      if (i % (m == RoundingMode::NearestEven ? stride : 4 * stride))
        continue;
      int t1, t2;
      double a = ref.rounded(m, &t1);
      double b = directRounding(f, kF64, x, 0, m, &t2);
      EXPECT_TRUE(sameValue(a, b) && t1 == t2)
          << where << " " << roundingModeName(m) << ": " << hexFloat(a)
          << " vs " << hexFloat(b);
    }
    ++st.rows;
    long run = ref.run();
    if (run == Reference::kRunNone)
      continue;
    EXPECT_TRUE(ref.zivDecided()) << where;
    EXPECT_FALSE(ref.runIsLowerBound()) << where;
    if (ref.zivDecided() && i % stride == 0) {
      EXPECT_TRUE(sameValue(valueAloneRounding(ref, RoundingMode::NearestEven),
                            ref.rounded(RoundingMode::NearestEven)))
          << where;
    }
    // Ziv: the run ended inside the bits value() determines...
    if (mpfr_get_exp(ref.value()) > -1021 && ref.direction() != 0) {
      EXPECT_LE(run + 53 + 2, ref.precision()) << where;
    }
    // ... and half the precision could not determine it.
    if (ref.evaluations() > 1) {
      long half = ref.precision() / 2;
      Reference low(f, kF64, x, 0, {half, half});
      EXPECT_TRUE(low.runIsLowerBound()) << where << " at " << half;
      EXPECT_LE(low.run(), run) << where;
    }
    st.minRun = std::min(st.minRun, run);
    if (run >= at)
      ++st.atLeast;
  }
  return st;
}
} // namespace

TEST(WorstCases, Log) {
  std::vector<NumberSection> sections;
  std::string why;
  if (!load("core-math-binary64-log.wc", sections, why))
    GTEST_SKIP() << why;
  // "extra worst cases with 47 identical bits or more after the round bit":
  // every one has >= 47, and the search threshold itself occurs.
  const NumberSection *extra = findSection(sections, "extra worst cases");
  ASSERT_NE(extra, nullptr);
  RunStats st = checkSection(Func::Log, *extra, 47, 4);
  EXPECT_GT(st.rows, 100000u);
  EXPECT_EQ(st.atLeast, st.rows);
  EXPECT_EQ(st.minRun, 47);
  // The first section (Lefèvre's list) and the special values: checked for
  // correct rounding, no stated threshold.
  for (const NumberSection &s : sections)
    if (&s != extra)
      checkSection(Func::Log, s, 0, 1);
}

TEST(WorstCases, Exp) {
  std::vector<NumberSection> sections;
  std::string why;
  if (!load("core-math-binary64-exp.wc", sections, why))
    GTEST_SKIP() << why;
  // "for most inputs x, exp(x) has at least 44 identical bits after the
  // round bit": 99.8% here.
  const NumberSection *main = findSection(sections, "hard-to-round cases");
  ASSERT_NE(main, nullptr);
  RunStats st = checkSection(Func::Exp, *main, 44, 4);
  EXPECT_GT(st.rows, 60000u);
  EXPECT_GT(st.atLeast * 1000, st.rows * 995);
  // "worst cases in the subnormal range with at least 33 identical bits
  // after the round bit (-m 34 with bacsel)": bacsel's -m k means k - 1
  // identical bits, and the bound is met exactly.
  const NumberSection *sub =
      findSection(sections, "additional worst cases in the subnormal");
  ASSERT_NE(sub, nullptr);
  st = checkSection(Func::Exp, *sub, 33, 4);
  EXPECT_GT(st.rows, 70000u);
  EXPECT_EQ(st.atLeast, st.rows);
  EXPECT_EQ(st.minRun, 33);
  // "[-2^-11, -2^-12) computed with bacsel (-m 44)": 43 identical bits.
  const NumberSection *m44 =
      findSection(sections, "additional worst cases in [-2^-11");
  ASSERT_NE(m44, nullptr);
  st = checkSection(Func::Exp, *m44, 43, 1);
  EXPECT_EQ(st.atLeast, st.rows);
  EXPECT_EQ(st.minRun, 43);
  // Overflow/underflow inputs, exp(x) ~ 2^-1075, subnormal outputs, the
  // sign of 0: correct rounding in every mode.
  for (const NumberSection &s : sections)
    if (&s != main && &s != sub && &s != m44)
      checkSection(Func::Exp, s, 0, 1);
}
