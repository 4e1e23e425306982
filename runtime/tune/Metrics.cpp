//===- Metrics.cpp - Error metrics ----------------------------------------===//
//
// One pass over reference and output computing every built-in metric, with
// the zero-reference and non-finite rules of Metrics.h.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/Metrics.h"

#include "approx/runtime/core/Text.h"

#include <cmath>
#include <algorithm>
#include <limits>
#include <random>

namespace approx::rt {

Expected<ErrorStats> compareOutputs(const std::vector<double> &ref,
                                    const std::vector<double> &out,
                                    ZeroRefPolicy policy) {
  if (ref.size() != out.size())
    return invalidArgument("compareOutputs: reference has " +
                           std::to_string(ref.size()) + " values, output " +
                           std::to_string(out.size()));
  ErrorStats s;
  s.count = ref.size();
  double relSum = 0, sqSum = 0;
  size_t relCount = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double r = ref[i], o = out[i];
    if (!std::isfinite(r) || !std::isfinite(o)) {
      bool same = (std::isnan(r) && std::isnan(o)) || (r == o);
      if (!same)
        ++s.nonFiniteMismatches;
      else
        ++relCount; // contributes 0
      continue;
    }
    double d = std::fabs(o - r);
    s.maxAbs = std::max(s.maxAbs, d);
    sqSum += d * d;
    if (r == 0) {
      ++s.zeroRefs;
      if (policy == ZeroRefPolicy::Absolute) {
        relSum += d;
        ++relCount;
      }
    } else {
      double rel = d / std::fabs(r);
      relSum += rel;
      s.maxRelative = std::max(s.maxRelative, rel);
      ++relCount;
    }
  }
  if (s.nonFiniteMismatches) {
    double inf = std::numeric_limits<double>::infinity();
    s.meanRelative = s.maxAbs = s.rmse = s.maxRelative = inf;
    return s;
  }
  s.meanRelative = relCount ? relSum / double(relCount) : 0.0;
  s.rmse = s.count ? std::sqrt(sqSum / double(s.count)) : 0.0;
  return s;
}

std::string Metric::name() const {
  switch (kind) {
  case Kind::MeanRelative:
    return zeroPolicy == ZeroRefPolicy::Skip ? "mean-relative(skip-zero)"
                                             : "mean-relative";
  case Kind::MaxAbs:
    return "max-abs";
  case Kind::Rmse:
    return "rmse";
  case Kind::Custom:
    return customName;
  }
  return "?";
}

Expected<double> Metric::operator()(const std::vector<double> &ref,
                                    const std::vector<double> &out) const {
  if (kind == Kind::Custom) {
    if (!custom)
      return invalidArgument("custom metric '" + customName +
                             "' has no callback");
    if (ref.size() != out.size())
      return invalidArgument("metric: reference has " +
                             std::to_string(ref.size()) + " values, output " +
                             std::to_string(out.size()));
    double v = custom(ref, out);
    if (std::isnan(v))
      return invalidArgument("custom metric '" + customName +
                             "' returned NaN");
    return v;
  }
  APPROX_ASSIGN_OR_RETURN(ErrorStats s, compareOutputs(ref, out, zeroPolicy));
  switch (kind) {
  case Kind::MeanRelative:
    return s.meanRelative;
  case Kind::MaxAbs:
    return s.maxAbs;
  case Kind::Rmse:
    return s.rmse;
  case Kind::Custom:
    break;
  }
  return internalError("unreachable metric kind");
}

Expected<Metric> parseMetric(const std::string &name) {
  if (name == "mre" || name == "mean-relative")
    return Metric::meanRelative();
  if (name == "mre-skip-zero" || name == "mean-relative-skip-zero")
    return Metric::meanRelative(ZeroRefPolicy::Skip);
  if (name == "maxabs" || name == "max-abs")
    return Metric::maxAbs();
  if (name == "rmse")
    return Metric::rmse();
  return invalidArgument("unknown metric " + quote(name) +
                         " (known: mre, mre-skip-zero, maxabs, rmse)");
}

static double medianOf(std::vector<double> &v) {
  size_t n = v.size();
  std::nth_element(v.begin(), v.begin() + long(n / 2), v.end());
  double hi = v[n / 2];
  if (n % 2)
    return hi;
  double lo = *std::max_element(v.begin(), v.begin() + long(n / 2));
  return (lo + hi) / 2;
}

double median(std::vector<double> samples) {
  return samples.empty() ? NAN : medianOf(samples);
}

std::pair<double, double> medianInterval(const std::vector<double> &samples,
                                         double confidence) {
  if (samples.empty())
    return {NAN, NAN};
  if (samples.size() == 1)
    return {samples[0], samples[0]};
  constexpr int kResamples = 2000;
  std::mt19937_64 rng(0x5eed);
  std::uniform_int_distribution<size_t> pick(0, samples.size() - 1);
  std::vector<double> medians(kResamples), draw(samples.size());
  for (double &m : medians) {
    for (double &d : draw)
      d = samples[pick(rng)];
    m = medianOf(draw);
  }
  std::sort(medians.begin(), medians.end());
  double tail = (1 - confidence) / 2;
  auto at = [&](double q) {
    size_t i = size_t(q * double(kResamples - 1) + 0.5);
    return medians[std::min(i, medians.size() - 1)];
  };
  return {at(tail), at(1 - tail)};
}

bool Tightness::reached(const std::vector<double> &samples) const {
  if (relHalfWidth <= 0)
    return true;
  if (samples.size() < 2)
    return false;
  const double m = median(samples);
  const auto [lo, hi] = medianInterval(samples);
  return m > 0 && lo >= m * (1 - relHalfWidth) && hi <= m * (1 + relHalfWidth);
}

} // namespace approx::rt
