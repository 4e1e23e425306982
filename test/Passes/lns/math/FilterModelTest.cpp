//===- FilterModelTest.cpp - The texture filter model, by hand ------------===//
//
// Hand-computed cases of the contract's filter: coordinate rounding (ties
// up), the weights with w11 rounded half up (the tie cases a*b = 128 mod
// 256), the 28-bit truncation toward zero relative to the largest weighted
// exponent, ties-away rounding, zero-weight texels, clamp addressing, and a
// randomized bound against the exact weighted sum. For the 3-D model (an
// assumed generalisation, not yet checked on a GPU): its weights (partition
// of 256, exact marginals, the 2-D rule on every face, the -1 weights it
// allows), clamping, and bit agreement with the 2-D model on a texture that
// is constant in z.
//
//===----------------------------------------------------------------------===//

#include "FilterModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using namespace approx::lns;

namespace {

uint32_t bitsOf(float v) {
  uint32_t w;
  std::memcpy(&w, &v, sizeof w);
  return w;
}

#define EXPECT_SAME_FLOAT(a, b)                                                \
  EXPECT_EQ(bitsOf(a), bitsOf(b)) << (a) << " vs " << (b)

std::array<int, 4> weights(int a, int b) {
  std::array<int, 4> w;
  bilinearWeights(a, b, w.data());
  return w;
}

/// The unnormalised coordinate whose 8-bit fraction is a / 256 in texel i.
float coord(int i, int a) { return float(i) + 0.5f + float(a) / 256.0f; }

} // namespace

TEST(FilterModel, WeightsTieCases) {
  // 39 * 128 / 256 = 19.5: a tie, rounded up to 20.
  EXPECT_EQ(weights(39, 128), (std::array<int, 4>{109, 19, 108, 20}));
  // 133 / 256 = 0.52 -> 1.
  EXPECT_EQ(weights(133, 1), (std::array<int, 4>{123, 132, 0, 1}));
  // 1 * 128 / 256 = 0.5 -> 1 (tie up), 1 * 127 / 256 -> 0.
  EXPECT_EQ(weights(1, 128), (std::array<int, 4>{128, 0, 127, 1}));
  EXPECT_EQ(weights(1, 127), (std::array<int, 4>{128, 1, 127, 0}));
  EXPECT_EQ(weights(0, 0), (std::array<int, 4>{256, 0, 0, 0}));
  // 255^2 / 256 = 254.004 -> 254.
  EXPECT_EQ(weights(255, 255), (std::array<int, 4>{0, 1, 1, 254}));
  EXPECT_EQ(weights(128, 128), (std::array<int, 4>{64, 64, 64, 64}));
}

TEST(FilterModel, WeightsAreAPartitionOf256) {
  for (int a = 0; a < 256; ++a)
    for (int b = 0; b < 256; ++b) {
      std::array<int, 4> w = weights(a, b);
      ASSERT_EQ(w[0] + w[1] + w[2] + w[3], 256) << a << "," << b;
      ASSERT_GE(*std::min_element(w.begin(), w.end()), 0) << a << "," << b;
      // The marginals are exact: x gets a/256, y gets b/256.
      ASSERT_EQ(w[1] + w[3], a);
      ASSERT_EQ(w[2] + w[3], b);
    }
}

