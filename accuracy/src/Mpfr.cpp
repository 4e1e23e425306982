//===- Mpfr.cpp - MPFR references: Ziv loop, rounding, run length ---------===//
//
// The evaluation loop, the rounding of (value, direction) to a target format
// with its exponent range, and the run of identical bits after the round bit.
// Every MPFR call here is exact except the evaluation itself (the scalings
// are by powers of two, the subtractions are between numbers of one binade),
// so the decisions rest only on MPFR's correct rounding of f.
//
//===----------------------------------------------------------------------===//
#include "approx/accuracy/Mpfr.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace approx::accuracy {

namespace {

/// MPFR's default exponent range, used for every evaluation whatever range
/// the caller has set (and restored afterwards, with the flags).
constexpr mpfr_exp_t kEmin = 1 - (mpfr_exp_t(1) << 30);
constexpr mpfr_exp_t kEmax = (mpfr_exp_t(1) << 30) - 1;

class MpfrStateGuard {
public:
  MpfrStateGuard()
      : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()),
        flags_(mpfr_flags_save()) {
    mpfr_set_emin(kEmin);
    mpfr_set_emax(kEmax);
  }
  ~MpfrStateGuard() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
    mpfr_flags_restore(flags_, MPFR_FLAGS_ALL);
  }

private:
  mpfr_exp_t emin_, emax_;
  mpfr_flags_t flags_;
};

/// An mpfr_t that clears itself.
struct Scratch {
  explicit Scratch(long prec) { mpfr_init2(v, mpfr_prec_t(prec)); }
  ~Scratch() { mpfr_clear(v); }
  mpfr_t v;
};

/// MPFR exponent (x = m 2^E, 1/2 <= m < 1) of the smallest normal number.
mpfr_exp_t normalExp(const FormatInfo &f) { return f.emin + 1; }
/// MPFR exponent of the largest finite binade.
mpfr_exp_t maxExp(const FormatInfo &f) { return f.emax + 1; }
/// Exponent of the subnormal spacing (2^-1074 for f64).
mpfr_exp_t subnormalQuantum(const FormatInfo &f) {
  return f.emin - (f.precision - 1);
}

/// The result of an overflow: +-inf or +-max by mode; ternary in `t`.
double overflowResult(const FormatInfo &f, bool negative, RoundingMode mode,
                      int &t) {
  double inf = std::numeric_limits<double>::infinity();
  double max = std::ldexp(1.0 - std::ldexp(1.0, -f.precision), f.emax + 1);
  bool toInf = mode == RoundingMode::NearestEven ||
               (mode == RoundingMode::Upward && !negative) ||
               (mode == RoundingMode::Downward && negative);
  double mag = toInf ? inf : max;
  // |result| < |exact| unless it went to infinity.
  t = (toInf != negative) ? 1 : -1;
  return negative ? -mag : mag;
}

/// The result for a nonzero exact value below half the smallest subnormal.
double tinyResult(const FormatInfo &f, bool negative, RoundingMode mode,
                  int &t) {
  double minSub = std::ldexp(1.0, int(subnormalQuantum(f)));
  bool away = (mode == RoundingMode::Upward && !negative) ||
              (mode == RoundingMode::Downward && negative);
  double mag = away ? minSub : 0.0;
  t = (away != negative) ? 1 : -1;
  return negative ? -mag : mag;
}

/// True if |x| is a power of two (x finite, nonzero).
bool isPowerOfTwo(mpfr_srcptr x) {
  Scratch p2(1);
  mpfr_set_ui_2exp(p2.v, 1, mpfr_get_exp(x) - 1, MPFR_RNDN);
  return mpfr_cmpabs(x, p2.v) == 0;
}

} // namespace

mpfr_rnd_t toMpfr(RoundingMode mode) {
  switch (mode) {
  case RoundingMode::NearestEven:
    return MPFR_RNDN;
  case RoundingMode::TowardZero:
    return MPFR_RNDZ;
  case RoundingMode::Upward:
    return MPFR_RNDU;
  case RoundingMode::Downward:
    return MPFR_RNDD;
  }
  return MPFR_RNDN;
}

