//===- Transfer.h - moving arrays between host and GPU, converted -*- C++ -*-===//
//
// Precision scaling moves each memory object between a host array of one
// precision and a device buffer of another (PreScaler, CGO'20, §2.2 and
// Fig. 3; docs/precision.md). Which way of converting is fastest depends on
// the pair, the size and the machine, so every way is here, picked
// explicitly by a TransferPlan (the system inspector times them; the
// decision maker picks one per object):
//
//   Copy        the types are equal: one copy between the device and the
//               user's array (every method but the two host ones does this
//               then);
//   HostSingle  convert on the host, one thread, into a staging buffer
//               (pinned unless the plan says not), then one copy; between
//               equal types a staged copy: the host copies the array into
//               staging (the precision runtime's control for what staging
//               alone gains, Decision.h stagedCopyConfiguration);
//   HostMulti   the same with `threads` host threads (SIMD either way);
//   Device      copy in the source type into device scratch, convert there
//               (to the host: convert on the device, then copy);
//   Transient   the host converts to an `intermediate` type, that is
//               copied, the device converts it to the target (and back the
//               other way): two roundings, see TransferMethod::Transient;
//   Pipelined   chunks of `chunkBytes`, `slots` pinned staging slots, a copy
//               stream and a compute stream with events, so that converting
//               chunk i (on the host, or on the device) overlaps copying its
//               neighbour.
//
// Every conversion is the correctly rounded one of HostConvert.h (host) or
// DeviceConvert.h (device, bit for bit the same), and its losses are
// returned (TransferResult::stats, host and device counts together), so an
// object that overflows f16 is seen, not silently turned into infinities.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_TRANSFER_H
#define APPROX_RUNTIME_PRECISION_TRANSFER_H

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/precision/DeviceConvert.h"
#include "approx/runtime/precision/HostConvert.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace approx::rt::precision {

/// How a transfer converts (the header comment describes each).
enum class TransferMethod {
  Copy,
  HostSingle,
  HostMulti,
  Device,
  /// Host hostType -> intermediate, copy, device intermediate -> deviceType
  /// (the reverse to the host). Each step rounds to nearest even, so the
  /// result is the direct conversion's whenever the first step is exact
  /// (the intermediate holds every value of the source type: f16 -> f32 ->
  /// bf16, f32 -> f64 -> f16, ...) and otherwise may differ from it in the
  /// last place (f64 -> f32 -> f16 rounds twice). Stats are those of the
  /// whole chain: overflowed and underflowedToZero of both steps (the
  /// second step sees only values the first left finite and nonzero), NaNs
  /// once.
  Transient,
  Pipelined,
};

/// Where a pipelined transfer converts.
enum class ConvertSide { Host, Device };

/// "copy", "host-single", "host-multi", "device", "transient", "pipelined".
const char *transferMethodName(TransferMethod m);
/// "host", "device".
const char *convertSideName(ConvertSide s);

/// One transfer's method and its parameters.
struct TransferPlan {
  TransferMethod method = TransferMethod::HostSingle;
  /// Host conversion threads (HostMulti, Transient, Pipelined on the host):
  /// 0 = all cores (ConvertOptions::threads). HostSingle uses 1.
  unsigned threads = 0;
  /// The host conversion's code path.
  ConvertOptions::Isa isa = ConvertOptions::Auto;
  /// Transient: the type copied between host and device; a precision other
  /// than the host's and the device's type.
  ScalarType intermediate = ScalarType::F32;
  /// Pipelined: bytes of the host array per chunk; a positive multiple of
  /// both element sizes (so chunks start on element boundaries of both
  /// arrays).
  size_t chunkBytes = size_t(4) << 20;
  /// Pipelined: where chunks are converted.
  ConvertSide where = ConvertSide::Host;
  /// Pipelined: staging slots (chunks in flight), 2 to kMaxSlots.
  unsigned slots = 2;
  /// Stage in page-locked memory (cuMemHostAlloc), which copies at full bus
  /// speed; false stages in pageable memory (HostSingle, HostMulti,
  /// Transient only; Pipelined needs pinned slots).
  bool pinned = true;
  /// Count overflowed / underflowedToZero / NaNs (host and device).
  bool stats = true;

