//===- ReferenceTest.cpp - CPU reference of kernel perforation ------------===//
//
// docs/perforation.md ("Semantics") checked on hand-worked tiles: the loaded
// sets written out literally, the nn tie rule, linear weights and their
// edge fallback, stencil halos, clamp and zero borders, 1-D sectors for f32
// and f64, output perforation's coordinates, whole odd-sized images against
// a direct (untiled) stencil, every validation message, and the scheme
// names.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/perforation/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

using namespace approx::rt;
using namespace approx::rt::perforation;

namespace {

Scheme scheme(SchemeKind kind, int64_t skip = 1, Recon recon = Recon::Nearest) {
  Scheme s;
  s.kind = kind;
  s.skip = skip;
  s.recon = recon;
  return s;
}

/// An H x W image with in[y][x] = 100 y + x (every element distinct).
template <typename T> std::vector<T> ramp(int64_t H, int64_t W) {
  std::vector<T> v(size_t(H * W));
  for (int64_t y = 0; y < H; ++y)
    for (int64_t x = 0; x < W; ++x)
      v[size_t(y * W + x)] = T(100 * y + x);
  return v;
}

/// A smooth-ish image with non-representable-in-few-bits values, so that
/// linear reconstruction rounds.
template <typename T> std::vector<T> wavy(int64_t H, int64_t W) {
  std::vector<T> v(size_t(H * W));
  for (int64_t y = 0; y < H; ++y)
    for (int64_t x = 0; x < W; ++x)
      v[size_t(y * W + x)] =
          T(std::sin(0.37 * double(y) + 0.11 * double(x)) * 3.1 +
            0.013 * double(x * y));
  return v;
}

/// The error's message contains `text`.
void expectError(const Status &s, const std::string &text) {
  ASSERT_FALSE(s.isOk()) << "expected an error containing '" << text << "'";
  EXPECT_EQ(s.code(), StatusCode::InvalidArgument) << s.toString();
  EXPECT_NE(s.message().find(text), std::string::npos) << s.toString();
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.toString();
}

std::vector<uint8_t> mask2D(int64_t oy, int64_t ox, const Tile2D &t,
                            const Scheme &s) {
  Expected<std::vector<uint8_t>> m = loadedMask2D(oy, ox, t, s);
  EXPECT_TRUE(m.isOk()) << m.status().toString();
  return m.isOk() ? *m : std::vector<uint8_t>();
}

const Tile2D k4x4h1{4, 4, 1, 1}; // 6 x 6 buffer

} // namespace

//===----------------------------------------------------------------------===//
// Loaded sets.
//===----------------------------------------------------------------------===//

TEST(ReferenceMask, Accurate) {
  EXPECT_EQ(mask2D(3, -2, k4x4h1, scheme(SchemeKind::Accurate)),
            std::vector<uint8_t>(36, 1));
}

TEST(ReferenceMask, Rows1PhaseFollowsTheImage) {
  // oy = 0: buffer rows stand for gy = -1..4; even gy are loaded.
  const std::vector<uint8_t> at0 = {
      0, 0, 0, 0, 0, 0, //
      1, 1, 1, 1, 1, 1, //
      0, 0, 0, 0, 0, 0, //
      1, 1, 1, 1, 1, 1, //
      0, 0, 0, 0, 0, 0, //
      1, 1, 1, 1, 1, 1, //
  };
  EXPECT_EQ(mask2D(0, 0, k4x4h1, scheme(SchemeKind::Rows, 1)), at0);
  // oy = 1: gy = 0..5, the phase flips.
  const std::vector<uint8_t> at1 = {
      1, 1, 1, 1, 1, 1, //
      0, 0, 0, 0, 0, 0, //
      1, 1, 1, 1, 1, 1, //
      0, 0, 0, 0, 0, 0, //
      1, 1, 1, 1, 1, 1, //
      0, 0, 0, 0, 0, 0, //
  };
  EXPECT_EQ(mask2D(1, 7, k4x4h1, scheme(SchemeKind::Rows, 1)), at1);
  // The next tile down (oy = 4, gy = 3..8) loads gy 4, 6, 8 (i = 1, 3, 5)
  // as the first did (gy 4 is its last buffer row): the same image rows.
  EXPECT_EQ(mask2D(4, 0, k4x4h1, scheme(SchemeKind::Rows, 1)), at0);
  EXPECT_EQ(mask2D(5, 0, k4x4h1, scheme(SchemeKind::Rows, 1)), at1);
}

TEST(ReferenceMask, Rows2NegativeOrigin) {
  // oy = -5: gy = -6..-1; gy = -6 and -3 are multiples of 3.
  const std::vector<uint8_t> expected = {
      1, 1, 1, 1, 1, 1, //
      0, 0, 0, 0, 0, 0, //
      0, 0, 0, 0, 0, 0, //
      1, 1, 1, 1, 1, 1, //
      0, 0, 0, 0, 0, 0, //
      0, 0, 0, 0, 0, 0, //
  };
  EXPECT_EQ(mask2D(-5, 0, k4x4h1, scheme(SchemeKind::Rows, 2)), expected);
}

TEST(ReferenceMask, Cols2) {
  // ox = 0: gx = -1..4; gx = 0 and 3 are loaded.
  const std::vector<uint8_t> expected = {
      0, 1, 0, 0, 1, 0, //
      0, 1, 0, 0, 1, 0, //
      0, 1, 0, 0, 1, 0, //
      0, 1, 0, 0, 1, 0, //
      0, 1, 0, 0, 1, 0, //
      0, 1, 0, 0, 1, 0, //
  };
  EXPECT_EQ(mask2D(9, 0, k4x4h1, scheme(SchemeKind::Cols, 2)), expected);
}

TEST(ReferenceMask, StencilLoadsTheInterior) {
  const Tile2D t{2, 3, 1, 2}; // 4 x 7 buffer
  const std::vector<uint8_t> expected = {
      0, 0, 0, 0, 0, 0, 0, //
      0, 0, 1, 1, 1, 0, 0, //
      0, 0, 1, 1, 1, 0, 0, //
      0, 0, 0, 0, 0, 0, 0, //
  };
  EXPECT_EQ(mask2D(0, 0, t, scheme(SchemeKind::Stencil)), expected);
  EXPECT_EQ(mask2D(-100, 55, t, scheme(SchemeKind::Stencil, 1, Recon::Linear)),
            expected);
}

