//===- PerforationOps.cpp - the perforation op family: verifiers ----------===//
//
// Checks the `#approx.perforation` schemes, the tile buffers of the input
// tile loads (static workgroup memory that fits a block, a halo no larger
// than the tile, skips the buffer can hold), the scheme knob's range, and
// the output perforation region (two index arguments, no barrier).
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::approx;

#define GET_OP_CLASSES
#include "approx/Dialect/PerforationOps.cpp.inc"

/// The static shared memory one block may declare without opting in.
static constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
/// The largest skip: beyond it a scheme loads almost nothing.
static constexpr int64_t kMaxSkip = 1024;

LogicalResult
PerforationSchemeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              PerforationKind kind, int64_t skip,
                              Reconstruction recon) {
  bool hasSkip = kind == PerforationKind::rows ||
                 kind == PerforationKind::cols ||
                 kind == PerforationKind::center;
  if (!hasSkip && skip != 1)
    return emitError() << "skip = " << skip << " means nothing for "
                       << stringifyPerforationKind(kind)
                       << ": only rows, cols and center skip n of n+1";
  if (hasSkip && (skip < 1 || skip > kMaxSkip))
    return emitError() << "skip = " << skip << " is outside [1, " << kMaxSkip
                       << "]";
  if (kind == PerforationKind::accurate && recon != Reconstruction::nn)
    return emitError() << "accurate skips nothing: it takes no reconstruction";
  if (kind == PerforationKind::center && recon != Reconstruction::nn)
    return emitError() << "center is output perforation, which copies: "
                          "recon = linear is not available";
  return success();
}

std::string PerforationSchemeAttr::getShortName() const {
  std::string name = stringifyPerforationKind(getKind()).str();
  switch (getKind()) {
  case PerforationKind::accurate:
    return name;
  case PerforationKind::center:
    return name + std::to_string(getSkip());
  case PerforationKind::rows:
  case PerforationKind::cols:
    name += std::to_string(getSkip());
    break;
  case PerforationKind::stencil:
    break;
  }
  return name + ":" + stringifyReconstruction(getRecon()).str();
}

std::string PerforationSchemeAttr::getValueId() const { return getShortName(); }

StringRef PerforationSchemeAttr::getTechnique() const { return "perforation"; }
StringRef BlockShapeAttr::getTechnique() const { return "perforation"; }

DictionaryAttr PerforationSchemeAttr::getPayload() const {
  Builder b(getContext());
  // Output perforation copies; input perforation rebuilds as `recon` says.
  StringRef recon = getKind() == PerforationKind::center
                        ? "copy"
                        : stringifyReconstruction(getRecon());
  return b.getDictionaryAttr(
      {b.getNamedAttr("type", b.getStringAttr("perforation_scheme")),
       b.getNamedAttr("scheme",
                      b.getStringAttr(stringifyPerforationKind(getKind()))),
       b.getNamedAttr("skip", b.getI64IntegerAttr(getSkip())),
       b.getNamedAttr("reconstruction", b.getStringAttr(recon))});
}

LogicalResult
BlockShapeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t x, int64_t y, int64_t rows) {
  if (x < 1 || y < 1 || x * y > 1024)
    return emitError() << "block " << x << "x" << y
                       << " is not 1 to 1024 threads";
  if (rows < 1 || rows > 64)
    return emitError() << "rows = " << rows << " is not in 1..64";
  return success();
}

std::string BlockShapeAttr::getValueId() const {
  std::string id = std::to_string(getX()) + "x" + std::to_string(getY());
  return getRows() > 1 ? id + "r" + std::to_string(getRows()) : id;
}

DictionaryAttr BlockShapeAttr::getPayload() const {
  Builder b(getContext());
  return b.getDictionaryAttr(
      {b.getNamedAttr("type", b.getStringAttr("block_shape")),
       b.getNamedAttr("x", b.getI64IntegerAttr(getX())),
       b.getNamedAttr("y", b.getI64IntegerAttr(getY())),
       b.getNamedAttr("rows", b.getI64IntegerAttr(getRows()))});
}

