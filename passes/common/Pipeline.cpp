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
#include "approx/Passes/Technique.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/OptimizeForNVVM.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
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

/// nvcc's -fmad=true for the NVPTX back end: `nvptx-fma-level` given once
/// (its default value, 2, but given) makes every float add of the module a
/// candidate for the back end's own fusion rule, which is nvcc's, and drops
/// `.rn` from plain adds and multiplies so that ptxas may fuse further, as
/// in nvcc's PTX. It is an LLVM command-line option, so it holds for the
/// whole process: a tool that builds a pipeline with `fmad=false` after one
/// with `fmad` on keeps fusion on (approx-opt and approx-cc build one).
static void allowNvptxFusion() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("nvptx-fma-level");
  if (it == options.end() || it->second->getNumOccurrences() > 0)
    return; // no NVPTX back end linked (nothing to translate), or set
  it->second->addOccurrence(0, "nvptx-fma-level", "2");
}

namespace {
/// Reports an approx-to-ptx option error at the module and fails: pipeline
/// builders cannot fail, so the pipeline is this pass alone.
struct ApproxPipelineError
    : PassWrapper<ApproxPipelineError, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApproxPipelineError)
  explicit ApproxPipelineError(std::string message)
      : message(std::move(message)) {}
  StringRef getArgument() const override { return "approx-pipeline-error"; }
  void runOnOperation() override {
    getOperation().emitError("approx-to-ptx: ") << message;
    signalPassFailure();
  }
  std::string message;
};

std::unique_ptr<Pass> createApproxPipelineError(std::string message) {
  return std::make_unique<ApproxPipelineError>(std::move(message));
}
} // namespace

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

  // 2-3. The techniques, phase by phase (docs/pipeline.md): Raise on the
  // outlined kernels; helpers inlined; Transform (LNS, perforation,
  // precision); Version (the SFU split's Algorithm 1). Their Lower phase
  // runs inside convert-approx-to-nvvm (step 5).
  registerBuiltinTechniques();
  std::vector<Technique> techniques = registeredTechniques();
  llvm::StringMap<llvm::StringMap<std::string>> own;
  std::string error;
  for (const std::string &entry : o.technique) {
    size_t dot = entry.find('.'), eq = entry.find('=');
    if (dot == std::string::npos || eq == std::string::npos || eq < dot ||
        dot == 0 || eq == dot + 1) {
      error = "technique='" + entry + "' is not NAME.KEY=VALUE";
      break;
    }
    std::string name = entry.substr(0, dot);
    if (llvm::none_of(techniques,
                      [&](const Technique &t) { return t.name == name; })) {
      std::string known;
      for (const Technique &t : techniques)
        known += (known.empty() ? "" : ", ") + t.name;
      error = "technique='" + entry + "': no technique '" + name +
              "' is registered (registered: " + known + ")";
      break;
    }
    own[name][entry.substr(dot + 1, eq - dot - 1)] = entry.substr(eq + 1);
  }
  // A technique with no steps has no options of its own to take.
  for (const Technique &t : techniques)
    if (error.empty() && !t.addSteps)
      (void)refuseOwnOptions(t.name, own.lookup(t.name), error);
  auto phase = [&](Phase p) {
    for (const Technique &t : techniques)
      if (error.empty() && t.addSteps &&
          failed(t.addSteps(pm, p, o, own.lookup(t.name), error)))
        return;
  };
  phase(Phase::Raise);
  pm.addPass(createInlinerPass());
  phase(Phase::Transform);
  phase(Phase::Version);
  if (!error.empty()) {
    // Nothing else runs: the first pass reports the option and fails.
    pm.clear();
    pm.addPass(createApproxPipelineError(error));
    return;
  }
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
  // Multiply-add fusion by nvcc's rule, which is the NVPTX back end's own
  // combine once fusion is allowed for the whole module (docs/cuda.md).
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxNvccContraction());
  if (o.fmad)
    allowNvptxFusion();

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

std::unique_ptr<ApproxToPTXOptions>
mlir::approx::parseApproxToPTXOptions(StringRef text, std::string &error) {
  registerBuiltinTechniques();
  FailureOr<std::string> flat = expandGroupedOptions(text, error);
  if (failed(flat))
    return nullptr;
  std::unique_ptr<ApproxToPTXOptions> o =
      ApproxToPTXOptions::createFromString(*flat);
  if (!o)
    error = "the options do not parse (the diagnostic above says why)";
  return o;
}

void mlir::approx::registerApproxToPTXPipeline() {
  // PassPipelineRegistration<ApproxToPTXOptions>, with the grouped
  // spellings (sfu.knob-max=...) expanded before the options parse.
  registerPassPipeline(
      "approx-to-ptx",
      "GPU kernels to tunably approximate PTX + manifest (see "
      "docs/pipeline.md)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        registerBuiltinTechniques();
        std::string error;
        FailureOr<std::string> flat = expandGroupedOptions(text, error);
        if (failed(flat))
          return errorHandler("approx-to-ptx: " + error);
        // As PassPipelineRegistration: the option parser said why itself.
        std::unique_ptr<ApproxToPTXOptions> o =
            ApproxToPTXOptions::createFromString(*flat);
        if (!o)
          return failure();
        buildApproxToPTXPipeline(pm, *o);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(ApproxToPTXOptions());
      });
}
