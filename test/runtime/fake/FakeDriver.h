//===- FakeDriver.h - An in-process stand-in for libcuda ---------*- C++ -*-===//
//
// A test double for the driver table (runtime/core/Driver.h): the runtime's
// host-side logic (module loading and symbol checks, knob writes, variant
// dispatch, knob parameters, texture lifetimes, streams, timing, status
// mapping, sticky faults) runs against it on machines without a GPU.
//
// "Device" memory is host memory (a CUdeviceptr is a host address); copies
// are range-checked against live allocations and module globals. Modules are
// PTX text scanned for `.entry` names with their `.param` sizes and for
// `.global` variables; a line holding `bogus` makes the JIT fail with a
// two-line log. A launch copies its parameters by the entry's sizes into a
// LaunchRecord and runs the kernel body a test registered (bodies read and
// write buffers directly, and may return an error: a sticky one poisons the
// fake context as a real fault does). Failures can be injected per call.
// Everything is single-threaded and global: tests call reset() first.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TEST_RUNTIME_FAKE_FAKEDRIVER_H
#define APPROX_TEST_RUNTIME_FAKE_FAKEDRIVER_H

#include "Driver.h"

#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace approx::rt::fake {

struct FakeModule;

/// One kernel launch as the fake saw it.
struct LaunchRecord {
  std::string kernel;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  unsigned sharedBytes = 0;
  CUstream stream = nullptr;
  std::vector<std::vector<uint8_t>> params; ///< bytes of each parameter
  FakeModule *module = nullptr;
  double durationMs = 0.01; ///< a body may set it (advances the clock)

  /// Parameter `i` as a T (its bytes must be sizeof(T)).
  template <typename T> T param(size_t i) const {
    T v{};
    if (i < params.size() && params[i].size() == sizeof(T))
      std::memcpy(&v, params[i].data(), sizeof(T));
    return v;
  }
  /// Parameter `i` as a host pointer (a fake device pointer).
  template <typename T> T *ptr(size_t i) const {
    return reinterpret_cast<T *>(uintptr_t(param<uint64_t>(i)));
  }
  /// The module global `name`, sign-extended from its size.
  int64_t global(const std::string &name) const;
};

/// A kernel body: runs at launch, synchronously.
using KernelBody = std::function<CUresult(LaunchRecord &)>;

/// A texture object the fake created.
struct FakeTexture {
  const void *array = nullptr; ///< the FakeArray it reads
  unsigned width = 0, height = 0, channels = 0;
  /// The array's depth: 0 for a 2-D array (cuArrayCreate), as CUDA has it;
  /// the Depth of a cuArray3DCreate.
  unsigned depth = 0;
  std::vector<float> data;     ///< the array's contents at creation
  CUaddress_mode address = CU_TR_ADDRESS_MODE_WRAP; ///< addressMode[0]
  /// addressMode[0..2] (x, y, z).
  CUaddress_mode addressModes[3] = {CU_TR_ADDRESS_MODE_WRAP,
                                    CU_TR_ADDRESS_MODE_WRAP,
                                    CU_TR_ADDRESS_MODE_WRAP};
  CUfilter_mode filter = CU_TR_FILTER_MODE_POINT;
  unsigned flags = 0;
};

/// An asynchronous host-to-device copy as the fake saw it.
struct AsyncCopy {
  CUdeviceptr dst = 0;
  std::vector<uint8_t> bytes;
  CUstream stream = nullptr;
};

/// The fake driver: one per process.
class FakeDriver {
public:
  static FakeDriver &get();
  /// The function table to give detail::createContext.
  const detail::Driver *table() const { return &table_; }
  /// Forgets everything (leaks included) and restores defaults.
  void reset();

  /// The `skip`+1-th next call of `call` ("cuMemAlloc") returns `result`.
  void failCall(const std::string &call, CUresult result, int skip = 0);
  /// Registers the body of kernel `name` (any module).
  void setKernel(const std::string &name, KernelBody body);

  // What happened.
  std::vector<LaunchRecord> launches;
  /// The descriptor of every cuArray3DCreate call that got past failure
  /// injection (valid or not), in order.
  std::vector<CUDA_ARRAY3D_DESCRIPTOR> array3DDescriptors;
  /// The parameters of every cuMemcpy3D call that got past failure
  /// injection, in order (srcHost points at the caller's memory).
  std::vector<CUDA_MEMCPY3D> memcpy3DCalls;
  std::vector<AsyncCopy> asyncCopies;
  /// Calls per entry point.
  std::map<std::string, int> calls;
  /// Live objects (leak checks).
  size_t liveAllocations() const { return allocations_.size(); }
  size_t liveArrays() const { return arrays_.size(); }
  size_t liveTextures() const { return textures_.size(); }
  size_t liveStreams() const { return streams_.size(); }
  size_t liveEvents() const { return events_.size(); }
  size_t liveModules() const { return modules_.size(); }
  int primaryRefs() const { return primaryRefs_; }
  /// The texture object `handle`, or nullptr.
  const FakeTexture *texture(uint64_t handle) const;
  /// Global `name` of the most recently loaded module, sign-extended.
  int64_t global(const std::string &name) const;

  // Settings (reset() restores them).
  size_t memoryLimit = size_t(1) << 30;
  int deviceCount = 1;
  int activeBlocksPerSM = 8; ///< cuOccupancyMaxActiveBlocksPerMultiprocessor
  /// Set when a body returned a sticky error: every later call fails so.
  CUresult sticky = CUDA_SUCCESS;

  // Context state, visible for the mgpu guard tests.
  CUcontext primary = reinterpret_cast<CUcontext>(uintptr_t(0xc0ffee));
  CUcontext current = nullptr;
  std::vector<CUcontext> stack;

  // Internals used by the fake entry points.
  struct Array {
    unsigned width, height, channels;
    CUarray_format format;
    std::vector<float> data;
    unsigned depth = 0; ///< 0: a 2-D array; else a 3-D one, slices of data
    unsigned flags = 0; ///< CUDA_ARRAY3D_DESCRIPTOR::Flags
  };
  CUresult enter(const char *call);
  bool validRange(CUdeviceptr p, size_t bytes) const;
  std::map<uintptr_t, size_t> allocations_;
  size_t used_ = 0;
  std::set<FakeModule *> modules_;
  FakeModule *lastModule_ = nullptr;
  std::set<void *> streams_, events_;
  std::map<void *, std::unique_ptr<Array>> arrays_;
  std::map<uint64_t, FakeTexture> textures_;
  uint64_t nextTexture_ = 1;
  int primaryRefs_ = 0;
  double clockMs_ = 0;
  std::map<void *, double> eventTimes_;
  std::map<std::string, KernelBody> bodies_;
  std::map<std::string, std::deque<std::pair<int, CUresult>>> failures_;

private:
  FakeDriver();
  detail::Driver table_;
};

/// A fake module: what the PTX scan found.
struct FakeModule {
  struct Function {
    std::string name;
    std::vector<size_t> paramSizes;
    FakeModule *module = nullptr;
  };
  std::map<std::string, std::unique_ptr<Function>> functions;
  std::map<std::string, std::vector<uint8_t>> globals; ///< stable storage
};

} // namespace approx::rt::fake

#endif // APPROX_TEST_RUNTIME_FAKE_FAKEDRIVER_H
