//===- ApproxLnsLower.cpp - approx.lns.sb/db -> their implementations ----===//
//
// Evaluates sb(x) = log2(1 + 2^x) and db(x) = log2|1 - 2^x| as each op's
// `impl` says. The table implementations (texture1, texture2, texture3,
// horner, and split's texture side) read tables fitted here at compile time
// by passes/lns/math: a texture (2-D; 3-D for texture3) the runtime creates
// from an `approx.resource_knob`, or a constant `memref.global`. The f32
// operations emitted for the table coordinates are exactly those the C++
// model in passes/lns/math mirrors (docs/lns.md, "Numerics"), so the model
// predicts
// the GPU's results bit for bit.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"
#include "common/Sites.h"

#include "LnsTables.h" // passes/lns/math

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

#include <limits>

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXLNSLOWER
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {

/// The functions a group of ops with one operand and one impl needs.
struct Group {
  Value input;
  LnsImplAttr impl;
  bool nonpositive = false;
  SmallVector<Operation *> sbOps, dbOps;
};

/// sb and db of one operand (null where not needed).
struct Results {
  Value sb, db;
};

/// Emits the evaluation of one group, creating its tables on first use.
class Lowering {
public:
  Lowering(gpu::GPUModuleOp module) : module(module), symbols(module) {}

  LogicalResult lower(Group &g);

private:
  /// The segments per unit `impl` asks for, derived where it says how.
  FailureOr<int64_t> segments(Operation *at, LnsImplAttr impl);
  /// The table of (kind, segments, degree), fitted once per module (the
  /// max_error search and the table symbol share it); null after an error.
  const ::approx::lns::LnsTable *build(Operation *at, LnsImplKind kind,
                                       int64_t k, int64_t degree);
  /// The table symbol of (kind, segments, degree), generated once.
  FailureOr<FlatSymbolRefAttr> table(Operation *at, LnsImplKind kind,
                                     int64_t k, int64_t degree,
                                     DictionaryAttr &errors);

  Results emit(ImplicitLocOpBuilder &b, Value x, LnsImplAttr impl, int64_t k,
               bool wantSb, bool wantDb, FlatSymbolRefAttr sym);
  Results emitPrecise(ImplicitLocOpBuilder &b, Value x, bool sb, bool db);
  Results emitSfu(ImplicitLocOpBuilder &b, Value x, bool sb, bool db);
  Results emitTable(ImplicitLocOpBuilder &b, Value x, LnsImplKind kind,
                    int64_t k, int64_t degree, bool sb, bool db,
                    FlatSymbolRefAttr sym);

  Value cst(ImplicitLocOpBuilder &b, double v) {
    return arith::ConstantOp::create(b, b.getF32FloatAttr(float(v)));
  }
  Value sfu(ImplicitLocOpBuilder &b, StringRef name, Value x) {
    return LLVM::CallIntrinsicOp::create(b, b.getF32Type(),
                                         b.getStringAttr(name), ValueRange{x})
        .getResult(0);
  }

  gpu::GPUModuleOp module;
  SymbolTable symbols;
  struct TableInfo {
    FlatSymbolRefAttr sym;
    DictionaryAttr errors;
  };
  std::map<std::tuple<int, int64_t, int64_t>, TableInfo> tables;
  std::map<std::tuple<int, int64_t, int64_t>, ::approx::lns::LnsTable> built;
};

} // namespace

/// Builds the table of (kind, k, degree) with passes/lns/math.
static bool buildTable(LnsImplKind kind, int64_t k, int64_t degree,
                       ::approx::lns::LnsTable &t, std::string &error) {
  switch (kind) {
  case LnsImplKind::texture2:
  case LnsImplKind::split:
    return ::approx::lns::buildTexture2(unsigned(k), t, &error);
  case LnsImplKind::texture3:
    return ::approx::lns::buildTexture3(unsigned(k), t, &error);
  case LnsImplKind::texture1:
    return ::approx::lns::buildTexture1(unsigned(k), t, &error);
  case LnsImplKind::horner:
    return ::approx::lns::buildHorner(unsigned(k), unsigned(degree), t,
                                      &error);
  default:
    llvm_unreachable("not a table implementation");
  }
}

