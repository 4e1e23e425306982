//===- WarpVersioning.cpp - version code on a warp-uniform slot < knob ----===//
//
// Algorithm 1 on MLIR regions (WarpVersioning.h): spans, their versioning
// on each knob in turn, and the flags read once at function entry.
//
//===----------------------------------------------------------------------===//

#include "common/WarpVersioning.h"
#include "common/ModuleUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::approx;

//===----------------------------------------------------------------------===//
// What may not sit under a warp-uniform branch.
//===----------------------------------------------------------------------===//

/// True if `op` itself synchronises (or must be executed by) more than one
/// warp: block barriers, block reductions, cluster and warpgroup ops, and
/// inline assembly naming a barrier.
/// True if NVVM op or intrinsic `name` (without its `llvm.` prefix:
/// `nvvm.barrier0`, `nvvm.barrier.cta.sync.aligned.all`) is block-level.
static bool isBlockLevelNvvm(StringRef name) {
  if (!name.starts_with("nvvm."))
    return false;
  if (name.contains("barrier") && !name.contains("mbarrier"))
    return true;
  // `bar.sync`/`bar.red` spelled as intrinsics (llvm.nvvm.bar.*), cluster,
  // warpgroup and tensor-core-gen-5 collectives.
  return name.starts_with("nvvm.bar.") || name.starts_with("nvvm.cluster.") ||
         name.contains("wgmma") || name.starts_with("nvvm.tcgen05");
}

