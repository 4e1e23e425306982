//===- ApproxAllowContraction.cpp - mark float mul/add contractable -------===//
//
// nvcc compiles with -fmad=true: a multiply feeding an add becomes one fma.
// MLIR's lowering keeps every float op strict, which LLVM's NVPTX backend
// writes as mul.rn/add.rn, forbidding ptxas to fuse them too. This pass adds
// the `contract` flag to float multiplies and adds so that the precise side of
// a kernel is what nvcc would emit (see docs/pipeline.md).
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXALLOWCONTRACTION
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;

namespace {
struct ApproxAllowContractionPass final
    : public approx::impl::ApproxAllowContractionBase<
          ApproxAllowContractionPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (!isa<arith::MulFOp, arith::AddFOp, arith::SubFOp, arith::NegFOp>(op))
        return;
      auto fm = cast<arith::ArithFastMathInterface>(op);
      arith::FastMathFlags flags = fm.getFastMathFlagsAttr().getValue();
      op->setAttr(fm.getFastMathAttrName(),
                  arith::FastMathFlagsAttr::get(
                      op->getContext(), flags | arith::FastMathFlags::contract));
    });
  }
};
} // namespace
