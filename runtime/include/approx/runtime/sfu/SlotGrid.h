//===- SlotGrid.h - Where T(λ) can change: the measured λ grid ---*- C++ -*-===//
//
// On Hopper, T(λ) of a warp-split kernel is a staircase: an SM's warp slots
// are dealt to its sub-partitions (SMSPs), each with its own SFU, and a
// kernel is only as fast as its slowest SMSP, so time drops only when λ
// gives every SMSP one more SFU warp. λ between two steps costs accuracy and
// buys nothing. The tuners search the steps only. The step is a property of
// the GPU and of the slot source, so it is measured, not assumed:
// measureSlotGrid sweeps λ over a built-in probe kernel (a throughput-bound
// FMA loop in precise warps, an MUFU loop in SFU warps, at full occupancy)
// and finds the largest step g whose staircase (T constant on [k·g,
// (k+1)·g)) explains the curve (`gridFromCurve`, pure, unit tested).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_SFU_SLOTGRID_H
#define APPROX_RUNTIME_SFU_SLOTGRID_H

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Runtime.h"

#include <cstdint>
#include <vector>

namespace approx::rt {

/// The measured λ grid of one device and slot source.
struct SlotGrid {
  int step = 1;            ///< T(λ) changes only at multiples of `step`.
  double captured = 0;     ///< R² of the staircase fit with `step`
  std::vector<double> timeMs; ///< the probe's T(λ), λ = 0..size-1
  WarpSlot slot = WarpSlot::Hw; ///< the slot source measured
};

/// The largest g in [1, maxStep] such that the piecewise-constant fit of
/// T on segments [k·g, (k+1)·g) has R² >= `minFit`. 0.999: the H100
/// probe's hw staircase of 4 fits to about 0.9996 and the noise of a run
/// can take a few parts in 10^4 off that; a smooth ramp then reads as 2
/// (R² 0.9993), which costs HEU at most one λ of time. A curve whose range
/// is below `minDrop` of T(0) has no visible grid: 1. `captured` is the R²
/// found.
SlotGrid gridFromCurve(const std::vector<double> &timeMs, int maxStep = 16,
                       double minFit = 0.999, double minDrop = 0.05);

/// Runs the probe for `slot` (Hw or Virtual; Software is per block and
/// has no SMSP structure: step 1) on `ctx`'s device and returns its grid.
Expected<SlotGrid> measureSlotGrid(std::shared_ptr<Context> ctx,
                                   WarpSlot slot, int reps = 9);

} // namespace approx::rt

#endif // APPROX_RUNTIME_SFU_SLOTGRID_H
