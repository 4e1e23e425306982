//===- Minimax.cpp - Remez exchange for linear minimax fits ---------------===//
//
// The discrete exchange, for basis values A (m x n) and a reference R of
// n + 1 points:
//   1. lambda spans the kernel of A_R^T (sum_i lambda_i phi(x_i) = 0); for
//      any coefficients c, sum_i lambda_i (f_i - A_i c) = lambda . f_R, so
//      h = lambda . f_R / |lambda|_1 is a lower bound on the best error
//      (de la Vallee Poussin), attained with signs sigma = sign(lambda).
//   2. c solves [A_R | sigma] (c, h) = f_R; the residual's largest point
//      x* (sign s) enters the reference.
//   3. mu solves [A_R | sigma]^T mu = (phi(x*), 0), i.e. phi(x*) =
//      sum_i mu_i phi(x_i); the kernel of R + x* is spanned by (lambda, 0)
//      and (mu, -1), and the point leaving is the one whose ratio
//      s tau_i mu_i / |lambda_i| is largest (tau_i: the residual's sign at
//      x_i), which keeps the new kernel vector's signs equal to the
//      residual's: the next h is larger. For a Haar basis this is the
//      classical single exchange that keeps alternation.
//
//===----------------------------------------------------------------------===//

#include "Minimax.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace approx::lns {

static constexpr long double kPi = 3.141592653589793238462643383279502884L;

bool solveLinearSystem(long double *m, long double *rhs, size_t n) {
  long double scale = 0;
  for (size_t i = 0; i < n * n; ++i)
    scale = std::max(scale, std::fabs(m[i]));
  if (scale == 0 || !std::isfinite(scale))
    return false;
  const long double tiny = scale * LDBL_EPSILON * 4;
  for (size_t col = 0; col < n; ++col) {
    size_t piv = col;
    for (size_t r = col + 1; r < n; ++r)
      if (std::fabs(m[r * n + col]) > std::fabs(m[piv * n + col]))
        piv = r;
    if (!(std::fabs(m[piv * n + col]) > tiny))
      return false;
    if (piv != col) {
      for (size_t k = 0; k < n; ++k)
        std::swap(m[piv * n + k], m[col * n + k]);
      std::swap(rhs[piv], rhs[col]);
    }
    for (size_t r = col + 1; r < n; ++r) {
      long double factor = m[r * n + col] / m[col * n + col];
      if (factor == 0)
        continue;
      for (size_t k = col; k < n; ++k)
        m[r * n + k] -= factor * m[col * n + k];
      rhs[r] -= factor * rhs[col];
    }
  }
  for (size_t i = n; i-- > 0;) {
    long double s = rhs[i];
    for (size_t k = i + 1; k < n; ++k)
      s -= m[i * n + k] * rhs[k];
    rhs[i] = s / m[i * n + i];
  }
  return true;
}

/// A vector spanning the kernel of the n x (n+1) matrix b (row-major,
/// destroyed), by Gauss-Jordan elimination with complete pivoting. False if
/// the kernel has more than one dimension (rank < n).
static bool kernelVector(std::vector<long double> &b, size_t n,
                         std::vector<long double> &lambda) {
  const size_t cols = n + 1;
  std::vector<size_t> perm(cols);
  for (size_t j = 0; j < cols; ++j)
    perm[j] = j;
  long double scale = 0;
  for (long double v : b)
    scale = std::max(scale, std::fabs(v));
  if (scale == 0 || !std::isfinite(scale))
    return false;
  const long double tiny = scale * LDBL_EPSILON * 16;
  auto at = [&](size_t r, size_t c) -> long double & {
    return b[r * cols + perm[c]];
  };
  for (size_t r = 0; r < n; ++r) {
    size_t pr = r, pc = r;
    for (size_t i = r; i < n; ++i)
      for (size_t j = r; j < cols; ++j)
        if (std::fabs(at(i, j)) > std::fabs(at(pr, pc))) {
          pr = i;
          pc = j;
        }
    if (!(std::fabs(at(pr, pc)) > tiny))
      return false;
    if (pr != r)
      for (size_t j = 0; j < cols; ++j)
        std::swap(b[pr * cols + j], b[r * cols + j]);
    std::swap(perm[pc], perm[r]);
    for (size_t i = 0; i < n; ++i) {
      if (i == r)
        continue;
      long double factor = at(i, r) / at(r, r);
      if (factor == 0)
        continue;
      for (size_t j = r; j < cols; ++j)
        at(i, j) -= factor * at(r, j);
    }
  }
  lambda.assign(cols, 0);
  lambda[perm[n]] = 1;
  long double norm = 1;
  for (size_t r = 0; r < n; ++r) {
    lambda[perm[r]] = -at(r, n) / at(r, r);
    norm = std::max(norm, std::fabs(lambda[perm[r]]));
  }
  for (long double &v : lambda)
    v /= norm;
  return true;
}

