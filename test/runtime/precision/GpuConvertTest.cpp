//===- GpuConvertTest.cpp - device conversion and transfers on a GPU ------===//
//
// ctest label "gpu"; exits 77 (SKIP_RETURN_CODE) with the reason printed
// when no CUDA driver or GPU is usable. The reference is the host's
// convert() (HostConvert.h; its own tests check it against MPFR), scalar
// path, one thread: every device result must equal it bit for bit, and the
// device counts must equal its ConvertStats.
//
//   Kernels     every f16 and bf16 bit pattern to the other three types;
//               f32 and f64 inputs at and around every f16 and bf16
//               rounding boundary (targets, midpoints, one ulp either side,
//               f64 values a quarter and a half f32 ulp off a midpoint,
//               which round wrongly through a rounded f32), the subnormal
//               range, the overflow threshold, NaNs with payloads,
//               infinities, signed zeros; f64 around f32 midpoints;
//               random bulk data of odd sizes at odd element offsets for
//               every pair; counting off gives the same bits.
//   Transfers   every method, both directions, every pair (and equal
//               types), sizes 0, 1, odd, and more than two chunks, bit for
//               bit against convert() (twice, through the intermediate, for
//               Transient), counts equal; timing fields filled.
//   Leaks       device memory back to its baseline after an engine goes.
//
//===----------------------------------------------------------------------===//
#include "GpuTestMain.h"
#include "TransferChecks.h"

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/precision/DeviceConvert.h"
#include "approx/runtime/precision/Transfer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

using namespace approx::rt;
using namespace approx::rt::precision;
using namespace approx::rt::precision::test;

namespace {

std::shared_ptr<Context> gCtx;

const ScalarType kTypes[] = {ScalarType::F64, ScalarType::F32,
                             ScalarType::F16, ScalarType::BF16};

/// The transfer plans checked for a pair: chunks of 64 Ki elements of the
/// wider type.
const PlanShape kPlans = {size_t(64) << 10, 4, 2, 1};

/// The first differing element, for a readable failure.
std::string firstDiff(const Bytes &got, const Bytes &want, const Bytes &src,
                      ScalarType from, ScalarType to) {
  const size_t db = scalarTypeSize(to), sb = scalarTypeSize(from);
  for (size_t i = 0; i * db < want.size(); ++i)
    if (std::memcmp(&got[i * db], &want[i * db], db)) {
      uint64_t g = 0, w = 0, s = 0;
      std::memcpy(&g, &got[i * db], db);
      std::memcpy(&w, &want[i * db], db);
      std::memcpy(&s, &src[i * sb], sb);
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "element %zu: source %#llx, device %#llx, host %#llx", i,
                    (unsigned long long)s, (unsigned long long)g,
                    (unsigned long long)w);
      return buf;
    }
  return "none";
}

