//===- approx-opt.cpp - the approx compiler driver ------------------------===//
//
// mlir-opt with the approx dialect, passes and approx-to-ptx pipeline, and
// the upstream pieces of the GPU -> NVVM -> PTX path. Typical use:
//
//   approx-opt kernel.mlir --approx-to-ptx="chip=sm_90 output-dir=out"
//
// Errors are one line each: MLIR's habit of printing the whole failing
// operation under every diagnostic (which for a module-level error is the
// whole module, megabytes of it) is off unless `--approx-debug` (or an
// explicit `--mlir-print-op-on-diagnostic`) asks for it.
//
//===----------------------------------------------------------------------===//

#include "approx/InitApprox.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

int main(int argc, char **argv) {
  std::vector<char *> args;
  bool debug = false, explicitPrintOp = false;
  static char quiet[] = "--mlir-print-op-on-diagnostic=false";
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--approx-debug" || arg == "-approx-debug") {
      debug = true;
      continue;
    }
    explicitPrintOp |= arg.contains("mlir-print-op-on-diagnostic");
    args.push_back(argv[i]);
  }
  if (!debug && !explicitPrintOp)
    args.insert(args.begin() + 1, quiet);
  int newArgc = static_cast<int>(args.size());
  args.push_back(nullptr);

  mlir::DialectRegistry registry;
  mlir::approx::registerApproxCompilerDependencies(registry);
  mlir::approx::registerApproxPassesAndPipelines();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      newArgc, args.data(),
      "approx compiler: tunable approximation of GPU kernels\n"
      "  --approx-debug   keep MLIR's dump of the failing operation under "
      "each diagnostic\n",
      registry));
}
