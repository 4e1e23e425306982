//===- Functions.cpp - Function and rounding-mode names -------------------===//
//
// The name tables behind Functions.h.
//
//===----------------------------------------------------------------------===//
#include "approx/accuracy/Functions.h"

namespace approx::accuracy {

const char *funcName(Func f) {
  switch (f) {
  case Func::Exp:
    return "exp";
  case Func::Exp2:
    return "exp2";
  case Func::Expm1:
    return "expm1";
  case Func::Log:
    return "log";
  case Func::Log2:
    return "log2";
  case Func::Log10:
    return "log10";
  case Func::Log1p:
    return "log1p";
  case Func::Sin:
    return "sin";
  case Func::Cos:
    return "cos";
  case Func::Tan:
    return "tan";
  case Func::Tanh:
    return "tanh";
  case Func::Sqrt:
    return "sqrt";
  case Func::Rsqrt:
    return "rsqrt";
  case Func::Pow:
    return "pow";
  }
  return "?";
}

std::optional<Func> parseFunc(std::string_view name) {
  for (Func f : kAllFuncs)
    if (name == funcName(f))
      return f;
  return std::nullopt;
}

int funcArity(Func f) { return f == Func::Pow ? 2 : 1; }

const char *roundingModeName(RoundingMode m) {
  switch (m) {
  case RoundingMode::NearestEven:
    return "rne";
  case RoundingMode::TowardZero:
    return "rtz";
  case RoundingMode::Upward:
    return "rup";
  case RoundingMode::Downward:
    return "rdn";
  }
  return "?";
}

std::optional<RoundingMode> parseRoundingMode(std::string_view name) {
  for (RoundingMode m : kAllRoundingModes)
    if (name == roundingModeName(m))
      return m;
  return std::nullopt;
}

} // namespace approx::accuracy
