//===- Module.cpp - A loaded image, its knobs and its launches ------------===//
//
// Loading resolves every kernel and knob symbol of the manifest in the image,
// so a mismatch is a load error. A launch resolves variant dispatch, takes
// each knob's value for this launch (override or current), creates resource
// textures on first use, packs the arguments (knob parameters included),
// writes global-path symbols whose value changed with an async copy on the
// launch's stream, and launches. Textures are RAII objects owned per knob
// and value; every error path releases what it created.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "approx/runtime/core/Capture.h"
#include "approx/runtime/core/Config.h"
#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Text.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <optional>

namespace approx::rt {

using detail::Driver;

namespace {

/// One resource option on the device: a CUDA array holding the table (2-D,
/// or 3-D for a texture_3d resource) and a texture object reading it (float
/// reads). Released on destruction, so a failed create() leaves nothing.
class Texture {
public:
  explicit Texture(const Driver *drv) : drv_(drv) {}
  ~Texture() { release(); }
  Texture(const Texture &) = delete;
  Texture &operator=(const Texture &) = delete;

  /// Creates the array, uploads `t` and creates the texture object.
  Status create(const ResourceInfo &res, const TextureTable &t) {
    if (res.type == TextureType::Texture3D)
      APPROX_RETURN_IF_ERROR(createArray3D(t));
    else
      APPROX_RETURN_IF_ERROR(createArray2D(t));
    CUDA_RESOURCE_DESC rd;
    std::memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = array_;
    CUDA_TEXTURE_DESC td;
    std::memset(&td, 0, sizeof td);
    CUaddress_mode mode = CU_TR_ADDRESS_MODE_CLAMP;
    switch (res.address) {
    case TextureAddress::Clamp:
      mode = CU_TR_ADDRESS_MODE_CLAMP;
      break;
    case TextureAddress::Border:
      mode = CU_TR_ADDRESS_MODE_BORDER; // border color 0
      break;
    case TextureAddress::Wrap:
      mode = CU_TR_ADDRESS_MODE_WRAP;
      break;
    case TextureAddress::Mirror:
      mode = CU_TR_ADDRESS_MODE_MIRROR;
      break;
    }
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
    td.filterMode = res.filter == TextureFilter::Linear
                        ? CU_TR_FILTER_MODE_LINEAR
                        : CU_TR_FILTER_MODE_POINT;
    td.flags = res.normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0;
    APPROX_CU_RETURN_IF_ERROR(drv_, cuTexObjectCreate, &tex_, &rd, &td,
                              nullptr);
    return Status::ok();
  }

  uint64_t handle() const { return uint64_t(tex_); }

private:
  Status createArray2D(const TextureTable &t) {
    CUDA_ARRAY_DESCRIPTOR ad;
    std::memset(&ad, 0, sizeof ad);
    ad.Width = t.width;
    ad.Height = t.height;
    ad.Format = CU_AD_FORMAT_FLOAT;
    ad.NumChannels = t.channels;
    APPROX_CU_RETURN_IF_ERROR(drv_, cuArrayCreate, &array_, &ad);
    CUDA_MEMCPY2D cp;
    std::memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_HOST;
    cp.srcHost = t.data->data();
    cp.srcPitch = size_t(t.rowBytes());
    cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    cp.dstArray = array_;
    cp.WidthInBytes = size_t(t.rowBytes());
    cp.Height = t.height;
    APPROX_CU_RETURN_IF_ERROR(drv_, cuMemcpy2D, &cp);
    return Status::ok();
  }

  /// A 3-D array (Flags 0: not layered, no surface access) filled from the
  /// table's packed slices: row pitch = row bytes, slice pitch = height rows.
  Status createArray3D(const TextureTable &t) {
    CUDA_ARRAY3D_DESCRIPTOR ad;
    std::memset(&ad, 0, sizeof ad);
    ad.Width = t.width;
    ad.Height = t.height;
    ad.Depth = t.depth;
    ad.Format = CU_AD_FORMAT_FLOAT;
    ad.NumChannels = t.channels;
    ad.Flags = 0;
    APPROX_CU_RETURN_IF_ERROR(drv_, cuArray3DCreate, &array_, &ad);
    CUDA_MEMCPY3D cp;
    std::memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_HOST;
    cp.srcHost = t.data->data();
    cp.srcPitch = size_t(t.rowBytes());
    cp.srcHeight = t.height;
    cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    cp.dstArray = array_;
    cp.WidthInBytes = size_t(t.rowBytes());
    cp.Height = t.height;
    cp.Depth = t.depth;
    APPROX_CU_RETURN_IF_ERROR(drv_, cuMemcpy3D, &cp);
    return Status::ok();
  }