const ::approx::lns::LnsTable *
Lowering::build(Operation *at, LnsImplKind kind, int64_t k, int64_t degree) {
  if (kind == LnsImplKind::split)
    kind = LnsImplKind::texture2;
  if (kind != LnsImplKind::horner)
    degree = 0;
  auto key = std::make_tuple(int(kind), k, degree);
  if (auto it = built.find(key); it != built.end())
    return &it->second;
  ::approx::lns::LnsTable t;
  std::string error;
  if (!buildTable(kind, k, degree, t, error)) {
    at->emitOpError("cannot generate the ")
        << stringifyLnsImplKind(kind) << " table: " << error;
    return nullptr;
  }
  return &(built[key] = std::move(t));
}

FailureOr<int64_t> Lowering::segments(Operation *at, LnsImplAttr impl) {
  if (impl.getSegments() > 0)
    return impl.getSegments();
  const int64_t bits = impl.getInputBits();
  if (!impl.getMaxError())
    return bits ? int64_t(1) << std::max<int64_t>(0, bits - 8) : 64;
  // The fewest segments whose predicted error meets the bound: on inputs of
  // `bits` fractional bits the filter's fraction is exact when the table's
  // own grid, 2^-(log2 k + 8), is at least as fine (texture kinds); the
  // FMA units have no such quantisation. texture3's 3-D texture holds at
  // most 256 segments per unit.
  const int64_t maxK = impl.getKind() == LnsImplKind::texture3 ? 256 : 1024;
  for (int64_t k = 1; k <= maxK; k *= 2) {
    const ::approx::lns::LnsTable *built =
        build(at, impl.getKind(), k, impl.getDegree());
    if (!built)
      return failure();
    const ::approx::lns::LnsTable &t = *built;
    bool exact = bits && impl.getKind() != LnsImplKind::horner &&
                 llvm::Log2_64(k) + 8 >= uint64_t(bits);
    const double *err = exact ? t.maxErrorExact : t.maxErrorAny;
    const double bound = impl.getMaxError().getValueAsDouble();
    if (err[0] <= bound && err[1] <= bound)
      return k;
  }
  return at->emitOpError("no segment count up to ")
         << maxK << " per unit meets "
         << "max_error = " << impl.getMaxError().getValueAsDouble() << " for "
         << stringifyLnsImplKind(impl.getKind())
         << (bits ? "" : " on any f32 (give input_bits if the inputs have "
                         "fewer fractional bits)");
}

FailureOr<FlatSymbolRefAttr> Lowering::table(Operation *at, LnsImplKind kind,
                                             int64_t k, int64_t degree,
                                             DictionaryAttr &errors) {
  if (kind == LnsImplKind::split)
    kind = LnsImplKind::texture2;
  if (kind != LnsImplKind::horner)
    degree = 0;
  auto key = std::make_tuple(int(kind), k, degree);
  if (auto it = tables.find(key); it != tables.end()) {
    errors = it->second.errors;
    return it->second.sym;
  }
  const ::approx::lns::LnsTable *built = build(at, kind, k, degree);
  if (!built)
    return failure();
  const ::approx::lns::LnsTable &t = *built;

  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  Location loc = module.getLoc();
  std::string name = ("lns_" + stringifyLnsImplKind(kind) + "_s" +
                      std::to_string(k))
                         .str();
  if (kind == LnsImplKind::horner)
    name += "_d" + std::to_string(degree);
  Operation *decl;
  if (kind == LnsImplKind::horner) {
    auto type = MemRefType::get({int64_t(t.data.size())}, b.getF32Type());
    auto value = DenseElementsAttr::get(
        RankedTensorType::get(type.getShape(), b.getF32Type()),
        ArrayRef<float>(t.data));
    decl = memref::GlobalOp::create(b, loc, name,
                                    b.getStringAttr("private"), type, value,
                                    /*constant=*/true, IntegerAttr());
  } else {
    // D x H x W x C (texture3) or H x W x C: x fastest, as LnsTable lays
    // the texels out.
    const bool threeD = t.depth > 1;
    SmallVector<int64_t, 4> shape;
    if (threeD)
      shape.push_back(t.depth);
    shape.append({int64_t(t.height), int64_t(t.width), int64_t(t.channels)});
    auto type = RankedTensorType::get(shape, b.getF32Type());
    auto value = DenseElementsAttr::get(type, ArrayRef<float>(t.data));
    decl = ResourceKnobOp::create(
        b, loc, name, /*default_value=*/0,
        threeD ? TextureType::texture_3d : TextureType::texture_2d,
        TextureFilter::linear, TextureAddress::clamp,
        /*normalized_coords=*/false,
        b.getArrayAttr(ArrayRef<Attribute>{value}), /*param_path=*/false);
  }
  // Renames on a clash with a user's symbol.
  StringAttr unique = symbols.insert(decl);
  errors = b.getDictionaryAttr(
      {b.getNamedAttr("sb", b.getF64FloatAttr(t.maxErrorAny[0])),
       b.getNamedAttr("db", b.getF64FloatAttr(t.maxErrorAny[1]))});
  auto sym = FlatSymbolRefAttr::get(unique);
  tables[key] = {sym, errors};
  return sym;
}

