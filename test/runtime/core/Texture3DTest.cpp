//===- Texture3DTest.cpp - texture_3d resources over the fake driver ------===//
//
// The runtime side of `"type": "texture_3d"` (docs/manifest.md), on
// data/texture3d/lut3.{ptx,manifest.json} (the module gpu.Texture3D runs on
// a GPU): a launch creates a 3-D float array with the table's width, height,
// depth and channels (cuArray3DCreate, Flags 0), fills it with exactly the
// manifest's bytes in one cuMemcpy3D (row pitch = row bytes, slice height =
// height), makes a linear, clamped (all three axes), unnormalised texture
// over it and writes the handle to the knob's symbol before the kernel runs;
// switching tables and unloading free everything. Bad tables are one line at
// load naming the JSON path, with nothing made; a driver failure in any of
// the three calls fails the launch naming the call and leaks nothing.
//
//===----------------------------------------------------------------------===//
#include "DataModuleFixture.h"
#include "FakeDriver.h"

#include "approx/runtime/core/Base64.h"
#include "approx/runtime/core/Runtime.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>

using namespace approx::rt;
using approx::rt::fake::FakeDriver;
using json = nlohmann::json;

namespace {

const std::string kData = std::string(APPROX_RT_TEST_DATA) + "/texture3d";

class Texture3DTest : public fake::DataModuleFixture {
protected:
  Texture3DTest() : DataModuleFixture(kData, "lut3") {}
  void SetUp() override {
    DataModuleFixture::SetUp();
    if (HasFatalFailure())
      return;
    // The kernel body: the symbol must hold a live texture when it runs.
    f.setKernel("lut3_fetch", [this](fake::LaunchRecord &r) {
      seenHandles.push_back(uint64_t(r.global("lut3_tex")));
      return f.texture(seenHandles.back()) ? CUDA_SUCCESS
                                           : CUDA_ERROR_INVALID_HANDLE;
    });
  }

  json &resource(json &m) { return m["knobs"][0]["resource"]; }
  json &table(json &m, size_t i) { return resource(m)["options"][i]; }

  /// Launches lut3_fetch once on 32 samples (all at the origin).
  Status launch(Module &m, const LaunchOptions &opts = {}) {
    std::vector<Expected<DeviceBuffer>> b;
    for (int i = 0; i < 4; ++i)
      b.push_back(DeviceBuffer::allocate(ctx, 32 * 4, ScalarType::F32));
    for (auto &x : b)
      if (!x)
        return x.status();
    LaunchConfig cfg;
    cfg.block.x = 32;
    return m.launch("lut3_fetch", cfg,
                    {Arg::memref(b[0]->view(), {32}),
                     Arg::memref(b[1]->view(), {32}),
                     Arg::memref(b[2]->view(), {32}),
                     Arg::memref(b[3]->view(), {32}), Arg::integer(32)},
                    opts);
  }

  /// Expects the texture behind `handle` to be table `opt` of `manifest`:
  /// the 3-D array's shape and exact bytes, and the copy that filled it.
  void expectTable(uint64_t handle, size_t opt) {
    const json t = table(manifest, opt);
    const unsigned w = t["width"], h = t["height"], d = t["depth"],
                   c = t["channels"];
    Expected<std::vector<uint8_t>> bytes = decodeBase64(t["data"]);
    ASSERT_TRUE(bytes.isOk()) << bytes.status().toString();
    ASSERT_EQ(bytes->size(), size_t(w) * h * d * c * 4);

    const fake::FakeTexture *tex = f.texture(handle);
    ASSERT_NE(tex, nullptr);
    EXPECT_EQ(tex->width, w);
    EXPECT_EQ(tex->height, h);
    EXPECT_EQ(tex->depth, d);
    EXPECT_EQ(tex->channels, c);
    ASSERT_EQ(tex->data.size() * 4, bytes->size());
    EXPECT_EQ(std::memcmp(tex->data.data(), bytes->data(), bytes->size()), 0);
    // Linear (trilinear), clamp on x, y and z, unnormalised, float reads.
    EXPECT_EQ(tex->filter, CU_TR_FILTER_MODE_LINEAR);
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(tex->addressModes[i], CU_TR_ADDRESS_MODE_CLAMP) << i;
    EXPECT_EQ(tex->flags, 0u);

    ASSERT_FALSE(f.array3DDescriptors.empty());
    const CUDA_ARRAY3D_DESCRIPTOR &ad = f.array3DDescriptors.back();
    EXPECT_EQ(ad.Width, w);
    EXPECT_EQ(ad.Height, h);
    EXPECT_EQ(ad.Depth, d);
    EXPECT_EQ(ad.Format, CU_AD_FORMAT_FLOAT);
    EXPECT_EQ(ad.NumChannels, c);
    EXPECT_EQ(ad.Flags, 0u);
    ASSERT_FALSE(f.memcpy3DCalls.empty());
    const CUDA_MEMCPY3D &cp = f.memcpy3DCalls.back();
    EXPECT_EQ(cp.srcMemoryType, CU_MEMORYTYPE_HOST);
    EXPECT_EQ(cp.dstMemoryType, CU_MEMORYTYPE_ARRAY);
    EXPECT_EQ(cp.srcPitch, size_t(w) * c * 4);
    EXPECT_EQ(cp.srcHeight, h);
    EXPECT_EQ(cp.WidthInBytes, size_t(w) * c * 4);
    EXPECT_EQ(cp.Height, h);
    EXPECT_EQ(cp.Depth, d);
    EXPECT_EQ(cp.srcXInBytes + cp.srcY + cp.srcZ, 0u);
  }

