//===- TransferChecks.h - host references for the transfer tests -*- C++
//-*-===//
//
// Shared by TransferTest.cpp (over the fake driver) and GpuConvertTest.cpp
// (on a GPU): the host's convert() as the reference of a conversion or a
// transfer plan (scalar path, one thread), the family of plans run for a
// pair of types, and the names used in failure messages. Header-only, so
// that each test binary compiles it with its own sources.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TEST_RUNTIME_PRECISION_TRANSFERCHECKS_H
#define APPROX_TEST_RUNTIME_PRECISION_TRANSFERCHECKS_H

#include "approx/runtime/precision/HostConvert.h"
#include "approx/runtime/precision/Transfer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace approx::rt::precision::test {

using Bytes = std::vector<unsigned char>;

/// "f64->f16".
inline std::string pairName(ScalarType a, ScalarType b) {
  return std::string(scalarTypeName(a)) + "->" + scalarTypeName(b);
}

/// The three counts, for failure messages.
inline std::string statsText(const ConvertStats &s) {
  return "{overflowed " + std::to_string(s.overflowed) + ", underflowed " +
         std::to_string(s.underflowedToZero) + ", nans " +
         std::to_string(s.nans) + "}";
}

/// Equal overflow, underflow and NaN counts.
inline bool sameStats(const ConvertStats &a, const ConvertStats &b) {
  return a.overflowed == b.overflowed &&
         a.underflowedToZero == b.underflowedToZero && a.nans == b.nans;
}

/// The host reference of a conversion: scalar path, one thread.
inline Bytes reference(const Bytes &src, ScalarType from, ScalarType to,
                       size_t n, ConvertStats &st) {
  Bytes out(n * scalarTypeSize(to));
  ConvertOptions opt;
  opt.threads = 1;
  opt.isa = ConvertOptions::Scalar;
  EXPECT_TRUE(convert(src.data(), from, out.data(), to, n, opt, &st).isOk());
  return out;
}

/// What a plan computes on the host: convert() once, or twice through the
/// intermediate for Transient (stats of the chain, NaNs once); a plain copy
/// counts nothing.
inline Bytes expectedTransfer(const Bytes &src, ScalarType from, ScalarType to,
                              size_t n, const TransferPlan &plan,
                              ConvertStats &stats) {
  if (plan.method == TransferMethod::Transient && from != to) {
    ConvertStats a, b;
    Bytes mid = reference(src, from, plan.intermediate, n, a);
    Bytes out = reference(mid, plan.intermediate, to, n, b);
    stats = a;
    stats.overflowed += b.overflowed;
    stats.underflowedToZero += b.underflowedToZero;
    return out;
  }
  Bytes out = reference(src, from, to, n, stats);
  if (from == to)
    stats = ConvertStats();
  return out;
}

/// The thread counts and chunk size of the plans of plansFor().
struct PlanShape {
  size_t chunkElements;  ///< of the wider of the two types
  unsigned multiThreads; ///< hostMulti
  unsigned pipeThreads;  ///< the two-slot pipelines
  unsigned threeThreads; ///< the three-slot device-side pipeline
};

/// Every method for a pair: host single and multi-threaded (pinned and
/// pageable), device, transient through each other type, pipelined on
/// either side (and with three slots), and copy for equal types.
inline std::vector<TransferPlan> plansFor(ScalarType host, ScalarType dev,
                                          const PlanShape &shape) {
  std::vector<TransferPlan> plans = {
      TransferPlan::hostSingle(), TransferPlan::hostMulti(shape.multiThreads),
      TransferPlan::device()};
  TransferPlan pageable = TransferPlan::hostMulti(2);
  pageable.pinned = false;
  plans.push_back(pageable);
  for (ScalarType mid :
       {ScalarType::F64, ScalarType::F32, ScalarType::F16, ScalarType::BF16})
    if (mid != host && mid != dev)
      plans.push_back(TransferPlan::transient(mid, 2));
  const size_t chunk =
      shape.chunkElements * std::max(scalarTypeSize(host), scalarTypeSize(dev));
  plans.push_back(
      TransferPlan::pipelined(chunk, shape.pipeThreads, ConvertSide::Host));
  plans.push_back(
      TransferPlan::pipelined(chunk, shape.pipeThreads, ConvertSide::Device));
  TransferPlan three =
      TransferPlan::pipelined(chunk, shape.threeThreads, ConvertSide::Device);
  three.slots = 3;
  plans.push_back(three);
  if (host == dev)
    plans.push_back(TransferPlan::copy());
  return plans;
}

} // namespace approx::rt::precision::test

#endif // APPROX_TEST_RUNTIME_PRECISION_TRANSFERCHECKS_H
