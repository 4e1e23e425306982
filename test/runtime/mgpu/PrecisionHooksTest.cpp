//===- PrecisionHooksTest.cpp - profile and scale through the mgpu* calls -===//
//
// Runs small "MLIR host programs" -- the mgpu* calls gpu-to-llvm emits, with
// hand-built memref descriptor parameters -- over the fake driver against
// data/precision/mgpu.manifest.json (scale2(X, Y, n): Y = 2X in f64;
// fill32(A, n) in f32; logical axpy(X, Y, n): Y += 2X with variants
// axpy__p0..p3 = (f64|f16 X) x (f64|f32 Y)): plain mode unchanged, the
// profile of a two-allocation program, scale mode picking the variant and
// converting (the fake's conversion kernels are the host convert), the same
// module in the shape approx-precision-variants now gives it (the original
// axpy as its own variant 0), a scaled run checked against a profile's
// transfers (APPROX_PRECISION_EXPECT) and its JSON report
// (APPROX_PRECISION_REPORT), each object's last read-back values in f64
// (APPROX_PRECISION_OUTPUTS, OutputsFile.h) in both modes, and each mapping
// error as a death test on its one-line message.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "MgpuAbi.h"
#include "PrecisionFake.h"
#include "PrecisionHooks.h"

#include "approx/runtime/precision/Decision.h"
#include "approx/runtime/precision/HostConvert.h"
#include "approx/runtime/precision/OutputsFile.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>


using namespace approx::rt;
using namespace approx::rt::precision;
using approx::mgpu::PrecisionHooks;
using approx::rt::fake::FakeDriver;
using approx::rt::fake::LaunchRecord;
using approx::rt::fake::setFakeAxpyKernel;
using approx::rt::fake::toF64;

