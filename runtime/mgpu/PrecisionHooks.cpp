//===- PrecisionHooks.cpp - precision scaling through the mgpu* calls -----===//
//
// The profile and scale modes of PrecisionHooks.h. Objects are tracked by
// their base address while live (mgpuMemAlloc .. mgpuMemFree) and kept by
// allocation index for the profile. Launches, and copies that convert
// nothing, are timed by CUDA events recorded on the program's own stream,
// resolved at finish(); scale mode converts with a TransferEngine after
// synchronizing the program's stream (the engine uses its own streams) and
// takes its time, as Session does. Scale mode may check its transfers
// against a profile's as they happen (APPROX_PRECISION_EXPECT) and write a
// JSON report at the end (APPROX_PRECISION_REPORT). Either mode may keep
// every object's last device-to-host data and write it as f64 at the end
// (APPROX_PRECISION_OUTPUTS, OutputsFile.h), for approx-scale --exec. The
// run's time (profile total, report wall) is the GPU section's, from the
// first device call to the end of the last (Hooks::Section), not the
// process's: the host work around it does not change with scaling.
//
//===----------------------------------------------------------------------===//
#include "PrecisionHooks.h"

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/precision/Decision.h"
#include "approx/runtime/precision/HostConvert.h"
#include "approx/runtime/precision/OutputsFile.h"
#include "approx/runtime/precision/Session.h"
#include "approx/runtime/precision/SystemDb.h"
#include "approx/runtime/precision/Transfer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

using approx::rt::ArgInfo;
using approx::rt::BufferView;
using approx::rt::Context;
using approx::rt::Expected;
using approx::rt::KernelInfo;
using approx::rt::Manifest;
using approx::rt::ManifestIndex;
using approx::rt::ScalarType;
using approx::rt::Status;
using approx::rt::detail::Driver;
using namespace approx::rt::precision;

namespace approx::mgpu {
namespace {

/// One line naming the call, then abort: the mgpu ABI cannot return an
/// error, and continuing would give a silently wrong profile or scaled run.
[[noreturn]] void fatal(const std::string &call, const std::string &msg) {
  std::fprintf(stderr, "approx-mgpu: precision: %s: %s\n", call.c_str(),
               msg.c_str());
  std::fflush(stderr);
  std::abort();
}

std::string objName(size_t n) { return "obj" + std::to_string(n); }
std::string quote(const std::string &s) { return "'" + s + "'"; }
const char *tyName(ScalarType t) { return approx::rt::scalarTypeName(t); }
std::string hex(uint64_t p) {
  char b[32];
  std::snprintf(b, sizeof(b), "0x%llx", static_cast<unsigned long long>(p));
  return b;
}

enum class Mode { Profile, Scale };

struct Object {
  uint64_t base = 0;
  uint64_t bytes = 0;      ///< the program's size (declared type)
  uint64_t allocBytes = 0; ///< allocated (storage type)
  bool hostShared = false;
  bool live = true;
  std::optional<ScalarType> declared; ///< scale: the configuration's
  std::string declaredAt;             ///< where declared was learned
  const ObjectChoice *choice = nullptr;
  bool pinnedHost = false; ///< first transfer's host side was registered
  bool transferred = false;
  /// APPROX_PRECISION_OUTPUTS: the host bytes (declared type) of the last
  /// device-to-host transfer, read when it completed.
  std::string lastOut;
  bool haveOut = false;
  std::vector<std::string> readBy, writtenBy;
  ScalarType storage() const { return choice ? choice->storage : *declared; }
  bool scaled() const { return choice && choice->storage != choice->declared; }
};

/// A profiled copy or launch: events on the program's stream.
struct Timed {
  CUevent start = nullptr, end = nullptr;
};

/// A copy between host memory and an object: timed by events (profile;
/// scale mode's plain copies) or by the engine (scale mode's conversions).
struct Transfer {
  size_t object;
  Direction direction;
  Timed t;
  double seconds = 0; ///< the engine's time, when `t` has no events
};

struct Kernel {
  std::string name;
  std::vector<Timed> launches;
  std::vector<std::string> ran; ///< the entries launched for it, in order
};

/// Prefix of every difference from the expected transfers (Session's words).
constexpr const char *kDiffer =
    "the program's transfers differ from the profiled run: ";

class Hooks final : public PrecisionHooks {
public:
  Hooks(const Driver *drv, ReportFn report, Mode mode, Manifest manifest,
        std::string manifestPath)
      : drv_(drv), report_(report), mode_(mode),
        manifest_(std::move(manifest)), index_(manifest_),
        manifestPath_(std::move(manifestPath)) {}
  Hooks(const Hooks &) = delete; // index_ points into manifest_
  Hooks &operator=(const Hooks &) = delete;

  std::string out_;
  std::optional<Configuration> config_;
  /// Scale: APPROX_PRECISION_EXPECT's profile (transfers checked as they
  /// happen) and APPROX_PRECISION_REPORT's path (empty: no report).
  std::optional<AppProfile> expect_;
  std::string configPath_, expectPath_, reportPath_;
  /// APPROX_PRECISION_OUTPUTS's path (empty: no outputs file).
  std::string outputsPath_;
  std::shared_ptr<Context> ctx_;
  std::unique_ptr<TransferEngine> engine_;

  void moduleLoaded(CUmodule) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++modules_;
  }

