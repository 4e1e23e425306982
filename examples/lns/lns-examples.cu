// lns-examples.cu - the LNS examples (examples/lns) on the GPU, against CPU
// references.
//
// Two problems, generated from one stated seed, run through the approx
// runtime (PTX + manifest from examples/lns/compile.sh):
//   HMM forward   a random sticky HMM (N states, M symbols; A rows
//                 stay*e_i + (1-stay)*Dirichlet(0.3), stay in [0.5, 0.95];
//                 B rows Dirichlet(0.5); pi Dirichlet(1)) and B sequences of
//                 T steps sampled from it. Reference: the scaled forward
//                 algorithm in long double (hmmlearn-reference.py checks it
//                 against hmmlearn). Every hmm_lns_<impl> kernel,
//                 split at λ = 0, λmax/2, λmax, and hmm_f32_logsumexp at
//                 λ = 0 (precise) and λmax (SFU); errors are those of the
//                 per-sequence log2-likelihood, and of the likelihood itself
//                 (|2^e - 1| for a log2 error e).
//   LNS dot       y = A x, A (R x C) and x N(0, 1) with 1% exact zeros in A,
//                 as log2|.| + sign for the LNS kernels and as f32 for
//                 dot_f32. Reference: long double sums of the double data.
//                 Errors: absolute, relative to |y| on the rows where |y| is
//                 at least 1e-3 of its RMS (below that the relative error
//                 measures the cancellation, not the arithmetic; those rows
//                 are counted), and relative to sum_c |A[r][c] x[c]| (the
//                 condition-free measure).
// Both also report each LNS kernel against a CPU model of the same kernel
// in f32 with exact sb/db, on the first sequences/rows: the part of the
// error due to how sb/db are evaluated, apart from f32 rounding.
// Timing: CUDA events (Module::time), warm-up launches then the median of
// --reps; outputs are poisoned (NaN) before every launch, outside the timed
// region, so a kernel that writes nothing cannot pass; inputs are read-only.
// With --until-ci R (issue 30, "Dispersion"; as lns-bench's and
// approx-tune's): after the --reps launches, more in batches of 10 (no
// warm-up) until the 95% bootstrap interval of the median
// (approx::rt::medianInterval) lies within ±R of it, or --max-reps launches
// in all (default 200); each variant's JSON record then has "time_ci_ms"
// ([lo, hi]) and "launches", and the tables print "median [lo, hi]".
// Without --until-ci, the output is as it always was.
// Exit 0; 1 (one line on stderr) on an error, on a non-finite output, or
// when a kernel whose functions are not approximated (lns precise against
// its f32 model, f32 λ=0 and dot_f32 against the reference) misses a loose
// sanity bound (kSanity*) that only a broken kernel misses; 2 on bad usage;
// 77 when no GPU is usable.
// --self-check tests the generators, the references (brute force over all
// paths of a tiny HMM, double vs long double, scaled vs log domain) and the
// CSV writer, without a GPU. --write-model DIR writes the HMM as CSV for
// hmmlearn-reference.py.
//
// usage: lns-examples KERNELS_DIR [options] [--json PATH]
//        lns-examples --self-check [options]
//        lns-examples --write-model DIR [options]
// options (defaults): --states N (128) --symbols M (32) --steps T (200)
//   --batch B (1024) --rows R (65536) --cols C (512) --seed S (20261122)
//   --reps K (10) --warmup W (3) --model-items K (4: the CPU model runs on
//   K sequences and 256 K rows) --until-ci R (off; 0 < R < 1, e.g. 0.01)
//   --max-reps M (200; at least --reps)
#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/sfu/Occupancy.h"
#include "approx/runtime/tune/Metrics.h"
#include "approx/runtime/tune/TimeUntilTight.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>
#include <vector>

using namespace approx::rt;

namespace {

// Sanity bounds for the kernels whose functions are not approximated, far
// above f32 rounding and far below what a wrong index or a missing barrier
// gives. HMM: |error| / |log-likelihood|. The f32 log of a likelihood near
// 2^-1000 has ulps of 2^-14, and the LNS sum loses every term below half
// an ulp of it, a bias that grows with T (about 2e-5 relative at the
// default sizes), so lns precise is held to its own f32 model (exact sb,
// same roundings, so only sb's last bits differ), f32 λ=0 to the
// reference. Dot:
// |error| / sum_c |A[r][c] x[c]| (f32 rounding: about 1e-7).
constexpr double kSanityRel = 1e-4;
constexpr double kSanityDot = 1e-4;

[[noreturn]] void fail(const std::string &msg, int code = 1) {
  std::fprintf(stderr, "lns-examples: %s\n", msg.c_str());
  std::exit(code);
}

void check(const Status &s, const std::string &what) {
  if (!s.isOk())
    fail(what + ": " + s.toString(),
         s.code() == StatusCode::Unavailable ? 77 : 1);
}

template <class T> T take(Expected<T> e, const std::string &what) {
  check(e.status(), what);
  return e.take();
}

// ---------------------------------------------------------------------------
// Deterministic random numbers: splitmix64 and samplers written out here, so
// a seed gives the same data with any standard library.
// ---------------------------------------------------------------------------

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in the open interval (0, 1).
  double uniform() { return (double(next() >> 11) + 0.5) * 0x1.0p-53; }
  double normal() { // Box-Muller, one of the pair
    double u1 = uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586477 * u2);
  }
  /// Gamma(a, 1): Marsaglia-Tsang; a < 1 through Gamma(a + 1) U^(1/a).
  double gamma(double a) {
    if (a < 1.0)
      return gamma(a + 1.0) * std::pow(uniform(), 1.0 / a);
    const double d = a - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
      double x = normal(), v = 1.0 + c * x;
      if (v <= 0)
        continue;
      v = v * v * v;
      double u = uniform();
      if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v))
        return d * v;
    }
  }
  /// k weights of a Dirichlet(alpha, ..., alpha), summing to 1.
  std::vector<double> dirichlet(double alpha, int k) {
    std::vector<double> g(static_cast<size_t>(k));
    long double sum = 0;
    for (double &x : g) {
      x = gamma(alpha);
      sum += x;
    }
    for (double &x : g)
      x = double(x / sum);
    return g;
  }
  /// An index drawn with probabilities p (summing to 1).
  int categorical(const double *p, int k) {
    double u = uniform(), acc = 0;
    int last = 0;
    for (int i = 0; i < k; ++i) {
      if (p[i] > 0)
        last = i;
      acc += p[i];
      if (u < acc)
        return i;
    }
    return last; // u beyond the rounded total
  }
};

// ---------------------------------------------------------------------------
// The HMM and its references.
// ---------------------------------------------------------------------------

struct Sizes {
  int states = 128, symbols = 32, steps = 200, batch = 1024;
  int rows = 65536, cols = 512;
  uint64_t seed = 20261122;
};

struct Hmm {
  int n = 0, m = 0, t = 0, batch = 0;
  uint64_t seed = 0;
  std::vector<double> a;    ///< a[i*n + j] = P(j at t+1 | i at t)
  std::vector<double> b;    ///< b[j*m + o] = P(o | j)
  std::vector<double> pi;   ///< pi[j]
  std::vector<int32_t> obs; ///< obs[s*t + k]
};

