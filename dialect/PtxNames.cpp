//===- PtxNames.cpp - which names can become PTX symbols ------------------===//
//
// See PtxNames.h. The rules were checked against ptxas 13.0 and LLVM 22's
// NVPTX printer (test/Dialect/core/names.mlir).
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::approx;

static bool isFollowChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$';
}

static void appendEscaped(std::string &out, llvm::StringRef text) {
  for (unsigned char c : text) {
    if (c < 0x20 || c >= 0x7f || c == '\\' || c == '\'') {
      static const char *hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += char(c);
    }
  }
}

/// Appends `text` escaped; over 200 bytes, only its first and last 96.
static void appendShortened(std::string &out, llvm::StringRef text) {
  constexpr size_t kMaxShown = 200, kKept = 96;
  if (text.size() <= kMaxShown)
    return appendEscaped(out, text);
  appendEscaped(out, text.take_front(kKept));
  out += "...[" + std::to_string(text.size() - 2 * kKept) + " bytes]...";
  appendEscaped(out, text.take_back(kKept));
}

std::string mlir::approx::quoteName(llvm::StringRef name) {
  std::string out = "'";
  appendShortened(out, name);
  return out + "'";
}

std::string mlir::approx::describeAttr(mlir::Attribute attr) {
  std::string printed;
  llvm::raw_string_ostream os(printed);
  attr.print(os);
  std::string out;
  appendShortened(out, printed);
  return out;
}

bool mlir::approx::isValidPtxIdentifier(llvm::StringRef name,
                                        std::string *why) {
  auto fail = [&](const std::string &reason) {
    if (why)
      *why = reason;
    return false;
  };
  if (name.empty())
    return fail("is empty");
  if (name.size() > kMaxPtxIdentifierLength)
    return fail("is longer than " + std::to_string(kMaxPtxIdentifierLength) +
                " characters");
  char first = name.front();
  if (!llvm::isAlpha(first) && first != '_' && first != '$') {
    if (llvm::isDigit(first))
      return fail("starts with a digit");
    return fail("starts with " + quoteName(name.take_front(1)));
  }
  for (char c : name.drop_front())
    if (!isFollowChar(c))
      return fail("contains " + quoteName(llvm::StringRef(&c, 1)));
  if (name.size() == 1 && (first == '_' || first == '$'))
    return fail("is a lone " + quoteName(name));
  if (name == "WARP_SZ")
    return fail("is PTX's predefined WARP_SZ");
  return true;
}
