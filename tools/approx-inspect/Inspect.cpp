//===- Inspect.cpp - approx-inspect's fingerprint and measurements --------===//
//
// Timing: host conversion by steady_clock around convert() (stats on, as
// the transfer engine runs it); device conversion by CUDA events around one
// DeviceConverter launch (counting on); plain transfers by the engine's
// CUDA-event time of the one copy (TransferResult::deviceMs); pipelined
// transfers by the engine's wall time of the whole call
// (TransferResult::totalMs). Each point is the median of at least three
// timed repetitions after an untimed one (none for sizes from 256 MiB up
// whose table already ran a smaller size: its buffers are warm), repeated
// up to a cap while the point has taken less than a minimum time.
//
//===----------------------------------------------------------------------===//
#include "Inspect.h"

#include "Driver.h"

#include "approx/runtime/core/Text.h"
#include "approx/runtime/precision/DeviceConvert.h"
#include "approx/runtime/precision/HostConvert.h"
#include "approx/runtime/precision/Transfer.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

namespace approx::inspect {

using namespace approx::rt;
using namespace approx::rt::precision;
using Clock = std::chrono::steady_clock;

static constexpr uint64_t kMinSize = uint64_t(64) << 10;

//===----------------------------------------------------------------------===//
// Names, pairs, sizes
//===----------------------------------------------------------------------===//

std::string pairName(const Pair &p) {
  return std::string(scalarTypeName(p.from)) + "->" + scalarTypeName(p.to);
}

std::vector<Pair> defaultPairs() {
  using S = ScalarType;
  std::vector<Pair> narrow = {{S::F64, S::F32},
                              {S::F64, S::F16},
                              {S::F64, S::BF16},
                              {S::F32, S::F16},
                              {S::F32, S::BF16}};
  std::vector<Pair> all = narrow;
  for (const Pair &p : narrow)
    all.push_back({p.to, p.from});
  return all;
}

Expected<std::vector<Pair>> parsePairs(const std::string &text) {
  std::vector<Pair> out;
  std::stringstream ss(text);
  std::string item;
  if (text.empty())
    return invalidArgument("empty list of pairs (expected FROM:TO,...)");
  while (std::getline(ss, item, ',')) {
    size_t colon = item.find(':');
    if (colon == std::string::npos)
      return invalidArgument("pair " + quote(item) +
                             " is not FROM:TO (e.g. f64:f16)");
    Expected<ScalarType> f = parsePrecision(item.substr(0, colon));
    Expected<ScalarType> t = parsePrecision(item.substr(colon + 1));
    if (!f || !t)
      return invalidArgument(
          "pair " + quote(item) + ": " +
          (!f ? quote(item.substr(0, colon)) : quote(item.substr(colon + 1))) +
          " is not a precision (f64, f32, f16, bf16)");
    if (*f == *t)
      return invalidArgument("pair " + quote(item) +
                             " converts a type to itself");
    Pair p{*f, *t};
    if (std::find(out.begin(), out.end(), p) == out.end())
      out.push_back(p);
  }
  if (text.back() == ',')
    return invalidArgument("pair list " + quote(text) + " ends with ','");
  return out;
}

std::vector<uint64_t> inspectSizes(uint64_t maxBytes) {
  std::vector<uint64_t> s;
  for (uint64_t b = kMinSize; b <= maxBytes; b *= 4)
    s.push_back(b);
  return s;
}

std::vector<unsigned> defaultThreads(unsigned cores) {
  std::vector<unsigned> t;
  for (unsigned k = 1; k < cores; k *= 2)
    t.push_back(k);
  t.push_back(std::max(1u, cores));
  return t;
}

std::string sizeName(uint64_t b) {
  static const char *const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  uint64_t v = b;
  while (u < 4 && v >= 1024 && v % 1024 == 0) {
    v /= 1024;
    ++u;
  }
  return std::to_string(v) + " " + kUnits[u];
}

//===----------------------------------------------------------------------===//
// Fingerprint
//===----------------------------------------------------------------------===//

static std::string readSmallFile(const std::string &path, bool &ok) {
  std::ifstream in(path);
  ok = bool(in);
  if (!ok)
    return "";
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

static std::string trimmed(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

int pcieGenFromSpeed(const std::string &text) {
  // "32.0 GT/s PCIe" (newer kernels), "32 GT/s" or "32.0 GT/s" (older).
  char *end = nullptr;
  std::string t = trimmed(text);
  double gts = std::strtod(t.c_str(), &end);
  if (end == t.c_str())
    return 0;
  static const double kSpeeds[] = {2.5, 5, 8, 16, 32, 64, 128};
  for (int g = 0; g < 7; ++g)
    if (std::fabs(gts - kSpeeds[g]) < 1e-6)
      return g + 1;
  return 0;
}

std::string driverFromProcVersion(const std::string &text) {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar ..."
  // or "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15
  // Release Build ...": the first token of digits and dots with a dot.
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("NVRM version:", 0) != 0)
      continue;
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
      bool digitsDots = !w.empty() && std::isdigit((unsigned char)w[0]);
      for (char c : w)
        digitsDots = digitsDots && (std::isdigit((unsigned char)c) || c == '.');
      if (digitsDots && w.find('.') != std::string::npos)
        return w;
    }
  }
  return "";
}