  void release() {
    if (tex_)
      drv_->cuTexObjectDestroy(tex_);
    tex_ = 0;
    if (array_)
      drv_->cuArrayDestroy(array_);
    array_ = nullptr;
  }

  const Driver *drv_;
  CUarray array_ = nullptr;
  CUtexObject tex_ = 0;
};

/// The runtime side of one knob.
struct KnobState {
  const KnobInfo *info = nullptr;
  int64_t value = 0;      ///< current value
  CUdeviceptr symbol = 0; ///< global and resource knobs
  size_t symbolSize = 0;
  /// The bits the symbol holds, when the runtime wrote them (unknown at
  /// load: the image's initializer is not trusted).
  std::optional<uint64_t> written;
  /// Resource knobs: the texture of each value in use.
  std::map<int64_t, std::unique_ptr<Texture>> textures;
};

std::string knownList(const std::vector<std::string> &names) {
  std::string s;
  for (const std::string &n : names)
    s += (s.empty() ? "" : ", ") + escapeBytes(n);
  return s.empty() ? "none" : s;
}

/// A driver log (multi-line) as one line.
std::string oneLine(const std::string &log) {
  std::string s;
  for (char c : log)
    s += c == '\n' ? std::string(" | ") : std::string(1, c);
  while (!s.empty() && (s.back() == ' ' || s.back() == '|'))
    s.pop_back();
  return escapeBytes(s);
}

} // namespace

struct Module::Impl {
  const Driver *drv = nullptr;
  CUmodule module = nullptr;
  std::map<std::string, CUfunction> functions;
  std::map<std::string, KnobState> knobs;
  /// Module::manifest_'s lookups, for every launch.
  ManifestIndex index;
  /// Knobs a knobs file set (APPROX_CONFIG): setKnob leaves them be.
  std::set<std::string> pinned;
  mutable std::mutex mutex;

  /// The value of `k` for a launch with `overrides`.
  int64_t valueOf(const KnobState &k,
                  const std::map<std::string, int64_t> &overrides) const {
    auto it = overrides.find(k.info->name);
    return it == overrides.end() ? k.value : it->second;
  }
};

//===----------------------------------------------------------------------===//
// Loading
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
  const char *knobsFile = std::getenv("APPROX_CONFIG");
  if (opts.applyEnvironment && knobsFile && *knobsFile)
    APPROX_RETURN_IF_ERROR((*mod)->applyKnobsFile(knobsFile));
  return mod;
}

Status Module::applyKnobsFile(const std::string &path) {
  APPROX_ASSIGN_OR_RETURN(Config c, readKnobsFile(path, manifest_));
  for (const auto &[name, value] : c.values) {
    const KnobInfo *k = manifest_.findKnob(name);
    if (k->kind == KnobKind::Build) {
      if (value != k->builtValue)
        return invalidArgument(
            "knobs file " + quote(path) + ": " + name + "=" +
            k->valueId(value) + " needs another build of module " +
            quote(manifest_.module) + " (this one holds " +
            k->valueId(k->builtValue) + ")");
      continue;
    }
    if (k->kind == KnobKind::Host)
      continue;
    APPROX_RETURN_IF_ERROR(
        setKnob(name, value).withContext("knobs file " + quote(path)));
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->pinned.insert(name);
  }
  return Status::ok();
}

Expected<std::unique_ptr<Module>>
Module::loadFromMemory(std::shared_ptr<Context> ctx, Manifest manifest,
                       const std::string &image) {
  try {
    return loadImpl(std::move(ctx), std::move(manifest), image);
  } catch (const std::bad_alloc &) {
    return Status(StatusCode::OutOfMemory,
                  "out of host memory loading a " +
                      std::to_string(image.size()) + "-byte image");
  }
}

