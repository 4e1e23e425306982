//===- PrecisionHooks.h - precision scaling through the mgpu* calls -*- C++ -*-===//
//
// Precision scaling (issue 10, docs/precision.md, "MLIR host programs: mgpu*
// hooks") for programs lowered with gpu-to-llvm: the mgpu* library is the
// interposition point PreScaler got by wrapping OpenCL. Off unless
// APPROX_PRECISION says profile or scale; then
//
//   - object n is the n-th mgpuMemAlloc ("obj<n>" in profiles and
//     configurations), its declared element type the manifest's element
//     type of the first memref argument a launch passes it as;
//   - profile records per object its byte size, whole-object transfers
//     (mgpuMemcpy; direction from which side mgpuMemAlloc returned) with
//     event times, the kernels that read and write it, per kernel its event
//     time, and writes Decision.h's AppProfile when the last module is
//     unloaded (or at exit);
//   - scale allocates each configured object in its storage type, converts
//     its transfers through one TransferEngine by the configured method, and
//     launches, instead of the kernel asked for, the variant of the same
//     module whose memref arguments have the objects' storage types; with
//     APPROX_PRECISION_EXPECT=<profile> each transfer must be the next of
//     the profile's signature ("h2d obj0 4096"), and with
//     APPROX_PRECISION_REPORT=<file> the end of the run writes a JSON
//     report (wall, kernel and per-object transfer seconds, the variants
//     that ran, overflowed objects and conversion losses);
//   - in either mode, APPROX_PRECISION_OUTPUTS=<file> keeps the host bytes
//     of every object's last device-to-host transfer when it completes
//     (synchronizing the program's stream there; the copy's time is left
//     out of the run's wall time) and writes them, widened to f64, at the
//     end (OutputsFile.h): what approx-scale --exec compares with the f64
//     run's;
//   - the run's time (the profile's total seconds, the report's wall
//     seconds, approx-scale --exec's baseline and trial times) spans the
//     program's GPU section only: from the first mgpuMemAlloc, mgpuMemcpy,
//     mgpuMemset* or mgpuLaunchKernel to the end of the last of those or of
//     mgpuMemFree (0 when there was none). Host work before it (inputs) and
//     after it (a CPU reference) is the same in every configuration and only
//     adds noise; host work between device calls stays counted.
//
// The mgpu ABI has no error channel: whatever cannot be mapped (a partial
// copy, one pointer used with two element types, no matching variant, a
// configuration naming an object the program never allocates, a transfer
// the expected profile does not have, bad environment values) prints one
// line naming the call and aborts the process; a silently wrong scaled run
// or profile is worse than a crash.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_MGPU_PRECISIONHOOKS_H
#define APPROX_RUNTIME_MGPU_PRECISIONHOOKS_H

#include "../core/Driver.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace approx::mgpu {

/// Reports a failed driver call (MgpuRuntime.cpp's report()).
using ReportFn = void (*)(CUresult result, const char *call);

/// The hooks of one process. Every member is called from the mgpu* entry
/// point of the same name, with the library's context current.
class PrecisionHooks {
public:
  /// The process's hooks, created on first use from the environment over
  /// `drv` and device `ordinal`; nullptr when APPROX_PRECISION is unset,
  /// empty or "plain" (the library then behaves as without hooks). Bad
  /// environment values or files abort with one line.
  static PrecisionHooks *get(const approx::rt::detail::Driver *drv,
                             int ordinal, ReportFn report);
  /// Tests: destroys the process's hooks without finishing them (no
  /// profile written, nothing checked); the next get() reads the
  /// environment again.
  static void resetForTesting();

  virtual ~PrecisionHooks() = default;

  /// mgpuModuleLoad / mgpuModuleLoadJIT returned `module`.
  virtual void moduleLoaded(CUmodule module) = 0;
  /// Before cuModuleUnload: the last module's unload finishes the run
  /// (profile written, scale summary printed).
  virtual void moduleUnloading(CUmodule module) = 0;
  /// mgpuModuleGetFunction: looks `name` up (a logical kernel of the
  /// manifest's dispatch that is not itself a kernel of the module gets its
  /// first variant's handle) and remembers the function's module and name.
  virtual CUfunction getFunction(CUmodule module, const char *name) = 0;
  /// mgpuLaunchKernel: records, then launches the (variant) function.
  virtual void launch(CUfunction f, const unsigned grid[3],
                      const unsigned block[3], unsigned smem, CUstream stream,
                      void **params, void **extra) = 0;
  /// mgpuMemAlloc (sizeBytes > 0): allocates the next object.
  virtual void *alloc(uint64_t bytes, bool hostShared) = 0;
  /// mgpuMemFree: forgets the live object at `ptr` (the caller frees).
  virtual void freed(void *ptr) = 0;
  /// mgpuMemcpy: true when the hooks did the copy; false: the caller
  /// copies as usual (neither side is an object, or nothing to convert).
  virtual bool memcpy(void *dst, void *src, size_t bytes, CUstream stream) = 0;
  /// mgpuMemset16/32 (`elemBytes` 2 or 4): true when done here (a scaled
  /// object set to 0).
  virtual bool memset(void *dst, unsigned value, size_t count,
                      unsigned elemBytes, CUstream stream) = 0;
  /// mgpuMemHostRegister: host memory at [ptr, ptr+bytes) is page-locked.
  virtual void hostRegistered(void *ptr, uint64_t bytes) = 0;
  /// mgpuMemHostUnregister.
  virtual void hostUnregistered(void *ptr) = 0;
  /// Ends the run once: profile written, summary printed, configuration
  /// checked against the objects seen.
  virtual void finish(const char *call) = 0;
};

/// Tests: the driver table the mgpu* functions use instead of libcuda
/// (nullptr: libcuda again). MgpuRuntime.cpp.
void setDriverForTesting(const approx::rt::detail::Driver *drv);

} // namespace approx::mgpu

#endif // APPROX_RUNTIME_MGPU_PRECISIONHOOKS_H
