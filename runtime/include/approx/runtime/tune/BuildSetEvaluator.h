//===- BuildSetEvaluator.h - One kernel across the builds of a cache -*- C++ -*-===//
//
// Build knobs (a memory object's storage type: docs/configurations.md) are
// other builds of one source, so a kernel evaluator over one loaded module
// cannot run their values. BuildSetEvaluator is the harness over all of
// them: its space is the base build's manifest (build knobs included), and
// evaluate(c) runs `c` on the build that holds c's build-knob values (the
// base one, or the configuration cache's, loaded on first use):
//   - the arguments are the base build's, typed as it declares them; a
//     build whose kernel takes another element type for a buffer (f32 for
//     an f64 object) gets the same values converted (rounded to nearest
//     even, once), and its outputs are read back as doubles;
//   - errors are measured against the base build's reference outputs, so
//     every build is compared with the same precise result;
//   - a configuration whose build the cache does not hold is NotFound,
//     naming the approx-build command that makes it (the joint tuner counts
//     it as unbuilt and goes on); a build that is there but does not load
//     is never NotFound (InvalidImage), so it cannot pass for unbuilt.
// Times are kernel times (the narrower loads and stores); the transfers a
// whole program saves are precision's own ProgramEvaluator's business.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_TUNE_BUILDSETEVALUATOR_H
#define APPROX_RUNTIME_TUNE_BUILDSETEVALUATOR_H

#include "approx/runtime/tune/KernelEvaluator.h"

#include <map>
#include <memory>

namespace approx::rt {

class BuildSetEvaluator : public ConfigEvaluator {
public:
  /// `base`: the build the arguments are typed for (its knobs' defaults are
  /// the reference unless `opts.reference` says otherwise); `cacheDir`: the
  /// approx-build cache holding the other builds; `load`: how they load
  /// (each from its own manifest's image: `imagePath` is ignored).
  static Expected<std::unique_ptr<BuildSetEvaluator>>
  create(Module &base, std::vector<ArgSpec> args, EvaluatorOptions opts,
         std::string cacheDir, LoadOptions load = {});

  const Manifest &space() const override { return base_.manifest(); }
  Expected<Evaluation> evaluate(const Config &c,
                                bool withOutputs = true) override;
  Expected<Evaluation> remeasure(const Config &c) override;
  /// Builds loaded so far (the base one included).
  size_t buildsLoaded() const { return builds_.size(); }
  /// Kernel launches made so far, over every build.
  uint64_t launches() const;

private:
  struct Build {
    std::unique_ptr<Module> module; ///< null for the base build
    std::unique_ptr<KernelEvaluator> eval;
  };
  BuildSetEvaluator(Module &base) : base_(base) {}
  /// The build holding c's build-knob values, loaded on first use.
  Expected<Build *> buildFor(const Config &c);
  Expected<Evaluation> measure(const Config &c, bool withOutputs,
                               bool fresh);

  Module &base_;
  std::vector<ArgSpec> args_;
  EvaluatorOptions opts_;
  ConfigCache cache_{""};
  LoadOptions load_;
  std::vector<double> reference_; ///< the base build's reference outputs
  std::map<std::string, Build> builds_; ///< by buildConfigText
  std::map<std::string, double> errors_; ///< by configText
};

} // namespace approx::rt

#endif // APPROX_RUNTIME_TUNE_BUILDSETEVALUATOR_H
