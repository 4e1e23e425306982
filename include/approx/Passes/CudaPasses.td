//===- CudaPasses.td - the CUDA front door's raising passes -*- tablegen -*-===//
//
// approx-cc compiles a .cu file's device code with clang to LLVM IR and
// imports it as LLVM-dialect MLIR. These passes raise that module to what
// approx-to-ptx takes: kernels in a gpu.module, math as math ops.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_CUDAPASSES_TD
#define APPROX_CUDAPASSES_TD

include "mlir/Pass/PassBase.td"

def ApproxRaiseCudaKernels
    : Pass<"approx-raise-cuda-kernels", "::mlir::ModuleOp"> {
  let summary = "Move imported CUDA device code into a gpu.module, kernels as gpu.func";
  let description = [{
    Takes the module `mlir-translate --import-llvm` makes of clang's CUDA
    device IR (top-level `llvm.func`s and globals) and moves all of it into
    one `gpu.module @NAME` of a `gpu.container_module`. Each defined
    `ptx_kernelcc` function becomes a `gpu.func ... kernel` with the same
    arguments (`!llvm.ptr` and scalars) and body (its CFG is kept as is);
    `__launch_bounds__` (`nvvm.maxntid`, `nvvm.minctasm`, `nvvm.maxnreg`)
    and `__cluster_dims__` become the kernel's `nvvm.*` attributes.
    Device functions stay `llvm.func`s.

    Refused, with the kernel and the reason: a kernel argument passed by
    value as a struct (`byval`: the manifest cannot describe it yet), and
    calls that need what the raised module cannot provide: dynamic
    parallelism (`cudaLaunchDevice`, `cudaGetParameterBuffer*`) and
    cooperative groups' grid synchronisation (`cudaCG*`).

    Before: `llvm.func ptx_kernelcc @k(%p: !llvm.ptr) { ... llvm.return }`
    After:  `gpu.module @NAME { gpu.func @k(%p: !llvm.ptr) kernel { ...
    gpu.return } }`
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
  let options = [
    Option<"moduleName", "module-name", "std::string", /*default=*/"\"kernels\"",
      "Name of the gpu.module (a PTX identifier: it names the output files)">,
  ];
}

def ApproxRaiseLibdevice
    : Pass<"approx-raise-libdevice", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Turn libdevice calls and LLVM math into math and arith ops";
  let description = [{
    clang compiles CUDA's `expf(x)` to `call @__nv_expf(x)`, `a / b` to
    `fdiv` and some builtins to LLVM intrinsics (`llvm.intr.sqrt`). This
    pass rewrites each of them, for every function the SFU family's table
    recognises, to the math op approx-from-math reads (`math.exp`,
    `math.powf`, ...; `llvm.fdiv` to `arith.divf`), keeping the call's
    fast-math flags. f32 (`__nv_expf`) and f64 (`__nv_exp`) forms, scalars
    and vectors, are raised. The precise lowering of a math op is the same
    libdevice call, so a kernel no knob selects computes what clang (and nvcc
    without fast math) would; for sqrt it is `sqrt.rn`, as nvcc's
    `-prec-sqrt=true`, where clang's own lowering of `__nv_sqrtf` may give
    `sqrt.approx`. Calls already approximate (`__nv_fast_expf`, from
    `__expf`) are left as written.

    Before: `%y = llvm.call @__nv_expf(%x) {fastmathFlags = #llvm.fastmath<contract>} : (f32) -> f32`
    After:  `%y = math.exp %x fastmath<contract> : f32`
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def ApproxRaiseKernelCfg
    : Pass<"approx-raise-kernel-cfg", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Raise the LLVM branch CFG of imported kernels to cf, then scf";
  let description = [{
    An imported kernel's body is an LLVM CFG (`llvm.br`, `llvm.cond_br`,
    `llvm.switch`). Upstream has no pass from those to `cf`, and
    `lift-cf-to-scf` handles `func.func` only. For each `gpu.func` this pass
    rewrites the three branch ops to `cf.br` / `cf.cond_br` / `cf.switch`
    (the same successors and operands; branch weights dropped), then runs
    upstream's CFG-to-SCF lifting (`transformCFGToSCF` with the `cf`
    lowering's interface) on the body: `scf.if`, `scf.while` and
    `scf.index_switch` replace the branches where the CFG is structured,
    so the SFU warp split versions whole loops and conditionals.

    A body whose terminators are not all branches and `gpu.return` (an
    `llvm.unreachable` after a trap, an `llvm.indirectbr`, ...) is left
    with its LLVM CFG, which the warp split versions block by block: the
    coarse-but-correct fallback. Each kernel records which was used in the
    `approx.cfg` attribute (`structured` or `blocks`, with the reason),
    carried to the manifest's kernel entry as `control_flow`.
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // APPROX_CUDAPASSES_TD
