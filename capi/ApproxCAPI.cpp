//===- ApproxCAPI.cpp - C API of the approx dialect -----------------------===//
//
// Implements approx-c/Approx.h on top of InitApprox.h.
//
//===----------------------------------------------------------------------===//

#include "approx-c/Approx.h"
#include "approx/InitApprox.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Approx, approx,
                                      mlir::approx::ApproxDialect)

void mlirApproxRegisterCompilerDependencies(MlirDialectRegistry registry) {
  mlir::approx::registerApproxCompilerDependencies(*unwrap(registry));
}

void mlirApproxRegisterPassesAndPipelines(void) {
  mlir::approx::registerApproxPassesAndPipelines();
}
