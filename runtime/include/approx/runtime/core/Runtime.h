//===- Runtime.h - Devices, buffers, modules, launches, timing ---*- C++ -*-===//
//
// The GPU-facing half of the approx runtime, on the CUDA driver API with
// libcuda opened at run time:
//   Context       the primary context of one device;
//   DeviceBuffer  RAII device memory (alloc / fill / copy / free);
//   Module        a PTX or cubin + its manifest: kernels, knobs, launches,
//                 CUDA-event timing and the kernel's occupancy.
// Every call returns a Status/Expected; nothing throws. Objects keep their
// Context alive through a shared_ptr, so destruction order is free.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_RUNTIME_H
#define APPROX_RUNTIME_RUNTIME_H

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

/// Returns Ok when a CUDA driver and at least one GPU are usable, otherwise
/// an Unavailable status whose message says why (for tests that skip).
Status probeDriver();

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int smCount = 0;
  int maxThreadsPerSM = 0;
  int warpSize = 32;
  int driverVersion = 0; ///< e.g. 13000 for CUDA 13.0.
  size_t totalMemBytes = 0;
};

/// The retained primary context of one device, made current on creation.
class Context : public std::enable_shared_from_this<Context> {
public:
  /// Loads the driver and retains device `ordinal`'s primary context.
  static Expected<std::shared_ptr<Context>> create(int ordinal = 0);
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

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
  Context() = default;
  std::unique_ptr<Impl> impl_;
  DeviceInfo info_;
};

/// Owned device memory. Move-only; freed on destruction (errors from a
/// destructor-time free are dropped: call free() to see them).
class DeviceBuffer {
public:
  static Expected<DeviceBuffer> allocate(std::shared_ptr<Context> ctx,
                                         size_t bytes, ValueType elem);
  /// Allocates and uploads `count` elements of `elem` from `host`.
  static Expected<DeviceBuffer> fromHost(std::shared_ptr<Context> ctx,
                                         const void *host, size_t count,
                                         ValueType elem);
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  Status copyFromHost(const void *host, size_t bytes, size_t offset = 0);
  Status copyToHost(void *host, size_t bytes, size_t offset = 0) const;
  /// Copies all of `src` (same size) into this buffer on the device.
  Status copyFrom(const DeviceBuffer &src);
  /// Sets every byte to `value`.
  Status fillBytes(uint8_t value);
  /// Repeats the 32-bit `pattern` (bytes must be a multiple of 4).
  Status fill32(uint32_t pattern);
  /// Frees now; the buffer becomes empty.
  Status free();

  BufferView view() const { return {ptr_, bytes_, elem_}; }
  uint64_t devicePtr() const { return ptr_; }
  size_t bytes() const { return bytes_; }
  size_t count() const { return bytes_ / size_t(elem_.size()); }
  const ValueType &elementType() const { return elem_; }
  bool empty() const { return ptr_ == 0; }

private:
  std::shared_ptr<Context> ctx_;
  uint64_t ptr_ = 0;
  size_t bytes_ = 0;
  ValueType elem_ = ScalarType::F32;
};

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  uint64_t total() const { return uint64_t(x) * y * z; }
};

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  unsigned sharedMemBytes = 0;
};

/// Images (PTX or cubin) larger than this are refused before reading.
constexpr uint64_t kMaxImageBytes = uint64_t(1) << 30;

struct LoadOptions {
  /// Load the manifest's cubin when it has one (else its PTX).
  bool preferCubin = false;
  /// Override the manifest's image path (PTX or cubin, told by content).
  std::string imagePath;
  /// Accept `ptx`/`cubin` paths that are absolute, hold `..` or lead out of
  /// the manifest's directory (refused by default; docs/manifest.md).
  bool allowPathsOutsideManifestDir = false;
};

struct TimingOptions {
  int warmup = 3; ///< untimed launches first (JIT, caches, clocks).
  int reps = 20;  ///< timed launches; the median is reported.
};

struct Timing {
  double medianMs = 0, minMs = 0, maxMs = 0;
  std::vector<double> samplesMs;
};

/// What the driver says about one kernel at one launch shape.
struct KernelResources {
  int activeBlocksPerSM = 0; ///< cuOccupancyMaxActiveBlocksPerMultiprocessor.
  int numRegs = 0;           ///< registers per thread.
};

/// A loaded PTX/cubin with its manifest.
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
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  const Manifest &manifest() const { return manifest_; }
  std::vector<std::string> kernelNames() const;
  std::vector<std::string> knobNames() const;
  /// Info-level JIT log of the load (may be empty).
  const std::string &jitLog() const { return jitLog_; }
  const std::shared_ptr<Context> &context() const { return ctx_; }

  /// Sets knob `name` (checked against its range); global knobs read
  /// through their symbol are written to the device now.
  Status setKnob(const std::string &name, int64_t value);
  /// The current value of knob `name`.
  Expected<int64_t> getKnob(const std::string &name);

  /// Checks and launches `kernel` asynchronously on the default stream.
  Status launch(const std::string &kernel, const LaunchConfig &cfg,
                const std::vector<Arg> &args);
  /// launch() then synchronize: asynchronous faults are reported here.
  Status launchSync(const std::string &kernel, const LaunchConfig &cfg,
                    const std::vector<Arg> &args);
  /// Times `kernel` with CUDA events: opts.warmup untimed launches, then
  /// opts.reps timed ones; `beforeEach` (if set) runs before every launch,
  /// outside the timed region (e.g. to restore in-place inputs).
  Expected<Timing> time(const std::string &kernel, const LaunchConfig &cfg,
                        const std::vector<Arg> &args,
                        const TimingOptions &opts = {},
                        const std::function<Status()> &beforeEach = {});
  /// Resident blocks per SM and registers of `kernel` at `cfg` (the SFU
  /// λ bound, sfu/Occupancy.h, builds on it).
  Expected<KernelResources> kernelResources(const std::string &kernel,
                                            const LaunchConfig &cfg);

  struct Impl;

private:
  Module() = default;
  Status checkLaunchConfig(const std::string &kernel,
                           const LaunchConfig &cfg) const;
  std::shared_ptr<Context> ctx_;
  Manifest manifest_;
  std::string jitLog_;
  std::unique_ptr<Impl> impl_;
};

} // namespace approx::rt

#endif // APPROX_RUNTIME_RUNTIME_H
