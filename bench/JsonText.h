//===- JsonText.h - a string as JSON text, for the bench programs --------===//
//
// The bench programs write their JSON by hand (no JSON library on the nvcc
// side of the GPU machine's build); this is their one string quoting.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdio>
#include <string>

/// `s` as a JSON string, quotes included: quotes, backslashes and control
/// characters escaped.
inline std::string jsonString(const std::string &s) {
  std::string o = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') {
      o += '\\';
      o += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", unsigned(static_cast<unsigned char>(ch)));
      o += b;
    } else {
      o += ch;
    }
  }
  return o + "\"";
}
