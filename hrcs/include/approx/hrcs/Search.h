//===- Search.h - Running a hard-to-round search -----------------*- C++ -*-===//
//
// Runs a Plan's units on a backend (the single-core CPU loop here, or the
// GPU kernels of cuda/GpuSearch.cu), confirms every surviving candidate with
// MPFR, and keeps per-phase counts and times (the paper's Tables 1, 5, 6).
// A run writes into one output directory: the cases in CORE-MATH's .wc
// style, a stats JSON, and a checkpoint from which an interrupted run
// resumes (refused when the parameters differ).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_HRCS_SEARCH_H
#define APPROX_HRCS_SEARCH_H

#include "approx/hrcs/Plan.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace approx::hrcs {

/// Counts and seconds per phase.
struct PhaseStats {
  uint64_t arguments = 0;   ///< arguments covered
  uint64_t phase1 = 0;      ///< intervals tested in phase 1
  uint64_t phase2 = 0;      ///< intervals that entered phase 2
  uint64_t phase3 = 0;      ///< sub-intervals searched exhaustively
  uint64_t candidates = 0;  ///< arguments phase 3 (or a direct piece) kept
  uint64_t direct = 0;      ///< arguments of direct pieces (MPFR each)
  double polySeconds = 0, phase1Seconds = 0, phase2Seconds = 0,
         phase3Seconds = 0, confirmSeconds = 0;
  void add(const PhaseStats &o);
};

/// What the backends run: the packets of some units, returning candidate
/// argument indices (unsorted) and filling the phase counts and times. The
/// units are the caller's to discard: a backend may move from them.
class Backend {
public:
  virtual ~Backend() = default;
  virtual const char *name() const = 0;
  virtual bool run(std::vector<UnitPackets> &units,
                   std::vector<uint64_t> &candidates, PhaseStats &stats,
                   std::string &error) = 0;
};

/// The CPU backend: the same per-packet code as the GPU's, on one core
/// (the paper's sequential baseline) or `threads` cores, packets shared out.
class CpuBackend final : public Backend {
public:
  explicit CpuBackend(int threads = 1) : threads_(threads < 1 ? 1 : threads) {}
  const char *name() const override { return "cpu"; }
  bool run(std::vector<UnitPackets> &units,
           std::vector<uint64_t> &candidates, PhaseStats &stats,
           std::string &error) override;

private:
  int threads_;
};

/// Several backends at once, one host thread each (several GPUs of one
/// node): each part takes chunks of a batch's units, largest first, as it
/// finishes the last; candidates merged; counts add up, phase times are the
/// slowest part's.
class SplitBackend final : public Backend {
public:
  explicit SplitBackend(std::vector<std::unique_ptr<Backend>> parts)
      : parts_(std::move(parts)) {}
  const char *name() const override { return parts_[0]->name(); }
  size_t size() const { return parts_.size(); }
  bool run(std::vector<UnitPackets> &units,
           std::vector<uint64_t> &candidates, PhaseStats &stats,
           std::string &error) override;

private:
  std::vector<std::unique_ptr<Backend>> parts_;
};

/// A confirmed hard-to-round case.
struct Case {
  uint64_t index = 0;    ///< j: X_j = lo + j ulp_x
  std::string argument;  ///< hex float
  std::string value;     ///< f(x) in hex, 24 bits more than q
  double log2Distance = 0; ///< log2 |F cmod 1| in ulp_q (-inf: exact)
};

/// MPFR's verdict on argument j: true (and `c` filled) when |F cmod 1| <
/// eps, by Ziv's strategy (the precision grows until the verdict is sure).
bool confirmCase(const Plan &plan, uint64_t j, Case &c);

/// Options of a run.
struct RunOptions {
  std::string outDir;  ///< created if missing; empty: in memory, no files
  bool resume = false; ///< continue a checkpoint in outDir
  bool progress = true;
  int batchUnits = 0;  ///< units per backend call (0: automatic)
  int threads = 1;     ///< CPU threads building packets
  /// Stop (as if interrupted, checkpoint kept) once this many units are
  /// done; 0: run to the end. For tests of --resume.
  size_t stopAfterUnits = 0;
  /// This process's share of the units: those with index % shareCount ==
  /// shareIndex (cyclic, as the paper's MPI runs; 1 and 0: all of them).
  int shareIndex = 0, shareCount = 1;
  /// Where a unit's packets come from (called from several threads);
  /// empty: Plan::packets. A caller that searches one domain under several
  /// splits or algorithms can compute the tables once and Plan::adopt them
  /// (approx-hrcs-verify does).
  std::function<UnitPackets(const Plan &, const Unit &)> packets;
};

/// The result of a run.
struct RunResult {
  PhaseStats stats;
  std::vector<Case> cases;
  double seconds = 0;
  std::string wcPath, statsPath;
  bool interrupted = false;
  /// (argument index, .wc line) of every case, ascending: what a parallel
  /// run's processes merge.
  std::vector<std::pair<uint64_t, std::string>> lines;
};

/// The .wc text of `lines` (ascending indices) with its header.
std::string wcText(const Plan &plan, const std::vector<std::pair<uint64_t, std::string>> &lines);
/// stats.json of a finished run (of one process, or merged).
std::string statsJsonText(const Plan &plan, const char *backend,
                          const PhaseStats &stats, size_t cases,
                          double seconds, int processes);

/// Runs the whole plan; false and a one-line `error` on failure. With
/// stopAfterUnits, returns true and `interrupted` without writing results.
bool runSearch(const Plan &plan, Backend &backend, const RunOptions &opts,
               RunResult &result, std::string &error);

/// Every case among arguments [j0, j1) by MPFR alone (test oracle, slow).
std::vector<uint64_t> bruteForce(const Plan &plan, uint64_t j0, uint64_t j1);

} // namespace approx::hrcs

#endif // APPROX_HRCS_SEARCH_H
