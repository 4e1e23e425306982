//===- Patterns.h - lowering patterns of each approx op family --*- C++ -*-===//
//
// Each op family keeps its lowering patterns in its own folder under passes/;
// convert-approx-to-nvvm collects them. A frontend with its own conversion
// pass can add them to its pattern set the same way.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PASSES_PATTERNS_H
#define APPROX_PASSES_PATTERNS_H

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

} // namespace mlir::approx

#endif // APPROX_PASSES_PATTERNS_H