Results Lowering::emitPrecise(ImplicitLocOpBuilder &b, Value x, bool sb,
                              bool db) {
  Results r;
  if (sb) {
    // log2(1 + 2^x) = log1p(2^x) / ln 2: accurate where 2^x is tiny.
    Value e = math::Exp2Op::create(b, x);
    Value l = math::Log1pOp::create(b, e);
    r.sb = arith::MulFOp::create(b, l, cst(b, 1.4426950408889634));
  }
  if (db) {
    // log2(1 - 2^x) = log2(-expm1(x ln 2)): no cancellation near 0. Below
    // 2^-40, where x ln 2 may be subnormal (and lose bits), db = log2(-x) +
    // log2(ln 2) to within 2^-40.
    Value xl = arith::MulFOp::create(b, x, cst(b, 0.6931471805599453));
    Value m = math::ExpM1Op::create(b, xl);
    Value n = arith::NegFOp::create(b, m);
    Value general = math::Log2Op::create(b, n);
    Value negX = arith::NegFOp::create(b, x);
    Value lx = math::Log2Op::create(b, negX);
    Value tiny = arith::AddFOp::create(b, lx, cst(b, -0.5287663729448977));
    Value isTiny = arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, x,
                                         cst(b, -0x1p-40));
    r.db = arith::SelectOp::create(b, isTiny, tiny, general);
  }
  return r;
}

Results Lowering::emitSfu(ImplicitLocOpBuilder &b, Value x, bool sb,
                          bool db) {
  // One 2^x for both functions (the paper's "common 2^x").
  Value e = sfu(b, "llvm.nvvm.ex2.approx.ftz.f", x);
  Value one = cst(b, 1.0);
  Results r;
  if (sb)
    r.sb = sfu(b, "llvm.nvvm.lg2.approx.ftz.f",
               arith::AddFOp::create(b, one, e));
  if (db)
    r.db = sfu(b, "llvm.nvvm.lg2.approx.ftz.f",
               arith::SubFOp::create(b, one, e));
  return r;
}