GpuInfo gpuFingerprint(const Context &ctx, const LogFn &warn) {
  const detail::Driver *drv = detail::driverOf(ctx);
  const CUdevice dev = ctx.impl().device;
  GpuInfo g;
  g.name = ctx.device().name.empty() ? "unknown" : ctx.device().name;

  g.uuid = ctx.device().uuid; // Context::create reads it
  if (g.uuid.empty()) {
    g.uuid = "unknown";
    warn("warning: the CUDA driver did not give the GPU's UUID "
         "(cuDeviceGetUuid); it is recorded as 'unknown'");
  }

  bool ok = false;
  std::string v =
      driverFromProcVersion(readSmallFile("/proc/driver/nvidia/version", ok));
  if (!v.empty())
    g.driver = v;
  else
    // The kernel module's version is not readable (a container without
    // /proc/driver/nvidia): the driver API version stands in for it.
    g.driver = "cuda-api-" + std::to_string(ctx.device().driverVersion);

  int dom = -1, bus = -1, devno = -1;
  if (drv->cuDeviceGetAttribute(&dom, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, dev) !=
          CUDA_SUCCESS ||
      drv->cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, dev) !=
          CUDA_SUCCESS ||
      drv->cuDeviceGetAttribute(&devno, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID,
                                dev) != CUDA_SUCCESS ||
      dom < 0 || bus < 0 || devno < 0) {
    warn("warning: the driver does not give GPU " +
         std::to_string(ctx.device().ordinal) +
         "'s PCI address: PCIe link recorded as generation 0, width 0");
    return g;
  }
  char id[32];
  std::snprintf(id, sizeof id, "%04x:%02x:%02x.0", unsigned(dom), unsigned(bus),
                unsigned(devno));
  const std::string dir = std::string("/sys/bus/pci/devices/") + id + "/";
  bool okSpeed = false, okWidth = false;
  std::string speed = readSmallFile(dir + "max_link_speed", okSpeed);
  std::string width = trimmed(readSmallFile(dir + "max_link_width", okWidth));
  g.pcieGen = okSpeed ? pcieGenFromSpeed(speed) : 0;
  char *end = nullptr;
  long w = okWidth ? std::strtol(width.c_str(), &end, 10) : 0;
  g.pcieWidth =
      (okWidth && end && *end == '\0' && w > 0 && w <= 32) ? int(w) : 0;
  if (g.pcieGen == 0)
    warn("warning: cannot read the maximum PCIe link speed of GPU " +
         std::string(id) + " (" + dir + "max_link_speed" +
         (okSpeed ? ": " + quote(trimmed(speed)) + " is not a PCIe speed"
                  : ": not readable") +
         "): recorded as generation 0");
  if (g.pcieWidth == 0)
    warn(
        "warning: cannot read the maximum PCIe link width of GPU " +
        std::string(id) + " (" + dir + "max_link_width" +
        (okWidth ? ": " + quote(width) + " is not a width" : ": not readable") +
        "): recorded as width 0");
  return g;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

