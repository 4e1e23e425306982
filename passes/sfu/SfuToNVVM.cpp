//===- SfuToNVVM.cpp - pinned SFU-family ops -> NVVM/LLVM -----------------===//
//
// SFU forms become exactly the PTX of the paper's Tables 1-2 (reached through
// `llvm.call_intrinsic "llvm.nvvm.*.approx.ftz.*"`, so .ftz sits on those
// instructions only). Precise forms become what nvcc emits without fast math:
// math ops (-> libdevice in convert-gpu-to-nvvm) for sin/cos/exp/log/pow, and
// div.rn / rcp.rn / sqrt.rn for the rest.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"
#include "approx/Passes/Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::approx;

namespace {

/// Small builder helpers over one location. Callers build operands into
/// locals first: C++ leaves the evaluation order of arguments unspecified, and
/// nested calls would make the order of the emitted IR compiler-dependent.
struct Emitter {
  OpBuilder &b;
  Location loc;

  Value intrinsic(StringRef name, Type type, ValueRange args) {
    return LLVM::CallIntrinsicOp::create(b, loc, type, b.getStringAttr(name),
                                         args)
        .getResult(0);
  }
  Value cst(Type type, double v) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, v));
  }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value fma(Value x, Value y, Value z) {
    return math::FmaOp::create(b, loc, x, y, z);
  }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value select(Value c, Value t, Value f) {
    return arith::SelectOp::create(b, loc, c, t, f);
  }
  /// |v| < inf and v != 0: where a Newton step on v is well defined.
  Value finiteNonzero(Value v) {
    Type t = v.getType();
    Value abs = math::AbsFOp::create(b, loc, v);
    Value finite = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OLT, abs,
        cst(t, std::numeric_limits<double>::infinity()));
    Value nonzero =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, v, cst(t, 0));
    return arith::AndIOp::create(b, loc, finite, nonzero);
  }
};

//===----------------------------------------------------------------------===//
// SFU forms.
//===----------------------------------------------------------------------===//

/// f32 SFU form of `fn` (Table 1).
static Value sfuF32(Emitter &e, StringRef fn, ValueRange in,
                    bool rangeReduction) {
  Type f32 = e.b.getF32Type();
  Value x = in[0];
  if ((fn == "sin" || fn == "cos") && rangeReduction) {
    // x - k*2pi with k = rint(x/2pi); 2pi split in two f32 constants so that
    // k*2pi_hi (8 significant bits) is exact for |k| < 2^16 (Cody-Waite).
    Value invTwoPi = e.cst(f32, 0.15915494309189535);
    Value twoPiHi = e.cst(f32, 6.28125);
    Value twoPiLo = e.cst(f32, 1.9353071795864769e-3);
    Value k = math::RoundEvenOp::create(e.b, e.loc, e.mul(x, invTwoPi));
    Value negK = e.neg(k);
    x = e.fma(negK, twoPiHi, x);
    x = e.fma(negK, twoPiLo, x);
  }
  if (fn == "sin")
    return e.intrinsic("llvm.nvvm.sin.approx.ftz.f", f32, x);
  if (fn == "cos")
    return e.intrinsic("llvm.nvvm.cos.approx.ftz.f", f32, x);
  if (fn == "exp") { // mul by log2(e) = 0f3FB8AA3B, then ex2
    Value log2e = e.cst(f32, 1.4426950408889634);
    return e.intrinsic("llvm.nvvm.ex2.approx.ftz.f32", f32, e.mul(x, log2e));
  }
  if (fn == "log") { // lg2, then mul by ln(2) = 0f3F317218
    Value ln2 = e.cst(f32, 0.69314718055994531);
    return e.mul(e.intrinsic("llvm.nvvm.lg2.approx.ftz.f", f32, x), ln2);
  }
  if (fn == "pow")
    return e.intrinsic(
        "llvm.nvvm.ex2.approx.ftz.f32", f32,
        e.mul(e.intrinsic("llvm.nvvm.lg2.approx.ftz.f", f32, x), in[1]));
  if (fn == "div")
    return e.intrinsic("llvm.nvvm.div.approx.ftz.f", f32, {in[0], in[1]});
  if (fn == "rcp")
    return e.intrinsic("llvm.nvvm.rcp.approx.ftz.f", f32, x);
  if (fn == "sqrt")
    return e.intrinsic("llvm.nvvm.sqrt.approx.ftz.f", f32, x);
  if (fn == "rsqrt")
    return e.intrinsic("llvm.nvvm.rsqrt.approx.ftz.f", f32, x);
  return {};
}

