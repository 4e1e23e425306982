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
// f32 and f64 only: f16, bf16 and vectors keep their flags. One choice is
// made here: which of two fusable products of an add is fused (the one
// written first, as nvcc). See docs/cuda.md.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXNVCCCONTRACTION
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

/// The first file position of `loc`, if it has one.
static std::optional<std::pair<unsigned, unsigned>> position(Location loc) {
  std::optional<std::pair<unsigned, unsigned>> found;
  loc->walk([&](Location inner) {
    if (auto flc = dyn_cast<FileLineColLoc>(inner)) {
      found = {flc.getLine(), flc.getColumn()};
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// nvcc's test for fusing `mul` into an add: every use is an add, fewer
/// than five, in the add's block.
static bool fusable(LLVM::FMulOp mul, Operation *add) {
  if (!mul || mul->getBlock() != add->getBlock() ||
      !LLVM::bitEnumContainsAny(mul.getFastmathFlags(),
                                LLVM::FastmathFlags::contract))
    return false;
  unsigned uses = 0;
  for (Operation *user : mul->getUsers())
    if (++uses >= 5 || !isa<LLVM::FAddOp>(user))
      return false;
  return true;
}

/// An add of two products nvcc may both fuse: nvcc fuses the left one as
/// written, LLVM's the left one after its own reordering (Reassociate ranks
/// operands by position in the function, not in the source), so the sum of
/// `dx*dx + dy*dy` rounds differently. Where both products carry source
/// positions, the one written first is fused here, explicitly.
static void fuseInSourceOrder(LLVM::FAddOp add) {
  auto lhs = add.getLhs().getDefiningOp<LLVM::FMulOp>();
  auto rhs = add.getRhs().getDefiningOp<LLVM::FMulOp>();
  if (!fusable(lhs, add) || !fusable(rhs, add) || lhs == rhs)
    return;
  auto l = position(lhs.getLoc()), r = position(rhs.getLoc());
  if (!l || !r || *l == *r)
    return;
  LLVM::FMulOp first = *l < *r ? lhs : rhs, second = first == lhs ? rhs : lhs;
  OpBuilder b(add);
  Value fma = LLVM::FMAOp::create(b, add.getLoc(), first.getLhs(),
                                  first.getRhs(), second.getResult(),
                                  add.getFastmathFlagsAttr());
  add.getResult().replaceAllUsesWith(fma);
  add->erase();
  if (first->use_empty())
    first->erase();
}

namespace {
struct ApproxNvccContractionPass final
    : public approx::impl::ApproxNvccContractionBase<
          ApproxNvccContractionPass> {
  void runOnOperation() override {
    SmallVector<LLVM::FAddOp> adds;
    getOperation().walk([&](LLVM::FAddOp add) {
      Type t = add.getType();
      if ((t.isF32() || t.isF64()) &&
          LLVM::bitEnumContainsAny(add.getFastmathFlags(),
                                   LLVM::FastmathFlags::contract))
        adds.push_back(add);
    });
    for (LLVM::FAddOp add : adds)
      fuseInSourceOrder(add);
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
