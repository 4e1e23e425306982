//===- ExecProgram.h - approx-scale --exec: a program as subprocesses -*- C++ -*-===//
//
// What `approx-scale --exec` needs to run an unmodified MLIR host program
// (linked with libapprox_mgpu.so) once per measurement: a private temporary
// directory, the program spawned with the APPROX_PRECISION* environment of
// one run (docs/precision.md, "MLIR host programs: mgpu* hooks"), and the
// files such a run leaves read back into the precision Session's ProgramRun
// (the scale report's times and overflowed objects, the outputs file's
// values), so that a trial's result is prec::trialResult's, as for the
// PolyBench apps.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TOOLS_APPROX_SCALE_EXECPROGRAM_H
#define APPROX_TOOLS_APPROX_SCALE_EXECPROGRAM_H

#include "approx/runtime/core/Status.h"
#include "approx/runtime/precision/Decision.h"
#include "approx/runtime/precision/OutputsFile.h"
#include "approx/runtime/precision/Session.h"

#include <string>
#include <utility>
#include <vector>

namespace approx::scale {

/// A directory made by mkdtemp, removed with its contents on destruction.
class TempDir {
public:
  /// A new directory under $TMPDIR (else /tmp), named approx-scale.XXXXXX.
  static rt::Expected<TempDir> create();
  TempDir(TempDir &&o) noexcept : path_(std::move(o.path_)) { o.path_.clear(); }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  ~TempDir();
  /// `name` inside the directory.
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  const std::string &path() const { return path_; }

private:
  explicit TempDir(std::string p) : path_(std::move(p)) {}
  std::string path_;
};

/// How one run of the program ended.
struct Exit {
  bool ok = false;      ///< exited with status 0
  std::string why;      ///< otherwise: "exit status 3" / "signal 6"
  std::string lastLine; ///< the last non-empty line of its stderr
  double seconds = 0;   ///< wall time of the process, spawn to exit
  /// "exit status 3: <last line>" (or without the line when none).
  std::string describe() const;
};

/// Runs `program` with `args`: its environment is this process's without
/// any APPROX_PRECISION* variable, plus `env`; stdin is /dev/null, stdout
/// and stderr go to `dir`'s stdout.log and stderr.log (overwritten). An
/// error only when the program cannot be started.
rt::Expected<Exit>
runProgram(const TempDir &dir, const std::string &program,
           const std::vector<std::string> &args,
           const std::vector<std::pair<std::string, std::string>> &env);

/// The values of `outputs` in the order of `names` (an object the file
/// lacks: an empty array, which compareOutputs counts as all wrong).
std::vector<std::vector<double>>
alignOutputs(const std::vector<rt::precision::NamedOutput> &outputs,
             const std::vector<std::string> &names);

/// A scaled run read back: the mgpu hooks' scale report at `reportPath`
/// (APPROX_PRECISION_REPORT) and outputs at `outputsPath`, in `names` order.
rt::Expected<rt::precision::ProgramRun>
readScaledRun(const std::string &reportPath, const std::string &outputsPath,
              const std::vector<std::string> &names);

/// A profile-mode run read back as a ProgramRun: wall = the profile's total
/// seconds, kernels = the sum of its kernels.
rt::Expected<rt::precision::ProgramRun>
readProfiledRun(const rt::precision::AppProfile &profile,
                const std::string &outputsPath,
                const std::vector<std::string> &names);

} // namespace approx::scale

#endif // APPROX_TOOLS_APPROX_SCALE_EXECPROGRAM_H
