//===- Ulp.h - ulp distance and ulp error -----------------------*- C++ -*-===//
//
// Two measures, as bench/accuracy reports them:
//   - ulpDistance(a, b): how many representable numbers of the format lie
//     between two results (the CUDA Programming Guide's "ulp error" when b is
//     the correctly rounded result). Bit patterns map to ordered integers:
//     +0 and -0 are the same point, the smallest subnormals are +-1, +-inf sit
//     one step beyond the largest finite values, and a NaN has no position.
//   - ulpError(result, exact): |result - exact| / ulp(exact), a real number,
//     where ulp(exact) is the spacing of the format in the binade where the
//     exact value lies (the binade-boundary rule): just below 2^k the spacing
//     is the lower binade's, half the one above. With this rule a correctly
//     rounded-to-nearest result is always within 0.5, and a neighbour never.
// The exact value comes as a double (for f16/bf16/f32 results), a long double
// or a double-double (f64 results); Mpfr.h measures against MPFR values.
// Device-callable under nvcc, except the long double overloads.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_ACCURACY_ULP_H
#define APPROX_ACCURACY_ULP_H

#include "approx/accuracy/Format.h"

#include <cfloat>
#include <cmath>

namespace approx::accuracy {

/// An unevaluated sum hi + lo of two doubles: a reference value with about
/// 106 significant bits. Nothing requires |lo| <= ulp(hi)/2.
struct DoubleDouble {
  double hi = 0; ///< The leading part.
  double lo = 0; ///< The trailing part.
};

/// The position of `b` on the number line of F: 0 for both zeros, +-1 for
/// the smallest subnormals, +-(ordinal of the largest finite + 1) for +-inf.
/// Consecutive representable values have consecutive ordinals. Meaningless
/// for a NaN (check isNaN first, or use ulpDistance).
template <class F> APPROX_ACC_HD constexpr int64_t ordinal(typename F::Bits b) {
  int64_t magnitude = int64_t(b & typename F::Bits(~F::kSignMask));
  return signBit<F>(b) ? -magnitude : magnitude;
}

/// What ulpDistance returns when exactly one operand is a NaN.
inline constexpr uint64_t kNaNDistance = ~uint64_t(0);

/// |ordinal(a) - ordinal(b)|: the number of steps between two values of F.
/// Two NaNs (any payloads, any signs) are at distance 0; a NaN and a non-NaN
/// at kNaNDistance. Never overflows (the largest, -inf to +inf in f64, is
/// 2 * 0x7ff0000000000000).
template <class F>
APPROX_ACC_HD constexpr uint64_t ulpDistance(typename F::Bits a,
                                             typename F::Bits b) {
  bool nanA = isNaN<F>(a), nanB = isNaN<F>(b);
  if (nanA || nanB)
    return nanA && nanB ? 0 : kNaNDistance;
  uint64_t ma = uint64_t(a & typename F::Bits(~F::kSignMask));
  uint64_t mb = uint64_t(b & typename F::Bits(~F::kSignMask));
  if (signBit<F>(a) != signBit<F>(b))
    return ma + mb;
  return ma > mb ? ma - mb : mb - ma;
}
/// ulpDistance for native floats.
APPROX_ACC_HD inline uint64_t ulpDistance(float a, float b) {
  return ulpDistance<F32>(bitsOf(a), bitsOf(b));
}
/// ulpDistance for native doubles.
APPROX_ACC_HD inline uint64_t ulpDistance(double a, double b) {
  return ulpDistance<F64>(bitsOf(a), bitsOf(b));
}

namespace detail {
APPROX_ACC_HD inline double absd(double x) { return x < 0 ? -x : x; }
APPROX_ACC_HD inline double infinity() { return doubleFromBits(F64::kInf); }
APPROX_ACC_HD inline double quietNaN() {
  return doubleFromBits(F64::kQuietNaN);
}
APPROX_ACC_HD inline bool isNaNd(double x) { return x != x; }
APPROX_ACC_HD inline bool isInfd(double x) { return isInf<F64>(bitsOf(x)); }
/// True if |x| is a power of two (a normal double with a zero significand).
APPROX_ACC_HD inline bool isPow2d(double x) {
  uint64_t a = bitsOf(x) & ~F64::kSignMask;
  return (a & F64::kMantissaMask) == 0 && (a >> 52) != 0 && (a >> 52) != 0x7ff;
}
/// The spacing of F in the binade 2^e (clamped to F's exponent range).
template <class F> APPROX_ACC_HD inline double spacingAt(int e) {
  if (e < F::kEmin)
    e = F::kEmin;
  if (e > F::kEmax)
    e = F::kEmax;
  return pow2(e - (F::kPrecision - 1));
}
/// |F's overflow threshold| for round-to-nearest: max + ulp/2. Exact in
/// double for every F but F64 (where it is 2^1024 - 2^970).
template <class F> APPROX_ACC_HD inline double overflowThreshold() {
  return toDouble<F>(F::kMaxFinite) + spacingAt<F>(F::kEmax) / 2;
}
} // namespace detail

/// ulp(x) for format F: the spacing of F in the binade [2^e, 2^(e+1)) that
/// holds |x|. Below the normal range it is the subnormal spacing 2^kQmin
/// (also for x = 0); above the largest finite binade it stays that binade's
/// spacing (also for infinities). NaN for a NaN.
template <class F> APPROX_ACC_HD inline double ulpOf(double x) {
  if (detail::isNaNd(x))
    return x;
  if (x == 0 || detail::isInfd(x))
    return detail::spacingAt<F>(x == 0 ? F::kEmin : F::kEmax);
  return detail::spacingAt<F>(exponentOf(x));
}

/// hi + lo as a normalized pair: hi = RN(hi + lo) and lo the exact rest
/// (Knuth's TwoSum: needs IEEE round-to-nearest arithmetic, so no
/// -ffast-math). When hi + lo overflows, hi is that infinity and lo is 0.
APPROX_ACC_HD inline DoubleDouble normalize(DoubleDouble x) {
  double s = x.hi + x.lo;
  if (detail::isInfd(s) || detail::isNaNd(s))
    return {s, 0};
  double bb = s - x.hi;
  double err = (x.hi - (s - bb)) + (x.lo - bb);
  return {s, err};
}

/// ulp(hi + lo) for f64, with the binade-boundary rule: when RN(hi + lo) is
/// a power of two and the rest points towards zero, the value lies in the
/// lower binade.
APPROX_ACC_HD inline double ulpOf(DoubleDouble x) {
  DoubleDouble n = normalize(x);
  if (detail::isNaNd(n.hi) || n.hi == 0 || detail::isInfd(n.hi))
    return ulpOf<F64>(n.hi);
  int e = exponentOf(n.hi);
  if (detail::isPow2d(n.hi) && n.lo != 0 && ((n.lo < 0) != (n.hi < 0)))
    --e;
  return detail::spacingAt<F64>(e);
}

/// ulp(x) for f64 from a long double, as ulpOf<F64>(double) but without
/// first rounding x to double (which could move it across a binade
/// boundary). Host only.
inline double ulpOfF64(long double x) {
  if (x != x)
    return detail::quietNaN();
  if (x == 0 || x > LDBL_MAX || x < -LDBL_MAX)
    return ulpOf<F64>(double(x));
  int e;
  std::frexp(x, &e); // |x| = m 2^e, m in [0.5, 1)
  return detail::spacingAt<F64>(e - 1);
}

namespace detail {
/// The part of ulpError shared by every reference type: NaN/inf rules.
/// Returns true (and sets `out`) when the pair is decided without
/// arithmetic.
template <class F>
APPROX_ACC_HD inline bool
nonFiniteError(typename F::Bits result, bool exactNaN, bool exactInf,
               bool exactNegative, bool exactOverflowsNearest, double &out) {
  bool resultNaN = isNaN<F>(result), resultInf = isInf<F>(result);
  if (resultNaN || exactNaN) {
    out = resultNaN && exactNaN ? 0 : infinity();
    return true;
  }
  if (resultInf) {
    bool sameSign = signBit<F>(result) == exactNegative;
    out = sameSign && (exactInf || exactOverflowsNearest) ? 0 : infinity();
    return true;
  }
  if (exactInf) {
    out = infinity();
    return true;
  }
  return false;
}
} // namespace detail

/// |result - exact| / ulpOf<F>(exact), the error of `result` in ulps of the
/// binade where `exact` lies. Non-finite cases: 0 when both are NaN, when
/// both are the same infinity, or when result is the infinity that exact
/// rounds to (to nearest, exact beyond the overflow threshold); +inf for
/// every other pair involving a NaN or an infinity. An exact value beyond
/// F's range against a finite result is measured in the largest binade's
/// spacing. The difference is formed in double: exact for results and
/// references within a few ulps of each other.
template <class F>
APPROX_ACC_HD inline double ulpError(typename F::Bits result, double exact) {
  double out;
  bool overflows = false; // for f64, 2^1024 - 2^970 exceeds every double
  if constexpr (sizeof(typename F::Bits) < 8)
    overflows = !detail::isNaNd(exact) &&
                detail::absd(exact) >= detail::overflowThreshold<F>();
  if (detail::nonFiniteError<F>(result, detail::isNaNd(exact),
                                detail::isInfd(exact), exact < 0, overflows,
                                out))
    return out;
  double r = toDouble<F>(result), u = ulpOf<F>(exact);
  double d = r - exact;
  if (detail::isInfd(d)) // only for f64 results near +-DBL_MAX
    return detail::absd(r * 0.5 - exact * 0.5) / (u * 0.5);
  return detail::absd(d) / u;
}
/// ulpError for a float result.
APPROX_ACC_HD inline double ulpError(float result, double exact) {
  return ulpError<F32>(bitsOf(result), exact);
}
/// ulpError for a double result against a double (an exact or rounded
/// reference; see the overloads below for more precise ones).
APPROX_ACC_HD inline double ulpError(double result, double exact) {
  return ulpError<F64>(bitsOf(result), exact);
}

/// ulpError for an f64 result against a double-double reference hi + lo.
APPROX_ACC_HD inline double ulpError(double result, DoubleDouble exact) {
  double out;
  bool nan = detail::isNaNd(exact.hi) || detail::isNaNd(exact.lo);
  bool inf = !nan && (detail::isInfd(exact.hi) || detail::isInfd(exact.lo));
  DoubleDouble n = normalize(exact);
  // A finite hi + lo rounds to +-inf exactly when it is at or beyond the
  // overflow threshold.
  bool overflows = !nan && !inf && detail::isInfd(n.hi);
  if (detail::nonFiniteError<F64>(bitsOf(result), nan || detail::isNaNd(n.hi),
                                  inf, n.hi < 0, overflows, out))
    return out;
  double u = ulpOf(n);
  // (result - hi) is exact when they are close (Sterbenz); then lo.
  double d = (result - n.hi) - n.lo;
  if (detail::isInfd(d))
    return detail::absd((result * 0.5 - n.hi * 0.5) - n.lo * 0.5) / (u * 0.5);
  return detail::absd(d) / u;
}

/// ulpError for an f64 result against a long double reference. Host only.
inline double ulpError(double result, long double exact) {
  double out;
  bool nan = exact != exact;
  bool inf = !nan && (exact > LDBL_MAX || exact < -LDBL_MAX);
  bool negative = exact < 0;
  bool overflows = false;
#if LDBL_MAX_EXP > DBL_MAX_EXP
  const long double threshold = 0x1p1024L - 0x1p970L;
  overflows = !nan && (exact >= threshold || exact <= -threshold);
#endif
  if (detail::nonFiniteError<F64>(bitsOf(result), nan, inf, negative, overflows,
                                  out))
    return out;
  long double d = (long double)result - exact;
  return double((d < 0 ? -d : d) / (long double)ulpOfF64(exact));
}

} // namespace approx::accuracy

#endif // APPROX_ACCURACY_ULP_H
