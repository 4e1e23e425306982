//===- ApproxUnrollVersioned.cpp - unroll counts on warp-split loops ------===//
//
// Marks each innermost loop holding SFU-split ops with an LLVM unroll count,
// so that both copies of a versioned loop unroll as nvcc's do (Listing 3),
// not as LLVM's NVPTX cost model and ptxas would each decide. A loop that
// already has an annotation keeps it: the count is added unless it says
// something about unrolling itself (a `#pragma unroll` through approx-cc).
// approx-cc's loops all carry clang's mustProgress, so skipping annotated
// loops outright skipped every loop of a CUDA input.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"
#include "sfu/SplitOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXUNROLLVERSIONED
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

/// The name scf-to-cf and cf-to-llvm carry to `llvm.br`/`llvm.cond_br`,
/// where it is the inherent loop annotation.
static constexpr StringLiteral kLoopAnnotation = "loop_annotation";

static bool isLoweredLoop(Operation *op) {
  return isa<scf::ForOp, scf::WhileOp>(op);
}

namespace {
struct ApproxUnrollVersionedPass final
    : public approx::impl::ApproxUnrollVersionedBase<
          ApproxUnrollVersionedPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (count < 2 || count > 64) {
      module.emitError("approx-unroll-versioned: count=")
          << static_cast<uint64_t>(count) << " is out of range [2, 64]";
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    // An empty follow-up for the unrolled loop replaces LLVM's default
    // `llvm.loop.unroll.disable` (the NVPTX backend's `.pragma "nounroll"`),
    // which leaves ptxas free to unroll further.
    LLVM::LoopAnnotationAttr followup;
    if (ptxasUnroll)
      followup = LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, {}, {}, {}, {},
                                               {}, {}, {}, {}, {}, {}, {}, {});
    auto unroll = LLVM::LoopUnrollAttr::get(
        ctx, /*disable=*/{}, b.getI32IntegerAttr(count),
        /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/followup, {},
        {});
    // `existing` with the unroll count added (null: leave the loop as is).
    auto withCount = [&](Attribute existing) -> LLVM::LoopAnnotationAttr {
      if (!existing)
        return LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, unroll, {}, {},
                                             {}, {}, {}, {}, {}, {}, {}, {},
                                             {});
      auto a = dyn_cast<LLVM::LoopAnnotationAttr>(existing);
      if (!a || a.getUnroll() || a.getDisableNonforced())
        return {};
      return LLVM::LoopAnnotationAttr::get(
          ctx, a.getDisableNonforced(), a.getVectorize(), a.getInterleave(),
          unroll, a.getUnrollAndJam(), a.getLicm(), a.getDistribute(),
          a.getPipeline(), a.getPeeled(), a.getUnswitch(), a.getMustProgress(),
          a.getIsVectorized(), a.getStartLoc(), a.getEndLoc(),
          a.getParallelAccesses());
    };
    module.walk([&](Operation *loop) {
      if (!isLoweredLoop(loop))
        return;
      bool innermost = true, split = false;
      loop->walk([&](Operation *inner) {
        if (inner == loop)
          return;
        innermost = innermost && !isa<LoopLikeOpInterface>(inner);
        split = split || isWarpSplitOp(inner);
      });
      if (!innermost || !split)
        return;
      if (LLVM::LoopAnnotationAttr annotation =
              withCount(loop->getAttr(kLoopAnnotation)))
        loop->setAttr(kLoopAnnotation, annotation);
    });
  }
};
} // namespace
