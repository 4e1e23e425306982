//===- ApproxPerforationLower.cpp - perforation ops -> block-wide loops ---===//
//
// Lowers approx.perforation.tile_load, load_1d and output to scf loops over
// the block's threads, gpu barriers and knob reads. The arithmetic follows
// docs/perforation.md ("Semantics") step for step, because the CPU
// reference in runtime/perforation implements the same text and the tests
// compare the two element by element.
//
// Layout of a tile load: [switch(scheme): fetch] barrier
// [switch(scheme): rebuild] barrier. The switch is on a knob, uniform over
// the grid, and both barriers sit outside it (never under a branch).
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"
#include "common/Sites.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/APFloat.h"

#include <functional>

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXPERFORATIONLOWER
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {

/// Reconstruction weights RN((i - a) / (b - a)) up to this gap are constants
/// (a chain of selects); wider gaps divide at run time.
constexpr int64_t kMaxConstantWeights = 16;

/// The most elements one thread fetches in an unrolled tile fetch; more
/// (tiny blocks, huge tiles) keep the loop.
constexpr int64_t kMaxUnroll = 16;

/// Builds the IR of one perforation op, at the op.
class Emitter {
public:
  explicit Emitter(Operation *op) : b(op->getLoc(), op), anchor(op) {}

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, v); }

  /// x mod m in [0, m), for any sign of x.
  Value posMod(Value x, int64_t m) {
    Value r = arith::RemSIOp::create(b, x, idx(m));
    Value neg = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, r, idx(0));
    return arith::SelectOp::create(b, neg, arith::AddIOp::create(b, r, idx(m)),
                                   r);
  }

  Value clamp(Value x, Value lo, Value hi) {
    return arith::MinSIOp::create(b, arith::MaxSIOp::create(b, x, lo), hi);
  }

  /// The thread's linear id in the block and the block's thread count.
  std::pair<Value, Value> threads() {
    auto id = [&](gpu::Dimension d) {
      return gpu::ThreadIdOp::create(b, d).getResult();
    };
    auto dim = [&](gpu::Dimension d) {
      return gpu::BlockDimOp::create(b, d).getResult();
    };
    Value bx = dim(gpu::Dimension::x), by = dim(gpu::Dimension::y);
    Value tid = arith::AddIOp::create(
        b, id(gpu::Dimension::x),
        arith::MulIOp::create(
            b, bx,
            arith::AddIOp::create(
                b, id(gpu::Dimension::y),
                arith::MulIOp::create(b, by, id(gpu::Dimension::z)))));
    Value count = arith::MulIOp::create(
        b, arith::MulIOp::create(b, bx, by), dim(gpu::Dimension::z));
    if (auto func = anchor->getParentOfType<gpu::GPUFuncOp>()) {
      if (std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize()) {
        int64_t total = 1;
        for (int32_t d : *known)
          total *= d;
        staticThreads = total;
      }
    }
    return {tid, count};
  }

  /// One list of elements to fetch: the elements e in [0, n) (n <= maxN,
  /// and n >= minN where given) laid out `cols` per row; element e is list
  /// position (e / cols, e % cols), `place` maps it to the coordinates
  /// `read` and `write` take, `read` returns a value of `type`.
  struct FetchList {
    Value n;
    int64_t maxN, cols;
    std::function<std::pair<Value, Value>(Value, Value)> place;
    std::function<Value(Value, Value)> read;
    std::function<void(Value, Value, Value)> write;
    std::optional<int64_t> minN;
    Type type;
  };

  /// Fetches every element of `lists`. Thread tid takes e = tid, tid + T,
  /// ... of each list. With a block size known at compile time and at most
  /// kMaxUnroll elements per thread over all lists, the lists are unrolled
  /// and every thread issues all its loads before its first store: several
  /// loads in flight per thread instead of one, which is what keeps DRAM
  /// busy; the div/rem is done once per thread and list, later positions
  /// step by constants. Otherwise, a loop per list.
  void fetchLists(ArrayRef<FetchList> lists) {
    int64_t perThreadAll = 0;
    for (const FetchList &l : lists)
      perThreadAll +=
          staticThreads ? (l.maxN + *staticThreads - 1) / *staticThreads : 0;
    if (!staticThreads || perThreadAll > kMaxUnroll) {
      for (const FetchList &l : lists)
        forEach(l.n, [&](Value e) {
          auto [i, j] = l.place(arith::DivUIOp::create(b, e, idx(l.cols)),
                                arith::RemUIOp::create(b, e, idx(l.cols)));
          l.write(i, j, l.read(i, j));
        });
      return;
    }
    struct Item {
      const FetchList *list;
      Value guard, i, j, v;
    };
    SmallVector<Item> items;
    for (const FetchList &l : lists) {
      const int64_t perThread = (l.maxN + *staticThreads - 1) / *staticThreads;
      for (const Position &pos : positions(l.n, perThread, l.cols, l.minN)) {
        Item it{&l, pos.guard, {}, {}, {}};
        std::tie(it.i, it.j) = l.place(pos.row, pos.col);
        items.push_back(it);
      }
    }
    for (Item &it : items) {
      if (!it.guard) {
        it.v = it.list->read(it.i, it.j);
        continue;
      }
      Type type = it.list->type;
      auto op = scf::IfOp::create(b, type, it.guard, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(op.thenBlock());
      scf::YieldOp::create(b, ValueRange{it.list->read(it.i, it.j)});
      b.setInsertionPointToStart(op.elseBlock());
      scf::YieldOp::create(
          b, ValueRange{arith::ConstantOp::create(b, b.getZeroAttr(type))});
      it.v = op.getResult(0);
    }
    for (Item &it : items) {
      if (!it.guard)
        it.list->write(it.i, it.j, it.v);
      else
        ifThen(it.guard, [&] { it.list->write(it.i, it.j, it.v); });
    }
  }

  /// fetchLists of one list of scalars.
  void fetchList(Value n, int64_t maxN, int64_t cols,
                 function_ref<std::pair<Value, Value>(Value, Value)> place,
                 function_ref<Value(Value, Value)> read,
                 function_ref<void(Value, Value, Value)> write,
                 std::optional<int64_t> minN = std::nullopt) {
    fetchLists({FetchList{n, maxN, cols, place, read, write, minN,
                          cast<MemRefType>(loadType).getElementType()}});
  }

  /// The list position (e / cols, e % cols) of this thread's elements e =
  /// tid + k*T, k < perThread (T the static thread count): the div/rem once,
  /// then constant steps with a carry. `guard` (null when every thread's
  /// k-th element exists for every n >= minN) says e < n.
  struct Position {
    Value guard, row, col;
  };
  /// The arithmetic is i32 (positions are below the buffer's static size):
  /// with `index` = i64, each step would cost two or three instructions.
  SmallVector<Position> positions(Value n, int64_t perThread, int64_t cols,
                                  std::optional<int64_t> minN) {
    const int64_t T = *staticThreads;
    Type i32 = b.getI32Type();
    auto c32 = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, i32, v).getResult();
    };
    auto toIndex = [&](Value v) {
      return arith::IndexCastUIOp::create(b, b.getIndexType(), v).getResult();
    };
    Value tid32 = arith::IndexCastUIOp::create(b, i32, tid);
    Value n32 = arith::IndexCastUIOp::create(b, i32, n);
    Value r0 = arith::DivUIOp::create(b, tid32, c32(cols));
    Value c0 = arith::RemUIOp::create(b, tid32, c32(cols));
    SmallVector<Position> out;
    for (int64_t k = 0; k < perThread; ++k) {
      int64_t q = k * T / cols, m = k * T % cols;
      Value c = arith::AddIOp::create(b, c0, c32(m));
      Value wrap =
          arith::CmpIOp::create(b, arith::CmpIPredicate::sge, c, c32(cols));
      c = arith::SelectOp::create(b, wrap, arith::SubIOp::create(b, c, c32(cols)),
                                  c);
      Value r = arith::AddIOp::create(b, arith::AddIOp::create(b, r0, c32(q)),
                                      arith::ExtUIOp::create(b, i32, wrap));
      Position p{nullptr, toIndex(r), toIndex(c)};
      if (!minN || (k + 1) * T > *minN)
        p.guard = arith::CmpIOp::create(
            b, arith::CmpIPredicate::ult,
            arith::AddIOp::create(b, tid32, c32(k * T)), n32);
      out.push_back(p);
    }
    return out;
  }

  /// body(i, j) for every element of a rows x cols buffer, spread over the
  /// block's threads: unrolled as in fetchList where the block size is
  /// known and each thread has at most kMaxUnroll elements, else a loop.
  void forEachElement(int64_t rows, int64_t cols,
                      function_ref<void(Value, Value)> body) {
    const int64_t total = rows * cols;
    if (staticThreads &&
        (total + *staticThreads - 1) / *staticThreads <= kMaxUnroll) {
      for (const Position &p :
           positions(idx(total), (total + *staticThreads - 1) / *staticThreads,
                     cols, total)) {
        if (p.guard)
          ifThen(p.guard, [&] { body(p.row, p.col); });
        else
          body(p.row, p.col);
      }
      return;
    }
    forEach(idx(total), [&](Value k) {
      body(arith::DivUIOp::create(b, k, idx(cols)),
           arith::RemUIOp::create(b, k, idx(cols)));
    });
  }

  /// for (e = tid; e < n; e += threads) body(e).
  void forEach(Value n, function_ref<void(Value)> body) {
    auto loop = scf::ForOp::create(b, tid, n, nthreads);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    body(loop.getInductionVar());
  }

  /// if (cond) then().
  void ifThen(Value cond, function_ref<void()> then) {
    auto op = scf::IfOp::create(b, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(op.thenBlock());
    then();
  }

  /// The scheme index (0 without a knob), read once.
  Value schemeIndex(FlatSymbolRefAttr knob) {
    if (!knob)
      return idx(0);
    Value v = KnobValueOp::create(b, b.getI32Type(), knob);
    return arith::IndexCastUIOp::create(b, b.getIndexType(), v);
  }

  /// switch (sel) over `cases` (scheme numbers); scheme cases[0] is the
  /// default, so an out-of-range value falls back to it.
  void switchOn(Value sel, ArrayRef<int64_t> cases,
                function_ref<void(int64_t)> body) {
    if (cases.size() == 1) {
      body(cases[0]);
      return;
    }
    auto sw = scf::IndexSwitchOp::create(b, TypeRange{}, sel, cases.drop_front(),
                                         cases.size() - 1);
    OpBuilder::InsertionGuard guard(b);
    auto fill = [&](Region &region, int64_t scheme) {
      Block *block = b.createBlock(&region);
      b.setInsertionPointToStart(block);
      scf::YieldOp yield = scf::YieldOp::create(b);
      b.setInsertionPoint(yield);
      body(scheme);
    };
    fill(sw.getDefaultRegion(), cases[0]);
    for (auto [region, scheme] :
         llvm::zip(sw.getCaseRegions(), cases.drop_front()))
      fill(region, scheme);
  }

  /// The sizes of `source`, read once before the loops.
  void readSizes(Value source) {
    for (int64_t d = 0, n = cast<MemRefType>(source.getType()).getRank();
         d < n; ++d)
      dims.push_back(memref::DimOp::create(b, source, d));
  }

  /// The element of `source` at (coords), or what `border` reads outside.
  Value loadBorder(Value source, ArrayRef<Value> coords,
                   PerforationBorder border) {
    auto type = cast<MemRefType>(source.getType());
    SmallVector<Value> clamped;
    if (border == PerforationBorder::clamp) {
      for (unsigned d = 0; d < coords.size(); ++d)
        clamped.push_back(
            clamp(coords[d], idx(0), arith::SubIOp::create(b, dims[d], idx(1))));
      return memref::LoadOp::create(b, source, clamped);
    }
    Value inside;
    for (unsigned d = 0; d < coords.size(); ++d) {
      Value ge = arith::CmpIOp::create(b, arith::CmpIPredicate::sge, coords[d],
                                       idx(0));
      Value lt = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, coords[d],
                                       dims[d]);
      Value both = arith::AndIOp::create(b, ge, lt);
      inside = inside ? arith::AndIOp::create(b, inside, both) : both;
    }
    Type element = type.getElementType();
    auto op = scf::IfOp::create(b, element, inside, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(op.thenBlock());
    scf::YieldOp::create(b, ValueRange{memref::LoadOp::create(b, source, coords)});
    b.setInsertionPointToStart(op.elseBlock());
    scf::YieldOp::create(
        b, ValueRange{arith::ConstantOp::create(b, b.getZeroAttr(element))});
    return op.getResult(0);
  }

  /// RN(p / gap) in `type`, for 1 <= p < gap (a run-time index).
  Value weight(Value p, int64_t gap, FloatType type) {
    if (gap - 1 <= kMaxConstantWeights) {
      // The constant of each p, rounded once from the exact quotient.
      auto constant = [&](int64_t k) {
        llvm::APFloat w(type.getFloatSemantics(), k);
        llvm::APFloat d(type.getFloatSemantics(), gap);
        w.divide(d, llvm::RoundingMode::NearestTiesToEven);
        return arith::ConstantOp::create(b, FloatAttr::get(type, w));
      };
      Value w = constant(1);
      for (int64_t k = 2; k < gap; ++k) {
        Value is = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, p,
                                         idx(k));
        w = arith::SelectOp::create(b, is, constant(k), w);
      }
      return w;
    }
    // f32 / f64 division is correctly rounded; a 16-bit type takes the f32
    // quotient, which cannot lie on a 16-bit midpoint (p / gap is not a
    // short dyadic fraction unless exact), so it rounds once in effect.
    FloatType calc = type.getWidth() >= 32 ? type : b.getF32Type();
    Value num = arith::SIToFPOp::create(
        b, calc, arith::IndexCastOp::create(b, b.getI64Type(), p));
    Value den = arith::ConstantOp::create(b, FloatAttr::get(calc, gap));
    Value w = arith::DivFOp::create(b, num, den);
    return calc == type ? w : arith::TruncFOp::create(b, type, w);
  }

  /// fma(hi - lo, w, lo) in the element type.
  Value lerp(Value lo, Value hi, Value w) {
    return math::FmaOp::create(b, arith::SubFOp::create(b, hi, lo), w, lo);
  }

  ImplicitLocOpBuilder b;
  Operation *anchor; ///< the op being lowered
  Value tid, nthreads;
  /// The block's thread count where the kernel's known_block_size says it.
  std::optional<int64_t> staticThreads;
  /// The memref type fetched from (its element type types the guards).
  Type loadType;
  SmallVector<Value> dims; ///< the source's sizes (readSizes)
};

