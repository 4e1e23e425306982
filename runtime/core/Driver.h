//===- Driver.h - libcuda loaded at run time ---------------------*- C++ -*-===//
//
// Private to the runtime (and its tests and mgpu/). The runtime never links
// libcuda: `Driver::get()` dlopens libcuda.so.1 once and resolves every
// symbol of DriverSymbols.def. A missing library or symbol is an Unavailable
// status, so programs built against the runtime start (and skip their GPU
// work) on machines with no driver. `Driver::error` turns a CUresult into a
// Status that keeps the CUresult, names the failing call and, for a sticky
// device fault, says that the process must restart. A Driver is a plain
// table of function pointers, so tests can fill one with a fake driver.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_DRIVER_H
#define APPROX_RUNTIME_CORE_DRIVER_H

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/core/Status.h"

#include <cuda.h>

namespace approx::rt::detail {

/// Function pointers to the driver API, one per DriverSymbols.def entry.
struct Driver {
#define APPROX_CU_PFN(name) decltype(&::name) name = nullptr;
#include "DriverSymbols.def"
#undef APPROX_CU_PFN

  /// Loads the driver on first use; later calls return the same result.
  /// Honors $APPROX_CUDA_DRIVER_PATH (a path to libcuda) for tests.
  static Expected<const Driver *> get();

  /// "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)", with
  /// the code of statusCodeForCudaResult; sticky faults add "; the CUDA
  /// context is unusable after this device fault: restart the process".
  Status error(CUresult result, const char *call) const;
};

/// The driver table of a Context (the one it was created with).
const Driver *driverOf(const Context &ctx);

} // namespace approx::rt::detail

/// A Context's driver-level handles.
struct approx::rt::Context::Impl {
  const detail::Driver *drv = nullptr;
  CUdevice device = 0;
  CUcontext ctx = nullptr;
};

namespace approx::rt::detail {

} // namespace approx::rt::detail

/// Evaluates a driver call through `drv` (a `const Driver*` or reference
/// member) and returns a Status naming the call if it failed.
#define APPROX_CU_RETURN_IF_ERROR(drv, call, ...)                              \
  do {                                                                         \
    CUresult approx_cu_result_ = (drv)->call(__VA_ARGS__);                     \
    if (approx_cu_result_ != CUDA_SUCCESS)                                     \
      return (drv)->error(approx_cu_result_, #call);                           \
  } while (0)

#endif // APPROX_RUNTIME_CORE_DRIVER_H
