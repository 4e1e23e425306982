//===- Cli.cpp - Options shared by approx-hrcs and approx-hrcs-mpi --------===//
#include "Cli.h"

#include <algorithm>
#ifdef APPROX_HRCS_HAS_CUDA
#include "approx/hrcs/GpuSearch.h"
#endif

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace approx::hrcs {
namespace {

void usage(FILE *f, const char *tool) {
  std::fprintf(
      f,
      "usage: %s --function F --domain LO,HI -o DIR [options]\n"
      "  --function F          %s\n"
      "  --domain LO,HI        [LO, HI), of one sign: one binade or several\n"
      "                        (hex floats ok)\n"
      "  --arg-precision P     precision of the arguments (default 53)\n"
      "  --precision Q         boundaries are precision-Q numbers (default P;\n"
      "                        P+1 covers every rounding mode of a P-bit result)\n"
      "  --emin E              results below 2^E use binade 2^E's grid (IEEE\n"
      "                        subnormals: -1022 for binary64; default none)\n"
      "  --epsilon E           distance bound in ulps of precision Q "
      "(default 0x1p-32)\n"
      "  --algorithm A         lefevre | regular | auto (default regular)\n"
      "  --interval-bits B     log2 of the phase-1 interval (default: per piece)\n"
      "  --split S             phase-2 sub-intervals per interval (default 8)\n"
      "  --packet-bits B       log2 of intervals per packet\n"
      "  --division-threshold K  hybrid division threshold, 0 to 16 (default 3)\n"
      "  --backend cpu|gpu     (default cpu; gpu needs a CUDA build)\n"
      "  --threads T           CPU threads (polynomials; the cpu backend's\n"
      "                        search too) (default 1)\n"
      "  --device D            CUDA device of the gpu backend (default 0)\n"
      "  --devices D,D,...     several GPUs of this node at once, one host\n"
      "                        thread each (approx-hrcs, gpu backend)\n"
      "  --max-interval-bits B cap one GPU launch at 2^B intervals (default:\n"
      "                        from free memory; halved on out-of-memory)\n"
      "  --check               also run MPFR on every argument and compare\n"
      "  --check-gpu           also brute-force every argument on the GPU\n"
      "                        (double + MPFR where undecided; p <= 24)\n"
      "  --resume              continue the checkpoint in DIR\n"
      "  --quiet               no progress lines\n",
      tool, knownFunctions().c_str());
}

/// One line on stderr, prefixed with the tool's name.
void say(const char *tool, const char *fmt, ...) {
  std::fprintf(stderr, "%s: ", tool);
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
  std::fputc('\n', stderr);
}

bool parseInt(const char *s, int &out) {
  char *end = nullptr;
  long v = std::strtol(s, &end, 10);
  if (!*s || *end || v < -1000000 || v > 1000000)
    return false;
  out = (int)v;
  return true;
}

} // namespace

int parseCli(int argc, char **argv, const char *tool, Cli &c) {
  std::string domain;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    const char *v = nullptr;
    auto value = [&](const char *name) {
      if (i + 1 >= argc) {
        say(tool, "%s needs a value", name);
        return false;
      }
      v = argv[++i];
      return true;
    };
    auto integer = [&](const char *name, int &out) {
      if (!value(name))
        return false;
      if (!parseInt(v, out)) {
        say(tool, "%s: '%s' is not an integer", name, v);
        return false;
      }
      return true;
    };
    int tmp = 0;
    bool ok = true;
    if (a == "--function")
      ok = value("--function") && (c.sp.function = v, true);
    else if (a == "--domain")
      ok = value("--domain") && (domain = v, true);
    else if (a == "--arg-precision")
      ok = integer("--arg-precision", c.sp.argPrecision);
    else if (a == "--precision")
      ok = integer("--precision", c.sp.precision);
    else if (a == "--emin")
      ok = integer("--emin", tmp) && (c.sp.emin = tmp, true);
    else if (a == "--epsilon")
      ok = value("--epsilon") && (c.sp.epsilon = v, true);
    else if (a == "--algorithm")
      ok = value("--algorithm") && (c.sp.algorithm = v, true);
    else if (a == "--interval-bits")
      ok = integer("--interval-bits", c.sp.intervalBits);
    else if (a == "--split")
      ok = integer("--split", c.sp.split);
    else if (a == "--packet-bits")
      ok = integer("--packet-bits", c.sp.packetBits);
    else if (a == "--division-threshold")
      ok = integer("--division-threshold", c.sp.divisionThreshold);
    else if (a == "--backend")
      ok = value("--backend") && (c.backend = v, true);
    else if (a == "--device")
      ok = integer("--device", c.device);
    else if (a == "--devices") {
      ok = value("--devices");
      std::string list = ok ? v : "";
      size_t at = 0;
      while (ok) {
        size_t comma = list.find(',', at);
        std::string item = list.substr(at, comma - at);
        int d = 0;
        if (!parseInt(item.c_str(), d) || d < 0) {
          say(tool, "--devices: '%s' is not a device number", item.c_str());
          ok = false;
        } else if (std::find(c.devices.begin(), c.devices.end(), d) !=
                   c.devices.end()) {
          say(tool, "--devices: device %d is named twice", d);
          ok = false;
        } else {
          c.devices.push_back(d);
        }
        if (comma == std::string::npos)
          break;
        at = comma + 1;
      }
    }
    else if (a == "--max-interval-bits")
      ok = integer("--max-interval-bits", c.maxIntervalBits);
    else if (a == "--threads")
      ok = integer("--threads", c.ro.threads);
    else if (a == "-o" || a == "--output")
      ok = value("-o") && (c.ro.outDir = v, true);
    else if (a == "--resume")
      c.ro.resume = true;
    else if (a == "--check")
      c.check = true;
    else if (a == "--check-gpu")
      c.checkGpu = true;
    else if (a == "--quiet")
      c.ro.progress = false;
    else if (a == "-h" || a == "--help") {
      usage(stdout, tool);
      return 0;
    } else {
      say(tool, "unknown option '%s' (see --help)", a.c_str());
      return 2;
    }
    if (!ok)
      return 2;
  }
  if (c.sp.function.empty() || domain.empty() || c.ro.outDir.empty()) {
    say(tool, "--function, --domain and -o are required (see --help)");
    return 2;
  }
  size_t comma = domain.find(',');
  if (comma == std::string::npos) {
    say(tool, "--domain wants LO,HI");
    return 2;
  }
  c.sp.lo = domain.substr(0, comma);
  c.sp.hi = domain.substr(comma + 1);
  if (c.ro.threads < 1 || c.ro.threads > 1024) {
    say(tool, "--threads out of range (1 to 1024)");
    return 2;
  }
  if (c.maxIntervalBits < 0 || c.maxIntervalBits > 32) {
    say(tool, "--max-interval-bits out of range (0 to 32)");
    return 2;
  }
  if (c.backend != "cpu" && c.backend != "gpu") {
    say(tool, "unknown backend '%s' (cpu or gpu)", c.backend.c_str());
    return 2;
  }
  if (!c.devices.empty() && c.backend != "gpu") {
    say(tool, "--devices needs --backend gpu");
    return 2;
  }
  return -1;
}

