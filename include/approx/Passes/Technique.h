//===- Technique.h - Techniques as plug-ins of approx-to-ptx ----*- C++ -*-===//
//
// approx-to-ptx is assembled from registered techniques (docs/pipeline.md,
// docs/adding-a-technique.md). A technique gives its passes for the phases
// it takes part in and, for the lowering phase, its ops' NVVM patterns; the
// pipeline runs the phases in order and, within a phase, the techniques in
// their `order`. The built-in five register through
// registerBuiltinTechniques(); another registers itself with
// registerTechnique() before the pipeline is built (a DSL frontend, a test).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_PASSES_TECHNIQUE_H
#define APPROX_PASSES_TECHNIQUE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir::approx {

struct ApproxToPTXOptions;

/// Where a technique's steps run, in this order (docs/pipeline.md).
enum class Phase {
  Raise,     ///< plain IR -> approx ops: outlined kernels, before inlining
  Transform, ///< after inlining: approx ops rewritten, variants made
  Version,   ///< versioning of the kernels on warp slot < knob
  Lower,     ///< approx ops -> NVVM (patterns, in convert-approx-to-nvvm)
};

/// What a technique's lowering patterns may depend on.
struct LoweringTarget {
  unsigned sm = 0;          ///< the chip, e.g. 90
  bool preciseSqrt = false; ///< convert-approx-to-nvvm's precise-sqrt
};

/// One of approx-to-ptx's options under a technique's name: `NAME.KEY=V`
/// spells `OPTION=V` (e.g. `sfu.knob-max=32` is `knob-max=32`).
struct OptionAlias {
  std::string key;    ///< KEY, after `NAME.`
  std::string option; ///< the approx-to-ptx option it spells
};

/// One technique's part of approx-to-ptx.
struct Technique {
  /// Its name, also the prefix of its options (`NAME.KEY=V`).
  std::string name;
  /// approx-to-ptx's options that belong to it, by their grouped names. A
  /// `NAME.KEY=V` whose KEY is not among them reaches addSteps in `own`
  /// (a technique with options of its own, as the toy one).
  std::vector<OptionAlias> options;
  /// Among the techniques of one phase, lower runs first.
  int order = 0;
  /// Adds its passes for `phase`, reading the pipeline's options and its
  /// own (`own`: KEY -> VALUE from `NAME.KEY=V`); nothing when it has no
  /// step there or its options leave it off. A bad option is reported by
  /// returning failure with `error` set (one line).
  LogicalResult (*addSteps)(OpPassManager &pm, Phase phase,
                            const ApproxToPTXOptions &options,
                            const llvm::StringMap<std::string> &own,
                            std::string &error) = nullptr;
  /// The Lower phase: its ops' patterns, and what must exist first (e.g.
  /// tables declared in the module).
  void (*populateLowering)(RewritePatternSet &patterns,
                           const LoweringTarget &target) = nullptr;
  LogicalResult (*prepareLowering)(gpu::GPUModuleOp module) = nullptr;
};

/// For a technique whose options are all approx-to-ptx's own (its
/// `options`): failure, with `error` naming the key and listing its
/// options, when `NAME.KEY=V` gave it a KEY it does not have.
LogicalResult refuseOwnOptions(llvm::StringRef name,
                               const llvm::StringMap<std::string> &own,
                               std::string &error);

/// approx-to-ptx's option text with every grouped spelling `NAME.KEY=V`
/// rewritten: to `OPTION=V` where technique NAME has KEY among its
/// `options`, else to `technique=NAME.KEY=V`. Failure, with `error` (one
/// line), for an unregistered NAME or an option given both ways.
FailureOr<std::string> expandGroupedOptions(llvm::StringRef text,
                                            std::string &error);

/// Registers `t` (a later registration of the same name replaces it).
void registerTechnique(Technique t);

/// The registered techniques, in `order` (then name).
std::vector<Technique> registeredTechniques();

/// The built-in techniques: sfu, lns, perforation, precision, correct.
/// Idempotent; buildApproxToPTXPipeline and convert-approx-to-nvvm call it.
void registerBuiltinTechniques();

/// Each built-in technique's registration, in its own folder.
void registerSfuTechnique();
void registerLnsTechnique();
void registerPerforationTechnique();
void registerPrecisionTechnique();
void registerCorrectTechnique();

} // namespace mlir::approx

#endif // APPROX_PASSES_TECHNIQUE_H
