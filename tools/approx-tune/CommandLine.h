//===- CommandLine.h - approx-tune's options, strictly parsed ----*- C++ -*-===//
//
// CLI11 through approx/Support/Cli.h, the command line of every approx
// tool: every option value is checked when the command line is read:
// integers are decimal, fit the option's stated range (no wrap, no silent
// truncation, no octal or hex surprises), floats are finite. A bad value is
// a usage error (one line, exit status 1) that names the option and the
// accepted range. Values that need the manifest (argument indices, knob
// names) are checked later, as usage errors too.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNE_COMMANDLINE_H
#define APPROX_TUNE_COMMANDLINE_H

#include "approx/Support/Cli.h"
#include "approx/runtime/core/Capture.h"
#include "approx/runtime/core/Runtime.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace approx::tune {

/// A runtime error that ends approx-tune: `code` is the exit status (2
/// runtime, 77 no GPU), `message` one line. Usage errors are
/// approx::cli::UsageError (exit status 1).
struct CliError {
  int code;            ///< the exit status
  std::string message; ///< one line, already escaped
};

/// How approx-tune reports a usage error: `approx-tune: MESSAGE (see
/// approx-tune --help)`, exit status 1.
approx::cli::Tool tool();
/// Throws a usage error (approx::cli::UsageError).
[[noreturn]] void usageError(const std::string &message);
/// Throws `s` as a runtime error (77 for Unavailable, 2 otherwise).
[[noreturn]] void statusError(const approx::rt::Status &s);

/// A decimal integer in [lo, hi]; `what` names it in errors.
int64_t parseInteger(const std::string &text, const std::string &what,
                     int64_t lo, int64_t hi);
/// A finite decimal float.
double parseFinite(const std::string &text, const std::string &what);

/// How an input buffer is filled.
struct DistSpec {
  std::string kind; ///< uniform, normal, linspace, file
  double a = 0, b = 1; ///< LO/HI or MEAN/SD
  std::string path; ///< file:PATH
  std::string text; ///< as given
};

/// Parses uniform:LO:HI, normal:MEAN:SD (SD >= 0), linspace:LO:HI,
/// file:PATH.
DistSpec parseDist(const std::string &text, const std::string &what);

/// The limits of the options with ranges (docs/runtime.md lists them).
constexpr int64_t kMaxReps = 1000000;      ///< --reps, --warmup
constexpr int64_t kMaxGridX = 2147483647;  ///< --grid X
constexpr int64_t kMaxGridYZ = 65535;      ///< --grid Y, Z
constexpr int64_t kMaxBlockThreads = 1024; ///< --block, each and product

/// Everything on the command line (fields named as the options; --help
/// documents each).
struct Options {
  std::string manifest;
  std::string kernel;
  std::string tunedKnob;              ///< --knob NAME
  std::map<std::string, int64_t> knobValues; ///< --knob NAME=VALUE
  std::string image;
  bool list = false, dryRun = false, cubin = false;
  bool sweep = false;
  bool quiet = false, allowZero = false, allowOutside = false;
  int device = 0;
  int64_t size = 1 << 20;
  std::map<int, std::vector<int64_t>> shapes;
  /// --element I=TYPE: element type of a pointer argument's buffer.
  std::map<int, std::string> elements;
  std::map<int, std::pair<DistSpec, bool>> inputs; ///< bool: inout
  std::map<int, std::string> scalars;
  uint64_t seed = 1;
  approx::rt::Dim3 block{256, 1, 1}, grid{0, 0, 0};
  bool gridAuto = true;
  unsigned shared = 0;
  std::string method = "heu";
  bool qosAbs = false;
  double qos = 0.8;
  std::string metric = "mre";
  int64_t lambdaMax = -1;
  /// --lambda-step: the λ grid SMP and HEU search; 0 = measure it (auto).
  int lambdaStep = 0;
  int warmup = 3, reps = 20;
  /// --until-ci R / --max-reps N: more timed repetitions past --reps until
  /// the median's 95% interval is within ±R of it (0: off).
  double untilCi = 0;
  int maxReps = 200;
  std::string jsonPath, svgPath;
  /// --run-once: launch once and dump the outputs to PREFIX.argI.
  std::string runOncePrefix;
  std::string command; ///< the command line, for the JSON record
  // The joint tuner (approx tune; --joint).
  bool joint = false;
  std::vector<std::string> jointKnobs; ///< --knobs A,B (empty: all)
  int budget = 64;                     ///< --budget
  int gridPoints = 9;                  ///< --grid-points
  /// Verification inputs: one set per --verify-seed S (every generated
  /// input drawn again from S + I) or --verify I=DIST (argument I's data
  /// replaced, the rest as tuned; several I=DIST joined by ';' make one set).
  std::vector<uint64_t> verifySeeds;
  std::vector<std::vector<std::pair<int, DistSpec>>> verifyInputs;
  int guardPeriod = 4;      ///< --guard-period
  int guardInvocations = 4; ///< --guard-invocations, per verification set
  std::string reportPath;   ///< --report PATH.html
  std::string cacheDir;     ///< --cache DIR: build knobs from approx-build's cache
  std::vector<int> devices; ///< --devices A,B: search on A, verify on all
  // A whole program (after --).
  bool execGiven = false;
  std::vector<std::string> execCommand; ///< PROGRAM ARGS...
  std::vector<std::pair<std::string, approx::rt::ScalarType>> execOutputs;
  bool noCapture = false;
  /// --capture-arg KERNEL:INDEX[:TYPE]: checked against the manifest by
  /// runJointExec.
  std::vector<approx::rt::capture::ArgRequest> captureArgs;
  /// --storage TYPES: each memory object's storage type searched too, among
  /// these (an MLIR host program through the precision hooks).
  std::vector<approx::rt::ScalarType> storageTypes;
  bool respectProgramCheck = true;
  std::vector<std::vector<std::pair<int, std::string>>> verifyArgs;
};

/// Parses argv into `o`: -1 to go on, else the exit status (0 after
/// printing --help, 1 after a one-line usage error).
int parseCommandLine(int argc, char **argv, Options &o);

/// The --help text.
extern const char *const kHelp;

} // namespace approx::tune

#endif // APPROX_TUNE_COMMANDLINE_H
