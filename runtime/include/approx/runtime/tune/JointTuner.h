//===- JointTuner.h - One search over every knob of a space ------*- C++ -*-===//
//
// The joint tuner: the fastest configuration of a whole knob space (λ of the
// SFU and LNS splits, perforation schemes and block shapes, LNS impls,
// storage types: every knob kind the manifest declares) whose error meets
// one bound, under a trial budget, through the one harness interface
// (ConfigEvaluator). docs/tuning.md gives the reasons; in short:
//
//   1. reference: the precise configuration (preciseConfig), T0;
//   2. screening: each knob alone, the others precise: an ordinal knob on a
//      grid of its range (its max included; the caller's grid, such as the
//      SFU's λ step, when given), a categorical or storage knob on every
//      value. This is every single-technique tuner's search, and its best
//      feasible point is the best single-knob pick;
//   3. the model: every combination of the knobs' single-knob front values
//      is predicted from the screening, time as T0 times each knob's
//      speedup and error as E0 plus each knob's added error; those
//      predicted to meet the bound are measured, fastest predicted first,
//      while one promises a gain, until a few in a row miss (the model is
//      wrong there) or the budget is spent;
//   4. coordinate descent on the single-knob fronts: from the best point so
//      far, each knob in turn (largest single gain first) tries its
//      feasible front values, fastest first, with the other knobs as they
//      are, and takes the first that is feasible and faster by more than the
//      time tolerance; rounds repeat until one changes nothing or the budget
//      is spent. A value infeasible alone is not tried in combination
//      (errors of independent knobs do not cancel in general), which keeps
//      the rounds to the fronts; a value no faster alone (within the time
//      tolerance) is, since alone it may meet another bottleneck (narrower
//      storage in a compute-bound kernel) that another knob removes;
//   5. re-timing: the joint pick, the best single pick and the reference are
//      measured again (fresh, not cached), and the pick is whichever of the
//      two picks is faster re-timed, so noise in one screening measurement
//      cannot make the joint pick slower than the single pick it started
//      from.
//
// Why not the product of single searches: each technique's best value
// spends the whole error budget alone, so their product usually violates
// it. The model spends the budget where it buys the most time when the
// knobs are close to independent (the common case: different techniques
// touch different ops and buffers); the descent repairs and improves where
// they interact, which the model cannot see. Why not successive halving:
// every trial here is a full measurement on one input, so there is no
// cheap low-fidelity rung to halve on.
//
// Every trial is recorded (phase, configuration, time, error); the result
// also gives the Pareto front of the feasible trials and a fallback ladder
// (the pick, then ever safer front points, then the reference) that the
// run-time guard (FallbackGuard) walks down. verify() measures the chosen
// configurations on other inputs (other evaluators over the same space).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_TUNE_JOINTTUNER_H
#define APPROX_RUNTIME_TUNE_JOINTTUNER_H

#include "approx/runtime/core/Config.h"
#include "approx/runtime/core/Status.h"
#include "approx/runtime/tune/ConfigEvaluator.h"

#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace approx::rt {

/// One measured configuration.
struct JointTrial {
  /// Where the search measured it.
  enum class Phase { Reference, Screen, Model, Descent, Retime };
  Phase phase = Phase::Screen;
  Config config;
  double timeMs = 0;
  /// The 95% interval of the median time, NaN when the evaluator gives none.
  double timeLoMs = NAN, timeHiMs = NAN;
  double error = 0;
  bool feasible = false; ///< error <= the bound
  /// Screening: the knob varied (others precise); descent: the knob moved.
  std::string knob;
  /// The evaluator's reason when the configuration failed (Evaluation).
  std::string failure;
};
/// "reference", "screen", "model", "descent", "retime".
const char *jointPhaseName(JointTrial::Phase p);

/// How the joint search runs.
struct JointOptions {
  double qosBound = 0; ///< E <= qosBound (absolute, the evaluator's metric)
  /// The knobs searched; empty: every knob of the space with more than one
  /// value. The others stay at the reference's values.
  std::vector<std::string> knobs;
  /// The configuration errors are measured against and every knob not
  /// searched keeps; empty values: preciseConfig(space).
  Config reference;
  /// At most this many distinct configurations are measured, the
  /// reference and re-timings included. A space whose screening alone
  /// needs more (after thinning ordinal grids to 3 points) is refused.
  int budget = 64;
  /// Ordinal knobs: points of the screening grid (0 and max included).
  int ordinalPoints = 9;
  /// Ordinal knobs: the caller's grid for a knob (e.g. the SFU's measured
  /// λ step), sorted values in range; an empty result: the default grid.
  std::function<std::vector<int64_t>(const KnobInfo &)> grid;
  /// The model phase enumerates at most this many combinations (else it
  /// is skipped and the descent alone combines).
  int64_t modelLimit = 1000000;
  /// The model phase stops after this many measured combinations in a row
  /// that miss the bound or bring no gain (the model is wrong there).
  int modelMisses = 4;
  /// A move must be faster by more than this fraction to be taken.
  double timeTolerance = 0.01;
  /// Re-time the picks and the reference at the end.
  bool retime = true;
  /// Progress: called after each measured trial with its 1-based count.
  std::function<void(const JointTrial &, int count)> onTrial;
};