  static constexpr unsigned kMaxSlots = 16;

  static TransferPlan copy();
  static TransferPlan hostSingle();
  static TransferPlan hostMulti(unsigned threads = 0);
  static TransferPlan device();
  static TransferPlan transient(ScalarType intermediate, unsigned threads = 0);
  static TransferPlan pipelined(size_t chunkBytes, unsigned threads = 0,
                                ConvertSide where = ConvertSide::Host);
};

/// "pipelined(chunk=4194304, slots=2, where=host, threads=0)" and the like.
std::string describePlan(const TransferPlan &plan);

/// What one transfer did and cost (the inspector's timing hook).
struct TransferResult {
  /// Host and device conversion losses together (see TransferMethod for
  /// Transient); zero when the plan asked for no stats, and between equal
  /// types (a plain or staged copy: nothing is converted, NaNs are not
  /// counted).
  ConvertStats stats;
  /// The method that ran: Copy whenever the two types are equal, except
  /// HostSingle and HostMulti, which then copy through staging.
  TransferMethod method = TransferMethod::Copy;
  /// Wall time of the whole call (std::chrono::steady_clock), including
  /// allocations of staging/scratch the engine did not hold yet.
  double totalMs = 0;
  /// CUDA-event time of the device part: between events on the legacy
  /// stream before the first and after the last copy or kernel (for
  /// Pipelined this spans the overlapped pipeline, host waits included).
  /// 0 when n = 0.
  double deviceMs = 0;
  /// Wall time spent in host convert() calls (summed; in a pipeline they
  /// overlap the copies).
  double hostConvertMs = 0;
  /// Chunks moved (1 for the unchunked methods, 0 when n = 0).
  size_t chunks = 0;
  /// Bytes copied across the bus.
  uint64_t busBytes = 0;
};

/// Moves arrays between host and device by a TransferPlan. Owns what the
/// methods need and keeps it for the next transfer: staging buffers
/// (pinned or pageable; grown, never shrunk, until release()), device
/// scratch, a device counter block, a copy and a compute stream, events,
/// and the context's DeviceConverter (the JIT-loaded kernels). One transfer
/// at a time: not thread-safe.
///
/// Argument errors (InvalidArgument, one line, nothing written, checked
/// before anything is allocated): a type that is not a precision, a null
/// host pointer or device address with n > 0, n times an element size or
/// an end address overflowing, a device buffer smaller than n elements or
/// whose float element type differs from the transfer's, a device address
/// not aligned to its element size, a plan that does not fit (Copy between
/// different types, an unknown method or side, an intermediate equal to
/// either end or not a precision, chunkBytes 0 or not a multiple of both
/// element sizes, slots outside [2, kMaxSlots], Pipelined without pinned
/// staging). Allocation failures (a pinned staging buffer: "pinned staging
/// buffer of 64 MiB: cuMemHostAlloc failed: ...") come before anything is
/// written too.
///
/// What "untouched" means for the destination when a driver call fails
/// after the checks and allocations:
///   - to the device: the device buffer may hold some converted elements;
///     the host array is only read;
///   - to the host, HostSingle, HostMulti, Transient: the data is copied
///     into staging first and converted from there into the user's array
///     only once every device operation succeeded, so the user's array is
///     either untouched or completely written;
///   - to the host, Copy and Device: the last operation is one copy into
///     the user's array; if that copy fails (a device fault, sticky anyway)
///     the array may be partly written;
///   - to the host, Pipelined: chunks land in the user's array in order; a
///     failure at chunk k leaves chunks [0, k) converted and the rest
///     untouched, and the error message says how many elements landed.
/// Every path waits for the streams before returning, so no copy is in
/// flight into or out of the user's memory after a call returns.
class TransferEngine {
public:
  /// An engine on `ctx` (loads or shares the context's DeviceConverter and
  /// creates the streams; staging is allocated on first use).
  static Expected<std::unique_ptr<TransferEngine>>
  create(std::shared_ptr<Context> ctx);
  ~TransferEngine(); ///< Waits for its streams, then frees everything.
  TransferEngine(const TransferEngine &) = delete;
  TransferEngine &operator=(const TransferEngine &) = delete;

