//===- ApproxAllowContraction.cpp - mark float mul/add contractable -------===//
//
// nvcc compiles with -fmad=true: a multiply feeding an add becomes one fma.
// MLIR's lowering keeps every float op strict, which LLVM's NVPTX backend
// writes as mul.rn/add.rn, forbidding ptxas to fuse them too. This pass adds
// the `contract` flag to float multiplies and adds of the selected kernels and
// the functions they call, so that the precise side of a kernel is what nvcc
// would emit (see docs/pipeline.md), and nothing outside the selection changes.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"
#include "common/ModuleUtils.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXALLOWCONTRACTION
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {
struct ApproxAllowContractionPass final
    : public approx::impl::ApproxAllowContractionBase<
          ApproxAllowContractionPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp top = getOperation();
    std::string error;
    FailureOr<KernelSelection> selection =
        KernelSelection::resolve(top, kernels, error);
    if (failed(selection)) {
      top.emitError("approx-allow-contraction: ") << error;
      return signalPassFailure();
    }
    for (gpu::GPUModuleOp module : getGpuModules(top)) {
      SymbolTable symbols(module);
      SmallVector<Operation *> roots;
      for (auto fn : module.getOps<gpu::GPUFuncOp>())
        if (fn.isKernel() && selection->contains(fn))
          roots.push_back(fn);
      for (Operation *fn : reachableFunctions(roots, symbols))
        walkWithoutNestedSymbolTables(fn, [](Operation *op) {
          if (!isa<arith::MulFOp, arith::AddFOp, arith::SubFOp,
                   arith::NegFOp>(op))
            return;
          auto fm = cast<arith::ArithFastMathInterface>(op);
          arith::FastMathFlags flags = fm.getFastMathFlagsAttr().getValue();
          op->setAttr(fm.getFastMathAttrName(),
                      arith::FastMathFlagsAttr::get(
                          op->getContext(),
                          flags | arith::FastMathFlags::contract));
        });
    }
  }
};
} // namespace
