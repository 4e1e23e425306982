//===- Context.cpp - The primary context of one device --------------------===//
//
// Retains the device's primary context (shared with any other user of the
// driver API in the process, e.g. the CUDA runtime) and reads the device
// attributes the runtime needs. createContext takes the driver table
// explicitly so tests can run it over a fake driver.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <cstdio>

namespace approx::rt {

using detail::Driver;

Status probeDriver() {
  Expected<const Driver *> drv = Driver::get();
  if (!drv)
    return drv.status();
  int count = 0;
  CUresult r = (*drv)->cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS)
    return unavailable((*drv)->error(r, "cuDeviceGetCount").message());
  if (count == 0)
    return unavailable("the CUDA driver reports no GPU");
  return Status::ok();
}

namespace {

/// nvidia-smi's spelling of a device UUID: GPU-8-4-4-4-12 hex digits.
std::string uuidText(const CUuuid &u) {
  const auto *b = reinterpret_cast<const unsigned char *>(u.bytes);
  char buf[64];
  std::snprintf(buf, sizeof buf,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                "%02x%02x%02x%02x%02x%02x",
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
                b[10], b[11], b[12], b[13], b[14], b[15]);
  return buf;
}

} // namespace

namespace detail {

const Driver *driverOf(const Context &ctx) { return ctx.impl().drv; }

Expected<std::shared_ptr<Context>> createContext(const Driver *drv,
                                                 int ordinal) {
  if (!drv)
    return invalidArgument("createContext: null driver table");
  int count = 0;
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetCount, &count);
  if (count == 0)
    return unavailable("the CUDA driver reports no GPU");
  if (ordinal < 0 || ordinal >= count)
    return outOfRange("device ordinal " + std::to_string(ordinal) +
                      " out of range: " + std::to_string(count) +
                      " device(s) present");
  std::shared_ptr<Context> c(new Context());
  c->impl_ = std::make_unique<Context::Impl>();
  c->impl_->drv = drv;
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGet, &c->impl_->device, ordinal);
  CUdevice dev = c->impl_->device;
  APPROX_CU_RETURN_IF_ERROR(drv, cuDevicePrimaryCtxRetain, &c->impl_->ctx,
                            dev);
  // From here on ~Context releases the primary context on failure.
  APPROX_RETURN_IF_ERROR(c->makeCurrent());
  DeviceInfo &info = c->info_;
  info.ordinal = ordinal;
  char name[256] = {0};
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetName, name, int(sizeof(name) - 1),
                            dev);
  info.name = name;
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetAttribute, &info.ccMajor,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetAttribute, &info.ccMinor,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetAttribute, &info.smCount,
                            CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  APPROX_CU_RETURN_IF_ERROR(
      drv, cuDeviceGetAttribute, &info.maxThreadsPerSM,
      CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, dev);
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetAttribute, &info.warpSize,
                            CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev);
  APPROX_CU_RETURN_IF_ERROR(drv, cuDriverGetVersion, &info.driverVersion);
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceTotalMem, &info.totalMemBytes, dev);
  CUuuid u;
  if (drv->cuDeviceGetUuid && drv->cuDeviceGetUuid(&u, dev) == CUDA_SUCCESS)
    info.uuid = uuidText(u);
  return c;
}

} // namespace detail

Expected<std::shared_ptr<Context>> Context::create(int ordinal) {
  APPROX_ASSIGN_OR_RETURN(const Driver *drv, Driver::get());
  return detail::createContext(drv, ordinal);
}

Context::~Context() {
  if (impl_ && impl_->ctx)
    impl_->drv->cuDevicePrimaryCtxRelease(impl_->device);
}

Status Context::makeCurrent() const {
  APPROX_CU_RETURN_IF_ERROR(impl_->drv, cuCtxSetCurrent, impl_->ctx);
  return Status::ok();
}

Status Context::synchronize() const {
  APPROX_RETURN_IF_ERROR(makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(impl_->drv, cuCtxSynchronize);
  return Status::ok();
}

Status Context::memInfo(size_t &freeBytes, size_t &totalBytes) const {
  APPROX_RETURN_IF_ERROR(makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(impl_->drv, cuMemGetInfo, &freeBytes,
                            &totalBytes);
  return Status::ok();
}

} // namespace approx::rt