Hmm makeHmm(int n, int m, int t, int batch, uint64_t seed) {
  Hmm h;
  h.n = n, h.m = m, h.t = t, h.batch = batch, h.seed = seed;
  Rng rng(seed);
  h.a.resize(size_t(n) * n);
  for (int i = 0; i < n; ++i) {
    // Sticky rows (states persist, as in speech or genomics models) with a
    // heavy-tailed spread of the other transitions: log2 A spans tens of
    // units, so many LNS sums reach deep into the tables' range.
    double stay = 0.5 + 0.45 * rng.uniform();
    std::vector<double> row = rng.dirichlet(0.3, n);
    for (int j = 0; j < n; ++j)
      h.a[size_t(i) * n + j] =
          (1.0 - stay) * row[size_t(j)] + (i == j ? stay : 0);
  }
  h.b.resize(size_t(n) * m);
  for (int j = 0; j < n; ++j) {
    std::vector<double> row = rng.dirichlet(0.5, m);
    std::copy(row.begin(), row.end(), h.b.begin() + size_t(j) * m);
  }
  h.pi = rng.dirichlet(1.0, n);
  h.obs.resize(size_t(batch) * t);
  for (int s = 0; s < batch; ++s) {
    int state = rng.categorical(h.pi.data(), n);
    for (int k = 0; k < t; ++k) {
      h.obs[size_t(s) * t + k] = rng.categorical(&h.b[size_t(state) * m], m);
      state = rng.categorical(&h.a[size_t(state) * n], n);
    }
  }
  return h;
}

/// Natural-log likelihood of sequence s: the forward algorithm with the
/// alpha vector rescaled to sum 1 at every step (the scales' logs add up).
template <class R> R forwardScaled(const Hmm &h, int s) {
  const int n = h.n;
  const int32_t *o = &h.obs[size_t(s) * h.t];
  std::vector<R> alpha(static_cast<size_t>(n)), next(static_cast<size_t>(n));
  R ll = 0, c = 0;
  for (int j = 0; j < n; ++j) {
    alpha[size_t(j)] = R(h.pi[size_t(j)]) * R(h.b[size_t(j) * h.m + o[0]]);
    c += alpha[size_t(j)];
  }
  for (R &x : alpha)
    x /= c;
  ll = std::log(c);
  for (int k = 1; k < h.t; ++k) {
    std::fill(next.begin(), next.end(), R(0));
    for (int i = 0; i < n; ++i) {
      const R ai = alpha[size_t(i)];
      const double *row = &h.a[size_t(i) * n];
      for (int j = 0; j < n; ++j)
        next[size_t(j)] += ai * R(row[j]);
    }
    c = 0;
    for (int j = 0; j < n; ++j) {
      next[size_t(j)] *= R(h.b[size_t(j) * h.m + o[k]]);
      c += next[size_t(j)];
    }
    for (R &x : next)
      x /= c;
    ll += std::log(c);
    std::swap(alpha, next);
  }
  return ll;
}

/// Natural-log likelihood in the log domain (log-sum-exp), long double: an
/// independent formulation for --self-check.
long double forwardLog(const Hmm &h, int s) {
  const int n = h.n;
  const int32_t *o = &h.obs[size_t(s) * h.t];
  auto lg = [](double p) { return std::log((long double)p); };
  std::vector<long double> alpha(static_cast<size_t>(n)),
      next(static_cast<size_t>(n)), x(static_cast<size_t>(n));
  for (int j = 0; j < n; ++j)
    alpha[size_t(j)] = lg(h.pi[size_t(j)]) + lg(h.b[size_t(j) * h.m + o[0]]);
  auto lse = [&](const std::vector<long double> &v) {
    long double m = *std::max_element(v.begin(), v.end()), s = 0;
    for (long double e : v)
      s += std::exp(e - m);
    return m + std::log(s);
  };
  for (int k = 1; k < h.t; ++k) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i)
        x[size_t(i)] = alpha[size_t(i)] + lg(h.a[size_t(i) * n + j]);
      next[size_t(j)] = lse(x) + lg(h.b[size_t(j) * h.m + o[k]]);
    }
    std::swap(alpha, next);
  }
  return lse(alpha);
}

/// Natural-log likelihood by summing over all n^t state paths (tiny HMMs).
long double bruteForce(const Hmm &h, int s) {
  const int32_t *o = &h.obs[size_t(s) * h.t];
  std::vector<int> path(size_t(h.t), 0);
  long double total = 0;
  for (;;) {
    long double p =
        h.pi[size_t(path[0])] * (long double)h.b[size_t(path[0]) * h.m + o[0]];
    for (int k = 1; k < h.t; ++k)
      p *= (long double)
               h.a[size_t(path[size_t(k - 1)]) * h.n + path[size_t(k)]] *
           h.b[size_t(path[size_t(k)]) * h.m + o[k]];
    total += p;
    int k = h.t - 1;
    while (k >= 0 && ++path[size_t(k)] == h.n)
      path[size_t(k--)] = 0;
    if (k < 0)
      return std::log(total);
  }
}

/// The long double reference of every sequence, in log2.
std::vector<long double> hmmReferenceLog2(const Hmm &h) {
  std::vector<long double> r(static_cast<size_t>(h.batch));
#pragma omp parallel for schedule(dynamic)
  for (int s = 0; s < h.batch; ++s)
    r[size_t(s)] = forwardScaled<long double>(h, s) / std::log(2.0L);
  return r;
}

// ---------------------------------------------------------------------------
// CPU model of the LNS kernels: the same f32 operations as approx-lns-expand
// produces, with sb/db exact (long double, rounded once to f32).
// ---------------------------------------------------------------------------

float sbExact(float d) {
  return float(std::log2(1.0L + std::exp2((long double)d)));
}
float dbExact(float d) {
  if (d == 0)
    return -std::numeric_limits<float>::infinity();
  return float(std::log2(-std::expm1((long double)d * std::log(2.0L))));
}

struct Lns {
  float log;
  bool neg;
};

/// approx.lns.add as approx-lns-expand writes it.
Lns lnsAdd(Lns a, Lns b) {
  const float ninf = -std::numeric_limits<float>::infinity();
  float big = std::max(a.log, b.log), small = std::min(a.log, b.log);
  float d = small - big;
  float f = 0;
  if (!(d < -1e30f)) // d = -inf: sb = db = 0 (the x + 0 = x case)
    f = a.neg == b.neg ? sbExact(d) : dbExact(d);
  float sum = big + f;
  return {big == ninf ? ninf : sum, a.log >= b.log ? a.neg : b.neg};
}

/// log2-likelihood of sequence s as hmm_lns_* computes it with exact sb.
float hmmLnsModel(const Hmm &h, const std::vector<float> &la,
                  const std::vector<float> &lb, const std::vector<float> &lpi,
                  int s) {
  const int n = h.n;
  const float ninf = -std::numeric_limits<float>::infinity();
  const int32_t *o = &h.obs[size_t(s) * h.t];
  std::vector<float> alpha(static_cast<size_t>(n)),
      next(static_cast<size_t>(n));
  for (int j = 0; j < n; ++j)
    alpha[size_t(j)] = lpi[size_t(j)] + lb[size_t(j) * h.m + o[0]];
  for (int k = 1; k < h.t; ++k) {
    for (int j = 0; j < n; ++j) {
      Lns acc{ninf, false};
      for (int i = 0; i < n; ++i)
        acc = lnsAdd(acc, {alpha[size_t(i)] + la[size_t(i) * n + j], false});
      next[size_t(j)] = acc.log + lb[size_t(j) * h.m + o[k]];
    }
    std::swap(alpha, next);
  }
  Lns acc{ninf, false};
  for (int j = 0; j < n; ++j)
    acc = lnsAdd(acc, {alpha[size_t(j)], false});
  return acc.log;
}

// ---------------------------------------------------------------------------
// The dot product.
// ---------------------------------------------------------------------------

struct Dot {
  int rows = 0, cols = 0;
  std::vector<double> a; ///< a[c*rows + r] = A[r][c] (column-major)
  std::vector<double> x;
};

