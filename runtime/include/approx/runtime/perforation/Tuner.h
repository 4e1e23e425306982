//===- Tuner.h - choosing a perforation scheme and block shape --*- C++ -*-===//
//
// A module compiled with approx-perforation-raise carries, per kernel, a
// scheme knob (the site's `schemes`, in knob order) and optionally a block
// shape variant knob (variants named KERNEL__XxY). The paper's Figure 9
// shows that the best block shape changes with the scheme, so the tuner
// measures every scheme x reconstruction x block shape: its time and its
// error against the accurate output, marks the Pareto front (no other
// version is both faster and at most as wrong) and picks the fastest
// version whose error meets the QoS. The GPU is reached only through a
// measure function, so the search is unit tested without one.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PERFORATION_TUNER_H
#define APPROX_RUNTIME_PERFORATION_TUNER_H

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/perforation/Reference.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace approx::rt::perforation {

/// One version of a perforated kernel: a scheme at a block shape.
struct Candidate {
  std::string scheme;      ///< short name, e.g. "rows1:nn", for reports
  Scheme spec;             ///< the scheme itself (the manifest's payload)
  int64_t schemeValue = 0; ///< the scheme knob's value
  int64_t blockValue = -1; ///< the block knob's value; -1: no block knob
  unsigned blockX = 0, blockY = 0; ///< threads per block
  unsigned rowsPerThread = 1; ///< outputs per thread along y (KERNEL__XxYrK)
  /// The rows of outputs a block computes: blockY * rowsPerThread (the
  /// launch's grid is ceil(H / tileRows()) blocks high).
  unsigned tileRows() const { return blockY * rowsPerThread; }
  /// "rows1:nn 32x8", "rows1:nn 32x8r4".
  std::string label() const;
};

/// The knobs the tuner sets.
struct TuneKnobs {
  std::string scheme = "perforation";      ///< the scheme knob
  std::string block = "perforation_block"; ///< the block-shape variant knob
};

/// Every candidate of `kernel` in `m`: its perforation site's schemes, times
/// the block shapes of the variant knob that dispatches it (or
/// `defaultBlock` where none does). Errors name what is missing (no
/// perforation site for the kernel, no scheme knob, a variant not named
/// KERNEL__XxY[rK], no `accurate` scheme to measure against).
Expected<std::vector<Candidate>>
candidatesOf(const Manifest &m, const std::string &kernel,
             const TuneKnobs &knobs, std::pair<unsigned, unsigned> defaultBlock);

/// The largest halo (rows, cols) of `kernel`'s tile loads (their sites'
/// `halo`), the window reach the guard needs. An error when no tile-load
/// site of the kernel records one.
Expected<std::pair<int64_t, int64_t>> haloOf(const Manifest &m,
                                             const std::string &kernel);

/// One measured candidate.
struct Point {
  Candidate candidate;
  double ms = 0;        ///< median time
  double error = 0;     ///< against the reference; +inf if unusable
  bool pareto = false;  ///< on the (time, error) front
  bool feasible = false; ///< error <= QoS
};

/// What tune() found.
struct TuneResult {
  std::vector<Point> points; ///< in candidate order
  int best = -1;             ///< fastest feasible point; -1 if none
  double qos = 0;            ///< the bound used
};

/// What a measurement returns: (median ms, error).
using MeasureFn =
    std::function<Expected<std::pair<double, double>>(const Candidate &)>;

/// Measures every candidate, marks the Pareto front and picks the fastest
/// point with error <= qos (ties: the smaller error). A measurement error
/// ends the search with that error.
Expected<TuneResult> tune(const std::vector<Candidate> &candidates,
                          const MeasureFn &measure, double qos);

/// Marks `pareto` on the points no other point dominates (at most as slow
/// and at most as wrong, one of them strictly).
void markPareto(std::vector<Point> &points);

/// A Markdown table of every point (Pareto and pick marked); `metric`
/// names the error column; `baselineMs` (> 0) adds a speedup column.
std::string renderTable(const TuneResult &r, const std::string &metric,
                        double baselineMs);

/// An SVG of error (log scale) against time, the front joined, the pick
/// ringed.
std::string renderParetoSvg(const TuneResult &r, const std::string &title,
                            const std::string &metric);

} // namespace approx::rt::perforation

#endif // APPROX_RUNTIME_PERFORATION_TUNER_H
