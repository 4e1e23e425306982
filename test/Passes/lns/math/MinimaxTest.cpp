//===- MinimaxTest.cpp - The Remez exchange on known minimax problems -----===//
//
// Closed forms (degree-1 minimax of exp, the monic Chebyshev polynomial),
// equioscillation of a continuous fit, and the discrete exchange against a
// brute-force solution of the linear program on a basis that is not a Haar
// system (the texture filter's rounded g^2).
//
//===----------------------------------------------------------------------===//

#include "Minimax.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

using namespace approx::lns;

namespace {

long double polyAt(const std::vector<long double> &c, long double x) {
  long double p = 0;
  for (size_t i = c.size(); i-- > 0;)
    p = p * x + c[i];
  return p;
}

/// max over supports S (|S| <= n + 1) whose basis rows have a
/// one-dimensional left kernel lambda of |lambda . f| / |lambda|_1: the
/// optimum of the dual linear program, i.e. the discrete minimax error.
long double bruteForceMinimax(const std::vector<long double> &basis,
                              const std::vector<long double> &f, size_t m,
                              size_t n) {
  long double best = 0;
  std::vector<size_t> s;
  // Enumerate subsets by recursion.
  std::function<void(size_t)> rec = [&](size_t from) {
    if (s.size() >= 2) {
      // Kernel of the n x |S| matrix B = A_S^T by Gauss-Jordan.
      const size_t cols = s.size();
      std::vector<long double> b(n * cols);
      for (size_t k = 0; k < n; ++k)
        for (size_t i = 0; i < cols; ++i)
          b[k * cols + i] = basis[s[i] * n + k];
      std::vector<size_t> pivotCol;
      size_t row = 0;
      for (size_t c = 0; c < cols && row < n; ++c) {
        size_t p = row;
        for (size_t r = row; r < n; ++r)
          if (std::fabs(b[r * cols + c]) > std::fabs(b[p * cols + c]))
            p = r;
        if (std::fabs(b[p * cols + c]) < 1e-12L)
          continue;
        for (size_t k = 0; k < cols; ++k)
          std::swap(b[p * cols + k], b[row * cols + k]);
        for (size_t r = 0; r < n; ++r) {
          if (r == row)
            continue;
          long double fct = b[r * cols + c] / b[row * cols + c];
          for (size_t k = 0; k < cols; ++k)
            b[r * cols + k] -= fct * b[row * cols + k];
        }
        pivotCol.push_back(c);
        ++row;
      }
      if (cols - pivotCol.size() == 1) {
        size_t freeCol = 0;
        while (std::find(pivotCol.begin(), pivotCol.end(), freeCol) !=
               pivotCol.end())
          ++freeCol;
        std::vector<long double> lambda(cols, 0);
        lambda[freeCol] = 1;
        for (size_t r = 0; r < pivotCol.size(); ++r)
          lambda[pivotCol[r]] =
              -b[r * cols + freeCol] / b[r * cols + pivotCol[r]];
        long double dot = 0, norm = 0;
        for (size_t i = 0; i < cols; ++i) {
          dot += lambda[i] * f[s[i]];
          norm += std::fabs(lambda[i]);
        }
        best = std::max(best, std::fabs(dot) / norm);
      }
    }
    if (s.size() == n + 1)
      return;
    for (size_t i = from; i < m; ++i) {
      s.push_back(i);
      rec(i + 1);
      s.pop_back();
    }
  };
  rec(0);
  return best;
}

/// The filter's g^2 at g = j / 256.
long double rho(unsigned j) { return ((j * j + 128) >> 8) / 256.0L; }

} // namespace

