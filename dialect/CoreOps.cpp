//===- CoreOps.cpp - the core family: knobs and knob reads ----------------===//
//
// Verifiers of the three knob declarations (names that can be PTX symbols,
// ranges, variant lists, texture tables) and of every op that names a knob.
// Each rule has its own diagnostic, tested in test/Dialect/core.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"
#include "approx/Dialect/PtxNames.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::approx;

#define GET_OP_CLASSES
#include "approx/Dialect/CoreOps.cpp.inc"

LogicalResult mlir::approx::detail::verifyKnobUse(
    Operation *op, FlatSymbolRefAttr knob, SymbolTableCollection &symbolTable,
    StringRef expectedOp) {
  Operation *def = symbolTable.lookupNearestSymbolFrom(op, knob.getAttr());
  if (!def)
    return op->emitOpError("knob ")
           << knob << " does not name an " << expectedOp
           << " in the enclosing gpu.module";
  if (def->getName().getStringRef() != expectedOp)
    return op->emitOpError("knob ")
           << knob << " names a '" << def->getName() << "', not an "
           << expectedOp;
  return success();
}

LogicalResult KnobValueOp::verifySymbolUses(SymbolTableCollection &table) {
  return detail::verifyKnobUse(*this, getKnobAttr(), table, "approx.knob");
}

LogicalResult
ResourceHandleOp::verifySymbolUses(SymbolTableCollection &table) {
  return detail::verifyKnobUse(*this, getKnobAttr(), table,
                               "approx.resource_knob");
}

/// A fetch from a resource knob's handle gives as many coordinates as the
/// knob's texture has dimensions (a handle from elsewhere, e.g. a kernel
/// argument after approx-knobs-to-params, is not checked).
LogicalResult
TextureFetchOp::verifySymbolUses(SymbolTableCollection &table) {
  auto handle = getHandle().getDefiningOp<ResourceHandleOp>();
  if (!handle)
    return success();
  auto knob = dyn_cast_or_null<ResourceKnobOp>(
      table.lookupNearestSymbolFrom(handle, handle.getKnobAttr()));
  if (!knob) // ResourceHandleOp reports it
    return success();
  const bool threeD = knob.getTextureType() == TextureType::texture_3d;
  if (threeD == bool(getZ()))
    return success();
  return emitOpError("fetches ")
         << (getZ() ? "3" : "2") << " coordinates from knob "
         << handle.getKnobAttr() << ", a "
         << stringifyTextureType(knob.getTextureType()) << " (give "
         << (threeD ? "x, y, z" : "x, y") << ")";
}

/// Knob names become PTX symbols (and manifest keys).
static LogicalResult verifyKnobName(Operation *op, StringRef name) {
  std::string why;
  if (!isValidPtxIdentifier(name, &why))
    return op->emitOpError("knob name ")
           << quoteName(name) << " cannot be a PTX symbol: it " << why;
  return success();
}

/// A default inside [0, count).
static LogicalResult verifyDefaultIndex(Operation *op, int64_t def,
                                        int64_t count, StringRef what) {
  if (def < 0 || def >= count)
    return op->emitOpError("default(")
           << def << ") lies outside [0, " << count - 1 << "]: there are "
           << count << " " << what;
  return success();
}

/// `values` of a knob declaration: `count` attributes implementing
/// KnobValueAttrInterface, with distinct ids (manifest value ids).
static LogicalResult verifyKnobValues(Operation *op, ArrayAttr values,
                                      int64_t count) {
  if (!values)
    return success();
  if (int64_t(values.size()) != count)
    return op->emitOpError("values has ")
           << values.size() << " entries for " << count
           << " knob values: one per value";
  llvm::StringSet<> ids;
  for (Attribute v : values) {
    auto value = dyn_cast<KnobValueAttrInterface>(v);
    if (!value)
      return op->emitOpError("values: ")
             << v << " is not a knob value (a scheme, block shape, impl or "
             << "storage attribute)";
    std::string id = value.getValueId();
    if (!ids.insert(id).second)
      return op->emitOpError("values: two values have the id ")
             << quoteName(id);
  }
  return success();
}

LogicalResult KnobOp::verify() {
  if (failed(verifyKnobName(*this, getSymName())))
    return failure();
  int64_t lo = getMin(), hi = getMax(), def = getDefaultValue();
  constexpr int64_t kI32Max = std::numeric_limits<int32_t>::max();
  if (lo < 0 || hi > kI32Max)
    return emitOpError("range(")
           << lo << ", " << hi << ") must lie within [0, " << kI32Max
           << "]: knobs are non-negative i32";
  if (lo > hi)
    return emitOpError("range(") << lo << ", " << hi << ") is inverted";
  if (lo == hi)
    return emitOpError("range(")
           << lo << ", " << hi << ") is empty: it holds one value, nothing "
           << "to tune";
  if (def < lo || def > hi)
    return emitOpError("default(")
           << def << ") lies outside range(" << lo << ", " << hi << ")";
  return verifyKnobValues(*this, getValuesAttr(), hi - lo + 1);
}

