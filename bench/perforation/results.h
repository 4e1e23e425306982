// results.h - what a perforation-bench run measured (Results) and its
// output: the statistics of an error over an input set (median, min, max),
// the Markdown tables on stdout (perforation.md) and the JSON that
// report.py reads; and the made-up results `--self-test --json` writes
// through the same code.
#ifndef APPROX_BENCH_PERFORATION_RESULTS_H
#define APPROX_BENCH_PERFORATION_RESULTS_H

#include "error-metrics.h"
#include "versions.h"

#include "approx/runtime/core/DeviceMonitor.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pbench {

double median(std::vector<double> v);

std::string num(double v, int prec = 4);

/// The primary metric of `e` for `ex`; +inf when the output was unwritten
/// or not finite (a wrong version is never "accurate").
double primaryOf(const Example &ex, const ErrorStats &e);

/// The distribution of one version's primary error over an input set.
struct Distribution {
  double med = NAN, lo = NAN, hi = NAN, psnr = NAN, ssim = NAN;
  int unwritten = 0, nonfinite = 0;
  std::vector<double> values;
};

Distribution distributionOf(const Example &ex,
                            const std::vector<ErrorStats> &es);

std::string pct(double v);

/// What a run measured, for the tables and the JSON.
struct Results {
  double copyGBs = 0;
  std::vector<int64_t> sizes;
  std::vector<std::string> sets; ///< "native", then the error sizes
  int64_t errorSize = 1024, ssimMax = 32768;
  std::vector<std::pair<Example, std::vector<Version>>> examples;
  /// [set][example][label]: one ErrorStats per input of the set.
  std::map<
      std::string,
      std::map<std::string, std::map<std::string, std::vector<ErrorStats>>>>
      errors;
  /// [set][example]: the inputs' names.
  std::map<std::string, std::map<std::string, std::vector<std::string>>> inputs;
  /// [example][label][size]: median ms.
  std::map<std::string, std::map<std::string, std::map<int64_t, double>>> times;
  /// [example][label][size]: the median with its 95% interval and the
  /// timed launches (the median is times'); a version without one here
  /// (none in a real run) gets null interval and reps in the JSON.
  std::map<std::string, std::map<std::string, std::map<int64_t, TimeStat>>>
      timeStats;
  TimingRule timing; ///< how long each time repeated
  /// The GPU's state (NVML) at the start and end of each size's timing;
  /// nullopt: no reading (no NVML: nvml says why).
  struct SizeState {
    std::optional<DeviceState> start, end;
  };
  std::map<int64_t, SizeState> deviceStates;
  std::string nvml; ///< empty: NVML read; else why there are no readings
  std::vector<std::pair<std::string, double>> phases; ///< name, seconds
};

/// Prints the tables (stdout: perforation.md) and writes the JSON.
void writeResults(Results &R, const std::string &jsonPath);

/// Made-up results in the shapes of a real run (two examples, a version of
/// each kind, an unwritten and an infinite output), written through
/// writeResults: `--self-test --json PATH` checks the tables, the JSON and
/// report.py without a GPU. Nothing in them is a measurement.
Results demoResults();

} // namespace pbench

#endif // APPROX_BENCH_PERFORATION_RESULTS_H
