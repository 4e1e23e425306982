//===- ApproxFromMath.cpp - math/arith functions -> tunable approx ops -----===//
//
// Transparent mode: a user's kernels need no change. Finds the selected
// kernels of every gpu.module and the functions they reach, clones helpers
// shared with unselected kernels, and rewrites the math functions of the
// function table into tunable approx ops bound to one knob. Everything it
// recognises but leaves precise is recorded as a site with the reason.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"
#include "common/ModuleUtils.h"
#include "common/Sites.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXFROMMATH
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {

/// A math/arith op that computes a function of the table.
struct Match {
  const FunctionInfo *info = nullptr;
  SmallVector<Value, 2> operands; ///< the approx op's operands.
};

/// True if op allows an approximate function (afn, or fast).
static bool allowsApproximation(Operation *op);

/// The math.sqrt that `1.0 / sqrt(x)` at `div` reads, when the pair is one
/// rsqrt site: f32/f64 (their precise rsqrt, sqrt.rn then rcp.rn, is
/// bit for bit the pair's sqrt.rn then div.rn), the sqrt used only here,
/// the same fast-math flags, no afn. CUDA code that wants an accurate
/// reciprocal square root writes it so (`rsqrtf` is itself the MUFU
/// estimate, left alone by approx-raise-libdevice), and its SFU form is
/// one rsqrt.approx, not sqrt.approx and rcp.approx.
static math::SqrtOp fusedSqrt(arith::DivFOp div, bool rsqrtWanted) {
  if (!rsqrtWanted || !matchPattern(div.getLhs(), m_OneFloat()))
    return {};
  auto sqrt = div.getRhs().getDefiningOp<math::SqrtOp>();
  Type elem = getElementTypeOrSelf(div.getType());
  if (!sqrt || !sqrt->hasOneUse() || !(elem.isF32() || elem.isF64()) ||
      sqrt.getFastmath() != div.getFastmath() || allowsApproximation(div))
    return {};
  return sqrt;
}

/// Recognises `op` as a function of the table: a math op named in the
/// table, or arith.divf (`1.0 / x` is rcp, with a scalar or splat 1.0;
/// `1.0 / sqrt(x)` is rsqrt, see fusedSqrt).
static std::optional<Match> matchFunction(Operation *op, bool rsqrtWanted) {
  Match m;
  if (auto div = dyn_cast<arith::DivFOp>(op)) {
    if (math::SqrtOp sqrt = fusedSqrt(div, rsqrtWanted)) {
      m.info = &getFunctionInfo(Function::Rsqrt);
      m.operands.push_back(sqrt.getOperand());
    } else if (matchPattern(div.getLhs(), m_OneFloat())) {
      m.info = &getFunctionInfo(Function::Rcp);
      m.operands.push_back(div.getRhs());
    } else {
      m.info = &getFunctionInfo(Function::Div);
      m.operands.append({div.getLhs(), div.getRhs()});
    }
  } else if (const FunctionInfo *info =
                 lookupMathOp(op->getName().getStringRef())) {
    if (op->getNumOperands() != info->arity || op->getNumResults() != 1)
      return std::nullopt;
    m.info = info;
    m.operands.append(op->operand_begin(), op->operand_end());
  } else {
    return std::nullopt;
  }
  // Floats only, scalar or fixed vector of one type.
  Type type = op->getResult(0).getType();
  if (auto vec = dyn_cast<VectorType>(type); vec && vec.isScalable())
    return std::nullopt;
  Type elem = getElementTypeOrSelf(type);
  if (!elem.isF16() && !elem.isBF16() && !elem.isF32() && !elem.isF64())
    return std::nullopt;
  return m;
}

/// True if the op already allows an approximate function (afn, or fast).
static bool allowsApproximation(Operation *op) {
  auto fmf = dyn_cast<arith::ArithFastMathInterface>(op);
  return fmf && arith::bitEnumContainsAll(fmf.getFastMathFlagsAttr().getValue(),
                                          arith::FastMathFlags::afn);
}

struct ApproxFromMathPass final
    : public approx::impl::ApproxFromMathBase<ApproxFromMathPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult validateOptions(ModuleOp top, unsigned &sm);
  /// Rewrites the functions of `scope` in `module`; returns whether any op
  /// became an approx op, and appends the precise/fast sites to `sites`.
  bool convert(ArrayRef<Operation *> scope, unsigned sm,
               SmallVectorImpl<Attribute> &sites);
  llvm::StringSet<> wanted, correctWanted;
};

} // namespace

