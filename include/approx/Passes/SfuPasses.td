//===- SfuPasses.td - the SFU warp-split technique's passes -*- tablegen -*-===//
//
// Included by Passes.td (one generated Passes.h.inc for the whole project).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_SFUPASSES_TD
#define APPROX_SFUPASSES_TD

include "mlir/Pass/PassBase.td"

def ApproxFromMath : Pass<"approx-from-math", "::mlir::ModuleOp"> {
  let summary = "Turn math/arith functions in the chosen kernels into tunable approx ops";
  let description = [{
    Transparent mode: a user's kernels need no change. In every gpu.module of
    the module, finds the selected kernels (`kernels=`, across all
    gpu.modules) and the functions they call, and rewrites the math functions
    of the function table (`math.sin cos tan exp exp2 log log2 log10 powf
    sqrt rsqrt tanh` and `arith.divf`, where `1.0 / x` becomes `rcp`) on
    f16, bf16, f32 and f64 scalars and vectors into approx ops bound to
    `knob`, declaring the knob when the gpu.module has none of that name.

    A helper called both by a selected kernel and by an unselected one is
    cloned for the selected side, so unselected kernels stay untouched.

    What is left precise is recorded as a site with its reason: functions
    without an SFU form (`expm1`, `log1p`, `atan`, ...), f64 functions
    without a native SFU form unless `f64-demote`, forms the target chip
    lacks, functions not named in `functions=`, and ops in kernels not named
    in `kernels=`. Ops carrying `fastmath<afn>` (or `fast`) already allow an
    approximation: they are left as they are (upstream lowers them to the
    fast libdevice forms), recorded with form `fast`, and not made tunable.
    A `gpu.func` that is no kernel gets a warning: it is compiled as a
    device function and not approximated.

    Functions named in `correct=` (exp, exp2, log, log2) become approx ops
    pinned to `form(correct)` on f32: correctly rounded to nearest, the
    rung above precise (docs/hrcs.md); not tunable. On other types they stay
    precise, with the reason recorded.

    Before:
    ```mlir
    %y = math.exp %x : f32
    ```
    After:
    ```mlir
    approx.knob @lambda range(0, 64) default(0)
    %y = approx.exp %x knob(@lambda) : f32
    ```
  }];
  let dependentDialects = ["::mlir::approx::ApproxDialect",
                           "::mlir::arith::ArithDialect"];
  let options = [
    ListOption<"functions", "functions", "std::string",
      "Functions to approximate (sin,cos,tan,exp,exp2,log,log2,log10,pow,"
      "div,rcp,sqrt,rsqrt,tanh); empty: all">,
    ListOption<"kernels", "kernels", "std::string",
      "Kernels to approximate, as KERNEL or GPU_MODULE::KERNEL (with the "
      "functions they call); empty: all">,
    ListOption<"correct", "correct", "std::string",
      "Functions to compute correctly rounded instead, form(correct) "
      "(exp,exp2,log,log2 on f32; not tunable; other types stay precise)">,
    Option<"knob", "knob", "std::string", /*default=*/"\"lambda\"",
      "Knob the new ops are bound to (a PTX identifier)">,
    Option<"knobMax", "knob-max", "int64_t", /*default=*/"64",
      "Upper end of the knob's range when it is declared here (warp slots per SM)">,
    Option<"f64Demote", "f64-demote", "bool", /*default=*/"false",
      "Also approximate f64 functions without a native SFU form through "
      "the f32 form">,
    Option<"rangeReduction", "range-reduction", "bool", /*default=*/"false",
      "Reduce sin/cos/tan arguments to [-pi, pi] before the SFU form">,
    Option<"newtonSteps", "newton-steps", "unsigned", /*default=*/"0",
      "Newton steps refining f64 div/rcp/sqrt/rsqrt SFU estimates (0-3)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
      "Target (sm_XY): forms the target lacks stay precise (or go through f32)">,
  ];
}

def ApproxWarpSplit : Pass<"approx-warp-split", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Version code so warps below a knob take the SFU form (Algorithm 1)";
  let description = [{
    For every function holding tunable approx ops, reads the warp-slot id and
    each knob once at entry and computes `flag = slot < knob`, uniform per
    warp (never per block). In each block, the ops holding tunable ops are
    anchors; consecutive anchors form a span, and the span is replicated into
    `scf.if %flag` whose then branch pins the ops to `form(sfu)` and whose
    else branch to `form(precise)`. So a loop is versioned once, outside, and
    straight-line code branches once per span, not once per op (Listing 3).

    Block-level synchronisation must never sit under a branch that is
    uniform per warp only: an op that is or holds a `gpu.barrier`,
    `gpu.all_reduce`, an NVVM barrier, cluster or warpgroup op, inline PTX
    naming a barrier, or a call that may reach one, ends a span; where such
    an op also holds tunable ops, its own blocks are versioned inside it.

    A span with tunable ops of k knobs is versioned on each knob in turn
    (2^k copies) while 2^k <= `max-versions`; beyond that each op gets its
    own branch (code size linear in the ops; a branch per op execution), and
    its site says `versioning: per-op`.

    Ops with no SFU form on the target are pinned precise without a branch.
    Run `inline` first so that helpers called from kernel loops are
    versioned with the loop; any function left uninlined gets its own flag.

    Records every approx op on the gpu.module as an `#approx.site` in
    `approx.sites`, and the slot source on each knob it compares against
    (`warp_slot`).

    Before:
    ```mlir
    scf.for %i = %c0 to %n step %c1 {
      %y = approx.sin %x knob(@lambda) : f32
    }
    ```
    After:
    ```mlir
    %s = approx.warp_slot hw : i32
    %l = approx.knob_value @lambda : i32
    %f = arith.cmpi ult, %s, %l : i32
    scf.if %f {
      scf.for ... { %y = approx.sin %x knob(@lambda) form(sfu) : f32 }
    } else {
      scf.for ... { %y = approx.sin %x knob(@lambda) form(precise) : f32 }
    }
    ```
  }];
  let dependentDialects = ["::mlir::approx::ApproxDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"slot", "slot", "std::string", /*default=*/"\"hw\"",
      "Warp-slot source: hw (%warpid), virtual (global warp index mod "
      "%nwarpid) or software (thread id in block / 32)">,
    Option<"maxVersions", "max-versions", "unsigned", /*default=*/"8",
      "Most copies of one span (2^knobs); beyond it, one branch per op">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
      "Target (sm_XY): ops whose SFU form the target lacks are pinned precise">,
  ];
}