  void moduleUnloading(CUmodule) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (modules_ > 0 && --modules_ > 0)
        return;
    }
    finish("mgpuModuleUnload");
  }

  CUfunction getFunction(CUmodule module, const char *name) override {
    std::lock_guard<std::mutex> lock(mu_);
    std::string entry = name;
    auto [knob, dispatch] = index_.dispatch(name);
    if (!index_.kernel(name) && dispatch && !dispatch->variants.empty())
      entry = dispatch->variants.front();
    CUfunction f = nullptr;
    report_(drv_->cuModuleGetFunction(&f, module, entry.c_str()),
            "cuModuleGetFunction");
    if (f)
      functions_[f] = {module, name};
    return f;
  }

  void launch(CUfunction f, const unsigned grid[3], const unsigned block[3],
              unsigned smem, CUstream stream, void **params,
              void **extra) override {
    std::lock_guard<std::mutex> lock(mu_);
    Section section(*this);
    const char *call = "mgpuLaunchKernel";
    auto fn = functions_.find(f);
    if (fn == functions_.end())
      fatal(call, "a function not obtained through mgpuModuleGetFunction");
    const std::string &name = fn->second.second;
    const std::vector<const KernelInfo *> &candidates =
        index_.candidates(name);
    if (candidates.empty())
      fatal(call, "kernel " + quote(name) + " is not in the manifest " +
                      manifestPath_);
    // The declared types: the kernel itself (approx-precision-variants keeps
    // it, as its own-types variant, so that host launches resolve), or,
    // where a module has only the variants of a logical name, the first
    // (types= puts the own types first).
    const KernelInfo &ref = *candidates.front();
    if (!params)
      fatal(call, "kernel " + quote(name) +
                      ": launched with `extra` instead of kernel parameters");
    (void)extra;

    std::vector<std::optional<ScalarType>> want(ref.args.size());
    std::vector<std::string> what(ref.args.size());
    for (size_t i = 0; i < ref.args.size(); ++i) {
      const ArgInfo &a = ref.args[i];
      if (a.kind != ArgInfo::Kind::Memref)
        continue;
      if (a.firstParam + a.numParams > ref.params.size())
        fatal(call, "kernel " + quote(name) + ": bad manifest parameters");
      uint64_t allocated = 0, aligned = 0;
      std::memcpy(&allocated, params[a.firstParam], sizeof(uint64_t));
      aligned = allocated;
      if (a.abi == ArgInfo::Abi::Descriptor)
        std::memcpy(&aligned, params[a.firstParam + 1], sizeof(uint64_t));
      // Built only where used (an error, an object's first use): this
      // runs for every argument of every launch.
      auto argName = [&] {
        return "kernel " + quote(name) + " argument " + std::to_string(i);
      };
      want[i] = a.type.scalar;
      what[i] = "argument " + std::to_string(i);
      std::optional<size_t> id = find(aligned);
      if (!id)
        continue;
      Object &o = objects_[*id];
      if (aligned != o.base || allocated != o.base)
        fatal(call, argName() + " points into the middle of " + objName(*id) +
                        " (" + hex(aligned) + ", object at " + hex(o.base) +
                        "): only whole objects can be mapped");
      if (a.type.isVector())
        fatal(call, argName() + " is a memref of " + a.type.name() + " on " +
                        objName(*id) + ": vector elements cannot be mapped");
      ScalarType t = a.type.scalar;
      if (!o.declared) {
        o.declared = t;
        o.declaredAt = argName();
      } else if (*o.declared != t) {
        fatal(call, argName() + " passes " + objName(*id) + " as " + tyName(t) +
                        ", but " +
                        (o.declaredAt.empty()
                             ? std::string("the configuration declares it ")
                             : o.declaredAt + " passed it as ") +
                        tyName(*o.declared));
      } else if (o.declaredAt.empty()) {
        o.declaredAt = argName();
      }
      want[i] = o.storage();
      what[i] = objName(*id);
      auto add = [&](std::vector<std::string> &v) {
        if (std::find(v.begin(), v.end(), name) == v.end())
          v.push_back(name);
      };
      if (approx::rt::isRead(a.access))
        add(o.readBy);
      if (a.access == ArgInfo::Access::Write ||
          a.access == ArgInfo::Access::ReadWrite)
        add(o.writtenBy);
    }

    const KernelInfo *chosen = nullptr;
    for (const KernelInfo *c : candidates)
      if (matches(*c, ref, want)) {
        chosen = c;
        break;
      }
    if (!chosen) {
      std::string m = "kernel " + quote(name) +
                      " has no variant whose memref arguments are (";
      bool first = true;
      for (size_t i = 0; i < want.size(); ++i)
        if (want[i]) {
          m += std::string(first ? "" : ", ") + what[i] + ": " +
               tyName(*want[i]);
          first = false;
        }
      m += "); the module has";
      for (size_t c = 0; c < candidates.size(); ++c) {
        m += (c ? ", " : " ") + candidates[c]->name + " (";
        bool f1 = true;
        for (const ArgInfo &a : candidates[c]->args)
          if (a.kind == ArgInfo::Kind::Memref) {
            m += std::string(f1 ? "" : ", ") + a.type.name();
            f1 = false;
          }
        m += ")";
      }
      fatal(call, m + ": compile it with precision-all= covering the "
                      "configuration");
    }
    CUfunction g = function(fn->second.first, chosen->name);
    Timed t = startTimer(stream);
    report_(drv_->cuLaunchKernel(g, grid[0], grid[1], grid[2], block[0],
                                 block[1], block[2], smem, stream, params,
                                 extra),
            "cuLaunchKernel");
    ++launches_;
    stopTimer(t, stream);
    Kernel &k = kernel(name);
    k.launches.push_back(t);
    k.ran.push_back(chosen->name);
  }

  void *alloc(uint64_t bytes, bool hostShared) override {
    std::lock_guard<std::mutex> lock(mu_);
    Section section(*this);
    const size_t n = objects_.size();
    Object o;
    o.bytes = o.allocBytes = bytes;
    o.hostShared = hostShared;
    if (config_)
      if (const ObjectChoice *c = config_->find(objName(n))) {
        o.choice = c;
        o.declared = c->declared;
        if (o.scaled()) {
          const uint64_t ds = approx::rt::scalarTypeSize(c->declared);
          if (hostShared)
            fatal("mgpuMemAlloc",
                  objName(n) + " is host-shared memory (gpu.alloc "
                               "host_shared); the configuration stores it as " +
                      tyName(c->storage) + ", which needs a device buffer");
          if (bytes % ds)
            fatal("mgpuMemAlloc",
                  objName(n) + " has " + std::to_string(bytes) +
                      " bytes, not a whole number of its declared " +
                      tyName(c->declared) + " elements");
          o.allocBytes =
              bytes / ds * approx::rt::scalarTypeSize(c->storage);
        }
      }
    CUdeviceptr p = 0;
    if (hostShared)
      report_(drv_->cuMemAllocManaged(&p, o.allocBytes, CU_MEM_ATTACH_GLOBAL),
              "cuMemAllocManaged");
    else
      report_(drv_->cuMemAlloc(&p, o.allocBytes), "cuMemAlloc");
    o.base = p;
    o.live = p != 0;
    if (p)
      live_[p] = n;
    objects_.push_back(std::move(o));
    return reinterpret_cast<void *>(p);
  }

  void freed(void *ptr) override {
    std::lock_guard<std::mutex> lock(mu_);
    Section section(*this, /*starts=*/false);
    auto it = live_.find(uint64_t(reinterpret_cast<uintptr_t>(ptr)));
    if (it == live_.end())
      return;
    objects_[it->second].live = false;
    live_.erase(it);
  }

  bool memcpy(void *dstP, void *srcP, size_t bytes, CUstream stream) override {
    std::lock_guard<std::mutex> lock(mu_);
    Section section(*this);
    const char *call = "mgpuMemcpy";
    const uint64_t dst = reinterpret_cast<uintptr_t>(dstP);
    const uint64_t src = reinterpret_cast<uintptr_t>(srcP);
    std::optional<size_t> d = find(dst), s = find(src);
    if (!d && !s)
      return false;
    const std::string desc = "copy of " + std::to_string(bytes) +
                             " bytes from " + hex(src) + " to " + hex(dst);
    auto whole = [&](size_t id, uint64_t p) {
      const Object &o = objects_[id];
      if (p != o.base || bytes != o.bytes)
        fatal(call, desc + ": " + objName(id) + " is " +
                        std::to_string(o.bytes) + " bytes at " + hex(o.base) +
                        "; only whole-object copies can be mapped");
    };
    if (d && s) { // device to device: not a transfer
      whole(*d, dst);
      whole(*s, src);
      const Object &od = objects_[*d], &os = objects_[*s];
      if (!od.scaled() && !os.scaled())
        return false;
      if (!od.declared || !os.declared || od.storage() != os.storage() ||
          *od.declared != *os.declared)
        fatal(call, desc + ": " + objName(*s) + " and " + objName(*d) +
                        " are stored in different types");
      report_(drv_->cuMemcpyAsync(od.base, os.base, od.allocBytes, stream),
              "cuMemcpyAsync");
      return true;
    }
    const size_t id = d ? *d : *s;
    const Direction dir = d ? Direction::H2D : Direction::D2H;
    whole(id, d ? dst : src);
    Object &o = objects_[id];
    const uint64_t host = d ? src : dst;
    if (!o.transferred)
      o.pinnedHost = registered(host, bytes);
    o.transferred = true;
    if (mode_ == Mode::Scale && expect_)
      checkNext(call, id, dir, bytes);
    if (mode_ == Mode::Profile || !o.scaled()) {
      Timed t = startTimer(stream);
      report_(drv_->cuMemcpyAsync(dst, src, bytes, stream), "cuMemcpyAsync");
      stopTimer(t, stream);
      transfers_.push_back({id, dir, t});
      if (mode_ == Mode::Scale)
        ++copies_;
      if (dir == Direction::D2H && !outputsPath_.empty()) {
        report_(drv_->cuStreamSynchronize(stream), "cuStreamSynchronize");
        capture(id, dstP, bytes);
      }
      return true;
    }
    const ObjectChoice &c = *o.choice;
    const Method &m = dir == Direction::H2D ? c.h2d : c.d2h;
    const std::string what = std::string(directionName(dir)) + " of " +
                             objName(id) + " (" + tyName(c.declared) +
                             " stored as " + tyName(c.storage) + ")";
    if (m.kind == Method::None)
      fatal(call, what + ": the configuration has no " + directionName(dir) +
                      " method (no such transfer was profiled)");
    Expected<TransferPlan> plan = planFor(m, dir, c.declared, c.storage);
    if (!plan)
      fatal(call, what + ": " + plan.status().message());
    report_(drv_->cuStreamSynchronize(stream), "cuStreamSynchronize");
    const size_t n = size_t(o.bytes / approx::rt::scalarTypeSize(c.declared));
    BufferView view{o.base, size_t(o.allocBytes), c.storage};
    TransferResult r;
    Status st = dir == Direction::H2D
                    ? engine_->toDevice(srcP, c.declared, view, c.storage, n,
                                        *plan, &r)
                    : engine_->toHost(view, c.storage, dstP, c.declared, n,
                                      *plan, &r);
    if (!st)
      fatal(call, what + " by " + m.str() + ": " + st.message());
    ++converted_;
    transfers_.push_back({id, dir, Timed(), r.totalMs / 1e3});
    if (dir == Direction::D2H && !outputsPath_.empty())
      capture(id, dstP, bytes); // toHost has returned: the data is there
    stats_ += r.stats;
    if (r.stats.overflowed) {
      std::fprintf(stderr,
                   "approx-mgpu: precision: %s: %llu values overflowed\n",
                   what.c_str(),
                   static_cast<unsigned long long>(r.stats.overflowed));
      if (std::find(overflowed_.begin(), overflowed_.end(), objName(id)) ==
          overflowed_.end())
        overflowed_.push_back(objName(id));
    }
    return true;
  }

  bool memset(void *dstP, unsigned value, size_t count, unsigned elemBytes,
              CUstream stream) override {
    std::lock_guard<std::mutex> lock(mu_);
    Section section(*this);
    const uint64_t dst = reinterpret_cast<uintptr_t>(dstP);
    std::optional<size_t> id = find(dst);
    if (!id || !objects_[*id].scaled())
      return false;
    const Object &o = objects_[*id];
    const char *call = elemBytes == 2 ? "mgpuMemset16" : "mgpuMemset32";
    if (dst != o.base || count * elemBytes != o.bytes || value != 0)
      fatal(call, "setting " + std::to_string(count) + " x " +
                      std::to_string(elemBytes) + " bytes to " +
                      hex(value) + " at " + hex(dst) + ": " + objName(*id) +
                      " is scaled; only setting all of it to 0 can be mapped");
    report_(drv_->cuMemsetD16Async(o.base, 0, size_t(o.allocBytes / 2), stream),
            "cuMemsetD16Async");
    return true;
  }

  void hostRegistered(void *ptr, uint64_t bytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    registered_[reinterpret_cast<uintptr_t>(ptr)] = bytes;
  }

  void hostUnregistered(void *ptr) override {
    std::lock_guard<std::mutex> lock(mu_);
    registered_.erase(reinterpret_cast<uintptr_t>(ptr));
  }

  void finish(const char *call) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (finished_)
      return;
    finished_ = true;
    if (mode_ == Mode::Profile)
      writeProfile(call);
    else
      summarize(call);
    if (!outputsPath_.empty())
      writeOutputs(call);
  }

  ~Hooks() override {
    if (ctx_) {
      engine_.reset();
      ctx_.reset();
    }
  }

