//===- ModuleTest.cpp - Module, Stream and knobs over the fake driver -----===//
//
// The host-side behaviour of Module without a GPU (fake/FakeDriver.h):
// loading and manifest/image checks, status classes of driver failures, lazy
// knob-symbol writes on the launch's stream, per-launch knob values as
// parameters, variant dispatch against each variant's ABI, resource textures
// (creation, contents, lifetime on knob change and unload, every error path
// freeing what it made), streams and timing, and sticky faults.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "TestModule.h"

#include "approx/runtime/core/Base64.h"
#include "approx/runtime/core/Runtime.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

using namespace approx::rt;
using approx::rt::fake::FakeDriver;
using approx::rt::fake::LaunchRecord;
using approx::rt::fake::kTestPtx;
using approx::rt::fake::testManifest;
using json = nlohmann::json;

namespace {

class ModuleTest : public ::testing::Test {
protected:
  void SetUp() override {
    f.reset();
    Expected<std::shared_ptr<Context>> c =
        detail::createContext(f.table(), 0);
    ASSERT_TRUE(c.isOk()) << c.status().toString();
    ctx = *c;
    char tmpl[] = "/tmp/approx-module-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir = tmpl;
    std::ofstream(dir + "/fake.ptx") << kTestPtx;
    std::ofstream(dir + "/fake.manifest.json") << testManifest().dump(1);
  }
  void TearDown() override {
    mod.reset();
    ctx.reset();
    // Everything the runtime made is gone again.
    EXPECT_EQ(f.liveModules(), 0u);
    EXPECT_EQ(f.liveAllocations(), 0u);
    EXPECT_EQ(f.liveArrays(), 0u);
    EXPECT_EQ(f.liveTextures(), 0u);
    EXPECT_EQ(f.liveStreams(), 0u);
    EXPECT_EQ(f.liveEvents(), 0u);
    EXPECT_EQ(f.primaryRefs(), 0);
    EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
  }

  Module &load() {
    Expected<std::unique_ptr<Module>> m =
        Module::load(ctx, dir + "/fake.manifest.json");
    EXPECT_TRUE(m.isOk()) << m.status().toString();
    mod = m.isOk() ? m.take() : nullptr;
    return *mod;
  }

  DeviceBuffer buffer(size_t n, ValueType t = ScalarType::F32) {
    Expected<DeviceBuffer> b =
        DeviceBuffer::allocate(ctx, n * size_t(t.size()), t);
    EXPECT_TRUE(b.isOk()) << b.status().toString();
    return b.isOk() ? b.take() : DeviceBuffer();
  }

  static LaunchConfig cfg() {
    LaunchConfig c;
    c.grid.x = 4;
    c.block.x = 64;
    return c;
  }

  /// The async copies that targeted knob `name`'s symbol, as int64.
  std::vector<int64_t> writesTo(const std::string &symbol) {
    CUdeviceptr p = 0;
    size_t size = 0;
    for (auto *m : f.modules_)
      if (m->globals.count(symbol)) {
        p = CUdeviceptr(uintptr_t(m->globals[symbol].data()));
        size = m->globals[symbol].size();
      }
    std::vector<int64_t> out;
    for (auto &c : f.asyncCopies)
      if (c.dst == p && c.bytes.size() == size) {
        int64_t v = 0;
        std::memcpy(&v, c.bytes.data(), size);
        out.push_back(v);
      }
    return out;
  }

  FakeDriver &f = FakeDriver::get();
  std::shared_ptr<Context> ctx;
  std::unique_ptr<Module> mod;
  std::string dir;
};

} // namespace

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

TEST_F(ModuleTest, LoadsAndResolvesEverything) {
  Module &m = load();
  EXPECT_EQ(f.liveModules(), 1u);
  EXPECT_EQ(m.kernelNames().size(), 4u);
  EXPECT_EQ(*m.getKnob("mu"), 2); // the default
  EXPECT_EQ(ctx->device().name, "Fake GPU");
  EXPECT_EQ(ctx->device().smCount, 132);
}