//===----------------------------------------------------------------------===//
// Reconstruction along one axis (rows, cols, 1-D sectors).
//===----------------------------------------------------------------------===//

/// Where a skipped element's neighbours along the perforated axis are: the
/// loaded positions a = pos - below and b = pos + above of a buffer of
/// `extent`, `gap` = b - a apart. Emits the value that replaces the element.
static Value rebuildAlongAxis(Emitter &e, Value pos, Value below, Value above,
                              int64_t gap, int64_t extent, Reconstruction recon,
                              function_ref<Value(Value)> read) {
  ImplicitLocOpBuilder &b = e.b;
  Value a = arith::SubIOp::create(b, pos, below);
  Value bb = arith::AddIOp::create(b, pos, above);
  Value hasA = arith::CmpIOp::create(b, arith::CmpIPredicate::sge, a, e.idx(0));
  Value hasB =
      arith::CmpIOp::create(b, arith::CmpIPredicate::slt, bb, e.idx(extent));
  // nn: the nearer side, a on a tie; the other where a side is missing.
  Value aNearer =
      arith::CmpIOp::create(b, arith::CmpIPredicate::sle, below, above);
  Value takeA = arith::AndIOp::create(
      b, hasA, arith::OrIOp::create(
                   b, aNearer,
                   arith::XOrIOp::create(
                       b, hasB, arith::ConstantIntOp::create(b, 1, 1))));
  Value nearest = arith::SelectOp::create(b, takeA, a, bb);
  if (recon == Reconstruction::nn)
    return read(nearest);
  // linear where both sides exist: read both and select. A missing side
  // reads the nearest instead (a loaded element: never one that another
  // thread is rebuilding now), and its value is unused.
  Value aIn = arith::SelectOp::create(b, hasA, a, nearest);
  Value bIn = arith::SelectOp::create(b, hasB, bb, nearest);
  Value va = read(aIn), vb = read(bIn);
  auto type = cast<FloatType>(va.getType());
  Value interp = e.lerp(va, vb, e.weight(below, gap, type));
  Value both = arith::AndIOp::create(b, hasA, hasB);
  Value vn = arith::SelectOp::create(b, takeA, va, vb);
  return arith::SelectOp::create(b, both, interp, vn);
}

