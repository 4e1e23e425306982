//===- StderrFilter.h - keep approx-opt's stderr printable ----------------===//
//
// MLIR's diagnostics echo the input's own bytes: the source line under each
// error, and symbol names inside upstream messages ("redefinition of symbol
// named ..."). An input with terminal control bytes, or one line of
// megabytes, would reach the terminal unescaped. approx-opt therefore runs
// in a child process whose stderr is a pipe; the parent copies it to the real
// stderr with control bytes written as \xNN, each line cut at 2 KiB and each
// diagnostic at 24 lines (some upstream verifier messages print a whole
// operation), then exits as the child did (same status, same signal).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_TOOLS_APPROX_OPT_STDERRFILTER_H
#define APPROX_TOOLS_APPROX_OPT_STDERRFILTER_H

#include <optional>

namespace approx {

/// Forks. In the parent, copies the child's stderr through the filter and
/// returns the exit status to return from main (or re-raises the signal that
/// killed the child). In the child, and where forking is impossible, returns
/// std::nullopt: the caller carries on as the compiler.
std::optional<int> runWithFilteredStderr();

} // namespace approx

#endif // APPROX_TOOLS_APPROX_OPT_STDERRFILTER_H
