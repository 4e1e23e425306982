//===- TransferTest.cpp - device conversion and transfers, no GPU ---------===//
//
// Without a GPU (fake/FakeDriver.h): the generated PTX module (one entry
// per pair, no .ftz, sm_75 target; ptxas accepts it for sm_75 and sm_90
// when the toolkit's ptxas was found at configure time), the converter's
// argument checks and launch shape, and TransferEngine end to end with
// the fake's kernels converting through the host's convert(): every
// method, both directions, every pair, sizes 0, 1, odd and several chunks,
// checked bit for bit against convert() with the same counts; every
// argument error as one line; equal types through staging by the host
// methods (the staging control); pinned allocation failure with the
// destination untouched; a failing pipelined copy to the host saying how
// much landed; reuse without reallocation; nothing leaked.
//
// The fake's table lacks pinned memory and stream waits, so the tests run
// on fake/PrecisionFake.h's copy of it with those entry points added.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "PrecisionFake.h"
#include "TransferChecks.h"

#include "approx/runtime/precision/DeviceConvert.h"
#include "approx/runtime/precision/Transfer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>

using namespace approx::rt;
using namespace approx::rt::precision;
using approx::rt::fake::FakeDriver;
using approx::rt::fake::LaunchRecord;
using namespace approx::rt::precision::test;

namespace {

const ScalarType kTypes[] = {ScalarType::F64, ScalarType::F32,
                             ScalarType::F16, ScalarType::BF16};

/// Chunks of 64 elements of the wider type, so sizes of a few hundred span
/// several chunks; one pipeline thread, two with three slots.
const PlanShape kPlans = {64, 2, 1, 2};

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

/// n random elements of `t`: random bit patterns, and values near the f16
/// range limits (overflow, subnormals), with NaNs and infinities among them.
Bytes randomArray(ScalarType t, size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> vals(n);
  for (double &v : vals) {
    switch (rng() % 4) {
    case 0:
      v = std::ldexp(double(rng() % 100000) / 1000.0, int(rng() % 60) - 40);
      break;
    case 1:
      v = std::ldexp(1.0 + double(rng() % 1024) / 1024.0, 15 + int(rng() % 3));
      break;
    case 2:
      v = std::ldexp(1.0, -24 - int(rng() % 4));
      break;
    default: {
      uint64_t bits = rng();
      std::memcpy(&v, &bits, 8);
      if (rng() % 8 == 0)
        v = rng() % 2 ? std::numeric_limits<double>::infinity()
                      : std::numeric_limits<double>::quiet_NaN();
    }
    }
    if (rng() % 2)
      v = -v;
  }
  Bytes out(n * scalarTypeSize(t) + 1);
  ConvertOptions opt;
  opt.threads = 1;
  EXPECT_TRUE(convert(vals.data(), ScalarType::F64, out.data(), t, n, opt)
                  .isOk());
  out.resize(n * scalarTypeSize(t));
  return out;
}

//===----------------------------------------------------------------------===//
// Fixture
//===----------------------------------------------------------------------===//

class TransferTest : public ::testing::Test {
protected:
  void SetUp() override {
    Expected<std::shared_ptr<Context>> c = fake::resetPrecisionFake();
    ASSERT_TRUE(c.isOk()) << c.status().toString();
    ctx = *c;
    Expected<std::unique_ptr<TransferEngine>> e = TransferEngine::create(ctx);
    ASSERT_TRUE(e.isOk()) << e.status().toString();
    engine = e.take();
  }
  void TearDown() override {
    engine.reset();
    ctx.reset();
    fake::expectPrecisionFakeClean();
  }

  DeviceBuffer buffer(size_t n, ScalarType t) {
    Expected<DeviceBuffer> b =
        DeviceBuffer::allocate(ctx, std::max<size_t>(1, n) * scalarTypeSize(t), t);
    EXPECT_TRUE(b.isOk()) << b.status().toString();
    return b.isOk() ? b.take() : DeviceBuffer();
  }

  FakeDriver &f = FakeDriver::get();
  std::shared_ptr<Context> ctx;
  std::unique_ptr<TransferEngine> engine;
};

} // namespace

