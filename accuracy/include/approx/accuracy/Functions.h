//===- Functions.h - Referenced functions and rounding modes ----*- C++ -*-===//
//
// Names for the functions the MPFR references cover and for the IEEE 754
// rounding modes they round to. Kept apart from Mpfr.h so that tools can
// parse command lines and data files without MPFR.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_ACCURACY_FUNCTIONS_H
#define APPROX_ACCURACY_FUNCTIONS_H

#include <optional>
#include <string_view>

namespace approx::accuracy {

/// A function with an MPFR reference. Rsqrt is 1/sqrt(x); Pow is x^y.
enum class Func {
  Exp,
  Exp2,
  Expm1,
  Log,
  Log2,
  Log10,
  Log1p,
  Sin,
  Cos,
  Tan,
  Tanh,
  Sqrt,
  Rsqrt,
  Pow,
};
/// Every Func, in declaration order.
inline constexpr Func kAllFuncs[] = {
    Func::Exp,   Func::Exp2,  Func::Expm1, Func::Log, Func::Log2,
    Func::Log10, Func::Log1p, Func::Sin,   Func::Cos, Func::Tan,
    Func::Tanh,  Func::Sqrt,  Func::Rsqrt, Func::Pow};

/// The C name of `f` ("exp", ..., "rsqrt", "pow").
const char *funcName(Func f);
/// The Func called `name` (as funcName spells it), if any.
std::optional<Func> parseFunc(std::string_view name);
/// 1, or 2 for Pow.
int funcArity(Func f);

/// An IEEE 754 rounding-direction attribute (roundTiesToAway is left out:
/// MPFR does not implement it).
enum class RoundingMode { NearestEven, TowardZero, Upward, Downward };
/// Every RoundingMode, in declaration order.
inline constexpr RoundingMode kAllRoundingModes[] = {
    RoundingMode::NearestEven, RoundingMode::TowardZero, RoundingMode::Upward,
    RoundingMode::Downward};
/// "rne", "rtz", "rup", "rdn".
const char *roundingModeName(RoundingMode m);
/// The RoundingMode called `name` (as roundingModeName spells it), if any.
std::optional<RoundingMode> parseRoundingMode(std::string_view name);

} // namespace approx::accuracy

#endif // APPROX_ACCURACY_FUNCTIONS_H
