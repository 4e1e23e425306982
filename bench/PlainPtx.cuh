//===- PlainPtx.cuh - a plain nvcc build's kernel, loaded from its PTX ----===//
//
// The baselines a user would pick instead of ours (issue 30): the same
// source built by nvcc -O3, or nvcc -O3 -use_fast_math, to PTX and loaded
// at run time, since a build flag is per translation unit and the kernels'
// names would clash if linked (bench/apps/run-baselines.cu, approx-bench's
// --plain). The driver calls come through the runtime's entry points
// (cudaGetDriverEntryPointByVersion): a binary using this links no libcuda,
// so it starts, and refuses bad options, on a machine without a driver.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "BenchCommon.cuh"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>

/// The driver functions a plain build needs.
struct PlainDriver {
  PFN_cuModuleLoad_v2000 moduleLoad = nullptr;
  PFN_cuModuleGetFunction_v2000 moduleGetFunction = nullptr;
  PFN_cuModuleUnload_v2000 moduleUnload = nullptr;
  PFN_cuFuncSetAttribute_v9000 funcSetAttribute = nullptr;
  PFN_cuLaunchKernel_v4000 launchKernel = nullptr;
  PFN_cuGetErrorString_v6000 getErrorString = nullptr;
  static const PlainDriver &get() {
    static const PlainDriver d = [] {
      PlainDriver d;
      auto find = [](const char *name, auto &fn) {
        void *p = nullptr;
        cudaDriverEntryPointQueryResult q{};
        CK(cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault,
                                            &q));
        if (!p || q != cudaDriverEntryPointSuccess) {
          std::fprintf(stderr, "the CUDA driver has no %s\n", name);
          std::exit(2);
        }
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
      };
      find("cuModuleLoad", d.moduleLoad);
      find("cuModuleGetFunction", d.moduleGetFunction);
      find("cuModuleUnload", d.moduleUnload);
      find("cuFuncSetAttribute", d.funcSetAttribute);
      find("cuLaunchKernel", d.launchKernel);
      find("cuGetErrorString", d.getErrorString);
      return d;
    }();
    return d;
  }
  /// Exits 2 naming `tool` and `what` unless `r` is CUDA_SUCCESS.
  void check(CUresult r, const char *tool, const std::string &what) const {
    if (r == CUDA_SUCCESS)
      return;
    const char *s = nullptr;
    getErrorString(r, &s);
    std::fprintf(stderr, "%s: %s: %s\n", tool, what.c_str(), s ? s : "?");
    std::exit(2);
  }
};

/// One kernel of a plain build's PTX file.
struct PlainKernel {
  const char *tool;
  std::string name;
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  /// Loads `kernel` from `ptx`; `shared`: the dynamic shared memory its
  /// launches ask for (above 48 KiB it must be allowed first). Exits 2,
  /// naming `tool`, when the file or the kernel is not there.
  PlainKernel(const char *tool, const std::string &ptx, const char *kernel,
              unsigned shared = 0)
      : tool(tool), name(ptx + ":" + kernel) {
    if (FILE *f = std::fopen(ptx.c_str(), "r"))
      std::fclose(f);
    else {
      std::fprintf(stderr, "%s: cannot read %s\n", tool, ptx.c_str());
      std::exit(2);
    }
    const PlainDriver &drv = PlainDriver::get();
    drv.check(drv.moduleLoad(&module, ptx.c_str()), tool, "load " + ptx);
    drv.check(drv.moduleGetFunction(&fn, module, kernel), tool, name);
    if (shared > 48 * 1024)
      drv.check(drv.funcSetAttribute(
                    fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    int(shared)),
                tool, name);
  }
  ~PlainKernel() { PlainDriver::get().moduleUnload(module); }
  PlainKernel(const PlainKernel &) = delete;
  PlainKernel &operator=(const PlainKernel &) = delete;
  /// A launch on the legacy default stream, as <<<>>> and the runtime's.
  void launch(dim3 grid, dim3 block, unsigned shared, void **params) const {
    PlainDriver::get().check(
        PlainDriver::get().launchKernel(fn, grid.x, grid.y, grid.z, block.x,
                                        block.y, block.z, shared, nullptr,
                                        params, nullptr),
        tool, "launch " + name);
  }
};

/// Ours for the comparison with the plain builds: the module at
/// `manifestPath` loaded with its knob `lambda` set once. The runners load
/// one per λ they time: λ is a device global the runtime writes when it
/// changes, so one module alternating λ every round would put that copy
/// inside every timed launch, a cost a program that sets λ once does not
/// pay (and nvcc's builds never do).
inline std::unique_ptr<approx::rt::Module>
oursAtLambda(const std::shared_ptr<approx::rt::Context> &ctx,
             const std::string &manifestPath, int64_t lambda) {
  auto m = approx::rt::Module::load(ctx, manifestPath);
  check(m.status(), manifestPath.c_str());
  check((*m)->setKnob("lambda", lambda), "setKnob lambda");
  return std::move(*m);
}