TEST(ReferenceMask, LoadedFractionAveragesThePhases) {
  const Tile2D t{5, 7, 2, 1}; // 9 x 9 buffer
  for (int64_t n : {1, 2, 3, 8}) {
    for (SchemeKind kind : {SchemeKind::Rows, SchemeKind::Cols}) {
      // Enumerate the n+1 alignments of the buffer on the image.
      double sum = 0;
      for (int64_t p = 0; p <= n; ++p) {
        std::vector<uint8_t> m = mask2D(p, p, t, scheme(kind, n));
        int64_t loaded = 0;
        for (uint8_t v : m)
          loaded += v;
        sum += double(loaded) / double(m.size());
      }
      EXPECT_NEAR(loadedFraction2D(t, scheme(kind, n)), sum / double(n + 1),
                  1e-15)
          << schemeName(scheme(kind, n));
      EXPECT_DOUBLE_EQ(loadedFraction2D(t, scheme(kind, n)), 1.0 / (n + 1));
    }
  }
  EXPECT_EQ(loadedFraction2D(t, scheme(SchemeKind::Accurate)), 1.0);
  EXPECT_DOUBLE_EQ(loadedFraction2D(t, scheme(SchemeKind::Stencil)),
                   35.0 / 81.0);
  EXPECT_TRUE(std::isnan(loadedFraction2D(t, scheme(SchemeKind::Center))));
  EXPECT_TRUE(std::isnan(loadedFraction2D(t, scheme(SchemeKind::Rows, 9))));
}

//===----------------------------------------------------------------------===//
// 2-D reconstruction.
//===----------------------------------------------------------------------===//

template <typename T>
std::vector<T> tile2D(const std::vector<T> &img, int64_t H, int64_t W,
                      int64_t oy, int64_t ox, const Tile2D &t, const Scheme &s,
                      Border b = Border::Clamp) {
  Expected<std::vector<T>> r =
      referenceTile2D(img.data(), H, W, oy, ox, t, s, b);
  EXPECT_TRUE(r.isOk()) << r.status().toString();
  return r.isOk() ? *r : std::vector<T>();
}

TEST(ReferenceTile2D, AccurateIsTheClampedWindow) {
  const auto img = ramp<float>(10, 12);
  const auto buf =
      tile2D(img, 10, 12, 3, 5, k4x4h1, scheme(SchemeKind::Accurate));
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 6; ++j)
      EXPECT_EQ(buf[size_t(i * 6 + j)], float(100 * (2 + i) + (4 + j)));
}

TEST(ReferenceTile2D, RowsNearestTieTakesTheRowAbove) {
  const auto img = ramp<double>(20, 20);
  // rows1, oy = 6: gy = 5..10, loaded 6, 8, 10 (i = 1, 3, 5). Row i = 2
  // (gy 7) is 1 from both: the tie takes gy 6. Row 0 (gy 5) has no loaded
  // row above in the buffer: it takes gy 6.
  const auto buf =
      tile2D(img, 20, 20, 6, 4, k4x4h1, scheme(SchemeKind::Rows, 1));
  const int64_t expectedRow[6] = {6, 6, 6, 8, 8, 10};
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 6; ++j)
      EXPECT_EQ(buf[size_t(i * 6 + j)], double(100 * expectedRow[i] + 3 + j))
          << i << "," << j;
  // rows3: gy = 5..10 with oy = 6; loaded gy 8 (i = 3). gy 5, 6, 7 have no
  // loaded row above (4 is outside the buffer) -> 8; gy 9, 10 none below.
  const auto b3 =
      tile2D(img, 20, 20, 6, 4, k4x4h1, scheme(SchemeKind::Rows, 3));
  for (int64_t i = 0; i < 6; ++i)
    EXPECT_EQ(b3[size_t(i * 6)], double(100 * 8 + 3)) << i;
  // rows3 with a taller tile: gy 4, 8, 12 loaded, gy 6 is a tie (2 and 2)
  // and takes 4; gy 5 -> 4.
  const Tile2D tall{8, 2, 1, 1}; // gy = 3..12 at oy = 4
  const auto bt = tile2D(img, 20, 20, 4, 4, tall, scheme(SchemeKind::Rows, 3));
  // gy 3: no loaded row above -> 4; gy 7 -> 8; gy 9 -> 8; gy 10 is a tie
  // (2 and 2) -> 8; gy 11 -> 12.
  const int64_t tallRow[10] = {4, 4, 4, 4, 8, 8, 8, 8, 12, 12};
  for (int64_t i = 0; i < 10; ++i)
    EXPECT_EQ(bt[size_t(i * 4)], double(100 * tallRow[i] + 3)) << i;
}

TEST(ReferenceTile2D, ColsNearestAndTie) {
  const auto img = ramp<float>(8, 30);
  // cols1 at ox = 10, halo 1: gx = 9..14, loaded 10, 12, 14. gx 9 -> 10
  // (no left side), 11 -> 10 (tie), 13 -> 12.
  const auto buf =
      tile2D(img, 8, 30, 2, 10, k4x4h1, scheme(SchemeKind::Cols, 1));
  const int64_t col[6] = {10, 10, 10, 12, 12, 14};
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 6; ++j)
      EXPECT_EQ(buf[size_t(i * 6 + j)], float(100 * (1 + i) + col[j]));
}

template <typename T> void checkRows2Linear() {
  const int64_t H = 24, W = 9;
  const auto img = wavy<T>(H, W);
  const Tile2D t{6, 3, 1, 1}; // 8 x 5 buffer
  // oy = 4: gy = 3..10; loaded gy 3, 6, 9 (i = 0, 3, 6).
  const auto buf =
      tile2D(img, H, W, 4, 3, t, scheme(SchemeKind::Rows, 2, Recon::Linear));
  auto in = [&](int64_t y, int64_t x) { return img[size_t(y * W + x)]; };
  const T w1 = T(1) / T(3), w2 = T(2) / T(3);
  for (int64_t j = 0; j < 5; ++j) {
    const int64_t x = 2 + j;
    auto at = [&](int64_t i) { return buf[size_t(i * 5 + j)]; };
    EXPECT_EQ(at(0), in(3, x));
    EXPECT_EQ(at(1), std::fma(T(in(6, x) - in(3, x)), w1, in(3, x)));
    EXPECT_EQ(at(2), std::fma(T(in(6, x) - in(3, x)), w2, in(3, x)));
    EXPECT_EQ(at(3), in(6, x));
    EXPECT_EQ(at(4), std::fma(T(in(9, x) - in(6, x)), w1, in(6, x)));
    EXPECT_EQ(at(5), std::fma(T(in(9, x) - in(6, x)), w2, in(6, x)));
    EXPECT_EQ(at(6), in(9, x));
    // gy 10: no loaded row below in the buffer -> nn -> gy 9.
    EXPECT_EQ(at(7), in(9, x));
    // The value is the interpolation, to rounding.
    EXPECT_NEAR(double(at(1)),
                double(in(3, x)) + (double(in(6, x)) - double(in(3, x))) / 3,
                1e-5);
  }
}

