//===- LowerBound.h - Lefevre's and the regular lower-bound tests -*- C++ -*-===//
//
// The Boolean test at the heart of the hard-to-round search (Fortin, Gouicem,
// Graillat, Sect. 4): a lower bound on
//
//     min { (b - a*x) mod 1  |  0 <= x < N }
//
// for a, b in [0, 1) held as 64-bit fractions (units of 2^-64), computed in
// O(log N) steps from the continued-fraction expansion of a. The points
// {a*x mod 1 | x < n} form two-length configurations (p, q) (three-distance
// theorem); d is the distance from b to the nearest point on its left.
// Both algorithms stop once the configuration holds n >= N points, so the
// returned d is at most the true minimum (more points can only bring one
// closer to b): a sound filter. They may also stop early, returning a value
// below `threshold`, once d < threshold is certain.
//
//   lefevreBound  - Algorithm 1: splits the interval holding b point by point
//                   in b's direction (subtraction-based), so it places fewer
//                   than 2N points and filters more;
//   regularBound  - Algorithms 2/4: one whole partial quotient per step in
//                   a fixed alternation, so a warp's threads run the same
//                   number of iterations (little loop and branch divergence)
//                   at the price of placing up to k*N points.
//
// Quotients use the hybrid division of Sect. 4.1: a hardware division when
// the dividend exceeds 2^k times the divisor, repeated subtraction otherwise
// (k = divisionThreshold; the paper found k = 3 best on CPU and GPU).
//
// Header-only and callable from CUDA device code.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_HRCS_LOWERBOUND_H
#define APPROX_HRCS_LOWERBOUND_H

#include <cstdint>

#if defined(__CUDACC__)
#define APPROX_HRCS_HD __host__ __device__ __forceinline__
#else
#define APPROX_HRCS_HD inline
#endif

namespace approx::hrcs {

/// Which lower-bound algorithm a search uses. Auto: chosen per interval by
/// its measured truncation error (Phases.h, linearCandidate).
enum class Algorithm : int { Lefevre = 0, Regular = 1, Auto = 2 };

/// floor(num / den) for den > 0, by subtraction when the quotient is known
/// to be below 2^k (num < den << k), by division otherwise.
APPROX_HRCS_HD uint64_t hybridQuotient(uint64_t num, uint64_t den, int k) {
  if (k < 64 && (num >> k) >= den)
    return num / den;
  uint64_t q = 0;
  while (num >= den) {
    num -= den;
    ++q;
  }
  return q;
}

/// min(n, u + k*v) without overflow (n is the cap the search counts to).
APPROX_HRCS_HD uint64_t countAdd(uint64_t u, uint64_t k, uint64_t v,
                                 uint64_t n) {
  if (u >= n)
    return n;
  if (v != 0 && k > (n - u) / v)
    return n;
  uint64_t r = u + k * v;
  return r < n ? r : n;
}

/// Algorithm 1 (Lefevre), in the swapped form of Algorithm 3. x and y are
/// the lengths of the leftmost and rightmost intervals of the current
/// two-length configuration, u and v how many intervals of length y and x
/// it holds (x*v + y*u = 1), n = u + v. When b lies right of the point x
/// (d >= x) the step is the mirror image of the one when it lies left, with
/// (x, u) and (y, v) exchanged: the variables are kept swapped instead
/// (p, q, U, V = y, x, v, u, swapped only when the side changes), so both
/// sides run the same instructions and only the subtraction and the swap
/// diverge (Sect. 4.3.3).
APPROX_HRCS_HD uint64_t lefevreBound(uint64_t a, uint64_t b, uint64_t N,
                                     uint64_t threshold, int k = 3) {
  if (a == 0 || N <= 1)
    return b; // every point sits at 0
  // Unswapped: p, q, U, V = x, y, u, v.
  uint64_t p = a, q = 0 - a, d = b, U = 1, V = 1;
  bool swapped = false;
  for (;;) {
    // Here d is the distance to the nearest point left of b except, when
    // d >= x, for the point x to its left that this step accounts for.
    uint64_t x = swapped ? q : p;
    bool right = d >= x;
    if (right)
      d -= x;
    if (U + V >= N || d < threshold)
      return d;
    if (swapped != right) {
      uint64_t t = p;
      p = q;
      q = t;
      t = U;
      U = V;
      V = t;
      swapped = right;
    }
    // Split the q intervals by p while p < q (only points on b's far
    // side), then p by q once.
    if (p < q) {
      uint64_t m = hybridQuotient(q - 1, p, k); // q stays in (0, p]
      q -= m * p;
      U = countAdd(U, m, V, N);
    }
    if (q == 0)
      return d; // a rational: the configuration is complete
    p -= q;
    V = countAdd(V, 1, U, N);
    if (p == 0)
      return d;
  }
}

/// Algorithm 4 (regular, unrolled by two). p and q are the lengths being
/// reduced, u and v how many intervals of length p and q exist. The start
/// is the one-point configuration {0}: one interval of length q = 1 (held
/// implicitly, as 2^64 does not fit), none of length p = a.
APPROX_HRCS_HD uint64_t regularBound(uint64_t a, uint64_t b, uint64_t N,
                                     uint64_t threshold, int k = 3) {
  (void)threshold; // no early exit: keeps the warp's loops in lock-step
  if (a == 0 || N <= 1)
    return b;
  uint64_t p = a;
  // First step: the unit interval split by p: q = 2^64 mod p, u = 2^64 / p.
  uint64_t q = (0 - p) % p;
  uint64_t u = ((0 - p) / p) + 1; // floor(2^64 / p)
  if (u > N)
    u = N;
  uint64_t v = 1;
  uint64_t d = b % p;
  for (;;) {
    if (u + v >= N || q == 0)
      return d;
    // q < p: each p interval becomes one of length r (left) and k of
    // length q (right). Where b sat in a q interval this may lower d early,
    // which only weakens the bound (Sect. 4.2).
    uint64_t kq = hybridQuotient(p, q, k);
    uint64_t r = p - kq * q;
    v = countAdd(v, kq, u, N);
    if (d >= r)
      d = (d - r) % q;
    p = r;
    if (u + v >= N || p == 0)
      return d;
    // p < q: each q interval becomes k of length p (left) and one of r.
    uint64_t kp = hybridQuotient(q, p, k);
    q -= kp * p;
    u = countAdd(u, kp, v, N);
    d %= p;
  }
}

/// The bound of `alg`.
APPROX_HRCS_HD uint64_t lowerBound(Algorithm alg, uint64_t a, uint64_t b,
                                   uint64_t N, uint64_t threshold, int k = 3) {
  return alg == Algorithm::Lefevre ? lefevreBound(a, b, N, threshold, k)
                                   : regularBound(a, b, N, threshold, k);
}

} // namespace approx::hrcs

#endif // APPROX_HRCS_LOWERBOUND_H
