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
    // The largest N (2^4 to 2^20) whose phase-1 failure rate stays near
    // 2^-6: a random interval fails with probability about 2 N eps1, where
    // eps1 ~ eps + |F''| N^2 / 2 (the degree-1 truncation). Phases 2 and 3
    // then stay a small part of the time (Sect. 6.3).
    nbits = 4;
    for (int n = 4; n <= 20; ++n)
      if (n + 1 + log2Add(log2Eps_, bound(2) + 2.0 * n) <= -6)
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
    return log2Abs(acc);
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
  // Packet tables: truncations of G (< 2^-64W each, G's own error far
  // below), then S steps: at most sum_i C(S, i) of those errors.
  double tabErr = delta * std::log2((double)S + 1) + 2 - (double)fracBits;
  double poly = log2Add(log2Add(remainder, mpfrErr), tabErr);
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

  // Packets. Two levels of tabulated differences, both exact modulo 1:
  //   G[j][i][r] = Delta_S^r Delta^i a_j at the unit's first packet, from
  //     P at the points r S N + i' N + l (MPFR, once per unit), in F bits;
  //   packet by packet, G[j][i][0] is the packet's D_{j,i} (truncated to
  //     `words` words) and every G[j][i] advances by one step of S.
  // So each packet costs a few multiword additions, not MPFR evaluations.
  const uint64_t T = (intervalsInUnit + S - 1) / S;
  const int tBits = (int)std::ceil(std::log2((double)T + 1));
  const int fWords =
      std::min(16, (64 * words + delta * tBits + 2 * delta + 16 + 63) / 64);
  const long fBits = 64L * fWords;
  Real v(prec + fBits), tt(prec + fBits);
  mpz_t vint[kMaxDegree + 1][kMaxDegree + 1][3], gz;
  for (auto &a : vint)
    for (auto &b : a)
      for (auto &z : b)
        mpz_init(z);
  mpz_init(gz);
  for (int r = 0; r <= delta; ++r)
    for (int i = 0; i <= delta; ++i)
      for (int l = 0; l < 3; ++l) {
        // P(r S N + i N + l) by Horner, modulo 1, to fBits bits.
        mpfr_set_uj(tt, (uint64_t)r * S * N + (uint64_t)i * N + (uint64_t)l,
                    MPFR_RNDN);
        mpfr_set(v, c[delta], MPFR_RNDN);
        for (int k = delta - 1; k >= 0; --k) {
          mpfr_mul(v, v, tt, MPFR_RNDN);
          mpfr_add(v, v, c[k], MPFR_RNDN);
        }
        mpfr_frac(v, v, MPFR_RNDN);
        mpfr_mul_2si(v, v, fBits, MPFR_RNDN);
        mpfr_get_z(vint[r][i][l], v, MPFR_RNDD);
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
      for (int r = 0; r + i + j <= delta; ++r) {
        mpz_set_ui(gz, 0);
        for (int r2 = 0; r2 <= r; ++r2)
          for (int i2 = 0; i2 <= i; ++i2)
            for (int l = 0; l <= j; ++l) {
              long coef = binom[r][r2] * binom[i][i2] * binom[j][l];
              if (((r - r2) + (i - i2) + (j - l)) & 1)
                mpz_submul_ui(gz, vint[r2][i2][l], (unsigned long)coef);
              else
                mpz_addmul_ui(gz, vint[r2][i2][l], (unsigned long)coef);
            }
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
  for (auto &a : vint)
    for (auto &b : a)
      for (auto &z : b)
        mpz_clear(z);
  mpz_clear(gz);
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
