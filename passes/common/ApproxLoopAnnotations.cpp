//===- ApproxLoopAnnotations.cpp - forwarded loop annotations to LLVM -----===//
//
// scf-to-cf and cf-to-llvm forward a loop's `loop_annotation` to its latch
// branch as a discardable attribute; LLVM IR translation reads the branch's
// property only. Moving it there is all this pass does.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXLOOPANNOTATIONS
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

/// Moves `op`'s discardable `loop_annotation` into its property.
template <typename BranchOp>
static void adopt(BranchOp op) {
  StringAttr name = op.getLoopAnnotationAttrName();
  Attribute forwarded = op->getDiscardableAttr(name);
  if (!forwarded)
    return;
  op->removeDiscardableAttr(name);
  auto annotation = dyn_cast<LLVM::LoopAnnotationAttr>(forwarded);
  if (annotation && !op.getLoopAnnotationAttr())
    op.setLoopAnnotationAttr(annotation);
}

namespace {
struct ApproxLoopAnnotationsPass final
    : public approx::impl::ApproxLoopAnnotationsBase<
          ApproxLoopAnnotationsPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (auto br = dyn_cast<LLVM::BrOp>(op))
        adopt(br);
      else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
        adopt(condBr);
    });
  }
};
} // namespace
