//===- GpuTexture3DTest.cpp - texture_3d resources on a real GPU ----------===//
//
// ctest label "gpu" (gpu.Texture3D). Runs data/texture3d/lut3.{ptx,
// manifest.json}: a hand-written PTX kernel that fetches a 3-D texture at
// given coordinates through the handle the runtime wrote to its global (no
// nvcc needed). Exits 77 (skipped) with the reason printed when there is no
// usable GPU.
//
//   TexelCentres       each texel of the 2x2x2 linear, clamped table read
//                      at its centre (x + 0.5, y + 0.5, z + 0.5) is exact;
//   CellCentreIsTheMean  at (1, 1, 1) trilinear filtering gives the mean
//                      of the 8 corners (within 1e-6); at quarter points
//                      and outside (clamp) the blend the 9-bit weights give
//                      exactly for these fractions;
//   SecondTableLayout  the 3x2x4, two-channel table: channel 0 at every
//                      texel centre is 100z + 10y + x (x fastest, then y,
//                      then z, channels interleaved);
//   NothingLeftAfterUnload  loading, switching tables and unloading three
//                      times leaves no device memory behind.
//
//===----------------------------------------------------------------------===//
#include "GpuTestMain.h"

#include "approx/runtime/core/Runtime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

using namespace approx::rt;

namespace {

const std::string kManifest =
    std::string(APPROX_RT_TEST_DATA) + "/texture3d/lut3.manifest.json";
std::shared_ptr<Context> gCtx;
/// The kernel's memrefs are memref<32xf32>, abi bare.
constexpr size_t kSlots = 32;
/// The 2x2x2 table of lut3.manifest.json, x fastest (gen.py's CORNERS).
const float kCorners[8] = {0.0f,  0.125f, 0.375f, 0.875f,
                           0.25f, 0.75f,  0.625f, 0.5f};

std::unique_ptr<Module> loadModule() {
  return test::loadModuleAt(gCtx, kManifest);
}

/// A memref<32xf32> holding `v` (zero-padded).
DeviceBuffer upload(std::vector<float> v) {
  v.resize(kSlots, 0.0f);
  Expected<DeviceBuffer> b =
      DeviceBuffer::fromHost(gCtx, v.data(), v.size(), ScalarType::F32);
  EXPECT_TRUE(b.isOk()) << b.status().toString();
  return b ? b.take() : DeviceBuffer();
}

/// tex.3d(lut3, (xs[i], ys[i], zs[i])).x for every i (at most 32).
std::vector<float> sample(Module &m, const std::vector<float> &xs,
                          const std::vector<float> &ys,
                          const std::vector<float> &zs) {
  size_t n = xs.size();
  EXPECT_LE(n, kSlots);
  DeviceBuffer out = upload(std::vector<float>(kSlots, -1.0f));
  DeviceBuffer dx = upload(xs), dy = upload(ys), dz = upload(zs);
  LaunchConfig cfg;
  cfg.block.x = unsigned(kSlots);
  Status s = m.launchSync("lut3_fetch", cfg,
                          {Arg::memref(out.view(), {int64_t(kSlots)}),
                           Arg::memref(dx.view(), {int64_t(kSlots)}),
                           Arg::memref(dy.view(), {int64_t(kSlots)}),
                           Arg::memref(dz.view(), {int64_t(kSlots)}),
                           Arg::integer(int64_t(n))});
  EXPECT_TRUE(s.isOk()) << s.toString();
  std::vector<float> got(kSlots);
  s = out.copyToHost(got.data(), kSlots * 4);
  EXPECT_TRUE(s.isOk()) << s.toString();
  got.resize(n);
  return got;
}

} // namespace

TEST(Texture3D, TexelCentres) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  std::vector<float> xs, ys, zs, want;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) {
        xs.push_back(x + 0.5f);
        ys.push_back(y + 0.5f);
        zs.push_back(z + 0.5f);
        want.push_back(kCorners[x + 2 * y + 4 * z]);
      }
  // At a centre the filter's weight on the neighbour is exactly 0.
  EXPECT_EQ(sample(*m, xs, ys, zs), want);
  EXPECT_EQ(m->liveTextures(), 1u);
  Expected<int64_t> h = m->readKnobSymbol("lut3");
  ASSERT_TRUE(h.isOk()) << h.status().toString();
  EXPECT_NE(*h, 0);
}

TEST(Texture3D, CellCentreIsTheMean) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  float mean = 0;
  for (float c : kCorners)
    mean += c / 8;
  ASSERT_EQ(mean, 0.4375f);
  std::vector<float> got = sample(*m, {1.0f}, {1.0f}, {1.0f});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NEAR(got[0], mean, 1e-6);
  std::printf("cell centre: %.9g (mean of the corners %.9g)\n", got[0], mean);
  // Quarter points (weights 1/4, 3/4: exact in the filter's 9-bit fixed
  // point) and clamping outside the table on every axis.
  auto v = [](int x, int y, int z) { return kCorners[x + 2 * y + 4 * z]; };
  std::vector<float> xs = {0.75f, 0.5f, 0.5f, -5.0f, 9.0f, 1.0f};
  std::vector<float> ys = {0.5f, 1.25f, 0.5f, -5.0f, 9.0f, -3.0f};
  std::vector<float> zs = {0.5f, 0.5f, 1.5f, -5.0f, 9.0f, 7.0f};
  std::vector<float> want = {
      0.75f * v(0, 0, 0) + 0.25f * v(1, 0, 0), // x - 0.5 = 0.25
      0.25f * v(0, 0, 0) + 0.75f * v(0, 1, 0), // y - 0.5 = 0.75
      v(0, 0, 1),                              // a centre
      v(0, 0, 0),                              // clamped low
      v(1, 1, 1),                              // clamped high
      0.5f * v(0, 0, 1) + 0.5f * v(1, 0, 1),   // x centre, y low, z high
  };
  got = sample(*m, xs, ys, zs);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-6)
        << "(" << xs[i] << ", " << ys[i] << ", " << zs[i] << ")";
}

TEST(Texture3D, SecondTableLayout) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  ASSERT_OK(m->setKnob("lut3", 1));
  std::vector<float> xs, ys, zs, want;
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x) {
        xs.push_back(x + 0.5f);
        ys.push_back(y + 0.5f);
        zs.push_back(z + 0.5f);
        want.push_back(100.0f * z + 10.0f * y + x);
      }
  EXPECT_EQ(sample(*m, xs, ys, zs), want);
}

TEST(Texture3D, NothingLeftAfterUnload) {
  test::expectDeviceMemoryReturns(gCtx, [&] {
    std::unique_ptr<Module> m = loadModule();
    ASSERT_TRUE(m);
    for (int64_t v : {0, 1, 0, 1}) {
      ASSERT_OK(m->setKnob("lut3", v));
      EXPECT_FALSE(sample(*m, {0.5f}, {0.5f}, {0.5f}).empty());
    }
  });
}

int main(int argc, char **argv) {
  return approx::rt::test::gpuTestMain(argc, argv, gCtx);
}
