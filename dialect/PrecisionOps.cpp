//===- PrecisionOps.cpp - precision scaling: storage attributes -----------===//
//
// Verifiers and the knob-value interface (manifest id and payload) of the
// storage types the precision passes choose per memory object.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::approx;

/// f64, f32, f16, bf16: the storage types PreScaler chooses among.
static bool isStorageType(Type t) {
  return t.isF64() || t.isF32() || t.isF16() || t.isBF16();
}

/// "f64", "f32", "f16", "bf16".
static std::string storageName(Type t) {
  return t.isF64() ? "f64" : t.isF32() ? "f32" : t.isF16() ? "f16" : "bf16";
}

LogicalResult StorageAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  FloatType type) {
  if (!isStorageType(type))
    return emitError() << "storage type " << type
                       << " is not f64, f32, f16 or bf16";
  return success();
}

std::string StorageAttr::getValueId() const { return storageName(getType()); }

DictionaryAttr StorageAttr::getPayload() const {
  Builder b(getContext());
  return b.getDictionaryAttr(
      {b.getNamedAttr("type", b.getStringAttr("storage")),
       b.getNamedAttr("storage", b.getStringAttr(storageName(getType())))});
}

LogicalResult
StorageConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<int64_t> args, ArrayRef<Type> types) {
  if (args.size() != types.size())
    return emitError() << "storage_config has " << args.size()
                       << " arguments and " << types.size() << " types";
  for (auto [i, arg] : llvm::enumerate(args)) {
    if (arg < 0 || (i > 0 && arg <= args[i - 1]))
      return emitError() << "storage_config arguments must ascend from 0";
    if (!isStorageType(types[i]))
      return emitError() << "storage type " << types[i]
                         << " is not f64, f32, f16 or bf16";
  }
  return success();
}

std::string StorageConfigAttr::getValueId() const {
  std::string id;
  for (Type t : getTypes())
    id += (id.empty() ? "" : "_") + storageName(t);
  return id.empty() ? "none" : id;
}

DictionaryAttr StorageConfigAttr::getPayload() const {
  Builder b(getContext());
  SmallVector<Attribute> args;
  for (auto [arg, type] : llvm::zip(getArgs(), getTypes()))
    args.push_back(b.getDictionaryAttr(
        {b.getNamedAttr("arg", b.getI64IntegerAttr(arg)),
         b.getNamedAttr("storage", b.getStringAttr(storageName(type)))}));
  return b.getDictionaryAttr(
      {b.getNamedAttr("type", b.getStringAttr("storage_config")),
       b.getNamedAttr("args", b.getArrayAttr(args))});
}

StringRef StorageAttr::getTechnique() const { return "precision"; }
StringRef StorageConfigAttr::getTechnique() const { return "precision"; }
