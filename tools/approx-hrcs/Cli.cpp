//===- Cli.cpp - Options shared by approx-hrcs and approx-hrcs-mpi --------===//
#include "Cli.h"

#include "approx/Support/Cli.h"

#include <algorithm>
#ifdef APPROX_HRCS_HAS_CUDA
#include "approx/hrcs/GpuSearch.h"
#endif

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace approx::hrcs {
namespace {

/// The --help text.
std::string usage(const char *tool) {
  return std::string("usage: ") + tool +
         " --function F --domain LO,HI -o DIR [options]\n"
         "  --function F          " +
         knownFunctions() +
         "\n"
         "  --domain LO,HI        [LO, HI), of one sign: one binade or "
         "several\n"
         "                        (hex floats ok)\n"
         "  --arg-precision P     precision of the arguments (default 53)\n"
         "  --precision Q         boundaries are precision-Q numbers (default "
         "P;\n"
         "                        P+1 covers every rounding mode of a P-bit "
         "result)\n"
         "  --emin E              results below 2^E use binade 2^E's grid "
         "(IEEE\n"
         "                        subnormals: -1022 for binary64; default "
         "none)\n"
         "  --epsilon E           distance bound in ulps of precision Q "
         "(default 0x1p-32)\n"
         "  --algorithm A         lefevre | regular | auto (default regular)\n"
         "  --interval-bits B     log2 of the phase-1 interval (default: per "
         "piece)\n"
         "  --split S             phase-2 sub-intervals per interval (default "
         "8)\n"
         "  --packet-bits B       log2 of intervals per packet\n"
         "  --division-threshold K  hybrid division threshold, 0 to 16 "
         "(default 3)\n"
         "  --backend cpu|gpu     (default cpu; gpu needs a CUDA build)\n"
         "  --threads T           CPU threads (polynomials; the cpu backend's\n"
         "                        search too), 1 to 1024 (default 1)\n"
         "  --device D            CUDA device of the gpu backend (default 0)\n"
         "  --devices D,D,...     several GPUs of this node at once, one host\n"
         "                        thread each (approx-hrcs, gpu backend)\n"
         "  --max-interval-bits B cap one GPU launch at 2^B intervals, 0 to "
         "32\n"
         "                        (default: from free memory; halved on\n"
         "                        out-of-memory)\n"
         "  --check               also run MPFR on every argument and compare\n"
         "  --check-gpu           also brute-force every argument on the GPU\n"
         "                        (double + MPFR where undecided; p <= 24)\n"
         "  --resume              continue the checkpoint in DIR\n"
         "  --quiet               no progress lines\n"
         "Integers are decimal; the search checks the precisions, the split "
         "and\n"
         "the domain. Errors are one line on stderr, exit status 2.\n";
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

} // namespace

int parseCli(int argc, char **argv, const char *tool, Cli &c) {
  namespace cli = approx::cli;
  cli::CommandLine cl{cli::Tool{tool}, "hard-to-round case search",
                      usage(tool)};
  // Plan::init checks the precisions, the split, epsilon and the domain
  // with messages of its own; here only their syntax.
  const int64_t kAny = 1000000;
  std::string domain;
  cl.required(cl.text("--function", c.sp.function));
  cl.required(cl.text("--domain", domain));
  cl.integer("--arg-precision", c.sp.argPrecision, -kAny, kAny);
  cl.integer("--precision", c.sp.precision, -kAny, kAny);
  cl.integer("--emin", c.sp.emin, -kAny, kAny);
  cl.text("--epsilon", c.sp.epsilon);
  cl.text("--algorithm", c.sp.algorithm);
  cl.integer("--interval-bits", c.sp.intervalBits, -kAny, kAny);
  cl.integer("--split", c.sp.split, -kAny, kAny);
  cl.integer("--packet-bits", c.sp.packetBits, -kAny, kAny);
  cl.integer("--division-threshold", c.sp.divisionThreshold, -kAny, kAny);
  cl.choice("--backend", c.backend, {"cpu", "gpu"});
  cl.integer("--device", c.device, 0, kAny);
  cl.value("--devices", [&](const std::string &v) {
    c.devices = cli::parseList(v, "--devices", [](const std::string &d) {
      return int(cli::parseInt(d, "--devices", 0, 1000000));
    });
  });
  cl.integer("--max-interval-bits", c.maxIntervalBits, 0, 32);
  cl.integer("--threads", c.ro.threads, 1, 1024);
  cl.required(cl.text("-o,--output", c.ro.outDir));
  cl.flag("--resume", c.ro.resume);
  cl.flag("--check", c.check);
  cl.flag("--check-gpu", c.checkGpu);
  bool quiet = false;
  cl.flag("--quiet", quiet);
  cl.check([&] {
    for (size_t i = 0; i < c.devices.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (c.devices[i] == c.devices[j])
          cli::usageError("--devices: device " + std::to_string(c.devices[i]) +
                          " is named twice");
    size_t comma = domain.find(',');
    if (comma == std::string::npos)
      cli::usageError("--domain wants LO,HI, not " + cli::quote(domain));
    c.sp.lo = domain.substr(0, comma);
    c.sp.hi = domain.substr(comma + 1);
    if (!c.devices.empty() && c.backend != "gpu")
      cli::usageError("--devices needs --backend gpu");
  });
  int status = cl.parse(argc, argv);
  c.ro.progress = !quiet;
  return status;
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
