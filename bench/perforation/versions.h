// versions.h - what perforation-bench times: the examples (kExamples), the
// versions of each (the direct kernel, every input-perforation scheme x
// block shape of approx-perforation-raise, every output-perforation scheme
// of approx-perforation-output, on the plain kernel and, where compiled,
// on every tiled block shape; runtime/perforation/Tuner.h's candidates)
// with the DRAM bytes each skips, and how a version is launched and timed
// on one input (Runner; how long a timing repeats: TimingRule).
#ifndef APPROX_BENCH_PERFORATION_VERSIONS_H
#define APPROX_BENCH_PERFORATION_VERSIONS_H

#include "inputs.h"
#include "support.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pbench {

/// Which compilation a version runs: the plain kernel, the tiled one
/// (input perforation), output perforation of the plain kernel, and of the
/// accurate tiling's block shapes (NAME_tiled_output, compile.sh).
enum class Source { Direct, Input, Output, TiledOutput };

struct Version {
  /// "direct", "rows1:nn 32x8", "out:rows1:nn 32x8", "out:rows1:nn tiled
  /// 128x1r16" (the block shape last)
  std::string label;
  std::string scheme; ///< "" for direct
  Source source = Source::Direct;
  int64_t schemeValue = -1, blockValue = -1;
  unsigned bx = 32, by = 8, rows = 1; ///< threads, and rows per thread
  double loadedFraction = 1;          ///< of the tile buffer (Reference.h)
  double dramSkip = 0;                ///< of the input's DRAM sectors
};

struct Example {
  std::string name;
  int inputs = 1; ///< image inputs before the output
  bool hotspot = false;
  int64_t hy = 1, hx = 1; ///< the window's halo (for loadedFraction)
  std::string metric;     ///< the primary metric's name
};

inline const std::vector<Example> kExamples = {
    {"gaussian3_plain", 1, false, 1, 1, "mre"},
    {"sobel3", 1, false, 1, 1, "mean_error"},
    {"sobel5", 1, false, 2, 2, "mean_error"},
    {"median3", 1, false, 1, 1, "mre"},
    {"inversion", 1, false, 0, 0, "mre"},
    {"hotspot", 2, true, 1, 1, "mre"},
};

/// The direct kernel, every input-perforation candidate (schemes x block
/// shapes, runtime/perforation/Tuner.h), every output-perforation scheme
/// and, with `tiledOutput`, every output-perforation scheme x tiled block
/// shape.
std::vector<Version> versionsOf(const Example &ex, const Module &perf,
                                const Module &output,
                                const Module *tiledOutput = nullptr);

/// One input of one example on the device: its images and (HotSpot) its
/// constants.
struct Case {
  std::string name;
  std::vector<DeviceBuffer> in;
  int64_t h = 0, w = 0;
  HotspotConsts hs;
};

/// How long a version's timing repeats (issue 30, "Dispersion"): `first`
/// (warm-up, then first.reps timed launches: --min-reps), then, with
/// untilCi > 0, more timed launches in batches of kBatchReps (no warm-up;
/// every sample kept) until the 95% bootstrap interval of the median lies
/// within +-untilCi of the median (approx::rt::Tightness) or maxReps
/// launches in all. untilCi 0: the first launches only (the bench before
/// issue 30).
struct TimingRule {
  TimingOptions first;  ///< warm-up and the minimum of timed launches
  double untilCi = 0;   ///< relative half-width wanted; 0: off
  int maxReps = 200;    ///< with untilCi: the most timed launches
  static constexpr int kBatchReps = 10;
};

/// One version's time at one size: the median of its timed launches and
/// the median's 95% percentile-bootstrap interval
/// (approx::rt::medianInterval: 2,000 resamples, a fixed seed).
struct TimeStat {
  double ms = NAN, lo = NAN, hi = NAN;
  int reps = 0; ///< timed launches
};

struct Runner {
  std::shared_ptr<Context> ctx;
  std::unique_ptr<Module> direct, perf, output;
  std::unique_ptr<Module> tiledOutput; ///< null where not compiled
  Example ex;
  std::vector<Version> versions;
  TimingRule timing;

  std::vector<Arg> args(const Case &c, const DeviceBuffer &out);

  LaunchConfig config(const Version &v, const Case &c);

  Module &module(const Version &v);
  /// Both modules launch the logical name (the variant knob dispatches).
  std::string kernel(const Version &) { return ex.name; }
  LaunchOptions options(const Version &v);

  /// Runs `v` on `c` into `out` (poisoned first: unwritten shows as NaN).
  void run(const Version &v, const Case &c, DeviceBuffer &out);

  /// Times `v` on `c` under `timing` (the output poisoned before every
  /// launch, outside the timed region).
  TimeStat time(const Version &v, const Case &c, DeviceBuffer &out);
};

/// The modules (KERNEL_DIR/NAME{_direct,,_output}.manifest.json) and
/// versions of every example of kExamples, or of those in `only` when it is
/// not empty.
std::vector<std::unique_ptr<Runner>>
loadRunners(std::shared_ptr<Context> ctx, const std::string &kdir,
            const std::vector<std::string> &only, const TimingRule &timing);

} // namespace pbench

#endif // APPROX_BENCH_PERFORATION_VERSIONS_H
