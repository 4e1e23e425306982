//===- BuildSetEvaluatorTest.cpp - One kernel across cached builds, no GPU ===//
//
// BuildSetEvaluator over the fake driver and a two-build cache: the base
// build (storage__x = f32, image base.ptx) and the f16 build (its own image,
// f16.ptx, which alone declares the global knob `is_f16`). Checked: each
// build runs its own image (the f16 build's kernel sees is_f16 = 1 and f16
// data, converted from the base build's f32 arguments), errors are taken
// against the base build's reference, a build the cache lacks is NotFound,
// and the joint tuner picks the f16 build when the bound allows it.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "TestModule.h"

#include "approx/runtime/core/Args.h"
#include "approx/runtime/core/Sha256.h"
#include "approx/runtime/tune/BuildSetEvaluator.h"
#include "approx/runtime/tune/JointTuner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

using namespace approx::rt;
using approx::rt::fake::FakeDriver;
using approx::rt::fake::LaunchRecord;
using json = nlohmann::json;

namespace {

const std::string kRecipe(64, 'a');

json storageKnob() {
  json values = json::array();
  for (const char *t : {"f32", "f16"})
    values.push_back({{"id", t}, {"payload", {{"type", "storage"}, {"storage", t}}}});
  return {{"name", "storage__x"}, {"kind", "build"}, {"min", 0}, {"max", 1},
          {"default", 0},
          {"domain", {{"kind", "storage"},
                      {"object", {{"kernel", "scale"}, {"arg", 0}}},
                      {"values", values}}},
          {"technique", "precision"},
          {"governs", {{"kernels", {"scale"}}, {"sites", json::array()}}}};
}

/// The build holding storage__x = `type` ("f32": the base).
json buildManifest(const std::string &type) {
  bool half = type == "f16";
  json knobs = json::array({storageKnob()});
  std::vector<std::string> reads = {"storage__x"};
  if (half) {
    knobs.push_back({{"name", "is_f16"}, {"kind", "global"},
                     {"symbol", "is_f16"}, {"type", "i32"}, {"path", "global"},
                     {"min", 1}, {"max", 1}, {"default", 1},
                     {"domain", {{"kind", "ordinal"}}}});
    reads.push_back("is_f16");
  }
  json params = json::array();
  for (auto [f, t] : {std::pair{"allocated", "ptr"}, {"aligned", "ptr"},
                      {"offset", "i64"}, {"size0", "i64"}, {"stride0", "i64"}})
    params.push_back({{"arg", 0}, {"field", f}, {"type", t}, {"size", 8}});
  params.push_back({{"arg", 1}, {"field", "value"}, {"type", "i32"}, {"size", 4}});
  json kernel = {
      {"name", "scale"},
      {"knobs", reads},
      {"args",
       {{{"kind", "memref"}, {"element", half ? "f16" : "f32"}, {"rank", 1},
         {"shape", {-1}}, {"abi", "descriptor"}, {"access", "readwrite"},
         {"first_param", 0}, {"num_params", 5}},
        {{"kind", "scalar"}, {"type", "i32"}, {"first_param", 5},
         {"num_params", 1}}}},
      {"params", params}};
  return {{"format", "approx-manifest"}, {"version", 3},
          {"module", "space"}, {"ptx", half ? "f16.ptx" : "base.ptx"},
          {"knobs", knobs}, {"kernels", {kernel}},
          {"configuration", {{"storage__x", type}}},
          {"recipe", {{"id", kRecipe}, {"key", std::string(64, '1')}}}};
}

class BuildSetEvaluatorTest : public ::testing::Test {
protected:
  void SetUp() override {
    f.reset();
    ctx = *detail::createContext(f.table(), 0);
    char tmpl[] = "/tmp/approx-buildset-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir = tmpl;
    // The base build where the user has it, the f16 build in the cache.
    std::ofstream(dir + "/base.ptx") << fake::kTestPtx;
    std::ofstream(dir + "/space.manifest.json") << buildManifest("f32").dump();
    cache = dir + "/cache";
    f16Dir = cache + "/" + sha256Hex(kRecipe + "\nstorage__x=f16");
    ASSERT_EQ(std::system(("mkdir -p '" + f16Dir + "'").c_str()), 0);
    std::ofstream(f16Dir + "/f16.ptx")
        << fake::kTestPtx << ".visible .global .align 4 .u32 is_f16;\n";
    std::ofstream(f16Dir + "/space.manifest.json") << buildManifest("f16").dump();
    Expected<std::unique_ptr<Module>> m =
        Module::load(ctx, dir + "/space.manifest.json");
    ASSERT_TRUE(m.isOk()) << m.status().toString();
    base = m.take();
    // x *= 1.01; the f16 build (its image's is_f16) reads and writes f16
    // and takes half the time.
    f.setKernel("scale", [](LaunchRecord &r) {
      int64_t n = r.param<int64_t>(3);
      bool half = r.global("is_f16") == 1;
      for (int64_t i = 0; i < n; ++i) {
        if (half) {
          uint16_t *x = r.ptr<uint16_t>(1);
          x[i] = doubleToHalfBits(double(halfBitsToFloat(x[i])) * 1.01);
        } else {
          float *x = r.ptr<float>(1);
          x[i] = float(double(x[i]) * 1.01);
        }
      }
      r.durationMs = half ? 5 : 10;
      return CUDA_SUCCESS;
    });
  }
  void TearDown() override {
    base.reset();
    ctx.reset();
    EXPECT_EQ(f.liveAllocations(), 0u);
    EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
  }