Dot makeDot(int rows, int cols, uint64_t seed) {
  Dot d;
  d.rows = rows, d.cols = cols;
  // Another stream than the HMM's, from the same stated seed.
  Rng rng(seed ^ 0x5bd1e9955bd1e995ULL);
  d.a.resize(size_t(rows) * cols);
  for (double &v : d.a)
    v = rng.uniform() < 0.01 ? 0.0 : rng.normal();
  d.x.resize(size_t(cols));
  for (double &v : d.x)
    v = rng.normal();
  return d;
}

/// y and sum |A[r][c] x[c]| in long double.
void dotReference(const Dot &d, std::vector<long double> &y,
                  std::vector<long double> &absSum) {
  y.assign(size_t(d.rows), 0);
  absSum.assign(size_t(d.rows), 0);
#pragma omp parallel for
  for (int r = 0; r < d.rows; ++r) {
    long double s = 0, t = 0;
    for (int c = 0; c < d.cols; ++c) {
      long double p = (long double)d.a[size_t(c) * d.rows + r] * d.x[size_t(c)];
      s += p;
      t += std::fabs(p);
    }
    y[size_t(r)] = s, absSum[size_t(r)] = t;
  }
}

/// Log2 magnitudes (f32, log2 0 = -inf) and signs (1: negative).
void encodeLns(const std::vector<double> &v, std::vector<float> &l,
               std::vector<int8_t> &s) {
  l.resize(v.size());
  s.resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    l[i] = float(std::log2(std::fabs(v[i])));
    s[i] = v[i] < 0 ? 1 : 0;
  }
}

/// y[r] as dot_lns_* computes it with exact sb/db.
double dotLnsModel(const Dot &d, const std::vector<float> &la,
                   const std::vector<int8_t> &sa, const std::vector<float> &lx,
                   const std::vector<int8_t> &sx, int r) {
  Lns acc{-std::numeric_limits<float>::infinity(), false};
  for (int c = 0; c < d.cols; ++c) {
    size_t k = size_t(c) * d.rows + r;
    acc = lnsAdd(acc,
                 {la[k] + lx[size_t(c)], (sa[k] != 0) != (sx[size_t(c)] != 0)});
  }
  double m = std::exp2(double(acc.log));
  return acc.neg ? -m : m;
}

// ---------------------------------------------------------------------------
// Error measures.
// ---------------------------------------------------------------------------

/// |2^e - 1|: the relative error of a likelihood whose log2 is off by e.
double relFromLog2(double e) {
  return std::fabs(std::expm1(e * std::log(2.0)));
}

struct HmmErr {
  double maxAbs = 0, meanAbs = 0, maxRel = 0, meanRel = 0;
  int nonfinite = 0;
};

HmmErr hmmErrors(const std::vector<float> &got,
                 const std::vector<long double> &ref) {
  HmmErr e;
  int finite = 0;
  for (size_t s = 0; s < got.size(); ++s) {
    if (!std::isfinite(got[s])) {
      ++e.nonfinite;
      continue;
    }
    double d = double((long double)got[s] - ref[s]);
    e.maxAbs = std::max(e.maxAbs, std::fabs(d));
    e.meanAbs += std::fabs(d);
    e.maxRel = std::max(e.maxRel, relFromLog2(d));
    e.meanRel += relFromLog2(d);
    ++finite;
  }
  if (finite)
    e.meanAbs /= finite, e.meanRel /= finite;
  return e;
}

struct DotErr {
  double maxAbs = 0, meanAbs = 0, maxRel = 0, maxNorm = 0;
  int excluded = 0, nonfinite = 0;
};

DotErr dotErrors(const std::vector<double> &got,
                 const std::vector<long double> &ref,
                 const std::vector<long double> &absSum) {
  DotErr e;
  long double ms = 0;
  for (long double v : ref)
    ms += v * v;
  const double floor =
      1e-3 * double(std::sqrt(ms / std::max<size_t>(1, ref.size())));
  int finite = 0;
  for (size_t r = 0; r < got.size(); ++r) {
    if (!std::isfinite(got[r])) {
      ++e.nonfinite;
      continue;
    }
    double d = double(std::fabs((long double)got[r] - ref[r]));
    e.maxAbs = std::max(e.maxAbs, d);
    e.meanAbs += d;
    ++finite;
    if (std::fabs(double(ref[r])) >= floor)
      e.maxRel = std::max(e.maxRel, d / std::fabs(double(ref[r])));
    else
      ++e.excluded;
    if (absSum[r] > 0)
      e.maxNorm = std::max(e.maxNorm, d / double(absSum[r]));
  }
  if (finite)
    e.meanAbs /= finite;
  return e;
}

// ---------------------------------------------------------------------------
// Output helpers.
// ---------------------------------------------------------------------------

std::string jsonNum(double v) {
  if (!std::isfinite(v))
    return "null";
  char b[40];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}

std::string jsonStr(const std::string &s) {
  std::string o = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') {
      o += '\\';
      o += ch;
    } else if ((unsigned char)ch < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", unsigned(ch));
      o += b;
    } else {
      o += ch;
    }
  }
  return o + "\"";
}

std::string fmtG(double v, int digits = 3) {
  if (std::isnan(v))
    return "-";
  char b[40];
  std::snprintf(b, sizeof b, "%.*g", digits, v);
  return b;
}

struct Run {
  std::string variant, kernel;
  int64_t lambda = -1; ///< -1: the kernel has no λ
  Timing timing;
  /// The 95% bootstrap interval of timing.medianMs (--until-ci only).
  double ciLoMs = std::nan(""), ciHiMs = std::nan("");
};

/// How a variant's timing repeats: `warmup`, then `reps` timed launches;
/// with `untilCi` > 0, more in batches of 10 until the median's 95%
/// interval is within ±untilCi of it, at most `maxReps` in all.
struct Repeat {
  int warmup = 3, reps = 10, maxReps = 200;
  double untilCi = 0; ///< 0: off
};

/// A time for the tables: "2.5781", or with an interval
/// "2.5781 [2.5702, 2.5843]".
std::string timeText(const Run &r) {
  char b[96];
  if (std::isnan(r.ciLoMs))
    std::snprintf(b, sizeof b, "%.4f", r.timing.medianMs);
  else
    std::snprintf(b, sizeof b, "%.4f [%.4f, %.4f]", r.timing.medianMs, r.ciLoMs,
                  r.ciHiMs);
  return b;
}

/// A variant's timing fields for the JSON: the median, min and max, and
/// with --until-ci the interval and the launches timed.
std::string timeJson(const Run &r) {
  std::string j = ",\"time_ms\":" + jsonNum(r.timing.medianMs) +
                  ",\"time_min_ms\":" + jsonNum(r.timing.minMs) +
                  ",\"time_max_ms\":" + jsonNum(r.timing.maxMs);
  if (!std::isnan(r.ciLoMs))
    j += ",\"time_ci_ms\":[" + jsonNum(r.ciLoMs) + "," + jsonNum(r.ciHiMs) +
         "],\"launches\":" + std::to_string(r.timing.samplesMs.size());
  return j;
}

// ---------------------------------------------------------------------------
// --write-model: CSV, one matrix row per line, %.17g (round-trips doubles).
// ---------------------------------------------------------------------------

void writeCsv(const std::string &path, const double *v, int rows, int cols) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f)
    fail("cannot write " + path + ": " + std::strerror(errno));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      std::fprintf(f, "%.17g%c", v[size_t(r) * cols + c],
                   c + 1 < cols ? ',' : '\n');
  if (std::fclose(f) != 0)
    fail("cannot write " + path + ": " + std::strerror(errno));
}

