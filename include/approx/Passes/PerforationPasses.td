//===- PerforationPasses.td - kernel perforation's passes -----*- tablegen -*-===//
//
// Included by Passes.td (one generated Passes.h.inc for the whole project).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PERFORATIONPASSES_TD
#define APPROX_PERFORATIONPASSES_TD

include "mlir/Pass/PassBase.td"

def ApproxPerforationLower : Pass<"approx-perforation-lower",
                                  "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower perforated tile loads and output perforation to loops over the block's threads";
  let description = [{
    Lowers the perforation ops of the gpu.module (docs/perforation.md has
    their exact semantics, which this pass and the CPU reference in
    runtime/perforation share):
    - `approx.perforation.tile_load` / `load_1d`: the scheme index is read
      once from the knob; the block's threads, numbered linearly, fetch the
      scheme's loaded elements with consecutive threads on consecutive
      columns (coalesced rows; skipped rows and 1-D sectors are never
      fetched); a `gpu.barrier`; the skipped elements rebuilt in shared
      memory (`nn` copies, `linear` one fma); a second barrier. Both
      barriers are at the op's level, outside every branch: the scheme
      switch is uniform over the grid, and only the work between barriers
      depends on it.
    - `approx.perforation.output`: the thread responsible for a group of
      outputs runs the region at its coordinate and stores the value to the
      whole group; the others skip it.
    Each op is recorded as a site of technique `perforation` whose data
    lists the scheme names in knob order.

    Before:
    ```mlir
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1)
        border(clamp) schemes([#approx.perforation<accurate>,
                               #approx.perforation<rows, skip = 1>])
        knob(@scheme) : memref<?x?xf32> to memref<18x34xf32, 3>
    ```
    After (sketch):
    ```mlir
    %s = approx.knob_value @scheme : i32
    scf.index_switch %s
    case 1 { scf.for %e = %tid to %rowsLoaded step %threads { load, store } }
    default { scf.for %e = %tid to %c612 step %threads { load, store } }
    gpu.barrier
    scf.index_switch %s
    case 1 { scf.for ... { copy the nearest loaded row } }
    default { }
    gpu.barrier
    ```
  }];
  let dependentDialects = ["::mlir::approx::ApproxDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // APPROX_PERFORATIONPASSES_TD
