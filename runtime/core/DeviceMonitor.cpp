//===- DeviceMonitor.cpp - Clocks, temperature, power, energy (NVML) ------===//
#include "approx/runtime/core/DeviceMonitor.h"

#include "approx/runtime/core/Text.h"

#include <dlfcn.h>
#include <mutex>

namespace approx::rt {

namespace {

// nvml.h's values (the header is not needed: these are its stable ABI).
constexpr int kSuccess = 0, kNotSupported = 3;
constexpr int kClockSm = 1, kClockMem = 2, kTemperatureGpu = 0;

/// libnvidia-ml.so.1's table, loaded once; nullptr with the reason.
const NvmlApi *systemApi(std::string &why) {
  static std::once_flag once;
  static NvmlApi api;
  static bool ok = false;
  static std::string error;
  std::call_once(once, [] {
    void *h = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char *e = ::dlerror();
      error = std::string("cannot load NVML (libnvidia-ml.so.1): ") +
              (e ? e : "unknown error");
      return;
    }
    auto sym = [&](const char *name) { return ::dlsym(h, name); };
    api.init = reinterpret_cast<int (*)()>(sym("nvmlInit_v2"));
    api.shutdown = reinterpret_cast<int (*)()>(sym("nvmlShutdown"));
    api.handleByUuid = reinterpret_cast<int (*)(const char *, void **)>(
        sym("nvmlDeviceGetHandleByUUID"));
    api.clockInfo = reinterpret_cast<int (*)(void *, int, unsigned *)>(
        sym("nvmlDeviceGetClockInfo"));
    api.temperature = reinterpret_cast<int (*)(void *, int, unsigned *)>(
        sym("nvmlDeviceGetTemperature"));
    api.powerUsage = reinterpret_cast<int (*)(void *, unsigned *)>(
        sym("nvmlDeviceGetPowerUsage"));
    api.totalEnergy =
        reinterpret_cast<int (*)(void *, unsigned long long *)>(
            sym("nvmlDeviceGetTotalEnergyConsumption"));
    api.errorString =
        reinterpret_cast<const char *(*)(int)>(sym("nvmlErrorString"));
    ok = api.init && api.shutdown && api.handleByUuid && api.clockInfo &&
         api.temperature && api.powerUsage && api.totalEnergy;
    if (!ok)
      error = "NVML (libnvidia-ml.so.1) lacks an entry point approx reads";
  });
  why = error;
  return ok ? &api : nullptr;
}

std::string errorText(const NvmlApi *api, int r) {
  const char *s = api->errorString ? api->errorString(r) : nullptr;
  return s ? escapeBytes(s) : "NVML error " + std::to_string(r);
}

} // namespace

Expected<std::unique_ptr<DeviceMonitor>>
DeviceMonitor::open(const std::string &uuid) {
  std::string why;
  const NvmlApi *api = systemApi(why);
  if (!api)
    return unavailable(why);
  return open(api, uuid);
}

Expected<std::unique_ptr<DeviceMonitor>>
DeviceMonitor::open(const NvmlApi *api, const std::string &uuid) {
  if (uuid.empty())
    return unavailable("NVML: the CUDA driver gave no UUID for the device");
  if (int r = api->init(); r != kSuccess)
    return unavailable("NVML: nvmlInit: " + errorText(api, r));
  void *device = nullptr;
  if (int r = api->handleByUuid(uuid.c_str(), &device); r != kSuccess) {
    api->shutdown();
    return unavailable("NVML: no device " + quote(uuid) + ": " +
                       errorText(api, r));
  }
  return std::unique_ptr<DeviceMonitor>(new DeviceMonitor(api, device));
}

DeviceMonitor::~DeviceMonitor() { api_->shutdown(); }

Expected<DeviceState> DeviceMonitor::read() const {
  DeviceState s;
  // A field this GPU does not support keeps its default; any other failure
  // is the reading's.
  auto check = [&](int r, const char *what) -> Status {
    if (r == kSuccess || r == kNotSupported)
      return Status::ok();
    return unavailable(std::string("NVML: ") + what + ": " +
                       errorText(api_, r));
  };
  unsigned v = 0;
  int r = api_->clockInfo(device_, kClockSm, &v);
  APPROX_RETURN_IF_ERROR(check(r, "nvmlDeviceGetClockInfo(SM)"));
  if (r == kSuccess)
    s.smClockMHz = v;
  r = api_->clockInfo(device_, kClockMem, &v);
  APPROX_RETURN_IF_ERROR(check(r, "nvmlDeviceGetClockInfo(MEM)"));
  if (r == kSuccess)
    s.memClockMHz = v;
  r = api_->temperature(device_, kTemperatureGpu, &v);
  APPROX_RETURN_IF_ERROR(check(r, "nvmlDeviceGetTemperature"));
  if (r == kSuccess)
    s.temperatureC = v;
  r = api_->powerUsage(device_, &v);
  APPROX_RETURN_IF_ERROR(check(r, "nvmlDeviceGetPowerUsage"));
  if (r == kSuccess)
    s.powerW = v / 1000.0;
  unsigned long long mj = 0;
  r = api_->totalEnergy(device_, &mj);
  APPROX_RETURN_IF_ERROR(check(r, "nvmlDeviceGetTotalEnergyConsumption"));
  if (r == kSuccess)
    s.energyJ = double(mj) / 1000.0;
  return s;
}

} // namespace approx::rt