namespace {

/// Page-aligned ordinary host memory, touched once (so no measurement pays
/// its first page faults).
struct HostBuf {
  unsigned char *p = nullptr;
  size_t bytes = 0;
  ~HostBuf() { std::free(p); }
  Status allocate(size_t n, const char *what) {
    size_t rounded = (n + 4095) / 4096 * 4096;
    p = static_cast<unsigned char *>(std::aligned_alloc(4096, rounded));
    if (!p)
      return Status(StatusCode::OutOfMemory,
                    std::string("cannot allocate the ") + what + " of " +
                        sizeName(n) + " (host memory)");
    bytes = n;
    std::memset(p, 0, n);
    return Status::ok();
  }
};

/// Page-locked host memory (cuMemHostAlloc).
struct PinnedBuf {
  const detail::Driver *drv = nullptr;
  void *p = nullptr;
  ~PinnedBuf() {
    if (p)
      drv->cuMemFreeHost(p);
  }
  Status allocate(const detail::Driver *d, size_t n) {
    drv = d;
    CUresult r = drv->cuMemHostAlloc(&p, n, 0);
    if (r != CUDA_SUCCESS) {
      p = nullptr;
      return drv->error(r, "cuMemHostAlloc")
          .withContext("pinned transfer buffer of " + sizeName(n));
    }
    std::memset(p, 0, n);
    return Status::ok();
  }
};

/// Two CUDA events for timing on the legacy stream.
struct EventPair {
  const detail::Driver *drv = nullptr;
  CUevent start = nullptr, stop = nullptr;
  ~EventPair() {
    if (start)
      drv->cuEventDestroy(start);
    if (stop)
      drv->cuEventDestroy(stop);
  }
  Status create(const detail::Driver *d) {
    drv = d;
    APPROX_CU_RETURN_IF_ERROR(drv, cuEventCreate, &start, CU_EVENT_DEFAULT);
    APPROX_CU_RETURN_IF_ERROR(drv, cuEventCreate, &stop, CU_EVENT_DEFAULT);
    return Status::ok();
  }
};

enum class Kind { Host, Device, Transfer, Pipelined };

/// One table of the database, measured size by size.
struct Series {
  Kind kind = Kind::Host;
  Pair pair;
  unsigned threads = 0;
  Direction dir = Direction::H2D;
  HostMemory mem = HostMemory::Pinned;
  Where where = Where::Host;
  uint64_t chunk = 0; ///< source bytes
  std::string label;
  bool dead = false;      ///< dropped by the budget from this size on
  uint64_t lastBytes = 0; ///< the last measured size
  double lastSeconds = 0; ///< its median seconds per repetition

  bool appliesTo(uint64_t size) const {
    return kind != Kind::Pipelined || size >= 4 * chunk;
  }
};

struct Reps {
  int warmup = 1, minReps = 3, maxReps = 21;
  double minSeconds = 0.02;
};

/// Median seconds of `once`, per `r`.
Expected<double> measure(const std::function<Expected<double>()> &once,
                         const Reps &r, bool verbose, const LogFn &log) {
  for (int i = 0; i < r.warmup; ++i) {
    Expected<double> t = once();
    if (!t)
      return t.status();
  }
  std::vector<double> s;
  double total = 0;
  while (int(s.size()) < r.minReps ||
         (total < r.minSeconds && int(s.size()) < r.maxReps)) {
    Expected<double> t = once();
    if (!t)
      return t.status();
    s.push_back(std::max(*t, 1e-9));
    total += *t;
  }
  std::vector<double> sorted = s;
  std::sort(sorted.begin(), sorted.end());
  double med =
      sorted.size() % 2
          ? sorted[sorted.size() / 2]
          : 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);
  if (verbose) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "    %zu timed repetition(s) after %d warm-up: median "
                  "%.4f ms, min %.4f ms, max %.4f ms",
                  s.size(), r.warmup, med * 1e3, sorted.front() * 1e3,
                  sorted.back() * 1e3);
    log(buf);
  }
  return med;
}

