//===- ApproxRaiseCudaKernels.cpp - imported CUDA device code to gpu ------===//
//
// `mlir-translate --import-llvm` of clang's CUDA device IR gives top-level
// llvm.funcs, kernels marked by the ptx_kernel calling convention. Every
// approx pass works on kernels of a gpu.module, so this pass moves the code
// there and makes each kernel a gpu.func, keeping its CFG and its launch
// bounds. It refuses, naming the kernel, what the manifest or the PTX link
// cannot express.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXRAISECUDAKERNELS
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

/// The CUDA device runtime functions a raised module cannot link: dynamic
/// parallelism and cooperative groups' grid-wide operations need
/// `-rdc` and cudadevrt, which a loaded PTX module does not have.
static std::optional<StringRef> unsupportedFeature(StringRef callee) {
  if (callee.starts_with("cudaLaunchDevice") ||
      callee.starts_with("cudaGetParameterBuffer") ||
      callee == "cudaDeviceSynchronize" ||
      callee == "cudaStreamCreateWithFlags")
    return StringRef("dynamic parallelism");
  if (callee.starts_with("cudaCG"))
    return StringRef("cooperative groups' grid synchronisation");
  return std::nullopt;
}

/// clang's `__launch_bounds__` and `__cluster_dims__` string attributes
/// (`"nvvm.maxntid"="256"`, `"nvvm.cluster_dim"="2,1,1"`) as the NVVM
/// dialect's attributes; an error text if one does not parse.
static std::string raiseLaunchBounds(LLVM::LLVMFuncOp fn, gpu::GPUFuncOp k) {
  ArrayAttr passthrough = fn.getPassthroughAttr();
  if (!passthrough)
    return "";
  Builder b(fn.getContext());
  for (Attribute a : passthrough) {
    auto pair = dyn_cast<ArrayAttr>(a);
    if (!pair || pair.size() != 2)
      continue;
    auto key = dyn_cast<StringAttr>(pair[0]);
    auto value = dyn_cast<StringAttr>(pair[1]);
    if (!key || !value)
      continue;
    bool isShape = key.getValue() == "nvvm.maxntid" ||
                   key.getValue() == "nvvm.reqntid" ||
                   key.getValue() == "nvvm.cluster_dim";
    bool isCount = key.getValue() == "nvvm.minctasm" ||
                   key.getValue() == "nvvm.maxnreg";
    if (!isShape && !isCount)
      continue;
    SmallVector<StringRef> parts;
    value.getValue().split(parts, ',');
    SmallVector<int32_t> dims;
    for (StringRef part : parts) {
      int32_t d;
      if (part.trim().getAsInteger(10, d))
        return key.getValue().str() + " is " + quoteName(value.getValue()) +
               ", not a list of integers";
      dims.push_back(d);
    }
    if (isShape && dims.size() <= 3)
      k->setAttr(key.getValue(), b.getDenseI32ArrayAttr(dims));
    else if (isCount && dims.size() == 1)
      k->setAttr(key.getValue(), b.getI32IntegerAttr(dims[0]));
    else
      return key.getValue().str() + " is " + quoteName(value.getValue()) +
             ", which has too many entries";
  }
  return "";
}

namespace {
struct ApproxRaiseCudaKernelsPass final
    : public approx::impl::ApproxRaiseCudaKernelsBase<
          ApproxRaiseCudaKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp top = getOperation();
    auto fail = [&](Operation *at, const Twine &msg) {
      at->emitError("approx-raise-cuda-kernels: ") << msg;
      signalPassFailure();
    };
    std::string why;
    if (!isValidPtxIdentifier(moduleName, &why))
      return fail(top, "module-name=" + quoteName(moduleName) +
                           " cannot be a PTX module name: it " + why);
    if (!top.getOps<gpu::GPUModuleOp>().empty())
      return fail(top, "the input already has a gpu.module; this pass "
                       "takes clang's imported device code (top-level "
                       "llvm.funcs)");

    // Kernels: defined ptx_kernel functions.
    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto fn : top.getOps<LLVM::LLVMFuncOp>())
      if (fn.getCConv() == LLVM::CConv::PTX_Kernel && !fn.isExternal())
        kernels.push_back(fn);
    if (kernels.empty())
      return fail(top, "no kernel: the input defines no __global__ function");

    // What a loaded PTX module cannot do, before anything changes.
    for (LLVM::LLVMFuncOp fn : kernels) {
      for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
        if (fn.getArgAttr(i, LLVM::LLVMDialect::getByValAttrName()))
          return fail(fn, "kernel " + quoteName(fn.getName()) +
                              " takes argument " + Twine(i) +
                              " by value as a struct; pass its fields or a "
                              "pointer (the manifest describes pointers and "
                              "scalars)");
      if (!isa<LLVM::LLVMVoidType>(
              cast<LLVM::LLVMFunctionType>(fn.getFunctionType())
                  .getReturnType()))
        return fail(fn, "kernel " + quoteName(fn.getName()) +
                            " returns a value");
    }
    WalkResult unsupported = top.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee)
        return WalkResult::advance();
      std::optional<StringRef> feature = unsupportedFeature(*callee);
      if (!feature)
        return WalkResult::advance();
      auto in = call->getParentOfType<LLVM::LLVMFuncOp>();
      fail(call, quoteName(in.getName()) + " uses " + *feature +
                     " (a call to " + quoteName(*callee) +
                     "), which approx-cc does not support");
      return WalkResult::interrupt();
    });
    if (unsupported.wasInterrupted())
      return;

    // Everything moves into one gpu.module.
    OpBuilder b(&getContext());
    b.setInsertionPointToEnd(top.getBody());
    auto module = gpu::GPUModuleOp::create(b, top.getLoc(), moduleName);
    Block *dest = module.getBody();
    for (Operation &op :
         llvm::make_early_inc_range(top.getBody()->getOperations())) {
      if (&op == module.getOperation())
        continue;
      // Module-level facts of the host compile; the GPU lowering sets its
      // own triple, data layout and nvvm-reflect flags.
      if (isa<LLVM::ModuleFlagsOp>(op)) {
        op.erase();
        continue;
      }
      op.moveBefore(dest, dest->end());
    }
    for (StringRef attr : {"dlti.dl_spec", "llvm.target_triple",
                           "llvm.data_layout", "llvm.ident",
                           "llvm.module_asm", "llvm.dependent_libraries"})
      top->removeAttr(attr);
    top->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                 b.getUnitAttr());

    for (LLVM::LLVMFuncOp fn : kernels) {
      b.setInsertionPoint(fn);
      SmallVector<Type> argTypes(
          cast<LLVM::LLVMFunctionType>(fn.getFunctionType()).getParams());
      auto kernel = gpu::GPUFuncOp::create(b, fn.getLoc(), fn.getName(),
                                           b.getFunctionType(argTypes, {}));
      kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                      b.getUnitAttr());
      if (std::string err = raiseLaunchBounds(fn, kernel); !err.empty()) {
        kernel.erase();
        return fail(fn, "kernel " + quoteName(fn.getName()) + ": " + err);
      }
      if (ArrayAttr argAttrs = fn.getArgAttrsAttr())
        kernel.setAllArgAttrs(argAttrs);
      kernel.getBody().getBlocks().clear();
      kernel.getBody().takeBody(fn.getBody());
      kernel.walk([&](LLVM::ReturnOp ret) {
        OpBuilder rb(ret);
        gpu::ReturnOp::create(rb, ret.getLoc());
        ret.erase();
      });
      fn.erase();
    }
  }
};
} // namespace