//===----------------------------------------------------------------------===//
// The PTX module
//===----------------------------------------------------------------------===//

TEST(DeviceConvertPtx, OneEntryPerPairNoFlushToZero) {
  const std::string &ptx = deviceConvertPtx();
  EXPECT_NE(ptx.find(".target sm_75"), std::string::npos);
  EXPECT_NE(ptx.find(".version 7.0"), std::string::npos);
  EXPECT_EQ(ptx.find(".ftz"), std::string::npos);
  EXPECT_EQ(ptx.find("bf16.f"), std::string::npos) // no sm_80+ bf16 cvt
      << "the image must load on sm_75";
  size_t entries = 0;
  for (size_t p = ptx.find(".entry"); p != std::string::npos;
       p = ptx.find(".entry", p + 1))
    ++entries;
  EXPECT_EQ(entries, 12u);
  for (ScalarType a : kTypes)
    for (ScalarType b : kTypes) {
      const std::string name = deviceConvertKernelName(a, b);
      if (a == b) {
        EXPECT_EQ(name, "");
        continue;
      }
      EXPECT_NE(ptx.find(".entry " + name + "("), std::string::npos) << name;
    }
  EXPECT_EQ(deviceConvertKernelName(ScalarType::I32, ScalarType::F32), "");
  EXPECT_EQ(deviceConvertKernelName(ScalarType::F64, ScalarType::F16),
            "approx_cvt_f64_f16");
  // f64 -> f16 rounds once (cvt.rn.f16.f64), f64 -> bf16 to odd first.
  EXPECT_NE(ptx.find("cvt.rn.f16.f64"), std::string::npos);
  EXPECT_NE(ptx.find("cvt.rz.f32.f64"), std::string::npos);
}

TEST(DeviceConvertPtx, PtxasAcceptsIt) {
#ifndef APPROX_PTXAS
  GTEST_SKIP() << "ptxas was not found at configure time";
#else
  const std::string ptxas = APPROX_PTXAS;
  if (ptxas.empty())
    GTEST_SKIP() << "ptxas was not found at configure time";
  char tmpl[] = "/tmp/approx-cvt-ptx-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  std::ofstream(dir + "/cvt.ptx") << deviceConvertPtx();
  // APPROX_DUMP_PTX=DIR keeps a copy for inspection.
  if (const char *keep = std::getenv("APPROX_DUMP_PTX"))
    std::ofstream(std::string(keep) + "/approx_convert.ptx")
        << deviceConvertPtx();
  for (const char *arch : {"sm_75", "sm_80", "sm_90"}) {
    const std::string cmd = "'" + ptxas + "' -arch=" + arch + " '" + dir +
                            "/cvt.ptx' -o '" + dir + "/cvt.cubin' 2>'" + dir +
                            "/log'";
    int rc = std::system(cmd.c_str());
    std::ifstream log(dir + "/log");
    std::string text((std::istreambuf_iterator<char>(log)), {});
    EXPECT_EQ(rc, 0) << arch << ": " << text;
  }
  EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
#endif
}

//===----------------------------------------------------------------------===//
// DeviceConverter over the fake
//===----------------------------------------------------------------------===//

TEST_F(TransferTest, ConverterIsLoadedOncePerContext) {
  EXPECT_EQ(f.liveModules(), 1u);
  Expected<std::shared_ptr<DeviceConverter>> a =
      DeviceConverter::forContext(ctx);
  ASSERT_TRUE(a.isOk());
  EXPECT_EQ(a->get(), &engine->converter());
  Expected<std::unique_ptr<TransferEngine>> e2 = TransferEngine::create(ctx);
  ASSERT_TRUE(e2.isOk());
  EXPECT_EQ(f.liveModules(), 1u);
  EXPECT_EQ(f.calls["cuModuleLoadDataEx"], 1);
}

