//===- ApproxDialect.h - the approx dialect ---------------------*- C++ -*-===//
//
// Declares the approx dialect, its enums, and the ops of every family (core:
// knobs and slots; sfu: function ops with the ApproxFunctionOp interface),
// generated from ApproxBase.td, CoreOps.td and SfuOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_DIALECT_APPROXDIALECT_H
#define APPROX_DIALECT_APPROXDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "approx/Dialect/ApproxEnums.h.inc"

namespace mlir::approx::detail {
/// Checks operand types and per-op options of any approx function op.
LogicalResult verifyFunctionOp(Operation *op);
/// Checks that `knob` names an approx.knob in the nearest symbol table of
/// `op` (its gpu.module).
LogicalResult verifyKnobUse(Operation *op, FlatSymbolRefAttr knob,
                            SymbolTableCollection &symbolTable);
} // namespace mlir::approx::detail

#include "approx/Dialect/ApproxDialect.h.inc"
#include "approx/Dialect/SfuInterfaces.h.inc"

#define GET_OP_CLASSES
#include "approx/Dialect/CoreOps.h.inc"
#define GET_OP_CLASSES
#include "approx/Dialect/SfuOps.h.inc"

namespace mlir::approx {
/// True when `op` has an SFU form for its operand type and options: every f32
/// op, f64 div/rcp/sqrt/rsqrt, and f64 sin/cos/exp/log/pow with `demote`.
bool hasSfuForm(ApproxFunctionOp op);
} // namespace mlir::approx

#endif // APPROX_DIALECT_APPROXDIALECT_H
