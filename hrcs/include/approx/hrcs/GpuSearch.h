//===- GpuSearch.h - The GPU backend of the hard-to-round search -*- C++ -*-===//
//
// Three kernels, one per phase, with CUB's DeviceSelect compacting the
// surviving intervals between them (Sect. 4.3.1): the grid of each phase is
// rebuilt for exactly the work that reached it. Kernel 1 also advances the
// packet tables by tabulated differences (Sect. 5.2). Built when a CUDA
// compiler is found (APPROX_HRCS_HAS_CUDA).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_HRCS_GPUSEARCH_H
#define APPROX_HRCS_GPUSEARCH_H

#include "approx/hrcs/Search.h"

#include <memory>
#include <string>

namespace approx::hrcs {

/// The GPU backend on CUDA device `device`, or nullptr and a one-line
/// `error` (no driver, no device, ...). `maxIntervals` caps the intervals
/// of one launch (0: sized from free device memory).
std::unique_ptr<Backend> makeGpuBackend(std::string &error, int device = 0,
                                        uint64_t maxIntervals = 0);

/// Every (q, eps) case of the plan's domain by brute force on the GPU: f in
/// double precision for every argument (CUDA's exp/log/exp2/log2/sin/cos,
/// within 4 ulps of binary64), the arguments whose distance is too close to
/// eps to decide confirmed by MPFR on the CPU. For p <= 24 and q <= 30 (a
/// binary32 binade), false and `error` otherwise. Fills the argument
/// indices, ascending, and how many needed MPFR.
bool bruteForceGpu(const Plan &plan, std::vector<uint64_t> &cases,
                   uint64_t &ambiguous, std::string &error);

} // namespace approx::hrcs

#endif // APPROX_HRCS_GPUSEARCH_H