static bool isBlockLevelSync(Operation *op) {
  if (isa<gpu::BarrierOp, gpu::AllReduceOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  if (isBlockLevelNvvm(name))
    return true;
  // Imported LLVM IR (approx-cc) keeps `__syncthreads()` as
  // `llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"`.
  if (auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(op)) {
    StringRef callee = intrinsic.getIntrin();
    return callee.consume_front("llvm.") && isBlockLevelNvvm(callee);
  }
  // Inline PTX or assembly: conservative on any mention of a barrier.
  if (name == "nvvm.inline_ptx" || isa<LLVM::InlineAsmOp>(op))
    for (NamedAttribute attr : op->getAttrs())
      if (auto text = dyn_cast<StringAttr>(attr.getValue()))
        if (text.getValue().contains("bar"))
          return true;
  return false;
}

bool SyncAnalysis::holdsSync(Operation *op) {
  if (isBlockLevelSync(op) || callMaySync(op))
    return true;
  bool found = false;
  walkWithoutNestedSymbolTables(op, [&](Operation *inner) {
    found = found || isBlockLevelSync(inner) || callMaySync(inner);
  });
  return found;
}

/// True if `call` calls a libdevice declaration (`__nv_*`, linked in at
/// NVVM time): libdevice is math only, with no barrier or collective.
static bool callsLibdevice(Operation *call, SymbolTable &symbols) {
  FunctionOpInterface fn = lookupCallee(call, symbols);
  return fn && fn.isExternal() && fn.getName().starts_with("__nv_");
}

bool SyncAnalysis::callMaySync(Operation *op) {
  if (!isa<CallOpInterface>(op))
    return false;
  FunctionOpInterface callee = resolveCallee(op, symbols);
  if (!callee)
    return !callsLibdevice(op, symbols);
  auto [it, inserted] = functions.try_emplace(callee, true);
  if (!inserted)
    return it->second; // (true while being computed: recursion)
  bool sync = holdsSync(callee);
  functions[callee] = sync;
  return sync;
}

//===----------------------------------------------------------------------===//
// Spans and their versions.
//===----------------------------------------------------------------------===//

namespace {

class Versioner {
public:
  Versioner(FunctionOpInterface fn, WarpSplitPolicy &policy,
            SyncAnalysis &sync, unsigned maxVersions)
      : fn(fn), policy(policy), sync(sync), maxVersions(maxVersions) {}

  LogicalResult run();
  SmallVector<std::pair<FlatSymbolRefAttr, SlotKind>> knobs;

private:
  bool holdsTunable(Operation *op);
  /// Calls `f` on every tunable op in ops [first, last] of one block.
  void forEachTunable(Operation *first, Operation *last,
                      function_ref<void(Operation *, FlatSymbolRefAttr)> f);
  void processBlock(Block &block);
  void flush(SmallVectorImpl<Operation *> &anchors);
  /// Versions ops [first, last] on each of `knobs` in turn.
  void versionNested(Operation *first, Operation *last,
                     ArrayRef<Attribute> knobs);
  scf::IfOp versionSpan(Operation *first, Operation *last,
                        FlatSymbolRefAttr knob);
  Value flagFor(FlatSymbolRefAttr knob);

  FunctionOpInterface fn;
  WarpSplitPolicy &policy;
  SyncAnalysis &sync;
  unsigned maxVersions;
  llvm::DenseMap<Attribute, SlotKind> slotOf; ///< per knob
  llvm::DenseMap<unsigned, Value> slotIds;    ///< per slot kind
  llvm::DenseMap<Attribute, Value> flags;
  Operation *lastEntryOp = nullptr; ///< where the next flag op goes after.
};

} // namespace

LogicalResult Versioner::run() {
  // Every knob's slot kind, checked for consistency before anything moves.
  bool consistent = true;
  walkWithoutNestedSymbolTables(fn, [&](Operation *op) {
    FlatSymbolRefAttr knob = policy.tunableKnob(op);
    if (!knob || !consistent)
      return;
    SlotKind kind = policy.slotKind(op);
    auto [it, inserted] = slotOf.try_emplace(knob, kind);
    if (!inserted && it->second != kind) {
      op->emitOpError("knob ")
          << knob << " is compared against the "
          << stringifySlotKind(it->second) << " slot elsewhere, not "
          << stringifySlotKind(kind);
      consistent = false;
    }
  });
  if (!consistent)
    return failure();
  if (!fn.isExternal())
    for (Block &block : fn.getFunctionBody())
      processBlock(block);
  return success();
}

bool Versioner::holdsTunable(Operation *op) {
  if (policy.tunableKnob(op))
    return true;
  bool found = false;
  walkWithoutNestedSymbolTables(op, [&](Operation *inner) {
    found = found || policy.tunableKnob(inner);
  });
  return found;
}

void Versioner::forEachTunable(
    Operation *first, Operation *last,
    function_ref<void(Operation *, FlatSymbolRefAttr)> f) {
  for (Operation *op = first;; op = op->getNextNode()) {
    if (FlatSymbolRefAttr knob = policy.tunableKnob(op))
      f(op, knob);
    walkWithoutNestedSymbolTables(op, [&](Operation *inner) {
      if (FlatSymbolRefAttr knob = policy.tunableKnob(inner))
        f(inner, knob);
    });
    if (op == last)
      break;
  }
}

void Versioner::processBlock(Block &block) {
  // Anchors: tunable ops, and barrier-free loops holding tunable ops (a loop
  // is versioned whole, outside: Listing 3). A span runs from an anchor to
  // the last anchor before the next synchronising op; an op holding tunable
  // ops that lies between two anchors (an scf.if, say) is copied with the
  // span. Such ops outside every span, and ops that hold tunable ops and
  // synchronise, are versioned inside their own blocks.
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  SmallVector<Operation *> anchors;
  SmallVector<Operation *> pending; // since the last anchor
  auto versionInside = [&](ArrayRef<Operation *> list) {
    for (Operation *op : list)
      for (Region &region : op->getRegions())
        for (Block &inner : region)
          processBlock(inner);
  };
  auto endSpan = [&] {
    flush(anchors);
    versionInside(pending); // after the last anchor: not in the span
    pending.clear();
  };
  for (Operation *op : ops) {
    bool tunable = holdsTunable(op);
    bool synchronises = sync.holdsSync(op);
    if (!tunable) {
      if (synchronises)
        endSpan(); // a barrier ends the span
      continue;
    }
    if (synchronises) {
      // Holds both: version inside it, never around it.
      endSpan();
      versionInside(op);
      continue;
    }
    if (policy.tunableKnob(op) || isa<LoopLikeOpInterface>(op)) {
      if (anchors.empty())
        versionInside(pending); // before the span's first anchor
      pending.clear();          // otherwise covered by the span
      anchors.push_back(op);
      continue;
    }
    pending.push_back(op);
  }
  endSpan();
}

void Versioner::flush(SmallVectorImpl<Operation *> &anchors) {
  if (anchors.empty())
    return;
  Operation *first = anchors.front(), *last = anchors.back();
  anchors.clear();
  llvm::SetVector<Attribute> spanKnobs;
  SmallVector<std::pair<Operation *, FlatSymbolRefAttr>> tunable;
  forEachTunable(first, last, [&](Operation *op, FlatSymbolRefAttr knob) {
    spanKnobs.insert(knob);
    tunable.push_back({op, knob});
  });
  bool nested = spanKnobs.size() < 32 &&
                (uint64_t(1) << spanKnobs.size()) <=
                    uint64_t(std::max(1u, maxVersions));
  for (auto [op, knob] : tunable)
    policy.versioned(op, nested ? "region" : "per-op");
  if (nested) {
    versionNested(first, last, spanKnobs.getArrayRef());
    return;
  }
  // Too many combinations: one branch per op, each in its own block.
  for (auto [op, knob] : tunable)
    versionSpan(op, op, knob);
}

void Versioner::versionNested(Operation *first, Operation *last,
                              ArrayRef<Attribute> spanKnobs) {
  if (spanKnobs.empty())
    return;
  scf::IfOp ifOp =
      versionSpan(first, last, cast<FlatSymbolRefAttr>(spanKnobs.front()));
  for (Block *branch : {ifOp.thenBlock(), ifOp.elseBlock()}) {
    Operation *yield = branch->getTerminator();
    if (&branch->front() == yield)
      continue;
    // Only the knobs still tunable in this copy.
    llvm::SetVector<Attribute> rest;
    forEachTunable(&branch->front(), yield->getPrevNode(),
                   [&](Operation *, FlatSymbolRefAttr knob) {
                     rest.insert(knob);
                   });
    versionNested(&branch->front(), yield->getPrevNode(), rest.getArrayRef());
  }
}

Value Versioner::flagFor(FlatSymbolRefAttr knob) {
  auto it = flags.find(knob);
  if (it != flags.end())
    return it->second;
  const SlotKind kind = slotOf.lookup(knob);
  knobs.push_back({knob, kind});
  Block &entry = fn.getFunctionBody().front();
  OpBuilder b = lastEntryOp ? OpBuilder(lastEntryOp->getBlock(),
                                        ++Block::iterator(lastEntryOp))
                            : OpBuilder::atBlockBegin(&entry);
  Location loc = fn.getLoc();
  Value &slotId = slotIds[unsigned(kind)];
  if (!slotId)
    slotId = WarpSlotOp::create(b, loc, b.getI32Type(),
                                SlotKindAttr::get(fn.getContext(), kind));
  Value value = KnobValueOp::create(b, loc, b.getI32Type(), knob);
  auto flag = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, slotId,
                                    value);
  lastEntryOp = flag;
  flags[knob] = flag;
  return flag;
}