int64_t VariantKnobOp::getNumVariants() {
  for (NamedAttribute entry : getDispatch())
    if (auto list = dyn_cast<ArrayAttr>(entry.getValue()))
      return list.size();
  return 0;
}

LogicalResult VariantKnobOp::verify() {
  if (failed(verifyKnobName(*this, getSymName())))
    return failure();
  if (getDispatch().empty())
    return emitOpError("dispatch is empty: name at least one kernel");
  int64_t count = -1;
  for (NamedAttribute entry : getDispatch()) {
    StringRef logical = entry.getName().getValue();
    std::string why;
    if (!isValidPtxIdentifier(logical, &why))
      return emitOpError("dispatched name ")
             << quoteName(logical) << " cannot be a kernel name: it " << why;
    auto list = dyn_cast<ArrayAttr>(entry.getValue());
    if (!list || !llvm::all_of(list, llvm::IsaPred<FlatSymbolRefAttr>))
      return emitOpError("dispatch of ")
             << quoteName(logical)
             << " must be a list of kernel symbols, got "
             << describeAttr(entry.getValue());
    if (list.size() < 2)
      return emitOpError("dispatch of ")
             << quoteName(logical) << " has " << list.size()
             << " variant(s): a choice needs at least 2";
    if (count >= 0 && int64_t(list.size()) != count)
      return emitOpError("dispatch of ")
             << quoteName(logical) << " has " << list.size()
             << " variants where the others have " << count
             << ": one knob value must pick one variant of each";
    count = list.size();
  }
  if (failed(verifyKnobValues(*this, getValuesAttr(), count)))
    return failure();
  return verifyDefaultIndex(*this, getDefaultValue(), count, "variants");
}

