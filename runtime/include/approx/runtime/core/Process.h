//===- Process.h - Running a program as a measured subprocess ----*- C++ -*-===//
//
// What the tuners that run whole programs share (approx-scale --exec, and
// approx tune --exec's ExecEvaluator): a private temporary directory, the
// program spawned with an edited environment (stdin /dev/null, stdout and
// stderr into the directory), its wall time from spawn to exit, and the
// last line of a failed run's stderr for the one-line error.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_PROCESS_H
#define APPROX_RUNTIME_CORE_PROCESS_H

#include "approx/runtime/core/Status.h"

#include <string>
#include <utility>
#include <vector>

namespace approx::rt {

/// A directory made by mkdtemp, removed with its contents on destruction.
class TempDir {
public:
  /// A new directory under $TMPDIR (else /tmp), named PREFIX.XXXXXX.
  static Expected<TempDir> create(const std::string &prefix = "approx");
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

/// How one run of a program ended.
struct Exit {
  bool ok = false;      ///< exited with status 0
  std::string why;      ///< otherwise: "exit status 3" / "signal 6"
  std::string lastLine; ///< the last non-empty line of its stderr
  double seconds = 0;   ///< wall time of the process, spawn to exit
  /// "exit status 3: <last line>" (or without the line when none).
  std::string describe() const;
};

/// Runs `program` (a path; not searched in PATH) with `args`: its
/// environment is this process's without the variables whose names start
/// with one of `dropPrefixes`, plus `env`; stdin is /dev/null, stdout and
/// stderr go to `dir`'s stdout.log and stderr.log (overwritten). An error
/// only when the program cannot be started.
Expected<Exit> runProgram(const TempDir &dir, const std::string &program,
                          const std::vector<std::string> &args,
                          const std::vector<std::pair<std::string, std::string>> &env,
                          const std::vector<std::string> &dropPrefixes = {});

} // namespace approx::rt

#endif // APPROX_RUNTIME_CORE_PROCESS_H
