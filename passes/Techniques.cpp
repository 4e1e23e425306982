//===- Techniques.cpp - The built-in techniques ---------------------------===//
//
// The one list of built-in techniques (each registers itself from its own
// folder). A technique outside the tree calls registerTechnique() instead.
//
//===----------------------------------------------------------------------===//
#include "approx/Passes/Technique.h"

#include <mutex>

void mlir::approx::registerBuiltinTechniques() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerSfuTechnique();
    registerLnsTechnique();
    registerPerforationTechnique();
    registerPrecisionTechnique();
    registerCorrectTechnique();
  });
}
