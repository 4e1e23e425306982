//===- Transfer.cpp - host <-> device transfers with conversion -----------===//
//
// TransferEngine: checks everything first, allocates (or reuses) what the
// method needs, then runs it. The unchunked methods use synchronous copies
// on the legacy default stream (the kernels too), so they need no event
// logic; Pipelined uses the engine's two blocking streams:
//
//   to the device, host conversion: for chunk i in slot s = i % slots, wait
//     for the copy that last read slot s (event), convert into it, enqueue
//     its async copy on the copy stream, record copyDone[s]. The host
//     converts chunk i+1 while chunk i crosses the bus.
//   to the device, device conversion: wait for slot s's last copy, memcpy
//     the user's chunk into pinned slot s (so the copy is truly async), the
//     copy stream waits for the kernel that last read scratch slot s, copies
//     into it, records copyDone[s]; the compute stream waits for that and
//     converts scratch slot s into the destination, records kernelDone[s].
//   to the host, host conversion: `slots` async copies in flight; wait for
//     chunk i's, convert it from pinned slot s into the user's array, then
//     enqueue chunk i + slots into the freed slot.
//   to the host, device conversion: the compute stream converts chunk i
//     into scratch slot s (after the copy that last read it), the copy
//     stream copies it to pinned slot s (after the kernel); the host waits
//     and memcpys it out, then enqueues chunk i + slots.
//
// Device timing: events recorded on the legacy stream before the first and
// after the last device operation; blocking streams order with it, so the
// span covers every copy and kernel of the call. Every path ends by waiting
// for both streams, errors included (a scope guard), so nothing is in
// flight on user memory when a call returns.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/Transfer.h"

#include "Driver.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>

namespace approx::rt::precision {

using detail::Driver;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string typeName(ScalarType t) {
  const std::string name = scalarTypeName(t);
  return name == "?" ? "#" + std::to_string(int(t)) : name;
}

/// "64 MiB", "1.5 KiB", "100 bytes".
std::string humanBytes(uint64_t b) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = double(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[48];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%" PRIu64 " bytes", b);
  else if (v == double(uint64_t(v)))
    std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string hexAddr(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#" PRIx64, v);
  return buf;
}

/// Owns one CUevent.
class RawEvent {
public:
  RawEvent() = default;
  RawEvent(RawEvent &&o) noexcept : drv_(o.drv_), ev_(o.ev_) { o.ev_ = nullptr; }
  RawEvent &operator=(RawEvent &&) = delete;
  RawEvent(const RawEvent &) = delete;
  ~RawEvent() {
    if (ev_)
      drv_->cuEventDestroy(ev_);
  }
  Status create(const Driver *drv) {
    drv_ = drv;
    APPROX_CU_RETURN_IF_ERROR(drv_, cuEventCreate, &ev_, CU_EVENT_DEFAULT);
    return Status::ok();
  }
  CUevent get() const { return ev_; }

private:
  const Driver *drv_ = nullptr;
  CUevent ev_ = nullptr;
};

/// Runs `f` on scope exit.
template <typename F> struct OnExit {
  F f;
  ~OnExit() { f(); }
};
template <typename F> OnExit(F) -> OnExit<F>;

/// The method a transfer runs: the plan's, but between equal types a plain
/// copy, except for the host methods, which then copy through their staging
/// buffer (a staged copy: the control that measures what pinned staging
/// alone gains, with no narrowing).
TransferMethod methodRun(const TransferPlan &plan, ScalarType hostType,
                         ScalarType deviceType) {
  if (hostType != deviceType || plan.method == TransferMethod::HostSingle ||
      plan.method == TransferMethod::HostMulti)
    return plan.method;
  return TransferMethod::Copy;
}

} // namespace

//===----------------------------------------------------------------------===//
// Names and plans
//===----------------------------------------------------------------------===//

const char *transferMethodName(TransferMethod m) {
  switch (m) {
  case TransferMethod::Copy:
    return "copy";
  case TransferMethod::HostSingle:
    return "host-single";
  case TransferMethod::HostMulti:
    return "host-multi";
  case TransferMethod::Device:
    return "device";
  case TransferMethod::Transient:
    return "transient";
  case TransferMethod::Pipelined:
    return "pipelined";
  }
  return "?";
}

const char *convertSideName(ConvertSide s) {
  switch (s) {
  case ConvertSide::Host:
    return "host";
  case ConvertSide::Device:
    return "device";
  }
  return "?";
}

TransferPlan TransferPlan::copy() {
  TransferPlan p;
  p.method = TransferMethod::Copy;
  return p;
}
TransferPlan TransferPlan::hostSingle() {
  TransferPlan p;
  p.method = TransferMethod::HostSingle;
  p.threads = 1;
  return p;
}
TransferPlan TransferPlan::hostMulti(unsigned threads) {
  TransferPlan p;
  p.method = TransferMethod::HostMulti;
  p.threads = threads;
  return p;
}
TransferPlan TransferPlan::device() {
  TransferPlan p;
  p.method = TransferMethod::Device;
  return p;
}
TransferPlan TransferPlan::transient(ScalarType intermediate,
                                     unsigned threads) {
  TransferPlan p;
  p.method = TransferMethod::Transient;
  p.intermediate = intermediate;
  p.threads = threads;
  return p;
}
TransferPlan TransferPlan::pipelined(size_t chunkBytes, unsigned threads,
                                     ConvertSide where) {
  TransferPlan p;
  p.method = TransferMethod::Pipelined;
  p.chunkBytes = chunkBytes;
  p.threads = threads;
  p.where = where;
  return p;
}

std::string describePlan(const TransferPlan &p) {
  std::string s = transferMethodName(p.method);
  switch (p.method) {
  case TransferMethod::HostMulti:
    s += "(threads=" + std::to_string(p.threads) + ")";
    break;
  case TransferMethod::Transient:
    s += "(intermediate=" + typeName(p.intermediate) +
         ", threads=" + std::to_string(p.threads) + ")";
    break;
  case TransferMethod::Pipelined:
    s += "(chunk=" + std::to_string(p.chunkBytes) +
         ", slots=" + std::to_string(p.slots) +
         ", where=" + convertSideName(p.where) +
         ", threads=" + std::to_string(p.threads) + ")";
    break;
  default:
    break;
  }
  if (!p.pinned)
    s += " pageable";
  return s;
}

//===----------------------------------------------------------------------===//
// Owned resources
//===----------------------------------------------------------------------===//

/// A page-locked host buffer (cuMemHostAlloc), grown on demand.
struct TransferEngine::Pinned {
  const Driver *drv = nullptr;
  std::shared_ptr<Context> ctx;
  unsigned char *ptr = nullptr;
  size_t bytes = 0;