TEST(ReferenceTile2D, Rows2LinearWeightsFloat) { checkRows2Linear<float>(); }
TEST(ReferenceTile2D, Rows2LinearWeightsDouble) { checkRows2Linear<double>(); }

TEST(ReferenceTile2D, LinearFallsBackToNearestAtTheBufferEdges) {
  const auto img = wavy<float>(16, 16);
  auto in = [&](int64_t y, int64_t x) { return img[size_t(y * 16 + x)]; };
  // cols2 at ox = 5: gx = 4..9; loaded 6, 9 (j = 2, 5). j = 0, 1 (gx 4, 5)
  // have no left side: both take gx 6.
  const auto buf = tile2D(img, 16, 16, 5, 5, k4x4h1,
                          scheme(SchemeKind::Cols, 2, Recon::Linear));
  for (int64_t i = 0; i < 6; ++i) {
    auto at = [&](int64_t j) { return buf[size_t(i * 6 + j)]; };
    const int64_t y = 4 + i;
    EXPECT_EQ(at(0), in(y, 6));
    EXPECT_EQ(at(1), in(y, 6));
    EXPECT_EQ(at(3), std::fma(in(y, 9) - in(y, 6), 1.0f / 3.0f, in(y, 6)));
    EXPECT_EQ(at(4), std::fma(in(y, 9) - in(y, 6), 2.0f / 3.0f, in(y, 6)));
  }
}

TEST(ReferenceTile2D, StencilHaloIsTheNearestInterior) {
  const auto img = ramp<double>(20, 20);
  const Tile2D t{3, 4, 2, 1}; // 7 x 6 buffer, interior rows 2..4, cols 1..4
  for (Recon recon : {Recon::Nearest, Recon::Linear}) {
    const auto buf =
        tile2D(img, 20, 20, 5, 6, t, scheme(SchemeKind::Stencil, 1, recon));
    for (int64_t i = 0; i < 7; ++i)
      for (int64_t j = 0; j < 6; ++j) {
        const int64_t si = std::clamp<int64_t>(i, 2, 4);
        const int64_t sj = std::clamp<int64_t>(j, 1, 4);
        EXPECT_EQ(buf[size_t(i * 6 + j)], double(100 * (3 + si) + (5 + sj)))
            << i << "," << j;
      }
  }
}

TEST(ReferenceTile2D, BorderClampAndZeroAtTheCorners) {
  const int64_t H = 5, W = 6;
  const auto img = ramp<float>(H, W);
  // Top-left corner: buffer (0, 0) stands for (-1, -1).
  auto clamp = tile2D(img, H, W, 0, 0, k4x4h1, scheme(SchemeKind::Accurate),
                      Border::Clamp);
  auto zero = tile2D(img, H, W, 0, 0, k4x4h1, scheme(SchemeKind::Accurate),
                     Border::Zero);
  EXPECT_EQ(clamp[0], 0.0f);    // in[0][0]
  EXPECT_EQ(clamp[1], 0.0f);    // (-1, 0) -> in[0][0]
  EXPECT_EQ(clamp[2], 1.0f);    // (-1, 1) -> in[0][1]
  EXPECT_EQ(clamp[6], 0.0f);    // (0, -1) -> in[0][0]
  EXPECT_EQ(clamp[12], 100.0f); // (1, -1) -> in[1][0]
  EXPECT_EQ(zero[2], 0.0f);     // outside
  EXPECT_EQ(zero[12], 0.0f);    // outside
  EXPECT_EQ(zero[6 + 2], 1.0f); // (0, 1) inside
  // Bottom-right: the tile at (4, 4) covers gy 3..8, gx 3..8.
  clamp = tile2D(img, H, W, 4, 4, k4x4h1, scheme(SchemeKind::Accurate),
                 Border::Clamp);
  zero = tile2D(img, H, W, 4, 4, k4x4h1, scheme(SchemeKind::Accurate),
                Border::Zero);
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 6; ++j) {
      const int64_t gy = 3 + i, gx = 3 + j;
      const float inside = float(100 * std::min<int64_t>(gy, H - 1) +
                                 std::min<int64_t>(gx, W - 1));
      EXPECT_EQ(clamp[size_t(i * 6 + j)], inside);
      EXPECT_EQ(zero[size_t(i * 6 + j)], gy < H && gx < W ? inside : 0.0f);
    }
  // Stencil is exact at the image border with clamp: the halo elements
  // beyond the image's top and left edges (row gy = -1 over the interior
  // columns and the corner, column gx = -1 likewise) equal the accurate
  // value. (The right halo column gx = 4 lies inside the image: not exact.)
  const auto st = tile2D(img, H, W, 0, 0, k4x4h1, scheme(SchemeKind::Stencil));
  clamp = tile2D(img, H, W, 0, 0, k4x4h1, scheme(SchemeKind::Accurate));
  for (int64_t k = 0; k < 5; ++k) {
    EXPECT_EQ(st[size_t(k)], clamp[size_t(k)]) << k;         // gy = -1
    EXPECT_EQ(st[size_t(k * 6)], clamp[size_t(k * 6)]) << k; // gx = -1
  }
  EXPECT_NE(st[5], clamp[5]); // (gy -1, gx 4): in[0][3] instead of in[0][4]
  // Rows with zero border: a skipped row inside rebuilt from a zero row.
  zero = tile2D(img, H, W, 0, 0, k4x4h1,
                scheme(SchemeKind::Rows, 1, Recon::Linear), Border::Zero);
  // gy -1 (skipped, no side above) -> gy 0; gy 1 between 0 and 2.
  EXPECT_EQ(zero[0], 0.0f); // (gy 0, gx -1) is outside: 0
  EXPECT_EQ(zero[1], 0.0f); // in[0][0]
  EXPECT_EQ(zero[2 * 6 + 2], std::fma(201.0f - 1.0f, 0.5f, 1.0f));
}

