//===- Metrics.h - Output quality against the λ=0 reference ------*- C++ -*-===//
//
// Error metrics over flattened outputs (all compared output buffers, in
// order, as doubles). The reference is the kernel's own output at λ=0 (all
// warps precise), as in the paper.
//
// Zero references: the mean relative error |out-ref|/|ref| is undefined where
// ref == 0. With ZeroRefPolicy::Absolute (the default) such an element
// contributes its absolute error |out| instead (so an exact 0 contributes 0
// and a wrong value is not hidden); with ZeroRefPolicy::Skip it is left out
// of the mean. Either way the count of such elements is reported.
// Non-finite values: an element whose ref and out are both NaN, or both the
// same infinity, contributes 0; any other pair involving NaN/inf makes every
// metric +inf (a QoS can never accept it) and is counted in
// nonFiniteMismatches.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_METRICS_H
#define APPROX_RUNTIME_METRICS_H

#include "approx/runtime/core/Status.h"

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace approx::rt {

/// What the mean relative error does where the reference is 0.
enum class ZeroRefPolicy {
  Absolute, ///< count |out| (the absolute error) for that element
  Skip,     ///< leave the element out of the mean
};

/// Every built-in metric of one comparison.
struct ErrorStats {
  double meanRelative = 0; ///< mean of |out-ref|/|ref| (see zero policy).
  double maxAbs = 0;       ///< max |out-ref|.
  double rmse = 0;         ///< sqrt(mean((out-ref)^2)).
  double maxRelative = 0;  ///< max |out-ref|/|ref| over ref != 0.
  size_t count = 0;        ///< elements compared.
  size_t zeroRefs = 0;     ///< elements with ref == 0.
  size_t nonFiniteMismatches = 0; ///< NaN/inf pairs that do not match.
};

/// Computes every built-in metric in one pass. Sizes must match.
Expected<ErrorStats> compareOutputs(const std::vector<double> &ref,
                                    const std::vector<double> &out,
                                    ZeroRefPolicy policy =
                                        ZeroRefPolicy::Absolute);

/// A scalar quality metric E(ref, out) >= 0, smaller is better.
struct Metric {
  /// Which metric.
  enum class Kind { MeanRelative, MaxAbs, Rmse, Custom };
  Kind kind = Kind::MeanRelative;
  /// MeanRelative only.
  ZeroRefPolicy zeroPolicy = ZeroRefPolicy::Absolute;
  /// For Kind::Custom: the user's callback.
  std::function<double(const std::vector<double> &ref,
                       const std::vector<double> &out)>
      custom;
  std::string customName = "custom"; ///< Custom only: its name.

  /// The mean relative error.
  static Metric meanRelative(ZeroRefPolicy p = ZeroRefPolicy::Absolute) {
    Metric m;
    m.kind = Kind::MeanRelative;
    m.zeroPolicy = p;
    return m;
  }
  /// The largest absolute error.
  static Metric maxAbs() {
    Metric m;
    m.kind = Kind::MaxAbs;
    return m;
  }
  /// The root mean square error.
  static Metric rmse() {
    Metric m;
    m.kind = Kind::Rmse;
    return m;
  }
  /// A user metric (NaN from it is an error).
  static Metric callback(std::string name,
                         std::function<double(const std::vector<double> &,
                                              const std::vector<double> &)>
                             fn) {
    Metric m;
    m.kind = Kind::Custom;
    m.custom = std::move(fn);
    m.customName = std::move(name);
    return m;
  }

  /// "mean-relative", "max-abs", "rmse" or the custom name.
  std::string name() const;
  /// Evaluates the metric; size mismatch or a missing callback is an error.
  Expected<double> operator()(const std::vector<double> &ref,
                              const std::vector<double> &out) const;
};

/// Parses "mre" / "mean-relative", "maxabs" / "max-abs", "rmse".
Expected<Metric> parseMetric(const std::string &name);

/// The median of `samples` (the mean of the middle two for an even count);
/// NaN for none.
double median(std::vector<double> samples);

/// The percentile bootstrap interval of the median of `samples` (2,000
/// resamples, a fixed seed: the same samples give the same interval), at
/// `confidence`; {NaN, NaN} for no samples, {x, x} for one.
std::pair<double, double> medianInterval(const std::vector<double> &samples,
                                         double confidence = 0.95);

/// How long a timing repeats (issue 30, "Dispersion"): past its first
/// repetitions, until the 95% interval of the median lies within
/// ±relHalfWidth of the median, or maxReps repetitions in all.
/// relHalfWidth 0: the first repetitions only.
struct Tightness {
  double relHalfWidth = 0;
  int maxReps = 200;
  /// Whether `samples` are tight enough (always, with relHalfWidth 0).
  bool reached(const std::vector<double> &samples) const;
};

} // namespace approx::rt

#endif // APPROX_RUNTIME_METRICS_H