namespace {

const std::string kData = std::string(APPROX_RT_TEST_DATA) + "/precision/";

std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// `text` with every `from` replaced by `to`.
std::string replaceAll(std::string text, const std::string &from,
                       const std::string &to) {
  for (size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// A rank-1 memref descriptor as gpu-to-llvm expands it into parameters.
struct Memref {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};
Memref memref(void *p, int64_t n) { return {p, p, 0, n, 1}; }

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

void setKernels(FakeDriver &f) {
  f.setKernel("scale2", [](LaunchRecord &r) {
    const size_t n = size_t(r.param<int64_t>(10));
    for (size_t i = 0; i < n; ++i)
      r.ptr<double>(6)[i] = 2 * r.ptr<double>(1)[i];
    r.durationMs = 0.5;
    return CUDA_SUCCESS;
  });
  f.setKernel("fill32", [](LaunchRecord &) { return CUDA_SUCCESS; });
  const ScalarType xs[2] = {ScalarType::F64, ScalarType::F16};
  const ScalarType ys[2] = {ScalarType::F64, ScalarType::F32};
  for (int v = 0; v < 4; ++v)
    setFakeAxpyKernel(f, "axpy__p" + std::to_string(v), xs[v / 2], ys[v % 2]);
}

class MgpuPrecision : public ::testing::Test {
protected:
  /// The two-allocation program: x to the device, scale2(x, y), y back;
  /// checks y = 2 x.
  void runScale2() {
    double hx[4] = {1, 2, 3, 4}, hy[4] = {};
    mgpuMemcpy(x_, hx, sizeof(hx), stream_);
    launch(mgpuModuleGetFunction(module_, "scale2"),
           {memref(x_, 4), memref(y_, 4)}, 4, stream_);
    mgpuMemcpy(hy, y_, sizeof(hy), stream_);
    mgpuStreamSynchronize(stream_);
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(hy[i], 2 * hx[i]);
  }

  void SetUp() override {
    ::testing::FLAGS_gtest_death_test_style = "threadsafe";
    for (const char *v : {"APPROX_PRECISION", "APPROX_PRECISION_MANIFEST",
                          "APPROX_PRECISION_OUT", "APPROX_PRECISION_CONFIG",
                          "APPROX_PRECISION_EXPECT", "APPROX_PRECISION_REPORT",
                          "APPROX_PRECISION_OUTPUTS"})
      unsetenv(v);
    PrecisionHooks::resetForTesting();
    ASSERT_TRUE(fake::resetPrecisionFake().isOk()); // context dropped
    approx::mgpu::setDriverForTesting(fake::precisionTable());
    setKernels(FakeDriver::get());
    ptx_ = readText(kData + "mgpu.ptx");
    dir_ = ::testing::TempDir() + "mgpu-precision-" +
           std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::remove((dir_ + ".profile.json").c_str());
    std::remove((dir_ + ".report.json").c_str());
    std::remove((dir_ + ".outputs").c_str());
    manifest_ = kData + "mgpu.manifest.json";
  }

  /// The axpy program: X and Y to the device, axpy(X, Y), Y back; returns
  /// Y. With `twiceIn`, Y is copied in a second time (a different
  /// signature).
  std::vector<double> runAxpy(bool twiceIn = false) {
    double hx[4] = {1, 2, 0.5, -3}, hy[4] = {10, 20, 30, 40};
    mgpuMemcpy(x_, hx, sizeof(hx), stream_);
    mgpuMemcpy(y_, hy, sizeof(hy), stream_);
    if (twiceIn)
      mgpuMemcpy(y_, hy, sizeof(hy), stream_);
    launch(mgpuModuleGetFunction(module_, "axpy"),
           {memref(x_, 4), memref(y_, 4)}, 4, stream_);
    mgpuMemcpy(hy, y_, sizeof(hy), stream_);
    mgpuStreamSynchronize(stream_);
    return std::vector<double>(hy, hy + 4);
  }
  /// Profiles runAxpy() into dir_.profile.json and cleans up.
  void profileAxpy() {
    profileMode();
    start();
    runAxpy();
    end();
    expectClean();
    unsetenv("APPROX_PRECISION_OUT");
  }
  nlohmann::json readReport() {
    return nlohmann::json::parse(readText(dir_ + ".report.json"));
  }

  /// The module as approx-precision-variants{types=...} now compiles it:
  /// the original axpy (f64, f64) is a kernel and variant 0 of its own
  /// dispatch entry, in place of axpy__p0.
  void originalIsVariantZero() {
    manifest_ = dir_ + ".manifest.json";
    std::ofstream(manifest_)
        << replaceAll(readText(kData + "mgpu.manifest.json"), "axpy__p0",
                      "axpy");
    ptx_ = replaceAll(ptx_, "axpy__p0", "axpy");
    setFakeAxpyKernel(FakeDriver::get(), "axpy", ScalarType::F64,
                      ScalarType::F64);
  }
  void TearDown() override {
    PrecisionHooks::resetForTesting();
    approx::mgpu::setDriverForTesting(nullptr);
  }

  void profileMode() {
    setenv("APPROX_PRECISION", "profile", 1);
    setenv("APPROX_PRECISION_MANIFEST", manifest_.c_str(), 1);
    setenv("APPROX_PRECISION_OUT", (dir_ + ".profile.json").c_str(), 1);
  }
  void scaleMode(Configuration c) {
    c.toq = 0.9;
    c.strategy = "test";
    const std::string path = dir_ + ".config.json";
    ASSERT_TRUE(saveConfiguration(c, path).isOk());
    setenv("APPROX_PRECISION", "scale", 1);
    setenv("APPROX_PRECISION_MANIFEST", manifest_.c_str(), 1);
    setenv("APPROX_PRECISION_CONFIG", path.c_str(), 1);
  }
  /// X f16 (h2d on the host), Y f32 (h2d on the device, d2h on the host).
  static Configuration f16f32() {
    Configuration c;
    c.objects.push_back({"obj0", ScalarType::F64, ScalarType::F16,
                         Method::host(1), Method::none()});
    c.objects.push_back({"obj1", ScalarType::F64, ScalarType::F32,
                         Method::device(), Method::host(2)});
    return c;
  }

  /// Loads the module, creates a stream, allocates X and Y of n f64.
  void start(size_t n = 4) {
    module_ = mgpuModuleLoad(ptx_.data(), ptx_.size());
    ASSERT_NE(module_, nullptr);
    stream_ = mgpuStreamCreate();
    x_ = mgpuMemAlloc(n * 8, stream_, false);
    y_ = mgpuMemAlloc(n * 8, stream_, false);
    ASSERT_NE(x_, nullptr);
    ASSERT_NE(y_, nullptr);
  }
  void end() {
    mgpuMemFree(x_, stream_);
    mgpuMemFree(y_, stream_);
    mgpuStreamDestroy(stream_);
    mgpuModuleUnload(module_);
  }
  void expectClean() {
    PrecisionHooks::resetForTesting();
    FakeDriver &f = FakeDriver::get();
    EXPECT_EQ(f.liveModules(), 0u);
    EXPECT_EQ(f.liveAllocations(), 0u);
    EXPECT_EQ(f.liveStreams(), 0u);
    EXPECT_EQ(f.liveEvents(), 0u);
    EXPECT_EQ(fake::livePinned(), 0u);
  }

  std::string ptx_, dir_, manifest_;
  CUmodule module_ = nullptr;
  CUstream stream_ = nullptr;
  void *x_ = nullptr, *y_ = nullptr;
};

TEST_F(MgpuPrecision, PlainModeIsUnchanged) {
  start();
  runScale2();
  FakeDriver &f = FakeDriver::get();
  EXPECT_EQ(f.calls["cuMemcpyAsync"], 2);
  EXPECT_EQ(f.calls["cuEventCreate"], 0);
  // A logical (dispatched) name is not an entry: the driver's answer.
  EXPECT_EQ(mgpuModuleGetFunction(module_, "axpy"), nullptr);
  end();
  expectClean();
}

TEST_F(MgpuPrecision, ProfileOfTwoAllocations) {
  profileMode();
  start();
  runScale2();
  EXPECT_EQ(FakeDriver::get().launches.back().kernel, "scale2");
  end(); // the last module's unload writes the profile
  Expected<AppProfile> p = loadAppProfile(dir_ + ".profile.json");
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  ASSERT_EQ(p->objects.size(), 2u);
  const ObjectProfile &x = p->objects[0], &y = p->objects[1];
  EXPECT_EQ(x.name, "obj0");
  EXPECT_EQ(x.declared, ScalarType::F64);
  EXPECT_EQ(x.elements, 4u);
  ASSERT_EQ(x.events.size(), 1u);
  EXPECT_EQ(x.events[0].direction, Direction::H2D);
  EXPECT_EQ(x.readBy, std::vector<std::string>{"scale2"});
  EXPECT_TRUE(x.writtenBy.empty());
  EXPECT_EQ(y.name, "obj1");
  ASSERT_EQ(y.events.size(), 1u);
  EXPECT_EQ(y.events[0].direction, Direction::D2H);
  EXPECT_EQ(y.writtenBy, std::vector<std::string>{"scale2"});
  ASSERT_EQ(p->kernels.size(), 1u);
  EXPECT_EQ(p->kernels[0].name, "scale2");
  EXPECT_NEAR(p->kernels[0].seconds, 0.5e-3, 1e-9); // the fake's clock
  EXPECT_EQ(p->transfers,
            (std::vector<std::string>{"h2d obj0 4", "d2h obj1 4"}));
  EXPECT_GT(p->totalSeconds, 0);
  expectClean();
}

TEST_F(MgpuPrecision, ScalePicksTheVariantAndConverts) {
  scaleMode(f16f32());
  start();
  FakeDriver &f = FakeDriver::get();
  // Allocated at the storage sizes: 4 x f16, 4 x f32.
  EXPECT_EQ(f.allocations_[uintptr_t(x_)], 8u);
  EXPECT_EQ(f.allocations_[uintptr_t(y_)], 16u);
  double hx[4] = {1, 2, 0.5, -3}, hy[4] = {10, 20, 30, 40};
  mgpuMemcpy(x_, hx, sizeof(hx), stream_);
  mgpuMemcpy(y_, hy, sizeof(hy), stream_);
  EXPECT_EQ(toF64(x_, ScalarType::F16, 4), std::vector<double>(hx, hx + 4));
  CUfunction axpy = mgpuModuleGetFunction(module_, "axpy");
  ASSERT_NE(axpy, nullptr);
  launch(axpy, {memref(x_, 4), memref(y_, 4)}, 4, stream_);
  EXPECT_EQ(f.launches.back().kernel, "axpy__p3");
  double out[4] = {};
  ::testing::internal::CaptureStderr();
  mgpuMemcpy(out, y_, sizeof(out), stream_);
  mgpuStreamSynchronize(stream_);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(out[i], hy[i] + 2 * hx[i]);
  end();
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("scale: 3 converted transfers, 0 copies, 1 launches; "
                     "0 overflowed"),
            std::string::npos)
      << err;
  expectClean();
}

TEST_F(MgpuPrecision, ScaleKeepsUnconfiguredObjectsAndReportsOverflow) {
  Configuration c;
  c.objects.push_back({"obj0", ScalarType::F64, ScalarType::F16,
                       Method::host(1), Method::none()});
  scaleMode(c);
  setenv("APPROX_PRECISION_REPORT", (dir_ + ".report.json").c_str(), 1);
  start();
  double hx[4] = {1, 1e6, 2, 3}, hy[4] = {0, 0, 0, 0};
  ::testing::internal::CaptureStderr();
  mgpuMemcpy(x_, hx, sizeof(hx), stream_);
  mgpuMemcpy(y_, hy, sizeof(hy), stream_); // obj1: a plain copy
  launch(mgpuModuleGetFunction(module_, "axpy"),
         {memref(x_, 4), memref(y_, 4)}, 4, stream_);
  EXPECT_EQ(FakeDriver::get().launches.back().kernel, "axpy__p2");
  mgpuMemcpy(hy, y_, sizeof(hy), stream_);
  end();
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("h2d of obj0 (f64 stored as f16): 1 values overflowed"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("1 overflowed, 0 underflowed to zero, 0 NaNs; "
                     "overflowed objects: obj0"),
            std::string::npos)
      << err;
  EXPECT_EQ(hy[0], 2);
  EXPECT_TRUE(std::isinf(hy[1]));
  nlohmann::json r = readReport();
  EXPECT_EQ(r["overflowed"], nlohmann::json::array({"obj0"}));
  EXPECT_EQ(r["stats"]["overflowed"], 1);
  EXPECT_EQ(r["converted_transfers"], 1);
  EXPECT_EQ(r["copies"], 2); // obj1 in and out, unconverted
  expectClean();
}

//===----------------------------------------------------------------------===//
// APPROX_PRECISION_EXPECT and APPROX_PRECISION_REPORT
//===----------------------------------------------------------------------===//

TEST_F(MgpuPrecision, ScaleMatchesTheProfileAndReports) {
  profileAxpy();
  scaleMode(f16f32());
  setenv("APPROX_PRECISION_EXPECT", (dir_ + ".profile.json").c_str(), 1);
  setenv("APPROX_PRECISION_REPORT", (dir_ + ".report.json").c_str(), 1);
  start();
  std::vector<double> y = runAxpy();
  EXPECT_EQ(y, (std::vector<double>{12, 24, 31, 34}));
  ::testing::internal::CaptureStderr();
  end();
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("scale report written to " + dir_ + ".report.json"),
            std::string::npos)
      << err;
  nlohmann::json r = readReport();
  EXPECT_EQ(r["format"], "approx-mgpu-scale-report");
  EXPECT_EQ(r["version"], 1);
  EXPECT_EQ(r["expect"], dir_ + ".profile.json");
  EXPECT_GT(r["wall_seconds"].get<double>(), 0);
  EXPECT_EQ(r["launches"], 1);
  EXPECT_EQ(r["converted_transfers"], 3);
  EXPECT_EQ(r["copies"], 0);
  ASSERT_EQ(r["kernels"].size(), 1u);
  EXPECT_EQ(r["kernels"][0]["name"], "axpy");
  EXPECT_EQ(r["kernels"][0]["ran"], nlohmann::json::array({"axpy__p3"}));
  // The fake's clock: each launch takes the body's durationMs (0 here).
  EXPECT_EQ(r["kernel_seconds"], r["kernels"][0]["seconds"]);
  ASSERT_EQ(r["objects"].size(), 2u);
  EXPECT_EQ(r["objects"][0]["name"], "obj0");
  EXPECT_EQ(r["objects"][0]["declared"], "f64");
  EXPECT_EQ(r["objects"][0]["storage"], "f16");
  EXPECT_EQ(r["objects"][1]["name"], "obj1");
  EXPECT_EQ(r["objects"][1]["storage"], "f32");
  EXPECT_GT(r["objects"][1]["d2h_seconds"].get<double>(), 0);
  EXPECT_EQ(r["overflowed"], nlohmann::json::array());
  expectClean();
}

// With the profile's sizes the engine's staging is taken at load, before
// the timed section; without them, by the first transfer.
TEST_F(MgpuPrecision, ExpectReservesStagingAtLoad) {
  profileAxpy();
  scaleMode(f16f32());
  start();
  EXPECT_EQ(fake::livePinned(), 0u); // no EXPECT: nothing before a transfer
  runAxpy();
  end();
  PrecisionHooks::resetForTesting(); // the environment is read again
  setenv("APPROX_PRECISION_EXPECT", (dir_ + ".profile.json").c_str(), 1);
  start();
  // obj0 f64 -> f16 on the host, obj1's d2h f32 -> f64 on the host: one
  // pinned buffer, grown to the larger, before any transfer.
  EXPECT_EQ(fake::livePinned(), 1u);
  FakeDriver &f = FakeDriver::get();
  const int allocs = f.calls["cuMemHostAlloc"];
  std::vector<double> y = runAxpy();
  EXPECT_EQ(y, (std::vector<double>{12, 24, 31, 34}));
  EXPECT_EQ(f.calls["cuMemHostAlloc"], allocs);
  end();
  expectClean();
}

TEST_F(MgpuPrecision, ExpectStagingFailureIsOneLine) {
  profileAxpy();
  scaleMode(f16f32());
  setenv("APPROX_PRECISION_EXPECT", (dir_ + ".profile.json").c_str(), 1);
  FakeDriver::get().failCall("cuMemHostAlloc", CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_DEATH(start(), "approx-mgpu: precision: .*scale mode: staging for "
                        "the h2d of obj0 \\(4 elements, host\\(t=1\\)\\): "
                        "pinned staging buffer of 8 bytes: cuMemHostAlloc "
                        "failed: CUDA_ERROR_OUT_OF_MEMORY");
  unsetenv("APPROX_PRECISION_EXPECT");
}

//===----------------------------------------------------------------------===//
// APPROX_PRECISION_OUTPUTS
//===----------------------------------------------------------------------===//

TEST(MgpuOutputsFile, RoundTripAndErrors) {
  std::vector<NamedOutput> outs = {
      {"obj1", {1.5, -0.0, INFINITY, 1e-310}}, {"obj7", {}}, {"obj2", {3}}};
  const std::string bytes = encodeOutputs(outs);
  // Magic, count, then 4 + 4 + 8 + 4 x 8, 4 + 4 + 8, 4 + 4 + 8 + 8 bytes.
  EXPECT_EQ(bytes.size(), 8u + 8 + 48 + 16 + 24);
  Expected<std::vector<NamedOutput>> back = parseOutputs(bytes, "f");
  ASSERT_TRUE(back.isOk()) << back.status().toString();
  ASSERT_EQ(back->size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ((*back)[i].name, outs[i].name);
    EXPECT_EQ((*back)[i].values, outs[i].values);
  }
  EXPECT_TRUE(std::signbit((*back)[0].values[1]));
  auto err = [](const std::string &b) {
    Expected<std::vector<NamedOutput>> r = parseOutputs(b, "f");
    return r.isOk() ? std::string("ok") : r.status().message();
  };
  EXPECT_EQ(err("APXOUT2\n" + bytes.substr(8)),
            "outputs file 'f': not an outputs file (no APXOUT1 magic)");
  EXPECT_EQ(err(bytes.substr(0, bytes.size() - 1)),
            "outputs file 'f': object 3 (obj2): truncated values");
  EXPECT_EQ(err(bytes.substr(0, 20)),
            "outputs file 'f': object 1: truncated name");
  EXPECT_EQ(err(bytes + "x"), "outputs file 'f': 1 bytes after the last object");
  EXPECT_EQ(err(encodeOutputs({})), "ok");
}

TEST_F(MgpuPrecision, ProfileWritesTheLastReadBackOfEachObject) {
  profileMode();
  setenv("APPROX_PRECISION_OUTPUTS", (dir_ + ".outputs").c_str(), 1);
  start();
  runAxpy(); // Y = {12, 24, 31, 34} read back
  double again[4] = {};
  launch(mgpuModuleGetFunction(module_, "axpy"),
         {memref(x_, 4), memref(y_, 4)}, 4, stream_);
  mgpuMemcpy(again, y_, sizeof(again), stream_);
  // The program reuses its array before the end: the copy's values count.
  for (double &v : again)
    v = -1;
  ::testing::internal::CaptureStderr();
  end();
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("outputs of 1 objects written to " + dir_ + ".outputs"),
            std::string::npos)
      << err;
  Expected<std::vector<NamedOutput>> o = loadOutputs(dir_ + ".outputs");
  ASSERT_TRUE(o.isOk()) << o.status().toString();
  ASSERT_EQ(o->size(), 1u); // X is never read back
  EXPECT_EQ((*o)[0].name, "obj1");
  EXPECT_EQ((*o)[0].values, (std::vector<double>{14, 28, 32, 28}));
  expectClean();
}

TEST_F(MgpuPrecision, ScaleWritesOutputsInDeclaredValues) {
  scaleMode(f16f32());
  setenv("APPROX_PRECISION_OUTPUTS", (dir_ + ".outputs").c_str(), 1);
  setenv("APPROX_PRECISION_REPORT", (dir_ + ".report.json").c_str(), 1);
  start();
  // Y (obj1) stored as f32, read back through the host conversion: the
  // program's f64 values, as the outputs file has them.
  std::vector<double> y = runAxpy();
  EXPECT_EQ(y, (std::vector<double>{12, 24, 31, 34}));
  ::testing::internal::CaptureStderr();
  end();
  ::testing::internal::GetCapturedStderr();
  Expected<std::vector<NamedOutput>> o = loadOutputs(dir_ + ".outputs");
  ASSERT_TRUE(o.isOk()) << o.status().toString();
  ASSERT_EQ(o->size(), 1u);
  EXPECT_EQ((*o)[0].name, "obj1");
  EXPECT_EQ((*o)[0].values, y);
  EXPECT_GT(readReport()["wall_seconds"].get<double>(), 0);
  expectClean();
}

//===----------------------------------------------------------------------===//
// The run's time: the GPU section only
//===----------------------------------------------------------------------===//

/// `ms` milliseconds of host work (a sleep).
void hostWork(int ms) { ::usleep(useconds_t(ms) * 1000); }

/// The profile's total and the report's wall time span the GPU section:
/// from the first allocation to the last free. Host work before it (inputs)
/// and after it (a reference) is not counted; host work between two of its
/// transfers is.
class MgpuRunTime : public MgpuPrecision {
protected:
  static constexpr int kOutsideMs = 300, kInsideMs = 100;
  /// The axpy program with kOutsideMs of host work after the module is
  /// loaded (the hooks exist from then) and before the first allocation,
  /// kInsideMs between the two copies in, and kOutsideMs after the frees.
  void runWithHostWork() {
    module_ = mgpuModuleLoad(ptx_.data(), ptx_.size());
    ASSERT_NE(module_, nullptr);
    stream_ = mgpuStreamCreate();
    hostWork(kOutsideMs);
    x_ = mgpuMemAlloc(32, stream_, false);
    y_ = mgpuMemAlloc(32, stream_, false);
    double hx[4] = {1, 2, 0.5, -3}, hy[4] = {10, 20, 30, 40};
    mgpuMemcpy(x_, hx, sizeof(hx), stream_);
    hostWork(kInsideMs);
    mgpuMemcpy(y_, hy, sizeof(hy), stream_);
    launch(mgpuModuleGetFunction(module_, "axpy"),
           {memref(x_, 4), memref(y_, 4)}, 4, stream_);
    mgpuMemcpy(hy, y_, sizeof(hy), stream_);
    mgpuStreamSynchronize(stream_);
    EXPECT_EQ(std::vector<double>(hy, hy + 4),
              (std::vector<double>{12, 24, 31, 34}));
    mgpuMemFree(x_, stream_);
    mgpuMemFree(y_, stream_);
    hostWork(kOutsideMs);
    mgpuStreamDestroy(stream_);
    ::testing::internal::CaptureStderr();
    mgpuModuleUnload(module_);
    ::testing::internal::GetCapturedStderr();
  }
  /// At least the host work inside; far below the 2 x kOutsideMs outside
  /// (the fake driver's calls take microseconds: generous for a loaded
  /// machine).
  static void expectSection(double seconds) {
    EXPECT_GE(seconds, kInsideMs / 1e3) << "the host work inside";
    EXPECT_LT(seconds, (kInsideMs + 150) / 1e3) << "the host work outside";
  }
};

TEST_F(MgpuRunTime, ProfileTotalIsTheGpuSection) {
  profileMode();
  setenv("APPROX_PRECISION_OUTPUTS", (dir_ + ".outputs").c_str(), 1);
  runWithHostWork();
  Expected<AppProfile> p = loadAppProfile(dir_ + ".profile.json");
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  expectSection(p->totalSeconds);
  expectClean();
}

TEST_F(MgpuRunTime, ScaleWallIsTheGpuSection) {
  scaleMode(f16f32());
  setenv("APPROX_PRECISION_OUTPUTS", (dir_ + ".outputs").c_str(), 1);
  setenv("APPROX_PRECISION_REPORT", (dir_ + ".report.json").c_str(), 1);
  runWithHostWork();
  expectSection(readReport()["wall_seconds"].get<double>());
  expectClean();
}

TEST_F(MgpuRunTime, NoDeviceCallIsZero) {
  profileMode();
  module_ = mgpuModuleLoad(ptx_.data(), ptx_.size());
  ASSERT_NE(module_, nullptr);
  hostWork(20);
  ::testing::internal::CaptureStderr();
  mgpuModuleUnload(module_);
  ::testing::internal::GetCapturedStderr();
  Expected<AppProfile> p = loadAppProfile(dir_ + ".profile.json");
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  EXPECT_EQ(p->totalSeconds, 0);
  expectClean();
}

TEST_F(MgpuPrecision, ExpectedTransferDiffers) {
  profileAxpy();
  scaleMode(f16f32());
  setenv("APPROX_PRECISION_EXPECT", (dir_ + ".profile.json").c_str(), 1);
  start();
  EXPECT_DEATH(runAxpy(/*twiceIn=*/true),
               "approx-mgpu: precision: mgpuMemcpy: the program's transfers "
               "differ from the profiled run: transfer 3 is h2d obj1 4, the "
               "profiled run's was d2h obj1 4 \\(APPROX_PRECISION_EXPECT=.*"
               "profile.json\\)");
  PrecisionHooks::resetForTesting(); // unfinished: no transfers here
  unsetenv("APPROX_PRECISION");
  end();
}

TEST_F(MgpuPrecision, FewerTransfersThanProfiled) {
  profileAxpy();
  scaleMode(f16f32());
  setenv("APPROX_PRECISION_EXPECT", (dir_ + ".profile.json").c_str(), 1);
  start();
  double h[4] = {1, 2, 3, 4};
  mgpuMemcpy(x_, h, sizeof(h), stream_);
  mgpuMemFree(x_, stream_);
  mgpuMemFree(y_, stream_);
  mgpuStreamDestroy(stream_);
  EXPECT_DEATH(mgpuModuleUnload(module_),
               "mgpuModuleUnload: the program's transfers differ from the "
               "profiled run: it made 1 transfers, the profiled run 3 \\(the "
               "next was h2d obj1 4\\)");
  PrecisionHooks::resetForTesting(); // dropped unfinished
  unsetenv("APPROX_PRECISION");
  mgpuModuleUnload(module_);
}

TEST_F(MgpuPrecision, ExpectAndReportEnvironment) {
  profileMode();
  setenv("APPROX_PRECISION_EXPECT", (kData + "mgpu.manifest.json").c_str(), 1);
  EXPECT_DEATH(start(), "environment: APPROX_PRECISION_EXPECT is for "
                        "APPROX_PRECISION=scale");
  unsetenv("APPROX_PRECISION_EXPECT");
  setenv("APPROX_PRECISION_REPORT", (dir_ + ".report.json").c_str(), 1);
  EXPECT_DEATH(start(), "environment: APPROX_PRECISION_REPORT is for "
                        "APPROX_PRECISION=scale");
  scaleMode(f16f32());
  setenv("APPROX_PRECISION_EXPECT", (kData + "mgpu.manifest.json").c_str(), 1);
  EXPECT_DEATH(start(), "environment: APPROX_PRECISION_EXPECT=.*mgpu.manifest"
                        ".json: .*");
  setenv("APPROX_PRECISION_EXPECT", (dir_ + ".none.json").c_str(), 1);
  EXPECT_DEATH(start(), "environment: APPROX_PRECISION_EXPECT=.*none.json");
}

TEST_F(MgpuPrecision, OriginalKernelIsVariantZero) {
  // Profile: a launch of axpy runs axpy itself (the declared types).
  originalIsVariantZero();
  profileMode();
  start();
  double hx[4] = {1, 2, 3, 4}, hy[4] = {};
  mgpuMemcpy(x_, hx, sizeof(hx), stream_);
  mgpuMemcpy(y_, hy, sizeof(hy), stream_);
  CUfunction axpy = mgpuModuleGetFunction(module_, "axpy");
  ASSERT_NE(axpy, nullptr);
  launch(axpy, {memref(x_, 4), memref(y_, 4)}, 4, stream_);
  EXPECT_EQ(FakeDriver::get().launches.back().kernel, "axpy");
  mgpuMemcpy(hy, y_, sizeof(hy), stream_);
  end();
  Expected<AppProfile> p = loadAppProfile(dir_ + ".profile.json");
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  ASSERT_EQ(p->kernels.size(), 1u);
  EXPECT_EQ(p->kernels[0].name, "axpy");
  EXPECT_EQ(hy[3], 8);
  expectClean();

  // Scale: the same handle launches the variant with the storage types.
  originalIsVariantZero();
  scaleMode(f16f32());
  start();
  mgpuMemcpy(x_, hx, sizeof(hx), stream_);
  mgpuMemcpy(y_, hy, sizeof(hy), stream_);
  launch(mgpuModuleGetFunction(module_, "axpy"),
         {memref(x_, 4), memref(y_, 4)}, 4, stream_);
  EXPECT_EQ(FakeDriver::get().launches.back().kernel, "axpy__p3");
  ::testing::internal::CaptureStderr();
  end();
  ::testing::internal::GetCapturedStderr();
  expectClean();
}

TEST_F(MgpuPrecision, NoMatchingVariantListsTheOriginalOnce) {
  originalIsVariantZero();
  Configuration c = f16f32();
  c.objects[1].storage = ScalarType::F16;
  scaleMode(c);
  start();
  CUfunction axpy = mgpuModuleGetFunction(module_, "axpy");
  EXPECT_DEATH(launch(axpy, {memref(x_, 4), memref(y_, 4)}, 4, stream_),
               "the module has axpy \\(f64, f64\\), axpy__p1 \\(f64, "
               "f32\\), axpy__p2");
  end();
}

//===----------------------------------------------------------------------===//
// Mapping errors: one line naming the call, then abort
//===----------------------------------------------------------------------===//

TEST_F(MgpuPrecision, CopyIntoTheMiddleOfAnObject) {
  profileMode();
  start();
  double h[1] = {1};
  EXPECT_DEATH(mgpuMemcpy(static_cast<char *>(x_) + 8, h, 8, stream_),
               "approx-mgpu: precision: mgpuMemcpy: copy of 8 bytes from "
               "0x[0-9a-f]+ to 0x[0-9a-f]+: obj0 is 32 bytes at 0x[0-9a-f]+; "
               "only whole-object copies can be mapped");
  end();
}

TEST_F(MgpuPrecision, CopyOfAnotherSize) {
  scaleMode(f16f32());
  start();
  double h[4] = {};
  EXPECT_DEATH(mgpuMemcpy(h, y_, 16, stream_),
               "mgpuMemcpy: copy of 16 bytes .*: obj1 is 32 bytes");
  end();
}

TEST_F(MgpuPrecision, PointerUsedWithTwoElementTypes) {
  profileMode();
  start();
  launch(mgpuModuleGetFunction(module_, "scale2"),
         {memref(x_, 4), memref(y_, 4)}, 4, stream_);
  CUfunction fill = mgpuModuleGetFunction(module_, "fill32");
  EXPECT_DEATH(launch(fill, {memref(x_, 8)}, 8, stream_),
               "mgpuLaunchKernel: kernel 'fill32' argument 0 passes obj0 as "
               "f32, but kernel 'scale2' argument 0 passed it as f64");
  end();
}

TEST_F(MgpuPrecision, ConfigurationDeclaresAnotherType) {
  scaleMode(f16f32());
  start();
  CUfunction fill = mgpuModuleGetFunction(module_, "fill32");
  EXPECT_DEATH(launch(fill, {memref(x_, 8)}, 8, stream_),
               "kernel 'fill32' argument 0 passes obj0 as f32, but the "
               "configuration declares it f64");
  end();
}

TEST_F(MgpuPrecision, NoMatchingVariant) {
  Configuration c = f16f32();
  c.objects[1].storage = ScalarType::F16; // no axpy variant has Y in f16
  scaleMode(c);
  start();
  CUfunction axpy = mgpuModuleGetFunction(module_, "axpy");
  EXPECT_DEATH(launch(axpy, {memref(x_, 4), memref(y_, 4)}, 4, stream_),
               "mgpuLaunchKernel: kernel 'axpy' has no variant whose memref "
               "arguments are \\(obj0: f16, obj1: f16\\); the module has "
               "axpy__p0 \\(f64, f64\\), axpy__p1 \\(f64, f32\\), axpy__p2 "
               "\\(f16, f64\\), axpy__p3 \\(f16, f32\\)");
  end();
}

TEST_F(MgpuPrecision, ArgumentIntoTheMiddleOfAnObject) {
  profileMode();
  start();
  CUfunction f = mgpuModuleGetFunction(module_, "scale2");
  Memref mid{static_cast<char *>(x_) + 8, static_cast<char *>(x_) + 8, 0, 2, 1};
  EXPECT_DEATH(launch(f, {mid, memref(y_, 4)}, 2, stream_),
               "kernel 'scale2' argument 0 points into the middle of obj0");
  end();
}

TEST_F(MgpuPrecision, ConfigurationNamesAMissingObject) {
  Configuration c = f16f32();
  c.objects.push_back({"obj7", ScalarType::F64, ScalarType::F32,
                       Method::host(1), Method::none()});
  scaleMode(c);
  start();
  mgpuMemFree(x_, stream_);
  mgpuMemFree(y_, stream_);
  mgpuStreamDestroy(stream_);
  EXPECT_DEATH(mgpuModuleUnload(module_),
               "mgpuModuleUnload: the configuration names obj7, but the "
               "program allocated 2 objects");
  PrecisionHooks::resetForTesting(); // dropped unfinished
  unsetenv("APPROX_PRECISION");
  mgpuModuleUnload(module_);
}

TEST_F(MgpuPrecision, ScaledMemsetOtherThanZero) {
  scaleMode(f16f32());
  start();
  EXPECT_DEATH(mgpuMemset32(y_, 0x3f800000u, 8, stream_),
               "mgpuMemset32: .*obj1 is scaled; only setting all of it to 0");
  double h[4] = {1, 2, 3, 4};
  mgpuMemcpy(y_, h, sizeof(h), stream_);
  mgpuMemset32(y_, 0, 8, stream_); // zero: the f32 storage, 16 bytes
  EXPECT_EQ(toF64(y_, ScalarType::F32, 4), std::vector<double>(4, 0.0));
  end();
}

TEST_F(MgpuPrecision, BadEnvironment) {
  setenv("APPROX_PRECISION", "fast", 1);
  EXPECT_DEATH(start(), "approx-mgpu: precision: environment: "
                        "APPROX_PRECISION='fast': expected plain, profile or "
                        "scale");
  setenv("APPROX_PRECISION", "profile", 1);
  EXPECT_DEATH(start(), "environment: APPROX_PRECISION=profile needs "
                        "APPROX_PRECISION_MANIFEST");
  setenv("APPROX_PRECISION_MANIFEST", (kData + "nonexistent.json").c_str(), 1);
  EXPECT_DEATH(start(), "environment: APPROX_PRECISION_MANIFEST=.*nonexistent");
  setenv("APPROX_PRECISION_MANIFEST", manifest_.c_str(), 1);
  EXPECT_DEATH(start(), "APPROX_PRECISION=profile needs APPROX_PRECISION_OUT");
  Configuration c = f16f32();
  c.objects[0].name = "X";
  scaleMode(c);
  EXPECT_DEATH(start(), "APPROX_PRECISION_CONFIG=.*: object 'X' is not named "
                        "obj<n>");
  setenv("APPROX_PRECISION", "plain", 1); // plain: no hooks
  start();
  end();
  expectClean();
}

} // namespace
