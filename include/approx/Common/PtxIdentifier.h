//===- PtxIdentifier.h - One PTX identifier rule ----------------*- C++ -*-===//
//
// Kernel, knob and symbol names become PTX identifiers. The compiler refuses
// a name it cannot emit (include/approx/Dialect/PtxNames.h) and the runtime
// refuses a manifest name that cannot be a PTX symbol (runtime/core); both
// ask this header, so the two rules cannot drift apart. Plain C++17,
// header-only and free of LLVM types: the runtime builds without MLIR.
//
// The PTX ISA's grammar (docs/manifest.md): `[A-Za-z][A-Za-z0-9_$]*` or
// `[_$%][A-Za-z0-9_$]+`, at most kMaxIdentifierLength characters. What the
// compiler emits is narrower (NameRule::Emitted): LLVM's NVPTX printer does
// not print a leading `%` (reserved for predefined and compiler-generated
// names), and `WARP_SZ` is predefined. Checked against ptxas 13.0 and LLVM
// 22 (test/Dialect/core/names.mlir).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_COMMON_PTXIDENTIFIER_H
#define APPROX_COMMON_PTXIDENTIFIER_H

#include <cstddef>
#include <string_view>

namespace approx::ptx {

/// The longest identifier accepted (PTX asks implementations for at least
/// 1024 characters).
inline constexpr size_t kMaxIdentifierLength = 1024;

/// Which names a check accepts.
enum class NameRule {
  /// Any PTX identifier, as the PTX ISA (and docs/manifest.md) states it:
  /// what a manifest may name.
  Ptx,
  /// A PTX identifier the compiler can emit: no leading `%` and not
  /// `WARP_SZ`.
  Emitted,
};

/// What is wrong with a name; the checks run in this order.
enum class NameProblem {
  None,
  Empty,
  TooLong,         ///< over kMaxIdentifierLength characters.
  StartsWithDigit, ///< the first character is a digit.
  BadFirst,        ///< any other first character the rule refuses.
  BadChar,         ///< a later character outside [A-Za-z0-9_$].
  Lone,            ///< `_`, `$` or `%` alone.
  Reserved,        ///< `WARP_SZ` (NameRule::Emitted only).
};

/// The verdict on one name.
struct NameCheck {
  NameProblem problem = NameProblem::None;
  /// The offending byte's index (BadFirst: 0; BadChar: the first bad one).
  size_t at = 0;
  /// True when the name is accepted.
  constexpr bool ok() const { return problem == NameProblem::None; }
};

namespace detail {
// Byte values, not <cctype>: the C library's locale must not decide.
constexpr bool isLetter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool isFollower(char c) {
  return isLetter(c) || isDigit(c) || c == '_' || c == '$';
}
} // namespace detail

/// Checks `name` under `rule`; the first problem found, in NameProblem's
/// order.
constexpr NameCheck checkName(std::string_view name,
                              NameRule rule = NameRule::Ptx) {
  if (name.empty())
    return {NameProblem::Empty, 0};
  if (name.size() > kMaxIdentifierLength)
    return {NameProblem::TooLong, 0};
  const char first = name.front();
  const bool percentOk = rule == NameRule::Ptx;
  if (!detail::isLetter(first) && first != '_' && first != '$' &&
      !(first == '%' && percentOk))
    return {detail::isDigit(first) ? NameProblem::StartsWithDigit
                                   : NameProblem::BadFirst,
            0};
  for (size_t i = 1; i < name.size(); ++i)
    if (!detail::isFollower(name[i]))
      return {NameProblem::BadChar, i};
  if (name.size() == 1 && !detail::isLetter(first))
    return {NameProblem::Lone, 0};
  if (rule == NameRule::Emitted && name == "WARP_SZ")
    return {NameProblem::Reserved, 0};
  return {};
}

/// True when `name` is accepted under `rule`.
constexpr bool isIdentifier(std::string_view name,
                            NameRule rule = NameRule::Ptx) {
  return checkName(name, rule).ok();
}

} // namespace approx::ptx

#endif // APPROX_COMMON_PTXIDENTIFIER_H
