//===- ConvertApproxToNVVM.cpp - every pinned approx op -> NVVM/LLVM ------===//
//
// One pass over a gpu.module that applies the lowering patterns of every op
// family (core: knobs and slots; sfu: function ops). Each family's patterns
// live in its own folder; this pass only checks that nothing is left tunable
// and collects them.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"
#include "approx/Passes/Patterns.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::approx {
#define GEN_PASS_DEF_CONVERTAPPROXTONVVM
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {
struct ConvertApproxToNVVMPass final
    : public approx::impl::ConvertApproxToNVVMBase<ConvertApproxToNVVMPass> {
  using Base::Base;
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    // Unpinned ops cannot be lowered: say where, once each.
    WalkResult unpinned = module.walk([](ApproxFunctionOp op) {
      if (op.getForm())
        return WalkResult::advance();
      op->emitError("convert-approx-to-nvvm: '")
          << op->getName()
          << "' is tunable (no form); run approx-warp-split first";
      return WalkResult::interrupt();
    });
    if (unpinned.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    populateCoreToNVVMPatterns(patterns);
    populateSfuToNVVMPatterns(patterns, preciseSqrt);
    walkAndApplyPatterns(module, std::move(patterns));

    module->removeAttr("approx.sites");
    module->removeAttr("approx.slot");
  }
};

} // namespace
