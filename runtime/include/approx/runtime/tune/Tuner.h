//===- Tuner.h - Searching λ under a QoS: SMP, HEU, OMG ----------*- C++ -*-===//
//
// The paper's §5.4 search for   max λ  s.t.  E(λ) <= QoS   (T falls with λ):
//   SMP  walk down from λmax until E(λ) <= QoS;
//   HEU  linear approach: keep a satisfied lower point and a violating
//        upper point, starting from (0, 0) and λmax; each step measures the
//        last grid λ (TuneOptions::lambdaStep) before the root of a line
//        (through the two most recent points by default, or the bracket
//        ends as in the paper), until E is within a tolerance below the
//        QoS, the line predicts the next grid λ misses it, the bracket's
//        measured times are within 1% (nothing left to gain), or the
//        bracket closes. The
//        answer is the lower point, which only ever moves to a measured
//        point meeting the QoS: E(λ*) <= QoS holds on the tuning input by
//        construction, whatever the curve's shape (no safety walk needed);
//   OMG  exhaustive over [0, λmax], minimum T among points meeting the QoS.
// Every method first measures λ=0 (the precise reference, T(0)); `runs`
// counts distinct λ evaluated (each one a measured kernel execution),
// including that reference. Tuners see the GPU only through `Evaluator`, so
// they are unit tested over recorded or synthetic curves. An evaluation
// error ends the search; a sticky device fault (isStickyFault) also makes
// the evaluator unhealthy, and tune() then refuses to start.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_TUNER_H
#define APPROX_RUNTIME_TUNER_H

#include "approx/runtime/core/Status.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace approx::rt {

/// One measured point of the trade-off curve.
struct TunePoint {
  int64_t lambda = 0; ///< the knob's value.
  double timeMs = 0; ///< T(λ), median kernel time.
  double error = 0;  ///< E(λ) against the λ=0 output.
  /// The 95% bootstrap interval of T(λ)'s median; NaN where the evaluator
  /// has none (recorded curves without intervals).
  double timeLoMs = NAN, timeHiMs = NAN;
};

/// Measures T(λ) and E(λ). Implemented over a kernel (KernelEvaluator) or
/// over recorded curves (CurveEvaluator).
class Evaluator {
public:
  virtual ~Evaluator() = default; ///< Evaluators are used by reference.
  /// Measures T(λ) and E(λ).
  virtual Expected<TunePoint> evaluate(int64_t lambda) = 0;
  /// Ok while the evaluator can still measure; otherwise why it cannot
  /// (a sticky device fault): tune() then returns it without evaluating.
  virtual Status health() const { return Status::ok(); }
  /// The largest λ worth searching (occupancy bound, knob max).
  virtual int64_t lambdaMax() const = 0;
};

/// Replays recorded curves: time[λ], error[λ] for λ = 0..size-1.
class CurveEvaluator : public Evaluator {
public:
  /// `lambdaMax` -1: the curves' last λ.
  CurveEvaluator(std::vector<double> timeMs, std::vector<double> error,
                 int64_t lambdaMax = -1);
  /// The recorded point; OutOfRange past the curves.
  Expected<TunePoint> evaluate(int64_t lambda) override;
  /// The bound given, or the curves' last λ.
  int64_t lambdaMax() const override { return lambdaMax_; }
  /// Total evaluate() calls (with repeats), for tests.
  int calls() const { return calls_; }

private:
  std::vector<double> time_, error_;
  int64_t lambdaMax_;
  int calls_ = 0;
};

/// A QoS: an absolute bound on E, or the paper's QoS_ratio (§7): a fraction
/// r of the pure-SFU error, bound = r * E(λmax).
struct QoS {
  /// Absolute: E <= value. Ratio: E <= value * E(λmax).
  enum class Kind { Absolute, Ratio };
  Kind kind = Kind::Ratio;
  double value = 0.8; ///< the bound or the ratio

  /// E <= bound.
  static QoS absolute(double bound) { return {Kind::Absolute, bound}; }
  /// E <= r * E(λmax).
  static QoS ratio(double r) { return {Kind::Ratio, r}; }
  /// The bound on E given the pure-SFU error E(λmax).
  double bound(double sfuError) const {
    return kind == Kind::Absolute ? value : value * sfuError;
  }
  /// InvalidArgument unless value is finite and >= 0.
  Status validate() const;
  /// "E <= 1e-05", "E <= 0.8 * E(lambda_max) (QoS_ratio 0.8)".
  std::string describe() const;
};

