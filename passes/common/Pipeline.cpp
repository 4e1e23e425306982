//===- Pipeline.cpp - the approx-to-ptx pipeline --------------------------===//
//
// One textual pipeline from GPU kernels to NAME.ptx and NAME.manifest.json:
// approx passes for the transformation, upstream MLIR passes for everything
// else. After the approx passes it runs the same GPU lowering as upstream's
// gpu-lower-to-nvvm-pipeline (outlining, NVGPU, vector, SCF, NVVM, the GPU
// to NVVM conversion), so that whatever upstream compiles, this compiles
// too; host code is left alone (the outputs are the PTX files).
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/OptimizeForNVVM.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::approx;

#ifndef APPROX_DEFAULT_LIBDEVICE
#define APPROX_DEFAULT_LIBDEVICE ""
#endif

std::string mlir::approx::resolveLibdevicePath(StringRef option,
                                               std::string &origin) {
  if (!option.empty()) {
    origin = "libdevice=";
    return option.str();
  }
  if (const char *cuda = std::getenv("CUDA_PATH")) {
    SmallString<256> p(cuda);
    llvm::sys::path::append(p, "nvvm", "libdevice", "libdevice.10.bc");
    origin = "CUDA_PATH";
    return std::string(p);
  }
  origin = "the build-time default";
  return APPROX_DEFAULT_LIBDEVICE;
}

