//===- ExecEvaluator.h - A whole program behind evaluate(Config) -*- C++ -*-===//
//
// Whole-program tuning of a program that loads its modules through the
// runtime (approx-cc's host header, or Module::load directly): each
// evaluation runs the program as a subprocess (approx/runtime/core/Process.h)
// with
//   - APPROX_CONFIG naming a knobs file of the configuration (core's
//     Module::load applies and pins it: the program's own setKnob on those
//     knobs changes nothing), and
//   - APPROX_CAPTURE naming an empty directory, where the runtime (or
//     libapprox_mgpu.so) writes every device-to-host copy the program makes,
//     in order, and the kernel arguments asked for (core/Capture.h: how a
//     program whose copies go through cudaMemcpy is judged by its outputs);
//   - APPROX_MANIFEST naming the manifest, for an MLIR host program whose
//     knobs libapprox_mgpu.so applies (mgpu/KnobHooks.h);
// the time is the program's wall time, spawn to exit, less the time the
// capturing took (median over the repetitions, with its interval); the
// outputs are the captured copies in order, then the captured arguments,
// then the files the user names (read after each run, removed
// before it so that a stale one cannot pass), all as doubles; the error is
// the metric against the reference configuration's outputs.
// A run that exits non-zero is, by default, a configuration that fails the
// bound (E = +inf): the program's own check is respected. Told to ignore it,
// the evaluator judges such a run by its outputs alone. A program that
// cannot be started, or outputs that cannot be read, is an error.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_TUNE_EXECEVALUATOR_H
#define APPROX_RUNTIME_TUNE_EXECEVALUATOR_H

#include "approx/runtime/core/Capture.h"
#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/tune/ConfigEvaluator.h"
#include "approx/runtime/tune/Metrics.h"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace approx::rt {

struct ExecOptions {
  std::string program;           ///< a path (not searched in PATH)
  std::vector<std::string> args; ///< its arguments
  /// Files the program writes, as raw little-endian values of the type.
  std::vector<std::pair<std::string, ScalarType>> outputFiles;
  /// Kernel arguments the runtime captures after each launch
  /// (core/Capture.h), compared after the copies.
  std::vector<capture::ArgRequest> captureArgs;
  /// The manifest's path, given to the program as APPROX_MANIFEST: what
  /// libapprox_mgpu.so needs to apply the knobs file to the module an MLIR
  /// host program loads (mgpu/KnobHooks.h).
  std::string manifestPath;
  /// More environment for a run in a configuration (a technique's host
  /// knobs reach the program this way: whole-program storage types through
  /// the precision hooks, docs/tuning.md); `dir` is the run's private
  /// directory, for files the variables name. Variables starting with
  /// APPROX_PRECISION are dropped from the program's inherited environment.
  std::function<Expected<std::vector<std::pair<std::string, std::string>>>(
      const Config &c, const std::string &dir)>
      environment;
  bool captureCopies = true;     ///< compare the captured copies
  /// A non-zero exit fails the configuration (true) or is ignored (false).
  bool respectExitStatus = true;
  int warmups = 1; ///< untimed runs first
  int reps = 5;    ///< timed runs; the median is the time
  /// More timed runs past `reps` until the median's interval is tight
  /// (Metrics.h); off by default.
  Tightness tightness;
  Metric metric = Metric::meanRelative();
};

class ExecEvaluator : public ConfigEvaluator {
public:
  /// `space`: the manifest of the program's module (its run-time knobs are
  /// the space); `reference`: what errors are measured against.
  ExecEvaluator(Manifest space, ExecOptions opts, Config reference);

  const Manifest &space() const override { return space_; }
  Expected<Evaluation> evaluate(const Config &c,
                                bool withOutputs = true) override;
  Expected<Evaluation> remeasure(const Config &c) override;
  /// Program runs so far (warm-ups included).
  int runs() const { return runs_; }
  /// Why the last failed run failed ("exit status 1: <last stderr line>").
  const std::string &lastFailure() const { return lastFailure_; }

private:
  Expected<Evaluation> measure(const Config &c, bool withOutputs);
  /// One run in configuration `c`: its wall time (s), whether it exited 0,
  /// and its outputs.
  struct Run {
    double seconds = 0;
    bool ok = false;
    std::vector<double> outputs;
  };
  Expected<Run> runOnce(const Config &c);

  Manifest space_;
  ExecOptions opts_;
  Config reference_;
  bool haveRef_ = false;
  std::vector<double> ref_;
  std::map<std::string, Evaluation> cache_; ///< by configText, no outputs
  int runs_ = 0;
  std::string lastFailure_;
};

} // namespace approx::rt

#endif // APPROX_RUNTIME_TUNE_EXECEVALUATOR_H
