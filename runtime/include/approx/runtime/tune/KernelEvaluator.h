//===- KernelEvaluator.h - Evaluating configurations of a real kernel -*- C++ -*-===//
//
// The one evaluation harness every tuner calls: binds a kernel of a loaded
// Module to concrete inputs and a launch, and evaluates configurations of
// the module's knob space (approx/runtime/core/Config.h):
//   evaluate(Config) -> {time, error, outputs}.
//   - inputs are uploaded once and kept pristine on the device; before every
//     launch the In/InOut buffers are restored (so in-place kernels see the
//     same data each run) and Out buffers are poisoned with 0xFF bytes (NaN
//     for floats) so unwritten outputs cannot pass for results;
//   - all-zero inputs are refused (they hide indexing bugs and time
//     unrealistically) unless explicitly allowed;
//   - a configuration outside the space, or one that needs another build
//     (a build knob at another value), is a one-line error;
//   - every run-time knob's value travels in the launch (LaunchOptions), so
//     an evaluation leaves the Module's knobs as they were; the launch shape
//     may depend on the configuration (a block-shape knob: launchFor);
//   - the error compares the Out/InOut buffers with the reference
//     configuration's (the module's knobs as set, the tuned one at 0,
//     unless given; taken on first need) under the chosen Metric;
//   - the time is the median of TimingOptions.reps CUDA-event timings after
//     warm-up; the outputs of the last timed run give the error;
//   - the λ tuners (Tuner.h) see one ordinal knob through evaluate(λ): the
//     reference with that knob at λ, searched in [0, λmax]: the knob's max,
//     or the tighter bound a technique supplies for the launch
//     (EvaluatorOptions::bound; the SFU's comes from the occupancy,
//     approx/runtime/sfu/Occupancy.h);
//   - every argument is checked and every buffer sized (overflow, free
//     device memory) before anything is allocated;
//   - after a sticky device fault (isStickyFault) nothing is launched again:
//     every later call returns that fault, and so does health(), which
//     makes tune() refuse to start.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_KERNELEVALUATOR_H
#define APPROX_RUNTIME_KERNELEVALUATOR_H

