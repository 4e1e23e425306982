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
  for (int step : {2, 4, 8}) {
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

TEST(SlotGrid, SmoothRampReadsAsTwoAtMost) {
  // T falls by the same amount at every λ: no step of 3 or more fits (a
  // ramp fits steps of 2 to R² 0.9993, within the 0.999 bar, and 4 to
  // 0.996); with a stricter bar it reads as 1.
  std::vector<double> t;
  for (int l = 0; l <= 64; ++l)
    t.push_back(10.0 - 0.1 * l);
  EXPECT_EQ(gridFromCurve(t).step, 2);
  EXPECT_EQ(gridFromCurve(t, 16, 0.9995).step, 1);
}

TEST(SlotGrid, NoisyStaircaseStillReadsFour) {
  // Steps of 4 with noise of 1% of a step between them.
  std::vector<double> t;
  for (int l = 0; l <= 64; ++l)
    t.push_back(0.66 - 0.025 * (l / 4) + ((l * 7919) % 5 - 2) * 0.0025);
  EXPECT_EQ(gridFromCurve(t).step, 4);
}

TEST(SlotGrid, RecordedH100ProbeCurve) {
  // The hw probe curve of bench/results/apps-h100-2026-11-22-a.json: a
  // staircase of 4 with noise between the steps and a rise at λ = 57.
  std::vector<double> t = {
      0.676, 0.673, 0.673, 0.672, 0.649, 0.647, 0.648, 0.646, 0.615, 0.616,
      0.613, 0.613, 0.575, 0.576, 0.576, 0.575, 0.545, 0.543, 0.542, 0.543,
      0.527, 0.529, 0.525, 0.526, 0.505, 0.505, 0.504, 0.504, 0.456, 0.45,
      0.449, 0.454, 0.418, 0.422, 0.419, 0.416, 0.403, 0.403, 0.402, 0.396,
      0.385, 0.385, 0.385, 0.382, 0.336, 0.335, 0.336, 0.335, 0.282, 0.283,
      0.284, 0.283, 0.251, 0.251, 0.252, 0.252, 0.248, 0.27,  0.267, 0.266,
      0.265, 0.276, 0.277, 0.275, 0.277};
  EXPECT_EQ(gridFromCurve(t).step, 4);
}
