//===- Passes.td - approx passes ----------------------------*- tablegen -*-===//
//
// The passes that take a GPU kernel from math/arith ops to SFU warp-split PTX.
// Each does one thing; `approx-to-ptx` (passes/Pipeline.cpp) composes them
// with upstream MLIR passes.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PASSES_TD
#define APPROX_PASSES_TD

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

def ApproxAllowContraction
    : Pass<"approx-allow-contraction", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Let the backend fuse float multiply-adds, as nvcc's -fmad=true";
  let description = [{
    Adds the `contract` fast-math flag to every `arith.mulf`, `addf`, `subf`
    and `negf` in the gpu.module, so that the NVPTX backend may fuse a
    multiply and a dependent add into `fma.rn`, which nvcc does by default
    (`-fmad=true`). Without it LLVM writes `mul.rn` / `add.rn`, which also
    forbids ptxas to fuse, and a kernel runs slower than its nvcc twin.
    Contraction changes results by at most the rounding of the product
    (fma rounds once); it never touches the approx forms' own sequences.

    Before: `%p = arith.mulf %a, %b : f32`
    After:  `%p = arith.mulf %a, %b fastmath<contract> : f32`
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ApproxRecordManifest
    : Pass<"approx-record-manifest", "::mlir::ModuleOp"> {
  let summary = "Record each gpu.module's launch ABI, knobs and sites";
  let description = [{
    Before kernel signatures are lowered away, records on the top-level module
    an `approx.manifest` dictionary per gpu.module: each kernel's arguments and
    the flat PTX parameter list a launcher passes (memref descriptors
    expanded, or bare pointers with `bare-ptr`), the knobs, the slot source
    and the sites `approx-warp-split` recorded. `approx-export` writes it as
    NAME.manifest.json (format: docs/manifest.md).
  }];
  let options = [
    Option<"barePtr", "bare-ptr", "bool", /*default=*/"false",
      "Memref arguments are passed as bare pointers (must match "
      "convert-gpu-to-nvvm's use-bare-ptr-memref-call-conv)">,
  ];
}

def ConvertApproxToNVVM
    : Pass<"convert-approx-to-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower pinned approx ops, knobs and warp slots to NVVM/LLVM";
  let description = [{
    `form(sfu)` ops become the PTX of the paper's Tables 1-2 through
    `llvm.call_intrinsic "llvm.nvvm.<fn>.approx.ftz..."` (ftz only on those
    calls); `form(precise)` ops become what nvcc emits without fast math:
    math ops that convert-gpu-to-nvvm maps to libdevice for sin/cos/exp/log/
    pow, `div.rn`, `rcp.rn` and `sqrt.rn` intrinsics for the rest. Knobs
    become `.visible .global` i32 variables, `knob_value` a load of one,
    `warp_slot` reads of `%warpid`, `%nwarpid`, `%ctaid`, `%tid`.

    With `precise-sqrt` (default), plain `math.sqrt` is also lowered to
    `sqrt.rn`: libdevice's `__nv_sqrtf` picks `sqrt.approx` because LLVM
    22's NVVMReflect leaves `__CUDA_PREC_SQRT` at 0, unlike nvcc.
    Unpinned (tunable) ops are an error: run approx-warp-split first.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::arith::ArithDialect"];
  let options = [
    Option<"preciseSqrt", "precise-sqrt", "bool", /*default=*/"true",
      "Also lower plain math.sqrt to sqrt.rn (as nvcc's -prec-sqrt=true)">,
  ];
}

def ApproxExport : Pass<"approx-export", "::mlir::ModuleOp"> {
  let summary = "Write NAME.ptx and NAME.manifest.json (and NAME.cubin)";
  let description = [{
    Takes each `gpu.binary` made by `gpu-module-to-binary{format=isa}` and
    the `approx.manifest` recorded for it, and writes OUTPUT-DIR/NAME.ptx and
    OUTPUT-DIR/NAME.manifest.json; with `cubin`, also runs ptxas to write
    NAME.cubin. Files are written to temporaries and renamed only when all of
    them are complete, so a failure leaves no partial output.
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", /*default=*/"\".\"",
      "Directory the files are written to (must exist)">,
    Option<"name", "name", "std::string", /*default=*/"\"\"",
      "Base name of the files; default: the gpu.module's name">,
    Option<"cubin", "cubin", "bool", /*default=*/"false",
      "Also assemble NAME.cubin with ptxas">,
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"\"",
      "ptxas to use for cubin; default: CUDA_PATH/bin/ptxas, the one found at "
      "build time, then PATH">,
  ];
}

#endif // APPROX_PASSES_TD
