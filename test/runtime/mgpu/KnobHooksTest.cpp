//===- KnobHooksTest.cpp - The tuner's knobs and captures through mgpu* ---===//
//
// runtime/mgpu/KnobHooks.h over the fake driver: a program in the shape
// gpu-to-llvm emits (mgpu* calls, memref descriptors as parameters) run
// with a knobs file gets its global knob written into the module's symbol
// at load and the variant its variant knob picks for the logical name; its
// device-to-host copies are captured typed by the launch that passed their
// memory, a copy from memory no launch passed is not; and each way a
// configuration could go silently unapplied aborts with one line. The module
// is data/precision/mgpu's (scale2; axpy's four variants) with a global
// knob `lambda` added to manifest and PTX.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "MgpuAbi.h"
#include "KnobHooks.h"
#include "PrecisionFake.h"
#include "PrecisionHooks.h"

#include "approx/runtime/core/Config.h"
#include "approx/runtime/precision/Decision.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>


using namespace approx::rt;
using approx::mgpu::KnobHooks;
using approx::mgpu::PrecisionHooks;
using approx::rt::fake::FakeDriver;
using approx::rt::fake::LaunchRecord;

namespace {

const std::string kData = std::string(APPROX_RT_TEST_DATA) + "/precision/";

std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Memref {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};

void launch(CUfunction f, std::vector<Memref> m, int64_t n, CUstream s) {
  std::vector<void *> params;
  for (Memref &d : m)
    for (void *a : {(void *)&d.allocated, (void *)&d.aligned,
                    (void *)&d.offset, (void *)&d.size, (void *)&d.stride})
      params.push_back(a);
  params.push_back(&n);
  mgpuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params.data(), nullptr,
                   params.size());
}

const char *const kVars[] = {"APPROX_CONFIG", "APPROX_MANIFEST",
                             "APPROX_CAPTURE", "APPROX_PRECISION",
                             "APPROX_PRECISION_MANIFEST",
                             "APPROX_PRECISION_CONFIG"};

class MgpuKnobs : public ::testing::Test {
protected:
  void SetUp() override {
    ::testing::FLAGS_gtest_death_test_style = "threadsafe";
    for (const char *v : kVars)
      unsetenv(v);
    KnobHooks::resetForTesting();
    PrecisionHooks::resetForTesting();
    ASSERT_TRUE(fake::resetPrecisionFake().isOk());
    approx::mgpu::setDriverForTesting(fake::precisionTable());
    FakeDriver &f = FakeDriver::get();
    f.setKernel("scale2", [](LaunchRecord &r) {
      const size_t n = size_t(r.param<int64_t>(10));
      for (size_t i = 0; i < n; ++i)
        r.ptr<double>(6)[i] = 2 * r.ptr<double>(1)[i];
      return CUDA_SUCCESS;
    });
    for (int v = 0; v < 4; ++v)
      f.setKernel("axpy__p" + std::to_string(v),
                  [](LaunchRecord &) { return CUDA_SUCCESS; });
    dir_ = ::testing::TempDir() + "mgpu-knobs-" + std::to_string(::getpid()) +
           "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ::mkdir(dir_.c_str(), 0700);
    // The module with a global knob `lambda` (i32 symbol, 0..64).
    nlohmann::json m = nlohmann::json::parse(readText(kData + "mgpu.manifest.json"));
    m["knobs"].push_back({{"name", "lambda"}, {"kind", "global"},
                          {"symbol", "lambda"}, {"type", "i32"},
                          {"path", "global"}, {"min", 0}, {"max", 64},
                          {"default", 0}, {"warp_slot", "hw"}});
    m["ptx"] = "mgpu.ptx";
    manifestPath_ = dir_ + "/mgpu.manifest.json";
    std::ofstream(manifestPath_) << m.dump(2);
    ptx_ = readText(kData + "mgpu.ptx") +
           "\n.visible .global .align 4 .u32 lambda;\n";
    std::ofstream(dir_ + "/mgpu.ptx") << ptx_;
    Expected<Manifest> man = loadManifestFile(manifestPath_);
    ASSERT_TRUE(man.isOk()) << man.status().toString();
    manifest_ = *man;
  }
  void TearDown() override {
    KnobHooks::resetForTesting();
    PrecisionHooks::resetForTesting();
    approx::mgpu::setDriverForTesting(nullptr);
    for (const char *v : kVars)
      unsetenv(v);
  }

  /// Writes a knobs file of `values` and names it and the manifest in the
  /// environment.
  void useKnobs(std::map<std::string, int64_t> values) {
    Config c;
    c.values = std::move(values);
    const std::string path = dir_ + "/knobs.json";
    std::ofstream(path) << knobsFileText(manifest_, c);
    setenv("APPROX_CONFIG", path.c_str(), 1);
    setenv("APPROX_MANIFEST", manifestPath_.c_str(), 1);
  }
  void start() {
    module_ = mgpuModuleLoad(ptx_.data(), ptx_.size());
    ASSERT_NE(module_, nullptr);
    stream_ = mgpuStreamCreate();
    x_ = mgpuMemAlloc(32, stream_, false);
    y_ = mgpuMemAlloc(32, stream_, false);
  }
  void end() {
    mgpuMemFree(x_, stream_);
    mgpuMemFree(y_, stream_);
    mgpuStreamDestroy(stream_);
    mgpuModuleUnload(module_);
  }
  /// x to the device, scale2(x, y), y back (y = 2x).
  void runScale2(double *hy) {
    double hx[4] = {1, 2, 3, 4};
    mgpuMemcpy(x_, hx, sizeof(hx), stream_);
    launch(mgpuModuleGetFunction(module_, "scale2"),
           {{x_, x_, 0, 4, 1}, {y_, y_, 0, 4, 1}}, 4, stream_);
    mgpuMemcpy(hy, y_, 32, stream_);
    mgpuStreamSynchronize(stream_);
  }

