//===- Minimax.h - Remez exchange for linear minimax fits -----------------===//
//
// Best (minimax, Chebyshev) approximations by a linear combination of basis
// functions, without Sollya:
//  - discreteMinimax: over a finite point set, by the exchange algorithm on
//    n + 1 reference points (the dual simplex method of the linear
//    program). The reference signs come from the kernel of the reference's
//    basis matrix rather than plain alternation, and the point leaving the
//    reference is chosen by the ratio test, so the levelled error grows
//    monotonically even when the basis is not a Haar system on the set
//    (e.g. the texture filter's rounded g^2); where the iteration stalls or
//    a reference is singular it stops and returns its best iterate.
//  - polyMinimax: the continuous minimax polynomial on [a, b]: the discrete
//    fit on a dense Chebyshev grid, then Remez iterations whose reference is
//    the error's local extrema, located to high accuracy by golden-section
//    search.
// Linear algebra is in long double with partial pivoting.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_LNS_MATH_MINIMAX_H
#define APPROX_LNS_MATH_MINIMAX_H

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace approx::lns {

/// A fit: coefficients of the basis, the achieved maximum error and the
/// levelled error |h| of the final reference (a lower bound on the best
/// error, so maxError - levelledError bounds the distance to the optimum).
struct MinimaxResult {
  std::vector<long double> coefficients;
  long double maxError = 0;
  long double levelledError = 0;
  /// Discrete: indices of the final reference points (ascending);
  /// continuous: empty.
  std::vector<size_t> reference;
  /// Continuous: the abscissae of the final reference (ascending).
  std::vector<long double> referencePoints;
  int iterations = 0;
  /// Whether maxError came within the tolerance of levelledError.
  bool converged = false;
};

struct DiscreteMinimaxOptions {
  /// Stop when maxError <= levelledError * (1 + relTolerance).
  double relTolerance = 1e-12;
  /// Also stop when maxError <= absTolerance (an error too small to
  /// matter; it keeps fits at the rounding-noise level from wandering).
  long double absTolerance = 0;
  int maxIterations = 100;
  /// n + 1 distinct point indices to start from; empty: points spread like
  /// Chebyshev extrema over the index range (right for points in order).
  std::vector<size_t> initialReference;
};

/// The discrete minimax fit of f over m points by n basis functions:
/// basis[i * n + k] = phi_k(x_i), f[i] = f(x_i). Needs m >= n + 1 >= 2.
/// Returns false, with a one-line message in *error, only for bad
/// arguments; a fit that did not converge is returned with
/// converged = false.
bool discreteMinimax(const long double *basis, const long double *f, size_t m,
                     size_t n, MinimaxResult &out, std::string *error,
                     const DiscreteMinimaxOptions &options = {});

struct PolyMinimaxOptions {
  /// Grid points of the discrete start; 0: 24 * (degree + 2) + 1.
  size_t gridPoints = 0;
  /// Stop when maxError <= levelledError * (1 + relTolerance).
  double relTolerance = 1e-9;
  /// Also stop when maxError <= absTolerance.
  long double absTolerance = 0;
  int maxIterations = 20;
};

/// The minimax polynomial of degree `degree` to f on [a, b] (a < b).
/// coefficients[i] multiplies x^i. Computed in the variable
/// t = (x - a) / (b - a) and expanded, so choose [a, b] near 0 (e.g.
/// [0, 1]) where the monomial form is well conditioned. maxError is the
/// maximum of |f - p| over the refined extrema and the dense grid.
bool polyMinimax(const std::function<long double(long double)> &f,
                 long double a, long double b, unsigned degree,
                 MinimaxResult &out, std::string *error,
                 const PolyMinimaxOptions &options = {});

/// Solves the n x n system M z = rhs (M row-major, destroyed; rhs
/// overwritten by z) by Gaussian elimination with partial pivoting. False
/// if M is singular to working precision.
bool solveLinearSystem(long double *m, long double *rhs, size_t n);

} // namespace approx::lns

#endif // APPROX_LNS_MATH_MINIMAX_H