/// rcp.approx.ftz.f64 with `steps` Newton steps y += y(1 - xy).
static Value rcpF64(Emitter &e, Value x, int steps) {
  Type f64 = e.b.getF64Type();
  Value y = e.intrinsic("llvm.nvvm.rcp.approx.ftz.d", f64, x);
  if (steps == 0)
    return y;
  Value one = e.cst(f64, 1.0);
  Value negX = e.neg(x);
  Value r = y;
  for (int i = 0; i < steps; ++i) {
    Value err = e.fma(negX, r, one);
    r = e.fma(r, err, r);
  }
  Value ok = e.finiteNonzero(y);
  return e.select(ok, r, y); // 0 and inf need no step
}

/// rsqrt.approx.ftz.f64 with `steps` Newton steps y += y/2 (1 - x y^2).
static Value rsqrtF64(Emitter &e, Value x, int steps) {
  Type f64 = e.b.getF64Type();
  Value y = e.intrinsic("llvm.nvvm.rsqrt.approx.ftz.d", f64, x);
  if (steps == 0)
    return y;
  Value one = e.cst(f64, 1.0);
  Value half = e.cst(f64, 0.5);
  Value negX = e.neg(x);
  Value r = y;
  for (int i = 0; i < steps; ++i) {
    Value rr = e.mul(r, r);
    Value err = e.fma(negX, rr, one);
    Value halfR = e.mul(r, half);
    r = e.fma(halfR, err, r);
  }
  Value ok = e.finiteNonzero(y);
  return e.select(ok, r, y);
}

