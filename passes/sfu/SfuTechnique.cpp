//===- SfuTechnique.cpp - The SFU warp split as a technique ---------------===//
//
// Raise: math/arith functions -> tunable approx ops (approx-from-math, also
// form(correct) where `correct=` asks). Version: Algorithm 1, each tunable op
// versioned on warp slot < λ (approx-warp-split). Lower: the SFU and
// precise forms' patterns.
//
//===----------------------------------------------------------------------===//
#include "approx/Passes/Passes.h"
#include "approx/Passes/Patterns.h"
#include "approx/Passes/Technique.h"

using namespace mlir;
using namespace mlir::approx;

static LogicalResult addSfuSteps(OpPassManager &pm, Phase phase,
                                 const ApproxToPTXOptions &o,
                                 const llvm::StringMap<std::string> &own,
                                 std::string &error) {
  if (failed(refuseOwnOptions("sfu", own, error)))
    return failure();
  if (phase == Phase::Raise) {
    ApproxFromMathOptions fromMath;
    fromMath.functions.assign(o.functions.begin(), o.functions.end());
    fromMath.correct.assign(o.correct.begin(), o.correct.end());
    fromMath.kernels.assign(o.kernels.begin(), o.kernels.end());
    fromMath.knob = o.knob;
    fromMath.knobMax = o.knobMax;
    fromMath.f64Demote = o.f64Demote;
    fromMath.rangeReduction = o.rangeReduction;
    fromMath.newtonSteps = o.newtonSteps;
    fromMath.chip = o.chip;
    pm.addPass(createApproxFromMath(fromMath));
  } else if (phase == Phase::Version) {
    ApproxWarpSplitOptions split;
    split.slot = o.slot;
    split.maxVersions = o.maxVersions;
    split.chip = o.chip;
    pm.addNestedPass<gpu::GPUModuleOp>(createApproxWarpSplit(split));
  }
  return success();
}

void mlir::approx::registerSfuTechnique() {
  Technique t;
  t.name = "sfu";
  // NAME.KEY=V spells approx-to-ptx's OPTION=V (docs/pipeline.md).
  t.options = {
      {"functions", "functions"},
      {"knob", "knob"},
      {"knob-max", "knob-max"},
      {"slot", "slot"},
      {"max-versions", "max-versions"},
      {"unroll-versioned", "unroll-versioned"},
      {"unroll-ptxas", "unroll-ptxas"},
      {"hoist-loads", "hoist-loads"},
      {"f64-demote", "f64-demote"},
      {"range-reduction", "range-reduction"},
      {"newton-steps", "newton-steps"},
  };
  t.order = 10;
  t.addSteps = addSfuSteps;
  t.populateLowering = [](RewritePatternSet &patterns,
                          const LoweringTarget &target) {
    populateSfuToNVVMPatterns(patterns, target.sm, target.preciseSqrt);
  };
  registerTechnique(std::move(t));
}
