//===- HardCases.cpp - Brute-force oracle for hard-to-round cases ---------===//
//
// Per argument: y = f(x) in double (C library), F = |y| / ulp_q scaled
// exactly, d = |F - rint(F)|. glibc documents at most 1 or 2 double ulps of
// error for these functions; the margin allows 4, so |d - d_exact| <=
// 2^(q - 51), and a sample of the double verdicts (one argument in 4099) is
// re-decided by MPFR, any disagreement stopping the oracle with an error.
// Where d lies within the margin of an eps, or near a boundary (exact
// values, binade edges, zeros) where the binade itself is in doubt and no
// eps settles it, MPFR decides.
//
//===----------------------------------------------------------------------===//
#include "approx/accuracy/HardCases.h"
#include "approx/accuracy/Mpfr.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace approx::accuracy {
namespace {

/// The C library's f in double.
double evalDouble(Func f, double x) {
  switch (f) {
  case Func::Exp:
    return std::exp(x);
  case Func::Exp2:
    return std::exp2(x);
  case Func::Log:
    return std::log(x);
  case Func::Log2:
    return std::log2(x);
  case Func::Sin:
    return std::sin(x);
  default:
    return std::cos(x);
  }
}

bool supported(Func f) {
  return f == Func::Exp || f == Func::Exp2 || f == Func::Log ||
         f == Func::Log2 || f == Func::Sin || f == Func::Cos;
}

/// An mpfr_t that frees itself.
struct Mp {
  mpfr_t v;
  explicit Mp(mpfr_prec_t p) { mpfr_init2(v, p); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp &) = delete;
  Mp &operator=(const Mp &) = delete;
};

} // namespace

std::vector<bool> hardCaseByMpfr(Func func, double xd, int q, long emin,
                                 const std::vector<double> &epsilons) {
  std::vector<bool> out(epsilons.size(), false);
  double minEps = 1;
  for (double e : epsilons)
    minEps = std::min(minEps, e);
  Mp x(53);
  mpfr_set_d(x.v, xd, MPFR_RNDN); // exact
  for (mpfr_prec_t w = q + 64 - (mpfr_prec_t)std::floor(std::log2(minEps));
       w <= 65536; w *= 2) {
    Mp y(w), F(w), r(w), dist(w);
    int ternary = evaluateMpfr(func, y.v, x.v, nullptr, MPFR_RNDN);
    if (mpfr_zero_p(y.v)) {
      // An exact zero is a boundary; a rounded one (not in MPFR's range
      // for these functions) is not decided here.
      if (ternary == 0)
        std::fill(out.begin(), out.end(), true);
      return out;
    }
    if (!mpfr_regular_p(y.v))
      return out;
    long E = (long)mpfr_get_exp(y.v) - 1; // 2^E <= |y| < 2^(E+1)
    if (emin != 0 && E < emin)
      E = emin;
    mpfr_abs(F.v, y.v, MPFR_RNDN);
    mpfr_mul_2si(F.v, F.v, (long)q - 1 - E, MPFR_RNDN); // exact
    mpfr_rint(r.v, F.v, MPFR_RNDN);
    mpfr_sub(dist.v, F.v, r.v, MPFR_RNDN); // exact
    mpfr_abs(dist.v, dist.v, MPFR_RNDN);
    // |F - F_exact| <= ulp_w(F) / 2 <= 2^(q - w).
    bool sure = true;
    Mp gap(w + 64), bound(64);
    mpfr_set_ui_2exp(bound.v, 1, (long)q - (long)w + 1, MPFR_RNDN);
    for (size_t i = 0; i < epsilons.size(); ++i) {
      mpfr_sub_d(gap.v, dist.v, epsilons[i], MPFR_RNDN); // exact
      mpfr_abs(gap.v, gap.v, MPFR_RNDN);
      if (ternary != 0 && mpfr_cmp(gap.v, bound.v) <= 0)
        sure = false;
      out[i] = mpfr_cmp_d(dist.v, epsilons[i]) < 0;
    }
    if (sure)
      return out;
  }
  return out; // not reached for these functions (see the file comment)
}