/// n + 1 indices in [0, m) spread like Chebyshev extrema.
static std::vector<size_t> chebyshevIndices(size_t m, size_t n) {
  std::vector<size_t> ref(n + 1);
  for (size_t i = 0; i <= n; ++i) {
    long double t = (1 - std::cos(kPi * i / n)) / 2;
    ref[i] = size_t(std::lround(t * (m - 1)));
  }
  // Make them strictly increasing (m >= n + 1 leaves room).
  for (size_t i = 1; i <= n; ++i)
    ref[i] = std::max(ref[i], ref[i - 1] + 1);
  for (size_t i = n + 1; i-- > 0;)
    if (ref[i] > m - 1 - (n - i))
      ref[i] = m - 1 - (n - i);
  return ref;
}

bool discreteMinimax(const long double *basis, const long double *f, size_t m,
                     size_t n, MinimaxResult &out, std::string *error,
                     const DiscreteMinimaxOptions &options) {
  auto fail = [&](const std::string &message) {
    if (error)
      *error = message;
    return false;
  };
  if (n == 0)
    return fail("a minimax fit needs at least one basis function");
  if (m < n + 1)
    return fail("a minimax fit with " + std::to_string(n) +
                " basis functions needs at least " + std::to_string(n + 1) +
                " points, not " + std::to_string(m));
  std::vector<size_t> ref = options.initialReference;
  if (ref.empty()) {
    ref = chebyshevIndices(m, n);
  } else {
    if (ref.size() != n + 1)
      return fail("the initial reference has " + std::to_string(ref.size()) +
                  " points, not " + std::to_string(n + 1));
    std::vector<size_t> sorted = ref;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.back() >= m ||
        std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      return fail("the initial reference has a repeated or out-of-range point");
  }

  const size_t r = n + 1;
  std::vector<long double> bt(n * r), mat(r * r), rhs(r), lambda, c(n),
      residual(m), scratch(m);
  std::vector<long double> sigma(r, 1);
  out = MinimaxResult();
  out.maxError = INFINITY;
  bool haveBest = false;
  long double previousH = -1;
  int stalls = 0;
  for (int it = 0; it < options.maxIterations; ++it) {
    out.iterations = it + 1;
    // 1. lambda and the signs.
    for (size_t k = 0; k < n; ++k)
      for (size_t i = 0; i < r; ++i)
        bt[k * r + i] = basis[ref[i] * n + k];
    if (!kernelVector(bt, n, lambda))
      break; // a degenerate reference: keep the best iterate
    for (size_t i = 0; i < r; ++i)
      sigma[i] = lambda[i] >= 0 ? 1 : -1;
    // 2. The levelled fit. On a degenerate reference (lambda_i = 0: the
    // point does not bound h) the sign there is free, and the wrong one can
    // give a fit far worse than h elsewhere: try both, keep the better.
    std::vector<size_t> freeSigns;
    for (size_t i = 0; i < r && freeSigns.size() < 4; ++i)
      if (std::fabs(lambda[i]) <= 1e-15L)
        freeSigns.push_back(i);
    long double h = 0, e = INFINITY;
    size_t worst = 0;
    bool solved = false;
    std::vector<long double> bestSigma = sigma;
    for (unsigned mask = 0; mask < (1u << freeSigns.size()); ++mask) {
      for (size_t q = 0; q < freeSigns.size(); ++q)
        sigma[freeSigns[q]] = ((mask >> q) & 1) ? -1 : 1;
      for (size_t i = 0; i < r; ++i) {
        for (size_t k = 0; k < n; ++k)
          mat[i * r + k] = basis[ref[i] * n + k];
        mat[i * r + n] = sigma[i];
        rhs[i] = f[ref[i]];
      }
      if (!solveLinearSystem(mat.data(), rhs.data(), r))
        continue;
      size_t trialWorst = 0;
      long double trialE = -1;
      for (size_t i = 0; i < m; ++i) {
        long double p = 0;
        for (size_t k = 0; k < n; ++k)
          p += basis[i * n + k] * rhs[k];
        scratch[i] = f[i] - p;
        if (!(std::fabs(scratch[i]) <= trialE)) { // also catches NaN
          trialE = std::fabs(scratch[i]);
          trialWorst = i;
        }
      }
      if (!solved || trialE < e) {
        solved = true;
        e = trialE;
        worst = trialWorst;
        h = rhs[n];
        c.assign(rhs.begin(), rhs.begin() + n);
        residual.swap(scratch);
        bestSigma = sigma;
      }
    }
    if (!solved)
      break;
    sigma = bestSigma;
    if (!std::isfinite(e))
      break;
    if (!haveBest || e < out.maxError) {
      haveBest = true;
      out.coefficients = c;
      out.maxError = e;
      out.levelledError = std::fabs(h);
      out.reference = ref;
    }
    if (e <= std::fabs(h) * (1 + options.relTolerance) ||
        e <= std::max<long double>(options.absTolerance, LDBL_MIN)) {
      out.converged = true;
      break;
    }
    // Degenerate pivots leave |h| flat; give up after a few in a row.
    if (std::fabs(h) <= previousH) {
      if (++stalls > int(2 * r))
        break;
    } else {
      stalls = 0;
    }
    previousH = std::fabs(h);
    // 3. The ratio test.
    for (size_t i = 0; i < r; ++i) {
      for (size_t k = 0; k < n; ++k)
        mat[k * r + i] = basis[ref[i] * n + k];
      mat[n * r + i] = sigma[i];
    }
    for (size_t k = 0; k < n; ++k)
      rhs[k] = basis[worst * n + k];
    rhs[n] = 0;
    if (!solveLinearSystem(mat.data(), rhs.data(), r))
      break;
    long double s = residual[worst] >= 0 ? 1 : -1;
    long double signH = h >= 0 ? 1 : -1;
    size_t leave = 0;
    long double best = -INFINITY;
    for (size_t i = 0; i < r; ++i) {
      long double tau = sigma[i] * signH;
      long double ratio;
      if (std::fabs(lambda[i]) <= 1e-15L)
        // A degenerate reference point: it must leave if keeping it would
        // give the new kernel vector the wrong sign there.
        ratio = s * tau * rhs[i] > 0 ? INFINITY : -INFINITY;
      else
        ratio = s * tau * rhs[i] / std::fabs(lambda[i]);
      if (ratio > best) {
        best = ratio;
        leave = i;
      }
    }
    // Every swap's kernel gives a valid lower bound |lambda . f| /
    // |lambda|_1; where another swap gives a larger one (possible on
    // degenerate references, where the ratio test alone may cycle), take
    // it.
    auto boundAfterSwap = [&](size_t i) -> long double {
      std::vector<size_t> trial = ref;
      trial[i] = worst;
      for (size_t k = 0; k < n; ++k)
        for (size_t j = 0; j < r; ++j)
          bt[k * r + j] = basis[trial[j] * n + k];
      if (!kernelVector(bt, n, lambda))
        return -1;
      long double dot = 0, norm = 0;
      for (size_t j = 0; j < r; ++j) {
        dot += lambda[j] * f[trial[j]];
        norm += std::fabs(lambda[j]);
      }
      return std::fabs(dot) / norm;
    };
    long double bestBound = boundAfterSwap(leave);
    for (size_t i = 0; i < r; ++i) {
      if (i == leave)
        continue;
      long double b = boundAfterSwap(i);
      // (A bound of -1 marks a reference whose kernel is not a line.)
      if (b > bestBound &&
          (bestBound < 0 || b > bestBound * (1 + 64 * LDBL_EPSILON))) {
        bestBound = b;
        leave = i;
      }
    }
    ref[leave] = worst;
  }
  if (!haveBest) {
    // Not one reference was solvable: the least we can return is p = 0.
    out.coefficients.assign(n, 0);
    out.maxError = 0;
    for (size_t i = 0; i < m; ++i)
      out.maxError = std::max(out.maxError, std::fabs(f[i]));
    out.levelledError = 0;
    out.reference = ref;
  }
  std::sort(out.reference.begin(), out.reference.end());
  return true;
}

