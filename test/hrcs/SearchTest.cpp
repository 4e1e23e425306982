//===- SearchTest.cpp - The CPU search against MPFR on every argument -----===//
//
// Each case: the set of hard-to-round arguments the three-phase search
// returns equals the set MPFR finds by evaluating every argument, for both
// lower-bound algorithms, several functions, binades, signs and precisions.
// Also: an interrupted run resumed gives the same .wc as one run.
//
//===----------------------------------------------------------------------===//
#include "approx/hrcs/Search.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

using namespace approx::hrcs;

namespace {

struct Spec {
  const char *fn, *lo, *hi;
  int p, q;
  const char *eps;
};

std::string tempDir(const std::string &name) {
  std::string d = ::testing::TempDir() + "hrcs-" + name;
  std::string cmd = "rm -rf '" + d + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  return d;
}

std::vector<uint64_t> searchIndices(const Plan &plan, RunResult &res,
                                    const std::string &dir) {
  CpuBackend cpu;
  RunOptions ro;
  ro.outDir = dir;
  ro.progress = false;
  std::string err;
  EXPECT_TRUE(runSearch(plan, cpu, ro, res, err)) << err;
  std::vector<uint64_t> out;
  Real x(plan.argPrecision() + 2), y(256);
  // Map the .wc arguments back to indices through MPFR.
  for (const Case &c : res.cases) {
    mpfr_set_str(y, c.argument.c_str(), 0, MPFR_RNDN);
    plan.argument(x, 0);
    mpfr_sub(y, y, x, MPFR_RNDN);
    plan.argument(x, 1);
    Real u(256);
    mpfr_set(u, x, MPFR_RNDN);
    plan.argument(x, 0);
    mpfr_sub(u, u, x, MPFR_RNDN);
    mpfr_div(y, y, u, MPFR_RNDN);
    out.push_back(mpfr_get_uj(y, MPFR_RNDN));
  }
  return out;
}

class SearchVsMpfr : public ::testing::TestWithParam<std::tuple<Spec, const char *>> {};

} // namespace

TEST_P(SearchVsMpfr, SameSet) {
  auto [spec, alg] = GetParam();
  SearchParams sp;
  sp.function = spec.fn;
  sp.lo = spec.lo;
  sp.hi = spec.hi;
  sp.argPrecision = spec.p;
  sp.precision = spec.q;
  sp.epsilon = spec.eps;
  sp.algorithm = alg;
  Plan plan;
  std::string err;
  ASSERT_TRUE(plan.init(sp, false, err)) << err;
  RunResult res;
  std::vector<uint64_t> got = searchIndices(
      plan, res,
      tempDir(::testing::UnitTest::GetInstance()->current_test_info()->name()));
  std::vector<uint64_t> want = bruteForce(plan, 0, plan.argCount());
  EXPECT_EQ(got, want) << spec.fn << " [" << spec.lo << ", " << spec.hi
                       << ") p=" << spec.p << " q=" << spec.q;
  EXPECT_GT(want.size(), 0u) << "a case set this small tests nothing";
  // The filters must do their job: far fewer MPFR calls than arguments.
  EXPECT_LT(res.stats.candidates + res.stats.direct, plan.argCount() / 4);
}

static const Spec kSpecs[] = {
    {"exp", "1", "0x1.04p0", 24, 25, "0x1p-10"},
    {"exp", "-0x1.8p2", "-0x1.7fp2", 24, 25, "0x1p-9"},
    {"exp2", "0x1.4p4", "0x1.41p4", 24, 24, "0x1p-9"},
    {"log", "0x1.6p-1", "0x1.64p-1", 24, 25, "0x1p-10"},
    {"log", "1", "0x1.02p0", 24, 25, "0x1p-9"},
    {"log2", "0x1.8p5", "0x1.84p5", 24, 25, "0x1p-10"},
    {"sin", "1.5", "0x1.98p0", 24, 25, "0x1p-10"},
    {"cos", "1.5", "0x1.98p0", 24, 25, "0x1p-10"},
    {"sin", "0x1.8p-3", "0x1.808p-3", 24, 25, "0x1p-9"},
    // binary64 arguments, a thin segment, looser epsilon to have cases
    {"exp", "0x1.5p0", "0x1.5000000001p0", 53, 54, "0x1p-11"},
    {"log", "0x1.3p7", "0x1.3000000001p7", 53, 54, "0x1p-6"},
    // extended-like arguments and boundaries
    {"exp", "1", "0x1.00000000000001p0", 64, 64, "0x1p-8"},
};

INSTANTIATE_TEST_SUITE_P(
    Functions, SearchVsMpfr,
    ::testing::Combine(::testing::ValuesIn(kSpecs),
                       ::testing::Values("lefevre", "regular")),
    [](const auto &info) {
      // e.g. exp_p24_0_lefevre: function, precision, index, algorithm
      const Spec &s = std::get<0>(info.param);
      return std::string(s.fn) + "_p" + std::to_string(s.p) + "_" +
             std::to_string(info.index / 2) + "_" + std::get<1>(info.param);
    });

