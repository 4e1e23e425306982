//===- SfuOps.cpp - the SFU family: function op verifiers -----------------===//
//
// Per-op options (demote, range_reduction, newton_steps) and pinned forms are
// checked against the function table, so a new function brings its rules
// with its table row. Each rule has its own diagnostic, tested in
// test/Dialect/sfu.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::approx;

#include "approx/Dialect/SfuInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "approx/Dialect/SfuOps.cpp.inc"

/// "sin, cos and tan": the ops whose table row satisfies `pred`.
static std::string opsWhere(llvm::function_ref<bool(const FunctionInfo &)> pred) {
  SmallVector<StringRef> names;
  for (const FunctionInfo &row : getFunctionTable())
    if (row.hasOp && pred(row))
      names.push_back(row.name);
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i)
      out += i + 1 == names.size() ? " and " : ", ";
    out += names[i].str();
  }
  return out;
}

SfuSupport mlir::approx::sfuSupport(ApproxFunctionOp op, unsigned sm,
                                    std::string *reason) {
  FormQuery query;
  query.demote = op.getDemote();
  query.sm = sm;
  return sfuSupport(op.getFunctionInfo(), op.getElementType(), query, reason);
}

LogicalResult mlir::approx::detail::verifyFunctionOp(Operation *op) {
  auto fnOp = cast<ApproxFunctionOp>(op);
  const FunctionInfo &info = fnOp.getFunctionInfo();
  StringRef fn = info.name;
  Type elem = fnOp.getElementType();

  // Each option belongs to some functions; on another op nothing would
  // honour it.
  if (fnOp.getNewtonSteps()) {
    if (!info.newtonSteps)
      return op->emitOpError("'newton_steps' applies to ")
             << opsWhere([](const FunctionInfo &r) { return r.newtonSteps; })
             << " only";
    if (!elem.isF64())
      return op->emitOpError("'newton_steps' applies to f64 operands only: "
                             "other SFU forms are not refined");
  }
  if (fnOp.getRangeReduction() && !info.rangeReduction)
    return op->emitOpError("'range_reduction' applies to ")
           << opsWhere([](const FunctionInfo &r) { return r.rangeReduction; })
           << " only";
  if (fnOp.getDemote()) {
    if (info.f64 == SfuSupport::Native)
      return op->emitOpError("'demote' applies to ")
             << opsWhere([](const FunctionInfo &r) {
                  return r.f64 == SfuSupport::ViaF32;
                })
             << " only: f64 " << fn << " has a native SFU form";
    if (!elem.isF64())
      return op->emitOpError(
          "'demote' applies to f64 operands only: other types have an SFU "
          "form without it");
  }
  if (fnOp.getRangeReduction() && elem.isF64() && !fnOp.getDemote())
    return op->emitOpError("'range_reduction' on f64 needs 'demote': f64 ")
           << fn << " has no SFU form to reduce for";
  std::string reason;
  // (The options above apply to no type and function with form(correct).)
  if (fnOp.getForm() == Form::correct &&
      !hasCorrectForm(fnOp.getFunction(), elem, &reason))
    return op->emitOpError("pinned to form(correct) but ") << reason;
  if (fnOp.getForm() == Form::sfu &&
      sfuSupport(fnOp, /*sm=*/0, &reason) == SfuSupport::None)
    return op->emitOpError("pinned to form(sfu) but ") << reason;
  return success();
}