TEST_F(TransferTest, ConverterLaunchShapeAndCounts) {
  DeviceConverter &c = engine->converter();
  const size_t n = 300001; // more than 8 blocks per SM of 256 threads
  Bytes src = randomArray(ScalarType::F64, n, 7);
  DeviceBuffer s = buffer(n, ScalarType::F64), d = buffer(n, ScalarType::F16);
  ASSERT_TRUE(s.copyFromHost(src.data(), src.size()).isOk());
  ConvertStats st;
  Status r = c.convert(s.devicePtr(), ScalarType::F64, d.devicePtr(),
                       ScalarType::F16, n, &st);
  ASSERT_TRUE(r.isOk()) << r.toString();
  ASSERT_EQ(f.launches.size(), 1u);
  const LaunchRecord &l = f.launches[0];
  EXPECT_EQ(l.kernel, "approx_cvt_f64_f16");
  EXPECT_EQ(l.block[0], kDeviceConvertBlock);
  EXPECT_EQ(l.grid[0], 132u * 8); // capped at 8 blocks per SM
  EXPECT_EQ(l.param<uint64_t>(2), n);
  EXPECT_NE(l.param<uint64_t>(3), 0u);
  ConvertStats want;
  Bytes ref = expectedTransfer(src, ScalarType::F64, ScalarType::F16, n,
                               TransferPlan::device(), want);
  Bytes got(n * 2);
  ASSERT_TRUE(d.copyToHost(got.data(), got.size()).isOk());
  EXPECT_EQ(got, ref);
  EXPECT_TRUE(sameStats(st, want)) << statsText(st) << " vs " << statsText(want);
  EXPECT_GT(st.overflowed, 0u);
  EXPECT_GT(st.nans, 0u);
  // No stats: no counter block.
  ASSERT_TRUE(c.convert(s.devicePtr(), ScalarType::F64, d.devicePtr(),
                        ScalarType::F16, 5)
                  .isOk());
  EXPECT_EQ(f.launches.back().param<uint64_t>(3), 0u);
  EXPECT_EQ(f.launches.back().grid[0], 1u);
  // n = 0 launches nothing.
  ASSERT_TRUE(c.convert(s.devicePtr(), ScalarType::F64, d.devicePtr(),
                        ScalarType::F16, 0, &st)
                  .isOk());
  EXPECT_EQ(f.launches.size(), 2u);
}

TEST_F(TransferTest, ConverterArgumentErrors) {
  DeviceConverter &c = engine->converter();
  DeviceBuffer b = buffer(64, ScalarType::F64);
  const uint64_t p = b.devicePtr();
  struct Case {
    Status s;
    const char *text;
  };
  const Case cases[] = {
      {c.enqueue(p, ScalarType::I32, p + 256, ScalarType::F16, 4),
       "source type i32 is not a precision"},
      {c.enqueue(p, ScalarType::F32, p + 256, ScalarType::Index, 4),
       "destination type index is not a precision"},
      {c.enqueue(p, ScalarType::F32, p + 256, ScalarType::F32, 4),
       "both f32 (a copy, not a conversion)"},
      {c.enqueue(0, ScalarType::F32, p, ScalarType::F16, 4),
       "null source address for 4 elements"},
      {c.enqueue(p, ScalarType::F32, 0, ScalarType::F16, 4),
       "null destination address for 4 elements"},
      {c.enqueue(p + 2, ScalarType::F32, p + 256, ScalarType::F16, 4),
       "is not aligned to 4 bytes (f32)"},
      {c.enqueue(p, ScalarType::F32, p + 257, ScalarType::F16, 4),
       "is not aligned to 2 bytes (f16)"},
      {c.enqueue(p, ScalarType::F32, p + 256, ScalarType::F16, 4, nullptr,
                 p + 4),
       "counter block address"},
      {c.enqueue(p, ScalarType::F32, p + 8, ScalarType::F16, 4), "overlap"},
      {c.enqueue(p, ScalarType::F32, p + 256, ScalarType::F16,
                 size_t(1) << 62),
       "overflow the kernels' 64-bit offsets"},
      {c.enqueue(~uint64_t(0) - 7, ScalarType::F32, p, ScalarType::F16, 4),
       "wrap around the address space"},
  };
  for (const Case &k : cases) {
    ASSERT_FALSE(k.s.isOk()) << k.text;
    EXPECT_EQ(k.s.code(), StatusCode::InvalidArgument) << k.s.toString();
    EXPECT_NE(k.s.message().find(k.text), std::string::npos)
        << k.s.message() << " lacks " << k.text;
    EXPECT_EQ(k.s.message().find('\n'), std::string::npos);
  }
  EXPECT_TRUE(f.launches.empty());
}

