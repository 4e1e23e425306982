//===- Plan.h - From (function, domain, p, q, eps) to packets ----*- C++ -*-===//
//
// The CPU side of the search (Sect. 3.1, 5.2):
//   1. the domain, of one sign, becomes argument indices j in [0, count),
//      binade after binade: X_j = lo_b + (j - j0_b) * ulp_b in binade b;
//   2. it is cut into pieces where f is monotone and f(X) stays in one
//      binade, so that F(j) = |f(X_j)| / ulp_q is smooth in j (pieces too
//      small or too close to a zero of f are evaluated directly by MPFR);
//   3. each piece is cut into units (Taylor intervals of M arguments): one
//      Taylor polynomial P of degree delta per unit, from MPFR, with its
//      remainder below eps / 1024;
//   4. each unit into packets of S intervals of N arguments: the tabulated
//      differences of a0, a1, a2 at a packet's first interval, exact modulo 1
//      to W 64-bit words, which is all a CPU loop or a GPU thread needs;
//   5. every error (remainder, MPFR rounding, tabulation, degree-1 and
//      degree-2 truncation, 64-bit fixed point) summed into the thresholds of
//      PhaseParams, so the filters never drop a true case.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_HRCS_PLAN_H
#define APPROX_HRCS_PLAN_H

#include "approx/hrcs/Function.h"
#include "approx/hrcs/Phases.h"

#include <cstdint>
#include <string>
#include <vector>

namespace approx::hrcs {

/// What to search. Strings are as the user typed them (hex floats allowed).
struct SearchParams {
  std::string function;
  std::string lo, hi;  ///< the domain [lo, hi)
  int argPrecision = 53; ///< p: precision of the arguments
  int precision = 0;     ///< q: boundaries are the precision-q numbers (0: p)
  /// Results below 2^emin lie on the fixed grid of binade 2^emin (IEEE
  /// subnormals: -1022 for binary64, -126 for binary32); 0: no such floor.
  long emin = 0;
  std::string epsilon = "0x1p-32"; ///< in units of ulp_q
  int intervalBits = 0; ///< log2 N; 0: chosen per piece
  int split = 8;        ///< phase-2 sub-intervals per interval
  int packetBits = -1;  ///< log2 S; -1: a whole unit (CPU) or 10 (GPU)
  std::string algorithm = "regular"; ///< lefevre | regular | auto
  int divisionThreshold = 3;
};

/// A piece of the domain: arguments [j0, j1), f's binade and sign there.
struct Piece {
  uint64_t j0 = 0, j1 = 0;
  bool direct = false; ///< evaluated argument by argument with MPFR
  long exponent = 0;   ///< 2^exponent <= |f| < 2^(exponent+1)
  int sign = 1;
  long argExp = 0;       ///< its arguments' spacing is 2^argExp
  int degree = 0;        ///< delta of the unit polynomials
  int unitBits = 0;      ///< log2 M
  int intervalBits = 0;  ///< log2 N
  Algorithm algorithm = Algorithm::Regular;
};

/// A unit of work (and of checkpointing): a Taylor interval of a piece, or
/// a whole direct piece.
struct Unit {
  uint32_t piece = 0;
  uint64_t j0 = 0, j1 = 0;
};

/// One packet: S intervals whose table starts at its first interval.
struct Packet {
  uint64_t j0 = 0;        ///< first argument
  uint64_t end = 0;       ///< one past the last argument of the piece
  uint32_t intervals = 0; ///< S (possibly fewer at the piece's end)
};

/// What the error budget of one unit is computed from (Plan::packets).
/// Units of arguments and ulp_q throughout.
struct BudgetInputs {
  mpfr_srcptr eps = nullptr;
  double log2Derivative = 0; ///< log2 max |f^(degree+1)| over the unit
  int degree = 0;            ///< delta, degree of P
  double unitArgs = 0;       ///< M (+ slack): largest offset in the unit
  long argExp = 0;           ///< ulp_x = 2^argExp
  long ulpExp = 0;           ///< ulp_q = 2^ulpExp
  Real valueBound{64};       ///< at least max |P| over the unit
  Real secondBound{64};      ///< at least max |P''| over the unit
  Real thirdBound{64};       ///< at least max |P'''| over the unit
  mpfr_prec_t coefPrecision = 0; ///< MPFR precision of P's coefficients
  uint64_t intervalArgs = 0;     ///< N
  uint64_t split = 1;            ///< sub-intervals per interval
  uint64_t packetIntervals = 1;  ///< S
  uint64_t packets = 1;          ///< packets of the unit (second level)
  int words = 2;                 ///< W: 64-bit words of a stored table entry
  long tableBits = 0;            ///< bits of the exact second-level tables
};

/// The error budget of one unit, term by term (docs/hrcs.md, "Error
/// budget"): each term an upper bound in ulp_q computed with MPFR rounding
/// upward, and the three thresholds rounded up to their fixed point.
struct ErrorBudget {
  /// log2 of each term, for reports: Taylor remainder R, coefficient
  /// rounding C, tabulation T, degree-1 truncation over an interval Q1, the
  /// interval's degree-3 remainder K, degree-1 truncation over a
  /// sub-interval Q2, and the fixed-point terms X1, X2, X3.
  double log2R = 0, log2C = 0, log2T = 0, log2Q1 = 0, log2K = 0, log2Q2 = 0,
         log2X1 = 0, log2X2 = 0, log2X3 = 0;
  uint64_t eps1 = 0; ///< eps + R + C + T + Q1 + X1, units of 2^-64
  uint64_t eps2 = 0; ///< eps + R + C + T + K + Q2 + X2
  U128 eps3;         ///< eps + R + C + T + K + X3
  /// What phase2Threshold needs for another split: eps + R + C + T + K and
  /// max|P''|, each rounded up to a double, and N.
  double upCommonK = 0, upSecond = 0;
  uint64_t intervalArgs = 0;
  /// Empty when every term is finite; otherwise which one is not: the unit
  /// cannot be searched soundly and the run stops (one line).
  std::string unproven;
};

/// The budget of one unit from its inputs (pure; Plan::packets calls it).
ErrorBudget errorBudget(const BudgetInputs &in);

/// Phase 2's threshold for `split` sub-intervals: eps + R + C + T + K + Q2 +
/// X2 (errorBudget's eps2 comes from here too).
uint64_t phase2Threshold(const ErrorBudget &b, uint64_t split);

/// log2 of (S+1)^delta + N (S+1)^(delta-1) + N^2/2 (S+1)^(delta-2): the
/// most a stored table entry's error is multiplied by in the models of
/// phases 1-3 (it chooses the table width).
double tabulationGrowth(uint64_t S, uint64_t N, int delta);

/// The packets of one unit and the thresholds they are searched with.
struct UnitPackets {
  ErrorBudget budget;
  PhaseParams phase;
  int degree = 0;
  int words = 0;
  std::vector<Packet> packets;
  /// The packets' tables, one after the other: the entries Delta^i a_j,
  /// i + j <= degree, in tableEntry order, `words` words each.
  std::vector<uint64_t> tables;
  size_t tableStride() const { return (size_t)tableEntries(degree) * words; }
  const uint64_t *table(size_t k) const {
    return tables.data() + k * tableStride();
  }
};

/// A parsed, validated search and its pieces.
class Plan {
public:
  /// Parses and validates; on failure returns false and sets `error` to a
  /// one-line message.
  bool init(const SearchParams &params, bool forGpu, std::string &error);

