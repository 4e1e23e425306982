//===- LnsFunctions.h - Reference sb, db and cb ---------------------------===//
//
// The functions an LNS adder needs, as the numerics contract defines them
// (docs/lns.md, "Numerics"):
//   sb(x) = log2(1 + 2^x)      db(x) = log2|1 - 2^x|
//   cb(x) = log2((1 - 2^x) / (-x)), smooth through cb(0) = log2(ln 2), which
//   the tables hold on [-1, 0] in place of db's singularity at 0.
// The long double versions are the references the tests and the error
// reports compare against; the double versions are what the table builders
// fit with, for speed (they agree with the long double ones to about 2^-52
// absolute, far below any table's error; LnsTablesTest checks it).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_LNS_MATH_LNSFUNCTIONS_H
#define APPROX_LNS_MATH_LNSFUNCTIONS_H

namespace approx::lns {

/// The tables cover x in [-kLnsRange, 0]; below it every function is
/// replaced by 0 (the true values there are below 2^-31.4).
inline constexpr int kLnsRange = 32;
/// The most segments per unit of x a table may have.
inline constexpr unsigned kMaxSegmentsPerUnit = 1024;

/// The three functions; the value is the channel / coefficient-row index
/// (0 = sb, 1 = db, 2 = cb) every table layout uses.
enum class LnsFunction { Sb = 0, Db = 1, Cb = 2 };

/// sb(x) = log2(1 + 2^x) for every x: sb(-inf) = 0, sb(+inf) = +inf,
/// x > 0 as x + sb(-x); NaN gives NaN.
long double sbReference(long double x);
/// db(x) = log2|1 - 2^x| for every x: db(0) = -inf, db(-inf) = 0,
/// db(+inf) = +inf, x > 0 as x + db(-x); NaN gives NaN.
long double dbReference(long double x);
/// cb(x) = log2((1 - 2^x) / (-x)) for every x (the quotient is positive on
/// both sides of 0): cb(0) = log2(ln 2), cb(-inf) = -inf, cb(+inf) = +inf.
long double cbReference(long double x);
/// One of the three by enum.
long double lnsReference(LnsFunction f, long double x);

/// The same functions in double (libm's exp2/log1p/expm1; relative error a
/// few ulps of double), used by the table builders.
double sbFast(double x);
double dbFast(double x);
double cbFast(double x);
double lnsFast(LnsFunction f, double x);

/// "sb", "db" or "cb".
const char *lnsFunctionName(LnsFunction f);

} // namespace approx::lns

#endif // APPROX_LNS_MATH_LNSFUNCTIONS_H
