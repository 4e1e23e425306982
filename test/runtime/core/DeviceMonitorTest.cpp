//===- DeviceMonitorTest.cpp - NVML readings over a fake table -------------===//
//
// core/DeviceMonitor.h without a GPU: the device found by the CUDA UUID,
// each reading converted to its unit, a field the GPU does not support left
// at its default, NVML failures as Unavailable with NVML's text, shutdown
// once per monitor; and the real library's absence as Unavailable.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/DeviceMonitor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

using namespace approx::rt;

namespace {

struct FakeNvml {
  int inits = 0, shutdowns = 0;
  int energyResult = 0; ///< 3: NVML_ERROR_NOT_SUPPORTED
  int clockResult = 0;
};
FakeNvml gNvml;
int gDevice = 7;

NvmlApi fakeApi() {
  NvmlApi a;
  a.init = [] { return ++gNvml.inits, 0; };
  a.shutdown = [] { return ++gNvml.shutdowns, 0; };
  a.handleByUuid = [](const char *uuid, void **d) {
    if (std::strcmp(uuid, "GPU-00112233-4455-6677-8899-aabbccddeeff") != 0)
      return 6; // NVML_ERROR_NOT_FOUND
    *d = &gDevice;
    return 0;
  };
  a.clockInfo = [](void *d, int type, unsigned *mhz) {
    if (d != &gDevice)
      return 2;
    *mhz = type == 1 ? 1980u : 3201u;
    return gNvml.clockResult;
  };
  a.temperature = [](void *, int, unsigned *c) { return *c = 46, 0; };
  a.powerUsage = [](void *, unsigned *mw) { return *mw = 131450, 0; };
  a.totalEnergy = [](void *, unsigned long long *mj) {
    *mj = 123456789ull;
    return gNvml.energyResult;
  };
  a.errorString = [](int r) {
    return r == 6 ? "Not Found" : r == 999 ? "Unknown Error" : "other";
  };
  return a;
}

} // namespace

TEST(DeviceMonitor, ReadsTheDeviceOfTheCudaUuid) {
  gNvml = {};
  static const NvmlApi api = fakeApi();
  {
    Expected<std::unique_ptr<DeviceMonitor>> m =
        DeviceMonitor::open(&api, "GPU-00112233-4455-6677-8899-aabbccddeeff");
    ASSERT_TRUE(m.isOk()) << m.status().toString();
    Expected<DeviceState> s = (*m)->read();
    ASSERT_TRUE(s.isOk()) << s.status().toString();
    EXPECT_EQ(s->smClockMHz, 1980u);
    EXPECT_EQ(s->memClockMHz, 3201u);
    EXPECT_EQ(s->temperatureC, 46u);
    EXPECT_DOUBLE_EQ(s->powerW, 131.45);
    EXPECT_DOUBLE_EQ(s->energyJ, 123456.789);
    // A GPU without an energy counter: that field only is missing.
    gNvml.energyResult = 3;
    s = (*m)->read();
    ASSERT_TRUE(s.isOk());
    EXPECT_TRUE(std::isnan(s->energyJ));
    EXPECT_EQ(s->smClockMHz, 1980u);
    // Any other failure is the reading's, with NVML's words.
    gNvml.clockResult = 999;
    s = (*m)->read();
    ASSERT_FALSE(s.isOk());
    EXPECT_EQ(s.status().code(), StatusCode::Unavailable);
    EXPECT_EQ(s.status().message(),
              "NVML: nvmlDeviceGetClockInfo(SM): Unknown Error");
  }
  EXPECT_EQ(gNvml.inits, 1);
  EXPECT_EQ(gNvml.shutdowns, 1);
}

TEST(DeviceMonitor, AnUnknownDeviceIsUnavailable) {
  gNvml = {};
  static const NvmlApi api = fakeApi();
  Expected<std::unique_ptr<DeviceMonitor>> m =
      DeviceMonitor::open(&api, "GPU-ffffffff-0000-0000-0000-000000000000");
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().code(), StatusCode::Unavailable);
  EXPECT_EQ(m.status().message(),
            "NVML: no device 'GPU-ffffffff-0000-0000-0000-000000000000': "
            "Not Found");
  EXPECT_EQ(gNvml.shutdowns, gNvml.inits); // nothing left initialised
  m = DeviceMonitor::open(&api, "");
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().code(), StatusCode::Unavailable);
}

TEST(DeviceMonitor, WithoutTheLibraryItIsUnavailable) {
  // This machine (and CI's) has no NVIDIA driver: no libnvidia-ml.so.1.
  // Where one is installed the open succeeds or names the device.
  Expected<std::unique_ptr<DeviceMonitor>> m =
      DeviceMonitor::open("GPU-00112233-4455-6677-8899-aabbccddeeff");
  if (m.isOk())
    GTEST_SKIP() << "NVML is installed here";
  EXPECT_EQ(m.status().code(), StatusCode::Unavailable);
  EXPECT_NE(m.status().message().find("NVML"), std::string::npos);
}