/// The shape every perforated load shares: the scheme index read once; a
/// switch fetching each scheme's loaded elements; a barrier; where some
/// scheme skips, a switch rebuilding the skipped elements and a barrier.
/// Scheme 0 is the default case of both switches.
/// `fusedInFetch` says which schemes' fetch also writes the skipped
/// elements (nearest-neighbour copies made from the register just loaded):
/// they need no rebuild pass, and when every scheme is so, no second
/// barrier.
static void emitFetchAndRebuild(
    Emitter &e, ArrayAttr schemeList, FlatSymbolRefAttr knob,
    function_ref<void(PerforationSchemeAttr)> fetch,
    function_ref<void(PerforationSchemeAttr)> rebuild,
    function_ref<bool(PerforationSchemeAttr)> fusedInFetch) {
  SmallVector<PerforationSchemeAttr> schemes(
      schemeList.getAsRange<PerforationSchemeAttr>());
  auto skips = [&](PerforationSchemeAttr s) {
    return s.getKind() != PerforationKind::accurate && !fusedInFetch(s);
  };
  SmallVector<int64_t> all, rebuilt;
  for (auto [s, scheme] : llvm::enumerate(schemes)) {
    all.push_back(s);
    if (s == 0 || skips(scheme))
      rebuilt.push_back(s);
  }
  Value sel = e.schemeIndex(knob);
  e.switchOn(sel, all, [&](int64_t s) { fetch(schemes[s]); });
  gpu::BarrierOp::create(e.b);
  if (llvm::none_of(schemes, skips))
    return;
  // Loaded elements are only read here, skipped ones only written: no race.
  e.switchOn(sel, rebuilt, [&](int64_t s) {
    if (skips(schemes[s]))
      rebuild(schemes[s]);
  });
  gpu::BarrierOp::create(e.b);
}

//===----------------------------------------------------------------------===//
// 32-bit fetch addressing
//===----------------------------------------------------------------------===//

/// The tile fetch's image addressing in i32. On NVIDIA GPUs a 64-bit add,
/// min or max costs two or three instructions and a 64-bit multiply
/// several; with `index` = i64, each fetched element's row and column
/// clamps and row * pitch + col cost more issue slots than the load itself,
/// and Nsight Compute found the accurate 3x3 tilings issue-bound (SM 86%,
/// ALU 69%, DRAM 51%; docs/perforation.md, "Goals"). Where the image's
/// sizes and this block's origin fit in i32 (checked at run time, uniform
/// over the grid's blocks of one launch), the fetch clamps, tests and
/// multiplies in i32 and reads a 1-D view of the image at a sign-extended
/// offset (one wide multiply-add into the address); otherwise the i64
/// fetch runs. Only for sources with unit inner stride (row-major views).
struct NarrowAddressing {
  Value fits;      ///< i1: the i32 fetch is exact for this block
  Value flat;      ///< the source as 1-D, its offset kept
  Value gy0, gx0;  ///< i32 image coordinate of buffer element (0, 0)
  Value rows, cols; ///< i32 image sizes
  Value pitch;     ///< i32 row stride, in elements
  Value offset;    ///< index: the source's offset, in elements
};

static std::optional<NarrowAddressing>
narrowAddressing(Emitter &e, Value source, Value gy0, Value gx0) {
  auto type = cast<MemRefType>(source.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getRank() != 2 || failed(type.getStridesAndOffset(strides, offset)) ||
      strides[1] != 1)
    return std::nullopt;
  ImplicitLocOpBuilder &b = e.b;
  Type i32 = b.getI32Type();
  auto meta = memref::ExtractStridedMetadataOp::create(b, source);
  Value pitch = meta.getStrides()[0];
  Value rows = e.dims[0], cols = e.dims[1];
  // Every value the i32 fetch forms stays below 2^31: sizes and the
  // origin within 2^30 (so origin + buffer position, |.| < 2^30 + 2^16,
  // cannot wrap), and the largest offset, (rows-1) * pitch + cols - 1,
  // below 2^31 (computed in i64 from operands below 2^30: no overflow).
  using P = arith::CmpIPredicate;
  const int64_t lim = int64_t(1) << 30;
  auto cmp = [&](P p, Value x, int64_t c) {
    return arith::CmpIOp::create(b, p, x, e.idx(c)).getResult();
  };
  Value fits = cmp(P::ule, rows, lim);
  for (Value v : {cmp(P::ule, cols, lim), cmp(P::ule, pitch, lim),
                  cmp(P::sle, gy0, lim), cmp(P::sge, gy0, -lim),
                  cmp(P::sle, gx0, lim), cmp(P::sge, gx0, -lim)})
    fits = arith::AndIOp::create(b, fits, v);
  Value last = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, arith::SubIOp::create(b, rows, e.idx(1)),
                            pitch),
      arith::SubIOp::create(b, cols, e.idx(1)));
  fits = arith::AndIOp::create(b, fits,
                               cmp(P::slt, last, (int64_t(1) << 31) - 1));
  auto flatType = MemRefType::get(
      {ShapedType::kDynamic}, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}),
      type.getMemorySpace());
  Value size = arith::MulIOp::create(b, rows, pitch);
  Value flat = memref::ReinterpretCastOp::create(
      b, flatType, meta.getBaseBuffer(), OpFoldResult(meta.getOffset()),
      ArrayRef<OpFoldResult>{size}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  auto narrow = [&](Value v) {
    return arith::IndexCastOp::create(b, i32, v).getResult();
  };
  return NarrowAddressing{fits,         flat,         narrow(gy0),
                          narrow(gx0),  narrow(rows), narrow(cols),
                          narrow(pitch), meta.getOffset()};
}

/// The element at buffer position (i, j), or what `border` reads outside,
/// addressed in i32 (valid where `n.fits`).
static Value loadBorderNarrow(Emitter &e, const NarrowAddressing &n, Value i,
                              Value j, PerforationBorder border) {
  ImplicitLocOpBuilder &b = e.b;
  Type i32 = b.getI32Type();
  auto c32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, i32, v).getResult();
  };
  Value gy = arith::AddIOp::create(b, n.gy0,
                                   arith::IndexCastOp::create(b, i32, i));
  Value gx = arith::AddIOp::create(b, n.gx0,
                                   arith::IndexCastOp::create(b, i32, j));
  auto load = [&](Value y, Value x) {
    Value off = arith::AddIOp::create(b, arith::MulIOp::create(b, y, n.pitch),
                                      x);
    return memref::LoadOp::create(
               b, n.flat,
               ValueRange{arith::IndexCastOp::create(b, b.getIndexType(), off)})
        .getResult();
  };
  if (border == PerforationBorder::clamp)
    return load(
        e.clamp(gy, c32(0), arith::SubIOp::create(b, n.rows, c32(1))),
        e.clamp(gx, c32(0), arith::SubIOp::create(b, n.cols, c32(1))));
  // 0 <= g < size as one unsigned compare (both below 2^31).
  using P = arith::CmpIPredicate;
  Value inside = arith::AndIOp::create(
      b, arith::CmpIOp::create(b, P::ult, gy, n.rows),
      arith::CmpIOp::create(b, P::ult, gx, n.cols));
  Type element = cast<MemRefType>(n.flat.getType()).getElementType();
  auto op = scf::IfOp::create(b, element, inside, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(op.thenBlock());
  scf::YieldOp::create(b, ValueRange{load(gy, gx)});
  b.setInsertionPointToStart(op.elseBlock());
  scf::YieldOp::create(
      b, ValueRange{arith::ConstantOp::create(b, b.getZeroAttr(element))});
  return op.getResult(0);
}

