//===- LnsPasses.td - the LNS technique's passes --------------*- tablegen -*-===//
//
// Included by Passes.td (one generated Passes.h.inc for the whole project).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_LNSPASSES_TD
#define APPROX_LNSPASSES_TD

include "mlir/Pass/PassBase.td"

def ApproxLnsExpand : Pass<"approx-lns-expand", "::mlir::ModuleOp"> {
  let summary = "Expand !approx.lns values into (f32 log, i1 sign) and LNS arithmetic into sb/db";
  let description = [{
    A 1:N type conversion: every `!approx.lns` value becomes its f32 log2
    magnitude and an i1 "negative", through function signatures, calls,
    returns and `scf` control flow. `mul`/`div` become a sum/difference of
    logs and an xor of signs; `add`/`sub` become
    `max + select(same sign, sb(min - max), db(min - max))` with the
    `nonpositive` `approx.lns.sb` / `approx.lns.db` ops of the same `impl`,
    and exact zeros (`x + 0 = x`, `0 + 0 = 0`). Where the signs are known to
    agree, canonicalization then removes the db; a loop-carried sign that
    starts false and provably stays false (a sum of positive values) is
    made the constant, for the same reason. `from_float` / `to_float`
    use precise `math.log2` / `math.exp2`. An op that holds an LNS value
    but is not converted (an LNS memref, say) is an error naming it.

    Before:
    ```mlir
    %c = approx.lns.add %a, %b impl(#approx.lns_impl<texture2>)
    ```
    After (sketch):
    ```mlir
    %m = arith.maximumf %la, %lb : f32
    %d = arith.subf (min), %m : f32
    %s = approx.lns.sb %d impl(<texture2>) nonpositive : f32
    %t = approx.lns.db %d impl(<texture2>) nonpositive : f32
    %r = arith.addf %m, (select %same, %s, %t) : f32
    ```
  }];
  let dependentDialects = ["::mlir::approx::ApproxDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect"];
}

def ApproxLnsImplVariants : Pass<"approx-lns-impl-variants", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Compile each LNS kernel once per impl behind a variant knob, for the tuner to choose";
  let description = [{
    With `impls=precise,sfu,texture2,...`, every kernel holding LNS ops
    (sb, db, add, sub) gets one variant per listed impl: the ops' impl kind
    is replaced and their `segments`, `input_bits`, `max_error` and
    `degree` are kept (a kind that cannot take them, such as texture3 with
    more than 256 segments, is an error naming the op). The original kernel
    keeps its name as the first impl's variant; the others are named
    `<kernel>__lns_<impl>`. One `approx.variant_knob` (`knob`, default
    `lns_impl`) dispatches every such kernel, value i taking the i-th impl:
    `approx-tune --knob lns_impl --method omg` then measures each and picks
    the fastest whose error against value 0 meets the QoS, so list the
    reference (`precise`) first. `split` is not a variant (its λ knob is
    tuned on its own). Without `impls` the pass does nothing.

    Errors: an unknown or repeated impl, a single one, `split`, a knob name
    that is not a PTX identifier or already a symbol, a variant name already
    taken, and LNS ops in a non-kernel function (inline first). A kernel
    already dispatched by another variant knob is left alone with a remark.

    ```mlir
    approx.variant_knob @lns_impl default(0)
        dispatch {k = [@k, @k__lns_sfu, @k__lns_texture2]}
    ```
  }];
  let dependentDialects = ["::mlir::approx::ApproxDialect"];
  let options = [
    ListOption<"impls", "impls", "std::string",
      "Impls, one kernel variant each, in knob order (the first is the "
      "reference: list precise first); empty: off">,
    Option<"knob", "knob", "std::string", /*default=*/"\"lns_impl\"",
      "Name of the variant knob">,
  ];
}