  std::vector<uint64_t> seenHandles;
};

TEST_F(Texture3DTest, LaunchMakesThe3DTextureTheManifestDescribes) {
  ASSERT_EQ(resource(manifest)["type"], "texture_3d");
  Expected<std::unique_ptr<Module>> m = loadWith(manifest);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(f.liveTextures(), 0u); // made at first use
  ASSERT_TRUE(launch(**m).isOk());
  ASSERT_EQ(f.liveTextures(), 1u);
  ASSERT_EQ(f.liveArrays(), 1u);
  Expected<int64_t> handle = (*m)->readKnobSymbol("lut3");
  ASSERT_TRUE(handle.isOk()) << handle.status().toString();
  ASSERT_EQ(seenHandles, std::vector<uint64_t>{uint64_t(*handle)});
  expectTable(uint64_t(*handle), 0);
  // 3-D arrays only: no 2-D array or copy was made.
  EXPECT_EQ(f.calls["cuArrayCreate"], 0);
  EXPECT_EQ(f.calls["cuMemcpy2D"], 0);
  EXPECT_EQ(f.calls["cuArray3DCreate"], 1);
  EXPECT_EQ(f.calls["cuMemcpy3D"], 1);
  ASSERT_TRUE(launch(**m).isOk()); // reused
  EXPECT_EQ(f.calls["cuArray3DCreate"], 1);

  // Table 1: 3 x 2 x 4, two channels, v = 100z + 10y + x + c/2 with x
  // fastest, then y, then z (gen.py): the layout the array holds.
  ASSERT_TRUE((*m)->setKnob("lut3", 1).isOk());
  EXPECT_EQ(f.liveTextures(), 0u);
  EXPECT_EQ(f.liveArrays(), 0u);
  ASSERT_TRUE(launch(**m).isOk());
  handle = (*m)->readKnobSymbol("lut3");
  ASSERT_TRUE(handle.isOk()) << handle.status().toString();
  EXPECT_EQ(seenHandles.back(), uint64_t(*handle));
  expectTable(uint64_t(*handle), 1);
  const fake::FakeTexture *t = f.texture(uint64_t(*handle));
  ASSERT_NE(t, nullptr);
  for (unsigned z = 0; z < 4; ++z)
    for (unsigned y = 0; y < 2; ++y)
      for (unsigned x = 0; x < 3; ++x)
        for (unsigned c = 0; c < 2; ++c)
          ASSERT_EQ(t->data[((z * 2 + y) * 3 + x) * 2 + c],
                    100.0f * z + 10.0f * y + x + 0.5f * c)
              << x << "," << y << "," << z << "," << c;

  m->reset(); // unloading destroys the texture and its array
  EXPECT_EQ(f.liveTextures(), 0u);
  EXPECT_EQ(f.liveArrays(), 0u);
}

TEST_F(Texture3DTest, BadTablesAreOneLineAtLoad) {
  struct Case {
    const char *what, *path, *says;
    std::function<void(json &)> mutate;
  };
  const std::string opt0 = "knobs[0].resource.options[0]";
  // Each message names the JSON path and the cause; the module is refused
  // before anything is made.
  const Case cases[] = {
      {"depth missing", "", "missing required key 'depth'",
       [&](json &m) { table(m, 0).erase("depth"); }},
      {"depth 0", ".depth", "0 is out of range [1, 16384]",
       [&](json &m) { table(m, 0)["depth"] = 0; }},
      {"depth 16385", ".depth", "16385 is out of range [1, 16384]",
       [&](json &m) { table(m, 0)["depth"] = 16385; }},
      {"depth negative", ".depth", "-2 is out of range [1, 16384]",
       [&](json &m) { table(m, 0)["depth"] = -2; }},
      {"depth not an integer", ".depth", "expected an integer",
       [&](json &m) { table(m, 0)["depth"] = "2"; }},
      {"width 16385", ".width", "16385 is out of range [1, 16384]",
       [&](json &m) { table(m, 0)["width"] = 16385; }},
      {"height 16385", ".height", "16385 is out of range [1, 16384]",
       [&](json &m) { table(m, 0)["height"] = 16385; }},
      {"data one texel short", ".data",
       "decodes to 28 bytes; 2 x 2 x 2 x 1 f32 need 32",
       [&](json &m) {
         std::vector<uint8_t> b(28, 0);
         table(m, 0)["data"] = encodeBase64(b);
       }},
      {"data one texel long", ".data",
       "decodes to 36 bytes; 2 x 2 x 2 x 1 f32 need 32",
       [&](json &m) {
         std::vector<uint8_t> b(36, 0);
         table(m, 0)["data"] = encodeBase64(b);
       }},
      {"depth that the data does not have", ".data",
       "decodes to 32 bytes; 2 x 2 x 3 x 1 f32 need 48",
       [&](json &m) { table(m, 0)["depth"] = 3; }},
      // The largest shape: 2^14 * 2^14 * 2^14 * 4 channels * 4 bytes =
      // 2^46 bytes, computed without overflow (and never allocated).
      {"largest shape", ".data",
       "decodes to 32 bytes; 16384 x 16384 x 16384 x 4 f32 need "
       "70368744177664",
       [&](json &m) {
         table(m, 0)["width"] = 16384;
         table(m, 0)["height"] = 16384;
         table(m, 0)["depth"] = 16384;
         table(m, 0)["channels"] = 4;
       }},
      {"depth on a texture_2d table", ".depth",
       "is only for \"texture_3d\" tables; this resource is \"texture_2d\"",
       [&](json &m) { resource(m)["type"] = "texture_2d"; }},
      {"unknown type", "",
       "is 'texture_1d', expected \"texture_2d\" or "
       "\"texture_3d\"",
       [&](json &m) { resource(m)["type"] = "texture_1d"; }},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    json m = manifest;
    c.mutate(m);
    Expected<std::unique_ptr<Module>> mod = loadWith(m);
    ASSERT_FALSE(mod.isOk());
    EXPECT_EQ(mod.status().code(), StatusCode::ParseError);
    const std::string msg = mod.status().message();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    const std::string path = std::string(c.what) == "unknown type"
                                 ? "knobs[0].resource.type: "
                                 : opt0 + c.path + ": ";
    EXPECT_NE(msg.find(path + c.says), std::string::npos) << msg;
    EXPECT_EQ(f.liveModules(), 0u);
    EXPECT_EQ(f.liveTextures(), 0u);
    EXPECT_EQ(f.liveArrays(), 0u);
  }
}

TEST_F(Texture3DTest, DriverFailuresFreeWhatWasMade) {
  Expected<std::unique_ptr<Module>> m = loadWith(manifest);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  for (const char *call :
       {"cuArray3DCreate", "cuMemcpy3D", "cuTexObjectCreate"}) {
    SCOPED_TRACE(call);
    f.failCall(call, CUDA_ERROR_OUT_OF_MEMORY);
    Status s = launch(**m);
    ASSERT_FALSE(s.isOk());
    EXPECT_EQ(s.code(), StatusCode::OutOfMemory);
    EXPECT_EQ(s.cudaCall(), call);
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("knob 'lut3' = 0: texture"), std::string::npos)
        << s.message();
    EXPECT_NE(s.message().find(std::string(call) + " failed"),
              std::string::npos)
        << s.message();
    EXPECT_EQ(f.liveArrays(), 0u);
    EXPECT_EQ(f.liveTextures(), 0u);
    EXPECT_EQ((*m)->liveTextures(), 0u);
  }
  // A device too small for the table (room for the launch's four 128-byte
  // buffers and 16 bytes more): the driver's own out-of-memory.
  f.memoryLimit = 4 * 128 + 16;
  Status s = launch(**m);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::OutOfMemory);
  EXPECT_EQ(s.cudaCall(), "cuArray3DCreate");
  EXPECT_EQ(f.liveArrays(), 0u);
  EXPECT_EQ(f.liveTextures(), 0u);
  EXPECT_TRUE(f.launches.empty()); // nothing launched on a failure
  f.memoryLimit = size_t(1) << 30;
  ASSERT_TRUE(launch(**m).isOk());
  EXPECT_EQ(f.liveTextures(), 1u);
  EXPECT_EQ(f.liveArrays(), 1u);
}

} // namespace
