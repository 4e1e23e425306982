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
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::approx {

#define GEN_PASS_DECL
#include "approx/Passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "approx/Passes/Passes.h.inc"

/// How kernels read knob values (pipeline option `knob-path`).
enum class KnobPath { Global, Param };

/// Options of the `approx-to-ptx` pipeline: one approx-opt invocation from
/// GPU kernels (outlined or not) to NAME.ptx + NAME.manifest.json per
/// gpu.module. Each option is checked by the pass that uses it.
struct ApproxToPTXOptions : public PassPipelineOptions<ApproxToPTXOptions> {
  ListOption<std::string> functions{
      *this, "functions",
      llvm::cl::desc("Functions to approximate (default: all with an SFU "
                     "form)")};
  ListOption<std::string> correct{
      *this, "correct",
      llvm::cl::desc("Functions computed correctly rounded, form(correct): "
                     "exp, exp2, log, log2 on f32 (not tunable)")};
  ListOption<std::string> kernels{
      *this, "kernels",
      llvm::cl::desc("Kernels to approximate, KERNEL or GPU_MODULE::KERNEL "
                     "(default: all)")};
  Option<std::string> knob{*this, "knob",
                           llvm::cl::desc("Knob name (a PTX identifier)"),
                           llvm::cl::init("lambda")};
  Option<int64_t> knobMax{*this, "knob-max",
                          llvm::cl::desc("Largest knob value (warp slots/SM)"),
                          llvm::cl::init(64)};
  Option<std::string> slot{
      *this, "slot",
      llvm::cl::desc("Warp-slot source: hw, virtual or software"),
      llvm::cl::init("hw")};
  Option<unsigned> maxVersions{
      *this, "max-versions",
      llvm::cl::desc("Most copies of one versioned span (2^knobs); beyond "
                     "it, one branch per op"),
      llvm::cl::init(8)};
  Option<unsigned> unrollVersioned{
      *this, "unroll-versioned",
      llvm::cl::desc("LLVM unroll count for each warp-split loop copy "
                     "(approx-unroll-versioned, 2-64; 0: leave it to LLVM "
                     "and ptxas)"),
      llvm::cl::init(4)};
  Option<bool> unrollPtxas{
      *this, "unroll-ptxas",
      llvm::cl::desc("Let ptxas unroll the unroll-versioned loops further "
                     "(no .pragma \"nounroll\")"),
      llvm::cl::init(true)};
  Option<bool> hoistLoads{
      *this, "hoist-loads",
      llvm::cl::desc("Issue each split copy's loads before its precise "
                     "math (approx-hoist-loads)"),
      llvm::cl::init(true)};
  Option<bool> f64Demote{*this, "f64-demote",
                         llvm::cl::desc("f32-demoted SFU forms for f64 "
                                        "functions without a native one"),
                         llvm::cl::init(false)};
  Option<bool> rangeReduction{
      *this, "range-reduction",
      llvm::cl::desc("Reduce sin/cos/tan args to [-pi,pi]"),
      llvm::cl::init(false)};
  Option<unsigned> newtonSteps{
      *this, "newton-steps",
      llvm::cl::desc("Newton steps for f64 div/rcp/sqrt/rsqrt (0-3)"),
      llvm::cl::init(0)};
  ListOption<std::string> perforate{
      *this, "perforate",
      llvm::cl::desc("Perforate plain stencil kernels with these schemes, "
                     "in knob order (approx-perforation-raise; e.g. "
                     "accurate,rows1:nn; empty: off)")};
  ListOption<std::string> perforateBlocks{
      *this, "perforate-blocks",
      llvm::cl::desc("With perforate: block shapes XxY or XxYrK (K output "
                     "rows per thread) to compile each perforated kernel "
                     "for (two or more: a variant knob)")};
  Option<bool> perforateVector{
      *this, "perforate-vector",
      llvm::cl::desc("Tile loads also get a 16-byte vector fetch, taken "
                     "where the image is aligned (approx-perforation-lower "
                     "vector-loads)"),
      llvm::cl::init(true)};
  ListOption<std::string> perforateOutput{
      *this, "perforate-output",
      llvm::cl::desc("Output-perforate (Paraprox) plain kernels with these "
                     "schemes, in knob order (approx-perforation-output; "
                     "e.g. accurate,rows1,center1; empty: off)")};
  ListOption<std::string> lnsImpls{
      *this, "lns-impls",
      llvm::cl::desc("Compile each kernel holding LNS ops once per impl "
                     "behind the variant knob @lns_impl, for approx-tune to "
                     "choose (approx-lns-impl-variants; e.g. "
                     "precise,sfu,horner,texture2; empty: off)")};
  ListOption<std::string> precision{
      *this, "precision",
      llvm::cl::desc("Clone each kernel per storage-precision configuration "
                     "behind the variant knob @precision "
                     "(approx-precision-variants configs; e.g. "
                     "keep:keep,f16:f32; empty: off)")};
  ListOption<std::string> precisionAll{
      *this, "precision-all",
      llvm::cl::desc("Clone each kernel for every combination of its float "
                     "memref arguments' own type and these narrower ones, "
                     "one variant knob @precision__<kernel> each "
                     "(approx-precision-variants types; e.g. f32,f16,bf16; "
                     "exclusive with precision=)")};
  ListOption<std::string> precisionSpace{
      *this, "precision-space",
      llvm::cl::desc("Declare, for every float memref argument, a build knob "
                     "whose values are its own type and each narrower type "
                     "listed (e.g. f32,f16,bf16), built for configuration= "
                     "(approx-precision-variants space; docs/configurations."
                     "md)")};
  ListOption<std::string> technique{
      *this, "technique",
      llvm::cl::desc("Options of registered techniques, NAME.KEY=VALUE "
                     "(include/approx/Passes/Technique.h; the built-in "
                     "techniques take approx-to-ptx's own options)")};
  ListOption<std::string> configuration{
      *this, "configuration",
      llvm::cl::desc("KNOB=VALUE: the value each build knob takes in this "
                     "build (default: each knob's default); an entry no "
                     "knob takes is an error")};
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
                    llvm::cl::desc("Let float mul+add fuse into fma in the "
                                   "selected kernels, as nvcc's -fmad=true"),
                    llvm::cl::init(true)};
  Option<bool> preciseSqrt{
      *this, "precise-sqrt",
      llvm::cl::desc("Lower plain math.sqrt to sqrt.rn, as nvcc (false: "
                     "libdevice, as upstream MLIR, which gives sqrt.approx)"),
      llvm::cl::init(true)};
  Option<bool> barePtr{*this, "bare-ptr",
                       llvm::cl::desc("Pass static memrefs as bare pointers"),
                       llvm::cl::init(false)};
  Option<KnobPath> knobPath{
      *this, "knob-path", llvm::cl::desc("How kernels read knobs"),
      llvm::cl::values(
          clEnumValN(KnobPath::Global, "global",
                     "a module global the runtime writes"),
          clEnumValN(KnobPath::Param, "param",
                     "a launch parameter, race-free across streams")),
      llvm::cl::init(KnobPath::Global)};
  Option<std::string> outputDir{*this, "output-dir",
                                llvm::cl::desc("Directory for the outputs"),
                                llvm::cl::init(".")};
  Option<std::string> name{*this, "name",
                           llvm::cl::desc("Base name of the outputs (with "
                                          "several gpu.modules: "
                                          "NAME.MODULE.*)"),
                           llvm::cl::init("")};
  Option<bool> cubin{*this, "cubin", llvm::cl::desc("Also write NAME.cubin"),
                     llvm::cl::init(false)};
  Option<bool> occupancyCap{
      *this, "occupancy-cap",
      llvm::cl::desc("Cap a kernel's registers (.maxnreg) where that fits "
                     "more warps per SM without spills "
                     "(approx-occupancy-cap; needs ptxas)"),
      llvm::cl::init(false)};
  Option<std::string> ptxas{*this, "ptxas",
                            llvm::cl::desc("ptxas for cubin= (default: "
                                           "CUDA_PATH, build-time, PATH)"),
                            llvm::cl::init("")};
  Option<bool> exportFiles{*this, "export",
                           llvm::cl::desc("Write the output files (false: "
                                          "stop at gpu.binary, for tests)"),
                           llvm::cl::init(true)};
};

/// The libdevice path approx-to-ptx uses: `option`, else
/// $CUDA_PATH/nvvm/libdevice/libdevice.10.bc, else the one found at build
/// time ("" if none). `origin` says which, for messages.
std::string resolveLibdevicePath(StringRef option, std::string &origin);

/// Appends the approx-to-ptx pipeline to `pm` (anchored on builtin.module).
void buildApproxToPTXPipeline(OpPassManager &pm,
                              const ApproxToPTXOptions &options);

/// approx-to-ptx's options from their text, grouped spellings included
/// (`sfu.knob-max=32`, Technique.h); nullptr and `error` (one line) if they
/// do not parse.
std::unique_ptr<ApproxToPTXOptions>
parseApproxToPTXOptions(StringRef text, std::string &error);

/// Registers `approx-to-ptx` for textual pipelines (approx-opt, mlir-opt-like
/// tools): `--approx-to-ptx="chip=sm_90 output-dir=out"`.
void registerApproxToPTXPipeline();

} // namespace mlir::approx

#endif // APPROX_PASSES_PASSES_H
