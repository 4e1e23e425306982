//===- SlotGridTest.cpp - The λ grid read off a T(λ) curve ----------------===//
#include "approx/runtime/sfu/SlotGrid.h"

#include <gtest/gtest.h>

using namespace approx::rt;

namespace {
/// T falls by `drop` at each multiple of `step`, plus `noise` elsewhere.
std::vector<double> stairs(int lmax, int step, double drop, double noise) {
  std::vector<double> t;
  double v = 10;
  for (int l = 0; l <= lmax; ++l) {
    if (l > 0)
      v -= (l % step == 0) ? drop : ((l % 2) ? noise : -noise);
    t.push_back(v);
  }
  return t;
}
} // namespace

TEST(SlotGrid, FindsTheStep) {
  for (int step : {1, 2, 4, 8}) {
    SlotGrid g = gridFromCurve(stairs(64, step, 0.3, 0.001));
    EXPECT_EQ(g.step, step);
    EXPECT_GE(g.captured, 0.9);
  }
}

TEST(SlotGrid, FlatOrNoisyCurveHasNoGrid) {
  EXPECT_EQ(gridFromCurve(std::vector<double>(65, 1.0)).step, 1);
  // drops smaller than 5% of T(0) in total: no visible staircase
  EXPECT_EQ(gridFromCurve(stairs(64, 4, 0.001, 0.0)).step, 1);
  EXPECT_EQ(gridFromCurve({}).step, 1);
  EXPECT_EQ(gridFromCurve({1.0, 0.5}).step, 1);
}

TEST(SlotGrid, NoiseBetweenStepsBreaksAWrongGrid) {
  // Drops at every λ with an extra drop at multiples of 4: 4 carries only a
  // part of the total, so the answer is 1, not 4.
  std::vector<double> t;
  for (int l = 0; l <= 64; ++l)
    t.push_back(10.0 - 0.1 * l - 0.1 * (l / 4));
  EXPECT_EQ(gridFromCurve(t).step, 1);
}
