// perforation-bench.cpp - kernel perforation on the GPU: time, speedup,
// DRAM bandwidth, byte-ratio bound and error of every example x scheme x
// block shape x size (bench/perforation/run.sh builds and runs it; not a
// test).
//
// For each example NAME, KERNEL_DIR holds three compilations of
// examples/perforation/NAME.mlir (bench/perforation/compile.sh):
//   NAME_direct  the plain kernel: every window element a global load;
//   NAME         after approx-perforation-raise: a tile load whose scheme
//                knob `perforation` and block-shape variant knob
//                `perforation_block` pick the version;
//   NAME_output  after approx-perforation-output: Paraprox's output
//                perforation (knob `perforation_output`), the comparison;
// and bench_metrics.ptx, this bench's own kernels (metrics.cu, compiled by
// prepare.sh). Every version runs on the same inputs with the same output
// poisoned (NaN) before each launch (outside the timed region).
//
// Speed: times are CUDA-event medians after a warm-up (Module::time), on a
// fresh random image per --sizes entry (noise; HotSpot: a generated chip),
// made once per size for all examples. Dispersion (issue 30): each time is
// --min-reps (= --reps, default 20) timed launches, then with --until-ci R
// more in batches of 10 (every sample kept) until the 95% percentile-
// bootstrap interval of the median lies within +-R of it (R relative: 0.01
// is 1%) or --max-reps (default 200) launches in all; the JSON keeps each
// median ("ms", as before), its interval ("ms_ci95") and launches ("reps"),
// the rule ("timing"), and NVML's SM and memory clocks, temperature, power
// and energy counter before and after each size's timing ("device_state";
// null without NVML, "nvml" saying why). Baseline = the faster of the direct
// kernel and the accurate tiling (best block shape). DRAM bytes: the
// compulsory R + W (each input and the output once) scaled by the sectors a
// scheme still touches: rows(n) skips n of every n+1 input rows; cols and
// stencil skip no 32-byte sector of DRAM (every sector still holds a loaded
// element), so their bound is 1. The byte-ratio bound (R+W)/(R(1-skip)+W) is
// the speedup a DRAM-bound kernel could reach; "of bound" = speedup / bound.
//
// Error: against the direct kernel's output (the exact computation), for
// every version (all block shapes: a shape moves the tile boundaries, so
// the error may depend on it) over an image set at each --error-sizes entry
// (default: the --sizes), plus the "native" set of earlier runs:
//   - the photographs of IMAGE_DIR (scikit-image's nine; images.py), each
//     MIRROR-TILED to N x N: pixel (y, x) is the photograph's (m(y, h),
//     m(x, w)) with m numpy's `reflect` (... c b | a b c d | c b a ...: the
//     edge pixel not repeated, period 2h - 2). Why: the stencils' and the
//     perforation's errors are local (a window of at most 5 x 5, a tile of
//     at most 32 rows x 64 columns), so a tiled photograph has the photograph's
//     local statistics everywhere; reflection leaves no seam (no jump in value
//     at a fold, only a fold in the gradient, every 2h - 2 pixels, as common in
//     a photograph as its own edges); not repeating the edge row avoids
//     pairs of identical rows that would flatter the rows schemes (which
//     copy a row from its neighbour); the period (342 to 1022 for these
//     photographs, never a multiple of 32) walks the folds across the tile
//     grid. Nothing is committed or
//     downloaded (the photographs come from prepare.sh). Upscaling by
//     interpolation is not used: it makes images smoother than any photograph
//     at that size and would understate the error;
//   - six synthetic patterns generated at N x N (flat, gradient, 8-pixel
//     checker, 1-pixel stripes, zone plate, noise; fixed seeds): defined at
//     any size with the same local content (the zone plate reaches the
//     Nyquist frequency at its edge at every size);
//   - HotSpot: three chips from our generator at N x N (seeds 1-3).
//   "native": the photographs at their own size (<= 512^2) and the patterns
//   at --error-size (1024), as in earlier runs of this bench.
// Metrics: mean relative error over |ref| > 1e-3 (the paper's near-zero
// caveat), mean absolute error as % of the reference's range (the paper's
// "mean error", Sobel's primary), PSNR and SSIM over the reference's range:
// the definitions of runtime/tune/ImageMetrics.h, computed on the GPU
// (metrics.cu; 16384^2 is 1 GiB an image and ~2700 (version, image) pairs,
// far too many to copy back and reduce on the CPU): a grid-stride
// reduction in double whose per-block partials the host adds in order, and
// SSIM on the whole image, not a sample of windows, at every error size up
// to --ssim-max (default: all), by a fused separable Gaussian kernel (each
// thread keeps one column's 11 rows in registers; the horizontal pass reads
// shared memory). Before measuring, the bench checks
// (and dies with a message naming the metric if they disagree beyond 1e-8
// relative, the sums' order): its CPU replay of the kernels' loops against
// ImageMetrics.h (also `--self-test`, no GPU needed), the GPU kernels
// against ImageMetrics.h at 1024^2 and 301 x 517, the mirror tiling on the
// GPU against the CPU's bit for bit, and, once per example, one real
// perforated output's metrics against ImageMetrics.h. metrics-emu.cpp runs
// the kernels themselves on CPU threads for whoever edits them.
//
// Cost, measured (run -d, 2026-11-25, H100 80GB HBM3, six block shapes;
// the run prints each phase split into inputs, launches, sums and SSIM, and
// the JSON keeps it): errors at 16384^2 52.6 s, at 8192^2 13.8 s, at
// 1024^2 and native under 1 s each, timing 22.8 s, 131 s in all with the
// build. Inputs: the deterministic patterns are made on all cores; flat,
// noise and HotSpot's chips follow mt19937's one sequential stream
// (bit-identical to earlier runs at every size: the native set and the
// timing inputs are unchanged), so the generator bounds them. GPU memory:
// an input, the reference and an output (HotSpot: two inputs), at most
// 4 GiB at 16384^2; host memory: one input at a time (2 GiB for a HotSpot
// chip).
//
// usage: perforation-bench KERNEL_DIR IMAGE_DIR [--sizes 1024,8192,16384]
//          [--error-sizes LIST] [--error-size 1024] [--ssim-max N]
//          [--reps 20 | --min-reps 20] [--until-ci R] [--max-reps 200]
//          [--examples a,b] [--json PATH]
//        perforation-bench --self-test [IMAGE_DIR] [--json DEMO_PATH]
//          (CPU only: the checks above without the GPU; with --json, the
//          tables and JSON of made-up results, to check report.py)
// The command line is approx/Support/Cli.h's: a bad one is one line and
// exit status 2 before anything runs.
//
// The program, one job a file (namespace pbench):
//   perforation-bench.cpp  the command line and the order of the phases;
//   support.h              dying with a message, Expected/Status, timing,
//                          a parallel for, device copies;
//   inputs.{h,cpp}         photographs, synthetic patterns, mirror tiling,
//                          HotSpot chips;
//   error-metrics.{h,cpp}  the error metrics: definitions, GPU kernels'
//                          host side (metrics.cu), CPU replay;
//   checks.{h,cpp}         the self-test and the GPU start-up checks;
//   versions.{h,cpp}       the examples and their versions, launching and
//                          timing one;
//   measure.{h,cpp}        the DRAM ceiling, the error sets, the timing;
//   results.{h,cpp}        statistics, the tables (stdout) and the JSON.
// run.sh lists these sources (PERFORATION_BENCH_SOURCES).
#include "checks.h"
#include "error-metrics.h"
#include "inputs.h"
#include "measure.h"
#include "results.h"
#include "versions.h"

