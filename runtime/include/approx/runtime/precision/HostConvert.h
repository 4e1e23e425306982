//===- HostConvert.h - f64/f32/f16/bf16 arrays on the host ------*- C++ -*-===//
//
// The host side of precision scaling (issue 10, docs/precision.md): convert
// an array between any two of f64, f32, f16 and bf16, correctly rounded
// (IEEE round to nearest, ties to even, in one step from the source value,
// subnormals kept, overflow to infinity, NaN stays a quiet NaN), vectorised
// and multithreaded. The system inspector measures these paths and the
// decision maker picks one (ConvertOptions), so the path and the thread
// count are the caller's to choose.
//
// SIMD: x86 F16C + AVX2 intrinsics in functions compiled with
// `__attribute__((target(...)))` and chosen at run time from CPUID, plus a
// portable scalar path (integer bit manipulation only, so independent of
// the floating-point environment). Not Highway: the GPU machine and CI have
// no network and no libhwy-dev, Debian 12's Highway 1.0.3 has no direct
// f64 -> f16 demotion (rounding through f32 first is wrong in rare cases),
// and its bf16 demotion semantics changed between versions; the conversions
// needed here are a handful of instructions. f64 -> f16/bf16 is rounded to
// odd into f32 and then to nearest even, which is exact (docs/precision.md).
//
// The precisions are the manifest's float ScalarTypes (F64, F32, F16, BF16;
// core/Manifest.h gives their names and sizes).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_HOSTCONVERT_H
#define APPROX_RUNTIME_PRECISION_HOSTCONVERT_H

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace approx::rt::precision {

/// Parses "f64", "f32", "f16" or "bf16" (any other type name, even a valid
/// manifest one such as "i32", is an InvalidArgument error).
Expected<ScalarType> parsePrecision(const std::string &name);

/// True for the four types convert() accepts (isFloatType, spelled for this
/// API).
inline bool isPrecision(ScalarType t) { return isFloatType(t); }

/// How convert() runs.
struct ConvertOptions {
  /// Which code path converts.
  enum Isa {
    Auto,   ///< Avx2 when the CPU has it, else Scalar.
    Scalar, ///< Portable integer code, one element at a time.
    Avx2,   ///< x86 AVX2 + F16C (an error where the CPU lacks them).
  };
  /// Worker threads: 0 = std::thread::hardware_concurrency(), 1 = the
  /// calling thread only. Fewer are used when the array is small: every
  /// thread gets at least kMinBytesPerThread.
  unsigned threads = 0;
  Isa isa = Auto;
};

/// The least work (bytes of the larger of source and destination) given to
/// one thread; smaller arrays use fewer threads.
constexpr size_t kMinBytesPerThread = size_t(64) << 10;

/// What a conversion lost. Narrowing conversions can overflow or underflow;
/// widening ones (f16 -> f32, ...) and f16 -> bf16 never do.
struct ConvertStats {
  uint64_t overflowed = 0;        ///< finite inputs that became +-inf
  uint64_t underflowedToZero = 0; ///< nonzero finite inputs that became +-0
  uint64_t nans = 0;              ///< NaN inputs (NaN results: quiet
                                  ///< unless from == to)

  ConvertStats &operator+=(const ConvertStats &o) {
    overflowed += o.overflowed;
    underflowedToZero += o.underflowedToZero;
    nans += o.nans;
    return *this;
  }
};

/// "auto", "scalar", "avx2".
const char *isaName(ConvertOptions::Isa isa);
/// Parses an isaName.
Expected<ConvertOptions::Isa> parseIsa(const std::string &name);
/// True when `isa` can run on this CPU (Auto and Scalar always can).
bool isaAvailable(ConvertOptions::Isa isa);
/// The path Auto picks on this CPU (Avx2 or Scalar).
ConvertOptions::Isa autoIsa();
/// The number of threads convert() would use for `n` elements from `from`
/// to `to` with `threads` requested (at least 1).
unsigned convertThreads(size_t n, ScalarType from, ScalarType to,
                        unsigned threads);

/// Converts `n` elements at `src` (type `from`) into `dst` (type `to`),
/// each rounded to nearest, ties to even, directly from its source value:
///   - subnormal inputs and results are exact / correctly rounded whatever
///     the caller's MXCSR says (FTZ, DAZ, rounding mode are saved, set and
///     restored around the SIMD code);
///   - finite values too large become +-inf (counted as overflowed), nonzero
///     values too small become +-0 (counted as underflowedToZero), zeros keep
///     their sign, infinities stay infinite;
///   - a NaN becomes a quiet NaN of the same sign keeping the top payload
///     bits that fit; `from == to` is a plain copy (NaNs bit for bit).
/// Any alignment. The Scalar and Avx2 paths give identical bits for every
/// input, whatever the thread count. `stats` (may be null) is reset, then
/// filled on success.
///
/// Errors (InvalidArgument unless said, `dst` untouched): `from` or `to` not
/// one of f64/f32/f16/bf16; a null `src` or `dst` with n > 0; n times an
/// element size, or an end address, overflowing; overlapping source and
/// destination bytes (any overlap, even the same array); an unknown Isa;
/// Unsupported: Avx2 forced on a CPU without AVX2/F16C, or a non-x86 build.
Status convert(const void *src, ScalarType from, void *dst, ScalarType to,
               size_t n, const ConvertOptions &opt = {},
               ConvertStats *stats = nullptr);

} // namespace approx::rt::precision

#endif // APPROX_RUNTIME_PRECISION_HOSTCONVERT_H
