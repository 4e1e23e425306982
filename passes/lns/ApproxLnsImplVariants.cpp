//===- ApproxLnsImplVariants.cpp - one kernel variant per LNS impl --------===//
//
// Lets the tuner choose how sb/db are evaluated: every kernel holding LNS
// ops is compiled once per listed impl (its ops' impl kind replaced, their
// segments, input bits, error target and degree kept), and one
// approx.variant_knob dispatches each kernel name to its variants, in the
// listed order. Value 0 is the first impl, the reference approx-tune
// compares the others against (list `precise` first), and the original
// kernel keeps its name as that variant, so host launches still resolve.
// `split` is not a variant: it is tuned through its own λ knob.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"
#include "common/ModuleUtils.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXLNSIMPLVARIANTS
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {

/// The LNS ops whose evaluation an impl decides (sb, db; add, sub before
/// approx-lns-expand).
bool hasLnsImpl(Operation *op) {
  return isa<LnsSbOp, LnsDbOp, LnsAddOp, LnsSubOp>(op);
}

bool holdsLnsImpl(Operation *root) {
  bool found = false;
  walkWithoutNestedSymbolTables(root, [&](Operation *op) {
    found = found || hasLnsImpl(op);
  });
  return found;
}

struct ApproxLnsImplVariantsPass final
    : approx::impl::ApproxLnsImplVariantsBase<ApproxLnsImplVariantsPass> {
  using Base::Base;

  LogicalResult fail(Operation *at, const Twine &message) {
    at->emitError("approx-lns-impl-variants: ") << message;
    return failure();
  }

  /// The listed impl kinds, checked.
  FailureOr<SmallVector<LnsImplKind>> parseImpls(gpu::GPUModuleOp module) {
    SmallVector<LnsImplKind> kinds;
    llvm::StringSet<> seen;
    for (const std::string &name : impls) {
      std::optional<LnsImplKind> kind = symbolizeLnsImplKind(name);
      if (kind == LnsImplKind::split) {
        (void)fail(module, "impls=split: split is tuned through its own λ "
                           "knob, not as a variant");
        return failure();
      }
      if (!kind) {
        (void)fail(module, "impls=" + quoteName(name) +
                               " is not one of precise, sfu, horner, "
                               "texture1, texture2, texture3");
        return failure();
      }
      if (!seen.insert(name).second) {
        (void)fail(module, "impls lists " + name + " twice");
        return failure();
      }
      kinds.push_back(*kind);
    }
    if (kinds.size() == 1) {
      (void)fail(module, "impls needs two or more impls to choose among");
      return failure();
    }
    return kinds;
  }

  /// Gives every LNS op in `func` the impl `kind`, keeping its table
  /// parameters, and marks it as variant `value` of the knob.
  LogicalResult retarget(gpu::GPUFuncOp func, LnsImplKind kind,
                         int64_t value) {
    Builder b(func.getContext());
    auto marker = b.getDictionaryAttr(
        {b.getNamedAttr("knob", FlatSymbolRefAttr::get(b.getContext(), knob)),
         b.getNamedAttr("value", b.getI64IntegerAttr(value))});
    const bool table = kind != LnsImplKind::precise && kind != LnsImplKind::sfu;
    WalkResult r = func.walk([&](Operation *op) {
      if (!hasLnsImpl(op))
        return WalkResult::advance();
      auto old = op->getAttrOfType<LnsImplAttr>("impl");
      LnsImplAttr impl = LnsImplAttr::getChecked(
          [&] {
            return op->emitOpError("as impl ")
                   << stringifyLnsImplKind(kind) << " in kernel @"
                   << func.getName() << ": ";
          },
          op->getContext(), kind, table ? old.getSegments() : 0,
          table ? old.getInputBits() : 0,
          table ? old.getMaxError() : FloatAttr(),
          kind == LnsImplKind::horner ? old.getDegree() : 5,
          FlatSymbolRefAttr(), SlotKind::hw);
      if (!impl)
        return WalkResult::interrupt();
      op->setAttr("impl", impl);
      op->setAttr(kLnsVariantAttrName, marker);
      op->removeAttr(kLnsSplitAttrName); // no longer one side of a split
      return WalkResult::advance();
    });
    return failure(r.wasInterrupted());
  }

  /// Whether `func` is dispatched by, or a variant of, a variant knob
  /// already; says so in a remark.
  bool dispatched(gpu::GPUModuleOp module, gpu::GPUFuncOp func) {
    VariantKnobOp knob = dispatchingKnob(module, func.getName());
    if (knob)
      func.emitRemark("no LNS impl variants: kernel @")
          << func.getName() << " is already dispatched by variant knob @"
          << knob.getSymName();
    return bool(knob);
  }

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (impls.empty())
      return;
    FailureOr<SmallVector<LnsImplKind>> kinds = parseImpls(module);
    if (failed(kinds))
      return signalPassFailure();
    if (std::string why; !isValidPtxIdentifier(knob, &why))
      return (void)fail(module, "knob=" + quoteName(knob) + ": " + why),
             signalPassFailure();
    if (SymbolTable::lookupSymbolIn(module, knob))
      return (void)fail(module, "symbol @" + knob +
                                    " exists; the LNS impl variant knob "
                                    "needs that name (choose another knob=)"),
             signalPassFailure();

    // LNS ops outside kernels would be shared by every variant: the
    // pipeline inlines first.
    for (FunctionOpInterface fn : getFunctions(module)) {
      auto gfn = dyn_cast<gpu::GPUFuncOp>(fn.getOperation());
      if ((!gfn || !gfn.isKernel()) && holdsLnsImpl(fn))
        return (void)fail(fn, "function @" + fn.getName().str() +
                                  " holds LNS ops but is not a kernel: "
                                  "inline it first (approx-to-ptx does)"),
               signalPassFailure();
    }

    MLIRContext *ctx = &getContext();
    SmallVector<NamedAttribute> dispatch;
    SmallVector<gpu::GPUFuncOp> kernels;
    for (auto func : module.getOps<gpu::GPUFuncOp>())
      if (func.isKernel() && holdsLnsImpl(func) && !dispatched(module, func))
        kernels.push_back(func);
    for (gpu::GPUFuncOp func : kernels) {
      std::string name = func.getName().str();
      SmallVector<Attribute> variants{FlatSymbolRefAttr::get(ctx, name)};
      for (LnsImplKind kind : ArrayRef(*kinds).drop_front()) {
        std::string clone =
            name + "__lns_" + stringifyLnsImplKind(kind).str();
        if (SymbolTable::lookupSymbolIn(module, clone))
          return (void)fail(func, "symbol @" + clone +
                                      " exists; it would be the " +
                                      stringifyLnsImplKind(kind) +
                                      " variant of @" + name),
                 signalPassFailure();
        variants.push_back(FlatSymbolRefAttr::get(ctx, clone));
      }
      // Clones first (from the unchanged original), then the original.
      Operation *after = func;
      for (auto [i, kind] : llvm::enumerate(ArrayRef(*kinds).drop_front())) {
        auto copy = cast<gpu::GPUFuncOp>(func->clone());
        copy.setName(cast<FlatSymbolRefAttr>(variants[i + 1]).getValue());
        module.getBody()->getOperations().insertAfter(after->getIterator(),
                                                      copy);
        after = copy;
        if (failed(retarget(copy, kind, int64_t(i) + 1)))
          return signalPassFailure();
      }
      if (failed(retarget(func, kinds->front(), 0)))
        return signalPassFailure();
      dispatch.push_back(
          NamedAttribute(StringAttr::get(ctx, name), ArrayAttr::get(ctx, variants)));
    }
    if (dispatch.empty())
      return;
    OpBuilder b(ctx);
    b.setInsertionPointToStart(module.getBody());
    SmallVector<Attribute> values;
    for (LnsImplKind kind : *kinds)
      values.push_back(LnsImplAttr::get(ctx, kind, 0, 0, nullptr, 5, nullptr,
                                        SlotKind::hw));
    VariantKnobOp::create(b, module.getLoc(), knob, 0,
                          DictionaryAttr::get(ctx, dispatch),
                          ArrayAttr::get(ctx, values));
  }
};

} // namespace