/// f64 SFU form of div/rcp/sqrt/rsqrt (Table 2) with Newton refinement.
static Value sfuF64(Emitter &e, StringRef fn, ValueRange in, int steps) {
  Type f64 = e.b.getF64Type();
  Value x = in[0];
  if (fn == "rcp")
    return rcpF64(e, x, steps);
  if (fn == "rsqrt")
    return rsqrtF64(e, x, steps);
  if (fn == "div") {
    Value r = rcpF64(e, in[1], steps);
    Value q = e.mul(x, r);
    if (steps == 0)
      return q;
    // One residual correction: q += r (x - y q).
    Value negY = e.neg(in[1]);
    Value residual = e.fma(negY, q, x);
    Value fixed = e.fma(residual, r, q);
    Value rOk = e.finiteNonzero(r);
    Value qOk = e.finiteNonzero(q);
    Value ok = arith::AndIOp::create(e.b, e.loc, rOk, qOk);
    return e.select(ok, fixed, q);
  }
  if (fn == "sqrt") {
    if (steps == 0) // the paper's form: rcp of rsqrt
      return e.intrinsic("llvm.nvvm.rcp.approx.ftz.d", f64,
                         rsqrtF64(e, x, 0));
    Value y = rsqrtF64(e, x, steps);
    Value s = e.mul(x, y);
    Value negS = e.neg(s);
    Value residual = e.fma(negS, s, x);
    Value halfY = e.mul(y, e.cst(f64, 0.5));
    Value fixed = e.fma(residual, halfY, s);
    // sqrt(+-0) = +-0 and sqrt(inf) = inf: rsqrt is inf/0 there, and x is
    // the answer; for x < 0 (or NaN) rsqrt is NaN, and so is the answer.
    Value yIsNaN =
        arith::CmpFOp::create(e.b, e.loc, arith::CmpFPredicate::UNO, y, y);
    Value special = e.select(yIsNaN, y, x);
    Value ok = e.finiteNonzero(y);
    return e.select(ok, fixed, special);
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Precise forms.
//===----------------------------------------------------------------------===//

/// What nvcc emits without fast math.
static Value precise(Emitter &e, StringRef fn, ValueRange in, Type type) {
  bool f32 = type.isF32();
  Value x = in[0];
  auto rn = [&](StringRef base, Value v) {
    return e.intrinsic((base + (f32 ? ".f" : ".d")).str(), type, v);
  };
  if (fn == "sin")
    return math::SinOp::create(e.b, e.loc, x);
  if (fn == "cos")
    return math::CosOp::create(e.b, e.loc, x);
  if (fn == "exp")
    return math::ExpOp::create(e.b, e.loc, x);
  if (fn == "log")
    return math::LogOp::create(e.b, e.loc, x);
  if (fn == "pow")
    return math::PowFOp::create(e.b, e.loc, x, in[1]);
  if (fn == "div")
    return arith::DivFOp::create(e.b, e.loc, x, in[1]);
  if (fn == "rcp")
    return rn("llvm.nvvm.rcp.rn", x);
  if (fn == "sqrt")
    return rn("llvm.nvvm.sqrt.rn", x);
  if (fn == "rsqrt") // Table 1/2: sqrt.rn then rcp.rn
    return rn("llvm.nvvm.rcp.rn", rn("llvm.nvvm.sqrt.rn", x));
  return {};
}

//===----------------------------------------------------------------------===//
// Patterns.
//===----------------------------------------------------------------------===//

/// Lowers a pinned function op to its SFU or precise form.
struct LowerFunctionOp final : OpInterfaceRewritePattern<ApproxFunctionOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(ApproxFunctionOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Form> form = op.getForm();
    if (!form)
      return rewriter.notifyMatchFailure(op, "not pinned to a form");
    Emitter e{rewriter, op->getLoc()};
    StringRef fn = op.getFunctionName();
    Type type = op->getResult(0).getType();
    SmallVector<Value> in(op->getOperands());
    Value result;
    if (*form == Form::precise) {
      result = precise(e, fn, in, type);
    } else if (type.isF32()) {
      result = sfuF32(e, fn, in, op->hasAttr("range_reduction"));
    } else if (op->hasAttr("demote")) {
      // cvt.rn.f32.f64, the f32 SFU form, cvt.f64.f32.
      SmallVector<Value> narrow;
      for (Value v : in)
        narrow.push_back(
            arith::TruncFOp::create(rewriter, op->getLoc(), e.b.getF32Type(), v));
      result = arith::ExtFOp::create(
          rewriter, op->getLoc(), type,
          sfuF32(e, fn, narrow, op->hasAttr("range_reduction")));
    } else {
      auto steps = op->getAttrOfType<IntegerAttr>("newton_steps");
      result = sfuF64(e, fn, in, steps ? steps.getInt() : 0);
    }
    if (!result)
      return rewriter.notifyMatchFailure(op, "no form for this function");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// approx.knob -> `llvm.mlir.global external @name(default) {addr_space = 1}`
/// (PTX `.visible .global .u32`), which cuModuleGetGlobal finds by name.
/// Plain math.sqrt -> sqrt.rn (see the pass description for why).
struct LowerMathSqrt final : OpRewritePattern<math::SqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::SqrtOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF64())
      return rewriter.notifyMatchFailure(op, "not a scalar f32/f64");
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, type,
        rewriter.getStringAttr(type.isF32() ? "llvm.nvvm.sqrt.rn.f"
                                            : "llvm.nvvm.sqrt.rn.d"),
        op.getOperand());
    return success();
  }
};
} // namespace

void mlir::approx::populateSfuToNVVMPatterns(RewritePatternSet &patterns,
                                             bool preciseSqrt) {
  patterns.add<LowerFunctionOp>(patterns.getContext());
  if (preciseSqrt)
    patterns.add<LowerMathSqrt>(patterns.getContext());
}
