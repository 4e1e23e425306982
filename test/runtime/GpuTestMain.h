//===- GpuTestMain.h - main() of the GPU test binaries ---------*- C++ -*-===//
//
// The GPU tests (GpuTest.cpp, GpuFeatureTest.cpp, GpuTexture3DTest.cpp,
// precision/GpuConvertTest.cpp) share one start, ASSERT_OK, loadModuleAt()
// and expectDeviceMemoryReturns(): probe the driver, open a context on
// device 0 for every test, and exit 77 (ctest SKIP_RETURN_CODE) with the
// reason printed when no CUDA driver or GPU is usable, so that a machine
// without one reports the tests skipped, never passed.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TEST_RUNTIME_GPUTESTMAIN_H
#define APPROX_TEST_RUNTIME_GPUTESTMAIN_H

#include "approx/runtime/core/Runtime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>

/// Asserts that a Status is Ok, printing it otherwise (every GPU test).
#define ASSERT_OK(expr)                                                        \
  do {                                                                         \
    ::approx::rt::Status s_ = (expr);                                          \
    ASSERT_TRUE(s_.isOk()) << s_.toString();                                   \
  } while (0)

namespace approx::rt::test {

/// Loads the module of `manifest` on `ctx`; a failure is a test failure
/// (and null).
inline std::unique_ptr<Module> loadModuleAt(const std::shared_ptr<Context> &ctx,
                                            const std::string &manifest) {
  Expected<std::unique_ptr<Module>> m = Module::load(ctx, manifest);
  EXPECT_TRUE(m.isOk()) << m.status().toString();
  return m ? m.take() : nullptr;
}

/// Runs `round` three times and expects the device's free memory to come
/// back within 8 MiB of where it was before (after synchronising): module
/// code and JIT caches may keep a little; the buffers and textures a round
/// creates are much larger. A fatal failure in a round ends the check.
inline void expectDeviceMemoryReturns(const std::shared_ptr<Context> &ctx,
                                      const std::function<void()> &round) {
  size_t free0 = 0, total = 0;
  ASSERT_OK(ctx->synchronize());
  ASSERT_OK(ctx->memInfo(free0, total));
  for (int iter = 0; iter < 3; ++iter) {
    round();
    if (::testing::Test::HasFatalFailure())
      return;
  }
  ASSERT_OK(ctx->synchronize());
  size_t free1 = 0;
  ASSERT_OK(ctx->memInfo(free1, total));
  std::printf("free device memory before %zu MiB, after %zu MiB\n",
              free0 >> 20, free1 >> 20);
  EXPECT_LE(free0 > free1 ? free0 - free1 : 0, size_t(8) << 20);
}

/// Runs the tests of this binary with `ctx` opened on device 0 (and reset
/// after them). Returns 77 after printing "SKIPPED: <reason>" when the
/// driver or the device is unavailable or when `skipReason` (asked after
/// the driver probe) names a reason; 1 when the context fails otherwise.
inline int gpuTestMain(int argc, char **argv, std::shared_ptr<Context> &ctx,
                       const std::function<std::string()> &skipReason = {}) {
  ::testing::InitGoogleTest(&argc, argv);
  Status probe = probeDriver();
  if (!probe.isOk()) {
    std::printf("SKIPPED: no usable CUDA GPU: %s\n", probe.toString().c_str());
    return 77;
  }
  if (skipReason) {
    std::string why = skipReason();
    if (!why.empty()) {
      std::printf("SKIPPED: %s\n", why.c_str());
      return 77;
    }
  }
  Expected<std::shared_ptr<Context>> c = Context::create(0);
  if (!c.isOk()) {
    if (c.status().code() == StatusCode::Unavailable) {
      std::printf("SKIPPED: %s\n", c.status().toString().c_str());
      return 77;
    }
    std::printf("FAILED to create a context: %s\n",
                c.status().toString().c_str());
    return 1;
  }
  ctx = *c;
  const DeviceInfo &d = ctx->device();
  std::printf("device: %s (sm_%d%d, %d SMs), driver API %d\n", d.name.c_str(),
              d.ccMajor, d.ccMinor, d.smCount, d.driverVersion);
  int rc = RUN_ALL_TESTS();
  ctx.reset();
  return rc;
}

} // namespace approx::rt::test

#endif // APPROX_TEST_RUNTIME_GPUTESTMAIN_H
