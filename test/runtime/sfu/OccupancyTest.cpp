//===- OccupancyTest.cpp - The occupancy bound on λ -----------------------===//
//
// computeOccupancy for each warp-slot source, grid-limited and
// register-limited launches.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/sfu/Occupancy.h"

#include <gtest/gtest.h>

using namespace approx::rt;

namespace {
OccupancyParams params(int active, uint64_t threads, uint64_t grid, int sms,
                       int64_t knobMax = 64,
                       WarpSlot slot = WarpSlot::Hw) {
  OccupancyParams p;
  p.activeBlocksPerSM = active;
  p.threadsPerBlock = threads;
  p.gridBlocks = grid;
  p.smCount = sms;
  p.knobMax = knobMax;
  p.slot = slot;
  return p;
}
} // namespace

TEST(Occupancy, FullOccupancyCappedByKnob) {
  // 8 blocks of 256 threads = 64 warps per SM on a big grid.
  OccupancyInfo o = computeOccupancy(params(8, 256, 100000, 132));
  EXPECT_EQ(o.warpsPerBlock, 8);
  EXPECT_EQ(o.residentWarpsPerSM, 64);
  EXPECT_EQ(o.lambdaMax, 64);
  o = computeOccupancy(params(8, 256, 100000, 132, /*knobMax=*/32));
  EXPECT_EQ(o.lambdaMax, 32);
}

TEST(Occupancy, RegisterLimitedOccupancy) {
  // The paper's cutcp case: occupancy 0.75 -> 48 warps.
  OccupancyInfo o = computeOccupancy(params(6, 256, 100000, 132));
  EXPECT_EQ(o.residentWarpsPerSM, 48);
  EXPECT_EQ(o.lambdaMax, 48);
}

TEST(Occupancy, PartialWarpsRoundUp) {
  OccupancyInfo o = computeOccupancy(params(10, 100, 100000, 132));
  EXPECT_EQ(o.warpsPerBlock, 4);
  EXPECT_EQ(o.lambdaMax, 40);
}

TEST(Occupancy, SmallGridBoundsResidentBlocks) {
  // 264 blocks over 132 SMs: at most 2 resident per SM.
  OccupancyInfo o = computeOccupancy(params(8, 256, 264, 132));
  EXPECT_EQ(o.residentBlocksPerSM, 2);
  EXPECT_EQ(o.lambdaMax, 16);
  // 133 blocks: some SM holds 2.
  o = computeOccupancy(params(8, 256, 133, 132));
  EXPECT_EQ(o.residentBlocksPerSM, 2);
  // gridBlocks 0: no grid bound.
  o = computeOccupancy(params(8, 256, 0, 132));
  EXPECT_EQ(o.lambdaMax, 64);
}

TEST(Occupancy, SoftwareSlotIsWarpsPerBlock) {
  OccupancyInfo o = computeOccupancy(params(8, 256, 100000, 132, 64,
                                            WarpSlot::Software));
  EXPECT_EQ(o.lambdaMax, 8);
}

TEST(Occupancy, ZeroActiveBlocks) {
  OccupancyInfo o = computeOccupancy(params(0, 1024, 1000, 132));
  EXPECT_EQ(o.lambdaMax, 0);
}

TEST(Occupancy, VirtualSlotSpansAllWarpSlots) {
  // slot=virtual: id = global warp index mod %nwarpid, so every slot id
  // occurs whatever the occupancy.
  OccupancyParams p = params(2, 256, 100000, 132, 64, WarpSlot::Virtual);
  p.maxWarpsPerSM = 64;
  EXPECT_EQ(computeOccupancy(p).lambdaMax, 64);
  p.knobMax = 48;
  EXPECT_EQ(computeOccupancy(p).lambdaMax, 48);
}

TEST(Occupancy, NoWarpSlotIsBoundedByTheKnobOnly) {
  // A knob no warp split compares against: occupancy says nothing about it.
  OccupancyInfo o = computeOccupancy(params(2, 256, 100000, 132, 40,
                                            WarpSlot::None));
  EXPECT_EQ(o.residentWarpsPerSM, 16);
  EXPECT_EQ(o.lambdaMax, 40);
}