  const SearchParams &params() const { return params_; }
  const Function &function() const { return *fn_; }
  int argPrecision() const { return p_; }
  int precision() const { return q_; }
  uint64_t argCount() const { return count_; }
  /// The binades of the domain (argument indices are global across them).
  size_t binades() const { return segments_.size(); }
  const std::vector<Piece> &pieces() const { return pieces_; }
  const std::vector<Unit> &units() const { return units_; }
  /// The parameters as one line: what a resumed run must match.
  std::string canonical() const;

  /// X_j exactly (x must have precision >= p).
  void argument(mpfr_ptr x, uint64_t j) const;
  /// The packets of unit `u` (MPFR; thread-safe).
  UnitPackets packets(const Unit &u) const;
  /// Makes `p`, packets of unit `u` from a plan of the same domain, epsilon
  /// and precisions but another split or algorithm, this plan's: the same
  /// tables, this plan's split, algorithm and phase-2 threshold.
  void adopt(UnitPackets &p, const Unit &u) const;
  /// The exponent of y's rounding grid: E with 2^E <= |y| < 2^(E+1),
  /// raised to emin where a floor is set.
  long gridExponent(mpfr_srcptr y) const;
  /// log2 of eps.
  double log2Eps() const { return log2Eps_; }
  mpfr_srcptr epsilon() const { return eps_; }

  /// Most binades one domain may span.
  static constexpr size_t kMaxBinades = 4096;

private:
  /// A binade of the domain: X_j = lo + (j - j0) 2^argExp, j0 <= j < j0 +
  /// count.
  struct Segment {
    Real lo{256};
    long argExp = 0;
    uint64_t j0 = 0, count = 0;
  };
  const Segment &segmentAt(uint64_t j) const;
  const Segment &segmentOf(mpfr_srcptr x) const;
  void cut(uint64_t j0, uint64_t j1, std::vector<Piece> &out) const;
  void planPiece(Piece &pc) const;

  SearchParams params_;
  const Function *fn_ = nullptr;
  int p_ = 0, q_ = 0;
  bool gpu_ = false;
  Real eps_{128};
  std::vector<Segment> segments_;
  uint64_t count_ = 0;
  double log2Eps_ = 0;
  std::vector<Piece> pieces_;
  std::vector<Unit> units_;
};

} // namespace approx::hrcs

#endif // APPROX_HRCS_PLAN_H
