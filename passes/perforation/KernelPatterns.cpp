//===- KernelPatterns.cpp - what the perforation passes recognise ---------===//
//
// The thread's global coordinate and scheme names (KernelPatterns.h).
//
//===----------------------------------------------------------------------===//

#include "KernelPatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::approx;

namespace mlir::approx::perforation {

/// The largest skip the scheme attribute accepts.
static constexpr int64_t kMaxSkip = 1024;

gpu::Dimension dimOfAxis(int axis) {
  return axis == 0 ? gpu::Dimension::y : gpu::Dimension::x;
}

static bool isConstant(Value v, int64_t c) {
  APInt value;
  return matchPattern(v, m_ConstantInt(&value)) && value.getSExtValue() == c;
}

Value stripIntCasts(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
             arith::ExtUIOp, LLVM::SExtOp, LLVM::ZExtOp>(op))
      break;
    v = op->getOperand(0);
  }
  return v;
}

template <typename ArithOp, typename LLVMOp>
static std::optional<std::pair<Value, Value>> matchBinary(Value v) {
  if (auto op = v.getDefiningOp<ArithOp>())
    return std::make_pair(op.getLhs(), op.getRhs());
  if (auto op = v.getDefiningOp<LLVMOp>())
    return std::make_pair(op.getLhs(), op.getRhs());
  return std::nullopt;
}

std::optional<std::pair<Value, Value>> matchAdd(Value v) {
  return matchBinary<arith::AddIOp, LLVM::AddOp>(v);
}
std::optional<std::pair<Value, Value>> matchSub(Value v) {
  return matchBinary<arith::SubIOp, LLVM::SubOp>(v);
}
std::optional<std::pair<Value, Value>> matchMul(Value v) {
  return matchBinary<arith::MulIOp, LLVM::MulOp>(v);
}
std::optional<std::pair<Value, Value>> matchAnd(Value v) {
  return matchBinary<arith::AndIOp, LLVM::AndOp>(v);
}

/// Whether `v` reads the thread id / block size / block id along `dim`, as a
/// gpu op or an NVVM special register (through casts).
static bool isThreadId(Value v, gpu::Dimension dim) {
  v = stripIntCasts(v);
  if (auto op = v.getDefiningOp<gpu::ThreadIdOp>())
    return op.getDimension() == dim;
  return dim == gpu::Dimension::x ? isa_and_nonnull<NVVM::ThreadIdXOp>(v.getDefiningOp())
                                  : isa_and_nonnull<NVVM::ThreadIdYOp>(v.getDefiningOp());
}
static bool isBlockDim(Value v, gpu::Dimension dim) {
  v = stripIntCasts(v);
  if (auto op = v.getDefiningOp<gpu::BlockDimOp>())
    return op.getDimension() == dim;
  return dim == gpu::Dimension::x ? isa_and_nonnull<NVVM::BlockDimXOp>(v.getDefiningOp())
                                  : isa_and_nonnull<NVVM::BlockDimYOp>(v.getDefiningOp());
}
static bool isBlockId(Value v, gpu::Dimension dim) {
  v = stripIntCasts(v);
  if (auto op = v.getDefiningOp<gpu::BlockIdOp>())
    return op.getDimension() == dim;
  return dim == gpu::Dimension::x ? isa_and_nonnull<NVVM::BlockIdXOp>(v.getDefiningOp())
                                  : isa_and_nonnull<NVVM::BlockIdYOp>(v.getDefiningOp());
}

