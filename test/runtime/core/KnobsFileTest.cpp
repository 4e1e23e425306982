//===- KnobsFileTest.cpp - APPROX_CONFIG and APPROX_CAPTURE, no GPU -------===//
//
// What a tuner running a whole program relies on (docs/tuning.md, "Whole
// programs"): a knobs file names the configuration (readKnobsFile, with a
// one-line error for each way it can be wrong), Module::load applies and
// pins it when APPROX_CONFIG names it (unless the loader says not to), and
// APPROX_CAPTURE writes every device-to-host copy, in order, with its type.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "TestModule.h"

#include "approx/runtime/core/Capture.h"
#include "approx/runtime/core/Config.h"
#include "approx/runtime/core/Runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace approx::rt;
using approx::rt::fake::FakeDriver;

namespace {

class KnobsFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    f.reset();
    ctx = *detail::createContext(f.table(), 0);
    char tmpl[] = "/tmp/approx-knobs-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir = tmpl;
    std::ofstream(dir + "/fake.ptx") << fake::kTestPtx;
    std::ofstream(dir + "/fake.manifest.json") << fake::testManifest().dump();
    manifest = *loadManifestFile(dir + "/fake.manifest.json");
  }
  void TearDown() override {
    ::unsetenv("APPROX_CONFIG");
    ::unsetenv("APPROX_CAPTURE");
    ctx.reset();
    EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
  }
  std::string file(const std::string &name, const std::string &text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  }
  std::string error(const std::string &text) {
    Expected<Config> c = readKnobsFile(file("k.json", text), manifest);
    return c.isOk() ? std::string("ok") : c.status().message();
  }

  FakeDriver &f = FakeDriver::get();
  std::shared_ptr<Context> ctx;
  std::string dir;
  Manifest manifest;
};

} // namespace

TEST_F(KnobsFileTest, ReadsWhatTheTunerWrites) {
  Config c;
  c.values["lambda"] = 24;
  c.values["table"] = 1;
  std::string path = file("k.json", knobsFileText(manifest, c));
  Expected<Config> back = readKnobsFile(path, manifest);
  ASSERT_TRUE(back.isOk()) << back.status().toString();
  EXPECT_EQ(back->values, c.values);
  // A module the file does not name gets nothing.
  EXPECT_EQ(error(R"({"format":"approx-knobs","version":1,"modules":{"other":{"x":"1"}}})"),
            "ok");
}

TEST_F(KnobsFileTest, EachWrongFileIsOneLine) {
  auto has = [&](const std::string &text, const std::string &want) {
    std::string e = error(text);
    EXPECT_NE(e.find(want), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  };
  has("{", "not a JSON object");
  has(R"({"format":"approx-knobs","version":2,"modules":{}})",
      "format must be \"approx-knobs\", version 1");
  has(R"({"format":"approx-knobs","version":1})",
      "\"modules\" must be an object");
  has(R"({"format":"approx-knobs","version":1,"modules":{"fake":{"nope":"1"}}})",
      "module 'fake' has no knob 'nope'");
  has(R"({"format":"approx-knobs","version":1,"modules":{"fake":{"lambda":"99"}}})",
      "'99' is not a value of knob 'lambda'");
  has(R"({"format":"approx-knobs","version":1,"modules":{"fake":{"lambda":3}}})",
      "the value must be a value id (a string)");
  Expected<Config> missing = readKnobsFile(dir + "/absent.json", manifest);
  ASSERT_FALSE(missing.isOk());
}

TEST_F(KnobsFileTest, LoadAppliesAndPinsIt) {
  Config c;
  c.values["lambda"] = 24;
  ::setenv("APPROX_CONFIG", file("k.json", knobsFileText(manifest, c)).c_str(), 1);
  Expected<std::unique_ptr<Module>> m =
      Module::load(ctx, dir + "/fake.manifest.json");
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(*(*m)->getKnob("lambda"), 24);
  // The program's own value does not win over the tuner's.
  ASSERT_TRUE((*m)->setKnob("lambda", 3).isOk());
  EXPECT_EQ(*(*m)->getKnob("lambda"), 24);
  // Another knob stays the program's.
  ASSERT_TRUE((*m)->setKnob("mu", 5).isOk());
  EXPECT_EQ(*(*m)->getKnob("mu"), 5);
  // A loader that sets knobs itself (a tuner) ignores the file.
  LoadOptions lo;
  lo.applyEnvironment = false;
  Expected<std::unique_ptr<Module>> t =
      Module::load(ctx, dir + "/fake.manifest.json", lo);
  ASSERT_TRUE(t.isOk());
  EXPECT_EQ(*(*t)->getKnob("lambda"), 0);
  ASSERT_TRUE((*t)->setKnob("lambda", 3).isOk());
  EXPECT_EQ(*(*t)->getKnob("lambda"), 3);
  // A bad file makes the load fail, naming the file.
  ::setenv("APPROX_CONFIG", file("bad.json", "[]").c_str(), 1);
  Expected<std::unique_ptr<Module>> bad =
      Module::load(ctx, dir + "/fake.manifest.json");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("bad.json"), std::string::npos);
}

