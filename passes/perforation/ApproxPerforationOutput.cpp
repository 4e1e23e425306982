//===- ApproxPerforationOutput.cpp - plain kernels -> output perforation --===//
//
// The transparent form of Paraprox-style output perforation, the
// state-of-the-art comparison of kernel perforation: in an unmodified
// kernel that stores one value per thread to out[y][x] (y, x the thread's
// global coordinate), or in one approx-perforation-raise tiled (its rows
// loop stores each output element once), the store becomes an
// approx.perforation.output whose region computes the stored value; only
// the thread the scheme makes responsible for a group of elements runs it
// and stores its value to the group. The computation that depends on
// (y, x) moves into the region, and in a tiled kernel also the reads of the
// tile and what follows them in the store's block, so that the threads
// whose elements are copied skip that work. What it cannot prove it leaves
// alone, with a remark naming the cause (docs/perforation.md, "Output
// perforation").
//
//===----------------------------------------------------------------------===//

#include "KernelPatterns.h"

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXPERFORATIONOUTPUT
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;
using namespace mlir::approx::perforation;

namespace {

/// Used when the `schemes` option is empty.
constexpr const char *kDefaultSchemes[] = {"accurate", "rows1", "cols1",
                                           "center1"};

/// Why `op` (and what it nests) cannot move into the output op's region,
/// which only the responsible threads run: a write or other effect (a
/// barrier among them), a read of the output. Empty when it can. Thread
/// ids may be used: the region runs in the thread whose element it
/// computes.
static std::string whyNotRecomputable(Operation *op, Value out) {
  std::string why;
  op->walk([&](Operation *inner) {
    if (isMemoryEffectFree(inner) || inner->hasTrait<OpTrait::IsTerminator>())
      return WalkResult::advance();
    if (auto load = dyn_cast<memref::LoadOp>(inner)) {
      if (load.getMemRef() != out)
        return WalkResult::advance();
      why = "the stored value reads the output it is stored to";
      return WalkResult::interrupt();
    }
    if (inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    why = "the stored value is computed by '" +
          inner->getName().getStringRef().str() +
          "', which has side effects other than reads";
    return WalkResult::interrupt();
  });
  return why;
}

/// Rewrites the store of one kernel, or says why not.
class KernelRewrite {
public:
  KernelRewrite(gpu::GPUFuncOp func, ArrayAttr schemes, FlatSymbolRefAttr knob)
      : func(func), schemes(schemes), knob(knob) {}

  /// Empty on success; else the remark (emitted at `blame`).
  std::string run(Operation *&blame) {
    std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
    ArrayRef<int32_t> block = known ? *known : ArrayRef<int32_t>{};
    blame = func;
    // A kernel approx-perforation-raise tiled: its one store writes each
    // output element once, at a row of the thread's rows loop.
    func.walk([&](TileLoadOp) { tiled = true; });
    // The one store of a coordinate-indexed value to a 2-D output argument.
    memref::StoreOp store;
    std::string why;
    func.walk([&](memref::StoreOp s) {
      auto arg = dyn_cast<BlockArgument>(s.getMemRef());
      if (!arg || arg.getOwner() != &func.getBody().front() ||
          arg.getArgNumber() >= func.getNumArguments() ||
          s.getIndices().size() != 2 ||
          !isa<FloatType>(s.getValue().getType()))
        return;
      if (!tiled && (!isThreadCoordinate(s.getIndices()[0], 0, block, true) ||
                     !isThreadCoordinate(s.getIndices()[1], 1, block, true)))
        return;
      if (store) {
        why = "the kernel stores to its output at the thread's coordinate "
              "more than once";
        blame = s;
      }
      store = s;
    });
    if (!why.empty())
      return why;
    if (!store)
      return tiled ? "no store of a float to a 2-D argument in tiled kernel '" +
                         func.getName().str() + "'"
                   : "no store of one value per thread to out[y][x] (y, x "
                     "the thread's global coordinate) in kernel '" +
                         func.getName().str() + "'";
    blame = store;
    Value out = store.getMemRef();
    // Nothing else may write the output: the copies would race with it.
    WalkResult other = func.walk([&](Operation *op) {
      if (op == store.getOperation())
        return WalkResult::advance();
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      if (!effects)
        return WalkResult::advance();
      SmallVector<MemoryEffects::EffectInstance> list;
      effects.getEffects(list);
      for (auto &e : list)
        if (isa<MemoryEffects::Write>(e.getEffect()) &&
            (!e.getValue() || e.getValue() == out)) {
          blame = op;
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (other.wasInterrupted())
      return "the output is written by another op too";
    y = store.getIndices()[0];
    x = store.getIndices()[1];
    storeAt = store;
    if (std::string w = collect(store.getValue(), out); !w.empty())
      return w;
    build(store);
    return "";
  }

private:
  /// The ops the stored value needs, and which of them depend on (y, x).
  std::string collect(Value value, Value out) {
    SmallVector<Value> work{value};
    DenseSet<Value> seen;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (v == y || v == x || !seen.insert(v).second)
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || !slice.insert(def))
        continue;
      for (Value operand : def->getOperands())
        work.push_back(operand);
      // Values the op's regions capture from above.
      def->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (!def->isAncestor(operand.getParentRegion()->getParentOp()))
            work.push_back(operand);
      });
    }
    // Program order; an op depends on (y, x) when a value it (or what it
    // nests) uses is y, x or a dependent op's result. In a tiled kernel the
    // ops of the slice in the store's block (the tile's reads and the
    // arithmetic on them) move too: that is the work perforation saves.
    Block *storeBlock = storeAt->getBlock();
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!slice.contains(op))
        return;
      if (tiled && op->getBlock() == storeBlock) {
        order.push_back(op), dependent.insert(op);
        return;
      }
      bool depends = false;
      op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (operand == y || operand == x ||
              (operand.getDefiningOp() &&
               dependent.contains(operand.getDefiningOp())))
            depends = true;
      });
      if (depends)
        order.push_back(op), dependent.insert(op);
    });
    for (Operation *op : slice)
      if (std::string why = whyNotRecomputable(op, out); !why.empty())
        return why;
    return "";
  }

  /// The output op at the store, its region recomputing the value.
  void build(memref::StoreOp store) {
    OpBuilder b(store);
    Location loc = store.getLoc();
    auto op = OutputPerforationOp::create(b, loc, store.getMemRef(), y, x,
                                          schemes, knob);
    Block *body = b.createBlock(&op.getBody(), {},
                                {b.getIndexType(), b.getIndexType()},
                                {loc, loc});
    IRMapping map;
    map.map(y, body->getArgument(0));
    map.map(x, body->getArgument(1));
    for (Operation *dep : order)
      b.clone(*dep, map);
    PerforationYieldOp::create(b, loc, map.lookupOrDefault(store.getValue()));
    store.erase();
    // The originals now feed nothing (reads and pure ops only: checked).
    for (Operation *dep : llvm::reverse(order))
      if (wouldOpBeTriviallyDead(dep))
        dep->erase();
  }

  gpu::GPUFuncOp func;
  ArrayAttr schemes;
  FlatSymbolRefAttr knob;
  Value y, x;
  Operation *storeAt = nullptr;
  bool tiled = false;
  llvm::SetVector<Operation *> slice;
  DenseSet<Operation *> dependent;
  SmallVector<Operation *> order;
};

