//===- ApproxDialect.h - the approx dialect ---------------------*- C++ -*-===//
//
// Declares the approx dialect, its enums and attributes, and the ops of every
// family (core: knobs, slots, texture fetches; sfu: function ops with the
// ApproxFunctionOp interface; lns: the LNS type and its arithmetic;
// perforation: tile loads and output perforation; precision: storage
// types), generated from ApproxBase.td, CoreOps.td, SfuOps.td, LnsOps.td,
// PerforationOps.td and PrecisionOps.td. Knob values of every family
// implement KnobValueAttrInterface (their manifest id and payload).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_DIALECT_APPROXDIALECT_H
#define APPROX_DIALECT_APPROXDIALECT_H

#include "approx/Dialect/FunctionTable.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "approx/Dialect/ApproxEnums.h.inc"

#include "approx/Dialect/ApproxAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "approx/Dialect/ApproxAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "approx/Dialect/ApproxTypes.h.inc"

namespace mlir::approx::detail {
/// Checks operand types and per-op options of any approx function op against
/// the function table.
LogicalResult verifyFunctionOp(Operation *op);
/// Checks that `knob` names a knob declaration of kind `OpTy` in the nearest
/// symbol table of `op` (its gpu.module); `what` names the kind in errors.
LogicalResult verifyKnobUse(Operation *op, FlatSymbolRefAttr knob,
                            SymbolTableCollection &symbolTable,
                            StringRef expectedOp);
} // namespace mlir::approx::detail

#include "approx/Dialect/ApproxDialect.h.inc"
#include "approx/Dialect/SfuInterfaces.h.inc"

#define GET_OP_CLASSES
#include "approx/Dialect/CoreOps.h.inc"
#define GET_OP_CLASSES
#include "approx/Dialect/SfuOps.h.inc"
#define GET_OP_CLASSES
#include "approx/Dialect/LnsOps.h.inc"
#define GET_OP_CLASSES
#include "approx/Dialect/PerforationOps.h.inc"

namespace mlir::approx {
/// The name of the gpu.module attribute holding the sites (an array of
/// #approx.site), and the attribute name of a kernel argument that carries a
/// knob's value (`approx-knobs-to-params`).
constexpr llvm::StringLiteral kSitesAttrName = "approx.sites";
/// On a kernel raised from LLVM (approx-raise-kernel-cfg): "structured", or
/// "blocks: <why>" where its CFG stayed unstructured.
constexpr llvm::StringLiteral kControlFlowAttrName = "approx.cfg";
/// The builtin.module attribute approx-record-manifest leaves for
/// approx-export: one dictionary per gpu.module.
constexpr llvm::StringLiteral kManifestAttrName = "approx.manifest";
/// On an LNS op that approx-lns-version pinned to one side of its split:
/// {knob = @λ, side = "texture2" | "sfu", versioning = "region" | "per-op"}.
constexpr llvm::StringLiteral kLnsSplitAttrName = "approx.lns_split";
/// On an LNS op of a kernel variant approx-lns-impl-variants made:
/// {knob = @variant_knob, value = i}, the knob value that selects it.
constexpr llvm::StringLiteral kLnsVariantAttrName = "approx.lns_variant";
constexpr llvm::StringLiteral kKnobArgAttrName = "approx.knob";
/// On a kernel argument: the name of the memory object it receives, shared
/// by every argument (of any kernel) that receives the same buffer; one
/// storage knob types them all (approx-precision-variants space=).
constexpr llvm::StringLiteral kObjectArgAttrName = "approx.object";

/// How the SFU serves `op` for target `sm` (0: any): Native, ViaF32 or None,
/// with the reason when not plainly native.
SfuSupport sfuSupport(ApproxFunctionOp op, unsigned sm = 0,
                      std::string *reason = nullptr);
/// True when `op` has some SFU form on target `sm` (0: any).
inline bool hasSfuForm(ApproxFunctionOp op, unsigned sm = 0) {
  return sfuSupport(op, sm) != SfuSupport::None;
}
} // namespace mlir::approx

#endif // APPROX_DIALECT_APPROXDIALECT_H
