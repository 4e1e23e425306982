//===- Runner.h - Runs one PolyBench/GPU application on a GPU --*- C++ -*-===//
//
// The generic host of the applications in Apps.h, on the approx runtime's
// C++ API, through a precision Session (approx/runtime/precision/Session.h):
// loads <ptx-dir>/<id>.manifest.json (or, for scaling,
// <id>_variants.manifest.json, the storage variants of every kernel),
// registers one f64 memory object per array, copies the objects PolyBench/
// GPU copies (zero-fills the others), runs the launch sequence, copies the
// outputs back, and times it: steady_clock over the whole program (alloc,
// H2D, kernels, D2H) and CUDA events around each transfer and launch. The
// run is plain, profiled (an AppProfile for the decision maker) or scaled
// (a Configuration applied). Used by run-app.cpp, approx-scale and the GPU
// test.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_EXAMPLES_PRECISION_POLYBENCH_RUNNER_H
#define APPROX_EXAMPLES_PRECISION_POLYBENCH_RUNNER_H

#include "Apps.h"

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/precision/Session.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace approx::polybench {

/// What one run took, in milliseconds.
struct RunTimes {
  double totalMs = 0;  ///< steady_clock: alloc + H2D + kernels + D2H
  double allocMs = 0;  ///< steady_clock: device allocations
  /// Copies to the device: CUDA events (plain, profile); the transfer
  /// engine's wall time, conversions included (scale). Zero-fills are not
  /// transfers and are not counted.
  double h2dMs = 0;
  double kernelMs = 0; ///< events: every launch of the sequence
  double d2hMs = 0;    ///< copies back, as h2dMs
  int64_t launches = 0;
  uint64_t h2dBytes = 0, d2hBytes = 0; ///< declared (f64) bytes moved
  /// The session's report (bus bytes, conversion losses, overflowed
  /// objects).
  rt::precision::RunReport report;
};

/// Opens a CUDA context for a command-line tool: 0 and `ctx` set; 77 after
/// printing "skipped: <why>" on stdout where there is no driver or GPU (the
/// test harness's skip); 1 after "<tool>: <error>" on stderr otherwise.
int openGpu(const char *tool, std::shared_ptr<rt::Context> &ctx);

/// A 2-D .npy image (uint8, float32 or float64; tune/ImageIO.h) as 0-255
/// doubles: values in [0, 1] (uint8 files are read so) times 255, other
/// ranges outside [0, 255] min-max normalised. False with `err` on failure.
bool loadGrayImage(const std::string &path, GrayImage &img, std::string &err);

/// How Runner::run runs the program.
struct RunOptions {
  rt::precision::SessionMode mode = rt::precision::SessionMode::Plain;
  /// Scale: the configuration (objects by the app's array names).
  std::optional<rt::precision::Configuration> config;
  /// Scale: the profiled run's transfers (AppProfile::transfers), checked.
  std::vector<std::string> expectedTransfers;
  /// Scale: a transfer engine kept across runs (null: one per run).
  std::shared_ptr<rt::precision::TransferEngine> engine;
};

/// "<dir>/<id>.manifest.json"; with `variants`,
/// "<dir>/<id>_variants.manifest.json".
std::string manifestPath(const std::string &ptxDir, const App &app,
                         bool variants = false);

/// One application's loaded module.
class Runner {
public:
  /// Loads the app's manifest and PTX from `ptxDir` (`variants`: the
  /// storage-variant build, manifestPath's second form).
  static rt::Expected<std::unique_ptr<Runner>>
  load(std::shared_ptr<rt::Context> ctx, const App &app,
       const std::string &ptxDir, bool variants = false);

  /// Runs the program once at sizes `s` on `inputs` (makeInputs' arrays)
  /// through a Session in `opt.mode`: `outputs` gets one array per object,
  /// filled for the objects read back (fromDevice) and empty for the
  /// others; arrays already of the right size are reused, and any
  /// allocation happens before the session's clock starts. Profile mode fills `profile` (may be null otherwise). Device
  /// memory is freed before returning. Errors name the object or the
  /// kernel (scale mode: a missing variant, transfers that differ from the
  /// profile).
  rt::Status run(const Sizes &s, const Buffers &inputs, Buffers &outputs,
                 RunTimes &times, const RunOptions &opt = {},
                 rt::precision::AppProfile *profile = nullptr);

  /// The loaded module (its manifest, kernels, knobs).
  const rt::Module &module() const { return *module_; }

private:
  Runner(std::shared_ptr<rt::Context> ctx, const App &app,
         std::unique_ptr<rt::Module> m)
      : ctx_(std::move(ctx)), app_(app), module_(std::move(m)) {}
  std::shared_ptr<rt::Context> ctx_;
  const App &app_;
  std::unique_ptr<rt::Module> module_;
};

} // namespace approx::polybench

#endif // APPROX_EXAMPLES_PRECISION_POLYBENCH_RUNNER_H