std::unique_ptr<Backend> makeBackend(const Cli &c, int device,
                                     const char *tool, int &status) {
  status = 1;
  if (c.backend == "cpu")
    return std::make_unique<CpuBackend>(c.ro.threads);
#ifdef APPROX_HRCS_HAS_CUDA
  std::string err;
  auto b = makeGpuBackend(err, device,
                          c.maxIntervalBits ? uint64_t(1) << c.maxIntervalBits
                                            : 0);
  if (!b)
    say(tool, "%s", err.c_str());
  return b;
#else
  (void)device;
  say(tool, "this build has no GPU backend (CUDA toolkit not found at "
            "configure time)");
  return nullptr;
#endif
}

std::unique_ptr<Backend> makeBackends(const Cli &c, const char *tool,
                                      int &status) {
  if (c.devices.size() < 2)
    return makeBackend(c, c.devices.empty() ? c.device : c.devices[0], tool,
                       status);
  std::vector<std::unique_ptr<Backend>> parts;
  for (int d : c.devices) {
    parts.push_back(makeBackend(c, d, tool, status));
    if (!parts.back())
      return nullptr;
  }
  return std::make_unique<SplitBackend>(std::move(parts));
}

void printReport(const Plan &plan, const Cli &c, const char *backend,
                 const PhaseStats &s, size_t cases, double seconds,
                 const std::string &wcPath) {
  std::printf("approx-hrcs: %s over [%s, %s): %llu arguments (p=%d), q=%d, "
              "epsilon=%s, backend %s\n",
              plan.function().name(), c.sp.lo.c_str(), c.sp.hi.c_str(),
              (unsigned long long)plan.argCount(), plan.argPrecision(),
              plan.precision(), c.sp.epsilon.c_str(), backend);
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
  std::printf("  HR cases: %zu (total %.3f s) -> %s\n", cases, seconds,
              wcPath.c_str());
}

} // namespace approx::hrcs
