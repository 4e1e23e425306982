//===- ApproxDialect.cpp - the approx dialect: registration ---------------===//
//
// Registers every op family, the attributes and the inliner interface, and
// verifies the discardable attributes the passes leave on other dialects' ops
// (`approx.sites` on a gpu.module, `approx.manifest` on the top module,
// `approx.knob` on a kernel argument, `approx.cfg` on a raised kernel), so that a malformed one is a verifier
// error instead of a crash in a later pass. The families' own verifiers live
// beside their ODS: CoreOps.cpp, SfuOps.cpp, LnsOps.cpp and
// PerforationOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"
#include "approx/Dialect/PtxNames.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::approx;

#include "approx/Dialect/ApproxDialect.cpp.inc"
#include "approx/Dialect/ApproxEnums.cpp.inc"
#include "approx/Dialect/ApproxAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "approx/Dialect/ApproxAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "approx/Dialect/ApproxTypes.cpp.inc"

namespace {
/// Approx ops are pure functions of their operands (or reads of a module
/// global): inlining a helper that holds them is always legal.
struct ApproxInlinerInterface final : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool,
                       IRMapping &) const override {
    return true;
  }
};
} // namespace

void ApproxDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "approx/Dialect/CoreOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "approx/Dialect/SfuOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "approx/Dialect/LnsOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "approx/Dialect/PerforationOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "approx/Dialect/ApproxTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "approx/Dialect/ApproxAttrs.cpp.inc"
      >();
  addInterfaces<ApproxInlinerInterface>();
}

LogicalResult ApproxDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kSitesAttrName) {
    if (!isa<gpu::GPUModuleOp>(op))
      return op->emitError("'") << name << "' belongs on a gpu.module";
    auto array = dyn_cast<ArrayAttr>(attr.getValue());
    if (!array)
      return op->emitError("'")
             << name << "' must be an array of #approx.site, got "
             << attr.getValue();
    for (auto [i, entry] : llvm::enumerate(array))
      if (!isa<SiteAttr>(entry))
        return op->emitError("'") << name << "' entry #" << i
                                  << " is not an #approx.site: " << describeAttr(entry);
    return success();
  }
  if (name == kManifestAttrName) {
    if (!isa<ModuleOp>(op) || !isa<DictionaryAttr>(attr.getValue()))
      return op->emitError("'approx.manifest' is a dictionary on a "
                           "builtin.module (written by "
                           "approx-record-manifest)");
    return success();
  }
  if (name == kControlFlowAttrName) {
    auto text = dyn_cast<StringAttr>(attr.getValue());
    // gpu.func, and the llvm.func it becomes in convert-gpu-to-nvvm.
    if (!isa<FunctionOpInterface>(op) || !text ||
        !(text.getValue() == "structured" ||
          text.getValue().starts_with("blocks")))
      return op->emitError("'approx.cfg' is \"structured\" or \"blocks: "
                           "<reason>\" on a kernel function");
    return success();
  }
  if (name == kLnsSplitAttrName) {
    auto impl = op->getAttrOfType<LnsImplAttr>("impl");
    auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
    auto side = dict ? dict.getAs<StringAttr>("side") : StringAttr();
    auto how = dict ? dict.getAs<StringAttr>("versioning") : StringAttr();
    if (!impl || !dict || !dict.getAs<FlatSymbolRefAttr>("knob") || !side ||
        !how || dict.size() != 3 ||
        !(how.getValue() == "region" || how.getValue() == "per-op"))
      return op->emitError("'approx.lns_split' is {knob = @λ, side = "
                           "\"texture2\" | \"sfu\", versioning = \"region\" "
                           "| \"per-op\"} on an LNS op with an impl "
                           "(written by approx-lns-version)");
    const bool texture = impl.getKind() == LnsImplKind::texture2,
               sfu = impl.getKind() == LnsImplKind::sfu;
    if (!((side.getValue() == "texture2" && texture) ||
          (side.getValue() == "sfu" && sfu)))
      return op->emitError("'approx.lns_split' side \"")
             << side.getValue() << "\" does not match impl "
             << stringifyLnsImplKind(impl.getKind());
    return success();
  }
  if (name == kLnsVariantAttrName) {
    auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
    auto value = dict ? dict.getAs<IntegerAttr>("value") : IntegerAttr();
    if (!op->getAttrOfType<LnsImplAttr>("impl") || !dict ||
        dict.size() != 2 || !dict.getAs<FlatSymbolRefAttr>("knob") ||
        !value || value.getInt() < 0)
      return op->emitError("'approx.lns_variant' is {knob = @k, value = i "
                           ">= 0} on an LNS op with an impl (written by "
                           "approx-lns-impl-variants)");
    return success();
  }
  return op->emitError("unknown approx attribute '") << name << "'";
}

LogicalResult ApproxDialect::verifyRegionArgAttribute(Operation *op,
                                                      unsigned region,
                                                      unsigned argIndex,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kObjectArgAttrName) {
    // The memory object a kernel argument receives (precision-space=).
    auto object = dyn_cast<StringAttr>(attr.getValue());
    if (!object || object.getValue().empty())
      return op->emitError("argument #")
             << argIndex << ": '" << name
             << "' must be the memory object's name (a non-empty string), got "
             << describeAttr(attr.getValue());
    return success();
  }
  if (name != kKnobArgAttrName)
    return op->emitError("unknown approx argument attribute '") << name << "'";
  if (!isa<FlatSymbolRefAttr>(attr.getValue()))
    return op->emitError("argument #")
           << argIndex << ": '" << name << "' must name a knob, got "
           << describeAttr(attr.getValue());
  return success();
}
