//===- KnobHooks.h - The tuner's knobs and captures through mgpu* -*- C++ -*-===//
//
// What lets `approx tune MANIFEST -- PROGRAM` tune an MLIR host program
// lowered with gpu-to-llvm (docs/tuning.md, "Whole programs"): the program
// never calls the runtime's Module::load, so the mgpu* library does what it
// would.
//   - APPROX_CONFIG (a knobs file, core/Config.h) with APPROX_MANIFEST (the
//     manifest approx-to-ptx wrote for the program's gpu.module): a loaded
//     module holding every kernel of the manifest is that module; its
//     global knobs are written into their device symbols at load, a variant
//     knob's value picks the kernel mgpuModuleGetFunction returns for the
//     logical name, and a build knob must name the build loaded. The
//     program has no setKnob: the file's values stay for the whole run.
//   - APPROX_CAPTURE (core/Capture.h): each device-to-host mgpuMemcpy, once
//     its stream has finished it, is written like DeviceBuffer::copyToHost's
//     copies, typed by the element type (APPROX_MANIFEST's) of the memref
//     argument a launch passed its allocation as (a copy from memory no
//     launch has passed is not captured, and said so once on stderr).
// Off when neither variable is set. What cannot be applied (no manifest,
// a knob passed as a kernel parameter or as a texture, a variant knob
// while the precision hooks choose variants, a knobs file that names
// another build, launches of a program none of whose modules is the
// manifest's while the file sets knobs) prints one line and aborts: a
// configuration silently not applied would be measured as if it were.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_MGPU_KNOBHOOKS_H
#define APPROX_RUNTIME_MGPU_KNOBHOOKS_H

#include "PrecisionHooks.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace approx::mgpu {

class KnobHooks {
public:
  /// The process's hooks, created on first use from the environment;
  /// nullptr when neither APPROX_CONFIG nor APPROX_CAPTURE is set.
  /// `precisionOn`: the precision hooks choose the variants.
  static KnobHooks *get(const approx::rt::detail::Driver *drv,
                        ReportFn report, bool precisionOn);
  /// Tests: forgets the hooks; the next get() reads the environment again.
  static void resetForTesting();

  virtual ~KnobHooks() = default;
  /// mgpuModuleLoad(JIT) loaded `module`: the knobs file's global knobs are
  /// written when it is the manifest's module.
  virtual void moduleLoaded(CUmodule module) = 0;
  /// mgpuModuleGetFunction: the entry to look up for `name` (a variant
  /// knob's choice), or `name` itself.
  virtual std::string entryFor(CUmodule module, const char *name) = 0;
  /// mgpuModuleGetFunction returned `f` for logical `name`, entry `entry`.
  virtual void gotFunction(CUfunction f, CUmodule module,
                           const std::string &entry) = 0;
  /// mgpuLaunchKernel, before the launch: learns the element types of the
  /// allocations its memref arguments pass.
  virtual void launching(CUfunction f, void **params) = 0;
  /// mgpuMemAlloc returned `p` of `bytes`; mgpuMemFree(p).
  virtual void allocated(void *p, uint64_t bytes) = 0;
  virtual void freed(void *p) = 0;
  /// mgpuMemcpy queued (or did) a copy on `stream`: a device-to-host one is
  /// captured once the stream has finished it.
  virtual void copied(void *dst, void *src, size_t bytes, CUstream stream) = 0;
};

} // namespace approx::mgpu

#endif // APPROX_RUNTIME_MGPU_KNOBHOOKS_H
