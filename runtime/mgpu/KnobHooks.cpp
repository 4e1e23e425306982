//===- KnobHooks.cpp - The tuner's knobs and captures through mgpu* -------===//
#include "KnobHooks.h"

#include "approx/runtime/core/Capture.h"
#include "approx/runtime/core/Config.h"
#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Text.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace approx::mgpu {

namespace {

using approx::rt::ArgInfo;
using approx::rt::Config;
using approx::rt::Expected;
using approx::rt::KernelInfo;
using approx::rt::KnobInfo;
using approx::rt::KnobKind;
using approx::rt::Manifest;
using approx::rt::ScalarType;
using approx::rt::quote;
using approx::rt::detail::Driver;

[[noreturn]] void fatal(const std::string &call, const std::string &msg) {
  std::fprintf(stderr, "approx-mgpu: knobs: %s: %s\n", call.c_str(),
               msg.c_str());
  std::fflush(stderr);
  std::abort();
}

const char *env(const char *name) {
  const char *v = std::getenv(name);
  return v && *v ? v : nullptr;
}

class Hooks final : public KnobHooks {
public:
  Hooks(const Driver *drv, ReportFn report) : drv_(drv), report_(report) {}

  /// From the environment (get() documents it); aborts on bad values.
  void configure(bool precisionOn) {
    const char *call = "environment";
    const char *knobs = env("APPROX_CONFIG");
    const char *manifest = env("APPROX_MANIFEST");
    if (!manifest) {
      if (knobs)
        fatal(call, "APPROX_CONFIG needs APPROX_MANIFEST in an MLIR host "
                    "program (the manifest approx-to-ptx wrote for its "
                    "gpu.module)");
      return; // capture only: copies typed by what launches tell
    }
    Expected<Manifest> m = approx::rt::loadManifestFile(manifest);
    if (!m)
      fatal(call, std::string("APPROX_MANIFEST=") + manifest + ": " +
                      m.status().message());
    manifest_ = std::move(*m);
    haveManifest_ = true;
    if (!knobs)
      return;
    Expected<Config> c = approx::rt::readKnobsFile(knobs, manifest_);
    if (!c)
      fatal(call, "APPROX_CONFIG: " + c.status().message());
    for (const auto &[name, value] : c->values) {
      const KnobInfo &k = *manifest_.findKnob(name);
      const std::string what = "knob " + quote(name) + "=" + k.valueId(value);
      switch (k.kind) {
      case KnobKind::Build:
        if (value != k.builtValue)
          fatal(call, what + " needs another build of module " +
                          quote(manifest_.module) + " (this one holds " +
                          k.valueId(k.builtValue) + ")");
        break;
      case KnobKind::Host:
        break;
      case KnobKind::Variant:
        if (precisionOn)
          fatal(call, what + ": with APPROX_PRECISION the precision hooks "
                             "choose the variants");
        variants_[name] = value;
        break;
      case KnobKind::Resource:
        fatal(call, what + " is a texture knob: MLIR host programs cannot "
                           "be given its texture");
      default:
        if (k.isParam())
          fatal(call, what + " is passed as a kernel parameter, which an "
                             "MLIR host program's launch does not carry");
        globals_[name] = value;
      }
    }
    setsKnobs_ = !c->values.empty();
  }

