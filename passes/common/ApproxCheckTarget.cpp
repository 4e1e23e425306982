//===- ApproxCheckTarget.cpp - check the chip and the CUDA toolkit parts --===//
//
// Upstream's nvvm-attach-target takes any chip (the NVPTX backend then warns
// and falls back to a default), a missing libdevice surfaces deep in
// serialisation, and a call to a function with no body yields PTX that only
// fails when the driver loads it. This pass fails early with one line naming
// the cause. It also refuses what the NVPTX backend aborts or crashes on
// (scalable vectors, inline asm whose constraints do not parse or do not fit
// its operands) or prints into PTX ptxas rejects (symbol names, launch
// bounds).
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"
#include "common/ModuleUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Target/LLVMIR/TypeToLLVM.h"

#include "llvm/BinaryFormat/Magic.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXCHECKTARGET
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

/// True if the NVPTX backend knows `chip` (e.g. sm_90, sm_90a).
static bool isKnownChip(StringRef chip) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  std::string err;
  llvm::Triple triple("nvptx64-nvidia-cuda");
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, err);
  if (!target)
    return false;
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(triple, chip, ""));
  return sti && sti->isCPUStringValid(chip);
}

/// The functions libdevice defines, read once from its bitcode's symbol
/// table (lazily: no function body is materialised).
class LibdeviceSymbols {
public:
  explicit LibdeviceSymbols(StringRef path) : path(path) {}
  bool defines(StringRef name) {
    if (!module) {
      llvm::SMDiagnostic err;
      module = llvm::getLazyIRFileModule(path, err, context);
      if (!module)
        return false;
    }
    llvm::Function *f = module->getFunction(name);
    return f && !f->isDeclaration();
  }

private:
  std::string path;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
};

/// Whether a PTX module may call `name` without defining it: a libdevice
/// function (linked in by the pipeline), an LLVM intrinsic the backend
/// expands, or what the CUDA driver resolves when it loads the module.
static bool isProvidedExternally(StringRef name, LibdeviceSymbols &libdevice) {
  if (name.starts_with("__nv_"))
    return libdevice.defines(name);
  if (name.starts_with("llvm."))
    return llvm::Intrinsic::lookupIntrinsicID(name) !=
           llvm::Intrinsic::not_intrinsic;
  return name == "vprintf" || name == "malloc" || name == "free" ||
         name == "__assertfail";
}

/// The first call in a gpu.module to a body-less function nobody provides.
static CallOpInterface findUnresolvedCall(gpu::GPUModuleOp module,
                                          LibdeviceSymbols &libdevice,
                                          Operation *&callee) {
  SymbolTable symbols(module);
  CallOpInterface found;
  module.walk([&](CallOpInterface call) {
    auto ref = dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
    if (!ref)
      return WalkResult::advance();
    Operation *fn = symbols.lookup(ref.getRootReference());
    auto func = dyn_cast_if_present<FunctionOpInterface>(fn);
    if (!func || !func.isExternal() ||
        isProvidedExternally(ref.getRootReference().getValue(), libdevice))
      return WalkResult::advance();
    found = call;
    callee = fn;
    return WalkResult::interrupt();
  });
  return found;
}

