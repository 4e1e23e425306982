//===- ApproxPerforationRaise.cpp - plain stencils -> tile loads ----------===//
//
// The transparent pass: finds, in an unmodified kernel, the window loads of
// each 2-D input array -- in[clamp(y+dy)][clamp(x+dx)], or the zero-border
// form, at constant offsets around the thread's global coordinate -- and
// rewrites them into one approx.perforation.tile_load per array at the start
// of the kernel plus reads of its workgroup buffer. Every load it replaces
// reads, from the buffer, the value it read from global memory wherever
// that read was in bounds, so with the `accurate` scheme the kernel computes
// what it computed before, bit for bit. What it cannot prove it leaves
// alone, with a remark naming the cause. Optionally it clones each kernel
// per block shape behind an approx.variant_knob (docs/perforation.md, "The
// transparent pass").
//
//===----------------------------------------------------------------------===//

#include "KernelPatterns.h"

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXPERFORATIONRAISE
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;
using namespace mlir::approx::perforation;

namespace {

/// The static shared memory one block may declare without opting in (the
/// tile_load verifier's bound, here for all buffers of a kernel together).
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
/// Used when the `schemes` option is empty.
constexpr const char *kDefaultSchemes[] = {
    "accurate", "rows1:nn", "rows1:linear", "rows2:nn", "stencil:nn"};

/// An index expression: the thread's global coordinate along `axis` (-1:
/// none) plus a constant.
struct Affine {
  int axis = -1;
  int64_t offset = 0;
};

/// A block shape: X x Y threads, each computing K rows of outputs (the
/// tile is X x (Y*K)).
struct Shape {
  int64_t x = 0, y = 0, k = 1;
  bool operator==(const Shape &o) const {
    return x == o.x && y == o.y && k == o.k;
  }
  /// "32x8", or "32x8r4" with K > 1 (the clone's suffix).
  std::string name() const {
    return std::to_string(x) + "x" + std::to_string(y) +
           (k > 1 ? "r" + std::to_string(k) : "");
  }
};

/// One window load to replace: the memref.load (llvm.load in a CUDA
/// front-door kernel), or the scf.if of the zero-border form (whose result
/// is the loaded value or 0).
struct Access {
  Operation *op;
  int64_t dy, dx;
};

/// One input array of a kernel and its window: a 2-D memref argument, or
/// an !llvm.ptr argument read as in[row * W + col] (CUDA front door).
struct ArrayPlan {
  BlockArgument arg;
  Type element;
  SmallVector<Access> accesses;
  int64_t hy = 0, hx = 0;
  bool clamped = false; ///< some load clamps its coordinates
  bool zero = false;    ///< some load is in the zero-border form
};

/// The window analysis of one kernel.
struct KernelPlan {
  SmallVector<ArrayPlan> arrays;
  /// The integer kernel arguments holding the image's height and width
  /// (row pitch), when some array is a pointer.
  Value height, width;
};

/// A refusal: the op to blame and why.
struct Refusal {
  Operation *at = nullptr;
  std::string why;
};

/// The SSA name of `v` as the kernel prints it (%arg0, %5).
static std::string nameOf(Value v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  v.printAsOperand(os, OpPrintingFlags());
  return s;
}

/// The integer argument of `func`'s entry block `v` is (through casts), or
/// null.
static BlockArgument integerArgument(gpu::GPUFuncOp func, Value v) {
  auto arg = dyn_cast<BlockArgument>(stripIntCasts(v));
  if (!arg || arg.getOwner() != &func.getBody().front() ||
      arg.getArgNumber() >= func.getNumArguments() ||
      !isa<IntegerType>(arg.getType()))
    return nullptr;
  return arg;
}

/// Recognises the pieces of window indices in one kernel.
class WindowMatcher {
public:
  /// `known` is the kernel's known_block_size (X, Y, Z); with `constOk` a
  /// constant equal to it stands for gpu.block_dim (not when the kernel is
  /// cloned to other block shapes).
  WindowMatcher(gpu::GPUFuncOp func, ArrayRef<int32_t> known, bool constOk)
      : func(func), known(known), constOk(constOk) {}

  static bool isConstant(Value v, int64_t c) {
    APInt value;
    return matchPattern(stripIntCasts(v), m_ConstantInt(&value)) &&
           value.getSExtValue() == c;
  }

  /// The thread's global coordinate along the axis (KernelPatterns.h).
  bool isGlobal(Value v, int axis, bool allowConst) const {
    return isThreadCoordinate(v, axis, known, allowConst);
  }

  /// A coordinate plus a constant, through add / sub and integer casts;
  /// nullopt otherwise.
  std::optional<Affine> affine(Value v) const {
    v = stripIntCasts(v);
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      return Affine{-1, value.getSExtValue()};
    for (int axis : {0, 1})
      if (isGlobal(v, axis, constOk))
        return Affine{axis, 0};
    if (auto add = matchAdd(v)) {
      auto l = affine(add->first), r = affine(add->second);
      if (!l || !r || (l->axis >= 0 && r->axis >= 0))
        return std::nullopt;
      return Affine{std::max(l->axis, r->axis), l->offset + r->offset};
    }
    if (auto sub = matchSub(v)) {
      auto l = affine(sub->first), r = affine(sub->second);
      if (!l || !r || r->axis >= 0)
        return std::nullopt;
      return Affine{l->axis, l->offset - r->offset};
    }
    return std::nullopt;
  }

  /// Whether a global coordinate occurs in v's add/sub/mul tree, and
  /// whether only through a constant block size (`viaConst`).
  bool mentionsGlobal(Value v, bool &viaConst, int depth = 0) const {
    if (depth > 8)
      return false;
    v = stripIntCasts(v);
    for (int axis : {0, 1}) {
      if (isGlobal(v, axis, /*allowConst=*/false))
        return true;
      if (isGlobal(v, axis, /*allowConst=*/true)) {
        viaConst = true;
        return true;
      }
    }
    auto ops = matchAdd(v);
    if (!ops)
      ops = matchSub(v);
    if (!ops)
      ops = matchMul(v);
    return ops && (mentionsGlobal(ops->first, viaConst, depth + 1) ||
                   mentionsGlobal(ops->second, viaConst, depth + 1));
  }

