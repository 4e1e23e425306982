//===- ApproxKnobsToParams.cpp - knob values as kernel parameters ---------===//
//
// The per-launch knob path: every kernel that reads a knob takes its value as
// a trailing launch parameter (marked `approx.knob = @name`), so launches on
// different streams never share a module global. See CorePasses.td.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"
#include "common/ModuleUtils.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXKNOBSTOPARAMS
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {
struct ApproxKnobsToParamsPass final
    : public approx::impl::ApproxKnobsToParamsBase<ApproxKnobsToParamsPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// The knob `op` reads, or null.
static FlatSymbolRefAttr knobRead(Operation *op) {
  if (auto v = dyn_cast<KnobValueOp>(op))
    return v.getKnobAttr();
  if (auto h = dyn_cast<ResourceHandleOp>(op))
    return h.getKnobAttr();
  return {};
}

void ApproxKnobsToParamsPass::runOnOperation() {
  ModuleOp top = getOperation();
  // Kernels launched by host code in this module keep their signatures.
  llvm::DenseSet<Attribute> launched;
  top.walk([&](gpu::LaunchFuncOp launch) {
    launched.insert(launch.getKernel());
  });

  for (gpu::GPUModuleOp module : getGpuModules(top)) {
    SymbolTable symbols(module);
    llvm::SetVector<Operation *> toMark;
    for (FunctionOpInterface fn : getFunctions(module)) {
      llvm::MapVector<Attribute, SmallVector<Operation *>> reads;
      walkWithoutNestedSymbolTables(fn, [&](Operation *op) {
        if (FlatSymbolRefAttr k = knobRead(op))
          reads[k].push_back(op);
      });
      if (reads.empty())
        continue;
      auto firstKnob = cast<FlatSymbolRefAttr>(reads.begin()->first);
      if (!isKernel(fn)) {
        reads.begin()->second.front()->emitError(
            "approx-knobs-to-params: @")
            << SymbolTable::getSymbolName(fn).getValue() << " reads knob "
            << firstKnob << " but is not a kernel; inline it first (knob "
            << "parameters reach kernels only)";
        return signalPassFailure();
      }
      auto kernel = cast<gpu::GPUFuncOp>(fn.getOperation());
      auto ref = SymbolRefAttr::get(
          module.getNameAttr(), {FlatSymbolRefAttr::get(kernel.getNameAttr())});
      if (launched.contains(ref)) {
        kernel.emitError("approx-knobs-to-params: kernel ")
            << quoteName(kernel.getName()) << " is launched by gpu.launch_func in this "
            << "module; a knob parameter would change its signature (use "
            << "knob-path=global)";
        return signalPassFailure();
      }
      for (auto &[knobAttr, ops] : reads) {
        auto knob = cast<FlatSymbolRefAttr>(knobAttr);
        Operation *decl = symbols.lookup(knob.getValue());
        if (!decl)
          continue; // the verifier names the missing knob
        Type type = ops.front()->getResult(0).getType();
        unsigned index = kernel.getNumArguments();
        if (failed(kernel.insertArgument(
                index, type,
                DictionaryAttr::get(&getContext(),
                                    {NamedAttribute(kKnobArgAttrName, knob)}),
                kernel.getLoc()))) {
          kernel.emitError("approx-knobs-to-params: cannot add the knob "
                           "parameter for ")
              << knob << " to kernel " << quoteName(kernel.getName());
          return signalPassFailure();
        }
        Value arg = kernel.getArgument(index);
        for (Operation *op : ops) {
          op->getResult(0).replaceAllUsesWith(arg);
          op->erase();
        }
        toMark.insert(decl);
      }
    }
    for (Operation *decl : toMark) {
      if (auto k = dyn_cast<KnobOp>(decl))
        k.setParamPath(true);
      else if (auto r = dyn_cast<ResourceKnobOp>(decl))
        r.setParamPath(true);
    }
  }
}