/// Fills `bytes` of `dst` with values of `t` uniform in [-1000, 1000] (no
/// overflow in any target, few zeros: the conversions' common case).
Status fillSource(unsigned char *dst, ScalarType t, size_t bytes) {
  static const size_t kPattern = size_t(1) << 20;
  std::vector<double> vals(kPattern / 8);
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1000, 1000);
  for (double &v : vals)
    v = u(rng);
  const size_t es = scalarTypeSize(t);
  const size_t patBytes = std::min(bytes, vals.size() * es);
  ConvertOptions one;
  one.threads = 1;
  if (t == ScalarType::F64)
    std::memcpy(dst, vals.data(), patBytes);
  else
    APPROX_RETURN_IF_ERROR(
        convert(vals.data(), ScalarType::F64, dst, t, patBytes / es, one));
  for (size_t done = patBytes; done < bytes;) {
    size_t k = std::min(done, bytes - done);
    std::memcpy(dst + done, dst, k);
    done += k;
  }
  return Status::ok();
}

BufferView view(const DeviceBuffer &b, ScalarType t, size_t bytes) {
  return BufferView{b.devicePtr(), bytes, ValueType(t)};
}

std::string gbpsText(double g) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB/s", g);
  return buf;
}

} // namespace

//===----------------------------------------------------------------------===//
// Measuring
//===----------------------------------------------------------------------===//

