//===- Occupancy.h - The warp-slot bound on λ (SFU technique) ----*- C++ -*-===//
//
// The SFU technique splits warps by a warp-slot id compared against the knob
// λ: warps whose id is below λ take the SFU path. λ past the largest id that
// can occur changes nothing, so the tuners search [0, λmax] only. λmax
// depends on where the id comes from (the manifest knob's `warp_slot`) and on
// the launch's occupancy. `computeOccupancy` is the pure arithmetic (unit
// tested); `lambdaBound` asks the driver for a kernel's occupancy;
// `lambdaBoundFn` hands it to the generic KernelEvaluator (runtime/tune) as
// the knob's bound.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_SFU_OCCUPANCY_H
#define APPROX_RUNTIME_SFU_OCCUPANCY_H

#include "approx/runtime/core/Runtime.h"

#include <cstdint>
#include <functional>
#include <string>

namespace approx::rt {

/// Inputs to the occupancy bound on λ (pure arithmetic, unit tested).
struct OccupancyParams {
  int activeBlocksPerSM = 0; ///< cuOccupancyMaxActiveBlocksPerMultiprocessor.
  uint64_t threadsPerBlock = 0; ///< the launch's block size.
  uint64_t gridBlocks = 0; ///< 0: do not bound by the grid.
  int smCount = 0;         ///< multiprocessors of the device.
  int warpSize = 32;       ///< threads per warp.
  int maxWarpsPerSM = 0; ///< device warp slots per SM (0: unknown).
  int64_t knobMax = 64;  ///< the knob's max, the bound's cap.
  WarpSlot slot = WarpSlot::Hw; ///< the knob's `warp_slot`.
};

/// The occupancy of one launch and the λ bound it implies.
struct OccupancyInfo {
  int activeBlocksPerSM = 0;   ///< as the driver reports it.
  int warpsPerBlock = 0;       ///< ceil(threads per block / warp size).
  int residentBlocksPerSM = 0; ///< min(active, ceil(grid / SMs)).
  int residentWarpsPerSM = 0;  ///< residentBlocksPerSM * warpsPerBlock.
  /// residentWarps (hw), warp slots per SM (virtual), warpsPerBlock
  /// (software) or the knob's max (no warp slot), capped by the knob's max.
  int64_t lambdaMax = 0;
  int numRegs = 0;       ///< registers per thread of the kernel.
};

/// λmax: the warps that can be resident in one SM for this launch (the
/// paper's green line); λ past it changes nothing (slot "hw"). For slot
/// "software" the id is the warp index inside the CTA, so the bound is warps
/// per block. For slot "virtual" the id is (global warp index) mod %nwarpid,
/// spread over all warp slots whatever the occupancy, so the bound is the
/// device's warp slots per SM. A knob with no warp slot (WarpSlot::None) is
/// not compared against a warp id: its bound is the knob's max. Always capped
/// by the knob's max.
OccupancyInfo computeOccupancy(const OccupancyParams &p);

/// Occupancy and λmax of `kernel` of `module` at `cfg` for knob `knob` (its
/// `warp_slot` picks the rule of computeOccupancy).
Expected<OccupancyInfo> lambdaBound(Module &module, const std::string &kernel,
                                    const LaunchConfig &cfg,
                                    const std::string &knob);

/// lambdaBound as a knob bound for KernelEvaluator (EvaluatorOptions::bound,
/// tune's KnobBound: the same signature, spelled out so that this technique
/// needs no tune header): returns λmax. When `info` is given, the occupancy
/// behind it is stored there too; it must outlive the calls.
std::function<Expected<int64_t>(Module &, const std::string &,
                                const LaunchConfig &, const std::string &)>
lambdaBoundFn(OccupancyInfo *info = nullptr);

} // namespace approx::rt

#endif // APPROX_RUNTIME_SFU_OCCUPANCY_H
