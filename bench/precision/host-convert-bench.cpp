// host-convert-bench.cpp - throughput of approx::rt::precision::convert on
// this host: every cross pair of f64/f32/f16/bf16 x code path x thread count
// x array size (bench/precision/run.sh builds and runs it; not a test).
//
// Size is the source array's bytes; GB/s counts source plus destination
// bytes (10^9 bytes per second), i.e. the memory traffic the conversion
// must make. Both arrays are allocated and touched before timing; the
// source holds uniform values in [-1000, 1000] (finite in every type). Each
// cell is the median of --reps timed calls (after one warm-up), repeated
// until at least 0.2 s were timed for small sizes. Stats are requested, as
// the precision-scaling runtime always will (overflow detection); --no-stats
// leaves them out.
//
//   host-convert-bench [--sizes 64K,1M,16M,256M] [--threads 1,2]
//                      [--isa scalar,avx2] [--reps 5] [--no-stats]
//
// A bad command line is one line and exit status 2 (approx/Support/Cli.h).
#include "approx/Support/Cli.h"
#include "approx/runtime/precision/HostConvert.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace approx::rt;
using namespace approx::rt::precision;

namespace {

std::string sizeName(size_t bytes) {
  if (bytes >= (size_t(1) << 30) && bytes % (size_t(1) << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (size_t(1) << 20) && bytes % (size_t(1) << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

} // namespace

int main(int argc, char **argv) {
  std::vector<size_t> sizes = {size_t(64) << 10, size_t(1) << 20,
                               size_t(16) << 20, size_t(256) << 20};
  std::vector<unsigned> threads = {1, 2};
  std::vector<ConvertOptions::Isa> isas = {ConvertOptions::Scalar,
                                           ConvertOptions::Avx2};
  int reps = 5;
  bool wantStats = true;
  namespace cli = approx::cli;
  cli::CommandLine cl{cli::Tool{"host-convert-bench"},
                      "Throughput of approx::rt::precision::convert on this "
                      "host (GB/s, source + destination bytes)."};
  cl.value(
      "--sizes",
      [&](const std::string &v) {
        sizes = cli::parseList(v, "--sizes", [](const std::string &x) {
          return size_t(cli::parseSize(x, "--sizes", 1024, uint64_t(64) << 30));
        });
      },
      "source array sizes, 1K to 64G (suffix K, M or G; default "
      "64K,1M,16M,256M)");
  cl.value(
      "--threads",
      [&](const std::string &v) {
        threads = cli::parseList(v, "--threads", [](const std::string &x) {
          return unsigned(cli::parseInt(x, "--threads", 1, 1024));
        });
      },
      "thread counts, 1 to 1024 (default 1,2)");
  cl.value(
      "--isa",
      [&](const std::string &v) {
        isas = cli::parseList(v, "--isa", [](const std::string &x) {
          Expected<ConvertOptions::Isa> isa = parseIsa(x);
          if (!isa)
            cli::usageError("--isa: " + isa.status().message());
          return *isa;
        });
      },
      "code paths (default scalar,avx2)");
  cl.integer("--reps", reps, 1, 1000000, "timed calls per cell (median)");
  bool noStats = false;
  cl.flag("--no-stats", noStats, "leave the overflow statistics out");
  if (int status = cl.parse(argc, argv); status >= 0)
    return status;
  wantStats = !noStats;

  const ScalarType types[] = {ScalarType::F64, ScalarType::F32, ScalarType::F16,
                              ScalarType::BF16};
  const size_t maxSrc = *std::max_element(sizes.begin(), sizes.end());
  // Source values: doubles in [-1000, 1000], converted once per source type.
  std::vector<double> values(maxSrc / 2);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> dist(-1000.0, 1000.0);
  for (double &v : values)
    v = dist(rng);

  std::printf("| pair | isa | threads |");
  for (size_t s : sizes)
    std::printf(" %s |", sizeName(s).c_str());
  std::printf("\n|---|---|---|");
  for (size_t i = 0; i < sizes.size(); ++i)
    std::printf("---:|");
  std::printf("\n");

  for (ScalarType from : types) {
    const size_t sb = scalarTypeSize(from);
    std::vector<unsigned char> src(maxSrc);
    {
      const size_t n = maxSrc / sb;
      Status s = convert(values.data(), ScalarType::F64, src.data(), from, n,
                         ConvertOptions{});
      if (!s) {
        std::fprintf(stderr, "%s\n", s.toString().c_str());
        return 1;
      }
    }
    for (ScalarType to : types) {
      if (to == from)
        continue;
      const size_t db = scalarTypeSize(to);
      std::vector<unsigned char> dst(maxSrc / sb * db, 0);
      for (ConvertOptions::Isa isa : isas) {
        if (!isaAvailable(isa)) {
          std::fprintf(stderr, "isa %s unavailable on this CPU: skipped\n",
                       isaName(isa));
          continue;
        }
        for (unsigned t : threads) {
          std::printf("| %s -> %s | %s | %u |", scalarTypeName(from),
                      scalarTypeName(to), isaName(isa), t);
          for (size_t bytes : sizes) {
            const size_t n = bytes / sb;
            ConvertOptions o;
            o.isa = isa;
            o.threads = t;
            ConvertStats st;
            ConvertStats *sp = wantStats ? &st : nullptr;
            (void)convert(src.data(), from, dst.data(), to, n, o, sp); // warm
            std::vector<double> secs;
            double total = 0;
            while (int(secs.size()) < reps ||
                   (total < 0.2 && secs.size() < 1000)) {
              const auto t0 = std::chrono::steady_clock::now();
              Status s = convert(src.data(), from, dst.data(), to, n, o, sp);
              const auto t1 = std::chrono::steady_clock::now();
              if (!s) {
                std::fprintf(stderr, "%s\n", s.toString().c_str());
                return 1;
              }
              secs.push_back(std::chrono::duration<double>(t1 - t0).count());
              total += secs.back();
            }
            std::nth_element(secs.begin(), secs.begin() + secs.size() / 2,
                             secs.end());
            const double med = secs[secs.size() / 2];
            std::printf(" %.2f |", double(n * (sb + db)) / med / 1e9);
          }
          std::printf("\n");
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}