scf::IfOp Versioner::versionSpan(Operation *first, Operation *last,
                                 FlatSymbolRefAttr knob) {
  Value flag = flagFor(knob);
  Block *block = first->getBlock();
  SmallVector<Operation *> span;
  for (Operation *op = first;; op = op->getNextNode()) {
    span.push_back(op);
    if (op == last)
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
  auto ifOp = scf::IfOp::create(b, first->getLoc(),
                                ValueRange(escaping).getTypes(), flag,
                                /*addThenBlock=*/true, /*addElseBlock=*/true);
  auto fill = [&](Block *dest, bool belowKnob) {
    while (!dest->empty())
      dest->back().erase();
    OpBuilder bb = OpBuilder::atBlockBegin(dest);
    IRMapping map;
    for (Operation *op : span)
      bb.clone(*op, map);
    SmallVector<Value> yields;
    for (Value v : escaping)
      yields.push_back(map.lookup(v));
    // Pin this knob's tunable ops in the copy (nested ones included).
    SmallVector<Operation *> toPin;
    auto collect = [&](Operation *inner) {
      if (policy.tunableKnob(inner) == knob)
        toPin.push_back(inner);
    };
    for (Operation &op : *dest) {
      collect(&op);
      walkWithoutNestedSymbolTables(&op, collect);
    }
    for (Operation *op : toPin)
      policy.pin(op, knob, belowKnob);
    scf::YieldOp::create(bb, first->getLoc(), yields);
  };
  fill(ifOp.thenBlock(), /*belowKnob=*/true);
  fill(ifOp.elseBlock(), /*belowKnob=*/false);

  for (auto [v, r] : llvm::zip(escaping, ifOp.getResults()))
    v.replaceAllUsesWith(r);
  for (Operation *op : llvm::reverse(span)) {
    op->dropAllUses();
    op->erase();
  }
  return ifOp;
}

LogicalResult mlir::approx::checkMaxVersions(Operation *module, StringRef pass,
                                             unsigned maxVersions) {
  if (maxVersions >= 2 && maxVersions <= 1024)
    return success();
  return module->emitError(pass)
         << ": max-versions=" << maxVersions << " is out of range [2, 1024]";
}

FailureOr<SmallVector<std::pair<FlatSymbolRefAttr, SlotKind>>>
mlir::approx::versionOnWarpSlots(FunctionOpInterface fn,
                                 WarpSplitPolicy &policy, SyncAnalysis &sync,
                                 unsigned maxVersions) {
  Versioner v(fn, policy, sync, maxVersions);
  if (failed(v.run()))
    return failure();
  return v.knobs;
}
