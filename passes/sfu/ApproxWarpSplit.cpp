//===- ApproxWarpSplit.cpp - version code on warp slot < knob -------------===//
//
// The paper's Algorithm 1 on MLIR's structured control flow. For each
// function and each knob: read the slot and the knob once at entry, compute
// the warp-uniform flag, and replicate the smallest span of each block that
// covers the tunable ops' anchors (their outermost enclosing loop, or the op
// itself) into an scf.if whose branches pin the ops to the SFU and precise
// forms. Records the sites it versioned on the gpu.module.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXWARPSPLIT
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {
struct ApproxWarpSplitPass final
    : public approx::impl::ApproxWarpSplitBase<ApproxWarpSplitPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// The op that gets versioned for `op`: its outermost loop ancestor inside
/// `fn`, or `op` itself when it sits in no loop.
static Operation *anchorOf(Operation *op, Operation *fn) {
  Operation *anchor = op;
  for (Operation *p = op->getParentOp(); p && p != fn; p = p->getParentOp())
    if (isa<LoopLikeOpInterface>(p))
      anchor = p;
  return anchor;
}

/// Writes `loc` as `file:line:col`, with `(inlined at file:line:col)` for
/// code that the inliner moved, for people reading the manifest.
static void printSiteLoc(Location loc, raw_ostream &os) {
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  } else if (auto call = dyn_cast<CallSiteLoc>(loc)) {
    printSiteLoc(call.getCallee(), os);
    os << " (inlined at ";
    printSiteLoc(call.getCaller(), os);
    os << ")";
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    os << name.getName().getValue();
  } else if (auto fused = dyn_cast<FusedLoc>(loc);
             fused && !fused.getLocations().empty()) {
    printSiteLoc(fused.getLocations().front(), os);
  } else {
    loc.print(os);
  }
}

/// Describes a site for the manifest: function, type, knob, options, loc.
static DictionaryAttr describeSite(ApproxFunctionOp op, StringRef function,
                                   bool sfu) {
  Builder b(op->getContext());
  std::string loc;
  llvm::raw_string_ostream os(loc);
  printSiteLoc(op->getLoc(), os);
  auto steps = op->getAttrOfType<IntegerAttr>("newton_steps");
  NamedAttribute entries[] = {
      b.getNamedAttr("function", b.getStringAttr(function)),
      b.getNamedAttr("op", b.getStringAttr(op.getFunctionName())),
      b.getNamedAttr("type", TypeAttr::get(op->getResult(0).getType())),
      b.getNamedAttr("knob", b.getStringAttr(op.getKnobAttr().getValue())),
      b.getNamedAttr("sfu_form", b.getBoolAttr(sfu)),
      b.getNamedAttr("demote_to_f32", b.getBoolAttr(op->hasAttr("demote"))),
      b.getNamedAttr("range_reduction",
                     b.getBoolAttr(op->hasAttr("range_reduction"))),
      b.getNamedAttr("newton_steps",
                     b.getI64IntegerAttr(steps ? steps.getInt() : 0)),
      b.getNamedAttr("loc", b.getStringAttr(loc)),
  };
  return b.getDictionaryAttr(entries);
}

/// Replicates ops [first, last] of one block into `scf.if %flag`, pinning the
/// tunable ops of `knob` to sfu in the then-branch and precise in the else.
static void versionSpan(Operation *first, Operation *last, Value flag,
                        FlatSymbolRefAttr knob) {
  Block *block = first->getBlock();
  SmallVector<Operation *> span;
  for (auto it = first->getIterator();; ++it) {
    span.push_back(&*it);
    if (&*it == last)
      break;
  }
  llvm::SmallPtrSet<Operation *, 16> inSpan(span.begin(), span.end());

  // Values defined in the span and used after it become the if's results.
  SmallVector<Value> escaping;
  for (Operation *op : span)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *user) {
            Operation *anc = block->findAncestorOpInBlock(*user);
            return !anc || !inSpan.contains(anc);
          }))
        escaping.push_back(r);

  OpBuilder b(first);
  auto ifOp = scf::IfOp::create(
      b, first->getLoc(), ValueRange(escaping).getTypes(), flag,
      /*addThenBlock=*/true, /*addElseBlock=*/true);

  auto fill = [&](Block *dest, Form form) {
    OpBuilder bb = OpBuilder::atBlockBegin(dest);
    IRMapping map;
    for (Operation *op : span)
      bb.clone(*op, map);
    SmallVector<Value> yields;
    for (Value v : escaping)
      yields.push_back(map.lookup(v));
    // Pin this knob's tunable ops in the copy (nested ones included).
    for (auto it = dest->begin(); it != dest->end(); ++it)
      it->walk([&](ApproxFunctionOp fnOp) {
        if (!fnOp.getForm() && fnOp.getKnobAttr() == knob)
          fnOp.setForm(form);
      });
    scf::YieldOp::create(bb, first->getLoc(), yields);
  };
  // Clear the blocks scf.if created (they hold only an empty yield).
  for (Block *blk : {ifOp.thenBlock(), ifOp.elseBlock()})
    while (!blk->empty())
      blk->back().erase();
  fill(ifOp.thenBlock(), Form::sfu);
  fill(ifOp.elseBlock(), Form::precise);

  for (auto [v, r] : llvm::zip(escaping, ifOp.getResults()))
    v.replaceAllUsesWith(r);
  for (Operation *op : llvm::reverse(span)) {
    op->dropAllUses();
    op->erase();
  }
}

