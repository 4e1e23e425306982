//===- Plot.cpp - approx-tune's T(λ) / E(λ) figure ------------------------===//
//
// Maps the curve, the bounds and the tuners' answers onto the runtime's plot
// module (approx/runtime/tune/Plot.h): T(λ)/T(0) on the left axis, E(λ) on
// the right one, both from 0 to a whole tick.
//
//===----------------------------------------------------------------------===//
#include "Plot.h"

#include "approx/runtime/tune/Plot.h"

#include <algorithm>
#include <cmath>

namespace approx::tune {

std::string renderTradeoffSvg(const PlotData &d) {
  namespace plot = approx::rt::plot;
  int64_t xmax = std::max<int64_t>(
      {d.knobMax, d.lambdaMax, d.curve.empty() ? 1 : d.curve.back().lambda, 1});
  double t0 = 0;
  for (const PlotPoint &p : d.curve)
    if (p.lambda == 0)
      t0 = p.timeMs;
  if (t0 <= 0 && !d.curve.empty())
    t0 = d.curve.front().timeMs;
  const bool qos = d.qosBound >= 0 && std::isfinite(d.qosBound);

  plot::Figure f;
  f.width = 760, f.height = 480;
  f.title = d.title;
  f.x.label = "approximation degree λ (warp slots on the SFU path)";
  f.x.lo = 0, f.x.hi = double(xmax), f.x.ticks = 8;
  // Both y axes from 0 to whole ticks above the data (T(0)/T(0) = 1 and
  // the QoS bound included).
  f.y.label = "normalized time T(λ)/T(0)";
  f.y.lo = 0, f.y.nice = true, f.y.grid = true;
  f.hasY2 = true;
  f.y2.label = "error E(λ) vs λ=0";
  f.y2.lo = 0, f.y2.nice = true;
  f.y2.color = "#c0392b";
  plot::Series time, error;
  time.label = "T(λ)/T(0) (median)";
  time.radius = 2.2;
  error.label = "E(λ)";
  error.color = "#c0392b";
  error.radius = 2.2;
  error.right = true;
  for (const PlotPoint &p : d.curve) {
    time.x.push_back(double(p.lambda));
    time.y.push_back(t0 > 0 ? p.timeMs / t0 : 0);
    error.x.push_back(double(p.lambda));
    error.y.push_back(p.error); // not finite: left out
  }
  f.series = {time, error};
  if (qos) {
    plot::Rule r;
    r.at = d.qosBound, r.right = true, r.color = "#c000c0", r.width = 1.5;
    r.label = "QoS: E ≤ " + plot::tickText(d.qosBound);
    r.legend = "QoS bound";
    f.rules.push_back(r);
  }
  if (d.lambdaMax >= 0) {
    plot::Rule r;
    r.vertical = true, r.at = double(d.lambdaMax);
    r.color = "#27ae60", r.width = 2, r.dash = "6,4";
    r.label = "λmax=" + std::to_string(d.lambdaMax) + " (occupancy)";
    r.legend = "occupancy bound";
    f.rules.push_back(r);
  }
  for (const PlotMarker &m : d.markers) {
    plot::Ring r;
    r.x = double(m.lambda), r.y = std::isfinite(m.error) ? m.error : 0;
    r.right = true, r.color = "#2c3e50", r.label = m.label, r.stacked = true;
    if (f.rings.empty())
      r.legend = "λ* per method";
    f.rings.push_back(r);
  }
  return f.svg();
}

} // namespace approx::tune