//===----------------------------------------------------------------------===//
// Transfers over the fake
//===----------------------------------------------------------------------===//

TEST_F(TransferTest, EveryMethodEveryPairBothDirections) {
  const size_t sizes[] = {0, 1, 7, 333};
  uint32_t seed = 1;
  for (ScalarType host : kTypes)
    for (ScalarType dev : kTypes)
      for (const TransferPlan &plan : plansFor(host, dev, kPlans))
        for (size_t n : sizes) {
          const std::string what = pairName(host, dev) + " " +
                                   describePlan(plan) + " n=" +
                                   std::to_string(n);
          // To the device.
          Bytes src = randomArray(host, n, seed++);
          DeviceBuffer d = buffer(n, dev);
          TransferResult r;
          Status s = engine->toDevice(src.data(), host, d.view(), dev, n,
                                      plan, &r);
          ASSERT_TRUE(s.isOk()) << what << ": " << s.toString();
          ConvertStats want;
          Bytes ref = expectedTransfer(src, host, dev, n, plan, want);
          Bytes got(n * scalarTypeSize(dev));
          ASSERT_TRUE(d.copyToHost(got.data(), got.size()).isOk());
          EXPECT_EQ(got, ref) << what << " to device";
          EXPECT_TRUE(sameStats(r.stats, want))
              << what << " to device: " << statsText(r.stats) << " vs "
              << statsText(want);
          // Equal types: a plain copy, but the host methods stage it.
          const bool staged = plan.method == TransferMethod::HostSingle ||
                              plan.method == TransferMethod::HostMulti;
          EXPECT_EQ(r.method, host == dev && !staged ? TransferMethod::Copy
                                                     : plan.method);
          if (plan.method == TransferMethod::Pipelined && host != dev && n) {
            EXPECT_EQ(r.chunks, (n * scalarTypeSize(host) + plan.chunkBytes -
                                 1) / plan.chunkBytes)
                << what;
          }

          // To the host.
          Bytes dsrc = randomArray(dev, n, seed++);
          ASSERT_TRUE(d.copyFromHost(dsrc.data(), dsrc.size()).isOk());
          Bytes out(n * scalarTypeSize(host) + 3, 0xa5);
          s = engine->toHost(d.view(), dev, out.data(), host, n, plan, &r);
          ASSERT_TRUE(s.isOk()) << what << ": " << s.toString();
          ref = expectedTransfer(dsrc, dev, host, n, plan, want);
          EXPECT_EQ(Bytes(out.begin(), out.begin() + ref.size()), ref)
              << what << " to host";
          for (size_t i = ref.size(); i < out.size(); ++i)
            ASSERT_EQ(out[i], 0xa5) << what << ": wrote past the end";
          EXPECT_TRUE(sameStats(r.stats, want))
              << what << " to host: " << statsText(r.stats) << " vs "
              << statsText(want);
        }
}

TEST_F(TransferTest, PipelinedOverlapsOnTwoStreams) {
  const size_t n = 1000; // f64 -> f16, chunk 128 f64 = 8 chunks
  Bytes src = randomArray(ScalarType::F64, n, 3);
  DeviceBuffer d = buffer(n, ScalarType::F16);
  TransferPlan plan = TransferPlan::pipelined(1024, 1, ConvertSide::Device);
  TransferResult r;
  ASSERT_TRUE(engine
                  ->toDevice(src.data(), ScalarType::F64, d.view(),
                             ScalarType::F16, n, plan, &r)
                  .isOk());
  EXPECT_EQ(r.chunks, 8u);
  EXPECT_EQ(f.launches.size(), 8u);
  EXPECT_EQ(f.calls["cuMemcpyHtoDAsync"], 8);
  // Copies on one stream, kernels on another.
  std::set<CUstream> copyStreams, kernelStreams;
  for (auto &c : f.asyncCopies)
    copyStreams.insert(c.stream);
  for (auto &l : f.launches)
    kernelStreams.insert(l.stream);
  ASSERT_EQ(copyStreams.size(), 1u);
  ASSERT_EQ(kernelStreams.size(), 1u);
  EXPECT_NE(*copyStreams.begin(), *kernelStreams.begin());
  EXPECT_NE(*copyStreams.begin(), nullptr);
  // Each kernel waits for its copy; each reuse of a slot waits for the
  // kernel that last read it.
  EXPECT_EQ(f.calls["cuStreamWaitEvent"], 8 + 6);
  EXPECT_EQ(r.busBytes, n * 8);
  // Two slots of 128 f64 pinned, two of scratch.
  EXPECT_EQ(engine->pinnedBytes(), 2048u);
  EXPECT_EQ(engine->scratchBytes(), 2048u);
}