Expected<std::unique_ptr<Module>>
Module::loadImpl(std::shared_ptr<Context> ctx, Manifest manifest,
                 const std::string &image) {
  if (!ctx)
    return invalidArgument("Module::loadFromMemory: null context");
  if (image.empty())
    return invalidArgument("empty module image");
  const Driver *drv = detail::driverOf(*ctx);
  APPROX_RETURN_IF_ERROR(ctx->makeCurrent());
  std::unique_ptr<Module> mod(new Module());
  mod->ctx_ = ctx;
  mod->manifest_ = std::move(manifest);
  mod->impl_ = std::make_unique<Impl>();
  Impl &impl = *mod->impl_;
  impl.drv = drv;
  impl.index = ManifestIndex(mod->manifest_);

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
  CUresult r = drv->cuModuleLoadDataEx(&impl.module, buf.data(), 4, opts, vals);
  if (r != CUDA_SUCCESS) {
    impl.module = nullptr;
    Status s = drv->error(r, "cuModuleLoadDataEx");
    std::string log = oneLine(errLog.data());
    return Status::fromCuda(int(r), "cuModuleLoadDataEx",
                            s.message() + (log.empty() ? " (no JIT log)"
                                                       : "; JIT log: " + log));
  }
  mod->jitLog_ = infoLog.data();
  // Resolve every manifest kernel and knob symbol now: a mismatch between
  // manifest and image is a load error, not a surprise at launch.
  for (const KernelInfo &k : mod->manifest_.kernels) {
    CUfunction f = nullptr;
    CUresult fr = drv->cuModuleGetFunction(&f, impl.module, k.name.c_str());
    if (fr != CUDA_SUCCESS)
      return drv->error(fr, "cuModuleGetFunction")
          .withContext("kernel " + quote(k.name) +
                       " of the manifest is not in the image");
    impl.functions[k.name] = f;
  }
  for (const KnobInfo &k : mod->manifest_.knobs) {
    KnobState &st = impl.knobs[k.name];
    st.info = &k;
    // A build knob's value is the one this PTX was built with.
    st.value = k.kind == KnobKind::Build ? k.builtValue : k.defaultValue;
    if (!k.hasSymbol())
      continue;
    CUresult gr = drv->cuModuleGetGlobal(&st.symbol, &st.symbolSize,
                                         impl.module, k.symbol.c_str());
    if (gr != CUDA_SUCCESS)
      return drv->error(gr, "cuModuleGetGlobal")
          .withContext("knob " + quote(k.name) + " (symbol " +
                       quote(k.symbol) + ") is not in the image");
    if (st.symbolSize != scalarTypeSize(k.type))
      return invalidArgument("knob " + quote(k.name) + ": global " +
                             quote(k.symbol) + " has " +
                             std::to_string(st.symbolSize) +
                             " bytes, the manifest says " +
                             scalarTypeName(k.type));
  }
  return mod;
}

Module::~Module() {
  if (!impl_)
    return;
  (void)ctx_->makeCurrent();
  bool anyTexture = false;
  for (auto &[name, st] : impl_->knobs)
    anyTexture |= !st.textures.empty();
  // Kernels still running may read the textures: wait first (a faulted
  // context answers at once with its error, which changes nothing here).
  if (anyTexture)
    (void)impl_->drv->cuCtxSynchronize();
  for (auto &[name, st] : impl_->knobs)
    st.textures.clear();
  if (impl_->module)
    impl_->drv->cuModuleUnload(impl_->module);
}

const ManifestIndex &Module::index() const { return impl_->index; }

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

//===----------------------------------------------------------------------===//
// Knobs
//===----------------------------------------------------------------------===//

/// Checks `name` = `value` against the manifest; returns the knob.
static Expected<const KnobInfo *> checkKnobValue(const Module &m,
                                                 const std::string &name,
                                                 int64_t value) {
  const KnobInfo *k = m.manifest().findKnob(name);
  if (!k)
    return notFound("unknown knob " + quote(name) + " (known: " +
                    knownList(m.knobNames()) + ")");
  if (value < k->min || value > k->max)
    return outOfRange("knob " + quote(name) + " = " + std::to_string(value) +
                      " is outside [" + std::to_string(k->min) + ", " +
                      std::to_string(k->max) + "]");
  if (k->kind == KnobKind::Build && value != k->builtValue)
    return invalidArgument(
        "knob " + quote(name) + " is a build knob: this PTX was built with " +
        quote(k->valueId(k->builtValue)) + "; " + quote(k->valueId(value)) +
        " is another build (approx-build, docs/configurations.md)");
  return k;
}

