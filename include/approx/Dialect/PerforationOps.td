//===- PerforationOps.td - kernel perforation ops -------------*- tablegen -*-===//
//
// The perforation op family: "Local Memory-Aware Kernel Perforation"
// (CGO'18). A work-group loads its input tile plus halo into shared memory,
// skips part of the global loads as a scheme says, and rebuilds the skipped
// elements in shared memory; a knob picks the scheme at run time. Output
// perforation (Paraprox) is here too, as the comparison. docs/perforation.md
// states the exact semantics that the lowering and the CPU reference share.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PERFORATIONOPS_TD
#define APPROX_PERFORATIONOPS_TD

include "approx/Dialect/ApproxBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums and the scheme attribute.
//===----------------------------------------------------------------------===//

def Approx_PerforationKind : I32EnumAttr<"PerforationKind",
    "which part of the data a perforation scheme skips", [
    // Nothing skipped: the same tiling, the fair baseline.
    I32EnumAttrCase<"accurate", 0>,
    // n of every n+1 rows (image-aligned); in 1-D, 32-byte sectors.
    I32EnumAttrCase<"rows", 1>,
    // n of every n+1 columns (image-aligned).
    I32EnumAttrCase<"cols", 2>,
    // The halo, rebuilt from the tile's border.
    I32EnumAttrCase<"stencil", 3>,
    // Output perforation only: rows and columns at once (Paraprox).
    I32EnumAttrCase<"center", 4>
  ]> {
  let cppNamespace = "::mlir::approx";
}

def Approx_Reconstruction : I32EnumAttr<"Reconstruction",
    "how skipped elements are rebuilt", [
    // The nearest loaded element (a tie takes the one above / left).
    I32EnumAttrCase<"nn", 0>,
    // Linear interpolation between the loaded neighbours on both sides;
    // nearest where a side is missing.
    I32EnumAttrCase<"linear", 1>
  ]> {
  let cppNamespace = "::mlir::approx";
}

def Approx_PerforationBorder : I32EnumAttr<"PerforationBorder",
    "what a tile load reads outside the image", [
    // The nearest image element (repeat the edge).
    I32EnumAttrCase<"clamp", 0>,
    // Zero.
    I32EnumAttrCase<"zero", 1>
  ]> {
  let cppNamespace = "::mlir::approx";
}