  std::string dir_, manifestPath_, ptx_;
  Manifest manifest_;
  CUmodule module_ = nullptr;
  CUstream stream_ = nullptr;
  void *x_ = nullptr, *y_ = nullptr;
};

TEST_F(MgpuKnobs, KnobsFileIsApplied) {
  useKnobs({{"lambda", 17}, {"precision__axpy", 3}});
  start();
  // The global knob is in the module's symbol from the load on.
  EXPECT_EQ(FakeDriver::get().global("lambda"), 17);
  // The logical name resolves to the variant the knob picks.
  CUfunction f = mgpuModuleGetFunction(module_, "axpy");
  ASSERT_NE(f, nullptr);
  launch(f, {{x_, x_, 0, 4, 1}, {y_, y_, 0, 4, 1}}, 4, stream_);
  ASSERT_FALSE(FakeDriver::get().launches.empty());
  EXPECT_EQ(FakeDriver::get().launches.back().kernel, "axpy__p3");
  end();
}

TEST_F(MgpuKnobs, WithoutVariablesNothingChanges) {
  start();
  EXPECT_EQ(FakeDriver::get().global("lambda"), 0);
  // A logical (dispatched) name is not an entry: the driver's answer.
  EXPECT_EQ(mgpuModuleGetFunction(module_, "axpy"), nullptr);
  end();
}

TEST_F(MgpuKnobs, DeviceToHostCopiesAreCapturedTyped) {
  const std::string cap = dir_ + "/capture";
  ::mkdir(cap.c_str(), 0700);
  setenv("APPROX_CAPTURE", cap.c_str(), 1);
  setenv("APPROX_MANIFEST", manifestPath_.c_str(), 1); // the types
  start();
  // Before any launch, x's memory has no element type: not captured.
  double early[4];
  mgpuMemcpy(early, x_, 32, stream_);
  double hy[4] = {};
  runScale2(hy);
  end();
  EXPECT_EQ(hy[3], 8);
  std::string bytes = readText(cap + "/d2h-000000.f64.bin");
  ASSERT_EQ(bytes.size(), 32u);
  double got[4];
  std::memcpy(got, bytes.data(), 32);
  EXPECT_EQ(got[0], 2);
  EXPECT_EQ(got[3], 8);
  EXPECT_EQ(readText(cap + "/d2h-000001.f64.bin"), ""); // one copy only
  double seconds = -1;
  std::ifstream(cap + "/capture-seconds") >> seconds;
  EXPECT_GE(seconds, 0);
}

using MgpuKnobsDeath = MgpuKnobs;

TEST_F(MgpuKnobsDeath, KnobsFileWithoutManifest) {
  useKnobs({{"lambda", 3}});
  unsetenv("APPROX_MANIFEST");
  EXPECT_DEATH(start(), "approx-mgpu: knobs: environment: APPROX_CONFIG needs "
                        "APPROX_MANIFEST");
}

TEST_F(MgpuKnobsDeath, KnobsOfAModuleNeverLoaded) {
  useKnobs({{"lambda", 3}});
  // A program whose only module is another one (no axpy__p* kernels).
  std::string other = ".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry scale2()\n{\n ret;\n}\n";
  EXPECT_DEATH(
      {
        CUmodule m = mgpuModuleLoad(other.data(), other.size());
        CUfunction f = mgpuModuleGetFunction(m, "scale2");
        mgpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr,
                         0);
      },
      "knobs file sets knobs of module 'mgpu', but no module the program "
      "loaded holds all");
}

TEST_F(MgpuKnobsDeath, VariantKnobUnderPrecisionHooks) {
  useKnobs({{"precision__axpy", 1}});
  setenv("APPROX_PRECISION", "scale", 1);
  setenv("APPROX_PRECISION_MANIFEST", manifestPath_.c_str(), 1);
  precision::Configuration c;
  c.toq = 0.9;
  c.strategy = "test";
  ASSERT_TRUE(precision::saveConfiguration(c, dir_ + "/cfg.json").isOk());
  setenv("APPROX_PRECISION_CONFIG", (dir_ + "/cfg.json").c_str(), 1);
  EXPECT_DEATH(start(), "with APPROX_PRECISION the precision hooks choose "
                        "the variants");
}

TEST_F(MgpuKnobsDeath, BadKnobsFile) {
  useKnobs({{"lambda", 3}});
  std::ofstream(dir_ + "/knobs.json")
      << R"({"format": "approx-knobs", "version": 1, "modules": {"mgpu": {"lambda": "99"}}})";
  EXPECT_DEATH(start(), "approx-mgpu: knobs: environment: APPROX_CONFIG: .*"
                        "'99' is not a value of knob 'lambda'");
}

} // namespace