int evaluateMpfr(Func f, mpfr_ptr rop, mpfr_srcptr x, mpfr_srcptr y,
                 mpfr_rnd_t rnd) {
  switch (f) {
  case Func::Exp:
    return mpfr_exp(rop, x, rnd);
  case Func::Exp2:
    return mpfr_exp2(rop, x, rnd);
  case Func::Expm1:
    return mpfr_expm1(rop, x, rnd);
  case Func::Log:
    return mpfr_log(rop, x, rnd);
  case Func::Log2:
    return mpfr_log2(rop, x, rnd);
  case Func::Log10:
    return mpfr_log10(rop, x, rnd);
  case Func::Log1p:
    return mpfr_log1p(rop, x, rnd);
  case Func::Sin:
    return mpfr_sin(rop, x, rnd);
  case Func::Cos:
    return mpfr_cos(rop, x, rnd);
  case Func::Tan:
    return mpfr_tan(rop, x, rnd);
  case Func::Tanh:
    return mpfr_tanh(rop, x, rnd);
  case Func::Sqrt:
    return mpfr_sqrt(rop, x, rnd);
  case Func::Rsqrt:
    if (mpfr_zero_p(x) && mpfr_signbit(x)) { // IEEE 754 rSqrt(-0) = -inf
      mpfr_set_inf(rop, -1);
      return 0;
    }
    return mpfr_rec_sqrt(rop, x, rnd);
  case Func::Pow:
    return mpfr_pow(rop, x, y, rnd);
  }
  mpfr_set_nan(rop);
  return 0;
}

Reference::Reference(Func f, const FormatInfo &format, double x, double y,
                     PrecisionRule rule)
    : func_(f), format_(format), x_(x), y_(y) {
  const long p = format.precision;
  long initial = rule.initial ? rule.initial : p + 64;
  initial = std::max(initial, p + 2);
  long maxPrecision = rule.max ? rule.max : 8192;
  maxPrecision = std::max(maxPrecision, initial);
  mpfr_init2(value_, mpfr_prec_t(initial));
  MpfrStateGuard guard;
  for (long w = initial;; w = std::min(2 * w, maxPrecision)) {
    evaluate(w);
    computeRun(w, maxPrecision);
    if (zivDecided_ || runIsLowerBound_ || run_ == kRunNone)
      break;
  }
}

Reference::~Reference() { mpfr_clear(value_); }

Reference::Reference(Reference &&other) noexcept
    : func_(other.func_), format_(other.format_), x_(other.x_), y_(other.y_),
      direction_(other.direction_), evaluations_(other.evaluations_),
      overflow_(other.overflow_), underflow_(other.underflow_),
      zivDecided_(other.zivDecided_), runIsLowerBound_(other.runIsLowerBound_),
      run_(other.run_) {
  mpfr_init2(value_, mpfr_get_prec(other.value_));
  mpfr_swap(value_, other.value_);
}

Reference &Reference::operator=(Reference &&other) noexcept {
  if (this != &other) {
    func_ = other.func_;
    format_ = other.format_;
    x_ = other.x_;
    y_ = other.y_;
    direction_ = other.direction_;
    evaluations_ = other.evaluations_;
    overflow_ = other.overflow_;
    underflow_ = other.underflow_;
    zivDecided_ = other.zivDecided_;
    runIsLowerBound_ = other.runIsLowerBound_;
    run_ = other.run_;
    mpfr_swap(value_, other.value_);
  }
  return *this;
}

void Reference::evaluate(long w) {
  mpfr_set_prec(value_, mpfr_prec_t(w));
  Scratch x(53), y(53);
  mpfr_set_d(x.v, x_, MPFR_RNDN); // exact: 53 bits
  mpfr_set_d(y.v, y_, MPFR_RNDN);
  mpfr_clear_flags();
  int t = evaluateMpfr(func_, value_, x.v, y.v, MPFR_RNDN);
  direction_ = t > 0 ? 1 : (t < 0 ? -1 : 0);
  overflow_ = mpfr_overflow_p() && direction_ != 0;
  underflow_ = mpfr_underflow_p() && direction_ != 0;
  ++evaluations_;
}

