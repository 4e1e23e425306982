//===- ProgramEvaluator.h - A whole program behind evaluate(Config) -*- C++ -*-===//
//
// Precision scaling's trials run a whole program (approx-scale: a PolyBench
// app through its Runner, or an MLIR host program through the mgpu hooks) in
// a Configuration: per memory object of the program's profile, a storage
// type and the conversion methods of its host-to-device and device-to-host
// transfers. ProgramEvaluator declares that space as host knobs
// (KnobKind::Host) and measures its points through the one harness
// interface, evaluate(Config) (approx/runtime/tune/ConfigEvaluator.h):
//   - knob oI: the storage type of profiled object I (a storage domain: its
//     declared type first, then each narrower type considered; the domain's
//     objectName is the object's name);
//   - knobs oI_h2d and oI_d2h: the conversion method of each direction
//     (categorical, value k is methodOf(knob, k), typed; ids m0, m1, ...).
//     Value 0 is the unchanged program's (a plain copy, or none where the
//     direction has no transfer); configOf adds each method a configuration
//     brings at the end of its knob's values, so a Config made earlier stays
//     valid as the space grows;
//   - evaluate runs the program (the caller's ScaledProgram: its warm-ups
//     and median, medianOf) in the configuration and compares the outputs
//     with the reference run's: time = the run's wall time, error = the mean
//     relative error (1 - quality), +inf for a run that failed or
//     overflowed; trial() gives the precision-specific result (quality,
//     overflow, failure, kernel and per-object transfer times) of the same
//     evaluation, which the decision maker's searches read.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_PROGRAMEVALUATOR_H
#define APPROX_RUNTIME_PRECISION_PROGRAMEVALUATOR_H

#include "approx/runtime/precision/Decision.h"
#include "approx/runtime/precision/Session.h"
#include "approx/runtime/tune/ConfigEvaluator.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace approx::rt::precision {

/// A run that failed in a configuration: a failed trial (the program exited
/// non-zero there; the search goes on), or nullopt to end the search with
/// the run's Status.
using FailedRun = std::function<std::optional<TrialResult>(
    const Configuration &, const Status &)>;

/// The files a run under the mgpu precision hooks names
/// (runtime/mgpu/PrecisionHooks.h); an empty one is left out.
struct HookFiles {
  std::string manifest;   ///< APPROX_PRECISION_MANIFEST
  std::string profileOut; ///< APPROX_PRECISION_OUT (profile)
  std::string config;     ///< APPROX_PRECISION_CONFIG (scale)
  std::string expect;     ///< APPROX_PRECISION_EXPECT (scale)
  std::string report;     ///< APPROX_PRECISION_REPORT (scale)
  std::string outputs;    ///< APPROX_PRECISION_OUTPUTS
};
/// The environment of such a run: APPROX_PRECISION=`mode` ("profile" or
/// "scale") and the files: what approx-scale and approx tune --storage
/// give a program.
std::vector<std::pair<std::string, std::string>>
hookEnvironment(const std::string &mode, const HookFiles &files);

/// Object `o`'s storage knob, named `name`: a host knob whose storage domain
/// holds its declared type first, then each narrower float type of `types`
/// (in that order; the domain's objectName is the object's name).
KnobInfo storageKnobOf(const ObjectProfile &o, const std::string &name,
                       const std::vector<ScalarType> &types);

/// The joint tuner's view of a whole program's storage (docs/tuning.md,
/// "Whole programs"): the configuration that stores each object of `app` as
/// the storage knob of `space` naming it (domain.objectName) says in `c`,
/// objects without a knob or at their declared type unchanged, and every
/// direction a scaled object is transferred in converted by `convert` (a
/// conversion method, not a plain copy). changesNothing() when no object is
/// scaled.
Configuration storageConfiguration(const AppProfile &app, const Manifest &space,
                                   const Config &c, const Method &convert);

class ProgramEvaluator : public ConfigEvaluator {
public:
  /// The space of `profile`'s objects, storage types among `types` (a
  /// subsequence of f64, f32, f16, bf16); `program` runs the program once in
  /// a configuration, as measured; `reference` is the f64 run's outputs.
  ProgramEvaluator(AppProfile profile, ScaledProgram program,
                   std::vector<std::vector<double>> reference,
                   FailedRun failed = {},
                   std::vector<ScalarType> types = {ScalarType::F64,
                                                    ScalarType::F32,
                                                    ScalarType::F16,
                                                    ScalarType::BF16});

  const Manifest &space() const override { return space_; }
  Expected<Evaluation> evaluate(const Config &c,
                                bool withOutputs = true) override;

  /// `c` as a point of the space: one entry per profiled object (by name),
  /// its storage among its knob's values; a method not yet a value of its
  /// knob is added. A one-line error names an object `c` lacks or a type
  /// outside the space.
  Expected<Config> configOf(const Configuration &c);
  /// The precision Configuration of `c` (kernels' choices derived from the
  /// objects', configurationFor); `c` must lie in the space.
  Expected<Configuration> configurationOf(const Config &c) const;
  /// evaluate(configOf(c)), without outputs, and its TrialResult: the
  /// decision maker's Trial.
  Expected<TrialResult> trial(const Configuration &c);
  /// The method value `index` of method knob `knob`.
  const Method &methodOf(const std::string &knob, int64_t index) const;

private:
  KnobInfo &knob(const std::string &name);
  Expected<int64_t> methodIndex(const std::string &knobName, const Method &m);

  AppProfile profile_;
  ScaledProgram program_;
  std::vector<std::vector<double>> reference_;
  FailedRun failed_;
  Manifest space_;
  std::map<std::string, std::vector<Method>> methods_; ///< by method knob
  std::map<std::string, TrialResult> results_;         ///< by configText
  /// The provenance the configurations run get (the configuration file
  /// requires it): trial() passes its configuration's on; a plain evaluate
  /// is toq 1, strategy "evaluate".
  double toq_ = 1;
  std::string strategy_ = "evaluate";
};

} // namespace approx::rt::precision

#endif // APPROX_RUNTIME_PRECISION_PROGRAMEVALUATOR_H
