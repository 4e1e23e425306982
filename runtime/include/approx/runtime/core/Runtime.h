//===- Runtime.h - Devices, buffers, streams, modules, launches --*- C++ -*-===//
//
// The GPU-facing half of the approx runtime, on the CUDA driver API with
// libcuda opened at run time:
//   Context       the primary context of one device;
//   DeviceBuffer  RAII device memory (alloc / fill / copy / free);
//   Stream        an RAII CUDA stream;
//   Event         an RAII CUDA event (record, wait, elapsed time);
//   Module        a PTX or cubin + its manifest: kernels, knobs of every
//                 kind (global, variant, resource), launches on a stream
//                 with per-launch knob values, CUDA-event timing.
// Every call returns a Status/Expected; nothing throws. Objects keep their
// Context alive through a shared_ptr, so destruction order is free.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_RUNTIME_H
#define APPROX_RUNTIME_CORE_RUNTIME_H

#include "approx/runtime/core/Args.h"
#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Status.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace approx::rt {

class Context;
namespace detail {
struct Driver;
/// Creates a Context over an explicit driver table (the dlopen'ed one, or a
/// test double); Context::create uses Driver::get().
Expected<std::shared_ptr<Context>> createContext(const Driver *drv,
                                                 int ordinal);
} // namespace detail

/// Returns Ok when a CUDA driver and at least one GPU are usable, otherwise
/// an Unavailable status whose message says why (for tests that skip).
Status probeDriver();

/// What the runtime knows of one device.
struct DeviceInfo {
  int ordinal = 0;              ///< CUDA device ordinal.
  std::string name;             ///< e.g. "NVIDIA H200".
  int ccMajor = 0, ccMinor = 0; ///< compute capability.
  int smCount = 0;              ///< multiprocessors.
  int maxThreadsPerSM = 0;      ///< resident threads per multiprocessor.
  int warpSize = 32;            ///< threads per warp.
  int driverVersion = 0;        ///< e.g. 13000 for CUDA 13.0.
  size_t totalMemBytes = 0;     ///< device memory.
  /// "GPU-8-4-4-4-12 hex digits", nvidia-smi's and NVML's spelling; empty
  /// when the driver does not say.
  std::string uuid;
};

/// The retained primary context of one device, made current on creation.
class Context : public std::enable_shared_from_this<Context> {
public:
  /// Loads the driver and retains device `ordinal`'s primary context.
  static Expected<std::shared_ptr<Context>> create(int ordinal = 0);
  ~Context(); ///< Releases the primary context.
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  /// What the runtime read of the device at creation.
  const DeviceInfo &device() const { return info_; }
  /// Makes this context current on the calling thread.
  Status makeCurrent() const;
  /// Waits for all work; surfaces asynchronous launch errors.
  Status synchronize() const;
  /// Free and total device memory in bytes.
  Status memInfo(size_t &freeBytes, size_t &totalBytes) const;

  /// Opaque handles for the implementation.
  struct Impl;
  const Impl &impl() const { return *impl_; }

private:
  friend Expected<std::shared_ptr<Context>>
  detail::createContext(const detail::Driver *drv, int ordinal);
  Context() = default;
  std::unique_ptr<Impl> impl_;
  DeviceInfo info_;
};

