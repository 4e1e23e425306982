//===- consumer.cpp - an out-of-tree frontend embedding approx ------------===//
//
// Registers approx, parses a GPU module, builds approx-to-ptx into its own
// PassManager and writes NAME.ptx + NAME.manifest.json to the given folder.
// Usage: consumer-cxx INPUT.mlir OUTPUT-DIR
//
//===----------------------------------------------------------------------===//

#include "approx/InitApprox.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: consumer-cxx INPUT.mlir OUTPUT-DIR\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  mlir::approx::registerApproxCompilerDependencies(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  mlir::approx::ApproxToPTXOptions options;
  options.outputDir = argv[2];
  options.name = "consumer";
  options.slot = "virtual";
  std::string libdevice, error;
  if (mlir::failed(mlir::approx::validateApproxToPTXOptions(options, libdevice,
                                                            error))) {
    llvm::errs() << "consumer: " << error << "\n";
    return 1;
  }
  mlir::PassManager pm(&context);
  mlir::approx::buildApproxToPTXPipeline(pm, options, libdevice);
  if (mlir::failed(pm.run(*module)))
    return 1;
  llvm::outs() << "consumer: wrote " << argv[2] << "/consumer.ptx\n";
  return 0;
}