  /// The image's extent along the axis: memref.dim of a 2-D kernel argument
  /// (the arrays are assumed to have the same sizes, so any of them will
  /// do), or, in a kernel reading pointers, an integer kernel argument --
  /// the first one seen along the axis, and then always that one.
  bool isExtent(Value v, int axis) const {
    if (auto dim = v.getDefiningOp<memref::DimOp>()) {
      auto arg = dyn_cast<BlockArgument>(dim.getSource());
      std::optional<int64_t> index = dim.getConstantIndex();
      return arg && arg.getOwner() == &func.getBody().front() &&
             arg.getArgNumber() < func.getNumArguments() &&
             cast<MemRefType>(arg.getType()).getRank() == 2 && index &&
             *index == axis;
    }
    if (!pointers)
      return false;
    BlockArgument arg = integerArgument(func, v);
    if (!arg)
      return false;
    if (!extent[axis])
      extent[axis] = arg;
    return extent[axis] == arg;
  }

  /// extent - 1 (sub of 1 or add of -1).
  bool isLast(Value v, int axis) const {
    v = stripIntCasts(v);
    if (auto sub = matchSub(v))
      return isExtent(sub->first, axis) && isConstant(sub->second, 1);
    if (auto add = matchAdd(v))
      return (isExtent(add->first, axis) && isConstant(add->second, -1)) ||
             (isExtent(add->second, axis) && isConstant(add->first, -1));
    return false;
  }

  /// Strips min(max(e, 0), n-1) or max(min(e, n-1), 0) (either operand
  /// order; arith.minsi / maxsi or llvm.intr.smin / smax): the clamped
  /// expression, or v itself when it is no clamp. nullopt for a min/max
  /// with other bounds.
  std::optional<Value> stripClamp(Value v, int axis, bool &clamped) const {
    clamped = false;
    v = stripIntCasts(v);
    auto isMin = [](Operation *op) {
      return isa_and_nonnull<arith::MinSIOp, LLVM::SMinOp>(op);
    };
    auto isMax = [](Operation *op) {
      return isa_and_nonnull<arith::MaxSIOp, LLVM::SMaxOp>(op);
    };
    auto inner = [&](Operation *op, auto boundOk) -> Value {
      if (boundOk(op->getOperand(1)))
        return op->getOperand(0);
      if (boundOk(op->getOperand(0)))
        return op->getOperand(1);
      return nullptr;
    };
    auto isZero = [](Value b) { return isConstant(b, 0); };
    auto isHi = [&](Value b) { return isLast(b, axis); };
    Operation *outer = v.getDefiningOp();
    if (!isMin(outer) && !isMax(outer))
      return v;
    bool minOuter = isMin(outer);
    Value mid = minOuter ? inner(outer, isHi) : inner(outer, isZero);
    if (!mid)
      return std::nullopt;
    Operation *in = stripIntCasts(mid).getDefiningOp();
    if (minOuter ? !isMax(in) : !isMin(in))
      return std::nullopt;
    Value e = minOuter ? inner(in, isZero) : inner(in, isHi);
    if (!e)
      return std::nullopt;
    clamped = true;
    return e;
  }

  /// One index of a load of `array` along `axis`: its offset, whether it
  /// is clamped.
  FailureOr<int64_t> index(Value v, int axis, Value array, Operation *load,
                           bool &clamped, Refusal &refusal) const {
    StringRef what = axis == 0 ? "row" : "column";
    StringRef coord = axis == 0 ? "y" : "x";
    auto fail = [&](const Twine &why) {
      refusal = {load, why.str()};
      return failure();
    };
    std::optional<Value> e = stripClamp(v, axis, clamped);
    if (!e)
      return fail("load of " + nameOf(array) + " is not a " +
                  "window load: its " + what + " index " + nameOf(v) +
                  " is a min/max that is not the clamp to [0, " +
                  (axis == 0 ? "H" : "W") + "-1]");
    std::optional<Affine> a = affine(*e);
    if (a && a->axis == axis)
      return a->offset;
    if (a && a->axis >= 0)
      return fail("load of " + nameOf(array) + " is not a " +
                  "window load: its " + what + " index " + nameOf(*e) +
                  " follows the thread's " + (axis == 0 ? "x" : "y"));
    bool viaConst = false;
    if (!a && mentionsGlobal(*e, viaConst)) {
      if (viaConst && !constOk)
        return fail("the " + what + " index " + nameOf(*e) + " uses the " +
                    "block size as a constant; with block-shapes the kernel " +
                    "must use gpu.block_dim");
      return fail("the " + what + " offset of " + nameOf(*e) +
                  " is not a constant (data-dependent)");
    }
    return fail("load of " + nameOf(array) + " is not a " +
                "window load: its " + what + " index " + nameOf(*e) +
                " is not the thread's global " + coord + " (block_id * " +
                "block_dim + thread_id) plus a constant");
  }

  mutable gpu::GPUFuncOp func;
  ArrayRef<int32_t> known;
  bool constOk;
  /// Whether the kernel reads a pointer argument (its extents are then
  /// integer arguments, found as the analysis goes).
  bool pointers = false;
  mutable BlockArgument extent[2];
};

/// The predicate of the comparison with its operands swapped.
static arith::CmpIPredicate swapped(arith::CmpIPredicate p) {
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::slt:
    return P::sgt;
  case P::sgt:
    return P::slt;
  case P::sle:
    return P::sge;
  case P::sge:
    return P::sle;
  case P::ult:
    return P::ugt;
  case P::ugt:
    return P::ult;
  case P::ule:
    return P::uge;
  case P::uge:
    return P::ule;
  default:
    return p;
  }
}

/// Whether `cond`, an and-tree of cmpi, says exactly "(row, col) lies in
/// the image" for a load at `row` / `col` (each bound either checked or
/// left out; any other comparison makes it no zero-border guard).
static bool isInImageCondition(const WindowMatcher &m, Value cond, Affine row,
                               Affine col) {
  if (auto band = matchAnd(cond))
    return isInImageCondition(m, band->first, row, col) &&
           isInImageCondition(m, band->second, row, col);
  using P = arith::CmpIPredicate;
  Value lhs, rhs;
  P predicate;
  if (auto cmp = cond.getDefiningOp<arith::CmpIOp>()) {
    lhs = cmp.getLhs();
    rhs = cmp.getRhs();
    predicate = cmp.getPredicate();
  } else if (auto icmp = cond.getDefiningOp<LLVM::ICmpOp>()) {
    // Same predicate names in both dialects.
    std::optional<P> p = arith::symbolizeCmpIPredicate(
        LLVM::stringifyICmpPredicate(icmp.getPredicate()));
    if (!p)
      return false;
    lhs = icmp.getLhs();
    rhs = icmp.getRhs();
    predicate = *p;
  } else {
    return false;
  }
  auto same = [&](Value v, int axis) {
    std::optional<Affine> a = m.affine(v);
    Affine want = axis == 0 ? row : col;
    return a && a->axis == want.axis && a->offset == want.offset;
  };
  // Normalise to `e pred bound` with e an index of the load.
  for (int axis : {0, 1}) {
    Value e = lhs, bound = rhs;
    P pred = predicate;
    if (!same(e, axis)) {
      std::swap(e, bound);
      pred = swapped(pred);
      if (!same(e, axis))
        continue;
    }
    bool lower = (pred == P::sge && WindowMatcher::isConstant(bound, 0)) ||
                 (pred == P::sgt && WindowMatcher::isConstant(bound, -1));
    bool upper =
        ((pred == P::slt || pred == P::ult) && m.isExtent(bound, axis)) ||
        (pred == P::sle && m.isLast(bound, axis));
    if (lower || upper)
      return true;
  }
  return false;
}

