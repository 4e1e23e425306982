//===- Plan.cpp - Domain, pieces, Taylor units and packet tables ----------===//
#include "approx/hrcs/Plan.h"

#include <algorithm>
#include <cmath>
#include <gmp.h>
#include <sstream>

namespace approx::hrcs {
namespace {

double log2Of(mpfr_srcptr v) {
  if (mpfr_zero_p(v))
    return -INFINITY;
  long e;
  double m = mpfr_get_d_2exp(&e, v, MPFR_RNDU);
  return std::log2(std::fabs(m)) + (double)e;
}

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

/// 2^64 * x rounded up, saturated to 2^63 (then the test rejects nothing).
uint64_t toFixed64(double log2x) {
  double e = log2x + 64;
  if (e >= 63)
    return uint64_t(1) << 63;
  if (e < -60)
    return 1;
  return (uint64_t)std::ceil(std::exp2(e) * (1 + 1e-12)) + 1;
}

U128 toFixed128(double log2x) {
  U128 r;
  if (log2x >= -1) {
    r.hi = uint64_t(1) << 63;
    return r;
  }
  double e = log2x + 64;
  if (e >= 0) {
    double v = std::exp2(e) * (1 + 1e-12);
    r.hi = (uint64_t)v;
    r.lo = ~uint64_t(0); // round the low word up: a safe upper bound
    return r;
  }
  r.lo = (uint64_t)std::ceil(std::exp2(log2x + 128) * (1 + 1e-12)) + 1;
  return r;
}

} // namespace

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
  log2Eps_ = log2Of(eps_);
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
  if (params.divisionThreshold < 0 || params.divisionThreshold > 64) {
    error = "division threshold out of range (0 to 64)";
    return false;
  }

  // The domain: every precision-p number x with lo <= x < hi, in one binade.
  Real lo(256), hi(256), t(256);
  mpfr_set_prec(lo_, p_);
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
  if (mpfr_set(lo_, lo, MPFR_RNDN) != 0) {
    error = "lo " + params.lo + " is not a precision-" + std::to_string(p_) +
            " number";
    return false;
  }
  long e = mpfr_get_exp(lo) - 1; // 2^e <= |lo| < 2^(e+1)
  argExp_ = e - p_ + 1;
  mpfr_set_prec(ulp_, 64);
  mpfr_set_ui_2exp(ulp_, 1, argExp_, MPFR_RNDN);
  // The last argument: the largest precision-p number below hi.
  Real last(p_);
  mpfr_set(last, hi, MPFR_RNDD);
  if (mpfr_cmp(last, hi) == 0)
    mpfr_nextbelow(last);
  if (mpfr_sgn(last) != mpfr_sgn(lo) || mpfr_zero_p(last) ||
      mpfr_get_exp(last) != mpfr_get_exp(lo)) {
    error = "domain [" + params.lo + ", " + params.hi +
            ") crosses a binade: its arguments must share sign and exponent";
    return false;
  }
  if (mpfr_cmp(last, lo) < 0) {
    error = "domain holds no precision-" + std::to_string(p_) + " number";
    return false;
  }
  mpfr_sub(t, last, lo, MPFR_RNDN); // exact at 256 bits
  mpfr_div_2si(t, t, argExp_, MPFR_RNDN);
  count_ = (uint64_t)mpfr_get_uj(t, MPFR_RNDN) + 1;
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

  // Pieces: cut at turning points, then by result binade.
  std::vector<uint64_t> cuts{0};
  for (Real &tp : fn_->turningPoints(lo, hi, 256)) {
    mpfr_sub(t, tp, lo, MPFR_RNDN);
    mpfr_div_2si(t, t, argExp_, MPFR_RNDN);
    mpfr_ceil(t, t);
    uint64_t j = mpfr_get_uj(t, MPFR_RNDN);
    if (j > cuts.back() && j < count_)
      cuts.push_back(j);
  }
  cuts.push_back(count_);
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

void Plan::argument(mpfr_ptr x, uint64_t j) const {
  mpfr_set_uj_2exp(x, j, argExp_, MPFR_RNDN);
  mpfr_add(x, x, lo_, MPFR_RNDN);
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
    pc.direct = !regular || j1 - j0 < 16;
    if (regular) {
      pc.exponent = gridExponent(y0);
      pc.sign = mpfr_sgn(y0);
    }
    out.push_back(pc);
    return;
  }
  uint64_t mid = j0 + (j1 - j0) / 2;
  cut(j0, mid, out);
  cut(mid, j1, out);
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
    return fn_->log2DerivativeBound(r, a, b) + r * (double)argExp_ -
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
    // N such that the degree-1 truncation |F''| N^2 / 2 stays below eps.
    nbits = (int)std::floor((log2Eps_ - (bound(2) + 1) + 1) / 2);
    nbits = std::clamp(nbits, 4, 20);
  }
  pc.intervalBits = std::min(nbits, pc.unitBits);
  double trunc = bound(2) + 1 + 2.0 * pc.intervalBits - 1;
  if (params_.algorithm == "lefevre")
    pc.algorithm = Algorithm::Lefevre;
  else if (params_.algorithm == "regular")
    pc.algorithm = Algorithm::Regular;
  else // Sect. 6.3: regular where the truncation error is small
    pc.algorithm =
        trunc <= log2Eps_ - 2 ? Algorithm::Regular : Algorithm::Lefevre;
}