/// Owned device memory. Move-only; freed on destruction (errors from a
/// destructor-time free are dropped: call free() to see them).
class DeviceBuffer {
public:
  /// Allocates `bytes` (a whole number of `elem`) on `ctx`'s device.
  static Expected<DeviceBuffer> allocate(std::shared_ptr<Context> ctx,
                                         size_t bytes, ValueType elem);
  /// Allocates and uploads `count` elements of `elem` from `host`.
  static Expected<DeviceBuffer> fromHost(std::shared_ptr<Context> ctx,
                                         const void *host, size_t count,
                                         ValueType elem);
  /// An empty buffer (owns nothing).
  DeviceBuffer() = default;
  /// Takes `other`'s memory; `other` becomes empty.
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  /// Copies `bytes` from `host` to the buffer at `offset` (synchronous).
  Status copyFromHost(const void *host, size_t bytes, size_t offset = 0);
  /// Copies `bytes` at `offset` of the buffer to `host` (synchronous).
  /// With APPROX_CAPTURE=DIR in the environment, also writes the bytes to
  /// DIR/d2h-NNNNNN.TYPE.bin (a process-wide sequence number, the buffer's
  /// element type): the outputs a tuner running this program compares.
  Status copyToHost(void *host, size_t bytes, size_t offset = 0) const;
  /// Copies all of `src` (same size) into this buffer on the device.
  Status copyFrom(const DeviceBuffer &src);
  /// Sets every byte to `value`.
  Status fillBytes(uint8_t value);
  /// Repeats the 32-bit `pattern` (bytes must be a multiple of 4).
  Status fill32(uint32_t pattern);
  /// Frees now; the buffer becomes empty.
  Status free();

  /// A non-owning view for Arg::memref.
  BufferView view() const { return {ptr_, bytes_, elem_}; }
  /// The CUdeviceptr (0 when empty).
  uint64_t devicePtr() const { return ptr_; }
  /// Capacity in bytes.
  size_t bytes() const { return bytes_; }
  /// Elements of elementType() that fit.
  size_t count() const { return bytes_ / size_t(elem_.size()); }
  /// The element type it was allocated for.
  const ValueType &elementType() const { return elem_; }
  /// True when it owns no memory.
  bool empty() const { return ptr_ == 0; }

private:
  std::shared_ptr<Context> ctx_;
  uint64_t ptr_ = 0;
  size_t bytes_ = 0;
  ValueType elem_ = ScalarType::F32;
};

/// An owned CUDA stream of one context. Move-only; destroyed on
/// destruction (after its work completes: cuStreamDestroy does not wait,
/// but the driver finishes queued work before releasing it).
class Stream {
public:
  /// Creates a stream that orders with the legacy default stream (so
  /// synchronous copies on the default stream, e.g. DeviceBuffer's, are
  /// ordered with its work).
  static Expected<Stream> create(std::shared_ptr<Context> ctx);
  /// An empty stream (owns nothing; launches on it are refused).
  Stream() = default;
  /// Takes `other`'s stream; `other` becomes empty.
  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();

  /// Waits for the stream's work; surfaces asynchronous launch errors.
  Status synchronize() const;
  /// Destroys the stream now; it becomes empty.
  Status destroy();
  /// The CUstream (opaque here); null for an empty Stream.
  void *handle() const { return stream_; }
  /// The context the stream belongs to.
  const std::shared_ptr<Context> &context() const { return ctx_; }
  /// True when it owns no stream.
  bool empty() const { return stream_ == nullptr; }

private:
  std::shared_ptr<Context> ctx_;
  void *stream_ = nullptr;
};

/// An owned CUDA event of one context, for timing work on a stream (or the
/// legacy default stream, where DeviceBuffer's synchronous copies and
/// launches without a Stream run). Move-only; destroyed on destruction.
class Event {
public:
  /// Creates an event with timing enabled (CU_EVENT_DEFAULT).
  static Expected<Event> create(std::shared_ptr<Context> ctx);
  /// An empty event (owns nothing; every call but destroy() is refused).
  Event() = default;
  /// Takes `other`'s event; `other` becomes empty.
  Event(Event &&other) noexcept;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();

  /// Records the event on `stream` (nullptr: the legacy default stream).
  Status record(const Stream *stream = nullptr);
  /// Waits until the work recorded before the event has completed;
  /// surfaces asynchronous launch errors.
  Status synchronize() const;
  /// Milliseconds from `start` to `end`, both recorded and completed (call
  /// end.synchronize() first), in the same context.
  static Expected<double> elapsedMs(const Event &start, const Event &end);
  /// Destroys the event now; it becomes empty.
  Status destroy();
  /// The CUevent (opaque here); null for an empty Event.
  void *handle() const { return event_; }
  /// True when it owns no event.
  bool empty() const { return event_ == nullptr; }

private:
  std::shared_ptr<Context> ctx_;
  void *event_ = nullptr;
};

