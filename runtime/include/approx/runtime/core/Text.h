//===- Text.h - Printing untrusted names, PTX identifiers --------*- C++ -*-===//
//
// Names come from a manifest, i.e. from a file: before one reaches a terminal
// or an error message it is escaped so that it cannot break the one-line
// error convention or smuggle control sequences. `isPtxIdentifier` is the
// rule docs/manifest.md gives for kernel and knob names, the one the
// compiler checks too (approx/Common/PtxIdentifier.h).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_TEXT_H
#define APPROX_RUNTIME_CORE_TEXT_H

#include <cstddef>
#include <string>

namespace approx::rt {

/// Returns `s` with every byte outside printable ASCII (0x20..0x7e) written
/// as `\xNN` and a backslash written as `\\`, so that the result is one line
/// of plain ASCII that still identifies the bytes.
std::string escapeBytes(const std::string &s);

/// `'` + escapeBytes(s) + `'`, for error messages (not std::quoted). Over
/// 200 bytes, only the first and last 96 are shown, with the count left out,
/// so that a message stays one readable line.
std::string quote(const std::string &s);

/// True when `s` is a PTX identifier as docs/manifest.md states it:
/// `[A-Za-z][A-Za-z0-9_$]*` or `[_$%][A-Za-z0-9_$]+`, at most 1024
/// characters (approx::ptx::checkName with NameRule::Ptx; declared here so
/// that the runtime's public headers need only runtime/include).
bool isPtxIdentifier(const std::string &s);

} // namespace approx::rt

#endif // APPROX_RUNTIME_CORE_TEXT_H
