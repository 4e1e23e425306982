//===- InspectTest.cpp - approx-inspect end to end over the fake driver ---===//
//
// Without a GPU (fake/FakeDriver.h, with the pinned-memory, stream-wait and
// UUID entry points of fake/PrecisionFake.h): the inspector
// measures every table of a small grid (64 KiB .. 1 MiB), the database it
// fills survives systemDbToJson -> parseSystemDb, its tables are the ones
// asked for (pipelined only from 4 chunks up, narrowing pairs h2d, widening
// d2h), the progress count is exact, a budget that is already spent skips
// everything, a pinned allocation failure comes back as the driver's
// status, nothing leaks; and the fingerprint and parsing helpers.
//
//===----------------------------------------------------------------------===//
#include "Inspect.h"
#include "FakeDriver.h"
#include "PrecisionFake.h"

#include "approx/runtime/precision/HostConvert.h"

#include <gtest/gtest.h>

using namespace approx::rt;
using namespace approx::rt::precision;
using namespace approx::inspect;
using approx::rt::fake::FakeDriver;

namespace {

class InspectTest : public ::testing::Test {
protected:
  void SetUp() override {
    Expected<std::shared_ptr<Context>> c = fake::resetPrecisionFake();
    ASSERT_TRUE(c.isOk()) << c.status().toString();
    ctx = *c;
    opt.maxBytes = uint64_t(1) << 20;
    opt.threads = {1, 2};
    opt.pipelineThreads = 2;
    opt.chunks = {uint64_t(64) << 10};
    opt.quick = true;
    opt.maxSeconds = 600;
  }
  void TearDown() override {
    ctx.reset();
    fake::expectPrecisionFakeClean();
  }

  FakeDriver &f = FakeDriver::get();
  std::shared_ptr<Context> ctx;
  InspectOptions opt;
  std::vector<std::string> lines, warnings;
  LogFn progress = [this](const std::string &l) { lines.push_back(l); };
  LogFn warn = [this](const std::string &l) { warnings.push_back(l); };
};

TEST_F(InspectTest, MeasuresEveryTableAndTheDatabaseParses) {
  SystemDb db;
  db.machine.cpu = currentCpu();
  db.machine.gpu = {"Fake GPU", "GPU-x", "1.0", 5, 16};
  db.created = utcNow();
  InspectReport rep;
  Status s = inspect(ctx, opt, db, rep, progress, warn);
  ASSERT_TRUE(s.isOk()) << s.toString();
  // 10 pairs x (2 host + 1 device) x 3 sizes, 4 transfers x 3 sizes,
  // 10 pairs x 2 sides x 2 sizes (256 KiB and 1 MiB: >= 4 chunks of 64 KiB).
  const size_t want = 10 * 3 * 3 + 4 * 3 + 10 * 2 * 2;
  EXPECT_EQ(rep.measured, want);
  EXPECT_EQ(rep.skipped, 0u);
  ASSERT_EQ(lines.size(), want);
  EXPECT_EQ(lines.front().rfind("[  1/142] host f64->f32 1 thread 64 KiB: ", 0),
            0u)
      << lines.front();
  EXPECT_EQ(lines.back().rfind("[142/142] transfer d2h pageable 1 MiB: ", 0),
            0u)
      << lines.back();
  EXPECT_EQ(db.hostConvert.size(), 20u);
  EXPECT_EQ(db.deviceConvert.size(), 10u);
  EXPECT_EQ(db.transfer.size(), 4u);
  EXPECT_EQ(db.pipelined.size(), 20u);
  for (const PipelinedTable &t : db.pipelined) {
    EXPECT_EQ(t.direction, scalarTypeSize(t.from) > scalarTypeSize(t.to)
                               ? Direction::H2D
                               : Direction::D2H);
    EXPECT_EQ(t.threads, t.where == Where::Host ? 2u : 0u);
    EXPECT_EQ(t.chunkBytes, uint64_t(64) << 10);
    ASSERT_EQ(t.points.size(), 2u);
    EXPECT_EQ(t.points[0].bytes, uint64_t(256) << 10);
  }
  const HostConvertTable *h =
      db.findHostConvert(ScalarType::F16, ScalarType::F64, 2);
  ASSERT_NE(h, nullptr);
  ASSERT_EQ(h->points.size(), 3u);
  EXPECT_EQ(h->points[2].bytes, uint64_t(1) << 20);
  Expected<SystemDb> back = parseSystemDb(systemDbToJson(db));
  ASSERT_TRUE(back.isOk()) << back.status().toString();
  EXPECT_EQ(systemDbToJson(*back), systemDbToJson(db));
  // The summary names every pair in its direction.
  std::string sum = summaryTable(db, defaultPairs(), inspectSizes(1 << 20));
  EXPECT_NE(sum.find("H2D f64->f16 (host f64, device f16)"), std::string::npos)
      << sum;
  EXPECT_NE(sum.find("D2H f16->f64 (host f64, device f16)"), std::string::npos);
  EXPECT_NE(sum.find("     1 MiB"), std::string::npos);
}

TEST_F(InspectTest, SpentBudgetSkipsEverything) {
  SystemDb db;
  InspectReport rep;
  opt.maxSeconds = 1e-12;
  opt.pairs = {{ScalarType::F64, ScalarType::F32}};
  ASSERT_TRUE(inspect(ctx, opt, db, rep, progress, warn).isOk());
  EXPECT_EQ(rep.measured, 0u);
  EXPECT_EQ(rep.skipped, size_t(3 * 3 + 4 * 3 + 2 * 2));
  EXPECT_EQ(rep.firstSkipped, uint64_t(64) << 10);
  EXPECT_TRUE(lines.empty());
}

TEST_F(InspectTest, PinnedAllocationFailureIsTheDriversStatus) {
  SystemDb db;
  InspectReport rep;
  f.failCall("cuMemHostAlloc", CUDA_ERROR_OUT_OF_MEMORY);
  Status s = inspect(ctx, opt, db, rep, progress, warn);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::OutOfMemory);
  EXPECT_EQ(s.message().rfind("pinned transfer buffer of 1 MiB: "
                              "cuMemHostAlloc failed: CUDA_ERROR_OUT_OF_MEMORY",
                              0),
            0u)
      << s.message();
  EXPECT_TRUE(db.hostConvert.empty());
}