Results Lowering::emitTable(ImplicitLocOpBuilder &b, Value x,
                            LnsImplKind kind, int64_t k, int64_t degree,
                            bool wantSb, bool wantDb, FlatSymbolRefAttr sym) {
  // Segments of width 1/k from -32: u = (x + 32) k (the multiply is exact),
  // the segment xe = floor(u) and the fraction g = u - xe (exact).
  const int64_t n = 32 * k; // segments over [-32, 0]
  Value t = arith::AddFOp::create(b, x, cst(b, 32.0));
  Value u = arith::MulFOp::create(b, t, cst(b, double(k)));
  Value far, sbV, dbFar, cbV, near;
  if (kind == LnsImplKind::texture1) {
    Value cx = arith::AddFOp::create(b, u, cst(b, 0.5));
    Value h = ResourceHandleOp::create(b, b.getI64Type(), sym);
    Value v = TextureFetchOp::create(b, VectorType::get({4}, b.getF32Type()), h,
                                     cx, cst(b, 0.5), /*z=*/Value());
    sbV = vector::ExtractOp::create(b, v, 0);
    dbFar = vector::ExtractOp::create(b, v, 1);
    cbV = vector::ExtractOp::create(b, v, 2);
    near = arith::CmpFOp::create(b, arith::CmpFPredicate::OGE, u,
                                 cst(b, double(n - k)));
  } else {
    // The segment, clamped into the table (maxnumf: NaN gives segment 0, so
    // horner never indexes out of its table).
    Value fl = math::FloorOp::create(b, u);
    Value lo = arith::MaxNumFOp::create(b, fl, cst(b, 0.0));
    Value xe = arith::MinimumFOp::create(b, lo, cst(b, double(n - 1)));
    Value g = arith::SubFOp::create(b, u, xe); // exact, in [0, 1]
    // The last k segments, [-1, 0], hold db's cotransformation
    // (docs/lns.md).
    near = arith::CmpFOp::create(b, arith::CmpFPredicate::OGE, xe,
                                 cst(b, double(n - k)));
    if (kind == LnsImplKind::horner) {
      // C[w][f][0..d]: p = C[d]; p = fma(p, g, C[i]) for i = d-1 .. 0.
      Value w32 = arith::FPToSIOp::create(b, b.getI32Type(), xe);
      Value w = arith::IndexCastOp::create(b, b.getIndexType(), w32);
      Value base = memref::GetGlobalOp::create(
          b, MemRefType::get({n * 3 * (degree + 1)}, b.getF32Type()),
          sym.getValue());
      auto poly = [&](int64_t f) {
        Value stride = arith::ConstantIndexOp::create(b, 3 * (degree + 1));
        Value row = arith::MulIOp::create(b, w, stride);
        auto coeff = [&](int64_t i) {
          Value off = arith::ConstantIndexOp::create(b, f * (degree + 1) + i);
          Value idx = arith::AddIOp::create(b, row, off);
          return memref::LoadOp::create(b, base, ValueRange{idx})
              .getResult();
        };
        Value p = coeff(degree);
        for (int64_t i = degree - 1; i >= 0; --i)
          p = math::FmaOp::create(b, p, g, coeff(i));
        return p;
      };
      if (wantSb)
        sbV = poly(0);
      if (wantDb) {
        dbFar = poly(1);
        cbV = poly(2);
      }
    } else {
      // The paper's coordinates: (2 xe + g + 0.5, g + 0.5); texture3 fetches
      // its 3-D texture at (2 xe + g + 0.5, g + 0.5, g + 0.5), the same
      // fraction in every coordinate (passes/lns/math/LnsTables.cpp derives
      // the partial-sum layout this evaluates).
      Value xf = arith::AddFOp::create(b, g, cst(b, 0.5));
      Value twoXe = arith::MulFOp::create(b, xe, cst(b, 2.0));
      Value cx = arith::AddFOp::create(b, twoXe, xf);
      Value h = ResourceHandleOp::create(b, b.getI64Type(), sym);
      Value z = kind == LnsImplKind::texture3 ? xf : Value();
      Value v = TextureFetchOp::create(b, VectorType::get({4}, b.getF32Type()),
                                       h, cx, xf, z);
      sbV = vector::ExtractOp::create(b, v, 0);
      dbFar = vector::ExtractOp::create(b, v, 1);
      cbV = vector::ExtractOp::create(b, v, 2);
    }
  }
  // Below the table every function is 0 (x + 0 = x exactly).
  Value below = arith::CmpFOp::create(b, arith::CmpFPredicate::OLT, x,
                                      cst(b, -32.0));
  Value zero = cst(b, 0.0);
  Results r;
  if (wantSb)
    r.sb = arith::SelectOp::create(b, below, zero, sbV);
  if (wantDb) {
    // Near 0, db = cb + log2(-x) (cotransformation of the singularity);
    // a branch, so only warps with such lanes pay the SFU's log2.
    auto ifOp = scf::IfOp::create(b, b.getF32Type(), near,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value negX = arith::NegFOp::create(b, x);
      // Not .ftz: -x may be subnormal, and db there is finite (-149.5 at
      // the smallest).
      Value l = sfu(b, "llvm.nvvm.lg2.approx.f", negX);
      scf::YieldOp::create(b, ValueRange{arith::AddFOp::create(b, cbV, l)});
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, ValueRange{dbFar});
    }
    r.db = arith::SelectOp::create(b, below, zero, ifOp.getResult(0));
  }
  return r;
}

