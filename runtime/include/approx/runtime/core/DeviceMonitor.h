//===- DeviceMonitor.h - Clocks, temperature, power, energy (NVML) -*- C++ -*-===//
//
// What a measurement logs beside its times (issue 30, "Dispersion" and
// energy): the SM and memory clocks, the temperature, the power draw and
// the energy counter of one GPU, read through NVML. libnvidia-ml.so.1 comes
// with the driver and is dlopen'ed, as libcuda is: nothing links against
// it, and a machine without it gets Unavailable (the caller records that it
// has no readings; a measurement does not fail for it). The device is found
// by the UUID the CUDA driver gives (DeviceInfo::uuid), so NVML's index
// order does not matter.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_DEVICEMONITOR_H
#define APPROX_RUNTIME_CORE_DEVICEMONITOR_H

#include "approx/runtime/core/Status.h"

#include <cmath>
#include <memory>
#include <string>

namespace approx::rt {

/// One reading; a value the GPU does not report stays 0 (clocks,
/// temperature) or NaN (power, energy).
struct DeviceState {
  unsigned smClockMHz = 0, memClockMHz = 0; ///< current clocks
  unsigned temperatureC = 0;                ///< the GPU's sensor
  double powerW = NAN;                      ///< draw now
  /// The energy counter (J since the driver loaded; Volta and later):
  /// a measurement's energy is the difference of two readings.
  double energyJ = NAN;
};

/// The NVML functions used, as a table (tests pass a fake one). Return
/// values are nvmlReturn_t (0: success).
struct NvmlApi {
  using Device = void *;
  int (*init)() = nullptr;     ///< nvmlInit_v2
  int (*shutdown)() = nullptr; ///< nvmlShutdown
  int (*handleByUuid)(const char *uuid, Device *d) = nullptr;
  int (*clockInfo)(Device d, int type, unsigned *mhz) = nullptr;
  int (*temperature)(Device d, int sensor, unsigned *c) = nullptr;
  int (*powerUsage)(Device d, unsigned *milliwatts) = nullptr;
  int (*totalEnergy)(Device d, unsigned long long *millijoules) = nullptr;
  const char *(*errorString)(int r) = nullptr;
};

class DeviceMonitor {
public:
  /// NVML's view of the GPU with CUDA UUID `uuid` ("GPU-..."); Unavailable
  /// without libnvidia-ml.so.1, or when NVML does not know the device.
  static Expected<std::unique_ptr<DeviceMonitor>> open(const std::string &uuid);
  /// The same over `api` (tests).
  static Expected<std::unique_ptr<DeviceMonitor>> open(const NvmlApi *api,
                                                       const std::string &uuid);
  ~DeviceMonitor(); ///< nvmlShutdown
  DeviceMonitor(const DeviceMonitor &) = delete;
  DeviceMonitor &operator=(const DeviceMonitor &) = delete;

  /// A reading now. Fields NVML does not support on this GPU keep their
  /// defaults; an error only when NVML fails outright.
  Expected<DeviceState> read() const;

private:
  DeviceMonitor(const NvmlApi *api, void *device) : api_(api), device_(device) {}
  const NvmlApi *api_;
  void *device_;
};

} // namespace approx::rt

#endif // APPROX_RUNTIME_CORE_DEVICEMONITOR_H