LogicalResult ApproxFromMathPass::validateOptions(ModuleOp top, unsigned &sm) {
  auto fail = [&](const Twine &msg) {
    top.emitError("approx-from-math: ") << msg;
    return failure();
  };
  for (const std::string &f : functions) {
    const FunctionInfo *info = lookupFunction(f);
    if (!info) {
      std::string known;
      for (const FunctionInfo &row : getFunctionTable())
        if (row.hasOp)
          known += (known.empty() ? "" : ", ") + row.name.str();
      return fail("unknown function " + quoteName(f) +
                  " in functions=; expected one of " + known);
    }
    if (!info->hasOp)
      return fail("functions= names " + quoteName(f) + ", which has " +
                  info->noSfuReason.str());
    wanted.insert(f);
  }
  for (const std::string &f : correct) {
    const FunctionInfo *info = lookupFunction(f);
    Type f32 = Float32Type::get(top.getContext());
    if (!info || !hasCorrectForm(info->function, f32))
      return fail("correct= names " + quoteName(f) +
                  "; form(correct) exists for exp, exp2, log and log2");
    if (wanted.contains(f))
      return fail(quoteName(f) +
                  " is named in both functions= and correct=: choose one");
    correctWanted.insert(f);
  }
  if (newtonSteps > 3)
    return fail("newton-steps=" + Twine(static_cast<unsigned>(newtonSteps)) +
                " is out of range [0, 3]");
  std::string why;
  if (!isValidPtxIdentifier(knob, &why))
    return fail("knob=" + quoteName(knob) + " cannot be a PTX symbol: it " +
                why);
  if (knobMax < 1 || knobMax > std::numeric_limits<int32_t>::max())
    return fail("knob-max=" + Twine(static_cast<int64_t>(knobMax)) +
                " is out of range [1, 2147483647]");
  std::optional<unsigned> parsed = parseSmVersion(chip);
  if (!parsed)
    return fail("chip=" + quoteName(chip) + " is not of the form sm_XY");
  sm = *parsed;
  return success();
}

bool ApproxFromMathPass::convert(ArrayRef<Operation *> scope, unsigned sm,
                                 SmallVectorImpl<Attribute> &sites) {
  MLIRContext *ctx = &getContext();
  FlatSymbolRefAttr knobRef = FlatSymbolRefAttr::get(ctx, knob);
  const bool rsqrtWanted = wanted.empty() || wanted.contains("rsqrt");
  // A sqrt that becomes part of an rsqrt site is not a site of its own.
  llvm::SmallPtrSet<Operation *, 8> fused;
  for (Operation *fn : scope)
    walkWithoutNestedSymbolTables(fn, [&](Operation *op) {
      if (auto div = dyn_cast<arith::DivFOp>(op))
        if (math::SqrtOp sqrt = fusedSqrt(div, rsqrtWanted))
          fused.insert(sqrt);
    });
  SmallVector<Operation *> candidates;
  for (Operation *fn : scope)
    walkWithoutNestedSymbolTables(fn, [&](Operation *op) {
      if (!fused.contains(op) && matchFunction(op, rsqrtWanted))
        candidates.push_back(op);
    });

  bool any = false;
  OpBuilder b(ctx);
  for (Operation *op : candidates) {
    // Matched again now: earlier replacements changed the operands.
    Match m = *matchFunction(op, rsqrtWanted);
    Operation *fusedInto =
        m.info->function == Function::Rsqrt && isa<arith::DivFOp>(op)
            ? op->getOperand(1).getDefiningOp()
            : nullptr;
    const FunctionInfo &info = *m.info;
    Type type = op->getResult(0).getType();
    auto record = [&](SiteForm form, StringRef reason) {
      sites.push_back(
          makeSite(op, "sfu", info.name, type, /*knob=*/{}, form, reason));
    };
    if (allowsApproximation(op)) {
      record(SiteForm::fast,
             "fastmath<afn> already allows an approximation: lowered as "
             "upstream lowers it, not tunable");
      continue;
    }
    Type elem = getElementTypeOrSelf(type);
    bool pinCorrect = correctWanted.contains(info.name);
    if (pinCorrect) {
      std::string why;
      if (!hasCorrectForm(info.function, elem, &why)) {
        record(SiteForm::precise, "named in correct=, but " + why);
        continue;
      }
    } else if (!wanted.empty() && !wanted.contains(info.name) && info.hasOp) {
      record(SiteForm::precise, "not named in functions=");
      continue;
    }
    FormQuery query;
    query.demote = f64Demote;
    query.sm = sm;
    std::string reason;
    SfuSupport support = sfuSupport(info, elem, query, &reason);
    if (support == SfuSupport::None && !pinCorrect) {
      record(SiteForm::precise, reason);
      continue;
    }

    // The op named by the table row; its attributes through the interface.
    b.setInsertionPoint(op);
    OperationState state(op->getLoc(), ("approx." + info.name).str());
    state.addOperands(m.operands);
    state.addTypes(type);
    Operation *repl = b.create(state);
    auto fnOp = cast<ApproxFunctionOp>(repl);
    fnOp.setKnobAttr(knobRef);
    if (pinCorrect) {
      fnOp.setForm(Form::correct);
    } else {
      fnOp.setDemote(elem.isF64() && support == SfuSupport::ViaF32);
      fnOp.setRangeReduction(rangeReduction && info.rangeReduction);
      if (elem.isF64() && info.newtonSteps && newtonSteps > 0)
        fnOp.setNewtonSteps(static_cast<uint32_t>(newtonSteps));
    }
    op->replaceAllUsesWith(repl->getResults());
    op->erase();
    if (fusedInto && fusedInto->use_empty())
      fusedInto->erase();
    any = true;
  }
  return any;
}

