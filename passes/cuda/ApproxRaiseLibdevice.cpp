//===- ApproxRaiseLibdevice.cpp - libdevice calls to math ops -------------===//
//
// clang lowers CUDA's math library to libdevice calls (`expf` ->
// `@__nv_expf`) and some builtins to LLVM intrinsics. approx-from-math reads
// math ops, so each call of a function the SFU table knows becomes that math
// op again; the precise lowering turns it back into the same libdevice call.
// CUDA's integer min/max (`min(int, int)` is `@__nv_min`) become arith's, so
// that index analyses (approx-perforation-raise's clamps) see them.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/FunctionTable.h"
#include "approx/Passes/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXRAISELIBDEVICE
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

/// The math op libdevice function `callee` computes, for element type
/// `elem`: `__nv_expf` on f32 and `__nv_exp` on f64 are math.exp.
static const FunctionInfo *libdeviceFunction(StringRef callee, Type elem) {
  if (!callee.consume_front("__nv_"))
    return nullptr;
  if (elem.isF32() && !callee.consume_back("f"))
    return nullptr;
  if (!elem.isF32() && !elem.isF64())
    return nullptr;
  // libdevice's rsqrt is rsqrt.approx already (CUDA documents rsqrtf at 2
  // ulp): left alone, like __nv_fast_expf. `1.0f / sqrtf(x)` is the rsqrt
  // site (approx-from-math).
  if (callee == "rsqrt")
    return nullptr;
  const FunctionInfo *fn = lookupFunction(callee);
  return fn && !fn->mathOp.empty() ? fn : nullptr;
}

/// The math op LLVM intrinsic `opName` is: llvm.intr.exp is math.exp,
/// llvm.intr.pow is math.powf.
static const FunctionInfo *intrinsicFunction(StringRef opName) {
  if (!opName.consume_front("llvm.intr."))
    return nullptr;
  const FunctionInfo *fn = lookupFunction(opName);
  return fn && !fn->mathOp.empty() ? fn : nullptr;
}

/// `op`'s LLVM fast-math flags as arith's.
static arith::FastMathFlagsAttr fastMath(Operation *op) {
  auto flags = op->getAttrOfType<LLVM::FastmathFlagsAttr>("fastmathFlags");
  if (!flags)
    return arith::FastMathFlagsAttr::get(op->getContext(),
                                         arith::FastMathFlags::none);
  std::optional<arith::FastMathFlags> converted =
      arith::symbolizeFastMathFlags(
          LLVM::stringifyFastmathFlags(flags.getValue()));
  return arith::FastMathFlagsAttr::get(
      op->getContext(), converted.value_or(arith::FastMathFlags::none));
}

static Type elementOf(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getElementType();
  return t;
}

/// Replaces `op` (a call or intrinsic computing `fn`) by `fn`'s math op.
static void raise(Operation *op, const FunctionInfo &fn, ValueRange operands,
                  IRRewriter &rewriter) {
  rewriter.setInsertionPoint(op);
  OperationState state(op->getLoc(), fn.mathOp);
  state.addOperands(operands);
  state.addTypes(op->getResultTypes());
  state.addAttribute("fastmath", fastMath(op));
  Operation *math = rewriter.create(state);
  rewriter.replaceOp(op, math->getResults());
}

/// libdevice's integer min / max (int, unsigned, long long and unsigned long
/// long; the operand width says which) as arith's op; nullptr otherwise.
static Operation *integerMinMax(LLVM::CallOp call, IRRewriter &rewriter) {
  std::optional<StringRef> callee = call.getCallee();
  if (!callee || call.getNumResults() != 1 ||
      call.getArgOperands().size() != 2)
    return nullptr;
  Type type = call.getResult().getType();
  if (!type.isInteger(32) && !type.isInteger(64))
    return nullptr;
  if (!llvm::all_of(call.getArgOperands().getTypes(),
                    [&](Type t) { return t == type; }))
    return nullptr;
  // libdevice's names: [u]min / [u]max on int, [u]llmin / [u]llmax on
  // long long.
  StringRef name = *callee;
  if (!name.consume_front("__nv_"))
    return nullptr;
  bool isUnsigned = name.consume_front("u");
  if (type.isInteger(64) != name.consume_front("ll"))
    return nullptr;
  if (name != "min" && name != "max")
    return nullptr;
  Value a = call.getArgOperands()[0], b = call.getArgOperands()[1];
  rewriter.setInsertionPoint(call);
  Location loc = call.getLoc();
  if (name == "min")
    return isUnsigned ? arith::MinUIOp::create(rewriter, loc, a, b).getOperation()
                      : arith::MinSIOp::create(rewriter, loc, a, b).getOperation();
  return isUnsigned ? arith::MaxUIOp::create(rewriter, loc, a, b).getOperation()
                    : arith::MaxSIOp::create(rewriter, loc, a, b).getOperation();
}

namespace {
struct ApproxRaiseLibdevicePass final
    : public approx::impl::ApproxRaiseLibdeviceBase<ApproxRaiseLibdevicePass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : ops) {
      if (op->getNumResults() != 1)
        continue;
      if (auto call = dyn_cast<LLVM::CallOp>(op))
        if (Operation *minMax = integerMinMax(call, rewriter)) {
          rewriter.replaceOp(op, minMax->getResults());
          continue;
        }
      Type type = op->getResult(0).getType();
      Type elem = elementOf(type);
      if (!elem.isF32() && !elem.isF64())
        continue;
      if (auto call = dyn_cast<LLVM::CallOp>(op)) {
        std::optional<StringRef> callee = call.getCallee();
        if (!callee)
          continue;
        const FunctionInfo *fn = libdeviceFunction(*callee, elem);
        if (!fn || call.getArgOperands().size() != fn->arity ||
            isa<VectorType>(type) ||
            !llvm::all_of(call.getArgOperands().getTypes(),
                          [&](Type t) { return t == type; }))
          continue;
        raise(op, *fn, call.getArgOperands(), rewriter);
      } else if (auto div = dyn_cast<LLVM::FDivOp>(op)) {
        rewriter.setInsertionPoint(op);
        auto divf = arith::DivFOp::create(rewriter, op->getLoc(), div.getLhs(),
                                          div.getRhs(), fastMath(op));
        rewriter.replaceOp(op, divf);
      } else if (const FunctionInfo *fn =
                     intrinsicFunction(op->getName().getStringRef())) {
        if (op->getNumOperands() != fn->arity ||
            !llvm::all_of(op->getOperandTypes(),
                          [&](Type t) { return t == type; }))
          continue;
        raise(op, *fn, op->getOperands(), rewriter);
      }
    }
    // Declarations no call uses any more; the lowering declares again what
    // the precise forms need.
    SymbolTable symbols(module);
    for (auto fn : llvm::make_early_inc_range(module.getOps<LLVM::LLVMFuncOp>()))
      if (fn.isExternal() && fn.getName().starts_with("__nv_") &&
          SymbolTable::symbolKnownUseEmpty(fn, module))
        symbols.erase(fn);
  }
};
} // namespace
