//===- BenchCommon.cuh - error checks shared by the bench programs --------===//
//
// CK(call) exits 2 on a CUDA runtime error, naming the call; check() exits
// on a runtime Status (77, "skipped", when no GPU/driver is usable);
// optionValue() reads an option's value for the runners' command lines.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "approx/runtime/core/Runtime.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,          \
                   cudaGetErrorString(e_));                                    \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

/// The value after option argv[i] (advancing i), or, when there is none,
/// "TOOL: OPTION needs a value" and exit 2: the bench runners' parsers.
static inline std::string optionValue(int argc, char **argv, int &i,
                                      const char *tool) {
  if (i + 1 >= argc) {
    std::fprintf(stderr, "%s: %s needs a value\n", tool, argv[i]);
    std::exit(2);
  }
  return argv[++i];
}

static inline void check(const approx::rt::Status &s, const char *what) {
  if (!s.isOk()) {
    std::fprintf(stderr, "%s: %s\n", what, s.toString().c_str());
    std::exit(s.code() == approx::rt::StatusCode::Unavailable ? 77 : 2);
  }
}
