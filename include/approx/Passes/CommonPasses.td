//===- CommonPasses.td - passes every technique shares -*- tablegen -*-===//
//
// Included by Passes.td (one generated Passes.h.inc for the whole project).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_COMMONPASSES_TD
#define APPROX_COMMONPASSES_TD

include "mlir/Pass/PassBase.td"

def ApproxAllowContraction
    : Pass<"approx-allow-contraction", "::mlir::ModuleOp"> {
  let summary = "Let the backend fuse float multiply-adds in the chosen kernels, as nvcc's -fmad=true";
  let description = [{
    Adds the `contract` fast-math flag to every `arith.mulf`, `addf`, `subf`
    and `negf` in the selected kernels (`kernels=`, as approx-from-math
    reads it) and the functions they call, so that the NVPTX backend may
    fuse a multiply and a dependent add into `fma.rn`, which nvcc does by
    default (`-fmad=true`). Without it LLVM writes `mul.rn` / `add.rn`,
    which also forbids ptxas to fuse, and a kernel runs slower than its nvcc
    twin. Contraction changes results by at most the rounding of the product
    (fma rounds once); it never touches the approx forms' own sequences
    (lowered after it) nor kernels outside the selection.

    Before: `%p = arith.mulf %a, %b : f32`
    After:  `%p = arith.mulf %a, %b fastmath<contract> : f32`
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    ListOption<"kernels", "kernels", "std::string",
      "Kernels to contract, as KERNEL or GPU_MODULE::KERNEL (with the "
      "functions they call); empty: all">,
  ];
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
    ListOption<"configuration", "configuration", "std::string",
      "The KNOB=VALUE entries the build was asked for: each must name a "
      "build knob of the module and the value it took (an entry no pass "
      "declared a knob for is an error, not silently ignored)">,
  ];
}

