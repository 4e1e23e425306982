//===- CoreOps.cpp - the core family: knobs and knob reads ----------------===//
//
// Verifiers of knob declarations (ranges) and of every op that names a knob.
// Each rule has its own diagnostic, tested in test/Dialect/core.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::approx;

#define GET_OP_CLASSES
#include "approx/Dialect/CoreOps.cpp.inc"

/// Shared by function ops and knob_value: the knob must be an approx.knob in
/// the nearest symbol table (the enclosing gpu.module).
LogicalResult mlir::approx::detail::verifyKnobUse(Operation *op, FlatSymbolRefAttr knob,
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

LogicalResult KnobValueOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return detail::verifyKnobUse(getOperation(), getKnobAttr(), symbolTable);
}

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