TEST(FilterModel, CoordinateQuantisation) {
  EXPECT_EQ(quantizeCoordinate(0.5f), 0);
  EXPECT_EQ(quantizeCoordinate(coord(0, 39)), 39);
  EXPECT_EQ(quantizeCoordinate(coord(7, 200)), 7 * 256 + 200);
  // Half a step: ties go up; just below goes down.
  EXPECT_EQ(quantizeCoordinate(0.5f + 0.5f / 256), 1);
  EXPECT_EQ(quantizeCoordinate(std::nextafter(0.5f + 0.5f / 256, 0.0f)), 0);
  EXPECT_EQ(quantizeCoordinate(0.5f - 0.5f / 256), 0);
  EXPECT_EQ(quantizeCoordinate(std::nextafter(0.5f - 0.5f / 256, 0.0f)), -1);
  // Below the first texel centre: i = -1, a = 128.
  EXPECT_EQ(quantizeCoordinate(0.0f), -128);
  EXPECT_EQ(quantizeCoordinate(NAN), 0);
  FilterWeights fw = filterWeights(coord(0, 39), coord(3, 128));
  EXPECT_EQ(fw.i, 0);
  EXPECT_EQ(fw.j, 3);
  EXPECT_EQ(fw.a, 39);
  EXPECT_EQ(fw.b, 128);
  EXPECT_EQ(fw.w00, 109);
  EXPECT_EQ(fw.w10, 19);
  EXPECT_EQ(fw.w01, 108);
  EXPECT_EQ(fw.w11, 20);
  fw = filterWeights(0.0f, -0.25f);
  EXPECT_EQ(fw.i, -1);
  EXPECT_EQ(fw.a, 128);
  EXPECT_EQ(fw.j, -1);
  EXPECT_EQ(fw.b, 64);
}

TEST(FilterModel, RoundTiesAway) {
  EXPECT_SAME_FLOAT(roundTiesAway(3, -1), 1.5f);
  EXPECT_SAME_FLOAT(roundTiesAway(0, 7), 0.0f);
  // 2^25 + 1: below half of the last place (4) -> 2^25.
  EXPECT_SAME_FLOAT(roundTiesAway((1 << 25) + 1, 0), 0x1p25f);
  // 2^25 + 2: exactly half -> away (nearest-even would give 2^25).
  EXPECT_SAME_FLOAT(roundTiesAway((1 << 25) + 2, 0), 0x1p25f + 4.0f);
  EXPECT_SAME_FLOAT(roundTiesAway(-((1 << 25) + 2), 0), -(0x1p25f + 4.0f));
  // A carry into the next binade.
  EXPECT_SAME_FLOAT(roundTiesAway((int64_t(1) << 26) - 2, -10), 0x1p16f);
  // Denormal results: half of 2^-149 goes away from zero, a quarter to 0.
  EXPECT_SAME_FLOAT(roundTiesAway(1, -150), 0x1p-149f);
  EXPECT_SAME_FLOAT(roundTiesAway(1, -151), 0.0f);
  EXPECT_SAME_FLOAT(roundTiesAway(3, -150), 0x1p-148f);
  EXPECT_TRUE(std::isinf(roundTiesAway(1, 200)));
}

TEST(FilterModel, TiesAwayInTheFilter) {
  // (1 + (1 + 2^-23)) / 2 = 1 + 2^-24: a tie between 1 and 1 + 2^-23.
  const float up = 1.0f + 0x1p-23f;
  const int w[4] = {128, 128, 0, 0};
  const float t[4] = {1.0f, up, 0.0f, 0.0f};
  EXPECT_SAME_FLOAT(filterChannel(t, w), up);
  const float n[4] = {-1.0f, -up, 0.0f, 0.0f};
  EXPECT_SAME_FLOAT(filterChannel(n, w), -up);
  // Not a tie: (1 + 3 (1 + 2^-23)) / 4 = 1 + 0.75 * 2^-23 -> 1 + 2^-23.
  const int w3[4] = {64, 192, 0, 0};
  EXPECT_SAME_FLOAT(filterChannel(t, w3), up);
}

