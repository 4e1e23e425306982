//===- approx-cr-tables.cpp - hard cases of the correctly rounded rung ----===//
//
// Writes the table behind `form(correct)` (passes/correct/): every binary32
// x whose f(x) lies within 2^-24 ulp of the 25-bit grid (i.e. 2^-25 of an
// f32 ulp) from a round-to-nearest midpoint, with its correctly rounded
// result. The cases come from the hard-to-round search (hrcs/) run over
// every binade of the domain where they can occur, and each is confirmed
// here again with MPFR. docs/hrcs.md ("The correctly rounded rung") says
// why that bound covers the lowering's fast path, and why the arguments left
// out cannot be near a midpoint.
//
//   approx-cr-tables --function exp|exp2|log|log2 [--threads T] -o FILE
//
//===----------------------------------------------------------------------===//

#include "approx/Support/Cli.h"
#include "approx/hrcs/Search.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

using namespace approx::hrcs;

namespace {

const char *kTool = "approx-cr-tables";
/// The table's bound, in ulps of the 25-bit grid (see the header comment).
const char *kEpsilon = "0x1p-24";
constexpr double kLog2Epsilon = -24;

/// One search domain: [lo, hi) of one binade at argument precision p.
struct Domain {
  std::string lo, hi;
  int p;
};

std::string hexFloat(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%a", v);
  return b;
}

/// The binades of binary32 arguments of one sign with magnitude in
/// [2^e0, min(2^e1, clip)]: `clip` (a float; 0: none) ends the last one.
void binades(std::vector<Domain> &out, int sign, int e0, int e1,
             double clip = 0) {
  for (int e = e0; e < e1; ++e) {
    // Subnormal binades have fewer bits: spacing 2^-149.
    int p = e >= -126 ? 24 : e + 150;
    double a = std::ldexp(1.0, e), b = std::ldexp(1.0, e + 1);
    double ulp = std::ldexp(1.0, e - p + 1);
    if (clip > 0 && clip <= a)
      break;
    if (sign > 0) {
      // [2^e, b) with b the binade's end or the clip (excluded).
      out.push_back({hexFloat(a), hexFloat(clip > 0 && clip < b ? clip : b),
                     p});
    } else {
      // [-top, -2^e]: hi lies between -2^e and the next argument up.
      double top = clip > 0 && clip < b ? clip : b - ulp;
      out.push_back({hexFloat(-top), hexFloat(-a + ulp / 2), p});
    }
  }
}

/// The domain searched for `fn` (docs/hrcs.md gives the reasoning for
/// each limit).
bool domains(const std::string &fn, std::vector<Domain> &out) {
  if (fn == "exp" || fn == "exp2") {
    // |x| < 2^-40: f(x) is within 2^-39.4 of 1 (a float), at least
    // 2^-25 - 2^-39.4 from the nearest midpoints 1 - 2^-25 and 1 + 2^-24.
    // x >= top: f(x) >= 2^128, infinity. x < -bottom: f(x) < 2^-158, within
    // 2^-8 ulp of 0 and far from the smallest midpoint, 2^-150.
    bool e = fn == "exp";
    double top = e ? 0x1.62e43p6 : 128.0;  // exp: 128 ln 2 < top
    double bottom = e ? 0x1.b8p6 : 158.0;  // 110, 158
    binades(out, +1, -40, 8, top);
    binades(out, -1, -40, 8, bottom);
    return true;
  }
  if (fn == "log" || fn == "log2") {
    // Every positive finite float, subnormals included.
    binades(out, +1, -149, 128);
    return true;
  }
  return false;
}

/// The distance of f(x) from the nearest round-to-nearest midpoint of
/// binary32 (subnormal grid below 2^-126), in ulps of the 25-bit grid, and
/// the correctly rounded f32 result (ties to even where f(x) is a midpoint).
/// MPFR at 200 bits; false when that cannot decide (a distance below
/// 2^-150 but not 0: never for these f).
bool midpoint(const Function &f, float x, double &log2Dist, float &rounded) {
  Real X(64), y(200), t(200), n(200);
  mpfr_set_flt(X, x, MPFR_RNDN);
  f.eval(y, X);
  if (mpfr_zero_p(y) || !mpfr_number_p(y)) {
    log2Dist = INFINITY;
    rounded = mpfr_get_flt(y, MPFR_RNDN);
    return true;
  }
  long E = std::max<long>(mpfr_get_exp(y) - 1, -126);
  // t = |y| / ulp_25: floats at even integers, midpoints at odd ones.
  mpfr_abs(t, y, MPFR_RNDN);
  mpfr_mul_2si(t, t, 24 - E, MPFR_RNDN);
  // Nearest odd integer: 2 floor(t / 2) + 1.
  mpfr_div_2ui(n, t, 1, MPFR_RNDN);
  mpfr_floor(n, n);
  mpfr_mul_2ui(n, n, 1, MPFR_RNDN);
  mpfr_add_ui(n, n, 1, MPFR_RNDN);
  mpfr_sub(n, t, n, MPFR_RNDN); // t - midpoint, exact at 200 bits
  int side = mpfr_sgn(n);
  if (side != 0 && mpfr_get_exp(n) < -150)
    return false;
  // An exact midpoint (exp2(-150) = 2^-150): distance -inf, ties to even.
  log2Dist = side ? std::log2(std::fabs(mpfr_get_d(n, MPFR_RNDN))) : -INFINITY;
  // Round to nearest: below the midpoint toward the float below it.
  mpfr_div_2ui(t, t, 1, MPFR_RNDN); // in f32 ulps
  mpfr_floor(t, t);
  Real half(200);
  mpfr_div_2ui(half, t, 1, MPFR_RNDN);
  if (side > 0 || (side == 0 && !mpfr_integer_p(half)))
    mpfr_add_ui(t, t, 1, MPFR_RNDN);
  mpfr_mul_2si(t, t, E - 23, MPFR_RNDN);
  if (mpfr_sgn(y) < 0)
    mpfr_neg(t, t, MPFR_RNDN);
  rounded = mpfr_get_flt(t, MPFR_RNDN); // exact, or >= 2^128: infinity
  if (std::fabs(mpfr_get_d(t, MPFR_RNDN)) >= 0x1p128)
    rounded = std::copysign(INFINITY, rounded);
  return true;
}

uint32_t bitsOf(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}

} // namespace

