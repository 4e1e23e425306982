//===- MgpuRuntime.cpp - MLIR's mgpu* host runtime on the approx driver ---===//
//
// `gpu-to-llvm` lowers host-side gpu ops to calls of mgpu* functions that
// upstream implements in libmlir_cuda_runtime.so, which Debian does not
// ship. This library provides the functions (and signatures) MLIR 22 emits,
// written over the approx runtime's dlopen'ed driver table: no link-time
// libcuda, and every failing driver call is reported on stderr with its name
// and the driver's error text (the mgpu ABI has no error channel, like
// upstream's CUDA_REPORT_IF_ERROR).
//
// Each entry point makes the library's context current for its duration and
// restores the caller's (ScopedContext.h).
//
// With APPROX_PRECISION=profile or scale, the memory, copy, module and launch
// entry points go through PrecisionHooks.h (precision scaling of the
// program's memory objects); without it nothing changes. With APPROX_CONFIG
// or APPROX_CAPTURE, they also go through KnobHooks.h (the joint tuner's
// knobs file and output capture).
//
// Signatures: as declared by MLIR 22's GPUToLLVMConversion / the LLVM IR
// translation of gpu.binary (checked by lowering a sample with Debian's
// mlir-opt/mlir-translate 22), e.g.
//   ptr  mgpuModuleLoad(ptr, i64)         ptr  mgpuModuleLoadJIT(ptr, i32)
//   void mgpuLaunchKernel(ptr, i64 x6, i32, ptr, ptr, ptr, i64)
//   ptr  mgpuMemAlloc(i64, ptr, i8)       void mgpuMemset16(ptr, i16, i64, ptr)
//
//===----------------------------------------------------------------------===//
#include "KnobHooks.h"
#include "PrecisionHooks.h"
#include "ScopedContext.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>

using approx::rt::Expected;
using approx::rt::Status;
using approx::mgpu::PrecisionHooks;
using approx::rt::detail::Driver;

#define MGPU_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

int gDefaultDevice = 0;
const Driver *gTestDriver = nullptr;

const Driver *drv() {
  if (gTestDriver)
    return gTestDriver;
  static const Driver *d = [] {
    Expected<const Driver *> r = Driver::get();
    if (!r) {
      std::fprintf(stderr, "approx-mgpu: %s\n", r.status().toString().c_str());
      return static_cast<const Driver *>(nullptr);
    }
    return *r;
  }();
  return d;
}

void report(CUresult r, const char *call) {
  // DEINITIALIZED: the process is exiting and the driver has torn itself
  // down before the module destructor gpu-to-llvm registers ran (seen on an
  // H200, driver 580.159.04); nothing is left to release.
  if (r == CUDA_SUCCESS || r == CUDA_ERROR_DEINITIALIZED)
    return;
  const Driver *d = drv();
  Status s = d ? d->error(r, call) : Status();
  std::fprintf(stderr, "approx-mgpu: '%s' failed: %s\n", call,
               d ? s.message().c_str() : "no CUDA driver");
}

#define MGPU_CALL(call, ...)                                                   \
  do {                                                                         \
    if (const Driver *d_ = drv())                                              \
      report(d_->call(__VA_ARGS__), #call);                                    \
  } while (0)

/// The default device's primary context, retained once for the process.
CUcontext primaryContext() {
  const Driver *d = drv();
  if (!d)
    return nullptr;
  static std::once_flag once;
  static CUcontext primary = nullptr;
  std::call_once(once, [d] {
    CUdevice dev;
    CUresult r = d->cuDeviceGet(&dev, gDefaultDevice);
    report(r, "cuDeviceGet");
    if (r == CUDA_SUCCESS)
      report(d->cuDevicePrimaryCtxRetain(&primary, dev),
             "cuDevicePrimaryCtxRetain");
  });
  return primary;
}

/// The primary context, current for one mgpu call; the caller's current
/// context is restored when the call returns (approx::mgpu::ScopedContext).
struct ScopedContext : approx::mgpu::ScopedContext {
  ScopedContext()
      : approx::mgpu::ScopedContext(drv(), primaryContext(), &report) {}
};

/// The precision hooks (PrecisionHooks.h), or nullptr without
/// APPROX_PRECISION.
PrecisionHooks *hooks() {
  return PrecisionHooks::get(drv(), gDefaultDevice, &report);
}

/// The knob and capture hooks (KnobHooks.h), or nullptr without
/// APPROX_CONFIG and APPROX_CAPTURE.
approx::mgpu::KnobHooks *knobHooks() {
  return approx::mgpu::KnobHooks::get(drv(), &report, hooks() != nullptr);
}

} // namespace