bool findHardCases(const HardCaseQuery &qy, HardCaseAnswer &answer,
                   std::string &error) {
  if (!supported(qy.func)) {
    error = std::string("the hard-case oracle covers exp, exp2, log, log2, "
                        "sin and cos, not ") +
            funcName(qy.func);
    return false;
  }
  if (qy.q < 2 || qy.q > 60) {
    error = "the hard-case oracle needs 2 <= q <= 60";
    return false;
  }
  for (double e : qy.epsilons)
    if (!(e > 0 && e <= 0.25)) {
      error = "the hard-case oracle needs every eps in (0, 1/4]";
      return false;
    }
  // Every argument a double: lo a multiple of ulp, lo/ulp and the last
  // index below 2^53 in magnitude.
  if (!(qy.ulp > 0) || !std::isfinite(qy.lo) ||
      std::fabs(qy.lo / qy.ulp) >= 0x1p53 ||
      std::fabs(qy.lo / qy.ulp) + (double)qy.count >= 0x1p53 ||
      std::fmod(qy.lo, qy.ulp) != 0) {
    error = "the hard-case oracle's arguments must be doubles on the grid "
            "of ulp";
    return false;
  }
  const size_t ne = qy.epsilons.size();
  // |F_double - F| <= 4 ulp_53(y) 2^(q-1-E) <= 2^(q-51).
  const double margin = std::ldexp(1.0, qy.q - 51);
  const int threads = std::max(1, qy.threads);
  std::vector<std::vector<std::vector<uint64_t>>> found(
      threads, std::vector<std::vector<uint64_t>>(ne));
  std::vector<uint64_t> mpfrCount(threads, 0);
  std::vector<std::string> failures(threads);
  auto worker = [&](int t) {
    const uint64_t a = qy.count * (uint64_t)t / (uint64_t)threads;
    const uint64_t b = qy.count * (uint64_t)(t + 1) / (uint64_t)threads;
    std::vector<char> verdict(ne);
    for (uint64_t j = a; j < b; ++j) {
      const double x = qy.lo + (double)j * qy.ulp; // exact (checked above)
      const double y = evalDouble(qy.func, x);
      bool needMpfr = !std::isnormal(y);
      if (!needMpfr) {
        int e2 = 0;
        std::frexp(y, &e2);
        long E = e2 - 1;
        if (qy.emin != 0 && E < qy.emin)
          E = qy.emin;
        const double F = std::ldexp(std::fabs(y), (int)(qy.q - 1 - E));
        const double d = std::fabs(F - std::rint(F));
        // Within 4 margins of a boundary y may be in the wrong binade (a
        // power of two is a boundary): the true distance is still below
        // 2 (d + margin). Beyond, |d - true distance| <= margin.
        const bool nearBoundary = d <= 4 * margin;
        for (size_t i = 0; i < ne && !needMpfr; ++i) {
          const double e = qy.epsilons[i];
          if (2 * (d + margin) < e || (!nearBoundary && d + margin < e))
            verdict[i] = 1;
          else if (!nearBoundary && d - margin >= e)
            verdict[i] = 0;
          else
            needMpfr = true;
        }
        // A sample of the double verdicts checked by MPFR: the margin is an
        // assumption on the C library, and this is its test.
        if (!needMpfr && j % 4099 == 0) {
          std::vector<bool> v =
              hardCaseByMpfr(qy.func, x, qy.q, qy.emin, qy.epsilons);
          for (size_t i = 0; i < ne; ++i)
            if (v[i] != (verdict[i] != 0) && failures[t].empty()) {
              char b[128];
              std::snprintf(b, sizeof b, "%a", x);
              failures[t] = std::string("the C library's ") +
                            funcName(qy.func) + " at " + b +
                            " is off by more than the oracle's margin "
                            "(4 double ulps): its verdict differs from "
                            "MPFR's";
            }
        }
        if (!needMpfr) {
          for (size_t i = 0; i < ne; ++i)
            if (verdict[i])
              found[t][i].push_back(j);
          continue;
        }
      }
      ++mpfrCount[t];
      std::vector<bool> v =
          hardCaseByMpfr(qy.func, x, qy.q, qy.emin, qy.epsilons);
      for (size_t i = 0; i < ne; ++i)
        if (v[i])
          found[t][i].push_back(j);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t)
    pool.emplace_back(worker, t);
  worker(0);
  for (auto &th : pool)
    th.join();
  for (const std::string &f : failures)
    if (!f.empty()) {
      error = f;
      return false;
    }
  answer.cases.assign(ne, {});
  answer.decidedByMpfr = 0;
  for (int t = 0; t < threads; ++t) {
    answer.decidedByMpfr += mpfrCount[t];
    for (size_t i = 0; i < ne; ++i)
      answer.cases[i].insert(answer.cases[i].end(), found[t][i].begin(),
                             found[t][i].end());
  }
  return true;
}

} // namespace approx::accuracy