bool isThreadCoordinate(Value v, int axis, ArrayRef<int32_t> known,
                        bool allowConst) {
  gpu::Dimension dim = dimOfAxis(axis);
  v = stripIntCasts(v);
  if (auto op = v.getDefiningOp<gpu::GlobalIdOp>())
    return op.getDimension() == dim;
  auto add = matchAdd(v);
  if (!add)
    return false;
  auto isDim = [&](Value d) {
    return isBlockDim(d, dim) ||
           (allowConst && known.size() >= 2 &&
            isConstant(d, known[axis == 0 ? 1 : 0]));
  };
  auto isBase = [&](Value m) {
    auto mul = matchMul(stripIntCasts(m));
    if (!mul)
      return false;
    auto [l, r] = *mul;
    return (isBlockId(l, dim) && isDim(r)) || (isBlockId(r, dim) && isDim(l));
  };
  auto [l, r] = *add;
  return (isThreadId(l, dim) && isBase(r)) || (isThreadId(r, dim) && isBase(l));
}

FailureOr<PerforationSchemeAttr> parseSchemeName(MLIRContext *ctx,
                                                 StringRef name, SchemeUse use,
                                                 std::string &why) {
  const bool output = use == SchemeUse::Output;
  const char *forms = output ? "accurate, rowsN, colsN or centerN"
                             : "accurate, rowsN:nn|linear, colsN:nn|linear or "
                               "stencil:nn|linear";
  auto [head, recon] = name.split(':');
  size_t digits = head.find_first_of("0123456789");
  StringRef word = head.take_front(digits);
  StringRef number = digits == StringRef::npos ? "" : head.drop_front(digits);
  std::optional<PerforationKind> kind = symbolizePerforationKind(word);
  auto bad = [&]() -> FailureOr<PerforationSchemeAttr> {
    why = "scheme '" + name.str() + "' is not " + forms;
    return failure();
  };
  if (!kind)
    return bad();
  if (!output && *kind == PerforationKind::center) {
    why = "scheme '" + name.str() +
          "' is output perforation; a tile load takes accurate, rows, cols "
          "or stencil";
    return failure();
  }
  if (output && *kind == PerforationKind::stencil) {
    why = "scheme '" + name.str() +
          "' is input perforation; output perforation takes accurate, rows, "
          "cols or center";
    return failure();
  }
  int64_t skip = 1;
  if (!number.empty() && (number.getAsInteger(10, skip) || skip < 1 ||
                          skip > kMaxSkip)) {
    why = "scheme '" + name.str() + "' has a skip outside [1, " +
          std::to_string(kMaxSkip) + "]";
    return failure();
  }
  // Output perforation copies, it never reconstructs: no recon suffix.
  if (output && !recon.empty())
    return bad();
  std::optional<Reconstruction> r =
      recon.empty() ? Reconstruction::nn : symbolizeReconstruction(recon);
  if (!r || (*kind == PerforationKind::accurate && *r != Reconstruction::nn))
    return bad();
  auto attr = PerforationSchemeAttr::get(ctx, *kind, skip, *r);
  // Exactly the canonical spelling, so that manifests name what was asked
  // (output schemes drop getShortName's ":nn").
  std::string canonical = attr.getShortName();
  if (output && StringRef(canonical).ends_with(":nn"))
    canonical.resize(canonical.size() - 3);
  if (canonical != name) {
    why = "scheme '" + name.str() + "' is spelled '" + canonical + "'";
    return failure();
  }
  return attr;
}

FailureOr<SmallVector<PerforationSchemeAttr>>
parseSchemeList(MLIRContext *ctx, ArrayRef<std::string> names,
                ArrayRef<const char *> defaults, SchemeUse use,
                std::string &why) {
  SmallVector<std::string> list(names.begin(), names.end());
  if (list.empty())
    list.assign(defaults.begin(), defaults.end());
  SmallVector<PerforationSchemeAttr> out;
  for (const std::string &n : list) {
    FailureOr<PerforationSchemeAttr> s = parseSchemeName(ctx, n, use, why);
    if (failed(s))
      return failure();
    if (llvm::is_contained(out, *s)) {
      why = "scheme '" + n + "' is listed twice";
      return failure();
    }
    out.push_back(*s);
  }
  return out;
}

} // namespace mlir::approx::perforation