/// The first vector type `refused` picks in `module`'s ops, results and
/// block arguments, nested types (memref<?xvector<...>>) included. Used for
/// scalable vectors (`vector<[4]xf32>`: NVPTX has none and its instruction
/// selection aborts on them) and for oversized ones.
static Type findVector(gpu::GPUModuleOp module, Operation *&where,
                       function_ref<bool(VectorType)> refused) {
  Type found;
  auto check = [&](Type t, Operation *op) {
    t.walk([&](VectorType v) {
      if (!found && refused(v)) {
        found = v;
        where = op;
      }
    });
  };
  module.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      check(t, op);
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (BlockArgument a : b.getArguments())
          check(a.getType(), op);
    if (auto fn = dyn_cast<FunctionOpInterface>(op))
      check(fn.getFunctionType(), op);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// Most elements of one vector value in device code. A thread has at most
/// 255 32-bit registers, and vector math is lowered element by element: a
/// vector<1048576xf32> would take gigabytes to compile and could never run.
static constexpr int64_t kMaxVectorElements = 1024;

/// The launch-bound attributes a kernel may carry, and whether each is a
/// block shape (limited to 1024 threads, z to 64) or another positive size.
/// Upstream verifies their types only; a 0 reaches the PTX as `.maxntid 0`
/// or `.reqntid`, which ptxas rejects, and a too-large block makes a kernel
/// that no launch can run.
static std::string checkLaunchBounds(FunctionOpInterface fn,
                                     std::string &attrName) {
  static constexpr std::pair<const char *, bool> kShapes[] = {
      {"known_block_size", true},  {"gpu.known_block_size", true},
      {"nvvm.maxntid", true},      {"nvvm.reqntid", true},
      {"known_grid_size", false},  {"gpu.known_grid_size", false},
      {"nvvm.cluster_dim", false}};
  for (auto [name, isBlock] : kShapes) {
    Attribute a = fn->getAttr(name);
    if (!a)
      continue;
    attrName = name;
    auto dims = dyn_cast<DenseI32ArrayAttr>(a);
    if (!dims)
      return "is not an array<i32>";
    if (dims.empty() || dims.size() > 3)
      return "has " + std::to_string(dims.size()) +
             " entries; expected 1 to 3 (x, y, z)";
    int64_t product = 1;
    for (int32_t d : dims.asArrayRef()) {
      if (d < 1)
        return "has the entry " + std::to_string(d) +
               "; every dimension must be at least 1";
      product *= d;
    }
    if (isBlock && product > 1024)
      return "asks for " + std::to_string(product) +
             " threads per block; the limit is 1024";
    if (isBlock && dims.size() == 3 && dims[2] > 64)
      return "has z = " + std::to_string(dims[2]) + "; the limit is 64";
  }
  for (const char *name : {"nvvm.minctasm", "nvvm.maxnreg"}) {
    Attribute a = fn->getAttr(name);
    if (!a)
      continue;
    attrName = name;
    auto i = dyn_cast<IntegerAttr>(a);
    if (!i || !i.getType().isInteger(32))
      return "is not an i32";
    if (i.getInt() < 1)
      return "is " + std::to_string(i.getInt()) + "; it must be at least 1";
  }
  return "";
}

/// PTX caps a kernel's static shared memory at 48 KiB (more must be
/// dynamic): ptxas refuses "uses too much shared data (... 0xc000 max)".
static constexpr uint64_t kMaxStaticSharedBytes = 48 * 1024;

/// Bytes of a workgroup (shared, address space 3) object, or 0 if `op` is
/// none: an llvm.mlir.global in addr_space 3, or a memref.global in
/// workgroup memory.
static uint64_t sharedBytes(Operation *op, const DataLayout &layout) {
  if (auto g = dyn_cast<LLVM::GlobalOp>(op))
    return g.getAddrSpace() == 3 ? layout.getTypeSize(g.getGlobalType()) : 0;
  if (auto g = dyn_cast<memref::GlobalOp>(op)) {
    MemRefType t = g.getType();
    auto space = dyn_cast_if_present<gpu::AddressSpaceAttr>(t.getMemorySpace());
    auto number = dyn_cast_if_present<IntegerAttr>(t.getMemorySpace());
    bool shared = (space && space.getValue() == gpu::AddressSpace::Workgroup) ||
                  (number && number.getInt() == 3);
    if (!shared || !t.hasStaticShape())
      return 0;
    return t.getNumElements() * layout.getTypeSize(t.getElementType());
  }
  return 0;
}

/// The first kernel of `module` whose static shared memory (the shared
/// globals its functions reference, and its workgroup attributions) passes
/// the limit; `bytes` is its total.
static gpu::GPUFuncOp findSharedOverflow(gpu::GPUModuleOp module,
                                         uint64_t &bytes) {
  SymbolTable symbols(module);
  DataLayout layout(module);
  for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
    if (!kernel.isKernel())
      continue;
    llvm::SmallPtrSet<Operation *, 8> seen;
    bytes = 0;
    for (BlockArgument a : kernel.getWorkgroupAttributions())
      if (auto t = dyn_cast<MemRefType>(a.getType()); t && t.hasStaticShape())
        bytes += t.getNumElements() * layout.getTypeSize(t.getElementType());
    for (Operation *fn : reachableFunctions({kernel}, symbols))
      fn->walk([&](Operation *op) {
        for (NamedAttribute attr : op->getAttrs()) {
          auto ref = dyn_cast<FlatSymbolRefAttr>(attr.getValue());
          if (!ref)
            continue;
          Operation *target = symbols.lookup(ref.getValue());
          if (target && seen.insert(target).second)
            bytes += sharedBytes(target, layout);
        }
      });
    if (bytes > kMaxStaticSharedBytes)
      return kernel;
  }
  return {};
}

