//===- Quality.h - Output quality of a precision-scaled run -----*- C++ -*-===//
//
// PreScaler's (CGO'20, §5.1) error metric, the mean relative error of a
// program's outputs against its original (f64) run, and the target output
// quality (TOQ) test built on it: quality = 1 - mean relative error, a run
// passes when quality >= TOQ. One implementation, shared by the Session's
// trials (Session.h) and the PolyBench workloads (examples/precision/
// polybench, run-app --check).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_QUALITY_H
#define APPROX_RUNTIME_PRECISION_QUALITY_H

#include <cstdint>
#include <vector>

namespace approx::rt::precision {

/// Element errors of one output: PreScaler's mean relative error.
struct RelativeErrors {
  int64_t count = 0;     ///< elements compared
  double sumRel = 0;     ///< sum of the relative errors
  double maxRel = 0;     ///< the largest
  double floor = 0;      ///< the guard (below)
  int64_t guarded = 0;   ///< elements whose |reference| < floor
  int64_t nonFinite = 0; ///< elements where got is NaN/inf and ref is not
  /// sumRel / count (0 when count is 0); +inf if any nonFinite.
  double mean() const;
};

/// rel_i = |got_i - ref_i| / max(|ref_i|, floor), floor = 1e-6 * max_k
/// |ref_k| (the output's own scale; 1 if the reference is all zeros), so a
/// reference near zero (cancellation in 2DCONV, CORR, FDTD-2D) counts with
/// the output's scale instead of dividing by ~0. Equal values (both inf or
/// both NaN included) count 0.
RelativeErrors relativeErrors(const double *got, const double *ref,
                              int64_t n);

/// The errors of several outputs together (each with its own floor).
struct OutputsError {
  std::vector<RelativeErrors> perOutput; ///< one per compared array
  double sumRel = 0;
  int64_t count = 0, nonFinite = 0;
  /// Mean over all elements of all outputs; +inf if any nonFinite.
  double mean() const;
};

/// Compares got[i] with ref[i] for every i where ref[i] is not empty (an
/// empty reference array is not an output). A got array of another size
/// than its reference counts as all of its reference's elements non-finite.
OutputsError compareOutputs(const std::vector<std::vector<double>> &got,
                            const std::vector<std::vector<double>> &ref);

} // namespace approx::rt::precision

#endif // APPROX_RUNTIME_PRECISION_QUALITY_H
