//===- BenchCommon.cuh - error checks shared by the bench programs --------===//
//
// CK(call) exits 2 on a CUDA runtime error, naming the call; check() exits
// on a runtime Status (77, "skipped", when no GPU/driver is usable);
// optionValue(), countOption() and untilCiOption() read the runners'
// command lines.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "approx/runtime/core/Runtime.h"

#include <cuda_runtime.h>

#include <cerrno>
#include <cmath>
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

/// A count (of rounds, launches): a whole number from 1 to 1,000,000;
/// anything else is "TOOL: OPTION wants a positive integer, not 'V'" and
/// exit 2.
static inline int countOption(const char *tool, const std::string &opt,
                              const std::string &v) {
  char *end = nullptr;
  errno = 0;
  const long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || !end || *end || errno || n < 1 || n > 1000000) {
    std::fprintf(stderr, "%s: %s wants a positive integer, not '%s'\n", tool,
                 opt.c_str(), v.c_str());
    std::exit(2);
  }
  return int(n);
}

/// --until-ci's value: a relative half-width in [0, 1) (0: off); anything
/// else is one line on stderr and exit 2.
static inline double untilCiOption(const char *tool, const std::string &opt,
                                   const std::string &v) {
  char *end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || !end || *end || !std::isfinite(x) || x < 0 || x >= 1) {
    std::fprintf(stderr,
                 "%s: %s wants a relative half-width from 0 (off) to below "
                 "1, e.g. 0.01, not '%s'\n",
                 tool, opt.c_str(), v.c_str());
    std::exit(2);
  }
  return x;
}

static inline void check(const approx::rt::Status &s, const char *what) {
  if (!s.isOk()) {
    std::fprintf(stderr, "%s: %s\n", what, s.toString().c_str());
    std::exit(s.code() == approx::rt::StatusCode::Unavailable ? 77 : 2);
  }
}
