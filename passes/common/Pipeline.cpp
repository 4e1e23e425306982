//===- Pipeline.cpp - the approx-to-ptx pipeline --------------------------===//
//
// One textual pipeline from math/arith GPU kernels to NAME.ptx and
// NAME.manifest.json: approx passes for the transformation, upstream MLIR
// passes for everything else (inlining, NVVM lowering, attaching the target
// with libdevice, serializing through the LLVM NVPTX backend).
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace mlir::approx;

#ifndef APPROX_DEFAULT_LIBDEVICE
#define APPROX_DEFAULT_LIBDEVICE ""
#endif

/// True if the NVPTX backend knows `chip` (e.g. sm_90, sm_90a).
static bool isKnownChip(StringRef chip) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  std::string err;
  llvm::Triple triple("nvptx64-nvidia-cuda");
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, err);
  if (!target)
    return false;
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(triple, chip, ""));
  return sti && sti->isCPUStringValid(chip);
}

LogicalResult mlir::approx::validateApproxToPTXOptions(
    const ApproxToPTXOptions &o, std::string &libdevicePath,
    std::string &error) {
  if (!StringRef(o.chip.getValue()).starts_with("sm_") || !isKnownChip(o.chip)) {
    error = "unsupported chip '" + o.chip.getValue() +
            "': expected an NVPTX target such as sm_80 or sm_90";
    return failure();
  }
  if (o.slot != "hw" && o.slot != "virtual" && o.slot != "software") {
    error = "slot='" + o.slot.getValue() +
            "' is not one of hw, virtual, software";
    return failure();
  }
  if (o.newtonSteps > 3) {
    error = "newton-steps=" + std::to_string(o.newtonSteps) +
            " is out of range [0, 3]";
    return failure();
  }
  if (o.optLevel > 3) {
    error = "O=" + std::to_string(o.optLevel) + " is out of range [0, 3]";
    return failure();
  }
  // libdevice: option, then CUDA_PATH, then the build-time default.
  std::string candidate = o.libdevice;
  StringRef origin = "libdevice=";
  if (candidate.empty()) {
    if (const char *cuda = std::getenv("CUDA_PATH")) {
      SmallString<256> p(cuda);
      llvm::sys::path::append(p, "nvvm", "libdevice", "libdevice.10.bc");
      candidate = std::string(p);
      origin = "CUDA_PATH";
    } else {
      candidate = APPROX_DEFAULT_LIBDEVICE;
      origin = "the build-time default";
    }
  }
  if (candidate.empty()) {
    error = "libdevice not found: the build found no CUDA toolkit; set "
            "CUDA_PATH or pass libdevice=PATH";
    return failure();
  }
  if (!llvm::sys::fs::exists(candidate)) {
    error = "libdevice not found at '" + candidate + "' (from " +
            origin.str() + "); set CUDA_PATH or pass libdevice=PATH";
    return failure();
  }
  libdevicePath = candidate;
  return success();
}

void mlir::approx::buildApproxToPTXPipeline(OpPassManager &pm,
                                            const ApproxToPTXOptions &o,
                                            StringRef libdevicePath) {
  // 1. math/arith -> tunable approx ops, inside the chosen kernels.
  ApproxFromMathOptions fromMath;
  fromMath.functions.assign(o.functions.begin(), o.functions.end());
  fromMath.kernels.assign(o.kernels.begin(), o.kernels.end());
  fromMath.knob = o.knob;
  fromMath.knobMax = o.knobMax;
  fromMath.f64Demote = o.f64Demote;
  fromMath.rangeReduction = o.rangeReduction;
  fromMath.newtonSteps = o.newtonSteps;
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxFromMath(fromMath));

  // 2. Algorithm 1: inline helpers, then version on slot < knob.
  pm.addPass(createInlinerPass());
  ApproxWarpSplitOptions split;
  split.slot = o.slot;
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxWarpSplit(split));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // 3. Record the launch ABI before the signatures are lowered.
  ApproxRecordManifestOptions record;
  record.barePtr = o.barePtr;
  pm.addPass(createApproxRecordManifest(record));

  // 4. Pinned forms -> NVVM/LLVM, then upstream's GPU -> NVVM lowering.
  if (o.fmad)
    pm.addNestedPass<gpu::GPUModuleOp>(createApproxAllowContraction());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertApproxToNVVM());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.indexBitwidth = 64;
  toNVVM.useBarePtrCallConv = o.barePtr;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(toNVVM));
  pm.addPass(createReconcileUnrealizedCastsPass());

  // 5. Target + libdevice, then PTX through the LLVM NVPTX backend.
  GpuNVVMAttachTargetOptions target;
  target.chip = o.chip;
  target.optLevel = o.optLevel;
  target.linkLibs.push_back(libdevicePath.str());
  pm.addPass(createGpuNVVMAttachTarget(target));
  GpuModuleToBinaryPassOptions toBinary;
  toBinary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(toBinary));

  // 6. NAME.ptx + NAME.manifest.json (+ NAME.cubin).
  if (o.exportFiles) {
    ApproxExportOptions out;
    out.outputDir = o.outputDir;
    out.name = o.name;
    out.cubin = o.cubin;
    pm.addPass(createApproxExport(out));
  }
}

void mlir::approx::registerApproxToPTXPipeline() {
  registerPassPipeline(
      "approx-to-ptx",
      "Math/arith GPU kernels to SFU warp-split PTX + manifest (see "
      "docs/pipeline.md)",
      [](OpPassManager &pm, StringRef optionString,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        ApproxToPTXOptions options;
        if (failed(options.parseFromString(optionString)))
          return errorHandler("approx-to-ptx: cannot parse options '" +
                              optionString + "'");
        std::string libdevice, error;
        if (failed(validateApproxToPTXOptions(options, libdevice, error)))
          return errorHandler("approx-to-ptx: " + error);
        buildApproxToPTXPipeline(pm, options, libdevice);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> printOptions) {
        ApproxToPTXOptions options;
        printOptions(options);
      });
}