int main(int argc, char **argv) {
  std::string fn, out;
  int threads = 1;
  approx::cli::CommandLine cl{
      approx::cli::Tool{kTool},
      "Writes the hard cases of the correctly rounded binary32 form: every x "
      "whose f(x) is within 2^-24 ulp (25-bit grid) of a round-to-nearest "
      "midpoint, with its rounded result."};
  cl.required(cl.text("--function", fn, "exp, exp2, log or log2"));
  cl.required(
      cl.text("-o", out, "the table to write (FILE.tmp, renamed at the end)"));
  cl.integer("--threads", threads, 1, 1024, "search threads (default 1)");
  if (int status = cl.parse(argc, argv); status >= 0)
    return status;
  std::vector<Domain> doms;
  if (!domains(fn, doms))
    return cl.fail("no correctly rounded form for " + approx::cli::quote(fn) +
                   " (exp, exp2, log, log2)");
  const Function *f = lookupFunction(fn);
  // The output first (FILE.tmp, renamed at the end): a bad path fails now,
  // not after the search; a failed run removes it.
  std::string tmp = out + ".tmp";
  FILE *o = std::fopen(tmp.c_str(), "w");
  if (!o) {
    std::fprintf(stderr, "%s: cannot write '%s': %s\n", kTool, tmp.c_str(),
                 std::strerror(errno));
    return 1;
  }
  auto fail = [&]() {
    std::fclose(o);
    std::remove(tmp.c_str());
    return 1;
  };

  // x bits -> (result bits, log2 distance, x).
  struct Entry {
    uint32_t result;
    double log2Dist;
    float x;
  };
  std::map<uint32_t, Entry> table;
  uint64_t searched = 0;
  for (const Domain &d : doms) {
    std::vector<float> xs;
    if (d.p < 2) {
      xs.push_back(std::strtof(d.lo.c_str(), nullptr));
      searched += 1;
    } else {
      SearchParams sp;
      sp.function = fn;
      sp.lo = d.lo;
      sp.hi = d.hi;
      sp.argPrecision = d.p;
      sp.precision = 25;
      sp.emin = -126;
      sp.epsilon = kEpsilon;
      Plan plan;
      std::string error;
      if (!plan.init(sp, false, error)) {
        std::fprintf(stderr, "%s: %s over [%s, %s): %s\n", kTool, fn.c_str(),
                     d.lo.c_str(), d.hi.c_str(), error.c_str());
        return fail();
      }
      CpuBackend cpu(threads);
      RunOptions ro;
      ro.progress = false;
      ro.threads = threads;
      RunResult rr;
      if (!runSearch(plan, cpu, ro, rr, error)) {
        std::fprintf(stderr, "%s: %s over [%s, %s): %s\n", kTool, fn.c_str(),
                     d.lo.c_str(), d.hi.c_str(), error.c_str());
        return fail();
      }
      searched += plan.argCount();
      for (const Case &c : rr.cases)
        xs.push_back(std::strtof(c.argument.c_str(), nullptr));
    }
    for (float x : xs) {
      double dist;
      float r;
      if (!midpoint(*f, x, dist, r)) {
        std::fprintf(stderr, "%s: %s(%a) is too close to a midpoint to "
                     "decide at 200 bits\n", kTool, fn.c_str(), x);
        return fail();
      }
      // Cases near a float (not a midpoint) do not matter to rounding to
      // nearest.
      if (dist < kLog2Epsilon)
        table[bitsOf(x)] = {bitsOf(r), dist, x};
    }
  }

  std::fprintf(o,
               "// Generated by approx-cr-tables --function %s: do not edit.\n"
               "// Every binary32 x (%llu searched, docs/hrcs.md says which) "
               "whose %s(x)\n// lies within 2^-24 ulp of the 25-bit grid of a "
               "round-to-nearest\n// midpoint: {x bits, correctly rounded "
               "result bits}, x bits ascending.\n",
               fn.c_str(), (unsigned long long)searched, fn.c_str());
  for (const auto &[xb, e] : table) {
    char dist[32] = "an exact midpoint";
    if (!std::isinf(e.log2Dist))
      std::snprintf(dist, sizeof dist, "2^%.2f ulp", e.log2Dist);
    std::fprintf(o, "{0x%08xu, 0x%08xu}, // %s(%a): %s\n", xb, e.result,
                 fn.c_str(), e.x, dist);
  }
  bool ok = std::fflush(o) == 0;
  ok = std::fclose(o) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::remove(tmp.c_str());
    std::fprintf(stderr, "%s: cannot write '%s'\n", kTool, out.c_str());
    return 1;
  }
  std::fprintf(stderr, "%s: %s: %zu cases over %llu arguments -> %s\n", kTool,
               fn.c_str(), table.size(), (unsigned long long)searched,
               out.c_str());
  return 0;
}
