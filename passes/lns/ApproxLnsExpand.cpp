//===- ApproxLnsExpand.cpp - !approx.lns -> (f32 log, i1 sign) ------------===//
//
// A 1:N dialect conversion. Every `!approx.lns` value becomes the pair
// (log2|X| : f32, negative : i1) through function signatures, calls,
// returns and scf control flow (upstream's structural patterns), and the
// LNS arithmetic becomes f32/i1 arithmetic plus the `nonpositive`
// `approx.lns.sb` / `approx.lns.db` ops that approx-lns-lower evaluates.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXLNSEXPAND
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {

/// !approx.lns -> (f32, i1); every other type stays.
struct LnsTypeConverter final : TypeConverter {
  explicit LnsTypeConverter(MLIRContext *ctx) {
    addConversion([](Type t) { return t; });
    addConversion([ctx](LnsType, SmallVectorImpl<Type> &results) {
      results.push_back(Float32Type::get(ctx));
      results.push_back(IntegerType::get(ctx, 1));
      return success();
    });
  }
};

/// The two parts of one converted LNS operand.
struct Parts {
  Value log, negative;
};
static Parts parts(ValueRange converted) {
  assert(converted.size() == 2 && "an LNS value converts to two values");
  return {converted[0], converted[1]};
}

static Value f32Constant(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(float(v)));
}

/// approx.lns.mul / div -> add / sub of logs, xor of signs.
template <typename OpTy, typename LogOpTy>
struct LowerProduct final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Parts a = parts(adaptor.getLhs()), b = parts(adaptor.getRhs());
    Value log = LogOpTy::create(rewriter, loc, a.log, b.log);
    Value neg = arith::XOrIOp::create(rewriter, loc, a.negative, b.negative);
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>{log, neg}});
    return success();
  }
};

/// approx.lns.add / sub -> max + select(same sign, sb(min - max),
/// db(min - max)), with the larger operand's sign; both zero stays zero.
template <typename OpTy, bool IsSub>
struct LowerSum final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Parts a = parts(adaptor.getLhs()), b = parts(adaptor.getRhs());
    Value bNeg = b.negative;
    if (IsSub) {
      Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
      bNeg = arith::XOrIOp::create(rewriter, loc, bNeg, one);
    }
    Value big = arith::MaximumFOp::create(rewriter, loc, a.log, b.log);
    Value small = arith::MinimumFOp::create(rewriter, loc, a.log, b.log);
    Value d = arith::SubFOp::create(rewriter, loc, small, big);
    Value same = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       a.negative, bNeg);
    LnsImplAttr impl = op.getImpl();
    Type f32 = rewriter.getF32Type();
    Value sb = LnsSbOp::create(rewriter, loc, f32, d, impl,
                               /*nonpositive=*/true);
    Value db = LnsDbOp::create(rewriter, loc, f32, d, impl,
                               /*nonpositive=*/true);
    Value f = arith::SelectOp::create(rewriter, loc, same, sb, db);
    Value sum = arith::AddFOp::create(rewriter, loc, big, f);
    // 0 + 0: big is -inf and d is NaN; the result is the exact zero.
    Value negInf =
        f32Constant(rewriter, loc, -std::numeric_limits<double>::infinity());
    Value bothZero = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OEQ, big, negInf);
    Value log = arith::SelectOp::create(rewriter, loc, bothZero, negInf, sum);
    Value aLarger = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGE, a.log, b.log);
    Value neg =
        arith::SelectOp::create(rewriter, loc, aLarger, a.negative, bNeg);
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>{log, neg}});
    return success();
  }
};

/// approx.lns.from_float -> (log2|x|, x < 0).
struct LowerFromFloat final : OpConversionPattern<LnsFromFloatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LnsFromFloatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput().front();
    Value abs = math::AbsFOp::create(rewriter, loc, x);
    Value log = math::Log2Op::create(rewriter, loc, abs);
    Value zero = f32Constant(rewriter, loc, 0.0);
    Value neg = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT,
                                      x, zero);
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>{log, neg}});
    return success();
  }
};

/// approx.lns.to_float -> ±2^log.
struct LowerToFloat final : OpConversionPattern<LnsToFloatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LnsToFloatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Parts a = parts(adaptor.getInput());
    Value mag = math::Exp2Op::create(rewriter, loc, a.log);
    Value negMag = arith::NegFOp::create(rewriter, loc, mag);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, a.negative, negMag, mag);
    return success();
  }
};

/// approx.lns.pack -> its operands.
struct LowerPack final : OpConversionPattern<LnsPackOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LnsPackOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(
        op, {SmallVector<Value>{adaptor.getLog().front(),
                                adaptor.getNegative().front()}});
    return success();
  }
};

