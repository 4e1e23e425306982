//===- Function.h - The functions the hard-to-round search covers -*- C++ -*-===//
//
// One small interface per function: its value and Taylor coefficients in
// MPFR, a bound on its derivatives over an interval (for the truncation and
// remainder errors), the points where it turns (so the search can split the
// domain into monotone pieces) and its domain. Adding a function is one class
// in Function.cpp and one line in its table.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_HRCS_FUNCTION_H
#define APPROX_HRCS_FUNCTION_H

// Functions, not macros (Real converts to mpfr_ptr), and the intmax_t API.
#ifndef MPFR_USE_NO_MACRO
#define MPFR_USE_NO_MACRO
#endif
#include <cstdint>
#include <stdint.h>
#include <mpfr.h>
#include <string>
#include <vector>

namespace approx::hrcs {

/// An mpfr_t that frees itself (move-only).
class Real {
public:
  explicit Real(mpfr_prec_t prec = 64) { mpfr_init2(v_, prec); }
  Real(const Real &) = delete;
  Real &operator=(const Real &) = delete;
  Real(Real &&o) noexcept {
    mpfr_init2(v_, mpfr_get_prec(o.v_));
    mpfr_swap(v_, o.v_);
  }
  ~Real() { mpfr_clear(v_); }
  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }
  operator mpfr_ptr() { return v_; }
  operator mpfr_srcptr() const { return v_; }

private:
  mpfr_t v_;
};

/// A real function of one variable, as the search needs it.
class Function {
public:
  virtual ~Function() = default;
  /// The C name ("exp").
  virtual const char *name() const = 0;
  /// Empty when f is defined, finite and nonzero-derivative almost
  /// everywhere on [lo, hi]; otherwise why not (one line).
  virtual std::string checkDomain(mpfr_srcptr lo, mpfr_srcptr hi) const = 0;
  /// y = f(x), correctly rounded to nearest at y's precision; returns
  /// MPFR's ternary value (0: exact).
  virtual int eval(mpfr_ptr y, mpfr_srcptr x) const = 0;
  /// f(x) from the C library, approximately: only where the plan places
  /// its cuts, which MPFR checks afterwards (never a verdict on a case).
  virtual double approx(double x) const = 0;
  /// c[i] = f^(i)(x) / i! for i = 0..n at precision `prec` (each within a
  /// few roundings of that precision: relative error below 2^(8 - prec)).
  virtual void taylor(std::vector<Real> &c, int n, mpfr_srcptr x,
                      mpfr_prec_t prec) const = 0;
  /// log2 of an upper bound of |f^(r)(t)| over t in [lo, hi], r >= 1.
  virtual double log2DerivativeBound(int r, mpfr_srcptr lo,
                                     mpfr_srcptr hi) const = 0;
  /// The points of (lo, hi) where f' vanishes, ascending (f is monotone
  /// between them). Precision of the results: `prec`.
  virtual std::vector<Real> turningPoints(mpfr_srcptr lo, mpfr_srcptr hi,
                                          mpfr_prec_t prec) const {
    (void)lo, (void)hi, (void)prec;
    return {};
  }
};

/// log2|v|, from v rounded up to a double's precision (-inf for 0): what
/// the error bounds are computed in, so huge exponents stay representable.
double log2Abs(mpfr_srcptr v);

/// The function called `name`, or nullptr.
const Function *lookupFunction(const std::string &name);
/// The names lookupFunction knows, comma-separated.
std::string knownFunctions();

} // namespace approx::hrcs

#endif // APPROX_HRCS_FUNCTION_H