/// The searches of the file comment.
enum class TuneMethod { Smp, Heu, Omg };
/// "SMP", "HEU", "OMG".
const char *tuneMethodName(TuneMethod m);
/// "smp", "heu", "omg" (any case).
Expected<TuneMethod> parseTuneMethod(const std::string &name);

struct TuneOptions;
/// `o` with HEU as the paper states it (§5.4): the line through the
/// bracket's ends (regula falsi), a step at a time until E(λ) equals the
/// QoS (within heuTolerance) or the bracket closes; without this
/// implementation's three shortcuts (secant aim, predicted stop, the 1%
/// time tolerance that stops an app with nothing to gain after two runs).
/// The λ grid stays: it is a property of the GPU, not of the search.
TuneOptions paperHeuOptions(TuneOptions o);

/// How a search runs.
struct TuneOptions {
  QoS qos; ///< the quality bound λ* must meet
  /// Search bound; -1 takes the evaluator's lambdaMax().
  int64_t lambdaMax = -1;
  /// HEU: give up the linear phase after this many steps (the satisfied
  /// lower point found so far is the answer).
  int heuMaxSteps = 32;
  /// HEU: a measured point with (1 - tol) * QoS <= E <= QoS counts as
  /// "E = QoS" (the paper's stop rule) and ends the search. 0: stop only on
  /// equality or when the bracket's ends are adjacent (then the answer is
  /// exact for monotone E).
  double heuTolerance = 0.02;
  /// HEU: aim each step with the line through the two most recent points
  /// (secant) instead of the paper's line through the bracket ends (regula
  /// falsi, false). Measured E(λ) curves are concave on sm_90 (see
  /// docs/benchmarks.md), where regula falsi approaches from above one step
  /// at a time; the secant takes fewer runs. Same guarantee either way.
  bool heuSecant = true;
  /// HEU: also stop at a satisfied point when the line from it to the
  /// violating end predicts the next grid point misses the QoS (saves the
  /// confirming run; exact for linear E, safe for concave E).
  bool heuPredictStop = true;
  /// HEU: stop when the satisfied end's time is within this fraction of the
  /// violating end's: no λ in between can be faster by more (an app with
  /// no SFU gain stops at λ = 0 after two runs). 0: off.
  double heuTimeTolerance = 0.01;
  /// SMP and HEU visit only 0, step, 2·step, ... and λmax: T(λ) changes
  /// only there (sfu/SlotGrid.h measures it; 4 on sm_90), so a λ between
  /// two steps costs accuracy for no time. OMG still visits every λ (it is
  /// the reference the others are judged by). 1: every λ.
  int lambdaStep = 1;
  /// Called after each new evaluation (progress display).
  std::function<void(TuneMethod, const TunePoint &, int run)> onPoint;
};

/// What a search found and what it cost.
struct TuneResult {
  TuneMethod method = TuneMethod::Heu; ///< the search run
  int64_t lambda = 0;  ///< λ*.
  double timeMs = 0;   ///< T(λ*).
  double error = 0;    ///< E(λ*).
  double qosBound = 0; ///< the absolute bound E was held to.
  double sfuError = 0; ///< E(λmax).
  double baseTimeMs = 0; ///< T(0).
  double sfuTimeMs = 0;  ///< T(λmax).
  int64_t lambdaMax = 0; ///< the bound searched
  /// E(λ*) <= qosBound; false only when even λ = 0 misses the bound (a
  /// metric or kernel for which E(0) > 0), and λ* is then 0.
  bool satisfied = false;
  int runs = 0;           ///< distinct λ evaluated, λ=0 included.
  std::vector<TunePoint> trace; ///< in visiting order.
  /// OMG only: the largest λ meeting the QoS (may differ from the
  /// fastest λ when T is flat or noisy).
  int64_t maxFeasibleLambda = -1;
};

/// The λ SMP and HEU may visit under `step` (sorted, 0 and lambdaMax
/// included).
std::vector<int64_t> searchGrid(int64_t lambdaMax, int step);

/// Runs one method.
Expected<TuneResult> tune(Evaluator &eval, TuneMethod method,
                          const TuneOptions &opts);

} // namespace approx::rt

#endif // APPROX_RUNTIME_TUNER_H
