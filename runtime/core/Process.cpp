//===- Process.cpp - Running a program as a measured subprocess -----------===//
#include "approx/runtime/core/Process.h"

#include "approx/runtime/core/FileIO.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace approx::rt {

Expected<TempDir> TempDir::create(const std::string &prefix) {
  const char *t = std::getenv("TMPDIR");
  std::string tmpl = std::string(t && *t ? t : "/tmp") + "/" + prefix + ".XXXXXX";
  if (!::mkdtemp(tmpl.data()))
    return ioError("cannot create a temporary directory " + tmpl + ": " +
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
/// The last non-empty line of the file (its last 4 KiB), "" if none.
static std::string lastLineOf(const std::string &path) {
  Expected<uint64_t> size = regularFileSize(path, "log");
  if (!size)
    return "";
  Expected<std::string> text = readRegularFile(path, *size, "log");
  if (!text)
    return "";
  std::string s = text->size() > 4096 ? text->substr(text->size() - 4096)
                                      : *text;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
    s.pop_back();
  size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

Expected<Exit> runProgram(const TempDir &dir, const std::string &program,
                          const std::vector<std::string> &args,
                          const std::vector<std::pair<std::string, std::string>> &env,
                          const std::vector<std::string> &dropPrefixes) {
  std::vector<std::string> envs;
  for (char **e = environ; e && *e; ++e) {
    bool drop = false;
    for (const std::string &p : dropPrefixes)
      drop |= std::strncmp(*e, p.c_str(), p.size()) == 0;
    if (!drop)
      envs.push_back(*e);
  }
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
    return ioError("cannot run " + program + ": " + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return ioError("waiting for " + program + ": " +
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

} // namespace approx::rt
