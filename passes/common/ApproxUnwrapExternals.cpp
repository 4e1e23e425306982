//===- ApproxUnwrapExternals.cpp - undo C wrappers of external functions -===//
//
// convert-gpu-to-nvvm (MLIR 22) asks a C wrapper for every func.func of a
// gpu.module. A declaration then becomes a body calling _mlir_ciface_NAME,
// a symbol that libdevice does not define, and ptxas rejects the PTX
// ("Unresolved extern function"). This pass turns each such wrapper back
// into the declaration it came from.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXUNWRAPEXTERNALS
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

/// The external `_mlir_ciface_` declaration `fn`'s whole body forwards to,
/// with the same signature, or null.
static LLVM::LLVMFuncOp forwardedExternal(LLVM::LLVMFuncOp fn,
                                          SymbolTable &symbols) {
  if (fn.isExternal() || !fn.getBody().hasOneBlock())
    return {};
  auto target = symbols.lookup<LLVM::LLVMFuncOp>(
      ("_mlir_ciface_" + fn.getName()).str());
  if (!target || !target.isExternal() ||
      target.getFunctionType() != fn.getFunctionType())
    return {};
  Block &body = fn.getBody().front();
  if (!llvm::hasNItems(body, 2))
    return {};
  auto call = dyn_cast<LLVM::CallOp>(body.front());
  auto ret = dyn_cast<LLVM::ReturnOp>(body.back());
  if (!call || !ret || call.getCallee() != target.getName() ||
      !llvm::equal(call.getArgOperands(), body.getArguments()) ||
      !llvm::equal(ret.getOperands(), call.getResults()))
    return {};
  return target;
}

namespace {
struct ApproxUnwrapExternalsPass final
    : public approx::impl::ApproxUnwrapExternalsBase<
          ApproxUnwrapExternalsPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<std::pair<LLVM::LLVMFuncOp, LLVM::LLVMFuncOp>> wrappers;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (LLVM::LLVMFuncOp target = forwardedExternal(fn, symbols))
        wrappers.emplace_back(fn, target);
    for (auto [fn, target] : wrappers) {
      fn.getBody().getBlocks().clear();
      fn.setLinkage(LLVM::Linkage::External);
      fn->removeAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName());
      if (SymbolTable::symbolKnownUseEmpty(target, module))
        symbols.erase(target);
    }
  }
};
} // namespace