//===----------------------------------------------------------------------===//
// 16-byte vector fetch
//===----------------------------------------------------------------------===//

/// A loaded row's interior columns read as aligned 16-byte vectors: one
/// 128-bit load for four f32 (eight 16-bit, two f64) in place of four
/// loads, each with its own clamps and multiply-add. With i32 addressing
/// the accurate 3x3 tilings still moved only 65-71% of the H200's DRAM
/// bandwidth (docs/perforation.md, "Goals"): the fetch issues too many
/// instructions per byte. Taken where, uniformly over the block, the i32
/// fetch is exact and the image's first element, its pitch, its width and
/// the tile's first interior column are all multiples of 16 bytes. Then
/// each vector of a row, from the interior's first column on, lies wholly
/// inside or wholly outside the image, and one outside reads what `border`
/// says: the edge element or zero.
struct VectorAddressing {
  Value ok;         ///< i1: the vector fetch is exact for this block
  int64_t width;    ///< elements per vector
  VectorType type;
};

static std::optional<VectorAddressing>
vectorAddressing(Emitter &e, const NarrowAddressing &n, Value source,
                 Value col, int64_t tileCols) {
  auto type = cast<MemRefType>(source.getType());
  const unsigned bits = type.getElementTypeBitWidth();
  if (bits < 8 || 128 % bits)
    return std::nullopt;
  const int64_t width = 128 / bits;
  if (tileCols % width)
    return std::nullopt;
  ImplicitLocOpBuilder &b = e.b;
  auto multipleOf = [&](Value v, int64_t m) {
    Value zero = arith::ConstantOp::create(b, b.getZeroAttr(v.getType()));
    Value mask = arith::ConstantOp::create(
        b, b.getIntegerAttr(v.getType(), m - 1));
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                 arith::AndIOp::create(b, v, mask), zero)
        .getResult();
  };
  Value address = arith::AddIOp::create(
      b, memref::ExtractAlignedPointerAsIndexOp::create(b, source),
      arith::MulIOp::create(b, n.offset, e.idx(bits / 8)));
  Value ok = n.fits;
  for (Value v : {multipleOf(n.pitch, width), multipleOf(n.cols, width),
                  multipleOf(col, width), multipleOf(address, 16)})
    ok = arith::AndIOp::create(b, ok, v);
  return VectorAddressing{ok, width,
                          VectorType::get({width}, type.getElementType())};
}

/// Vector `c` of buffer row `i`: the elements of the row from buffer column
/// `first` + c * width on, as `border` reads them (valid where `v.ok`).
static Value loadVector(Emitter &e, const NarrowAddressing &n,
                        const VectorAddressing &v, Value i, Value c,
                        int64_t first, PerforationBorder border) {
  ImplicitLocOpBuilder &b = e.b;
  Type i32 = b.getI32Type();
  auto c32 = [&](int64_t x) {
    return arith::ConstantIntOp::create(b, i32, x).getResult();
  };
  using P = arith::CmpIPredicate;
  Value gy = arith::AddIOp::create(b, n.gy0,
                                   arith::IndexCastOp::create(b, i32, i));
  Value gx = arith::AddIOp::create(
      b, arith::AddIOp::create(b, n.gx0, c32(first)),
      arith::MulIOp::create(b, arith::IndexCastOp::create(b, i32, c),
                            c32(v.width)));
  auto load = [&](Value y, Value x) {
    Value off = arith::AddIOp::create(b, arith::MulIOp::create(b, y, n.pitch),
                                      x);
    return vector::LoadOp::create(
               b, v.type, n.flat,
               ValueRange{arith::IndexCastOp::create(b, b.getIndexType(), off)},
               /*nontemporal=*/false, llvm::MaybeAlign(16))
        .getResult();
  };
  // 0 <= gx < cols as one unsigned compare (both below 2^31).
  Value insideX = arith::CmpIOp::create(b, P::ult, gx, n.cols);
  if (border == PerforationBorder::clamp) {
    // A vector outside reads the edge element: the first element of the
    // first vector, or the last of the last.
    Value vec = load(
        e.clamp(gy, c32(0), arith::SubIOp::create(b, n.rows, c32(1))),
        e.clamp(gx, c32(0), arith::SubIOp::create(b, n.cols, c32(v.width))));
    Value edge = arith::SelectOp::create(
        b, arith::CmpIOp::create(b, P::slt, gx, c32(0)),
        vector::ExtractOp::create(b, vec, int64_t(0)),
        vector::ExtractOp::create(b, vec, v.width - 1));
    return arith::SelectOp::create(
        b, insideX, vec, vector::BroadcastOp::create(b, v.type, edge));
  }
  Value inside =
      arith::AndIOp::create(b, arith::CmpIOp::create(b, P::ult, gy, n.rows),
                            insideX);
  auto op = scf::IfOp::create(b, v.type, inside, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(op.thenBlock());
  scf::YieldOp::create(b, ValueRange{load(gy, gx)});
  b.setInsertionPointToStart(op.elseBlock());
  scf::YieldOp::create(
      b, ValueRange{arith::ConstantOp::create(b, b.getZeroAttr(v.type))});
  return op.getResult(0);
}

/// Makes the workgroup buffer under `tile` (a workgroup attribution of the
/// kernel, or a subview of one) at least 16-byte aligned, so that 16-byte
/// vector stores into it are legal; false where the buffer is something
/// else (its alignment is not ours to set).
static bool alignTileBuffer(Value tile) {
  Value root = tile;
  if (auto view = root.getDefiningOp<memref::SubViewOp>())
    root = view.getSource();
  auto arg = dyn_cast<BlockArgument>(root);
  auto func = arg ? dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp())
                  : gpu::GPUFuncOp();
  if (!func)
    return false;
  ArrayRef<BlockArgument> workgroup = func.getWorkgroupAttributions();
  auto it = llvm::find(workgroup, arg);
  if (it == workgroup.end())
    return false;
  unsigned index = unsigned(it - workgroup.begin());
  StringRef name = LLVM::LLVMDialect::getAlignAttrName();
  auto old = dyn_cast_or_null<IntegerAttr>(
      func.getWorkgroupAttributionAttr(index, name));
  if (!old || old.getInt() < 16)
    func.setWorkgroupAttributionAttr(
        index, name, IntegerAttr::get(IntegerType::get(func.getContext(), 64), 16));
  return true;
}

//===----------------------------------------------------------------------===//
// tile_load
//===----------------------------------------------------------------------===//