LogicalResult BuildKnobOp::verify() {
  if (failed(verifyKnobName(*this, getSymName())))
    return failure();
  const int64_t n = getValues().size();
  if (n < 2)
    return emitOpError("values has ")
           << n << " entries: a choice needs at least 2";
  if (failed(verifyKnobValues(*this, getValues(), n)) ||
      failed(verifyDefaultIndex(*this, getDefaultValue(), n, "values")))
    return failure();
  if (getValue() < 0 || getValue() >= n)
    return emitOpError("value(")
           << getValue() << ") lies outside [0, " << n - 1 << "]";
  if (bool(getObjectKernelAttr()) != bool(getObjectArgAttr()))
    return emitOpError("object needs a kernel and an argument index");
  if (getObjectKernelAttr() &&
      !llvm::all_of(getValues(), llvm::IsaPred<StorageAttr>))
    return emitOpError("the values of a storage knob (object(...)) must be "
                       "#approx.storage attributes");
  if ((getObjectAlsoAttr() || getObjectNameAttr()) && !getObjectKernelAttr())
    return emitOpError("also and named describe a memory object: give "
                       "object(@kernel, arg) first");
  if (ArrayAttr also = getObjectAlsoAttr()) {
    for (auto [i, use] : llvm::enumerate(also)) {
      auto pair = dyn_cast<ArrayAttr>(use);
      if (!pair || pair.size() != 2 || !isa<FlatSymbolRefAttr>(pair[0]) ||
          !isa<IntegerAttr>(pair[1]))
        return emitOpError("also entry ")
               << i << " is not [@kernel, argument index]";
    }
    auto uses = getObjectUses();
    for (size_t i = 0; i < uses.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (uses[i] == uses[j])
          return emitOpError("the memory object lists argument ")
                 << uses[i].second << " of " << uses[i].first << " twice";
  }
  if (StringAttr name = getObjectNameAttr(); name && name.getValue().empty())
    return emitOpError("named needs a non-empty name");
  return success();
}

SmallVector<std::pair<FlatSymbolRefAttr, int64_t>> BuildKnobOp::getObjectUses() {
  SmallVector<std::pair<FlatSymbolRefAttr, int64_t>> uses;
  if (!getObjectKernelAttr() || !getObjectArgAttr())
    return uses;
  uses.emplace_back(getObjectKernelAttr(), getObjectArgAttr().getInt());
  if (ArrayAttr also = getObjectAlsoAttr())
    for (Attribute use : also) {
      auto pair = dyn_cast<ArrayAttr>(use);
      if (!pair || pair.size() != 2)
        continue;
      auto kernel = dyn_cast<FlatSymbolRefAttr>(pair[0]);
      auto arg = dyn_cast<IntegerAttr>(pair[1]);
      if (kernel && arg)
        uses.emplace_back(kernel, arg.getInt());
    }
  return uses;
}

LogicalResult BuildKnobOp::verifySymbolUses(SymbolTableCollection &table) {
  // The kernel is built for the value the knob took: every argument the
  // memory object is passed to is a memref of that type.
  Type built = getObjectKernelAttr()
                   ? cast<StorageAttr>(getValues()[getValue()]).getType()
                   : Type();
  for (auto [kernel, arg] : getObjectUses()) {
    auto fn = table.lookupNearestSymbolFrom<gpu::GPUFuncOp>(*this, kernel);
    if (!fn || !fn.isKernel())
      return emitOpError("object names ")
             << kernel << ", which is not a kernel of the module";
    if (arg < 0 || arg >= int64_t(fn.getNumArguments()))
      return emitOpError("object argument ")
             << arg << " does not exist: " << kernel << " takes "
             << fn.getNumArguments();
    auto memref = dyn_cast<MemRefType>(fn.getArgument(arg).getType());
    if (!memref || memref.getElementType() != built)
      return emitOpError("object argument ")
             << arg << " of " << kernel << " is "
             << fn.getArgument(arg).getType() << ", not a memref of " << built
             << " (the knob's value(" << getValue() << "))";
  }
  return success();
}

LogicalResult VariantKnobOp::verifySymbolUses(SymbolTableCollection &table) {
  // A logical name is dispatched once, and a variant is never itself a
  // dispatched name: one knob value always names one kernel.
  if (auto module = (*this)->getParentOfType<gpu::GPUModuleOp>())
    for (auto other : module.getOps<VariantKnobOp>())
      for (NamedAttribute entry : getDispatch()) {
        if (other != *this && other.getDispatch().get(entry.getName()))
          return emitOpError("dispatched name ")
                 << quoteName(entry.getName().getValue())
                 << " is also dispatched by "
                 << quoteName(other.getSymName());
        for (NamedAttribute theirs : other.getDispatch())
          for (Attribute v : cast<ArrayAttr>(theirs.getValue()))
            if (cast<FlatSymbolRefAttr>(v).getValue() ==
                    entry.getName().getValue() &&
                theirs.getName() != entry.getName())
              return emitOpError("dispatched name ")
                     << quoteName(entry.getName().getValue())
                     << " is a variant of " << quoteName(theirs.getName())
                     << ": dispatch does not chain";
      }
  for (NamedAttribute entry : getDispatch())
    for (Attribute a : cast<ArrayAttr>(entry.getValue())) {
      auto ref = cast<FlatSymbolRefAttr>(a);
      auto fn = dyn_cast_or_null<gpu::GPUFuncOp>(
          table.lookupNearestSymbolFrom(*this, ref.getAttr()));
      if (!fn || !fn.isKernel())
        return emitOpError("variant ")
               << ref << " of " << quoteName(entry.getName().getValue())
               << " is not a gpu.func kernel of the enclosing gpu.module";
    }
  return success();
}

LogicalResult ResourceKnobOp::verify() {
  if (failed(verifyKnobName(*this, getSymName())))
    return failure();
  ArrayAttr tables = getTables();
  if (tables.empty())
    return emitOpError("tables is empty: give at least one table");
  // CUDA's limits on a CUDA array's extents: 65536 per side in 2-D, 16384
  // per side in 3-D (maxTexture3D on compute capability 5.0 and later).
  const bool threeD = getTextureType() == TextureType::texture_3d;
  const int64_t maxExtent = threeD ? 16384 : 65536;
  const int64_t rank = threeD ? 4 : 3;
  for (auto [i, a] : llvm::enumerate(tables)) {
    auto elements = cast<ElementsAttr>(a);
    auto type = dyn_cast<RankedTensorType>(elements.getShapedType());
    if (!type || !type.getElementType().isF32() || type.getRank() != rank)
      return emitOpError("table #")
             << i << " has type " << elements.getShapedType()
             << (threeD ? "; expected tensor<D x H x W x C x f32> for a "
                          "texture_3d"
                        : "; expected tensor<H x W x C x f32>");
    const int64_t c = type.getDimSize(rank - 1);
    if (c != 1 && c != 2 && c != 4)
      return emitOpError("table #")
             << i << " has " << c << " channels; a texel holds 1, 2 or 4";
    for (int64_t d = 0; d < rank - 1; ++d) {
      const int64_t extent = type.getDimSize(d);
      if (extent >= 1 && extent <= maxExtent)
        continue;
      if (!threeD)
        return emitOpError("table #")
               << i << " is " << type.getDimSize(0) << " x "
               << type.getDimSize(1) << " texels; each side must "
               << "be in [1, " << maxExtent << "]";
      return emitOpError("table #")
             << i << " is " << type.getDimSize(0) << " x " << type.getDimSize(1)
             << " x " << type.getDimSize(2)
             << " texels; each side of a 3-D texture must be in [1, "
             << maxExtent << "]";
    }
  }
  TextureAddress address = getAddress();
  if ((address == TextureAddress::wrap || address == TextureAddress::mirror) &&
      !getNormalizedCoords())
    return emitOpError("address(")
           << stringifyTextureAddress(address)
           << ") needs normalized_coords: CUDA wraps and mirrors normalized "
              "coordinates only";
  return verifyDefaultIndex(*this, getDefaultValue(), tables.size(),
                            "tables");
}
