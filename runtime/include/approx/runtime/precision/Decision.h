//===- Decision.h - PreScaler's decision maker ------------------*- C++ -*-===//
//
// Precision scaling (issue 10, docs/precision.md, "System database and
// decision maker"): given an application profile (memory objects, their
// transfers, the kernels), a target output quality (TOQ) and the system
// database (SystemDb.h), choose per memory object a storage type and a
// conversion method per direction, as PreScaler (CGO'20) does:
//
//   - Algorithm 2 (bestMethod): the fastest way to move an object as a given
//     type, predicted from the database, nothing run;
//   - Algorithm 1 with pre-full-precision (PFP) scaling first (decide):
//     every object at one type, for each type, then each object in
//     descending order of its transfer time: the normal search over its
//     types in descending precision, stopping at the first TOQ failure,
//     then the wildcard test (transient conversion through an intermediate
//     type, predicted; one trial only to check a wildcard's accuracy).
//
// Trials (runs of the application in a configuration) are the caller's
// (`Trial`); their number never exceeds #objects x (1 + #types).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_DECISION_H
#define APPROX_RUNTIME_PRECISION_DECISION_H

#include "approx/runtime/precision/SystemDb.h"

#include <cmath>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace approx::rt::precision {

//===----------------------------------------------------------------------===//
// The application profile (what the profiler records in the original run)
//===----------------------------------------------------------------------===//

/// One transfer of (part of) a memory object, measured in the original run.
struct TransferEvent {
  Direction direction = Direction::H2D;
  double seconds = 0;    ///< measured, in the declared type
  uint64_t elements = 0; ///< elements moved; 0 = the whole object
};

/// A buffer with floating-point elements that the host moves to or from the
/// GPU.
struct ObjectProfile {
  std::string name;
  ScalarType declared = ScalarType::F64; ///< the program's type
  uint64_t elements = 0;
  HostMemory hostMemory = HostMemory::Pageable; ///< the program's array
  std::vector<TransferEvent> events;
  std::vector<std::string> readBy, writtenBy; ///< kernel names
};

/// A kernel and its measured time (all launches) in the original run.
struct KernelProfile {
  std::string name;
  double seconds = 0;
  /// Hook: the kernel may also compute in a narrower type. Not used by the
  /// search yet (KernelChoice::compute stays "keep").
  bool canComputeLower = false;
};

/// The whole profile. totalSeconds is the original run's time; its part that
/// is neither a kernel nor a profiled transfer is taken as constant.
struct AppProfile {
  std::vector<ObjectProfile> objects;
  std::vector<KernelProfile> kernels;
  double totalSeconds = 0;
  /// The transfers in program order (Session.h, transferSignature: "h2d A
  /// 1048576"): a scaled run must repeat them. Empty: not recorded.
  std::vector<std::string> transfers;
};

/// The profile file ("format": "approx-precision-profile", "version": 1):
/// objects (name, declared, elements, host_memory, events [{direction,
/// seconds, elements}], read_by, written_by), kernels (name, seconds,
/// can_compute_lower), total_seconds, transfers. Load errors are one
/// ParseError line naming the JSON path (wrong format or version, unknown or
/// missing fields, unknown names, negative or non-finite times); the
/// profile's consistency (decide()'s checks) is not checked here.
std::string appProfileToJson(const AppProfile &p);
Expected<AppProfile> parseAppProfile(const std::string &text);
Expected<AppProfile> loadAppProfile(const std::string &path);
/// Written atomically (writeFileAtomically).
Status saveAppProfile(const AppProfile &p, const std::string &path);

//===----------------------------------------------------------------------===//
// Configurations
//===----------------------------------------------------------------------===//

/// One object's decision.
struct ObjectChoice {
  std::string name;
  ScalarType declared = ScalarType::F64;
  ScalarType storage = ScalarType::F64;
  Method h2d, d2h; ///< Method::None where no transfer was profiled
};

/// One kernel's variant: the storage types of the objects it reads or
/// writes (the runtime picks the variant whose arguments have them) and its
/// compute type (nullopt: the kernel's own; a hook, always nullopt today).
struct KernelChoice {
  std::string name;
  std::optional<ScalarType> compute;
  std::vector<std::pair<std::string, ScalarType>> storage;
};

/// What a "scaling mode" run applies.
struct Configuration {
  std::vector<ObjectChoice> objects; ///< in the profile's order
  std::vector<KernelChoice> kernels; ///< in the profile's order
  double toq = 0;        ///< provenance: the TOQ it was chosen for
  std::string strategy;  ///< provenance: "ours", "prescaler", ...