Status Module::setKnob(const std::string &name, int64_t value) {
  APPROX_ASSIGN_OR_RETURN(const KnobInfo *k, checkKnobValue(*this, name, value));
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (impl_->pinned.count(name))
    return Status::ok(); // the tuner's value (APPROX_CONFIG) stays
  KnobState &st = impl_->knobs.at(name);
  if (k->kind == KnobKind::Resource && value != st.value) {
    // The other values' textures go; kernels may still read them.
    bool others = false;
    for (auto &[v, t] : st.textures)
      others |= v != value;
    if (others) {
      APPROX_RETURN_IF_ERROR(ctx_->synchronize().withContext(
          "knob " + quote(name) + ": waiting before releasing its textures"));
      for (auto it = st.textures.begin(); it != st.textures.end();)
        it = it->first == value ? std::next(it) : st.textures.erase(it);
    }
  }
  st.value = value;
  return Status::ok();
}

Expected<int64_t> Module::getKnob(const std::string &name) const {
  if (!manifest_.findKnob(name))
    return notFound("unknown knob " + quote(name) + " (known: " +
                    knownList(knobNames()) + ")");
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->knobs.at(name).value;
}

Expected<int64_t> Module::readKnobSymbol(const std::string &name) const {
  const KnobInfo *k = manifest_.findKnob(name);
  if (!k)
    return notFound("unknown knob " + quote(name) + " (known: " +
                    knownList(knobNames()) + ")");
  if (!k->hasSymbol())
    return invalidArgument("knob " + quote(name) +
                           " is a variant knob: it has no device symbol");
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const KnobState &st = impl_->knobs.at(name);
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  uint64_t bits = 0;
  APPROX_CU_RETURN_IF_ERROR(impl_->drv, cuMemcpyDtoH, &bits, st.symbol,
                            st.symbolSize);
  // Sign-extend from the knob's width.
  size_t w = st.symbolSize * 8;
  return w >= 64 ? int64_t(bits) : int64_t(bits << (64 - w)) >> (64 - w);
}

size_t Module::liveTextures() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  size_t n = 0;
  for (auto &[name, st] : impl_->knobs)
    n += st.textures.size();
  return n;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

/// Resolves a launch name; the caller holds the mutex.
static Expected<const KernelInfo *>
resolveLocked(const Manifest &m, const Module::Impl &impl,
              const std::string &name,
              const std::map<std::string, int64_t> &overrides) {
  auto [knob, dispatch] = impl.index.dispatch(name);
  if (dispatch) {
    auto it = overrides.find(knob->name);
    int64_t value = it != overrides.end() ? it->second
                                          : impl.knobs.at(knob->name).value;
    const std::string &variant = dispatch->variants[size_t(value - knob->min)];
    return impl.index.kernel(variant); // validated by the manifest parser
  }
  if (const KernelInfo *k = impl.index.kernel(name))
    return k;
  std::vector<std::string> known;
  for (const KernelInfo &k : m.kernels)
    known.push_back(k.name);
  for (const KnobInfo &k : m.knobs)
    for (const VariantDispatch &d : k.dispatch)
      if (!m.findKernel(d.kernel))
        known.push_back(d.kernel);
  return notFound("unknown kernel " + quote(name) + " (known: " +
                  knownList(known) + ")");
}

Expected<const KernelInfo *>
Module::resolveKernel(const std::string &name,
                      const std::map<std::string, int64_t> &knobs) const {
  for (auto &[k, v] : knobs)
    APPROX_RETURN_IF_ERROR(checkKnobValue(*this, k, v).status());
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return resolveLocked(manifest_, *impl_, name, knobs);
}

static Status checkLaunchConfig(const std::string &kernel,
                                const LaunchConfig &cfg) {
  if (cfg.grid.total() == 0 || cfg.block.total() == 0)
    return invalidArgument("kernel " + quote(kernel) +
                           ": grid and block sizes must be >= 1");
  if (cfg.block.total() > 1024)
    return invalidArgument("kernel " + quote(kernel) + ": block of " +
                           std::to_string(cfg.block.total()) +
                           " threads exceeds 1024");
  return Status::ok();
}