/// Grid or block dimensions.
struct Dim3 {
  unsigned x = 1, y = 1, z = 1; ///< extents
  /// x * y * z.
  uint64_t total() const { return uint64_t(x) * y * z; }
};

/// The shape of one launch.
struct LaunchConfig {
  Dim3 grid;                   ///< blocks
  Dim3 block;                  ///< threads per block (at most 1024)
  unsigned sharedMemBytes = 0; ///< dynamic shared memory per block
};

/// How one launch runs: where, and with which knob values.
struct LaunchOptions {
  /// The stream; nullptr launches on the legacy default stream.
  const Stream *stream = nullptr;
  /// Per-launch knob values (checked against each knob's range); knobs not
  /// named use the Module's current value. A `path: "param"` knob's value
  /// travels in the launch's parameters, so launches on different streams
  /// with different values never race. A `path: "global"` knob's value is
  /// written to its symbol with an asynchronous copy on the launch's stream
  /// (when it differs from what the symbol holds): ordered with that
  /// stream's launches only, so race-free on one stream only.
  std::map<std::string, int64_t> knobs;
};

/// Images (PTX or cubin) larger than this are refused before reading.
constexpr uint64_t kMaxImageBytes = uint64_t(1) << 30;

/// How Module::load finds and checks the image.
struct LoadOptions {
  /// Load the manifest's cubin when it has one (else its PTX).
  bool preferCubin = false;
  /// Override the manifest's image path (PTX or cubin, told by content).
  std::string imagePath;
  /// Accept `ptx`/`cubin` paths that are absolute, hold `..` or lead out of
  /// the manifest's directory (refused by default; docs/manifest.md).
  bool allowPathsOutsideManifestDir = false;
  /// Apply the knobs file named by APPROX_CONFIG, when set (a tuner running
  /// this program chose them; readKnobsFile): its knobs are set and pinned,
  /// so the program's own setKnob on them changes nothing. Tuners that
  /// load modules themselves turn it off.
  bool applyEnvironment = true;
};

/// Module::time's repetitions.
struct TimingOptions {
  int warmup = 3; ///< untimed launches first (JIT, caches, clocks).
  int reps = 20;  ///< timed launches; the median is reported.
};

/// CUDA-event times of Module::time, in milliseconds.
struct Timing {
  double medianMs = 0, minMs = 0, maxMs = 0; ///< over the timed launches
  std::vector<double> samplesMs;             ///< each timed launch
};

/// What the driver says about one kernel at one launch shape.
struct KernelResources {
  int activeBlocksPerSM = 0; ///< cuOccupancyMaxActiveBlocksPerMultiprocessor.
  int numRegs = 0;           ///< registers per thread.
};

