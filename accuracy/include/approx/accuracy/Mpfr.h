//===- Mpfr.h - MPFR references and correct rounding ------------*- C++ -*-===//
//
// A Reference holds f(x) (or x^y) evaluated by MPFR at a working precision w,
// enough to measure errors in ulps, to round correctly in every IEEE
// direction, and to say how hard the value is to round.
//
// What MPFR gives: `value` = f(x) correctly rounded to nearest at w bits,
// and the ternary `direction` = sign(value - exact), 0 only when the value
// is exact. So the exact value lies in the open interval between value and
// value -+ ulp_w/2 (the side given by direction), which holds no number of
// w bits, hence no number of p+1 bits: neither a representable number of
// the p-bit target nor a midpoint. Rounding (value, direction) to the target
// therefore gives the correctly rounded result in every mode, at any w >= p+2.
//
// Precision rule (Ziv's strategy), for what value alone must answer:
//   - start at w = p + 64 (PrecisionRule::initial): value then carries 63 bits
//     beyond the round bit, and ulp errors are measured to 2^-64 ulp;
//   - accept w when the run of identical bits after the round bit of the
//     exact value ends inside what value determines (run < w - p - 2 or so;
//     checked exactly, see run()); then rounding value alone, without the
//     ternary, is also correct in every mode, and run() is exact;
//   - otherwise double w and evaluate again, up to PrecisionRule::max (8192
//     bits). Past it (exact values adjacent to a representable number, e.g.
//     tanh(1e300) = 1 - 2e^-2e300) run() is only a lower bound and rounding
//     rests on the ternary, which is exact in any case.
// The f32/f64 target's exponent range is honoured: subnormal results are
// rounded on the subnormal grid (no double rounding), overflow gives
// +-inf or +-max by mode, and MPFR's own range (2^(+-2^30)) is treated as
// beyond every target.
//
// Special values follow IEEE 754 / C Annex F as MPFR does, except rsqrt(-0),
// which is -inf (IEEE 754-2019 rSqrt) where mpfr_rec_sqrt gives +inf.
// Needs MPFR (APPROX_ACCURACY_HAS_MPFR is defined when the library has it).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_ACCURACY_MPFR_H
#define APPROX_ACCURACY_MPFR_H

#include "approx/accuracy/Format.h"
#include "approx/accuracy/Functions.h"

#include <climits>
#include <mpfr.h>

namespace approx::accuracy {

/// A target format, at run time: precision and IEEE exponent range.
struct FormatInfo {
  const char *name; ///< "f32", ...
  int precision;    ///< p, significand bits with the hidden one.
  int emin;         ///< Smallest normal is 2^emin.
  int emax;         ///< Largest finite binade is [2^emax, 2^(emax+1)).

  /// The FormatInfo of a Format.h trait (F16, BF16, F32, F64).
  template <class F> static constexpr FormatInfo of() {
    return {F::kName, F::kPrecision, F::kEmin, F::kEmax};
  }
};

/// The working-precision rule; see the file comment.
struct PrecisionRule {
  /// First working precision; 0 selects p + 64. Raised to p + 2 if lower.
  long initial = 0;
  /// Largest working precision; 0 selects 8192. At most `initial` means one
  /// evaluation: rounding is still correct (ternary), run() may be a bound.
  long max = 0;
};

/// f(x) at a working precision chosen by PrecisionRule, for one target
/// format. Not copyable (owns an mpfr_t); movable.
class Reference {
public:
  /// run(): the exact value is a number of p+1 bits (zero included): every
  /// bit after the round bit is 0.
  static constexpr long kRunInfinite = LONG_MAX;
  /// run(): no finite exact value to speak of (NaN, an infinite result, or
  /// one beyond MPFR's exponent range).
  static constexpr long kRunNone = -1;

  /// Evaluates `f` at `x` (and `y` for Pow) for results in `format`. The
  /// inputs are taken as given (pass values representable in `format`).
  Reference(Func f, const FormatInfo &format, double x, double y = 0,
            PrecisionRule rule = {});
  ~Reference();
  Reference(Reference &&other) noexcept;
  Reference &operator=(Reference &&other) noexcept;
  Reference(const Reference &) = delete;
  Reference &operator=(const Reference &) = delete;

  /// The function evaluated.
  Func func() const { return func_; }
  /// The target format.
  const FormatInfo &format() const { return format_; }
  /// f(x) rounded to nearest at precision() bits (MPFR's own exponent
  /// range).
  mpfr_srcptr value() const { return value_; }
  /// sign(value - exact): -1, 0 (value is exact) or +1.
  int direction() const { return direction_; }
  /// The working precision w of value().
  long precision() const { return long(mpfr_get_prec(value_)); }
  /// How many times f was evaluated (1 + Ziv steps).
  int evaluations() const { return evaluations_; }
  /// True when value() alone, rounded in any mode, gives the correctly
  /// rounded result (exact value, or run determined below the cap).
  bool zivDecided() const { return zivDecided_; }
  /// The number of identical bits that follow the round bit (bit p+1) in
  /// the exact value, on the subnormal grid where the value is subnormal:
  /// hard-to-round cases have long runs. kRunInfinite, kRunNone, or a lower
  /// bound when runIsLowerBound().
  long run() const { return run_; }
  /// True when the precision cap was reached before run() was determined.
  bool runIsLowerBound() const { return runIsLowerBound_; }

  /// The correctly rounded result in the target format, as a double (every
  /// f32 value is one). `ternary`, if given, receives sign(result - exact).
  double rounded(RoundingMode mode, int *ternary = nullptr) const;

  /// |result - exact| / ulp(exact) in the target format, ulp(exact) being
  /// the spacing of the binade where the exact value lies (Ulp.h's rule).
  /// Non-finite pairs as ulpError in Ulp.h. Accurate to 2^(p - w) ulp.
  double ulpError(double result) const;

private:
  void evaluate(long w);
  void computeRun(long w, long maxPrecision);

  Func func_;
  FormatInfo format_;
  double x_, y_;
  mpfr_t value_;
  int direction_ = 0;
  int evaluations_ = 0;
  bool overflow_ = false, underflow_ = false;
  bool zivDecided_ = false, runIsLowerBound_ = false;
  long run_ = kRunNone;
};

/// The correctly rounded f32 result of f(x) (x^y for Pow) in `mode`; one
/// MPFR evaluation at p + 64 bits. `ternary` receives sign(result - exact).
float correctlyRounded(Func f, float x, float y = 0,
                       RoundingMode mode = RoundingMode::NearestEven,
                       int *ternary = nullptr);
/// The correctly rounded f64 result of f(x) (x^y for Pow) in `mode`.
double correctlyRounded(Func f, double x, double y = 0,
                        RoundingMode mode = RoundingMode::NearestEven,
                        int *ternary = nullptr);

/// Evaluates f at (x, y) into `rop` (its precision) with MPFR rounding `rnd`;
/// returns MPFR's ternary. The function table behind Reference.
int evaluateMpfr(Func f, mpfr_ptr rop, mpfr_srcptr x, mpfr_srcptr y,
                 mpfr_rnd_t rnd);

/// The MPFR rounding mode of `mode`.
mpfr_rnd_t toMpfr(RoundingMode mode);

} // namespace approx::accuracy

#endif // APPROX_ACCURACY_MPFR_H