TEST_F(KnobsFileTest, CaptureWritesEachCopyInOrder) {
  std::string cap = dir + "/capture";
  ASSERT_EQ(::mkdir(cap.c_str(), 0700), 0);
  ::setenv("APPROX_CAPTURE", cap.c_str(), 1);
  std::vector<float> a = {1, 2, 3};
  std::vector<double> b = {4, 5};
  Expected<DeviceBuffer> da = DeviceBuffer::fromHost(ctx, a.data(), 3, ScalarType::F32);
  Expected<DeviceBuffer> db = DeviceBuffer::fromHost(ctx, b.data(), 2, ScalarType::F64);
  ASSERT_TRUE(da.isOk() && db.isOk());
  std::vector<float> ha(3);
  std::vector<double> hb(2);
  ASSERT_TRUE(da->copyToHost(ha.data(), 12).isOk());
  ASSERT_TRUE(db->copyToHost(hb.data(), 16).isOk());
  for (const char *pattern : {"f32", "f64"}) {
    std::string cmd = "ls " + cap + " | grep -c '\\." + pattern + "\\.bin$'";
    std::FILE *p = ::popen(cmd.c_str(), "r");
    char buf[16] = {};
    ASSERT_NE(std::fgets(buf, sizeof buf, p), nullptr);
    ::pclose(p);
    EXPECT_STREQ(buf, "1\n") << pattern;
  }
  // Written in order: the f32 copy's number is below the f64 copy's.
  std::FILE *p = ::popen(("ls " + cap + " | grep '^d2h-'").c_str(), "r");
  char first[64] = {}, second[64] = {};
  ASSERT_NE(std::fgets(first, sizeof first, p), nullptr);
  ASSERT_NE(std::fgets(second, sizeof second, p), nullptr);
  ::pclose(p);
  EXPECT_NE(std::string(first).find(".f32.bin"), std::string::npos) << first;
  EXPECT_NE(std::string(second).find(".f64.bin"), std::string::npos) << second;
  std::ifstream in(cap + "/" + std::string(second).substr(0, std::string(second).size() - 1),
                   std::ios::binary);
  double got[2] = {};
  in.read(reinterpret_cast<char *>(got), 16);
  EXPECT_EQ(got[0], 4);
  EXPECT_EQ(got[1], 5);
  // The time spent capturing, for the tuner to subtract.
  double seconds = -1;
  std::ifstream(cap + "/capture-seconds") >> seconds;
  EXPECT_GE(seconds, 0);
  // An unwritable directory fails the copy, in one line.
  ::setenv("APPROX_CAPTURE", (dir + "/absent").c_str(), 1);
  Status s = da->copyToHost(ha.data(), 12);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("APPROX_CAPTURE: cannot write"), std::string::npos);
}