/// A load's element offset from its pointer argument: the sum of `addends`
/// plus `constant`.
struct LinearAddress {
  SmallVector<Value> addends;
  int64_t constant = 0;
};

/// Adds v's add tree (through casts) to `out`, folding constants; the
/// thread's coordinate (itself an add) stays one addend.
static void flattenSum(Value v, LinearAddress &out) {
  v = stripIntCasts(v);
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c))) {
    out.constant += c.getSExtValue();
    return;
  }
  bool coordinate = isThreadCoordinate(v, 0, {}, false) ||
                    isThreadCoordinate(v, 1, {}, false);
  if (auto add = matchAdd(v); add && !coordinate) {
    flattenSum(add->first, out);
    flattenSum(add->second, out);
    return;
  }
  out.addends.push_back(v);
}

/// The element offset of `address` from `arg`: a chain of one-index GEPs
/// over `element`, or constant byte offsets that are whole elements (LLVM
/// folds `p[i + 1]` into `&p[i]` plus 4 bytes). Failure for anything else.
static FailureOr<LinearAddress> linearAddress(Value address, Value arg,
                                              Type element) {
  LinearAddress out;
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  while (address != arg) {
    auto gep = address.getDefiningOp<LLVM::GEPOp>();
    if (!gep || gep.getIndices().size() != 1)
      return failure();
    auto index = *gep.getIndices().begin();
    Type step = gep.getElemType();
    if (step == element) {
      if (auto attr = dyn_cast<IntegerAttr>(index))
        out.constant += attr.getInt();
      else
        flattenSum(cast<Value>(index), out);
    } else if (step.isInteger(8)) {
      APInt c;
      int64_t offset;
      if (auto attr = dyn_cast<IntegerAttr>(index))
        offset = attr.getInt();
      else if (matchPattern(cast<Value>(index), m_ConstantInt(&c)))
        offset = c.getSExtValue();
      else
        return failure();
      if (offset % bytes)
        return failure();
      out.constant += offset / bytes;
    } else {
      return failure();
    }
    address = gep.getBase();
  }
  return out;
}

/// Splits a pointer load's address into row * W + column: the one addend
/// that multiplies an integer kernel argument (W, the row pitch) by the
/// row index. The rest, addends and constant, is the column.
static bool splitRowMajor(gpu::GPUFuncOp func, LinearAddress &address,
                          Value &row, BlockArgument &width) {
  for (auto it = address.addends.begin(); it != address.addends.end(); ++it) {
    auto mul = matchMul(*it);
    if (!mul)
      continue;
    for (auto [r, w] : {*mul, std::make_pair(mul->second, mul->first)}) {
      BlockArgument arg = integerArgument(func, w);
      if (!arg || integerArgument(func, r))
        continue;
      row = r;
      width = arg;
      address.addends.erase(it);
      return true;
    }
  }
  return false;
}

/// The integer kernel argument the thread's coordinate along `axis` is
/// compared with (`y < h`, `y >= h - 1`, ...) in `func`, when there is
/// exactly one: the extent of a kernel whose loads neither clamp nor guard
/// that axis.
static BlockArgument guardedExtent(gpu::GPUFuncOp func, const WindowMatcher &m,
                                   int axis) {
  SetVector<BlockArgument> found;
  auto consider = [&](Value e, Value bound) {
    std::optional<Affine> a = m.affine(e);
    if (!a || a->axis != axis)
      return;
    // h, h - c or h + c.
    bound = stripIntCasts(bound);
    APInt c;
    auto isConst = [&](Value v) {
      return matchPattern(stripIntCasts(v), m_ConstantInt(&c));
    };
    if (auto add = matchAdd(bound)) {
      if (isConst(add->second))
        bound = add->first;
      else if (isConst(add->first))
        bound = add->second;
      else
        return;
    } else if (auto sub = matchSub(bound)) {
      if (!isConst(sub->second))
        return;
      bound = sub->first;
    }
    if (BlockArgument arg = integerArgument(func, bound))
      found.insert(arg);
  };
  func.walk([&](Operation *op) {
    if (isa<arith::CmpIOp, LLVM::ICmpOp>(op)) {
      consider(op->getOperand(0), op->getOperand(1));
      consider(op->getOperand(1), op->getOperand(0));
    }
  });
  return found.size() == 1 ? found.front() : nullptr;
}

/// The window loads of one pointer argument (CUDA front door): llvm.loads
/// through GEPs of it, in program order; `other` is the first other use.
/// Empty when no load reads it as a 2-D array (row * W + column): a 1-D
/// input, an output, or an argument the pass does not touch.
static SmallVector<LLVM::LoadOp> pointerLoads(gpu::GPUFuncOp func,
                                              BlockArgument arg,
                                              Operation *&other) {
  SmallVector<LLVM::LoadOp> loads;
  DenseSet<Value> derived = {arg};
  other = nullptr;
  func.walk([&](Operation *op) {
    if (other || llvm::none_of(op->getOperands(), [&](Value v) {
          return derived.contains(v);
        }))
      return;
    if (auto gep = dyn_cast<LLVM::GEPOp>(op);
        gep && derived.contains(gep.getBase()) &&
        llvm::none_of(gep.getDynamicIndices(),
                      [&](Value v) { return derived.contains(v); })) {
      derived.insert(gep.getResult());
      return;
    }
    if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
      loads.push_back(load);
      return;
    }
    other = op;
  });
  return loads;
}

/// Whether `t` is an element type a tile buffer holds.
static bool isTileElement(Type t) {
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64();
}

static std::string typeName(Type t) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << t;
  return name;
}