TEST(SearchTest, ResumeGivesTheSameCases) {
  SearchParams sp;
  sp.function = "log";
  sp.lo = "1";
  sp.hi = "0x1.04p0"; // many pieces near log(1) = 0: many units
  sp.argPrecision = 24;
  sp.precision = 25;
  sp.epsilon = "0x1p-9";
  Plan plan;
  std::string err;
  ASSERT_TRUE(plan.init(sp, false, err)) << err;
  ASSERT_GT(plan.units().size(), 10u);
  CpuBackend cpu;
  RunResult whole, part, rest;
  RunOptions ro;
  ro.progress = false;
  ro.outDir = tempDir("resume-whole");
  ASSERT_TRUE(runSearch(plan, cpu, ro, whole, err)) << err;
  ro.outDir = tempDir("resume-resumed");
  ro.batchUnits = 3;
  ro.stopAfterUnits = 7;
  ASSERT_TRUE(runSearch(plan, cpu, ro, part, err)) << err;
  EXPECT_TRUE(part.interrupted);
  // A second start without --resume is refused; with it, it finishes.
  ro.stopAfterUnits = 0;
  EXPECT_FALSE(runSearch(plan, cpu, ro, rest, err));
  EXPECT_NE(err.find("holds a checkpoint"), std::string::npos) << err;
  ro.resume = true;
  ASSERT_TRUE(runSearch(plan, cpu, ro, rest, err)) << err;
  EXPECT_FALSE(rest.interrupted);
  auto slurp = [](const std::string &p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  };
  EXPECT_EQ(slurp(whole.wcPath), slurp(rest.wcPath));
  EXPECT_EQ(whole.stats.phase1, rest.stats.phase1);
  EXPECT_EQ(whole.stats.candidates, rest.stats.candidates);
}

// A domain over several binades (both signs) gives the cases of its binades
// searched one by one, and resumes across binade boundaries.
TEST(SearchTest, SeveralBinadesAsOne) {
  struct Dom {
    const char *lo, *hi;
    std::vector<std::pair<const char *, const char *>> parts;
  } doms[] = {
      {"0x1.8p-3", "0x1.4p-1",
       {{"0x1.8p-3", "0x1p-2"}, {"0x1p-2", "0x1p-1"}, {"0x1p-1", "0x1.4p-1"}}},
      {"-0x1p2", "-0x1.8p-1",
       {{"-0x1p2", "-0x1.fffffep0"},
        {"-0x1.fffffep0", "-0x1.fffffep-1"},
        {"-0x1.fffffep-1", "-0x1.8p-1"}}},
  };
  for (const Dom &d : doms) {
    SearchParams sp;
    sp.function = "exp";
    sp.argPrecision = 24;
    sp.precision = 25;
    sp.epsilon = "0x1p-12";
    sp.lo = d.lo;
    sp.hi = d.hi;
    Plan plan;
    std::string err;
    ASSERT_TRUE(plan.init(sp, false, err)) << err;
    CpuBackend cpu;
    RunOptions ro;
    ro.progress = false;
    RunResult whole;
    ASSERT_TRUE(runSearch(plan, cpu, ro, whole, err)) << err;
    std::vector<std::string> want, got;
    for (const Case &c : whole.cases)
      got.push_back(c.argument);
    size_t binades = 0;
    for (auto [lo, hi] : d.parts) {
      SearchParams one = sp;
      one.lo = lo;
      one.hi = hi;
      Plan p1;
      ASSERT_TRUE(p1.init(one, false, err)) << err;
      binades += p1.binades();
      RunResult r;
      ASSERT_TRUE(runSearch(p1, cpu, ro, r, err)) << err;
      for (const Case &c : r.cases)
        want.push_back(c.argument);
    }
    EXPECT_EQ(got, want) << d.lo;
    EXPECT_GT(got.size(), 1000u);
    // [-4, -2): -4 alone in its binade, then (-4, -2].
    EXPECT_EQ(plan.binades(), binades) << d.lo;
    EXPECT_GE(plan.binades(), 3u) << d.lo;
    // Interrupted in the middle binade, then resumed: the same file.
    RunResult part, rest, ref;
    ro.outDir = tempDir(std::string("binades-ref") + (d.lo[0] == '-' ? "n" : "p"));
    ASSERT_TRUE(runSearch(plan, cpu, ro, ref, err)) << err;
    ro.outDir = tempDir(std::string("binades-resumed") + (d.lo[0] == '-' ? "n" : "p"));
    ro.batchUnits = 1;
    ro.stopAfterUnits = plan.units().size() / 2;
    ASSERT_TRUE(runSearch(plan, cpu, ro, part, err)) << err;
    EXPECT_TRUE(part.interrupted);
    ro.stopAfterUnits = 0;
    ro.resume = true;
    ASSERT_TRUE(runSearch(plan, cpu, ro, rest, err)) << err;
    std::ifstream a(ref.wcPath), b(rest.wcPath);
    std::stringstream sa, sb;
    sa << a.rdbuf();
    sb << b.rdbuf();
    EXPECT_EQ(sa.str(), sb.str()) << d.lo;
  }
}

