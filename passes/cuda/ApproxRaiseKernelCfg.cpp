//===- ApproxRaiseKernelCfg.cpp - LLVM CFG of kernels to cf, then scf -----===//
//
// llvm.br / llvm.cond_br / llvm.switch become their cf twins, then
// upstream's transformCFGToSCF (with the cf lowering's interface) lifts the
// body to scf. Only the unreachable terminator differs from upstream's
// lift-cf-to-scf, which knows func.func only: here it is gpu.return (a
// kernel returns nothing). Preconditions are checked before lifting, since
// a failed lifting leaves the IR unspecified.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CFGToSCF.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXRAISEKERNELCFG
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;

namespace {

/// What scf-to-cf and cf-to-llvm carry to the latch branch as its loop
/// annotation (approx-loop-annotations makes it the branch's own).
constexpr StringLiteral kLoopAnnotation = "loop_annotation";

/// The cf lowering's interface, with gpu.return as the unreachable
/// terminator of a kernel body.
struct KernelCfgToScf : ControlFlowToSCFTransformation {
  FailureOr<Operation *> createUnreachableTerminator(Location loc,
                                                     OpBuilder &builder,
                                                     Region &region) override {
    auto fn = dyn_cast<gpu::GPUFuncOp>(region.getParentOp());
    if (!fn || fn.getFunctionType().getNumResults() != 0)
      return failure();
    return gpu::ReturnOp::create(builder, loc).getOperation();
  }

  /// Loop headers and the annotations of the back edges that reach them
  /// (clang's `#pragma unroll N` or `nounroll`), filled before lifting.
  llvm::DenseMap<Block *, Attribute> headerAnnotations;

  /// The loop takes its header's annotation; scf-to-cf puts it back on the
  /// latch. Upstream first rebuilds the latch (its terminator is new), but
  /// the header stays the body's entry block.
  FailureOr<Operation *>
  createStructuredDoWhileLoopOp(OpBuilder &builder, Operation *replacedOp,
                                ValueRange loopVariablesInit, Value condition,
                                ValueRange loopVariablesNextIter,
                                Region &&loopBody) override {
    Attribute annotation = headerAnnotations.lookup(&loopBody.front());
    FailureOr<Operation *> loop =
        ControlFlowToSCFTransformation::createStructuredDoWhileLoopOp(
            builder, replacedOp, loopVariablesInit, condition,
            loopVariablesNextIter, std::move(loopBody));
    if (succeeded(loop) && annotation)
      (*loop)->setAttr(kLoopAnnotation, annotation);
    return loop;
  }
};

/// Records each annotated LLVM back edge's annotation under the header it
/// reaches (the successor that dominates the branch).
void collectLoopAnnotations(Region &region, DominanceInfo &dom,
                            llvm::DenseMap<Block *, Attribute> &headers) {
  for (Block &block : region) {
    Operation *term = block.getTerminator();
    LLVM::LoopAnnotationAttr annotation;
    if (auto br = dyn_cast<LLVM::BrOp>(term))
      annotation = br.getLoopAnnotationAttr();
    else if (auto cbr = dyn_cast<LLVM::CondBrOp>(term))
      annotation = cbr.getLoopAnnotationAttr();
    if (!annotation)
      continue;
    for (Block *succ : term->getSuccessors())
      if (dom.dominates(succ, &block))
        headers.try_emplace(succ, annotation);
  }
}

/// Rewrites the LLVM branches of `region` to cf; returns the first
/// terminator that is neither a branch nor gpu.return (nullptr if none).
Operation *branchesToCf(Region &region) {
  Operation *other = nullptr;
  for (Block &block : region) {
    Operation *term = block.getTerminator();
    OpBuilder b(term);
    if (auto br = dyn_cast<LLVM::BrOp>(term)) {
      cf::BranchOp::create(b, br.getLoc(), br.getDest(), br.getDestOperands());
    } else if (auto cbr = dyn_cast<LLVM::CondBrOp>(term)) {
      cf::CondBranchOp::create(b, cbr.getLoc(), cbr.getCondition(),
                               cbr.getTrueDest(), cbr.getTrueDestOperands(),
                               cbr.getFalseDest(), cbr.getFalseDestOperands());
    } else if (auto sw = dyn_cast<LLVM::SwitchOp>(term)) {
      SmallVector<APInt> values;
      if (auto cases = sw.getCaseValues())
        values.assign(cases->value_begin<APInt>(), cases->value_end<APInt>());
      SmallVector<ValueRange> operands;
      for (unsigned i = 0, e = sw.getCaseDestinations().size(); i < e; ++i)
        operands.push_back(sw.getCaseOperands(i));
      cf::SwitchOp::create(b, sw.getLoc(), sw.getValue(),
                           sw.getDefaultDestination(),
                           sw.getDefaultOperands(), values,
                           sw.getCaseDestinations(), operands);
    } else {
      if (!isa<gpu::ReturnOp>(term) && !other)
        other = term;
      continue;
    }
    term->erase();
  }
  return other;
}

struct ApproxRaiseKernelCfgPass
    : approx::impl::ApproxRaiseKernelCfgBase<ApproxRaiseKernelCfgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    for (auto fn : getOperation().getOps<gpu::GPUFuncOp>()) {
      Region &body = fn.getBody();
      if (body.empty())
        continue;
      auto mark = [&](StringRef how) {
        fn->setAttr("approx.cfg", StringAttr::get(ctx, how));
      };
      if (body.hasOneBlock()) {
        mark("structured");
        continue;
      }
      // Check first: a terminator the lifting cannot take keeps the LLVM
      // CFG (the warp split then versions block by block).
      Operation *blocker = nullptr;
      for (Block &block : body) {
        Operation *t = block.getTerminator();
        if (!isa<LLVM::BrOp, LLVM::CondBrOp, LLVM::SwitchOp, gpu::ReturnOp>(t)) {
          blocker = t;
          break;
        }
        // The lifted switch compares the value zero-extended to index
        // (upstream's scf.index_switch): a negative case would never match.
        if (auto sw = dyn_cast<LLVM::SwitchOp>(t))
          if (auto cases = sw.getCaseValues())
            for (APInt v : cases->getValues<APInt>())
              if (v.isNegative()) {
                blocker = t;
                break;
              }
        if (blocker)
          break;
      }
      if (blocker) {
        mark(isa<LLVM::SwitchOp>(blocker)
                 ? "blocks: a switch has negative case values"
                 : ("blocks: the body ends a block with '" +
                    blocker->getName().getStringRef() + "'")
                       .str());
        continue;
      }
      KernelCfgToScf iface;
      {
        DominanceInfo before(fn);
        collectLoopAnnotations(body, before, iface.headerAnnotations);
      }
      if (Operation *other = branchesToCf(body)) {
        other->emitOpError("unexpected terminator after the check");
        return signalPassFailure();
      }
      DominanceInfo dom(fn);
      FailureOr<bool> lifted = transformCFGToSCF(body, iface, dom);
      if (failed(lifted)) {
        fn.emitError("approx-raise-kernel-cfg: lifting the CFG of '")
            << fn.getName() << "' to scf failed";
        return signalPassFailure();
      }
      // One block per kind of return-like op remains unstructured; a
      // kernel has one kind (gpu.return), so any cf left is a failure to
      // structure, and the split falls back to blocks there.
      bool structured = body.hasOneBlock();
      mark(structured ? "structured"
                      : "blocks: the CFG did not lift to one region");
    }
  }
};

} // namespace
