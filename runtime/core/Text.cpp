//===- Text.cpp - Escaping and the PTX identifier rule ---------------------===//
//
// Byte-wise, locale independent: what is printable is decided by value, not
// by the C library's current locale.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Text.h"

#include "approx/Common/PtxIdentifier.h"

namespace approx::rt {

std::string escapeBytes(const std::string &s) {
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

std::string quote(const std::string &s) {
  constexpr size_t kMaxShown = 200, kKept = 96;
  if (s.size() <= kMaxShown)
    return "'" + escapeBytes(s) + "'";
  return "'" + escapeBytes(s.substr(0, kKept)) + "...[" +
         std::to_string(s.size() - 2 * kKept) + " bytes]..." +
         escapeBytes(s.substr(s.size() - kKept)) + "'";
}

bool isPtxIdentifier(const std::string &s) {
  return ptx::isIdentifier(s, ptx::NameRule::Ptx);
}

} // namespace approx::rt