void writeModel(const std::string &dir, const Hmm &h,
                const std::vector<long double> &refLog2) {
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    fail("cannot create " + dir + ": " + std::strerror(errno));
  writeCsv(dir + "/A.csv", h.a.data(), h.n, h.n);
  writeCsv(dir + "/B.csv", h.b.data(), h.n, h.m);
  writeCsv(dir + "/pi.csv", h.pi.data(), 1, h.n);
  std::vector<double> obs(h.obs.begin(), h.obs.end());
  writeCsv(dir + "/obs.csv", obs.data(), h.batch, h.t);
  // The reference in nats, hmmlearn's unit.
  std::vector<double> ll(refLog2.size());
  for (size_t s = 0; s < ll.size(); ++s)
    ll[s] = double(refLog2[s] * std::log(2.0L));
  writeCsv(dir + "/loglik.csv", ll.data(), h.batch, 1);
  FILE *f = std::fopen((dir + "/meta.json").c_str(), "w");
  if (!f)
    fail("cannot write " + dir + "/meta.json");
  std::fprintf(
      f,
      "{\"seed\": %llu, \"states\": %d, \"symbols\": %d, \"steps\": %d, "
      "\"batch\": %d, \"loglik\": \"natural log, scaled forward in "
      "long double (lns-examples)\"}\n",
      (unsigned long long)h.seed, h.n, h.m, h.t, h.batch);
  std::fclose(f);
}

std::vector<double> readCsv(const std::string &path) {
  std::vector<double> v;
  FILE *f = std::fopen(path.c_str(), "r");
  if (!f)
    return v;
  std::string tok;
  for (int ch; (ch = std::fgetc(f)) != EOF;) {
    if (ch == ',' || ch == '\n') {
      if (!tok.empty())
        v.push_back(std::strtod(tok.c_str(), nullptr));
      tok.clear();
    } else {
      tok += char(ch);
    }
  }
  std::fclose(f);
  return v;
}

// ---------------------------------------------------------------------------
// --self-check
// ---------------------------------------------------------------------------

int selfCheck(const Sizes &z) {
  int failures = 0, checks = 0;
  auto expect = [&](bool ok, const std::string &what) {
    ++checks;
    if (!ok) {
      ++failures;
      std::printf("FAIL %s\n", what.c_str());
    }
  };
  auto rowsSumToOne = [](const std::vector<double> &v, int rows, int cols) {
    for (int r = 0; r < rows; ++r) {
      long double s = 0;
      for (int c = 0; c < cols; ++c) {
        double p = v[size_t(r) * cols + c];
        if (!(p >= 0))
          return false;
        s += p;
      }
      if (std::fabs(double(s - 1)) > 1e-12)
        return false;
    }
    return true;
  };

  // Generator: stochastic, in range, deterministic, seed-dependent.
  const int batch = std::min(z.batch, 16);
  Hmm h = makeHmm(z.states, z.symbols, z.steps, batch, z.seed);
  expect(rowsSumToOne(h.a, h.n, h.n), "A rows are distributions");
  expect(rowsSumToOne(h.b, h.n, h.m), "B rows are distributions");
  expect(rowsSumToOne(h.pi, 1, h.n), "pi is a distribution");
  bool inRange = true;
  for (int32_t o : h.obs)
    inRange &= o >= 0 && o < h.m;
  expect(inRange, "observations in [0, M)");
  Hmm h2 = makeHmm(z.states, z.symbols, z.steps, batch, z.seed);
  expect(h2.a == h.a && h2.b == h.b && h2.pi == h.pi && h2.obs == h.obs,
         "same seed, same model and sequences");
  Hmm h3 = makeHmm(z.states, z.symbols, z.steps, batch, z.seed + 1);
  expect(h3.obs != h.obs, "another seed, other sequences");
  double minA = *std::min_element(h.a.begin(), h.a.end());
  std::printf("model: N=%d M=%d T=%d, min A %.3g (log2 %.1f), sticky diag\n",
              h.n, h.m, h.t, minA, std::log2(minA));

  // Sampling follows the model: symbol frequencies of state-free sampling
  // are hard to predict, so test the categorical sampler directly.
  {
    Rng r(7);
    const double p[4] = {0.1, 0.2, 0.3, 0.4};
    int cnt[4] = {0, 0, 0, 0};
    const int draws = 200000;
    for (int i = 0; i < draws; ++i)
      ++cnt[r.categorical(p, 4)];
    bool ok = true;
    for (int i = 0; i < 4; ++i)
      ok &= std::fabs(cnt[i] / double(draws) - p[i]) < 0.005;
    expect(ok, "categorical sampler frequencies within 0.005");
    double mean = 0;
    for (int i = 0; i < draws; ++i)
      mean += r.gamma(0.3);
    expect(std::fabs(mean / draws - 0.3) < 0.01, "Gamma(0.3) mean within 0.01");
  }

  // References: brute force over all paths of a tiny HMM.
  {
    Hmm t = makeHmm(3, 4, 7, 4, z.seed);
    double worst = 0;
    for (int s = 0; s < t.batch; ++s) {
      long double bf = bruteForce(t, s);
      worst = std::max(
          {worst,
           double(std::fabs(forwardScaled<long double>(t, s) - bf) /
                  std::fabs(bf)),
           double(std::fabs(forwardScaled<double>(t, s) - bf) / std::fabs(bf)),
           double(std::fabs(forwardLog(t, s) - bf) / std::fabs(bf))});
    }
    std::printf(
        "tiny HMM (N=3, T=7): forward vs all 2187 paths, max rel diff %.3g\n",
        worst);
    expect(worst < 1e-12,
           "forward = brute force on a tiny HMM (1e-12 relative)");
  }
  // double vs long double, scaled vs log domain, at the requested size.
  {
    double dd = 0, dl = 0;
    const int k = std::min(batch, 4);
    for (int s = 0; s < k; ++s) {
      long double ref = forwardScaled<long double>(h, s);
      dd = std::max(dd, double(std::fabs(forwardScaled<double>(h, s) - ref) /
                               std::fabs(ref)));
      dl = std::max(dl,
                    double(std::fabs(forwardLog(h, s) - ref) / std::fabs(ref)));
    }
    std::printf("reference: double vs long double rel %.3g, log-domain vs "
                "scaled rel %.3g\n",
                dd, dl);
    expect(dd < 1e-12, "scaled forward: double = long double (1e-12 relative)");
    expect(dl < 1e-12, "log-domain forward = scaled forward (1e-12 relative)");
  }
  // The f32 LNS model (exact sb) against the reference: what the precise
  // kernel should come close to.
  {
    std::vector<float> la(h.a.size()), lb(h.b.size()), lpi(h.pi.size());
    for (size_t i = 0; i < la.size(); ++i)
      la[i] = float(std::log2(h.a[i]));
    for (size_t i = 0; i < lb.size(); ++i)
      lb[i] = float(std::log2(h.b[i]));
    for (size_t i = 0; i < lpi.size(); ++i)
      lpi[i] = float(std::log2(h.pi[i]));
    double worst = 0;
    for (int s = 0; s < 2; ++s)
      worst = std::max(
          worst,
          double(std::fabs((long double)hmmLnsModel(h, la, lb, lpi, s) -
                           forwardScaled<long double>(h, s) / std::log(2.0L))));
    double ll =
        double(std::fabs(forwardScaled<long double>(h, 0) / std::log(2.0L)));
    std::printf(
        "f32 LNS model (exact sb), 2 sequences: max abs log2 error %.3g "
        "(%.3g relative)\n",
        worst, worst / ll);
    expect(worst / ll < kSanityRel,
           "f32 LNS model within the sanity bound of the reference");
  }
  // LNS arithmetic corner cases the kernels rely on.
  {
    const float ninf = -std::numeric_limits<float>::infinity();
    Lns z0 = lnsAdd({ninf, false}, {3.0f, true});
    expect(z0.log == 3.0f && z0.neg, "0 + x = x");
    Lns z1 = lnsAdd({2.0f, false}, {2.0f, true});
    expect(z1.log == ninf, "x - x = 0");
    Lns z2 = lnsAdd({1.0f, false}, {1.0f, false});
    expect(z2.log == 2.0f && !z2.neg, "2 + 2 = 4");
    Lns z3 = lnsAdd({2.0f, true}, {1.0f, false});
    expect(z3.log == 1.0f && z3.neg, "-4 + 2 = -2");
    expect(std::fabs(relFromLog2(1.0) - 1.0) < 1e-15,
           "a log2 error of 1 doubles the likelihood");
  }
  // Dot: generator, reference, and the f32 LNS model.
  {
    Dot d = makeDot(std::min(z.rows, 4096), z.cols, z.seed);
    std::vector<long double> y, absSum;
    dotReference(d, y, absSum);
    int zeros = 0;
    for (double v : d.a)
      zeros += v == 0;
    double frac = zeros / double(d.a.size());
    expect(frac > 0.005 && frac < 0.015, "about 1% exact zeros in A");
    std::vector<float> la, lx;
    std::vector<int8_t> sa, sx;
    encodeLns(d.a, la, sa);
    encodeLns(d.x, lx, sx);
    std::vector<double> got(static_cast<size_t>(d.rows));
    for (int r = 0; r < d.rows; ++r)
      got[size_t(r)] = dotLnsModel(d, la, sa, lx, sx, r);
    DotErr e = dotErrors(got, y, absSum);
    std::printf(
        "dot f32 LNS model (exact sb/db), %d rows: max err / sum|a x| %.3g, "
        "max rel %.3g (%d rows below 1e-3 rms left out)\n",
        d.rows, e.maxNorm, e.maxRel, e.excluded);
    expect(e.nonfinite == 0 && e.maxNorm < 0.1 * kSanityDot,
           "dot f32 LNS model within a tenth of the sanity bound of the "
           "reference");
    // The error measures on a known case.
    DotErr k = dotErrors({1.5, -2.0}, {1.0L, -2.0L}, {2.0L, 4.0L});
    expect(k.maxAbs == 0.5 && k.maxRel == 0.5 && k.maxNorm == 0.25,
           "dot error measures");
  }
  // --write-model round trip (what hmmlearn-reference.py reads).
  {
    Hmm t = makeHmm(5, 3, 9, 3, z.seed);
    std::vector<long double> ref = hmmReferenceLog2(t);
    char tmpl[] = "/tmp/lns-examples-XXXXXX";
    const char *dir = mkdtemp(tmpl);
    expect(dir != nullptr, "temporary directory");
    if (dir) {
      writeModel(dir, t, ref);
      std::vector<double> obs(t.obs.begin(), t.obs.end());
      expect(readCsv(std::string(dir) + "/A.csv") == t.a &&
                 readCsv(std::string(dir) + "/B.csv") == t.b &&
                 readCsv(std::string(dir) + "/pi.csv") == t.pi &&
                 readCsv(std::string(dir) + "/obs.csv") == obs,
             "CSV round trip is exact");
      for (const char *f :
           {"A.csv", "B.csv", "pi.csv", "obs.csv", "loglik.csv", "meta.json"})
        std::remove((std::string(dir) + "/" + f).c_str());
      rmdir(dir);
    }
  }
  expect(jsonStr("a\"b\\c\n") == "\"a\\\"b\\\\c\\u000a\"", "JSON escaping");
  // A variant's time as the tables and the JSON give it: as before without
  // --until-ci, with its interval and launch count with it.
  {
    Run r;
    r.timing.medianMs = 2.5, r.timing.minMs = 2.25, r.timing.maxMs = 3;
    r.timing.samplesMs = {2.25, 2.5, 3};
    expect(timeText(r) == "2.5000", "table time without an interval");
    expect(timeJson(r) ==
               ",\"time_ms\":2.5,\"time_min_ms\":2.25,\"time_max_ms\":3",
           "JSON time without an interval");
    r.ciLoMs = 2.25, r.ciHiMs = 3;
    expect(timeText(r) == "2.5000 [2.2500, 3.0000]", "table time [lo, hi]");
    expect(timeJson(r) == ",\"time_ms\":2.5,\"time_min_ms\":2.25,"
                          "\"time_max_ms\":3,\"time_ci_ms\":[2.25,3],"
                          "\"launches\":3",
           "JSON time_ci_ms and launches");
  }
  expect(jsonNum(std::nan("")) == "null", "JSON non-finite as null");

  if (failures) {
    std::fprintf(stderr, "lns-examples: self-check: %d of %d checks failed\n",
                 failures, checks);
    return 1;
  }
  std::printf("self-check: %d checks passed\n", checks);
  return 0;
}

