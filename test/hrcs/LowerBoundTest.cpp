//===- LowerBoundTest.cpp - Lefevre's and the regular bound vs brute force ===//
//
// Both algorithms must return at most min{(b - a x) mod 2^64 | x < N} (a
// sound filter), on random, small, near-1 and rational slopes, for every
// hybrid-division threshold. Lefevre's should also be close to the minimum
// (it places fewer than 2N points), the regular one within its k*N.
//
//===----------------------------------------------------------------------===//
#include "approx/hrcs/LowerBound.h"

#include <gtest/gtest.h>
#include <random>

using namespace approx::hrcs;

namespace {

uint64_t bruteMin(uint64_t a, uint64_t b, uint64_t n) {
  uint64_t m = ~uint64_t(0);
  for (uint64_t x = 0; x < n; ++x)
    m = std::min(m, b - a * x);
  return m;
}

uint64_t slope(std::mt19937_64 &g, int kind) {
  switch (kind) {
  case 0: return g();
  case 1: return g() >> (g() % 62);                      // large quotients
  case 2: return (g() % 97 + 1) << (g() % 56);           // rationals
  case 3: return 0 - (g() >> (g() % 62));                // near 1
  default: return uint64_t(1) << (g() % 64);             // powers of two
  }
}

} // namespace

TEST(LowerBoundTest, NeverAboveTheMinimum) {
  std::mt19937_64 g(42);
  for (int it = 0; it < 40000; ++it) {
    uint64_t n = 1 + g() % 2000, a = slope(g, it % 5), b = g();
    uint64_t m = bruteMin(a, b, n);
    int k = it % 8;
    ASSERT_LE(lefevreBound(a, b, n, 0, k), m)
        << "a=" << a << " b=" << b << " N=" << n << " k=" << k;
    ASSERT_LE(regularBound(a, b, n, 0, k), m)
        << "a=" << a << " b=" << b << " N=" << n << " k=" << k;
  }
}

TEST(LowerBoundTest, EarlyExitOnlyBelowThreshold) {
  // With a threshold, a result >= threshold must still be a sound bound and
  // a result below it must mean the true minimum may be below it too.
  std::mt19937_64 g(7);
  for (int it = 0; it < 20000; ++it) {
    uint64_t n = 1 + g() % 1500, a = slope(g, it % 5), b = g();
    uint64_t t = g() >> (g() % 64);
    uint64_t m = bruteMin(a, b, n);
    for (Algorithm alg : {Algorithm::Lefevre, Algorithm::Regular}) {
      uint64_t lb = lowerBound(alg, a, b, n, t);
      if (m < t) {
        ASSERT_LT(lb, t) << "missed a point below the threshold";
      }
      if (lb >= t) {
        ASSERT_LE(lb, m) << "a bound above the minimum";
      }
    }
  }
}

TEST(LowerBoundTest, LefevreIsTight) {
  // Lefevre's bound is the minimum over at most 2N points: on random slopes
  // it should usually equal the minimum over N points or be close.
  std::mt19937_64 g(3);
  int equal = 0, total = 2000;
  for (int it = 0; it < total; ++it) {
    uint64_t n = 64 + g() % 1000, a = g(), b = g();
    if (lefevreBound(a, b, n, 0) == bruteMin(a, b, n))
      ++equal;
  }
  EXPECT_GT(equal, total / 3);
}

TEST(LowerBoundTest, DegenerateSlopes) {
  EXPECT_EQ(lefevreBound(0, 123, 100, 0), 123u);
  EXPECT_EQ(regularBound(0, 123, 100, 0), 123u);
  EXPECT_EQ(lefevreBound(5, 123, 1, 0), 123u);
  EXPECT_EQ(regularBound(5, 123, 1, 0), 123u);
  // a = 1/2: points 0 and 1/2 only.
  uint64_t half = uint64_t(1) << 63;
  EXPECT_LE(lefevreBound(half, half + 10, 1000, 0), 10u);
  EXPECT_LE(regularBound(half, half + 10, 1000, 0), 10u);
}

TEST(LowerBoundTest, LargeN) {
  // N up to 2^20 against a brute force on a few cases.
  std::mt19937_64 g(11);
  for (int it = 0; it < 6; ++it) {
    uint64_t n = (uint64_t(1) << 20) - (g() % 1000), a = g(), b = g();
    uint64_t m = bruteMin(a, b, n);
    EXPECT_LE(lefevreBound(a, b, n, 0), m);
    EXPECT_LE(regularBound(a, b, n, 0), m);
  }
}
