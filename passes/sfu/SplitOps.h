//===- SplitOps.h - ops approx-warp-split pinned to one side ----*- C++ -*-===//
//
// What the passes after approx-warp-split (unroll counts, load hoisting)
// look for: an approx function op with a knob, pinned to form(sfu) or
// form(precise), as the split leaves it in each copy.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PASSES_SFU_SPLITOPS_H
#define APPROX_PASSES_SFU_SPLITOPS_H

#include "approx/Dialect/ApproxDialect.h"

namespace mlir::approx {

inline bool isWarpSplitOp(Operation *op) {
  auto f = dyn_cast<ApproxFunctionOp>(op);
  if (!f || !f.getKnobAttr())
    return false;
  std::optional<Form> form = f.getForm();
  return form && (*form == Form::sfu || *form == Form::precise);
}

} // namespace mlir::approx

#endif // APPROX_PASSES_SFU_SPLITOPS_H