// ---------------------------------------------------------------------------
// The GPU runs.
// ---------------------------------------------------------------------------

std::unique_ptr<Module> loadModule(const std::shared_ptr<Context> &ctx,
                                   const std::string &dir,
                                   const std::string &name) {
  return take(Module::load(ctx, dir + "/" + name + ".manifest.json"), name);
}

/// Device buffer from a host vector.
template <class T>
DeviceBuffer upload(const std::shared_ptr<Context> &ctx,
                    const std::vector<T> &v, ScalarType type,
                    const std::string &what) {
  return take(DeviceBuffer::fromHost(ctx, v.data(), v.size(), type),
              "upload " + what);
}

/// λ values to run a kernel at: {0, λmax/2, λmax} (or {0, λmax}).
std::vector<int64_t> lambdas(Module &m, const std::string &kernel,
                             const LaunchConfig &cfg, bool withMiddle) {
  OccupancyInfo occ =
      take(lambdaBound(m, kernel, cfg, "lambda"), kernel + ": λ bound");
  std::vector<int64_t> l = {0};
  if (withMiddle && occ.lambdaMax >= 2)
    l.push_back(occ.lambdaMax / 2);
  if (occ.lambdaMax > 0)
    l.push_back(occ.lambdaMax);
  return l;
}

/// Times a launch (poisoning `out` before each) as `rep` says, then runs it
/// once more on a poisoned output for the results.
Run timeAndRun(Module &m, const std::string &variant, const std::string &kernel,
               int64_t lambda, const LaunchConfig &cfg,
               const std::vector<Arg> &args,
               const std::vector<DeviceBuffer *> &outs, const Repeat &rep) {
  LaunchOptions opts;
  if (lambda >= 0)
    opts.knobs["lambda"] = lambda;
  auto poison = [&]() -> Status {
    for (DeviceBuffer *b : outs)
      APPROX_RETURN_IF_ERROR(b->fill32(0xffffffffu));
    return Status::ok();
  };
  TimingOptions t;
  t.warmup = rep.warmup;
  t.reps = rep.reps;
  Run r{variant, kernel, lambda, {}};
  // With --until-ci, as approx-tune's KernelEvaluator times each λ.
  const Tightness tight{rep.untilCi, rep.maxReps};
  r.timing = take(timeUntilTight(m, kernel, cfg, args, t, tight, poison, opts),
                  kernel + ": timing");
  if (rep.untilCi > 0)
    std::tie(r.ciLoMs, r.ciHiMs) = medianInterval(r.timing.samplesMs);
  check(poison(), kernel + ": poison");
  check(m.launchSync(kernel, cfg, args, opts), kernel + ": launch");
  return r;
}

