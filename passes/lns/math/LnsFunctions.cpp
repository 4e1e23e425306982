//===- LnsFunctions.cpp - Reference sb, db and cb -------------------------===//
//
// sb, db and cb through log1p/expm1 so that no cancellation spoils them:
// sb = log1p(2^x)/ln2, db = log1p(-2^x)/ln2 where 2^x <= 1/2 and
// log2(-expm1(x ln2)) closer to 0, cb = log2(expm1(x ln2)/x).
//
//===----------------------------------------------------------------------===//

#include "LnsFunctions.h"

#include <cmath>
#include <limits>

namespace approx::lns {

namespace {
constexpr long double kLn2L = 0.693147180559945309417232121458176568L;
constexpr double kLn2 = 0.693147180559945309417232121458176568;
} // namespace

long double sbReference(long double x) {
  if (std::isnan(x))
    return x;
  if (std::isinf(x))
    return x < 0 ? 0.0L : x;
  if (x > 0)
    return x + sbReference(-x);
  return log1pl(exp2l(x)) / kLn2L;
}

long double dbReference(long double x) {
  if (std::isnan(x))
    return x;
  if (x == 0)
    return -std::numeric_limits<long double>::infinity();
  if (std::isinf(x))
    return x < 0 ? 0.0L : x;
  if (x > 0)
    return x + dbReference(-x);
  if (x <= -1)
    return log1pl(-exp2l(x)) / kLn2L;
  return log2l(-expm1l(x * kLn2L));
}

long double cbReference(long double x) {
  if (std::isnan(x))
    return x;
  if (x == 0)
    return log2l(kLn2L);
  if (std::isinf(x))
    return x; // (1 - 2^x)/(-x) -> 0 at -inf, -> inf at +inf
  return log2l(expm1l(x * kLn2L) / x);
}

long double lnsReference(LnsFunction f, long double x) {
  switch (f) {
  case LnsFunction::Sb:
    return sbReference(x);
  case LnsFunction::Db:
    return dbReference(x);
  case LnsFunction::Cb:
    return cbReference(x);
  }
  return std::numeric_limits<long double>::quiet_NaN();
}

double sbFast(double x) {
  if (std::isnan(x))
    return x;
  if (std::isinf(x))
    return x < 0 ? 0.0 : x;
  if (x > 0)
    return x + sbFast(-x);
  return std::log1p(std::exp2(x)) / kLn2;
}

double dbFast(double x) {
  if (std::isnan(x))
    return x;
  if (x == 0)
    return -std::numeric_limits<double>::infinity();
  if (std::isinf(x))
    return x < 0 ? 0.0 : x;
  if (x > 0)
    return x + dbFast(-x);
  if (x <= -1)
    return std::log1p(-std::exp2(x)) / kLn2;
  return std::log2(-std::expm1(x * kLn2));
}

double cbFast(double x) {
  if (std::isnan(x))
    return x;
  if (x == 0)
    return std::log2(kLn2);
  if (std::isinf(x))
    return x;
  return std::log2(std::expm1(x * kLn2) / x);
}

double lnsFast(LnsFunction f, double x) {
  switch (f) {
  case LnsFunction::Sb:
    return sbFast(x);
  case LnsFunction::Db:
    return dbFast(x);
  case LnsFunction::Cb:
    return cbFast(x);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

const char *lnsFunctionName(LnsFunction f) {
  switch (f) {
  case LnsFunction::Sb:
    return "sb";
  case LnsFunction::Db:
    return "db";
  case LnsFunction::Cb:
    return "cb";
  }
  return "?";
}

} // namespace approx::lns
