//===- MgpuAbi.h - The mgpu* entry points the tests call ---------*- C++ -*-===//
//
// libapprox_mgpu.so's functions as gpu-to-llvm's output calls them
// (runtime/mgpu/MgpuRuntime.cpp has the signatures), for the tests that play
// an MLIR host program by hand.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TEST_RUNTIME_MGPU_MGPUABI_H
#define APPROX_TEST_RUNTIME_MGPU_MGPUABI_H

#include "Driver.h"

#include <cstddef>
#include <cstdint>

extern "C" {
CUmodule mgpuModuleLoad(void *data, size_t size);
void mgpuModuleUnload(CUmodule module);
CUfunction mgpuModuleGetFunction(CUmodule module, const char *name);
void mgpuLaunchKernel(CUfunction f, intptr_t gx, intptr_t gy, intptr_t gz,
                      intptr_t bx, intptr_t by, intptr_t bz, int32_t smem,
                      CUstream stream, void **params, void **extra,
                      size_t count);
CUstream mgpuStreamCreate();
void mgpuStreamDestroy(CUstream s);
void mgpuStreamSynchronize(CUstream s);
void *mgpuMemAlloc(uint64_t bytes, CUstream s, bool hostShared);
void mgpuMemFree(void *p, CUstream s);
void mgpuMemcpy(void *dst, void *src, size_t bytes, CUstream s);
void mgpuMemset32(void *dst, unsigned value, size_t count, CUstream s);
}

#endif // APPROX_TEST_RUNTIME_MGPU_MGPUABI_H
