//===- Passes.td - every approx pass --------------------------*- tablegen -*-===//
//
// The passes that take a GPU kernel to approximate PTX + a manifest, one file
// per area: CommonPasses.td (manifest, export, NVVM conversion, contraction,
// target check), CorePasses.td (knobs), CudaPasses.td (raising imported CUDA
// device code) and one per technique (SfuPasses.td, LnsPasses.td,
// PerforationPasses.td, PrecisionPasses.td).
// `approx-to-ptx` (passes/common/Pipeline.cpp) composes them with upstream
// MLIR passes.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PASSES_TD
#define APPROX_PASSES_TD

include "approx/Passes/CommonPasses.td"
include "approx/Passes/CorePasses.td"
include "approx/Passes/CudaPasses.td"
include "approx/Passes/SfuPasses.td"
include "approx/Passes/LnsPasses.td"
include "approx/Passes/PerforationPasses.td"
include "approx/Passes/PrecisionPasses.td"

#endif // APPROX_PASSES_TD
