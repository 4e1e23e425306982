//===- LnsTableTest.cpp - an LNS module's table through the runtime -------===//
//
// The compiler-runtime contract for the LNS family (docs/lns.md), over the
// fake driver: a module compiled from data/lns/Inputs/lns_add.mlir (data/lns/regen.sh) holds
// its s_b/d_b coefficients as a manifest resource; launching its kernel
// creates a 2-D float4 texture with linear filtering, clamped, unnormalised
// coordinates, filled with exactly the manifest's table, and writes the
// handle to the module global the kernel reads. A table that is truncated,
// not base64, of the wrong shape or absent is one line at load naming its
// JSON path, and nothing is left allocated; a kernel whose table knob is
// gone is one line naming it.
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
#include <functional>
#include <fstream>
#include <sstream>

using namespace approx::rt;
using approx::rt::fake::FakeDriver;
using json = nlohmann::json;

namespace {

const std::string kData = std::string(APPROX_RT_TEST_DATA) + "/lns";

class LnsTableTest : public fake::DataModuleFixture {
protected:
  LnsTableTest() : DataModuleFixture(kData, "lns_add") {}

  /// The manifest's table knob.
  json &tableKnob(json &m) {
    for (json &k : m["knobs"])
      if (k["kind"] == "resource")
        return k;
    ADD_FAILURE() << "no resource knob in lns_add.manifest.json";
    static json none;
    return none;
  }

  /// Launches lns_add once on 256 elements.
  Status launch(Module &m) {
    Expected<DeviceBuffer> a = DeviceBuffer::allocate(ctx, 1024, ScalarType::F32);
    Expected<DeviceBuffer> b = DeviceBuffer::allocate(ctx, 1024, ScalarType::F32);
    Expected<DeviceBuffer> o = DeviceBuffer::allocate(ctx, 1024, ScalarType::F32);
    if (!a || !b || !o)
      return Status(StatusCode::Internal, "buffer");
    LaunchConfig cfg;
    cfg.grid.x = 1;
    cfg.block.x = 256;
    return m.launch("lns_add", cfg,
                    {Arg::memref(a->view()), Arg::memref(b->view()),
                     Arg::memref(o->view()), Arg::integer(256)});
  }

};

TEST_F(LnsTableTest, LaunchMakesTheTextureTheManifestDescribes) {
  const json res = tableKnob(manifest)["resource"];
  ASSERT_EQ(res["type"], "texture_2d");
  const json opt = res["options"][0];
  Expected<std::vector<uint8_t>> table = decodeBase64(opt["data"]);
  ASSERT_TRUE(table.isOk()) << table.status().toString();
  const unsigned width = opt["width"], height = opt["height"];
  ASSERT_EQ(table->size(), size_t(width) * height * 4 * sizeof(float));

  Expected<std::unique_ptr<Module>> m = loadWith(manifest);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(f.liveTextures(), 0u); // made at first use
  ASSERT_TRUE(launch(**m).isOk());
  ASSERT_EQ(f.liveTextures(), 1u);
  const std::string knob = tableKnob(manifest)["name"];
  Expected<int64_t> handle = (*m)->readKnobSymbol(knob);
  ASSERT_TRUE(handle.isOk()) << handle.status().toString();
  const fake::FakeTexture *t = f.texture(uint64_t(*handle));
  ASSERT_NE(t, nullptr);
  // The paper's layout: float4 texels (s_b and d_b side by side), read with
  // the bilinear filter at unnormalised coordinates, clamped at the ends.
  EXPECT_EQ(t->width, width);
  EXPECT_EQ(t->height, height);
  EXPECT_EQ(t->channels, 4u);
  EXPECT_EQ(t->filter, CU_TR_FILTER_MODE_LINEAR);
  EXPECT_EQ(t->address, CU_TR_ADDRESS_MODE_CLAMP);
  EXPECT_EQ(t->flags, 0u);
  ASSERT_EQ(t->data.size() * sizeof(float), table->size());
  EXPECT_EQ(std::memcmp(t->data.data(), table->data(), table->size()), 0);
  m->reset(); // unloading destroys the texture and its array
  EXPECT_EQ(f.liveTextures(), 0u);
  EXPECT_EQ(f.liveArrays(), 0u);
}

TEST_F(LnsTableTest, BadTablesAreOneLineAtLoad) {
  struct Case {
    const char *what, *says;
    std::function<void(json &)> mutate;
  };
  // Each message names the JSON path of the table (the manifest's error
  // style) and the cause; the module is refused before anything is made.
  const Case cases[] = {
      {"truncated", "decodes to 16383 bytes; 1024 x 2 x 4 f32 need 32768",
       [&](json &m) {
         std::string d = tableKnob(m)["resource"]["options"][0]["data"];
         tableKnob(m)["resource"]["options"][0]["data"] =
             d.substr(0, d.size() / 2 / 4 * 4);
       }},
      {"cut mid-quantum", "the length must be a multiple of 4", [&](json &m) {
         std::string d = tableKnob(m)["resource"]["options"][0]["data"];
         tableKnob(m)["resource"]["options"][0]["data"] =
             d.substr(0, d.size() - 1);
       }},
      {"not base64", "decodes to 3 bytes; 1024 x 2 x 4 f32 need 32768",
       [&](json &m) {
         tableKnob(m)["resource"]["options"][0]["data"] = "@@@@";
       }},
      {"wrong width", "decodes to 32768 bytes; 7 x 2 x 4 f32 need 224",
       [&](json &m) {
         tableKnob(m)["resource"]["options"][0]["width"] = 7;
       }},
      {"no table", "has 0 tables", [&](json &m) {
         tableKnob(m)["resource"]["options"] = json::array();
       }},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    json m = manifest;
    c.mutate(m);
    Expected<std::unique_ptr<Module>> mod = loadWith(m);
    ASSERT_FALSE(mod.isOk());
    const std::string msg = mod.status().message();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_NE(msg.find("knobs[0].resource.options"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.says), std::string::npos) << msg;
    EXPECT_EQ(f.liveModules(), 0u);
    EXPECT_EQ(f.liveTextures(), 0u);
    EXPECT_EQ(f.liveArrays(), 0u);
  }
}

TEST_F(LnsTableTest, TheKernelsTableKnobMustExist) {
  json m = manifest;
  const std::string knob = tableKnob(m)["name"];
  json kept = json::array();
  for (const json &k : m["knobs"])
    if (k["name"] != knob)
      kept.push_back(k);
  m["knobs"] = kept;
  Expected<std::unique_ptr<Module>> mod = loadWith(m);
  Status s = mod.isOk() ? launch(**mod) : mod.status();
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(knob), std::string::npos) << s.message();
}

} // namespace