namespace {

/// p(t) = sum c_i t^i by Horner.
long double polyValue(const std::vector<long double> &c, long double t) {
  long double p = 0;
  for (size_t i = c.size(); i-- > 0;)
    p = p * t + c[i];
  return p;
}

struct Extremum {
  long double t, e;
};

} // namespace

bool polyMinimax(const std::function<long double(long double)> &f,
                 long double a, long double b, unsigned degree,
                 MinimaxResult &out, std::string *error,
                 const PolyMinimaxOptions &options) {
  auto fail = [&](const std::string &message) {
    if (error)
      *error = message;
    return false;
  };
  if (!(a < b) || !std::isfinite(a) || !std::isfinite(b))
    return fail("the minimax interval [" + std::to_string(double(a)) + ", " +
                std::to_string(double(b)) + "] is empty or not finite");
  const size_t n = degree + 1; // basis functions
  const size_t r = n + 1;      // reference points
  size_t m = options.gridPoints ? options.gridPoints : 24 * (degree + 2) + 1;
  m = std::max(m, 4 * r);
  const long double len = b - a;
  auto fx = [&](long double t) { return f(a + len * t); };

  // The dense Chebyshev grid on t in [0, 1] (kept per thread: the table
  // builders fit thousands of segments on the same grid) and the discrete
  // fit on it.
  static thread_local std::vector<long double> cachedGrid;
  if (cachedGrid.size() != m) {
    cachedGrid.resize(m);
    for (size_t i = 0; i < m; ++i)
      cachedGrid[i] = (1 - std::cos(kPi * i / (m - 1))) / 2;
  }
  const std::vector<long double> &grid = cachedGrid;
  std::vector<long double> fg(m), basis(m * n);
  for (size_t i = 0; i < m; ++i) {
    fg[i] = fx(grid[i]);
    long double p = 1;
    for (size_t k = 0; k < n; ++k, p *= grid[i])
      basis[i * n + k] = p;
  }
  MinimaxResult discrete;
  DiscreteMinimaxOptions discreteOptions;
  discreteOptions.absTolerance = options.absTolerance;
  if (!discreteMinimax(basis.data(), fg.data(), m, n, discrete, error,
                       discreteOptions))
    return false;

  // The extrema of e = f - p: one per run of constant sign on the grid,
  // refined by golden-section search between the neighbouring grid points
  // (unless there are many more runs than a best fit has: then the error is
  // rounding noise, and refining it is wasted work).
  std::vector<size_t> runArg;
  auto extrema = [&](const std::vector<long double> &c,
                     std::vector<Extremum> &ext) -> bool {
    ext.clear();
    runArg.clear();
    for (size_t i = 0; i < m;) {
      long double e0 = fg[i] - polyValue(c, grid[i]);
      bool positive = e0 >= 0;
      size_t arg = i, j = i + 1;
      for (; j < m; ++j) {
        long double e = fg[j] - polyValue(c, grid[j]);
        if ((e >= 0) != positive)
          break;
        if (std::fabs(e) > std::fabs(e0)) {
          e0 = e;
          arg = j;
        }
      }
      runArg.push_back(arg);
      ext.push_back({grid[arg], e0});
      i = j;
    }
    if (runArg.size() > 2 * r)
      return false;
    ext.clear();
    for (size_t run = 0; run < runArg.size(); ++run) {
      const size_t arg = runArg[run];
      const long double e0 = fg[arg] - polyValue(c, grid[arg]);
      const long double best = std::fabs(e0);
      const long double sgn = e0 >= 0 ? 1 : -1;
      auto g = [&](long double t) { return sgn * (fx(t) - polyValue(c, t)); };
      long double lo = grid[arg > 0 ? arg - 1 : 0];
      long double hi = grid[arg + 1 < m ? arg + 1 : m - 1];
      long double tBest = grid[arg], vBest = best;
      const long double phi = 0.618033988749894848204586834365638L;
      long double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
      long double g1 = g(x1), g2 = g(x2);
      for (int k = 0; k < 24; ++k) {
        if (g1 > g2) {
          hi = x2;
          x2 = x1;
          g2 = g1;
          x1 = hi - phi * (hi - lo);
          g1 = g(x1);
        } else {
          lo = x1;
          x1 = x2;
          g1 = g2;
          x2 = lo + phi * (hi - lo);
          g2 = g(x2);
        }
      }
      if (g1 > vBest) {
        vBest = g1;
        tBest = x1;
      }
      if (g2 > vBest) {
        vBest = g2;
        tBest = x2;
      }
      ext.push_back({tBest, sgn * vBest});
    }
    return true;
  };

  std::vector<long double> bestC = discrete.coefficients;
  std::vector<Extremum> ext;
  long double bestE = discrete.maxError;
  long double bestH = discrete.levelledError;
  std::vector<long double> bestRef;
  for (size_t idx : discrete.reference)
    bestRef.push_back(grid[idx]);
  const long double small =
      std::max<long double>(options.absTolerance, LDBL_MIN);
  bool converged = bestE <= small;
  bool refined = false;
  if (!converged) {
    refined = extrema(bestC, ext);
    for (const Extremum &x : ext)
      bestE = std::max(bestE, std::fabs(x.e));
    converged = bestE <= bestH * (1 + options.relTolerance) || bestE <= small;
  }
  int iterations = discrete.iterations;

  std::vector<long double> mat(r * r), rhs(r), c(n);
  for (int it = 0; it < options.maxIterations && !converged; ++it) {
    // The alternating extrema containing the largest, n + 1 of them (none
    // when the error is at the noise level: keep the discrete fit).
    if (!refined || ext.size() < r)
      break;
    while (ext.size() > r) {
      if (std::fabs(ext.front().e) < std::fabs(ext.back().e))
        ext.erase(ext.begin());
      else
        ext.pop_back();
    }
    ++iterations;
    for (size_t i = 0; i < r; ++i) {
      long double p = 1;
      for (size_t k = 0; k < n; ++k, p *= ext[i].t)
        mat[i * r + k] = p;
      mat[i * r + n] = (i % 2) ? -1 : 1;
      rhs[i] = fx(ext[i].t);
    }
    std::vector<long double> refPoints;
    for (const Extremum &x : ext)
      refPoints.push_back(x.t);
    if (!solveLinearSystem(mat.data(), rhs.data(), r))
      break;
    long double h = std::fabs(rhs[n]);
    c.assign(rhs.begin(), rhs.begin() + n);
    refined = extrema(c, ext);
    long double e = 0;
    for (const Extremum &x : ext)
      e = std::max(e, std::fabs(x.e));
    if (e < bestE) {
      bestE = e;
      bestC = c;
      bestH = h;
      bestRef = refPoints;
    }
    if (e <= h * (1 + options.relTolerance) || e <= small)
      converged = true;
  }
  // Also count the grid itself (the extrema cover it, but be safe).
  for (size_t i = 0; i < m; ++i)
    bestE = std::max(bestE, std::fabs(fg[i] - polyValue(bestC, grid[i])));

  // Expand sum c_i ((x - a)/len)^i into powers of x.
  std::vector<long double> coeffs(n, 0);
  for (size_t i = 0; i < n; ++i) {
    // c_i len^-i (x - a)^i = c_i len^-i sum_j C(i, j) x^j (-a)^(i-j)
    long double scale = bestC[i] / std::pow(len, (long double)i);
    long double binom = 1;
    for (size_t j = 0; j <= i; ++j) {
      if (j > 0)
        binom = binom * (i - j + 1) / j;
      coeffs[j] += scale * binom * std::pow(-a, (long double)(i - j));
    }
  }
  out = MinimaxResult();
  out.coefficients = coeffs;
  out.maxError = bestE;
  out.levelledError = bestH;
  for (long double t : bestRef)
    out.referencePoints.push_back(a + len * t);
  std::sort(out.referencePoints.begin(), out.referencePoints.end());
  out.iterations = iterations;
  out.converged = converged;
  return true;
}

} // namespace approx::lns