/// The loads of one 2-D array argument, in program order (so that a remark
/// names the first offending op), with their (row, column) indices and a
/// constant added to each column (pointers: row * W + col + c); `other`, an
/// op that uses the array otherwise. No loads: not read as a 2-D array.
struct ArrayLoads {
  SmallVector<Operation *> loads;
  SmallVector<std::pair<Value, Value>> indices;
  SmallVector<int64_t> columnShift;
  Operation *other = nullptr;
  Type element;
};

/// The loads of pointer argument `arg`: every one must address
/// arg[row * W + column] with W the image width, be plain (not volatile or
/// atomic) and of one element type, and its column be one index expression
/// (plus a constant) or the thread's x plus constants.
static LogicalResult pointerArrayLoads(gpu::GPUFuncOp func, BlockArgument arg,
                                       WindowMatcher &m, ArrayLoads &out,
                                       Refusal &refusal) {
  SmallVector<LLVM::LoadOp> raw = pointerLoads(func, arg, out.other);
  SmallVector<LinearAddress> addresses;
  bool any2D = false;
  Operation *flat = nullptr; // a load not of the form row * W + col
  for (LLVM::LoadOp load : raw) {
    FailureOr<LinearAddress> a =
        linearAddress(load.getAddr(), arg, load.getType());
    Value row;
    BlockArgument width;
    if (succeeded(a) && splitRowMajor(func, *a, row, width)) {
      any2D = true;
      if (!m.isExtent(width, 1)) {
        refusal = {load, "load of " + nameOf(arg) + " has row pitch " +
                             nameOf(width) + " but the image width is " +
                             nameOf(m.extent[1])};
        return failure();
      }
      out.loads.push_back(load);
      out.indices.push_back({row, nullptr});
      addresses.push_back(*a);
    } else if (!flat) {
      flat = load;
    }
  }
  if (!any2D) {
    out.loads.clear(); // not read as a 2-D array
    return success();
  }
  if (flat) {
    refusal = {flat, "load of " + nameOf(arg) + " is not a window load: " +
                         "its address is not " + nameOf(arg) +
                         "[row * W + column]"};
    return failure();
  }
  out.element = raw.front().getType();
  for (LLVM::LoadOp load : raw) {
    if (load.getVolatile_() ||
        load.getOrdering() != LLVM::AtomicOrdering::not_atomic) {
      refusal = {load, "load of " + nameOf(arg) +
                           " is volatile or atomic; a tile load may not "
                           "replace it"};
      return failure();
    }
    if (load.getType() != out.element) {
      refusal = {load, "array " + nameOf(arg) + " is loaded as both " +
                           typeName(out.element) + " and " +
                           typeName(load.getType())};
      return failure();
    }
  }
  // The column: one index expression (plus a constant), or a sum of
  // unclamped pieces that is the thread's x plus constants.
  for (auto [k, a] : llvm::enumerate(addresses)) {
    out.columnShift.push_back(a.constant);
    if (a.addends.size() == 1) {
      out.indices[k].second = a.addends.front();
      continue;
    }
    Value x;
    for (Value addend : a.addends) {
      std::optional<Affine> piece = m.affine(addend);
      if (piece && piece->axis == 1 && !x) {
        x = addend;
        continue;
      }
      if (piece && piece->axis == -1) {
        out.columnShift[k] += piece->offset;
        continue;
      }
      bool clamped = false;
      if (failed(m.index(addend, 1, arg, out.loads[k], clamped, refusal)))
        return failure();
      x = nullptr;
      break;
    }
    if (!x) {
      refusal = {out.loads[k], "load of " + nameOf(arg) + " is not a window " +
                                   "load: its column is not the thread's x " +
                                   "plus a constant"};
      return failure();
    }
    out.indices[k].second = x;
  }
  return success();
}

/// The memref.loads of memref argument `arg` (memref.dim aside).
static void memrefArrayLoads(gpu::GPUFuncOp func, BlockArgument arg,
                             MemRefType type, ArrayLoads &out) {
  func.walk([&](Operation *op) {
    if (out.other || !llvm::is_contained(op->getOperands(), Value(arg)) ||
        isa<memref::DimOp>(op))
      return;
    auto load = dyn_cast<memref::LoadOp>(op);
    if (load && load.getMemRef() == arg) {
      out.loads.push_back(load);
      out.indices.push_back({load.getIndices()[0], load.getIndices()[1]});
      out.columnShift.push_back(0);
    } else {
      out.other = op;
    }
  });
  out.element = type.getElementType();
}

/// The zero-border form of an unclamped load at offset (dy, dx): scf.if (in
/// image) { load } else { +0.0 }, with nothing else in either branch but
/// pure ops; its scf.if, or null.
static scf::IfOp zeroBorderGuard(const WindowMatcher &m, Operation *load,
                                 int64_t dy, int64_t dx) {
  Value result = load->getResult(0);
  auto guard = dyn_cast<scf::IfOp>(load->getParentOp());
  if (guard && guard.getNumResults() == 1 &&
      load->getBlock() == guard.thenBlock() &&
      guard.thenYield().getOperand(0) == result && guard.elseBlock() &&
      matchPattern(guard.elseYield().getOperand(0), m_PosZeroFloat()) &&
      llvm::all_of(guard.thenBlock()->without_terminator(),
                   [&](Operation &op) { return &op == load || isPure(&op); }) &&
      llvm::all_of(guard.elseBlock()->without_terminator(),
                   [](Operation &op) { return isPure(&op); }) &&
      isInImageCondition(m, guard.getCondition(), Affine{0, dy},
                         Affine{1, dx}))
    return guard;
  return nullptr;
}

