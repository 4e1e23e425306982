//===- CorrectToNVVM.cpp - form(correct) -> f64 evaluation + hard cases ---===//
//
// The correctly rounded rung (docs/hrcs.md, "The correctly rounded rung").
// For f32 exp, exp2, log and log2:
//
//   y  = f((double)x)                 libdevice __nv_exp & co., within 1 f64
//                                     ulp (2^-52 relative): CUDA's bound
//   lo = (float)(y - y*2^-50), hi = (float)(y + y*2^-50)
//   lo == hi ? lo : table[x]          rounding test (Ziv), then the slow path
//
// If lo == hi no midpoint lies within 2^-50·|y| of y, and f(x) lies within
// 2^-52·|f(x)| of y, so f(x) rounds as y does. Otherwise f(x) lies within
// 2^-50 + 2^-52 + 2^-53 (relative) of a midpoint, i.e. within 2^-24 ulp of
// the 25-bit grid: every such x is in the table, which approx-cr-tables
// wrote from the hard-to-round search (tables/*.inc). The slow path is a
// branchless binary search over the table, placed in constant memory once
// per gpu.module (declareCorrectTables, before the patterns run: a pattern
// may only touch its own op). The GPU check (bench/accuracy/cr-check.sh)
// compares every one of the 2^32 inputs with MPFR-backed references.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"
#include "approx/Passes/Patterns.h"
#include "tables/HardCases.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::approx;

namespace {

using ::approx::correct::HardCase;
using ::approx::correct::kExp2F32;
using ::approx::correct::kExpF32;
using ::approx::correct::kLog2F32;
using ::approx::correct::kLogF32;

/// The table and the global holding it, per function.
struct HardCaseTable {
  llvm::ArrayRef<HardCase> cases;
  llvm::StringLiteral symbol;
};

std::optional<HardCaseTable> tableFor(Function fn) {
  switch (fn) {
  case Function::Exp:
    return HardCaseTable{kExpF32, "__approx_correct_exp_f32"};
  case Function::Exp2:
    return HardCaseTable{kExp2F32, "__approx_correct_exp2_f32"};
  case Function::Log:
    return HardCaseTable{kLogF32, "__approx_correct_log_f32"};
  case Function::Log2:
    return HardCaseTable{kLog2F32, "__approx_correct_log2_f32"};
  default:
    return std::nullopt;
  }
}

/// The relative half-width of the rounding test's window (see the header).
constexpr double kWindow = 0x1p-50;

/// The table's constant global: i64 entries (x bits << 32 | result bits),
/// padded with all-ones keys to a power of two so that the search has a
/// fixed number of steps. Only NaN has an all-ones key, and a NaN never
/// reaches the table (y is NaN, the test passes).
LLVM::GlobalOp createGlobal(OpBuilder &b, Location loc,
                            const HardCaseTable &table) {
  size_t padded = llvm::PowerOf2Ceil(std::max<size_t>(table.cases.size(), 1));
  SmallVector<int64_t> words(padded, static_cast<int64_t>(~0ull << 32));
  for (size_t i = 0; i < table.cases.size(); ++i)
    words[i] = static_cast<int64_t>(uint64_t(table.cases[i].x) << 32 |
                                    table.cases[i].result);
  Type i64 = b.getI64Type();
  auto value = DenseElementsAttr::get(
      RankedTensorType::get({static_cast<int64_t>(padded)}, i64),
      ArrayRef<int64_t>(words));
  return LLVM::GlobalOp::create(
      b, loc, LLVM::LLVMArrayType::get(i64, padded), /*isConstant=*/true,
      LLVM::Linkage::Internal, table.symbol, value, /*alignment=*/8,
      /*addrSpace=*/4);
}

/// f(x) in f64, precise (libdevice after convert-gpu-to-nvvm).
Value evaluateF64(OpBuilder &b, Location loc, Function fn, Value x) {
  switch (fn) {
  case Function::Exp:
    return math::ExpOp::create(b, loc, x);
  case Function::Exp2:
    return math::Exp2Op::create(b, loc, x);
  case Function::Log:
    return math::LogOp::create(b, loc, x);
  case Function::Log2:
    return math::Log2Op::create(b, loc, x);
  default:
    return {};
  }
}

/// The slow path: table[x] if x is a hard case, else `fallback`.
Value lookup(OpBuilder &b, Location loc, LLVM::GlobalOp global, Value x,
             Value fallback) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto arrayType = cast<LLVM::LLVMArrayType>(global.getType());
  int64_t size = static_cast<int64_t>(arrayType.getNumElements());
  Value base = LLVM::AddressOfOp::create(b, loc, global);
  Value key = arith::ExtUIOp::create(
      b, loc, i64, arith::BitcastOp::create(b, loc, i32, x));
  Value c32 = arith::ConstantIntOp::create(b, loc, i64, 32);
  auto load = [&](Value index) -> Value {
    Value ptr = LLVM::GEPOp::create(b, loc, base.getType(), i64, base,
                                    ArrayRef<LLVM::GEPArg>{index});
    return LLVM::LoadOp::create(b, loc, i64, ptr);
  };
  // Largest index whose key is <= x's (or 0), in log2(size) steps.
  Value index = arith::ConstantIntOp::create(b, loc, i32, 0);
  for (int64_t step = size / 2; step >= 1; step /= 2) {
    Value probe = arith::AddIOp::create(
        b, loc, index, arith::ConstantIntOp::create(b, loc, i32, step));
    Value probeKey = arith::ShRUIOp::create(b, loc, load(probe), c32);
    Value below =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, probeKey, key);
    index = arith::SelectOp::create(b, loc, below, probe, index);
  }
  Value entry = load(index);
  Value found = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::ShRUIOp::create(b, loc, entry, c32), key);
  Value result = arith::BitcastOp::create(
      b, loc, b.getF32Type(), arith::TruncIOp::create(b, loc, i32, entry));
  return arith::SelectOp::create(b, loc, found, result, fallback);
}