TEST(FilterModel, TruncationTo28Bits) {
  // E = 1 (from 1.0 = 0.5 * 2^1): the last kept bit is 2^-27, so
  // 2^-5 + 2^-28 loses its 2^-28 (toward zero). The exact mean
  // (1 - 1 + 2^-5 + 2^-28) / 4 = 2^-7 + 2^-30 is an f32; the model gives
  // 2^-7.
  const float small = 0x1p-5f + 0x1p-28f;
  ASSERT_EQ(double(small), 0x1p-5 + 0x1p-28);
  const int w[4] = {64, 64, 64, 64};
  const float t[4] = {1.0f, -1.0f, small, 0.0f};
  EXPECT_SAME_FLOAT(filterChannel(t, w), 0x1p-7f);
  const float tn[4] = {-1.0f, 1.0f, -small, 0.0f};
  EXPECT_SAME_FLOAT(filterChannel(tn, w), -0x1p-7f);
  // Without the large texels E = -4 and nothing is lost.
  const float ts[4] = {small, small, small, small};
  EXPECT_SAME_FLOAT(filterChannel(ts, w), small);
}

TEST(FilterModel, ZeroWeightTexelsDoNotSetTheExponent) {
  // T10 = 2^100 with weight 0 must not truncate T00 away.
  const int w[4] = {256, 0, 0, 0};
  const float t[4] = {0.1f, 0x1p100f, -0x1p100f, 0x1p100f};
  EXPECT_SAME_FLOAT(filterChannel(t, w), 0.1f);
  // With weight 1/256 it does: 0.1 * 255/256 is below 2^(101-28).
  const int w1[4] = {255, 1, 0, 0};
  EXPECT_SAME_FLOAT(filterChannel(t, w1), 0x1p92f);
  const float zeros[4] = {0.0f, -0.0f, 0.0f, 0.0f};
  EXPECT_SAME_FLOAT(filterChannel(zeros, w), 0.0f);
}

TEST(FilterModel, FilterAndClamp) {
  // A 3 x 2 texture, 2 channels.
  const float data[] = {1, 10, 2,  20,  4,  40,   // row 0
                        8, 80, 16, 160, 32, 320}; // row 1
  Texture2D tex{3, 2, 2, data};
  float out[4];
  // Texel centres.
  filter2D(tex, 0.5f, 0.5f, out);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 10.0f);
  EXPECT_EQ(out[2], 0.0f); // channels beyond the texture's
  EXPECT_EQ(out[3], 0.0f);
  filter2D(tex, 2.5f, 1.5f, out);
  EXPECT_EQ(out[0], 32.0f);
  // Halfway between (0,0) and (1,0): (1 + 2) / 2.
  filter2D(tex, 1.0f, 0.5f, out);
  EXPECT_EQ(out[0], 1.5f);
  EXPECT_EQ(out[1], 15.0f);
  // Clamped: far left / right / below / above.
  filter2D(tex, -100.0f, 0.5f, out);
  EXPECT_EQ(out[0], 1.0f);
  filter2D(tex, 1e9f, 0.5f, out);
  EXPECT_EQ(out[0], 4.0f);
  filter2D(tex, 2.75f, 100.0f, out);
  EXPECT_EQ(out[0], 32.0f);
  // Right of the last centre: i = 2, a = 64, i + 1 clamps to 2.
  filter2D(tex, 2.75f, 0.5f, out);
  EXPECT_EQ(out[0], 4.0f);
  // (39, 128) in the middle: (109*1 + 19*2 + 108*8 + 20*16) / 256.
  filter2D(tex, coord(0, 39), coord(0, 128), out);
  EXPECT_EQ(out[0], float((109 * 1 + 19 * 2 + 108 * 8 + 20 * 16) / 256.0));
  filter2D(tex, NAN, 0.5f, out);
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_TRUE(std::isnan(out[1]));
}

TEST(FilterModel, WithinTheTruncationBoundOfTheExactSum) {
  // |model - exact| <= 2^(E-28) (truncation, weights sum to 1) + half an
  // ulp of the result, and the model is never further than that.
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> scale(-20, 5), frac(0, 255);
  for (int it = 0; it < 200000; ++it) {
    float t[4];
    for (float &v : t)
      v = std::ldexp(unit(rng), scale(rng));
    int w[4];
    bilinearWeights(frac(rng), frac(rng), w);
    int e = INT32_MIN;
    long double exact = 0;
    for (int n = 0; n < 4; ++n) {
      exact += (long double)w[n] * t[n] / 256;
      int en;
      if (w[n] != 0 && t[n] != 0) {
        std::frexp(t[n], &en);
        e = std::max(e, en);
      }
    }
    float v = filterChannel(t, w);
    if (e == INT32_MIN) {
      ASSERT_EQ(v, 0.0f);
      continue;
    }
    long double bound = std::ldexp(1.0L, e - 28);
    if (v != 0)
      bound += std::ldexp(1.0L, std::ilogb(v) - 24);
    ASSERT_LE(std::fabs(v - exact), bound) << it;
  }
}

