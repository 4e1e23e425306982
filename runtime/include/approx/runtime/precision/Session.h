//===- Session.h - Profiling and scaling a program's memory objects -*- C++ -*-=//
//
// Precision scaling (issue 10, docs/precision.md, "Profiler, scaling mode
// and approx-scale"): the interposition point PreScaler (CGO'20, §4.3, §4.5,
// Table 2) gets by wrapping OpenCL. A host program registers its memory
// objects with a Session and moves and launches through it:
//
//   Session s = ...;                     // a mode: plain, profile or scale
//   size_t A = *s.object("A", ScalarType::F64, n);   // clCreateBuffer
//   s.toDevice(A, hostA);                            // clEnqueueWriteBuffer
//   s.launch(module, "k", cfg, {LaunchArg::object(A, {n}),
//                               LaunchArg::value(Arg::integer(n))});
//   s.toHost(A, hostA);                              // clEnqueueReadBuffer
//   RunReport r = *s.finish();
//
//   plain    everything in the declared types, nothing recorded but times;
//   profile  the same, and records per object its transfers (direction,
//            CUDA-event seconds, elements), which kernels read and write it
//            (the manifest's per-argument access, else the role the caller
//            gave), the kernels' event times, the wall time and the order of
//            the transfers (the signature): profile() gives the AppProfile
//            the decision maker (Decision.h) needs;
//   scale    applies a Configuration: each object's device buffer is
//            allocated in its storage type, each transfer converts with the
//            configured method (TransferEngine; an object kept in its
//            declared type with a host method is a staged copy through the
//            engine's pinned staging: the staging control of Decision.h's
//            stagedCopyConfiguration), each launch runs the
//            kernel variant whose memref arguments have the objects' storage
//            types, and every conversion's losses are reported (overflow:
//            the run is a TOQ failure, never silent infinities).
//
// The user's host arrays are only ever read (toDevice) or written whole by
// toHost, never converted in place; what a failed toHost may leave is the
// TransferEngine's guarantee (Transfer.h): untouched or completely written
// for the copy, host, device and transient methods (copy and device: unless
// the final copy itself faults), and for a pipelined method the chunks
// before the failure, which the error message counts.
//
// makeTrial() turns "run the program once in a configuration" plus the f64
// run's outputs into the decision maker's Trial (quality = 1 - mean
// relative error of Quality.h).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_SESSION_H
#define APPROX_RUNTIME_PRECISION_SESSION_H

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/precision/Decision.h"
#include "approx/runtime/precision/Transfer.h"
#include "approx/runtime/tune/Metrics.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace approx::rt::precision {

/// How a Session runs the program (the file comment says what each does).
enum class SessionMode { Plain, Profile, Scale };
/// "plain", "profile", "scale".
const char *sessionModeName(SessionMode m);

/// One transfer of the signature: "h2d A 1048576" (direction, object,
/// elements). Profile mode records them in AppProfile::transfers; scale mode
/// checks its own against them.
std::string transferSignature(Direction d, const std::string &object,
                              uint64_t elements);

/// How a Session is set up.
struct SessionOptions {
  SessionMode mode = SessionMode::Plain;
  /// Scale: the configuration to apply (required). Objects it does not name
  /// keep their declared type and move by copy.
  std::optional<Configuration> config;
  /// Scale: the profiled run's transfers (AppProfile::transfers), in order;
  /// when non-empty, a transfer that differs from the next one expected, or
  /// a finish() before the last, is the error "the program's transfers
  /// differ from the profiled run: ...".
  std::vector<std::string> expectedTransfers;
  /// Scale: the engine that converts and moves (shared across runs, so that
  /// its staging buffers and conversion kernels are set up once); null: the
  /// session creates one (loading the conversion kernels, outside the timed
  /// span).
  std::shared_ptr<TransferEngine> engine;
  /// Time each launch with CUDA events (RunReport::kernelSeconds).
  bool timeKernels = true;
};