def ApproxLnsVersion : Pass<"approx-lns-version", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Version code around LNS split ops so each warp runs one unit's loop";
  let description = [{
    An LNS op with `impl = split` sends warps whose slot id is below the
    knob λ to the texture units (texture2) and the others to the SFU.
    approx-lns-lower alone branches per op, which breaks a loop's unrolling
    and instruction-level parallelism; this pass versions whole spans
    instead, as approx-warp-split does for the SFU forms (the same
    Algorithm 1, common/WarpVersioning): a loop holding split ops is copied
    under `scf.if slot < λ`, the copy for warps below λ with every split op
    of that knob pinned to `texture2` (split's segment rule and table), the
    other to `sfu`. Block-level synchronisation never goes under the branch;
    a span of k knobs is versioned on each in turn while 2^k <=
    `max-versions`, beyond that each op gets its own branch.

    Each pinned op carries `approx.lns_split = {knob, side, versioning}`;
    approx-lns-lower records it in the op's site (form `tunable`, the knob,
    `impl: split`), so the manifest still shows λ governing the op. Sets
    the knob's `warp_slot` to the impl's `slot`; a knob compared against two
    slot kinds is an error.

    Before:
    ```mlir
    scf.for %i = %c0 to %n step %c1 {
      %s = approx.lns.sb %x impl(#approx.lns_impl<split, segments = 64,
                                 knob = @lambda, slot = hw>) nonpositive : f32
    }
    ```
    After:
    ```mlir
    %w = approx.warp_slot hw : i32
    %l = approx.knob_value @lambda : i32
    %f = arith.cmpi ult, %w, %l : i32
    scf.if %f {
      scf.for ... { %s = approx.lns.sb %x impl(#approx.lns_impl<texture2,
                        segments = 64>) nonpositive {approx.lns_split = ...} }
    } else {
      scf.for ... { %s = approx.lns.sb %x impl(#approx.lns_impl<sfu>) ... }
    }
    ```
  }];
  let dependentDialects = ["::mlir::approx::ApproxDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"maxVersions", "max-versions", "unsigned", /*default=*/"8",
      "Most copies of one span (2^knobs); beyond it, one branch per op">,
  ];
}

def ApproxLnsLower : Pass<"approx-lns-lower", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower approx.lns.sb/db to texture fetches, SFU, FMA polynomials or libdevice";
  let description = [{
    Evaluates every `approx.lns.sb` / `approx.lns.db` of the gpu.module as
    its `impl` says (docs/lns.md has the numerics):
    - `precise`: `math.exp2` + `math.log1p`, `math.expm1` + `math.log2`
      (libdevice after convert-gpu-to-nvvm);
    - `sfu`: `ex2.approx.ftz` then `lg2.approx.ftz` of 1 ± 2^x;
    - `texture2`: one bilinear fetch of a generated `approx.resource_knob`
      table (2·32·segments × 2 float4 texels: sb, db, and db's
      cotransformation near 0), at the paper's coordinates;
    - `texture3`: one trilinear fetch of a generated `texture_3d`
      `approx.resource_knob` (2·32·segments × 2 × 2 float4 texels, each
      segment's cubic as partial sums a0 + a1 z + a2 xz + a3 xyz) at
      (2 xe + g + 0.5, g + 0.5, g + 0.5);
    - `texture1`: one linear fetch of a table of node values;
    - `horner`: piecewise minimax polynomials from a generated constant
      `memref.global`, evaluated with fma;
    - `split`: `approx.warp_slot` < λ takes texture2, the other warps sfu,
      one branch per op (in approx-to-ptx, approx-lns-version has already
      versioned whole loops and pinned every split op, so this form is
      what the pass gives when run alone).
    The tables are fitted at compile time (Remez, in C++; passes/lns/math).
    sb and db of the same operand and impl are evaluated together: one
    fetch, one 2^x. Each op is recorded as a site with technique `lns`, its
    impl, segments, and the table's maximum absolute error as predicted by
    the bit-exact model of the filter unit (for texture3, its measured 3-D
    rule).

    Before:
    ```mlir
    %s = approx.lns.sb %d impl(#approx.lns_impl<texture2>) nonpositive : f32
    ```
    After (sketch):
    ```mlir
    approx.resource_knob @lns_texture2_64 default(0) texture_2d filter(linear)
        address(clamp) tables([dense<...> : tensor<2x4096x4xf32>])
    %h = approx.resource_handle @lns_texture2_64 : i64
    %v = approx.texture_fetch %h[%cx, %cy] : vector<4xf32>
    %s = vector.extract %v[0] : f32 from vector<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::approx::ApproxDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // APPROX_LNSPASSES_TD