#include "approx/runtime/core/Config.h"
#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/tune/ConfigEvaluator.h"
#include "approx/runtime/tune/Metrics.h"
#include "approx/runtime/tune/Tuner.h"

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace approx::rt {

/// Appends the elements of `bytes` (of type t, vectors lane by lane) to
/// `out` as doubles.
void appendAsDouble(const std::vector<uint8_t> &bytes, const ValueType &t,
                    std::vector<double> &out);

/// How one kernel argument is supplied.
struct ArgSpec {
  /// In: read by the kernel, restored before every launch. Out: written,
  /// poisoned before every launch, compared. InOut: both. Scalar: a value.
  enum class Role { In, Out, InOut, Scalar };
  Role role = Role::Scalar;
  std::vector<int64_t> shape; ///< buffers: sizes in elements.
  ValueType elem = ScalarType::F32; ///< buffers: element type.
  std::vector<uint8_t> data; ///< In/InOut: host bytes (product(shape) elems).
  Arg scalar = Arg::integer(0); ///< Scalar: the value.

  /// A buffer the kernel reads (or, with `inout`, reads and writes).
  static ArgSpec input(ValueType elem, std::vector<int64_t> shape,
                       std::vector<uint8_t> bytes, bool inout = false);
  /// A buffer the kernel writes.
  static ArgSpec output(ValueType elem, std::vector<int64_t> shape);
  /// A scalar (or pointer) value.
  static ArgSpec value(Arg a);
  /// Typed helper for inputs.
  template <typename T>
  static ArgSpec inputOf(ValueType elem, std::vector<int64_t> shape,
                         const std::vector<T> &v, bool inout = false) {
    std::vector<uint8_t> b(v.size() * sizeof(T));
    if (!b.empty())
      std::memcpy(b.data(), v.data(), b.size());
    return input(elem, std::move(shape), std::move(b), inout);
  }
  /// True for In, Out and InOut.
  bool isBuffer() const { return role != Role::Scalar; }
  /// True for the buffers E(λ) compares (Out, InOut).
  bool compared() const { return role == Role::Out || role == Role::InOut; }
};

/// The largest value of `knob` worth measuring for one launch of `kernel`
/// (values past it change nothing), or an error. A technique knows its
/// knobs' bounds; tune does not: e.g. the SFU's lambdaBoundFn()
/// (approx/runtime/sfu/Occupancy.h).
using KnobBound = std::function<Expected<int64_t>(
    Module &module, const std::string &kernel, const LaunchConfig &launch,
    const std::string &knob)>;

/// The launch shape of a configuration (e.g. from its block-shape knob's
/// payload), or an error naming why there is none.
using LaunchFor = std::function<Expected<LaunchConfig>(const Config &)>;

/// What KernelEvaluator runs and how it measures.
struct EvaluatorOptions {
  std::string kernel; ///< a kernel or a dispatched logical name
  /// The knob tuned; empty: the kernel's first knob with a warp slot, else
  /// its first knob. Its range must contain 0 (the precise reference).
  std::string knob;
  LaunchConfig launch;                     ///< grid, block, shared memory
  /// The launch of each configuration; empty: `launch` for all.
  LaunchFor launchFor;
  /// The configuration errors are measured against; empty: the knobs as
  /// the module holds them when create() runs (defaults, or values set
  /// with Module::setKnob), with the tuned knob at 0. preciseConfig (every
  /// knob at its exact value) is one to pass here.
  std::optional<Config> reference;
  Metric metric = Metric::meanRelative();  ///< E(λ)
  TimingOptions timing;                    ///< T(λ): warm-up and repetitions
  /// More timed launches past timing.reps until the median's interval is
  /// tight (Metrics.h); off by default.
  Tightness tightness;
  bool allowZeroInputs = false;            ///< permit all-zero inputs
  /// Fail when the λ=0 run leaves poisoned output elements (unwritten).
  bool requireAllWritten = true;
  /// The knob's bound for this launch, asked once by create() (after the
  /// knob is chosen) and capped by the knob's max; empty: the knob's max.
  KnobBound bound;
  /// >= 0: overrides the bound (still capped by the knob's max).
  int64_t lambdaMaxOverride = -1;
  /// Cache times and errors so a configuration is timed once across several
  /// tuners (outputs asked for are recomputed by one launch).
  bool cache = true;
};

/// An Evaluator over a kernel of a loaded Module (see the file comment).
/// Its Evaluation: the median kernel time, the metric against the
/// reference's outputs, and the compared buffers (Out, InOut, in argument
/// order).
class KernelEvaluator : public Evaluator, public ConfigEvaluator {
public:
  /// Checks `args` against the kernel, sizes and allocates the buffers,
  /// uploads inputs and computes λmax (EvaluatorOptions::bound).
  static Expected<std::unique_ptr<KernelEvaluator>>
  create(Module &module, std::vector<ArgSpec> args, EvaluatorOptions opts);

  /// The harness: times configuration `c` (median of the timed launches),
  /// its error against the reference and, with `withOutputs`, its outputs;
  /// cached per configuration when options().cache.
  Expected<Evaluation> evaluate(const Config &c,
                                bool withOutputs = true) override;
  /// evaluate(c) measured again, bypassing (and then refreshing) the cache.
  Expected<Evaluation> remeasure(const Config &c) override;
  /// The module's manifest.
  const Manifest &space() const override { return module_.manifest(); }
  /// Launches once in configuration `c` (restore + poison first) and
  /// returns the compared outputs flattened as doubles.
  Expected<std::vector<double>> run(const Config &c);
  /// The reference configuration (the options' or the module's knobs).
  const Config &referenceConfig() const { return reference_; }
  /// The reference with the tuned knob at `lambda`.
  Config configAt(int64_t lambda) const;

  /// T(λ) and E(λ): evaluate(configAt(λ)) without outputs.
  Expected<TunePoint> evaluate(int64_t lambda) override;
  /// The λ bound: the options' bound, the knob's max or the override.
  int64_t lambdaMax() const override { return lambdaMax_; }
  /// Ok, or the sticky device fault that stopped this evaluator.
  Status health() const override { return fault_.isOk() ? fault_ : stopped(); }

  /// run(configAt(λ)).
  Expected<std::vector<double>> runOnce(int64_t lambda);
  /// The reference configuration's outputs (computed on first use).
  Expected<std::vector<double>> reference();
  /// All built-in metrics of the outputs at λ against the reference.
  Expected<ErrorStats> statsAt(int64_t lambda);

  /// The knob tuned (chosen by create() when the options named none).
  const std::string &knob() const { return opts_.knob; }
  /// Kernel launches made so far.
  uint64_t launches() const { return launches_; }
  /// The options, with the knob filled in.
  const EvaluatorOptions &options() const { return opts_; }

private:
  KernelEvaluator(Module &m) : module_(m) {}
  Status prepare();           // restore inputs, poison outputs
  Expected<std::vector<double>> downloadOutputs();
  static Expected<std::unique_ptr<KernelEvaluator>>
  createImpl(Module &module, std::vector<ArgSpec> args, EvaluatorOptions opts);
  /// The launch options and shape of `c`, after checking it lies in the
  /// space and runs on this build.
  Status bind(const Config &c, LaunchOptions &lo, LaunchConfig &cfg) const;
  Expected<std::vector<double>> runImpl(const Config &c);
  Expected<std::vector<double>> referenceImpl();
  Expected<Evaluation> evaluateImpl(const Config &c, bool withOutputs);
  /// Remembers `s` when it is a sticky fault.
  void noteFault(const Status &s);
  /// The error every call returns once a fault was seen.
  Status stopped() const;

  Module &module_;
  EvaluatorOptions opts_;
  std::vector<ArgSpec> specs_;
  std::vector<DeviceBuffer> work_;     // per arg (empty for scalars)
  std::vector<DeviceBuffer> pristine_; // per arg (In/InOut only)
  std::vector<Arg> args_;
  int64_t lambdaMax_ = 0;
  bool haveRef_ = false;
  std::vector<double> ref_;
  Config reference_;
  std::map<std::string, Evaluation> cache_; ///< by configText, no outputs
  uint64_t launches_ = 0;
  Status fault_; ///< the first sticky fault seen (Ok while none)
};

} // namespace approx::rt

#endif // APPROX_RUNTIME_KERNELEVALUATOR_H
