//===- HostConvert.cpp - checked, threaded array conversion ---------------===//
//
// convert(): checks its arguments, picks the code path (Kernels.h), splits
// the array into one chunk per thread (chunk starts aligned to 64
// elements, at least kMinBytesPerThread each), converts each chunk on a
// persistent pool thread (WorkerPool.h) or the caller, each chunk in
// L1-sized blocks. When stats are wanted, each block is counted by class
// (inf, zero, NaN) while still in cache. Conversion maps inf to inf, zero to
// zero and NaN to NaN, and never makes a NaN of a number, so: the NaNs in
// are the NaNs out; a narrowing pair's overflows are the result's
// infinities minus the source's, and its underflows likewise with zeros.
// The result (the narrower array) is counted first, and the source only
// for a block whose result holds an infinity or a zero; a pair that cannot
// lose range counts only its source's NaNs.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/HostConvert.h"

#include "Kernels.h"
#include "WorkerPool.h"
#include "approx/runtime/core/Text.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <functional>
#include <thread>
#include <vector>

namespace approx::rt::precision {

using namespace detail;

namespace {

/// Elements per block: the widest pair's block (f64 -> f32: 24 KiB) stays in
/// L1 between its conversion and its class counts.
constexpr size_t kBlock = 2048;
/// Chunk starts are multiples of this many elements (128 bytes of f16 and
/// more of the others), so that threads do not share destination cache
/// lines when the arrays are line-aligned.
constexpr size_t kChunkAlign = 64;
/// No more threads than this, whatever is asked.
constexpr unsigned kMaxThreads = 256;
/// A conversion writing at least this many bytes uses the table's
/// streaming (non-temporal) kernel where it has one (Kernels.h): an array
/// this large does not stay in cache for the program anyway.
constexpr size_t kStreamMinBytes = size_t(4) << 20;

/// The table index of a precision, or -1.
int fmtIndex(ScalarType t) {
  switch (t) {
  case ScalarType::F64:
    return kF64;
  case ScalarType::F32:
    return kF32;
  case ScalarType::F16:
    return kF16;
  case ScalarType::BF16:
    return kBF16;
  default:
    return -1;
  }
}

/// The type's name, also for a value outside the enum.
std::string typeName(ScalarType t) {
  const std::string name = scalarTypeName(t);
  return name == "?" ? "#" + std::to_string(int(t)) : name;
}

/// "0x..." for an error message.
std::string hex(const void *p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#" PRIxPTR, reinterpret_cast<uintptr_t>(p));
  return buf;
}

/// Pairs that can overflow or underflow: the target's range (largest finite
/// value, least subnormal) does not hold every source value. f16 -> bf16 and
/// the widening pairs cannot.
bool canLoseRange(int from, int to) {
  return (from == kF64 && to != kF64) ||
         (from == kF32 && (to == kF16 || to == kBF16)) ||
         (from == kBF16 && to == kF16);
}

/// One convert() call, as its chunks see it.
struct Job {
  const KernelTable *kernels;
  ConvertFn fn; ///< kernels->convert or ->stream of the pair
  int from, to;
  const unsigned char *src;
  unsigned char *dst;
  bool stats;     ///< ConvertStats wanted
  bool loseRange; ///< canLoseRange(from, to)
};

/// Converts elements [begin, end) of the job, adding to `st` when stats
/// are wanted.
void runChunk(const Job &job, size_t begin, size_t end, ConvertStats &st) {
  const size_t sb = kFmtBytes[job.from], db = kFmtBytes[job.to];
  const ConvertFn fn = job.fn;
  if (!job.stats) {
    fn(job.src + begin * sb, job.dst + begin * db, end - begin);
    return;
  }
  const CountFn countIn = job.kernels->count[job.from];
  const CountFn countOut = job.kernels->count[job.to];
  for (size_t i = begin; i < end; i += kBlock) {
    const size_t len = std::min(kBlock, end - i);
    const unsigned char *s = job.src + i * sb;
    unsigned char *d = job.dst + i * db;
    fn(s, d, len);
    if (!job.loseRange) {
      ClassCounts in;
      countIn(s, len, in);
      st.nans += in.nan;
      continue;
    }
    ClassCounts out;
    countOut(d, len, out);
    st.nans += out.nan;
    if (out.inf || out.zero) {
      ClassCounts in;
      countIn(s, len, in);
      st.overflowed += out.inf - in.inf;
      st.underflowedToZero += out.zero - in.zero;
    }
  }
}

} // namespace

Expected<ScalarType> parsePrecision(const std::string &name) {
  Expected<ScalarType> t = parseScalarType(name);
  if (!t || !isFloatType(*t))
    return invalidArgument("unknown precision " + quote(name) +
                           " (expected f64, f32, f16 or bf16)");
  return t;
}

const char *isaName(ConvertOptions::Isa isa) {
  switch (isa) {
  case ConvertOptions::Auto:
    return "auto";
  case ConvertOptions::Scalar:
    return "scalar";
  case ConvertOptions::Avx2:
    return "avx2";
  }
  return "?";
}

Expected<ConvertOptions::Isa> parseIsa(const std::string &name) {
  for (ConvertOptions::Isa isa :
       {ConvertOptions::Auto, ConvertOptions::Scalar, ConvertOptions::Avx2})
    if (name == isaName(isa))
      return isa;
  return invalidArgument("unknown isa " + quote(name) +
                         " (expected auto, scalar or avx2)");
}

bool isaAvailable(ConvertOptions::Isa isa) {
  switch (isa) {
  case ConvertOptions::Auto:
  case ConvertOptions::Scalar:
    return true;
  case ConvertOptions::Avx2:
    return avx2Kernels() && cpuHasAvx2F16c();
  }
  return false;
}

ConvertOptions::Isa autoIsa() {
  return isaAvailable(ConvertOptions::Avx2) ? ConvertOptions::Avx2
                                            : ConvertOptions::Scalar;
}

unsigned convertThreads(size_t n, ScalarType from, ScalarType to,
                        unsigned threads) {
  const int f = fmtIndex(from), t = fmtIndex(to);
  if (f < 0 || t < 0)
    return 1;
  unsigned want =
      threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  want = std::min(want, kMaxThreads);
  const size_t elemBytes = std::max(kFmtBytes[f], kFmtBytes[t]);
  const size_t byWork =
      std::max<size_t>(1, n / (kMinBytesPerThread / elemBytes));
  return unsigned(std::min<size_t>(want, byWork));
}

Status convert(const void *src, ScalarType from, void *dst, ScalarType to,
               size_t n, const ConvertOptions &opt, ConvertStats *stats) {
  if (stats)
    *stats = ConvertStats();
  const int f = fmtIndex(from), t = fmtIndex(to);
  if (f < 0)
    return invalidArgument("convert: source type " + typeName(from) +
                           " is not a precision (f64, f32, f16, bf16)");
  if (t < 0)
    return invalidArgument("convert: destination type " + typeName(to) +
                           " is not a precision (f64, f32, f16, bf16)");

  const KernelTable *kernels = nullptr;
  switch (opt.isa) {
  case ConvertOptions::Auto:
    kernels =
        autoIsa() == ConvertOptions::Avx2 ? avx2Kernels() : &scalarKernels();
    break;
  case ConvertOptions::Scalar:
    kernels = &scalarKernels();
    break;
  case ConvertOptions::Avx2:
    if (!avx2Kernels())
      return Status(StatusCode::Unsupported,
                    "convert: isa avx2 is not built for this target "
                    "(x86-64 with GCC or Clang only)");
    if (!cpuHasAvx2F16c())
      return Status(StatusCode::Unsupported,
                    "convert: isa avx2 forced, but this CPU lacks AVX2 or "
                    "F16C");
    kernels = avx2Kernels();
    break;
  }
  if (!kernels)
    return invalidArgument("convert: unknown isa " +
                           std::to_string(int(opt.isa)));

  if (n == 0)
    return Status::ok();
  const std::string count = std::to_string(n);
  if (!src)
    return invalidArgument("convert: null source pointer for " + count +
                           " elements");
  if (!dst)
    return invalidArgument("convert: null destination pointer for " + count +
                           " elements");
  const size_t sb = kFmtBytes[f], db = kFmtBytes[t];
  constexpr size_t kMax = std::numeric_limits<size_t>::max();
  if (n > kMax / sb)
    return invalidArgument("convert: " + count + " elements of " +
                           typeName(from) + " overflow size_t");
  if (n > kMax / db)
    return invalidArgument("convert: " + count + " elements of " +
                           typeName(to) + " overflow size_t");
  const uintptr_t s0 = reinterpret_cast<uintptr_t>(src);
  const uintptr_t d0 = reinterpret_cast<uintptr_t>(dst);
  const size_t sBytes = n * sb, dBytes = n * db;
  if (s0 > std::numeric_limits<uintptr_t>::max() - sBytes)
    return invalidArgument("convert: " + std::to_string(sBytes) +
                           " source bytes at " + hex(src) +
                           " wrap around the address space");
  if (d0 > std::numeric_limits<uintptr_t>::max() - dBytes)
    return invalidArgument("convert: " + std::to_string(dBytes) +
                           " destination bytes at " + hex(dst) +
                           " wrap around the address space");
  if (s0 < d0 + dBytes && d0 < s0 + sBytes)
    return invalidArgument("convert: source (" + std::to_string(sBytes) +
                           " bytes at " + hex(src) + ") and destination (" +
                           std::to_string(dBytes) + " bytes at " + hex(dst) +
                           ") overlap");

  const ConvertFn streamFn = kernels->stream[f][t];
  const Job job{kernels,
                streamFn && dBytes >= kStreamMinBytes ? streamFn
                                                      : kernels->convert[f][t],
                f,
                t,
                static_cast<const unsigned char *>(src),
                static_cast<unsigned char *>(dst),
                stats != nullptr,
                canLoseRange(f, t)};
  const unsigned threads = convertThreads(n, from, to, opt.threads);
  // Chunks of a multiple of kChunkAlign elements; at most `threads` of them.
  size_t chunk = (n + threads - 1) / threads;
  chunk = (chunk + kChunkAlign - 1) / kChunkAlign * kChunkAlign;
  const size_t chunks = (n + chunk - 1) / chunk;
  std::vector<ConvertStats> perChunk(chunks);
  auto run = [&](size_t c) {
    runChunk(job, c * chunk, std::min(n, (c + 1) * chunk), perChunk[c]);
  };

  // Persistent pool threads (WorkerPool.h): a pipelined transfer calls this
  // once per chunk, and starting threads per call would dominate it.
  parallelChunks(chunks, threads, run);

  if (stats)
    for (const ConvertStats &c : perChunk)
      *stats += c;
  return Status::ok();
}

} // namespace approx::rt::precision
