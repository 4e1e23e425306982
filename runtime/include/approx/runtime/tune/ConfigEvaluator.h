//===- ConfigEvaluator.h - The evaluation harness's interface -*- C++ -*-===//
//
// evaluate(Config) -> {time, error, outputs}: a point of a knob space in,
// what it costs and how far it is from the reference out. Two evaluators
// implement it: KernelEvaluator (one kernel of a loaded module, CUDA-event
// timing; the space is the module's manifest) and precision's
// ProgramEvaluator (a whole program run; the space is the program's memory
// objects as host knobs). Tuners hold this interface.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_TUNE_CONFIGEVALUATOR_H
#define APPROX_RUNTIME_TUNE_CONFIGEVALUATOR_H

#include "approx/runtime/core/Config.h"
#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Status.h"

#include <cmath>
#include <string>
#include <vector>

namespace approx::rt {

/// What evaluate(Config) measured.
struct Evaluation {
  double timeMs = 0; ///< median time (a kernel's, or a whole program's)
  double error = 0;  ///< the evaluator's metric against its reference
  /// The compared outputs flattened as doubles; empty when not asked for.
  std::vector<double> outputs;
  /// The 95% bootstrap interval of timeMs (medianInterval); NaN when the
  /// evaluator has no samples to give one. Last, so that {time, error,
  /// outputs} initialisers keep their meaning.
  double timeLoMs = NAN, timeHiMs = NAN;
  /// Why the configuration failed (error +inf because its run did not
  /// finish: "exit status 134: <the program's last stderr line>"); empty
  /// otherwise.
  std::string failure;
};

class ConfigEvaluator {
public:
  virtual ~ConfigEvaluator() = default;
  /// The knob space configurations are points of.
  virtual const Manifest &space() const = 0;
  /// Measures configuration `c` (a one-line error when it lies outside the
  /// space); with `withOutputs`, its outputs too.
  virtual Expected<Evaluation> evaluate(const Config &c,
                                        bool withOutputs = true) = 0;
  /// Measures `c` again, not from a cache (a re-timing); without outputs.
  /// An evaluator that keeps no cache need not override it.
  virtual Expected<Evaluation> remeasure(const Config &c) {
    return evaluate(c, false);
  }
};

} // namespace approx::rt

#endif // APPROX_RUNTIME_TUNE_CONFIGEVALUATOR_H