Results Lowering::emit(ImplicitLocOpBuilder &b, Value x, LnsImplAttr impl,
                       int64_t k, bool sb, bool db, FlatSymbolRefAttr sym) {
  switch (impl.getKind()) {
  case LnsImplKind::precise:
    return emitPrecise(b, x, sb, db);
  case LnsImplKind::sfu:
    return emitSfu(b, x, sb, db);
  case LnsImplKind::horner:
  case LnsImplKind::texture1:
  case LnsImplKind::texture2:
  case LnsImplKind::texture3:
    return emitTable(b, x, impl.getKind(), k, impl.getDegree(), sb, db, sym);
  case LnsImplKind::split:
    break;
  }
  // Warps whose slot id is below λ use the texture units, the others the
  // SFU: one warp-uniform branch, so both units work at once.
  Value slot = WarpSlotOp::create(b, b.getI32Type(), impl.getSlot());
  Value lambda = KnobValueOp::create(b, b.getI32Type(), impl.getKnob());
  Value useTexture =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, slot, lambda);
  SmallVector<Type> types(int(sb) + int(db), b.getF32Type());
  auto ifOp = scf::IfOp::create(b, types, useTexture, /*withElseRegion=*/true);
  auto yield = [&](Results r) {
    SmallVector<Value> vals;
    if (sb)
      vals.push_back(r.sb);
    if (db)
      vals.push_back(r.db);
    scf::YieldOp::create(b, vals);
  };
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    yield(emitTable(b, x, LnsImplKind::texture2, k, 0, sb, db, sym));
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    yield(emitSfu(b, x, sb, db));
  }
  Results r;
  unsigned i = 0;
  if (sb)
    r.sb = ifOp.getResult(i++);
  if (db)
    r.db = ifOp.getResult(i++);
  return r;
}