void approx::mgpu::setDriverForTesting(const Driver *d) { gTestDriver = d; }

MGPU_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  gDefaultDevice = device;
}

MGPU_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  ScopedContext scope;
  CUmodule module = nullptr;
  MGPU_CALL(cuModuleLoadDataEx, &module, data, 0, nullptr, nullptr);
  if (PrecisionHooks *h = module ? hooks() : nullptr)
    h->moduleLoaded(module);
  if (approx::mgpu::KnobHooks *k = module ? knobHooks() : nullptr)
    k->moduleLoaded(module);
  return module;
}

MGPU_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  ScopedContext scope;
  CUmodule module = nullptr;
  char log[8192] = {0};
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_OPTIMIZATION_LEVEL};
  void *vals[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof(log) - 1)),
                  reinterpret_cast<void *>(intptr_t(optLevel))};
  if (const Driver *d = drv()) {
    CUresult r = d->cuModuleLoadDataEx(&module, data, 3, opts, vals);
    report(r, "cuModuleLoadDataEx");
    if (r != CUDA_SUCCESS && log[0])
      std::fprintf(stderr, "approx-mgpu: JIT log:\n%s\n", log);
  }
  if (PrecisionHooks *h = module ? hooks() : nullptr)
    h->moduleLoaded(module);
  if (approx::mgpu::KnobHooks *k = module ? knobHooks() : nullptr)
    k->moduleLoaded(module);
  return module;
}

MGPU_EXPORT void mgpuModuleUnload(CUmodule module) {
  ScopedContext scope;
  if (PrecisionHooks *h = hooks())
    h->moduleUnloading(module);
  MGPU_CALL(cuModuleUnload, module);
}

MGPU_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                             const char *name) {
  ScopedContext scope;
  approx::mgpu::KnobHooks *k = knobHooks();
  const std::string entry = k ? k->entryFor(module, name) : name;
  CUfunction f = nullptr;
  if (PrecisionHooks *h = hooks())
    f = h->getFunction(module, entry.c_str());
  else
    MGPU_CALL(cuModuleGetFunction, &f, module, entry.c_str());
  if (k)
    k->gotFunction(f, module, entry);
  return f;
}

MGPU_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                  intptr_t gridY, intptr_t gridZ,
                                  intptr_t blockX, intptr_t blockY,
                                  intptr_t blockZ, int32_t smem,
                                  CUstream stream, void **params,
                                  void **extra, size_t /*paramsCount*/) {
  ScopedContext scope;
  if (approx::mgpu::KnobHooks *k = knobHooks())
    k->launching(function, params);
  if (PrecisionHooks *h = hooks()) {
    const unsigned grid[3] = {unsigned(gridX), unsigned(gridY),
                              unsigned(gridZ)};
    const unsigned block[3] = {unsigned(blockX), unsigned(blockY),
                               unsigned(blockZ)};
    return h->launch(function, grid, block, unsigned(smem), stream, params,
                     extra);
  }
  MGPU_CALL(cuLaunchKernel, function, unsigned(gridX), unsigned(gridY),
            unsigned(gridZ), unsigned(blockX), unsigned(blockY),
            unsigned(blockZ), unsigned(smem), stream, params, extra);
}

MGPU_EXPORT CUstream mgpuStreamCreate() {
  ScopedContext scope;
  CUstream s = nullptr;
  MGPU_CALL(cuStreamCreate, &s, CU_STREAM_NON_BLOCKING);
  return s;
}

MGPU_EXPORT void mgpuStreamDestroy(CUstream stream) {
  ScopedContext scope;
  MGPU_CALL(cuStreamDestroy, stream);
}

MGPU_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  ScopedContext scope;
  MGPU_CALL(cuStreamSynchronize, stream);
}

MGPU_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  ScopedContext scope;
  MGPU_CALL(cuStreamWaitEvent, stream, event, 0);
}

MGPU_EXPORT CUevent mgpuEventCreate() {
  ScopedContext scope;
  CUevent e = nullptr;
  MGPU_CALL(cuEventCreate, &e, CU_EVENT_DISABLE_TIMING);
  return e;
}

