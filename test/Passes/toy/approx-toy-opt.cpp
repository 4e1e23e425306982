//===- approx-toy-opt.cpp - approx-opt with a toy technique ---------------===//
//
// The proof that a technique plugs in without an edit to passes/: this tool
// is approx-opt plus one registerTechnique() call. The toy technique has
// one phase step (Transform: a pass marking each kernel `toy.mark = LEVEL`,
// LEVEL from `technique=toy.level=N`) and one populate call (Lower: a
// pattern that takes the mark off again, so that nothing toy reaches NVVM).
// docs/adding-a-technique.md walks through it.
//
//===----------------------------------------------------------------------===//
#include "approx/InitApprox.h"
#include "approx/Passes/Technique.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::approx;

namespace {

/// The toy's one pass: each kernel gets `toy.mark = level`, and a remark.
struct ToyMark : PassWrapper<ToyMark, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ToyMark)
  explicit ToyMark(int64_t level) : level(level) {}
  StringRef getArgument() const override { return "toy-mark"; }
  void runOnOperation() override {
    getOperation().walk([&](gpu::GPUFuncOp f) {
      if (!f.isKernel())
        return;
      f->setAttr("toy.mark",
                 IntegerAttr::get(IntegerType::get(&getContext(), 64), level));
      f.emitRemark("toy: marked @") << f.getName() << " at level " << level;
    });
  }
  int64_t level;
};

/// The toy's lowering: the mark goes before NVVM.
struct ToyUnmark : OpRewritePattern<gpu::GPUFuncOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(gpu::GPUFuncOp f,
                                PatternRewriter &rewriter) const override {
    if (!f->hasAttr("toy.mark"))
      return failure();
    rewriter.modifyOpInPlace(f, [&] { f->removeAttr("toy.mark"); });
    return success();
  }
};

LogicalResult addToySteps(OpPassManager &pm, Phase phase,
                          const ApproxToPTXOptions &,
                          const llvm::StringMap<std::string> &own,
                          std::string &error) {
  for (const auto &entry : own)
    if (entry.getKey() != "level") {
      error = "technique toy has no option '" + entry.getKey().str() +
              "' (it has: level)";
      return failure();
    }
  auto it = own.find("level");
  if (phase != Phase::Transform || it == own.end())
    return success(); // off unless asked
  char *end = nullptr;
  long long level = std::strtoll(it->second.c_str(), &end, 10);
  if (it->second.empty() || *end) {
    error = "technique toy: level='" + it->second + "' is not an integer";
    return failure();
  }
  pm.addNestedPass<gpu::GPUModuleOp>(std::make_unique<ToyMark>(level));
  return success();
}

} // namespace

int main(int argc, char **argv) {
  // The whole of plugging in a technique: its steps and its patterns.
  Technique toy;
  toy.name = "toy";
  toy.order = 35; // after perforation, before precision
  toy.addSteps = addToySteps;
  toy.populateLowering = [](RewritePatternSet &patterns,
                            const LoweringTarget &) {
    patterns.add<ToyUnmark>(patterns.getContext());
  };
  registerTechnique(toy);

  DialectRegistry registry;
  registerApproxCompilerDependencies(registry);
  registerApproxPassesAndPipelines();
  return asMainReturnCode(
      MlirOptMain(argc, argv, "approx-opt with a toy technique", registry));
}
