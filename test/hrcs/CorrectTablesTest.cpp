//===- CorrectTablesTest.cpp - the correctly rounded rung's tables, on CPU -===//
//
// passes/correct/tables/*.inc (written by approx-cr-tables from the search)
// checked against MPFR, and the rung's algorithm (f64 value, rounding test
// with the 2^-50 window, table on failure) run here with glibc's double
// functions in place of libdevice's (both within 1 f64 ulp) on a sample of
// inputs: every result must be MPFR's. The GPU check of the PTX itself, on
// all 2^32 inputs, is bench/accuracy/cr-check.sh.
//
//===----------------------------------------------------------------------===//

#include "approx/accuracy/Mpfr.h"
#include "tables/HardCases.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using approx::accuracy::Func;

namespace {

using ::approx::correct::HardCase;
using ::approx::correct::kExp2F32;
using ::approx::correct::kExpF32;
using ::approx::correct::kLog2F32;
using ::approx::correct::kLogF32;

struct Rung {
  Func func;
  const char *name;
  const HardCase *begin, *end;
  double (*f64)(double);
};
const Rung kRungs[] = {
    {Func::Exp, "exp", std::begin(kExpF32), std::end(kExpF32),
     [](double x) { return std::exp(x); }},
    {Func::Exp2, "exp2", std::begin(kExp2F32), std::end(kExp2F32),
     [](double x) { return std::exp2(x); }},
    {Func::Log, "log", std::begin(kLogF32), std::end(kLogF32),
     [](double x) { return std::log(x); }},
    {Func::Log2, "log2", std::begin(kLog2F32), std::end(kLog2F32),
     [](double x) { return std::log2(x); }},
};

uint32_t bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}
float fromBits(uint32_t b) {
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}

/// What passes/correct/CorrectToNVVM.cpp emits, with `f64` for libdevice.
/// `slow` says whether the table was consulted; `found` whether x was in it.
float rung(const Rung &r, float x, bool &slow, bool &found) {
  double y = r.f64((double)x);
  double d = y * 0x1p-50;
  float lo = (float)(y - d), hi = (float)(y + d), rounded = (float)y;
  slow = found = false;
  if (lo == hi || std::isnan(lo) || std::isnan(hi))
    return rounded;
  slow = true;
  uint32_t key = bits(x);
  const HardCase *it = std::lower_bound(
      r.begin, r.end, key,
      [](const HardCase &c, uint32_t k) { return c.x < k; });
  if (it != r.end && it->x == key) {
    found = true;
    return fromBits(it->result);
  }
  return rounded;
}

bool sameFloat(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b);
}

TEST(CorrectTables, AscendingAndMpfrRounded) {
  for (const Rung &r : kRungs) {
    SCOPED_TRACE(r.name);
    ASSERT_GT(r.end - r.begin, 0);
    for (const HardCase *c = r.begin; c != r.end; ++c) {
      if (c + 1 != r.end) {
        EXPECT_LT(c->x, c[1].x) << "table not ascending";
      }
      float x = fromBits(c->x);
      float want = approx::accuracy::correctlyRounded(r.func, x);
      EXPECT_EQ(c->result, bits(want)) << r.name << "(" << std::hexfloat << x
                                       << ")";
    }
  }
}

TEST(CorrectTables, RungMatchesMpfrOnASample) {
  std::mt19937 rng(20261122);
  for (const Rung &r : kRungs) {
    SCOPED_TRACE(r.name);
    std::vector<float> xs;
    // Every hard case and its neighbours, random bit patterns, and the
    // special values.
    for (const HardCase *c = r.begin; c != r.end; ++c)
      for (int k = -2; k <= 2; ++k)
        xs.push_back(fromBits(c->x + k));
    for (int i = 0; i < (1 << 18); ++i)
      xs.push_back(fromBits(rng()));
    for (float v : {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN,
                    0x1p-149f, 0x1p-126f, 0x1.fffffep127f, 88.72283f,
                    88.72284f, -103.97208f, -150.0f, -149.0f, 128.0f})
      xs.push_back(v);
    int slowPaths = 0, misses = 0;
    for (float x : xs) {
      bool slow, found;
      float got = rung(r, x, slow, found);
      slowPaths += slow;
      misses += slow && !found;
      float want = approx::accuracy::correctlyRounded(r.func, x);
      ASSERT_TRUE(sameFloat(got, want))
          << r.name << "(" << std::hexfloat << x << ") = " << got
          << ", MPFR " << want << (slow ? " (slow path)" : "");
    }
    // The table holds every x whose test fails (it also holds some whose
    // test passes: its bound, 2^-24 ulp, is wider than the window needs).
    EXPECT_GT(slowPaths, 0);
    EXPECT_EQ(misses, 0) << "the rounding test failed outside the table";
  }
}

} // namespace