void mlir::approx::buildApproxToPTXPipeline(OpPassManager &pm,
                                            const ApproxToPTXOptions &o) {
  std::string origin;
  std::string libdevice = resolveLibdevicePath(o.libdevice, origin);

  // 0. Target and toolkit first: nothing runs (or is written) without them.
  ApproxCheckTargetOptions check;
  check.chip = o.chip;
  check.optLevel = o.optLevel;
  check.libdevice = libdevice;
  check.libdeviceOrigin = origin;
  pm.addPass(createApproxCheckTarget(check));

  // 1. What the approx passes need to see: outlined kernels, structured
  // loops (affine lowered before versioning).
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createLowerAffinePass());

  // 2. math/arith functions -> tunable approx ops, inside the chosen kernels.
  ApproxFromMathOptions fromMath;
  fromMath.functions.assign(o.functions.begin(), o.functions.end());
  fromMath.correct.assign(o.correct.begin(), o.correct.end());
  fromMath.kernels.assign(o.kernels.begin(), o.kernels.end());
  fromMath.knob = o.knob;
  fromMath.knobMax = o.knobMax;
  fromMath.f64Demote = o.f64Demote;
  fromMath.rangeReduction = o.rangeReduction;
  fromMath.newtonSteps = o.newtonSteps;
  fromMath.chip = o.chip;
  pm.addPass(createApproxFromMath(fromMath));

  // 3. Inline helpers. LNS values become (log, sign) pairs, known signs
  // fold away the db they make unnecessary, split's loops are versioned on
  // slot < λ, and sb/db are evaluated as their impl says (docs/lns.md). With perforate=, plain stencil kernels get
  // perforated tile loads, with perforate-output= output perforation (the
  // Paraprox comparison); tile loads become block-wide loops
  // (docs/perforation.md). Then Algorithm 1: version on slot < knob.
  pm.addPass(createInlinerPass());
  pm.addPass(createApproxLnsExpand());
  pm.addPass(createCanonicalizerPass());
  if (!o.lnsImpls.empty()) {
    ApproxLnsImplVariantsOptions lnsVariants;
    lnsVariants.impls.assign(o.lnsImpls.begin(), o.lnsImpls.end());
    pm.addNestedPass<gpu::GPUModuleOp>(
        createApproxLnsImplVariants(lnsVariants));
  }
  ApproxLnsVersionOptions version;
  version.maxVersions = o.maxVersions;
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxLnsVersion(version));
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxLnsLower());
  if (!o.perforate.empty()) {
    ApproxPerforationRaiseOptions raise;
    raise.schemes.assign(o.perforate.begin(), o.perforate.end());
    raise.blockShapes.assign(o.perforateBlocks.begin(),
                             o.perforateBlocks.end());
    pm.addNestedPass<gpu::GPUModuleOp>(createApproxPerforationRaise(raise));
  }
  if (!o.perforateOutput.empty()) {
    ApproxPerforationOutputOptions output;
    output.schemes.assign(o.perforateOutput.begin(), o.perforateOutput.end());
    pm.addNestedPass<gpu::GPUModuleOp>(createApproxPerforationOutput(output));
  }
  ApproxPerforationLowerOptions perforationLower;
  perforationLower.vectorLoads = o.perforateVector;
  pm.addNestedPass<gpu::GPUModuleOp>(
      createApproxPerforationLower(perforationLower));
  // With precision=, one clone per storage-precision configuration
  // (docs/precision.md, "Compiler side").
  // precision-all=: every combination per kernel (a search's variants).
  // precision-space=: a build knob per float memref argument, this build
  // taking the values configuration= names (docs/configurations.md).
  if (!o.precision.empty() || !o.precisionAll.empty() ||
      !o.precisionSpace.empty()) {
    ApproxPrecisionVariantsOptions variants;
    variants.configs.assign(o.precision.begin(), o.precision.end());
    variants.types.assign(o.precisionAll.begin(), o.precisionAll.end());
    variants.space.assign(o.precisionSpace.begin(), o.precisionSpace.end());
    if (!o.precisionSpace.empty())
      variants.configuration.assign(o.configuration.begin(),
                                    o.configuration.end());
    pm.addNestedPass<gpu::GPUModuleOp>(
        createApproxPrecisionVariants(variants));
  }
  ApproxWarpSplitOptions split;
  split.slot = o.slot;
  split.maxVersions = o.maxVersions;
  split.chip = o.chip;
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxWarpSplit(split));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // 4. The knob path, then the launch ABI before signatures are lowered.
  if (o.knobPath == KnobPath::Param)
    pm.addPass(createApproxKnobsToParams());
  ApproxRecordManifestOptions record;
  record.barePtr = o.barePtr;
  record.configuration.assign(o.configuration.begin(), o.configuration.end());
  pm.addPass(createApproxRecordManifest(record));

  // 4b. Loads first in split blocks; unroll counts on the split loops,
  // late: canonicalization may rebuild a loop without its discardable
  // attributes.
  if (o.hoistLoads)
    pm.addNestedPass<gpu::GPUModuleOp>(createApproxHoistLoads());
  if (o.unrollVersioned) {
    ApproxUnrollVersionedOptions unroll;
    unroll.count = o.unrollVersioned;
    unroll.ptxasUnroll = o.unrollPtxas;
    pm.addNestedPass<gpu::GPUModuleOp>(createApproxUnrollVersioned(unroll));
  }

  // 5. Pinned forms -> NVVM/LLVM.
  if (o.fmad) {
    ApproxAllowContractionOptions contract;
    contract.kernels.assign(o.kernels.begin(), o.kernels.end());
    pm.addPass(createApproxAllowContraction(contract));
  }
  ConvertApproxToNVVMOptions toNVVMApprox;
  toNVVMApprox.chip = o.chip;
  toNVVMApprox.preciseSqrt = o.preciseSqrt;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertApproxToNVVM(toNVVMApprox));

  // 6. Upstream's GPU lowering, as gpu-lower-to-nvvm-pipeline runs it on
  // device code.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.indexBitwidth = 64;
  toNVVM.useBarePtrCallConv = o.barePtr;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(toNVVM));
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxUnwrapExternals());
  pm.addNestedPass<gpu::GPUModuleOp>(LLVM::createNVVMOptimizeForTargetPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxLoopAnnotations());

  // 7. Target + libdevice, then PTX through the LLVM NVPTX backend.
  GpuNVVMAttachTargetOptions target;
  target.chip = o.chip;
  target.optLevel = o.optLevel;
  if (!libdevice.empty())
    target.linkLibs.push_back(libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));
  GpuModuleToBinaryPassOptions toBinary;
  toBinary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(toBinary));

  // 7b. Optional register caps on the PTX, by what ptxas reports.
  if (o.occupancyCap) {
    ApproxOccupancyCapOptions cap;
    cap.ptxas = o.ptxas;
    pm.addPass(createApproxOccupancyCap(cap));
  }

  // 8. NAME.ptx + NAME.manifest.json (+ NAME.cubin) per gpu.module.
  if (o.exportFiles) {
    ApproxExportOptions out;
    out.outputDir = o.outputDir;
    out.name = o.name;
    out.cubin = o.cubin;
    out.ptxas = o.ptxas;
    pm.addPass(createApproxExport(out));
  }
}

void mlir::approx::registerApproxToPTXPipeline() {
  PassPipelineRegistration<ApproxToPTXOptions>(
      "approx-to-ptx",
      "GPU kernels to tunably approximate PTX + manifest (see "
      "docs/pipeline.md)",
      buildApproxToPTXPipeline);
}
