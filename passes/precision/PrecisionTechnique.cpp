//===- PrecisionTechnique.cpp - Precision scaling as a technique ----------===//
//
// Transform: with precision=, one clone per storage-precision configuration
// (docs/precision.md); precision-all=, every combination per kernel;
// precision-space=, a build knob per float memref argument, this build
// taking the values configuration= names (docs/configurations.md).
//
//===----------------------------------------------------------------------===//
#include "approx/Passes/Passes.h"
#include "approx/Passes/Technique.h"

using namespace mlir;
using namespace mlir::approx;

static LogicalResult addPrecisionSteps(OpPassManager &pm, Phase phase,
                                       const ApproxToPTXOptions &o,
                                       const llvm::StringMap<std::string> &own,
                                       std::string &error) {
  if (failed(refuseOwnOptions("precision", own, error)))
    return failure();
  if (phase != Phase::Transform ||
      (o.precision.empty() && o.precisionAll.empty() &&
       o.precisionSpace.empty()))
    return success();
  ApproxPrecisionVariantsOptions variants;
  variants.configs.assign(o.precision.begin(), o.precision.end());
  variants.types.assign(o.precisionAll.begin(), o.precisionAll.end());
  variants.space.assign(o.precisionSpace.begin(), o.precisionSpace.end());
  if (!o.precisionSpace.empty())
    variants.configuration.assign(o.configuration.begin(),
                                  o.configuration.end());
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxPrecisionVariants(variants));
  return success();
}

void mlir::approx::registerPrecisionTechnique() {
  Technique t;
  t.name = "precision";
  // NAME.KEY=V spells approx-to-ptx's OPTION=V (docs/pipeline.md).
  t.options = {
      {"configs", "precision"},
      {"all", "precision-all"},
      {"space", "precision-space"},
  };
  t.order = 40;
  t.addSteps = addPrecisionSteps;
  registerTechnique(std::move(t));
}
