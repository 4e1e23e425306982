//===- approx-opt.cpp - the approx compiler driver ------------------------===//
//
// mlir-opt with the approx dialect, passes and approx-to-ptx pipeline, and
// the upstream pieces of the GPU -> NVVM -> PTX path. Typical use:
//
//   approx-opt kernel.mlir --approx-to-ptx="chip=sm_90 output-dir=out"
//
//===----------------------------------------------------------------------===//

#include "approx/InitApprox.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::approx::registerApproxCompilerDependencies(registry);
  mlir::approx::registerApproxPassesAndPipelines();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "approx compiler: SFU warp-split approximation\n",
      registry));
}