/// Clones every function in `shared` (reached by selected and unselected
/// kernels) and redirects the calls made from `selected` functions and from
/// the clones to the clones. Returns the selected side's functions.
static SmallVector<Operation *>
cloneSharedHelpers(gpu::GPUModuleOp module, SymbolTable &symbols,
                   const llvm::SetVector<Operation *> &selected,
                   const llvm::SetVector<Operation *> &unselected) {
  llvm::DenseMap<Operation *, Operation *> clones;
  for (Operation *fn : selected) {
    if (!unselected.contains(fn))
      continue;
    Operation *copy = fn->clone();
    auto name = SymbolTable::getSymbolName(fn).getValue();
    SymbolTable::setSymbolName(copy, (name + "_approx").str());
    SymbolTable::setSymbolVisibility(copy, SymbolTable::Visibility::Private);
    module.getBody()->getOperations().insert(std::next(fn->getIterator()),
                                             copy);
    symbols.insert(copy); // renames on a clash
    clones[fn] = copy;
  }
  SmallVector<Operation *> scope;
  for (Operation *fn : selected)
    scope.push_back(clones.count(fn) ? clones[fn] : fn);
  if (clones.empty())
    return scope;
  for (Operation *fn : scope)
    walkWithoutNestedSymbolTables(fn, [&](Operation *op) {
      auto call = dyn_cast<CallOpInterface>(op);
      if (!call)
        return;
      FunctionOpInterface callee = resolveCallee(op, symbols);
      if (!callee || !clones.count(callee))
        return;
      call.setCalleeFromCallable(
          FlatSymbolRefAttr::get(SymbolTable::getSymbolName(clones[callee])));
    });
  return scope;
}

void ApproxFromMathPass::runOnOperation() {
  ModuleOp top = getOperation();
  unsigned sm = 0;
  if (failed(validateOptions(top, sm)))
    return signalPassFailure();
  std::string error;
  FailureOr<KernelSelection> selection =
      KernelSelection::resolve(top, kernels, error);
  if (failed(selection)) {
    top.emitError("approx-from-math: ") << error;
    return signalPassFailure();
  }

  for (gpu::GPUModuleOp module : getGpuModules(top)) {
    SymbolTable symbols(module);
    SmallVector<Operation *> selectedKernels, otherKernels;
    for (auto fn : module.getOps<gpu::GPUFuncOp>())
      if (fn.isKernel())
        (selection->contains(fn) ? selectedKernels : otherKernels)
            .push_back(fn);
    llvm::SetVector<Operation *> selected =
        reachableFunctions(selectedKernels, symbols);
    llvm::SetVector<Operation *> unselected =
        reachableFunctions(otherKernels, symbols);

    for (auto fn : module.getOps<gpu::GPUFuncOp>())
      if (!fn.isKernel() && !selected.contains(fn) && !unselected.contains(fn))
        fn.emitWarning("approx-from-math: gpu.func ")
            << quoteName(fn.getName())
            << " is not a kernel and no kernel calls it: it is compiled as a "
               "device function, not approximated and not in the manifest "
               "(add `kernel` to launch it)";

    SmallVector<Operation *> scope =
        cloneSharedHelpers(module, symbols, selected, unselected);
    SmallVector<Attribute> sites;
    bool converted = convert(scope, sm, sites);

    // What only unselected kernels reach stays precise (for a shared helper,
    // the original: the selected side calls its clone).
    for (Operation *fn : unselected)
      walkWithoutNestedSymbolTables(fn, [&](Operation *op) {
        if (std::optional<Match> m = matchFunction(op, /*rsqrtWanted=*/false))
          sites.push_back(makeSite(op, "sfu", m->info->name,
                                   op->getResult(0).getType(), {},
                                   SiteForm::precise,
                                   "not in a kernel named in kernels="));
      });
    appendSites(module, sites);
    if (!converted)
      continue;

    // Declare the knob unless the module already does.
    Operation *existing = symbols.lookup(knob);
    if (existing && !isa<KnobOp>(existing)) {
      existing->emitError("approx-from-math: knob name ")
          << quoteName(knob) << " is already taken by a '"
          << existing->getName() << "' (choose another with knob=NAME)";
      return signalPassFailure();
    }
    if (!existing) {
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      auto knobOp = KnobOp::create(b, module.getLoc(), knob, /*min=*/0,
                                   /*max=*/knobMax, /*default=*/0,
                                   /*warp_slot=*/nullptr,
                                   /*param_path=*/false,
                                   /*values=*/nullptr);
      symbols.insert(knobOp, module.getBody()->begin());
    }
  }
}