UnitPackets Plan::packets(const Unit &u) const {
  const Piece &pc = pieces_[u.piece];
  UnitPackets out;
  const int delta = pc.degree;
  const uint64_t N = uint64_t(1) << pc.intervalBits;
  const uint64_t argsInUnit = u.j1 - u.j0;
  const uint64_t intervalsInUnit = (argsInUnit + N - 1) / N;
  int sbits = params_.packetBits >= 0 ? params_.packetBits : (gpu_ ? 10 : 40);
  uint64_t S = std::min<uint64_t>(intervalsInUnit, uint64_t(1) << std::min(sbits, 40));
  // Words: the tabulation error (S+1)^delta 2^(delta+2-64W) must stay far
  // below eps; shrink S if more than kMaxWords would be needed.
  int words = 0;
  for (;;) {
    double need = -log2Eps_ + 40 + delta * std::log2((double)S + 1) + delta + 2;
    words = std::max(2, (int)std::ceil(need / 64));
    if (words <= kMaxWords || S == 1)
      break;
    S = std::max<uint64_t>(1, S / 2);
  }
  out.degree = delta;
  out.words = words;

  // The unit's Taylor polynomial P(t) = sum c_i t^i, t in arguments from
  // u.j0, in units of ulp_q (|f| / ulp_q: negate for negative f).
  const long fracBits = 64L * words;
  const mpfr_prec_t prec = q_ + fracBits + 96;
  std::vector<Real> c;
  Real x(p_ + 2);
  argument(x, u.j0);
  fn_->taylor(c, delta, x, prec);
  Real scale(prec);
  for (int i = 0; i <= delta; ++i) {
    // c_i * ulp_x^i / ulp_q
    mpfr_mul_2si(c[i], c[i], i * argExp_ - (pc.exponent - q_ + 1), MPFR_RNDN);
    if (pc.sign < 0)
      mpfr_neg(c[i], c[i], MPFR_RNDN);
  }
  // Error terms (log2, in ulp_q units).
  Real acc(64), term(64), mpow(64);
  auto sumBound = [&](int from, double M) {
    // sum_{i>=from} i!/(i-from)! |c_i| M^(i-from), rounded up
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
    return log2Of(acc);
  };
  const double M = std::ldexp(1.0, pc.unitBits) + 4;
  double valueBound = sumBound(0, M);
  Real lo(p_ + 2), hi(p_ + 2);
  argument(lo, u.j0);
  argument(hi, u.j1 - 1);
  if (mpfr_cmp(lo, hi) > 0)
    mpfr_swap(lo, hi);
  double lf = 0;
  for (int i = 2; i <= delta + 1; ++i)
    lf += std::log2((double)i);
  double remainder = fn_->log2DerivativeBound(delta + 1, lo, hi) +
                     (delta + 1) * ((double)argExp_ + std::log2(M)) -
                     (double)(pc.exponent - q_ + 1) - lf;
  double mpfrErr = valueBound + 16 - (double)prec;
  double tabErr = delta * std::log2((double)S + 1) + delta + 2 - (double)fracBits;
  double poly = log2Add(log2Add(remainder, mpfrErr), tabErr);
  out.log2PolyError = poly;
  double p2 = sumBound(2, M), p3 = sumBound(3, M) - std::log2(6.0);
  const double n1 = (double)N;
  const double n2 = std::max(1.0, n1 / params_.split);
  double eps = log2Eps_;
  double e1 = log2Add(log2Add(eps, poly), log2Add(p3 + 3 * std::log2(n1),
                                                  p2 + 2 * std::log2(n1) - 1));
  e1 = log2Add(e1, std::log2(n1 + 4) - 64);
  double e2 = log2Add(log2Add(eps, poly), log2Add(p3 + 3 * std::log2(n2),
                                                  p2 + 2 * std::log2(n2) - 1));
  e2 = log2Add(e2, std::log2(n2 + 8) - 64);
  double e3 = log2Add(log2Add(eps, poly), p3 + 3 * std::log2(n2));
  e3 = log2Add(e3, std::log2(n2 * n2 + 8) - 126);
  out.phase.intervalArgs = N;
  out.phase.split = (uint32_t)params_.split;
  out.phase.divisionThreshold = (uint32_t)params_.divisionThreshold;
  out.phase.algorithm = pc.algorithm;
  out.phase.eps1 = toFixed64(e1);
  out.phase.eps2 = toFixed64(e2);
  out.phase.eps3 = toFixed128(e3);

  // Packets: D_{j,i} = sum_l (-1)^(j-l) C(j,l) sum_r (-1)^(i-r) C(i,r)
  //                    P(t0 + r N + l), every P value taken modulo 1 to
  // fracBits bits (the integer combination keeps it exact modulo 1).
  Real v(prec), tt(prec);
  mpz_t vint[kMaxDegree + 1][3], accz, mod;
  for (auto &row : vint)
    for (auto &z : row)
      mpz_init(z);
  mpz_init(accz);
  mpz_init(mod);
  static const long binom[kMaxDegree + 1][kMaxDegree + 1] = {
      {1},
      {1, 1},
      {1, 2, 1},
      {1, 3, 3, 1},
      {1, 4, 6, 4, 1},
      {1, 5, 10, 10, 5, 1},
      {1, 6, 15, 20, 15, 6, 1},
      {1, 7, 21, 35, 35, 21, 7, 1},
      {1, 8, 28, 56, 70, 56, 28, 8, 1},
      {1, 9, 36, 84, 126, 126, 84, 36, 9, 1},
      {1, 10, 45, 120, 210, 252, 210, 120, 45, 10, 1}};
  const uint64_t packetArgs = S * N;
  for (uint64_t t0 = 0; t0 < argsInUnit; t0 += packetArgs) {
    Packet pk;
    pk.j0 = u.j0 + t0;
    pk.end = pc.j1;
    pk.intervals = (uint32_t)std::min<uint64_t>(
        S, (argsInUnit - t0 + N - 1) / N);
    for (int r = 0; r <= delta; ++r)
      for (int l = 0; l < 3; ++l) {
        // P(t) by Horner.
        mpfr_set_uj(tt, t0 + (uint64_t)r * N + (uint64_t)l, MPFR_RNDN);
        mpfr_set(v, c[delta], MPFR_RNDN);
        for (int i = delta - 1; i >= 0; --i) {
          mpfr_mul(v, v, tt, MPFR_RNDN);
          mpfr_add(v, v, c[i], MPFR_RNDN);
        }
        mpfr_frac(v, v, MPFR_RNDN);
        mpfr_mul_2si(v, v, fracBits, MPFR_RNDN);
        mpfr_get_z(vint[r][l], v, MPFR_RNDD);
      }
    pk.words.assign((size_t)3 * (kMaxDegree + 1) * words, 0);
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i + j <= delta; ++i) {
        mpz_set_ui(accz, 0);
        for (int l = 0; l <= j; ++l)
          for (int r = 0; r <= i; ++r) {
            long coef = binom[j][l] * binom[i][r];
            if (((j - l) + (i - r)) & 1)
              mpz_submul_ui(accz, vint[r][l], (unsigned long)coef);
            else
              mpz_addmul_ui(accz, vint[r][l], (unsigned long)coef);
          }
        mpz_fdiv_r_2exp(accz, accz, (mp_bitcnt_t)fracBits);
        for (int w = words - 1; w >= 0; --w) {
          uint64_t word = 0;
          for (int b = 0; b < 64; b += 32) {
            word |= (uint64_t)(mpz_get_ui(accz) & 0xffffffffUL) << b;
            mpz_fdiv_q_2exp(accz, accz, 32);
          }
          pk.words[((size_t)j * (kMaxDegree + 1) + i) * words + w] = word;
        }
      }
    out.packets.push_back(std::move(pk));
  }
  for (auto &row : vint)
    for (auto &z : row)
      mpz_clear(z);
  mpz_clear(accz);
  mpz_clear(mod);
  return out;
}

} // namespace approx::hrcs