namespace {

/// The test module with kernel `ptrk(ptr, i64)` added (an approx-cc
/// kernel's shape: a raw pointer, as cudaMalloc gives).
struct CaptureArgsTest : KnobsFileTest {
  void SetUp() override {
    KnobsFileTest::SetUp();
    nlohmann::json m = fake::testManifest();
    m["kernels"].push_back(
        {{"name", "ptrk"},
         {"knobs", nlohmann::json::array()},
         {"args",
          {{{"kind", "pointer"}, {"address_space", 1}, {"first_param", 0},
            {"num_params", 1}},
           {{"kind", "scalar"}, {"type", "i64"}, {"first_param", 1},
            {"num_params", 1}}}},
         {"params",
          {{{"arg", 0}, {"field", "value"}, {"type", "ptr"}, {"size", 8}},
           {{"arg", 1}, {"field", "value"}, {"type", "i64"}, {"size", 8}}}}});
    std::ofstream(dir + "/fake.manifest.json") << m.dump();
    std::ofstream(dir + "/fake.ptx")
        << fake::kTestPtx
        << ".visible .entry ptrk(\n\t.param .u64 ptrk_param_0,\n"
           "\t.param .u64 ptrk_param_1\n)\n{\n\tret;\n}\n";
    f.setKernel("ptrk", [](fake::LaunchRecord &r) {
      float *p = r.ptr<float>(0);
      for (int64_t i = 0; i < r.param<int64_t>(1); ++i)
        p[i] = float(r.param<int64_t>(1) * 10 + i);
      return CUDA_SUCCESS;
    });
    cap = dir + "/capture";
    ASSERT_EQ(::mkdir(cap.c_str(), 0700), 0);
    ::setenv("APPROX_CAPTURE", cap.c_str(), 1);
  }
  void request(const std::vector<capture::ArgRequest> &r) {
    std::ofstream(cap + "/capture.json") << capture::requestFileText(r);
  }
  std::string read(const std::string &name) {
    std::ifstream in(cap + "/" + name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::string cap;
};

TEST_F(CaptureArgsTest, RequestedPointerArgumentAfterItsLastLaunch) {
  // Pointer arguments need their type; slot 0 is another kernel's.
  request({{"scale", 0, std::nullopt}, {"ptrk", 0, ScalarType::F32}});
  Expected<std::unique_ptr<Module>> m =
      Module::load(ctx, dir + "/fake.manifest.json");
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  // A cudaMalloc'd block of 8 floats, passed 2 elements in: captured from
  // there to the end of the block.
  CUdeviceptr block = 0;
  ASSERT_EQ(f.table()->cuMemAlloc(&block, 32), CUDA_SUCCESS);
  std::vector<float> zeros(8, 0);
  ASSERT_EQ(f.table()->cuMemcpyHtoD(block, zeros.data(), 32), CUDA_SUCCESS);
  for (int64_t n : {3, 4}) // the second launch's values stay
    ASSERT_TRUE((*m)->launch("ptrk", LaunchConfig{},
                             {Arg::pointer(block + 8), Arg::integer(n)})
                    .isOk());
  std::string bytes = read("arg-01.f32.bin");
  ASSERT_EQ(bytes.size(), 24u);
  float got[6];
  std::memcpy(got, bytes.data(), 24);
  EXPECT_EQ(got[0], 40);
  EXPECT_EQ(got[3], 43);
  EXPECT_EQ(got[4], 0);
  EXPECT_EQ(read("arg-00.f64.bin"), ""); // scale never launched
  ASSERT_EQ(f.table()->cuMemFree(block), CUDA_SUCCESS);
}

TEST_F(CaptureArgsTest, RequestsThatCannotBeMetFailTheLaunch) {
  Expected<std::unique_ptr<Module>> m =
      Module::load(ctx, dir + "/fake.manifest.json");
  ASSERT_TRUE(m.isOk());
  CUdeviceptr block = 0;
  ASSERT_EQ(f.table()->cuMemAlloc(&block, 32), CUDA_SUCCESS);
  auto launchError = [&](const std::vector<capture::ArgRequest> &r) {
    request(r);
    Status s = (*m)->launch("ptrk", LaunchConfig{},
                            {Arg::pointer(block), Arg::integer(1)});
    return s.isOk() ? std::string("ok") : s.message();
  };
  EXPECT_EQ(launchError({{"ptrk", 0, std::nullopt}}),
            "APPROX_CAPTURE: argument 0 of kernel 'ptrk' is a pointer: its "
            "element type must be given (--capture-arg KERNEL:INDEX:TYPE)");
  EXPECT_EQ(launchError({{"ptrk", 1, ScalarType::F32}}),
            "APPROX_CAPTURE: argument 1 of kernel 'ptrk' is not a buffer or "
            "a non-null pointer");
  EXPECT_EQ(launchError({{"ptrk", 5, ScalarType::F32}}),
            "APPROX_CAPTURE: argument 5 of kernel 'ptrk': the kernel has 2 "
            "arguments");
  std::ofstream(cap + "/capture.json") << "{\"format\": \"other\"}";
  Status s = (*m)->launch("ptrk", LaunchConfig{},
                          {Arg::pointer(block), Arg::integer(1)});
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("not an approx-capture version 1 file"),
            std::string::npos)
      << s.message();
  ASSERT_EQ(f.table()->cuMemFree(block), CUDA_SUCCESS);
}

} // namespace