  Expected<std::unique_ptr<BuildSetEvaluator>> evaluator() {
    EvaluatorOptions o;
    o.kernel = "scale";
    o.knob = "storage__x";
    o.launch.grid.x = 1;
    o.launch.block.x = 64;
    o.timing.warmup = 0;
    o.timing.reps = 1;
    o.reference = preciseConfig(base->manifest());
    std::vector<float> in(64);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = 0.1f + 0.37f * float(i);
    LoadOptions lo;
    lo.imagePath = dir + "/base.ptx"; // as approx tune passes it
    return BuildSetEvaluator::create(
        *base,
        {ArgSpec::inputOf(ScalarType::F32, {64}, in, true),
         ArgSpec::value(Arg::integer(64))},
        o, cache, lo);
  }

  FakeDriver &f = FakeDriver::get();
  std::shared_ptr<Context> ctx;
  std::unique_ptr<Module> base;
  std::string dir, cache, f16Dir;
};

} // namespace

TEST_F(BuildSetEvaluatorTest, EachBuildRunsItsOwnImageOnConvertedData) {
  Expected<std::unique_ptr<BuildSetEvaluator>> ev = evaluator();
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  const Manifest &m = base->manifest();
  Expected<Evaluation> e32 = (*ev)->evaluate(*parseConfig(m, "storage__x=f32"));
  ASSERT_TRUE(e32.isOk()) << e32.status().toString();
  EXPECT_EQ(e32->error, 0);
  EXPECT_EQ(e32->timeMs, 10);
  Expected<Evaluation> e16 = (*ev)->evaluate(*parseConfig(m, "storage__x=f16"));
  ASSERT_TRUE(e16.isOk()) << e16.status().toString();
  // The f16 image ran (is_f16 set), on the f32 data rounded to f16: its
  // error against the base reference is f16's rounding, not zero, not
  // garbage.
  EXPECT_EQ(e16->timeMs, 5);
  EXPECT_GT(e16->error, 1e-5);
  EXPECT_LT(e16->error, 2e-3);
  EXPECT_EQ((*ev)->buildsLoaded(), 2u);
  // Re-timed: the time again, the error remembered.
  Expected<Evaluation> again = (*ev)->remeasure(*parseConfig(m, "storage__x=f16"));
  ASSERT_TRUE(again.isOk());
  EXPECT_EQ(again->error, e16->error);

  // The joint tuner takes the f16 build when the bound allows it.
  JointOptions jo;
  jo.qosBound = 2e-3;
  Expected<JointResult> r = tuneJoint(**ev, jo);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ(r->pick.valueOf(m, "storage__x"), 1);
  EXPECT_EQ(r->pickTimeMs, 5);
}

TEST_F(BuildSetEvaluatorTest, ABuildTheCacheLacksIsNotFound) {
  ASSERT_EQ(std::system(("rm -rf '" + f16Dir + "'").c_str()), 0);
  Expected<std::unique_ptr<BuildSetEvaluator>> ev = evaluator();
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  const Manifest &m = base->manifest();
  Expected<Evaluation> e = (*ev)->evaluate(*parseConfig(m, "storage__x=f16"));
  ASSERT_FALSE(e.isOk());
  EXPECT_EQ(e.status().code(), StatusCode::NotFound);
  EXPECT_NE(e.status().message().find("'storage__x=f16' is not built"),
            std::string::npos)
      << e.status().message();
  // The joint tuner skips it and lists it.
  JointOptions jo;
  jo.qosBound = 2e-3;
  Expected<JointResult> r = tuneJoint(**ev, jo);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ(r->pick.valueOf(m, "storage__x"), 0);
  ASSERT_EQ(r->unbuilt.size(), 1u);
  EXPECT_EQ(r->unbuilt[0].valueOf(m, "storage__x"), 1);
}
