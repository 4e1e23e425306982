//===- Sites.cpp - recording what a technique did where -------------------===//

#include "common/Sites.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::approx;

static void printLocation(Location loc, raw_ostream &os) {
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  } else if (auto call = dyn_cast<CallSiteLoc>(loc)) {
    printLocation(call.getCallee(), os);
    os << " (inlined at ";
    printLocation(call.getCaller(), os);
    os << ")";
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    if (isa<UnknownLoc>(name.getChildLoc()))
      os << name.getName().getValue();
    else
      printLocation(name.getChildLoc(), os);
  } else if (auto fused = dyn_cast<FusedLoc>(loc);
             fused && !fused.getLocations().empty()) {
    printLocation(fused.getLocations().front(), os);
  } else if (isa<UnknownLoc>(loc)) {
    os << "unknown";
  } else {
    loc.print(os);
  }
}

std::string mlir::approx::describeLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printLocation(loc, os);
  return text;
}

StringRef mlir::approx::enclosingFunctionName(Operation *op) {
  auto fn = op->getParentOfType<FunctionOpInterface>();
  if (!fn)
    return "";
  return SymbolTable::getSymbolName(fn).getValue();
}

SiteAttr mlir::approx::makeSite(Operation *op, StringRef technique,
                                StringRef what, Type type,
                                FlatSymbolRefAttr knob, SiteForm form,
                                StringRef reason, DictionaryAttr data) {
  MLIRContext *ctx = op->getContext();
  if (data && data.empty())
    data = {};
  return SiteAttr::get(ctx, technique, enclosingFunctionName(op), what, type,
                       knob, form, reason, describeLocation(op->getLoc()),
                       data);
}

void mlir::approx::appendSites(gpu::GPUModuleOp module,
                               ArrayRef<Attribute> sites) {
  if (sites.empty())
    return;
  SmallVector<Attribute> all;
  if (auto prev = module->getAttrOfType<ArrayAttr>(kSitesAttrName))
    all.append(prev.begin(), prev.end());
  all.append(sites.begin(), sites.end());
  module->setAttr(kSitesAttrName, ArrayAttr::get(module.getContext(), all));
}