/// Converts `src` (n elements of `from`) on the device at element offsets
/// `srcOff` / `dstOff` of two buffers, and checks bits and counts against
/// the host; again without counting.
void checkDevice(const Bytes &src, ScalarType from, ScalarType to, size_t n,
                 size_t srcOff = 0, size_t dstOff = 0) {
  SCOPED_TRACE(pairName(from, to) + " n=" + std::to_string(n) + " offsets " +
               std::to_string(srcOff) + "/" + std::to_string(dstOff));
  Expected<std::shared_ptr<DeviceConverter>> conv =
      DeviceConverter::forContext(gCtx);
  ASSERT_TRUE(conv.isOk()) << conv.status().toString();
  const size_t sb = scalarTypeSize(from), db = scalarTypeSize(to);
  Expected<DeviceBuffer> s =
      DeviceBuffer::allocate(gCtx, (n + srcOff + 1) * sb, ScalarType::I8);
  Expected<DeviceBuffer> d =
      DeviceBuffer::allocate(gCtx, (n + dstOff + 1) * db, ScalarType::I8);
  ASSERT_TRUE(s.isOk() && d.isOk());
  ASSERT_OK(s->copyFromHost(src.data(), n * sb, srcOff * sb));
  ASSERT_OK(d->fillBytes(0xee));
  ConvertStats st, want;
  ASSERT_OK((*conv)->convert(s->devicePtr() + srcOff * sb, from,
                             d->devicePtr() + dstOff * db, to, n, &st));
  Bytes got(n * db);
  ASSERT_OK(d->copyToHost(got.data(), got.size(), dstOff * db));
  Bytes ref = reference(src, from, to, n, want);
  EXPECT_TRUE(got == ref) << firstDiff(got, ref, src, from, to);
  EXPECT_TRUE(sameStats(st, want))
      << "device " << statsText(st) << ", host " << statsText(want);
  // Nothing written outside [dstOff, dstOff + n).
  Bytes all((n + dstOff + 1) * db);
  ASSERT_OK(d->copyToHost(all.data(), all.size()));
  for (size_t i = 0; i < dstOff * db; ++i)
    ASSERT_EQ(all[i], 0xee) << "byte " << i << " before the destination";
  for (size_t i = (n + dstOff) * db; i < all.size(); ++i)
    ASSERT_EQ(all[i], 0xee) << "byte " << i << " after the destination";
  // Counting off: the same bits.
  ASSERT_OK(d->fillBytes(0));
  ASSERT_OK((*conv)->convert(s->devicePtr() + srcOff * sb, from,
                             d->devicePtr() + dstOff * db, to, n));
  Bytes got2(n * db);
  ASSERT_OK(d->copyToHost(got2.data(), got2.size(), dstOff * db));
  EXPECT_TRUE(got2 == ref) << "without counting: "
                           << firstDiff(got2, ref, src, from, to);
}