def ApproxUnwrapExternals
    : Pass<"approx-unwrap-externals", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Undo the C-interface wrappers convert-gpu-to-nvvm gives external functions";
  let description = [{
    MLIR 22's `convert-gpu-to-nvvm` requests C wrappers for every `func.func`
    of a gpu.module. For a declaration (`func.func private @__nv_sinf(f32)
    -> f32`) that turns `@__nv_sinf` into a function whose body calls
    `@_mlir_ciface___nv_sinf`, which neither libdevice nor anything else
    defines: ptxas then fails with "Unresolved extern function". This pass,
    run right after `convert-gpu-to-nvvm`, makes each such wrapper a plain
    declaration again and erases the `_mlir_ciface_` declaration, so the
    call binds to libdevice (or the driver's function) as written. Wrappers
    whose signature differs from the declaration's (memref arguments passed
    by descriptor pointer) are left alone; approx-check-target refuses calls
    to such functions earlier.

    Before: `llvm.func private @f(%a: f32) -> f32 { %r = llvm.call
    @_mlir_ciface_f(%a) ... }` and `llvm.func @_mlir_ciface_f(f32) -> f32`
    After:  `llvm.func private @f(f32) -> f32`
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ApproxLoopAnnotations
    : Pass<"approx-loop-annotations", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make forwarded loop annotations the branches' own, so LLVM sees them";
  let description = [{
    `scf-to-cf` copies a loop's LLVM-dialect attributes (such as
    `loop_annotation = #llvm.loop_annotation<...>`) to its latch branch, and
    MLIR 22's `convert-cf-to-llvm` forwards them to `llvm.br` and
    `llvm.cond_br` as discardable attributes. LLVM IR translation reads only
    the branches' inherent `loop_annotation` (a property), so the
    annotation was silently dropped (a printed and re-parsed module kept
    it). This pass, run on LLVM-dialect code, moves each discardable
    `loop_annotation` of a `llvm.br`/`llvm.cond_br` into the property,
    unless the branch already has one.

    Before: `llvm.br ^bb1 {loop_annotation = #a}` with the attribute discardable
    After:  the same text, with the attribute inherent (`!llvm.loop` in LLVM IR)
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ApproxNvccContraction
    : Pass<"approx-nvcc-contraction", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Leave multiply-add fusion to the NVPTX back end's rule, which is nvcc's";
  let description = [{
    With the `contract` flag, LLVM's generic DAG combiner fuses a float
    product into every add or subtraction that uses it, even when the
    product has other uses (NVPTX asks for aggressive fusion). nvcc does
    not: it fuses a product into an add only when every use of the product
    is an add (fewer than five), and never into a subtraction, leaving
    `mul.f32` and `sub.f32` for ptxas. That rule is the NVPTX back end's own
    combine, which applies to every float add once fusion is allowed for the
    module (`nvptx-fma-level`, which approx-to-ptx sets when `fmad` is on,
    as nvcc's `-fmad=true`; it covers libdevice, linked later, as nvcc's
    flag does).

    This pass, run on LLVM-dialect code just before translation, removes
    `contract` from f32 and f64 `llvm.fmul`, `llvm.fadd` and `llvm.fsub`,
    so that rule alone decides (it covers those two types; f16, bf16 and
    vectors keep their flags and the generic combine). One choice is made
    here instead: of an add's two products that both qualify, nvcc fuses
    the one written first, while LLVM's Reassociate has by then ordered the
    operands by position in the function; where both products carry source
    positions, the one written first becomes an `llvm.intr.fma` here. Results then match nvcc bit for bit where they differed
    in the last place, or by more where a sum cancels (issue 31: 41% of an
    option pricer's outputs).

    Before: `%x = llvm.fsub %c, %t {fastmathFlags = #llvm.fastmath<contract>}`
    After:  `%x = llvm.fsub %c, %t`
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
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
    `form(correct)` ops (f32 exp, exp2, log, log2) become the correctly
    rounded code of passes/correct: the function in f64, a rounding test,
    and on its rare failure a search of the hard cases that the
    hard-to-round search found, a constant-memory table per gpu.module.

    With `precise-sqrt` (default), plain `math.sqrt` is also lowered to
    `sqrt.rn`: libdevice's `__nv_sqrtf` picks `sqrt.approx` because LLVM
    22's NVVMReflect leaves `__CUDA_PREC_SQRT` at 0, unlike nvcc.
    Unpinned (tunable) ops are an error: run approx-warp-split first.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
      "Target (sm_XY): decides between native half forms and f32 ones">,
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

def ApproxOccupancyCap : Pass<"approx-occupancy-cap", "::mlir::ModuleOp"> {
  let summary = "Cap a kernel's registers where that raises occupancy without spills";
  let description = [{
    Runs `ptxas -v` on the PTX of each `gpu.binary` (made by
    `gpu-module-to-binary{format=isa}`) and, for each entry function that
    does not spill and does not already carry a `.maxnreg`, takes the largest
    register count below its own that fits more warps on one SM (65536
    registers, allocated per warp in units of 256, up to the chip's warps
    per SM). It adds `.maxnreg` with that count to the entry and keeps it
    only where ptxas then still reports no spill. Each cap is a remark.

    Why: warp splitting puts a precise and an approximate path into one
    kernel, and the precise path's registers then limit the occupancy of
    both. A static comparison at sm_90 (docs/sfu-apps-sass.md) found MRQ's
    kernel at 34 registers against nvcc's 32 (48 against 64 warps per SM),
    and spill-free under `.maxnreg 32`. Whether a cap pays is a timing
    question the pass cannot answer: it is an option of approx-to-ptx
    (`occupancy-cap`), off by default.
  }];
  let options = [
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"\"",
      "ptxas to use; default: CUDA_PATH/bin/ptxas, the one found at build "
      "time, then PATH">,
  ];
}

def ApproxCheckTarget : Pass<"approx-check-target", "::mlir::ModuleOp"> {
  let summary = "Check the target chip and the CUDA toolkit parts a pipeline needs";
  let description = [{
    Fails, with one line naming the cause, when `chip` is not a target the
    LLVM NVPTX backend knows, `O` is not 0-3, `libdevice` does not name an
    LLVM bitcode file, a symbol of a gpu.module (function, global) is no
    valid PTX identifier, a gpu.module uses a scalable vector type (NVPTX has
    none: its instruction selection aborts) or a vector of more than 1024
    elements (vector math is lowered element by element), a kernel's launch
    bounds (`known_block_size`, `nvvm.maxntid`, `nvvm.reqntid`, grid and
    cluster sizes, `nvvm.minctasm`, `nvvm.maxnreg`) hold a dimension below 1
    or a block above 1024 threads (or z above 64), or code in a gpu.module calls a
    function that has no
    body there and that neither libdevice (`__nv_*`), LLVM (`llvm.*`) nor the
    CUDA driver (`vprintf`, `malloc`, `free`, `__assertfail`) provides: the
    PTX module would not link when loaded. `approx-to-ptx` runs it first, so
    that a bad target, a missing toolkit part or an unresolved call is
    reported before any work and nothing is written. The IR is not changed.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
      "Target SM, e.g. sm_90">,
    Option<"optLevel", "O", "unsigned", /*default=*/"3",
      "LLVM optimisation level (0-3)">,
    Option<"libdevice", "libdevice", "std::string", /*default=*/"\"\"",
      "Path of libdevice.10.bc to check (empty: refused as not found)">,
    Option<"libdeviceOrigin", "libdevice-origin", "std::string",
      /*default=*/"\"libdevice=\"",
      "Where the path came from, for the error message">,
  ];
}

#endif // APPROX_COMMONPASSES_TD