private:
  /// The run's clock spans the program's GPU section: it starts when the
  /// first mgpuMemAlloc, mgpuMemcpy, mgpuMemset* or mgpuLaunchKernel enters
  /// the hooks and ends when the last of those or of mgpuMemFree returns
  /// from them. Host work before the section (initializing inputs) and
  /// after it (a CPU reference, checking) is the same in every
  /// configuration and would only add noise to the comparison of scaled
  /// runs; host work between device calls stays counted (scaling may change
  /// it). An asynchronous copy or launch ends here when it is enqueued; its
  /// completion is counted by a later call of the section that waits for it
  /// (a conversion, an output capture, a free after the program's wait). A
  /// free ends before the caller's cuMemFree (the hook runs before it).
  /// Entered in each of those hooks, under mu_, for the whole call; a free
  /// (`starts` false) only ends it.
  struct Section {
    explicit Section(Hooks &h, bool starts = true) : h(h) {
      if (starts && !h.sectionStart_)
        h.sectionStart_ = std::chrono::steady_clock::now();
    }
    // After everything the hook did, an output capture included: every
    // capture lies inside the section, so runSeconds() subtracts them all.
    ~Section() { h.sectionEnd_ = std::chrono::steady_clock::now(); }
    Section(const Section &) = delete;
    Section &operator=(const Section &) = delete;
    Hooks &h;
  };

  /// APPROX_PRECISION_OUTPUTS: keeps a copy of the `bytes` at `host` that
  /// object `id`'s device-to-host transfer has just written (the program
  /// may reuse or free them before the end). The copy's time is left out of
  /// the run's time (captureSeconds_).
  void capture(size_t id, const void *host, size_t bytes) {
    const auto t0 = std::chrono::steady_clock::now();
    Object &o = objects_[id];
    o.lastOut.assign(static_cast<const char *>(host), bytes);
    o.haveOut = true;
    captureSeconds_ += std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - t0)
                           .count();
  }

  /// Seconds of the GPU section (Section), without the outputs' copies
  /// (all taken inside it); 0 when the program made no device call.
  double runSeconds() const {
    if (!sectionStart_)
      return 0;
    const double s =
        std::chrono::duration<double>(sectionEnd_ - *sectionStart_).count();
    return std::max(0.0, s - captureSeconds_);
  }

  /// Writes APPROX_PRECISION_OUTPUTS (OutputsFile.h): every object read
  /// back whose declared type is a float type, in allocation order, its
  /// last transfer's values widened to f64. Others (integers, objects no
  /// kernel declared) are listed on stderr.
  void writeOutputs(const char *call) {
    std::vector<NamedOutput> outs;
    std::string skipped;
    for (size_t n = 0; n < objects_.size(); ++n) {
      const Object &o = objects_[n];
      if (!o.haveOut)
        continue;
      if (!o.declared || !approx::rt::isFloatType(*o.declared) ||
          o.lastOut.size() % approx::rt::scalarTypeSize(*o.declared)) {
        skipped += " " + objName(n);
        continue;
      }
      NamedOutput out{objName(n), {}};
      const size_t count =
          o.lastOut.size() / approx::rt::scalarTypeSize(*o.declared);
      out.values.resize(count);
      ConvertOptions opt;
      opt.threads = 1;
      Status st = convert(o.lastOut.data(), *o.declared, out.values.data(),
                          ScalarType::F64, count, opt);
      if (!st)
        fatal(call, "outputs of " + objName(n) + ": " + st.message());
      outs.push_back(std::move(out));
    }
    if (!skipped.empty())
      std::fprintf(stderr,
                   "approx-mgpu: precision: outputs not written (no float "
                   "element type known):%s\n",
                   skipped.c_str());
    Status st = writeFileAtomically(outputsPath_, encodeOutputs(outs),
                                    "outputs file");
    if (!st)
      fatal(call, "writing the outputs " + outputsPath_ + ": " + st.message());
    std::fprintf(stderr,
                 "approx-mgpu: precision: outputs of %zu objects written to "
                 "%s\n",
                 outs.size(), outputsPath_.c_str());
  }

  /// The candidate has `ref`'s arguments, with memref element types `want`.
  static bool matches(const KernelInfo &c, const KernelInfo &ref,
                      const std::vector<std::optional<ScalarType>> &want) {
    if (c.args.size() != ref.args.size() || c.params.size() != ref.params.size())
      return false;
    for (size_t i = 0; i < c.args.size(); ++i) {
      const ArgInfo &a = c.args[i], &r = ref.args[i];
      if (a.kind != r.kind || a.firstParam != r.firstParam ||
          a.numParams != r.numParams)
        return false;
      if (a.kind != ArgInfo::Kind::Memref)
        continue;
      if (a.type.isVector() || !want[i] || a.type.scalar != *want[i])
        return false;
    }
    return true;
  }

  std::optional<size_t> find(uint64_t p) const {
    auto it = live_.upper_bound(p);
    if (it == live_.begin())
      return std::nullopt;
    --it;
    // The real allocation only: a scaled object's declared extent beyond
    // its narrower allocation is not ours, and other memory (a host array
    // in the unified address space) can lie there. Found on an H100
    // (2026-11-26): the f32 run's host source matched the object before it.
    const Object &o = objects_[it->second];
    if (p >= o.base && p < o.base + o.allocBytes)
      return it->second;
    return std::nullopt;
  }

  bool registered(uint64_t p, uint64_t bytes) const {
    auto it = registered_.upper_bound(p);
    if (it == registered_.begin())
      return false;
    --it;
    return p >= it->first && p + bytes <= it->first + it->second;
  }

  CUfunction function(CUmodule module, const std::string &name) {
    auto key = std::make_pair(module, name);
    auto it = variants_.find(key);
    if (it != variants_.end())
      return it->second;
    CUfunction f = nullptr;
    CUresult r = drv_->cuModuleGetFunction(&f, module, name.c_str());
    if (r != CUDA_SUCCESS || !f)
      fatal("mgpuLaunchKernel",
            "variant " + quote(name) + " of the manifest is not in the "
                                       "module (cuModuleGetFunction failed)");
    variants_[key] = f;
    return f;
  }

  Kernel &kernel(const std::string &name) {
    for (Kernel &k : kernels_)
      if (k.name == name)
        return k;
    kernels_.push_back({name, {}});
    return kernels_.back();
  }

  Timed startTimer(CUstream stream) {
    Timed t;
    report_(drv_->cuEventCreate(&t.start, CU_EVENT_DEFAULT), "cuEventCreate");
    report_(drv_->cuEventCreate(&t.end, CU_EVENT_DEFAULT), "cuEventCreate");
    if (t.start)
      report_(drv_->cuEventRecord(t.start, stream), "cuEventRecord");
    return t;
  }
  void stopTimer(Timed &t, CUstream stream) {
    if (t.end)
      report_(drv_->cuEventRecord(t.end, stream), "cuEventRecord");
  }
  /// Seconds between the events (0 when they cannot be read); destroys them.
  double seconds(Timed &t) {
    double s = 0;
    if (t.start && t.end &&
        drv_->cuEventSynchronize(t.end) == CUDA_SUCCESS) {
      float ms = 0;
      if (drv_->cuEventElapsedTime(&ms, t.start, t.end) == CUDA_SUCCESS)
        s = double(ms) / 1e3;
    }
    if (t.start)
      drv_->cuEventDestroy(t.start);
    if (t.end)
      drv_->cuEventDestroy(t.end);
    t = Timed();
    return s;
  }

  void writeProfile(const char *call) {
    AppProfile p;
    std::map<size_t, size_t> index; // object -> p.objects
    std::vector<std::string> skipped;
    for (size_t n = 0; n < objects_.size(); ++n) {
      const Object &o = objects_[n];
      if (o.hostShared || !o.declared || !approx::rt::isFloatType(*o.declared)) {
        if (o.transferred)
          skipped.push_back(objName(n));
        continue;
      }
      const uint64_t es = approx::rt::scalarTypeSize(*o.declared);
      if (o.bytes % es)
        fatal(call, objName(n) + " has " + std::to_string(o.bytes) +
                        " bytes, not a whole number of its " +
                        tyName(*o.declared) + " elements (" +
                        o.declaredAt + ")");
      ObjectProfile op;
      op.name = objName(n);
      op.declared = *o.declared;
      op.elements = o.bytes / es;
      op.hostMemory = o.pinnedHost ? HostMemory::Pinned : HostMemory::Pageable;
      op.readBy = o.readBy;
      op.writtenBy = o.writtenBy;
      index[n] = p.objects.size();
      p.objects.push_back(std::move(op));
    }
    for (Transfer &t : transfers_) {
      double s = seconds(t.t);
      auto it = index.find(t.object);
      if (it == index.end())
        continue;
      ObjectProfile &op = p.objects[it->second];
      op.events.push_back({t.direction, s, op.elements});
      p.transfers.push_back(
          transferSignature(t.direction, op.name, op.elements));
    }
    for (Kernel &k : kernels_) {
      KernelProfile kp;
      kp.name = k.name;
      for (Timed &t : k.launches)
        kp.seconds += seconds(t);
      p.kernels.push_back(kp);
    }
    p.totalSeconds = runSeconds();
    if (!skipped.empty()) {
      std::string list;
      for (const std::string &s : skipped)
        list += (list.empty() ? "" : ", ") + s;
      std::fprintf(stderr,
                   "approx-mgpu: precision: not profiled (no kernel took "
                   "them as a float memref): %s\n",
                   list.c_str());
    }
    Status st = saveAppProfile(p, out_);
    if (!st)
      fatal(call, "writing the profile " + out_ + ": " + st.message());
    std::fprintf(stderr,
                 "approx-mgpu: precision: profile of %zu objects, %zu "
                 "kernels, %zu transfers written to %s\n",
                 p.objects.size(), p.kernels.size(), p.transfers.size(),
                 out_.c_str());
  }

  /// Scale with APPROX_PRECISION_EXPECT: the transfer of `bytes` of object
  /// `id` in direction `dir` is the next one of the profile's signature, or
  /// the run aborts. An object the profile does not list is skipped unless
  /// the configuration names it (the profile leaves out objects no launch
  /// took as a float memref, and host-shared ones).
  void checkNext(const char *call, size_t id, Direction dir, uint64_t bytes) {
    const Object &o = objects_[id];
    const std::string name = objName(id);
    const ObjectProfile *p = nullptr;
    for (const ObjectProfile &op : expect_->objects)
      if (op.name == name)
        p = &op;
    if (o.hostShared || (!p && !o.choice))
      return;
    const ScalarType declared = o.declared ? *o.declared : p->declared;
    const std::string sig = transferSignature(
        dir, name, bytes / approx::rt::scalarTypeSize(declared));
    const std::vector<std::string> &want = expect_->transfers;
    const size_t k = expectedNext_++;
    const std::string where = " (APPROX_PRECISION_EXPECT=" + expectPath_ + ")";
    if (k >= want.size())
      fatal(call, kDiffer + std::string("transfer ") + std::to_string(k + 1) +
                      " (" + sig + ") is one more than the profiled run's " +
                      std::to_string(want.size()) + where);
    if (want[k] != sig)
      fatal(call, kDiffer + std::string("transfer ") + std::to_string(k + 1) +
                      " is " + sig + ", the profiled run's was " + want[k] +
                      where);
  }

  void summarize(const char *call) {
    for (const ObjectChoice &c : config_->objects) {
      size_t n = std::strtoull(c.name.c_str() + 3, nullptr, 10);
      if (n >= objects_.size())
        fatal(call, "the configuration names " + c.name +
                        ", but the program allocated " +
                        std::to_string(objects_.size()) + " objects");
    }
    if (expect_ && expectedNext_ < expect_->transfers.size())
      fatal(call, kDiffer + std::string("it made ") +
                      std::to_string(expectedNext_) +
                      " transfers, the profiled run " +
                      std::to_string(expect_->transfers.size()) +
                      " (the next was " + expect_->transfers[expectedNext_] +
                      ") (APPROX_PRECISION_EXPECT=" + expectPath_ + ")");
    // Every event is read (and destroyed) whether or not a report is
    // written.
    double h2d = 0, d2h = 0, kernelSeconds = 0;
    std::vector<ObjectTransferTime> perObject;
    for (Transfer &t : transfers_) {
      const double sec = t.t.start ? seconds(t.t) : t.seconds;
      (t.direction == Direction::H2D ? h2d : d2h) += sec;
      const std::string name = objName(t.object);
      auto it = std::find_if(
          perObject.begin(), perObject.end(),
          [&](const ObjectTransferTime &x) { return x.name == name; });
      if (it == perObject.end())
        it = perObject.insert(it, ObjectTransferTime{name});
      (t.direction == Direction::H2D ? it->h2dSeconds : it->d2hSeconds) += sec;
    }
    nlohmann::json kernels = nlohmann::json::array();
    for (Kernel &k : kernels_) {
      double sec = 0;
      for (Timed &t : k.launches)
        sec += seconds(t);
      kernelSeconds += sec;
      std::vector<std::string> ran;
      for (const std::string &r : k.ran)
        if (std::find(ran.begin(), ran.end(), r) == ran.end())
          ran.push_back(r);
      kernels.push_back({{"name", k.name},
                         {"launches", k.launches.size()},
                         {"seconds", sec},
                         {"ran", ran}});
    }
    const double wall = runSeconds();
    std::string over;
    for (const std::string &s : overflowed_)
      over += " " + s;
    std::fprintf(
        stderr,
        "approx-mgpu: precision: scale: %llu converted transfers, %llu "
        "copies, %llu launches; %llu overflowed, %llu underflowed to zero, "
        "%llu NaNs%s%s\n",
        static_cast<unsigned long long>(converted_),
        static_cast<unsigned long long>(copies_),
        static_cast<unsigned long long>(launches_),
        static_cast<unsigned long long>(stats_.overflowed),
        static_cast<unsigned long long>(stats_.underflowedToZero),
        static_cast<unsigned long long>(stats_.nans),
        over.empty() ? "" : "; overflowed objects:", over.c_str());
    if (reportPath_.empty())
      return;

    nlohmann::json objects = nlohmann::json::array();
    for (const ObjectTransferTime &t : perObject) {
      const Object &o = objects_[std::strtoull(t.name.c_str() + 3, nullptr,
                                               10)];
      nlohmann::json j = {{"name", t.name},
                          {"h2d_seconds", t.h2dSeconds},
                          {"d2h_seconds", t.d2hSeconds}};
      if (o.declared) {
        j["declared"] = tyName(*o.declared);
        j["storage"] = tyName(o.storage());
      }
      if (o.choice) {
        j["h2d"] = o.choice->h2d.str();
        j["d2h"] = o.choice->d2h.str();
      }
      objects.push_back(std::move(j));
    }
    nlohmann::json r = {
        {"format", "approx-mgpu-scale-report"},
        {"version", 1},
        {"manifest", manifestPath_},
        {"configuration", configPath_},
        {"expect", expect_ ? nlohmann::json(expectPath_) : nlohmann::json()},
        {"wall_seconds", wall},
        {"kernel_seconds", kernelSeconds},
        {"h2d_seconds", h2d},
        {"d2h_seconds", d2h},
        {"launches", launches_},
        {"converted_transfers", converted_},
        {"copies", copies_},
        {"kernels", std::move(kernels)},
        {"objects", std::move(objects)},
        {"overflowed", overflowed_},
        {"stats",
         {{"overflowed", stats_.overflowed},
          {"underflowed_to_zero", stats_.underflowedToZero},
          {"nans", stats_.nans}}}};
    Status st = writeFileAtomically(reportPath_, r.dump(1) + "\n",
                                    "scale report");
    if (!st)
      fatal(call, "writing the report " + reportPath_ + ": " + st.message());
    std::fprintf(stderr, "approx-mgpu: precision: scale report written to %s\n",
                 reportPath_.c_str());
  }

  const Driver *drv_;
  ReportFn report_;
  Mode mode_;
  Manifest manifest_;
  ManifestIndex index_; ///< manifest_'s, for every launch
  std::string manifestPath_;
  /// The GPU section (runSeconds()): the first device call's start, unset
  /// until one happens, and the last one's end.
  std::optional<std::chrono::steady_clock::time_point> sectionStart_;
  std::chrono::steady_clock::time_point sectionEnd_;
  std::mutex mu_;
  int modules_ = 0;
  bool finished_ = false;
  std::vector<Object> objects_;
  std::map<uint64_t, size_t> live_;          ///< base -> object
  std::map<uint64_t, uint64_t> registered_;  ///< host-registered ranges
  std::map<CUfunction, std::pair<CUmodule, std::string>> functions_;
  std::map<std::pair<CUmodule, std::string>, CUfunction> variants_;
  std::vector<Transfer> transfers_;
  std::vector<Kernel> kernels_;
  uint64_t launches_ = 0, converted_ = 0, copies_ = 0;
  size_t expectedNext_ = 0; ///< the next transfer of expect_'s signature
  ConvertStats stats_;
  std::vector<std::string> overflowed_;
  double captureSeconds_ = 0; ///< spent keeping outputs (capture()), all
                              ///< inside the section
};

