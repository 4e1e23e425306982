//===- approx-hrcs-mpi.cpp - The hard-to-round search over MPI processes --===//
//
// mpirun -np P approx-hrcs-mpi <approx-hrcs options> -o DIR
//
// Process r searches the units u with u % P == r (the paper's cyclic
// decomposition) into DIR/rank-r (its own checkpoint: --resume resumes every
// rank, refused if P or the parameters changed), with the GPU backend on
// device r % (devices on its node). Rank 0 gathers the cases, writes
// DIR/<f>.wc sorted by argument (the same file a single process writes) and
// DIR/stats.json (counts summed, times of the slowest rank), and prints the
// table. Any rank's failure is reported by rank 0 as one line; all exit 1.
//
//===----------------------------------------------------------------------===//
#include "Cli.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <malloc.h>
#include <mpi.h>
#include <sstream>
#include <sys/stat.h>
#ifdef APPROX_HRCS_HAS_CUDA
#include <cuda_runtime.h>
#endif

using namespace approx::hrcs;

namespace {

/// Sends a string to rank 0 (which gets every rank's, in rank order).
std::vector<std::string> gather(const std::string &mine, int rank, int size) {
  int n = (int)mine.size();
  std::vector<int> sizes(size), offs(size);
  MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < size; ++r) {
      offs[r] = total;
      total += sizes[r];
    }
    all.resize(total);
  }
  MPI_Gatherv(mine.data(), n, MPI_CHAR, all.data(), sizes.data(), offs.data(),
              MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      out.push_back(all.substr(offs[r], sizes[r]));
  return out;
}

} // namespace

int main(int argc, char **argv) {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *tool = "approx-hrcs-mpi";
  auto finish = [&](int status) {
    MPI_Finalize();
    return status;
  };

  // Every rank parses (the same argv); only rank 0 speaks on bad options.
  Cli cli;
  if (rank != 0 && !std::freopen("/dev/null", "w", stderr))
    return finish(1);
  int status = parseCli(argc, argv, tool, cli);
  if (status >= 0)
    return finish(status);
  if (!cli.devices.empty()) {
    if (rank == 0)
      std::fprintf(stderr, "%s: --devices is approx-hrcs's: here each rank "
                   "takes device (--device + rank) %% (devices)\n", tool);
    return finish(2);
  }
  if (cli.check || cli.checkGpu) {
    if (rank == 0)
      std::fprintf(stderr, "%s: --check and --check-gpu are single-process "
                           "options (use approx-hrcs)\n", tool);
    return finish(2);
  }
  const std::string dir = cli.ro.outDir;
  Plan plan;
  std::string err;
  bool ok = plan.init(cli.sp, cli.backend == "gpu", err);
  std::unique_ptr<Backend> backend;
  if (ok) {
    int device = 0;
#ifdef APPROX_HRCS_HAS_CUDA
    int n = 0;
    if (cli.backend == "gpu" && cudaGetDeviceCount(&n) == cudaSuccess && n > 0)
      device = (cli.device + rank) % n;
#endif
    backend = makeBackend(cli, device, tool, status);
    if (!backend) {
      ok = false;
      err = "rank " + std::to_string(rank) + ": cannot start the " +
            cli.backend + " backend";
    }
  }
  RunResult res;
  if (ok) {
    RunOptions ro = cli.ro;
    ro.shareIndex = rank;
    ro.shareCount = size;
    ro.progress = cli.ro.progress && rank == 0;
    ro.outDir = dir + "/rank-" + std::to_string(rank);
    // The parent first (rank 0 makes it; the others wait).
    if (rank == 0)
      mkdir(dir.c_str(), 0755);
    MPI_Barrier(MPI_COMM_WORLD);
    ok = runSearch(plan, *backend, ro, res, err);
    if (!ok)
      err = "rank " + std::to_string(rank) + ": " + err;
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  // Agree on success; rank 0 reports the first failure.
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  std::vector<std::string> errors = gather(ok ? "" : err, rank, size);
  if (!all) {
    if (rank == 0)
      for (const std::string &e : errors)
        if (!e.empty()) {
          std::fprintf(stderr, "%s: %s\n", tool, e.c_str());
          break;
        }
    return finish(1);
  }
  // Cases: "index line" per case, merged by index on rank 0.
  std::ostringstream mineCases;
  for (const auto &l : res.lines)
    mineCases << l.first << ' ' << l.second << '\n';
  std::vector<std::string> parts = gather(mineCases.str(), rank, size);
  // Stats: counts summed, seconds of the slowest rank.
  const PhaseStats &s = res.stats;
  unsigned long long cnt[6] = {s.arguments, s.phase1,     s.phase2,
                               s.phase3,    s.candidates, s.direct},
                     sum[6];
  double sec[6] = {s.polySeconds,   s.phase1Seconds,  s.phase2Seconds,
                   s.phase3Seconds, s.confirmSeconds, res.seconds},
         mx[6];
  MPI_Reduce(cnt, sum, 6, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(sec, mx, 6, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::vector<std::pair<uint64_t, std::string>> lines;
    for (const std::string &p : parts) {
      std::istringstream in(p);
      std::string l;
      while (std::getline(in, l)) {
        size_t sp = l.find(' ');
        lines.push_back({std::stoull(l.substr(0, sp)), l.substr(sp + 1)});
      }
    }
    std::sort(lines.begin(), lines.end());
    PhaseStats t;
    t.arguments = sum[0];
    t.phase1 = sum[1];
    t.phase2 = sum[2];
    t.phase3 = sum[3];
    t.candidates = sum[4];
    t.direct = sum[5];
    t.polySeconds = mx[0];
    t.phase1Seconds = mx[1];
    t.phase2Seconds = mx[2];
    t.phase3Seconds = mx[3];
    t.confirmSeconds = mx[4];
    std::string wcPath = dir + "/" + plan.function().name() + ".wc";
    std::ofstream(wcPath) << wcText(plan, lines);
    std::ofstream(dir + "/stats.json")
        << statsJsonText(plan, backend->name(), t, lines.size(), mx[5], size);
    printReport(plan, cli, backend->name(), t, lines.size(), mx[5], wcPath);
    std::printf("  %d MPI processes\n", size);
  }
  return finish(0);
}
