//===- Phases.h - The three filtering phases, per packet ---------*- C++ -*-===//
//
// What one CPU iteration or one GPU thread does (Sect. 4.3.1, 5.2).
//
// Units: F(j) = |f(X0 + j*ulp_x)| / ulp_q, so rounding boundaries of the
// target precision q are the integers and an argument is a (q, eps)
// hard-to-round case when |F(j) cmod 1| < eps. Only F mod 1 matters, so
// every value is a fraction of 1 held in fixed point: 64 bits (u64) in the
// lower-bound tests, 128 bits in phase 3, W 64-bit words in the tables.
//
// A packet is S consecutive intervals of N arguments. For interval k the
// polynomial P (an approximation of F) is written in the binomial basis,
//     P(kN + m) = a0(k) + a1(k) m + a2(k) C(m, 2) + (terms of C(m, j>=3)),
// and each a_j(k) is advanced over k by tabulated differences: additions
// only, exact modulo 1 (Sect. 5.1). The packet carries the differences at its
// first interval, computed exactly on the CPU (Plan.cpp).
//
//   phase 1: degree-1 test of the whole interval (a0 + a1 m), bound from
//            LowerBound.h, threshold widened by the a2 C(m,2) truncation;
//   phase 2: the interval's `split` sub-intervals, each re-centred, the
//            same test with the smaller truncation error;
//   phase 3: every argument of a sub-interval, degree 2, in 128 bits.
//
// Header-only and callable from CUDA device code.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_HRCS_PHASES_H
#define APPROX_HRCS_PHASES_H

#include "approx/hrcs/LowerBound.h"

namespace approx::hrcs {

/// Largest degree of the polynomial P a packet tabulates.
constexpr int kMaxDegree = 10;
/// Largest number of 64-bit words of a table entry.
constexpr int kMaxWords = 8;

/// Most candidate arguments one backend call may return: beyond it the
/// epsilon is too wide for the domain (nearly every argument would be
/// listed) and the search stops with an error rather than exhaust memory.
constexpr uint64_t kMaxCandidates = uint64_t(1) << 24;

/// A 128-bit fraction of 1: hi carries weights 2^-1..2^-64.
struct U128 {
  uint64_t hi = 0, lo = 0;
};

APPROX_HRCS_HD U128 add128(U128 a, U128 b) {
  U128 r;
  r.lo = a.lo + b.lo;
  r.hi = a.hi + b.hi + (r.lo < a.lo ? 1 : 0);
  return r;
}

/// a * m mod 1 for an integer m < 2^64.
APPROX_HRCS_HD U128 mul128(U128 a, uint64_t m) {
  U128 r;
#if defined(__CUDA_ARCH__)
  r.lo = a.lo * m;
  r.hi = a.hi * m + __umul64hi(a.lo, m);
#else
  unsigned __int128 lo = (unsigned __int128)a.lo * m;
  r.lo = (uint64_t)lo;
  r.hi = a.hi * m + (uint64_t)(lo >> 64);
#endif
  return r;
}

/// |v cmod 1| of a 64-bit fraction: the distance to the nearest integer.
APPROX_HRCS_HD uint64_t distance64(uint64_t v) {
  return (v >> 63) ? (0 - v) : v;
}

/// The thresholds and sizes a packet is searched with (units of 2^-64).
struct PhaseParams {
  uint64_t intervalArgs = 0; ///< N, arguments per interval (power of two)
  uint32_t split = 8;        ///< sub-intervals per interval in phase 2
  uint32_t divisionThreshold = 3;
  Algorithm algorithm = Algorithm::Regular;
  /// Phase 1: a candidate interval has (a0 + eps1 - a x) mod 1 < 2 eps1 for
  /// some x < N, where a = -a1. eps1 = eps + every error of the interval.
  uint64_t eps1 = 0;
  /// Phase 2: the same for sub-intervals of N / split arguments.
  uint64_t eps2 = 0;
  /// Phase 3: an argument is a candidate when |F cmod 1| < eps3 (a 128-bit
  /// threshold: eps plus the polynomial's error, without truncation).
  U128 eps3;
};

/// Where Delta^i a_j sits in a packet's stored table: the entries with
/// i + j <= degree, j-major (3 * degree entries in all).
APPROX_HRCS_HD int tableEntry(int degree, int j, int i) {
  return j * (degree + 1) - (j * (j - 1)) / 2 + i;
}
/// Entries of a stored table of `degree`.
APPROX_HRCS_HD int tableEntries(int degree) { return 3 * degree; }

/// x += y modulo 1 for fractions of n 64-bit words (word 0 most
/// significant): the only arithmetic the tables need.
APPROX_HRCS_HD void addWords(uint64_t *x, const uint64_t *y, int n) {
  uint64_t carry = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int w = n - 1; w >= 0; --w) {
    uint64_t s = x[w] + carry;
    uint64_t c1 = s < carry ? 1 : 0;
    uint64_t t = s + y[w];
    carry = c1 + (t < s ? 1 : 0);
    x[w] = t;
  }
}

