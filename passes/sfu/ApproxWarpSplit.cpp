//===- ApproxWarpSplit.cpp - version code on warp slot < knob -------------===//
//
// The paper's Algorithm 1 for the SFU forms: each tunable approx op is
// pinned to form(sfu) in the copy that warps below the knob run and to
// form(precise) in the other (the versioning itself, shared with the LNS
// split, is common/WarpVersioning). Ops with no SFU form on the target are
// pinned precise first; every op is recorded as a manifest site.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"
#include "common/ModuleUtils.h"
#include "common/Sites.h"
#include "common/WarpVersioning.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXWARPSPLIT
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

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

namespace {

/// Pins what has no SFU form, records every site, and versions the rest
/// through common/WarpVersioning: the policy for the SFU forms.
class FunctionSplitter final : public WarpSplitPolicy {
public:
  FunctionSplitter(FunctionOpInterface fn, SlotKind slot, unsigned sm,
                   unsigned maxVersions, SyncAnalysis &sync,
                   SmallVectorImpl<Attribute> &sites)
      : fn(fn), slot(slot), sm(sm), maxVersions(maxVersions), sync(sync),
        sites(sites) {}

  /// Returns the knobs it compared the slot against.
  FailureOr<llvm::SetVector<Attribute>> run();

  FlatSymbolRefAttr tunableKnob(Operation *op) override {
    auto f = dyn_cast<ApproxFunctionOp>(op);
    return f && !f.getForm() ? f.getKnobAttr() : FlatSymbolRefAttr();
  }
  SlotKind slotKind(Operation *) override { return slot; }
  void pin(Operation *op, FlatSymbolRefAttr, bool belowKnob) override {
    cast<ApproxFunctionOp>(op).setForm(belowKnob ? Form::sfu : Form::precise);
  }
  void versioned(Operation *op, StringRef versioning) override {
    recordTunable(cast<ApproxFunctionOp>(op), versioning);
  }

private:
  void recordTunable(ApproxFunctionOp op, StringRef versioning);

  FunctionOpInterface fn;
  SlotKind slot;
  unsigned sm;
  unsigned maxVersions;
  SyncAnalysis &sync;
  SmallVectorImpl<Attribute> &sites;
  llvm::DenseMap<Operation *, std::string> reasons; ///< ViaF32 ops.
};

} // namespace

FailureOr<llvm::SetVector<Attribute>> FunctionSplitter::run() {
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
  auto knobs = versionOnWarpSlots(fn, *this, sync, maxVersions);
  if (failed(knobs))
    return failure();
  llvm::SetVector<Attribute> used;
  for (auto [knob, kind] : *knobs)
    used.insert(knob);
  return used;
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
  if (failed(checkMaxVersions(module, "approx-warp-split", maxVersions)))
    return signalPassFailure();

  SymbolTable symbols(module);
  SyncAnalysis sync(symbols);
  SmallVector<Attribute> sites;
  llvm::SetVector<Attribute> knobs;
  for (FunctionOpInterface fn : getFunctions(module)) {
    FunctionSplitter splitter(fn, *kind, *sm, maxVersions, sync, sites);
    FailureOr<llvm::SetVector<Attribute>> used = splitter.run();
    if (failed(used))
      return signalPassFailure();
    knobs.insert_range(*used);
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
