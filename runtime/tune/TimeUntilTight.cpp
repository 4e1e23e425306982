//===- TimeUntilTight.cpp - One launch timed under the dispersion rule ----===//
#include "approx/runtime/tune/TimeUntilTight.h"

#include <algorithm>

namespace approx::rt {

Expected<Timing> timeUntilTight(Module &module, const std::string &kernel,
                                const LaunchConfig &cfg,
                                const std::vector<Arg> &args,
                                const TimingOptions &first,
                                const Tightness &tight,
                                const std::function<Status()> &beforeEach,
                                const LaunchOptions &opts) {
  APPROX_ASSIGN_OR_RETURN(Timing t,
                          module.time(kernel, cfg, args, first, beforeEach, opts));
  std::vector<double> &s = t.samplesMs;
  while (!tight.reached(s) && int(s.size()) < tight.maxReps) {
    TimingOptions more;
    more.warmup = 0;
    more.reps = std::min(10, tight.maxReps - int(s.size()));
    APPROX_ASSIGN_OR_RETURN(
        Timing m, module.time(kernel, cfg, args, more, beforeEach, opts));
    s.insert(s.end(), m.samplesMs.begin(), m.samplesMs.end());
  }
  if (!s.empty()) {
    t.medianMs = median(s);
    t.minMs = *std::min_element(s.begin(), s.end());
    t.maxMs = *std::max_element(s.begin(), s.end());
  }
  return t;
}

} // namespace approx::rt