TEST_F(TransferTest, StagingIsReused) {
  const size_t n = 4096;
  Bytes src = randomArray(ScalarType::F32, n, 5);
  DeviceBuffer d = buffer(n, ScalarType::F16);
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(engine
                    ->toDevice(src.data(), ScalarType::F32, d.view(),
                               ScalarType::F16, n, TransferPlan::hostMulti(2))
                    .isOk());
  EXPECT_EQ(f.calls["cuMemHostAlloc"], 1);
  // A smaller one reuses it too; a larger one grows it (once).
  ASSERT_TRUE(engine
                  ->toDevice(src.data(), ScalarType::F32, d.view(),
                             ScalarType::F16, 10, TransferPlan::hostSingle())
                  .isOk());
  EXPECT_EQ(f.calls["cuMemHostAlloc"], 1);
  DeviceBuffer d2 = buffer(n, ScalarType::F32);
  ASSERT_TRUE(engine
                  ->toDevice(randomArray(ScalarType::F16, n, 9).data(),
                             ScalarType::F16, d2.view(), ScalarType::F32, n,
                             TransferPlan::hostSingle())
                  .isOk());
  EXPECT_EQ(f.calls["cuMemHostAlloc"], 2);
  EXPECT_EQ(f.calls["cuMemFreeHost"], 1);
  ASSERT_TRUE(engine->release().isOk());
  EXPECT_EQ(engine->pinnedBytes(), 0u);
  EXPECT_EQ(engine->scratchBytes(), 0u);
}

TEST_F(TransferTest, ReserveAllocatesWhatTheFirstTransferWould) {
  const size_t n = 1000;
  // Pipelined on the device, as PipelinedOverlapsOnTwoStreams sizes it:
  // two slots of 128 f64 pinned and two of scratch.
  TransferPlan pipe = TransferPlan::pipelined(1024, 1, ConvertSide::Device);
  ASSERT_TRUE(
      engine->reserve(ScalarType::F64, ScalarType::F16, n, pipe).isOk());
  EXPECT_EQ(engine->pinnedBytes(), 2048u);
  EXPECT_EQ(engine->scratchBytes(), 2048u);
  // Host conversion f64 -> f32: n f32 of pinned staging (it grows once).
  ASSERT_TRUE(engine
                  ->reserve(ScalarType::F64, ScalarType::F32, n,
                            TransferPlan::hostMulti(2))
                  .isOk());
  EXPECT_EQ(engine->pinnedBytes(), n * 4);
  const int allocs = f.calls["cuMemHostAlloc"];
  // The transfers that follow allocate nothing more.
  Bytes src = randomArray(ScalarType::F64, n, 3);
  DeviceBuffer d16 = buffer(n, ScalarType::F16);
  DeviceBuffer d32 = buffer(n, ScalarType::F32);
  ASSERT_TRUE(engine
                  ->toDevice(src.data(), ScalarType::F64, d16.view(),
                             ScalarType::F16, n, pipe)
                  .isOk());
  ASSERT_TRUE(engine
                  ->toDevice(src.data(), ScalarType::F64, d32.view(),
                             ScalarType::F32, n, TransferPlan::hostMulti(2))
                  .isOk());
  EXPECT_EQ(f.calls["cuMemHostAlloc"], allocs);
  EXPECT_EQ(engine->pinnedBytes(), n * 4);
  // A plain copy and n = 0 need nothing; a bad plan is one line.
  ASSERT_TRUE(engine
                  ->reserve(ScalarType::F64, ScalarType::F64, n,
                            TransferPlan::copy())
                  .isOk());
  TransferPlan bad = TransferPlan::pipelined(1001, 1); // not a multiple of 8
  Status s = engine->reserve(ScalarType::F64, ScalarType::F16, n, bad);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("chunk of 1001 bytes"), std::string::npos)
      << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
  // A failed allocation is one line too.
  f.failCall("cuMemHostAlloc", CUDA_ERROR_OUT_OF_MEMORY);
  s = engine->reserve(ScalarType::F16, ScalarType::F32, size_t(16) << 20,
                      TransferPlan::hostSingle());
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::OutOfMemory);
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
}