namespace {
/// Lowers one tile_load: its state, set up at the op in the order the IR is
/// built, and one method per job. Each scheme's fetch comes in up to three
/// versions (vectors where the image is aligned, else i32 addressing where
/// it is exact, else i64), then its rebuild (docs/perforation.md).
class TileLoadLowering {
public:
  TileLoadLowering(TileLoadOp op, bool vectorLoads);
  /// The fetch and rebuild of every scheme; erases the op.
  void run();

private:
  // Addressing: the image (a border-checked load) and the tile's buffer.
  Value read(Value i, Value j);
  Value tileIndex(Value i, Value j);
  void store(Value i, Value j, Value v);
  void storeVector(Value i, Value j, Value v);
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, p, x, y).getResult();
  }
  Value all(Value x, Value y) {
    return arith::AndIOp::create(b, x, y).getResult();
  }

  // Nearest-neighbour rebuilds fused into the fetch.
  void replicateAlong(Value p, int64_t span, int64_t extent,
                      function_ref<void(Value)> storeAt);
  void copyIntoHalo(Value i, Value j, int64_t width,
                    function_ref<void(int64_t, int64_t)> copy);
  static bool fused(PerforationSchemeAttr s);
  void write(Value i, Value j, Value v);
  void writeVector(Value i, Value j0, Value v);

  // Each scheme's fetch and rebuild.
  void fetchScheme(PerforationSchemeAttr scheme);
  void vectorScheme(PerforationSchemeAttr scheme);
  bool hasVectorFetch(PerforationSchemeAttr scheme) const;
  void fetchVersioned(PerforationSchemeAttr scheme);
  void rebuildScheme(PerforationSchemeAttr scheme);

  TileLoadOp op;
  Emitter e;
  ImplicitLocOpBuilder &b;
  MemRefType tileType;
  int64_t by, bx;      ///< the buffer
  int64_t hy, hx;      ///< its halo
  int64_t ty, tx;      ///< its interior (the tile)
  Value tile, source;
  Value gy0, gx0;      ///< image coordinates of buffer element (0, 0)
  std::optional<NarrowAddressing> narrow;
  std::optional<VectorAddressing> vec;
  /// Fetch stores go to a 1-D view of the tile's buffer at offset + i *
  /// pitch + j (rows `tilePitch` elements apart in a padded buffer).
  int64_t tilePitch = 0, tileOffset = 0;
  Value tileFlat;
  bool vectorStores = false;
  bool useNarrow = false;        ///< the fetch being emitted addresses in i32
  PerforationSchemeAttr current; ///< the scheme whose fetch is being emitted
};
} // namespace