struct Options {
  Sizes z;
  std::string kernelsDir, jsonPath, writeModelDir;
  bool selfCheck = false;
  int modelItems = 4;
  Repeat rep;
};

int runGpu(const Options &o) {
  const Sizes &z = o.z;
  if (z.states > 1024)
    fail("--states must be at most 1024 (one thread per state, and the "
         "kernels' workgroup buffer holds 2 x 1024)",
         2);
  check(probeDriver(), "driver");
  std::shared_ptr<Context> ctx = take(Context::create(0), "context");
  const DeviceInfo &dev = ctx->device();
  std::unique_ptr<Module> hmmLns =
      loadModule(ctx, o.kernelsDir, "hmm_forward.lns");
  std::unique_ptr<Module> hmmF32 =
      loadModule(ctx, o.kernelsDir, "hmm_forward.f32");
  std::unique_ptr<Module> dotLns = loadModule(ctx, o.kernelsDir, "lns_dot.lns");
  std::unique_ptr<Module> dotF32 = loadModule(ctx, o.kernelsDir, "lns_dot.f32");

  std::vector<std::string> failures;
  std::ostringstream js;
  const Repeat &rep = o.rep;
  if (rep.untilCi > 0)
    std::printf("# LNS examples on %s (sm_%d%d, %d SMs, driver %d), seed %llu, "
                "median of %d to %d launches after %d warm-up, until its 95%% "
                "interval is within ±%g%% (in brackets)\n\n",
                dev.name.c_str(), dev.ccMajor, dev.ccMinor, dev.smCount,
                dev.driverVersion, (unsigned long long)z.seed, rep.reps,
                rep.maxReps, rep.warmup, 100 * rep.untilCi);
  else
    std::printf("# LNS examples on %s (sm_%d%d, %d SMs, driver %d), seed %llu, "
                "median of %d launches after %d warm-up\n\n",
                dev.name.c_str(), dev.ccMajor, dev.ccMinor, dev.smCount,
                dev.driverVersion, (unsigned long long)z.seed, rep.reps,
                rep.warmup);
  js << "{\"device\":" << jsonStr(dev.name)
     << ",\"driver\":" << dev.driverVersion << ",\"seed\":" << z.seed
     << ",\"reps\":" << rep.reps << ",\"warmup\":" << rep.warmup;
  if (rep.untilCi > 0)
    js << ",\"until_ci\":" << jsonNum(rep.untilCi)
       << ",\"max_reps\":" << rep.maxReps
       << ",\"interval\":\"95% percentile bootstrap of the median (2000 "
          "resamples, fixed seed)\"";

  // ---------------- HMM forward ----------------
  {
    Hmm h = makeHmm(z.states, z.symbols, z.steps, z.batch, z.seed);
    std::vector<long double> ref = hmmReferenceLog2(h);
    std::vector<float> la2(h.a.size()), lb2(h.b.size()), lpi2(h.pi.size());
    std::vector<float> laE(h.a.size()), lbE(h.b.size()), lpiE(h.pi.size());
    auto fill = [](const std::vector<double> &p, std::vector<float> &l2,
                   std::vector<float> &le) {
      for (size_t i = 0; i < p.size(); ++i) {
        l2[i] = float(std::log2(p[i]));
        le[i] = float(std::log(p[i]));
      }
    };
    fill(h.a, la2, laE);
    fill(h.b, lb2, lbE);
    fill(h.pi, lpi2, lpiE);
    const int k = std::min(o.modelItems, h.batch);
    std::vector<float> model(static_cast<size_t>(k));
#pragma omp parallel for
    for (int s = 0; s < k; ++s)
      model[size_t(s)] = hmmLnsModel(h, la2, lb2, lpi2, s);

    DeviceBuffer dLa2 = upload(ctx, la2, ScalarType::F32, "log2 A");
    DeviceBuffer dLb2 = upload(ctx, lb2, ScalarType::F32, "log2 B");
    DeviceBuffer dLpi2 = upload(ctx, lpi2, ScalarType::F32, "log2 pi");
    DeviceBuffer dLaE = upload(ctx, laE, ScalarType::F32, "ln A");
    DeviceBuffer dLbE = upload(ctx, lbE, ScalarType::F32, "ln B");
    DeviceBuffer dLpiE = upload(ctx, lpiE, ScalarType::F32, "ln pi");
    DeviceBuffer dObs = upload(ctx, h.obs, ScalarType::I32, "observations");
    DeviceBuffer dOut =
        take(DeviceBuffer::allocate(ctx, size_t(h.batch) * 4, ScalarType::F32),
             "alloc output");
    const int64_t n = h.n, m = h.m, t = h.t, b = h.batch;
    auto args = [&](bool natural) {
      return std::vector<Arg>{
          Arg::memref((natural ? dLaE : dLa2).view(), {n, n}),
          Arg::memref((natural ? dLbE : dLb2).view(), {n, m}),
          Arg::memref((natural ? dLpiE : dLpi2).view(), {n}),
          Arg::memref(dObs.view(), {b, t}), Arg::memref(dOut.view(), {b})};
    };
    LaunchConfig cfg;
    cfg.grid = {unsigned(h.batch), 1, 1};
    cfg.block = {unsigned((h.n + 31) / 32 * 32), 1, 1};

    std::printf(
        "## HMM forward: N=%d states, M=%d symbols, T=%d steps, %d "
        "sequences\n\n"
        "Errors of the per-sequence log2-likelihood against the long double "
        "scaled forward; rel lik: |2^e - 1|, the likelihood's relative error; "
        "vs model: max |kernel - f32 model with exact sb| over the first %d "
        "sequences (the error of the sb evaluation alone).\n\n"
        "| variant | λ | time ms | max abs err | mean abs err | max rel lik | "
        "mean rel lik | vs model | non-finite |\n"
        "|---|---|---|---|---|---|---|---|---|\n",
        h.n, h.m, h.t, h.batch, k);
    js << ",\"hmm\":{\"states\":" << h.n << ",\"symbols\":" << h.m
       << ",\"steps\":" << h.t << ",\"batch\":" << h.batch
       << ",\"model_sequences\":" << k << ",\"variants\":[";
    bool first = true;
    auto one = [&](Module &mod, const std::string &variant,
                   const std::string &kernel, int64_t lambda, bool natural,
                   bool lns) {
      Run r = timeAndRun(mod, variant, kernel, lambda, cfg, args(natural),
                         {&dOut}, rep);
      std::vector<float> got(static_cast<size_t>(h.batch));
      check(dOut.copyToHost(got.data(), got.size() * 4), kernel + ": download");
      HmmErr e = hmmErrors(got, ref);
      double vsModel = std::nan(""), vsModelRel = 0, refRel = 0;
      if (lns && k > 0) {
        vsModel = 0;
        for (int s = 0; s < k; ++s) {
          double d =
              std::fabs(double(got[size_t(s)]) - double(model[size_t(s)]));
          vsModel = std::max(vsModel, d);
          vsModelRel =
              std::max(vsModelRel,
                       d / std::max(1.0, std::fabs(double(model[size_t(s)]))));
        }
      }
      for (size_t s = 0; s < got.size(); ++s)
        if (std::isfinite(got[s]))
          refRel = std::max(refRel, double(std::fabs(got[s] - ref[s]) /
                                           std::max(1.0L, std::fabs(ref[s]))));
      std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %d |\n",
                  variant.c_str(),
                  lambda >= 0 ? std::to_string(lambda).c_str() : "-",
                  timeText(r).c_str(), fmtG(e.maxAbs).c_str(),
                  fmtG(e.meanAbs).c_str(), fmtG(e.maxRel).c_str(),
                  fmtG(e.meanRel).c_str(), fmtG(vsModel).c_str(), e.nonfinite);
      std::fflush(stdout);
      js << (first ? "" : ",") << "{\"variant\":" << jsonStr(variant)
         << ",\"kernel\":" << jsonStr(kernel)
         << ",\"lambda\":" << (lambda >= 0 ? std::to_string(lambda) : "null")
         << timeJson(r) << ",\"max_abs_err_log2\":" << jsonNum(e.maxAbs)
         << ",\"mean_abs_err_log2\":" << jsonNum(e.meanAbs)
         << ",\"max_rel_err_lik\":" << jsonNum(e.maxRel)
         << ",\"mean_rel_err_lik\":" << jsonNum(e.meanRel)
         << ",\"max_abs_vs_model\":" << jsonNum(vsModel)
         << ",\"nonfinite\":" << e.nonfinite << "}";
      first = false;
      if (e.nonfinite)
        failures.push_back(variant + ": " + std::to_string(e.nonfinite) +
                           " non-finite log-likelihoods");
      if (kernel == "hmm_lns_precise" && !(vsModelRel <= kSanityRel))
        failures.push_back(
            "lns precise: |kernel - f32 model| / |log-likelihood| " +
            fmtG(vsModelRel) + " above the sanity bound " + fmtG(kSanityRel));
      if (kernel == "hmm_f32_logsumexp" && lambda == 0 &&
          !(refRel <= kSanityRel))
        failures.push_back("f32 logsumexp at λ=0: |error| / |log-likelihood| " +
                           fmtG(refRel) + " above the sanity bound " +
                           fmtG(kSanityRel));
    };
    const char *impls[] = {"texture2", "texture1", "horner", "sfu", "precise"};
    const char *labels[] = {
        "lns texture2 (64 seg/unit)", "lns texture1 (256 seg/unit)",
        "lns horner (1 seg/unit, degree 5)", "lns sfu", "lns precise"};
    for (int i = 0; i < 5; ++i)
      one(*hmmLns, labels[i], std::string("hmm_lns_") + impls[i], -1, false,
          true);
    for (int64_t l : lambdas(*hmmLns, "hmm_lns_split", cfg, true))
      one(*hmmLns,
          l == 0 ? "lns split (all SFU)" : "lns split (texture2 below λ)",
          "hmm_lns_split", l, false, true);
    for (int64_t l : lambdas(*hmmF32, "hmm_f32_logsumexp", cfg, false))
      one(*hmmF32, l == 0 ? "f32 logsumexp (precise)" : "f32 logsumexp (SFU)",
          "hmm_f32_logsumexp", l, true, false);
    js << "]}";
    std::printf("\n");
  }

  // ---------------- LNS dot ----------------
  {
    Dot d = makeDot(z.rows, z.cols, z.seed);
    std::vector<long double> ref, absSum;
    dotReference(d, ref, absSum);
    std::vector<float> la, lx;
    std::vector<int8_t> sa, sx;
    encodeLns(d.a, la, sa);
    encodeLns(d.x, lx, sx);
    std::vector<float> af(d.a.begin(), d.a.end()), xf(d.x.begin(), d.x.end());
    const int k = std::min(o.modelItems * 256, d.rows);
    std::vector<double> model(static_cast<size_t>(k));
#pragma omp parallel for
    for (int r = 0; r < k; ++r)
      model[size_t(r)] = dotLnsModel(d, la, sa, lx, sx, r);

    DeviceBuffer dLa = upload(ctx, la, ScalarType::F32, "log2|A|");
    DeviceBuffer dSa = upload(ctx, sa, ScalarType::I8, "sign A");
    DeviceBuffer dLx = upload(ctx, lx, ScalarType::F32, "log2|x|");
    DeviceBuffer dSx = upload(ctx, sx, ScalarType::I8, "sign x");
    DeviceBuffer dA = upload(ctx, af, ScalarType::F32, "A");
    DeviceBuffer dX = upload(ctx, xf, ScalarType::F32, "x");
    const size_t R = size_t(d.rows);
    DeviceBuffer dLy =
        take(DeviceBuffer::allocate(ctx, R * 4, ScalarType::F32), "alloc y");
    // Signs padded to a multiple of 4 bytes: poisoning fills 32-bit words.
    DeviceBuffer dSy =
        take(DeviceBuffer::allocate(ctx, (R + 3) / 4 * 4, ScalarType::I8),
             "alloc sign y");
    DeviceBuffer dY = take(DeviceBuffer::allocate(ctx, R * 4, ScalarType::F32),
                           "alloc y f32");
    const int64_t rows = d.rows, cols = d.cols;
    std::vector<Arg> lnsArgs = {Arg::memref(dLa.view(), {cols, rows}),
                                Arg::memref(dSa.view(), {cols, rows}),
                                Arg::memref(dLx.view(), {cols}),
                                Arg::memref(dSx.view(), {cols}),
                                Arg::memref(dLy.view(), {rows}),
                                Arg::memref(dSy.view(), {rows})};
    std::vector<Arg> f32Args = {Arg::memref(dA.view(), {cols, rows}),
                                Arg::memref(dX.view(), {cols}),
                                Arg::memref(dY.view(), {rows})};
    LaunchConfig cfg;
    cfg.block = {256, 1, 1};
    cfg.grid = {unsigned((d.rows + 255) / 256), 1, 1};

    std::printf(
        "## LNS dot: y = A x, %d x %d, N(0,1) entries (1%% zeros in A)\n\n"
        "Errors against the long double sums of the double data; rel: relative "
        "to |y| over the rows where |y| >= 1e-3 rms(y) (the others counted in "
        "'left out'); /sum|ax|: relative to sum_c |A[r][c] x[c]|; vs model: "
        "max "
        "|kernel - f32 model with exact sb/db| / sum|ax| over the first %d "
        "rows.\n\n"
        "| variant | λ | time ms | max abs err | mean abs err | max rel | "
        "left out | max err/sum abs | vs model | non-finite |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n",
        d.rows, d.cols, k);
    js << ",\"dot\":{\"rows\":" << d.rows << ",\"cols\":" << d.cols
       << ",\"model_rows\":" << k << ",\"variants\":[";
    bool first = true;
    auto one = [&](Module &mod, const std::string &variant,
                   const std::string &kernel, int64_t lambda, bool lns) {
      std::vector<DeviceBuffer *> outs;
      if (lns)
        outs = {&dLy, &dSy};
      else
        outs = {&dY};
      Run r = timeAndRun(mod, variant, kernel, lambda, cfg,
                         lns ? lnsArgs : f32Args, outs, rep);
      std::vector<double> got(R);
      if (lns) {
        std::vector<float> ly(R);
        std::vector<int8_t> sy(R);
        check(dLy.copyToHost(ly.data(), R * 4), kernel + ": download");
        check(dSy.copyToHost(sy.data(), R), kernel + ": download");
        for (size_t i = 0; i < R; ++i) {
          double mag = std::exp2(double(ly[i]));
          // A poisoned sign byte (0xff) is neither 0 nor 1: count it.
          got[i] = sy[i] == 0 ? mag : sy[i] == 1 ? -mag : std::nan("");
        }
      } else {
        std::vector<float> y(R);
        check(dY.copyToHost(y.data(), R * 4), kernel + ": download");
        got.assign(y.begin(), y.end());
      }
      DotErr e = dotErrors(got, ref, absSum);
      double vsModel = std::nan("");
      if (lns && k > 0) {
        vsModel = 0;
        for (int i = 0; i < k; ++i)
          if (absSum[size_t(i)] > 0)
            vsModel =
                std::max(vsModel, std::fabs(got[size_t(i)] - model[size_t(i)]) /
                                      double(absSum[size_t(i)]));
      }
      std::printf("| %s | %s | %s | %s | %s | %s | %d | %s | %s | %d |\n",
                  variant.c_str(),
                  lambda >= 0 ? std::to_string(lambda).c_str() : "-",
                  timeText(r).c_str(), fmtG(e.maxAbs).c_str(),
                  fmtG(e.meanAbs).c_str(), fmtG(e.maxRel).c_str(), e.excluded,
                  fmtG(e.maxNorm).c_str(), fmtG(vsModel).c_str(), e.nonfinite);
      std::fflush(stdout);
      js << (first ? "" : ",") << "{\"variant\":" << jsonStr(variant)
         << ",\"kernel\":" << jsonStr(kernel)
         << ",\"lambda\":" << (lambda >= 0 ? std::to_string(lambda) : "null")
         << timeJson(r) << ",\"max_abs_err\":" << jsonNum(e.maxAbs)
         << ",\"mean_abs_err\":" << jsonNum(e.meanAbs)
         << ",\"max_rel_err\":" << jsonNum(e.maxRel)
         << ",\"rel_rows_left_out\":" << e.excluded
         << ",\"max_err_over_abs_sum\":" << jsonNum(e.maxNorm)
         << ",\"max_vs_model_over_abs_sum\":" << jsonNum(vsModel)
         << ",\"nonfinite\":" << e.nonfinite << "}";
      first = false;
      if (e.nonfinite)
        failures.push_back(variant + " (dot): " + std::to_string(e.nonfinite) +
                           " non-finite or unwritten outputs");
      if (kernel == "dot_lns_precise" && k > 0 && !(vsModel <= kSanityDot))
        failures.push_back("dot lns precise: |kernel - f32 model| / sum|ax| " +
                           fmtG(vsModel) + " above the sanity bound " +
                           fmtG(kSanityDot));
      if (kernel == "dot_f32" && !(e.maxNorm <= kSanityDot))
        failures.push_back("dot f32: max err / sum|ax| " + fmtG(e.maxNorm) +
                           " above the sanity bound " + fmtG(kSanityDot));
    };
    const char *impls[] = {"texture2", "texture1", "horner", "sfu", "precise"};
    const char *labels[] = {
        "lns texture2 (64 seg/unit)", "lns texture1 (256 seg/unit)",
        "lns horner (1 seg/unit, degree 5)", "lns sfu", "lns precise"};
    for (int i = 0; i < 5; ++i)
      one(*dotLns, labels[i], std::string("dot_lns_") + impls[i], -1, true);
    for (int64_t l : lambdas(*dotLns, "dot_lns_split", cfg, true))
      one(*dotLns,
          l == 0 ? "lns split (all SFU)" : "lns split (texture2 below λ)",
          "dot_lns_split", l, true);
    one(*dotF32, "f32 fma", "dot_f32", -1, false);
    js << "]}";
    std::printf("\n");
  }
  js << ",\"failures\":[";
  for (size_t i = 0; i < failures.size(); ++i)
    js << (i ? "," : "") << jsonStr(failures[i]);
  js << "]}\n";

  if (!o.jsonPath.empty()) {
    FILE *f = std::fopen(o.jsonPath.c_str(), "w");
    if (!f || std::fputs(js.str().c_str(), f) < 0 || std::fclose(f) != 0)
      fail("cannot write " + o.jsonPath);
  }
  if (!failures.empty()) {
    std::string all;
    for (const std::string &s : failures)
      all += (all.empty() ? "" : "; ") + s;
    fail(std::to_string(failures.size()) + " check(s) failed: " + all);
  }
  return 0;
}