// Sets run_, zivDecided_ and runIsLowerBound_ from value_ at precision w.
void Reference::computeRun(long w, long maxPrecision) {
  zivDecided_ = false;
  runIsLowerBound_ = false;
  if (mpfr_nan_p(value_) || mpfr_inf_p(value_) || overflow_ || underflow_) {
    run_ = kRunNone;
    // Exact NaN/inf, or beyond MPFR's range: value alone (+-inf, +-0 or
    // MPFR's extreme) does not round correctly to directed max/minsub.
    zivDecided_ = !(overflow_ || underflow_);
    return;
  }
  if (mpfr_zero_p(value_)) { // MPFR returns 0 only when it is exact here
    run_ = kRunInfinite;
    zivDecided_ = true;
    return;
  }
  const long p = format_.precision;
  // The binade of the exact value: value may have rounded up onto 2^E.
  mpfr_exp_t e = mpfr_get_exp(value_);
  bool exactBelow =
      direction_ != 0 && ((direction_ > 0) == (mpfr_sgn(value_) > 0));
  if (exactBelow && isPowerOfTwo(value_))
    --e;
  // Scale so the (p+1)-bit grid around the exact value has spacing 1.
  mpfr_exp_t qexp = std::max(e, normalExp(format_)) - (p + 1);
  Scratch u(w), g(w), d(w), b(w);
  mpfr_abs(u.v, value_, MPFR_RNDN);
  mpfr_mul_2si(u.v, u.v, -qexp, MPFR_RNDN);
  mpfr_frac(g.v, u.v, MPFR_RNDN); // the bits after the round bit
  if (direction_ == 0) {
    // Exact: the bits after the round bit are those of g, then zeros.
    zivDecided_ = true;
    if (mpfr_zero_p(g.v)) {
      run_ = kRunInfinite;
    } else if (mpfr_cmp_ui_2exp(g.v, 1, -1) < 0) {
      run_ = -long(mpfr_get_exp(g.v)); // leading zeros
    } else {
      mpfr_ui_sub(d.v, 1, g.v, MPFR_RNDN); // leading ones of g
      run_ = -long(mpfr_get_exp(d.v)) + (isPowerOfTwo(d.v) ? 1 : 0);
    }
    return;
  }
  // Inexact: exact = value + delta, |delta| < ulp_w/2 of its binade, so
  // the exact g lies within 2^hexp of this g (on one side; both are
  // considered). The run is -log2 of min(g, 1 - g), up to the dyadic
  // boundaries, which cannot be hit by an inexact value.
  mpfr_exp_t hexp =
      mpfr_exp_t(p - w) + std::min<mpfr_exp_t>(0, e - normalExp(format_));
  if (mpfr_cmp_ui_2exp(g.v, 1, -1) > 0)
    mpfr_ui_sub(g.v, 1, g.v, MPFR_RNDN); // now min(g, 1 - g), exact
  long lowerBound;
  if (mpfr_zero_p(g.v)) {
    // value sits on the (p+1)-bit grid: the exact value is within 2^hexp.
    lowerBound = -long(hexp);
  } else if (mpfr_cmp_ui_2exp(g.v, 1, -1) == 0) {
    run_ = 1; // g in (1/2 - 2^hexp, 1/2): the bits are 0111.. or 1000..
    zivDecided_ = true;
    return;
  } else {
    mpfr_exp_t ge = mpfr_get_exp(g.v); // g in [2^(ge-1), 2^ge), ge <= -1
    mpfr_set_ui_2exp(b.v, 1, ge - 1, MPFR_RNDN);
    mpfr_sub(d.v, g.v, b.v, MPFR_RNDN); // exact: same binade
    bool lowOk = mpfr_cmp_ui_2exp(d.v, 1, hexp) >= 0;
    bool highOk = ge == -1; // capped by g < 1/2 itself
    if (!highOk) {
      mpfr_set_ui_2exp(b.v, 1, ge, MPFR_RNDN);
      mpfr_sub(d.v, b.v, g.v, MPFR_RNDN); // exact
      highOk = mpfr_cmp_ui_2exp(d.v, 1, hexp) >= 0;
    }
    if (lowOk && highOk) {
      run_ = -long(ge);
      zivDecided_ = true;
      return;
    }
    // The exact g is below g + 2^hexp <= 2^(max(ge, hexp) + 1).
    lowerBound = -long(std::max(ge, hexp) + 1);
  }
  run_ = std::max(1L, lowerBound);
  runIsLowerBound_ = w >= maxPrecision;
}