template <typename T> Bytes toBytes(const std::vector<T> &v) {
  Bytes b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

/// f64 values of every finite f16 (M=10, E=5) or bf16 (M=7, E=8) number
/// and of the midpoints above each, both signs, plus the ones just around
/// them: one f64 ulp, a quarter and a half f32 ulp (the double-rounding
/// traps), the overflow threshold, specials and NaN payloads.
std::vector<double> boundaryValues(bool bf16) {
  const int m = bf16 ? 7 : 10;
  const int emin = bf16 ? -126 : -14, emax = bf16 ? 127 : 15;
  std::vector<double> out;
  auto around = [&](double x) {
    out.push_back(x);
    out.push_back(std::nextafter(x, INFINITY));
    out.push_back(std::nextafter(x, -INFINITY));
    if (x != 0) {
      const double f32ulp =
          std::ldexp(1.0, std::max(std::ilogb(x) - 23, -149));
      for (double k : {0.25, 0.5, 0.75})
        for (double sgn : {1.0, -1.0})
          out.push_back(x + sgn * k * f32ulp);
    }
  };
  // Subnormals: k * 2^(emin - m); normals: (1 + j/2^m) * 2^e.
  const double q = std::ldexp(1.0, emin - m);
  for (int k = 0; k < (1 << m); ++k) {
    around(k * q);
    around((k + 0.5) * q);
  }
  for (int e = emin; e <= emax; ++e)
    for (int j = 0; j < (1 << m); ++j) {
      const double v = std::ldexp(1.0 + double(j) / (1 << m), e);
      const double next = std::ldexp(1.0 + double(j + 1) / (1 << m), e);
      around(v);
      around((v + next) / 2); // past the largest finite: the overflow edge
    }
  const size_t positive = out.size();
  for (size_t i = 0; i < positive; ++i)
    out.push_back(-out[i]);
  const double inf = std::numeric_limits<double>::infinity();
  for (double v : {inf, -inf, 0.0, -0.0, 1e300, -1e300, 1e-300,
                   std::numeric_limits<double>::denorm_min(), 65504.0, 65520.0,
                   65519.99999999999, 3.3895313892515355e38,
                   3.3961775292304e38})
    out.push_back(v);
  for (uint64_t bits : {0x7ff8000000000000ull, 0xfff8000000000001ull,
                        0x7ff0000000000001ull, 0x7ff4000000000000ull,
                        0xfff7ffffffffffffull, 0x7ff0100000000000ull}) {
    double v;
    std::memcpy(&v, &bits, 8);
    out.push_back(v);
  }
  return out;
}

std::vector<float> toFloats(const std::vector<double> &v) {
  // Round through the host's convert (RNE) so that every boundary in f32
  // stays exact where it is an f32 number; nextafterf around them too.
  std::vector<float> f(v.size());
  ConvertOptions opt;
  opt.threads = 1;
  EXPECT_TRUE(convert(v.data(), ScalarType::F64, f.data(), ScalarType::F32,
                      v.size(), opt)
                  .isOk());
  const size_t n = f.size();
  for (size_t i = 0; i < n; ++i)
    if (std::isfinite(f[i])) {
      f.push_back(std::nextafterf(f[i], INFINITY));
      f.push_back(std::nextafterf(f[i], -INFINITY));
    }
  for (uint32_t bits : {0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x7fa00000u,
                        0xff8fffffu, 0x00000001u, 0x80000001u, 0x007fffffu,
                        0x7f7fffffu, 0xff7fffffu, 0x477ff000u, 0x477fefffu,
                        0x7f7f8000u, 0x7f7f7fffu})
    f.push_back([&] {
      float x;
      std::memcpy(&x, &bits, 4);
      return x;
    }());
  return f;
}

/// n random elements of `t`: half random bit patterns, half values near
/// the narrow formats' limits.
Bytes randomArray(ScalarType t, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> vals(n);
  for (double &v : vals) {
    uint64_t bits = rng();
    switch (bits % 4) {
    case 0:
      v = std::ldexp(double(rng() >> 11) * 0x1p-53 + 1.0,
                     int(rng() % 300) - 150);
      break;
    case 1:
      v = std::ldexp(double(rng() >> 11) * 0x1p-53 + 1.0,
                     int(rng() % 40) - 28);
      break;
    default:
      std::memcpy(&v, &bits, 8);
    }
    if (rng() % 2)
      v = -v;
  }
  Bytes out(n * scalarTypeSize(t));
  if (t == ScalarType::F64) {
    std::memcpy(out.data(), vals.data(), out.size());
    return out;
  }
  // Narrower types: random bit patterns directly for half of them.
  ConvertOptions opt;
  opt.threads = 1;
  EXPECT_TRUE(convert(vals.data(), ScalarType::F64, out.data(), t, n, opt)
                  .isOk());
  for (size_t i = 0; i < n; i += 2) {
    uint64_t bits = rng();
    std::memcpy(&out[i * scalarTypeSize(t)], &bits, scalarTypeSize(t));
  }
  return out;
}

} // namespace

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

TEST(Kernels, EveryHalfAndBf16Pattern) {
  std::vector<uint16_t> all(65536);
  for (uint32_t i = 0; i < 65536; ++i)
    all[i] = uint16_t(i);
  const Bytes src = toBytes(all);
  for (ScalarType from : {ScalarType::F16, ScalarType::BF16})
    for (ScalarType to : kTypes)
      if (to != from)
        checkDevice(src, from, to, all.size());
}

TEST(Kernels, F64AroundEveryF16AndBf16Boundary) {
  for (bool bf16 : {false, true}) {
    const std::vector<double> v = boundaryValues(bf16);
    for (ScalarType to : {ScalarType::F16, ScalarType::BF16, ScalarType::F32})
      checkDevice(toBytes(v), ScalarType::F64, to, v.size());
  }
}

TEST(Kernels, F32AroundEveryF16AndBf16Boundary) {
  for (bool bf16 : {false, true}) {
    const std::vector<float> v = toFloats(boundaryValues(bf16));
    for (ScalarType to : kTypes)
      if (to != ScalarType::F32)
        checkDevice(toBytes(v), ScalarType::F32, to, v.size());
  }
}

