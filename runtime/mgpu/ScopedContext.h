//===- ScopedContext.h - Make a context current for one mgpu call -*- C++ -*-===//
//
// Every mgpu* entry point runs with the library's context current, and must
// leave the caller's current context as it found it: host code that mixes
// mgpu calls with its own CUDA work (another context, or none) would
// otherwise find its context silently replaced. The guard pushes the context
// on the calling thread's stack and pops it on scope exit, as upstream MLIR's
// CUDA runtime does; a failed push pops nothing.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_MGPU_SCOPEDCONTEXT_H
#define APPROX_RUNTIME_MGPU_SCOPEDCONTEXT_H

#include "../core/Driver.h"

namespace approx::mgpu {

/// Reports a failed driver call (the mgpu ABI has no error channel).
using ReportFn = void (*)(CUresult result, const char *call);

/// Pushes `ctx` for the guard's lifetime; the previous current context
/// (possibly none) is current again afterwards.
class ScopedContext {
public:
  ScopedContext(const approx::rt::detail::Driver *drv, CUcontext ctx,
                ReportFn report)
      : drv_(drv), report_(report) {
    if (!drv_ || !ctx)
      return;
    CUresult r = drv_->cuCtxPushCurrent(ctx);
    pushed_ = r == CUDA_SUCCESS;
    if (!pushed_ && report_)
      report_(r, "cuCtxPushCurrent");
  }
  ~ScopedContext() {
    if (!pushed_)
      return;
    CUcontext popped = nullptr;
    CUresult r = drv_->cuCtxPopCurrent(&popped);
    if (r != CUDA_SUCCESS && report_)
      report_(r, "cuCtxPopCurrent");
  }
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

  /// True when the context was pushed (and will be popped).
  bool active() const { return pushed_; }

private:
  const approx::rt::detail::Driver *drv_;
  ReportFn report_;
  bool pushed_ = false;
};

} // namespace approx::mgpu

#endif // APPROX_RUNTIME_MGPU_SCOPEDCONTEXT_H
