// checks.h - perforation-bench's checks before it measures anything: the
// CPU self-test (the parallel generators against the sequential ones, the
// mirror tiling against numpy's reflect, the GPU kernels' CPU replay
// against ImageMetrics.h; also `--self-test`, no GPU needed) and, on the
// GPU, the metric kernels and the mirror tiling against the CPU's. Every
// check dies with a message naming what disagrees.
#ifndef APPROX_BENCH_PERFORATION_CHECKS_H
#define APPROX_BENCH_PERFORATION_CHECKS_H

#include "error-metrics.h"
#include "inputs.h"

#include <memory>
#include <string>
#include <vector>

namespace pbench {

/// Test pairs: a reference and an output near it, in the shapes of the
/// bench's cases (near-zero references included).
struct TestPair {
  std::string what;
  std::vector<float> ref, out;
  int64_t h, w;
  bool image;
};

std::vector<TestPair> testPairs(const std::vector<Image> &photos, int64_t big);

/// The CPU checks; `full` adds the larger sizes. Dies on the first failure.
void selfTest(const std::vector<Image> &photos, bool full);

/// The GPU metric kernels against ImageMetrics.h on testPairs (at 1024^2
/// too) and pb_gather's mirror tiling against mirrorTile, bit for bit,
/// before anything is measured with them: dies on a difference, else prints
/// one line.
void checkGpuMetrics(std::shared_ptr<Context> ctx, GpuMetrics &gpu,
                     const std::vector<Image> &photos);

} // namespace pbench

#endif // APPROX_BENCH_PERFORATION_CHECKS_H