TEST(FilterModel, ExactWhenOneTexelHasAllTheWeight) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> any(0, 0x7f7fffff);
  const int w[4] = {0, 0, 0, 256};
  for (int it = 0; it < 100000; ++it) {
    uint32_t word = any(rng) | (it % 2 ? 0x80000000u : 0u);
    float x;
    std::memcpy(&x, &word, sizeof x);
    if (std::fpclassify(x) == FP_SUBNORMAL)
      continue;
    const float t[4] = {123.0f, -5.0f, 0.25f, x};
    ASSERT_EQ(bitsOf(filterChannel(t, w)), bitsOf(x == 0 ? 0.0f : x));
  }
}

#if __has_include("FilterModelH100Cases.inc")
TEST(FilterModel, MatchesRecordedH100Fetches) {
  // Fetches recorded on an H100 where the exact weighted sum rounded to
  // nearest-even differs from what the hardware returned: the model must
  // reproduce the hardware, bit for bit.
  struct Case {
    uint32_t texels[4];
    int weights[4]; // w00, w10, w01, w11
    uint32_t result;
  };
  static const Case cases[] = {
#include "FilterModelH100Cases.inc"
  };
  for (const Case &c : cases) {
    float t[4];
    std::memcpy(t, c.texels, sizeof t);
    ASSERT_EQ(c.weights[0] + c.weights[1] + c.weights[2] + c.weights[3], 256);
    EXPECT_EQ(bitsOf(filterChannel(t, c.weights)), c.result)
        << t[0] << " " << t[1] << " " << t[2] << " " << t[3];
    // And the plain nearest-even sum does not (the cases are chosen so).
    double exact = 0;
    for (int n = 0; n < 4; ++n)
      exact += c.weights[n] * double(t[n]) / 256;
    EXPECT_NE(bitsOf(float(exact)), c.result);
  }
}
#endif

//===----------------------------------------------------------------------===//
// The 3-D (trilinear) filter, as measured on an H100 (FilterModel.h): the
// weight rule against recorded hardware weights and its own invariants, the
// two-slice summation against recorded fetches.
//===----------------------------------------------------------------------===//

namespace {

std::array<int, 8> weights3(int a, int b, int c) {
  std::array<int, 8> w;
  trilinearWeights(a, b, c, w.data());
  return w;
}

} // namespace

TEST(FilterModel3D, WeightsHandCases) {
  // g = 1/2 in every coordinate: every product is exact, 256 / 8 each.
  EXPECT_EQ(weights3(128, 128, 128),
            (std::array<int, 8>{32, 32, 32, 32, 32, 32, 32, 32}));
  EXPECT_EQ(weights3(0, 0, 0), (std::array<int, 8>{256, 0, 0, 0, 0, 0, 0, 0}));
  // Read on the H100 (filter3d-probe). d = 200: the slices get 56 and 200;
  // their x = 1 shares round(56 * 200 / 256) = 44 and round(156.25) = 156;
  // split by b, x = 0 columns rounded half down: 12 -> 9 (9.375), 44 -> 34.
  EXPECT_EQ(weights3(200, 200, 200),
            (std::array<int, 8>{3, 10, 9, 34, 10, 34, 34, 122}));
  EXPECT_EQ(weights3(231, 231, 231),
            (std::array<int, 8>{0, 2, 2, 21, 2, 20, 21, 188}));
  EXPECT_EQ(weights3(255, 255, 255),
            (std::array<int, 8>{0, 0, 0, 1, 0, 1, 1, 253}));
  EXPECT_EQ(weights3(7, 5, 1), (std::array<int, 8>{243, 7, 5, 0, 1, 0, 0, 0}));
  // Ties: a = 128, b = 1, c = 0 splits 128 (x = 0) by 1/256 = 0.5, half
  // down to 0, and 128 (x = 1) half up to 1.
  EXPECT_EQ(weights3(128, 1, 0),
            (std::array<int, 8>{128, 127, 0, 1, 0, 0, 0, 0}));
}

