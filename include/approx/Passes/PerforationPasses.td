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
    With `vector-loads` (the default), a tile load whose interior width is
    a multiple of 16 bytes also gets a fetch that reads each loaded row's
    interior as aligned 16-byte vectors (`vector.load`, alignment 16) and
    its halo columns one by one; each block takes it where a run-time test,
    uniform over the block, finds the image, its pitch, its width and the
    tile's first interior column 16-byte aligned, and the scalar fetch
    otherwise (docs/perforation.md, "16-byte vector fetch").
  }];
  let options = [
    Option<"vectorLoads", "vector-loads", "bool", /*default=*/"true",
           "Also emit a 16-byte vector fetch for tile loads, taken where "
           "the image is aligned">
  ];
  let dependentDialects = ["::mlir::approx::ApproxDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def ApproxPerforationRaise : Pass<"approx-perforation-raise",
                                  "::mlir::gpu::GPUModuleOp"> {
  let summary = "Rewrite the stencil window loads of plain kernels into perforated tile loads";
  let description = [{
    The transparent pass: perforates an unmodified kernel. In each kernel
    with `known_block_size` (or any kernel, given `block-shapes`) it finds,
    for every 2-D float array argument that is only read, the window loads
    `memref.load %A[clamp(y + dy), clamp(x + dx)]` at constant offsets
    around the thread's global coordinate (y = block_id y * block_dim y +
    thread_id y, x likewise; clamp = minsi/maxsi to [0, n-1]; an index may
    also be unclamped), or their zero-border form
    `scf.if (0 <= yy < H && 0 <= xx < W) { load } else { 0.0 }`. For each
    such array it adds a workgroup buffer of (BY + 2hy) x (BX + 2hx)
    elements (hy = max |dy|, hx = max |dx|; BX x BY the block; where BX is
    a multiple of 16 bytes, a view of a buffer whose rows are padded so
    that each row's interior starts 16-byte aligned, for the lowering's
    16-byte stores: 3 + 34 -> 40 f32 a row for BX = 32, hx = 1), an
    `approx.perforation.tile_load` at the start of the body (block level,
    outside every branch: it holds barriers), and replaces each window load
    by a read of the buffer at (ty + hy + dy, tx + hx + dx). Every array
    gets `border(clamp)`, or `border(zero)` where its loads take the zero
    form. All arrays of the module share one knob, `approx.knob @<knob>
    range(0, n-1)`: knob value i selects `schemes[i]`. The arrays of one
    kernel are assumed to have the same sizes (the user guarantees it): the
    bounds used for clamping may come from any of them.

    CUDA front-door kernels (approx-cc) take `!llvm.ptr` arrays and integer
    sizes: there a window load is `llvm.load` of `p[row * W + col]` (GEPs
    over the element type, LLVM's i32 arithmetic, NVVM's special registers
    for the thread's coordinate, `llvm.intr.smin/smax` or arith min/max
    clamps), W an integer argument, the height the argument the row clamp,
    guard or the kernel's bounds check compares with. The tile load then
    reads a memref view of the pointer built from those arguments. Windows
    written as loops must be unrolled (`#pragma unroll`): the offsets must
    be constants in the IR.

    The replaced loads read the values they read before wherever those
    reads were in bounds, so with the scheme `accurate` the kernel computes
    what it computed before, bit for bit. A kernel the analysis cannot
    prove is left untouched with a remark naming the cause (non-constant
    offset, a load that is not a window load, indices that are not the
    thread's global coordinates, no known_block_size, a tile_load already
    there, buffers over 48 KiB, a halo larger than the tile, mixed border
    forms, an input that is also written, a front-door kernel whose image
    height is not known, block shapes beyond `__launch_bounds__`).

    With two or more `block-shapes`, each kernel @k is replaced by clones
    @k__XxY, one per shape (known_block_size rewritten, own buffers), and an
    `approx.variant_knob @<knob>_block` dispatches the logical name k among
    them; kernels must then use gpu.block_dim, not the block size as a
    constant. A shape XxYrK makes each of the X x Y threads compute K rows
    of outputs: one tile load of X x (Y*K) outputs, then the per-output work
    in a loop of K iterations (the launch grid is ceil(H / (Y*K)) blocks
    high; a kernel holding a barrier is refused). docs/perforation.md ("The
    transparent pass") has the details.

    Before:
    ```mlir
    gpu.func @blur(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      ...
      %yc = arith.minsi (arith.maxsi %yy, %c0), %hm1   // yy = y - 1
      %v = memref.load %in[%yc, %xc] : memref<?x?xf32>
    ```
    After:
    ```mlir
    approx.knob @perforation range(0, 4) default(0)
    gpu.func @blur(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
        workgroup(%t: memref<10x34xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %r = arith.muli %block_id_y, %c8 : index
      %c = arith.muli %block_id_x, %c32 : index
      approx.perforation.tile_load %in[%r, %c] into %t halo(1, 1)
          border(clamp) schemes([...]) knob(@perforation) : ...
      ...
      %v = memref.load %t[%ty, %j] : memref<10x34xf32, #gpu.address_space<workgroup>>
    ```
  }];
  let options = [
    ListOption<"schemes", "schemes", "std::string",
      "Schemes in knob order, as short names (accurate, rowsN:nn|linear, "
      "colsN:nn|linear, stencil:nn|linear); empty: accurate,rows1:nn,"
      "rows1:linear,rows2:nn,stencil:nn">,
    Option<"knob", "knob", "std::string", /*default=*/"\"perforation\"",
      "The scheme knob (approx.knob range(0, n-1)); @<knob>_block names the "
      "block-shape variant knob">,
    ListOption<"blockShapes", "block-shapes", "std::string",
      "Block shapes XxY (threads) or XxYrK (K output rows per thread) to "
      "compile each kernel for; empty: its known_block_size; two or more: "
      "one clone per shape behind a variant knob">
  ];
  let dependentDialects = ["::mlir::approx::ApproxDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def ApproxPerforationOutput : Pass<"approx-perforation-output",
                                   "::mlir::gpu::GPUModuleOp"> {
  let summary = "Paraprox-style output perforation of plain and tiled kernels";
  let description = [{
    The transparent form of output perforation, the state-of-the-art
    comparison of kernel perforation (docs/perforation.md, "Output
    perforation"). In each kernel that stores one float per thread to a 2-D
    argument at the thread's global coordinate (y, x) -- gpu.global_id, or
    block_id * block_dim + thread_id, block_dim possibly the constant of
    known_block_size -- or, in a kernel approx-perforation-raise tiled, at
    a row of the thread's rows loop, the store becomes an
    `approx.perforation.output`. Its region computes the stored value; only
    the thread responsible for a group of elements runs it (at its own
    coordinate, (r, c) = (y, x)) and stores the value to the group. The ops
    the value needs that depend on (y, x) are cloned into the region with
    (y, x) replaced by (r, c); in a tiled kernel, so are the value's ops in
    the store's block (the tile's reads and the arithmetic on them), the
    work the other threads skip. The knob `knob` (created with range
    [0, n-1]) picks the scheme, `schemes[i]` for value i.

    A kernel is left unchanged, with a remark naming the cause, when it has
    no such store or more than one, when something else writes the output,
    or when the value reads the output or is computed by an op with side
    effects other than reads (a barrier among them). Bad options fail the
    pass.

    Before:
    ```mlir
    %v = memref.load %in[%yc, %xc] : memref<?x?xf32>   // yc, xc from y, x
    memref.store %v, %out[%y, %x] : memref<?x?xf32>
    ```
    After:
    ```mlir
    approx.perforation.output %out[%y, %x]
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows, skip = 1>]) knob(@perforation_output)
        : memref<?x?xf32> {
    ^bb0(%r: index, %c: index):
      ... yc, xc recomputed from r, c ...
      %v = memref.load %in[%yc2, %xc2] : memref<?x?xf32>
      approx.perforation.yield %v : f32
    }
    ```
  }];
  let options = [
    ListOption<"schemes", "schemes", "std::string",
               "Output schemes in knob order: accurate, rowsN, colsN, "
               "centerN (default: accurate,rows1,cols1,center1)">,
    Option<"knob", "knob", "std::string", /*default=*/"\"perforation_output\"",
           "The scheme knob's name">,
  ];
  let dependentDialects = ["::mlir::approx::ApproxDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // APPROX_PERFORATIONPASSES_TD