  void moduleLoaded(CUmodule module) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!haveManifest_)
      return;
    for (const KernelInfo &k : manifest_.kernels) {
      CUfunction f = nullptr;
      if (drv_->cuModuleGetFunction(&f, module, k.name.c_str()) !=
          CUDA_SUCCESS)
        return; // another module of the program
    }
    ours_.insert(module);
    for (const auto &[name, value] : globals_) {
      const KnobInfo &k = *manifest_.findKnob(name);
      CUdeviceptr p = 0;
      size_t bytes = 0;
      if (drv_->cuModuleGetGlobal(&p, &bytes, module, k.symbol.c_str()) !=
              CUDA_SUCCESS ||
          bytes == 0 || bytes > 8)
        fatal("mgpuModuleLoad", "knob " + quote(name) + ": the module has no "
                                "device symbol " + quote(k.symbol) +
                                " of 1 to 8 bytes");
      uint64_t bits = uint64_t(value); // little-endian: the low bytes
      report_(drv_->cuMemcpyHtoD(p, &bits, bytes), "cuMemcpyHtoD");
    }
  }

  std::string entryFor(CUmodule module, const char *name) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!ours_.count(module))
      return name;
    auto [knob, dispatch] = manifest_.findDispatch(name);
    if (!dispatch)
      return name;
    auto v = variants_.find(knob->name);
    if (v == variants_.end())
      return name;
    return dispatch->variants[size_t(v->second - knob->min)];
  }

  void gotFunction(CUfunction f, CUmodule module,
                   const std::string &entry) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!f)
      return;
    const KernelInfo *k =
        ours_.count(module) ? manifest_.findKernel(entry) : nullptr;
    functions_[f] = k;
  }

  void launching(CUfunction f, void **params) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = functions_.find(f);
    if (setsKnobs_ && ours_.empty())
      fatal("mgpuLaunchKernel",
            "the knobs file sets knobs of module " + quote(manifest_.module) +
                ", but no module the program loaded holds all of " +
                "APPROX_MANIFEST's kernels");
    if (it == functions_.end() || !it->second || !params)
      return;
    for (const ArgInfo &a : it->second->args) {
      if (a.kind != ArgInfo::Kind::Memref || a.type.isVector())
        continue;
      uint64_t aligned = 0;
      size_t at = a.firstParam +
                  (a.abi == ArgInfo::Abi::Descriptor ? 1 : 0);
      if (at >= it->second->params.size())
        continue;
      std::memcpy(&aligned, params[at], sizeof aligned);
      auto alloc = allocations_.find(aligned);
      if (alloc != allocations_.end() && !alloc->second.type)
        alloc->second.type = a.type.scalar;
    }
  }

  void allocated(void *p, uint64_t bytes) override {
    if (!p)
      return;
    // The allocation's real extent: under the precision hooks a scaled
    // object is narrower than the program asked for, and the declared size
    // would reach past it, over memory that is not the object's (host
    // memory, where the CPU and GPU share an address space): a copy back
    // into such memory would not be taken for a device-to-host one.
    CUdeviceptr base = 0;
    size_t size = 0;
    if (drv_->cuMemGetAddressRange &&
        drv_->cuMemGetAddressRange(&base, &size, CUdeviceptr(uintptr_t(p))) ==
            CUDA_SUCCESS &&
        base == CUdeviceptr(uintptr_t(p)))
      bytes = size;
    std::lock_guard<std::mutex> lock(mu_);
    allocations_[uint64_t(uintptr_t(p))] = {bytes, std::nullopt};
  }

  void freed(void *p) override {
    std::lock_guard<std::mutex> lock(mu_);
    allocations_.erase(uint64_t(uintptr_t(p)));
  }

  void copied(void *dst, void *src, size_t bytes, CUstream stream) override {
    if (!approx::rt::capture::enabled() || bytes == 0)
      return;
    std::optional<ScalarType> type;
    {
      std::lock_guard<std::mutex> lock(mu_);
      const Allocation *from = find(uint64_t(uintptr_t(src)));
      if (!from || find(uint64_t(uintptr_t(dst))))
        return; // not device to host
      type = from->type;
      if (!type) {
        if (!warnedUntyped_)
          std::fprintf(stderr,
                       "approx-mgpu: capture: a device-to-host copy from "
                       "memory no launch has passed as a memref is not "
                       "compared (its element type is unknown)\n");
        warnedUntyped_ = true;
        return;
      }
    }
    auto t0 = std::chrono::steady_clock::now();
    report_(drv_->cuStreamSynchronize(stream), "cuStreamSynchronize");
    approx::rt::Status s = approx::rt::capture::addSeconds(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
            .count());
    if (s.isOk())
      s = approx::rt::capture::deviceToHost(
          dst, bytes - bytes % approx::rt::scalarTypeSize(*type), *type);
    if (!s.isOk())
      fatal("mgpuMemcpy", s.message());
  }

private:
  struct Allocation {
    uint64_t bytes = 0;
    std::optional<ScalarType> type;
  };
  /// The allocation holding address `a`, or nullptr; the caller holds mu_.
  const Allocation *find(uint64_t a) const {
    auto it = allocations_.upper_bound(a);
    if (it == allocations_.begin())
      return nullptr;
    --it;
    return a < it->first + it->second.bytes ? &it->second : nullptr;
  }

  const Driver *drv_;
  ReportFn report_;
  std::mutex mu_;
  Manifest manifest_;
  bool haveManifest_ = false, setsKnobs_ = false, warnedUntyped_ = false;
  std::map<std::string, int64_t> globals_, variants_;
  std::set<CUmodule> ours_;
  std::map<CUfunction, const KernelInfo *> functions_;
  std::map<uint64_t, Allocation> allocations_;
};

std::mutex gMu;
bool gRead = false;
std::unique_ptr<Hooks> gHooks;

} // namespace

KnobHooks *KnobHooks::get(const Driver *drv, ReportFn report,
                          bool precisionOn) {
  std::lock_guard<std::mutex> lock(gMu);
  if (gRead)
    return gHooks.get();
  gRead = true;
  if (!drv || (!env("APPROX_CONFIG") && !env("APPROX_CAPTURE")))
    return nullptr;
  gHooks = std::make_unique<Hooks>(drv, report);
  gHooks->configure(precisionOn);
  return gHooks.get();
}

void KnobHooks::resetForTesting() {
  std::lock_guard<std::mutex> lock(gMu);
  gHooks.reset();
  gRead = false;
}

} // namespace approx::mgpu
