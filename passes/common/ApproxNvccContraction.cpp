//===- ApproxNvccContraction.cpp - leave FMA fusion to nvcc's rule --------===//
//
// A `contract` flag lets LLVM's generic DAG combiner fuse a product into
// every add or subtraction using it; the NVPTX back end asks it to do so
// aggressively, even when the product has other uses. nvcc does not: its
// rule (fuse into adds only, when all of the product's uses are adds, and
// leave subtractions to ptxas as mul.f32/sub.f32) is the NVPTX back end's own
// combine, which runs on every float add once fusion is allowed for the
// whole module (nvptx-fma-level, set by the pipeline when fmad is on, as
// -fmad=true is for nvcc). This pass removes `contract` from f32 and f64
// multiplies, adds and subtractions, so that only that rule decides; it
// covers libdevice too, linked later, as -fmad=true does. The rule is for
// f32 and f64 only: f16, bf16 and vectors keep their flags. See docs/cuda.md.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXNVCCCONTRACTION
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {
struct ApproxNvccContractionPass final
    : public approx::impl::ApproxNvccContractionBase<
          ApproxNvccContractionPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      // The back end's rule covers f32 and f64 only; other types keep
      // their flag (and the generic combine).
      if (!isa<LLVM::FMulOp, LLVM::FAddOp, LLVM::FSubOp>(op) ||
          !op->getResult(0).getType().isF32() &&
              !op->getResult(0).getType().isF64())
        return;
      auto fm = cast<LLVM::FastmathFlagsInterface>(op);
      LLVM::FastmathFlags flags = fm.getFastmathAttr().getValue();
      if (!LLVM::bitEnumContainsAny(flags, LLVM::FastmathFlags::contract))
        return;
      op->setAttr(fm.getFastmathAttrName(),
                  LLVM::FastmathFlagsAttr::get(
                      op->getContext(), flags & ~LLVM::FastmathFlags::contract));
    });
  }
};
} // namespace