def Approx_PerforationSchemeAttr
    : Approx_Attr<"PerforationScheme", "perforation",
                  [DeclareAttrInterfaceMethods<Approx_KnobValueAttrInterface>]> {
  let summary = "one perforation scheme: what is skipped and how it is rebuilt";
  let description = [{
    `kind` says what is skipped, `skip` (n >= 1, for `rows`, `cols` and
    `center`) how much: n of every n+1 rows or columns. `recon` rebuilds the
    skipped elements (input perforation; output perforation always copies).
    docs/perforation.md gives the exact loaded sets and reconstruction.

    ```mlir
    #approx.perforation<accurate>
    #approx.perforation<rows, skip = 1>
    #approx.perforation<rows, skip = 2, recon = linear>
    #approx.perforation<stencil>
    #approx.perforation<center, skip = 1>
    ```
  }];
  let parameters = (ins
    EnumParameter<Approx_PerforationKind>:$kind,
    DefaultValuedParameter<"int64_t", "1",
      "n: skip n of every n+1 rows or columns">:$skip,
    DefaultValuedParameter<"::mlir::approx::Reconstruction",
      "::mlir::approx::Reconstruction::nn", "reconstruction">:$recon
  );
  let assemblyFormat = [{
    `<` $kind (`,` struct($skip, $recon)^)? `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The canonical short name used in manifests and by the runtime:
    /// "accurate", "rows1:nn", "stencil:linear", "center2", ...
    std::string getShortName() const;
  }];
}

def Approx_BlockShapeAttr
    : Approx_Attr<"BlockShape", "block_shape",
                  [DeclareAttrInterfaceMethods<Approx_KnobValueAttrInterface>]> {
  let summary = "the thread-block shape a kernel variant is compiled for";
  let description = [{
    `x` by `y` threads (at most 1024), each computing `rows` output rows
    (1 to 64). The values of the block-shape variant knob that
    `approx-perforation-raise` creates (manifest payload `block_shape`, id
    `32x8` or `32x8r4`).

    ```mlir
    #approx.block_shape<x = 32, y = 8>
    #approx.block_shape<x = 16, y = 16, rows = 4>
    ```
  }];
  let parameters = (ins
    "int64_t":$x,
    "int64_t":$y,
    DefaultValuedParameter<"int64_t", "1", "output rows per thread">:$rows
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Approx_PerforationSchemeArrayAttr
    : TypedArrayAttrBase<Approx_PerforationSchemeAttr,
                         "array of #approx.perforation schemes">;

//===----------------------------------------------------------------------===//
// Ops.
//===----------------------------------------------------------------------===//

class Approx_PerforationOp<string mnemonic, list<Trait> traits = []>
    : Approx_Op<"perforation." # mnemonic, traits>;

def Approx_TileLoadOp : Approx_PerforationOp<"tile_load", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a work-group's 2-D input tile plus halo, perforated, into shared memory";
  let description = [{
    A collective op: every thread of the block must reach it (its lowering
    holds barriers), with the same operands. It fills `tile`, a static
    BY x BX workgroup buffer, with the image window whose interior starts at
    (`row`, `col`) of `source`, `halo` rows and columns wider on each side
    (BY = TY + 2 hy, BX = TX + 2 hx), as the scheme selected at run time by
    `knob` (an `approx.knob` whose value indexes `schemes`) loads and
    reconstructs it; with one scheme the knob may be omitted. `border` says
    what is read outside the image. After the op every thread sees the
    whole tile. docs/perforation.md has the exact semantics.

    `tile` is row-major with static strides and offset: a buffer of its own,
    or a view of a padded one whose rows lie further apart than BX (the
    lowering stores 16 bytes at a time where every row's interior starts
    16-byte aligned; approx-perforation-raise pads its buffers so).

    ```mlir
    approx.perforation.tile_load %img[%r, %c] into %tile halo(1, 1)
        border(clamp) schemes([#approx.perforation<accurate>,
                               #approx.perforation<rows, skip = 1>])
        knob(@scheme)
        : memref<?x?xf32> to memref<18x34xf32, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins
    Arg<MemRefRankOf<[AnyFloat], [2]>, "the image", [MemRead]>:$source,
    Index:$row, Index:$col,
    Arg<MemRefRankOf<[AnyFloat], [2]>, "the shared tile buffer", [MemWrite]>:$tile,
    I64Attr:$halo_rows, I64Attr:$halo_cols,
    Approx_PerforationBorder:$border,
    Approx_PerforationSchemeArrayAttr:$schemes,
    OptionalAttr<FlatSymbolRefAttr>:$knob);
  let assemblyFormat = [{
    $source `[` $row `,` $col `]` `into` $tile
    `halo` `(` $halo_rows `,` $halo_cols `)` `border` `(` $border `)`
    `schemes` `(` $schemes `)` (`knob` `(` $knob^ `)`)? attr-dict
    `:` type($source) `to` type($tile)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tile's interior rows and columns (the buffer less the halo).
    int64_t getTileRows();
    int64_t getTileCols();
  }];
}

def Approx_Load1DOp : Approx_PerforationOp<"load_1d", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a work-group's 1-D input tile plus halo, perforated, into shared memory";
  let description = [{
    The 1-D `tile_load`: `tile` is a static B-element workgroup buffer for
    the window of `source` whose interior starts at `start`, `halo`
    elements wider on each side (B = T + 2h). A 1-D "row" is a 32-byte
    sector, so `rows` skips whole sectors; `cols` is refused.

    ```mlir
    approx.perforation.load_1d %x[%s] into %buf halo(2) border(clamp)
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows, skip = 1, recon = linear>])
        knob(@scheme) : memref<?xf32> to memref<260xf32, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins
    Arg<MemRefRankOf<[AnyFloat], [1]>, "the array", [MemRead]>:$source,
    Index:$start,
    Arg<MemRefRankOf<[AnyFloat], [1]>, "the shared tile buffer", [MemWrite]>:$tile,
    I64Attr:$halo,
    Approx_PerforationBorder:$border,
    Approx_PerforationSchemeArrayAttr:$schemes,
    OptionalAttr<FlatSymbolRefAttr>:$knob);
  let assemblyFormat = [{
    $source `[` $start `]` `into` $tile `halo` `(` $halo `)`
    `border` `(` $border `)` `schemes` `(` $schemes `)`
    (`knob` `(` $knob^ `)`)? attr-dict `:` type($source) `to` type($tile)
  }];
  let hasVerifier = 1;
}

def Approx_OutputPerforationOp : Approx_PerforationOp<"output", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    SingleBlock,
    RecursiveMemoryEffects]> {
  let summary = "Paraprox-style output perforation of one output element";
  let description = [{
    Stores to `out[y][x]` the value its region computes for the output
    coordinate the scheme makes responsible for (`y`, `x`): the region's
    block arguments are that coordinate (r, c), its `approx.perforation.yield`
    the value. `accurate` computes every element; `rows`, `cols` and
    `center` compute one row, column or both of every group of n+1 and copy
    it to the others (docs/perforation.md). Only the thread whose (`y`, `x`)
    is its group's responsible coordinate runs the region (so (r, c) =
    (`y`, `x`) there, and the region may read thread ids), and it stores the
    value to the whole group. The region must not hold a barrier: threads
    whose element is copied skip it.

    ```mlir
    approx.perforation.output %out[%y, %x]
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows, skip = 1>]) knob(@scheme)
        : memref<?x?xf32> {
    ^bb0(%r: index, %c: index):
      %v = memref.load %in[%r, %c] : memref<?x?xf32>
      approx.perforation.yield %v : f32
    }
    ```
  }];
  let arguments = (ins
    Arg<MemRefRankOf<[AnyFloat], [2]>, "the output", [MemWrite]>:$out,
    Index:$y, Index:$x,
    Approx_PerforationSchemeArrayAttr:$schemes,
    OptionalAttr<FlatSymbolRefAttr>:$knob);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $out `[` $y `,` $x `]` `schemes` `(` $schemes `)`
    (`knob` `(` $knob^ `)`)? attr-dict `:` type($out) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Approx_PerforationYieldOp : Approx_PerforationOp<"yield", [
    Pure, Terminator, ReturnLike,
    HasParent<"::mlir::approx::OutputPerforationOp">]> {
  let summary = "the value an output perforation region computes";
  let arguments = (ins AnyFloat:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // APPROX_PERFORATIONOPS_TD
