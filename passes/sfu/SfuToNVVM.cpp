//===- SfuToNVVM.cpp - pinned SFU-family ops -> NVVM/LLVM -----------------===//
//
// SFU forms become exactly the PTX of the paper's Tables 1-2 and the forms
// CUDA's fast-math intrinsics use (reached through `llvm.call_intrinsic
// "llvm.nvvm.*.approx.*"` or, for tanh, inline PTX, so `.ftz` sits on those
// instructions only). f16/bf16 use the native half instructions where the
// target has them (ex2, tanh; x2 forms on vector pairs) and the f32 form
// between conversions otherwise; f64 uses the native rcp/rsqrt estimates with
// optional Newton steps, or the f32 form with `demote`. Precise forms become
// what nvcc emits without fast math: math ops (-> libdevice in
// convert-gpu-to-nvvm) for the transcendentals, div.rn / rcp.rn / sqrt.rn for
// the rest. Vectors are computed elementwise.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"
#include "approx/Passes/Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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
  /// Pure inline PTX with one result and one operand.
  Value ptx(StringRef text, StringRef constraints, Type type, Value x) {
    return LLVM::InlineAsmOp::create(
               b, loc, type, ValueRange{x}, text, constraints,
               /*has_side_effects=*/false, /*is_align_stack=*/false,
               LLVM::tailcallkind::TailCallKind::None,
               /*asm_dialect=*/LLVM::AsmDialectAttr(),
               /*operand_attrs=*/ArrayAttr())
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
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value notI(Value x) {
    Value one = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    return arith::XOrIOp::create(b, loc, x, one);
  }
  /// |v| < inf and v != 0: where a Newton step on v is well defined.
  Value finiteNonzero(Value v) {
    Type t = v.getType();
    Value abs = math::AbsFOp::create(b, loc, v);
    Value inf = cst(t, std::numeric_limits<double>::infinity());
    Value finite = cmp(arith::CmpFPredicate::OLT, abs, inf);
    Value zero = cst(t, 0);
    Value nonzero = cmp(arith::CmpFPredicate::ONE, v, zero);
    return andI(finite, nonzero);
  }
};

//===----------------------------------------------------------------------===//
// SFU forms.
//===----------------------------------------------------------------------===//

/// x - k*2pi with k = rint(x/2pi); 2pi split in two f32 constants so that
/// k*2pi_hi (8 significant bits) is exact for |k| < 2^16 (Cody-Waite).
static Value reduceToPi(Emitter &e, Value x) {
  Type f32 = e.b.getF32Type();
  Value invTwoPi = e.cst(f32, 0.15915494309189535);
  Value twoPiHi = e.cst(f32, 6.28125);
  Value twoPiLo = e.cst(f32, 1.9353071795864769e-3);
  Value scaled = e.mul(x, invTwoPi);
  Value k = math::RoundEvenOp::create(e.b, e.loc, scaled);
  Value negK = e.neg(k);
  Value hi = e.fma(negK, twoPiHi, x);
  return e.fma(negK, twoPiLo, hi);
}

/// powf's sign and special cases around |x|^y = ex2(y * lg2(|x|)): negative x
/// with odd integer y flips the sign, negative finite x with non-integer y
/// is NaN, and pow(x, +-0) = pow(1, y) = pow(-1, +-inf) = 1.
static Value powF32(Emitter &e, Value x, Value y) {
  Type f32 = e.b.getF32Type();
  using P = arith::CmpFPredicate;
  Value ax = math::AbsFOp::create(e.b, e.loc, x);
  Value lg = e.intrinsic("llvm.nvvm.lg2.approx.ftz.f", f32, ax);
  Value t = e.mul(lg, y);
  Value mag = e.intrinsic("llvm.nvvm.ex2.approx.ftz.f32", f32, t);

  Value ty = LLVM::FTruncOp::create(e.b, e.loc, y);
  Value yInt = e.cmp(P::OEQ, ty, y);
  Value half = e.cst(f32, 0.5);
  Value hy = e.mul(y, half);
  Value thy = LLVM::FTruncOp::create(e.b, e.loc, hy);
  Value hyFrac = e.cmp(P::ONE, thy, hy);
  Value yOdd = e.andI(yInt, hyFrac);
  Value i32x = arith::BitcastOp::create(e.b, e.loc, e.b.getI32Type(), x);
  Value zeroI = arith::ConstantIntOp::create(e.b, e.loc, e.b.getI32Type(), 0);
  Value signX =
      arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::slt, i32x, zeroI);
  Value negMag = e.neg(mag);
  Value flip = e.andI(yOdd, signX);
  Value signed_ = e.select(flip, negMag, mag);

  Value zero = e.cst(f32, 0);
  Value inf = e.cst(f32, std::numeric_limits<double>::infinity());
  Value xNeg = e.cmp(P::OLT, x, zero);
  Value xFinite = e.cmp(P::OLT, ax, inf);
  Value notInt = e.notI(yInt);
  Value negFinite = e.andI(xNeg, xFinite);
  Value nanCase = e.andI(negFinite, notInt);
  Value nan = e.cst(f32, std::numeric_limits<double>::quiet_NaN());
  Value withNan = e.select(nanCase, nan, signed_);

  Value one = e.cst(f32, 1);
  Value yZero = e.cmp(P::OEQ, y, zero);
  Value xOne = e.cmp(P::OEQ, x, one);
  Value ay = math::AbsFOp::create(e.b, e.loc, y);
  Value yInf = e.cmp(P::OEQ, ay, inf);
  Value axOne = e.cmp(P::OEQ, ax, one);
  Value trivial = e.orI(yZero, xOne);
  Value minusOneInf = e.andI(axOne, yInf);
  Value oneCase = e.orI(trivial, minusOneInf);
  return e.select(oneCase, one, withNan);
}

