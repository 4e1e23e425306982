//===- MetricsTest.cpp - Error metrics, zero and non-finite references ----===//
//
// The built-in metrics on hand-computed examples, including zero
// references and NaN/inf pairs.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/Metrics.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace approx::rt;

TEST(Metrics, IdenticalIsZero) {
  std::vector<double> r = {1, -2, 3.5, 0};
  Expected<ErrorStats> s = compareOutputs(r, r);
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->meanRelative, 0);
  EXPECT_EQ(s->maxAbs, 0);
  EXPECT_EQ(s->rmse, 0);
  EXPECT_EQ(s->zeroRefs, 1u);
  EXPECT_EQ(s->count, 4u);
}

TEST(Metrics, BasicValues) {
  std::vector<double> r = {1, 2, 4, -8};
  std::vector<double> o = {1.1, 2, 3.6, -8.8};
  Expected<ErrorStats> s = compareOutputs(r, o);
  ASSERT_TRUE(s.isOk());
  EXPECT_NEAR(s->meanRelative, (0.1 + 0 + 0.1 + 0.1) / 4, 1e-12);
  EXPECT_NEAR(s->maxAbs, 0.8, 1e-12);
  EXPECT_NEAR(s->rmse, std::sqrt((0.01 + 0 + 0.16 + 0.64) / 4), 1e-12);
  EXPECT_NEAR(s->maxRelative, 0.1, 1e-12);
}

TEST(Metrics, ZeroReferenceAbsolutePolicy) {
  // ref 0: contributes |out - 0| to the mean (as if the denominator were 1).
  std::vector<double> r = {0, 2};
  std::vector<double> o = {0.5, 2.2};
  Expected<ErrorStats> s = compareOutputs(r, o, ZeroRefPolicy::Absolute);
  ASSERT_TRUE(s.isOk());
  EXPECT_NEAR(s->meanRelative, (0.5 + 0.1) / 2, 1e-12);
  EXPECT_EQ(s->zeroRefs, 1u);
  EXPECT_FALSE(std::isinf(s->meanRelative));
}

TEST(Metrics, ZeroReferenceSkipPolicy) {
  std::vector<double> r = {0, 2};
  std::vector<double> o = {0.5, 2.2};
  Expected<ErrorStats> s = compareOutputs(r, o, ZeroRefPolicy::Skip);
  ASSERT_TRUE(s.isOk());
  EXPECT_NEAR(s->meanRelative, 0.1, 1e-12);
  EXPECT_EQ(s->zeroRefs, 1u);
  // All-zero reference with Skip: nothing to average, 0 (max-abs still sees).
  Expected<ErrorStats> z =
      compareOutputs({0, 0}, {1, 0}, ZeroRefPolicy::Skip);
  ASSERT_TRUE(z.isOk());
  EXPECT_EQ(z->meanRelative, 0);
  EXPECT_EQ(z->maxAbs, 1);
}

TEST(Metrics, ExactZeroMatchesNegativeZero) {
  Expected<ErrorStats> s = compareOutputs({0.0}, {-0.0});
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->meanRelative, 0);
}

TEST(Metrics, NonFinite) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // Matching NaN / inf contribute nothing.
  Expected<ErrorStats> s = compareOutputs({nan, inf, 1}, {nan, inf, 1});
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->meanRelative, 0);
  EXPECT_EQ(s->nonFiniteMismatches, 0u);
  // A NaN where the reference is finite makes every metric +inf.
  s = compareOutputs({1, 2}, {nan, 2});
  ASSERT_TRUE(s.isOk());
  EXPECT_TRUE(std::isinf(s->meanRelative));
  EXPECT_TRUE(std::isinf(s->maxAbs));
  EXPECT_TRUE(std::isinf(s->rmse));
  EXPECT_EQ(s->nonFiniteMismatches, 1u);
  s = compareOutputs({inf}, {-inf});
  EXPECT_EQ(s->nonFiniteMismatches, 1u);
}

