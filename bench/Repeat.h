//===- Repeat.h - how the bench programs repeat a measurement ------------===//
//
// Issue 30's "Dispersion" rule, shared by the bench programs: interleaved
// rounds of several timed steps, at least N, then until every median's 95%
// bootstrap interval is within ±R of it, with the per-round paired ratio of
// two series. No CUDA: host-only benches (precision/host-convert-bench)
// use it as it is; Repeat.cuh adds the rounds of CUDA-event-timed launches.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "approx/runtime/tune/Metrics.h"

#include <chrono>
#include <functional>
#include <utility>
#include <vector>

namespace bench {
namespace rt = approx::rt;

/// How a measurement repeats (issue 30, "Dispersion"): `warmup` untimed
/// rounds, then at least `minReps` timed rounds; past them, every 10th
/// round, it stops once every series' median has its 95% bootstrap
/// interval within ±`tight` of it (0: at minReps) or `maxSeconds` have
/// passed (0: no limit); at most `maxReps` rounds.
struct RepeatRule {
  int warmup = 3, minReps = 10, maxReps = 200;
  double tight = 0, maxSeconds = 0;
};

/// One measurement: each series' samples (ms), interleaved round by round,
/// and the rounds taken.
struct Sampled {
  std::vector<std::vector<double>> samples;
  int reps = 0;
  /// The 95% bootstrap interval of series k's median.
  std::pair<double, double> ci(size_t k) const {
    return rt::medianInterval(samples[k]);
  }
  /// Per-round ratio of series a to series b (paired samples): its median
  /// and 95% interval.
  struct Ratio {
    double median, lo, hi;
  };
  Ratio ratio(size_t a, size_t b) const {
    std::vector<double> r;
    for (size_t i = 0; i < samples[a].size() && i < samples[b].size(); ++i)
      r.push_back(samples[a][i] / samples[b][i]);
    auto [lo, hi] = rt::medianInterval(r);
    return {rt::median(r), lo, hi};
  }
};

/// Runs `steps` (each returns one sample, ms) round by round under `rule`.
inline Sampled repeatRounds(const std::vector<std::function<double()>> &steps,
                            const RepeatRule &rule) {
  Sampled t;
  t.samples.resize(steps.size());
  for (int w = 0; w < rule.warmup; ++w) // first-launch costs, clocks rising
    for (const auto &s : steps)
      s();
  const rt::Tightness tight{rule.tight, rule.maxReps};
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    for (size_t k = 0; k < steps.size(); ++k)
      t.samples[k].push_back(steps[k]());
    ++t.reps;
    if (t.reps >= rule.maxReps)
      break;
    if (t.reps < rule.minReps || (t.reps - rule.minReps) % 10)
      continue;
    bool all = true;
    for (const auto &s : t.samples)
      all = all && tight.reached(s);
    const double spent =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
            .count();
    if (all || (rule.maxSeconds > 0 && spent >= rule.maxSeconds))
      break;
  }
  return t;
}

} // namespace bench
