//===- ModuleUtils.cpp - kernels, call graphs and walks in a gpu.module ---===//

#include "common/ModuleUtils.h"

#include "approx/Dialect/PtxNames.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::approx;

SmallVector<gpu::GPUModuleOp> mlir::approx::getGpuModules(ModuleOp top) {
  return llvm::to_vector(top.getOps<gpu::GPUModuleOp>());
}

SmallVector<FunctionOpInterface>
mlir::approx::getFunctions(gpu::GPUModuleOp module) {
  return llvm::to_vector(module.getOps<FunctionOpInterface>());
}

void mlir::approx::walkWithoutNestedSymbolTables(
    Operation *root, function_ref<void(Operation *)> fn) {
  for (Region &region : root->getRegions())
    for (Block &block : region)
      for (Operation &op : block) {
        fn(&op);
        if (!op.hasTrait<OpTrait::SymbolTable>())
          walkWithoutNestedSymbolTables(&op, fn);
      }
}

FunctionOpInterface mlir::approx::lookupCallee(Operation *call,
                                               SymbolTable &symbols) {
  auto callOp = dyn_cast<CallOpInterface>(call);
  if (!callOp)
    return {};
  auto sym = dyn_cast_if_present<SymbolRefAttr>(callOp.getCallableForCallee());
  if (!sym || sym.getNestedReferences().size() != 0)
    return {};
  return dyn_cast_or_null<FunctionOpInterface>(
      symbols.lookup(sym.getRootReference()));
}

FunctionOpInterface mlir::approx::resolveCallee(Operation *call,
                                                SymbolTable &symbols) {
  FunctionOpInterface fn = lookupCallee(call, symbols);
  if (!fn || fn.isExternal())
    return {};
  return fn;
}

llvm::SetVector<Operation *>
mlir::approx::reachableFunctions(ArrayRef<Operation *> roots,
                                 SymbolTable &symbols) {
  llvm::SetVector<Operation *> seen(roots.begin(), roots.end());
  for (size_t i = 0; i < seen.size(); ++i)
    walkWithoutNestedSymbolTables(seen[i], [&](Operation *op) {
      if (FunctionOpInterface callee = resolveCallee(op, symbols))
        seen.insert(callee);
    });
  return seen;
}

Operation *mlir::approx::findNonPtxSymbol(gpu::GPUModuleOp module,
                                         std::string &why) {
  for (Operation &op : *module.getBody()) {
    auto sym = dyn_cast<SymbolOpInterface>(op);
    if (!sym)
      continue;
    StringRef name = sym.getName();
    auto func = dyn_cast<FunctionOpInterface>(op);
    if (func && func.isExternal() && name.starts_with("llvm."))
      continue;
    // LLVM's special arrays (clang emits them for `__attribute__((used))`
    // and device variables); the backend never prints them as PTX symbols.
    auto global = dyn_cast<LLVM::GlobalOp>(op);
    if (global && global.getLinkage() == LLVM::Linkage::Appending &&
        (name == "llvm.used" || name == "llvm.compiler.used"))
      continue;
    // The NVPTX backend renames symbols of local linkage (clang's `.str`
    // for a printf format), replacing each character PTX does not allow by
    // `_$_` (NVPTXAssignValidGlobalNames); the renamed one must be valid.
    std::string renamed;
    bool local = false;
    if (global)
      local = global.getLinkage() == LLVM::Linkage::Private ||
              global.getLinkage() == LLVM::Linkage::Internal;
    else if (auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(op))
      local = llvmFunc.getLinkage() == LLVM::Linkage::Private ||
              llvmFunc.getLinkage() == LLVM::Linkage::Internal;
    if (local) {
      for (char c : name)
        renamed += llvm::isAlnum(c) || c == '_' || c == '$' ? std::string(1, c)
                                                             : "_$_";
      name = renamed;
    }
    if (!isValidPtxIdentifier(name, &why))
      return &op;
  }
  return nullptr;
}

bool mlir::approx::isKernel(Operation *fn) {
  auto gpuFn = dyn_cast_or_null<gpu::GPUFuncOp>(fn);
  return gpuFn && gpuFn.isKernel();
}

FailureOr<KernelSelection>
KernelSelection::resolve(ModuleOp top, ArrayRef<std::string> entries,
                         std::string &error) {
  KernelSelection sel;
  if (entries.empty())
    return sel;
  sel.all = false;
  SmallVector<std::pair<std::string, gpu::GPUFuncOp>> known;
  for (gpu::GPUModuleOp module : getGpuModules(top))
    for (auto fn : module.getOps<gpu::GPUFuncOp>())
      if (fn.isKernel())
        known.emplace_back((module.getName() + "::" + fn.getName()).str(), fn);
  for (const std::string &entry : entries) {
    bool qualified = StringRef(entry).contains("::");
    bool found = false;
    for (auto &[qualifiedName, fn] : known)
      if (qualified ? qualifiedName == entry : fn.getName() == entry) {
        sel.kernels.insert(fn);
        found = true;
      }
    if (!found) {
      error = "kernels= names " + quoteName(entry) +
              ", which is not a kernel of any gpu.module (kernels:";
      if (known.empty())
        error += " none";
      for (auto &k : known)
        error += " " + quoteName(k.first);
      error += ")";
      return failure();
    }
  }
  return sel;
}

bool KernelSelection::contains(gpu::GPUFuncOp fn) const {
  return all || kernels.contains(fn.getOperation());
}

VariantKnobOp mlir::approx::dispatchingKnob(gpu::GPUModuleOp module,
                                            StringRef kernel) {
  for (auto knob : module.getOps<VariantKnobOp>())
    for (NamedAttribute entry : knob.getDispatch())
      if (entry.getName().getValue() == kernel ||
          llvm::any_of(cast<ArrayAttr>(entry.getValue()), [&](Attribute a) {
            return cast<FlatSymbolRefAttr>(a).getValue() == kernel;
          }))
        return knob;
  return {};
}