/// A tile buffer: static shape, a row-major layout with static strides and
/// offset (a padded buffer's view: rows may lie further apart than the
/// width), workgroup memory, the source's element type, and small enough
/// for a block's shared memory.
static LogicalResult verifyTileBuffer(Operation *op, MemRefType source,
                                      MemRefType tile) {
  if (!tile.hasStaticShape())
    return op->emitOpError("tile buffer ")
           << tile << " must have a static shape";
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  bool rowMajor = succeeded(tile.getStridesAndOffset(strides, offset)) &&
                  !ShapedType::isDynamic(offset) && offset >= 0 &&
                  strides.back() == 1;
  if (rowMajor && strides.size() == 2)
    rowMajor = !ShapedType::isDynamic(strides[0]) &&
               strides[0] >= tile.getDimSize(1);
  if (!rowMajor)
    return op->emitOpError("tile buffer ")
           << tile
           << " must be row-major with static strides and offset (inner "
              "stride 1, rows at least its width apart)";
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(tile.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return op->emitOpError("tile buffer ")
           << tile << " must be in #gpu.address_space<workgroup>";
  if (tile.getElementType() != source.getElementType())
    return op->emitOpError("tile element type ")
           << tile.getElementType() << " differs from the source's "
           << source.getElementType();
  // The elements the view spans, padding included.
  int64_t span = offset + tile.getDimSize(tile.getRank() - 1);
  if (tile.getRank() == 2)
    span += (tile.getDimSize(0) - 1) * strides[0];
  int64_t bytes =
      span * (tile.getElementType().getIntOrFloatBitWidth() / 8);
  if (bytes > kMaxStaticSharedBytes)
    return op->emitOpError("tile plus halo needs ")
           << bytes << " bytes of shared memory; a block's static shared "
           << "memory is at most " << kMaxStaticSharedBytes << " bytes";
  return success();
}

/// A halo that leaves a tile interior at least as large as itself.
static LogicalResult verifyHalo(Operation *op, int64_t halo, int64_t extent,
                                StringRef what) {
  if (halo < 0)
    return op->emitOpError("halo of ") << halo << " " << what
                                       << " is negative";
  int64_t interior = extent - 2 * halo;
  if (interior < 1)
    return op->emitOpError("a tile buffer of ")
           << extent << " " << what << " has no interior inside a halo of "
           << halo;
  if (halo > interior)
    return op->emitOpError("halo of ")
           << halo << " " << what << " is larger than the " << interior
           << "-" << what.drop_back() << " tile";
  return success();
}

/// A non-empty scheme list, a knob when there is a choice.
static LogicalResult verifySchemeList(Operation *op, ArrayAttr schemes,
                                      FlatSymbolRefAttr knob) {
  if (schemes.empty())
    return op->emitOpError("needs at least one scheme");
  if (schemes.size() > 1 && !knob)
    return op->emitOpError("has ")
           << schemes.size() << " schemes but no knob to choose among them";
  return success();
}

/// The knob names an approx.knob whose range indexes the scheme list.
static LogicalResult verifySchemeKnob(Operation *op, FlatSymbolRefAttr knob,
                                      size_t numSchemes,
                                      SymbolTableCollection &table) {
  if (!knob)
    return success();
  if (failed(mlir::approx::detail::verifyKnobUse(op, knob, table,
                                                 "approx.knob")))
    return failure();
  auto decl = cast<KnobOp>(table.lookupNearestSymbolFrom(op, knob.getAttr()));
  int64_t last = static_cast<int64_t>(numSchemes) - 1;
  auto lo = static_cast<int64_t>(decl.getMin());
  auto hi = static_cast<int64_t>(decl.getMax());
  if (lo < 0 || hi > last)
    return op->emitOpError("knob ")
           << knob << " has range(" << lo << ", " << hi
           << ") but indexes " << numSchemes << " schemes: it must lie within "
           << "[0, " << last << "]";
  return success();
}

//===----------------------------------------------------------------------===//
// tile_load
//===----------------------------------------------------------------------===//

int64_t TileLoadOp::getTileRows() {
  return getTile().getType().getDimSize(0) - 2 * getHaloRows();
}
int64_t TileLoadOp::getTileCols() {
  return getTile().getType().getDimSize(1) - 2 * getHaloCols();
}

LogicalResult TileLoadOp::verify() {
  MemRefType tile = getTile().getType();
  if (failed(verifyTileBuffer(*this, getSource().getType(), tile)) ||
      failed(verifyHalo(*this, getHaloRows(), tile.getDimSize(0), "rows")) ||
      failed(verifyHalo(*this, getHaloCols(), tile.getDimSize(1), "cols")) ||
      failed(verifySchemeList(*this, getSchemes(), getKnobAttr())))
    return failure();
  for (auto scheme : getSchemes().getAsRange<PerforationSchemeAttr>()) {
    int64_t span = scheme.getSkip() + 1;
    switch (scheme.getKind()) {
    case PerforationKind::center:
      return emitOpError("scheme ")
             << scheme << " is output perforation; a tile load takes "
             << "accurate, rows, cols or stencil";
    case PerforationKind::rows:
      if (span > tile.getDimSize(0))
        return emitOpError("scheme ")
               << scheme << " needs " << span << " buffer rows to keep one "
               << "loaded row; the buffer has " << tile.getDimSize(0);
      break;
    case PerforationKind::cols:
      if (span > tile.getDimSize(1))
        return emitOpError("scheme ")
               << scheme << " needs " << span << " buffer columns to keep "
               << "one loaded column; the buffer has " << tile.getDimSize(1);
      break;
    case PerforationKind::stencil:
      if (getHaloRows() == 0 && getHaloCols() == 0)
        return emitOpError("scheme ")
               << scheme << " skips the halo, and this tile has none";
      break;
    case PerforationKind::accurate:
      break;
    }
  }
  return success();
}

LogicalResult TileLoadOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifySchemeKnob(*this, getKnobAttr(), getSchemes().size(), table);
}

