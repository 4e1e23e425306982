//===- CoreToNVVM.cpp - knobs and warp slots -> NVVM/LLVM -----------------===//
//
// The core ops every technique shares: an `approx.knob` or
// `approx.resource_knob` becomes a `.visible .global` variable the runtime
// writes with cuModuleGetGlobal, `knob_value` / `resource_handle` a load of
// it, `warp_slot` reads of the special registers; a variant knob leaves
// nothing on the device.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"
#include "approx/Passes/Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::approx;

namespace {
/// A `.visible .global` variable `name` of `type` in the global address
/// space, initialised to `init`, which cuModuleGetGlobal finds by name.
static void replaceWithGlobal(PatternRewriter &rewriter, Operation *op,
                              StringRef name, IntegerType type, int64_t init) {
  rewriter.replaceOpWithNewOp<LLVM::GlobalOp>(
      op, type, /*isConstant=*/false, LLVM::Linkage::External, name,
      rewriter.getIntegerAttr(type, init),
      /*alignment=*/type.getWidth() / 8, /*addrSpace=*/1);
}

/// A load of the global `name` of `type`, replacing `op`.
static void replaceWithLoad(PatternRewriter &rewriter, Operation *op,
                            StringRef name, Type type) {
  auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext(), 1);
  Value addr = LLVM::AddressOfOp::create(rewriter, op->getLoc(), ptrType, name);
  rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, type, addr);
}

/// approx.knob -> `llvm.mlir.global external @name(default) {addr_space = 1}`
/// (PTX `.visible .global .u32`), kept even with param_path: it holds the
/// default and the runtime resolves every knob's symbol at load.
struct LowerKnobOp final : OpRewritePattern<KnobOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(KnobOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithGlobal(rewriter, op, op.getSymName(), rewriter.getI32Type(),
                      op.getDefaultValue());
    return success();
  }
};

/// approx.resource_knob -> a `.visible .global .u64` for the texture handle
/// (0 until the runtime writes it); the tables travel in the manifest.
struct LowerResourceKnobOp final : OpRewritePattern<ResourceKnobOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ResourceKnobOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithGlobal(rewriter, op, op.getSymName(), rewriter.getI64Type(), 0);
    return success();
  }
};

/// approx.variant_knob and approx.build_knob -> nothing: the runtime picks
/// the kernel to launch, or the build.
template <typename OpTy> struct EraseKnobDecl final : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// approx.knob_value -> load of the knob's global.
struct LowerKnobValueOp final : OpRewritePattern<KnobValueOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(KnobValueOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithLoad(rewriter, op, op.getKnob(), rewriter.getI32Type());
    return success();
  }
};

/// approx.resource_handle -> load of the handle's global.
struct LowerResourceHandleOp final : OpRewritePattern<ResourceHandleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ResourceHandleOp op,
                                PatternRewriter &rewriter) const override {
    replaceWithLoad(rewriter, op, op.getKnob(), rewriter.getI64Type());
    return success();
  }
};

