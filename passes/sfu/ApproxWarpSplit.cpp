//===- ApproxWarpSplit.cpp - version code on warp slot < knob -------------===//
//
// The paper's Algorithm 1 on MLIR regions. For each function: read the slot
// and each knob once at entry, compute the warp-uniform flags, and replicate
// each span of ops holding tunable ops into an scf.if whose branches pin the
// ops to the SFU and precise forms.
//
// A flag is uniform per warp, not per block, so block-level synchronisation
// (barriers and the like) must never end up under the branch: such an op
// ends a span, and where it holds tunable ops its inner blocks are versioned
// instead. Spans of several knobs are versioned on each in turn while the
// copies stay within max-versions; beyond that each op gets its own branch.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"
#include "common/ModuleUtils.h"
#include "common/Sites.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXWARPSPLIT
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

//===----------------------------------------------------------------------===//
// What may not sit under a warp-uniform branch.
//===----------------------------------------------------------------------===//

/// True if `op` itself synchronises (or must be executed by) more than one
/// warp: block barriers, block reductions, cluster and warpgroup ops, and
/// inline assembly naming a barrier.
static bool isBlockLevelSync(Operation *op) {
  if (isa<gpu::BarrierOp, gpu::AllReduceOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  if (name.starts_with("nvvm.")) {
    if (name.contains("barrier") && !name.contains("mbarrier"))
      return true;
    if (name.starts_with("nvvm.cluster.") || name.contains("wgmma") ||
        name.starts_with("nvvm.tcgen05"))
      return true;
  }
  // Inline PTX or assembly: conservative on any mention of a barrier.
  if (name == "nvvm.inline_ptx" || isa<LLVM::InlineAsmOp>(op))
    for (NamedAttribute attr : op->getAttrs())
      if (auto text = dyn_cast<StringAttr>(attr.getValue()))
        if (text.getValue().contains("bar"))
          return true;
  return false;
}

namespace {

/// Answers "does this op hold block-level synchronisation?", following
/// calls into the module's functions (a call that cannot be resolved, or an
/// external function, may synchronise).
class SyncAnalysis {
public:
  explicit SyncAnalysis(SymbolTable &symbols) : symbols(symbols) {}

  bool holdsSync(Operation *op) {
    if (isBlockLevelSync(op) || callMaySync(op))
      return true;
    bool found = false;
    walkWithoutNestedSymbolTables(op, [&](Operation *inner) {
      found = found || isBlockLevelSync(inner) || callMaySync(inner);
    });
    return found;
  }

private:
  bool callMaySync(Operation *op) {
    if (!isa<CallOpInterface>(op))
      return false;
    FunctionOpInterface callee = resolveCallee(op, symbols);
    if (!callee)
      return true;
    auto [it, inserted] = functions.try_emplace(callee, true);
    if (!inserted)
      return it->second; // (true while being computed: recursion)
    bool sync = holdsSync(callee);
    functions[callee] = sync;
    return sync;
  }

  SymbolTable &symbols;
  llvm::DenseMap<Operation *, bool> functions;
};

/// Tunable (unpinned) approx ops in `op`, itself included.
static bool holdsTunable(Operation *op) {
  if (auto fn = dyn_cast<ApproxFunctionOp>(op); fn && !fn.getForm())
    return true;
  bool found = false;
  walkWithoutNestedSymbolTables(op, [&](Operation *inner) {
    if (auto fn = dyn_cast<ApproxFunctionOp>(inner); fn && !fn.getForm())
      found = true;
  });
  return found;
}

/// Calls `fn` on every tunable op in ops [first, last] of one block.
static void forEachTunable(Operation *first, Operation *last,
                           function_ref<void(ApproxFunctionOp)> fn) {
  for (Operation *op = first;; op = op->getNextNode()) {
    if (auto f = dyn_cast<ApproxFunctionOp>(op); f && !f.getForm())
      fn(f);
    walkWithoutNestedSymbolTables(op, [&](Operation *inner) {
      if (auto f = dyn_cast<ApproxFunctionOp>(inner); f && !f.getForm())
        fn(f);
    });
    if (op == last)
      break;
  }
}

/// The SFU form as the manifest shows it.
static std::string describeSfuForm(ApproxFunctionOp op, SfuSupport support) {
  const FunctionInfo &info = op.getFunctionInfo();
  Type elem = op.getElementType();
  if (support == SfuSupport::ViaF32)
    return info.sfuPtx.str() + " (in f32)";
  if (elem.isF16() || elem.isBF16()) {
    bool f16 = elem.isF16();
    if (info.function == Function::Exp2)
      return f16 ? "ex2.approx.f16" : "ex2.approx.ftz.bf16";
    return f16 ? "tanh.approx.f16" : "tanh.approx.bf16";
  }
  if (elem.isF64()) {
    std::string steps = op.getNewtonStepCount()
                            ? " + " + std::to_string(op.getNewtonStepCount()) +
                                  " Newton step(s)"
                            : "";
    switch (info.function) {
    case Function::Div:
      return "rcp.approx.ftz.f64" + steps + ", mul.f64";
    case Function::Rcp:
      return "rcp.approx.ftz.f64" + steps;
    case Function::Sqrt:
      return op.getNewtonStepCount() ? "rsqrt.approx.ftz.f64" + steps +
                                           ", mul.f64"
                                     : "rcp.approx.ftz.f64 of "
                                       "rsqrt.approx.ftz.f64";
    default:
      return "rsqrt.approx.ftz.f64" + steps;
    }
  }
  return info.sfuPtx.str();
}

/// Versions the tunable ops of one function.
class FunctionSplitter {
public:
  FunctionSplitter(FunctionOpInterface fn, SlotKind slot, unsigned sm,
                   unsigned maxVersions, SyncAnalysis &sync,
                   SmallVectorImpl<Attribute> &sites)
      : fn(fn), slot(slot), sm(sm), maxVersions(maxVersions), sync(sync),
        sites(sites) {}

  /// Pins what has no SFU form, records every site, versions the rest.
  /// Returns the knobs it compared the slot against.
  llvm::SetVector<Attribute> run();

private:
  void processBlock(Block &block);
  void flush(SmallVectorImpl<Operation *> &anchors);
  /// Versions ops [first, last] on each of `knobs` in turn.
  void versionNested(Operation *first, Operation *last,
                     ArrayRef<Attribute> knobs);
  scf::IfOp versionSpan(Operation *first, Operation *last,
                        FlatSymbolRefAttr knob);
  Value flagFor(FlatSymbolRefAttr knob);
  void recordTunable(ApproxFunctionOp op, StringRef versioning);

  FunctionOpInterface fn;
  SlotKind slot;
  unsigned sm;
  unsigned maxVersions;
  SyncAnalysis &sync;
  SmallVectorImpl<Attribute> &sites;
  llvm::DenseMap<Operation *, std::string> reasons; ///< ViaF32 ops.
  llvm::SetVector<Attribute> usedKnobs;
  Value slotId;
  llvm::DenseMap<Attribute, Value> flags;
  Operation *lastEntryOp = nullptr; ///< where the next flag op goes after.
};

} // namespace

llvm::SetVector<Attribute> FunctionSplitter::run() {
  SmallVector<ApproxFunctionOp> ops;
  walkWithoutNestedSymbolTables(fn, [&](Operation *op) {
    if (auto f = dyn_cast<ApproxFunctionOp>(op))
      ops.push_back(f);
  });
  for (ApproxFunctionOp op : ops) {
    const FunctionInfo &info = op.getFunctionInfo();
    Type type = op->getResult(0).getType();
    // Only tunable sites name a knob: nothing else reads one at run time.
    if (std::optional<Form> form = op.getForm()) {
      SiteForm site = *form == Form::sfu       ? SiteForm::sfu
                      : *form == Form::correct ? SiteForm::correct
                                               : SiteForm::precise;
      sites.push_back(makeSite(op, "sfu", info.name, type, /*knob=*/{}, site,
                               site == SiteForm::correct
                                   ? "correctly rounded (form(correct))"
                                   : "pinned by the input IR"));
      continue;
    }
    std::string reason;
    SfuSupport support = sfuSupport(op, sm, &reason);
    if (support == SfuSupport::None) {
      op.setForm(Form::precise);
      sites.push_back(makeSite(op, "sfu", info.name, type, /*knob=*/{},
                               SiteForm::precise, reason));
      continue;
    }
    if (!reason.empty())
      reasons[op] = reason;
  }
  if (!fn.isExternal())
    for (Block &block : fn.getFunctionBody())
      processBlock(block);
  return usedKnobs;
}

void FunctionSplitter::processBlock(Block &block) {
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
    if (isa<ApproxFunctionOp>(op) || isa<LoopLikeOpInterface>(op)) {
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

void FunctionSplitter::recordTunable(ApproxFunctionOp op,
                                     StringRef versioning) {
  Builder b(op->getContext());
  std::string reason = reasons.lookup(op);
  SfuSupport support = sfuSupport(op, sm);
  SmallVector<NamedAttribute> data = {
      b.getNamedAttr("sfu", b.getStringAttr(describeSfuForm(op, support))),
      b.getNamedAttr("versioning", b.getStringAttr(versioning)),
      b.getNamedAttr("range_reduction", b.getBoolAttr(op.getRangeReduction())),
      b.getNamedAttr("newton_steps",
                     b.getI64IntegerAttr(op.getNewtonStepCount())),
      b.getNamedAttr("demote_to_f32", b.getBoolAttr(op.getDemote()))};
  if (support == SfuSupport::ViaF32)
    data.push_back(b.getNamedAttr("compute_type", b.getStringAttr("f32")));
  sites.push_back(makeSite(op, "sfu", op.getFunctionInfo().name,
                           op->getResult(0).getType(), op.getKnobAttr(),
                           SiteForm::tunable, reason,
                           b.getDictionaryAttr(data)));
}

void FunctionSplitter::flush(SmallVectorImpl<Operation *> &anchors) {
  if (anchors.empty())
    return;
  Operation *first = anchors.front(), *last = anchors.back();
  anchors.clear();
  llvm::SetVector<Attribute> knobs;
  SmallVector<ApproxFunctionOp> tunable;
  forEachTunable(first, last, [&](ApproxFunctionOp op) {
    knobs.insert(op.getKnobAttr());
    tunable.push_back(op);
  });
  bool nested = knobs.size() < 32 && (uint64_t(1) << knobs.size()) <=
                                         uint64_t(std::max(1u, maxVersions));
  for (ApproxFunctionOp op : tunable)
    recordTunable(op, nested ? "region" : "per-op");
  if (nested) {
    versionNested(first, last, knobs.getArrayRef());
    return;
  }
  // Too many combinations: one branch per op, each in its own block.
  for (ApproxFunctionOp op : tunable)
    versionSpan(op, op, op.getKnobAttr());
}

void FunctionSplitter::versionNested(Operation *first, Operation *last,
                                     ArrayRef<Attribute> knobs) {
  if (knobs.empty())
    return;
  scf::IfOp ifOp =
      versionSpan(first, last, cast<FlatSymbolRefAttr>(knobs.front()));
  for (Block *branch : {ifOp.thenBlock(), ifOp.elseBlock()}) {
    Operation *yield = branch->getTerminator();
    if (&branch->front() == yield)
      continue;
    // Only the knobs still tunable in this copy.
    llvm::SetVector<Attribute> rest;
    forEachTunable(&branch->front(), yield->getPrevNode(),
                   [&](ApproxFunctionOp op) { rest.insert(op.getKnobAttr()); });
    versionNested(&branch->front(), yield->getPrevNode(), rest.getArrayRef());
  }
}

Value FunctionSplitter::flagFor(FlatSymbolRefAttr knob) {
  auto it = flags.find(knob);
  if (it != flags.end())
    return it->second;
  usedKnobs.insert(knob);
  Block &entry = fn.getFunctionBody().front();
  OpBuilder b = lastEntryOp ? OpBuilder(lastEntryOp->getBlock(),
                                        ++Block::iterator(lastEntryOp))
                            : OpBuilder::atBlockBegin(&entry);
  Location loc = fn.getLoc();
  if (!slotId)
    slotId = WarpSlotOp::create(b, loc, b.getI32Type(),
                                SlotKindAttr::get(fn.getContext(), slot));
  Value value = KnobValueOp::create(b, loc, b.getI32Type(), knob);
  auto flag = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, slotId,
                                    value);
  lastEntryOp = flag;
  flags[knob] = flag;
  return flag;
}

scf::IfOp FunctionSplitter::versionSpan(Operation *first, Operation *last,
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
  auto fill = [&](Block *dest, Form form) {
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
    for (Operation &op : *dest) {
      auto pin = [&](Operation *inner) {
        if (auto f = dyn_cast<ApproxFunctionOp>(inner);
            f && !f.getForm() && f.getKnobAttr() == knob)
          f.setForm(form);
      };
      pin(&op);
      walkWithoutNestedSymbolTables(&op, pin);
    }
    scf::YieldOp::create(bb, first->getLoc(), yields);
  };
  fill(ifOp.thenBlock(), Form::sfu);
  fill(ifOp.elseBlock(), Form::precise);

  for (auto [v, r] : llvm::zip(escaping, ifOp.getResults()))
    v.replaceAllUsesWith(r);
  for (Operation *op : llvm::reverse(span)) {
    op->dropAllUses();
    op->erase();
  }
  return ifOp;
}

namespace {
struct ApproxWarpSplitPass final
    : public approx::impl::ApproxWarpSplitBase<ApproxWarpSplitPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void ApproxWarpSplitPass::runOnOperation() {
  gpu::GPUModuleOp module = getOperation();
  std::optional<SlotKind> kind = symbolizeSlotKind(slot);
  if (!kind) {
    module.emitError("approx-warp-split: slot=")
        << quoteName(slot) << " is not one of hw, virtual, software";
    return signalPassFailure();
  }
  std::optional<unsigned> sm = parseSmVersion(chip);
  if (!sm) {
    module.emitError("approx-warp-split: chip=")
        << quoteName(chip) << " is not of the form sm_XY";
    return signalPassFailure();
  }
  if (maxVersions < 2 || maxVersions > 1024) {
    module.emitError("approx-warp-split: max-versions=")
        << static_cast<unsigned>(maxVersions) << " is out of range [2, 1024]";
    return signalPassFailure();
  }

  SymbolTable symbols(module);
  SyncAnalysis sync(symbols);
  SmallVector<Attribute> sites;
  llvm::SetVector<Attribute> knobs;
  for (FunctionOpInterface fn : getFunctions(module)) {
    FunctionSplitter splitter(fn, *kind, *sm, maxVersions, sync, sites);
    knobs.insert_range(splitter.run());
  }

  // Tell the runtime which slot each knob is compared against.
  for (Attribute k : knobs) {
    auto knobOp = symbols.lookup<KnobOp>(cast<FlatSymbolRefAttr>(k).getValue());
    if (!knobOp)
      continue; // the verifier reports the missing knob
    if (knobOp.getWarpSlot() && *knobOp.getWarpSlot() != *kind) {
      knobOp.emitError("approx-warp-split: knob ")
          << quoteName(knobOp.getSymName()) << " is already compared against the "
          << stringifySlotKind(*knobOp.getWarpSlot())
          << " slot; this run asks for slot=" << slot;
      return signalPassFailure();
    }
    knobOp.setWarpSlot(*kind);
  }
  appendSites(module, sites);
}