TEST(FilterModel3D, WeightsMatchTheRecordedDiagonal) {
  // a = b = c (what texture3 reads), every fraction, as the H100 returned.
  static const int recorded[256][8] = {
#include "FilterModel3DH100Diagonal.inc"
  };
  for (int d = 0; d < 256; ++d) {
    std::array<int, 8> w = weights3(d, d, d);
    for (int n = 0; n < 8; ++n)
      ASSERT_EQ(w[n], recorded[d][n]) << "d = " << d << ", n = " << n;
  }
}

TEST(FilterModel3D, WeightsPartitionAndFaces) {
  for (int a = 0; a < 256; a += 3)
    for (int b = 0; b < 256; b += 5)
      for (int c = 0; c < 256; ++c) {
        std::array<int, 8> w = weights3(a, b, c);
        int sum = 0;
        for (int v : w)
          sum += v;
        ASSERT_EQ(sum, 256) << a << "," << b << "," << c;
        ASSERT_GE(*std::min_element(w.begin(), w.end()), 0);
        // The z marginal is exact (the first split); x and y are within
        // one unit per slice.
        ASSERT_EQ(w[4] + w[5] + w[6] + w[7], c);
        ASSERT_LE(std::abs(w[1] + w[3] + w[5] + w[7] - a), 1);
        ASSERT_LE(std::abs(w[2] + w[3] + w[6] + w[7] - b), 2);
      }
  // The face c = 0 is the 2-D rule in (a, b).
  for (int a = 0; a < 256; ++a)
    for (int b = 0; b < 256; ++b) {
      std::array<int, 8> w = weights3(a, b, 0);
      std::array<int, 4> w2 = weights(a, b);
      for (int n = 0; n < 4; ++n) {
        ASSERT_EQ(w[n], w2[n]);
        ASSERT_EQ(w[n + 4], 0);
      }
    }
}

TEST(FilterModel3D, FilterAndClamp) {
  // A 3 x 2 x 2 texture, 1 channel: texel (i, j, l) = 2^i 3^j 5^l.
  float data[12];
  for (int l = 0; l < 2; ++l)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i)
        data[(l * 2 + j) * 3 + i] = float((1 << i) * (j ? 3 : 1) * (l ? 5 : 1));
  Texture3D tex{3, 2, 2, 1, data};
  float out[4];
  filter3D(tex, 0.5f, 0.5f, 0.5f, out);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 0.0f); // channels beyond the texture's
  filter3D(tex, 2.5f, 1.5f, 1.5f, out);
  EXPECT_EQ(out[0], 60.0f);
  // Halfway in z between (1, 0, 0) = 2 and (1, 0, 1) = 10.
  filter3D(tex, 1.5f, 0.5f, 1.0f, out);
  EXPECT_EQ(out[0], 6.0f);
  // g = 1/2 everywhere in the first cell: the mean of its eight texels,
  // (1 + 2)(1 + 3)(1 + 5) / 8 = 9.
  filter3D(tex, 1.0f, 1.0f, 1.0f, out);
  EXPECT_EQ(out[0], 9.0f);
  // Clamped on every side.
  filter3D(tex, -100.0f, -5.0f, -1.0f, out);
  EXPECT_EQ(out[0], 1.0f);
  filter3D(tex, 1e9f, 100.0f, 7.0f, out);
  EXPECT_EQ(out[0], 60.0f);
  // (39, 128, 64) in the first cell: small integers, so the sum is exact.
  {
    std::array<int, 8> w = weights3(39, 128, 64);
    long double sum = 0;
    for (int n = 0; n < 8; ++n)
      sum += (long double)w[n] *
             data[((n >> 2) * 2 + ((n >> 1) & 1)) * 3 + (n & 1)];
    filter3D(tex, coord(0, 39), coord(0, 128), coord(0, 64), out);
    EXPECT_EQ(out[0], float(sum / 256));
  }
  filter3D(tex, 0.5f, 0.5f, NAN, out);
  EXPECT_TRUE(std::isnan(out[0]));
}