/// The plan of one array from its loads: each load's window offset, the
/// border form (clamped indices, or zero outside the image; not both) and
/// the halo.
static FailureOr<ArrayPlan> planArray(WindowMatcher &m, BlockArgument arg,
                                      const ArrayLoads &l, Refusal &refusal) {
  ArrayPlan array;
  array.arg = arg;
  array.element = l.element;
  for (auto [k, load] : llvm::enumerate(l.loads)) {
    bool clampY = false, clampX = false;
    FailureOr<int64_t> dy =
        m.index(l.indices[k].first, 0, arg, load, clampY, refusal);
    if (failed(dy))
      return failure();
    FailureOr<int64_t> dx =
        m.index(l.indices[k].second, 1, arg, load, clampX, refusal);
    if (failed(dx))
      return failure();
    if (clampX && l.columnShift[k] != 0) {
      refusal = {load, "load of " + nameOf(arg) + " is not a window load: " +
                           "a constant is added to its clamped column"};
      return failure();
    }
    *dx += l.columnShift[k];
    Access access{load, *dy, *dx};
    // The zero-border form is replaced as a whole (the tile holds 0 outside
    // the image). Any other branch around a load stays, and only the load
    // is replaced.
    scf::IfOp guard;
    if (!clampY && !clampX)
      guard = zeroBorderGuard(m, load, *dy, *dx);
    if (guard)
      access.op = guard;
    array.clamped |= clampY || clampX;
    array.zero |= bool(guard);
    if (array.clamped && array.zero) {
      refusal = {load, "array " + nameOf(arg) + " mixes border forms: " +
                           "some loads clamp, some are zero outside the " +
                           "image"};
      return failure();
    }
    array.hy = std::max(array.hy, std::abs(*dy));
    array.hx = std::max(array.hx, std::abs(*dx));
    array.accesses.push_back(access);
  }
  return array;
}

/// The analysis of one kernel's window loads, independent of block shape.
static FailureOr<KernelPlan> analyzeKernel(gpu::GPUFuncOp func,
                                           ArrayRef<int32_t> known,
                                           bool constOk, Refusal &refusal) {
  KernelPlan plan;
  WindowMatcher m(func, known, constOk);
  m.pointers = llvm::any_of(func.getArgumentTypes(),
                            llvm::IsaPred<LLVM::LLVMPointerType>);
  Block &entry = func.getBody().front();
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    BlockArgument arg = entry.getArgument(i);
    bool pointer = isa<LLVM::LLVMPointerType>(arg.getType());
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!pointer &&
        (!type || type.getRank() != 2 || !isa<FloatType>(type.getElementType())))
      continue;
    ArrayLoads l;
    if (pointer) {
      if (failed(pointerArrayLoads(func, arg, m, l, refusal)))
        return failure();
    } else {
      memrefArrayLoads(func, arg, type, l);
    }
    if (l.loads.empty())
      continue; // an output, or an array the pass does not touch
    if (l.other) {
      refusal = {l.other, "array " + nameOf(arg) +
                              " is loaded and also used by '" +
                              l.other->getName().getStringRef().str() +
                              "'; a tile loaded at the kernel's start is "
                              "only exact for a read-only input"};
      return failure();
    }
    if (!isTileElement(l.element)) {
      refusal = {l.loads.front(), "array " + nameOf(arg) +
                                      " has element type " +
                                      typeName(l.element) +
                                      ", not f16, bf16, f32 or f64"};
      return failure();
    }
    FailureOr<ArrayPlan> array = planArray(m, arg, l, refusal);
    if (failed(array))
      return failure();
    plan.arrays.push_back(std::move(*array));
  }
  if (plan.arrays.empty()) {
    refusal = {func, "kernel @" + func.getName().str() + " loads no 2-D " +
                         "float array argument: nothing to perforate"};
    return failure();
  }
  if (m.pointers && llvm::any_of(plan.arrays, [](const ArrayPlan &a) {
        return isa<LLVM::LLVMPointerType>(a.arg.getType());
      })) {
    // The view of a pointer needs the image's height: from the row clamps
    // or guards of the loads, else from the kernel's bounds check.
    plan.width = m.extent[1];
    plan.height = m.extent[0] ? m.extent[0] : guardedExtent(func, m, 0);
    if (!plan.height) {
      refusal = {func, "kernel @" + func.getName().str() + " reads pointer " +
                           "arrays, and the image height is not known: " +
                           "clamp the row index to [0, h-1], or compare the " +
                           "thread's y with one height argument"};
      return failure();
    }
  }
  return plan;
}

/// The schemes of one array: `stencil` on a tile without halo skips
/// nothing, which the verifier spells `accurate` (same loads, same values).
static ArrayAttr schemesFor(MLIRContext *ctx,
                            ArrayRef<PerforationSchemeAttr> schemes,
                            bool noHalo) {
  SmallVector<Attribute> list;
  for (PerforationSchemeAttr s : schemes)
    list.push_back(noHalo && s.getKind() == PerforationKind::stencil
                       ? PerforationSchemeAttr::get(ctx,
                                                    PerforationKind::accurate,
                                                    1, Reconstruction::nn)
                       : s);
  return ArrayAttr::get(ctx, list);
}

/// Where a tile buffer's rows start: `lead` elements of padding before each
/// row and rows `pitch` elements apart. approx-perforation-lower's vector
/// fetch stores 16 bytes at a time where each row's interior starts
/// 16-byte aligned in the buffer; with a halo of hx columns that takes a
/// lead of (16 bytes - hx) mod 16 bytes and a pitch rounded up to 16 bytes
/// (a 32-column f32 tile with halo 1: 3 + 34 -> 40 elements a row). The
/// padding is never read.
struct BufferLayout {
  int64_t lead, pitch;
};
static BufferLayout bufferLayout(Type element, int64_t tileCols,
                                 int64_t haloCols) {
  const int64_t cols = tileCols + 2 * haloCols;
  const unsigned bits = element.getIntOrFloatBitWidth();
  if (bits < 8 || 128 % bits)
    return {0, cols};
  const int64_t v = 128 / bits;
  if (tileCols % v)
    return {0, cols};
  const int64_t lead = (v - haloCols % v) % v;
  return {lead, (lead + cols + v - 1) / v * v};
}