double Reference::rounded(RoundingMode mode, int *ternary) const {
  MpfrStateGuard guard;
  int t = 0;
  double r;
  bool negative = mpfr_signbit(value_);
  if (mpfr_nan_p(value_)) {
    r = std::numeric_limits<double>::quiet_NaN();
  } else if (overflow_) {
    r = overflowResult(format_, negative, mode, t);
  } else if (underflow_) {
    r = tinyResult(format_, negative, mode, t);
  } else if (mpfr_inf_p(value_) || mpfr_zero_p(value_)) {
    r = mpfr_get_d(value_, MPFR_RNDN); // exact
  } else {
    const long p = format_.precision;
    const long w = precision();
    // A point strictly between value and the exact value's side of it: no
    // breakpoint separates it from the exact value, and it is not itself a
    // number of p+1 bits, so it rounds like the exact value in every mode.
    Scratch z(w + 1), res(p);
    mpfr_set(z.v, value_, MPFR_RNDN);
    if (direction_ > 0)
      mpfr_nextbelow(z.v);
    else if (direction_ < 0)
      mpfr_nextabove(z.v);
    mpfr_rnd_t rnd = toMpfr(mode);
    if (mpfr_get_exp(z.v) >= normalExp(format_)) {
      t = mpfr_set(res.v, z.v, rnd);
    } else { // subnormal grid: round z / 2^qmin to an integer
      mpfr_exp_t q = subnormalQuantum(format_);
      mpfr_mul_2si(z.v, z.v, -q, MPFR_RNDN);
      t = mpfr_rint(res.v, z.v, rnd);
      mpfr_mul_2si(res.v, res.v, q, MPFR_RNDN);
    }
    t = t > 0 ? 1 : (t < 0 ? -1 : 0);
    if (!mpfr_zero_p(res.v) && mpfr_get_exp(res.v) > maxExp(format_))
      r = overflowResult(format_, negative, mode, t);
    else
      r = mpfr_get_d(res.v, MPFR_RNDN); // exact
  }
  if (ternary)
    *ternary = t;
  return r;
}

double Reference::ulpError(double result) const {
  const double inf = std::numeric_limits<double>::infinity();
  if (mpfr_nan_p(value_) || std::isnan(result))
    return mpfr_nan_p(value_) && std::isnan(result) ? 0 : inf;
  if (std::isinf(result))
    return rounded(RoundingMode::NearestEven) == result ? 0 : inf;
  if (mpfr_inf_p(value_) || overflow_)
    return inf;
  MpfrStateGuard guard;
  const long p = format_.precision;
  mpfr_exp_t e = normalExp(format_);
  if (!mpfr_zero_p(value_)) {
    e = mpfr_get_exp(value_);
    bool exactBelow =
        direction_ != 0 && ((direction_ > 0) == (mpfr_sgn(value_) > 0));
    if (exactBelow && isPowerOfTwo(value_))
      --e;
    e = std::clamp(e, normalExp(format_), maxExp(format_));
  }
  Scratch d(precision() + 64);
  mpfr_d_sub(d.v, result, value_, MPFR_RNDN);
  mpfr_mul_2si(d.v, d.v, -(e - p), MPFR_RNDN); // ulp = 2^(e - p)
  return std::fabs(mpfr_get_d(d.v, MPFR_RNDN));
}

float correctlyRounded(Func f, float x, float y, RoundingMode mode,
                       int *ternary) {
  const long p = FormatInfo::of<F32>().precision;
  Reference ref(f, FormatInfo::of<F32>(), x, y, {p + 64, p + 64});
  return float(ref.rounded(mode, ternary));
}

double correctlyRounded(Func f, double x, double y, RoundingMode mode,
                        int *ternary) {
  const long p = FormatInfo::of<F64>().precision;
  Reference ref(f, FormatInfo::of<F64>(), x, y, {p + 64, p + 64});
  return ref.rounded(mode, ternary);
}

} // namespace approx::accuracy
