//===- Passes.h - approx passes ---------------------------------*- C++ -*-===//
//
// Declarations and registration of the approx passes (generated from
// Passes.td) and the approx-to-ptx pipeline that composes them.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PASSES_PASSES_H
#define APPROX_PASSES_PASSES_H

#include "approx/Dialect/ApproxDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::approx {

#define GEN_PASS_DECL
#include "approx/Passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "approx/Passes/Passes.h.inc"

/// Options of the `approx-to-ptx` pipeline: one approx-opt invocation from
/// math/arith GPU kernels to NAME.ptx + NAME.manifest.json.
struct ApproxToPTXOptions : public PassPipelineOptions<ApproxToPTXOptions> {
  ListOption<std::string> functions{
      *this, "functions",
      llvm::cl::desc("Functions to approximate (default: all)")};
  ListOption<std::string> kernels{
      *this, "kernels", llvm::cl::desc("Kernels to approximate (default: all)")};
  Option<std::string> knob{*this, "knob", llvm::cl::desc("Knob name"),
                           llvm::cl::init("lambda")};
  Option<int64_t> knobMax{*this, "knob-max",
                          llvm::cl::desc("Largest knob value (warp slots/SM)"),
                          llvm::cl::init(64)};
  Option<std::string> slot{
      *this, "slot",
      llvm::cl::desc("Warp-slot source: hw, virtual or software"),
      llvm::cl::init("hw")};
  Option<bool> f64Demote{*this, "f64-demote",
                         llvm::cl::desc("f32-demoted SFU forms for f64 "
                                        "sin/cos/exp/log/pow"),
                         llvm::cl::init(false)};
  Option<bool> rangeReduction{*this, "range-reduction",
                              llvm::cl::desc("Reduce sin/cos args to [-pi,pi]"),
                              llvm::cl::init(false)};
  Option<unsigned> newtonSteps{
      *this, "newton-steps",
      llvm::cl::desc("Newton steps for f64 div/rcp/sqrt/rsqrt (0-3)"),
      llvm::cl::init(0)};
  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target SM"),
                           llvm::cl::init("sm_90")};
  Option<unsigned> optLevel{*this, "O", llvm::cl::desc("LLVM opt level"),
                            llvm::cl::init(3)};
  Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("Path of libdevice.10.bc (default: CUDA_PATH, then the "
                     "one found at build time)"),
      llvm::cl::init("")};
  Option<bool> fmad{*this, "fmad",
                    llvm::cl::desc("Let float mul+add fuse into fma, as "
                                   "nvcc's -fmad=true"),
                    llvm::cl::init(true)};
  Option<bool> barePtr{*this, "bare-ptr",
                       llvm::cl::desc("Pass static memrefs as bare pointers"),
                       llvm::cl::init(false)};
  Option<std::string> outputDir{*this, "output-dir",
                                llvm::cl::desc("Directory for the outputs"),
                                llvm::cl::init(".")};
  Option<std::string> name{*this, "name",
                           llvm::cl::desc("Base name of the outputs"),
                           llvm::cl::init("")};
  Option<bool> cubin{*this, "cubin", llvm::cl::desc("Also write NAME.cubin"),
                     llvm::cl::init(false)};
  Option<bool> exportFiles{*this, "export",
                           llvm::cl::desc("Write the output files (false: "
                                          "stop at gpu.binary, for tests)"),
                           llvm::cl::init(true)};
};

/// Checks `options` (chip known to the NVPTX backend, libdevice readable,
/// slot and ranges valid); on failure returns a one-line reason.
LogicalResult validateApproxToPTXOptions(const ApproxToPTXOptions &options,
                                         std::string &libdevicePath,
                                         std::string &error);

/// Appends the approx-to-ptx pipeline to `pm` (anchored on builtin.module).
/// `libdevicePath` is the resolved path from validateApproxToPTXOptions.
void buildApproxToPTXPipeline(OpPassManager &pm,
                              const ApproxToPTXOptions &options,
                              StringRef libdevicePath);

/// Registers `approx-to-ptx` for textual pipelines (approx-opt, mlir-opt-like
/// tools): `--approx-to-ptx="chip=sm_90 output-dir=out"`.
void registerApproxToPTXPipeline();

} // namespace mlir::approx

#endif // APPROX_PASSES_PASSES_H