TEST_F(TransferTest, HostMethodsStageACopyBetweenEqualTypes) {
  // The staging control (Decision.h, stagedCopyConfiguration): f64 -> f64
  // by a host method is copied by the host threads into the pinned staging
  // buffer, then across the bus; the other methods copy straight from the
  // user's array, as before.
  const size_t n = 1000;
  const ScalarType F64 = ScalarType::F64;
  Bytes src = randomArray(F64, n, 11);
  DeviceBuffer d = buffer(n, F64);
  for (TransferPlan plan : {TransferPlan::copy(), TransferPlan::device(),
                            TransferPlan::pipelined(1024, 2)}) {
    TransferResult r;
    ASSERT_TRUE(
        engine->toDevice(src.data(), F64, d.view(), F64, n, plan, &r).isOk());
    EXPECT_EQ(r.method, TransferMethod::Copy) << describePlan(plan);
  }
  EXPECT_EQ(engine->pinnedBytes(), 0u);
  EXPECT_EQ(f.calls["cuMemHostAlloc"], 0);

  // reserve() allocates it ahead, as a caller timing the copy needs.
  ASSERT_TRUE(engine->reserve(F64, F64, n, TransferPlan::hostMulti(2)).isOk());
  EXPECT_EQ(engine->pinnedBytes(), n * 8);
  EXPECT_EQ(f.calls["cuMemHostAlloc"], 1);
  TransferResult r;
  ASSERT_TRUE(engine
                  ->toDevice(src.data(), F64, d.view(), F64, n,
                             TransferPlan::hostMulti(2), &r)
                  .isOk());
  EXPECT_EQ(r.method, TransferMethod::HostMulti);
  EXPECT_EQ(r.busBytes, n * 8);
  EXPECT_EQ(r.stats.nans + r.stats.overflowed + r.stats.underflowedToZero, 0u);
  EXPECT_EQ(f.calls["cuMemHostAlloc"], 1); // reserved: nothing allocated
  Bytes got(n * 8);
  ASSERT_TRUE(d.copyToHost(got.data(), got.size()).isOk());
  EXPECT_EQ(got, src);
  // Back, one thread: through staging too, bit for bit.
  Bytes out(n * 8, 0);
  ASSERT_TRUE(engine
                  ->toHost(d.view(), F64, out.data(), F64, n,
                           TransferPlan::hostSingle(), &r)
                  .isOk());
  EXPECT_EQ(r.method, TransferMethod::HostSingle);
  EXPECT_EQ(out, src);
  EXPECT_EQ(f.calls["cuMemHostAlloc"], 1);
  // Pageable staging, when the plan says so.
  TransferPlan pageable = TransferPlan::hostMulti(2);
  pageable.pinned = false;
  ASSERT_TRUE(
      engine->toDevice(src.data(), F64, d.view(), F64, n, pageable).isOk());
  EXPECT_EQ(engine->pageableBytes(), n * 8);
}