/// The checks that depend on the block shape (bx x by threads): halo no
/// larger than the tile, buffers within static shared memory, every
/// scheme fits each buffer -- the tile_load verifier's rules.
static LogicalResult checkShape(gpu::GPUFuncOp func, const KernelPlan &plan,
                                int64_t bx, int64_t by,
                                ArrayRef<PerforationSchemeAttr> schemes,
                                Refusal &refusal) {
  std::string shape = std::to_string(bx) + "x" + std::to_string(by);
  int64_t bytes = 0;
  for (BlockArgument wg : func.getWorkgroupAttributions()) {
    auto type = dyn_cast<MemRefType>(wg.getType());
    if (type && type.hasStaticShape())
      bytes += type.getNumElements() *
               (type.getElementType().getIntOrFloatBitWidth() / 8);
  }
  for (const ArrayPlan &a : plan.arrays) {
    if (a.hy > by || a.hx > bx) {
      refusal = {func, "halo (" + std::to_string(a.hy) + ", " +
                           std::to_string(a.hx) + ") of " + nameOf(a.arg) +
                           " is larger than the " + std::to_string(by) + " x " +
                           std::to_string(bx) + " tile of block " + shape};
      return failure();
    }
    int64_t rows = by + 2 * a.hy, cols = bx + 2 * a.hx;
    bytes += rows * bufferLayout(a.element, bx, a.hx).pitch *
             (a.element.getIntOrFloatBitWidth() / 8);
    for (PerforationSchemeAttr s : schemes) {
      int64_t span = s.getSkip() + 1;
      bool tooFew = (s.getKind() == PerforationKind::rows && span > rows) ||
                    (s.getKind() == PerforationKind::cols && span > cols);
      if (tooFew) {
        refusal = {
            func,
            "scheme " + s.getShortName() + " needs " + std::to_string(span) +
                " buffer " +
                (s.getKind() == PerforationKind::rows ? "rows" : "columns") +
                "; the " + std::to_string(rows) + " x " + std::to_string(cols) +
                " buffer of " + nameOf(a.arg) + " (block " + shape +
                ") has fewer"};
        return failure();
      }
    }
  }
  if (bytes > kMaxStaticSharedBytes) {
    refusal = {func, "tile buffers of @" + func.getName().str() + " (block " +
                         shape + ") need " + std::to_string(bytes) +
                         " bytes of shared memory; a block's static shared "
                         "memory is at most " +
                         std::to_string(kMaxStaticSharedBytes) + " bytes"};
    return failure();
  }
  return success();
}

/// Erases the index arithmetic (and, in front-door kernels, the address
/// arithmetic) the replaced loads leave dead.
static void eraseDeadIndexOps(gpu::GPUFuncOp func) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> dead;
    func.walk([&](Operation *op) {
      if (isa_and_nonnull<arith::ArithDialect, LLVM::LLVMDialect>(
              op->getDialect()) ||
          isa<memref::DimOp, gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp,
              gpu::GlobalIdOp, NVVM::ThreadIdXOp, NVVM::ThreadIdYOp,
              NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockDimXOp,
              NVVM::BlockDimYOp>(op))
        if (isOpTriviallyDead(op))
          dead.push_back(op);
    });
    for (Operation *op : llvm::reverse(dead))
      if (op->use_empty()) {
        op->erase();
        changed = true;
      }
  }
}

/// Rewrites an analysed kernel for a block of bx x by threads: buffers,
/// tile loads at the start of the body, buffer reads for the window loads.
/// With k > 1 rows per thread: everything after the tile loads (the
/// per-output work) becomes the body of `scf.for %i = 0 to k`, in which the
/// thread's y is thread_id y + i*by and the block's y is block_id y * k (so
/// its global y, and its buffer row, move down by i*by). One barrier-bound
/// tile load then serves k outputs per thread. The caller checked that the
/// body holds no barrier.
static void coarsenRows(gpu::GPUFuncOp func, int64_t by, int64_t k) {
  Block &body = func.getBody().front();
  Operation *lastLoad = nullptr;
  for (Operation &op : body)
    if (isa<TileLoadOp>(op))
      lastLoad = &op;
  Location loc = func.getLoc();
  OpBuilder b(&body, std::next(lastLoad->getIterator()));
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value bidK = arith::MulIOp::create(
      b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::y), idx(k));
  Value cby = idx(by);
  auto loop = scf::ForOp::create(b, loc, idx(0), idx(k), idx(1));
  SmallVector<Operation *> work;
  for (auto it = std::next(Block::iterator(loop.getOperation()));
       &*it != body.getTerminator(); ++it)
    work.push_back(&*it);
  for (Operation *op : work)
    op->moveBefore(loop.getBody()->getTerminator());
  b.setInsertionPointToStart(loop.getBody());
  Value tidI = arith::AddIOp::create(
      b, loc, tid,
      arith::MulIOp::create(b, loc, loop.getInductionVar(), cby));
  Value gidI = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, bidK, cby), tidI);
  // The same, as the i32 special registers of a front-door kernel.
  DenseMap<std::pair<Value, Type>, Value> casts;
  auto nvvmCast = [&](Value reg, Value index) {
    Value &c = casts[{index, reg.getType()}];
    if (!c) {
      OpBuilder cb(tidI.getDefiningOp()->getBlock(),
                   std::next(gidI.getDefiningOp()->getIterator()));
      c = arith::IndexCastOp::create(cb, loc, reg.getType(), index);
    }
    return c;
  };
  DenseSet<Operation *> mine = {tidI.getDefiningOp(), gidI.getDefiningOp(),
                                tidI.getDefiningOp()->getOperand(1).getDefiningOp(),
                                gidI.getDefiningOp()->getOperand(0).getDefiningOp()};
  loop.getBody()->walk([&](Operation *op) {
    if (mine.contains(op))
      return;
    for (OpOperand &o : op->getOpOperands()) {
      Value v = o.get();
      if (auto t = v.getDefiningOp<gpu::ThreadIdOp>();
          t && t.getDimension() == gpu::Dimension::y)
        o.set(tidI);
      else if (auto g = v.getDefiningOp<gpu::BlockIdOp>();
               g && g.getDimension() == gpu::Dimension::y)
        o.set(bidK);
      else if (auto g = v.getDefiningOp<gpu::GlobalIdOp>();
               g && g.getDimension() == gpu::Dimension::y)
        o.set(gidI);
      else if (isa_and_nonnull<NVVM::ThreadIdYOp, NVVM::BlockIdYOp>(
                   v.getDefiningOp()))
        o.set(nvvmCast(v, isa<NVVM::ThreadIdYOp>(v.getDefiningOp()) ? tidI
                                                                     : bidK));
    }
  });
}

/// A memref<HxWxT> view of a front-door kernel's pointer argument, so that
/// the tile load (and its lowering) reads it like any 2-D memref: the
/// descriptor the NVVM lowering gives memref<?x?xT>, built from the pointer
/// and the integer arguments H and W (row pitch W, unit column stride), and
/// cast to the memref; the lowering's own cast back cancels it.
static Value pointerView(OpBuilder &b, Location loc, Value pointer,
                         Type element, Value height, Value width) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  auto sizes = LLVM::LLVMArrayType::get(i64, 2);
  auto descriptor = LLVM::LLVMStructType::getLiteral(
      ctx, {pointer.getType(), pointer.getType(), i64, sizes, sizes});
  auto toI64 = [&](Value v) -> Value {
    if (v.getType() == i64)
      return v;
    return LLVM::SExtOp::create(b, loc, i64, v);
  };
  auto c = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  Value h = toI64(height), w = toI64(width);
  Value d = LLVM::PoisonOp::create(b, loc, descriptor);
  auto put = [&](Value v, ArrayRef<int64_t> at) {
    d = LLVM::InsertValueOp::create(b, loc, d, v, at);
  };
  put(pointer, {0}); // allocated
  put(pointer, {1}); // aligned
  put(c(0), {2});    // offset
  put(h, {3, 0});
  put(w, {3, 1});
  put(w, {4, 0});
  put(c(1), {4, 1});
  unsigned space = cast<LLVM::LLVMPointerType>(pointer.getType())
                       .getAddressSpace();
  auto type = MemRefType::get(
      {ShapedType::kDynamic, ShapedType::kDynamic}, element, AffineMap(),
      space ? b.getI64IntegerAttr(space) : Attribute());
  return UnrealizedConversionCastOp::create(b, loc, type, d).getResult(0);
}