TileLoadLowering::TileLoadLowering(TileLoadOp op, bool vectorLoads)
    : op(op), e(op), b(e.b) {
  std::tie(e.tid, e.nthreads) = e.threads();
  tileType = op.getTile().getType();
  by = tileType.getDimSize(0), bx = tileType.getDimSize(1);
  hy = op.getHaloRows(), hx = op.getHaloCols();
  ty = op.getTileRows(), tx = op.getTileCols();
  tile = op.getTile(), source = op.getSource();
  e.readSizes(source);
  gy0 = arith::SubIOp::create(b, op.getRow(), e.idx(hy));
  gx0 = arith::SubIOp::create(b, op.getCol(), e.idx(hx));
  e.loadType = source.getType();
  narrow = narrowAddressing(e, source, gy0, gx0);
  if (narrow && vectorLoads)
    vec = vectorAddressing(e, *narrow, source, op.getCol(), tx);
  // The 1-D view, in i32 (one wide multiply-add into the address, not
  // three i64 steps). The verifier made the layout row-major and static.
  SmallVector<int64_t> tileStrides;
  (void)tileType.getStridesAndOffset(tileStrides, tileOffset);
  tilePitch = tileStrides[0];
  tileFlat = memref::ReinterpretCastOp::create(
      b,
      MemRefType::get({tileOffset + (by - 1) * tilePitch + bx},
                      tileType.getElementType(), AffineMap(),
                      tileType.getMemorySpace()),
      memref::ExtractStridedMetadataOp::create(b, tile).getBaseBuffer(),
      OpFoldResult(b.getIndexAttr(0)),
      ArrayRef<OpFoldResult>{
          b.getIndexAttr(tileOffset + (by - 1) * tilePitch + bx)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

Value TileLoadLowering::read(Value i, Value j) {
  if (useNarrow)
    return loadBorderNarrow(e, *narrow, i, j, op.getBorder());
  Value gy = arith::AddIOp::create(b, gy0, i);
  Value gx = arith::AddIOp::create(b, gx0, j);
  return e.loadBorder(source, {gy, gx}, op.getBorder());
}

Value TileLoadLowering::tileIndex(Value i, Value j) {
  Type i32 = b.getI32Type();
  Value lin = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, arith::IndexCastUIOp::create(b, i32, i),
                            arith::ConstantIntOp::create(b, i32, tilePitch)),
      arith::AddIOp::create(b, arith::IndexCastUIOp::create(b, i32, j),
                            arith::ConstantIntOp::create(b, i32, tileOffset)));
  return arith::IndexCastUIOp::create(b, b.getIndexType(), lin).getResult();
}

void TileLoadLowering::store(Value i, Value j, Value v) {
  memref::StoreOp::create(b, v, tileFlat, ValueRange{tileIndex(i, j)});
}

void TileLoadLowering::storeVector(Value i, Value j, Value v) {
  vector::StoreOp::create(b, v, tileFlat, ValueRange{tileIndex(i, j)},
                          /*nontemporal=*/false, llvm::MaybeAlign(16));
}

/// nn along one axis, fused: loaded position p (of `extent`) also fills the
/// skipped positions whose nearest loaded one it is (docs: the nearer side,
/// the one before on a tie, the other where a side is missing): after it,
/// floor(span/2), or span-1 when no loaded position follows in the buffer;
/// before it, ceil(span/2)-1, or span-1 when none precedes.
void TileLoadLowering::replicateAlong(Value p, int64_t span, int64_t extent,
                                      function_ref<void(Value)> storeAt) {
  using P = arith::CmpIPredicate;
  Value last =
      cmp(P::sge, arith::AddIOp::create(b, p, e.idx(span)), e.idx(extent));
  Value first = cmp(P::slt, arith::SubIOp::create(b, p, e.idx(span)),
                    e.idx(0));
  for (int64_t d = 1; d < span; ++d) {
    Value after = arith::AddIOp::create(b, p, e.idx(d));
    Value afterOk = all(cmp(P::slt, after, e.idx(extent)),
                        d <= span / 2 ? cmp(P::eq, e.idx(0), e.idx(0))
                                      : last);
    e.ifThen(afterOk, [&] { storeAt(after); });
    Value before = arith::SubIOp::create(b, p, e.idx(d));
    Value beforeOk = all(cmp(P::sge, before, e.idx(0)),
                         d <= (span + 1) / 2 - 1
                             ? cmp(P::eq, e.idx(0), e.idx(0))
                             : first);
    e.ifThen(beforeOk, [&] { storeAt(before); });
  }
}

/// stencil:nn, fused: an interior element on the tile's edge is the nearest
/// interior element of the halo beyond it (and of the corner beyond both).
/// For each offset (di, dj) != 0 into the halo, copy(di, dj) runs where the
/// element(s) at row i from column j on lie on the edges that offset
/// crosses (the last of them at column j + width - 1).
void TileLoadLowering::copyIntoHalo(
    Value i, Value j, int64_t width,
    function_ref<void(int64_t, int64_t)> copy) {
  using P = arith::CmpIPredicate;
  Value top = cmp(P::eq, i, e.idx(hy)),
        bottom = cmp(P::eq, i, e.idx(hy + ty - 1));
  Value left = cmp(P::eq, j, e.idx(hx)),
        right = cmp(P::eq, j, e.idx(hx + tx - width));
  for (int64_t di = -hy; di <= hy; ++di)
    for (int64_t dj = -hx; dj <= hx; ++dj) {
      if (di == 0 && dj == 0)
        continue;
      Value ok;
      auto with = [&](Value c) { ok = ok ? all(ok, c) : c; };
      if (di < 0)
        with(top);
      if (di > 0)
        with(bottom);
      if (dj < 0)
        with(left);
      if (dj > 0)
        with(right);
      e.ifThen(ok, [&] { copy(di, dj); });
    }
}

bool TileLoadLowering::fused(PerforationSchemeAttr s) {
  return s.getRecon() == Reconstruction::nn &&
         (s.getKind() == PerforationKind::rows ||
          s.getKind() == PerforationKind::cols ||
          s.getKind() == PerforationKind::stencil);
}

/// One fetched element into the buffer, and the nn copies of it.
void TileLoadLowering::write(Value i, Value j, Value v) {
  store(i, j, v);
  if (!current || !fused(current))
    return;
  int64_t span = current.getSkip() + 1;
  switch (current.getKind()) {
  case PerforationKind::rows:
    replicateAlong(i, span, by, [&](Value r) { store(r, j, v); });
    break;
  case PerforationKind::cols:
    replicateAlong(j, span, bx, [&](Value c) { store(i, c, v); });
    break;
  case PerforationKind::stencil:
    copyIntoHalo(i, j, 1, [&](int64_t di, int64_t dj) {
      store(arith::AddIOp::create(b, i, e.idx(di)),
            arith::AddIOp::create(b, j, e.idx(dj)), v);
    });
    break;
  case PerforationKind::accurate:
  case PerforationKind::center:
    break;
  }
}

/// write() for the vector of row i from column j0 on: the same stores, nn
/// copies included, a vector at a time where they are whole vectors. A
/// vector goes to the tile as one 16-byte store where every row's interior
/// starts 16-byte aligned in the buffer (a padded buffer, as
/// approx-perforation-raise makes); else one by one, which a warp spreads
/// over only a quarter of the shared-memory banks (4-way conflicts: lane l
/// writes word 4l + k).
void TileLoadLowering::writeVector(Value i, Value j0, Value v) {
  const int64_t w = vec->width;
  auto lane = [&](int64_t k) {
    return vector::ExtractOp::create(b, v, k).getResult();
  };
  auto at = [&](int64_t k) {
    return arith::AddIOp::create(b, j0, e.idx(k)).getResult();
  };
  if (!vectorStores) {
    for (int64_t k = 0; k < w; ++k)
      write(i, at(k), lane(k));
    return;
  }
  storeVector(i, j0, v);
  if (!current || !fused(current))
    return;
  switch (current.getKind()) {
  case PerforationKind::rows:
    replicateAlong(i, current.getSkip() + 1, by,
                   [&](Value r) { storeVector(r, j0, v); });
    break;
  case PerforationKind::stencil:
    // As write(): the halo beyond the tile's edge rows takes whole vectors;
    // beyond its edge columns, the edge lane.
    copyIntoHalo(i, j0, w, [&](int64_t di, int64_t dj) {
      Value r = arith::AddIOp::create(b, i, e.idx(di));
      if (dj == 0)
        storeVector(r, j0, v);
      else
        store(r, at(dj < 0 ? dj : w - 1 + dj), lane(dj < 0 ? 0 : w - 1));
    });
    break;
  case PerforationKind::accurate:
  case PerforationKind::cols:
  case PerforationKind::center:
    break;
  }
}

/// The scalar fetch: consecutive e on consecutive columns of the loaded
/// rows.
void TileLoadLowering::fetchScheme(PerforationSchemeAttr scheme) {
  current = scheme;
  int64_t span = scheme.getSkip() + 1;
  auto readFn = [&](Value i, Value j) { return read(i, j); };
  auto writeFn = [&](Value i, Value j, Value v) { write(i, j, v); };
  switch (scheme.getKind()) {
  case PerforationKind::accurate:
    e.fetchList(
        e.idx(by * bx), by * bx, bx,
        [](Value r, Value c) { return std::make_pair(r, c); }, readFn,
        writeFn, by * bx);
    break;
  case PerforationKind::rows: {
    // First loaded row i0 (gy0 + i0 ≡ 0), and how many rows load.
    Value i0 = e.posMod(arith::SubIOp::create(b, e.idx(0), gy0), span);
    Value n = arith::CeilDivSIOp::create(
        b, arith::SubIOp::create(b, e.idx(by), i0), e.idx(span));
    const int64_t maxRows = (by + span - 1) / span, minRows = by / span;
    e.fetchList(
        arith::MulIOp::create(b, n, e.idx(bx)), maxRows * bx, bx,
        [&](Value r, Value c) {
          return std::make_pair(
              arith::AddIOp::create(b, i0,
                                    arith::MulIOp::create(b, r, e.idx(span)))
                  .getResult(),
              c);
        },
        readFn, writeFn, minRows * bx);
    break;
  }
  case PerforationKind::cols: {
    Value j0 = e.posMod(arith::SubIOp::create(b, e.idx(0), gx0), span);
    Value n = arith::CeilDivSIOp::create(
        b, arith::SubIOp::create(b, e.idx(bx), j0), e.idx(span));
    e.forEach(arith::MulIOp::create(b, n, e.idx(by)), [&](Value k) {
      Value c = arith::RemUIOp::create(b, k, n);
      Value j = arith::AddIOp::create(
          b, j0, arith::MulIOp::create(b, c, e.idx(span)));
      Value i = arith::DivUIOp::create(b, k, n);
      write(i, j, read(i, j));
    });
    break;
  }
  case PerforationKind::stencil:
    e.fetchList(
        e.idx(ty * tx), ty * tx, tx,
        [&](Value r, Value c) {
          return std::make_pair(
              arith::AddIOp::create(b, r, e.idx(hy)).getResult(),
              arith::AddIOp::create(b, c, e.idx(hx)).getResult());
        },
        readFn, writeFn, ty * tx);
    break;
  case PerforationKind::center:
    llvm_unreachable("refused by the verifier");
  }
}

/// The vector fetch of the schemes that load whole row segments: each
/// loaded row's interior as vectors, its halo columns one by one (in one
/// unrolled batch of loads). `cols` stays scalar: it loads no two
/// neighbouring elements of a row.
void TileLoadLowering::vectorScheme(PerforationSchemeAttr scheme) {
  current = scheme;
  useNarrow = true;
  const int64_t span = scheme.getSkip() + 1, w = vec->width;
  Value n = e.idx(by), i0 = e.idx(0);
  int64_t maxRows = by, minRows = by, step = 1;
  switch (scheme.getKind()) {
  case PerforationKind::rows:
    i0 = e.posMod(arith::SubIOp::create(b, e.idx(0), gy0), span);
    n = arith::CeilDivSIOp::create(
        b, arith::SubIOp::create(b, e.idx(by), i0), e.idx(span));
    maxRows = (by + span - 1) / span, minRows = by / span, step = span;
    break;
  case PerforationKind::stencil:
    n = e.idx(ty), i0 = e.idx(hy), maxRows = minRows = ty;
    break;
  default:
    break;
  }
  auto row = [&](Value r) {
    return arith::AddIOp::create(b, i0,
                                 arith::MulIOp::create(b, r, e.idx(step)))
        .getResult();
  };
  SmallVector<Emitter::FetchList, 2> lists;
  lists.push_back(Emitter::FetchList{
      arith::MulIOp::create(b, n, e.idx(tx / w)), maxRows * (tx / w), tx / w,
      [&](Value r, Value c) { return std::make_pair(row(r), c); },
      [&](Value i, Value c) {
        return loadVector(e, *narrow, *vec, i, c, hx, op.getBorder());
      },
      [&](Value i, Value c, Value v) {
        writeVector(i,
                    arith::AddIOp::create(
                        b, e.idx(hx), arith::MulIOp::create(b, c, e.idx(w))),
                    v);
      },
      minRows * (tx / w), vec->type});
  if (scheme.getKind() != PerforationKind::stencil && hx > 0)
    lists.push_back(Emitter::FetchList{
        arith::MulIOp::create(b, n, e.idx(2 * hx)), maxRows * 2 * hx, 2 * hx,
        [&](Value r, Value c) {
          // Halo column c: the left ones, then the right ones.
          Value right = arith::CmpIOp::create(b, arith::CmpIPredicate::sge, c,
                                              e.idx(hx));
          return std::make_pair(
              row(r),
              arith::SelectOp::create(
                  b, right, arith::AddIOp::create(b, c, e.idx(tx)), c)
                  .getResult());
        },
        [&](Value i, Value j) { return read(i, j); },
        [&](Value i, Value j, Value v) { write(i, j, v); }, minRows * 2 * hx,
        cast<MemRefType>(source.getType()).getElementType()});
  e.fetchLists(lists);
}

bool TileLoadLowering::hasVectorFetch(PerforationSchemeAttr scheme) const {
  return vec && (scheme.getKind() == PerforationKind::accurate ||
                 scheme.getKind() == PerforationKind::rows ||
                 scheme.getKind() == PerforationKind::stencil);
}

/// A scheme's fetch in up to three versions, by the block's uniform tests:
/// vectors where the image is aligned, else i32 addressing where it is
/// exact, else i64.
void TileLoadLowering::fetchVersioned(PerforationSchemeAttr scheme) {
  auto scalar = [&] {
    if (!narrow) {
      useNarrow = false;
      fetchScheme(scheme);
      return;
    }
    auto version = scf::IfOp::create(b, narrow->fits, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(version.thenBlock());
    useNarrow = true;
    fetchScheme(scheme);
    b.setInsertionPointToStart(version.elseBlock());
    useNarrow = false;
    fetchScheme(scheme);
  };
  if (!hasVectorFetch(scheme)) {
    scalar();
    return;
  }
  auto version = scf::IfOp::create(b, vec->ok, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(version.thenBlock());
  vectorScheme(scheme);
  b.setInsertionPointToStart(version.elseBlock());
  scalar();
}

/// Rebuild: every buffer element, skipped ones replaced.
void TileLoadLowering::rebuildScheme(PerforationSchemeAttr scheme) {
  int64_t span = scheme.getSkip() + 1;
  e.forEachElement(by, bx, [&](Value i, Value j) {
    auto at = [&](Value r, Value c) {
      return memref::LoadOp::create(b, tile, ValueRange{r, c}).getResult();
    };
    switch (scheme.getKind()) {
    case PerforationKind::rows:
    case PerforationKind::cols: {
      bool rows = scheme.getKind() == PerforationKind::rows;
      Value pos = rows ? i : j;
      Value phase =
          e.posMod(arith::AddIOp::create(b, rows ? gy0 : gx0, pos), span);
      Value skipped =
          arith::CmpIOp::create(b, arith::CmpIPredicate::ne, phase, e.idx(0));
      e.ifThen(skipped, [&] {
        Value above = arith::SubIOp::create(b, e.idx(span), phase);
        Value v = rebuildAlongAxis(
            e, pos, phase, above, span, rows ? by : bx, scheme.getRecon(),
            [&](Value p) { return rows ? at(p, j) : at(i, p); });
        memref::StoreOp::create(b, v, tile, ValueRange{i, j});
      });
      break;
    }
    case PerforationKind::stencil: {
      Value si = e.clamp(i, e.idx(hy), e.idx(hy + ty - 1));
      Value sj = e.clamp(j, e.idx(hx), e.idx(hx + tx - 1));
      Value halo = arith::OrIOp::create(
          b, arith::CmpIOp::create(b, arith::CmpIPredicate::ne, si, i),
          arith::CmpIOp::create(b, arith::CmpIPredicate::ne, sj, j));
      e.ifThen(halo, [&] {
        memref::StoreOp::create(b, at(si, sj), tile, ValueRange{i, j});
      });
      break;
    }
    case PerforationKind::accurate:
    case PerforationKind::center:
      llvm_unreachable("not rebuilt");
    }
  });
}

void TileLoadLowering::run() {
  vectorStores = vec && (tileOffset + hx) % vec->width == 0 &&
                 tilePitch % vec->width == 0 && alignTileBuffer(tile);
  emitFetchAndRebuild(
      e, op.getSchemes(), op.getKnobAttr(),
      [&](PerforationSchemeAttr s) { fetchVersioned(s); },
      [&](PerforationSchemeAttr s) { rebuildScheme(s); }, fused);
  op.erase();
}

static void lowerTileLoad(TileLoadOp op, bool vectorLoads) {
  TileLoadLowering(op, vectorLoads).run();
}

//===----------------------------------------------------------------------===//
// load_1d
//===----------------------------------------------------------------------===//

static void lowerLoad1D(Load1DOp op) {
  Emitter e(op);
  ImplicitLocOpBuilder &b = e.b;
  std::tie(e.tid, e.nthreads) = e.threads();
  MemRefType tileType = op.getTile().getType();
  const int64_t n = tileType.getDimSize(0), h = op.getHalo(), t = n - 2 * h;
  const int64_t sector = std::max<int64_t>(
      1, 32 / (tileType.getElementType().getIntOrFloatBitWidth() / 8));
  Value tile = op.getTile();
  e.readSizes(op.getSource());
  Value g0 = arith::SubIOp::create(b, op.getStart(), e.idx(h));
  auto fetch = [&](Value i) {
    Value v = e.loadBorder(op.getSource(), {arith::AddIOp::create(b, g0, i)},
                           op.getBorder());
    memref::StoreOp::create(b, v, tile, ValueRange{i});
  };
  // The sector phase of buffer element i: floor((g0 + i) / S) mod (n+1).
  auto sectorPhase = [&](Value i, int64_t span) {
    Value g = arith::AddIOp::create(b, g0, i);
    return e.posMod(arith::FloorDivSIOp::create(b, g, e.idx(sector)), span);
  };
  auto fetchScheme = [&](PerforationSchemeAttr scheme) {
    switch (scheme.getKind()) {
    case PerforationKind::accurate:
      e.forEach(e.idx(n), fetch);
      break;
    case PerforationKind::rows:
      // Whole sectors are skipped: their lanes issue no load at all.
      e.forEach(e.idx(n), [&](Value i) {
        Value loaded =
            arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                  sectorPhase(i, scheme.getSkip() + 1), e.idx(0));
        e.ifThen(loaded, [&] { fetch(i); });
      });
      break;
    case PerforationKind::stencil:
      e.forEach(e.idx(t), [&](Value k) {
        fetch(arith::AddIOp::create(b, k, e.idx(h)));
      });
      break;
    case PerforationKind::cols:
    case PerforationKind::center:
      llvm_unreachable("refused by the verifier");
    }
  };
  auto rebuildScheme = [&](PerforationSchemeAttr scheme) {
    auto at = [&](Value p) {
      return memref::LoadOp::create(b, tile, ValueRange{p}).getResult();
    };
    e.forEach(e.idx(n), [&](Value i) {
      if (scheme.getKind() == PerforationKind::stencil) {
        Value si = e.clamp(i, e.idx(h), e.idx(h + t - 1));
        Value halo = arith::CmpIOp::create(b, arith::CmpIPredicate::ne, si, i);
        e.ifThen(halo, [&] {
          memref::StoreOp::create(b, at(si), tile, ValueRange{i});
        });
        return;
      }
      // rows: i lies in a skipped sector; a is the last element of the
      // loaded sector before it, b the first of the loaded sector after.
      int64_t span = scheme.getSkip() + 1;
      Value phase = sectorPhase(i, span);
      Value skipped =
          arith::CmpIOp::create(b, arith::CmpIPredicate::ne, phase, e.idx(0));
      e.ifThen(skipped, [&] {
        Value g = arith::AddIOp::create(b, g0, i);
        Value inSector = e.posMod(g, sector);
        // Distance back to the loaded sector's last element, and on to the
        // next loaded sector's first.
        Value below = arith::AddIOp::create(
            b, arith::MulIOp::create(
                   b, arith::SubIOp::create(b, phase, e.idx(1)), e.idx(sector)),
            arith::AddIOp::create(b, inSector, e.idx(1)));
        Value gap = e.idx(scheme.getSkip() * sector + 1);
        Value above = arith::SubIOp::create(b, gap, below);
        Value v = rebuildAlongAxis(e, i, below, above,
                                   scheme.getSkip() * sector + 1, n,
                                   scheme.getRecon(), at);
        memref::StoreOp::create(b, v, tile, ValueRange{i});
      });
    });
  };
  emitFetchAndRebuild(e, op.getSchemes(), op.getKnobAttr(), fetchScheme,
                      rebuildScheme,
                      [](PerforationSchemeAttr) { return false; });
  op.erase();
}

//===----------------------------------------------------------------------===//
// output
//===----------------------------------------------------------------------===//

/// The computed coordinate of `pos` along an axis of `extent` for a group
/// of `span`: min(g*span + floor((span-1)/2), extent-1), and the group's
/// first position.
static std::pair<Value, Value> groupSource(Emitter &e, Value pos, Value extent,
                                           int64_t span) {
  ImplicitLocOpBuilder &b = e.b;
  Value first = arith::MulIOp::create(
      b, arith::DivUIOp::create(b, pos, e.idx(span)), e.idx(span));
  Value mid = arith::AddIOp::create(b, first, e.idx((span - 1) / 2));
  Value last = arith::SubIOp::create(b, extent, e.idx(1));
  return {arith::MinSIOp::create(b, mid, last), first};
}

static void lowerOutput(OutputPerforationOp op) {
  Emitter e(op);
  ImplicitLocOpBuilder &b = e.b;
  Value out = op.getOut(), y = op.getY(), x = op.getX();
  Value height = memref::DimOp::create(b, out, 0);
  Value width = memref::DimOp::create(b, out, 1);
  SmallVector<PerforationSchemeAttr> schemes(
      op.getSchemes().getAsRange<PerforationSchemeAttr>());
  SmallVector<int64_t> all;
  for (int64_t s = 0, n = schemes.size(); s < n; ++s)
    all.push_back(s);
  // The region, at (r, c), then its value stored at every (yy, xx) listed.
  auto compute = [&](Value r, Value c) {
    IRMapping map;
    Block &body = op.getBody().front();
    map.map(body.getArgument(0), r);
    map.map(body.getArgument(1), c);
    for (Operation &inner : body.without_terminator())
      b.clone(inner, map);
    auto yield = cast<PerforationYieldOp>(body.getTerminator());
    return map.lookup(yield.getValue());
  };
  Value sel = e.schemeIndex(op.getKnobAttr());
  e.switchOn(sel, all, [&](int64_t s) {
    PerforationSchemeAttr scheme = schemes[s];
    int64_t span = scheme.getSkip() + 1;
    bool rows = scheme.getKind() == PerforationKind::rows ||
                scheme.getKind() == PerforationKind::center;
    bool cols = scheme.getKind() == PerforationKind::cols ||
                scheme.getKind() == PerforationKind::center;
    if (!rows && !cols) {
      memref::StoreOp::create(b, compute(y, x), out, ValueRange{y, x});
      return;
    }
    Value r = y, firstY = y, endY = arith::AddIOp::create(b, y, e.idx(1));
    Value c = x, firstX = x, endX = arith::AddIOp::create(b, x, e.idx(1));
    if (rows) {
      std::tie(r, firstY) = groupSource(e, y, height, span);
      endY = arith::MinSIOp::create(
          b, arith::AddIOp::create(b, firstY, e.idx(span)), height);
    }
    if (cols) {
      std::tie(c, firstX) = groupSource(e, x, width, span);
      endX = arith::MinSIOp::create(
          b, arith::AddIOp::create(b, firstX, e.idx(span)), width);
    }
    Value mine = arith::AndIOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, r, y),
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, c, x));
    e.ifThen(mine, [&] {
      Value v = compute(r, c);
      auto outer = scf::ForOp::create(b, firstY, endY, e.idx(1));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(outer.getBody());
      auto inner = scf::ForOp::create(b, firstX, endX, e.idx(1));
      b.setInsertionPointToStart(inner.getBody());
      memref::StoreOp::create(
          b, v, out,
          ValueRange{outer.getInductionVar(), inner.getInductionVar()});
    });
  });
  op.erase();
}

