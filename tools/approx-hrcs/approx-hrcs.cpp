//===- approx-hrcs.cpp - Hard-to-round case search, command line ----------===//
//
// approx-hrcs --function exp --domain 0x1p0,0x1.002p0 --arg-precision 53
//             --precision 54 --epsilon 0x1p-32 -o out/ [--backend gpu]
//
// Finds every argument x of precision p in [lo, hi) (one binade, or a
// segment of one) whose f(x) lies within epsilon ulp_q of a precision-q
// number (q = p + 1 covers the boundaries of every rounding mode of a
// p-bit result). Writes out/<f>.wc and out/stats.json, checkpoints as it
// goes (--resume continues), prints per-phase counts and times.
//
//===----------------------------------------------------------------------===//
#include "approx/hrcs/Search.h"
#ifdef APPROX_HRCS_HAS_CUDA
#include "approx/hrcs/GpuSearch.h"
#endif

#include <algorithm>
#include <malloc.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

using namespace approx::hrcs;

static void usage(FILE *f) {
  std::fprintf(
      f,
      "usage: approx-hrcs --function F --domain LO,HI -o DIR [options]\n"
      "  --function F          %s\n"
      "  --domain LO,HI        [LO, HI) inside one binade (hex floats ok)\n"
      "  --arg-precision P     precision of the arguments (default 53)\n"
      "  --precision Q         boundaries are precision-Q numbers (default P;\n"
      "                        P+1 covers every rounding mode of a P-bit result)\n"
      "  --emin E              results below 2^E use binade 2^E's grid (IEEE\n"
      "                        subnormals: -1022 for binary64; default none)\n"
      "  --epsilon E           distance bound in ulps of precision Q "
      "(default 0x1p-32)\n"
      "  --algorithm A         lefevre | regular | auto (default auto)\n"
      "  --interval-bits B     log2 of the phase-1 interval (default: per piece)\n"
      "  --split S             phase-2 sub-intervals per interval (default 8)\n"
      "  --packet-bits B       log2 of intervals per packet\n"
      "  --division-threshold K  hybrid division threshold (default 3)\n"
      "  --backend cpu|gpu     (default cpu; gpu needs a CUDA build)\n"
      "  --threads T           CPU threads (polynomials; the cpu backend's\n"
      "                        search too) (default 1)\n"
      "  --device D            CUDA device of the gpu backend (default 0)\n"
      "  --max-interval-bits B cap one GPU launch at 2^B intervals (default:\n"
      "                        from free memory; halved on out-of-memory)\n"
      "  --check               also run MPFR on every argument and compare\n"
      "  --check-gpu           also brute-force every argument on the GPU\n"
      "                        (double + MPFR where undecided; p <= 24)\n"
      "  --resume              continue the checkpoint in DIR\n"
      "  --quiet               no progress lines\n",
      knownFunctions().c_str());
}

static bool parseInt(const char *s, int &out) {
  char *end = nullptr;
  long v = std::strtol(s, &end, 10);
  if (!*s || *end || v < -1000000 || v > 1000000)
    return false;
  out = (int)v;
  return true;
}