//===----------------------------------------------------------------------===//
// load_1d
//===----------------------------------------------------------------------===//

LogicalResult Load1DOp::verify() {
  MemRefType tile = getTile().getType();
  if (failed(verifyTileBuffer(*this, getSource().getType(), tile)) ||
      failed(verifyHalo(*this, getHalo(), tile.getDimSize(0), "elements")) ||
      failed(verifySchemeList(*this, getSchemes(), getKnobAttr())))
    return failure();
  unsigned bytes = tile.getElementType().getIntOrFloatBitWidth() / 8;
  int64_t sector = std::max<int64_t>(1, 32 / bytes);
  for (auto scheme : getSchemes().getAsRange<PerforationSchemeAttr>()) {
    switch (scheme.getKind()) {
    case PerforationKind::center:
    case PerforationKind::cols:
      return emitOpError("scheme ")
             << scheme << " is not a 1-D input scheme: take accurate, "
             << "rows (whole 32-byte sectors) or stencil";
    case PerforationKind::rows:
      // Any (skip + 1) * sector consecutive elements hold a loaded sector.
      if ((scheme.getSkip() + 1) * sector > tile.getDimSize(0))
        return emitOpError("scheme ")
               << scheme << " skips " << scheme.getSkip() << " of every "
               << scheme.getSkip() + 1 << " sectors of " << sector
               << " elements; the " << tile.getDimSize(0)
               << "-element buffer may then hold no loaded element";
      break;
    case PerforationKind::stencil:
      if (getHalo() == 0)
        return emitOpError("scheme ")
               << scheme << " skips the halo, and this tile has none";
      break;
    case PerforationKind::accurate:
      break;
    }
  }
  return success();
}

LogicalResult Load1DOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifySchemeKnob(*this, getKnobAttr(), getSchemes().size(), table);
}

//===----------------------------------------------------------------------===//
// output
//===----------------------------------------------------------------------===//

LogicalResult OutputPerforationOp::verify() {
  if (failed(verifySchemeList(*this, getSchemes(), getKnobAttr())))
    return failure();
  for (auto scheme : getSchemes().getAsRange<PerforationSchemeAttr>()) {
    if (scheme.getKind() == PerforationKind::stencil)
      return emitOpError("scheme ")
             << scheme << " is input perforation; output perforation takes "
             << "accurate, rows, cols or center";
    if (scheme.getRecon() != Reconstruction::nn)
      return emitOpError("scheme ")
             << scheme << ": output perforation copies computed elements, "
             << "recon = linear is not available";
  }
  return success();
}

LogicalResult OutputPerforationOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 2 ||
      !llvm::all_of(body.getArgumentTypes(),
                    [](Type t) { return t.isIndex(); }))
    return emitOpError("region must take the computed coordinate as two "
                       "index arguments (row, column)");
  auto yield = dyn_cast<PerforationYieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("region must end in approx.perforation.yield");
  Type element = getOut().getType().getElementType();
  if (yield.getValue().getType() != element)
    return emitOpError("region yields ")
           << yield.getValue().getType() << " but the output holds "
           << element;
  WalkResult barrier = getBody().walk([](gpu::BarrierOp b) {
    b.emitError("a barrier inside approx.perforation.output: threads whose "
                "element is copied skip the region");
    return WalkResult::interrupt();
  });
  return failure(barrier.wasInterrupted());
}

LogicalResult
OutputPerforationOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifySchemeKnob(*this, getKnobAttr(), getSchemes().size(), table);
}