Status inspect(const std::shared_ptr<Context> &ctx, const InspectOptions &opt,
               SystemDb &db, InspectReport &report, const LogFn &progress,
               const LogFn &warn) {
  const Clock::time_point t0 = Clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  const std::vector<Pair> pairs =
      opt.pairs.empty() ? defaultPairs() : opt.pairs;
  const std::vector<uint64_t> sizes = inspectSizes(opt.maxBytes);
  if (sizes.empty())
    return invalidArgument("no size to measure: --max-bytes is below 64 KiB");
  const uint64_t maxBytes = sizes.back();
  const detail::Driver *drv = detail::driverOf(*ctx);
  APPROX_RETURN_IF_ERROR(ctx->makeCurrent());

  // --- the tables, grouped by the type their source buffer holds --------
  std::vector<Series> series;
  size_t ratio = 1; // largest destination / source element size
  for (const Pair &p : pairs)
    ratio = std::max(ratio, scalarTypeSize(p.to) / scalarTypeSize(p.from));
  for (ScalarType src :
       {ScalarType::F64, ScalarType::F32, ScalarType::F16, ScalarType::BF16}) {
    for (const Pair &p : pairs) {
      if (p.from != src)
        continue;
      for (unsigned t : opt.threads) {
        Series s;
        s.kind = Kind::Host;
        s.pair = p;
        s.threads = t;
        s.label = "host " + pairName(p) + " " + std::to_string(t) +
                  (t == 1 ? " thread" : " threads");
        series.push_back(s);
      }
      Series d;
      d.kind = Kind::Device;
      d.pair = p;
      d.label = "device " + pairName(p);
      series.push_back(d);
      // Narrowing (or same-width) pairs go host -> device, widening ones
      // come back.
      Direction dir = scalarTypeSize(p.from) >= scalarTypeSize(p.to)
                          ? Direction::H2D
                          : Direction::D2H;
      for (Where w : {Where::Host, Where::Device})
        for (uint64_t c : opt.chunks) {
          Series s;
          s.kind = Kind::Pipelined;
          s.pair = p;
          s.dir = dir;
          s.where = w;
          s.threads = w == Where::Host ? opt.pipelineThreads : 0;
          s.chunk = c;
          s.label =
              std::string("pipelined ") + directionName(dir) + " " +
              pairName(p) + " on the " + whereName(w) +
              (w == Where::Host ? " (" + std::to_string(s.threads) + " threads)"
                                : std::string()) +
              ", chunk " + sizeName(c);
          series.push_back(s);
        }
    }
  }
  for (Direction d : {Direction::H2D, Direction::D2H})
    for (HostMemory m : {HostMemory::Pinned, HostMemory::Pageable}) {
      Series s;
      s.kind = Kind::Transfer;
      s.dir = d;
      s.mem = m;
      s.label =
          std::string("transfer ") + directionName(d) + " " + hostMemoryName(m);
      series.push_back(s);
    }
  size_t total = 0;
  for (uint64_t b : sizes)
    for (const Series &s : series)
      total += s.appliesTo(b);

  // --- buffers, allocated once for the largest size ---------------------
  HostBuf hostSrc, hostDst;
  APPROX_RETURN_IF_ERROR(hostSrc.allocate(maxBytes, "source array"));
  APPROX_RETURN_IF_ERROR(
      hostDst.allocate(maxBytes * ratio, "destination array"));
  PinnedBuf pinned;
  APPROX_RETURN_IF_ERROR(pinned.allocate(drv, maxBytes));
  APPROX_ASSIGN_OR_RETURN(
      DeviceBuffer devSrc,
      DeviceBuffer::allocate(ctx, maxBytes, ValueType(ScalarType::F32)));
  APPROX_ASSIGN_OR_RETURN(DeviceBuffer devDst,
                          DeviceBuffer::allocate(ctx, maxBytes * ratio,
                                                 ValueType(ScalarType::F32)));
  APPROX_ASSIGN_OR_RETURN(DeviceBuffer counters,
                          DeviceBuffer::allocate(ctx, kDeviceCounterBytes,
                                                 ValueType(ScalarType::I64)));
  APPROX_RETURN_IF_ERROR(counters.fillBytes(0));
  APPROX_ASSIGN_OR_RETURN(std::unique_ptr<TransferEngine> engine,
                          TransferEngine::create(ctx));
  EventPair ev;
  APPROX_RETURN_IF_ERROR(ev.create(drv));
  DeviceConverter &conv = engine->converter();

  const int width = int(std::to_string(total).size());
  size_t done = 0;
  auto skipMsg = [&](uint64_t b) {
    ++report.skipped;
    if (report.firstSkipped == 0 || b < report.firstSkipped)
      report.firstSkipped = b;
  };

  for (uint64_t size : sizes) {
    ScalarType filled = ScalarType::I8; // nothing yet
    for (Series &s : series) {
      if (!s.appliesTo(size))
        continue;
      ++done;
      Reps reps;
      if (opt.quick) {
        reps.maxReps = 9;
        reps.minSeconds = 0.005;
      }
      // Big sizes of a table already measured smaller: its buffers are
      // warm, the repetitions are long; no untimed run.
      if (size >= (uint64_t(256) << 20) && s.lastBytes)
        reps.warmup = 0;
      if (s.dead) {
        skipMsg(size);
        continue;
      }
      if (s.lastBytes) {
        double perRep = s.lastSeconds * double(size) / double(s.lastBytes);
        int n = std::max(
            reps.minReps,
            std::min(reps.maxReps, int(std::ceil(reps.minSeconds / perRep))));
        if (elapsed() + perRep * (n + reps.warmup) > opt.maxSeconds) {
          s.dead = true;
          skipMsg(size);
          continue;
        }
      } else if (elapsed() > opt.maxSeconds) {
        s.dead = true;
        skipMsg(size);
        continue;
      }

      const ScalarType from = s.pair.from, to = s.pair.to;
      const size_t sf = scalarTypeSize(from), st = scalarTypeSize(to);
      const size_t n = size / sf;
      if (s.kind != Kind::Transfer && filled != from) {
        APPROX_RETURN_IF_ERROR(fillSource(hostSrc.p, from, size));
        APPROX_RETURN_IF_ERROR(devSrc.copyFromHost(hostSrc.p, size));
        filled = from;
      }

      std::function<Expected<double>()> once;
      double counted = double(n) * double(sf + st);
      switch (s.kind) {
      case Kind::Host:
        once = [&]() -> Expected<double> {
          ConvertOptions co;
          co.threads = s.threads;
          ConvertStats stats;
          Clock::time_point c0 = Clock::now();
          APPROX_RETURN_IF_ERROR(
              convert(hostSrc.p, from, hostDst.p, to, n, co, &stats));
          return std::chrono::duration<double>(Clock::now() - c0).count();
        };
        break;
      case Kind::Device:
        once = [&]() -> Expected<double> {
          APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord, ev.start, nullptr);
          APPROX_RETURN_IF_ERROR(conv.enqueue(devSrc.devicePtr(), from,
                                              devDst.devicePtr(), to, n,
                                              nullptr, counters.devicePtr()));
          APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord, ev.stop, nullptr);
          APPROX_CU_RETURN_IF_ERROR(drv, cuEventSynchronize, ev.stop);
          float ms = 0;
          APPROX_CU_RETURN_IF_ERROR(drv, cuEventElapsedTime, &ms, ev.start,
                                    ev.stop);
          return double(ms) * 1e-3;
        };
        break;
      case Kind::Transfer:
        counted = double(size);
        once = [&]() -> Expected<double> {
          const size_t words = size / 4;
          unsigned char *h =
              s.mem == HostMemory::Pinned
                  ? static_cast<unsigned char *>(pinned.p)
                  : (s.dir == Direction::H2D ? hostSrc.p : hostDst.p);
          TransferResult r;
          if (s.dir == Direction::H2D)
            APPROX_RETURN_IF_ERROR(engine->toDevice(
                h, ScalarType::F32, view(devSrc, ScalarType::F32, size),
                ScalarType::F32, words, TransferPlan::copy(), &r));
          else
            APPROX_RETURN_IF_ERROR(engine->toHost(
                view(devDst, ScalarType::F32, size), ScalarType::F32, h,
                ScalarType::F32, words, TransferPlan::copy(), &r));
          return r.deviceMs * 1e-3;
        };
        break;
      case Kind::Pipelined:
        once = [&]() -> Expected<double> {
          // The table's chunk counts source bytes; the plan's counts bytes
          // of the host array, which is the destination on the way back.
          size_t hostChunk = s.dir == Direction::H2D
                                 ? size_t(s.chunk)
                                 : size_t(s.chunk / sf * st);
          TransferPlan plan = TransferPlan::pipelined(
              hostChunk, s.threads,
              s.where == Where::Host ? ConvertSide::Host : ConvertSide::Device);
          TransferResult r;
          if (s.dir == Direction::H2D)
            APPROX_RETURN_IF_ERROR(engine->toDevice(
                hostSrc.p, from, view(devDst, to, n * st), to, n, plan, &r));
          else
            APPROX_RETURN_IF_ERROR(engine->toHost(
                view(devSrc, from, n * sf), from, hostDst.p, to, n, plan, &r));
          return r.totalMs * 1e-3;
        };
        break;
      }

      Expected<double> sec = measure(once, reps, opt.verbose, warn);
      if (!sec)
        return sec.status().withContext(s.label + " at " + sizeName(size));
      const double gbps = counted / *sec / 1e9;
      Status add;
      switch (s.kind) {
      case Kind::Host:
        add = db.addHostConvert(from, to, s.threads, size, gbps);
        break;
      case Kind::Device:
        add = db.addDeviceConvert(from, to, size, gbps);
        break;
      case Kind::Transfer:
        add = db.addTransfer(s.dir, s.mem, size, gbps);
        break;
      case Kind::Pipelined:
        add = db.addPipelined(s.dir, from, to, s.where, s.threads, s.chunk,
                              size, gbps);
        break;
      }
      APPROX_RETURN_IF_ERROR(add);
      s.lastBytes = size;
      s.lastSeconds = *sec;
      ++report.measured;
      char head[32];
      std::snprintf(head, sizeof head, "[%*zu/%zu] ", width, done, total);
      progress(head + s.label + " " + sizeName(size) + ": " + gbpsText(gbps));
    }
  }
  // Staging and scratch go before the buffers they were sized after.
  APPROX_RETURN_IF_ERROR(engine->release());
  report.seconds = elapsed();
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Summary
//===----------------------------------------------------------------------===//