//===----------------------------------------------------------------------===//
// The pass.
//===----------------------------------------------------------------------===//

/// The site of one perforation op: its schemes (payloads) in knob order, and `extra`
/// facts (a tile load's halo, which the runtime's guard needs).
template <typename OpTy>
static SiteAttr siteOf(OpTy op, StringRef what, Type element,
                       ArrayRef<NamedAttribute> extra = {}) {
  Builder b(op.getContext());
  // Typed payloads (manifest v3): the runtime reads the fields, no names.
  SmallVector<Attribute> names;
  for (auto scheme : op.getSchemes().template getAsRange<PerforationSchemeAttr>())
    names.push_back(scheme.getPayload());
  SiteForm form = op.getKnobAttr() ? SiteForm::tunable
                  : cast<PerforationSchemeAttr>(op.getSchemes()[0]).getKind() ==
                          PerforationKind::accurate
                      ? SiteForm::precise
                      : SiteForm::approximate;
  StringRef reason = form == SiteForm::tunable ? ""
                     : form == SiteForm::precise
                         ? "one scheme, accurate"
                         : "one scheme, pinned by the input IR";
  return makeSite(op, "perforation", what, element, op.getKnobAttr(), form,
                  reason,
                  [&] {
                    SmallVector<NamedAttribute> data(extra);
                    data.push_back(
                        b.getNamedAttr("schemes", b.getArrayAttr(names)));
                    return b.getDictionaryAttr(data);
                  }());
}