/// approx.warp_slot -> special-register reads.
struct LowerWarpSlotOp final : OpRewritePattern<WarpSlotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WarpSlotOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    auto add = [&](Value a, Value b) {
      return arith::AddIOp::create(rewriter, loc, a, b).getResult();
    };
    auto mul = [&](Value a, Value b) {
      return arith::MulIOp::create(rewriter, loc, a, b).getResult();
    };
    auto c = [&](int32_t v) {
      return arith::ConstantIntOp::create(rewriter, loc, i32, v).getResult();
    };
    if (op.getKind() == SlotKind::hw) {
      rewriter.replaceOpWithNewOp<NVVM::WarpIdOp>(op, i32);
      return success();
    }
    // Linear thread id in the block, and threads per block.
    // (Operands are built into locals: argument evaluation order is
    // unspecified in C++, and the IR order must not depend on the compiler.)
    Value ntx = NVVM::BlockDimXOp::create(rewriter, loc, i32);
    Value nty = NVVM::BlockDimYOp::create(rewriter, loc, i32);
    Value ntz = NVVM::BlockDimZOp::create(rewriter, loc, i32);
    Value tx = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
    Value ty = NVVM::ThreadIdYOp::create(rewriter, loc, i32);
    Value tz = NVVM::ThreadIdZOp::create(rewriter, loc, i32);
    Value tid = add(tx, mul(ntx, add(ty, mul(nty, tz))));
    Value c32 = c(32);
    Value warpInBlock = arith::DivUIOp::create(rewriter, loc, tid, c32);
    if (op.getKind() == SlotKind::software) {
      rewriter.replaceOp(op, warpInBlock);
      return success();
    }
    // virtual: (linear block id * warps per block + warp in block) % nwarpid.
    Value c31 = c(31);
    Value threads = mul(ntx, mul(nty, ntz));
    Value warpsPerBlock =
        arith::DivUIOp::create(rewriter, loc, add(threads, c31), c32);
    Value ncx = NVVM::GridDimXOp::create(rewriter, loc, i32);
    Value ncy = NVVM::GridDimYOp::create(rewriter, loc, i32);
    Value bx = NVVM::BlockIdXOp::create(rewriter, loc, i32);
    Value by = NVVM::BlockIdYOp::create(rewriter, loc, i32);
    Value bz = NVVM::BlockIdZOp::create(rewriter, loc, i32);
    Value block = add(bx, mul(ncx, add(by, mul(ncy, bz))));
    Value global = add(mul(block, warpsPerBlock), warpInBlock);
    Value nwarpid = NVVM::WarpDimOp::create(rewriter, loc, i32);
    rewriter.replaceOpWithNewOp<arith::RemUIOp>(op, global, nwarpid);
    return success();
  }
};

/// approx.texture_fetch -> `llvm.nvvm.tex.unified.2d.v4f32.f32` (PTX
/// `tex.2d.v4.f32.f32` on the 64-bit texture object), or with a z
/// coordinate `llvm.nvvm.tex.unified.3d.v4f32.f32` (PTX
/// `tex.3d.v4.f32.f32`, whose four-component coordinate vector the NVPTX
/// backend fills with an ignored fourth), repacked as a vector.
struct LowerTextureFetchOp final : OpRewritePattern<TextureFetchOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TextureFetchOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    auto structType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), {f32, f32, f32, f32});
    SmallVector<Value, 4> operands{op.getHandle(), op.getX(), op.getY()};
    if (op.getZ())
      operands.push_back(op.getZ());
    StringRef intrinsic = op.getZ() ? "llvm.nvvm.tex.unified.3d.v4f32.f32"
                                    : "llvm.nvvm.tex.unified.2d.v4f32.f32";
    Value texel = LLVM::CallIntrinsicOp::create(
                      rewriter, loc, structType,
                      rewriter.getStringAttr(intrinsic), operands)
                      .getResult(0);
    Value vec = LLVM::PoisonOp::create(rewriter, loc, op.getType());
    for (int64_t i = 0; i < 4; ++i) {
      Value lane = LLVM::ExtractValueOp::create(rewriter, loc, texel, i);
      Value idx = LLVM::ConstantOp::create(rewriter, loc,
                                           rewriter.getI32Type(), i);
      vec = LLVM::InsertElementOp::create(rewriter, loc, vec, lane, idx);
    }
    rewriter.replaceOp(op, vec);
    return success();
  }
};

} // namespace

void mlir::approx::populateCoreToNVVMPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerKnobOp, LowerResourceKnobOp, EraseKnobDecl<VariantKnobOp>,
               EraseKnobDecl<BuildKnobOp>,
               LowerKnobValueOp, LowerResourceHandleOp, LowerWarpSlotOp,
               LowerTextureFetchOp>(
      patterns.getContext());
}