struct ApproxPerforationOutputPass final
    : mlir::approx::impl::ApproxPerforationOutputBase<
          ApproxPerforationOutputPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto fail = [&](const Twine &msg) {
      module.emitError(msg);
      signalPassFailure();
    };
    std::string why;
    FailureOr<SmallVector<PerforationSchemeAttr>> parsed = parseSchemeList(
        ctx, SmallVector<std::string>(schemes.begin(), schemes.end()),
        kDefaultSchemes, SchemeUse::Output, why);
    if (failed(parsed))
      return fail(why);
    SmallVector<Attribute> list(parsed->begin(), parsed->end());
    if (std::string bad; !isValidPtxIdentifier(knob, &bad))
      return fail("knob name " + quoteName(knob) + " is not an identifier: it " +
                  bad);
    const int64_t n = int64_t(list.size());
    // The knob: created, or an existing one of exactly this range.
    Operation *existing = SymbolTable::lookupSymbolIn(module, knob);
    if (existing) {
      auto k = dyn_cast<KnobOp>(existing);
      if (!k || k.getMin() != 0 || int64_t(k.getMax()) != n - 1)
        return fail("symbol @" + knob + " exists and is not a knob of range "
                    "[0, " + std::to_string(n - 1) + "]; choose another knob=");
    }
    ArrayAttr schemesAttr = ArrayAttr::get(ctx, list);
    auto knobRef = FlatSymbolRefAttr::get(ctx, knob);
    bool any = false;
    for (auto func : llvm::to_vector(module.getOps<gpu::GPUFuncOp>())) {
      if (!func.isKernel())
        continue;
      bool has = false;
      func.walk([&](OutputPerforationOp) { has = true; });
      if (has) {
        func.emitRemark("kernel '") << func.getName()
                                    << "' is already output-perforated";
        continue;
      }
      KernelRewrite rewrite(func, schemesAttr, knobRef);
      Operation *blame = nullptr;
      if (std::string why = rewrite.run(blame); !why.empty()) {
        blame->emitRemark("not output-perforated: ") << why;
        continue;
      }
      any = true;
    }
    if (any && !existing) {
      OpBuilder b(module.getBodyRegion());
      KnobOp::create(b, module.getLoc(), knob, 0, n - 1, 0,
                     /*warp_slot=*/nullptr, /*param_path=*/false,
                     /*values=*/schemesAttr);
    }
  }
};

} // namespace