int main(int argc, char **argv) {
  // Packet tables are large, short-lived blocks: keep freed ones in the heap
  // rather than returning them to the kernel (and faulting them in again).
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  SearchParams sp;
  RunOptions ro;
  std::string backendName = "cpu", domain;
  bool check = false, checkGpu = false;
  int device = 0, maxIntervalBits = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *name) -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "approx-hrcs: %s needs a value\n", name);
        std::exit(2);
      }
      return argv[++i];
    };
    auto integer = [&](const char *name, int &out) {
      const char *v = value(name);
      if (!parseInt(v, out)) {
        std::fprintf(stderr, "approx-hrcs: %s: '%s' is not an integer\n", name,
                     v);
        std::exit(2);
      }
    };
    if (a == "--function")
      sp.function = value("--function");
    else if (a == "--domain")
      domain = value("--domain");
    else if (a == "--arg-precision")
      integer("--arg-precision", sp.argPrecision);
    else if (a == "--precision")
      integer("--precision", sp.precision);
    else if (a == "--emin") {
      int v = 0;
      integer("--emin", v);
      sp.emin = v;
    } else if (a == "--epsilon")
      sp.epsilon = value("--epsilon");
    else if (a == "--algorithm")
      sp.algorithm = value("--algorithm");
    else if (a == "--interval-bits")
      integer("--interval-bits", sp.intervalBits);
    else if (a == "--split")
      integer("--split", sp.split);
    else if (a == "--packet-bits")
      integer("--packet-bits", sp.packetBits);
    else if (a == "--division-threshold")
      integer("--division-threshold", sp.divisionThreshold);
    else if (a == "--backend")
      backendName = value("--backend");
    else if (a == "--device")
      integer("--device", device);
    else if (a == "--max-interval-bits")
      integer("--max-interval-bits", maxIntervalBits);
    else if (a == "--threads")
      integer("--threads", ro.threads);
    else if (a == "-o" || a == "--output")
      ro.outDir = value("-o");
    else if (a == "--resume")
      ro.resume = true;
    else if (a == "--check")
      check = true;
    else if (a == "--check-gpu")
      checkGpu = true;
    else if (a == "--quiet")
      ro.progress = false;
    else if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else {
      std::fprintf(stderr, "approx-hrcs: unknown option '%s' (see --help)\n",
                   a.c_str());
      return 2;
    }
  }
  if (sp.function.empty() || domain.empty() || ro.outDir.empty()) {
    std::fprintf(stderr,
                 "approx-hrcs: --function, --domain and -o are required (see "
                 "--help)\n");
    return 2;
  }
  size_t comma = domain.find(',');
  if (comma == std::string::npos) {
    std::fprintf(stderr, "approx-hrcs: --domain wants LO,HI\n");
    return 2;
  }
  sp.lo = domain.substr(0, comma);
  sp.hi = domain.substr(comma + 1);
  if (ro.threads < 1 || ro.threads > 1024) {
    std::fprintf(stderr, "approx-hrcs: --threads out of range (1 to 1024)\n");
    return 2;
  }
  std::unique_ptr<Backend> backend;
  if (backendName == "cpu") {
    backend = std::make_unique<CpuBackend>(ro.threads);
  } else if (backendName == "gpu") {
#ifdef APPROX_HRCS_HAS_CUDA
    std::string err;
    if (maxIntervalBits < 0 || maxIntervalBits > 32) {
      std::fprintf(stderr, "approx-hrcs: --max-interval-bits out of range "
                           "(0 to 32)\n");
      return 2;
    }
    backend = makeGpuBackend(
        err, device, maxIntervalBits ? uint64_t(1) << maxIntervalBits : 0);
    if (!backend) {
      std::fprintf(stderr, "approx-hrcs: %s\n", err.c_str());
      return 1;
    }
#else
    std::fprintf(stderr, "approx-hrcs: this build has no GPU backend (CUDA "
                         "toolkit not found at configure time)\n");
    return 1;
#endif
  } else {
    std::fprintf(stderr, "approx-hrcs: unknown backend '%s' (cpu or gpu)\n",
                 backendName.c_str());
    return 2;
  }
  Plan plan;
  std::string err;
  if (!plan.init(sp, backendName == "gpu", err)) {
    std::fprintf(stderr, "approx-hrcs: %s\n", err.c_str());
    return 1;
  }
  if (check && plan.argCount() > (uint64_t(1) << 26)) {
    std::fprintf(stderr,
                 "approx-hrcs: --check evaluates every argument with MPFR: "
                 "the domain holds %llu, more than 2^26\n",
                 (unsigned long long)plan.argCount());
    return 2;
  }
  RunResult res;
  if (!runSearch(plan, *backend, ro, res, err)) {
    std::fprintf(stderr, "approx-hrcs: %s\n", err.c_str());
    return 1;
  }
  const PhaseStats &s = res.stats;
  std::printf("approx-hrcs: %s over [%s, %s): %llu arguments (p=%d), q=%d, "
              "epsilon=%s, backend %s\n",
              plan.function().name(), sp.lo.c_str(), sp.hi.c_str(),
              (unsigned long long)plan.argCount(), plan.argPrecision(),
              plan.precision(), sp.epsilon.c_str(), backend->name());
  std::printf("  pieces %zu, units %zu, direct (MPFR) arguments %llu\n",
              plan.pieces().size(), plan.units().size(),
              (unsigned long long)s.direct);
  std::printf("  %-22s %14s %12s\n", "phase", "count", "seconds");
  std::printf("  %-22s %14s %12.3f\n", "polynomials", "-", s.polySeconds);
  std::printf("  %-22s %14llu %12.3f\n", "1 intervals",
              (unsigned long long)s.phase1, s.phase1Seconds);
  std::printf("  %-22s %14llu %12.3f\n", "2 intervals",
              (unsigned long long)s.phase2, s.phase2Seconds);
  std::printf("  %-22s %14llu %12.3f\n", "3 sub-intervals",
              (unsigned long long)s.phase3, s.phase3Seconds);
  std::printf("  %-22s %14llu %12.3f\n", "candidates (MPFR)",
              (unsigned long long)s.candidates, s.confirmSeconds);
  std::printf("  HR cases: %zu (total %.3f s) -> %s\n", res.cases.size(),
              res.seconds, res.wcPath.c_str());
  // The search's cases as a set of argument strings, against a reference.
  auto compare = [&](const char *what, const std::vector<uint64_t> &ref) {
    std::vector<std::string> want, got;
    Real x(plan.argPrecision() + 2);
    for (uint64_t j : ref) {
      plan.argument(x, j);
      char *t = nullptr;
      mpfr_asprintf(&t, "%Ra", x.get());
      want.push_back(t);
      mpfr_free_str(t);
    }
    for (const Case &c : res.cases)
      got.push_back(c.argument);
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    bool same = want == got;
    std::printf("  check: %s finds %zu cases: %s\n", what, want.size(),
                same ? "same set" : "MISMATCH");
    return same;
  };
  if (check && !compare("MPFR on every argument",
                        bruteForce(plan, 0, plan.argCount())))
    return 3;
  if (checkGpu) {
#ifdef APPROX_HRCS_HAS_CUDA
    std::vector<uint64_t> ref;
    uint64_t ambiguous = 0;
    if (!bruteForceGpu(plan, ref, ambiguous, err)) {
      std::fprintf(stderr, "approx-hrcs: %s\n", err.c_str());
      return 1;
    }
    std::printf("  check: GPU brute force, %llu arguments decided by MPFR\n",
                (unsigned long long)ambiguous);
    if (!compare("the GPU brute force", ref))
      return 3;
#else
    std::fprintf(stderr, "approx-hrcs: --check-gpu needs the GPU build\n");
    return 1;
#endif
  }
  return 0;
}
