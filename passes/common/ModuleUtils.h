//===- ModuleUtils.h - kernels, call graphs and walks in a gpu.module -*- C++ -*-===//
//
// What the passes must agree on: which functions a gpu.module holds, which
// of them a kernel reaches through calls, which kernels the user selected
// (kernels=), and how to walk a function without crossing into a nested
// symbol table. Private to passes/.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PASSES_COMMON_MODULEUTILS_H
#define APPROX_PASSES_COMMON_MODULEUTILS_H

#include "approx/Dialect/ApproxDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <string>

namespace mlir::approx {

/// The gpu.modules directly inside `top` (the ones gpu-module-to-binary
/// turns into binaries), in order.
SmallVector<gpu::GPUModuleOp> getGpuModules(ModuleOp top);

/// The functions (any FunctionOpInterface: gpu.func, func.func, llvm.func)
/// directly inside `module`, in order.
SmallVector<FunctionOpInterface> getFunctions(gpu::GPUModuleOp module);

/// Walks every op nested in `root` (not `root` itself) in pre-order, but does
/// not enter ops that define their own symbol table.
void walkWithoutNestedSymbolTables(Operation *root,
                                   function_ref<void(Operation *)> fn);

/// The function of `module` that `call` names directly, declarations
/// included; none for an indirect call.
FunctionOpInterface lookupCallee(Operation *call, SymbolTable &symbols);

/// The functions of `module` that `call` may call: its resolved callee, or
/// none for an indirect or external call.
FunctionOpInterface resolveCallee(Operation *call, SymbolTable &symbols);

/// `roots` and every function of their module they reach through calls, in
/// discovery order.
llvm::SetVector<Operation *> reachableFunctions(ArrayRef<Operation *> roots,
                                                SymbolTable &symbols);

/// The first op directly in `module` whose symbol name cannot be a PTX
/// identifier, with `why` saying what is wrong; null if there is none. Every
/// symbol reaches the PTX under its own name (MLIR `private` visibility is
/// no LLVM linkage; LLVM's NVPTX printer does not escape: '.' fails in
/// ptxas, '-' aborts the printer), except LLVM-dialect symbols of private or
/// internal linkage, which NVPTX renames ('.' and other characters become
/// `_$_`): their renamed form is checked. LLVM intrinsic declarations
/// (`llvm.*`) and `llvm.used` / `llvm.compiler.used` are exempt.
Operation *findNonPtxSymbol(gpu::GPUModuleOp module, std::string &why);

/// True if `fn` is a gpu.func with the `kernel` attribute.
bool isKernel(Operation *fn);

/// The variant knob of `module` that dispatches `kernel` or lists it as a
/// variant, or null. Passes that clone kernels behind a variant knob refuse
/// such kernels: a dispatch does not chain.
VariantKnobOp dispatchingKnob(gpu::GPUModuleOp module, StringRef kernel);

/// Kernels chosen by a `kernels=` option over several gpu.modules: an entry
/// is `kernel` (any module) or `module::kernel`. An empty list selects every
/// kernel.
class KernelSelection {
public:
  /// Resolves `entries` against the gpu.modules of `top`. On an entry that
  /// names no kernel, returns failure with `error` set to a one-line message
  /// listing the kernels that exist.
  static FailureOr<KernelSelection> resolve(ModuleOp top,
                                            ArrayRef<std::string> entries,
                                            std::string &error);
  /// True if the kernel `fn` is selected.
  bool contains(gpu::GPUFuncOp fn) const;

private:
  bool all = true;
  llvm::SmallPtrSet<Operation *, 8> kernels;
};

} // namespace mlir::approx

#endif // APPROX_PASSES_COMMON_MODULEUTILS_H