  const ObjectChoice *find(const std::string &name) const;
  /// One line naming every object's storage and methods, e.g.
  /// "A=f16[h2d:host(t=16),d2h:none] B=f64[h2d:copy,d2h:copy]".
  std::string key() const;
  /// True when every object keeps its declared type and moves by plain copy
  /// (not a staged copy, stagedCopyConfiguration) and every kernel keeps its
  /// compute type: the program unchanged, which a caller may run as it is,
  /// without the scaling machinery.
  bool changesNothing() const;
};

/// The configuration that stores `app`'s objects as `objects` says (one
/// entry per profiled object, in the profile's order): every kernel's
/// choice is the storage of the objects it reads or writes.
Configuration configurationFor(const AppProfile &app,
                               std::vector<ObjectChoice> objects);

/// The staging control (issue 30): every object of `app` at its declared
/// type, every profiled transfer a staged copy, Method::host(threads): the
/// program's own bytes copied by `threads` host threads through the
/// TransferEngine's pinned staging, then across the bus, as the scaled
/// trials' host methods move their converted bytes. Measured like a trial,
/// it splits a scaled run's gain over the program into what staging alone
/// gives and what narrowing adds. Provenance: toq 1, strategy
/// "staged-copy". threads = 0 is taken as 1.
Configuration stagedCopyConfiguration(const AppProfile &app, unsigned threads);

/// The configuration file ("format": "approx-precision-config",
/// "version": 1). Load errors are one ParseError line naming the JSON path:
/// wrong format or version, unknown or missing fields, unknown types, two
/// objects of one name, a storage type wider than the declared one, a method
/// that does not fit the types (copy across types, a conversion other than
/// host between equal types, a transient intermediate equal to either),
/// threads or chunk missing or 0, a kernel naming an unknown object or a
/// type other than the object's storage. Host between equal types is a
/// staged copy (stagedCopyConfiguration).
std::string configurationToJson(const Configuration &c);
Expected<Configuration> parseConfiguration(const std::string &text);
Expected<Configuration> loadConfiguration(const std::string &path);
/// Written atomically (writeFileAtomically).
Status saveConfiguration(const Configuration &c, const std::string &path);

//===----------------------------------------------------------------------===//
// Trials
//===----------------------------------------------------------------------===//

/// The outcome of running the application once in a configuration.
/// One object's measured transfer time in a run: wall time of its copies
/// with their conversions (scale mode), or CUDA events around its copies.
struct ObjectTransferTime {
  std::string name;
  double h2dSeconds = 0, d2hSeconds = 0;
};

struct TrialResult {
  double quality = 0;  ///< 1 - mean relative error of the output
  bool failed = false; ///< the run failed (no usable output)
  bool overflow = false; ///< an object's values overflowed its storage type
  double totalSeconds = 0;   ///< measured, > 0
  /// The 95% bootstrap interval of totalSeconds (a median) over `runs`
  /// timed runs; both equal totalSeconds for a single run.
  double totalLo = 0, totalHi = 0;
  unsigned runs = 1;
  /// The GPU's energy per run (NVML's counter around the measurement, J);
  /// NaN where not measured. Reporting only.
  double energyJoules = NAN;
  double kernelSeconds = -1; ///< the kernels' measured time; < 0: unknown
  /// Per object, in first-transfer order, where the trial measured it
  /// (empty: unknown). Reporting only: the search does not read it.
  std::vector<ObjectTransferTime> objectTransfers;
};

/// Runs the application in a configuration. An error aborts the search.
using Trial = std::function<Expected<TrialResult>(const Configuration &)>;

/// One trial the search ran.
struct TrialRecord {
  std::string phase;  ///< "pfp", "normal", "wildcard"
  std::string object; ///< the object being decided ("" for pfp)
  Configuration config;
  TrialResult result;
  bool pass = false; ///< !failed && !overflow && quality >= toq
};

//===----------------------------------------------------------------------===//
// Strategies
//===----------------------------------------------------------------------===//

/// The conversion methods Algorithm 2 may choose among.
struct MethodSet {
  bool host = true;     ///< host conversion (every measured thread count)
  unsigned onlyThreads = 0; ///< != 0: host methods with this count only
  bool device = true;   ///< device conversion kernel
  bool pipelinedHost = true;
  bool pipelinedDevice = true;
  bool transient = true; ///< considered when intermediates are given
};

/// The four strategies the benchmark reports.
enum class StrategyKind {
  InKernel,  ///< types searched, every conversion on the device
  Pfp,       ///< program-wide full precision: one type for all objects
  PreScaler, ///< the paper's Algorithm 1 + 2 as published
  Ours,      ///< PreScaler with the improvements of docs/precision.md
};
/// "in-kernel", "pfp", "prescaler", "ours".
const char *strategyName(StrategyKind k);
Expected<StrategyKind> parseStrategy(const std::string &name);

