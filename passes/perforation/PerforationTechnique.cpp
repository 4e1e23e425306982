//===- PerforationTechnique.cpp - Kernel perforation as a technique -------===//
//
// Transform: with perforate=, plain stencil kernels get perforated tile
// loads (and block-shape variants); with perforate-output=, output
// perforation (the Paraprox comparison); tile loads become block-wide loops
// (docs/perforation.md).
//
//===----------------------------------------------------------------------===//
#include "approx/Passes/Passes.h"
#include "approx/Passes/Technique.h"

using namespace mlir;
using namespace mlir::approx;

static LogicalResult
addPerforationSteps(OpPassManager &pm, Phase phase, const ApproxToPTXOptions &o,
                    const llvm::StringMap<std::string> &own,
                    std::string &error) {
  if (failed(refuseOwnOptions("perforation", own, error)))
    return failure();
  if (phase != Phase::Transform)
    return success();
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
  ApproxPerforationLowerOptions lower;
  lower.vectorLoads = o.perforateVector;
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxPerforationLower(lower));
  return success();
}

void mlir::approx::registerPerforationTechnique() {
  Technique t;
  t.name = "perforation";
  // NAME.KEY=V spells approx-to-ptx's OPTION=V (docs/pipeline.md).
  t.options = {
      {"schemes", "perforate"},
      {"blocks", "perforate-blocks"},
      {"vector", "perforate-vector"},
      {"output", "perforate-output"},
  };
  t.order = 30;
  t.addSteps = addPerforationSteps;
  registerTechnique(std::move(t));
}
