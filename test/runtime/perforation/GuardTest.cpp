//===- GuardTest.cpp - the guard's checks and sampling, without a GPU -----===//
//
// validateGuardLaunch refuses every bad launch description with one line
// naming the cause; sampleTiles draws interior tiles only, reproducibly.
// The GPU half (copies, the stacked launch, the fallback) is in
// GpuPerforationTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/perforation/Guard.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace approx::rt;
namespace pf = approx::rt::perforation;

namespace {

/// A fake device view: validation never dereferences it.
BufferView view(size_t bytes, ScalarType t = ScalarType::F32) {
  return BufferView{0x1000, bytes, t};
}

pf::GuardLaunch goodLaunch() {
  pf::GuardLaunch l;
  l.kernel = "k";
  l.height = 100, l.width = 200;
  l.tileRows = 8, l.tileCols = 32, l.haloRows = 1, l.haloCols = 1;
  l.args = {Arg::memref(view(100 * 200 * 4), {100, 200}),
            Arg::memref(view(100 * 200 * 4), {100, 200}), Arg::floating(0.5)};
  l.images = {0};
  l.output = 1;
  return l;
}

std::string why(const pf::GuardLaunch &l, const pf::GuardOptions &o = {}) {
  Status s = pf::validateGuardLaunch(l, o);
  return s.isOk() ? "" : s.toString();
}

TEST(PerforationGuard, AcceptsAGoodLaunch) { EXPECT_EQ(why(goodLaunch()), ""); }

TEST(PerforationGuard, RefusesBadLaunches) {
  pf::GuardLaunch l = goodLaunch();
  l.output = 7;
  EXPECT_NE(why(l).find("output index 7 is not an argument"), std::string::npos);
  l = goodLaunch();
  l.images = {2};
  EXPECT_NE(why(l).find("argument 2 (input) is float 0.5, not a 100x200 image"),
            std::string::npos)
      << why(l);
  l = goodLaunch();
  l.args[0] = Arg::memref(view(100 * 200 * 4), {200, 100});
  EXPECT_NE(why(l).find("not a 100x200 image"), std::string::npos);
  l = goodLaunch();
  l.images = {1};
  EXPECT_NE(why(l).find("both an input and the output"), std::string::npos);
  l = goodLaunch();
  l.images = {};
  EXPECT_NE(why(l).find("no input image"), std::string::npos);
  l = goodLaunch();
  l.args[1] = Arg::memref(view(100), {100, 200});
  EXPECT_NE(why(l).find("fewer than its shape needs"), std::string::npos);
  l = goodLaunch();
  l.args[1] = Arg::memref(view(100 * 200 * 4, ScalarType::I32), {100, 200});
  EXPECT_NE(why(l).find("the output is i32"), std::string::npos) << why(l);
  l = goodLaunch();
  l.tileRows = 0;
  EXPECT_NE(why(l).find("must be positive"), std::string::npos);
  l = goodLaunch();
  l.haloCols = -1;
  EXPECT_NE(why(l).find("must be positive"), std::string::npos);
  pf::GuardOptions o;
  o.samples = 0;
  EXPECT_NE(why(goodLaunch(), o).find("samples 0 outside"), std::string::npos);
  o = {};
  o.bound = NAN;
  EXPECT_NE(why(goodLaunch(), o).find("must be >= 0"), std::string::npos);
}

TEST(PerforationGuard, SamplesInteriorTilesOnly) {
  const int64_t H = 77, W = 150, TY = 8, TX = 32, hy = 2, hx = 3;
  Expected<std::vector<std::pair<int64_t, int64_t>>> t =
      pf::sampleTiles(H, W, TY, TX, hy, hx, 500, 42);
  ASSERT_TRUE(t.isOk()) << t.status().toString();
  ASSERT_EQ(t->size(), 500u);
  bool sawFirst = false, sawLast = false;
  for (auto [r, c] : *t) {
    EXPECT_EQ(r % TY, 0);
    EXPECT_EQ(c % TX, 0);
    EXPECT_GE(r - hy, 0);
    EXPECT_GE(c - hx, 0);
    EXPECT_LE(r + TY + hy, H);
    EXPECT_LE(c + TX + hx, W);
    sawFirst |= r == TY;            // row 0 has no room for its halo
    sawLast |= r == (H - TY - hy) / TY * TY;
  }
  EXPECT_TRUE(sawFirst && sawLast);
  // The same seed, the same tiles; another seed, others.
  auto again = pf::sampleTiles(H, W, TY, TX, hy, hx, 500, 42);
  auto other = pf::sampleTiles(H, W, TY, TX, hy, hx, 500, 43);
  ASSERT_TRUE(again.isOk() && other.isOk());
  EXPECT_EQ(*t, *again);
  EXPECT_NE(*t, *other);
  // A halo of 0 admits the border tiles.
  auto all = pf::sampleTiles(16, 64, 8, 32, 0, 0, 200, 1);
  ASSERT_TRUE(all.isOk());
  bool corner = false;
  for (auto p : *all)
    corner |= p == std::pair<int64_t, int64_t>{0, 0};
  EXPECT_TRUE(corner);
}

TEST(PerforationGuard, RefusesImagesWithoutInteriorTiles) {
  auto t = pf::sampleTiles(9, 200, 8, 32, 1, 1, 4, 1);
  ASSERT_FALSE(t.isOk());
  EXPECT_NE(t.status().toString().find("a 9x200 image has no interior tile"),
            std::string::npos)
      << t.status().toString();
  EXPECT_FALSE(pf::sampleTiles(100, 100, 8, 32, 0, 0, 0, 1).isOk());
}

} // namespace
