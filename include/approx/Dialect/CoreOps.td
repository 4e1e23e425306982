//===- CoreOps.td - ops every approx technique shares -------*- tablegen -*-===//
//
// The core op family: the three kinds of knob (a device global, a choice of
// kernel variant, a host-created texture), reads of knobs, and the warp-slot
// id the SFU warp split compares against a knob, and texture fetches.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_COREOPS_TD
#define APPROX_COREOPS_TD

include "approx/Dialect/ApproxBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Approx_KnobDeclOp<string mnemonic, list<Trait> traits = []>
    : Approx_Op<mnemonic, traits # [Symbol,
        HasParent<"::mlir::gpu::GPUModuleOp">]>;

//===----------------------------------------------------------------------===//
// Knob declarations.
//===----------------------------------------------------------------------===//

def Approx_KnobOp : Approx_KnobDeclOp<"knob"> {
  let summary = "a tunable integer the runtime writes before a launch";
  let description = [{
    Declares a tunable i32 with an inclusive range and a default (manifest
    kind `global`). It lowers to a `.visible .global .u32` variable of the
    same name in the PTX module, which a runtime writes with
    `cuModuleGetGlobal`; kernel signatures do not change. With `param_path`
    (set by `approx-knobs-to-params`) the kernels that read it take its value
    as a trailing launch parameter instead, so that launches on different
    streams can use different values.

    `warp_slot` is set by `approx-warp-split` on the knobs it compares a
    warp-slot id against (λ: warps whose slot id is below it take the SFU
    form); the runtime bounds λ by it.

    Without `values` the knob is ordinal (manifest domain `ordinal`: more
    approximation as it grows, like λ). With `values`, one attribute per
    value of the range implementing KnobValueAttrInterface, it is
    categorical: value `min + i` means `values[i]` (a perforation scheme,
    say), and the manifest carries each value's id and typed payload.

    ```mlir
    approx.knob @lambda range(0, 64) default(0)
    approx.knob @lambda range(0, 64) default(0) warp_slot(hw) param_path
    approx.knob @perforation range(0, 1) default(0)
        values([#approx.perforation<accurate>, #approx.perforation<rows>])
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$min, I64Attr:$max,
                       I64Attr:$default_value,
                       OptionalAttr<Approx_SlotKind>:$warp_slot,
                       UnitAttr:$param_path,
                       OptionalAttr<ArrayAttr>:$values);
  let assemblyFormat = [{
    $sym_name `range` `(` $min `,` $max `)` `default` `(` $default_value `)`
    (`warp_slot` `(` $warp_slot^ `)`)? (`param_path` $param_path^)?
    (`values` `(` $values^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Approx_VariantKnobOp : Approx_KnobDeclOp<"variant_knob", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a choice among kernel variants compiled into the module";
  let description = [{
    Declares a knob whose value picks which kernel runs (manifest kind
    `variant`): launching the logical name `k` launches
    `dispatch[k][value]`. Every list has the same length n, the knob's
    range is [0, n - 1]. Variants are kernels of the same gpu.module; they
    need not share a signature (a precision variant takes f32 buffers where
    the original takes f64). A logical name may be one of its own variants.

    `values`, one attribute per variant implementing
    KnobValueAttrInterface, says what each variant is (a block shape, an
    LNS impl, the storage types of its arguments); the manifest carries each
    value's id and typed payload, so a runtime never reads them from kernel
    names.

    ```mlir
    approx.variant_knob @precision default(0)
        dispatch {saxpy = [@saxpy, @saxpy_f32, @saxpy_f16]}
    approx.variant_knob @blocks default(0)
        dispatch {k = [@k__32x8, @k__16x16]}
        values([#approx.block_shape<x = 32, y = 8>,
                #approx.block_shape<x = 16, y = 16>])
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$default_value,
                       DictionaryAttr:$dispatch,
                       OptionalAttr<ArrayAttr>:$values);
  let assemblyFormat = [{
    $sym_name `default` `(` $default_value `)` `dispatch` $dispatch
    (`values` `(` $values^ `)`)? attr-dict
  }];
  let extraClassDeclaration = [{
    /// The number of variants of every dispatched name (0 if malformed).
    int64_t getNumVariants();
  }];
  let hasVerifier = 1;
}

def Approx_BuildKnobOp : Approx_KnobDeclOp<"build_knob", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a knob whose value is chosen when the module is built";
  let description = [{
    Declares a knob of manifest kind `build`: `values` (each implementing
    KnobValueAttrInterface) are alternatives the compiler chooses among when
    it builds; `value` is the index this build took, and the manifest's
    `configuration` names it. The other values are other builds of the same
    source, made on demand (docs/configurations.md): a search over many
    combinations then builds only those it tries, never their product.

    With `object(@kernel, arg)` the knob is the storage type of a memory
    object (manifest domain `storage`; its values are `#approx.storage`
    attributes): argument `arg` of `@kernel`, and with `also [[@k2, 1],
    ...]` the arguments of other kernels that receive the same buffer (one
    type for all of them). `named "A"` keeps the source's name for the
    object. A frontend names a memory object by giving each kernel argument
    that receives it the argument attribute `approx.object = "A"`
    (docs/configurations.md).

    ```mlir
    approx.build_knob @storage__k__a0 default(0) value(1)
        values([#approx.storage<f64>, #approx.storage<f32>]) object(@k, 0)
    approx.build_knob @precision__A default(0) value(0)
        values([#approx.storage<f64>, #approx.storage<f32>]) object(@k1, 0)
        also [[@k2, 1]] named "A"
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$default_value,
                       I64Attr:$value, ArrayAttr:$values,
                       OptionalAttr<FlatSymbolRefAttr>:$object_kernel,
                       OptionalAttr<I64Attr>:$object_arg,
                       OptionalAttr<ArrayAttr>:$object_also,
                       OptionalAttr<StrAttr>:$object_name);
  let assemblyFormat = [{
    $sym_name `default` `(` $default_value `)` `value` `(` $value `)`
    `values` `(` $values `)`
    (`object` `(` $object_kernel^ `,` $object_arg `)`)?
    (`also` $object_also^)? (`named` $object_name^)? attr-dict
  }];
  let extraClassDeclaration = [{
    /// Every (kernel, argument) the memory object is passed to: the object's
    /// first, then `also`'s; empty for a knob without object. Malformed
    /// `also` entries (the verifier refuses them) are skipped.
    ::llvm::SmallVector<std::pair<::mlir::FlatSymbolRefAttr, int64_t>>
    getObjectUses();
  }];
  let hasVerifier = 1;
}

def Approx_ResourceKnobOp : Approx_KnobDeclOp<"resource_knob"> {
  let summary = "a texture the runtime creates from a table; the knob picks the table";
  let description = [{
    Declares a knob of manifest kind `resource`: the runtime creates a CUDA
    array and texture object from `tables[value]` (filtering, addressing
    and coordinates as stated) and writes its 64-bit handle to a `.visible
    .global .u64` of the knob's name, which the kernel reads with
    `approx.resource_handle`.

    `texture_2d`: each table is a `tensor<H x W x C x f32>`, H rows of W
    texels of C channels (1, 2 or 4); 1 <= H, W <= 65536 (CUDA's 2-D
    limit). `texture_3d`: each table is a `tensor<D x H x W x C x f32>`, D
    slices of H rows of W texels; 1 <= D, H, W <= 16384 (CUDA's 3-D limit
    on compute capability 5.0 and later). Fetch a 2-D texture with
    `approx.texture_fetch %h[%x, %y]`, a 3-D one with `%h[%x, %y, %z]`.

    ```mlir
    approx.resource_knob @sb default(0) texture_2d filter(linear)
        address(clamp) tables([dense<...> : tensor<2x1024x4xf32>])
    approx.resource_knob @sb3 default(0) texture_3d filter(linear)
        address(clamp) tables([dense<...> : tensor<2x2x1024x4xf32>])
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$default_value,
                       Approx_TextureType:$texture_type,
                       Approx_TextureFilter:$filter,
                       Approx_TextureAddress:$address,
                       UnitAttr:$normalized_coords,
                       TypedArrayAttrBase<ElementsAttr,
                         "array of f32 tables">:$tables,
                       UnitAttr:$param_path);
  let assemblyFormat = [{
    $sym_name `default` `(` $default_value `)` $texture_type
    `filter` `(` $filter `)` `address` `(` $address `)`
    (`normalized_coords` $normalized_coords^)?
    `tables` `(` $tables `)` (`param_path` $param_path^)? attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Knob reads.
//===----------------------------------------------------------------------===//

def Approx_KnobValueOp : Approx_Op<"knob_value", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead]>]> {
  let summary = "the current value of a knob";
  let description = [{
    Reads the run-time value of an `approx.knob` (a load of its module
    global, or the kernel's knob parameter with `param_path`).

    ```mlir
    %l = approx.knob_value @lambda : i32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$knob);
  let results = (outs I32:$value);
  let assemblyFormat = "$knob attr-dict `:` type($value)";
}

def Approx_ResourceHandleOp : Approx_Op<"resource_handle", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead]>]> {
  let summary = "the texture object handle of a resource knob";
  let description = [{
    Reads the 64-bit `CUtexObject` handle the runtime wrote for an
    `approx.resource_knob`, to pass to a texture fetch.

    ```mlir
    %t = approx.resource_handle @sb : i64
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$knob);
  let results = (outs I64:$handle);
  let assemblyFormat = "$knob attr-dict `:` type($handle)";
}

def Approx_WarpSlotOp : Approx_Op<"warp_slot", [Pure]> {
  let summary = "the id compared against a warp-split knob";
  let description = [{
    `hw`: PTX `%warpid`, the hardware warp slot on the SM (the paper's
    choice; PTX may change it after preemption, harmless when read once, but
    which elements are approximated then depends on the schedule).
    `virtual`: global warp index modulo `%nwarpid` (same granularity,
    bit-reproducible). `software`: linear thread id in the block / 32.
    All are uniform across a warp, so branching on them never diverges
    inside a warp; none is uniform across a block.

    ```mlir
    %s = approx.warp_slot hw : i32
    ```
  }];
  let arguments = (ins Approx_SlotKind:$kind);
  let results = (outs I32:$slot);
  let assemblyFormat = "$kind attr-dict `:` type($slot)";
}

//===----------------------------------------------------------------------===//
// Texture reads.
//===----------------------------------------------------------------------===//

def Approx_TextureFetchOp : Approx_Op<"texture_fetch", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a filtered four-channel fetch from a texture object";
  let description = [{
    Fetches the texel at unnormalised coordinates (`x`, `y`) of the 2-D
    texture whose handle is `handle` (from `approx.resource_handle`),
    filtered as the resource knob declares: PTX `tex.2d.v4.f32.f32`. With a
    third coordinate `z`, of a 3-D texture: PTX `tex.3d.v4.f32.f32`. Where
    the handle is an `approx.resource_handle`, the number of coordinates
    must match its knob's `texture_2d` / `texture_3d`.
    Pure: a kernel never writes its textures, so equal fetches are one.

    ```mlir
    %v = approx.texture_fetch %t[%x, %y] : vector<4xf32>
    %w = approx.texture_fetch %t3[%x, %y, %z] : vector<4xf32>
    ```
  }];
  let arguments = (ins I64:$handle, F32:$x, F32:$y, Optional<F32>:$z);
  let results = (outs VectorOfLengthAndType<[4], [F32]>:$texel);
  let assemblyFormat = [{
    $handle `[` $x `,` $y (`,` $z^)? `]` attr-dict `:` type($texel)
  }];
}

#endif // APPROX_COREOPS_TD