/// What the joint search found.
struct JointResult {
  Config reference;
  double baseTimeMs = 0; ///< T of the reference (re-timed when retime)
  /// 95% intervals of the three medians (the re-timings' when retime).
  std::pair<double, double> baseInterval{NAN, NAN}, singleInterval{NAN, NAN},
      pickInterval{NAN, NAN};
  Config pick;           ///< the chosen configuration
  double pickTimeMs = 0, pickError = 0;
  /// The best single-knob pick (the reference when no knob alone meets the
  /// bound) and its time, re-timed when retime.
  Config singlePick;
  double singleTimeMs = 0, singleError = 0;
  std::string singleKnob; ///< the knob of the single pick ("" if none)
  /// True when the descent's configuration was kept over the single pick.
  bool jointWon = false;
  /// True when no pick was faster than the reference re-timed (with
  /// intervals: the pick's 95% interval wholly below the reference's): the
  /// pick is the reference (never slower than precise).
  bool noGain = false;
  std::vector<JointTrial> trials; ///< in measuring order
  /// Indices into trials of the Pareto front of the feasible trials
  /// (fastest first; no other feasible trial is both faster and at most as
  /// wrong), re-timings excluded.
  std::vector<size_t> front;
  /// The pick, then front points ever safer (lower error, slower), ending
  /// with the reference: what a guard falls back along.
  std::vector<Config> ladder;
  int measured = 0;         ///< distinct configurations measured
  int excluded = 0; ///< configurations a constraint excluded (not measured)
  /// Configurations the evaluator could not run because their build is not
  /// made (NotFound), in the order asked: what to build for another run.
  std::vector<Config> unbuilt;
  int rounds = 0;           ///< descent rounds run
  bool budgetSpent = false; ///< the descent stopped at the budget
};

/// Runs the search of the file comment over `eval`. Errors: a bound that is
/// not finite or negative, an unknown knob, a reference outside the space,
/// a budget too small for the screening, or the first evaluation error (a
/// fault; a NotFound, a build not made, only skips the configuration and
/// lists it in `unbuilt`).
Expected<JointResult> tuneJoint(ConfigEvaluator &eval,
                                const JointOptions &opts);

/// One configuration measured on other inputs.
struct VerifyRow {
  Config config;
  std::vector<double> errors; ///< per verification evaluator
  int violations = 0;         ///< errors above the bound
  double rate() const {
    return errors.empty() ? 0.0 : double(violations) / double(errors.size());
  }
};

/// Measures each configuration of `configs` on each evaluator of
/// `inputs` (the same space, other inputs, each against its own
/// reference) and counts errors above `bound`. Errors: a configuration
/// outside an evaluator's space, or the first evaluation error.
Expected<std::vector<VerifyRow>>
verifyConfigs(const std::vector<ConfigEvaluator *> &inputs,
              const std::vector<Config> &configs, double bound);

/// The run-time guard, generalised from perforation's: every `period`-th
/// invocation (the first included) also runs the reference and compares
/// (the evaluator's error is exactly that re-computation); on a violation
/// it falls back one rung of the ladder and checks again, until a rung
/// meets the bound or the reference (the last rung) runs.
class FallbackGuard {
public:
  /// `ladder` as JointResult::ladder (non-empty, reference last).
  FallbackGuard(std::vector<Config> ladder, double bound, int period = 1);
  /// One invocation on the evaluator's input: runs the current rung and,
  /// when this invocation is sampled, checks it (falling back as above).
  /// The returned evaluation is the one whose output the program keeps.
  Expected<Evaluation> invoke(ConfigEvaluator &eval);
  /// The rung in use (0: the pick).
  size_t rung() const { return rung_; }
  /// Time spent checking (reference runs and discarded rungs), in ms, and
  /// time spent on kept outputs; their ratio is the guard's cost.
  double checkMs() const { return checkMs_; }
  double keptMs() const { return keptMs_; }
  int fallbacks() const { return fallbacks_; }
  int checks() const { return checks_; }

private:
  std::vector<Config> ladder_;
  double bound_;
  int period_;
  size_t rung_ = 0;
  long invocations_ = 0;
  double checkMs_ = 0, keptMs_ = 0;
  int fallbacks_ = 0, checks_ = 0;
};

} // namespace approx::rt

#endif // APPROX_RUNTIME_TUNE_JOINTTUNER_H