TEST(Metrics, SizeMismatchIsError) {
  Expected<ErrorStats> s = compareOutputs({1, 2}, {1});
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.status().code(), StatusCode::InvalidArgument);
  EXPECT_FALSE(Metric::maxAbs()({1}, {}).isOk());
}

TEST(Metrics, EmptyIsZero) {
  Expected<ErrorStats> s = compareOutputs({}, {});
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->meanRelative, 0);
  EXPECT_EQ(s->rmse, 0);
}

TEST(Metrics, MetricKindsAndCallback) {
  std::vector<double> r = {1, 2}, o = {1.5, 2};
  EXPECT_NEAR(*Metric::meanRelative()(r, o), 0.25, 1e-12);
  EXPECT_NEAR(*Metric::maxAbs()(r, o), 0.5, 1e-12);
  EXPECT_NEAR(*Metric::rmse()(r, o), std::sqrt(0.125), 1e-12);
  Metric c = Metric::callback(
      "count-diff", [](const std::vector<double> &a,
                       const std::vector<double> &b) {
        double n = 0;
        for (size_t i = 0; i < a.size(); ++i)
          n += a[i] != b[i];
        return n;
      });
  EXPECT_EQ(*c(r, o), 1.0);
  EXPECT_EQ(c.name(), "count-diff");
  Metric bad = Metric::callback("nan", [](auto &, auto &) {
    return std::numeric_limits<double>::quiet_NaN();
  });
  EXPECT_FALSE(bad(r, o).isOk());
  Metric empty;
  empty.kind = Metric::Kind::Custom;
  EXPECT_FALSE(empty(r, o).isOk());
}

TEST(Metrics, Parse) {
  EXPECT_EQ(parseMetric("mre")->kind, Metric::Kind::MeanRelative);
  EXPECT_EQ(parseMetric("mre-skip-zero")->zeroPolicy, ZeroRefPolicy::Skip);
  EXPECT_EQ(parseMetric("max-abs")->kind, Metric::Kind::MaxAbs);
  EXPECT_EQ(parseMetric("rmse")->kind, Metric::Kind::Rmse);
  EXPECT_FALSE(parseMetric("psnr").isOk());
}

TEST(Metrics, MedianIntervalCoversTheMedian) {
  std::vector<double> v;
  for (int i = 0; i < 41; ++i)
    v.push_back(10 + 0.01 * ((i * 17) % 41)); // 10.00 .. 10.40, median 10.20
  auto [lo, hi] = medianInterval(v);
  EXPECT_LE(lo, 10.2);
  EXPECT_GE(hi, 10.2);
  EXPECT_GT(lo, 10.0);
  EXPECT_LT(hi, 10.4);
  EXPECT_EQ(medianInterval(v), medianInterval(v)); // a fixed seed
  EXPECT_EQ(medianInterval({3.0}), std::make_pair(3.0, 3.0));
  EXPECT_TRUE(std::isnan(medianInterval({}).first));
  // All samples equal: a point.
  EXPECT_EQ(medianInterval({2, 2, 2, 2}), std::make_pair(2.0, 2.0));
}

TEST(Metrics, Median) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(Metrics, TightnessOfTheMediansInterval) {
  // Off: any samples will do.
  EXPECT_TRUE(Tightness{}.reached({}));
  Tightness t{0.01, 200};
  EXPECT_FALSE(t.reached({}));
  EXPECT_FALSE(t.reached({1.0}));
  // 40 samples within ±0.2% of 1: the interval is too.
  std::vector<double> steady;
  for (int i = 0; i < 40; ++i)
    steady.push_back(1.0 + 0.002 * ((i % 5) - 2) / 2.0);
  EXPECT_TRUE(t.reached(steady));
  // Half at 1, half at 1.2: the median's interval spans both.
  std::vector<double> split;
  for (int i = 0; i < 40; ++i)
    split.push_back(i % 2 ? 1.2 : 1.0);
  EXPECT_FALSE(t.reached(split));
  EXPECT_TRUE((Tightness{0.5, 200}).reached(split));
}