// A SplitBackend (several GPUs) over three CPU backends, and an in-memory
// run (no output directory): the same cases and counts as one backend.
TEST(SearchTest, SplitBackendAndInMemoryRunsAgree) {
  SearchParams sp;
  sp.function = "exp";
  sp.lo = "1";
  sp.hi = "0x1.2p0";
  sp.argPrecision = 32;
  sp.precision = 33;
  sp.epsilon = "0x1p-14";
  Plan plan;
  std::string err;
  ASSERT_TRUE(plan.init(sp, false, err)) << err;
  CpuBackend one;
  std::vector<std::unique_ptr<Backend>> parts;
  for (int i = 0; i < 3; ++i)
    parts.push_back(std::make_unique<CpuBackend>());
  SplitBackend split(std::move(parts));
  RunOptions ro;
  ro.progress = false;
  ro.batchUnits = 5; // several parts per batch, some batches uneven
  RunResult a, b;
  ASSERT_TRUE(runSearch(plan, one, ro, a, err)) << err;
  ASSERT_TRUE(runSearch(plan, split, ro, b, err)) << err;
  EXPECT_TRUE(a.wcPath.empty()); // nothing written
  ASSERT_GT(a.cases.size(), 0u);
  ASSERT_EQ(a.lines, b.lines);
  EXPECT_EQ(a.stats.phase1, b.stats.phase1);
  EXPECT_EQ(a.stats.phase2, b.stats.phase2);
  EXPECT_EQ(a.stats.candidates, b.stats.candidates);
  ro.resume = true;
  EXPECT_FALSE(runSearch(plan, one, ro, a, err));
  EXPECT_NE(err.find("nothing to resume"), std::string::npos) << err;
}

TEST(SearchTest, RefusesBadParameters) {
  struct Bad {
    const char *fn, *lo, *hi, *eps;
    int p;
    const char *msg;
  } bad[] = {
      {"tan", "1", "2", "0x1p-32", 53, "unknown function 'tan'"},
      {"exp", "-1", "1", "0x1p-32", 53, "crosses zero"},
      {"exp", "0x1p-5000", "1", "0x1p-32", 8, "more than 4096 binades"},
      {"exp", "0x1p-1030", "1", "0x1p-32", 53, "more than 2^62 arguments"},
      {"exp", "1", "2", "0", 53, "out of range"},
      {"exp", "1", "2", "0x1p-200", 53, "out of range"},
      {"exp", "1", "2", "0x1p-32", 1, "argument precision 1 out of range"},
      {"exp", "0", "1", "0x1p-32", 53, "may not start at zero"},
      {"log", "-0x1.fp-1", "-0x1.8p-1", "0x1p-32", 53, "positive arguments only"},
      {"sin", "0x1p30", "0x1p31", "0x1p-32", 53, "2^20"},
  };
  for (const Bad &b : bad) {
    SearchParams sp;
    sp.function = b.fn;
    sp.lo = b.lo;
    sp.hi = b.hi;
    sp.epsilon = b.eps;
    sp.argPrecision = b.p;
    Plan plan;
    std::string err;
    EXPECT_FALSE(plan.init(sp, false, err)) << b.fn << " " << b.lo;
    EXPECT_NE(err.find(b.msg), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << "one line: " << err;
  }
}

namespace {
/// Steps a specialised and a run-time-degree table side by side.
struct CompareTables {
  const std::vector<uint64_t> &src;
  int degree;
  bool same = true;
  template <int W, int D> void run() {
    Table<W, D> a;
    Table<W, 0> b;
    a.load(src.data(), degree);
    b.load(src.data(), degree);
    for (int k = 0; k < 300; ++k) {
      for (int j = 0; j < 3; ++j) {
        U128 x = a.value(j), y = b.value(j);
        same = same && x.hi == y.hi && x.lo == y.lo;
      }
      a.step();
      b.step();
    }
  }
};
} // namespace

TEST(SearchTest, SpecialisedTablesMatch) {
  // dispatchTable's compile-time-degree tables (what the GPU kernel and the
  // CPU loop run for 2..4 words and degrees 2..8) against the run-time one.
  std::mt19937_64 g(5);
  for (int words = 2; words <= 8; ++words)
    for (int degree = 2; degree <= kMaxDegree; ++degree) {
      std::vector<uint64_t> src((size_t)tableEntries(degree) * words);
      for (uint64_t &w : src)
        w = g();
      CompareTables c{src, degree};
      ASSERT_TRUE(dispatchTable(words, degree, c));
      EXPECT_TRUE(c.same) << words << " words, degree " << degree;
    }
}