const char *env(const char *name) {
  const char *v = std::getenv(name);
  return v && *v ? v : nullptr;
}

std::unique_ptr<Hooks> fromEnvironment(const Driver *drv, int ordinal,
                                       ReportFn report) {
  const char *modeText = env("APPROX_PRECISION");
  if (!modeText || std::string(modeText) == "plain")
    return nullptr;
  const std::string modeStr = modeText;
  const char *call = "environment";
  if (modeStr != "profile" && modeStr != "scale")
    fatal(call, "APPROX_PRECISION=" + quote(modeStr) +
                    ": expected plain, profile or scale");
  const Mode mode = modeStr == "profile" ? Mode::Profile : Mode::Scale;
  const char *manifestPath = env("APPROX_PRECISION_MANIFEST");
  if (!manifestPath)
    fatal(call, "APPROX_PRECISION=" + modeStr +
                    " needs APPROX_PRECISION_MANIFEST (the manifest "
                    "approx-to-ptx wrote for the program's module)");
  Expected<Manifest> m = approx::rt::loadManifestFile(manifestPath);
  if (!m)
    fatal(call, std::string("APPROX_PRECISION_MANIFEST=") + manifestPath +
                    ": " + m.status().message());
  auto h = std::make_unique<Hooks>(drv, report, mode, std::move(*m),
                                   manifestPath);
  if (mode == Mode::Profile) {
    const char *out = env("APPROX_PRECISION_OUT");
    if (!out)
      fatal(call, "APPROX_PRECISION=profile needs APPROX_PRECISION_OUT (the "
                  "profile file to write)");
    h->out_ = out;
    if (const char *outputs = env("APPROX_PRECISION_OUTPUTS"))
      h->outputsPath_ = outputs;
    for (const char *v : {"APPROX_PRECISION_CONFIG", "APPROX_PRECISION_EXPECT",
                          "APPROX_PRECISION_REPORT"})
      if (env(v))
        fatal(call, std::string(v) + " is for APPROX_PRECISION=scale (a "
                                     "profile run is the plain program)");
    return h;
  }
  const char *cfgPath = env("APPROX_PRECISION_CONFIG");
  if (!cfgPath)
    fatal(call, "APPROX_PRECISION=scale needs APPROX_PRECISION_CONFIG (a "
                "configuration of objects obj<n>)");
  Expected<Configuration> c = loadConfiguration(cfgPath);
  if (!c)
    fatal(call, std::string("APPROX_PRECISION_CONFIG=") + cfgPath + ": " +
                    c.status().message());
  for (const ObjectChoice &o : c->objects) {
    const std::string &n = o.name;
    bool ok = n.size() > 3 && n.size() < 12 && n.compare(0, 3, "obj") == 0 &&
              n.find_first_not_of("0123456789", 3) == std::string::npos &&
              (n.size() == 4 || n[3] != '0');
    if (!ok)
      fatal(call, std::string("APPROX_PRECISION_CONFIG=") + cfgPath +
                      ": object " + quote(n) +
                      " is not named obj<n> (the n-th mgpuMemAlloc)");
  }
  h->config_ = std::move(*c);
  h->configPath_ = cfgPath;
  if (const char *expect = env("APPROX_PRECISION_EXPECT")) {
    Expected<AppProfile> p = loadAppProfile(expect);
    if (!p)
      fatal(call, std::string("APPROX_PRECISION_EXPECT=") + expect + ": " +
                      p.status().message());
    h->expect_ = std::move(*p);
    h->expectPath_ = expect;
  }
  if (const char *report = env("APPROX_PRECISION_REPORT"))
    h->reportPath_ = report;
  if (const char *outputs = env("APPROX_PRECISION_OUTPUTS"))
    h->outputsPath_ = outputs;
  Expected<std::shared_ptr<Context>> ctx =
      approx::rt::detail::createContext(drv, ordinal);
  if (!ctx)
    fatal(call, "scale mode: " + ctx.status().message());
  h->ctx_ = *ctx;
  Expected<std::unique_ptr<TransferEngine>> e = TransferEngine::create(*ctx);
  if (!e)
    fatal(call, "scale mode: the transfer engine: " + e.status().message());
  h->engine_ = std::move(*e);
  // With the profile's sizes, the engine's staging and scratch are taken
  // now, at load, like the module's JIT: the timed section (Section) then
  // sees what a program that has moved its data before sees, and what
  // approx-scale --app measures after its warm-up. Without EXPECT they are
  // taken by the first transfer that needs them, inside the section.
  if (h->expect_)
    for (const ObjectChoice &c : h->config_->objects) {
      auto p = std::find_if(
          h->expect_->objects.begin(), h->expect_->objects.end(),
          [&](const ObjectProfile &o) { return o.name == c.name; });
      if (p == h->expect_->objects.end() || c.storage == c.declared)
        continue;
      for (Direction dir : {Direction::H2D, Direction::D2H}) {
        const Method &m = dir == Direction::H2D ? c.h2d : c.d2h;
        if (m.kind == Method::None)
          continue;
        Expected<TransferPlan> plan = planFor(m, dir, c.declared, c.storage);
        Status st = plan ? h->engine_->reserve(c.declared, c.storage,
                                               size_t(p->elements), *plan)
                         : plan.status();
        if (!st)
          fatal(call, "scale mode: staging for the " +
                          std::string(directionName(dir)) + " of " + c.name +
                          " (" + std::to_string(p->elements) +
                          " elements, " + m.str() + "): " + st.message());
      }
    }
  return h;
}

std::mutex gMu;
bool gRead = false;
std::unique_ptr<Hooks> gHooks;

} // namespace

PrecisionHooks *PrecisionHooks::get(const Driver *drv, int ordinal,
                                    ReportFn report) {
  std::lock_guard<std::mutex> lock(gMu);
  if (gRead)
    return gHooks.get();
  gRead = true;
  if (!drv)
    return nullptr;
  gHooks = fromEnvironment(drv, ordinal, report);
  if (gHooks) {
    static bool registered = false;
    if (!registered) {
      registered = true;
      // Runs before the .fini_array destructor gpu-to-llvm registers for the
      // module unload, while the driver is still up; finish() runs once.
      std::atexit([] {
        std::lock_guard<std::mutex> l(gMu);
        if (gHooks)
          gHooks->finish("exit");
      });
    }
  }
  return gHooks.get();
}

void PrecisionHooks::resetForTesting() {
  std::unique_ptr<Hooks> h;
  {
    std::lock_guard<std::mutex> lock(gMu);
    h = std::move(gHooks);
    gRead = false;
  }
}

} // namespace approx::mgpu
