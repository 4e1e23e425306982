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
  // Options are checked by the passes that use them: a bad one is a
  // diagnostic from pm.run, and nothing is written.
  mlir::PassManager pm(&context);
  mlir::approx::buildApproxToPTXPipeline(pm, options);
  if (mlir::failed(pm.run(*module)))
    return 1;
  llvm::outs() << "consumer: wrote " << argv[2] << "/consumer.ptx\n";
  return 0;
}
