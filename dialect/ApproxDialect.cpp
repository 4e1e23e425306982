//===- ApproxDialect.cpp - the approx dialect: registration ---------------===//
//
// Registers every op family and the inliner interface. The families' verifiers
// live beside their ODS: CoreOps.cpp and SfuOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/ApproxDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::approx;

#include "approx/Dialect/ApproxDialect.cpp.inc"
#include "approx/Dialect/ApproxEnums.cpp.inc"

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
  addInterfaces<ApproxInlinerInterface>();
}
