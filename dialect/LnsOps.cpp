//===- LnsOps.cpp - the lns op family: verifiers --------------------------===//
//
// Checks the `#approx.lns_impl` parameters (segment counts the tables and a
// 2-D or 3-D texture can hold, horner's degree, split's knob) and that a
// split's knob names an `approx.knob` of the enclosing gpu.module.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::approx;

#define GET_OP_CLASSES
#include "approx/Dialect/LnsOps.cpp.inc"

LogicalResult
LnsImplAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                    LnsImplKind kind, int64_t segments, int64_t inputBits,
                    FloatAttr maxErrorAttr, int64_t degree,
                    FlatSymbolRefAttr knob, SlotKind) {
  double maxError = maxErrorAttr ? maxErrorAttr.getValueAsDouble() : 0.0;
  // The tables cover x in [-32, 0]: texture2 is 2 * 32 * segments texels
  // wide, and a 2-D CUDA array is at most 65536 wide. 0: derived.
  constexpr int64_t kMaxSegments = 1024;
  if (inputBits != 0 && (inputBits < 8 || inputBits > 18))
    return emitError() << "input_bits = " << inputBits
                       << " is outside [8, 18] (2^(input_bits - 8) segments "
                          "per unit, at most 1024)";
  if (maxErrorAttr && !(maxError > 0))
    return emitError() << "max_error = " << maxError
                       << " is not a positive error bound";
  if (segments != 0 && maxError > 0)
    return emitError() << "segments and max_error both given: the segment "
                          "count is either chosen or derived";
  // segments = 0: derived by approx-lns-lower.
  if (segments != 0 && (segments < 1 || !llvm::isPowerOf2_64(segments)))
    return emitError() << "segments = " << segments
                       << " is not a power of two";
  // texture3's table is a 3-D texture 2 * 32 * segments texels wide, and a
  // 3-D CUDA array is at most 16384 wide (maxTexture3D on compute capability
  // 5.0 and later): 256 segments per unit.
  constexpr int64_t kMaxTexture3Segments = 256;
  if (kind == LnsImplKind::texture3 && segments > kMaxTexture3Segments)
    return emitError() << "segments = " << segments << " needs a 3-D texture "
                       << 2 * 32 * segments << " texels wide; texture3 fits "
                       << "at most " << kMaxTexture3Segments
                       << " segments per unit in CUDA's 16384-texel limit "
                          "of a 3-D texture";
  // input_bits alone derives 2^(input_bits - 8) segments.
  if (kind == LnsImplKind::texture3 && segments == 0 && !maxErrorAttr &&
      inputBits > 16)
    return emitError() << "input_bits = " << inputBits << " derives "
                       << (int64_t(1) << (inputBits - 8))
                       << " segments per unit; texture3 fits at most "
                       << kMaxTexture3Segments
                       << " (input_bits <= 16) in CUDA's 16384-texel limit "
                          "of a 3-D texture: give segments or max_error";
  if (segments > kMaxSegments)
    return emitError() << "segments = " << segments << " needs a texture "
                       << 2 * 32 * segments
                       << " texels wide; at most " << kMaxSegments
                       << " segments per unit fit the 65536-texel limit";
  if (degree < 1 || degree > 5)
    return emitError() << "degree = " << degree
                       << " is outside horner's range [1, 5]";
  if (kind == LnsImplKind::split && !knob)
    return emitError() << "split needs a knob (λ: warps below it use the "
                          "texture units)";
  if (kind != LnsImplKind::split && knob)
    return emitError() << stringifyLnsImplKind(kind)
                       << " takes no knob; only split does";
  return success();
}

/// A split's knob must be an `approx.knob` of the gpu.module.
static LogicalResult verifyImplKnob(Operation *op, LnsImplAttr impl,
                                    SymbolTableCollection &table) {
  if (!impl.getKnob())
    return success();
  return mlir::approx::detail::verifyKnobUse(op, impl.getKnob(), table,
                                             "approx.knob");
}

LogicalResult LnsAddOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyImplKnob(*this, getImpl(), table);
}
LogicalResult LnsSubOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyImplKnob(*this, getImpl(), table);
}
LogicalResult LnsSbOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyImplKnob(*this, getImpl(), table);
}
LogicalResult LnsDbOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyImplKnob(*this, getImpl(), table);
}

std::string LnsImplAttr::getValueId() const {
  // The kind, and the parameters that differ from their defaults.
  std::string id = stringifyLnsImplKind(getKind()).str();
  if (getSegments() > 0)
    id += ":s" + std::to_string(getSegments());
  if (getKind() == LnsImplKind::horner && getDegree() != 5)
    id += ":d" + std::to_string(getDegree());
  return id;
}

DictionaryAttr LnsImplAttr::getPayload() const {
  Builder b(getContext());
  SmallVector<NamedAttribute> fields{
      b.getNamedAttr("type", b.getStringAttr("lns_impl")),
      b.getNamedAttr("impl", b.getStringAttr(stringifyLnsImplKind(getKind())))};
  if (getSegments() > 0)
    fields.push_back(
        b.getNamedAttr("segments", b.getI64IntegerAttr(getSegments())));
  if (getKind() == LnsImplKind::horner)
    fields.push_back(b.getNamedAttr("degree", b.getI64IntegerAttr(getDegree())));
  return b.getDictionaryAttr(fields);
}

StringRef LnsImplAttr::getTechnique() const { return "lns"; }
