//===- PtxNames.cpp - which names can become PTX symbols ------------------===//
//
// See PtxNames.h. The rule is approx/Common/PtxIdentifier.h's (checked
// against ptxas 13.0 and LLVM 22's NVPTX printer,
// test/Dialect/core/names.mlir); here it gets the compiler's wording.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
// The rule is shared with the runtime's manifest reader. Not included by
// PtxNames.h: its top-level `approx` namespace would make `approx::`
// ambiguous beside mlir::approx in every pass.
#include "approx/Common/PtxIdentifier.h"

static_assert(mlir::approx::kMaxPtxIdentifierLength ==
                  ::approx::ptx::kMaxIdentifierLength,
              "the compiler and the runtime accept the same identifiers");

#include "llvm/Support/raw_ostream.h"

using namespace mlir::approx;

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
  using ::approx::ptx::NameProblem;
  ::approx::ptx::NameCheck check =
      ::approx::ptx::checkName(std::string_view(name.data(), name.size()),
                               ::approx::ptx::NameRule::Emitted);
  if (check.ok())
    return true;
  if (!why)
    return false;
  switch (check.problem) {
  case NameProblem::None:
    break;
  case NameProblem::Empty:
    *why = "is empty";
    break;
  case NameProblem::TooLong:
    *why = "is longer than " + std::to_string(kMaxPtxIdentifierLength) +
           " characters";
    break;
  case NameProblem::StartsWithDigit:
    *why = "starts with a digit";
    break;
  case NameProblem::BadFirst:
    *why = "starts with " + quoteName(name.take_front(1));
    break;
  case NameProblem::BadChar:
    *why = "contains " + quoteName(name.substr(check.at, 1));
    break;
  case NameProblem::Lone:
    *why = "is a lone " + quoteName(name);
    break;
  case NameProblem::Reserved:
    *why = "is PTX's predefined WARP_SZ";
    break;
  }
  return false;
}