TEST_F(TransferTest, PinnedAllocationFailureLeavesDestinationUntouched) {
  const size_t n = size_t(16) << 20; // 16 Mi f32 -> 64 MiB of f32 staging
  DeviceBuffer d = buffer(n, ScalarType::F32);
  ASSERT_TRUE(d.fill32(0x12345678).isOk());
  f.failCall("cuMemHostAlloc", CUDA_ERROR_OUT_OF_MEMORY);
  // f16 host -> f32 device, staging n f32 = 64 MiB.
  std::vector<uint16_t> half(n, 0x3c00);
  Status s = engine->toDevice(half.data(), ScalarType::F16, d.view(),
                              ScalarType::F32, n, TransferPlan::hostSingle());
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::OutOfMemory);
  EXPECT_EQ(s.message().rfind("pinned staging buffer of 64 MiB: "
                              "cuMemHostAlloc failed: CUDA_ERROR_OUT_OF_MEMORY",
                              0),
            0u)
      << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
  uint32_t probe[4];
  ASSERT_TRUE(d.copyToHost(probe, sizeof probe).isOk());
  EXPECT_EQ(probe[0], 0x12345678u);
  // To the host: the user's array keeps its bytes.
  f.failCall("cuMemHostAlloc", CUDA_ERROR_OUT_OF_MEMORY);
  std::vector<double> out(n, 42.0);
  s = engine->toHost(d.view(), ScalarType::F32, out.data(), ScalarType::F64, n,
                     TransferPlan::pipelined(size_t(1) << 20));
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("pinned staging buffer of 1 MiB"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(out[0], 42.0);
  EXPECT_EQ(out[n - 1], 42.0);
  // The engine still works afterwards.
  EXPECT_TRUE(engine
                  ->toDevice(half.data(), ScalarType::F16, d.view(),
                             ScalarType::F32, 1000, TransferPlan::hostSingle())
                  .isOk());
}

TEST_F(TransferTest, FailingPipelinedCopyToHostSaysWhatLanded) {
  const size_t n = 1000; // f16 device -> f32 host, chunk 100 f32
  DeviceBuffer d = buffer(n, ScalarType::F16);
  Bytes src = randomArray(ScalarType::F16, n, 11);
  ASSERT_TRUE(d.copyFromHost(src.data(), src.size()).isOk());
  std::vector<float> out(n, -1.0f);
  f.failCall("cuMemcpyDtoHAsync", CUDA_ERROR_UNKNOWN, 4);
  Status s = engine->toHost(d.view(), ScalarType::F16, out.data(),
                            ScalarType::F32, n, TransferPlan::pipelined(400));
  ASSERT_FALSE(s.isOk());
  // Slots 0 and 1 issued, then chunk 2, 3 after chunks 0, 1 landed; the
  // fifth copy (chunk 4) fails after chunk 2 landed.
  EXPECT_EQ(s.message().rfind("pipelined transfer to host: 300 of 1000 "
                              "elements landed: cuMemcpyDtoHAsync failed",
                              0),
            0u)
      << s.message();
  EXPECT_EQ(s.cudaCall(), "cuMemcpyDtoHAsync");
  EXPECT_EQ(out[299 + 1], -1.0f);
  EXPECT_NE(out[0], -1.0f);
}