TEST(Kernels, F64AroundF32Midpoints) {
  std::mt19937_64 rng(42);
  std::vector<double> v;
  for (int i = 0; i < 200000; ++i) {
    uint32_t b = uint32_t(rng());
    if ((b & 0x7f800000u) == 0x7f800000u)
      continue;
    float f;
    std::memcpy(&f, &b, 4);
    const double x = f;
    const double next = std::nextafterf(f, INFINITY);
    const double mid = x + (next - x) / 2;
    for (double y : {mid, std::nextafter(mid, INFINITY),
                     std::nextafter(mid, -INFINITY)})
      v.push_back(y);
  }
  for (double y : {3.4028235677973366e38, 3.4028235677973362e38,
                   3.4028235677973370e38, 0x1p-150, 0x1.0000000000001p-150,
                   0x1.fffffffffffffp-151, 0x1p-149 * 1.5})
    for (double s : {1.0, -1.0})
      v.push_back(s * y);
  checkDevice(toBytes(v), ScalarType::F64, ScalarType::F32, v.size());
}

TEST(Kernels, RandomBulkOddSizesAndOffsets) {
  uint64_t seed = 1;
  for (ScalarType from : kTypes)
    for (ScalarType to : kTypes) {
      if (from == to)
        continue;
      for (size_t n : {size_t(1), size_t(31), size_t(257), size_t(1000003)})
        for (auto [so, dof] : {std::pair<size_t, size_t>{0, 0}, {1, 3}, {3, 1}})
          checkDevice(randomArray(from, n, seed++), from, to, n, so, dof);
    }
}

TEST(Kernels, ArgumentErrorsAreNotLaunched) {
  Expected<std::shared_ptr<DeviceConverter>> conv =
      DeviceConverter::forContext(gCtx);
  ASSERT_TRUE(conv.isOk());
  Expected<DeviceBuffer> b = DeviceBuffer::allocate(gCtx, 64, ScalarType::I8);
  ASSERT_TRUE(b.isOk());
  Status s = (*conv)->convert(b->devicePtr() + 1, ScalarType::F32,
                              b->devicePtr() + 32, ScalarType::F16, 4);
  EXPECT_EQ(s.code(), StatusCode::InvalidArgument);
  EXPECT_NE(s.message().find("not aligned"), std::string::npos);
  ASSERT_OK(gCtx->synchronize());
}

//===----------------------------------------------------------------------===//
// Transfers
//===----------------------------------------------------------------------===//

TEST(Transfers, EveryMethodEveryPairBothDirections) {
  Expected<std::unique_ptr<TransferEngine>> e = TransferEngine::create(gCtx);
  ASSERT_TRUE(e.isOk()) << e.status().toString();
  TransferEngine &engine = **e;
  // 0, 1, odd, and (for the largest) more than two 64 Ki-element chunks.
  const size_t sizes[] = {0, 1, 1023, (size_t(64) << 10) * 2 + 12345};
  uint64_t seed = 100;
  for (ScalarType host : kTypes)
    for (ScalarType dev : kTypes)
      for (const TransferPlan &plan : plansFor(host, dev, kPlans))
        for (size_t n : sizes) {
          const std::string what = pairName(host, dev) + " " +
                                   describePlan(plan) + " n=" +
                                   std::to_string(n);
          SCOPED_TRACE(what);
          Expected<DeviceBuffer> d = DeviceBuffer::allocate(
              gCtx, std::max<size_t>(n, 1) * scalarTypeSize(dev), dev);
          ASSERT_TRUE(d.isOk()) << d.status().toString();
          // To the device.
          Bytes src = randomArray(host, n, seed++);
          TransferResult r;
          ASSERT_OK(engine.toDevice(src.data(), host, d->view(), dev, n, plan,
                                    &r));
          ConvertStats want;
          Bytes ref = expectedTransfer(src, host, dev, n, plan, want);
          Bytes got(n * scalarTypeSize(dev));
          ASSERT_OK(d->copyToHost(got.data(), got.size()));
          EXPECT_TRUE(got == ref)
              << "to device: " << firstDiff(got, ref, src, host, dev);
          EXPECT_TRUE(sameStats(r.stats, want))
              << "to device: " << statsText(r.stats) << " vs "
              << statsText(want);
          if (n > 0) {
            EXPECT_GT(r.totalMs, 0.0);
            EXPECT_GE(r.deviceMs, 0.0);
            EXPECT_GT(r.busBytes, 0u);
          }
          // To the host.
          Bytes dsrc = randomArray(dev, n, seed++);
          ASSERT_OK(d->copyFromHost(dsrc.data(), dsrc.size()));
          Bytes out(n * scalarTypeSize(host) + 8, 0x5a);
          ASSERT_OK(engine.toHost(d->view(), dev, out.data(), host, n, plan,
                                  &r));
          ref = expectedTransfer(dsrc, dev, host, n, plan, want);
          Bytes head(out.begin(), out.begin() + ref.size());
          EXPECT_TRUE(head == ref)
              << "to host: " << firstDiff(head, ref, dsrc, dev, host);
          for (size_t i = ref.size(); i < out.size(); ++i)
            ASSERT_EQ(out[i], 0x5a) << "wrote past the end";
          EXPECT_TRUE(sameStats(r.stats, want))
              << "to host: " << statsText(r.stats) << " vs "
              << statsText(want);
        }
}