TEST_F(ModuleTest, ManifestImageMismatchIsALoadError) {
  Manifest man = *loadManifestFile(dir + "/fake.manifest.json");
  Manifest bad = man;
  bad.kernels[0].name = "nope";
  Expected<std::unique_ptr<Module>> m = Module::loadFromMemory(ctx, bad, kTestPtx);
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().code(), StatusCode::NotFound);
  EXPECT_EQ(m.status().cudaCall(), "cuModuleGetFunction");
  EXPECT_NE(m.status().message().find("kernel 'nope' of the manifest is not "
                                      "in the image"),
            std::string::npos);
  bad = man;
  bad.knobs[0].symbol = "missing";
  m = Module::loadFromMemory(ctx, bad, kTestPtx);
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("(symbol 'missing') is not in the "
                                      "image"),
            std::string::npos);
  bad = man;
  bad.knobs[0].type = ScalarType::I64;
  m = Module::loadFromMemory(ctx, bad, kTestPtx);
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("global 'lambda' has 4 bytes"),
            std::string::npos);
  EXPECT_EQ(f.liveModules(), 0u); // every failed load unloaded its image
}

TEST_F(ModuleTest, BadPtxIsInvalidImageWithAOneLineLog) {
  Manifest man = *loadManifestFile(dir + "/fake.manifest.json");
  std::string ptx = std::string(kTestPtx) + "\n\tbogus.instr %r1;\n";
  Expected<std::unique_ptr<Module>> m = Module::loadFromMemory(ctx, man, ptx);
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().code(), StatusCode::InvalidImage);
  EXPECT_EQ(m.status().cudaResult(), CUDA_ERROR_INVALID_PTX);
  EXPECT_EQ(m.status().cudaCall(), "cuModuleLoadDataEx");
  EXPECT_NE(m.status().message().find("JIT log: ptxas application ptx "
                                      "input, line"),
            std::string::npos)
      << m.status().message();
  EXPECT_NE(m.status().message().find(" | ptxas fatal"), std::string::npos);
  EXPECT_EQ(m.status().message().find('\n'), std::string::npos);
}

TEST_F(ModuleTest, ImageOutsideTheManifestDirectoryIsRefused) {
  json j = testManifest();
  j["ptx"] = "../fake.ptx";
  ASSERT_EQ(::mkdir((dir + "/sub").c_str(), 0700), 0);
  std::ofstream(dir + "/sub/m.manifest.json") << j.dump();
  Expected<std::unique_ptr<Module>> m =
      Module::load(ctx, dir + "/sub/m.manifest.json");
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("has a '..' component"),
            std::string::npos);
  LoadOptions lo;
  lo.allowPathsOutsideManifestDir = true;
  m = Module::load(ctx, dir + "/sub/m.manifest.json", lo);
  EXPECT_TRUE(m.isOk()) << m.status().toString();
}

//===----------------------------------------------------------------------===//
// Status classes of driver failures
//===----------------------------------------------------------------------===//