TEST_F(TransferTest, ArgumentErrorsAreOneLine) {
  DeviceBuffer d = buffer(16, ScalarType::F16);
  std::vector<float> h(16);
  TransferPlan ok = TransferPlan::hostSingle();
  auto plan = [](auto edit) {
    TransferPlan p = TransferPlan::pipelined(64);
    edit(p);
    return p;
  };
  BufferView v = d.view();
  BufferView odd = v;
  odd.ptr += 1;
  BufferView untyped = v;
  untyped.elem = ScalarType::I8;
  untyped.ptr += 1;
  struct Case {
    Status s;
    const char *text;
  };
  const Case cases[] = {
      {engine->toDevice(h.data(), ScalarType::I32, v, ScalarType::F16, 4, ok),
       "transfer to device: host type i32 is not a precision"},
      {engine->toHost(v, ScalarType::I64, h.data(), ScalarType::F32, 4, ok),
       "transfer to host: device type i64 is not a precision"},
      {engine->toDevice(nullptr, ScalarType::F32, v, ScalarType::F16, 4, ok),
       "null host pointer for 4 elements"},
      {engine->toDevice(h.data(), ScalarType::F32, BufferView{0, 64, ScalarType::F16},
                        ScalarType::F16, 4, ok),
       "null device address for 4 elements"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16, 17, ok),
       "device buffer of 32 bytes is too small for 17 f16 (34 bytes)"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::BF16, 4, ok),
       "the device buffer holds f16, the transfer says bf16"},
      {engine->toDevice(h.data(), ScalarType::F32, untyped, ScalarType::F16, 4,
                        ok),
       "is not aligned to 2 bytes (f16)"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16,
                        ~size_t(0) / 2, ok),
       "elements of f32 overflow size_t"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16, 4,
                        TransferPlan::copy()),
       "method copy between f32 and f16: the types differ"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16, 4,
                        TransferPlan::transient(ScalarType::F16)),
       "transient: intermediate f16 equals the device type"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16, 4,
                        TransferPlan::transient(ScalarType::F32)),
       "transient: intermediate f32 equals the host type"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16, 4,
                        TransferPlan::transient(ScalarType::I16)),
       "transient: intermediate type i16 is not a precision"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16, 4,
                        plan([](TransferPlan &p) { p.chunkBytes = 0; })),
       "pipelined: chunk size 0"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16, 4,
                        plan([](TransferPlan &p) { p.chunkBytes = 66; })),
       "pipelined: chunk of 66 bytes is not a multiple of the element sizes "
       "(f32: 4, f16: 2)"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16, 4,
                        plan([](TransferPlan &p) { p.slots = 1; })),
       "pipelined: 1 staging slots (expected 2 to 16)"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16, 4,
                        plan([](TransferPlan &p) { p.pinned = false; })),
       "pipelined: needs pinned staging"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16, 4,
                        plan([](TransferPlan &p) {
                          p.where = ConvertSide(7);
                        })),
       "pipelined: unknown conversion side 7"},
      {engine->toDevice(h.data(), ScalarType::F32, v, ScalarType::F16, 4,
                        plan([](TransferPlan &p) {
                          p.method = TransferMethod(9);
                        })),
       "unknown transfer method 9"},
  };
  for (const Case &k : cases) {
    ASSERT_FALSE(k.s.isOk()) << k.text;
    EXPECT_EQ(k.s.code(), StatusCode::InvalidArgument) << k.s.toString();
    EXPECT_NE(k.s.message().find(k.text), std::string::npos)
        << k.s.message() << "\n  lacks: " << k.text;
    EXPECT_EQ(k.s.message().find('\n'), std::string::npos);
  }
  (void)odd;
  // Nothing was allocated, copied or launched by any of them.
  EXPECT_EQ(f.calls["cuMemHostAlloc"], 0);
  EXPECT_TRUE(f.launches.empty());
  EXPECT_TRUE(f.asyncCopies.empty());
  // n = 0 with null pointers is fine.
  EXPECT_TRUE(engine
                  ->toDevice(nullptr, ScalarType::F32, BufferView{},
                             ScalarType::F16, 0, ok)
                  .isOk());
}

TEST_F(TransferTest, NamesAndPlans) {
  EXPECT_STREQ(transferMethodName(TransferMethod::HostMulti), "host-multi");
  EXPECT_STREQ(convertSideName(ConvertSide::Device), "device");
  EXPECT_EQ(describePlan(TransferPlan::pipelined(4096, 4, ConvertSide::Device)),
            "pipelined(chunk=4096, slots=2, where=device, threads=4)");
  EXPECT_EQ(describePlan(TransferPlan::transient(ScalarType::F32, 2)),
            "transient(intermediate=f32, threads=2)");
  TransferPlan p = TransferPlan::hostMulti(8);
  p.pinned = false;
  EXPECT_EQ(describePlan(p), "host-multi(threads=8) pageable");
}

TEST_F(TransferTest, NoStatsMeansNoCounting) {
  const size_t n = 500;
  Bytes src = randomArray(ScalarType::F64, n, 21);
  DeviceBuffer d = buffer(n, ScalarType::F16);
  TransferPlan plan = TransferPlan::device();
  plan.stats = false;
  TransferResult r;
  ASSERT_TRUE(engine
                  ->toDevice(src.data(), ScalarType::F64, d.view(),
                             ScalarType::F16, n, plan, &r)
                  .isOk());
  EXPECT_TRUE(sameStats(r.stats, ConvertStats()));
  EXPECT_EQ(f.launches.back().param<uint64_t>(3), 0u);
  EXPECT_GE(r.totalMs, 0.0);
}
