//===- Plan.h - From (function, domain, p, q, eps) to packets ----*- C++ -*-===//
//
// The CPU side of the search (Sect. 3.1, 5.2):
//   1. the domain, one binade or a segment of one, becomes argument indices
//      j in [0, count): X_j = lo + j * ulp_x;
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
  std::string algorithm = "auto"; ///< lefevre | regular | auto
  int divisionThreshold = 3;
};

/// A piece of the domain: arguments [j0, j1), f's binade and sign there.
struct Piece {
  uint64_t j0 = 0, j1 = 0;
  bool direct = false; ///< evaluated argument by argument with MPFR
  long exponent = 0;   ///< 2^exponent <= |f| < 2^(exponent+1)
  int sign = 1;
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

/// The packets of one unit and the thresholds they are searched with.
struct UnitPackets {
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
  const std::vector<Piece> &pieces() const { return pieces_; }
  const std::vector<Unit> &units() const { return units_; }
  /// The parameters as one line: what a resumed run must match.
  std::string canonical() const;

  /// X_j exactly (x must have precision >= p).
  void argument(mpfr_ptr x, uint64_t j) const;
  /// The packets of unit `u` (MPFR; thread-safe).
  UnitPackets packets(const Unit &u) const;
  /// The exponent of y's rounding grid: E with 2^E <= |y| < 2^(E+1),
  /// raised to emin where a floor is set.
  long gridExponent(mpfr_srcptr y) const;
  /// log2 of eps.
  double log2Eps() const { return log2Eps_; }
  mpfr_srcptr epsilon() const { return eps_; }

private:
  void cut(uint64_t j0, uint64_t j1, std::vector<Piece> &out) const;
  void planPiece(Piece &pc) const;

  SearchParams params_;
  const Function *fn_ = nullptr;
  int p_ = 0, q_ = 0;
  bool gpu_ = false;
  Real lo_{256}, ulp_{64}, eps_{128};
  long argExp_ = 0; ///< ulp_x = 2^argExp_
  uint64_t count_ = 0;
  double log2Eps_ = 0;
  std::vector<Piece> pieces_;
  std::vector<Unit> units_;
};

} // namespace approx::hrcs

#endif // APPROX_HRCS_PLAN_H