MGPU_EXPORT void mgpuEventDestroy(CUevent event) {
  ScopedContext scope;
  MGPU_CALL(cuEventDestroy, event);
}

MGPU_EXPORT void mgpuEventSynchronize(CUevent event) {
  ScopedContext scope;
  MGPU_CALL(cuEventSynchronize, event);
}

MGPU_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  ScopedContext scope;
  MGPU_CALL(cuEventRecord, event, stream);
}

MGPU_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/,
                               bool isHostShared) {
  ScopedContext scope;
  CUdeviceptr p = 0;
  if (sizeBytes == 0)
    return nullptr;
  void *ptr = nullptr;
  if (PrecisionHooks *h = hooks()) {
    ptr = h->alloc(sizeBytes, isHostShared);
  } else {
    if (isHostShared)
      MGPU_CALL(cuMemAllocManaged, &p, sizeBytes, CU_MEM_ATTACH_GLOBAL);
    else
      MGPU_CALL(cuMemAlloc, &p, sizeBytes);
    ptr = reinterpret_cast<void *>(p);
  }
  if (approx::mgpu::KnobHooks *k = knobHooks())
    k->allocated(ptr, sizeBytes);
  return ptr;
}

MGPU_EXPORT void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  ScopedContext scope;
  if (PrecisionHooks *h = ptr ? hooks() : nullptr)
    h->freed(ptr);
  if (approx::mgpu::KnobHooks *k = ptr ? knobHooks() : nullptr)
    k->freed(ptr);
  if (ptr)
    MGPU_CALL(cuMemFree, reinterpret_cast<CUdeviceptr>(ptr));
}

MGPU_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                            CUstream stream) {
  ScopedContext scope;
  PrecisionHooks *h = hooks();
  if (!h || !h->memcpy(dst, src, sizeBytes, stream))
    MGPU_CALL(cuMemcpyAsync, reinterpret_cast<CUdeviceptr>(dst),
              reinterpret_cast<CUdeviceptr>(src), sizeBytes, stream);
  if (approx::mgpu::KnobHooks *k = knobHooks())
    k->copied(dst, src, sizeBytes, stream);
}

MGPU_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                              CUstream stream) {
  ScopedContext scope;
  if (PrecisionHooks *h = hooks())
    if (h->memset(dst, value, count, 4, stream))
      return;
  MGPU_CALL(cuMemsetD32Async, reinterpret_cast<CUdeviceptr>(dst), value, count,
            stream);
}

MGPU_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                              CUstream stream) {
  ScopedContext scope;
  if (PrecisionHooks *h = hooks())
    if (h->memset(dst, value, count, 2, stream))
      return;
  MGPU_CALL(cuMemsetD16Async, reinterpret_cast<CUdeviceptr>(dst), value, count,
            stream);
}

MGPU_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  ScopedContext scope;
  MGPU_CALL(cuMemHostRegister, ptr, sizeBytes, 0);
  if (PrecisionHooks *h = hooks())
    h->hostRegistered(ptr, sizeBytes);
}

MGPU_EXPORT void mgpuMemHostUnregister(void *ptr) {
  ScopedContext scope;
  MGPU_CALL(cuMemHostUnregister, ptr);
  if (PrecisionHooks *h = hooks())
    h->hostUnregistered(ptr);
}

namespace {
/// MLIR's ranked memref descriptor for the *MemRef entry points.
struct Descriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizes[1]; // then strides; rank given separately
};

uint64_t descriptorBytes(int64_t rank, Descriptor *d, int64_t elemBytes,
                         char **base) {
  int64_t *sizes = d->sizes, *strides = d->sizes + rank;
  int64_t extent = 1;
  for (int64_t i = 0; i < rank; ++i)
    if (sizes[i] > 0 && strides[i] * sizes[i] > extent)
      extent = strides[i] * sizes[i];
  *base = d->aligned + d->offset * elemBytes;
  return uint64_t(extent * elemBytes);
}
} // namespace

MGPU_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, Descriptor *desc,
                                           int64_t elementSizeBytes) {
  char *base;
  uint64_t bytes = descriptorBytes(rank, desc, elementSizeBytes, &base);
  mgpuMemHostRegister(base, bytes);
}

MGPU_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank, Descriptor *desc,
                                             int64_t elementSizeBytes) {
  char *base;
  (void)descriptorBytes(rank, desc, elementSizeBytes, &base);
  mgpuMemHostUnregister(base);
}