TEST_F(ModuleTest, DriverFailuresKeepTheirClass) {
  Module &m = load();
  Expected<DeviceBuffer> huge =
      DeviceBuffer::allocate(ctx, size_t(1) << 40, ScalarType::F32);
  ASSERT_FALSE(huge.isOk());
  EXPECT_EQ(huge.status().code(), StatusCode::OutOfMemory);
  EXPECT_EQ(huge.status().cudaCall(), "cuMemAlloc");
  DeviceBuffer b = buffer(256);
  f.failCall("cuLaunchKernel", CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
  Status s = m.launch("scale", cfg(), {Arg::memref(b.view()), Arg::integer(1)});
  EXPECT_EQ(s.code(), StatusCode::LaunchOutOfResources);
  EXPECT_EQ(s.cudaResult(), CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
  f.failCall("cuLaunchKernel", CUDA_ERROR_NOT_SUPPORTED);
  s = m.launch("scale", cfg(), {Arg::memref(b.view()), Arg::integer(1)});
  EXPECT_EQ(s.code(), StatusCode::Unsupported);
  f.failCall("cuLaunchKernel", CUDA_ERROR_INVALID_VALUE);
  s = m.launch("scale", cfg(), {Arg::memref(b.view()), Arg::integer(1)});
  EXPECT_EQ(s.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(s.cudaCall(), "cuLaunchKernel");
  EXPECT_TRUE(
      m.launch("scale", cfg(), {Arg::memref(b.view()), Arg::integer(1)})
          .isOk());
}

TEST_F(ModuleTest, StickyFaultMakesEveryLaterCallFail) {
  Module &m = load();
  f.setKernel("fault", [](LaunchRecord &) {
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  });
  DeviceBuffer b = buffer(256);
  Status s =
      m.launchSync("fault", cfg(), {Arg::memref(b.view()), Arg::integer(1)});
  ASSERT_FALSE(s.isOk());
  EXPECT_TRUE(isStickyFault(s)) << s.toString();
  EXPECT_EQ(s.cudaResult(), CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_NE(s.message().find("restart the process"), std::string::npos);
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
  Expected<DeviceBuffer> more = DeviceBuffer::allocate(ctx, 64,
                                                       ScalarType::F32);
  ASSERT_FALSE(more.isOk());
  EXPECT_TRUE(isStickyFault(more.status()));
}

//===----------------------------------------------------------------------===//
// Knobs
//===----------------------------------------------------------------------===//

TEST_F(ModuleTest, GlobalKnobIsWrittenBeforeTheLaunchOnlyWhenChanged) {
  Module &m = load();
  DeviceBuffer b = buffer(256);
  std::vector<Arg> args = {Arg::memref(b.view()), Arg::integer(256)};
  ASSERT_TRUE(m.setKnob("lambda", 5).isOk());
  EXPECT_TRUE(writesTo("lambda").empty()); // nothing until a launch
  ASSERT_TRUE(m.launch("scale", cfg(), args).isOk());
  EXPECT_EQ(writesTo("lambda"), std::vector<int64_t>{5});
  EXPECT_EQ(*m.readKnobSymbol("lambda"), 5);
  ASSERT_TRUE(m.launch("scale", cfg(), args).isOk());
  EXPECT_EQ(writesTo("lambda").size(), 1u); // unchanged: not rewritten
  // A per-launch value goes to the symbol on the launch's stream; the next
  // launch restores the module's value.
  Expected<Stream> st = Stream::create(ctx);
  ASSERT_TRUE(st.isOk());
  LaunchOptions lo;
  lo.stream = &*st;
  lo.knobs["lambda"] = 9;
  ASSERT_TRUE(m.launch("scale", cfg(), args, lo).isOk());
  EXPECT_EQ(writesTo("lambda"), (std::vector<int64_t>{5, 9}));
  EXPECT_EQ(f.asyncCopies.back().stream, st->handle());
  EXPECT_EQ(f.launches.back().stream, st->handle());
  EXPECT_EQ(*m.getKnob("lambda"), 5); // the override did not stick
  ASSERT_TRUE(m.launch("scale", cfg(), args).isOk());
  EXPECT_EQ(writesTo("lambda"), (std::vector<int64_t>{5, 9, 5}));
  // A failed launch after the write does not forget what the symbol holds.
  ASSERT_TRUE(m.setKnob("lambda", 6).isOk());
  f.failCall("cuLaunchKernel", CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
  EXPECT_FALSE(m.launch("scale", cfg(), args).isOk());
  ASSERT_TRUE(m.launch("scale", cfg(), args).isOk());
  EXPECT_EQ(writesTo("lambda"), (std::vector<int64_t>{5, 9, 5, 6}));
}

TEST_F(ModuleTest, KnobValuesAreCheckedPerLaunch) {
  Module &m = load();
  DeviceBuffer b = buffer(256);
  std::vector<Arg> args = {Arg::memref(b.view()), Arg::integer(256)};
  LaunchOptions lo;
  lo.knobs["nope"] = 1;
  EXPECT_EQ(m.launch("scale", cfg(), args, lo).code(), StatusCode::NotFound);
  lo.knobs = {{"lambda", 65}};
  Status s = m.launch("scale", cfg(), args, lo);
  EXPECT_EQ(s.code(), StatusCode::OutOfRange);
  EXPECT_EQ(s.message(), "knob 'lambda' = 65 is outside [0, 64]");
  EXPECT_EQ(m.setKnob("lambda", -1).code(), StatusCode::OutOfRange);
  EXPECT_EQ(m.setKnob("mu2", 1).code(), StatusCode::NotFound);
  EXPECT_EQ(m.readKnobSymbol("prec").status().code(),
            StatusCode::InvalidArgument);
  EXPECT_TRUE(f.launches.empty());
}

TEST_F(ModuleTest, ParamKnobsTravelInTheLaunchOnEachStream) {
  Module &m = load();
  DeviceBuffer b = buffer(256);
  std::vector<Arg> args = {Arg::memref(b.view()), Arg::integer(256)};
  Expected<Stream> s1 = Stream::create(ctx), s2 = Stream::create(ctx);
  ASSERT_TRUE(s1.isOk() && s2.isOk());
  LaunchOptions a, c;
  a.stream = &*s1;
  a.knobs["mu"] = 3;
  c.stream = &*s2;
  c.knobs["mu"] = 4;
  ASSERT_TRUE(m.launch("scale_p", cfg(), args, a).isOk());
  ASSERT_TRUE(m.launch("scale_p", cfg(), args, c).isOk());
  ASSERT_TRUE(m.launch("scale_p", cfg(), args).isOk());
  ASSERT_EQ(f.launches.size(), 3u);
  EXPECT_EQ(f.launches[0].param<int32_t>(6), 3);
  EXPECT_EQ(f.launches[0].stream, s1->handle());
  EXPECT_EQ(f.launches[1].param<int32_t>(6), 4);
  EXPECT_EQ(f.launches[1].stream, s2->handle());
  EXPECT_EQ(f.launches[2].param<int32_t>(6), 2); // the current value
  EXPECT_TRUE(writesTo("mu").empty()); // the symbol is never written
  ASSERT_TRUE(s1->synchronize().isOk());
  EXPECT_EQ(f.calls["cuStreamSynchronize"], 1);
}

TEST_F(ModuleTest, VariantDispatchFollowsTheKnobAndChecksThatVariantsArgs) {
  Module &m = load();
  DeviceBuffer f32 = buffer(256);
  DeviceBuffer f64 = buffer(8, ScalarType::F64);
  std::vector<Arg> scaleArgs = {Arg::memref(f32.view()), Arg::integer(256)};
  std::vector<Arg> halfArgs = {Arg::memref(f64.view(), {8}), Arg::integer(8)};
  EXPECT_EQ((*m.resolveKernel("run"))->name, "scale");
  ASSERT_TRUE(m.launch("run", cfg(), scaleArgs).isOk());
  EXPECT_EQ(f.launches.back().kernel, "scale");
  // Arguments are checked against the chosen variant.
  Status s = m.launch("run", cfg(), halfArgs);
  EXPECT_EQ(s.code(), StatusCode::InvalidArgument);
  EXPECT_NE(s.message().find("kernel 'scale' argument 0"), std::string::npos);
  ASSERT_TRUE(m.setKnob("prec", 1).isOk());
  ASSERT_TRUE(m.launch("run", cfg(), halfArgs).isOk());
  EXPECT_EQ(f.launches.back().kernel, "half");
  EXPECT_EQ(f.launches.back().params.size(), 2u); // bare: one pointer
  EXPECT_EQ(f.launches.back().param<uint64_t>(0), f64.devicePtr());
  LaunchOptions lo;
  lo.knobs["prec"] = 0;
  ASSERT_TRUE(m.launch("run", cfg(), scaleArgs, lo).isOk());
  EXPECT_EQ(f.launches.back().kernel, "scale");
  EXPECT_EQ((*m.resolveKernel("run", {{"prec", 0}}))->name, "scale");
  // A variant can still be launched by its own name.
  ASSERT_TRUE(m.launch("scale", cfg(), scaleArgs).isOk());
  Status unknown = m.launch("runn", cfg(), scaleArgs);
  EXPECT_EQ(unknown.code(), StatusCode::NotFound);
  EXPECT_NE(unknown.message().find("(known: scale, scale_p, half, fault, "
                                   "run)"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Resource knobs
//===----------------------------------------------------------------------===//

TEST_F(ModuleTest, ResourceTextureIsCreatedOnFirstUseAndWrittenToItsSymbol) {
  Module &m = load();
  DeviceBuffer b = buffer(256);
  std::vector<Arg> args = {Arg::memref(b.view()), Arg::integer(256)};
  EXPECT_EQ(f.liveTextures(), 0u); // nothing at load
  ASSERT_TRUE(m.launch("scale", cfg(), args).isOk());
  ASSERT_EQ(f.liveTextures(), 1u);
  ASSERT_EQ(f.liveArrays(), 1u);
  int64_t handle = *m.readKnobSymbol("table");
  const fake::FakeTexture *t = f.texture(uint64_t(handle));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->width, 2u);
  EXPECT_EQ(t->height, 1u);
  EXPECT_EQ(t->channels, 1u);
  EXPECT_EQ(t->data, (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(t->filter, CU_TR_FILTER_MODE_LINEAR);
  EXPECT_EQ(t->address, CU_TR_ADDRESS_MODE_BORDER);
  EXPECT_EQ(t->flags, 0u); // unnormalized coordinates, float reads
  ASSERT_TRUE(m.launch("scale", cfg(), args).isOk());
  EXPECT_EQ(f.liveTextures(), 1u); // reused
  EXPECT_EQ(writesTo("table_tex").size(), 1u);

  // Another value: the old texture goes (after a context synchronize), the
  // new one comes with the next launch.
  int syncs = f.calls["cuCtxSynchronize"];
  ASSERT_TRUE(m.setKnob("table", 1).isOk());
  EXPECT_EQ(f.calls["cuCtxSynchronize"], syncs + 1);
  EXPECT_EQ(f.liveTextures(), 0u);
  EXPECT_EQ(f.liveArrays(), 0u);
  ASSERT_TRUE(m.launch("scale", cfg(), args).isOk());
  t = f.texture(uint64_t(*m.readKnobSymbol("table")));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->width, 2u);
  EXPECT_EQ(t->height, 2u);
  EXPECT_EQ(t->channels, 2u);
  EXPECT_EQ(t->data, (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}));
  // A per-launch value makes its own texture; setKnob to it keeps it.
  LaunchOptions lo;
  lo.knobs["table"] = 0;
  ASSERT_TRUE(m.launch("scale", cfg(), args, lo).isOk());
  EXPECT_EQ(m.liveTextures(), 2u);
  ASSERT_TRUE(m.setKnob("table", 0).isOk());
  EXPECT_EQ(m.liveTextures(), 1u);
  EXPECT_EQ(f.liveTextures(), 1u);
  ASSERT_TRUE(m.setKnob("table", 0).isOk()); // same value: nothing to do
  EXPECT_EQ(f.liveTextures(), 1u);
  mod.reset(); // unload destroys the rest (TearDown checks)
  EXPECT_EQ(f.liveTextures(), 0u);
  EXPECT_EQ(f.liveArrays(), 0u);
}

TEST_F(ModuleTest, ResourceOnTheParamPathIsPassedAsAParameter) {
  Module &m = load();
  DeviceBuffer b = buffer(256);
  ASSERT_TRUE(m.launch("scale_p", cfg(),
                       {Arg::memref(b.view()), Arg::integer(256)})
                  .isOk());
  uint64_t h = f.launches.back().param<uint64_t>(7);
  const fake::FakeTexture *t = f.texture(h);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->channels, 4u);
  EXPECT_EQ(t->address, CU_TR_ADDRESS_MODE_WRAP);
  EXPECT_EQ(t->filter, CU_TR_FILTER_MODE_POINT);
  EXPECT_EQ(t->flags, unsigned(CU_TRSF_NORMALIZED_COORDINATES));
  EXPECT_TRUE(writesTo("tab2_tex").empty());
}

TEST_F(ModuleTest, TextureErrorsFreeWhatWasMade) {
  Module &m = load();
  DeviceBuffer b = buffer(256);
  std::vector<Arg> args = {Arg::memref(b.view()), Arg::integer(256)};
  for (const char *call : {"cuArrayCreate", "cuMemcpy2D", "cuTexObjectCreate"}) {
    f.failCall(call, CUDA_ERROR_OUT_OF_MEMORY);
    Status s = m.launch("scale", cfg(), args);
    ASSERT_FALSE(s.isOk()) << call;
    EXPECT_EQ(s.code(), StatusCode::OutOfMemory) << call;
    EXPECT_EQ(s.cudaCall(), call);
    EXPECT_NE(s.message().find("knob 'table' = 0: texture"),
              std::string::npos);
    EXPECT_EQ(f.liveArrays(), 0u) << call;
    EXPECT_EQ(f.liveTextures(), 0u) << call;
    EXPECT_EQ(m.liveTextures(), 0u) << call;
  }
  EXPECT_TRUE(f.launches.empty());
  ASSERT_TRUE(m.launch("scale", cfg(), args).isOk());
  EXPECT_EQ(f.liveTextures(), 1u);
}

//===----------------------------------------------------------------------===//
// Streams and timing
//===----------------------------------------------------------------------===//

TEST_F(ModuleTest, StreamsAreRaiiAndTimingUsesTheStream) {
  Module &m = load();
  {
    Expected<Stream> s = Stream::create(ctx);
    ASSERT_TRUE(s.isOk());
    EXPECT_EQ(f.liveStreams(), 1u);
    Stream moved = s.take();
    EXPECT_EQ(f.liveStreams(), 1u);
    Stream other;
    EXPECT_EQ(other.synchronize().code(), StatusCode::InvalidArgument);
    DeviceBuffer b = buffer(256);
    LaunchOptions lo;
    lo.stream = &other;
    EXPECT_EQ(m.launch("scale", cfg(),
                       {Arg::memref(b.view()), Arg::integer(1)}, lo)
                  .code(),
              StatusCode::InvalidArgument);
    f.setKernel("scale", [](LaunchRecord &r) {
      r.durationMs = 2.5;
      return CUDA_SUCCESS;
    });
    lo.stream = &moved;
    TimingOptions t;
    t.warmup = 1;
    t.reps = 3;
    int before = 0;
    Expected<Timing> tm = m.time(
        "scale", cfg(), {Arg::memref(b.view()), Arg::integer(1)}, t,
        [&] {
          ++before;
          return Status::ok();
        },
        lo);
    ASSERT_TRUE(tm.isOk()) << tm.status().toString();
    EXPECT_DOUBLE_EQ(tm->medianMs, 2.5);
    EXPECT_EQ(tm->samplesMs.size(), 3u);
    EXPECT_EQ(before, 4);
    EXPECT_EQ(f.launches.size(), 4u);
    for (const LaunchRecord &r : f.launches)
      EXPECT_EQ(r.stream, moved.handle());
    ASSERT_TRUE(moved.destroy().isOk());
    EXPECT_EQ(f.liveStreams(), 0u);
  }
  EXPECT_EQ(f.liveEvents(), 0u);
}

TEST_F(ModuleTest, KernelResourcesResolveLogicalNames) {
  Module &m = load();
  ASSERT_TRUE(m.setKnob("prec", 1).isOk());
  Expected<KernelResources> r = m.kernelResources("run", cfg());
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ(r->activeBlocksPerSM, 8);
  EXPECT_EQ(r->numRegs, 32);
  LaunchConfig big = cfg();
  big.block.x = 2048;
  EXPECT_EQ(m.kernelResources("run", big).status().code(),
            StatusCode::InvalidArgument);
}