TEST(ReferenceTile2D, SkippedRowsAreNeverRead) {
  // Poison every image row that rows2 skips: no NaN may reach any tile's
  // buffer (H - 1 = 36 is loaded, so the clamped bottom edge is too).
  const int64_t H = 37, W = 20;
  auto img = wavy<float>(H, W);
  for (int64_t y = 0; y < H; ++y)
    if (y % 3 != 0)
      for (int64_t x = 0; x < W; ++x)
        img[size_t(y * W + x)] = std::numeric_limits<float>::quiet_NaN();
  const Tile2D t{8, 8, 2, 2};
  for (Recon recon : {Recon::Nearest, Recon::Linear})
    for (int64_t oy = -8; oy < H + 8; oy += 8)
      for (int64_t ox = -8; ox < W + 8; ox += 8) {
        const auto buf =
            tile2D(img, H, W, oy, ox, t, scheme(SchemeKind::Rows, 2, recon));
        for (float v : buf)
          ASSERT_FALSE(std::isnan(v)) << oy << "," << ox;
      }
}

//===----------------------------------------------------------------------===//
// Whole images.
//===----------------------------------------------------------------------===//

/// A 3x3 Gaussian (1 2 1 / 2 4 2 / 1 2 1) / 16, summed in a fixed order.
template <typename T> T gauss3(const T (&v)[3][3]) {
  const T k[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
  T s = 0;
  for (int di = 0; di < 3; ++di)
    for (int dj = 0; dj < 3; ++dj)
      s += k[di][dj] / T(16) * v[di][dj];
  return s;
}

template <typename T> void checkTiledGaussianIsExact(Border border) {
  const int64_t H = 37, W = 53;
  const auto img = wavy<T>(H, W);
  // The direct stencil, with the border applied to the image coordinates.
  std::vector<T> direct(size_t(H * W));
  for (int64_t y = 0; y < H; ++y)
    for (int64_t x = 0; x < W; ++x) {
      T v[3][3];
      for (int di = -1; di <= 1; ++di)
        for (int dj = -1; dj <= 1; ++dj) {
          int64_t gy = y + di, gx = x + dj;
          bool inside = gy >= 0 && gy < H && gx >= 0 && gx < W;
          if (border == Border::Zero && !inside) {
            v[di + 1][dj + 1] = 0;
            continue;
          }
          gy = std::clamp<int64_t>(gy, 0, H - 1);
          gx = std::clamp<int64_t>(gx, 0, W - 1);
          v[di + 1][dj + 1] = img[size_t(gy * W + gx)];
        }
      direct[size_t(y * W + x)] = gauss3(v);
    }
  auto f = [](const TileView<T> &view, int64_t, int64_t) {
    T v[3][3];
    for (int di = -1; di <= 1; ++di)
      for (int dj = -1; dj <= 1; ++dj)
        v[di + 1][dj + 1] = view(di, dj);
    return gauss3(v);
  };
  // Tiles that divide neither 37 nor 53, and halos of 1 and 2.
  for (Tile2D t :
       {Tile2D{8, 16, 1, 1}, Tile2D{5, 7, 2, 2}, Tile2D{16, 3, 1, 3}}) {
    Expected<std::vector<T>> tiled = applyTiled2D(
        img.data(), H, W, t, scheme(SchemeKind::Accurate), border, f);
    ASSERT_TRUE(tiled.isOk()) << tiled.status().toString();
    ASSERT_EQ(tiled->size(), direct.size());
    for (size_t i = 0; i < direct.size(); ++i)
      ASSERT_EQ((*tiled)[i], direct[i]) << "element " << i;
  }
}

TEST(ReferenceApplyTiled, AccurateGaussianOddSizeClampFloat) {
  checkTiledGaussianIsExact<float>(Border::Clamp);
}
TEST(ReferenceApplyTiled, AccurateGaussianOddSizeClampDouble) {
  checkTiledGaussianIsExact<double>(Border::Clamp);
}
TEST(ReferenceApplyTiled, AccurateGaussianOddSizeZero) {
  checkTiledGaussianIsExact<float>(Border::Zero);
}

TEST(ReferenceApplyTiled, RowsAgreeAcrossTiles) {
  // rows1 nn with the identity stencil: every odd image row becomes the row
  // above it (a tie), whichever tile it falls in, since the grid is the
  // image's.
  const int64_t H = 37, W = 53;
  const auto img = wavy<float>(H, W);
  auto id = [](const TileView<float> &v, int64_t, int64_t) { return v(0, 0); };
  Expected<std::vector<float>> out =
      applyTiled2D(img.data(), H, W, Tile2D{8, 16, 1, 1},
                   scheme(SchemeKind::Rows, 1), Border::Clamp, id);
  ASSERT_TRUE(out.isOk()) << out.status().toString();
  for (int64_t y = 0; y < H; ++y)
    for (int64_t x = 0; x < W; ++x)
      ASSERT_EQ((*out)[size_t(y * W + x)], img[size_t((y - y % 2) * W + x)])
          << y << "," << x;
}

// A stencil must take the view by reference (a copy would hide a read
// outside the buffer).
static_assert(!std::is_copy_constructible_v<TileView<float>>);

TEST(ReferenceApplyTiled, ReadOutsideTheHaloIsAnError) {
  const auto img = ramp<float>(9, 9);
  auto wide = [](const TileView<float> &v, int64_t, int64_t) {
    return v(2, 0);
  };
  Expected<std::vector<float>> out =
      applyTiled2D(img.data(), 9, 9, k4x4h1, scheme(SchemeKind::Accurate),
                   Border::Clamp, wide);
  expectError(out.status(), "outside the buffer of halo (1, 1)");
  expectError(applyTiled2D<float>(nullptr, 9, 9, k4x4h1,
                                  scheme(SchemeKind::Accurate), Border::Clamp,
                                  wide)
                  .status(),
              "applyTiled2D: the image pointer is null");
  expectError(applyTiled2D(img.data(), 0, 9, k4x4h1,
                           scheme(SchemeKind::Accurate), Border::Clamp, wide)
                  .status(),
              "both sizes must be at least 1");
}

//===----------------------------------------------------------------------===//
// 1-D.
//===----------------------------------------------------------------------===//

TEST(Reference1D, MaskFloatSectorsOfEight) {
  const Tile1D t{16, 4}; // B = 24
  // o = 4: g = 0..23; sectors 0 and 2 loaded, 1 skipped.
  Expected<std::vector<uint8_t>> m =
      loadedMask1D(4, t, scheme(SchemeKind::Rows, 1), 4);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  const std::vector<uint8_t> expected = {
      1, 1, 1, 1, 1, 1, 1, 1, //
      0, 0, 0, 0, 0, 0, 0, 0, //
      1, 1, 1, 1, 1, 1, 1, 1, //
  };
  EXPECT_EQ(*m, expected);
}

TEST(Reference1D, MaskDoubleSectorsOfFour) {
  const Tile1D t{16, 4};
  Expected<std::vector<uint8_t>> m =
      loadedMask1D(4, t, scheme(SchemeKind::Rows, 1), 8);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  const std::vector<uint8_t> expected = {
      1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, //
      0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, //
  };
  EXPECT_EQ(*m, expected);
}

TEST(Reference1D, MaskNegativeCoordinates) {
  const Tile1D t{16, 4};
  // o = -5: g = -9..14. floor(-9/8) = -2 (loaded), -8..-1 sector -1
  // (skipped), 0..7 sector 0 (loaded), 8..14 sector 1 (skipped).
  Expected<std::vector<uint8_t>> m =
      loadedMask1D(-5, t, scheme(SchemeKind::Rows, 1), 4);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  const std::vector<uint8_t> expected = {
      1,                      //
      0, 0, 0, 0, 0, 0, 0, 0, //
      1, 1, 1, 1, 1, 1, 1, 1, //
      0, 0, 0, 0, 0, 0, 0,    //
  };
  EXPECT_EQ(*m, expected);
  // Doubles, rows2: g = -9..14 in sectors of 4: floor(g/4) = -3 (g -9),
  // -2 (-8..-5), -1, 0, 1, 2, 3 (12..14); loaded where ≡ 0 mod 3: -3, 0, 3.
  m = loadedMask1D(-5, t, scheme(SchemeKind::Rows, 2), 8);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  const std::vector<uint8_t> expected2 = {
      1,          //
      0, 0, 0, 0, //
      0, 0, 0, 0, //
      1, 1, 1, 1, //
      0, 0, 0, 0, //
      0, 0, 0, 0, //
      1, 1, 1,    //
  };
  EXPECT_EQ(*m, expected2);
}

TEST(Reference1D, StencilAndAccurateMasks) {
  const Tile1D t{4, 2};
  Expected<std::vector<uint8_t>> m =
      loadedMask1D(7, t, scheme(SchemeKind::Stencil), 4);
  ASSERT_TRUE(m.isOk());
  EXPECT_EQ(*m, (std::vector<uint8_t>{0, 0, 1, 1, 1, 1, 0, 0}));
  m = loadedMask1D(7, t, scheme(SchemeKind::Accurate), 8);
  ASSERT_TRUE(m.isOk());
  EXPECT_EQ(*m, std::vector<uint8_t>(8, 1));
}

template <typename T>
std::vector<T> tile1D(const std::vector<T> &in, int64_t o, const Tile1D &t,
                      const Scheme &s, Border b = Border::Clamp) {
  Expected<std::vector<T>> r =
      referenceTile1D(in.data(), int64_t(in.size()), o, t, s, b);
  EXPECT_TRUE(r.isOk()) << r.status().toString();
  return r.isOk() ? *r : std::vector<T>();
}

TEST(Reference1D, FloatRowsNearestAndLinear) {
  std::vector<float> in(64);
  for (size_t g = 0; g < in.size(); ++g)
    in[g] = float(std::sin(0.3 * double(g)) * 5);
  const Tile1D t{16, 4};
  // o = 4: g = 0..23; g 8..15 skipped between a = g 7 and b = g 16 (gap 9).
  const auto nn = tile1D(in, 4, t, scheme(SchemeKind::Rows, 1));
  const auto lin = tile1D(in, 4, t, scheme(SchemeKind::Rows, 1, Recon::Linear));
  for (int64_t g = 0; g < 24; ++g) {
    if (g < 8 || g >= 16) {
      EXPECT_EQ(nn[size_t(g)], in[size_t(g)]);
      EXPECT_EQ(lin[size_t(g)], in[size_t(g)]);
      continue;
    }
    // g - 7 <= 16 - g, i.e. g <= 11, takes a.
    EXPECT_EQ(nn[size_t(g)], g <= 11 ? in[7] : in[16]) << g;
    const float w = float(g - 7) / 9.0f;
    EXPECT_EQ(lin[size_t(g)], std::fma(in[16] - in[7], w, in[7])) << g;
  }
}

TEST(Reference1D, DoubleRowsEdgesAndNegativeStart) {
  std::vector<double> in(40);
  for (size_t g = 0; g < in.size(); ++g)
    in[g] = 1.5 * double(g) + 0.25 * double(g % 3);
  const Tile1D t{8, 3}; // B = 14
  // o = 1: g = -2..11; sectors of 4: -2,-1 in sector -1 (skipped), 0..3
  // loaded, 4..7 skipped, 8..11 loaded.
  const auto lin = tile1D(in, 1, t, scheme(SchemeKind::Rows, 1, Recon::Linear));
  // g -2, -1: no loaded element before them in the buffer -> g 0 (clamped
  // in[0]).
  EXPECT_EQ(lin[0], in[0]);
  EXPECT_EQ(lin[1], in[0]);
  for (int64_t g = 4; g < 8; ++g)
    EXPECT_EQ(lin[size_t(g + 2)],
              std::fma(in[8] - in[3], double(g - 3) / 5.0, in[3]))
        << g;
  // Zero border: the loaded g 0..3 and 8..11 are inside; the edge fallback
  // copies g 0.
  const auto z = tile1D(in, 1, t, scheme(SchemeKind::Rows, 1), Border::Zero);
  EXPECT_EQ(z[0], in[0]);
  // Accurate with zero border reads 0 outside.
  const auto acc = tile1D(in, 1, t, scheme(SchemeKind::Accurate), Border::Zero);
  EXPECT_EQ(acc[0], 0.0);
  EXPECT_EQ(acc[1], 0.0);
  EXPECT_EQ(acc[2], in[0]);
  // Negative start far outside with clamp: all in[0].
  const auto far = tile1D(in, -100, t, scheme(SchemeKind::Rows, 1));
  for (double v : far)
    EXPECT_EQ(v, in[0]);
}

TEST(Reference1D, StencilAndClampAtTheEnd) {
  std::vector<float> in = {1, 2, 3, 4, 5, 6, 7};
  const Tile1D t{4, 2};
  // o = 5: g = 3..10, interior g 5..8.
  const auto st = tile1D(in, 5, t, scheme(SchemeKind::Stencil));
  EXPECT_EQ(st, (std::vector<float>{6, 6, 6, 7, 7, 7, 7, 7}));
  const auto acc = tile1D(in, 5, t, scheme(SchemeKind::Accurate));
  EXPECT_EQ(acc, (std::vector<float>{4, 5, 6, 7, 7, 7, 7, 7}));
  const auto zero =
      tile1D(in, 5, t, scheme(SchemeKind::Accurate), Border::Zero);
  EXPECT_EQ(zero, (std::vector<float>{4, 5, 6, 7, 0, 0, 0, 0}));
}

//===----------------------------------------------------------------------===//
// Output perforation.
//===----------------------------------------------------------------------===//

std::pair<int64_t, int64_t> source(int64_t y, int64_t x, int64_t H, int64_t W,
                                   const Scheme &s) {
  Expected<std::pair<int64_t, int64_t>> r = outputSource(y, x, H, W, s);
  EXPECT_TRUE(r.isOk()) << r.status().toString();
  return r.isOk() ? *r : std::pair<int64_t, int64_t>(-1, -1);
}

TEST(ReferenceOutput, RowsGroupsAndTheLastPartialGroup) {
  // rows1, H = 5: groups {0,1} -> 0, {2,3} -> 2, {4} -> 4.
  const int64_t r1[5] = {0, 0, 2, 2, 4};
  for (int64_t y = 0; y < 5; ++y)
    EXPECT_EQ(source(y, 3, 5, 7, scheme(SchemeKind::Rows, 1)),
              std::make_pair(r1[y], int64_t(3)));
  // rows4 (floor(4/2) = 2), H = 7: {0..4} -> 2, {5, 6} -> min(7, 6) = 6.
  const int64_t r4[7] = {2, 2, 2, 2, 2, 6, 6};
  for (int64_t y = 0; y < 7; ++y)
    EXPECT_EQ(source(y, 0, 7, 1, scheme(SchemeKind::Rows, 4)).first, r4[y]);
  // rows2 (floor(2/2) = 1), H = 8: {0,1,2} -> 1, {3,4,5} -> 4, {6,7} -> 7.
  const int64_t r2[8] = {1, 1, 1, 4, 4, 4, 7, 7};
  for (int64_t y = 0; y < 8; ++y)
    EXPECT_EQ(source(y, 0, 8, 1, scheme(SchemeKind::Rows, 2)).first, r2[y]);
  // A skip beyond the output: one group, clamped.
  EXPECT_EQ(source(2, 0, 3, 1, scheme(SchemeKind::Rows, 1000)).first, 2);
  EXPECT_EQ(
      source(0, 0, 3, 1,
             scheme(SchemeKind::Rows, std::numeric_limits<int64_t>::max()))
          .first,
      2);
}

TEST(ReferenceOutput, ColsCenterAccurate) {
  EXPECT_EQ(source(4, 5, 9, 6, scheme(SchemeKind::Cols, 2)),
            std::make_pair(int64_t(4), int64_t(4))); // {3,4,5} -> 4
  EXPECT_EQ(source(4, 2, 9, 6, scheme(SchemeKind::Cols, 2)),
            std::make_pair(int64_t(4), int64_t(1)));
  EXPECT_EQ(source(8, 5, 9, 6, scheme(SchemeKind::Center, 3)),
            std::make_pair(int64_t(8), int64_t(5))); // groups of 4: 8+1 -> 8
  EXPECT_EQ(source(6, 3, 9, 6, scheme(SchemeKind::Center, 3)),
            std::make_pair(int64_t(5), int64_t(1)));
  EXPECT_EQ(source(6, 3, 9, 6, scheme(SchemeKind::Accurate)),
            std::make_pair(int64_t(6), int64_t(3)));
}

TEST(ReferenceOutput, Errors) {
  expectError(outputSource(0, 0, 4, 4, scheme(SchemeKind::Stencil)).status(),
              "is input perforation; output perforation takes");
  expectError(
      outputSource(0, 0, 4, 4, scheme(SchemeKind::Rows, 1, Recon::Linear))
          .status(),
      "output perforation copies computed elements (nn only)");
  expectError(outputSource(4, 0, 4, 4, scheme(SchemeKind::Rows)).status(),
              "output coordinate (4, 0) lies outside the 4 x 4 output");
  expectError(outputSource(0, -1, 4, 4, scheme(SchemeKind::Rows)).status(),
              "lies outside");
  expectError(outputSource(0, 0, 0, 4, scheme(SchemeKind::Rows)).status(),
              "an output of 0 x 4 elements: both sizes must be at least 1");
  expectError(outputSource(0, 0, 4, 4, scheme(SchemeKind::Rows, 0)).status(),
              "a skip of 0: a scheme skips n >= 1 of every n+1");
}

//===----------------------------------------------------------------------===//
// Validation: one test per message.
//===----------------------------------------------------------------------===//

TEST(ReferenceValidate2D, AcceptsTheLimits) {
  EXPECT_TRUE(
      validate2D(Tile2D{1, 1, 1, 1}, scheme(SchemeKind::Rows, 2)).isOk());
  EXPECT_TRUE(
      validate2D(Tile2D{4, 4, 0, 0}, scheme(SchemeKind::Cols, 3)).isOk());
  // 2^31 elements exactly.
  EXPECT_TRUE(
      validate2D(Tile2D{1 << 15, 1 << 16, 0, 0}, scheme(SchemeKind::Accurate))
          .isOk());
}

TEST(ReferenceValidate2D, TileSize) {
  expectError(validate2D(Tile2D{0, 4, 0, 0}, scheme(SchemeKind::Accurate)),
              "a tile of 0 x 4 elements: both sizes must be at least 1");
  expectError(validate2D(Tile2D{4, -1, 0, 0}, scheme(SchemeKind::Accurate)),
              "a tile of 4 x -1 elements");
}

TEST(ReferenceValidate2D, NegativeHalo) {
  expectError(validate2D(Tile2D{4, 4, 0, -1}, scheme(SchemeKind::Accurate)),
              "a halo of (0, -1) is negative");
}

TEST(ReferenceValidate2D, HaloRowsLargerThanTile) {
  expectError(validate2D(Tile2D{2, 8, 3, 1}, scheme(SchemeKind::Accurate)),
              "a halo of 3 rows is larger than the 2-row tile");
}

TEST(ReferenceValidate2D, HaloColsLargerThanTile) {
  expectError(validate2D(Tile2D{8, 2, 1, 3}, scheme(SchemeKind::Stencil)),
              "a halo of 3 columns is larger than the 2-column tile");
}

TEST(ReferenceValidate2D, BufferOver2To31) {
  expectError(validate2D(Tile2D{1 << 15, (1 << 16) + 1, 0, 0},
                         scheme(SchemeKind::Accurate)),
              "needs a buffer of 32768 x 65537 elements, more than 2^31");
  // The product overflows 64 bits: the same message.
  expectError(validate2D(Tile2D{int64_t(1) << 40, int64_t(1) << 40, 0, 0},
                         scheme(SchemeKind::Accurate)),
              "more than 2^31");
}

TEST(ReferenceValidate2D, SizeOverflow) {
  const int64_t big = std::numeric_limits<int64_t>::max() - 1;
  expectError(validate2D(Tile2D{big, 1, 2, 0}, scheme(SchemeKind::Accurate)),
              "overflows 64-bit sizes");
}

TEST(ReferenceValidate2D, SkipBelowOne) {
  expectError(validate2D(k4x4h1, scheme(SchemeKind::Rows, 0)),
              "a skip of 0: a scheme skips n >= 1 of every n+1");
}

TEST(ReferenceValidate2D, CenterIsOutputOnly) {
  expectError(validate2D(k4x4h1, scheme(SchemeKind::Center, 1)),
              "scheme 'center1' is output perforation; a tile load takes "
              "accurate, rows, cols or stencil");
}

TEST(ReferenceValidate2D, RowsSkipTooLarge) {
  EXPECT_TRUE(validate2D(k4x4h1, scheme(SchemeKind::Rows, 5)).isOk());
  expectError(validate2D(k4x4h1, scheme(SchemeKind::Rows, 6)),
              "scheme 'rows6:nn' needs 6+1 buffer rows to keep one loaded "
              "row; the buffer has 6");
}

TEST(ReferenceValidate2D, ColsSkipTooLarge) {
  expectError(validate2D(Tile2D{8, 2, 0, 1},
                         scheme(SchemeKind::Cols, 4, Recon::Linear)),
              "scheme 'cols4:linear' needs 4+1 buffer columns to keep one "
              "loaded column; the buffer has 4");
}

TEST(ReferenceValidate2D, TileFunctionsCheckTheImage) {
  const auto img = ramp<float>(4, 4);
  const Scheme acc = scheme(SchemeKind::Accurate);
  expectError(
      referenceTile2D<float>(nullptr, 4, 4, 0, 0, k4x4h1, acc, Border::Clamp)
          .status(),
      "referenceTile2D: the image pointer is null");
  expectError(
      referenceTile2D(img.data(), 4, 0, 0, 0, k4x4h1, acc, Border::Clamp)
          .status(),
      "referenceTile2D: an image of 4 x 0 elements");
  expectError(referenceTile2D(img.data(), 4, 4,
                              std::numeric_limits<int64_t>::min(), 0, k4x4h1,
                              acc, Border::Clamp)
                  .status(),
              "tile origin oy = ");
  expectError(
      loadedMask2D(0, std::numeric_limits<int64_t>::max() - 2, k4x4h1, acc)
          .status(),
      "tile origin ox = 9223372036854775805 puts the buffer's "
      "coordinates beyond 64 bits");
  // A bad tile is refused by the tile functions too.
  expectError(referenceTile2D(img.data(), 4, 4, 0, 0, k4x4h1,
                              scheme(SchemeKind::Center), Border::Clamp)
                  .status(),
              "is output perforation");
}

TEST(ReferenceValidate1D, ElementSize) {
  expectError(validate1D(Tile1D{8, 1}, scheme(SchemeKind::Accurate), 3),
              "an element of 3 bytes does not divide a 32-byte sector");
  expectError(validate1D(Tile1D{8, 1}, scheme(SchemeKind::Accurate), 64),
              "an element of 64 bytes");
}

TEST(ReferenceValidate1D, TileSize) {
  expectError(validate1D(Tile1D{0, 0}, scheme(SchemeKind::Accurate), 4),
              "a 1-D tile of 0 elements: the size must be at least 1");
}

TEST(ReferenceValidate1D, NegativeHalo) {
  expectError(validate1D(Tile1D{8, -2}, scheme(SchemeKind::Accurate), 4),
              "a halo of -2 elements is negative");
}

TEST(ReferenceValidate1D, HaloLargerThanTile) {
  expectError(validate1D(Tile1D{4, 5}, scheme(SchemeKind::Stencil), 4),
              "a halo of 5 elements is larger than the 4-element tile");
}

TEST(ReferenceValidate1D, BufferOver2To31) {
  expectError(validate1D(Tile1D{(int64_t(1) << 31) - 1, 1},
                         scheme(SchemeKind::Accurate), 4),
              "needs a buffer of 2147483649 elements, more than 2^31");
}

TEST(ReferenceValidate1D, SizeOverflow) {
  const int64_t big = std::numeric_limits<int64_t>::max() - 1;
  expectError(validate1D(Tile1D{big, 1}, scheme(SchemeKind::Accurate), 4),
              "overflows 64-bit sizes");
}

TEST(ReferenceValidate1D, SkipBelowOne) {
  expectError(validate1D(Tile1D{8, 1}, scheme(SchemeKind::Rows, -3), 4),
              "a skip of -3");
}

TEST(ReferenceValidate1D, ColsAndCenterRefused) {
  expectError(validate1D(Tile1D{64, 1}, scheme(SchemeKind::Cols, 1), 4),
              "scheme 'cols1:nn' is not a 1-D input scheme: take accurate, "
              "rows (whole 32-byte sectors) or stencil");
  expectError(validate1D(Tile1D{64, 1}, scheme(SchemeKind::Center, 2), 8),
              "scheme 'center2' is not a 1-D input scheme");
}

TEST(ReferenceValidate1D, RowsMayLeaveNoLoadedElement) {
  // f32, rows2: a skipped run is 2 sectors = 16 elements; B = 17 suffices.
  EXPECT_TRUE(validate1D(Tile1D{15, 1}, scheme(SchemeKind::Rows, 2), 4).isOk());
  expectError(validate1D(Tile1D{14, 1}, scheme(SchemeKind::Rows, 2), 4),
              "scheme 'rows2:nn' skips 2 of every 2+1 sectors of 8 elements: "
              "the 16-element buffer may hold no loaded element (it needs "
              "n*8+1 = 17)");
  // At that limit every alignment holds a loaded element.
  for (int64_t o = -40; o < 40; ++o) {
    Expected<std::vector<uint8_t>> m =
        loadedMask1D(o, Tile1D{15, 1}, scheme(SchemeKind::Rows, 2), 4);
    ASSERT_TRUE(m.isOk());
    int64_t loaded = 0;
    for (uint8_t v : *m)
      loaded += v;
    EXPECT_GE(loaded, 1) << o;
  }
  // The tile functions refuse it too, with the element size of T.
  std::vector<double> in(100, 1.0);
  expectError(referenceTile1D(in.data(), 100, 0, Tile1D{4, 0},
                              scheme(SchemeKind::Rows, 1), Border::Clamp)
                  .status(),
              "sectors of 4 elements: the 4-element buffer may hold no "
              "loaded element");
}

TEST(ReferenceValidate1D, TileFunctionsCheckTheArray) {
  std::vector<float> in(10, 1.0f);
  const Scheme acc = scheme(SchemeKind::Accurate);
  expectError(
      referenceTile1D<float>(nullptr, 10, 0, Tile1D{4, 1}, acc, Border::Clamp)
          .status(),
      "referenceTile1D: the array pointer is null");
  expectError(
      referenceTile1D(in.data(), 0, 0, Tile1D{4, 1}, acc, Border::Clamp)
          .status(),
      "referenceTile1D: an array of 0 elements: the size must be at least 1");
  expectError(referenceTile1D(in.data(), 10,
                              std::numeric_limits<int64_t>::max(), Tile1D{4, 1},
                              acc, Border::Clamp)
                  .status(),
              "tile origin o = ");
}

//===----------------------------------------------------------------------===//
// Names.
//===----------------------------------------------------------------------===//

TEST(ReferenceNames, CanonicalNames) {
  EXPECT_EQ(schemeName(scheme(SchemeKind::Accurate)), "accurate");
  EXPECT_EQ(schemeName(scheme(SchemeKind::Rows, 1)), "rows1:nn");
  EXPECT_EQ(schemeName(scheme(SchemeKind::Rows, 2, Recon::Linear)),
            "rows2:linear");
  EXPECT_EQ(schemeName(scheme(SchemeKind::Cols, 3)), "cols3:nn");
  EXPECT_EQ(schemeName(scheme(SchemeKind::Stencil)), "stencil:nn");
  EXPECT_EQ(schemeName(scheme(SchemeKind::Stencil, 1, Recon::Linear)),
            "stencil:linear");
  EXPECT_EQ(schemeName(scheme(SchemeKind::Center, 2)), "center2");
}

TEST(ReferenceNames, RoundTrip) {
  for (const char *name :
       {"accurate", "rows1:nn", "rows2:linear", "cols1:nn", "cols1024:linear",
        "stencil:nn", "stencil:linear", "center1", "center7"}) {
    Expected<Scheme> s = parseScheme(name);
    ASSERT_TRUE(s.isOk()) << name << ": " << s.status().toString();
    EXPECT_EQ(schemeName(*s), name);
  }
  // Short forms: nn is the default.
  struct {
    const char *in, *canonical;
  } shortForms[] = {{"rows2", "rows2:nn"},
                    {"cols5", "cols5:nn"},
                    {"stencil", "stencil:nn"},
                    {"accurate:nn", "accurate"},
                    {"center3:nn", "center3"}};
  for (auto &c : shortForms) {
    Expected<Scheme> s = parseScheme(c.in);
    ASSERT_TRUE(s.isOk()) << c.in << ": " << s.status().toString();
    EXPECT_EQ(schemeName(*s), c.canonical);
  }
  Expected<Scheme> s = parseScheme("cols12:linear");
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->kind, SchemeKind::Cols);
  EXPECT_EQ(s->skip, 12);
  EXPECT_EQ(s->recon, Recon::Linear);
}

