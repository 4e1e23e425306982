// host-convert-bench.cpp - throughput of approx::rt::precision::convert on
// this host: every cross pair of f64/f32/f16/bf16 x code path x thread count
// x array size (bench/precision/run.sh builds and runs it; not a test).
//
// Size is the source array's bytes; GB/s counts source plus destination
// bytes (10^9 bytes per second), i.e. the memory traffic the conversion
// must make. Both arrays are allocated and touched before timing; the
// source holds uniform values in [-1000, 1000] (finite in every type). Each
// cell is timed under issue 30's rule (../Repeat.h, as the CUDA benches):
// one untimed call whose status is checked, 3 warm-up calls, then at least --reps timed calls, more in batches of 10
// until the 95% bootstrap interval of the median is within ±--until-ci of
// it, at most --max-reps;
// the table prints the median's GB/s with that interval. Stats are
// requested, as the precision-scaling runtime always will (overflow
// detection); --no-stats leaves them out. The first rows are the ceiling a
// conversion is judged against: memcpy of the same source bytes on each
// thread count (GB/s = read + written bytes; threads started per call, so
// the small sizes understate it). --json PATH also writes every
// cell's timed calls (ns), its median, interval and count.
//
//   host-convert-bench [--sizes 64K,1M,16M,256M] [--threads 1,2]
//                      [--isa scalar,avx2] [--reps 30] [--until-ci 0.01]
//                      [--max-reps 200] [--no-stats] [--json PATH]
//
// A bad command line is one line and exit status 2 (approx/Support/Cli.h).
#include "approx/Support/Cli.h"
#include "approx/runtime/precision/HostConvert.h"
#include "approx/runtime/tune/Metrics.h"

#include "../Repeat.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

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

/// /proc/cpuinfo's first "model name", or "unknown".
std::string cpuName() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      return line.substr(line.find(':') + 2);
  return "unknown";
}

/// One timed cell: GB/s of the median call and of its interval's ends.
struct Cell {
  std::string from, to, isa;
  unsigned threads;
  size_t bytes;
  double gbps, lo, hi;
  std::vector<double> seconds;
};

/// `s` with '"' and '\\' escaped (CPU names are the only free text).
std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20)
      out += c;
  }
  return out + "\"";
}

} // namespace