/// The tabulated differences of a0, a1, a2 of one packet, in W words each.
/// d[j][i][w]: Delta_k^i a_j at the current k, word w (0 = most significant).
/// D > 0 fixes the degree at compile time: loops unroll and, on the GPU, the
/// table stays in registers (with D = 0 it is indexed at run time and lives
/// in local memory, several times slower).
template <int W, int D = 0> struct Table {
  static constexpr int kRows = (D > 0 ? D : kMaxDegree) + 1;
  uint64_t d[3][kRows][W];
  int degree = 0; ///< delta: a_j has degree delta - j in k

  APPROX_HRCS_HD int deg() const { return D > 0 ? D : degree; }

  /// Loads a stored table (tableEntry layout, `W` words per entry).
  APPROX_HRCS_HD void load(const uint64_t *src, int deg) {
    degree = deg;
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i + j <= this->deg(); ++i)
        for (int w = 0; w < W; ++w)
          d[j][i][w] = src[tableEntry(this->deg(), j, i) * W + w];
  }

  /// Advance every a_j from k to k + 1.
  APPROX_HRCS_HD void step() {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int j = 0; j < 3; ++j)
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (int i = 0; i < kRows - 1; ++i) {
        if (i >= deg() - j)
          break;
        addWords(d[j][i], d[j][i + 1], W);
      }
  }
  APPROX_HRCS_HD U128 value(int j) const {
    U128 r;
    r.hi = d[j][0][0];
    r.lo = W > 1 ? d[j][0][1] : 0;
    return r;
  }
};

/// Calls f.template run<W, D>() for a table of `words` words and `degree`:
/// specialised (D = degree) for the common 2..4 words and every degree,
/// run-time degree (D = 0) otherwise. False for an unsupported width.
template <class F> bool dispatchTable(int words, int degree, F &&f) {
#define APPROX_HRCS_DEG(W)                                                     \
  switch (degree) {                                                            \
  case 2: f.template run<W, 2>(); return true;                                 \
  case 3: f.template run<W, 3>(); return true;                                 \
  case 4: f.template run<W, 4>(); return true;                                 \
  case 5: f.template run<W, 5>(); return true;                                 \
  case 6: f.template run<W, 6>(); return true;                                 \
  case 7: f.template run<W, 7>(); return true;                                 \
  case 8: f.template run<W, 8>(); return true;                                 \
  case 9: f.template run<W, 9>(); return true;                                 \
  case 10: f.template run<W, 10>(); return true;                               \
  default: f.template run<W, 0>(); return true;                                \
  }
  switch (words) {
  case 2: APPROX_HRCS_DEG(2)
  case 3: APPROX_HRCS_DEG(3)
  case 4: APPROX_HRCS_DEG(4)
  case 5: f.template run<5, 0>(); return true;
  case 6: f.template run<6, 0>(); return true;
  case 7: f.template run<7, 0>(); return true;
  case 8: f.template run<8, 0>(); return true;
  default: return false;
  }
#undef APPROX_HRCS_DEG
}

/// The degree-2 model of one (sub-)interval: F(start + m) ~ a0 + a1 m +
/// a2 C(m, 2) mod 1.
struct Quadratic {
  U128 a0, a1, a2;
};

/// Phase-1/phase-2 test: true when the degree-1 part of `q` over `n`
/// arguments may come within eps of an integer (a candidate).
APPROX_HRCS_HD bool linearCandidate(const Quadratic &q, uint64_t n,
                                    uint64_t eps, const PhaseParams &pp) {
  uint64_t twoEps = eps << 1;
  if (eps >= (uint64_t(1) << 62))
    return true; // the filter cannot reject anything
  uint64_t a = 0 - q.a1.hi;
  uint64_t b = q.a0.hi + eps;
  Algorithm alg = pp.algorithm;
  if (alg == Algorithm::Auto) {
    // Sect. 6.3: the regular algorithm where this interval's truncation
    // error |a2| C(n, 2) is at most eps/4, Lefevre's elsewhere (both bounds
    // are sound; the choice only trades phase-1 speed for filtering).
    uint64_t a2 = q.a2.hi, mag = (int64_t)a2 < 0 ? 0 - a2 : a2;
    uint64_t c2 = (n & 1) ? n * ((n - 1) / 2) : (n / 2) * (n - 1);
    uint64_t quarter = pp.eps3.hi >> 2;
    alg = (c2 == 0 || mag <= quarter / c2) ? Algorithm::Regular
                                            : Algorithm::Lefevre;
  }
  return lowerBound(alg, a, b, n, twoEps, (int)pp.divisionThreshold) <
         twoEps;
}

/// Sub-interval `s` (of `split`) of an interval: re-centred at m0.
APPROX_HRCS_HD Quadratic subInterval(const Quadratic &q, uint64_t m0) {
  // a0' = a0 + a1 m0 + a2 C(m0, 2); a1' = a1 + a2 m0; a2' = a2.
  uint64_t c2 = m0 == 0 ? 0 : (m0 & 1 ? m0 * ((m0 - 1) / 2)
                                      : (m0 / 2) * (m0 - 1));
  Quadratic r;
  r.a0 = add128(add128(q.a0, mul128(q.a1, m0)), mul128(q.a2, c2));
  r.a1 = add128(q.a1, mul128(q.a2, m0));
  r.a2 = q.a2;
  return r;
}

/// Phase 3 over n arguments: calls found(m) for each m whose degree-2 value
/// is within eps3 of an integer.
template <class Found>
APPROX_HRCS_HD void exhaustive(const Quadratic &q, uint64_t n,
                               const PhaseParams &pp, Found &&found) {
  U128 y = q.a0, dy = q.a1;
  for (uint64_t m = 0; m < n; ++m) {
    // |y cmod 1| < eps3 in 128 bits.
    U128 dist = y;
    if (y.hi >> 63) {
      dist.lo = 0 - y.lo;
      dist.hi = ~y.hi + (y.lo == 0 ? 1 : 0);
    }
    if (dist.hi < pp.eps3.hi ||
        (dist.hi == pp.eps3.hi && dist.lo < pp.eps3.lo))
      found(m);
    y = add128(y, dy);
    dy = add128(dy, q.a2);
  }
}

} // namespace approx::hrcs

#endif // APPROX_HRCS_PHASES_H
