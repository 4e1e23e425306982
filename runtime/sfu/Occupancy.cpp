//===- Occupancy.cpp - λmax from the launch's occupancy --------------------===//
//
// Pure arithmetic over the driver's occupancy figure; `lambdaBound` gathers
// the figures from a loaded Module (core) and the device; `lambdaBoundFn`
// wraps it for the tuners' evaluator.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/sfu/Occupancy.h"

#include "approx/runtime/core/Text.h"

#include <algorithm>

namespace approx::rt {

OccupancyInfo computeOccupancy(const OccupancyParams &p) {
  OccupancyInfo o;
  int ws = p.warpSize > 0 ? p.warpSize : 32;
  o.activeBlocksPerSM = std::max(0, p.activeBlocksPerSM);
  o.warpsPerBlock = int((p.threadsPerBlock + uint64_t(ws) - 1) / uint64_t(ws));
  uint64_t resident = uint64_t(o.activeBlocksPerSM);
  if (p.gridBlocks > 0 && p.smCount > 0) {
    uint64_t perSM = (p.gridBlocks + uint64_t(p.smCount) - 1) / p.smCount;
    resident = std::min(resident, perSM);
  }
  o.residentBlocksPerSM = int(resident);
  o.residentWarpsPerSM = int(resident * uint64_t(o.warpsPerBlock));
  int64_t bound = int64_t(o.residentWarpsPerSM);
  if (p.slot == WarpSlot::Software)
    bound = int64_t(o.warpsPerBlock);
  else if (p.slot == WarpSlot::Virtual)
    bound = p.maxWarpsPerSM > 0 ? int64_t(p.maxWarpsPerSM) : p.knobMax;
  else if (p.slot == WarpSlot::None)
    bound = p.knobMax;
  o.lambdaMax = std::max<int64_t>(0, std::min(bound, p.knobMax));
  return o;
}

Expected<OccupancyInfo> lambdaBound(Module &module, const std::string &kernel,
                                    const LaunchConfig &cfg,
                                    const std::string &knob) {
  const KnobInfo *kn = module.manifest().findKnob(knob);
  if (!kn)
    return notFound("unknown knob " + quote(knob));
  APPROX_ASSIGN_OR_RETURN(KernelResources res,
                          module.kernelResources(kernel, cfg));
  const DeviceInfo &dev = module.context()->device();
  OccupancyParams p;
  p.activeBlocksPerSM = res.activeBlocksPerSM;
  p.threadsPerBlock = cfg.block.total();
  p.gridBlocks = cfg.grid.total();
  p.smCount = dev.smCount;
  p.warpSize = dev.warpSize;
  p.maxWarpsPerSM = dev.maxThreadsPerSM / std::max(1, dev.warpSize);
  p.knobMax = kn->max;
  p.slot = kn->warpSlot;
  OccupancyInfo o = computeOccupancy(p);
  o.numRegs = res.numRegs;
  return o;
}

std::function<Expected<int64_t>(Module &, const std::string &,
                                const LaunchConfig &, const std::string &)>
lambdaBoundFn(OccupancyInfo *info) {
  return
      [info](Module &module, const std::string &kernel, const LaunchConfig &cfg,
             const std::string &knob) -> Expected<int64_t> {
        APPROX_ASSIGN_OR_RETURN(OccupancyInfo o,
                                lambdaBound(module, kernel, cfg, knob));
        if (info)
          *info = o;
        return o.lambdaMax;
      };
}

} // namespace approx::rt