def ApproxUnrollVersioned : Pass<"approx-unroll-versioned",
                                 "::mlir::gpu::GPUModuleOp"> {
  let summary = "Ask LLVM to unroll each warp-split loop copy `count` times";
  let description = [{
    Puts `#llvm.loop_annotation<unroll = <count = N>>` on every innermost
    `scf.for` and `scf.while` that holds SFU-split approx ops (`form(sfu)`
    or `form(precise)` with a knob, as approx-warp-split leaves them), in
    both copies. A loop annotation already there keeps its other fields
    (approx-cc's loops carry clang's `mustProgress`) and gets the count,
    unless it already says how to unroll (a `#pragma unroll`, `unroll =
    <disable = true>`) or has `disableNonforced`: then the loop is left as
    it is. The SCF and
    CF lowerings carry it to the loop's latch branch, and LLVM's unroller
    then unrolls by N (a run-time trip count gets a remainder loop) and
    marks the result `nounroll` for ptxas.

    Why: nvcc (the Listing-3 baseline) unrolls such loops about 4x.
    Left to LLVM's NVPTX cost model, the precise copy is often not unrolled
    (its libdevice body is large) and the SFU copy is unrolled by LLVM and
    again by ptxas, which puts each load next to its use
    (docs/sfu-apps-sass.md).

    The attribute is named `loop_annotation`, as the inherent attribute of
    `llvm.br`/`llvm.cond_br`: scf-to-cf copies LLVM-dialect attributes
    to the latch branch under their name, and cf-to-llvm forwards them.

    Before:
    ```mlir
    scf.for %i = %a to %b step %c { %y = approx.exp %x knob(@lambda) form(sfu) : f32 }
    ```
    After:
    ```mlir
    scf.for %i = %a to %b step %c { ... }
        {loop_annotation = #llvm.loop_annotation<unroll = <count = 4 : i32>>}
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"count", "count", "unsigned", /*default=*/"4",
      "Unroll count (2-64)">,
    Option<"ptxasUnroll", "ptxas-unroll", "bool", /*default=*/"false",
      "Let ptxas unroll the unrolled loop further (no `.pragma \"nounroll\"`)">,
  ];
}

def ApproxHoistLoads : Pass<"approx-hoist-loads", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Issue a split copy's loads before its precise math";
  let description = [{
    In every block that holds SFU-split approx ops (`form(sfu)` or
    `form(precise)` with a knob), moves each plain load (`llvm.load` neither
    volatile nor atomic, `memref.load`), with the pure ops computing its
    address, up to the first point after the last op that may write
    memory. Loads keep their order among themselves; nothing moves across
    a store, a barrier, a call or any op whose effects are unknown. Loads
    from shared memory stay (their latency is short, and moving them up
    only holds registers: NBO's 8-way unrolled tile loop spilled), and at
    most `max-loads` loads move per stretch between writes.

    Why: ptxas expands precise forms such as `sqrt.rn.f32` and
    `div.rn.f32` into a fast path and a branch to a slow path, and does
    not issue a later load above that branch. When approx-warp-split
    versions a whole loop (Algorithm 1), the loads of each copy follow
    the precise math as in the source, one at a time; in the Listing-3
    build the same loads are common to both sides of the branch and
    issued together before it (BLA: 3 loads in flight instead of 1).

    Before:
    ```mlir
    %r = approx.sqrt %t knob(@lambda) form(precise) : f32
    %b = llvm.getelementptr %s[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %b : !llvm.ptr -> f32
    ```
    After:
    ```mlir
    %b = llvm.getelementptr %s[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %b : !llvm.ptr -> f32
    %r = approx.sqrt %t knob(@lambda) form(precise) : f32
    ```
  }];
  let options = [
    Option<"maxLoads", "max-loads", "unsigned", /*default=*/"8",
      "Most loads moved up per stretch between memory writes (each holds "
      "a register longer)">,
  ];
}

#endif // APPROX_SFUPASSES_TD