/// f32 SFU form of `fn`.
static Value sfuF32(Emitter &e, Function fn, ValueRange in,
                    bool rangeReduction) {
  Type f32 = e.b.getF32Type();
  Value x = in[0];
  if (rangeReduction &&
      (fn == Function::Sin || fn == Function::Cos || fn == Function::Tan))
    x = reduceToPi(e, x);
  switch (fn) {
  case Function::Sin:
    return e.intrinsic("llvm.nvvm.sin.approx.ftz.f", f32, x);
  case Function::Cos:
    return e.intrinsic("llvm.nvvm.cos.approx.ftz.f", f32, x);
  case Function::Tan: { // CUDA's __tanf: __sinf(x) / __cosf(x), fast divide
    Value s = e.intrinsic("llvm.nvvm.sin.approx.ftz.f", f32, x);
    Value c = e.intrinsic("llvm.nvvm.cos.approx.ftz.f", f32, x);
    return e.intrinsic("llvm.nvvm.div.approx.ftz.f", f32, {s, c});
  }
  case Function::Exp: { // mul by log2(e) = 0f3FB8AA3B, then ex2
    Value log2e = e.cst(f32, 1.4426950408889634);
    Value t = e.mul(x, log2e);
    return e.intrinsic("llvm.nvvm.ex2.approx.ftz.f32", f32, t);
  }
  case Function::Exp2:
    return e.intrinsic("llvm.nvvm.ex2.approx.ftz.f32", f32, x);
  case Function::Log: { // lg2, then mul by ln(2) = 0f3F317218
    Value lg = e.intrinsic("llvm.nvvm.lg2.approx.ftz.f", f32, x);
    return e.mul(lg, e.cst(f32, 0.69314718055994531));
  }
  case Function::Log2:
    return e.intrinsic("llvm.nvvm.lg2.approx.ftz.f", f32, x);
  case Function::Log10: { // lg2, then mul by log10(2) (CUDA's __log10f)
    Value lg = e.intrinsic("llvm.nvvm.lg2.approx.ftz.f", f32, x);
    return e.mul(lg, e.cst(f32, 0.30102999566398120));
  }
  case Function::Pow:
    return powF32(e, in[0], in[1]);
  case Function::Div:
    return e.intrinsic("llvm.nvvm.div.approx.ftz.f", f32, {in[0], in[1]});
  case Function::Rcp:
    return e.intrinsic("llvm.nvvm.rcp.approx.ftz.f", f32, x);
  case Function::Sqrt:
    return e.intrinsic("llvm.nvvm.sqrt.approx.ftz.f", f32, x);
  case Function::Rsqrt:
    return e.intrinsic("llvm.nvvm.rsqrt.approx.ftz.f", f32, x);
  case Function::Tanh:
    return e.ptx("tanh.approx.f32 $0, $1;", "=f,f", f32, x);
  default:
    return {};
  }
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
static Value sfuF64(Emitter &e, Function fn, ValueRange in, int steps) {
  Type f64 = e.b.getF64Type();
  Value x = in[0];
  switch (fn) {
  case Function::Rcp:
    return rcpF64(e, x, steps);
  case Function::Rsqrt:
    return rsqrtF64(e, x, steps);
  case Function::Div: {
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
    Value ok = e.andI(rOk, qOk);
    return e.select(ok, fixed, q);
  }
  case Function::Sqrt: {
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
    Value yIsNaN = e.cmp(arith::CmpFPredicate::UNO, y, y);
    Value special = e.select(yIsNaN, y, x);
    Value ok = e.finiteNonzero(y);
    return e.select(ok, fixed, special);
  }
  default:
    return {};
  }
}

/// Native f16/bf16 form of exp2/tanh on a scalar or a 2-vector.
static Value sfuHalf(Emitter &e, Function fn, Value x) {
  Type type = x.getType();
  bool pair = isa<VectorType>(type);
  bool f16 = getElementTypeOrSelf(type).isF16();
  if (fn == Function::Exp2) {
    std::string name = f16 ? "llvm.nvvm.ex2.approx." : "llvm.nvvm.ex2.approx.ftz.";
    name += pair ? (f16 ? "v2f16" : "v2bf16") : (f16 ? "f16" : "bf16");
    return e.intrinsic(name, type, x);
  }
  std::string text = std::string("tanh.approx.") + (f16 ? "f16" : "bf16") +
                     (pair ? "x2" : "") + " $0, $1;";
  return e.ptx(text, pair ? "=r,r" : "=h,h", type, x);
}

//===----------------------------------------------------------------------===//
// Precise forms.
//===----------------------------------------------------------------------===//

/// What nvcc emits without fast math, on a scalar of `type`.
static Value precise(Emitter &e, Function fn, ValueRange in, Type type) {
  Value x = in[0];
  // rcp/sqrt/rsqrt through the IEEE-rounded PTX instructions (f16/bf16 in
  // f32, as CUDA's half functions do).
  auto rn = [&](StringRef base, Value v) -> Value {
    Type t = v.getType();
    if (t.isF32() || t.isF64())
      return e.intrinsic((base + (t.isF32() ? ".f" : ".d")).str(), t, v);
    Value wide = arith::ExtFOp::create(e.b, e.loc, e.b.getF32Type(), v);
    return e.intrinsic((base + ".f").str(), e.b.getF32Type(), wide);
  };
  auto narrow = [&](Value v) -> Value {
    return v.getType() == type ? v
                               : arith::TruncFOp::create(e.b, e.loc, type, v);
  };
  switch (fn) {
  case Function::Sin:
    return math::SinOp::create(e.b, e.loc, x);
  case Function::Cos:
    return math::CosOp::create(e.b, e.loc, x);
  case Function::Tan:
    return math::TanOp::create(e.b, e.loc, x);
  case Function::Exp:
    return math::ExpOp::create(e.b, e.loc, x);
  case Function::Exp2:
    return math::Exp2Op::create(e.b, e.loc, x);
  case Function::Log:
    return math::LogOp::create(e.b, e.loc, x);
  case Function::Log2:
    return math::Log2Op::create(e.b, e.loc, x);
  case Function::Log10:
    return math::Log10Op::create(e.b, e.loc, x);
  case Function::Pow:
    return math::PowFOp::create(e.b, e.loc, x, in[1]);
  case Function::Tanh:
    return math::TanhOp::create(e.b, e.loc, x);
  case Function::Div:
    return arith::DivFOp::create(e.b, e.loc, x, in[1]);
  case Function::Rcp:
    return narrow(rn("llvm.nvvm.rcp.rn", x));
  case Function::Sqrt:
    return narrow(rn("llvm.nvvm.sqrt.rn", x));
  case Function::Rsqrt: { // Tables 1-2: sqrt.rn then rcp.rn
    Value s = rn("llvm.nvvm.sqrt.rn", x);
    return narrow(rn("llvm.nvvm.rcp.rn", s));
  }
  default:
    return {};
  }
}

//===----------------------------------------------------------------------===//
// Patterns.
//===----------------------------------------------------------------------===//

/// Lowers a pinned function op to its SFU or precise form.
struct LowerFunctionOp final : OpInterfaceRewritePattern<ApproxFunctionOp> {
  LowerFunctionOp(MLIRContext *ctx, unsigned sm)
      : OpInterfaceRewritePattern(ctx), sm(sm) {}

  LogicalResult matchAndRewrite(ApproxFunctionOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Form> form = op.getForm();
    if (!form)
      return rewriter.notifyMatchFailure(op, "not pinned to a form");
    if (*form == Form::correct)
      return rewriter.notifyMatchFailure(op, "form(correct): passes/correct");
    SfuSupport support = sfuSupport(op, sm);
    if (*form == Form::sfu && support == SfuSupport::None)
      return rewriter.notifyMatchFailure(op, "no SFU form on this target");
    Emitter e{rewriter, op->getLoc()};
    Type type = op->getResult(0).getType();
    SmallVector<Value> in(op->getOperands());

    auto scalar = [&](ValueRange args) -> Value {
      return emitScalar(e, op, *form, support, args);
    };
    Value result;
    auto vec = dyn_cast<VectorType>(type);
    if (!vec) {
      result = scalar(in);
    } else {
      // Elementwise over the flattened vector; native half pairs use the x2
      // instructions.
      Type elem = vec.getElementType();
      int64_t n = vec.getNumElements();
      auto flatType = VectorType::get({n}, elem);
      SmallVector<Value> flat;
      for (Value v : in)
        flat.push_back(vector::ShapeCastOp::create(rewriter, e.loc, flatType, v));
      bool pairs = *form == Form::sfu && support == SfuSupport::Native &&
                   (elem.isF16() || elem.isBF16());
      SmallVector<Value> parts;
      int64_t i = 0;
      for (; pairs && i + 1 < n; i += 2) {
        Value lo = vector::ExtractOp::create(rewriter, e.loc, flat[0], i);
        Value hi = vector::ExtractOp::create(rewriter, e.loc, flat[0], i + 1);
        Value two = vector::FromElementsOp::create(
            rewriter, e.loc, VectorType::get({2}, elem), ValueRange{lo, hi});
        Value r = sfuHalf(e, op.getFunction(), two);
        for (int64_t k = 0; k < 2; ++k)
          parts.push_back(vector::ExtractOp::create(rewriter, e.loc, r, k));
      }
      for (; i < n; ++i) {
        SmallVector<Value> args;
        for (Value v : flat)
          args.push_back(vector::ExtractOp::create(rewriter, e.loc, v, i));
        parts.push_back(scalar(args));
      }
      Value joined =
          vector::FromElementsOp::create(rewriter, e.loc, flatType, parts);
      result = vector::ShapeCastOp::create(rewriter, e.loc, vec, joined);
    }
    if (!result)
      return rewriter.notifyMatchFailure(op, "no form for this function");
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  static Value emitScalar(Emitter &e, ApproxFunctionOp op, Form form,
                          SfuSupport support, ValueRange in) {
    Function fn = op.getFunction();
    Type type = in[0].getType();
    if (form == Form::precise)
      return precise(e, fn, in, type);
    if (support == SfuSupport::ViaF32) {
      SmallVector<Value> narrow;
      Type f32 = e.b.getF32Type();
      for (Value v : in)
        narrow.push_back(type.isF64()
                             ? arith::TruncFOp::create(e.b, e.loc, f32, v)
                                   .getResult()
                             : arith::ExtFOp::create(e.b, e.loc, f32, v)
                                   .getResult());
      Value r = sfuF32(e, fn, narrow, op.getRangeReduction());
      if (type.isF64())
        return arith::ExtFOp::create(e.b, e.loc, type, r);
      return arith::TruncFOp::create(e.b, e.loc, type, r);
    }
    if (type.isF32())
      return sfuF32(e, fn, in, op.getRangeReduction());
    if (type.isF64())
      return sfuF64(e, fn, in, op.getNewtonStepCount());
    return sfuHalf(e, fn, in[0]);
  }

  unsigned sm;
};

/// Plain math.sqrt -> sqrt.rn, as nvcc's -prec-sqrt=true (see the pass
/// description for why); with fastmath<afn> the input allows an
/// approximation: sqrt.approx.f32, as nvcc's -prec-sqrt=false.
struct LowerMathSqrt final : OpRewritePattern<math::SqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::SqrtOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF64())
      return rewriter.notifyMatchFailure(op, "not a scalar f32/f64");
    bool afn = arith::bitEnumContainsAll(op.getFastmath(),
                                         arith::FastMathFlags::afn);
    StringRef name = type.isF64() ? "llvm.nvvm.sqrt.rn.d"
                     : afn        ? "llvm.nvvm.sqrt.approx.f"
                                  : "llvm.nvvm.sqrt.rn.f";
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, type, rewriter.getStringAttr(name), op.getOperand());
    return success();
  }
};

} // namespace

void mlir::approx::populateSfuToNVVMPatterns(RewritePatternSet &patterns,
                                             unsigned sm, bool preciseSqrt) {
  patterns.add<LowerFunctionOp>(patterns.getContext(), sm);
  if (preciseSqrt)
    patterns.add<LowerMathSqrt>(patterns.getContext());
}