TEST_F(InspectTest, FingerprintOfTheFakeGpu) {
  GpuInfo g = gpuFingerprint(*ctx, warn);
  EXPECT_EQ(g.name, "Fake GPU");
  EXPECT_EQ(g.uuid, "GPU-10111213-1415-1617-1819-1a1b1c1d1e1f");
  EXPECT_FALSE(g.driver.empty());
  // The fake has no PCI address: recorded as 0 and said.
  EXPECT_EQ(g.pcieGen, 0);
  EXPECT_EQ(g.pcieWidth, 0);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("PCI address"), std::string::npos) << warnings[0];
}

TEST(InspectHelpers, PcieSpeedsAndDriverVersions) {
  EXPECT_EQ(pcieGenFromSpeed("32.0 GT/s PCIe\n"), 5);
  EXPECT_EQ(pcieGenFromSpeed("16.0 GT/s PCIe"), 4);
  EXPECT_EQ(pcieGenFromSpeed("8 GT/s"), 3);
  EXPECT_EQ(pcieGenFromSpeed("2.5 GT/s"), 1);
  EXPECT_EQ(pcieGenFromSpeed("64.0 GT/s PCIe"), 6);
  EXPECT_EQ(pcieGenFromSpeed("Unknown"), 0);
  EXPECT_EQ(pcieGenFromSpeed("12 GT/s"), 0);
  EXPECT_EQ(driverFromProcVersion(
                "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  "
                "Tue Mar  5 22:23:56 UTC 2024\nGCC version:  gcc 12.2\n"),
            "550.54.15");
  EXPECT_EQ(driverFromProcVersion(
                "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                "570.124.06  Release Build  (dvs-builder@U16-I3-B03-4-3)\n"),
            "570.124.06");
  EXPECT_EQ(driverFromProcVersion("GCC version: 12.2\n"), "");
}

TEST(InspectHelpers, PairsSizesThreads) {
  Expected<std::vector<Pair>> p = parsePairs("f64:f16,bf16:f32,f64:f16");
  ASSERT_TRUE(p.isOk());
  ASSERT_EQ(p->size(), 2u);
  EXPECT_EQ(pairName((*p)[1]), "bf16->f32");
  EXPECT_FALSE(parsePairs("f64").isOk());
  EXPECT_FALSE(parsePairs("f64:i32").isOk());
  EXPECT_FALSE(parsePairs("f32:f32").isOk());
  EXPECT_FALSE(parsePairs("f64:f32,").isOk());
  EXPECT_EQ(defaultPairs().size(), 10u);
  EXPECT_EQ(inspectSizes(uint64_t(1) << 30).size(), 8u);
  EXPECT_EQ(inspectSizes(uint64_t(64) << 20).back(), uint64_t(64) << 20);
  EXPECT_EQ(inspectSizes(uint64_t(100) << 20).back(), uint64_t(64) << 20);
  EXPECT_EQ(defaultThreads(16), (std::vector<unsigned>{1, 2, 4, 8, 16}));
  EXPECT_EQ(defaultThreads(12), (std::vector<unsigned>{1, 2, 4, 8, 12}));
  EXPECT_EQ(defaultThreads(1), (std::vector<unsigned>{1}));
  EXPECT_EQ(sizeName(uint64_t(64) << 10), "64 KiB");
}

} // namespace