int main(int argc, char **argv) {
  std::vector<size_t> sizes = {size_t(64) << 10, size_t(1) << 20,
                               size_t(16) << 20, size_t(256) << 20};
  std::vector<unsigned> threads = {1, 2};
  std::vector<ConvertOptions::Isa> isas = {ConvertOptions::Scalar,
                                           ConvertOptions::Avx2};
  int reps = 30;
  double untilCi = 0.01;
  int maxReps = 200;
  std::string jsonPath;
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
  cl.integer("--reps", reps, 1, 1000000,
             "timed calls per cell at least (default 30)");
  cl.number("--until-ci", untilCi, 0, 1,
            "more calls until the median's 95% interval is within ±R of it "
            "(0 to 1; default 0.01, 0: off)");
  cl.integer("--max-reps", maxReps, 1, 1000000,
             "timed calls per cell at most (default 200)");
  cl.value(
      "--json", [&](const std::string &v) { jsonPath = v; },
      "also write every cell's timed calls to PATH (JSON)");
  bool noStats = false;
  cl.flag("--no-stats", noStats, "leave the overflow statistics out");
  cl.check([&] {
    if (maxReps < reps)
      cli::usageError("--max-reps " + std::to_string(maxReps) +
                      " is below --reps " + std::to_string(reps));
  });
  if (int status = cl.parse(argc, argv); status >= 0)
    return status;
  wantStats = !noStats;
  const bench::RepeatRule rule{3, reps, maxReps, untilCi, 0};
  std::vector<Cell> cells;

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

  // The ceiling: memcpy of `bytes`, split over t threads.
  {
    std::vector<unsigned char> a(maxSrc, 1), b(maxSrc, 0);
    for (unsigned t : threads) {
      std::printf("| memcpy | - | %u |", t);
      for (size_t bytes : sizes) {
        auto copy = [&] {
          const auto t0 = std::chrono::steady_clock::now();
          std::vector<std::thread> pool;
          const size_t chunk = (bytes + t - 1) / t;
          for (unsigned k = 1; k < t && k * chunk < bytes; ++k)
            pool.emplace_back([&, k] {
              std::memcpy(b.data() + k * chunk, a.data() + k * chunk,
                          std::min(chunk, bytes - k * chunk));
            });
          std::memcpy(b.data(), a.data(), std::min(chunk, bytes));
          for (std::thread &th : pool)
            th.join();
          return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count();
        };
        const bench::Sampled timed = bench::repeatRounds({copy}, rule);
        const std::vector<double> &secs = timed.samples[0];
        const double moved = 2.0 * double(bytes) / 1e9;
        const auto [tlo, thi] = medianInterval(secs);
        Cell c{"memcpy", "memcpy", "memcpy", t, bytes, moved / median(secs),
               moved / thi, moved / tlo, secs};
        std::printf(" %.2f [%.2f, %.2f] |", c.gbps, c.lo, c.hi);
        cells.push_back(std::move(c));
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  }

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
            // A conversion that fails, fails at once: one line, before timing.
            if (Status s = convert(src.data(), from, dst.data(), to, n, o, sp); !s) {
              std::fprintf(stderr, "%s\n", s.toString().c_str());
              return 1;
            }
            // Samples in seconds (the rule is relative to the median).
            Status failed = Status::ok();
            const bench::Sampled timed = bench::repeatRounds(
                {[&] {
                  const auto t0 = std::chrono::steady_clock::now();
                  Status s = convert(src.data(), from, dst.data(), to, n, o, sp);
                  const auto t1 = std::chrono::steady_clock::now();
                  if (!s && failed)
                    failed = s;
                  return std::chrono::duration<double>(t1 - t0).count();
                }},
                rule);
            if (!failed) {
              std::fprintf(stderr, "%s\n", failed.toString().c_str());
              return 1;
            }
            const std::vector<double> &secs = timed.samples[0];
            const double moved = double(n * (sb + db)) / 1e9;
            const auto [tlo, thi] = medianInterval(secs);
            Cell c{scalarTypeName(from), scalarTypeName(to), isaName(isa), t,
                   bytes,   moved / median(secs), moved / thi, moved / tlo,
                   secs};
            std::printf(" %.2f [%.2f, %.2f] |", c.gbps, c.lo, c.hi);
            cells.push_back(std::move(c));
          }
          std::printf("\n");
          std::fflush(stdout);
        }
      }
    }
  }
  if (jsonPath.empty())
    return 0;
  // PATH.tmp, renamed when whole: a failed write leaves no half file.
  const std::string tmp = jsonPath + ".tmp";
  FILE *f = std::fopen(tmp.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "host-convert-bench: cannot write %s: %s\n",
                 tmp.c_str(), std::strerror(errno));
    return 1;
  }
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::fprintf(f,
               "{\"tool\": \"host-convert-bench\", \"date\": \"%s\", \"cpu\": %s, "
               "\"logical_cores\": %ld, \"stats\": %s, \"warmup\": 3, "
               "\"min_reps\": %d, \"until_ci\": %g, \"max_reps\": %d, "
               "\"cells\": [",
               date, quoted(cpuName()).c_str(), sysconf(_SC_NPROCESSORS_ONLN),
               wantStats ? "true" : "false", reps, untilCi, maxReps);
  for (size_t i = 0; i < cells.size(); ++i) {
    const Cell &c = cells[i];
    std::fprintf(f,
                 "%s\n  {\"from\": \"%s\", \"to\": \"%s\", \"isa\": \"%s\", "
                 "\"threads\": %u, \"bytes\": %zu, \"gbps\": %.6g, "
                 "\"gbps_ci95\": [%.6g, %.6g], \"reps\": %zu, \"ns\": [",
                 i ? "," : "", c.from.c_str(), c.to.c_str(), c.isa.c_str(),
                 c.threads, c.bytes, c.gbps, c.lo, c.hi, c.seconds.size());
    for (size_t k = 0; k < c.seconds.size(); ++k)
      std::fprintf(f, "%s%.0f", k ? ", " : "", c.seconds[k] * 1e9);
    std::fprintf(f, "]}");
  }
  std::fprintf(f, "\n]}\n");
  if (std::fclose(f) != 0 || std::rename(tmp.c_str(), jsonPath.c_str()) != 0) {
    std::fprintf(stderr, "host-convert-bench: cannot write %s: %s\n",
                 jsonPath.c_str(), std::strerror(errno));
    std::remove(tmp.c_str());
    return 1;
  }
  return 0;
}
