//===- Repeat.cuh - how the bench programs repeat a kernel timing --------===//
//
// Repeat.h's rule (issue 30, "Dispersion"), shared by the CUDA bench
// programs (run-apps, run-baselines, approx-bench), and timeLaunches(): the
// rounds of kernel launches timed by CUDA events.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "BenchCommon.cuh"
#include "Repeat.h"

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace bench {

/// Times `launches` in interleaved rounds under `rule`: each after
/// `restore()` (inputs back, outputs poisoned), CUDA events around the
/// launch only (the legacy default stream, as <<<>>>, the driver API's
/// null stream and the runtime's launches). `before[k]`, where given, runs
/// ahead of launch k's restore, also untimed: a setting that launch needs
/// and the others must not see (the hand-written split's λ global).
inline Sampled timeLaunches(const std::function<void()> &restore,
                            const std::vector<std::function<void()>> &launches,
                            const RepeatRule &rule,
                            const std::vector<std::function<void()>> &before = {}) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<std::function<double()>> steps;
  for (size_t k = 0; k < launches.size(); ++k)
    steps.push_back([&, launch = launches[k],
                     pre = k < before.size() ? before[k] : std::function<void()>()] {
      if (pre)
        pre();
      restore();
      CK(cudaEventRecord(a));
      launch();
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, a, b));
      return double(ms);
    });
  Sampled t = repeatRounds(steps, rule);
  CK(cudaGetLastError());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return t;
}

} // namespace bench