/// The switches that make a strategy (strategy(kind) fills them).
struct Strategy {
  StrategyKind kind = StrategyKind::Ours;
  MethodSet methods;      ///< normal search and PFP (transient ignored)
  bool pfp = true;        ///< PFP first
  bool perObject = true;  ///< Algorithm 1 per object
  bool wildcard = true;   ///< the wildcard test (transient methods)
  bool pfpCoresOnly = false; ///< PFP baseline: host threads = logical cores
  /// Ours: an f16 failure caused by overflow does not stop the normal
  /// search: bf16, next in descending precision, has f32's range.
  bool continuePastOverflow = false;
  /// Ours: a wildcard's expected time is the measured time of the normal
  /// trial at the same target, minus the predicted time of that object's
  /// normal moves, plus its wildcard moves'. PreScaler: the predicted time
  /// of all moves + the trial's kernel time + the profile's other time.
  bool wildcardDelta = false;
  /// Ours: any wildcard whose data pass through a type that cannot hold the
  /// storage type's values is trialled, and kept only if its measured time
  /// beats the normal best. PreScaler: only a wildcard through the failed
  /// type is trialled, and kept if it passes.
  bool trialNarrowingWildcard = false;
};
Strategy strategy(StrategyKind kind);

/// Options of decide().
struct DecisionOptions {
  double toq = 0.9; ///< in (0, 1]: mean relative error <= 1 - toq
  /// The storage types considered, in descending precision (a subsequence
  /// of f64, f32, f16, bf16).
  std::vector<ScalarType> types = {ScalarType::F64, ScalarType::F32,
                                   ScalarType::F16, ScalarType::BF16};
  HostMemory staging = HostMemory::Pinned; ///< the runtime's buffers
  Strategy strategy = precision::strategy(StrategyKind::Ours);
};

/// Algorithm 2's answer.
struct MethodChoice {
  Method method;
  double seconds = 0; ///< predicted, all the object's events of the direction
};

/// Algorithm 2: the fastest method (predicted from `db`, nothing run) to
/// move `object` stored as `storage` in direction `d`, over all its events
/// in that direction; Method::None (0 s) when it has none, Copy when
/// storage == declared. Transient methods through each of `intermediates`
/// (other than the two types) when `set.transient`. Ties go to the first
/// candidate in the order copy, host (ascending threads), device, pipelined
/// (file order), transient. NotFound when no method has its tables.
Expected<MethodChoice> bestMethod(const SystemDb &db,
                                  const ObjectProfile &object,
                                  ScalarType storage, Direction d,
                                  const MethodSet &set,
                                  const std::vector<ScalarType> &intermediates,
                                  HostMemory staging = HostMemory::Pinned);
/// The same with every method of `ours`; transient through f64, f32, f16 and
/// bf16 when `allowTransient`.
Expected<MethodChoice> bestMethod(const SystemDb &db,
                                  const ObjectProfile &object,
                                  ScalarType storage, Direction d,
                                  bool allowTransient);

/// The result of a search.
struct Decision {
  Configuration config;
  std::vector<TrialRecord> trials;
  unsigned trialBound = 0; ///< #objects x (1 + #types)
  bool budgetExhausted = false; ///< the bound cut the search short
  double baselineSeconds = 0;   ///< the profile's total
  /// The model's time of `config`: the profile's other time + the kernel
  /// time measured with its storage types (the profile's when never run) +
  /// the predicted moves.
  double predictedSeconds = 0;
  std::optional<double> measuredSeconds; ///< when `config` was run
  std::optional<double> quality;         ///< when `config` was run
};

/// Algorithm 1 (with PFP first, per options.strategy); see
/// docs/precision.md. Errors: TOQ not in (0, 1], a bad type list, a bad
/// profile (one line naming the object or kernel), a database missing a
/// table every method needs, a trial's error or a trial result that is not
/// finite / positive.
Expected<Decision> decide(const SystemDb &db, const AppProfile &app,
                          const DecisionOptions &options, const Trial &trial);

/// decide() with strategy(kind) and the rest of `options`.
Expected<Decision> decideWith(StrategyKind kind, const SystemDb &db,
                              const AppProfile &app, DecisionOptions options,
                              const Trial &trial);

/// A report of a decision (configuration, trials, times) as JSON text.
std::string decisionToJson(const Decision &d);

} // namespace approx::rt::precision

#endif // APPROX_RUNTIME_PRECISION_DECISION_H
