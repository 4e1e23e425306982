//===- InitApprox.h - register the approx compiler in a frontend -*- C++ -*-===//
//
// The small public entry point for embedding approx: register the dialect and
// everything the approx-to-ptx pipeline needs, then either run the textual
// pipeline or build it into your own PassManager:
//
//   mlir::DialectRegistry registry;
//   mlir::approx::registerApproxCompilerDependencies(registry);
//   mlir::MLIRContext ctx(registry);
//   mlir::PassManager pm(&ctx);
//   mlir::approx::ApproxToPTXOptions opts;   // chip, output-dir, ...
//   mlir::approx::buildApproxToPTXPipeline(pm, opts);
//   if (failed(pm.run(module)))   // bad options are diagnostics here
//     ...
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_INITAPPROX_H
#define APPROX_INITAPPROX_H

#include "approx/Dialect/ApproxDialect.h"
#include "approx/Passes/Passes.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir::approx {

/// Registers the approx dialect only.
void registerApproxDialect(DialectRegistry &registry);

/// Registers the approx dialect plus the dialects, interfaces, LLVM IR
/// translations and the NVVM target that approx-to-ptx runs through.
void registerApproxCompilerDependencies(DialectRegistry &registry);

/// Registers the approx passes, the upstream passes approx-to-ptx uses, and
/// the approx-to-ptx pipeline, for textual pass pipelines.
void registerApproxPassesAndPipelines();

} // namespace mlir::approx

#endif // APPROX_INITAPPROX_H
