//===- TimeUntilTight.h - One launch timed under the dispersion rule -*- C++ -*-===//
//
// Module::time, then more launches until the median's 95% bootstrap
// interval is tight (issue 30, "Dispersion"): the rule the tuner's
// KernelEvaluator times each λ by, for any program that times a kernel the
// same way (examples/lns/lns-examples.cu).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_TUNE_TIMEUNTILTIGHT_H
#define APPROX_RUNTIME_TUNE_TIMEUNTILTIGHT_H

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/tune/Metrics.h"

#include <functional>
#include <string>
#include <vector>

namespace approx::rt {

/// `first` as Module::time runs it, then, while `tight` is not reached,
/// batches of up to 10 more launches without warm-up, `tight.maxReps` timed
/// launches in all. The Timing's median, min and max cover every sample.
Expected<Timing> timeUntilTight(Module &module, const std::string &kernel,
                                const LaunchConfig &cfg,
                                const std::vector<Arg> &args,
                                const TimingOptions &first,
                                const Tightness &tight,
                                const std::function<Status()> &beforeEach = {},
                                const LaunchOptions &opts = {});

} // namespace approx::rt

#endif // APPROX_RUNTIME_TUNE_TIMEUNTILTIGHT_H
