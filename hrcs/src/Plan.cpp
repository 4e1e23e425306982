//===- Plan.cpp - Domain, pieces, Taylor units and packet tables ----------===//
#include "approx/hrcs/Plan.h"

#include <algorithm>
#include <cmath>
#include <gmp.h>
#include <sstream>

namespace approx::hrcs {
namespace {

/// log2(2^a + 2^b), robust for -inf.
double log2Add(double a, double b) {
  if (a == -INFINITY)
    return b;
  if (b == -INFINITY)
    return a;
  double m = std::max(a, b);
  return m + std::log2(std::exp2(a - m) + std::exp2(b - m));
}

bool parseReal(const std::string &s, mpfr_ptr out) {
  if (s.empty())
    return false;
  return mpfr_set_str(out, s.c_str(), 0, MPFR_RNDN) == 0 &&
         mpfr_number_p(out);
}

/// v rounded up to a multiple of 2^-64, in units of 2^-64; 2^63 from 1/2
/// on (the filter then rejects nothing).
uint64_t fixedUp64(mpfr_srcptr v) {
  if (mpfr_cmp_d(v, 0.5) >= 0)
    return uint64_t(1) << 63;
  Real t(mpfr_get_prec(v) + 64);
  mpfr_mul_2si(t, v, 64, MPFR_RNDU);
  mpfr_ceil(t, t);
  return (uint64_t)mpfr_get_uj(t, MPFR_RNDU);
}

/// v rounded up to a multiple of 2^-128; hi = 2^63 (1/2) from 1/2 on.
U128 fixedUp128(mpfr_srcptr v) {
  U128 r;
  if (mpfr_cmp_d(v, 0.5) >= 0) {
    r.hi = uint64_t(1) << 63;
    return r;
  }
  Real t(mpfr_get_prec(v) + 128), h(mpfr_get_prec(v) + 128);
  mpfr_mul_2si(t, v, 128, MPFR_RNDU);
  mpfr_ceil(t, t);
  mpfr_div_2si(h, t, 64, MPFR_RNDN); // exact
  mpfr_floor(h, h);
  r.hi = (uint64_t)mpfr_get_uj(h, MPFR_RNDN);
  mpfr_mul_2si(h, h, 64, MPFR_RNDN);
  mpfr_sub(t, t, h, MPFR_RNDN); // exact: the low word
  r.lo = (uint64_t)mpfr_get_uj(t, MPFR_RNDN);
  return r;
}

/// C(n, k) for n >= 0 (0 when n < k), rounded up a little: callers multiply
/// bounds by it.
double choose(double n, int k) {
  double r = 1;
  for (int i = 0; i < k; ++i)
    r *= std::max(0.0, n - i) / (i + 1);
  return r * (1 + 0x1p-40);
}

/// x^k rounded up, x a non-negative double.
void powUp(mpfr_ptr r, double x, unsigned long k) {
  mpfr_set_d(r, x, MPFR_RNDU);
  mpfr_pow_ui(r, r, k, MPFR_RNDU);
}

} // namespace

double tabulationGrowth(uint64_t S, uint64_t N, int delta) {
  double s1 = std::log2((double)S + 1), n = std::log2((double)N);
  return log2Add(log2Add(delta * s1, n + (delta - 1) * s1),
                 2 * n - 1 + (delta - 2) * s1);
}

uint64_t phase2Threshold(const ErrorBudget &b, uint64_t split) {
  const double N = (double)b.intervalArgs;
  const double n = std::max(1.0, N / (double)split);
  Real e(128), t(128);
  // Q2 = max|P''| C(n-1, 2), X2 = (n + 4) 2^-64 + 2 (N+1)^2 2^-128
  // (errorBudget explains each term).
  mpfr_set_d(e, b.upSecond, MPFR_RNDU);
  mpfr_mul_d(e, e, choose(n - 1, 2), MPFR_RNDU);
  mpfr_add_d(e, e, b.upCommonK, MPFR_RNDU);
  mpfr_set_d(t, n + 4, MPFR_RNDU);
  mpfr_mul_2si(t, t, -64, MPFR_RNDU);
  mpfr_add(e, e, t, MPFR_RNDU);
  mpfr_set_d(t, N + 1, MPFR_RNDU);
  mpfr_sqr(t, t, MPFR_RNDU);
  mpfr_mul_2si(t, t, 1 - 128, MPFR_RNDU);
  mpfr_add(e, e, t, MPFR_RNDU);
  return fixedUp64(e);
}

ErrorBudget errorBudget(const BudgetInputs &in) {
  ErrorBudget b;
  const mpfr_prec_t P = 128;
  Real R(P), C(P), T(P), Q1(P), K(P), Q2(P), X1(P), X2(P), X3(P), t(P);
  const double N = (double)in.intervalArgs;
  const double n2 = std::max(1.0, N / (double)in.split);
  const int d = in.degree;
  if (d < 2 || !std::isfinite(in.log2Derivative)) {
    b.unproven = "the bound on f's derivative of order " +
                 std::to_string(d + 1) + " is not finite";
    return b;
  }
  // R: max |f^(d+1)| (M ulp_x)^(d+1) / (d+1)! / ulp_q. The derivative bound
  // is a double log2, widened by 2^-20 of its size against its rounding.
  mpfr_set_d(t, in.log2Derivative +
                    std::ldexp(std::max(1.0, std::fabs(in.log2Derivative)),
                               -20),
             MPFR_RNDU);
  mpfr_exp2(R, t, MPFR_RNDU);
  Real f(P);
  powUp(f, in.unitArgs, (unsigned long)(d + 1));
  mpfr_mul(R, R, f, MPFR_RNDU);
  mpfr_mul_2si(R, R, (long)(d + 1) * in.argExp - in.ulpExp, MPFR_RNDU);
  mpfr_fac_ui(f, (unsigned long)(d + 1), MPFR_RNDD);
  mpfr_div(R, R, f, MPFR_RNDU);
  // C: each coefficient of P is within 2^(8 - prec) of its value
  // (Function.h); 2^16 covers the sum over the unit and the scaling.
  mpfr_mul_2si(C, in.valueBound, 16 - (long)in.coefPrecision, MPFR_RNDU);
  // T: a stored table entry is off by less than 2^-64W (its truncation)
  // plus the second level's error, (packets+1)^d 2^(d+1-fBits). a_j(k) sums
  // at most (S+1)^(d-j) entries, and the models use a_j times at most
  // m^j / j! (m < N).
  mpfr_set_ui_2exp(T, 1, -64L * in.words, MPFR_RNDU);
  powUp(t, (double)in.packets + 1, (unsigned long)d);
  mpfr_mul_2si(t, t, (long)d + 1 - in.tableBits, MPFR_RNDU);
  mpfr_add(T, T, t, MPFR_RNDU);
  {
    const double s1 = (double)in.packetIntervals + 1;
    Real g(P);
    powUp(g, s1, (unsigned long)d);
    powUp(t, s1, (unsigned long)(d - 1));
    mpfr_mul_d(t, t, N, MPFR_RNDU);
    mpfr_add(g, g, t, MPFR_RNDU);
    powUp(t, s1, (unsigned long)(d - 2));
    mpfr_mul_d(t, t, N * N / 2, MPFR_RNDU);
    mpfr_add(g, g, t, MPFR_RNDU);
    mpfr_mul(T, T, g, MPFR_RNDU);
  }
  // Q1 = max|P''| C(N-1, 2): a0 + a1 m interpolates P at m = 0 and 1, so
  // its error at m < N is |P''(xi)| m(m-1)/2.
  mpfr_mul_d(Q1, in.secondBound, choose(N - 1, 2), MPFR_RNDU);
  // K = max|P'''| C(N-1, 3): the interval's quadratic interpolates P at
  // m = 0, 1, 2 (error |P'''(xi)| m(m-1)(m-2)/6). A sub-interval re-centres
  // that quadratic exactly, so its error is still the whole interval's, not
  // the sub-interval's (docs/hrcs.md: the bug this replaced).
  mpfr_mul_d(K, in.thirdBound, choose(N - 1, 3), MPFR_RNDU);
  // Q2 = max|P''| C(n-1, 2): phase 2 drops a2 C(m', 2), m' < n = N/split.
  mpfr_mul_d(Q2, in.secondBound, choose(n2 - 1, 2), MPFR_RNDU);
  // Fixed point. Phase 1 reads a0 and a1 to 64 bits (each below 2^-64 off,
  // a1 times m < N). Phases 2 and 3 re-centre in 128 bits from a0, a1, a2
  // (each below 2^-128 off): a0 + a1 m0 + a2 C(m0, 2) and the slope's
  // contribution stay below 2 (N+1)^2 2^-128; phase 2 then reads a0', a1'
  // to 64 bits (n + 1 more units of 2^-64).
  mpfr_set_d(X1, N + 4, MPFR_RNDU);
  mpfr_mul_2si(X1, X1, -64, MPFR_RNDU);
  mpfr_set_d(t, N + 1, MPFR_RNDU);
  mpfr_sqr(t, t, MPFR_RNDU);
  mpfr_mul_2si(t, t, 1 - 128, MPFR_RNDU);
  mpfr_set_d(X2, n2 + 4, MPFR_RNDU);
  mpfr_mul_2si(X2, X2, -64, MPFR_RNDU);
  mpfr_add(X2, X2, t, MPFR_RNDU);
  mpfr_set_ui_2exp(X3, 1, -127, MPFR_RNDU);
  mpfr_add(X3, X3, t, MPFR_RNDU);

  struct Named {
    const char *what;
    mpfr_srcptr v;
    double *log2;
  } terms[] = {{"the Taylor remainder", R, &b.log2R},
               {"the coefficients' rounding error", C, &b.log2C},
               {"the tabulation error", T, &b.log2T},
               {"the degree-1 truncation error", Q1, &b.log2Q1},
               {"the degree-3 remainder", K, &b.log2K},
               {"the sub-interval truncation error", Q2, &b.log2Q2},
               {"the phase-1 fixed-point error", X1, &b.log2X1},
               {"the phase-2 fixed-point error", X2, &b.log2X2},
               {"the phase-3 fixed-point error", X3, &b.log2X3}};
  for (const Named &n : terms) {
    if (!mpfr_number_p(n.v)) {
      b.unproven = std::string(n.what) + " is not finite";
      return b;
    }
    *n.log2 = mpfr_zero_p(n.v) ? -INFINITY : log2Abs(n.v);
  }
  // The thresholds: eps plus each phase's terms, rounded up.
  Real common(P), e(P);
  mpfr_add(common, in.eps, R, MPFR_RNDU);
  mpfr_add(common, common, C, MPFR_RNDU);
  mpfr_add(common, common, T, MPFR_RNDU);
  mpfr_add(e, common, Q1, MPFR_RNDU);
  mpfr_add(e, e, X1, MPFR_RNDU);
  b.eps1 = fixedUp64(e);
  mpfr_add(e, common, K, MPFR_RNDU);
  b.upCommonK = mpfr_get_d(e, MPFR_RNDU);
  b.upSecond = mpfr_get_d(in.secondBound, MPFR_RNDU);
  b.intervalArgs = in.intervalArgs;
  b.eps2 = phase2Threshold(b, in.split);
  mpfr_add(e, common, K, MPFR_RNDU);
  mpfr_add(e, e, X3, MPFR_RNDU);
  b.eps3 = fixedUp128(e);
  return b;
}

bool Plan::init(const SearchParams &params, bool forGpu, std::string &error) {
  params_ = params;
  gpu_ = forGpu;
  fn_ = lookupFunction(params.function);
  if (!fn_) {
    error = "unknown function '" + params.function +
            "' (known: " + knownFunctions() + ")";
    return false;
  }
  p_ = params.argPrecision;
  if (p_ < 2 || p_ > 64) {
    error = "argument precision " + std::to_string(p_) +
            " out of range (2 to 64 bits)";
    return false;
  }
  q_ = params.precision ? params.precision : p_;
  if (q_ < 2 || q_ > 113) {
    error = "precision " + std::to_string(q_) + " out of range (2 to 113 bits)";
    return false;
  }
  if (!parseReal(params.epsilon, eps_) || mpfr_sgn(eps_) <= 0 ||
      mpfr_cmp_d(eps_, 0.25) > 0 || mpfr_cmp_d(eps_, std::ldexp(1.0, -100)) < 0) {
    error = "epsilon '" + params.epsilon +
            "' out of range (a number in [2^-100, 1/4], in ulps)";
    return false;
  }
  log2Eps_ = log2Abs(eps_);
  if (params.emin != 0 && (params.emin < -100000 || params.emin > 100000)) {
    error = "emin " + std::to_string(params.emin) +
            " out of range (-100000 to 100000, or 0 for none)";
    return false;
  }
  if (params.split < 1 || params.split > 1024 ||
      (params.split & (params.split - 1))) {
    error = "split " + std::to_string(params.split) +
            " must be a power of two from 1 to 1024";
    return false;
  }
  if (params.intervalBits != 0 &&
      (params.intervalBits < 2 || params.intervalBits > 30)) {
    error = "interval bits " + std::to_string(params.intervalBits) +
            " out of range (2 to 30)";
    return false;
  }
  if (params.packetBits < -1 || params.packetBits > 30) {
    error = "packet bits " + std::to_string(params.packetBits) +
            " out of range (0 to 30)";
    return false;
  }
  if (params.algorithm != "auto" && params.algorithm != "lefevre" &&
      params.algorithm != "regular") {
    error = "unknown algorithm '" + params.algorithm +
            "' (lefevre, regular or auto)";
    return false;
  }
  // Subtraction is used for quotients below 2^k: past 2^16 one quotient can
  // cost billions of subtractions (a tiny slope), so larger k is refused.
  if (params.divisionThreshold < 0 || params.divisionThreshold > 16) {
    error = "division threshold out of range (0 to 16)";
    return false;
  }

  // The domain: every precision-p number x with lo <= x < hi, all of one
  // sign, in one binade or several (a segment each).
  Real lo(256), hi(256), t(256);
  if (!parseReal(params.lo, lo) || !parseReal(params.hi, hi)) {
    error = "domain bounds '" + params.lo + "', '" + params.hi +
            "' are not numbers";
    return false;
  }
  if (mpfr_cmp(lo, hi) >= 0) {
    error = "empty domain: lo must be below hi";
    return false;
  }
  if (mpfr_zero_p(lo)) {
    error = "the domain may not start at zero (zero is not in a binade)";
    return false;
  }
  {
    Real lp(p_);
    if (mpfr_set(lp, lo, MPFR_RNDN) != 0) {
      error = "lo " + params.lo + " is not a precision-" + std::to_string(p_) +
              " number";
      return false;
    }
  }
  // The last argument: the largest precision-p number below hi.
  Real last(p_);
  mpfr_set(last, hi, MPFR_RNDD);
  if (mpfr_cmp(last, hi) == 0)
    mpfr_nextbelow(last);
  if (mpfr_cmp(last, lo) < 0) {
    error = "domain holds no precision-" + std::to_string(p_) + " number";
    return false;
  }
  if (mpfr_sgn(last) != mpfr_sgn(lo) || mpfr_zero_p(last)) {
    error = "domain [" + params.lo + ", " + params.hi +
            ") crosses zero: its arguments must share a sign";
    return false;
  }
  // Segments, one per binade, ascending in x.
  segments_.clear();
  count_ = 0;
  {
    Real cur(p_), end(p_);
    mpfr_set(cur, lo, MPFR_RNDN);
    while (mpfr_cmp(cur, last) <= 0) {
      if (segments_.size() == kMaxBinades) {
        error = "domain [" + params.lo + ", " + params.hi + ") spans more than " +
                std::to_string(kMaxBinades) + " binades";
        return false;
      }
      const long e = mpfr_get_exp(cur) - 1; // 2^e <= |cur| < 2^(e+1)
      Segment sg;
      mpfr_set_prec(sg.lo, p_);
      mpfr_set(sg.lo, cur, MPFR_RNDN);
      sg.argExp = e - p_ + 1;
      sg.j0 = count_;
      // The binade's last argument in x order, or the domain's.
      if (mpfr_sgn(cur) > 0) {
        mpfr_set_ui_2exp(end, 1, e + 1, MPFR_RNDN);
        mpfr_nextbelow(end);
      } else {
        mpfr_set_si_2exp(end, -1, e, MPFR_RNDN);
      }
      if (mpfr_cmp(end, last) > 0)
        mpfr_set(end, last, MPFR_RNDN);
      mpfr_sub(t, end, cur, MPFR_RNDN); // exact at 256 bits
      mpfr_div_2si(t, t, sg.argExp, MPFR_RNDN);
      sg.count = (uint64_t)mpfr_get_uj(t, MPFR_RNDN) + 1;
      if (sg.count > (uint64_t(1) << 62) - count_) {
        error = "domain [" + params.lo + ", " + params.hi +
                ") holds more than 2^62 arguments";
        return false;
      }
      count_ += sg.count;
      segments_.push_back(std::move(sg));
      mpfr_set(cur, end, MPFR_RNDN);
      mpfr_nextabove(cur); // exact in p bits: the next argument
    }
  }
  {
    Real a(64), b(64);
    mpfr_set(a, lo, MPFR_RNDN);
    mpfr_set(b, last, MPFR_RNDN);
    std::string why = fn_->checkDomain(mpfr_cmp(a, b) < 0 ? a : b,
                                       mpfr_cmp(a, b) < 0 ? b : a);
    if (!why.empty()) {
      error = why;
      return false;
    }
  }

  // Pieces: cut at binade changes of x, at turning points, then by result
  // binade.
  std::vector<uint64_t> cuts;
  for (const Segment &sg : segments_)
    cuts.push_back(sg.j0);
  for (Real &tp : fn_->turningPoints(lo, hi, 256)) {
    const Segment &sg = segmentOf(tp);
    mpfr_sub(t, tp, sg.lo, MPFR_RNDN);
    mpfr_div_2si(t, t, sg.argExp, MPFR_RNDN);
    mpfr_ceil(t, t);
    if (mpfr_sgn(t) < 0)
      continue;
    uint64_t j = sg.j0 + mpfr_get_uj(t, MPFR_RNDN);
    if (j < sg.j0 + sg.count)
      cuts.push_back(j);
  }
  cuts.push_back(count_);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  pieces_.clear();
  for (size_t i = 0; i + 1 < cuts.size(); ++i)
    cut(cuts[i], cuts[i + 1], pieces_);
  for (Piece &pc : pieces_)
    planPiece(pc);

  units_.clear();
  for (uint32_t i = 0; i < pieces_.size(); ++i) {
    const Piece &pc = pieces_[i];
    if (pc.direct) {
      units_.push_back({i, pc.j0, pc.j1});
      continue;
    }
    uint64_t m = uint64_t(1) << pc.unitBits;
    for (uint64_t j = pc.j0; j < pc.j1; j += m)
      units_.push_back({i, j, std::min(pc.j1, j + m)});
  }
  return true;
}

long Plan::gridExponent(mpfr_srcptr y) const {
  long e = mpfr_get_exp(y) - 1;
  return params_.emin != 0 ? std::max(e, params_.emin) : e;
}

const Plan::Segment &Plan::segmentAt(uint64_t j) const {
  size_t a = 0, b = segments_.size();
  while (b - a > 1) {
    size_t m = (a + b) / 2;
    (segments_[m].j0 <= j ? a : b) = m;
  }
  return segments_[a];
}

const Plan::Segment &Plan::segmentOf(mpfr_srcptr x) const {
  // The last segment whose first argument is at most x.
  size_t a = 0, b = segments_.size();
  while (b - a > 1) {
    size_t m = (a + b) / 2;
    (mpfr_cmp(segments_[m].lo, x) <= 0 ? a : b) = m;
  }
  return segments_[a];
}

void Plan::argument(mpfr_ptr x, uint64_t j) const {
  const Segment &sg = segmentAt(j);
  mpfr_set_uj_2exp(x, j - sg.j0, sg.argExp, MPFR_RNDN);
  mpfr_add(x, x, sg.lo, MPFR_RNDN);
}

std::string Plan::canonical() const {
  std::ostringstream s;
  s << "function=" << fn_->name() << " lo=" << params_.lo
    << " hi=" << params_.hi << " p=" << p_ << " q=" << q_
    << " epsilon=" << params_.epsilon << " emin=" << params_.emin
    << " interval-bits="
    << params_.intervalBits << " split=" << params_.split
    << " packet-bits=" << params_.packetBits
    << " algorithm=" << params_.algorithm
    << " division-threshold=" << params_.divisionThreshold;
  return s.str();
}

/// Splits [j0, j1) (f monotone there) into pieces of one result binade.
void Plan::cut(uint64_t j0, uint64_t j1, std::vector<Piece> &out) const {
  const mpfr_prec_t prec = q_ + 64;
  Real x(p_ + 2), y0(prec), y1(prec);
  // Arguments that are doubles: the C library places the cuts (checked by
  // MPFR at each piece's ends, so a misplaced cut only costs a piece).
  const Segment &sg = segmentAt(j0);
  const bool doubles = p_ <= 53 && sg.argExp >= -1074 && sg.argExp < 900;
  while (j0 < j1) {
    argument(x, j0);
    fn_->eval(y0, x);
    argument(x, j1 - 1);
    fn_->eval(y1, x);
    bool regular = mpfr_regular_p(y0) && mpfr_regular_p(y1) &&
                   mpfr_sgn(y0) == mpfr_sgn(y1) &&
                   gridExponent(y0) == gridExponent(y1);
    if (regular || j1 - j0 <= 64) {
      Piece pc;
      pc.j0 = j0;
      pc.j1 = j1;
      pc.argExp = sg.argExp;
      pc.direct = !regular || j1 - j0 < 16;
      if (regular) {
        pc.exponent = gridExponent(y0);
        pc.sign = mpfr_sgn(y0);
      }
      out.push_back(pc);
      return;
    }
    if (!mpfr_regular_p(y0)) {
      // f(X_j0) is 0 (or not a number): halve.
      uint64_t mid = j0 + (j1 - j0) / 2;
      cut(j0, mid, out);
      j0 = mid;
      continue;
    }
    // f is monotone here, so the arguments whose f(X) shares X_j0's sign
    // and binade are a prefix: find its end by bisection on the index and
    // cut there (halving the range instead would leave a chain of ever
    // smaller pieces at each binade change).
    const long e0 = gridExponent(y0);
    const int s0 = mpfr_sgn(y0);
    const double lo = doubles ? mpfr_get_d(sg.lo, MPFR_RNDN) : 0;
    const double ulp = doubles ? std::ldexp(1.0, (int)sg.argExp) : 0;
    auto sameClass = [&](uint64_t m) {
      if (doubles) {
        double y = fn_->approx(lo + (double)(m - sg.j0) * ulp); // exact
        if (y == 0 || !std::isfinite(y) || (y > 0 ? 1 : -1) != s0)
          return false;
        int e = 0;
        std::frexp(y, &e);
        long E = e - 1;
        return (params_.emin != 0 ? std::max(E, params_.emin) : E) == e0;
      }
      argument(x, m);
      fn_->eval(y1, x);
      return mpfr_regular_p(y1) && mpfr_sgn(y1) == s0 &&
             gridExponent(y1) == e0;
    };
    uint64_t a = j0, b = j1 - 1; // same class at a, another at b
    while (b - a > 1) {
      uint64_t m = a + (b - a) / 2;
      (sameClass(m) ? a : b) = m;
    }
    cut(j0, b, out);
    j0 = b;
  }
}

/// Chooses delta, M and N of a piece from the derivative bounds.
void Plan::planPiece(Piece &pc) const {
  if (pc.direct)
    return;
  Real a(p_ + 2), b(p_ + 2);
  argument(a, pc.j0);
  argument(b, pc.j1 - 1);
  if (mpfr_cmp(a, b) > 0)
    mpfr_swap(a, b);
  // B_r: log2 of max |F^(r)| / r! in units of arguments and ulp_q.
  auto bound = [&](int r) {
    double lf = 0;
    for (int i = 2; i <= r; ++i)
      lf += std::log2((double)i);
    return fn_->log2DerivativeBound(r, a, b) + r * (double)pc.argExp -
           (double)(pc.exponent - q_ + 1) - lf;
  };
  double len = std::log2((double)(pc.j1 - pc.j0));
  int mcap = std::min(40, (int)std::ceil(len));
  double target = log2Eps_ - 10;
  int bestDeg = 2, bestM = -1;
  for (int d = 2; d <= kMaxDegree; ++d) {
    int m = (int)std::floor((target - bound(d + 1)) / (d + 1));
    m = std::min(m, mcap);
    if (m > bestM) {
      bestM = m;
      bestDeg = d;
    }
    if (m >= mcap)
      break;
  }
  if (bestM < 4) {
    // Not smooth enough at this scale (near a zero of f or a tiny binade):
    // MPFR for every argument.
    pc.direct = true;
    return;
  }
  pc.degree = bestDeg;
  pc.unitBits = bestM;
  int nbits = params_.intervalBits;
  if (nbits == 0) {
    // The largest N (up to 2^20) whose phase-1 failure rate stays near
    // 2^-5: a random interval fails with probability about 2 N eps1, where
    // eps1 ~ eps + |F''| N^2 / 2 (the degree-1 truncation). Phases 2 and 3
    // then stay a small part of the time (Sect. 6.3; measured on exp [1, 2),
    // p = 53, docs/hrcs.md: 2^-5 twice as fast as 2^-6). Their thresholds hold
    // the interval's degree-3 remainder |F'''| N^3 / 6: past eps, phase 3
    // would pass many arguments on to MPFR, so N stays below that too, down
    // to 2 arguments, where the models are exact and the search evaluates
    // every argument from its tables (low precision far from 0: sin on
    // [2^12, 2^13) at p = 24).
    nbits = 1;
    for (int n = 1; n <= 20; ++n)
      if (bound(3) + 3.0 * n <= log2Eps_ &&
          (n <= 4 || n + 1 + log2Add(log2Eps_, bound(2) + 2.0 * n) <= -5))
        nbits = n;
  }
  pc.intervalBits = std::min(nbits, pc.unitBits);
  double trunc = bound(2) + 2.0 * pc.intervalBits;
  if (params_.algorithm == "lefevre")
    pc.algorithm = Algorithm::Lefevre;
  else if (params_.algorithm == "regular")
    pc.algorithm = Algorithm::Regular;
  else if (trunc <= log2Eps_ - 2) // even the piece's bound is small
    pc.algorithm = Algorithm::Regular;
  else // Sect. 6.3: per interval, from its measured truncation error
    pc.algorithm = Algorithm::Auto;
}

void Plan::adopt(UnitPackets &p, const Unit &u) const {
  p.phase.split = (uint32_t)params_.split;
  p.phase.algorithm = pieces_[u.piece].algorithm;
  p.phase.divisionThreshold = (uint32_t)params_.divisionThreshold;
  p.phase.eps2 = p.budget.eps2 = phase2Threshold(p.budget, params_.split);
}

UnitPackets Plan::packets(const Unit &u) const {
  const Piece &pc = pieces_[u.piece];
  UnitPackets out;
  const int delta = pc.degree;
  const uint64_t N = uint64_t(1) << pc.intervalBits;
  const uint64_t argsInUnit = u.j1 - u.j0;
  const uint64_t intervalsInUnit = (argsInUnit + N - 1) / N;
  uint64_t S;
  if (params_.packetBits >= 0) {
    S = uint64_t(1) << params_.packetBits;
  } else if (gpu_) {
    // A GPU thread per packet: 1024 intervals each where there is work
    // enough, down to 8 so that a small unit still spreads over 256 threads.
    S = 1024;
    while (S > 8 && S * 256 > intervalsInUnit)
      S /= 2;
  } else {
    S = uint64_t(1) << 16; // the CPU: packets shared out among threads
  }
  S = std::max<uint64_t>(1, std::min(S, intervalsInUnit));
  // Words: the tabulation error (term T of the budget, below) must stay
  // below eps 2^-10; shrink S if more than kMaxWords would be needed.
  int words = 0;
  for (;;) {
    double need = -log2Eps_ + 10 + tabulationGrowth(S, N, delta) + 2;
    words = std::max(2, (int)std::ceil(need / 64));
    if (words <= kMaxWords || S == 1)
      break;
    S = std::max<uint64_t>(1, S / 2);
  }
  out.degree = delta;
  out.words = words;

  // The unit's Taylor polynomial P(t) = sum c_i t^i, t in arguments from
  // u.j0, in units of ulp_q (|f| / ulp_q: negate for negative f).
  // The coefficients need only be accurate relative to eps (term C of the
  // budget): eps 2^-32 or less, and twice the precision until they are.
  const double M = std::ldexp(1.0, pc.unitBits) + 4;
  auto sumBound = [&](const std::vector<Real> &c, mpfr_ptr acc, int from) {
    Real term(64), mpow(64);
    mpfr_set_ui(acc, 0, MPFR_RNDU);
    for (int i = from; i <= delta; ++i) {
      mpfr_abs(term, c[i], MPFR_RNDU);
      for (int k = 0; k < from; ++k)
        mpfr_mul_ui(term, term, (unsigned long)(i - k), MPFR_RNDU);
      mpfr_set_d(mpow, M, MPFR_RNDU);
      mpfr_pow_ui(mpow, mpow, (unsigned long)(i - from), MPFR_RNDU);
      mpfr_mul(term, term, mpow, MPFR_RNDU);
      mpfr_add(acc, acc, term, MPFR_RNDU);
    }
  };
  std::vector<Real> c;
  Real valueBound(64);
  mpfr_prec_t prec = q_ + (mpfr_prec_t)std::ceil(-log2Eps_) + 48;
  for (;;) {
    Real x(p_ + 2);
    argument(x, u.j0);
    fn_->taylor(c, delta, x, prec);
    for (int i = 0; i <= delta; ++i) {
      // c_i * ulp_x^i / ulp_q
      mpfr_mul_2si(c[i], c[i], i * pc.argExp - (pc.exponent - q_ + 1),
                   MPFR_RNDN);
      if (pc.sign < 0)
        mpfr_neg(c[i], c[i], MPFR_RNDN);
    }
    // Upper bounds of P and its derivatives over the unit, for the budget:
    // sum_{i>=from} i!/(i-from)! |c_i| M^(i-from) >= max |P^(from)(t)|,
    // 0 <= t <= M (MPFR, rounded up).
    sumBound(c, valueBound, 0);
    if (log2Abs(valueBound) + 16 - (double)prec <= log2Eps_ - 32 ||
        prec > 8192)
      break;
    prec *= 2;
  }
  const uint64_t T = (intervalsInUnit + S - 1) / S;
  const int tBits = (int)std::ceil(std::log2((double)T + 1));
  const int fWords =
      std::min(16, (64 * words + delta * tBits + 2 * delta + 16 + 63) / 64);
  const long fBits = 64L * fWords;
  {
    BudgetInputs in;
    in.eps = eps_;
    Real lo(p_ + 2), hi(p_ + 2);
    argument(lo, u.j0);
    argument(hi, u.j1 - 1);
    if (mpfr_cmp(lo, hi) > 0)
      mpfr_swap(lo, hi);
    in.log2Derivative = fn_->log2DerivativeBound(delta + 1, lo, hi);
    in.degree = delta;
    in.unitArgs = M;
    in.argExp = pc.argExp;
    in.ulpExp = pc.exponent - q_ + 1;
    mpfr_set(in.valueBound, valueBound, MPFR_RNDU);
    sumBound(c, in.secondBound, 2);
    sumBound(c, in.thirdBound, 3);
    in.coefPrecision = prec;
    in.intervalArgs = N;
    in.split = (uint64_t)params_.split;
    in.packetIntervals = S;
    in.packets = T;
    in.words = words;
    in.tableBits = fBits;
    out.budget = errorBudget(in);
  }
  out.phase.intervalArgs = N;
  out.phase.split = (uint32_t)params_.split;
  out.phase.divisionThreshold = (uint32_t)params_.divisionThreshold;
  out.phase.algorithm = pc.algorithm;
  out.phase.eps1 = out.budget.eps1;
  out.phase.eps2 = out.budget.eps2;
  out.phase.eps3 = out.budget.eps3;

  // Packets. Two levels of tabulated differences, both exact modulo 1:
  //   G[j][i][r] = Delta_S^r Delta^i a_j at the unit's first packet: the
  //     forward differences of P at the points r S N + i N + l, l <= 2,
  //     r + i + l <= delta (P in fixed point, once per unit), in fBits bits;
  //   packet by packet, G[j][i][0] is the packet's D_{j,i} (truncated to
  //     `words` words) and every G[j][i] advances by one step of S.
  // So each packet costs a few multiword additions, not MPFR evaluations.
  //
  // P(t) in fixed point: C_k = c_k 2^Fx rounded, then Horner in exact
  // integers. Its error is below 2^-Fx t^delta <= 2^-(fBits+4), so each
  // value is within 1 + 2^-4 units of 2^-fBits of P(t) mod 1 (the budget's
  // tabulation term allows 2).
  // The second level advances G over T - 1 steps: orders r < T suffice.
  const int rMax = (int)std::min<uint64_t>((uint64_t)delta, T - 1);
  const uint64_t tMax = (uint64_t)rMax * S * N + (uint64_t)delta * N + 2;
  const long Fx =
      fBits + 4 + (long)delta * (long)std::ceil(std::log2((double)tMax + 1));
  // Room for the largest value (|C_k| t^k < 2^(Fx + log2 valueBound + 8)):
  // no reallocation in the loops below.
  const mp_bitcnt_t zBits =
      (mp_bitcnt_t)(Fx + q_ + 64 + delta * 8 + (long)delta * 64);
  mpz_t C[kMaxDegree + 1], V[kMaxDegree + 1][kMaxDegree + 1][3];
  auto used = [&](int r, int i, int l) {
    return r <= rMax && l < 3 && r + i + l <= delta;
  };
  for (int k = 0; k <= delta; ++k)
    mpz_init2(C[k], zBits);
  for (int r = 0; r <= rMax; ++r)
    for (int i = 0; r + i <= delta; ++i)
      for (int l = 0; used(r, i, l); ++l)
        mpz_init2(V[r][i][l], zBits);
  {
    Real sc(prec);
    for (int k = 0; k <= delta; ++k) {
      mpfr_mul_2si(sc, c[k], Fx, MPFR_RNDN); // exact
      mpfr_get_z(C[k], sc, MPFR_RNDN);
    }
  }
  for (int r = 0; r <= rMax; ++r)
    for (int i = 0; r + i <= delta; ++i)
      for (int l = 0; l < 3 && r + i + l <= delta; ++l) {
        const uint64_t t = (uint64_t)r * S * N + (uint64_t)i * N + (uint64_t)l;
        mpz_ptr v = V[r][i][l];
        mpz_set(v, C[delta]);
        for (int k = delta - 1; k >= 0; --k) {
          mpz_mul_ui(v, v, (unsigned long)t);
          mpz_add(v, v, C[k]);
        }
        mpz_fdiv_r_2exp(v, v, (mp_bitcnt_t)Fx); // mod 1
        mpz_fdiv_q_2exp(v, v, (mp_bitcnt_t)(Fx - fBits));
      }
  // Forward differences in place, along l (order j), then i, then r:
  // afterwards V[r][i][j] = Delta_S^r Delta_N^i Delta_1^j P at 0, exactly
  // the binomial sums of the values.
  auto difference = [](std::vector<mpz_ptr> &seq) {
    for (size_t o = 1; o < seq.size(); ++o)
      for (size_t k = seq.size() - 1; k >= o; --k)
        mpz_sub(seq[k], seq[k], seq[k - 1]);
  };
  std::vector<mpz_ptr> seq;
  for (int r = 0; r <= rMax; ++r)
    for (int i = 0; r + i <= delta; ++i) {
      seq.clear();
      for (int l = 0; l < 3 && r + i + l <= delta; ++l)
        seq.push_back(V[r][i][l]);
      difference(seq);
    }
  for (int r = 0; r <= rMax; ++r)
    for (int j = 0; j < 3 && r + j <= delta; ++j) {
      seq.clear();
      for (int i = 0; r + i + j <= delta; ++i)
        seq.push_back(V[r][i][j]);
      difference(seq);
    }
  for (int i = 0; i <= delta; ++i)
    for (int j = 0; j < 3 && i + j <= delta; ++j) {
      seq.clear();
      for (int r = 0; r <= rMax && r + i + j <= delta; ++r)
        seq.push_back(V[r][i][j]);
      difference(seq);
    }
  // G as fWords-word fixed point, word 0 most significant.
  std::vector<uint64_t> G((size_t)3 * (kMaxDegree + 1) * (kMaxDegree + 1) *
                          fWords);
  auto g = [&](int j, int i, int r) {
    return &G[(((size_t)j * (kMaxDegree + 1) + i) * (kMaxDegree + 1) + r) *
              fWords];
  };
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i + j <= delta; ++i)
      for (int r = 0; r <= rMax && r + i + j <= delta; ++r) {
        mpz_ptr gz = V[r][i][j];
        mpz_fdiv_r_2exp(gz, gz, (mp_bitcnt_t)fBits);
        uint64_t *dst = g(j, i, r);
        for (int w = fWords - 1; w >= 0; --w) {
          uint64_t word = 0;
          for (int b = 0; b < 64; b += 32) {
            word |= (uint64_t)(mpz_get_ui(gz) & 0xffffffffUL) << b;
            mpz_fdiv_q_2exp(gz, gz, 32);
          }
          dst[w] = word;
        }
      }
  for (int k = 0; k <= delta; ++k)
    mpz_clear(C[k]);
  for (int r = 0; r <= rMax; ++r)
    for (int i = 0; r + i <= delta; ++i)
      for (int l = 0; used(r, i, l); ++l)
        mpz_clear(V[r][i][l]);
  const uint64_t packetArgs = S * N;
  out.packets.reserve(T);
  const size_t stride = out.tableStride();
  out.tables.assign(T * stride, 0);
  size_t k = 0;
  for (uint64_t t0 = 0; t0 < argsInUnit; t0 += packetArgs, ++k) {
    Packet pk;
    pk.j0 = u.j0 + t0;
    pk.end = pc.j1;
    pk.intervals =
        (uint32_t)std::min<uint64_t>(S, (argsInUnit - t0 + N - 1) / N);
    uint64_t *dst = out.tables.data() + k * stride;
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i + j <= delta; ++i) {
        const uint64_t *src = g(j, i, 0);
        for (int w = 0; w < words; ++w)
          dst[(size_t)tableEntry(delta, j, i) * words + w] = src[w];
        for (int r = 0; r + i + j < delta; ++r)
          addWords(g(j, i, r), g(j, i, r + 1), fWords);
      }
    out.packets.push_back(pk);
  }
  return out;
}

} // namespace approx::hrcs