[[noreturn]] void usage(const std::string &why) {
  fail(
      why +
          " (usage: lns-examples KERNELS_DIR | --self-check | --write-model DIR"
          " [--states N] [--symbols M] [--steps T] [--batch B] [--rows R]"
          " [--cols C] [--seed S] [--reps K] [--warmup W] [--model-items K]"
          " [--until-ci R] [--max-reps M] [--json PATH])",
      2);
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  bool maxGiven = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage(a + " needs a value");
      return argv[++i];
    };
    auto integer = [&](long long lo, long long hi) -> long long {
      std::string v = value();
      char *end = nullptr;
      errno = 0;
      long long x = std::strtoll(v.c_str(), &end, 10);
      if (errno || end == v.c_str() || *end || x < lo || x > hi)
        usage(a + " wants an integer in [" + std::to_string(lo) + ", " +
              std::to_string(hi) + "], not '" + v + "'");
      return x;
    };
    if (a == "--self-check")
      o.selfCheck = true;
    else if (a == "--write-model")
      o.writeModelDir = value();
    else if (a == "--json")
      o.jsonPath = value();
    else if (a == "--states")
      o.z.states = int(integer(1, 1 << 20));
    else if (a == "--symbols")
      o.z.symbols = int(integer(1, 1 << 20));
    else if (a == "--steps")
      o.z.steps = int(integer(1, 1 << 20));
    else if (a == "--batch")
      o.z.batch = int(integer(1, 1 << 24));
    else if (a == "--rows")
      o.z.rows = int(integer(1, 1 << 26));
    else if (a == "--cols")
      o.z.cols = int(integer(1, 1 << 20));
    else if (a == "--seed")
      o.z.seed = uint64_t(integer(0, std::numeric_limits<long long>::max()));
    else if (a == "--reps")
      o.rep.reps = int(integer(1, 10000));
    else if (a == "--warmup")
      o.rep.warmup = int(integer(0, 10000));
    else if (a == "--max-reps") {
      o.rep.maxReps = int(integer(1, 100000));
      maxGiven = true;
    } else if (a == "--until-ci") {
      // A relative half-width strictly between 0 and 1 (0.01: ±1%).
      std::string v = value();
      char *end = nullptr;
      errno = 0;
      double x = std::strtod(v.c_str(), &end);
      if (errno || end == v.c_str() || *end || !(x > 0 && x < 1))
        usage(a +
              " wants a relative half-width between 0 and 1, e.g. 0.01, "
              "not '" +
              v + "'");
      o.rep.untilCi = x;
    } else if (a == "--model-items")
      o.modelItems = int(integer(0, 1 << 20));
    else if (!a.empty() && a[0] == '-')
      usage("unknown option " + a);
    else if (o.kernelsDir.empty())
      o.kernelsDir = a;
    else
      usage("more than one KERNELS_DIR");
  }
  // --max-reps bounds the launches --until-ci adds: never below --reps.
  if ((maxGiven || o.rep.untilCi > 0) && o.rep.maxReps < o.rep.reps)
    usage("--max-reps " + std::to_string(o.rep.maxReps) + " is below --reps " +
          std::to_string(o.rep.reps));
  if (o.selfCheck)
    return selfCheck(o.z);
  if (!o.writeModelDir.empty()) {
    Hmm h = makeHmm(o.z.states, o.z.symbols, o.z.steps, o.z.batch, o.z.seed);
    writeModel(o.writeModelDir, h, hmmReferenceLog2(h));
    std::printf(
        "wrote %s/{A,B,pi,obs,loglik}.csv and meta.json: N=%d M=%d T=%d, "
        "%d sequences, seed %llu\n",
        o.writeModelDir.c_str(), h.n, h.m, h.t, h.batch,
        (unsigned long long)h.seed);
    return 0;
  }
  if (o.kernelsDir.empty())
    usage("no KERNELS_DIR");
  return runGpu(o);
}
