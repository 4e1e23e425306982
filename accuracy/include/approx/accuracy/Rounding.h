//===- Rounding.h - Rounding a reference; ambiguity -------------*- C++ -*-===//
//
// bench/accuracy compares each result with the correctly rounded value, which
// it gets by rounding a reference computed in higher precision (f64 for f32
// results, x87 long double for f64 results). That reference carries its own
// error, so where it lies closer to a rounding boundary (a midpoint between
// two neighbours) than that error, its rounding may not be the correct
// rounding of the exact value. Such inputs are "ambiguous": left out of the
// max and counted.
//
// roundNearest(ref) rounds to nearest-even and says how far ref lies from the
// rounded value, `frac`, in ulps of the binade where ref lies (the
// binade-boundary rule of Ulp.h; at a power of two the two sides have
// different spacings and the one that counts is the side of ref). Since
// RN(ref) is within half an ulp, the distance to the nearest midpoint is
// 0.5 - frac, and `ambiguous(tol)` is |frac - 0.5| < tol: true when an error
// of up to `tol` ulps in ref could flip the rounding.
//
// Overflow follows IEEE 754: rounding is done as with an unbounded exponent
// and 2^(emax+1) stands for infinity, so a reference just below the overflow
// threshold max + ulp/2 is ambiguous like any other near-midpoint value;
// at or beyond 2^(emax+1) the result is infinity and frac is 0.
// Device-callable under nvcc, except the long double overload.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_ACCURACY_ROUNDING_H
#define APPROX_ACCURACY_ROUNDING_H

#include "approx/accuracy/Ulp.h"

