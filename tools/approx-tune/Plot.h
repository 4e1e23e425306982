//===- Plot.h - SVG of the T(λ) / E(λ) trade-off curves ---------*- C++ -*-===//
//
// The paper's Figure 4/6 shape, drawn by the runtime's plot module
// (approx/runtime/tune/Plot.h): normalized time T(λ)/T(0) (black, left
// axis) and error E(λ) (red, right axis) over λ, the QoS bound (magenta),
// the occupancy bound λmax (green, dashed) and each tuner's λ* (labelled
// rings).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNE_PLOT_H
#define APPROX_TUNE_PLOT_H

#include <cstdint>
#include <string>
#include <vector>

namespace approx::tune {

/// One measured point.
struct PlotPoint {
  int64_t lambda;
  double timeMs; ///< T(λ)
  double error;  ///< E(λ)
};

/// A tuner's answer, drawn as a labelled circle.
struct PlotMarker {
  std::string label; ///< e.g. "HEU λ*=44 (5 runs)"
  int64_t lambda; ///< λ*
  double error;   ///< E(λ*)
};

/// Everything one plot shows.
struct PlotData {
  std::string title; ///< escaped for XML by the renderer
  std::vector<PlotPoint> curve; ///< sorted by λ, λ=0 first
  double qosBound = -1;         ///< < 0: not drawn
  int64_t lambdaMax = -1; ///< the occupancy bound; < 0: not drawn
  int64_t knobMax = -1;   ///< the knob's max (x axis extent)
  std::vector<PlotMarker> markers; ///< one per tuner
};

/// Returns the SVG document.
std::string renderTradeoffSvg(const PlotData &d);

} // namespace approx::tune

#endif // APPROX_TUNE_PLOT_H