LogicalResult Lowering::lower(Group &g) {
  Operation *first = g.sbOps.empty() ? g.dbOps.front() : g.sbOps.front();
  for (Operation *op : llvm::concat<Operation *>(g.sbOps, g.dbOps))
    if (op->isBeforeInBlock(first))
      first = op;
  LnsImplAttr impl = g.impl;
  if (impl.getKind() == LnsImplKind::split) {
    // The runtime bounds λ by the knob's slot kind, as for the SFU split.
    auto knob = symbols.lookup<KnobOp>(impl.getKnob().getValue());
    if (!knob)
      return first->emitOpError("knob ")
             << impl.getKnob() << " is not an approx.knob of this gpu.module";
    if (!knob.getWarpSlot())
      knob.setWarpSlot(impl.getSlot());
    else if (*knob.getWarpSlot() != impl.getSlot())
      return first->emitOpError("knob ")
             << impl.getKnob() << " compares "
             << stringifySlotKind(*knob.getWarpSlot())
             << " warp slots elsewhere, not " << stringifySlotKind(impl.getSlot());
  }
  FlatSymbolRefAttr sym;
  DictionaryAttr errors;
  int64_t k = 0;
  if (impl.usesTable()) {
    FailureOr<int64_t> chosen = segments(first, impl);
    if (failed(chosen))
      return failure();
    k = *chosen;
    FailureOr<FlatSymbolRefAttr> s =
        table(first, impl.getKind(), k, impl.getDegree(), errors);
    if (failed(s))
      return failure();
    sym = *s;
  }

  ImplicitLocOpBuilder b(first->getLoc(), first);
  Value x = g.input;
  Value positivePart;
  if (!g.nonpositive) {
    // f(x) = max(x, 0) + f(-|x|) for both functions; NaN stays NaN.
    Value abs = math::AbsFOp::create(b, x);
    x = arith::NegFOp::create(b, abs);
    positivePart = arith::MaximumFOp::create(b, g.input, cst(b, 0.0));
  }
  Results r = emit(b, x, impl, k, !g.sbOps.empty(), !g.dbOps.empty(), sym);
  if (positivePart) {
    if (r.sb)
      r.sb = arith::AddFOp::create(b, positivePart, r.sb);
    if (r.db)
      r.db = arith::AddFOp::create(b, positivePart, r.db);
  }

  // One site per op.
  SmallVector<Attribute> sites;
  SiteForm form = SiteForm::approximate;
  FlatSymbolRefAttr knob;
  switch (impl.getKind()) {
  case LnsImplKind::precise:
    form = SiteForm::precise;
    break;
  case LnsImplKind::sfu:
    form = SiteForm::sfu;
    break;
  case LnsImplKind::split:
    form = SiteForm::tunable;
    knob = impl.getKnob();
    break;
  default:
    break;
  }
  // A site not governed by a knob says why: the input IR chose its impl.
  std::string reason =
      knob ? std::string()
           : ("impl " + stringifyLnsImplKind(impl.getKind()) +
              " chosen by the input IR")
                 .str();
  SmallVector<NamedAttribute> data{
      b.getNamedAttr("impl", b.getStringAttr(stringifyLnsImplKind(
                                 impl.getKind())))};
  if (impl.usesTable()) {
    data.push_back(b.getNamedAttr("segments", b.getI64IntegerAttr(k)));
    if (impl.getKind() == LnsImplKind::horner)
      data.push_back(
          b.getNamedAttr("degree", b.getI64IntegerAttr(impl.getDegree())));
    data.push_back(b.getNamedAttr("table", b.getStringAttr(sym.getValue())));
  }
  for (auto [ops, name, value] :
       {std::make_tuple(&g.sbOps, StringRef("sb"), r.sb),
        std::make_tuple(&g.dbOps, StringRef("db"), r.db)}) {
    for (Operation *op : *ops) {
      SmallVector<NamedAttribute> d = data;
      if (errors)
        d.push_back(b.getNamedAttr("predicted_max_abs_error",
                                   errors.get(name)));
      // A split op that approx-lns-version pinned to one side: still
      // governed by its knob.
      FlatSymbolRefAttr siteKnob = knob;
      SiteForm siteForm = form;
      std::string siteReason = reason;
      if (auto variant =
              op->getAttrOfType<DictionaryAttr>(kLnsVariantAttrName)) {
        // A kernel variant of approx-lns-impl-variants: the knob's value
        // chose this impl.
        siteKnob = dyn_cast_or_null<FlatSymbolRefAttr>(variant.get("knob"));
        siteForm = SiteForm::tunable;
        siteReason.clear();
        d.push_back(b.getNamedAttr("variant", variant.get("value")));
      }
      if (auto split = op->getAttrOfType<DictionaryAttr>(kLnsSplitAttrName)) {
        siteKnob = dyn_cast_or_null<FlatSymbolRefAttr>(split.get("knob"));
        siteForm = SiteForm::tunable;
        siteReason.clear();
        for (NamedAttribute &a : d)
          if (a.getName() == "impl")
            a.setValue(b.getStringAttr("split"));
        for (StringRef key : {"side", "versioning"})
          if (Attribute v = split.get(key))
            d.push_back(b.getNamedAttr(key, v));
      }
      sites.push_back(makeSite(op, "lns", name, b.getF32Type(), siteKnob,
                               siteForm, siteReason, b.getDictionaryAttr(d)));
      op->getResult(0).replaceAllUsesWith(value);
      op->erase();
    }
  }
  appendSites(module, sites);
  return success();
}

namespace {
struct ApproxLnsLowerPass final
    : mlir::approx::impl::ApproxLnsLowerBase<ApproxLnsLowerPass> {
  using Base::Base;
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    // Group ops by (block, operand, impl, nonpositive), in program order.
    llvm::MapVector<std::tuple<Block *, Value, Attribute, int>, Group>
        groups;
    module.walk([&](Operation *op) {
      auto add = [&](auto fn, bool isSb) {
        auto key = std::make_tuple(op->getBlock(), fn.getInput(),
                                   Attribute(fn.getImpl()),
                                   int(fn.getNonpositive()));
        Group &g = groups[key];
        g.input = fn.getInput();
        g.impl = fn.getImpl();
        g.nonpositive = fn.getNonpositive();
        (isSb ? g.sbOps : g.dbOps).push_back(op);
      };
      if (auto sb = dyn_cast<LnsSbOp>(op))
        add(sb, true);
      else if (auto db = dyn_cast<LnsDbOp>(op))
        add(db, false);
    });
    Lowering lowering(module);
    for (auto &entry : groups)
      if (failed(lowering.lower(entry.second)))
        return signalPassFailure();
    // An LNS value left here was not expanded: say where.
    WalkResult left = module.walk([&](Operation *op) {
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes()))
        if (isa<LnsType>(t)) {
          op->emitOpError("holds an !approx.lns value: run "
                          "approx-lns-expand first");
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
