//===- AccuracyCrossTest.cpp - approx-hrcs against the accuracy library --===//
//
// Two independent MPFR-based components must agree: bench/accuracy's
// Reference::run() (identical bits after the round bit of the exact f32
// result, on the subnormal grid where it applies) and the search. For every
// f32 argument x of a segment, run(x) >= k exactly when the search lists x
// as a (q = 25, eps = 2^-k) case (with emin = -126 for subnormal results).
//
//===----------------------------------------------------------------------===//
#include "approx/accuracy/Mpfr.h"
#include "approx/hrcs/Search.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <set>

using namespace approx;

namespace {

struct Seg {
  const char *fn;
  accuracy::Func f;
  const char *lo, *hi;
};

} // namespace

TEST(AccuracyCrossTest, RunMatchesSearch) {
  const int k = 11;
  const Seg segs[] = {
      {"exp", accuracy::Func::Exp, "0x1.4p0", "0x1.42p0"},
      {"exp", accuracy::Func::Exp, "-0x1.9p6", "-0x1.8fep6"}, // subnormal
      {"log", accuracy::Func::Log, "0x1.8p3", "0x1.82p3"},
      {"exp2", accuracy::Func::Exp2, "0x1.1p2", "0x1.12p2"},
      {"log2", accuracy::Func::Log2, "0x1.6p-5", "0x1.62p-5"},
      {"sin", accuracy::Func::Sin, "0x1.2p1", "0x1.22p1"},
      {"cos", accuracy::Func::Cos, "0x1.2p-2", "0x1.22p-2"},
  };
  const auto f32 = accuracy::FormatInfo::of<accuracy::F32>();
  for (const Seg &s : segs) {
    hrcs::SearchParams sp;
    sp.function = s.fn;
    sp.lo = s.lo;
    sp.hi = s.hi;
    sp.argPrecision = 24;
    sp.precision = 25;
    sp.epsilon = "0x1p-" + std::to_string(k);
    sp.emin = -126;
    hrcs::Plan plan;
    std::string err;
    ASSERT_TRUE(plan.init(sp, false, err)) << err;
    hrcs::CpuBackend cpu;
    hrcs::RunOptions ro;
    ro.progress = false;
    ro.outDir = ::testing::TempDir() + "hrcs-cross-" + s.fn + s.lo;
    ASSERT_EQ(std::system(("rm -rf '" + ro.outDir + "'").c_str()), 0);
    hrcs::RunResult res;
    ASSERT_TRUE(hrcs::runSearch(plan, cpu, ro, res, err)) << err;
    std::set<uint64_t> listed;
    for (const hrcs::Case &c : res.cases)
      listed.insert(c.index);
    hrcs::Real x(24);
    size_t agree = 0, cases = 0;
    for (uint64_t j = 0; j < plan.argCount(); ++j) {
      plan.argument(x, j);
      double xd = mpfr_get_d(x, MPFR_RNDN);
      accuracy::Reference ref(s.f, f32, xd);
      bool hard = ref.run() >= k && ref.run() != accuracy::Reference::kRunNone;
      cases += hard;
      if (hard == (listed.count(j) > 0))
        ++agree;
      else
        ADD_FAILURE() << s.fn << "(" << xd << "): run " << ref.run()
                      << (listed.count(j) ? " but listed" : " but not listed");
    }
    EXPECT_EQ(agree, plan.argCount()) << s.fn << " [" << s.lo << ", " << s.hi << ")";
    EXPECT_GT(cases, 0u) << "no case in " << s.fn << " [" << s.lo << ")";
  }
}
