//===- DeviceConvert.h - f64/f32/f16/bf16 arrays on the GPU -----*- C++ -*-===//
//
// The device side of precision scaling (issue 10, docs/precision.md): a
// conversion kernel for each of the 12 ordered pairs of distinct f64, f32,
// f16 and bf16, converting n elements device -> device with exactly the
// results of the host's convert() (HostConvert.h): IEEE round to nearest,
// ties to even, once, from the source value (f64 -> f16 and f64 -> bf16
// included), subnormals exact, overflow to +-inf, NaN to the same quiet NaN
// as the host (sign and top payload bits), and the same counts
// (ConvertStats: overflowed, underflowedToZero, nans).
//
// The kernels are PTX text generated here from a per-pair instruction
// snippet (DeviceConvert.cpp says why and how) and JIT-loaded by the driver
// through Module, so the runtime needs no CUDA compiler at build time.
// deviceConvertPtx() returns the text, for offline checks with ptxas.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_DEVICECONVERT_H
#define APPROX_RUNTIME_PRECISION_DEVICECONVERT_H

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/precision/HostConvert.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace approx::rt::precision {

/// A device counter block: three u64 the kernels add to, in this order:
/// overflowed, underflowedToZero, nans (ConvertStats' fields).
constexpr size_t kDeviceCounterBytes = 3 * sizeof(uint64_t);

/// Threads per block of the conversion kernels.
constexpr unsigned kDeviceConvertBlock = 256;

/// The PTX module (one `.entry` per pair; `.target sm_75`, PTX ISA 7.0, so
/// one text JIT-compiles for every GPU from Turing on).
const std::string &deviceConvertPtx();

/// The `.entry` name of a pair: "approx_cvt_f64_f16"; "" unless `from` and
/// `to` are distinct precisions.
std::string deviceConvertKernelName(ScalarType from, ScalarType to);

/// The conversion kernels, loaded in one context. Thread-safe (Module
/// serializes launches).
class DeviceConverter {
public:
  /// The converter of `ctx`: loaded (JIT) on first use and shared while
  /// anyone holds it, so a context compiles the module once.
  static Expected<std::shared_ptr<DeviceConverter>>
  forContext(const std::shared_ptr<Context> &ctx);
  /// A converter of its own (a fresh JIT load).
  static Expected<std::shared_ptr<DeviceConverter>>
  create(std::shared_ptr<Context> ctx);

  /// Checks the arguments and enqueues the conversion of `n` elements at
  /// device address `src` (type `from`) into `dst` (type `to`) on `stream`
  /// (null: the legacy default stream). When `counters` (a device address of
  /// kDeviceCounterBytes, 8-byte aligned) is nonzero, the kernel adds its
  /// counts to it; the caller zeroes it first. n = 0 enqueues nothing.
  ///
  /// Errors (InvalidArgument): a type that is not a precision, from == to
  /// (a copy, not a conversion), a null `src` or `dst` with n > 0, n over
  /// 2^63 - 1 or its bytes or end address overflowing, `src`/`dst` not
  /// aligned to their element size or `counters` to 8, overlapping source
  /// and destination; driver failures as the Module launch reports them.
  Status enqueue(uint64_t src, ScalarType from, uint64_t dst, ScalarType to,
                 size_t n, const Stream *stream = nullptr,
                 uint64_t counters = 0) const;

  /// Converts synchronously on the legacy default stream and, when `stats`
  /// is not null, counts (with an internal counter block; `stats` is reset
  /// first, and filled only on success).
  Status convert(uint64_t src, ScalarType from, uint64_t dst, ScalarType to,
                 size_t n, ConvertStats *stats = nullptr);

  /// Adds the counts of a counter block read back to the host.
  static void addCounters(const uint64_t counters[3], ConvertStats &stats);

  /// The blocks a launch of n elements uses (grid-stride: at most 8 blocks
  /// of kDeviceConvertBlock threads per multiprocessor, at least 1).
  unsigned gridFor(size_t n) const;

  const std::shared_ptr<Context> &context() const { return ctx_; }
  /// The loaded module (for kernelResources and the like).
  Module &module() const { return *module_; }

private:
  DeviceConverter() = default;
  std::shared_ptr<Context> ctx_;
  std::unique_ptr<Module> module_;
  DeviceBuffer counters_; ///< convert()'s counter block
  std::mutex mutex_;      ///< guards counters_ in convert()
};

} // namespace approx::rt::precision

#endif // APPROX_RUNTIME_PRECISION_DEVICECONVERT_H
