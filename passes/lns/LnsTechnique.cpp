//===- LnsTechnique.cpp - LNS arithmetic as a technique -------------------===//
//
// Transform: LNS values become (log, sign) pairs, known signs fold away the
// db they make unnecessary, one kernel per impl with `lns-impls=`, split's
// loops versioned on slot < λ, and sb/db evaluated as their impl says
// (docs/lns.md).
//
//===----------------------------------------------------------------------===//
#include "approx/Passes/Passes.h"
#include "approx/Passes/Technique.h"

#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::approx;

static LogicalResult addLnsSteps(OpPassManager &pm, Phase phase,
                                 const ApproxToPTXOptions &o,
                                 const llvm::StringMap<std::string> &own,
                                 std::string &error) {
  if (failed(refuseOwnOptions("lns", own, error)))
    return failure();
  if (phase != Phase::Transform)
    return success();
  pm.addPass(createApproxLnsExpand());
  pm.addPass(createCanonicalizerPass());
  if (!o.lnsImpls.empty()) {
    ApproxLnsImplVariantsOptions variants;
    variants.impls.assign(o.lnsImpls.begin(), o.lnsImpls.end());
    pm.addNestedPass<gpu::GPUModuleOp>(createApproxLnsImplVariants(variants));
  }
  ApproxLnsVersionOptions version;
  version.maxVersions = o.maxVersions;
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxLnsVersion(version));
  pm.addNestedPass<gpu::GPUModuleOp>(createApproxLnsLower());
  return success();
}

void mlir::approx::registerLnsTechnique() {
  Technique t;
  t.name = "lns";
  // NAME.KEY=V spells approx-to-ptx's OPTION=V (docs/pipeline.md).
  t.options = {
      {"impls", "lns-impls"},
      {"max-versions", "max-versions"},
  };
  t.order = 20;
  t.addSteps = addLnsSteps;
  registerTechnique(std::move(t));
}