TEST(Minimax, ExpDegreeOneClosedForm) {
  // exp on [0, 1]: c1 = e - 1 (the chord's slope), the interior extremum
  // at x* = ln(e - 1), c0 = (e - (e - 1) ln(e - 1)) / 2, error 1 - c0.
  const long double e = std::exp(1.0L), xs = std::log(e - 1);
  const long double c0 = (e - (e - 1) * xs) / 2, err = 1 - c0;
  MinimaxResult r;
  std::string error;
  ASSERT_TRUE(polyMinimax([](long double x) { return std::exp(x); }, 0, 1, 1, r,
                          &error))
      << error;
  ASSERT_EQ(r.coefficients.size(), 2u);
  EXPECT_NEAR(double(r.coefficients[1]), double(e - 1), 1e-12);
  EXPECT_NEAR(double(r.coefficients[0]), double(c0), 1e-12);
  EXPECT_NEAR(double(r.maxError), double(err), 1e-12);
  EXPECT_NEAR(double(err), 0.10593, 1e-5);
  EXPECT_TRUE(r.converged);
  // The alternation: +E at 0, -E at x*, +E at 1.
  ASSERT_EQ(r.referencePoints.size(), 3u);
  EXPECT_NEAR(double(r.referencePoints[0]), 0.0, 1e-9);
  EXPECT_NEAR(double(r.referencePoints[1]), double(xs), 1e-6);
  EXPECT_NEAR(double(r.referencePoints[2]), 1.0, 1e-9);
  const long double signs[3] = {1, -1, 1};
  for (int i = 0; i < 3; ++i) {
    long double x = r.referencePoints[i];
    EXPECT_NEAR(double(std::exp(x) - polyAt(r.coefficients, x)),
                double(signs[i] * err), 1e-11);
  }
}

TEST(Minimax, MonicChebyshev) {
  // The best degree-d approximation of x^(d+1) on [-1, 1] leaves
  // T_(d+1)(x) / 2^d: error 2^-d; for d = 3, p(x) = x^2 - 1/8.
  for (unsigned d = 1; d <= 6; ++d) {
    MinimaxResult r;
    ASSERT_TRUE(polyMinimax(
        [d](long double x) { return std::pow(x, (long double)(d + 1)); }, -1, 1,
        d, r, nullptr));
    EXPECT_NEAR(double(r.maxError), std::ldexp(1.0, -int(d)), 1e-12) << d;
    EXPECT_NEAR(double(r.levelledError), std::ldexp(1.0, -int(d)), 1e-12);
    if (d == 3) {
      EXPECT_NEAR(double(r.coefficients[0]), -0.125, 1e-12);
      EXPECT_NEAR(double(r.coefficients[1]), 0.0, 1e-12);
      EXPECT_NEAR(double(r.coefficients[2]), 1.0, 1e-12);
      EXPECT_NEAR(double(r.coefficients[3]), 0.0, 1e-12);
    }
  }
}

TEST(Minimax, EquioscillationOfAContinuousFit) {
  // sb on [-1, 0] by degree 4: d + 2 = 6 reference points where the error
  // alternates in sign with magnitude maxError, and nothing larger on a
  // fine grid.
  auto sb = [](long double x) { return std::log2(1 + std::exp2(x)); };
  MinimaxResult r;
  ASSERT_TRUE(polyMinimax(sb, -1, 0, 4, r, nullptr));
  ASSERT_EQ(r.referencePoints.size(), 6u);
  EXPECT_TRUE(r.converged);
  EXPECT_GT(r.maxError, 0);
  EXPECT_LE(r.maxError, r.levelledError * (1 + 1e-6));
  for (size_t i = 0; i < 6; ++i) {
    long double x = r.referencePoints[i];
    long double e = sb(x) - polyAt(r.coefficients, x);
    EXPECT_NEAR(double(std::fabs(e) / r.maxError), 1.0, 1e-6) << i;
    if (i > 0) {
      long double prev = sb(r.referencePoints[i - 1]) -
                         polyAt(r.coefficients, r.referencePoints[i - 1]);
      EXPECT_LT(e * prev, 0) << "no alternation at " << i;
    }
  }
  long double fine = 0;
  for (int i = 0; i <= 100000; ++i) {
    long double x = -1 + i / 100000.0L;
    fine = std::max(fine, std::fabs(sb(x) - polyAt(r.coefficients, x)));
  }
  EXPECT_LE(fine, r.maxError * (1 + 1e-9));
  EXPECT_GE(fine, r.maxError * (1 - 1e-6));
}

