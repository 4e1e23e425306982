//===- ApproxLnsVersion.cpp - version LNS split code on warp slot < λ -----===//
//
// `split` sends warps whose slot id is below λ to the texture units and the
// others to the SFU. Branching per op (what approx-lns-lower does with a
// split op) breaks the loop's unrolling and instruction-level parallelism;
// this pass versions whole spans instead, loops included (Algorithm 1,
// common/WarpVersioning): the copy for warps below λ pins every split op of
// that knob to texture2, the other copy to sfu. Each pinned op keeps where
// it came from in `approx.lns_split`, which approx-lns-lower records in the
// op's site (tunable, governed by the knob).
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"
#include "common/ModuleUtils.h"
#include "common/WarpVersioning.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXLNSVERSION
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {

/// The LNS ops carrying a `split` impl (sb, db, and add/sub before
/// approx-lns-expand).
class LnsSplitPolicy final : public WarpSplitPolicy {
public:
  static LnsImplAttr splitImpl(Operation *op) {
    auto impl = op->getAttrOfType<LnsImplAttr>("impl");
    return impl && impl.getKind() == LnsImplKind::split ? impl : LnsImplAttr();
  }
  FlatSymbolRefAttr tunableKnob(Operation *op) override {
    LnsImplAttr impl = splitImpl(op);
    return impl ? impl.getKnob() : FlatSymbolRefAttr();
  }
  SlotKind slotKind(Operation *op) override {
    return splitImpl(op).getSlot();
  }
  void versioned(Operation *op, StringRef how) override {
    // Before the span is copied, so the copies inherit it. (Not the dialect
    // attribute: the op is still split; pin turns it into that.)
    op->setAttr(kVersioning, StringAttr::get(op->getContext(), how));
  }
  void pin(Operation *op, FlatSymbolRefAttr knob, bool belowKnob) override {
    LnsImplAttr split = splitImpl(op);
    MLIRContext *ctx = op->getContext();
    // The texture side reads split's table (same segment rule); the SFU
    // side has no parameters.
    LnsImplAttr pinned =
        belowKnob
            ? LnsImplAttr::get(ctx, LnsImplKind::texture2, split.getSegments(),
                               split.getInputBits(), split.getMaxError(),
                               /*degree=*/5, FlatSymbolRefAttr(), SlotKind::hw)
            : LnsImplAttr::get(ctx, LnsImplKind::sfu, 0, 0, FloatAttr(), 5,
                               FlatSymbolRefAttr(), SlotKind::hw);
    Builder b(ctx);
    Attribute how = op->removeAttr(kVersioning);
    op->setAttr("impl", pinned);
    op->setAttr(kMarker,
                b.getDictionaryAttr(
                    {b.getNamedAttr("knob", knob),
                     b.getNamedAttr("side", b.getStringAttr(
                                                belowKnob ? "texture2" : "sfu")),
                     b.getNamedAttr("versioning",
                                    how ? how : b.getStringAttr("region"))}));
  }

  static constexpr StringLiteral kMarker = kLnsSplitAttrName;
  static constexpr StringLiteral kVersioning = "lns_versioning";
};

struct ApproxLnsVersionPass final
    : approx::impl::ApproxLnsVersionBase<ApproxLnsVersionPass> {
  using Base::Base;
  void runOnOperation() override;
};

} // namespace

void ApproxLnsVersionPass::runOnOperation() {
  gpu::GPUModuleOp module = getOperation();
  if (failed(checkMaxVersions(module, "approx-lns-version", maxVersions)))
    return signalPassFailure();
  SymbolTable symbols(module);
  SyncAnalysis sync(symbols);
  for (FunctionOpInterface fn : getFunctions(module)) {
    LnsSplitPolicy policy;
    auto knobs = versionOnWarpSlots(fn, policy, sync, maxVersions);
    if (failed(knobs))
      return signalPassFailure();
    // The runtime bounds λ by the knob's slot kind, as for the SFU split.
    for (auto [knob, kind] : *knobs) {
      auto knobOp = symbols.lookup<KnobOp>(knob.getValue());
      if (!knobOp) {
        fn.emitError("approx-lns-version: knob ")
            << knob << " is not an approx.knob of this gpu.module";
        return signalPassFailure();
      }
      if (knobOp.getWarpSlot() && *knobOp.getWarpSlot() != kind) {
        knobOp.emitError("approx-lns-version: knob ")
            << quoteName(knobOp.getSymName()) << " compares "
            << stringifySlotKind(*knobOp.getWarpSlot())
            << " warp slots elsewhere, not " << stringifySlotKind(kind);
        return signalPassFailure();
      }
      knobOp.setWarpSlot(kind);
    }
  }
}
