//===- Runtime.cpp - Context, DeviceBuffer, Module on the driver API ------===//
//
// Every driver call goes through APPROX_CU_RETURN_IF_ERROR so its failure is
// a Status naming the call. RAII owners release on every path; helper guards
// free partially built objects when a later step fails.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Runtime.h"

#include "Driver.h"

#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Text.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

namespace approx::rt {

using detail::Driver;

struct Context::Impl {
  const Driver *drv = nullptr;
  CUdevice device = 0;
  CUcontext ctx = nullptr;
};

struct Module::Impl {
  const Driver *drv = nullptr;
  CUmodule module = nullptr;
  std::map<std::string, CUfunction> functions;
  std::map<std::string, int64_t> values; ///< current knob values
};

static const Driver *driverOf(const std::shared_ptr<Context> &ctx) {
  return ctx->impl().drv;
}

Status probeDriver() {
  Expected<const Driver *> drv = Driver::get();
  if (!drv)
    return drv.status();
  int count = 0;
  CUresult r = (*drv)->cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS)
    return unavailable((*drv)->error(r, "cuDeviceGetCount").message());
  if (count == 0)
    return unavailable("the CUDA driver reports no GPU");
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

Expected<std::shared_ptr<Context>> Context::create(int ordinal) {
  APPROX_ASSIGN_OR_RETURN(const Driver *drv, Driver::get());
  int count = 0;
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetCount, &count);
  if (count == 0)
    return unavailable("the CUDA driver reports no GPU");
  if (ordinal < 0 || ordinal >= count)
    return outOfRange("device ordinal " + std::to_string(ordinal) +
                      " out of range: " + std::to_string(count) +
                      " device(s) present");
  std::shared_ptr<Context> c(new Context());
  c->impl_ = std::make_unique<Impl>();
  c->impl_->drv = drv;
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGet, &c->impl_->device, ordinal);
  CUdevice dev = c->impl_->device;
  APPROX_CU_RETURN_IF_ERROR(drv, cuDevicePrimaryCtxRetain, &c->impl_->ctx,
                            dev);
  // From here on ~Context releases the primary context on failure.
  APPROX_RETURN_IF_ERROR(c->makeCurrent());
  DeviceInfo &info = c->info_;
  info.ordinal = ordinal;
  char name[256] = {0};
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetName, name, int(sizeof(name) - 1),
                            dev);
  info.name = name;
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetAttribute, &info.ccMajor,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetAttribute, &info.ccMinor,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetAttribute, &info.smCount,
                            CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  APPROX_CU_RETURN_IF_ERROR(
      drv, cuDeviceGetAttribute, &info.maxThreadsPerSM,
      CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, dev);
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceGetAttribute, &info.warpSize,
                            CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev);
  APPROX_CU_RETURN_IF_ERROR(drv, cuDriverGetVersion, &info.driverVersion);
  APPROX_CU_RETURN_IF_ERROR(drv, cuDeviceTotalMem, &info.totalMemBytes, dev);
  return c;
}

Context::~Context() {
  if (impl_ && impl_->ctx)
    impl_->drv->cuDevicePrimaryCtxRelease(impl_->device);
}

Status Context::makeCurrent() const {
  APPROX_CU_RETURN_IF_ERROR(impl_->drv, cuCtxSetCurrent, impl_->ctx);
  return Status::ok();
}