namespace approx::accuracy {

/// Tolerance (in result ulps) bench/accuracy uses for f32 results against a
/// reference computed in f64 (libdevice, <= 2 f64 ulp = 2^-28 f32 ulp):
/// 2^-20 leaves a margin of 2^8.
inline constexpr double kF32FromF64RefTolerance = 0x1p-20;
/// Tolerance (in result ulps) bench/accuracy uses for f64 results against an
/// x87 long double reference (64-bit significand: 2^-11 f64 ulp per long
/// double ulp; glibc's long double sinl/cosl/expl/logl/powl are within
/// 1-2 of them).
inline constexpr double kF64FromLongDoubleRefTolerance = 0x1p-10;

/// A reference rounded to nearest-even in F, with its distance to the
/// rounded value.
template <class F> struct NearestRounding {
  /// RN(ref) in F: +-inf on overflow, F's quiet NaN (sign kept) for a NaN.
  typename F::Bits bits = 0;
  /// |ref - RN(ref)| in ulps of the binade where ref lies, in [0, 0.5]; 0
  /// when ref is infinite, NaN, or at least 2^(emax+1) in magnitude.
  double frac = 0;

  /// True when ref is within `tol` ulps of a rounding boundary, so that a
  /// reference error of up to `tol` ulps could change RN(ref). A ref exactly
  /// on a midpoint (frac = 0.5) is ambiguous for every tol > 0.
  APPROX_ACC_HD bool ambiguous(double tol) const {
    double d = frac - 0.5;
    return (d < 0 ? -d : d) < tol;
  }
};

/// Rounds `ref` to nearest-even in F (f16, bf16 or f32; for f64 the double
/// is returned as is, with frac 0). Integer arithmetic on the bits of ref:
/// the same result as a hardware conversion, for formats that have none.
template <class F>
APPROX_ACC_HD inline NearestRounding<F> roundNearest(double ref) {
  using Bits = typename F::Bits;
  NearestRounding<F> out;
  uint64_t rb = bitsOf(ref);
  Bits sign = (rb & F64::kSignMask) ? F::kSignMask : Bits(0);
  if constexpr (sizeof(Bits) == 8) {
    out.bits = Bits(rb);
    return out;
  } else {
    if (detail::isNaNd(ref)) {
      out.bits = Bits(sign | F::kQuietNaN);
      return out;
    }
    double a = detail::absd(ref);
    if (a == 0) {
      out.bits = sign;
      return out;
    }
    if (detail::isInfd(a) || a >= pow2(F::kEmax + 1)) {
      out.bits = Bits(sign | F::kInf);
      return out;
    }
    // Scale so that the spacing of ref's binade (q = 2^qe) becomes 1; the
    // scaling by a power of two is exact, t < 2^p.
    int e = exponentOf(a);
    int qe = (e < F::kEmin ? F::kEmin : e) - (F::kPrecision - 1);
    double t = a * pow2(-qe);
    uint64_t m = uint64_t(t);
    double rest = t - double(m); // exact
    if (rest > 0.5 || (rest == 0.5 && (m & 1))) {
      ++m;
      out.frac = 1 - rest;
    } else {
      out.frac = rest;
    }
    // Encode m * 2^qe; m may have carried to 2^p (next binade).
    const uint64_t hidden = uint64_t(1) << (F::kPrecision - 1);
    if (m < hidden) { // subnormal (qe is the subnormal spacing) or zero
      out.bits = Bits(sign | Bits(m));
      return out;
    }
    int be = qe + (F::kPrecision - 1); // binade exponent of m * 2^qe
    if (m == (hidden << 1)) {
      m = hidden;
      ++be;
    }
    if (be > F::kEmax) {
      out.bits = Bits(sign | F::kInf);
      return out;
    }
    out.bits = Bits(sign | (Bits(be + F::kBias) << (F::kPrecision - 1)) |
                    Bits(m - hidden));
    return out;
  }
}

/// Rounds a double-double reference hi + lo to nearest-even in f64.
APPROX_ACC_HD inline NearestRounding<F64> roundNearest(DoubleDouble ref) {
  NearestRounding<F64> out;
  if (detail::isNaNd(ref.hi) || detail::isNaNd(ref.lo)) {
    out.bits = F64::kQuietNaN;
    return out;
  }
  if (detail::isInfd(ref.hi) || detail::isInfd(ref.lo)) {
    out.bits = bitsOf(ref.hi + ref.lo); // NaN for inf - inf
    return out;
  }
  DoubleDouble n = normalize(ref);
  out.bits = bitsOf(n.hi);
  if (detail::isInfd(n.hi)) {
    // At or beyond max + ulp/2. In units of the top spacing 2^971, the
    // distance of |ref| below 2^1024 is 2^53 - |hi|/2^971 - (lo towards 0).
    double s = ref.hi < 0 || (ref.hi == 0 && ref.lo < 0) ? -1 : 1;
    double below =
        (0x1p53 - detail::absd(ref.hi) * 0x1p-971) - s * ref.lo * 0x1p-971;
    out.frac = below > 0 ? below : 0;
    return out;
  }
  if (n.lo == 0)
    return out;
  out.frac = detail::absd(n.lo) / ulpOf(n);
  return out;
}

/// Rounds a long double reference to nearest-even in f64. Host only; with a
/// 53-bit long double this is the double itself.
inline NearestRounding<F64> roundNearest(long double ref) {
  NearestRounding<F64> out;
  double hi = double(ref);
  out.bits = bitsOf(hi);
  if (ref != ref || ref == 0 || ref > LDBL_MAX || ref < -LDBL_MAX)
    return out;
  if (detail::isInfd(hi)) {
#if LDBL_MAX_EXP > DBL_MAX_EXP
    long double below = (0x1p1024L - (ref < 0 ? -ref : ref)) / 0x1p971L;
    out.frac = below > 0 ? double(below) : 0;
#endif
    return out;
  }
  long double rest = ref - (long double)hi; // exact
  out.frac = double((rest < 0 ? -rest : rest) / (long double)ulpOfF64(ref));
  return out;
}

/// Native-type result of a rounding (float for F32, double for F64).
APPROX_ACC_HD inline float toFloat(const NearestRounding<F32> &r) {
  return floatFromBits(r.bits);
}
/// Native-type result of a rounding (float for F32, double for F64).
APPROX_ACC_HD inline double toDouble(const NearestRounding<F64> &r) {
  return doubleFromBits(r.bits);
}

} // namespace approx::accuracy

#endif // APPROX_ACCURACY_ROUNDING_H