/// APPROX_CAPTURE's argument requests (core/Capture.h) for a launch of
/// `launched` (resolved to `k`): each requested argument's memory, from its
/// address to the end of its allocation, once the launch has finished.
static Status captureArgs(const Driver *drv, const std::string &launched,
                          const KernelInfo &k, const std::vector<Arg> &args,
                          CUstream stream) {
  if (!capture::enabled())
    return Status::ok();
  // Read at each launch (a stat when there is no file): a test harness may
  // change it between runs.
  Expected<std::vector<capture::ArgRequest>> requests = capture::argRequests();
  if (!requests)
    return requests.status();
  for (size_t slot = 0; slot < requests->size(); ++slot) {
    const capture::ArgRequest &r = (*requests)[slot];
    if (r.kernel != launched && r.kernel != k.name)
      continue;
    const std::string what = "APPROX_CAPTURE: argument " +
                             std::to_string(r.index) + " of kernel " +
                             quote(launched);
    if (r.index >= args.size() || r.index >= k.args.size())
      return invalidArgument(what + ": the kernel has " +
                             std::to_string(k.args.size()) + " arguments");
    const Arg &a = args[r.index];
    uint64_t address = 0;
    size_t bytes = 0;
    std::optional<ScalarType> type = r.type;
    if (a.kind() == Arg::Kind::Memref) {
      address = a.buffer().ptr;
      bytes = a.buffer().bytes;
      if (!type)
        type = a.buffer().elem.scalar;
    } else if (a.kind() == Arg::Kind::Pointer && a.pointerValue() != 0) {
      address = a.pointerValue();
      CUdeviceptr base = 0;
      size_t size = 0;
      APPROX_CU_RETURN_IF_ERROR(drv, cuMemGetAddressRange, &base, &size,
                                CUdeviceptr(address));
      bytes = size_t(base + size - address);
    } else {
      return invalidArgument(what + " is not a buffer or a non-null pointer");
    }
    if (!type)
      return invalidArgument(what + " is a pointer: its element type must be "
                                    "given (--capture-arg KERNEL:INDEX:TYPE)");
    auto t0 = std::chrono::steady_clock::now();
    std::vector<uint8_t> host(bytes);
    APPROX_CU_RETURN_IF_ERROR(drv, cuStreamSynchronize, stream);
    APPROX_CU_RETURN_IF_ERROR(drv, cuMemcpyDtoH, host.data(),
                              CUdeviceptr(address), bytes);
    APPROX_RETURN_IF_ERROR(capture::addSeconds(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
            .count()));
    APPROX_RETURN_IF_ERROR(capture::writeArg(slot, host.data(),
                                             bytes - bytes % scalarTypeSize(*type),
                                             *type));
  }
  return Status::ok();
}

