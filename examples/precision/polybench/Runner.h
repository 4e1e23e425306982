//===- Runner.h - Runs one PolyBench/GPU application on a GPU --*- C++ -*-===//
//
// The generic host of the applications in Apps.h, on the approx runtime's
// C++ API: loads <ptx-dir>/<id>.manifest.json (and the PTX it names),
// allocates one f64 device buffer per object, copies the objects PolyBench/
// GPU copies (zero-fills the others), runs the launch sequence, copies the
// outputs back, and times it: steady_clock over the whole program (alloc,
// H2D, kernels, D2H) and CUDA events around each of the three phases. Used
// by run-app.cpp and the GPU test.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_EXAMPLES_PRECISION_POLYBENCH_RUNNER_H
#define APPROX_EXAMPLES_PRECISION_POLYBENCH_RUNNER_H

#include "Apps.h"

#include "approx/runtime/core/Runtime.h"

#include <memory>
#include <string>

namespace approx::polybench {

/// What one run took, in milliseconds.
struct RunTimes {
  double totalMs = 0;  ///< steady_clock: alloc + H2D + kernels + D2H
  double allocMs = 0;  ///< steady_clock: device allocations
  double h2dMs = 0;    ///< events: copies to the device (and zero-fills)
  double kernelMs = 0; ///< events: every launch of the sequence
  double d2hMs = 0;    ///< events: copies back
  int64_t launches = 0;
  uint64_t h2dBytes = 0, d2hBytes = 0;
};

/// "<dir>/<id>.manifest.json".
std::string manifestPath(const std::string &ptxDir, const App &app);

/// One application's loaded module.
class Runner {
public:
  /// Loads the app's manifest and PTX from `ptxDir`.
  static rt::Expected<std::unique_ptr<Runner>>
  load(std::shared_ptr<rt::Context> ctx, const App &app,
       const std::string &ptxDir);

  /// Runs the program once at sizes `s` on `inputs` (makeInputs' arrays):
  /// `outputs` gets one array per object, filled for the objects read back
  /// (fromDevice) and empty for the others. Device memory is freed before
  /// returning. Errors name the object or the kernel.
  rt::Status run(const Sizes &s, const Buffers &inputs, Buffers &outputs,
                 RunTimes &times);

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