void ApproxWarpSplitPass::runOnOperation() {
  gpu::GPUModuleOp module = getOperation();
  Builder b(&getContext());
  std::optional<SlotKind> kind = symbolizeSlotKind(slot);
  if (!kind) {
    module.emitError("approx-warp-split: slot='")
        << slot << "' is not one of hw, virtual, software";
    return signalPassFailure();
  }

  SmallVector<Attribute> sites;
  WalkResult result = module.walk([&](FunctionOpInterface fn) {
    if (fn.isExternal())
      return WalkResult::advance();
    StringRef fnName = SymbolTable::getSymbolName(fn).getValue();

    // Tunable ops by knob, in program order; ops without an SFU form are
    // pinned precise right away (nothing to choose at run time).
    llvm::MapVector<Attribute, SmallVector<ApproxFunctionOp>> byKnob;
    fn.walk([&](ApproxFunctionOp op) {
      if (op.getForm())
        return;
      bool sfu = hasSfuForm(op);
      sites.push_back(describeSite(op, fnName, sfu));
      if (!sfu) {
        op.setForm(Form::precise);
        return;
      }
      byKnob[op.getKnobAttr()].push_back(op);
    });
    if (byKnob.empty())
      return WalkResult::advance();

    Block &entry = fn.getFunctionBody().front();
    OpBuilder eb = OpBuilder::atBlockBegin(&entry);
    Location loc = fn.getLoc();
    Value slotId = WarpSlotOp::create(eb, loc, eb.getI32Type(),
                                      SlotKindAttr::get(&getContext(), *kind));
    // All flags first, at entry: versioning below may erase entry ops.
    SmallVector<std::pair<FlatSymbolRefAttr, Value>> flags;
    for (auto &entryKv : byKnob) {
      auto knob = cast<FlatSymbolRefAttr>(entryKv.first);
      Value value = KnobValueOp::create(eb, loc, eb.getI32Type(), knob);
      flags.emplace_back(knob, arith::CmpIOp::create(
                                   eb, loc, arith::CmpIPredicate::ult, slotId,
                                   value));
    }
    for (auto &knobFlag : flags) {
      FlatSymbolRefAttr knob = knobFlag.first;
      Value flag = knobFlag.second;
      // Recollect: earlier knobs' versioning cloned these ops.
      SmallVector<ApproxFunctionOp> ops;
      fn.walk([&](ApproxFunctionOp op) {
        if (!op.getForm() && op.getKnobAttr() == knob)
          ops.push_back(op);
      });
      // First and last anchor per block, in program order.
      llvm::MapVector<Block *, std::pair<Operation *, Operation *>> spans;
      for (ApproxFunctionOp op : ops) {
        Operation *anchor = anchorOf(op, fn);
        auto [it, inserted] =
            spans.try_emplace(anchor->getBlock(), anchor, anchor);
        if (inserted)
          continue;
        if (anchor->isBeforeInBlock(it->second.first))
          it->second.first = anchor;
        if (it->second.second->isBeforeInBlock(anchor))
          it->second.second = anchor;
      }
      // A span nested in another block's span is replicated with it; version
      // only spans whose block is not inside another span.
      SmallVector<std::pair<Operation *, Operation *>> outer;
      for (auto &[blk, span] : spans) {
        bool nested = false;
        for (auto &[other, ospan] : spans) {
          if (other == blk)
            continue;
          Operation *anc = other->findAncestorOpInBlock(*span.first);
          if (anc && !anc->isBeforeInBlock(ospan.first) &&
              !ospan.second->isBeforeInBlock(anc))
            nested = true;
        }
        if (!nested)
          outer.push_back(span);
      }
      for (auto [first, last] : outer) {
        if (first->getBlock()->getParentOp() &&
            first->getBlock()->getParent()->hasOneBlock() == false) {
          first->emitError("approx-warp-split: cannot version code in a "
                           "multi-block region; use structured control flow "
                           "(scf) around approx ops");
          return WalkResult::interrupt();
        }
        versionSpan(first, last, flag, knob);
      }
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return signalPassFailure();

  module->setAttr("approx.slot", b.getStringAttr(stringifySlotKind(*kind)));
  SmallVector<Attribute> all;
  if (auto prev = module->getAttrOfType<ArrayAttr>("approx.sites"))
    all.append(prev.begin(), prev.end());
  all.append(sites.begin(), sites.end());
  module->setAttr("approx.sites", b.getArrayAttr(all));
}
