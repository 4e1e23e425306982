//===- MpfrOracle.h - Independent MPFR routes for the tests -----*- C++ -*-===//
//
// Two ways to round that do not go through Reference's Ziv loop or its
// (value, direction) rounding, to test them against:
//   - directRounding: MPFR evaluated straight at the target precision with
//     the target's exponent range set, then mpfr_subnormalize (the recipe of
//     the MPFR manual; MPFR's correct rounding does the rest);
//   - valueAloneRounding: a Reference's value() rounded as if it were exact
//     (what Ziv's criterion promises is correct when zivDecided()).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TEST_ACCURACY_MPFRORACLE_H
#define APPROX_TEST_ACCURACY_MPFRORACLE_H

#include "approx/accuracy/Mpfr.h"

#include <cmath>

namespace approx::accuracy::test {

/// Rounds `src`, taken as exact, to `fmt` (its exponent range included).
inline double roundIntoFormat(const FormatInfo &fmt, mpfr_srcptr src,
                              RoundingMode mode, int *ternary) {
  mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_t r;
  mpfr_init2(r, fmt.precision);
  mpfr_rnd_t rnd = toMpfr(mode);
  // p bits with MPFR's wide range first, then the format's range (MPFR
  // exponents: the smallest subnormal 2^(emin - p + 1) is 0.1 * 2^E with
  // E = emin - p + 2; the largest finite value is below 2^(emax + 1)):
  // check_range and subnormalize take the first rounding's ternary, so
  // nothing is rounded twice.
  int t = mpfr_set(r, src, rnd);
  mpfr_set_emin(fmt.emin - fmt.precision + 2);
  mpfr_set_emax(fmt.emax + 1);
  t = mpfr_check_range(r, t, rnd);
  t = mpfr_subnormalize(r, t, rnd);
  double d = mpfr_get_d(r, MPFR_RNDN);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  mpfr_clear(r);
  if (ternary)
    *ternary = t > 0 ? 1 : (t < 0 ? -1 : 0);
  return d;
}

/// f(x, y) correctly rounded to `fmt` in `mode` by MPFR directly.
inline double directRounding(Func f, const FormatInfo &fmt, double x, double y,
                             RoundingMode mode, int *ternary = nullptr) {
  mpfr_t xm, ym, r;
  mpfr_inits2(53, xm, ym, (mpfr_ptr) nullptr);
  mpfr_set_d(xm, x, MPFR_RNDN);
  mpfr_set_d(ym, y, MPFR_RNDN);
  mpfr_init2(r, fmt.precision);
  mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_rnd_t rnd = toMpfr(mode);
  mpfr_set_emin(fmt.emin - fmt.precision + 2);
  mpfr_set_emax(fmt.emax + 1);
  int t = evaluateMpfr(f, r, xm, ym, rnd);
  t = mpfr_check_range(r, t, rnd);
  t = mpfr_subnormalize(r, t, rnd);
  double d = mpfr_get_d(r, MPFR_RNDN);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  mpfr_clears(xm, ym, r, (mpfr_ptr) nullptr);
  if (ternary)
    *ternary = t > 0 ? 1 : (t < 0 ? -1 : 0);
  return d;
}

/// The value of `ref` rounded as if exact (its ternary ignored).
inline double valueAloneRounding(const Reference &ref, RoundingMode mode) {
  return roundIntoFormat(ref.format(), ref.value(), mode, nullptr);
}

/// Same double, NaNs equal (any payload).
inline bool sameValue(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

} // namespace approx::accuracy::test

#endif // APPROX_TEST_ACCURACY_MPFRORACLE_H
