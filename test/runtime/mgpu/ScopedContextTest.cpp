//===- ScopedContextTest.cpp - mgpu calls restore the caller's context ----===//
//
// The guard every mgpu* entry point uses must leave the calling thread's
// current context as it found it (another context, or none), nest, and pop
// nothing when its push failed. Runs over the fake driver's context stack.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "ScopedContext.h"

#include <gtest/gtest.h>

using approx::mgpu::ScopedContext;
using approx::rt::fake::FakeDriver;

namespace {
int gReports = 0;
void countReport(CUresult, const char *) { ++gReports; }
CUcontext handle(uintptr_t v) { return reinterpret_cast<CUcontext>(v); }
} // namespace

TEST(MgpuScopedContext, RestoresThePreviousContext) {
  FakeDriver &f = FakeDriver::get();
  f.reset();
  gReports = 0;
  f.current = handle(0xa);
  {
    ScopedContext g(f.table(), f.primary, &countReport);
    EXPECT_TRUE(g.active());
    EXPECT_EQ(f.current, f.primary);
    {
      ScopedContext inner(f.table(), handle(0xb), &countReport);
      EXPECT_EQ(f.current, handle(0xb));
    }
    EXPECT_EQ(f.current, f.primary);
  }
  EXPECT_EQ(f.current, handle(0xa));
  EXPECT_TRUE(f.stack.empty());
  // No context current before: none after.
  f.current = nullptr;
  { ScopedContext g(f.table(), f.primary, &countReport); }
  EXPECT_EQ(f.current, nullptr);
  EXPECT_EQ(gReports, 0);
}

TEST(MgpuScopedContext, FailedPushPopsNothing) {
  FakeDriver &f = FakeDriver::get();
  f.reset();
  gReports = 0;
  f.current = handle(0xa);
  f.stack.push_back(handle(0xdead)); // someone else's pushed context
  f.failCall("cuCtxPushCurrent", CUDA_ERROR_INVALID_CONTEXT);
  {
    ScopedContext g(f.table(), f.primary, &countReport);
    EXPECT_FALSE(g.active());
    EXPECT_EQ(f.current, handle(0xa));
  }
  EXPECT_EQ(gReports, 1);
  EXPECT_EQ(f.current, handle(0xa));
  ASSERT_EQ(f.stack.size(), 1u); // not popped by the failed guard
  EXPECT_EQ(f.calls["cuCtxPopCurrent"], 0);
}

TEST(MgpuScopedContext, NoDriverOrContextDoesNothing) {
  FakeDriver &f = FakeDriver::get();
  f.reset();
  f.current = handle(0xa);
  { ScopedContext g(nullptr, f.primary, &countReport); }
  { ScopedContext g(f.table(), nullptr, &countReport); }
  EXPECT_EQ(f.current, handle(0xa));
  EXPECT_EQ(f.calls["cuCtxPushCurrent"], 0);
}