TEST(ReferenceNames, EmptyName) {
  expectError(parseScheme("").status(), "empty perforation scheme name");
}

TEST(ReferenceNames, UnknownKind) {
  for (const char *bad : {"row1", "Rows1", "1rows", ":nn", "perforated"})
    expectError(parseScheme(bad).status(), "unknown perforation scheme '" +
                                               std::string(bad) + "' (known:");
  // Control bytes are escaped, the message stays one line.
  expectError(parseScheme("bad\nname").status(),
              "unknown perforation scheme 'bad\\x0aname'");
}

TEST(ReferenceNames, MissingSkip) {
  expectError(parseScheme("rows").status(),
              "perforation scheme 'rows' needs a skip n >= 1 after the kind, "
              "as in rows1");
  expectError(parseScheme("center:nn").status(), "as in center1");
}

TEST(ReferenceNames, SkipWhereNoneIsTaken) {
  expectError(parseScheme("stencil2").status(),
              "perforation scheme 'stencil2' takes no skip: only rows, cols "
              "and center skip n of every n+1");
  expectError(parseScheme("accurate1").status(), "takes no skip");
}

TEST(ReferenceNames, BadSkip) {
  for (const char *bad : {"rows0", "rows01", "cols1025", "rows1x", "rows-1",
                          "cols99999999999999999999", "rows 1"})
    expectError(parseScheme(bad).status(),
                "perforation scheme '" + std::string(bad) +
                    "': the skip must be a decimal in [1, 1024] without "
                    "leading zeros");
}

TEST(ReferenceNames, UnknownReconstruction) {
  expectError(parseScheme("rows1:cubic").status(),
              "perforation scheme 'rows1:cubic': unknown reconstruction "
              "'cubic' (known: nn, linear)");
  expectError(parseScheme("rows1:").status(), "unknown reconstruction ''");
  expectError(parseScheme("rows1:nn:nn").status(),
              "unknown reconstruction 'nn:nn'");
}

TEST(ReferenceNames, AccurateTakesNoReconstruction) {
  expectError(parseScheme("accurate:linear").status(),
              "perforation scheme 'accurate:linear': accurate skips nothing "
              "and takes no reconstruction");
}

TEST(ReferenceNames, CenterCopies) {
  expectError(parseScheme("center1:linear").status(),
              "perforation scheme 'center1:linear': center is output "
              "perforation, which copies; linear is not available");
}