/// An argument of Session::launch: an object's device buffer, or a value.
struct LaunchArg {
  /// The memref of object `id` (the session's buffer of it, in its storage
  /// type), with `shape` (empty: rank 1, all elements). `role` is used
  /// where the kernel's manifest has no access for the argument (a pointer
  /// argument): read, write or readwrite.
  static LaunchArg object(size_t id, std::vector<int64_t> shape = {},
                          ArgInfo::Access role = ArgInfo::Access::ReadWrite);
  /// Any other argument, passed through (scalars, buffers of the caller's).
  static LaunchArg value(Arg a);

  bool isObject = false;
  size_t id = 0;
  std::vector<int64_t> shape;
  ArgInfo::Access role = ArgInfo::Access::ReadWrite;
  Arg arg;
};

/// What one run through a Session did and cost.
struct RunReport {
  double wallSeconds = 0;   ///< steady_clock, end of create() to finish()
  double kernelSeconds = 0; ///< CUDA events around each launch, summed
  double h2dSeconds = 0;    ///< CUDA events of the transfers to the device
  double d2hSeconds = 0;    ///< the same to the host
  uint64_t launches = 0, transfers = 0;
  uint64_t busBytes = 0;    ///< bytes copied across the bus
  /// Every conversion's losses together (zero outside scale mode).
  ConvertStats stats;
  /// The objects whose values overflowed their storage type in a conversion
  /// (became +-inf from finite values), in first-overflow order.
  std::vector<std::string> overflowed;
  /// Each transferred object's time (h2dSeconds/d2hSeconds split by
  /// object), in first-transfer order.
  std::vector<ObjectTransferTime> objectTransfers;
  /// Every measured run's wall time when this report is a median of
  /// several (medianOf); empty for one run.
  std::vector<double> wallSamples;
};

/// A program's memory objects, transfers and launches, run in one mode. Not
/// thread-safe; one run per Session (create, register, run, finish).
class Session {
public:
  /// A session on `ctx`. Errors: scale mode without a configuration, or
  /// with a configuration that fails its own checks (parseConfiguration's).
  static Expected<std::unique_ptr<Session>>
  create(std::shared_ptr<Context> ctx, SessionOptions options = {});
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  /// Registers a memory object of `elements` elements of `declared` (f64,
  /// f32, f16 or bf16) whose host array lives in `host` memory, and
  /// allocates its device buffer (scale mode: in the configured storage
  /// type). Errors: an empty or second name, a type that is not a
  /// precision, 0 elements, a configuration whose object of this name has
  /// another declared type; allocation failures.
  Expected<size_t> object(const std::string &name, ScalarType declared,
                          uint64_t elements,
                          HostMemory host = HostMemory::Pageable);

  /// Moves object `id` from `host` (its declared type, all its elements)
  /// to its device buffer.
  Status toDevice(size_t id, const void *host);
  /// Moves object `id`'s device buffer into `host` (its declared type).
  Status toHost(size_t id, void *host);
  /// Sets the device buffer to zeros (0.0 in every storage type); not a
  /// transfer.
  Status zero(size_t id);

  /// The device buffer of object `id` (its storage type).
  Expected<BufferView> buffer(size_t id) const;
  /// The storage type of object `id` (its declared type outside scale mode).
  Expected<ScalarType> storage(size_t id) const;

  /// The kernel `module` runs for a launch of `kernel` with `args`: among
  /// `kernel` itself and the variants of its dispatch entry (a variant knob,
  /// approx-precision-variants), the first whose every memref argument has
  /// the element type of what it is given (an object: its storage type; a
  /// value: its buffer's type). Errors, one line: no such kernel; no
  /// variant with those types ("kernel 'k' has no variant whose memref
  /// arguments are (A: f16, B: f64); the module has k (f64, f64),
  /// ...: compile it with the variants this configuration needs").
  Expected<const KernelInfo *> select(const Module &module,
                                      const std::string &kernel,
                                      const std::vector<LaunchArg> &args) const;
  /// Launches select()'s kernel with the objects' buffers and the values;
  /// records the kernel's time and (profile) its reads and writes under the
  /// name `kernel`.
  Status launch(Module &module, const std::string &kernel,
                const LaunchConfig &cfg, const std::vector<LaunchArg> &args,
                const LaunchOptions &opts = {});

  /// Waits for the device, resolves the kernel times, checks (scale) that
  /// every expected transfer happened, and stops the clock. Once.
  Expected<RunReport> finish();
  /// Profile mode, after finish(): the program's AppProfile (objects in
  /// registration order, kernels in first-launch order, the transfers'
  /// signature). Other modes, or before finish(): InvalidArgument.
  Expected<AppProfile> profile() const;