/// approx.lns.unpack -> the parts.
struct LowerUnpack final : OpConversionPattern<LnsUnpackOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LnsUnpackOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Parts a = parts(adaptor.getInput());
    rewriter.replaceOp(op, ValueRange{a.log, a.negative});
    return success();
  }
};

/// gpu.return with LNS operands -> the flattened parts.
struct LowerGpuReturn final : OpConversionPattern<gpu::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::ReturnOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> flat;
    for (ValueRange r : adaptor.getOperands())
      llvm::append_range(flat, r);
    rewriter.replaceOpWithNewOp<gpu::ReturnOp>(op, flat);
    return success();
  }
};

/// True when `v` is false whenever `arg` is: built from `arg`, false
/// constants, and select/and/or/xor of such values.
static bool falseWhenArgIs(Value v, Value arg, int depth = 0) {
  if (v == arg)
    return true;
  if (depth > 8)
    return false;
  if (auto c = v.getDefiningOp<arith::ConstantIntOp>())
    return c.value() == 0;
  if (auto sel = v.getDefiningOp<arith::SelectOp>())
    return falseWhenArgIs(sel.getTrueValue(), arg, depth + 1) &&
           falseWhenArgIs(sel.getFalseValue(), arg, depth + 1);
  if (auto op = v.getDefiningOp<arith::AndIOp>())
    return falseWhenArgIs(op.getLhs(), arg, depth + 1) ||
           falseWhenArgIs(op.getRhs(), arg, depth + 1);
  if (auto op = v.getDefiningOp<arith::OrIOp>())
    return falseWhenArgIs(op.getLhs(), arg, depth + 1) &&
           falseWhenArgIs(op.getRhs(), arg, depth + 1);
  if (auto op = v.getDefiningOp<arith::XOrIOp>())
    return falseWhenArgIs(op.getLhs(), arg, depth + 1) &&
           falseWhenArgIs(op.getRhs(), arg, depth + 1);
  return false;
}

/// A loop-carried LNS sign that starts false and stays false (a sum of
/// positive values) becomes the constant false, so that canonicalization
/// drops the db it would otherwise keep alive (the HMM forward recursion).
/// Induction: false on entry, and false after each iteration if false
/// before it.
static void foldPositiveLoopSigns(Operation *root) {
  root->walk([](scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (!arg.getType().isInteger(1))
        continue;
      auto init = loop.getInitArgs()[i].getDefiningOp<arith::ConstantIntOp>();
      if (!init || init.value() != 0 ||
          !falseWhenArgIs(yield.getOperand(i), arg))
        continue;
      OpBuilder b(loop);
      Value f = arith::ConstantIntOp::create(b, loop.getLoc(), 0, 1);
      arg.replaceAllUsesWith(f);
      loop.getResult(i).replaceAllUsesWith(f);
    }
  });
}

struct ApproxLnsExpandPass final
    : mlir::approx::impl::ApproxLnsExpandBase<ApproxLnsExpandPass> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LnsTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    patterns.add<LowerProduct<LnsMulOp, arith::AddFOp>,
                 LowerProduct<LnsDivOp, arith::SubFOp>,
                 LowerSum<LnsAddOp, false>, LowerSum<LnsSubOp, true>,
                 LowerFromFloat, LowerToFloat, LowerPack, LowerUnpack,
                 LowerGpuReturn>(converter, ctx);
    ConversionTarget target(*ctx);
    target.addIllegalOp<LnsMulOp, LnsDivOp, LnsAddOp, LnsSubOp,
                        LnsFromFloatOp, LnsToFloatOp, LnsPackOp,
                        LnsUnpackOp>();
    // Everything else is legal once no LNS type is left on it.
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    auto signatureLegal = [&](FunctionOpInterface fn) {
      return converter.isSignatureLegal(
                 cast<FunctionType>(fn.getFunctionType())) &&
             converter.isLegal(&fn.getFunctionBody());
    };
    target.addDynamicallyLegalOp<func::FuncOp>(
        [&](func::FuncOp fn) { return signatureLegal(fn); });
    target.addDynamicallyLegalOp<gpu::GPUFuncOp>(
        [&](gpu::GPUFuncOp fn) { return signatureLegal(fn); });
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateFunctionOpInterfaceTypeConversionPattern<gpu::GPUFuncOp>(
        patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    // An LNS value on an op nothing here converts (a memref of LNS, a
    // vector, an unknown op) makes the conversion fail with a diagnostic
    // naming that op.
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns)))) {
      signalPassFailure();
      return;
    }
    foldPositiveLoopSigns(getOperation());
  }
};

} // namespace
