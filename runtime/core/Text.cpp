//===- Text.cpp - Escaping and the PTX identifier rule
//---------------------===//
//
// Byte-wise, locale independent: what is printable is decided by value, not
// by the C library's current locale.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Text.h"

#include "approx/Common/PtxIdentifier.h"
#include "approx/Common/Quote.h"

namespace approx::rt {

std::string escapeBytes(const std::string &s) {
  return ::approx::text::escapeBytes(s);
}

std::string quote(const std::string &s) { return ::approx::text::quote(s); }

bool isPtxIdentifier(const std::string &s) {
  return ptx::isIdentifier(s, ptx::NameRule::Ptx);
}

} // namespace approx::rt