Status Module::launch(const std::string &kernel, const LaunchConfig &cfg,
                      const std::vector<Arg> &args,
                      const LaunchOptions &opts) {
  for (auto &[k, v] : opts.knobs)
    APPROX_RETURN_IF_ERROR(checkKnobValue(*this, k, v).status());
  CUstream stream = nullptr;
  if (opts.stream) {
    if (opts.stream->empty())
      return invalidArgument("kernel " + quote(kernel) +
                             ": launch on an empty Stream");
    if (opts.stream->context()->impl().ctx != ctx_->impl().ctx)
      return invalidArgument("kernel " + quote(kernel) +
                             ": the stream belongs to another context");
    stream = static_cast<CUstream>(opts.stream->handle());
  }
  std::lock_guard<std::mutex> lock(impl_->mutex);
  Impl &impl = *impl_;
  APPROX_ASSIGN_OR_RETURN(const KernelInfo *k,
                          resolveLocked(manifest_, impl, kernel,
                                        opts.knobs));
  APPROX_RETURN_IF_ERROR(checkLaunchConfig(k->name, cfg));
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());

  // Every knob the kernel reads: its value for this launch, as a parameter
  // or as a symbol write.
  struct Write {
    KnobState *st;
    uint64_t bits;
  };
  std::vector<Write> writes;
  KnobParamValues params;
  for (const std::string &name : k->knobs) {
    KnobState &st = impl.knobs.at(name);
    const KnobInfo &info = *st.info;
    if (info.kind == KnobKind::Variant || info.kind == KnobKind::Build)
      continue; // chosen by the kernel launched / by the build
    int64_t value = impl.valueOf(st, opts.knobs);
    uint64_t bits = uint64_t(value);
    if (info.kind == KnobKind::Resource) {
      std::unique_ptr<Texture> &tex = st.textures[value];
      if (!tex) {
        auto created = std::make_unique<Texture>(impl.drv);
        Status s = created->create(
            info.resource, info.resource.options[size_t(value - info.min)]);
        if (!s.isOk()) {
          st.textures.erase(value); // `created` releases what it made
          return s.withContext("knob " + quote(name) + " = " +
                               std::to_string(value) + ": texture");
        }
        tex = std::move(created);
      }
      bits = tex->handle();
    }
    if (info.path == KnobPath::Param)
      params[name] = int64_t(bits);
    else if (!st.written || *st.written != bits)
      writes.push_back({&st, bits});
  }
  APPROX_ASSIGN_OR_RETURN(PackedArgs packed, packArgs(*k, args, params));
  for (Write &w : writes) {
    w.st->written.reset(); // unknown until the copy is queued
    // From pageable memory the driver stages the bytes before returning, so
    // `w.bits` may go out of scope once the call returns.
    APPROX_CU_RETURN_IF_ERROR(impl.drv, cuMemcpyHtoDAsync, w.st->symbol,
                              &w.bits, w.st->symbolSize, stream);
    w.st->written = w.bits;
  }
  CUfunction f = impl.functions.at(k->name);
  APPROX_CU_RETURN_IF_ERROR(impl.drv, cuLaunchKernel, f, cfg.grid.x,
                            cfg.grid.y, cfg.grid.z, cfg.block.x, cfg.block.y,
                            cfg.block.z, cfg.sharedMemBytes, stream,
                            packed.pointers(), nullptr);
  return captureArgs(impl.drv, kernel, *k, args, stream);
}

Status Module::launchSync(const std::string &kernel, const LaunchConfig &cfg,
                          const std::vector<Arg> &args,
                          const LaunchOptions &opts) {
  APPROX_RETURN_IF_ERROR(launch(kernel, cfg, args, opts));
  Status s = opts.stream ? opts.stream->synchronize() : ctx_->synchronize();
  return s.withContext("kernel " + quote(kernel));
}

Expected<Timing> Module::time(const std::string &kernel,
                              const LaunchConfig &cfg,
                              const std::vector<Arg> &args,
                              const TimingOptions &timing,
                              const std::function<Status()> &beforeEach,
                              const LaunchOptions &opts) {
  if (timing.reps < 1 || timing.warmup < 0)
    return invalidArgument("timing needs reps >= 1 and warmup >= 0");
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  for (int i = 0; i < timing.warmup; ++i) {
    if (beforeEach)
      APPROX_RETURN_IF_ERROR(beforeEach());
    APPROX_RETURN_IF_ERROR(launch(kernel, cfg, args, opts));
  }
  APPROX_RETURN_IF_ERROR(opts.stream ? opts.stream->synchronize()
                                     : ctx_->synchronize());
  APPROX_ASSIGN_OR_RETURN(Event start, Event::create(ctx_));
  APPROX_ASSIGN_OR_RETURN(Event stop, Event::create(ctx_));
  Timing t;
  for (int i = 0; i < timing.reps; ++i) {
    if (beforeEach)
      APPROX_RETURN_IF_ERROR(beforeEach());
    APPROX_RETURN_IF_ERROR(start.record(opts.stream));
    APPROX_RETURN_IF_ERROR(launch(kernel, cfg, args, opts));
    APPROX_RETURN_IF_ERROR(stop.record(opts.stream));
    APPROX_RETURN_IF_ERROR(stop.synchronize());
    APPROX_ASSIGN_OR_RETURN(double ms, Event::elapsedMs(start, stop));
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
  APPROX_ASSIGN_OR_RETURN(const KernelInfo *k, resolveKernel(kernel));
  APPROX_RETURN_IF_ERROR(checkLaunchConfig(k->name, cfg));
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  CUfunction f = impl_->functions.at(k->name);
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
