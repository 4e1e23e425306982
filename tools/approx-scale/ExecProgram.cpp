//===- ExecProgram.cpp - approx-scale --exec: a program as subprocesses ---===//
//
// posix_spawn with an edited environment, the last line of a failed run's
// stderr for the trial's message, and the mgpu hooks' report and outputs
// files turned into a ProgramRun (ExecProgram.h).
//
//===----------------------------------------------------------------------===//
#include "ExecProgram.h"

#include "approx/runtime/core/FileIO.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace approx::scale {

namespace prec = rt::precision;
using json = nlohmann::json;

rt::Expected<TempDir> TempDir::create() {
  const char *t = std::getenv("TMPDIR");
  std::string tmpl = std::string(t && *t ? t : "/tmp") + "/approx-scale.XXXXXX";
  if (!::mkdtemp(tmpl.data()))
    return rt::ioError("cannot create a temporary directory " + tmpl + ": " +
                       std::strerror(errno));
  return TempDir(tmpl);
}

TempDir::~TempDir() {
  if (path_.empty())
    return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string Exit::describe() const {
  return lastLine.empty() ? why : why + ": " + lastLine;
}

/// The last non-empty line of the file (its last 4 KiB), "" if none.
static std::string lastLineOf(const std::string &path) {
  rt::Expected<uint64_t> size = rt::regularFileSize(path, "log");
  if (!size)
    return "";
  rt::Expected<std::string> text = rt::readRegularFile(path, *size, "log");
  if (!text)
    return "";
  std::string s = text->size() > 4096 ? text->substr(text->size() - 4096)
                                      : *text;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
    s.pop_back();
  size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

rt::Expected<Exit>
runProgram(const TempDir &dir, const std::string &program,
           const std::vector<std::string> &args,
           const std::vector<std::pair<std::string, std::string>> &env) {
  std::vector<std::string> envs;
  for (char **e = environ; e && *e; ++e)
    if (std::strncmp(*e, "APPROX_PRECISION", 16) != 0)
      envs.push_back(*e);
  for (const auto &[k, v] : env)
    envs.push_back(k + "=" + v);
  std::vector<char *> envp, argv;
  for (std::string &e : envs)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argStore = {program};
  argStore.insert(argStore.end(), args.begin(), args.end());
  for (std::string &a : argStore)
    argv.push_back(a.data());
  argv.push_back(nullptr);

  const std::string out = dir.file("stdout.log"), err = dir.file("stderr.log");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, program.c_str(), &fa, nullptr, argv.data(),
                         envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    return rt::ioError("cannot run " + program + ": " + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return rt::ioError("waiting for " + program + ": " +
                         std::strerror(errno));
  Exit x;
  x.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                            t0)
                  .count();
  if (WIFEXITED(status)) {
    x.ok = WEXITSTATUS(status) == 0;
    x.why = "exit status " + std::to_string(WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    x.why = "signal " + std::to_string(WTERMSIG(status)) + " (" +
            strsignal(WTERMSIG(status)) + ")";
  } else {
    x.why = "wait status " + std::to_string(status);
  }
  if (!x.ok)
    x.lastLine = lastLineOf(err);
  return x;
}

std::vector<std::vector<double>>
alignOutputs(const std::vector<prec::NamedOutput> &outputs,
             const std::vector<std::string> &names) {
  std::map<std::string, const prec::NamedOutput *> byName;
  for (const prec::NamedOutput &o : outputs)
    byName[o.name] = &o;
  std::vector<std::vector<double>> r(names.size());
  for (size_t i = 0; i < names.size(); ++i)
    if (auto it = byName.find(names[i]); it != byName.end())
      r[i] = it->second->values;
  return r;
}

rt::Expected<prec::ProgramRun>
readScaledRun(const std::string &reportPath, const std::string &outputsPath,
              const std::vector<std::string> &names) {
  APPROX_ASSIGN_OR_RETURN(std::string text,
                          rt::readRegularFile(reportPath, uint64_t(1) << 26,
                                              "scale report"));
  json r = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!r.is_object() || r.value("format", "") != "approx-mgpu-scale-report" ||
      !r.contains("wall_seconds") || !r["wall_seconds"].is_number())
    return rt::parseError("scale report '" + reportPath +
                          "' is not an approx-mgpu-scale-report");
  prec::ProgramRun run;
  prec::RunReport &rep = run.report;
  // A field of the wrong type throws (nlohmann's value/get): one line, not
  // an uncaught exception.
  try {
  rep.wallSeconds = r["wall_seconds"].get<double>();
  rep.kernelSeconds = r.value("kernel_seconds", 0.0);
  rep.h2dSeconds = r.value("h2d_seconds", 0.0);
  rep.d2hSeconds = r.value("d2h_seconds", 0.0);
  rep.launches = r.value("launches", uint64_t(0));
  for (const json &o : r.value("overflowed", json::array()))
    if (o.is_string())
      rep.overflowed.push_back(o.get<std::string>());
  for (const json &o : r.value("objects", json::array()))
    if (o.is_object())
      rep.objectTransfers.push_back({o.value("name", ""),
                                     o.value("h2d_seconds", 0.0),
                                     o.value("d2h_seconds", 0.0)});
  const json stats = r.value("stats", json::object());
  rep.stats.overflowed = stats.value("overflowed", uint64_t(0));
  rep.stats.underflowedToZero = stats.value("underflowed_to_zero", uint64_t(0));
  rep.stats.nans = stats.value("nans", uint64_t(0));
  } catch (const json::exception &e) {
    return rt::parseError("scale report '" + reportPath + "': " + e.what());
  }
  APPROX_ASSIGN_OR_RETURN(std::vector<prec::NamedOutput> outs,
                          prec::loadOutputs(outputsPath));
  run.outputs = alignOutputs(outs, names);
  return run;
}

rt::Expected<prec::ProgramRun>
readProfiledRun(const prec::AppProfile &profile,
                const std::string &outputsPath,
                const std::vector<std::string> &names) {
  prec::ProgramRun run;
  run.report.wallSeconds = profile.totalSeconds;
  for (const prec::KernelProfile &k : profile.kernels)
    run.report.kernelSeconds += k.seconds;
  APPROX_ASSIGN_OR_RETURN(std::vector<prec::NamedOutput> outs,
                          prec::loadOutputs(outputsPath));
  run.outputs = alignOutputs(outs, names);
  return run;
}

} // namespace approx::scale