TEST(FilterModel3D, MatchesRecordedH100Fetches) {
  // Where one fixed-point sum of the eight texels differs from the
  // hardware, the two-slice sum must reproduce it bit for bit.
  struct Case {
    int a, b, c;
    uint32_t texels[8];
    uint32_t result;
  };
  static const Case cases[] = {
#include "FilterModel3DH100Cases.inc"
  };
  for (const Case &c : cases) {
    float t[8];
    std::memcpy(t, c.texels, sizeof t);
    std::array<int, 8> w = weights3(c.a, c.b, c.c);
    EXPECT_EQ(bitsOf(filterChannel3D(t, w.data())), c.result)
        << c.a << " " << c.b << " " << c.c;
    EXPECT_NE(bitsOf(filterChannelN(t, w.data(), 8)), c.result);
  }
}

TEST(FilterModel3D, SlicesFarApartRoundAsTheExactSum) {
  // Slice 0 sums to 1 + 2^-24, a tie between 1 and 1 + 2^-23 (ties away:
  // up); slice 1, 2^-100 of either sign, decides the rounding alone.
  const int w[8] = {128, 128, 0, 0, 1, 0, 0, 0};
  float t[8] = {1.0f + 0x1p-23f, 1.0f, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(filterChannel3D(t, w), 1.0f + 0x1p-23f);
  t[4] = -0x1p-92f;
  EXPECT_EQ(filterChannel3D(t, w), 1.0f);
  t[4] = 0x1p-92f;
  EXPECT_EQ(filterChannel3D(t, w), 1.0f + 0x1p-23f);
  // And nothing of a far slice survives where there is no tie.
  t[0] = t[1] = 1.0f;
  EXPECT_EQ(filterChannel3D(t, w), 1.0f);
}

TEST(FilterModel3D, WithinTheTruncationBoundOfTheExactSum) {
  // Each slice truncates its texels 28 bits below its own largest exponent
  // E_z: |model - exact| <= sum_z 2^(E_z - 28) sum_z |w| / 256 + half an
  // ulp of the result.
  std::mt19937 rng(4242);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> scale(-20, 5), frac(0, 255);
  for (int it = 0; it < 100000; ++it) {
    float t[8];
    for (float &v : t)
      v = std::ldexp(unit(rng), scale(rng));
    int w[8];
    trilinearWeights(frac(rng), frac(rng), frac(rng), w);
    long double exact = 0, bound = 0;
    bool any = false;
    for (int z = 0; z < 2; ++z) {
      int e = INT32_MIN, total = 0;
      for (int n = 4 * z; n < 4 * z + 4; ++n) {
        total += w[n];
        exact += (long double)w[n] * t[n] / 256;
        int en;
        if (w[n] != 0 && t[n] != 0) {
          std::frexp(t[n], &en);
          e = std::max(e, en);
        }
      }
      if (e != INT32_MIN) {
        any = true;
        bound += std::ldexp(1.0L, e - 28) * total / 256;
      }
    }
    const float v = filterChannel3D(t, w);
    if (!any) {
      ASSERT_EQ(v, 0.0f);
      continue;
    }
    if (v != 0)
      bound += std::ldexp(1.0L, std::ilogb(v) - 24);
    ASSERT_LE(std::fabs(v - exact), bound) << it;
  }
}
