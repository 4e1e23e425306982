//===- ApproxDialect.cpp - approx dialect, ops and verifiers --------------===//
//
// Registers the dialect and implements the verifiers: operand types, per-op
// options (demote, range_reduction, newton_steps), knob references and knob
// ranges. Each rule has its own diagnostic, tested in test/Dialect/Approx.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::approx;

#include "approx/Dialect/ApproxDialect.cpp.inc"
#include "approx/Dialect/ApproxEnums.cpp.inc"
#include "approx/Dialect/ApproxInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "approx/Dialect/ApproxOps.cpp.inc"

namespace {
/// Approx ops are pure functions of their operands (or reads of a module
/// global): inlining a helper that holds them is always legal.
struct ApproxInlinerInterface final : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool,
                       IRMapping &) const override {
    return true;
  }
};
} // namespace

void ApproxDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "approx/Dialect/ApproxOps.cpp.inc"
      >();
  addInterfaces<ApproxInlinerInterface>();
}

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

/// Shared by function ops and knob_value: the knob must be an approx.knob in
/// the nearest symbol table (the enclosing gpu.module).
static LogicalResult verifyKnobUse(Operation *op, FlatSymbolRefAttr knob,
                                   SymbolTableCollection &symbolTable) {
  Operation *def = symbolTable.lookupNearestSymbolFrom(op, knob.getAttr());
  if (!def)
    return op->emitOpError("knob ")
           << knob << " does not name an approx.knob in the enclosing "
           << "gpu.module";
  if (!isa<KnobOp>(def))
    return op->emitOpError("knob ")
           << knob << " names a '" << def->getName()
           << "', not an approx.knob";
  return success();
}

#define APPROX_KNOB_USER(OP)                                                   \
  LogicalResult OP::verifySymbolUses(SymbolTableCollection &symbolTable) {    \
    return verifyKnobUse(getOperation(), getKnobAttr(), symbolTable);          \
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
APPROX_KNOB_USER(KnobValueOp)
#undef APPROX_KNOB_USER

LogicalResult KnobOp::verify() {
  int64_t lo = getMin(), hi = getMax(), def = getDefaultValue();
  constexpr int64_t kI32Max = std::numeric_limits<int32_t>::max();
  if (lo < 0 || hi > kI32Max)
    return emitOpError("range(")
           << lo << ", " << hi << ") must lie within [0, " << kI32Max
           << "]: knobs are non-negative i32";
  if (lo > hi)
    return emitOpError("range(") << lo << ", " << hi << ") is inverted";
  if (lo == hi)
    return emitOpError("range(")
           << lo << ", " << hi << ") is empty: it holds one value, nothing "
           << "to tune";
  if (def < lo || def > hi)
    return emitOpError("default(")
           << def << ") lies outside range(" << lo << ", " << hi << ")";
  return success();
}
