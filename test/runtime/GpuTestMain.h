//===- GpuTestMain.h - main() of the GPU test binaries ---------*- C++ -*-===//
//
// The GPU tests (GpuTest.cpp, GpuFeatureTest.cpp, GpuTexture3DTest.cpp,
// precision/GpuConvertTest.cpp) share one start, ASSERT_OK and loadModuleAt(): probe the driver, open a context on
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
