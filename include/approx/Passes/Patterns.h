//===- Patterns.h - lowering patterns of each approx op family --*- C++ -*-===//
//
// Each op family keeps its lowering patterns in its own folder under passes/;
// convert-approx-to-nvvm collects them. A frontend with its own conversion
// pass can add them to its pattern set the same way.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PASSES_PATTERNS_H
#define APPROX_PASSES_PATTERNS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::approx {

/// Core family (passes/core): approx.knob / approx.resource_knob ->
/// `.visible .global` variables, approx.knob_value / approx.resource_handle ->
/// loads of them, approx.variant_knob -> nothing (the runtime dispatches),
/// approx.warp_slot -> special registers.
void populateCoreToNVVMPatterns(RewritePatternSet &patterns);

/// SFU family (passes/sfu): pinned function ops -> their SFU or precise form
/// for target sm_`sm` (0: the newest); with `preciseSqrt`, plain math.sqrt ->
/// sqrt.rn as well (sqrt.approx under fastmath<afn>).
void populateSfuToNVVMPatterns(RewritePatternSet &patterns, unsigned sm,
                               bool preciseSqrt);

/// Correct rounding (passes/correct): function ops pinned to form(correct)
/// -> an f64 evaluation, a rounding test and the hard-case table. Run
/// declareCorrectTables on the module first: it adds the tables the
/// module's ops need (an error if a symbol of that name is taken).
void populateCorrectToNVVMPatterns(RewritePatternSet &patterns);
LogicalResult declareCorrectTables(gpu::GPUModuleOp module);

} // namespace mlir::approx

#endif // APPROX_PASSES_PATTERNS_H