/// The correctly rounded f(x) for one f32 x.
Value correctScalar(OpBuilder &b, Location loc, Function fn,
                    LLVM::GlobalOp global, Value x) {
  Type f32 = b.getF32Type(), f64 = b.getF64Type();
  Value xd = arith::ExtFOp::create(b, loc, f64, x);
  Value y = evaluateF64(b, loc, fn, xd);
  Value window = arith::ConstantFloatOp::create(
      b, loc, Float64Type::get(b.getContext()), APFloat(kWindow));
  Value d = arith::MulFOp::create(b, loc, y, window);
  Value lo = arith::TruncFOp::create(b, loc, f32,
                                     arith::SubFOp::create(b, loc, y, d));
  Value hi = arith::TruncFOp::create(b, loc, f32,
                                     arith::AddFOp::create(b, loc, y, d));
  Value rounded = arith::TruncFOp::create(b, loc, f32, y);
  // Unordered: y is NaN, or y - d is (y infinite); y rounds as it is.
  Value sure =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UEQ, lo, hi);
  auto ifOp = scf::IfOp::create(
      b, loc, sure,
      [&](OpBuilder &then, Location l) {
        scf::YieldOp::create(then, l, rounded);
      },
      [&](OpBuilder &otherwise, Location l) {
        scf::YieldOp::create(otherwise, l,
                             lookup(otherwise, l, global, x, rounded));
      });
  return ifOp.getResult(0);
}

/// A function op pinned to form(correct) -> the code above, elementwise
/// for vectors.
struct LowerCorrectForm final : OpInterfaceRewritePattern<ApproxFunctionOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(ApproxFunctionOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getForm() != Form::correct)
      return rewriter.notifyMatchFailure(op, "not pinned to form(correct)");
    Function fn = op.getFunction();
    std::optional<HardCaseTable> table = tableFor(fn);
    if (!table || !hasCorrectForm(fn, op.getElementType()))
      return rewriter.notifyMatchFailure(op, "no correctly rounded form");
    auto module = op->getParentOfType<gpu::GPUModuleOp>();
    auto global =
        module ? module.lookupSymbol<LLVM::GlobalOp>(table->symbol) : nullptr;
    if (!global)
      return rewriter.notifyMatchFailure(op, "no table (declareCorrectTables)");
    Location loc = op->getLoc();
    Value x = op->getOperand(0);
    auto vec = dyn_cast<VectorType>(x.getType());
    if (!vec) {
      rewriter.replaceOp(op, correctScalar(rewriter, loc, fn, global, x));
      return success();
    }
    auto flatType =
        VectorType::get({vec.getNumElements()}, vec.getElementType());
    Value flat = vector::ShapeCastOp::create(rewriter, loc, flatType, x);
    SmallVector<Value> parts;
    for (int64_t i = 0; i < vec.getNumElements(); ++i)
      parts.push_back(correctScalar(
          rewriter, loc, fn, global,
          vector::ExtractOp::create(rewriter, loc, flat, i)));
    Value joined =
        vector::FromElementsOp::create(rewriter, loc, flatType, parts);
    rewriter.replaceOp(op,
                       vector::ShapeCastOp::create(rewriter, loc, vec, joined));
    return success();
  }
};

} // namespace

LogicalResult mlir::approx::declareCorrectTables(gpu::GPUModuleOp module) {
  // Which tables the module's form(correct) ops need, in function order.
  llvm::SmallSetVector<Function, 4> needed;
  module.walk([&](ApproxFunctionOp op) {
    if (op.getForm() == Form::correct && tableFor(op.getFunction()))
      needed.insert(op.getFunction());
  });
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  for (Function fn : needed) {
    HardCaseTable table = *tableFor(fn);
    if (Operation *existing = module.lookupSymbol(table.symbol)) {
      if (isa<LLVM::GlobalOp>(existing))
        continue; // declared by an earlier run
      return existing->emitError("convert-approx-to-nvvm: symbol '")
             << table.symbol
             << "' is taken; form(correct) keeps its hard-case table there";
    }
    createGlobal(b, module.getLoc(), table);
  }
  return success();
}

void mlir::approx::populateCorrectToNVVMPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerCorrectForm>(patterns.getContext());
}
