//===- SfuPasses.td - the SFU warp-split technique's passes -*- tablegen -*-===//
//
// Included by Passes.td (one generated Passes.h.inc for the whole project).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_SFUPASSES_TD
#define APPROX_SFUPASSES_TD

include "mlir/Pass/PassBase.td"

def ApproxFromMath : Pass<"approx-from-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Turn math/arith transcendentals into tunable approx ops";
  let description = [{
    Rewrites, inside the chosen kernels of a gpu.module and the functions they
    call, `math.sin cos exp log powf sqrt rsqrt` and `arith.divf` (a `1.0 / x`
    becomes `rcp`) on f32 and f64 scalars into approx ops bound to `knob`.
    Declares the knob (`approx.knob @<knob> range(0, knob-max) default(0)`)
    when the module has none of that name. f64 functions without an SFU form
    (sin, cos, exp, log, pow) are converted only with `f64-demote`; when such
    an op is named in `functions` and left alone, a warning says so.
    Everything else is left alone.

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
  let dependentDialects = ["::mlir::approx::ApproxDialect"];
  let options = [
    ListOption<"functions", "functions", "std::string",
      "Functions to approximate (sin,cos,exp,log,pow,div,rcp,sqrt,rsqrt); empty: all">,
    ListOption<"kernels", "kernels", "std::string",
      "Kernels to approximate (with the functions they call); empty: all">,
    Option<"knob", "knob", "std::string", /*default=*/"\"lambda\"",
      "Knob the new ops are bound to">,
    Option<"knobMax", "knob-max", "int64_t", /*default=*/"64",
      "Upper end of the knob's range when it is declared here (warp slots per SM)">,
    Option<"f64Demote", "f64-demote", "bool", /*default=*/"false",
      "Also approximate f64 sin/cos/exp/log/pow through an f32-demoted SFU form">,
    Option<"rangeReduction", "range-reduction", "bool", /*default=*/"false",
      "Reduce sin/cos arguments to [-pi, pi] before the SFU form">,
    Option<"newtonSteps", "newton-steps", "unsigned", /*default=*/"0",
      "Newton steps refining f64 div/rcp/sqrt/rsqrt SFU estimates (0-3)">,
  ];
}

def ApproxWarpSplit : Pass<"approx-warp-split", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Version code so warps below a knob take the SFU form (Algorithm 1)";
  let description = [{
    For every function holding tunable approx ops, reads the warp-slot id and
    each knob once at entry and computes `flag = slot < knob` (uniform per
    warp). Each tunable op is anchored at its outermost enclosing loop in the
    function (or at itself outside loops); in each block, the span from the
    first to the last anchor is replicated into `scf.if %flag` whose then
    branch pins the ops to `form(sfu)` and whose else branch to
    `form(precise)`. Loops are thus versioned (branch outside the loop), and
    straight-line code branches once per block. Ops with no SFU form are
    pinned precise without a branch. Run `inline` first so that helper
    functions called from kernel loops are versioned with the loop; any
    function left uninlined gets its own flag.

    Records what it approximated on the gpu.module as `approx.sites` and the
    slot source as `approx.slot`, for `approx-record-manifest`.

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
  ];
}

#endif // APPROX_SFUPASSES_TD
