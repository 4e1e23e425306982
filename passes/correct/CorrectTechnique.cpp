//===- CorrectTechnique.cpp - Correct rounding as a technique -------------===//
//
// form(correct) ops come from approx-from-math (`correct=`, the SFU
// technique's raise step); this technique lowers them: the hard-case tables
// declared in the module first, then the f64 evaluation and rounding test
// (docs/hrcs.md, "The correctly rounded rung").
//
//===----------------------------------------------------------------------===//
#include "approx/Passes/Patterns.h"
#include "approx/Passes/Technique.h"

using namespace mlir;
using namespace mlir::approx;

void mlir::approx::registerCorrectTechnique() {
  Technique t;
  t.name = "correct";
  // NAME.KEY=V spells approx-to-ptx's OPTION=V (docs/pipeline.md).
  t.options = {
      {"functions", "correct"},
  };
  t.order = 50;
  t.populateLowering = [](RewritePatternSet &patterns, const LoweringTarget &) {
    populateCorrectToNVVMPatterns(patterns);
  };
  t.prepareLowering = declareCorrectTables;
  registerTechnique(std::move(t));
}