namespace {
struct ApproxCheckTargetPass final
    : public approx::impl::ApproxCheckTargetBase<ApproxCheckTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp top = getOperation();
    auto fail = [&](const Twine &msg) {
      top.emitError("approx-to-ptx: ") << msg;
      signalPassFailure();
    };
    if (!StringRef(chip).starts_with("sm_") || !isKnownChip(chip))
      return fail("unsupported chip " + quoteName(chip) +
                  ": expected an NVPTX target such as sm_80 or sm_90");
    if (optLevel > 3)
      return fail("O=" + Twine(static_cast<unsigned>(optLevel)) +
                  " is out of range [0, 3]");
    if (libdevice.empty())
      return fail("libdevice not found: the build found no CUDA toolkit; "
                  "set CUDA_PATH or pass libdevice=PATH");
    if (!llvm::sys::fs::is_regular_file(libdevice))
      return fail("libdevice not found at " + quoteName(libdevice) +
                  " (from " + libdeviceOrigin + "); set CUDA_PATH or pass "
                  "libdevice=PATH");
    // Anything but bitcode would fail later in the link step with an error
    // per kernel module and no hint that the library is the cause.
    llvm::file_magic magic;
    if (llvm::identify_magic(libdevice, magic) ||
        magic != llvm::file_magic::bitcode)
      return fail("libdevice " + quoteName(libdevice) + " (from " +
                  libdeviceOrigin + ") is not an LLVM bitcode file");
    // Every symbol of a gpu.module becomes a PTX name.
    WalkResult badName = top.walk([&](gpu::GPUModuleOp module) {
      std::string why;
      Operation *op = findNonPtxSymbol(module, why);
      if (!op)
        return WalkResult::advance();
      op->emitError("approx-to-ptx: symbol ")
          << quoteName(cast<SymbolOpInterface>(op).getName())
          << " in gpu.module " << quoteName(module.getName())
          << " cannot be a PTX symbol: it " << why;
      return WalkResult::interrupt();
    });
    if (badName.wasInterrupted())
      return signalPassFailure();
    WalkResult badBounds = top.walk([&](gpu::GPUModuleOp module) {
      for (auto fn : module.getOps<FunctionOpInterface>()) {
        std::string attrName;
        std::string why = checkLaunchBounds(fn, attrName);
        if (why.empty())
          continue;
        fn->emitError("approx-to-ptx: ")
            << attrName << " of " << quoteName(fn.getName()) << " " << why;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (badBounds.wasInterrupted())
      return signalPassFailure();
    WalkResult badShared = top.walk([&](gpu::GPUModuleOp module) {
      uint64_t bytes = 0;
      gpu::GPUFuncOp kernel = findSharedOverflow(module, bytes);
      if (!kernel)
        return WalkResult::advance();
      kernel.emitError("approx-to-ptx: kernel ")
          << quoteName(kernel.getName()) << " uses " << bytes
          << " bytes of static shared memory; PTX allows "
          << kMaxStaticSharedBytes
          << " (allocate more as dynamic shared memory)";
      return WalkResult::interrupt();
    });
    if (badShared.wasInterrupted())
      return signalPassFailure();
    WalkResult badVector = top.walk([&](gpu::GPUModuleOp module) {
      Operation *where = nullptr;
      Type t = findVector(module, where, [](VectorType v) {
        return v.isScalable() || v.getNumElements() > kMaxVectorElements;
      });
      if (!t)
        return WalkResult::advance();
      std::string printed;
      llvm::raw_string_ostream os(printed);
      t.print(os);
      InFlightDiagnostic diag = where->emitError("approx-to-ptx: ");
      if (cast<VectorType>(t).isScalable())
        diag << "scalable vector type " << quoteName(printed)
             << " in gpu.module " << quoteName(module.getName())
             << ": NVPTX has no scalable vectors (use a fixed size)";
      else
        diag << "vector type " << quoteName(printed) << " in gpu.module "
             << quoteName(module.getName()) << " has "
             << cast<VectorType>(t).getNumElements() << " elements; at most "
             << kMaxVectorElements
             << " are supported in device code (a thread has 255 registers)";
      return WalkResult::interrupt();
    });
    if (badVector.wasInterrupted())
      return signalPassFailure();
    // LLVM 22 checks inline asm constraints against the operands only in
    // builds with assertions; NVPTX instruction selection then crashes on a
    // constraint it cannot parse. Its own check, before that.
    llvm::LLVMContext llvmContext;
    LLVM::TypeToLLVMIRTranslator toLLVM(llvmContext);
    WalkResult badAsm = top.walk([&](gpu::GPUModuleOp module) {
      WalkResult inner = module.walk([&](LLVM::InlineAsmOp op) {
        SmallVector<llvm::Type *> params;
        for (Type t : op->getOperandTypes())
          params.push_back(toLLVM.translateType(t));
        llvm::Type *result = op->getNumResults()
                                 ? toLLVM.translateType(op->getResult(0).getType())
                                 : llvm::Type::getVoidTy(llvmContext);
        llvm::Error bad = llvm::InlineAsm::verify(
            llvm::FunctionType::get(result, params, false), op.getConstraints());
        if (!bad)
          return WalkResult::advance();
        op.emitError("approx-to-ptx: inline asm constraints ")
            << quoteName(op.getConstraints()) << " in gpu.module "
            << quoteName(module.getName()) << " do not fit its "
            << params.size() << " operand(s) and "
            << (op->getNumResults() ? "1 result" : "no result") << ": "
            << llvm::toString(std::move(bad));
        return WalkResult::interrupt();
      });
      return inner;
    });
    if (badAsm.wasInterrupted())
      return signalPassFailure();
    LibdeviceSymbols libdeviceSymbols(libdevice);
    WalkResult unresolved = top.walk([&](gpu::GPUModuleOp module) {
      Operation *callee = nullptr;
      CallOpInterface call = findUnresolvedCall(module, libdeviceSymbols, callee);
      if (!call)
        return WalkResult::advance();
      call->emitError("approx-to-ptx: call to ")
          << quoteName(SymbolTable::getSymbolName(callee).getValue())
          << ", which has no body in gpu.module "
          << quoteName(module.getName())
          << " and is no libdevice, LLVM or CUDA driver function: the PTX "
             "would not load (define the function in the gpu.module)";
      return WalkResult::interrupt();
    });
    if (unresolved.wasInterrupted())
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