  ~Pinned() { (void)free(); }
  Status free() {
    if (!ptr)
      return Status::ok();
    void *p = ptr;
    ptr = nullptr;
    bytes = 0;
    Status current = ctx->makeCurrent();
    APPROX_CU_RETURN_IF_ERROR(drv, cuMemFreeHost, p);
    return current;
  }
  Status reserve(size_t want) {
    if (want <= bytes)
      return Status::ok();
    APPROX_RETURN_IF_ERROR(free());
    APPROX_RETURN_IF_ERROR(ctx->makeCurrent());
    void *p = nullptr;
    CUresult r = drv->cuMemHostAlloc(&p, want, 0);
    if (r != CUDA_SUCCESS)
      return drv->error(r, "cuMemHostAlloc")
          .withContext("pinned staging buffer of " + humanBytes(want));
    ptr = static_cast<unsigned char *>(p);
    bytes = want;
    return Status::ok();
  }
};

/// Events: per slot, and the two timing events.
struct TransferEngine::Events {
  std::vector<RawEvent> copyDone, kernelDone;
  RawEvent start, stop;
};

Expected<std::unique_ptr<TransferEngine>>
TransferEngine::create(std::shared_ptr<Context> ctx) {
  if (!ctx)
    return invalidArgument("TransferEngine: null context");
  std::unique_ptr<TransferEngine> e(new TransferEngine());
  e->ctx_ = ctx;
  APPROX_ASSIGN_OR_RETURN(e->converter_, DeviceConverter::forContext(ctx));
  APPROX_ASSIGN_OR_RETURN(e->copy_, Stream::create(ctx));
  APPROX_ASSIGN_OR_RETURN(e->compute_, Stream::create(ctx));
  APPROX_ASSIGN_OR_RETURN(
      e->counters_,
      DeviceBuffer::allocate(ctx, kDeviceCounterBytes, ScalarType::I64));
  e->pinned_ = std::make_unique<Pinned>();
  e->pinned_->drv = detail::driverOf(*ctx);
  e->pinned_->ctx = ctx;
  e->events_ = std::make_unique<Events>();
  const Driver *drv = detail::driverOf(*ctx);
  APPROX_RETURN_IF_ERROR(e->events_->start.create(drv));
  APPROX_RETURN_IF_ERROR(e->events_->stop.create(drv));
  return e;
}

TransferEngine::~TransferEngine() {
  // Nothing can be in flight after a call returns, but be safe: staging
  // must outlive any copy that reads it.
  if (ctx_)
    (void)syncStreams();
}

Status TransferEngine::syncStreams() {
  Status a = copy_.empty() ? Status::ok() : copy_.synchronize();
  Status b = compute_.empty() ? Status::ok() : compute_.synchronize();
  return a.isOk() ? b : a;
}

Status TransferEngine::release() {
  APPROX_RETURN_IF_ERROR(syncStreams());
  Status p = pinned_->free();
  Status s = scratch_.free();
  std::vector<unsigned char>().swap(pageable_);
  return p.isOk() ? s : p;
}

size_t TransferEngine::pinnedBytes() const {
  return pinned_ ? pinned_->bytes : 0;
}

Expected<unsigned char *> TransferEngine::staging(size_t bytes, bool pinned) {
  if (pinned) {
    APPROX_RETURN_IF_ERROR(pinned_->reserve(bytes));
    return pinned_->ptr;
  }
  if (pageable_.size() < bytes) {
    try {
      std::vector<unsigned char>().swap(pageable_);
      pageable_.resize(bytes);
    } catch (const std::bad_alloc &) {
      return Status(StatusCode::OutOfMemory,
                    "pageable staging buffer of " + humanBytes(bytes) +
                        ": out of host memory");
    }
  }
  return pageable_.data();
}

Status TransferEngine::reserveScratch(size_t bytes) {
  if (scratch_.bytes() >= bytes)
    return Status::ok();
  APPROX_RETURN_IF_ERROR(scratch_.free());
  Expected<DeviceBuffer> b = DeviceBuffer::allocate(ctx_, bytes, ScalarType::I8);
  if (!b)
    return b.status().withContext("device scratch of " + humanBytes(bytes));
  scratch_ = b.take();
  return Status::ok();
}

namespace {
/// A pipelined transfer's chunks and staging slots, as runPipelined() uses
/// them and reserve() allocates them. Pinned slots hold the converted chunk
/// (host conversion) or the raw host-type chunk (device conversion); device
/// scratch slots hold the host-type chunk on the device (device conversion
/// only).
struct PipelineShape {
  size_t chunkElems, chunks, slots, slotBytes;
  bool onHost;
};

Expected<PipelineShape> pipelineShape(size_t n, size_t hs, size_t ds,
                                      const TransferPlan &plan) {
  PipelineShape p;
  p.chunkElems = plan.chunkBytes / hs;
  p.chunks = (n + p.chunkElems - 1) / p.chunkElems;
  p.slots = std::min<size_t>(plan.slots, p.chunks);
  p.onHost = plan.where == ConvertSide::Host;
  p.slotBytes = p.chunkElems * (p.onHost ? ds : hs);
  if (p.slots > std::numeric_limits<size_t>::max() / p.slotBytes)
    return invalidArgument("pipelined: " + std::to_string(p.slots) +
                           " slots of " + std::to_string(p.slotBytes) +
                           " bytes overflow size_t");
  return p;
}
} // namespace

Status TransferEngine::reserve(ScalarType hostType, ScalarType deviceType,
                               size_t n, const TransferPlan &plan) {
  // The types and the plan as check() sees them (n = 0: no addresses).
  APPROX_RETURN_IF_ERROR(
      check(true, nullptr, hostType, BufferView{}, deviceType, 0, plan));
  if (n > size_t(std::numeric_limits<int64_t>::max()) / 8)
    return invalidArgument("reserve: " + std::to_string(n) +
                           " elements exceed 2^63 / 8");
  const TransferMethod method = methodRun(plan, hostType, deviceType);
  if (n == 0 || method == TransferMethod::Copy)
    return Status::ok(); // a plain copy: nothing to allocate
  const size_t hs = scalarTypeSize(hostType), ds = scalarTypeSize(deviceType);
  switch (method) {
  case TransferMethod::Copy:
    return Status::ok();
  case TransferMethod::HostSingle:
  case TransferMethod::HostMulti:
    return staging(n * ds, plan.pinned).status();
  case TransferMethod::Device:
    return reserveScratch(n * hs);
  case TransferMethod::Transient: {
    const size_t ms = scalarTypeSize(plan.intermediate);
    APPROX_RETURN_IF_ERROR(staging(n * ms, plan.pinned).status());
    return reserveScratch(n * ms);
  }
  case TransferMethod::Pipelined: {
    APPROX_ASSIGN_OR_RETURN(PipelineShape p, pipelineShape(n, hs, ds, plan));
    APPROX_RETURN_IF_ERROR(staging(p.slots * p.slotBytes, true).status());
    return p.onHost ? Status::ok() : reserveScratch(p.slots * p.slotBytes);
  }
  }
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

Status TransferEngine::check(bool toDevice, const void *host,
                             ScalarType hostType, BufferView device,
                             ScalarType deviceType, size_t n,
                             const TransferPlan &plan) {
  const char *dir = toDevice ? "transfer to device" : "transfer to host";
  auto fail = [&](const std::string &m) {
    return invalidArgument(std::string(dir) + ": " + m);
  };
  if (!isPrecision(hostType))
    return fail("host type " + typeName(hostType) +
                " is not a precision (f64, f32, f16, bf16)");
  if (!isPrecision(deviceType))
    return fail("device type " + typeName(deviceType) +
                " is not a precision (f64, f32, f16, bf16)");
  const size_t hs = scalarTypeSize(hostType), ds = scalarTypeSize(deviceType);

  // The plan.
  switch (plan.method) {
  case TransferMethod::Copy:
    if (hostType != deviceType)
      return fail("method copy between " + typeName(hostType) + " and " +
                  typeName(deviceType) +
                  ": the types differ (pick a conversion method)");
    break;
  case TransferMethod::HostSingle:
  case TransferMethod::HostMulti:
  case TransferMethod::Device:
    break;
  case TransferMethod::Transient:
    if (!isPrecision(plan.intermediate))
      return fail("transient: intermediate type " +
                  typeName(plan.intermediate) +
                  " is not a precision (f64, f32, f16, bf16)");
    if (hostType != deviceType &&
        (plan.intermediate == hostType || plan.intermediate == deviceType))
      return fail("transient: intermediate " + typeName(plan.intermediate) +
                  " equals the " +
                  (plan.intermediate == hostType ? "host" : "device") +
                  " type (that is method " +
                  (plan.intermediate == hostType ? "device" : "host-multi") +
                  ")");
    break;
  case TransferMethod::Pipelined:
    if (plan.where != ConvertSide::Host && plan.where != ConvertSide::Device)
      return fail("pipelined: unknown conversion side " +
                  std::to_string(int(plan.where)));
    if (plan.chunkBytes == 0)
      return fail("pipelined: chunk size 0");
    if (plan.chunkBytes % hs || plan.chunkBytes % ds)
      return fail("pipelined: chunk of " + std::to_string(plan.chunkBytes) +
                  " bytes is not a multiple of the element sizes (" +
                  typeName(hostType) + ": " + std::to_string(hs) + ", " +
                  typeName(deviceType) + ": " + std::to_string(ds) + ")");
    if (plan.slots < 2 || plan.slots > TransferPlan::kMaxSlots)
      return fail("pipelined: " + std::to_string(plan.slots) +
                  " staging slots (expected 2 to " +
                  std::to_string(TransferPlan::kMaxSlots) + ")");
    if (!plan.pinned)
      return fail("pipelined: needs pinned staging (the plan says pageable)");
    break;
  default:
    return fail("unknown transfer method " +
                std::to_string(int(plan.method)));
  }

  if (n == 0)
    return Status::ok();
  const std::string count = std::to_string(n);
  if (!host)
    return fail("null host pointer for " + count + " elements");
  if (!device.ptr)
    return fail("null device address for " + count + " elements");
  constexpr size_t kMax = std::numeric_limits<size_t>::max();
  for (ScalarType t : {hostType, deviceType, plan.intermediate})
    if (n > kMax / scalarTypeSize(t))
      return fail(count + " elements of " + typeName(t) + " overflow size_t");
  if (n > size_t(std::numeric_limits<int64_t>::max()) / 8)
    return fail(count + " elements exceed 2^63 / 8");
  const size_t hBytes = n * hs, dBytes = n * ds;
  if (reinterpret_cast<uintptr_t>(host) >
      std::numeric_limits<uintptr_t>::max() - hBytes)
    return fail(std::to_string(hBytes) + " host bytes at " +
                hexAddr(reinterpret_cast<uintptr_t>(host)) +
                " wrap around the address space");
  if (device.ptr > std::numeric_limits<uint64_t>::max() - dBytes)
    return fail(std::to_string(dBytes) + " device bytes at " +
                hexAddr(device.ptr) + " wrap around the address space");
  if (!device.elem.isVector() && isPrecision(device.elem.scalar) &&
      device.elem.scalar != deviceType)
    return fail("the device buffer holds " + typeName(device.elem.scalar) +
                ", the transfer says " + typeName(deviceType));
  if (device.bytes < dBytes)
    return fail("device buffer of " + std::to_string(device.bytes) +
                " bytes is too small for " + count + " " +
                typeName(deviceType) + " (" + std::to_string(dBytes) +
                " bytes)");
  if (device.ptr % ds)
    return fail("device address " + hexAddr(device.ptr) +
                " is not aligned to " + std::to_string(ds) + " bytes (" +
                typeName(deviceType) + ")");
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Transfers
//===----------------------------------------------------------------------===//

Status TransferEngine::toDevice(const void *host, ScalarType hostType,
                                BufferView dst, ScalarType deviceType,
                                size_t n, const TransferPlan &plan,
                                TransferResult *result) {
  APPROX_RETURN_IF_ERROR(
      check(true, host, hostType, dst, deviceType, n, plan));
  return run(true, host, nullptr, hostType, dst, deviceType, n, plan,
             result);
}

Status TransferEngine::toHost(BufferView src, ScalarType deviceType,
                              void *host, ScalarType hostType, size_t n,
                              const TransferPlan &plan,
                              TransferResult *result) {
  APPROX_RETURN_IF_ERROR(
      check(false, host, hostType, src, deviceType, n, plan));
  return run(false, nullptr, host, hostType, src, deviceType, n, plan,
             result);
}

Status TransferEngine::run(bool toDevice, const void *hostIn, void *hostOut,
                           ScalarType hostType, BufferView dev,
                           ScalarType deviceType, size_t n,
                           const TransferPlan &plan, TransferResult *result) {
  const Clock::time_point t0 = Clock::now();
  TransferResult r;
  r.method = methodRun(plan, hostType, deviceType);
  if (n == 0) {
    r.totalMs = msSince(t0);
    if (result)
      *result = r;
    return Status::ok();
  }
  const Driver *drv = detail::driverOf(*ctx_);
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  // Whatever happens below, nothing stays in flight.
  OnExit waitAll{[this] { (void)syncStreams(); }};

  const size_t hs = scalarTypeSize(hostType), ds = scalarTypeSize(deviceType);
  ConvertOptions opt;
  opt.isa = plan.isa;
  opt.threads = plan.method == TransferMethod::HostSingle ? 1 : plan.threads;
  // A staged copy converts nothing: no counts, as for a plain copy.
  const bool wantStats = plan.stats && hostType != deviceType;
  // Host conversion, timed and counted.
  auto hostConvert = [&](const void *src, ScalarType from, void *dst,
                         ScalarType to, size_t len, ConvertStats &acc,
                         bool countNans) -> Status {
    const Clock::time_point c0 = Clock::now();
    ConvertStats st;
    APPROX_RETURN_IF_ERROR(
        convert(src, from, dst, to, len, opt, wantStats ? &st : nullptr));
    r.hostConvertMs += msSince(c0);
    acc.overflowed += st.overflowed;
    acc.underflowedToZero += st.underflowedToZero;
    if (countNans)
      acc.nans += st.nans;
    return Status::ok();
  };
  auto zeroCounters = [&]() -> Status {
    return wantStats ? counters_.fillBytes(0) : Status::ok();
  };
  auto readCounters = [&](bool countNans) -> Status {
    if (!wantStats)
      return Status::ok();
    uint64_t c[3] = {0, 0, 0};
    APPROX_RETURN_IF_ERROR(counters_.copyToHost(c, sizeof c));
    if (!countNans)
      c[2] = 0;
    DeviceConverter::addCounters(c, r.stats);
    return Status::ok();
  };
  const uint64_t counters = wantStats ? counters_.devicePtr() : 0;
  Events &ev = *events_;
  auto startTimer = [&]() -> Status {
    APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord, ev.start.get(), nullptr);
    return Status::ok();
  };
  auto stopTimer = [&]() -> Status {
    APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord, ev.stop.get(), nullptr);
    APPROX_CU_RETURN_IF_ERROR(drv, cuEventSynchronize, ev.stop.get());
    float ms = 0;
    APPROX_CU_RETURN_IF_ERROR(drv, cuEventElapsedTime, &ms, ev.start.get(),
                              ev.stop.get());
    r.deviceMs = ms;
    return Status::ok();
  };
  auto h2d = [&](uint64_t d, const void *h, size_t bytes) -> Status {
    APPROX_CU_RETURN_IF_ERROR(drv, cuMemcpyHtoD, d, h, bytes);
    r.busBytes += bytes;
    return Status::ok();
  };
  auto d2h = [&](void *h, uint64_t d, size_t bytes) -> Status {
    APPROX_CU_RETURN_IF_ERROR(drv, cuMemcpyDtoH, h, d, bytes);
    r.busBytes += bytes;
    return Status::ok();
  };
  auto sync = [&]() -> Status {
    APPROX_CU_RETURN_IF_ERROR(drv, cuStreamSynchronize, nullptr);
    return Status::ok();
  };
  r.chunks = 1;

  switch (r.method) {
  case TransferMethod::Copy:
    APPROX_RETURN_IF_ERROR(startTimer());
    if (toDevice)
      APPROX_RETURN_IF_ERROR(h2d(dev.ptr, hostIn, n * ds));
    else
      APPROX_RETURN_IF_ERROR(d2h(hostOut, dev.ptr, n * ds));
    APPROX_RETURN_IF_ERROR(stopTimer());
    break;

  case TransferMethod::HostSingle:
  case TransferMethod::HostMulti: {
    APPROX_ASSIGN_OR_RETURN(unsigned char *stage,
                            staging(n * ds, plan.pinned));
    if (toDevice) {
      APPROX_RETURN_IF_ERROR(
          hostConvert(hostIn, hostType, stage, deviceType, n, r.stats, true));
      APPROX_RETURN_IF_ERROR(startTimer());
      APPROX_RETURN_IF_ERROR(h2d(dev.ptr, stage, n * ds));
      APPROX_RETURN_IF_ERROR(stopTimer());
    } else {
      APPROX_RETURN_IF_ERROR(startTimer());
      APPROX_RETURN_IF_ERROR(d2h(stage, dev.ptr, n * ds));
      APPROX_RETURN_IF_ERROR(stopTimer());
      APPROX_RETURN_IF_ERROR(
          hostConvert(stage, deviceType, hostOut, hostType, n, r.stats, true));
    }
    break;
  }

  case TransferMethod::Device: {
    APPROX_RETURN_IF_ERROR(reserveScratch(n * hs));
    const uint64_t scratch = scratch_.devicePtr();
    APPROX_RETURN_IF_ERROR(zeroCounters());
    APPROX_RETURN_IF_ERROR(startTimer());
    if (toDevice) {
      APPROX_RETURN_IF_ERROR(h2d(scratch, hostIn, n * hs));
      APPROX_RETURN_IF_ERROR(converter_->enqueue(
          scratch, hostType, dev.ptr, deviceType, n, nullptr, counters));
      APPROX_RETURN_IF_ERROR(sync());
    } else {
      APPROX_RETURN_IF_ERROR(converter_->enqueue(
          dev.ptr, deviceType, scratch, hostType, n, nullptr, counters));
      APPROX_RETURN_IF_ERROR(sync());
      APPROX_RETURN_IF_ERROR(d2h(hostOut, scratch, n * hs));
    }
    APPROX_RETURN_IF_ERROR(stopTimer());
    APPROX_RETURN_IF_ERROR(readCounters(true));
    break;
  }

  case TransferMethod::Transient: {
    const ScalarType mid = plan.intermediate;
    const size_t ms = scalarTypeSize(mid);
    APPROX_ASSIGN_OR_RETURN(unsigned char *stage,
                            staging(n * ms, plan.pinned));
    APPROX_RETURN_IF_ERROR(reserveScratch(n * ms));
    const uint64_t scratch = scratch_.devicePtr();
    APPROX_RETURN_IF_ERROR(zeroCounters());
    if (toDevice) {
      // NaNs counted by the first (host) step.
      APPROX_RETURN_IF_ERROR(
          hostConvert(hostIn, hostType, stage, mid, n, r.stats, true));
      APPROX_RETURN_IF_ERROR(startTimer());
      APPROX_RETURN_IF_ERROR(h2d(scratch, stage, n * ms));
      APPROX_RETURN_IF_ERROR(converter_->enqueue(
          scratch, mid, dev.ptr, deviceType, n, nullptr, counters));
      APPROX_RETURN_IF_ERROR(sync());
      APPROX_RETURN_IF_ERROR(stopTimer());
      APPROX_RETURN_IF_ERROR(readCounters(false));
    } else {
      // NaNs counted by the first (device) step.
      APPROX_RETURN_IF_ERROR(startTimer());
      APPROX_RETURN_IF_ERROR(converter_->enqueue(
          dev.ptr, deviceType, scratch, mid, n, nullptr, counters));
      APPROX_RETURN_IF_ERROR(sync());
      APPROX_RETURN_IF_ERROR(d2h(stage, scratch, n * ms));
      APPROX_RETURN_IF_ERROR(stopTimer());
      APPROX_RETURN_IF_ERROR(readCounters(true));
      APPROX_RETURN_IF_ERROR(
          hostConvert(stage, mid, hostOut, hostType, n, r.stats, false));
    }
    break;
  }

  case TransferMethod::Pipelined:
    APPROX_RETURN_IF_ERROR(runPipelined(toDevice, hostIn, hostOut, hostType,
                                        dev, deviceType, n, plan, r));
    break;
  }

  if (!wantStats)
    r.stats = ConvertStats();
  r.totalMs = msSince(t0);
  if (result)
    *result = r;
  return Status::ok();
}

Status TransferEngine::runPipelined(bool toDevice, const void *hostIn,
                                    void *hostOut, ScalarType hostType,
                                    BufferView dev, ScalarType deviceType,
                                    size_t n, const TransferPlan &plan,
                                    TransferResult &r) {
  const Driver *drv = detail::driverOf(*ctx_);
  const size_t hs = scalarTypeSize(hostType), ds = scalarTypeSize(deviceType);
  APPROX_ASSIGN_OR_RETURN(const PipelineShape shape,
                          pipelineShape(n, hs, ds, plan));
  const size_t chunkElems = shape.chunkElems, chunks = shape.chunks,
               slots = shape.slots, slotBytes = shape.slotBytes;
  const bool onHost = shape.onHost;
  APPROX_ASSIGN_OR_RETURN(unsigned char *pinned,
                          staging(slots * slotBytes, true));
  if (!onHost)
    APPROX_RETURN_IF_ERROR(reserveScratch(slots * slotBytes));
  Events &ev = *events_;
  while (ev.copyDone.size() < slots) {
    RawEvent a, b;
    APPROX_RETURN_IF_ERROR(a.create(drv));
    APPROX_RETURN_IF_ERROR(b.create(drv));
    ev.copyDone.push_back(std::move(a));
    ev.kernelDone.push_back(std::move(b));
  }
  const bool wantStats = plan.stats;
  const uint64_t counters = wantStats ? counters_.devicePtr() : 0;
  if (!onHost && wantStats)
    APPROX_RETURN_IF_ERROR(counters_.fillBytes(0));

  ConvertOptions opt;
  opt.isa = plan.isa;
  opt.threads = plan.threads;
  CUstream cs = static_cast<CUstream>(copy_.handle());
  CUstream ks = static_cast<CUstream>(compute_.handle());
  const uint64_t scratch = scratch_.devicePtr();
  auto slotPtr = [&](size_t s) { return pinned + s * slotBytes; };
  auto first = [&](size_t i) { return i * chunkElems; };
  auto len = [&](size_t i) { return std::min(chunkElems, n - i * chunkElems); };
  auto hostConvert = [&](const void *src, ScalarType from, void *dst,
                         ScalarType to, size_t count) -> Status {
    const Clock::time_point c0 = Clock::now();
    ConvertStats st;
    APPROX_RETURN_IF_ERROR(
        convert(src, from, dst, to, count, opt, wantStats ? &st : nullptr));
    r.hostConvertMs += msSince(c0);
    r.stats += st;
    return Status::ok();
  };

  APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord, ev.start.get(), nullptr);
  size_t landed = 0; // elements written to the user's array (to host)
  Status s = [&]() -> Status {
    if (toDevice) {
      const auto *in = static_cast<const unsigned char *>(hostIn);
      for (size_t i = 0; i < chunks; ++i) {
        const size_t slot = i % slots, k = len(i);
        if (i >= slots) // the copy that last read this pinned slot
          APPROX_CU_RETURN_IF_ERROR(drv, cuEventSynchronize,
                                    ev.copyDone[slot].get());
        if (onHost) {
          APPROX_RETURN_IF_ERROR(hostConvert(in + first(i) * hs, hostType,
                                             slotPtr(slot), deviceType, k));
          APPROX_CU_RETURN_IF_ERROR(drv, cuMemcpyHtoDAsync,
                                    dev.ptr + first(i) * ds, slotPtr(slot),
                                    k * ds, cs);
          APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord,
                                    ev.copyDone[slot].get(), cs);
        } else {
          std::memcpy(slotPtr(slot), in + first(i) * hs, k * hs);
          const uint64_t sc = scratch + slot * slotBytes;
          if (i >= slots) // the kernel that last read this scratch slot
            APPROX_CU_RETURN_IF_ERROR(drv, cuStreamWaitEvent, cs,
                                      ev.kernelDone[slot].get(), 0);
          APPROX_CU_RETURN_IF_ERROR(drv, cuMemcpyHtoDAsync, sc,
                                    slotPtr(slot), k * hs, cs);
          APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord,
                                    ev.copyDone[slot].get(), cs);
          APPROX_CU_RETURN_IF_ERROR(drv, cuStreamWaitEvent, ks,
                                    ev.copyDone[slot].get(), 0);
          APPROX_RETURN_IF_ERROR(converter_->enqueue(
              sc, hostType, dev.ptr + first(i) * ds, deviceType, k, &compute_,
              counters));
          APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord,
                                    ev.kernelDone[slot].get(), ks);
        }
        r.busBytes += k * (onHost ? ds : hs);
      }
      return Status::ok();
    }

    auto *out = static_cast<unsigned char *>(hostOut);
    // Enqueues chunk i into its slot (the host has consumed the slot's
    // previous chunk).
    auto issue = [&](size_t i) -> Status {
      const size_t slot = i % slots, k = len(i);
      if (onHost) {
        APPROX_CU_RETURN_IF_ERROR(drv, cuMemcpyDtoHAsync, slotPtr(slot),
                                  dev.ptr + first(i) * ds, k * ds, cs);
      } else {
        const uint64_t sc = scratch + slot * slotBytes;
        if (i >= slots) // the copy that last read this scratch slot
          APPROX_CU_RETURN_IF_ERROR(drv, cuStreamWaitEvent, ks,
                                    ev.copyDone[slot].get(), 0);
        APPROX_RETURN_IF_ERROR(converter_->enqueue(dev.ptr + first(i) * ds,
                                                   deviceType, sc, hostType,
                                                   k, &compute_, counters));
        APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord,
                                  ev.kernelDone[slot].get(), ks);
        APPROX_CU_RETURN_IF_ERROR(drv, cuStreamWaitEvent, cs,
                                  ev.kernelDone[slot].get(), 0);
        APPROX_CU_RETURN_IF_ERROR(drv, cuMemcpyDtoHAsync, slotPtr(slot), sc,
                                  k * hs, cs);
      }
      APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord, ev.copyDone[slot].get(),
                                cs);
      r.busBytes += k * (onHost ? ds : hs);
      return Status::ok();
    };
    for (size_t i = 0; i < slots; ++i)
      APPROX_RETURN_IF_ERROR(issue(i));
    for (size_t i = 0; i < chunks; ++i) {
      const size_t slot = i % slots, k = len(i);
      APPROX_CU_RETURN_IF_ERROR(drv, cuEventSynchronize,
                                ev.copyDone[slot].get());
      if (onHost)
        APPROX_RETURN_IF_ERROR(hostConvert(slotPtr(slot), deviceType,
                                           out + first(i) * hs, hostType, k));
      else
        std::memcpy(out + first(i) * hs, slotPtr(slot), k * hs);
      landed += k;
      if (i + slots < chunks)
        APPROX_RETURN_IF_ERROR(issue(i + slots));
    }
    return Status::ok();
  }();
  if (!s.isOk()) {
    (void)syncStreams();
    if (!toDevice && landed > 0)
      return s.withContext("pipelined transfer to host: " +
                           std::to_string(landed) + " of " +
                           std::to_string(n) + " elements landed");
    return s;
  }
  // The copy stream waits for the compute stream's last kernel; the stop
  // event on the legacy stream waits for both.
  APPROX_RETURN_IF_ERROR(syncStreams());
  APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord, ev.stop.get(), nullptr);
  APPROX_CU_RETURN_IF_ERROR(drv, cuEventSynchronize, ev.stop.get());
  float ms = 0;
  APPROX_CU_RETURN_IF_ERROR(drv, cuEventElapsedTime, &ms, ev.start.get(),
                            ev.stop.get());
  r.deviceMs = ms;
  if (!onHost && wantStats) {
    uint64_t c[3] = {0, 0, 0};
    APPROX_RETURN_IF_ERROR(counters_.copyToHost(c, sizeof c));
    DeviceConverter::addCounters(c, r.stats);
  }
  r.chunks = chunks;
  return Status::ok();
}

} // namespace approx::rt::precision