static void rewriteKernel(gpu::GPUFuncOp func, KernelPlan &plan, int64_t bx,
                          int64_t by, int64_t k,
                          ArrayRef<PerforationSchemeAttr> schemes,
                          FlatSymbolRefAttr knob) {
  MLIRContext *ctx = func.getContext();
  Location loc = func.getLoc();
  OpBuilder b(ctx);
  b.setInsertionPointToStart(&func.getBody().front());
  // At block level, before any branch: the tile load holds barriers.
  auto idx = [&](OpBuilder &ob, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(ob, loc, v);
  };
  // A block computes by * k rows (k rows per thread).
  Value row = arith::MulIOp::create(
      b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::y),
      idx(b, by * k));
  Value col = arith::MulIOp::create(
      b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), idx(b, bx));
  Value ty = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value tx = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  for (ArrayPlan &a : plan.arrays) {
    const int64_t rows = by * k + 2 * a.hy, cols = bx + 2 * a.hx;
    BufferLayout layout = bufferLayout(a.element, bx, a.hx);
    auto bufType = MemRefType::get({rows, layout.pitch}, a.element,
                                   AffineMap(), workgroup);
    Value buf = func.addWorkgroupAttribution(bufType, a.arg.getLoc());
    if (layout.lead != 0 || layout.pitch != cols)
      buf = memref::SubViewOp::create(
          b, loc, buf, ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(layout.lead)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(rows), b.getIndexAttr(cols)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
    PerforationBorder border =
        a.zero ? PerforationBorder::zero : PerforationBorder::clamp;
    Value source = a.arg;
    if (isa<LLVM::LLVMPointerType>(a.arg.getType()))
      source = pointerView(b, loc, a.arg, a.element, plan.height, plan.width);
    TileLoadOp::create(b, loc, source, row, col, buf, a.hy, a.hx, border,
                       schemesFor(ctx, schemes, a.hy == 0 && a.hx == 0), knob);
    for (Access &access : a.accesses) {
      OpBuilder ab(access.op);
      auto at = [&](Value t, int64_t k) {
        return k == 0
                   ? t
                   : arith::AddIOp::create(ab, loc, t, idx(ab, k)).getResult();
      };
      Value v = memref::LoadOp::create(
          ab, access.op->getLoc(), buf,
          ValueRange{at(ty, a.hy + access.dy), at(tx, a.hx + access.dx)});
      access.op->getResult(0).replaceAllUsesWith(v);
      access.op->erase();
    }
  }
  eraseDeadIndexOps(func);
  if (k > 1) {
    coarsenRows(func, by, k);
    eraseDeadIndexOps(func);
  }
}

