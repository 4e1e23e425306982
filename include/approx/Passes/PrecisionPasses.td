//===- PrecisionPasses.td - precision scaling's passes --------*- tablegen -*-===//
//
// Included by Passes.td (one generated Passes.h.inc for the whole project).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PRECISIONPASSES_TD
#define APPROX_PRECISIONPASSES_TD

include "mlir/Pass/PassBase.td"

def ApproxPrecisionVariants : Pass<"approx-precision-variants",
                                   "::mlir::gpu::GPUModuleOp"> {
  let summary = "Clone kernels per storage-precision configuration behind a variant knob";
  let description = [{
    The compiler side of precision scaling of memory objects (PreScaler,
    docs/precision.md, "Compiler side"). A configuration names a storage
    type for each memref argument of a kernel, in argument order;
    `configs=f32:f32:f64,f16:f16:f64` gives two. For each kernel @k with a
    memref argument of element type f64, f32, f16 or bf16, the pass creates
    one clone `@k__p<i>` per configuration i (except the configuration equal
    to the kernel's own types, whose variant is `@k` itself) in which:
    - each scaled argument (storage type != its element type) is a memref of
      the storage type (shape, layout and memory space kept);
    - every `memref.load` of it is followed by a conversion back to the
      original element type (`arith.extf`, or `arith.truncf` where the
      storage is wider; f16 <-> bf16 goes through f32, exactly);
    - every `memref.store` to it stores the value converted to the storage
      type (`arith.truncf`: round to nearest even, or `arith.extf`);
    - nothing else changes: the kernel computes in its own types.
    `approx.variant_knob @<knob> default(0) dispatch {k = [...]}` dispatches
    its name: knob value i runs configuration i (manifest kind `variant`).
    The original kernel is kept under its name, so that host code in the
    same file (`gpu.launch_func @mod::@k`) still resolves and an unscaled
    launch runs the kernel as written: it is the variant of the
    configuration equal to its own types (`{k = [@k, @k__p1, ...]}` when
    that configuration comes first), and stays outside the dispatch when no
    configuration has its types. Host code is not changed.

    Entries are `keep` (the argument's own type), `f64`, `f32`, `f16`,
    `bf16`, or, for a memref of integers (never scaled), its own type (`i32`,
    `index`, ...). Bad options fail the pass with one line: an unknown type,
    fewer than 2 configs, a config listed twice, a config whose length is not
    the number of memref arguments of a kernel, a float type for a
    non-float argument, two configs that give a kernel the same types, a
    knob name that is not an identifier or is taken.

    A kernel is left untouched, with a remark, when it takes an `!llvm.ptr`
    argument (CUDA front-door kernels: not supported), when a scaled
    argument has a use other than memref.load, memref.store (as the memref)
    and memref.dim (a call, subview, cast, vector.load, atomic...: the
    remark is on that op; run `inline` first for helper calls), or when it
    is already dispatched by, or a variant of, another variant knob.

    With `types=f32,f16` instead of `configs`, each kernel gets every
    combination of its float memref arguments' own type and each listed
    type narrower than it (an f64 argument: f64, f32, f16; an f32 one: f32,
    f16), in lexicographic order with the first argument varying slowest
    and the own type first, so variant 0 is the kernel itself. Kernels
    then differ in their variant counts, so each gets its own variant knob,
    `<knob>__<kernel>`; a host picks a variant by its argument types, which
    the manifest records. This is what a search over per-object storage
    types needs, where the configurations are not known in advance. A
    kernel with more than `max-variants` combinations fails the pass
    (naming it and the count); `types` and `configs` are exclusive.

    Before (`configs=keep:keep,f32:keep,f16:f16`):
    ```mlir
    gpu.func @scale(%x: memref<?xf64>, %y: memref<?xf64>) kernel {
      %v = memref.load %x[%i] : memref<?xf64>
      %w = arith.mulf %v, %a : f64
      memref.store %w, %y[%i] : memref<?xf64>
    ```
    After:
    ```mlir
    approx.variant_knob @precision default(0)
        dispatch {scale = [@scale, @scale__p1, @scale__p2]}
    gpu.func @scale(%x: memref<?xf64>, %y: memref<?xf64>) kernel {
      ... (unchanged)
    gpu.func @scale__p1(%x: memref<?xf32>, %y: memref<?xf64>) kernel {
      %s = memref.load %x[%i] : memref<?xf32>
      %v = arith.extf %s : f32 to f64
      %w = arith.mulf %v, %a : f64
      memref.store %w, %y[%i] : memref<?xf64>
    gpu.func @scale__p2(%x: memref<?xf16>, %y: memref<?xf16>) kernel {
      %s = memref.load %x[%i] : memref<?xf16>
      %v = arith.extf %s : f16 to f64
      %w = arith.mulf %v, %a : f64
      %t = arith.truncf %w : f64 to f16
      memref.store %t, %y[%i] : memref<?xf16>
    ```
  }];
  let options = [
    ListOption<"configs", "configs", "std::string",
      "Configurations in knob order, each the storage types of a kernel's "
      "memref arguments joined by ':' (keep, f64, f32, f16, bf16; an "
      "integer argument's own type), e.g. f32:f32:keep,f16:f16:keep">,
    Option<"knob", "knob", "std::string", /*default=*/"\"precision\"",
      "The variant knob's name (knob value i runs configuration i)">,
    ListOption<"kernels", "kernels", "std::string",
      "Kernels to scale (default: every kernel with a float memref "
      "argument); names not in the gpu.module are ignored">,
    ListOption<"types", "types", "std::string",
      "Instead of configs: every combination, over each kernel's float "
      "memref arguments, of the argument's own type and each narrower type "
      "listed (f32, f16, bf16), one variant knob per kernel named "
      "<knob>__<kernel>, value 0 = the kernel's own types">,
    Option<"maxVariants", "max-variants", "unsigned", /*default=*/"1024",
      "With types=, the most variants one kernel may get (a kernel with "
      "more combinations fails the pass, naming it)">,
    ListOption<"space", "space", "std::string",
      "Instead of clones: each float memref argument of each kernel gets a "
      "build knob <knob>__<kernel>__a<i> whose values are its own type and "
      "each narrower type listed (f32, f16, bf16); the kernel is built for "
      "the values configuration= names (default: its own types), and "
      "other values are other builds (docs/configurations.md)">,
    ListOption<"configuration", "configuration", "std::string",
      "With space=: KNOB=VALUE entries choosing the value (f64, f32, f16, "
      "bf16) of build knobs of this pass; entries for other knobs are left "
      "to the passes that declare them">
  ];
  let dependentDialects = ["::mlir::approx::ApproxDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // APPROX_PRECISIONPASSES_TD