  /// Converts `n` elements of `hostType` at `host` into `deviceType` at
  /// `dst` (a view of device memory: DeviceBuffer::view(), possibly offset).
  /// `result` (may be null) is filled on success.
  Status toDevice(const void *host, ScalarType hostType, BufferView dst,
                  ScalarType deviceType, size_t n, const TransferPlan &plan,
                  TransferResult *result = nullptr);
  /// Converts `n` elements of `deviceType` at `src` into `hostType` at
  /// `host`. `result` (may be null) is filled on success.
  Status toHost(BufferView src, ScalarType deviceType, void *host,
                ScalarType hostType, size_t n, const TransferPlan &plan,
                TransferResult *result = nullptr);

  /// Checks a transfer's arguments and plan as toDevice/toHost do, without
  /// doing anything (the inspector can pre-validate its grid).
  static Status check(bool toDevice, const void *host, ScalarType hostType,
                      BufferView device, ScalarType deviceType, size_t n,
                      const TransferPlan &plan);

  /// Allocates now what a transfer of `n` elements between `hostType` and
  /// `deviceType` with `plan` would allocate on first use (pinned or
  /// pageable staging, device scratch; the same either way), keeping what
  /// is held already: a caller that times a section (the mgpu hooks) pays
  /// these one-off costs before it, as a steady-state program has. Checks
  /// the plan as check() does; a failed allocation is one error line.
  Status reserve(ScalarType hostType, ScalarType deviceType, size_t n,
                 const TransferPlan &plan);
  /// Frees the staging buffers and the device scratch (after waiting for
  /// the streams); the next transfer allocates again.
  Status release();
  /// Page-locked staging bytes held now.
  size_t pinnedBytes() const;
  /// Pageable staging bytes held now.
  size_t pageableBytes() const { return pageable_.size(); }
  /// Device scratch bytes held now.
  size_t scratchBytes() const { return scratch_.bytes(); }
  const std::shared_ptr<Context> &context() const { return ctx_; }
  /// The conversion kernels this engine launches.
  DeviceConverter &converter() const { return *converter_; }

  struct Pinned; ///< a page-locked buffer (Transfer.cpp)
  struct Events; ///< per-slot and timing events (Transfer.cpp)

private:
  TransferEngine() = default;
  Status run(bool toDevice, const void *hostIn, void *hostOut,
             ScalarType hostType, BufferView dev, ScalarType deviceType,
             size_t n, const TransferPlan &plan, TransferResult *result);
  Status runPipelined(bool toDevice, const void *hostIn, void *hostOut,
                      ScalarType hostType, BufferView dev,
                      ScalarType deviceType, size_t n,
                      const TransferPlan &plan, TransferResult &r);
  Expected<unsigned char *> staging(size_t bytes, bool pinned);
  Status reserveScratch(size_t bytes);
  Status syncStreams();

  std::shared_ptr<Context> ctx_;
  std::shared_ptr<DeviceConverter> converter_;
  Stream copy_, compute_;
  std::unique_ptr<Pinned> pinned_;
  std::vector<unsigned char> pageable_;
  DeviceBuffer scratch_;
  DeviceBuffer counters_;
  std::unique_ptr<Events> events_;
};

} // namespace approx::rt::precision

#endif // APPROX_RUNTIME_PRECISION_TRANSFER_H