Status Context::synchronize() const {
  APPROX_RETURN_IF_ERROR(makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(impl_->drv, cuCtxSynchronize);
  return Status::ok();
}

Status Context::memInfo(size_t &freeBytes, size_t &totalBytes) const {
  APPROX_RETURN_IF_ERROR(makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(impl_->drv, cuMemGetInfo, &freeBytes,
                            &totalBytes);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

Expected<DeviceBuffer> DeviceBuffer::allocate(std::shared_ptr<Context> ctx,
                                              size_t bytes, ValueType elem) {
  if (!ctx)
    return invalidArgument("DeviceBuffer::allocate: null context");
  if (elem.scalar == ScalarType::Ptr)
    return invalidArgument("DeviceBuffer::allocate: element type ptr");
  if (bytes % elem.size() != 0)
    return invalidArgument("DeviceBuffer::allocate: " + std::to_string(bytes) +
                           " bytes is not a whole number of " + elem.name());
  APPROX_RETURN_IF_ERROR(ctx->makeCurrent());
  DeviceBuffer b;
  b.elem_ = elem;
  if (bytes > 0) {
    CUdeviceptr p = 0;
    APPROX_CU_RETURN_IF_ERROR(driverOf(ctx), cuMemAlloc, &p, bytes);
    b.ptr_ = p;
    b.bytes_ = bytes;
  }
  b.ctx_ = std::move(ctx);
  return b;
}

Expected<DeviceBuffer> DeviceBuffer::fromHost(std::shared_ptr<Context> ctx,
                                              const void *host, size_t count,
                                              ValueType elem) {
  if (count > SIZE_MAX / elem.size())
    return invalidArgument("DeviceBuffer::fromHost: " + std::to_string(count) +
                           " elements of " + elem.name() +
                           " overflow size_t");
  APPROX_ASSIGN_OR_RETURN(
      DeviceBuffer b,
      allocate(std::move(ctx), count * size_t(elem.size()), elem));
  APPROX_RETURN_IF_ERROR(b.copyFromHost(host, b.bytes()));
  return b; // on error above, b's destructor frees it
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&o) noexcept
    : ctx_(std::move(o.ctx_)), ptr_(o.ptr_), bytes_(o.bytes_),
      elem_(o.elem_) {
  o.ptr_ = 0;
  o.bytes_ = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  if (this != &o) {
    (void)free();
    ctx_ = std::move(o.ctx_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    elem_ = o.elem_;
    o.ptr_ = 0;
    o.bytes_ = 0;
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { (void)free(); }

Status DeviceBuffer::free() {
  if (!ptr_)
    return Status::ok();
  CUdeviceptr p = ptr_;
  ptr_ = 0;
  bytes_ = 0;
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(driverOf(ctx_), cuMemFree, p);
  return Status::ok();
}

static Status checkRange(size_t offset, size_t bytes, size_t cap,
                         const char *what) {
  if (offset > cap || bytes > cap - offset)
    return invalidArgument(std::string(what) + ": range [" +
                           std::to_string(offset) + ", " +
                           std::to_string(offset + bytes) +
                           ") exceeds the buffer's " + std::to_string(cap) +
                           " bytes");
  return Status::ok();
}

Status DeviceBuffer::copyFromHost(const void *host, size_t bytes,
                                  size_t offset) {
  APPROX_RETURN_IF_ERROR(checkRange(offset, bytes, bytes_, "copyFromHost"));
  if (bytes == 0)
    return Status::ok();
  if (!host)
    return invalidArgument("copyFromHost: null host pointer");
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(driverOf(ctx_), cuMemcpyHtoD, ptr_ + offset, host,
                            bytes);
  return Status::ok();
}

Status DeviceBuffer::copyToHost(void *host, size_t bytes,
                                size_t offset) const {
  APPROX_RETURN_IF_ERROR(checkRange(offset, bytes, bytes_, "copyToHost"));
  if (bytes == 0)
    return Status::ok();
  if (!host)
    return invalidArgument("copyToHost: null host pointer");
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(driverOf(ctx_), cuMemcpyDtoH, host, ptr_ + offset,
                            bytes);
  return Status::ok();
}

Status DeviceBuffer::copyFrom(const DeviceBuffer &src) {
  if (src.bytes_ != bytes_)
    return invalidArgument("copyFrom: source has " +
                           std::to_string(src.bytes_) + " bytes, destination " +
                           std::to_string(bytes_));
  if (bytes_ == 0)
    return Status::ok();
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(driverOf(ctx_), cuMemcpyDtoD, ptr_, src.ptr_,
                            bytes_);
  return Status::ok();
}

Status DeviceBuffer::fillBytes(uint8_t value) {
  if (bytes_ == 0)
    return Status::ok();
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(driverOf(ctx_), cuMemsetD8, ptr_, value, bytes_);
  return Status::ok();
}

Status DeviceBuffer::fill32(uint32_t pattern) {
  if (bytes_ % 4 != 0)
    return invalidArgument("fill32: " + std::to_string(bytes_) +
                           " bytes is not a multiple of 4");
  if (bytes_ == 0)
    return Status::ok();
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(driverOf(ctx_), cuMemsetD32, ptr_, pattern,
                            bytes_ / 4);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<Module>>
Module::load(std::shared_ptr<Context> ctx, const std::string &manifestPath,
             const LoadOptions &opts) {
  APPROX_ASSIGN_OR_RETURN(Manifest m, loadManifestFile(manifestPath));
  std::string image = opts.imagePath;
  if (image.empty()) {
    bool cubin = (opts.preferCubin && !m.cubin.empty()) || m.ptx.empty();
    APPROX_ASSIGN_OR_RETURN(
        image, resolveImagePath(m, cubin, opts.allowPathsOutsideManifestDir));
  }
  APPROX_ASSIGN_OR_RETURN(std::string bytes,
                          readRegularFile(image, kMaxImageBytes, "image"));
  Expected<std::unique_ptr<Module>> mod =
      loadFromMemory(std::move(ctx), std::move(m), bytes);
  if (!mod)
    return mod.status().withContext(escapeBytes(image));
  return mod;
}

Expected<std::unique_ptr<Module>>
Module::loadFromMemory(std::shared_ptr<Context> ctx, Manifest manifest,
                       const std::string &image) {
  if (!ctx)
    return invalidArgument("Module::loadFromMemory: null context");
  if (image.empty())
    return invalidArgument("empty module image");
  const Driver *drv = driverOf(ctx);
  APPROX_RETURN_IF_ERROR(ctx->makeCurrent());
  std::unique_ptr<Module> mod(new Module());
  mod->ctx_ = ctx;
  mod->manifest_ = std::move(manifest);
  mod->impl_ = std::make_unique<Impl>();
  mod->impl_->drv = drv;

  // PTX must be NUL-terminated; a cubin/ELF/fatbin is passed as is.
  std::string buf = image;
  bool isElf = image.size() >= 4 && image.compare(0, 4, "\x7f"
                                                        "ELF") == 0;
  if (!isElf)
    buf.push_back('\0');
  std::vector<char> errLog(16384, 0), infoLog(16384, 0);
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_INFO_LOG_BUFFER,
                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {errLog.data(),
                  reinterpret_cast<void *>(uintptr_t(errLog.size() - 1)),
                  infoLog.data(),
                  reinterpret_cast<void *>(uintptr_t(infoLog.size() - 1))};
  CUresult r =
      drv->cuModuleLoadDataEx(&mod->impl_->module, buf.data(), 4, opts, vals);
  if (r != CUDA_SUCCESS) {
    mod->impl_->module = nullptr;
    Status s = drv->error(r, "cuModuleLoadDataEx");
    std::string log(errLog.data());
    return Status(s.code(), s.message() + (log.empty()
                                               ? std::string(" (no JIT log)")
                                               : "; JIT log:\n" + log));
  }
  mod->jitLog_ = infoLog.data();
  // Resolve every manifest kernel and knob now: a mismatch between manifest
  // and image is a load error, not a surprise at launch.
  for (const KernelInfo &k : mod->manifest_.kernels) {
    CUfunction f = nullptr;
    CUresult fr = drv->cuModuleGetFunction(&f, mod->impl_->module,
                                           k.name.c_str());
    if (fr != CUDA_SUCCESS)
      return drv->error(fr, "cuModuleGetFunction")
          .withContext("kernel '" + k.name + "' of the manifest is not in " +
                       "the image");
    mod->impl_->functions[k.name] = f;
  }
  for (const KnobInfo &k : mod->manifest_.knobs) {
    mod->impl_->values[k.name] = k.defaultValue;
    if (!k.hasSymbol())
      continue;
    CUdeviceptr p = 0;
    size_t size = 0;
    CUresult gr = drv->cuModuleGetGlobal(&p, &size, mod->impl_->module,
                                         k.symbol.c_str());
    if (gr != CUDA_SUCCESS)
      return drv->error(gr, "cuModuleGetGlobal")
          .withContext("knob '" + k.name + "' (symbol '" + k.symbol +
                       "') is not in the image");
    if (size != scalarTypeSize(k.type))
      return invalidArgument("knob '" + k.name + "': global '" + k.symbol +
                             "' has " + std::to_string(size) +
                             " bytes, the manifest says " +
                             scalarTypeName(k.type));
  }
  return mod;
}

Module::~Module() {
  if (impl_ && impl_->module) {
    (void)ctx_->makeCurrent();
    impl_->drv->cuModuleUnload(impl_->module);
  }
}

std::vector<std::string> Module::kernelNames() const {
  std::vector<std::string> out;
  for (const KernelInfo &k : manifest_.kernels)
    out.push_back(k.name);
  return out;
}

std::vector<std::string> Module::knobNames() const {
  std::vector<std::string> out;
  for (const KnobInfo &k : manifest_.knobs)
    out.push_back(k.name);
  return out;
}

static std::string knownList(const std::vector<std::string> &names) {
  std::string s;
  for (const std::string &n : names)
    s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

Status Module::setKnob(const std::string &name, int64_t value) {
  const KnobInfo *k = manifest_.findKnob(name);
  if (!k)
    return notFound("unknown knob " + quote(name) + " (known: " +
                    knownList(knobNames()) + ")");
  if (value < k->min || value > k->max)
    return outOfRange("knob " + quote(name) + " = " + std::to_string(value) +
                      " is outside [" + std::to_string(k->min) + ", " +
                      std::to_string(k->max) + "]");
  impl_->values[name] = value;
  if (k->kind != KnobKind::Global || k->path != KnobPath::Global)
    return Status::ok();
  const Driver *drv = impl_->drv;
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  CUdeviceptr p = 0;
  size_t size = 0;
  APPROX_CU_RETURN_IF_ERROR(drv, cuModuleGetGlobal, &p, &size, impl_->module,
                            k->symbol.c_str());
  uint64_t bits = uint64_t(value);
  APPROX_CU_RETURN_IF_ERROR(drv, cuMemcpyHtoD, p, &bits, size);
  return Status::ok();
}

Expected<int64_t> Module::getKnob(const std::string &name) {
  if (!manifest_.findKnob(name))
    return notFound("unknown knob " + quote(name) + " (known: " +
                    knownList(knobNames()) + ")");
  return impl_->values.at(name);
}

Status Module::checkLaunchConfig(const std::string &kernel,
                                 const LaunchConfig &cfg) const {
  if (cfg.grid.total() == 0 || cfg.block.total() == 0)
    return invalidArgument("kernel '" + kernel +
                           "': grid and block sizes must be >= 1");
  if (cfg.block.total() > 1024)
    return invalidArgument("kernel '" + kernel + "': block of " +
                           std::to_string(cfg.block.total()) +
                           " threads exceeds 1024");
  return Status::ok();
}

Status Module::launch(const std::string &kernel, const LaunchConfig &cfg,
                      const std::vector<Arg> &args) {
  const KernelInfo *k = manifest_.findKernel(kernel);
  if (!k)
    return notFound("unknown kernel '" + kernel + "' (known: " +
                    knownList(kernelNames()) + ")");
  APPROX_RETURN_IF_ERROR(checkLaunchConfig(kernel, cfg));
  APPROX_ASSIGN_OR_RETURN(PackedArgs packed, packArgs(*k, args));
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  CUfunction f = impl_->functions.at(kernel);
  APPROX_CU_RETURN_IF_ERROR(impl_->drv, cuLaunchKernel, f, cfg.grid.x,
                            cfg.grid.y, cfg.grid.z, cfg.block.x, cfg.block.y,
                            cfg.block.z, cfg.sharedMemBytes, nullptr,
                            packed.pointers(), nullptr);
  return Status::ok();
}

Status Module::launchSync(const std::string &kernel, const LaunchConfig &cfg,
                          const std::vector<Arg> &args) {
  APPROX_RETURN_IF_ERROR(launch(kernel, cfg, args));
  return ctx_->synchronize().withContext("kernel '" + kernel + "'");
}

namespace {
/// Owns one CUevent.
class Event {
public:
  explicit Event(const Driver *drv) : drv_(drv) {}
  ~Event() {
    if (ev_)
      drv_->cuEventDestroy(ev_);
  }
  Status create() {
    APPROX_CU_RETURN_IF_ERROR(drv_, cuEventCreate, &ev_, CU_EVENT_DEFAULT);
    return Status::ok();
  }
  CUevent get() const { return ev_; }

private:
  const Driver *drv_;
  CUevent ev_ = nullptr;
};
} // namespace

Expected<Timing> Module::time(const std::string &kernel,
                              const LaunchConfig &cfg,
                              const std::vector<Arg> &args,
                              const TimingOptions &opts,
                              const std::function<Status()> &beforeEach) {
  if (opts.reps < 1 || opts.warmup < 0)
    return invalidArgument("timing needs reps >= 1 and warmup >= 0");
  const Driver *drv = impl_->drv;
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  for (int i = 0; i < opts.warmup; ++i) {
    if (beforeEach)
      APPROX_RETURN_IF_ERROR(beforeEach());
    APPROX_RETURN_IF_ERROR(launch(kernel, cfg, args));
  }
  APPROX_RETURN_IF_ERROR(ctx_->synchronize());
  Event start(drv), stop(drv);
  APPROX_RETURN_IF_ERROR(start.create());
  APPROX_RETURN_IF_ERROR(stop.create());
  Timing t;
  for (int i = 0; i < opts.reps; ++i) {
    if (beforeEach)
      APPROX_RETURN_IF_ERROR(beforeEach());
    APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord, start.get(), nullptr);
    APPROX_RETURN_IF_ERROR(launch(kernel, cfg, args));
    APPROX_CU_RETURN_IF_ERROR(drv, cuEventRecord, stop.get(), nullptr);
    APPROX_CU_RETURN_IF_ERROR(drv, cuEventSynchronize, stop.get());
    float ms = 0;
    APPROX_CU_RETURN_IF_ERROR(drv, cuEventElapsedTime, &ms, start.get(),
                              stop.get());
    t.samplesMs.push_back(ms);
  }
  std::vector<double> s = t.samplesMs;
  std::sort(s.begin(), s.end());
  size_t n = s.size();
  t.medianMs = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  t.minMs = s.front();
  t.maxMs = s.back();
  return t;
}

Expected<KernelResources> Module::kernelResources(const std::string &kernel,
                                                  const LaunchConfig &cfg) {
  const KernelInfo *k = manifest_.findKernel(kernel);
  if (!k)
    return notFound("unknown kernel '" + kernel + "' (known: " +
                    knownList(kernelNames()) + ")");
  APPROX_RETURN_IF_ERROR(checkLaunchConfig(kernel, cfg));
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  CUfunction f = impl_->functions.at(kernel);
  KernelResources r;
  APPROX_CU_RETURN_IF_ERROR(impl_->drv,
                            cuOccupancyMaxActiveBlocksPerMultiprocessor,
                            &r.activeBlocksPerSM, f, int(cfg.block.total()),
                            size_t(cfg.sharedMemBytes));
  APPROX_CU_RETURN_IF_ERROR(impl_->drv, cuFuncGetAttribute, &r.numRegs,
                            CU_FUNC_ATTRIBUTE_NUM_REGS, f);
  return r;
}

} // namespace approx::rt
