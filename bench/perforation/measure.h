// measure.h - perforation-bench's measurements on the GPU, in the order
// main runs them: the DRAM ceiling, the errors of every version over the
// input sets (built once per set and run through every example), and the
// times of every version at each size. Each phase's run time goes into
// Results::phases.
#ifndef APPROX_BENCH_PERFORATION_MEASURE_H
#define APPROX_BENCH_PERFORATION_MEASURE_H

#include "error-metrics.h"
#include "inputs.h"
#include "results.h"
#include "versions.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace pbench {

/// The DRAM ceiling in GB/s: a device-to-device copy of 1 GiB (read +
/// write), the median of 10 after 3 warm-ups.
double dramCeiling(std::shared_ptr<Context> ctx);

/// The errors: every version of every runner on every input of each set
/// ("native", then each of `errorSizes`) against the direct kernel's
/// output. Fills R.sets, R.errors and R.inputs and adds a phase per set
/// to R.phases (also reported on stderr).
void measureErrors(std::shared_ptr<Context> ctx, GpuMetrics &gpu,
                   const std::vector<std::unique_ptr<Runner>> &runners,
                   const std::vector<Image> &photos,
                   const std::vector<int64_t> &errorSizes, int64_t errorSize,
                   int64_t ssimMax, Results &R);

/// The times: every version at each of `sizes`, on a fresh random input
/// per size (noise; HotSpot: a generated chip), each under its runner's
/// TimingRule. Fills R.times (medians), R.timeStats (with the 95% interval
/// and the launches), R.deviceStates (NVML readings before the first and
/// after the last version of each size; R.nvml says why there are none)
/// and adds the phase to R.phases.
void measureTimes(std::shared_ptr<Context> ctx,
                  const std::vector<std::unique_ptr<Runner>> &runners,
                  const std::vector<int64_t> &sizes, Results &R);

} // namespace pbench

#endif // APPROX_BENCH_PERFORATION_MEASURE_H
