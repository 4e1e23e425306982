//===- Quality.cpp - Mean relative error of outputs ----------------------===//
//
// The metric of Quality.h (moved here from examples/precision/polybench's
// Apps.cpp, unchanged, so that the Session's trials and run-app --check
// compute the same number).
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/Quality.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace approx::rt::precision {

double RelativeErrors::mean() const {
  if (nonFinite)
    return std::numeric_limits<double>::infinity();
  return count ? sumRel / double(count) : 0.0;
}

RelativeErrors relativeErrors(const double *got, const double *ref,
                              int64_t n) {
  RelativeErrors e;
  e.count = n;
  double scale = 0;
  for (int64_t i = 0; i < n; ++i)
    if (std::isfinite(ref[i]))
      scale = std::max(scale, std::fabs(ref[i]));
  e.floor = scale > 0 ? 1e-6 * scale : 1.0;
  for (int64_t i = 0; i < n; ++i) {
    double g = got[i], r = ref[i];
    if (g == r || (std::isnan(g) && std::isnan(r)))
      continue;
    if (!std::isfinite(g) && std::isfinite(r)) {
      ++e.nonFinite;
      e.maxRel = std::numeric_limits<double>::infinity();
      continue;
    }
    double den = std::fabs(r);
    if (den < e.floor) {
      den = e.floor;
      ++e.guarded;
    }
    double rel = std::fabs(g - r) / den;
    if (std::isnan(rel))
      rel = std::numeric_limits<double>::infinity();
    e.sumRel += rel;
    e.maxRel = std::max(e.maxRel, rel);
  }
  return e;
}

double OutputsError::mean() const {
  if (nonFinite)
    return std::numeric_limits<double>::infinity();
  return count ? sumRel / double(count) : 0.0;
}

OutputsError compareOutputs(const std::vector<std::vector<double>> &got,
                            const std::vector<std::vector<double>> &ref) {
  OutputsError out;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (ref[i].empty())
      continue;
    RelativeErrors e;
    if (i >= got.size() || got[i].size() != ref[i].size()) {
      e.count = int64_t(ref[i].size());
      e.nonFinite = e.count;
      e.maxRel = std::numeric_limits<double>::infinity();
    } else {
      e = relativeErrors(got[i].data(), ref[i].data(), int64_t(ref[i].size()));
    }
    out.sumRel += e.sumRel;
    out.count += e.count;
    out.nonFinite += e.nonFinite;
    out.perOutput.push_back(e);
  }
  return out;
}

} // namespace approx::rt::precision
