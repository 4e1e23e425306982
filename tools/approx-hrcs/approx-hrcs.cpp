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
#include "Cli.h"
#ifdef APPROX_HRCS_HAS_CUDA
#include "approx/hrcs/GpuSearch.h"
#endif

#include <algorithm>
#include <malloc.h>
#include <cstdio>
#include <memory>
#include <string>

using namespace approx::hrcs;

int main(int argc, char **argv) {
  // Packet tables are large, short-lived blocks: keep freed ones in the heap
  // rather than returning them to the kernel (and faulting them in again).
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  Cli cli;
  int status = parseCli(argc, argv, "approx-hrcs", cli);
  if (status >= 0)
    return status;
  const SearchParams &sp = cli.sp;
  const RunOptions &ro = cli.ro;
  const bool check = cli.check, checkGpu = cli.checkGpu;
  // Every input is checked before a GPU is opened.
  Plan plan;
  std::string err;
  if (!plan.init(sp, cli.backend == "gpu", err)) {
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
  std::unique_ptr<Backend> backend = makeBackends(cli, "approx-hrcs", status);
  if (!backend)
    return status;
  RunResult res;
  if (!runSearch(plan, *backend, ro, res, err)) {
    std::fprintf(stderr, "approx-hrcs: %s\n", err.c_str());
    return 1;
  }
  printReport(plan, cli, backend->name(), res.stats, res.cases.size(),
              res.seconds, res.wcPath);
  // The search's cases as a set of argument indices, against a reference.
  auto compare = [&](const char *what, std::vector<uint64_t> want) {
    std::vector<uint64_t> got;
    for (const Case &c : res.cases)
      got.push_back(c.index);
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