struct ApproxPerforationLowerPass final
    : mlir::approx::impl::ApproxPerforationLowerBase<
          ApproxPerforationLowerPass> {
  using Base::Base;
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<TileLoadOp, Load1DOp, OutputPerforationOp>(op))
        ops.push_back(op);
    });
    // A scheme knob's values are the schemes asked for (the manifest's typed
    // domain). Each op maps them to what it can do (a halo-free load takes
    // `accurate` for `stencil`), so ops may differ: a knob declared without
    // values gets them only where all its ops agree, and any op whose
    // scheme count differs from the knob's values is refused.
    llvm::MapVector<KnobOp, ArrayAttr> agreed;
    llvm::DenseSet<KnobOp> disagree;
    for (Operation *op : ops) {
      auto knobRef = op->getAttrOfType<FlatSymbolRefAttr>("knob");
      auto schemes = op->getAttrOfType<ArrayAttr>("schemes");
      if (!knobRef || !schemes)
        continue;
      auto knob = SymbolTable::lookupNearestSymbolFrom<KnobOp>(op, knobRef);
      if (!knob)
        continue; // the op's verifier names the missing knob
      if (ArrayAttr values = knob.getValuesAttr()) {
        if (values.size() != schemes.size()) {
          op->emitError("approx-perforation-lower: knob ")
              << knobRef << " has " << values.size() << " values and this op "
              << schemes.size() << " schemes: one scheme per value";
          return signalPassFailure();
        }
        continue;
      }
      auto [it, fresh] = agreed.insert({knob, schemes});
      if (!fresh && it->second != schemes)
        disagree.insert(knob);
    }
    for (auto [knob, schemes] : agreed)
      if (!disagree.contains(knob) &&
          int64_t(schemes.size()) == knob.getMax() - knob.getMin() + 1)
        knob.setValuesAttr(schemes);
    SmallVector<Attribute> sites;
    for (Operation *op : ops) {
      if (auto load = dyn_cast<TileLoadOp>(op)) {
        Builder b(load.getContext());
        sites.push_back(siteOf(
            load, "tile_load", load.getTile().getType().getElementType(),
            {b.getNamedAttr("halo", b.getI64ArrayAttr(
                                        {int64_t(load.getHaloRows()),
                                         int64_t(load.getHaloCols())}))}));
        lowerTileLoad(load, vectorLoads);
      } else if (auto load = dyn_cast<Load1DOp>(op)) {
        sites.push_back(siteOf(load, "load_1d",
                               load.getTile().getType().getElementType()));
        lowerLoad1D(load);
      } else {
        auto output = cast<OutputPerforationOp>(op);
        sites.push_back(siteOf(output, "output",
                               output.getOut().getType().getElementType()));
        lowerOutput(output);
      }
    }
    if (!sites.empty())
      appendSites(module, sites);
  }
};

} // namespace
