//===- Quote.h - Hostile text as one readable line --------------*- C++ -*-===//
//
// How every one-line error shows a value that came from outside (a name, a
// path, a command-line argument): bytes outside printable ASCII as `\xNN`,
// long values cut in the middle. Header-only, shared by the runtime
// (approx::rt::escapeBytes/quote) and the tools' command line
// (approx::cli::escape/quote), which link nothing of each other.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_COMMON_QUOTE_H
#define APPROX_COMMON_QUOTE_H

#include <cstddef>
#include <string>

namespace approx::text {

/// `s` as one line of plain ASCII: bytes outside 0x20..0x7e as `\xNN`, a
/// backslash as `\\`.
inline std::string escapeBytes(const std::string &s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\\') {
      out += "\\\\";
    } else if (c >= 0x20 && c <= 0x7e) {
      out.push_back(char(c));
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

/// `'` + escapeBytes(s) + `'`; over 200 bytes only the first and last 96
/// are shown, so that a hostile value still gives a readable line.
inline std::string quote(const std::string &s) {
  constexpr size_t kMaxShown = 200, kKept = 96;
  if (s.size() <= kMaxShown)
    return "'" + escapeBytes(s) + "'";
  return "'" + escapeBytes(s.substr(0, kKept)) + "...[" +
         std::to_string(s.size() - 2 * kKept) + " bytes]..." +
         escapeBytes(s.substr(s.size() - kKept)) + "'";
}

} // namespace approx::text

#endif // APPROX_COMMON_QUOTE_H
