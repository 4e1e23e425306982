//===- KernelEvaluator.h - T(λ) and E(λ) of a real kernel --------*- C++ -*-===//
//
// Binds a kernel of a loaded Module to concrete inputs and a launch, and
// measures points of its trade-off curve for the tuners:
//   - inputs are uploaded once and kept pristine on the device; before every
//     launch the In/InOut buffers are restored (so in-place kernels see the
//     same data each run) and Out buffers are poisoned with 0xFF bytes (NaN
//     for floats) so unwritten outputs cannot pass for results;
//   - all-zero inputs are refused (they hide indexing bugs and time
//     unrealistically) unless explicitly allowed;
//   - E(λ) compares the Out/InOut buffers with the λ=0 run's (the reference,
//     taken on first need) under the chosen Metric;
//   - T(λ) is the median of TimingOptions.reps CUDA-event timings after
//     warm-up; the outputs of the last timed run give E(λ);
//   - λ is searched in [0, λmax]: the knob's max, or the tighter bound a
//     technique supplies for the launch (EvaluatorOptions::bound; the SFU's
//     comes from the occupancy, approx/runtime/sfu/Occupancy.h);
//   - every argument is checked and every buffer sized (overflow, free
//     device memory) before anything is allocated;
//   - after a sticky device fault (isStickyFault) nothing is launched again:
//     every later call returns that fault, and so does health(), which
//     makes tune() refuse to start.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_KERNELEVALUATOR_H
#define APPROX_RUNTIME_KERNELEVALUATOR_H

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/tune/Metrics.h"
#include "approx/runtime/tune/Tuner.h"

#include <cstring>
#include <functional>
#include <map>
#include <memory>

namespace approx::rt {

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

/// What KernelEvaluator runs and how it measures.
struct EvaluatorOptions {
  std::string kernel; ///< a kernel or a dispatched logical name
  /// The knob tuned; empty: the kernel's first knob with a warp slot, else
  /// its first knob. Its range must contain 0 (the precise reference).
  std::string knob;
  LaunchConfig launch;                     ///< grid, block, shared memory
  Metric metric = Metric::meanRelative();  ///< E(λ)
  TimingOptions timing;                    ///< T(λ): warm-up and repetitions
  bool allowZeroInputs = false;            ///< permit all-zero inputs
  /// Fail when the λ=0 run leaves poisoned output elements (unwritten).
  bool requireAllWritten = true;
  /// The knob's bound for this launch, asked once by create() (after the
  /// knob is chosen) and capped by the knob's max; empty: the knob's max.
  KnobBound bound;
  /// >= 0: overrides the bound (still capped by the knob's max).
  int64_t lambdaMaxOverride = -1;
  /// Cache points so a λ is measured once across several tuners.
  bool cache = true;
};

/// An Evaluator over a kernel of a loaded Module (see the file comment).
class KernelEvaluator : public Evaluator {
public:
  /// Checks `args` against the kernel, sizes and allocates the buffers,
  /// uploads inputs and computes λmax (EvaluatorOptions::bound).
  static Expected<std::unique_ptr<KernelEvaluator>>
  create(Module &module, std::vector<ArgSpec> args, EvaluatorOptions opts);

  /// T(λ) (median of the timed launches) and E(λ) against the reference;
  /// cached per λ when options().cache.
  Expected<TunePoint> evaluate(int64_t lambda) override;
  /// The λ bound: the options' bound, the knob's max or the override.
  int64_t lambdaMax() const override { return lambdaMax_; }
  /// Ok, or the sticky device fault that stopped this evaluator.
  Status health() const override { return fault_.isOk() ? fault_ : stopped(); }

  /// Launches once at λ (restore + poison first) and returns the compared
  /// outputs flattened as doubles.
  Expected<std::vector<double>> runOnce(int64_t lambda);
  /// The λ=0 outputs (computed on first use).
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
  Expected<std::vector<double>> runOnceImpl(int64_t lambda);
  Expected<std::vector<double>> referenceImpl();
  Expected<TunePoint> evaluateImpl(int64_t lambda);
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
  std::map<int64_t, TunePoint> cache_;
  uint64_t launches_ = 0;
  Status fault_; ///< the first sticky fault seen (Ok while none)
};

} // namespace approx::rt

#endif // APPROX_RUNTIME_KERNELEVALUATOR_H
