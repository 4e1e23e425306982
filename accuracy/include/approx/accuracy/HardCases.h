//===- HardCases.h - Brute-force oracle for hard-to-round cases -*- C++ -*-===//
//
// Every (q, eps) hard-to-round case among the arguments X_j = lo + j * ulp
// (j < count): the x whose f(x) lies within eps ulp_q of a precision-q
// number, ulp_q taken in f(x)'s binade (raised to emin where a floor is
// set), an exact zero counting as a case. The definition is the one of
// approx-hrcs (docs/hrcs.md), and this file is the oracle its soundness is
// checked against, so it shares none of the search's code: each argument is
// evaluated in double with the C library, and MPFR (Ziv's strategy, through
// evaluateMpfr) decides every argument whose double distance lies within a
// margin (4 double ulps, twice glibc's documented bounds) of an eps, or near
// a boundary where no eps is settled; a sample of the double verdicts is
// checked against MPFR.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_ACCURACY_HARDCASES_H
#define APPROX_ACCURACY_HARDCASES_H

#include "approx/accuracy/Functions.h"

#include <cstdint>
#include <string>
#include <vector>

namespace approx::accuracy {

/// What the oracle evaluates.
struct HardCaseQuery {
  /// exp, exp2, log, log2, sin or cos.
  Func func = Func::Exp;
  /// The arguments X_j = lo + j * ulp, j < count. Every X_j must be a
  /// double (lo a multiple of ulp, |X_j| < 2^53 ulp): checked.
  double lo = 1, ulp = 0x1p-23;
  uint64_t count = 0;
  /// Boundaries are the precision-q numbers, 2 <= q <= 60.
  int q = 24;
  /// Results below 2^emin lie on the grid of binade 2^emin; 0: no floor.
  long emin = 0;
  /// The distances asked about, each in (0, 1/4], in ulp_q.
  std::vector<double> epsilons;
  /// Threads sharing the arguments.
  int threads = 1;
};

/// The answer: for each eps of the query, the ascending j of its cases.
struct HardCaseAnswer {
  std::vector<std::vector<uint64_t>> cases;
  /// Arguments MPFR decided (the rest were decided in double).
  uint64_t decidedByMpfr = 0;
};

/// Runs the oracle. False and a one-line `error` for a query it cannot
/// answer (another function, arguments that are not doubles, q or eps out
/// of range).
bool findHardCases(const HardCaseQuery &query, HardCaseAnswer &answer,
                   std::string &error);

/// The MPFR verdict alone for one argument: for each eps, whether x is a
/// case (Ziv's strategy up to 2^16 bits). Exposed for tests.
std::vector<bool> hardCaseByMpfr(Func func, double x, int q, long emin,
                                 const std::vector<double> &epsilons);

} // namespace approx::accuracy

#endif // APPROX_ACCURACY_HARDCASES_H