TEST(Transfers, OverflowIsDetected) {
  Expected<std::unique_ptr<TransferEngine>> e = TransferEngine::create(gCtx);
  ASSERT_TRUE(e.isOk());
  std::vector<float> host(100000, 1.0f);
  host[17] = 70000.0f;   // overflows f16
  host[99999] = 1e-10f;  // underflows f16
  Expected<DeviceBuffer> d =
      DeviceBuffer::allocate(gCtx, host.size() * 2, ScalarType::F16);
  ASSERT_TRUE(d.isOk());
  for (const TransferPlan &p :
       {TransferPlan::hostSingle(), TransferPlan::device(),
        TransferPlan::pipelined(8192, 2, ConvertSide::Device),
        TransferPlan::pipelined(8192, 2, ConvertSide::Host)}) {
    TransferResult r;
    ASSERT_OK((*e)->toDevice(host.data(), ScalarType::F32, d->view(),
                             ScalarType::F16, host.size(), p, &r));
    EXPECT_EQ(r.stats.overflowed, 1u) << describePlan(p);
    EXPECT_EQ(r.stats.underflowedToZero, 1u) << describePlan(p);
  }
}

TEST(Leaks, EngineReturnsItsMemory) {
  size_t free0 = 0, free1 = 0, total = 0;
  ASSERT_OK(gCtx->synchronize());
  {
    // Load the kernels first: the module's code stays while the cache holds
    // it (it does not: it is shared only while someone holds it).
    Expected<std::unique_ptr<TransferEngine>> warm =
        TransferEngine::create(gCtx);
    ASSERT_TRUE(warm.isOk());
  }
  ASSERT_OK(gCtx->memInfo(free0, total));
  {
    Expected<std::unique_ptr<TransferEngine>> e = TransferEngine::create(gCtx);
    ASSERT_TRUE(e.isOk());
    const size_t n = size_t(16) << 20;
    std::vector<float> host(n, 0.5f);
    Expected<DeviceBuffer> d =
        DeviceBuffer::allocate(gCtx, n * 2, ScalarType::F16);
    ASSERT_TRUE(d.isOk());
    for (const TransferPlan &p :
         {TransferPlan::device(), TransferPlan::transient(ScalarType::F64),
          TransferPlan::pipelined(size_t(4) << 20, 0, ConvertSide::Device)})
      ASSERT_OK((*e)->toDevice(host.data(), ScalarType::F32, d->view(),
                               ScalarType::F16, n, p));
    EXPECT_GT((*e)->scratchBytes(), 0u);
  }
  ASSERT_OK(gCtx->memInfo(free1, total));
  std::printf("free device memory: %zu MiB before, %zu MiB after\n",
              free0 >> 20, free1 >> 20);
  EXPECT_LE(free0 > free1 ? free0 - free1 : 0, size_t(8) << 20);
}

int main(int argc, char **argv) {
  return approx::rt::test::gpuTestMain(argc, argv, gCtx);
}