TEST(Minimax, DiscreteMatchesTheLinearProgramOnANonHaarBasis) {
  // {1, g, rho(g)} on g = j/256, j = 0..29: rho is 0 for j <= 11, so the
  // basis is not a Haar system there. Random data; the exchange must reach
  // the brute-force optimum.
  const size_t m = 30;
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (size_t n : {2u, 3u}) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<long double> basis(m * n), f(m);
      for (size_t j = 0; j < m; ++j) {
        basis[j * n + 0] = 1;
        if (n == 2) {
          basis[j * n + 1] = rho(unsigned(j)) * 64;
        } else {
          basis[j * n + 1] = j / 256.0L * 8;
          basis[j * n + 2] = rho(unsigned(j)) * 64;
        }
        f[j] = unit(rng);
      }
      MinimaxResult r;
      std::string error;
      ASSERT_TRUE(discreteMinimax(basis.data(), f.data(), m, n, r, &error))
          << error;
      long double check = 0;
      for (size_t j = 0; j < m; ++j) {
        long double p = 0;
        for (size_t k = 0; k < n; ++k)
          p += basis[j * n + k] * r.coefficients[k];
        check = std::max(check, std::fabs(f[j] - p));
      }
      EXPECT_NEAR(double(check), double(r.maxError), 1e-15);
      long double brute = bruteForceMinimax(basis, f, m, n);
      EXPECT_NEAR(double(r.maxError), double(brute), 1e-12)
          << "n " << n << " trial " << trial;
      EXPECT_LE(r.levelledError, brute * (1 + 1e-12));
    }
  }
}

TEST(Minimax, DiscreteHaarCaseAndExactFit) {
  // A smooth function on 257 points by a quadratic: the reference
  // equioscillates, and the levelled error equals the max error.
  const size_t m = 257, n = 3;
  std::vector<long double> basis(m * n), f(m), exact(m);
  for (size_t j = 0; j < m; ++j) {
    long double g = j / 256.0L;
    basis[j * n + 0] = 1;
    basis[j * n + 1] = g;
    basis[j * n + 2] = g * g;
    f[j] = std::exp(g);
    exact[j] = 1 - 2 * g + 0.5L * g * g;
  }
  MinimaxResult r;
  ASSERT_TRUE(discreteMinimax(basis.data(), f.data(), m, n, r, nullptr));
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(double(r.maxError / r.levelledError), 1.0, 1e-12);
  ASSERT_EQ(r.reference.size(), 4u);
  EXPECT_EQ(r.reference.front(), 0u);
  EXPECT_EQ(r.reference.back(), 256u);
  long double prev = 0;
  for (size_t idx : r.reference) {
    long double g = idx / 256.0L;
    long double e = f[idx] - polyAt(r.coefficients, g);
    EXPECT_NEAR(double(std::fabs(e) / r.maxError), 1.0, 1e-9);
    EXPECT_LE(e * prev, 0);
    prev = e;
  }
  ASSERT_TRUE(discreteMinimax(basis.data(), exact.data(), m, n, r, nullptr));
  EXPECT_LT(double(r.maxError), 1e-17);
  EXPECT_NEAR(double(r.coefficients[1]), -2.0, 1e-15);
}

TEST(Minimax, BadArguments) {
  std::vector<long double> basis(3 * 3, 1), f(3, 0);
  MinimaxResult r;
  std::string error;
  EXPECT_FALSE(discreteMinimax(basis.data(), f.data(), 3, 3, r, &error));
  EXPECT_EQ(error, "a minimax fit with 3 basis functions needs at least 4 "
                   "points, not 3");
  EXPECT_FALSE(discreteMinimax(basis.data(), f.data(), 3, 0, r, &error));
  EXPECT_EQ(error, "a minimax fit needs at least one basis function");
  EXPECT_FALSE(
      polyMinimax([](long double x) { return x; }, 1, 1, 2, r, &error));
  EXPECT_EQ(error.rfind("the minimax interval [1.000000, 1.000000]", 0), 0u)
      << error;
  long double singular[4] = {1, 2, 2, 4}, rhs[2] = {1, 2};
  EXPECT_FALSE(solveLinearSystem(singular, rhs, 2));
  long double m3[9] = {2, 1, 0, 1, 3, 1, 0, 1, 4}, b3[3] = {3, 5, 5};
  ASSERT_TRUE(solveLinearSystem(m3, b3, 3));
  for (long double v : b3)
    EXPECT_NEAR(double(v), 1.0, 1e-18);
}
