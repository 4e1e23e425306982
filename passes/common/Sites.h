//===- Sites.h - recording what a technique did where ----------*- C++ -*-===//
//
// Every technique records its sites (#approx.site) in the `approx.sites`
// array of the gpu.module; approx-record-manifest writes them out. These
// helpers keep the records uniform. Private to passes/.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PASSES_COMMON_SITES_H
#define APPROX_PASSES_COMMON_SITES_H

#include "approx/Dialect/ApproxDialect.h"

#include <string>

namespace mlir::approx {

/// `loc` as `file:line:col`, with `(inlined at file:line:col)` for code the
/// inliner moved, for people reading the manifest.
std::string describeLocation(Location loc);

/// The symbol name of the function holding `op` ("" if none).
StringRef enclosingFunctionName(Operation *op);

/// A site for `op`, located at `op`, in the function that holds it.
SiteAttr makeSite(Operation *op, StringRef technique, StringRef what,
                  Type type, FlatSymbolRefAttr knob, SiteForm form,
                  StringRef reason = "", DictionaryAttr data = {});

/// Appends `sites` to the `approx.sites` array of `module`.
void appendSites(gpu::GPUModuleOp module, ArrayRef<Attribute> sites);

} // namespace mlir::approx

#endif // APPROX_PASSES_COMMON_SITES_H
