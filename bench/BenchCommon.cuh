//===- BenchCommon.cuh - error checks shared by the bench programs --------===//
//
// CK(call) exits 2 on a CUDA runtime error, naming the call; check() exits
// on a runtime Status (77, "skipped", when no GPU/driver is usable).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "approx/runtime/core/Runtime.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,          \
                   cudaGetErrorString(e_));                                    \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

static inline void check(const approx::rt::Status &s, const char *what) {
  if (!s.isOk()) {
    std::fprintf(stderr, "%s: %s\n", what, s.toString().c_str());
    std::exit(s.code() == approx::rt::StatusCode::Unavailable ? 77 : 2);
  }
}
