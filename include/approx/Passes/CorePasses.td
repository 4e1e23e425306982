//===- CorePasses.td - passes over the core ops (knobs) -----*- tablegen -*-===//
//
// Included by Passes.td (one generated Passes.h.inc for the whole project).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_COREPASSES_TD
#define APPROX_COREPASSES_TD

include "mlir/Pass/PassBase.td"

def ApproxKnobsToParams : Pass<"approx-knobs-to-params", "::mlir::ModuleOp"> {
  let summary = "Pass knob values to kernels as launch parameters (the per-launch knob path)";
  let description = [{
    A knob read from a module global has one value per loaded module, so two
    streams launching kernels of that module with different values race.
    This pass gives every kernel that reads a knob (`approx.knob_value`,
    `approx.resource_handle`) one trailing parameter per knob it reads,
    marked with the argument attribute `approx.knob = @name`, replaces the
    reads with that parameter, and marks the knob `param_path`. The manifest
    lists the parameters (`field: "knob"`), and the runtime fills them per
    launch. Knob reads outside kernels (a helper left uninlined) are an
    error: inline first. So is a kernel that host code in the same module
    launches with `gpu.launch_func`, whose operands would no longer match.

    Before:
    ```mlir
    gpu.func @k(%x: memref<?xf32>) kernel {
      %l = approx.knob_value @lambda : i32
    ```
    After:
    ```mlir
    gpu.func @k(%x: memref<?xf32>, %l: i32 {approx.knob = @lambda}) kernel {
    ```
  }];
  let dependentDialects = ["::mlir::approx::ApproxDialect"];
}

#endif // APPROX_COREPASSES_TD
