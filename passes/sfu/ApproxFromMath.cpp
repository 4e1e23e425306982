//===- ApproxFromMath.cpp - math/arith transcendentals -> approx ops -------===//
//
// Transparent mode: a user's kernels need no change. Finds the selected
// kernels of a gpu.module and the functions they call, and rewrites their
// math/arith transcendentals on f32/f64 scalars into tunable approx ops bound
// to one knob, declaring the knob if needed.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXFROMMATH
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

static constexpr StringLiteral kFunctions[] = {
    "sin", "cos", "exp", "log", "pow", "div", "rcp", "sqrt", "rsqrt"};

/// The approx function a math/arith op maps to, or "" if none.
static StringRef approxFunctionFor(Operation *op) {
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case([](math::SinOp) { return "sin"; })
      .Case([](math::CosOp) { return "cos"; })
      .Case([](math::ExpOp) { return "exp"; })
      .Case([](math::LogOp) { return "log"; })
      .Case([](math::PowFOp) { return "pow"; })
      .Case([](math::SqrtOp) { return "sqrt"; })
      .Case([](math::RsqrtOp) { return "rsqrt"; })
      .Case([](arith::DivFOp div) {
        return matchPattern(div.getLhs(), m_OneFloat()) ? "rcp" : "div";
      })
      .Default([](Operation *) { return ""; });
}

namespace {
struct ApproxFromMathPass final
    : public approx::impl::ApproxFromMathBase<ApproxFromMathPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Builds the approx op for `fn` replacing `op`, carrying the pass options.
static Operation *buildApproxOp(OpBuilder &b, Operation *op, StringRef fn,
                                FlatSymbolRefAttr knob, bool demote,
                                bool rangeReduction, unsigned newtonSteps) {
  Type type = op->getResult(0).getType();
  OperationState state(op->getLoc(), ("approx." + fn).str());
  // `1.0 / x` keeps only the divisor.
  if (fn == "rcp")
    state.addOperands(op->getOperand(1));
  else
    state.addOperands(op->getOperands());
  state.addTypes(type);
  state.addAttribute("knob", knob);
  bool transcendental =
      fn == "sin" || fn == "cos" || fn == "exp" || fn == "log" || fn == "pow";
  if (type.isF64() && demote && transcendental)
    state.addAttribute("demote", b.getUnitAttr());
  if (rangeReduction && (fn == "sin" || fn == "cos"))
    state.addAttribute("range_reduction", b.getUnitAttr());
  if (type.isF64() && newtonSteps > 0 && !transcendental)
    state.addAttribute("newton_steps", b.getI32IntegerAttr(newtonSteps));
  return b.create(state);
}

void ApproxFromMathPass::runOnOperation() {
  gpu::GPUModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();

  // Validate options: each is a precise, one-line error.
  llvm::StringSet<> wanted;
  for (const std::string &f : functions) {
    if (!llvm::is_contained(kFunctions, f)) {
      module.emitError("approx-from-math: unknown function '")
          << f << "' in functions=; expected one of "
          << "sin, cos, exp, log, pow, div, rcp, sqrt, rsqrt";
      return signalPassFailure();
    }
    wanted.insert(f);
  }
  if (newtonSteps > 3) {
    module.emitError("approx-from-math: newton-steps=")
        << static_cast<unsigned>(newtonSteps) << " is out of range [0, 3]";
    return signalPassFailure();
  }
  if (knob.empty()) {
    module.emitError("approx-from-math: knob= must name a knob");
    return signalPassFailure();
  }

  // Roots: the selected kernels.
  SymbolTable symbols(module);
  SmallVector<Operation *> roots;
  for (const std::string &k : kernels) {
    auto fn = dyn_cast_or_null<gpu::GPUFuncOp>(symbols.lookup(k));
    if (!fn || !fn.isKernel()) {
      module.emitError("approx-from-math: kernels= names '")
          << k << "', which is not a gpu.func kernel of @"
          << module.getName();
      return signalPassFailure();
    }
    roots.push_back(fn);
  }
  if (kernels.empty())
    module.walk([&](gpu::GPUFuncOp fn) {
      if (fn.isKernel())
        roots.push_back(fn);
    });

  // Close over calls: a kernel's helpers are approximated with it.
  llvm::SetVector<Operation *> scope(roots.begin(), roots.end());
  for (size_t i = 0; i < scope.size(); ++i)
    scope[i]->walk([&](CallOpInterface call) {
      if (auto sym = dyn_cast_if_present<SymbolRefAttr>(
              call.getCallableForCallee()))
        if (Operation *callee = symbols.lookup(sym.getRootReference()))
          scope.insert(callee);
    });

  // Convert.
  SmallVector<Operation *> candidates;
  for (Operation *fn : scope)
    fn->walk([&](Operation *op) {
      if (!approxFunctionFor(op).empty())
        candidates.push_back(op);
    });

  bool anyConverted = false;
  FlatSymbolRefAttr knobRef = FlatSymbolRefAttr::get(ctx, knob);
  OpBuilder b(ctx);
  for (Operation *op : candidates) {
    StringRef fn = approxFunctionFor(op);
    bool named = wanted.contains(fn);
    if (!wanted.empty() && !named)
      continue;
    Type type = op->getResult(0).getType();
    if (!type.isF32() && !type.isF64()) {
      if (named)
        op->emitWarning("approx-from-math: ")
            << fn << " on " << type
            << " left precise: approx functions take f32 or f64 scalars";
      continue;
    }
    bool f64NoSfu = type.isF64() && (fn == "sin" || fn == "cos" ||
                                     fn == "exp" || fn == "log" || fn == "pow");
    if (f64NoSfu && !f64Demote) {
      if (named)
        op->emitWarning("approx-from-math: f64 ")
            << fn << " has no SFU form and was left precise; pass "
            << "f64-demote=true for the f32-demoted SFU form";
      continue;
    }
    b.setInsertionPoint(op);
    Operation *repl = buildApproxOp(b, op, fn, knobRef, f64Demote,
                                    rangeReduction, newtonSteps);
    op->replaceAllUsesWith(repl->getResults());
    op->erase();
    anyConverted = true;
  }

  if (!anyConverted)
    return;
  // Declare the knob unless the module already does.
  Operation *existing = symbols.lookup(knob);
  if (existing && !isa<KnobOp>(existing)) {
    module.emitError("approx-from-math: knob name '")
        << knob << "' is already taken by a '" << existing->getName() << "'";
    return signalPassFailure();
  }
  if (!existing) {
    if (knobMax < 1 || knobMax > std::numeric_limits<int32_t>::max()) {
      module.emitError("approx-from-math: knob-max=")
          << static_cast<int64_t>(knobMax) << " is out of range [1, 2^31-1]";
      return signalPassFailure();
    }
    b.setInsertionPointToStart(module.getBody());
    auto knobOp = KnobOp::create(b, module.getLoc(), knob, /*min=*/0,
                                 /*max=*/knobMax, /*default=*/0);
    symbols.insert(knobOp, module.getBody()->begin());
  }
}