struct ApproxPerforationRaisePass final
    : mlir::approx::impl::ApproxPerforationRaiseBase<
          ApproxPerforationRaisePass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto fail = [&](const Twine &msg) {
      module.emitError(msg);
      signalPassFailure();
    };

    // Options first: nothing changes unless they are all valid.
    std::string why;
    FailureOr<SmallVector<PerforationSchemeAttr>> parsed = parseSchemeList(
        ctx, SmallVector<std::string>(schemes.begin(), schemes.end()),
        kDefaultSchemes, SchemeUse::TileLoad, why);
    if (failed(parsed))
      return fail(why);
    SmallVector<PerforationSchemeAttr> list = *parsed;
    if (std::string bad; !isValidPtxIdentifier(knob, &bad))
      return fail("knob name " + quoteName(knob) + " is not an identifier: it " +
                  bad);
    SmallVector<Shape> shapes;
    for (const std::string &s : blockShapes) {
      auto [xs, rest] = StringRef(s).split('x');
      auto [ys, ks] = rest.split('r');
      int64_t x = 0, y = 0, k = 1;
      if (xs.getAsInteger(10, x) || ys.getAsInteger(10, y) || x < 1 || y < 1 ||
          x * y > 1024 ||
          (rest.contains('r') && (ks.getAsInteger(10, k) || k < 1 || k > 64)))
        return fail("block shape '" + s +
                    "' is not XxY or XxYrK (X*Y threads, 1 <= X*Y <= 1024, "
                    "K rows per thread, 1 <= K <= 64)");
      Shape shape{x, y, k};
      if (llvm::is_contained(shapes, shape))
        return fail("block shape '" + s + "' is listed twice");
      shapes.push_back(shape);
    }
    int64_t n = list.size();
    FlatSymbolRefAttr knobRef;
    bool declareKnob = false;
    if (n > 1) {
      knobRef = FlatSymbolRefAttr::get(ctx, knob);
      Operation *existing = SymbolTable::lookupSymbolIn(module, knob);
      auto decl = dyn_cast_or_null<KnobOp>(existing);
      if (existing && (!decl || static_cast<int64_t>(decl.getMax()) > n - 1))
        return fail("symbol @" + knob + " exists and is not an approx.knob " +
                    "within range(0, " + std::to_string(n - 1) + ")");
      declareKnob = !existing;
    }
    std::string variantName = knob + "_block";
    if (shapes.size() >= 2 && SymbolTable::lookupSymbolIn(module, variantName))
      return fail("symbol @" + variantName + " exists; the block-shape " +
                  "variant knob needs that name");

    SmallVector<gpu::GPUFuncOp> kernels;
    for (auto func : module.getOps<gpu::GPUFuncOp>())
      if (func.isKernel())
        kernels.push_back(func);

    bool raisedAny = false;
    SmallVector<NamedAttribute> dispatch;
    for (gpu::GPUFuncOp func : kernels) {
      Refusal refusal;
      auto remark = [&] { refusal.at->emitRemark(refusal.why); };
      // Structural refusals. Without block-shapes the tile is the block
      // the kernel states; a CUDA kernel states none, so it needs shapes.
      DenseI32ArrayAttr known = func.getKnownBlockSizeAttr();
      if (shapes.empty() && (!known || known.size() < 2)) {
        func.emitRemark("kernel @")
            << func.getName() << " has no known_block_size; the tile is the "
            << "block, so the pass needs it, or block-shapes";
        continue;
      }
      SmallVector<int32_t> knownSize =
          known ? SmallVector<int32_t>(known.asArrayRef())
                : SmallVector<int32_t>{0, 0, 1};
      if (knownSize.size() < 3)
        knownSize.resize(3, 1);
      // CUDA's __launch_bounds__ (nvvm.maxntid) caps the block's threads.
      if (auto maxntid = func->getAttrOfType<DenseI32ArrayAttr>("nvvm.maxntid")) {
        int64_t cap = 1;
        for (int32_t v : maxntid.asArrayRef())
          cap *= v;
        auto over = llvm::find_if(shapes, [&](const Shape &sh) {
          return sh.x * sh.y > cap;
        });
        if (over != shapes.end()) {
          func.emitRemark("block shape ")
              << over->name() << " has " << over->x * over->y
              << " threads; kernel @" << func.getName()
              << " allows at most " << cap << " (__launch_bounds__)";
          continue;
        }
      }
      if (func->hasAttr("nvvm.reqntid") && !shapes.empty()) {
        func.emitRemark("kernel @")
            << func.getName() << " requires its block size (nvvm.reqntid); "
            << "block-shapes would change it";
        continue;
      }
      TileLoadOp existing;
      func.walk([&](TileLoadOp op) {
        existing = op;
        return WalkResult::interrupt();
      });
      if (existing) {
        existing.emitRemark("kernel @")
            << func.getName() << " already has a tile_load";
        continue;
      }
      FailureOr<KernelPlan> plan =
          analyzeKernel(func, knownSize, shapes.empty(), refusal);
      if (failed(plan)) {
        remark();
        continue;
      }
      SmallVector<Shape> kernelShapes(shapes);
      if (kernelShapes.empty())
        kernelShapes.push_back({knownSize[0], knownSize[1], 1});
      // The tile is the block's X x (Y*K) outputs.
      if (llvm::any_of(kernelShapes, [&](const Shape &s) {
            return failed(
                checkShape(func, *plan, s.x, s.y * s.k, list, refusal));
          })) {
        remark();
        continue;
      }
      // K rows per thread repeat the per-output work under a loop: a
      // barrier in it would no longer be reached by every thread equally.
      if (llvm::any_of(kernelShapes, [](const Shape &s) { return s.k > 1; })) {
        if (!func.getBody().hasOneBlock()) {
          func.emitRemark("kernel @")
              << func.getName() << " has an unstructured CFG; several rows "
              << "per thread (XxYrK) need one block to loop over";
          continue;
        }
        gpu::BarrierOp barrier;
        func.walk([&](gpu::BarrierOp op) {
          barrier = op;
          return WalkResult::interrupt();
        });
        if (barrier) {
          barrier.emitRemark("kernel @")
              << func.getName()
              << " holds a barrier; several rows per thread (XxYrK) "
                 "would repeat it under a loop";
          continue;
        }
      }
      if (kernelShapes.size() == 1) {
        // One shape: the kernel keeps its name (with that block size).
        Shape sh = kernelShapes.front();
        if (sh.x != knownSize[0] || sh.y != knownSize[1]) {
          SmallVector<int32_t> size(knownSize);
          size[0] = sh.x;
          size[1] = sh.y;
          func.setKnownBlockSizeAttr(DenseI32ArrayAttr::get(ctx, size));
        }
        rewriteKernel(func, *plan, sh.x, sh.y, sh.k, list, knobRef);
        raisedAny = true;
        continue;
      }
      // Several shapes: one clone per shape, the original dispatched by
      // name. (Host code outside this gpu.module is not looked at: passes
      // on sibling gpu.modules may run in parallel.)
      SmallVector<std::string> cloneNames;
      for (const Shape &sh : kernelShapes)
        cloneNames.push_back(func.getName().str() + "__" + sh.name());
      if (auto clash =
              llvm::find_if(cloneNames,
                            [&](const std::string &c) {
                              return SymbolTable::lookupSymbolIn(module, c);
                            });
          clash != cloneNames.end()) {
        func.emitRemark("symbol @")
            << *clash << " exists; it would be a block-shape variant of @"
            << func.getName();
        continue;
      }
      SmallVector<Attribute> variants;
      OpBuilder b(func);
      b.setInsertionPointAfter(func);
      for (auto [shape, name] : llvm::zip(kernelShapes, cloneNames)) {
        auto clone = cast<gpu::GPUFuncOp>(b.clone(*func));
        clone.setName(name);
        SmallVector<int32_t> size(knownSize);
        size[0] = shape.x;
        size[1] = shape.y;
        clone.setKnownBlockSizeAttr(DenseI32ArrayAttr::get(ctx, size));
        // The clone is the original, op for op: the analysis succeeds again.
        FailureOr<KernelPlan> clonePlan =
            analyzeKernel(clone, knownSize, false, refusal);
        rewriteKernel(clone, *clonePlan, shape.x, shape.y, shape.k, list,
                      knobRef);
        variants.push_back(FlatSymbolRefAttr::get(ctx, name));
      }
      dispatch.push_back(NamedAttribute(StringAttr::get(ctx, func.getName()),
                                        ArrayAttr::get(ctx, variants)));
      func.erase();
      raisedAny = true;
    }

    if (!raisedAny)
      return;
    OpBuilder b(ctx);
    b.setInsertionPointToStart(module.getBody());
    // The manifest's typed values: each scheme, each block shape.
    if (declareKnob)
      KnobOp::create(b, module.getLoc(), knob, 0, n - 1, 0,
                     /*warp_slot=*/nullptr, /*param_path=*/false,
                     ArrayAttr::get(ctx, SmallVector<Attribute>(list.begin(),
                                                                list.end())));
    if (!dispatch.empty()) {
      SmallVector<Attribute> shapeValues;
      for (const Shape &sh : shapes)
        shapeValues.push_back(BlockShapeAttr::get(ctx, sh.x, sh.y, sh.k));
      VariantKnobOp::create(b, module.getLoc(), variantName, 0,
                            DictionaryAttr::get(ctx, dispatch),
                            ArrayAttr::get(ctx, shapeValues));
    }
  }
};

} // namespace