std::string summaryTable(const SystemDb &db, const std::vector<Pair> &pairs,
                         const std::vector<uint64_t> &sizes) {
  std::string out;
  char buf[256];
  for (const Pair &p : pairs) {
    const bool h2d = scalarTypeSize(p.from) >= scalarTypeSize(p.to);
    const Direction d = h2d ? Direction::H2D : Direction::D2H;
    // The object is declared in the host's type and stored in the device's.
    const ScalarType declared = h2d ? p.from : p.to;
    const ScalarType stored = h2d ? p.to : p.from;
    std::snprintf(buf, sizeof buf,
                  "\n%s %s (host %s, device %s): predicted ms per move "
                  "(source size; program array pageable, staging pinned)\n",
                  h2d ? "H2D" : "D2H", pairName(p).c_str(),
                  scalarTypeName(declared), scalarTypeName(stored));
    out += buf;
    std::snprintf(buf, sizeof buf, "%10s %12s %18s %12s %24s  %s\n", "size",
                  "host-single", "host-multi", "device", "pipelined", "best");
    out += buf;
    std::vector<unsigned> threads = db.hostThreads(p.from, p.to);
    std::vector<const PipelinedTable *> pipes =
        db.pipelinedFor(d, p.from, p.to);
    for (uint64_t size : sizes) {
      const uint64_t n = size / scalarTypeSize(p.from);
      auto predict = [&](const Method &m) -> double {
        Expected<double> s = db.predictMove(declared, stored, d, n, m);
        return s ? *s * 1e3 : -1;
      };
      double single = predict(Method::host(1));
      double multi = -1;
      unsigned multiT = 0;
      for (unsigned t : threads) {
        if (t < 2)
          continue;
        double x = predict(Method::host(t));
        if (x >= 0 && (multi < 0 || x < multi)) {
          multi = x;
          multiT = t;
        }
      }
      double device = predict(Method::device());
      double pipe = -1;
      const PipelinedTable *pipeBest = nullptr;
      for (const PipelinedTable *t : pipes) {
        double x =
            predict(Method::pipelined(t->where, t->threads, t->chunkBytes));
        if (x >= 0 && (pipe < 0 || x < pipe)) {
          pipe = x;
          pipeBest = t;
        }
      }
      auto cell = [](double ms, const std::string &note) {
        if (ms < 0)
          return std::string("-");
        char b[64];
        std::snprintf(b, sizeof b, "%.3f%s", ms, note.c_str());
        return std::string(b);
      };
      std::string pipeNote;
      if (pipeBest)
        pipeNote = std::string(" (") +
                   (pipeBest->where == Where::Host ? "host" : "dev") + "," +
                   sizeName(pipeBest->chunkBytes) + ")";
      const char *best = "-";
      double bestMs = -1;
      auto consider = [&](double ms, const char *name) {
        if (ms >= 0 && (bestMs < 0 || ms < bestMs)) {
          bestMs = ms;
          best = name;
        }
      };
      consider(single, "host-single");
      consider(multi, "host-multi");
      consider(device, "device");
      consider(pipe, "pipelined");
      std::snprintf(
          buf, sizeof buf, "%10s %12s %18s %12s %24s  %s\n",
          sizeName(size).c_str(), cell(single, "").c_str(),
          cell(multi, multiT ? " (t=" + std::to_string(multiT) + ")" : "")
              .c_str(),
          cell(device, "").c_str(), cell(pipe, pipeNote).c_str(), best);
      out += buf;
    }
  }
  return out;
}

} // namespace approx::inspect
