//===- Function.cpp - exp, exp2, log, log2, sin, cos for the search -------===//
//
// Taylor coefficients come from closed forms of the derivatives; bounds are
// computed in MPFR (rounded upward) and returned as log2 so that huge
// exponents (exp near overflow) stay representable.
//
//===----------------------------------------------------------------------===//
#include "approx/hrcs/Function.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace approx::hrcs {
namespace {

/// log2(r!) (upper bound is not needed: only divided by).
double log2Factorial(int r) {
  double s = 0;
  for (int i = 2; i <= r; ++i)
    s += std::log2((double)i);
  return s;
}

/// c = n + 1 numbers of precision `prec`.
void allocate(std::vector<Real> &c, int n, mpfr_prec_t prec) {
  c.clear();
  for (int i = 0; i <= n; ++i)
    c.emplace_back(prec);
}

/// max(|lo|, |hi|) rounded up: what the range checks compare.
double maxAbs(mpfr_srcptr lo, mpfr_srcptr hi) {
  return std::max(std::fabs(mpfr_get_d(lo, MPFR_RNDA)),
                  std::fabs(mpfr_get_d(hi, MPFR_RNDA)));
}

const double kLog2Ln2 = std::log2(0.6931471805599453); // log2(ln 2)

class Exp final : public Function {
public:
  explicit Exp(bool base2) : base2_(base2) {}
  const char *name() const override { return base2_ ? "exp2" : "exp"; }
  std::string checkDomain(mpfr_srcptr lo, mpfr_srcptr hi) const override {
    // Results must stay finite and normal in MPFR's range; the search has
    // no overflow to speak of, so refuse where exp leaves binary64's.
    if (maxAbs(lo, hi) > (base2_ ? 1100.0 : 760.0))
      return std::string(name()) +
             " over this domain leaves the range the search handles "
             "(|x| must stay below " +
             (base2_ ? "1100)" : "760)");
    return {};
  }
  int eval(mpfr_ptr y, mpfr_srcptr x) const override {
    return base2_ ? mpfr_exp2(y, x, MPFR_RNDN) : mpfr_exp(y, x, MPFR_RNDN);
  }
  double approx(double x) const override {
    return base2_ ? std::exp2(x) : std::exp(x);
  }
  void taylor(std::vector<Real> &c, int n, mpfr_srcptr x,
              mpfr_prec_t prec) const override {
    allocate(c, n, prec);
    Real k(prec);
    if (base2_)
      mpfr_const_log2(k, MPFR_RNDN);
    eval(c[0], x);
    for (int i = 1; i <= n; ++i) {
      mpfr_div_ui(c[i], c[i - 1], (unsigned long)i, MPFR_RNDN);
      if (base2_)
        mpfr_mul(c[i], c[i], k, MPFR_RNDN);
    }
  }
  double log2DerivativeBound(int r, mpfr_srcptr lo,
                             mpfr_srcptr hi) const override {
    (void)lo;
    Real t(64);
    // |f^(r)| <= f(hi) * (ln 2)^r for exp2, f(hi) for exp (f increasing).
    if (base2_)
      mpfr_exp2(t, hi, MPFR_RNDU);
    else
      mpfr_exp(t, hi, MPFR_RNDU);
    double b = log2Abs(t);
    if (base2_)
      b += r * kLog2Ln2;
    return b + 1e-9;
  }

private:
  bool base2_;
};

class Log final : public Function {
public:
  explicit Log(bool base2) : base2_(base2) {}
  const char *name() const override { return base2_ ? "log2" : "log"; }
  std::string checkDomain(mpfr_srcptr lo, mpfr_srcptr hi) const override {
    (void)hi;
    if (mpfr_sgn(lo) <= 0)
      return std::string(name()) + " is defined on positive arguments only";
    return {};
  }
  int eval(mpfr_ptr y, mpfr_srcptr x) const override {
    return base2_ ? mpfr_log2(y, x, MPFR_RNDN) : mpfr_log(y, x, MPFR_RNDN);
  }
  double approx(double x) const override {
    return base2_ ? std::log2(x) : std::log(x);
  }
  void taylor(std::vector<Real> &c, int n, mpfr_srcptr x,
              mpfr_prec_t prec) const override {
    allocate(c, n, prec);
    // c_i = (-1)^(i+1) / (i x^i) [/ ln 2].
    Real inv(prec), pw(prec), k(prec);
    mpfr_ui_div(inv, 1, x, MPFR_RNDN);
    mpfr_set_ui(pw, 1, MPFR_RNDN);
    if (base2_)
      mpfr_const_log2(k, MPFR_RNDN);
    eval(c[0], x);
    for (int i = 1; i <= n; ++i) {
      mpfr_mul(pw, pw, inv, MPFR_RNDN);
      mpfr_div_ui(c[i], pw, (unsigned long)i, MPFR_RNDN);
      if (!(i & 1))
        mpfr_neg(c[i], c[i], MPFR_RNDN);
      if (base2_)
        mpfr_div(c[i], c[i], k, MPFR_RNDN);
    }
  }
  double log2DerivativeBound(int r, mpfr_srcptr lo,
                             mpfr_srcptr hi) const override {
    (void)hi;
    // |f^(r)(t)| = (r-1)! / t^r [/ ln 2], largest at lo.
    double b = log2Factorial(r - 1) - r * log2Abs(lo);
    if (base2_)
      b -= kLog2Ln2;
    return b + 1e-9;
  }

private:
  bool base2_;
};

class SinCos final : public Function {
public:
  explicit SinCos(bool cosine) : cos_(cosine) {}
  const char *name() const override { return cos_ ? "cos" : "sin"; }
  std::string checkDomain(mpfr_srcptr lo, mpfr_srcptr hi) const override {
    if (maxAbs(lo, hi) > 1048576.0)
      return std::string(name()) + " is searched for |x| <= 2^20 only (the "
                                   "turning points are enumerated)";
    return {};
  }
  int eval(mpfr_ptr y, mpfr_srcptr x) const override {
    return cos_ ? mpfr_cos(y, x, MPFR_RNDN) : mpfr_sin(y, x, MPFR_RNDN);
  }
  double approx(double x) const override {
    return cos_ ? std::cos(x) : std::sin(x);
  }
  void taylor(std::vector<Real> &c, int n, mpfr_srcptr x,
              mpfr_prec_t prec) const override {
    allocate(c, n, prec);
    Real s(prec), co(prec);
    mpfr_sin_cos(s, co, x, MPFR_RNDN);
    // derivatives of sin: sin, cos, -sin, -cos; cos starts one later.
    Real fact(prec);
    mpfr_set_ui(fact, 1, MPFR_RNDN);
    for (int i = 0; i <= n; ++i) {
      if (i > 0)
        mpfr_mul_ui(fact, fact, (unsigned long)i, MPFR_RNDN);
      int phase = (i + (cos_ ? 1 : 0)) & 3;
      mpfr_srcptr v = (phase & 1) ? co.get() : s.get();
      mpfr_div(c[i], v, fact, MPFR_RNDN);
      if (phase >= 2)
        mpfr_neg(c[i], c[i], MPFR_RNDN);
    }
  }
  double log2DerivativeBound(int r, mpfr_srcptr lo,
                             mpfr_srcptr hi) const override {
    (void)r, (void)lo, (void)hi;
    return 0.0; // |sin^(r)|, |cos^(r)| <= 1
  }
  std::vector<Real> turningPoints(mpfr_srcptr lo, mpfr_srcptr hi,
                                  mpfr_prec_t prec) const override {
    // sin turns at pi/2 + k pi, cos at k pi.
    std::vector<Real> out;
    Real pi(prec), t(prec), k(prec);
    mpfr_const_pi(pi, MPFR_RNDN);
    mpfr_div(t, lo, pi, MPFR_RNDD);
    if (!cos_)
      mpfr_sub_d(t, t, 0.5, MPFR_RNDD);
    mpfr_floor(k, t);
    for (int guard = 0; guard < 1 << 22; ++guard) {
      Real x(prec);
      mpfr_set(x, k, MPFR_RNDN);
      if (!cos_)
        mpfr_add_d(x, x, 0.5, MPFR_RNDN);
      mpfr_mul(x, x, pi, MPFR_RNDN);
      if (mpfr_cmp(x, hi) >= 0)
        break;
      if (mpfr_cmp(x, lo) > 0)
        out.push_back(std::move(x));
      mpfr_add_ui(k, k, 1, MPFR_RNDN);
    }
    return out;
  }

private:
  bool cos_;
};

struct Entry {
  const char *name;
  std::unique_ptr<Function> fn;
};

const std::vector<Entry> &table() {
  static const std::vector<Entry> t = [] {
    std::vector<Entry> v;
    v.push_back({"exp", std::make_unique<Exp>(false)});
    v.push_back({"exp2", std::make_unique<Exp>(true)});
    v.push_back({"log", std::make_unique<Log>(false)});
    v.push_back({"log2", std::make_unique<Log>(true)});
    v.push_back({"sin", std::make_unique<SinCos>(false)});
    v.push_back({"cos", std::make_unique<SinCos>(true)});
    return v;
  }();
  return t;
}

} // namespace

double log2Abs(mpfr_srcptr v) {
  if (mpfr_zero_p(v))
    return -INFINITY;
  long e;
  double m = mpfr_get_d_2exp(&e, v, MPFR_RNDU);
  return std::log2(std::fabs(m)) + (double)e;
}

const Function *lookupFunction(const std::string &name) {
  for (const Entry &e : table())
    if (name == e.name)
      return e.fn.get();
  return nullptr;
}

std::string knownFunctions() {
  std::string s;
  for (const Entry &e : table()) {
    if (!s.empty())
      s += ", ";
    s += e.name;
  }
  return s;
}

} // namespace approx::hrcs
