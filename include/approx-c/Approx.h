/*===- approx-c/Approx.h - C API of the approx dialect ------------*- C -*-===*\
|*                                                                            *|
|* The C handle of the approx dialect, in the style of upstream dialects      *|
|* (mlirGetDialectHandle__approx__), plus registration of what approx-to-ptx *|
|* needs and of the approx passes and pipeline.                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef APPROX_C_APPROX_H
#define APPROX_C_APPROX_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Approx, approx);

/// Adds the approx dialect and everything the approx-to-ptx pipeline runs
/// through (GPU, NVVM, LLVM dialects, translations, the NVVM target).
MLIR_CAPI_EXPORTED void
mlirApproxRegisterCompilerDependencies(MlirDialectRegistry registry);

/// Registers the approx passes and the approx-to-ptx pipeline so that
/// mlirParsePassPipeline accepts them.
MLIR_CAPI_EXPORTED void mlirApproxRegisterPassesAndPipelines(void);

#ifdef __cplusplus
}
#endif

#endif /* APPROX_C_APPROX_H */