#include "approx/Support/Cli.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

using namespace pbench;

int main(int argc, char **argv) {
  namespace cli = approx::cli;
  auto tStart = std::chrono::steady_clock::now();
  std::vector<std::string> dirs;
  bool selfTestOnly = false;
  std::string jsonPath;
  std::vector<int64_t> sizes = {1024, 8192, 16384}, errorSizes;
  int64_t errorSize = 1024, ssimMax = 32768;
  std::vector<std::string> only;
  TimingRule timing;
  int64_t minReps = 0, maxReps = 0; // 0: not given
  double untilCi = 0;
  cli::CommandLine cl{
      cli::Tool{"perforation-bench"},
      "The perforation benchmark: KERNEL_DIR IMAGE_DIR [options], or "
      "--self-test [IMAGE_DIR] [--json DEMO_PATH] (CPU only: the checks "
      "without the GPU; with --json, the tables and JSON of made-up "
      "results, to check report.py)."};
  cl.positionals("DIR", dirs,
                 "KERNEL_DIR IMAGE_DIR, or IMAGE_DIR with "
                 "--self-test");
  cl.flag("--self-test", selfTestOnly, "the CPU checks only");
  auto sizeList = [&](const char *name, std::vector<int64_t> &target,
                      int64_t lo, const char *desc) {
    return cl.value(
        name,
        [&target, name, lo](const std::string &v) {
          target = cli::parseList(v, name, [&](const std::string &x) {
            return cli::parseInt(x, name, lo, 32768);
          });
        },
        desc, "N,...");
  };
  sizeList("--sizes", sizes, 1, "timed sizes (N x N), 1 to 32768");
  CLI::Option *errorSizesOpt = sizeList(
      "--error-sizes", errorSizes, 11,
      "sizes whose errors are measured, 11 to 32768 (default --sizes)");
  cl.integer("--error-size", errorSize, 11, 32768,
             "the size of the error tables");
  cl.integer("--ssim-max", ssimMax, 1, 32768,
             "SSIM at error sizes up to this (default all)");
  CLI::Option *repsOpt =
      cl.integer("--reps", timing.first.reps, 1, 1000000,
                 "timed launches (median; default 20); the same as "
                 "--min-reps");
  CLI::Option *minRepsOpt =
      cl.integer("--min-reps", minReps, 1, 1000000,
                 "timed launches at least (default --reps: 20)");
  cl.number("--until-ci", untilCi, 0, 0.5,
            "then repeat until the 95% interval of the median is within "
            "+-R of it, R relative (0.01: 1%; default 0: off)");
  CLI::Option *maxRepsOpt = cl.integer(
      "--max-reps", maxReps, 1, 1000000,
      "with --until-ci: timed launches at most (default 200)");
  cl.value(
      "--examples",
      [&](const std::string &v) { only = cli::splitList(v, "--examples"); },
      "only these examples (a,b)");
  cl.text("--json", jsonPath, "the results (with --self-test: made-up ones)");
  cl.check([&] {
    if (repsOpt->count() && minRepsOpt->count())
      cli::usageError("--reps and --min-reps are the same: give one");
    if (minRepsOpt->count())
      timing.first.reps = int(minReps);
    timing.untilCi = untilCi;
    if (maxRepsOpt->count())
      timing.maxReps = int(maxReps);
    if ((maxRepsOpt->count() || untilCi > 0) &&
        timing.maxReps < timing.first.reps)
      cli::usageError("--max-reps " + std::to_string(timing.maxReps) +
                      " is below --min-reps " +
                      std::to_string(timing.first.reps));
    if (selfTestOnly ? dirs.size() > 1 : dirs.size() != 2)
      cli::usageError(selfTestOnly ? "--self-test takes at most one IMAGE_DIR"
                                   : "give KERNEL_DIR and IMAGE_DIR");
  });
  if (int status = cl.parse(argc, argv); status >= 0)
    return status;
  if (selfTestOnly) {
    std::vector<Image> photos;
    if (!dirs.empty())
      photos.push_back(readImage(dirs[0] + "/camera.npy", "camera"));
    selfTest(photos, true);
    if (!jsonPath.empty()) {
      Results R = demoResults();
      writeResults(R, jsonPath);
    }
    return 0;
  }
  const std::string kdir = dirs[0], idir = dirs[1];
  if (!errorSizesOpt->count())
    errorSizes = sizes;

  // Photographs: every *.npy of IMAGE_DIR.
  std::vector<Image> photos = readPhotos(idir);
  if (photos.empty())
    std::fprintf(stderr,
                 "perforation-bench: no photographs in %s (run "
                 "bench/perforation/images.py): synthetic inputs only\n",
                 idir.c_str());

  // The CPU replay of the metric kernels against ImageMetrics.h.
  selfTest(photos, false);

  std::shared_ptr<Context> ctx = must(Context::create(0), "context");
  std::unique_ptr<GpuMetrics> gpu =
      GpuMetrics::load(ctx, kdir + "/bench_metrics.ptx");

  // The GPU metrics and tiling against the CPU's, before anything is
  // measured with them.
  checkGpuMetrics(ctx, *gpu, photos);

  const double copyGBs = dramCeiling(ctx);
  std::printf(
      "DRAM ceiling (1 GiB device-to-device copy, read + write): %.0f GB/s\n\n",
      copyGBs);

  // Every example's modules.
  std::vector<std::unique_ptr<Runner>> runners =
      loadRunners(ctx, kdir, only, timing);
  Results R;
  R.phases.push_back(
      {"start-up (checks, DRAM ceiling, module loads)", seconds(tStart)});

  measureErrors(ctx, *gpu, runners, photos, errorSizes, errorSize, ssimMax, R);
  measureTimes(ctx, runners, sizes, R);

  R.phases.push_back({"total", seconds(tStart)});
  R.copyGBs = copyGBs, R.sizes = sizes, R.timing = timing;
  R.errorSize = errorSize, R.ssimMax = ssimMax;
  for (auto &rp : runners)
    R.examples.push_back({rp->ex, rp->versions});
  writeResults(R, jsonPath);
  return 0;
}