  SessionMode mode() const { return opt_.mode; }
  /// The transfers so far, as transferSignature() strings.
  const std::vector<std::string> &transfers() const { return transfers_; }

  struct Object; ///< Session.cpp
  struct Timed;  ///< Session.cpp

private:
  Session() = default;
  Status transfer(size_t id, Direction d, const void *in, void *out);
  Status checkNext(const std::string &sig);
  Status checkId(size_t id, const char *what) const;

  std::shared_ptr<Context> ctx_;
  SessionOptions opt_;
  std::vector<std::unique_ptr<Object>> objects_;
  std::vector<std::string> transfers_;
  std::vector<std::unique_ptr<Timed>> launches_;
  std::vector<std::string> kernelOrder_;
  RunReport report_;
  std::chrono::steady_clock::time_point start_;
  bool finished_ = false;
};

/// The TransferPlan that performs `m` for an object declared `declared` and
/// stored as `storage` in direction `d` (a pipelined Method's chunk, source
/// bytes, becomes host-array bytes, rounded down to a whole number of both
/// elements). InvalidArgument for Method::None.
Expected<TransferPlan> planFor(const Method &m, Direction d,
                               ScalarType declared, ScalarType storage);

//===----------------------------------------------------------------------===//
// Trials
//===----------------------------------------------------------------------===//

/// What one run of the program returns to a Trial.
struct ProgramRun {
  /// The outputs, one array per output object in declared values (f64);
  /// compared index by index with the reference's non-empty arrays.
  std::vector<std::vector<double>> outputs;
  RunReport report;
};

/// Runs the program once through a Session in scale mode with `config`.
using ScaledProgram = std::function<Expected<ProgramRun>(const Configuration &)>;

/// `program` measured the way timings should be (docs/bench METHOD):
/// `warmups` untimed runs first, then `reps` timed runs, and the run whose
/// total wall time is the median (the lower middle for even `reps`) is
/// returned, its outputs and report. The first run of a configuration in a
/// process pays one-off costs (device and staging memory first touched,
/// kernels loaded) that a program's steady state does not. With `tight`
/// (issue 30, dispersion), more runs follow, until the 95% interval of the
/// median wall time lies within ±tight.relHalfWidth of it or tight.maxReps
/// runs in all; they add their times only (their outputs are not kept: a
/// program's outputs do not depend on its timing), and the report's
/// wallSeconds is then the median of every run. report.wallSamples holds
/// every timed run's wall time. reps = 0 is InvalidArgument; a failing run
/// stops and returns its Status.
ScaledProgram medianOf(ScaledProgram program, unsigned warmups,
                       unsigned reps, Tightness tight = {});

/// The index of the median of `seconds` (the lower middle for an even
/// count; the earlier run among equal times); 0 for an empty list.
size_t medianIndex(const std::vector<double> &seconds);

/// The TrialResult of a run against the f64 run's outputs: quality = 1 -
/// mean relative error over all output elements (Quality.h); overflow when
/// a conversion overflowed (report.overflowed) or an output holds inf/NaN
/// where the reference is finite (a value left its storage type's range in
/// a kernel), and then quality 0; totalSeconds = wallSeconds,
/// kernelSeconds = the events' sum.
TrialResult trialResult(const ProgramRun &run,
                        const std::vector<std::vector<double>> &reference);

/// The decision maker's Trial: run `program` in the configuration, compare
/// with `reference`.
Trial makeTrial(ScaledProgram program,
                std::vector<std::vector<double>> reference);

/// Results of trials by Configuration::key(), shared across searches.
using TrialMemo = std::map<std::string, TrialResult>;
/// `trial` answered from `memo` when the configuration's key() was run
/// before (by any strategy), else run and remembered. `ran` (may be null)
/// counts the trials actually run.
Trial memoizeTrial(Trial trial, std::shared_ptr<TrialMemo> memo,
                   std::shared_ptr<unsigned> ran = nullptr);

} // namespace approx::rt::precision

#endif // APPROX_RUNTIME_PRECISION_SESSION_H
