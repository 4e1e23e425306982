//===- PrecisionFake.cpp - the fake driver for precision tests ------------===//
//
// Pinned blocks are malloc'ed and remembered, so a free of anything else
// fails and a test can check that none is left. The conversion kernels read
// the launch parameters (src, dst, n, counters) of the generated module
// (precision/DeviceConvert.h).
//
//===----------------------------------------------------------------------===//
#include "PrecisionFake.h"

#include "approx/runtime/precision/DeviceConvert.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

namespace approx::rt::fake {

const ScalarType kPrecisions[4] = {ScalarType::F64, ScalarType::F32,
                                   ScalarType::F16, ScalarType::BF16};

namespace {

std::set<void *> gPinned;

CUresult fakeMemHostAlloc(void **p, size_t bytes, unsigned int) {
  CUresult r = FakeDriver::get().enter("cuMemHostAlloc");
  if (r != CUDA_SUCCESS)
    return r;
  if (bytes == 0 || bytes > (size_t(1) << 32))
    return CUDA_ERROR_OUT_OF_MEMORY;
  *p = std::malloc(bytes);
  if (!*p)
    return CUDA_ERROR_OUT_OF_MEMORY;
  gPinned.insert(*p);
  return CUDA_SUCCESS;
}

CUresult fakeMemFreeHost(void *p) {
  if (!gPinned.erase(p))
    return CUDA_ERROR_INVALID_VALUE;
  std::free(p);
  return FakeDriver::get().enter("cuMemFreeHost");
}

CUresult fakeStreamWaitEvent(CUstream, CUevent e, unsigned int) {
  CUresult r = FakeDriver::get().enter("cuStreamWaitEvent");
  if (r != CUDA_SUCCESS)
    return r;
  return FakeDriver::get().events_.count(e) ? CUDA_SUCCESS
                                            : CUDA_ERROR_INVALID_HANDLE;
}


} // namespace

const detail::Driver *precisionTable() {
  static detail::Driver d = [] {
    detail::Driver t = *FakeDriver::get().table();
    t.cuMemHostAlloc = &fakeMemHostAlloc;
    t.cuMemFreeHost = &fakeMemFreeHost;
    t.cuStreamWaitEvent = &fakeStreamWaitEvent;
    return t;
  }();
  return &d;
}

size_t livePinned() { return gPinned.size(); }

void setConvertKernels(FakeDriver &f) {
  for (ScalarType from : kPrecisions)
    for (ScalarType to : kPrecisions) {
      if (from == to)
        continue;
      f.setKernel(precision::deviceConvertKernelName(from, to),
                  [from, to](LaunchRecord &r) {
                    const uint64_t n = r.param<uint64_t>(2);
                    auto *counters = r.ptr<uint64_t>(3);
                    precision::ConvertOptions opt;
                    opt.threads = 1;
                    precision::ConvertStats st;
                    if (!precision::convert(r.ptr<void>(0), from,
                                            r.ptr<void>(1), to, n, opt, &st)
                             .isOk())
                      return CUDA_ERROR_ILLEGAL_ADDRESS;
                    if (counters) {
                      counters[0] += st.overflowed;
                      counters[1] += st.underflowedToZero;
                      counters[2] += st.nans;
                    }
                    return CUDA_SUCCESS;
                  });
    }
}

Expected<std::shared_ptr<Context>> resetPrecisionFake() {
  FakeDriver &f = FakeDriver::get();
  f.reset();
  gPinned.clear();
  setConvertKernels(f);
  return detail::createContext(precisionTable(), 0);
}

void expectPrecisionFakeClean() {
  const FakeDriver &f = FakeDriver::get();
  EXPECT_EQ(f.liveModules(), 0u);
  EXPECT_EQ(f.liveAllocations(), 0u);
  EXPECT_EQ(f.liveStreams(), 0u);
  EXPECT_EQ(f.liveEvents(), 0u);
  EXPECT_EQ(f.primaryRefs(), 0);
  EXPECT_EQ(gPinned.size(), 0u);
}

std::vector<double> toF64(const void *p, ScalarType t, size_t n) {
  std::vector<double> out(n);
  precision::ConvertOptions o;
  o.threads = 1;
  EXPECT_TRUE(precision::convert(p, t, out.data(), ScalarType::F64, n, o).isOk());
  return out;
}

void setFakeAxpyKernel(FakeDriver &f, const std::string &name, ScalarType tx,
                       ScalarType ty, double durationMs) {
  f.setKernel(name, [tx, ty, durationMs](LaunchRecord &r) {
    const size_t n = size_t(r.param<int64_t>(10));
    std::vector<double> x = toF64(r.ptr<void>(1), tx, n);
    std::vector<double> y = toF64(r.ptr<void>(6), ty, n);
    for (size_t i = 0; i < n; ++i)
      y[i] += 2 * x[i];
    precision::ConvertOptions o;
    o.threads = 1;
    if (!precision::convert(y.data(), ScalarType::F64, r.ptr<void>(6), ty, n, o).isOk())
      return CUDA_ERROR_ILLEGAL_ADDRESS;
    r.durationMs = durationMs;
    return CUDA_SUCCESS;
  });
}

} // namespace approx::rt::fake
