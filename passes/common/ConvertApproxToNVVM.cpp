//===- ConvertApproxToNVVM.cpp - every pinned approx op -> NVVM/LLVM ------===//
//
// One pass over a gpu.module that applies the lowering patterns of every op
// family (core: knobs and slots; sfu: function ops; correct: function ops
// pinned to form(correct)). Each family's patterns
// live in its own folder; this pass only checks that nothing is left tunable
// and collects them.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"
#include "approx/Passes/Patterns.h"
#include "approx/Passes/Technique.h"

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
    std::optional<unsigned> sm = parseSmVersion(chip);
    if (!sm) {
      module.emitError("convert-approx-to-nvvm: chip='")
          << chip << "' is not of the form sm_XY";
      return signalPassFailure();
    }
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

    // Knobs (core), then each technique's ops (the registry's Lower phase).
    registerBuiltinTechniques();
    std::vector<Technique> techniques = registeredTechniques();
    for (const Technique &t : techniques)
      if (t.prepareLowering && failed(t.prepareLowering(module)))
        return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateCoreToNVVMPatterns(patterns);
    LoweringTarget target{*sm, preciseSqrt};
    for (const Technique &t : techniques)
      if (t.populateLowering)
        t.populateLowering(patterns, target);
    walkAndApplyPatterns(module, std::move(patterns));

    // Anything the patterns could not lower (an SFU form the target lacks).
    WalkResult left = module.walk([](ApproxFunctionOp op) {
      std::string reason;
      sfuSupport(op, 0, &reason);
      op->emitError("convert-approx-to-nvvm: cannot lower '")
          << op->getName() << "' to its " << stringifyForm(*op.getForm())
          << " form on this target";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      return signalPassFailure();
    module->removeAttr(kSitesAttrName);
  }
};

} // namespace
