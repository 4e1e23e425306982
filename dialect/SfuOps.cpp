//===- SfuOps.cpp - the SFU family: function op verifiers -----------------===//
//
// Operand types and per-op options (demote, range_reduction, newton_steps) of
// the transcendental function ops. Each rule has its own diagnostic, tested
// in test/Dialect/sfu.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::approx;

#include "approx/Dialect/SfuInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "approx/Dialect/SfuOps.cpp.inc"

/// Functions whose f64 form exists on the SFU (Table 2 of the paper).
static bool hasNativeF64SfuForm(StringRef fn) {
  return fn == "div" || fn == "rcp" || fn == "sqrt" || fn == "rsqrt";
}

bool mlir::approx::hasSfuForm(ApproxFunctionOp op) {
  Type type = op->getResult(0).getType();
  if (type.isF32())
    return true;
  if (!type.isF64())
    return false;
  return hasNativeF64SfuForm(op.getFunctionName()) || op->hasAttr("demote");
}

LogicalResult mlir::approx::detail::verifyFunctionOp(Operation *op) {
  auto fnOp = cast<ApproxFunctionOp>(op);
  StringRef fn = fnOp.getFunctionName();
  Type type = op->getResult(0).getType();
  if (!type.isF32() && !type.isF64())
    return op->emitOpError("operand type ")
           << type << " is not supported: approx functions take f32 or f64";

  // Each option belongs to one family; on another op nothing would honour it.
  if (op->hasAttr("newton_steps") && !hasNativeF64SfuForm(fn))
    return op->emitOpError(
        "'newton_steps' applies to div, rcp, sqrt and rsqrt only");
  if (op->hasAttr("range_reduction") && fn != "sin" && fn != "cos")
    return op->emitOpError("'range_reduction' applies to sin and cos only");
  if (op->hasAttr("demote") && hasNativeF64SfuForm(fn))
    return op->emitOpError("'demote' applies to sin, cos, exp, log and pow "
                           "only: f64 ")
           << fn << " has a native SFU form";

  if (op->hasAttr("demote")) {
    if (!type.isF64())
      return op->emitOpError(
          "'demote' applies to f64 operands only: f32 already has an SFU form");
  }
  if (auto steps = op->getAttrOfType<IntegerAttr>("newton_steps")) {
    if (!type.isF64())
      return op->emitOpError("'newton_steps' applies to f64 operands only: "
                             "f32 SFU forms are not refined");
    int64_t n = steps.getInt();
    if (n < 0 || n > 3)
      return op->emitOpError("'newton_steps' must be in [0, 3], got ") << n;
  }
  if (op->hasAttr("range_reduction") && type.isF64() && !op->hasAttr("demote"))
    return op->emitOpError("'range_reduction' on f64 needs 'demote': f64 ")
           << fn << " has no SFU form to reduce for";
  if (fnOp.getForm() == Form::sfu && !hasSfuForm(fnOp))
    return op->emitOpError("pinned to form(sfu) but f64 ")
           << fn << " has no SFU form; add 'demote' for the f32-demoted form";
  return success();
}

#define APPROX_KNOB_USER(OP)                                                   \
  LogicalResult OP::verifySymbolUses(SymbolTableCollection &symbolTable) {    \
    return detail::verifyKnobUse(getOperation(), getKnobAttr(), symbolTable);  \
  }
APPROX_KNOB_USER(SinOp)
APPROX_KNOB_USER(CosOp)
APPROX_KNOB_USER(ExpOp)
APPROX_KNOB_USER(LogOp)
APPROX_KNOB_USER(PowOp)
APPROX_KNOB_USER(DivOp)
APPROX_KNOB_USER(RcpOp)
APPROX_KNOB_USER(SqrtOp)
APPROX_KNOB_USER(RsqrtOp)
#undef APPROX_KNOB_USER
