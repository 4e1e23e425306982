//===- ApproxHoistLoads.cpp - loads first in warp-split blocks ------------===//
//
// Moves plain loads (with their pure address computation) to the top of
// their stretch of a block between memory writes, in blocks holding split
// approx ops, so that ptxas issues them before precise forms whose
// expansion branches (ApproxHoistLoads in SfuPasses.td says why).
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"
#include "sfu/SplitOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXHOISTLOADS
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

/// True if `op` may write or free memory, or its effects are unknown.
static bool mayWrite(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect());
  });
}

static bool isPlainLoad(Operation *op) {
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    return !load.getVolatile_() &&
           load.getOrdering() == LLVM::AtomicOrdering::not_atomic;
  return isa<memref::LoadOp>(op);
}

/// True if `load` reads shared memory, as far as its address shows: a
/// workgroup memref, or a pointer into address space 3 (through GEPs,
/// casts and clang's addrspacecast to the generic space).
static bool readsSharedMemory(Operation *load) {
  if (auto m = dyn_cast<memref::LoadOp>(load)) {
    Attribute space = m.getMemRefType().getMemorySpace();
    if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space))
      return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
    auto number = dyn_cast_or_null<IntegerAttr>(space);
    return number && number.getInt() == 3;
  }
  Value ptr = cast<LLVM::LoadOp>(load).getAddr();
  for (int depth = 0; ptr && depth < 16; ++depth) {
    if (auto type = dyn_cast<LLVM::LLVMPointerType>(ptr.getType()))
      if (type.getAddressSpace() == 3)
        return true;
    Operation *def = ptr.getDefiningOp();
    if (auto gep = dyn_cast_or_null<LLVM::GEPOp>(def))
      ptr = gep.getBase();
    else if (auto cast = dyn_cast_or_null<LLVM::AddrSpaceCastOp>(def))
      ptr = cast.getArg();
    else
      return false;
  }
  return false;
}

/// An op that may move up with a load it feeds (no write lies between the
/// floor and either): no effects and no regions, or a plain load.
static bool isMovableDependency(Operation *op) {
  return (op->getNumRegions() == 0 && isMemoryEffectFree(op)) ||
         isPlainLoad(op);
}

/// The ops of `block` after `floor` that `load` depends on, in block order;
/// failure if one of them cannot move.
static FailureOr<SmallVector<Operation *>>
dependencies(Operation *load, Operation *floor, Block &block) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> work{load};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def)
        continue;
      Operation *inBlock = block.findAncestorOpInBlock(*def);
      if (!inBlock || (floor && !floor->isBeforeInBlock(inBlock)))
        continue; // outside the block, or at or before the floor
      if (inBlock != def || !isMovableDependency(def))
        return failure();
      if (slice.insert(def))
        work.push_back(def);
    }
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return ordered;
}

static void hoistLoads(Block &block, unsigned maxLoads) {
  // `cursor`: where the next hoisted op goes after (null: block start).
  Operation *floor = nullptr, *cursor = nullptr;
  unsigned hoisted = 0; // loads moved since `floor`
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  auto place = [&](Operation *op) {
    if (cursor)
      op->moveAfter(cursor);
    else
      op->moveBefore(&block, block.begin());
    cursor = op;
  };
  for (Operation *op : ops) {
    if (op->hasTrait<OpTrait::IsTerminator>())
      break;
    if (mayWrite(op)) {
      floor = cursor = op;
      hoisted = 0;
      continue;
    }
    // Shared-memory loads are short; moving them up only holds registers.
    if (!isPlainLoad(op) || readsSharedMemory(op))
      continue;
    FailureOr<SmallVector<Operation *>> deps = dependencies(op, floor, block);
    if (failed(deps))
      continue;
    // Already at the cursor but for its own address arithmetic: it stays,
    // and the next load goes after it.
    llvm::SmallPtrSet<Operation *, 8> own(deps->begin(), deps->end());
    Operation *between = cursor ? cursor->getNextNode() : &block.front();
    while (between != op && own.contains(between))
      between = between->getNextNode();
    if (between == op) {
      cursor = op;
      continue;
    }
    if (hoisted == maxLoads)
      continue;
    for (Operation *dep : *deps)
      if (!cursor || cursor->isBeforeInBlock(dep))
        place(dep);
    place(op);
    ++hoisted;
  }
}

namespace {
struct ApproxHoistLoadsPass final
    : public approx::impl::ApproxHoistLoadsBase<ApproxHoistLoadsPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::SetVector<Block *> blocks;
    getOperation().walk([&](Operation *op) {
      if (isWarpSplitOp(op))
        blocks.insert(op->getBlock());
    });
    for (Block *block : blocks)
      hoistLoads(*block, maxLoads);
  }
};
} // namespace
