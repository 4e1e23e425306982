//===- StderrFilter.cpp - keep approx-opt's stderr printable --------------===//

#include "StderrFilter.h"

#include "llvm/ADT/StringRef.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <string>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

/// Bytes of one stderr line that are shown; the rest are counted.
constexpr size_t kMaxLineBytes = 2048;

/// The child, for the parent's signal forwarding (async-signal-safe use).
volatile sig_atomic_t childPid = 0;

void forwardSignal(int sig) {
  if (childPid > 0)
    kill(static_cast<pid_t>(childPid), sig);
}

/// Lines of one diagnostic shown: its own line, the echoed source line and
/// caret, and room for a short multi-line message. Some upstream verifier
/// messages print a whole operation ("block with no terminator, has ...").
constexpr unsigned kMaxDiagnosticLines = 24;

/// True for the first line of an MLIR diagnostic, `LOC: error: ...`.
bool isDiagnosticHead(llvm::StringRef line) {
  if (line.empty() || line[0] == ' ')
    return false;
  for (llvm::StringRef kind : {": error: ", ": warning: ", ": note: ",
                               ": remark: "})
    if (line.contains(kind))
      return true;
  return false;
}

/// Crash output (LLVM's report and stack dump) is never cut.
bool isCrashReport(llvm::StringRef line) {
  return line.starts_with("LLVM ERROR") || line.starts_with("Stack dump") ||
         line.starts_with("PLEASE submit") ||
         line.starts_with("approx-opt crashed") || line.starts_with(" #") ||
         line.starts_with("terminate called");
}

/// Escapes control bytes, cuts long lines and long diagnostics, across read
/// boundaries. Works a line at a time.
class LineFilter {
public:
  void feed(const char *data, size_t size) {
    for (size_t i = 0; i < size; ++i) {
      unsigned char c = static_cast<unsigned char>(data[i]);
      if (c == '\n') {
        endLine();
        continue;
      }
      if (line.size() >= kMaxLineBytes) {
        ++droppedBytes;
        continue;
      }
      if ((c < 0x20 && c != '\t') || c == 0x7f) {
        static const char hex[] = "0123456789abcdef";
        line += "\\x";
        line += hex[c >> 4];
        line += hex[c & 15];
      } else {
        line += static_cast<char>(c);
      }
    }
  }
  /// Ends the current line (at a newline, or at the end with `final`).
  void endLine(bool final = false) {
    if (final && line.empty() && !droppedBytes) {
      noteDroppedLines();
      return;
    }
    if (droppedBytes)
      line += "...[" + std::to_string(droppedBytes) + " more bytes]";
    droppedBytes = 0;
    if (isDiagnosticHead(line)) {
      noteDroppedLines();
      inDiagnostic = true;
      diagnosticLines = 1;
    } else if (isCrashReport(line)) {
      noteDroppedLines();
      inDiagnostic = false;
    } else if (inDiagnostic && ++diagnosticLines > kMaxDiagnosticLines) {
      ++droppedLines;
      line.clear();
      return;
    }
    out += line;
    if (!final)
      out += '\n';
    line.clear();
    if (final)
      noteDroppedLines();
  }
  /// Writes what is pending to `fd`; a closed stderr only loses the text.
  void flushTo(int fd) {
    size_t done = 0;
    while (done < out.size()) {
      ssize_t n = write(fd, out.data() + done, out.size() - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      done += static_cast<size_t>(n);
    }
    out.clear();
  }

private:
  void noteDroppedLines() {
    if (droppedLines)
      out += "...[" + std::to_string(droppedLines) +
             " more lines of this diagnostic]\n";
    droppedLines = 0;
  }

  std::string out, line;
  size_t droppedBytes = 0, droppedLines = 0;
  bool inDiagnostic = false;
  unsigned diagnosticLines = 0;
};

} // namespace

std::optional<int> approx::runWithFilteredStderr() {
  int fds[2];
  if (pipe(fds) != 0)
    return std::nullopt;
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return std::nullopt;
  }
  if (pid == 0) {
    // The compiler. It must not outlive a parent killed by `timeout` or
    // SIGKILL: nothing would read its stderr or reap it.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(1);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    return std::nullopt;
  }

  close(fds[1]);
  childPid = pid;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
    signal(sig, forwardSignal);
  signal(SIGPIPE, SIG_IGN);
  LineFilter filter;
  char buf[65536];
  for (;;) {
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    filter.feed(buf, static_cast<size_t>(n));
    filter.flushTo(STDERR_FILENO);
  }
  close(fds[0]);
  filter.endLine(/*final=*/true);
  filter.flushTo(STDERR_FILENO);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return 1;
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  int sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGABRT;
  // Die as the child died, so that callers see the same signal.
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  raise(sig);
  return 128 + sig;
}