/// A loaded PTX/cubin with its manifest.
///
/// Knobs: every knob has a current value (initially its default) set by
/// setKnob. A launch uses it, or the LaunchOptions' value:
///   global,   path global  the symbol is written before the launch when it
///                          holds another value;
///   global,   path param   the value is the kernel's knob parameter;
///   variant                a launch of a dispatched logical name launches
///                          variants[value - min] (checked against that
///                          variant's arguments);
///   resource, either path  the texture of options[value - min] is created
///                          on first use (CUDA array + texture object, float
///                          reads) and its handle written to the symbol or
///                          passed as the parameter; setKnob to another
///                          value waits for the context and destroys the
///                          textures of other values; unloading destroys all.
/// Module calls are serialized by an internal mutex.
class Module {
public:
  /// Loads `manifestPath` and the image it names (JIT log in errors).
  static Expected<std::unique_ptr<Module>>
  load(std::shared_ptr<Context> ctx, const std::string &manifestPath,
       const LoadOptions &opts = {});
  /// Loads an in-memory image (PTX text, NUL-terminated by us, or cubin).
  static Expected<std::unique_ptr<Module>>
  loadFromMemory(std::shared_ptr<Context> ctx, Manifest manifest,
                 const std::string &image);
  /// Waits for the context if textures exist, destroys them, unloads.
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  /// The manifest the module was loaded with.
  const Manifest &manifest() const { return manifest_; }
  /// Constant-time lookups into manifest().
  const ManifestIndex &index() const;
  /// Names of the manifest's kernels.
  std::vector<std::string> kernelNames() const;
  /// Names of the manifest's knobs.
  std::vector<std::string> knobNames() const;
  /// Info-level JIT log of the load (may be empty).
  const std::string &jitLog() const { return jitLog_; }
  /// The context the module lives in.
  const std::shared_ptr<Context> &context() const { return ctx_; }

  /// Sets knob `name`'s current value (checked against its range). Resource
  /// knobs changing value release the other values' textures (after a
  /// context synchronize). A knob a knobs file pinned (applyKnobsFile)
  /// keeps its value: the call checks the value and changes nothing.
  Status setKnob(const std::string &name, int64_t value);
  /// Sets the knobs the knobs file `path` gives this module
  /// (readKnobsFile) and pins them; a build knob must name this build's
  /// value. Module::load calls it for APPROX_CONFIG (LoadOptions).
  Status applyKnobsFile(const std::string &path);
  /// The current value of knob `name`.
  Expected<int64_t> getKnob(const std::string &name) const;
  /// Reads the device symbol of global or resource knob `name` (what the
  /// last launch wrote, or the image's initial value); synchronous.
  Expected<int64_t> readKnobSymbol(const std::string &name) const;

  /// The kernel a launch of `name` runs: the variant a variant knob
  /// dispatches to (by `knobs` or the current values), or `name` itself.
  Expected<const KernelInfo *>
  resolveKernel(const std::string &name,
                const std::map<std::string, int64_t> &knobs = {}) const;

  /// Checks and launches `kernel` asynchronously.
  Status launch(const std::string &kernel, const LaunchConfig &cfg,
                const std::vector<Arg> &args, const LaunchOptions &opts = {});
  /// launch() then waits for the stream (or the context): asynchronous
  /// faults are reported here.
  Status launchSync(const std::string &kernel, const LaunchConfig &cfg,
                    const std::vector<Arg> &args,
                    const LaunchOptions &opts = {});
  /// Times `kernel` with CUDA events on opts' stream: timing.warmup untimed
  /// launches, then timing.reps timed ones; `beforeEach` (if set) runs
  /// before every launch, outside the timed region (e.g. to restore
  /// in-place inputs).
  Expected<Timing> time(const std::string &kernel, const LaunchConfig &cfg,
                        const std::vector<Arg> &args,
                        const TimingOptions &timing = {},
                        const std::function<Status()> &beforeEach = {},
                        const LaunchOptions &opts = {});
  /// Resident blocks per SM and registers of `kernel` (resolved as a
  /// launch would be) at `cfg`; the SFU λ bound (sfu/Occupancy.h) builds on
  /// it.
  Expected<KernelResources> kernelResources(const std::string &kernel,
                                            const LaunchConfig &cfg);
  /// Texture objects alive now (resource knobs), for tests and leak checks.
  size_t liveTextures() const;

  struct Impl;

private:
  Module() = default;
  static Expected<std::unique_ptr<Module>>
  loadImpl(std::shared_ptr<Context> ctx, Manifest manifest,
           const std::string &image);
  std::shared_ptr<Context> ctx_;
  Manifest manifest_;
  std::string jitLog_;
  std::unique_ptr<Impl> impl_;
};

} // namespace approx::rt

#endif // APPROX_RUNTIME_CORE_RUNTIME_H
