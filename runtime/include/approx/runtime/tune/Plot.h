//===- Plot.h - SVG line and scatter plots for the tuners -------*- C++ -*-===//
//
// One plot module for the runtime's tools: a panel with a linear or log10 x
// axis, a left and an optional right y axis, lines and scatter points (with
// per-point tooltips and labels), horizontal and vertical reference lines,
// ringed markers and a legend, written as one self-contained SVG document
// (no script, no external font or style). approx-tune draws T(λ) and E(λ)
// with it, the perforation tuner its Pareto front. bench/lib/svgplot.py is
// the Python twin the report scripts use; the two draw the same way.
//
// Points that are not finite, or not positive on a log axis, are left out;
// every text is escaped for XML; the document never holds "nan" or "inf".
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_TUNE_PLOT_H
#define APPROX_RUNTIME_TUNE_PLOT_H

#include <cmath>
#include <string>
#include <vector>

namespace approx::rt::plot {

/// How values map onto an axis.
enum class Scale { Linear, Log10 };

/// One axis: its range, ticks and title.
struct Axis {
  std::string label; ///< the axis title ("" none)
  Scale scale = Scale::Linear;
  /// The range; NaN takes the data's minimum or maximum.
  double lo = NAN, hi = NAN;
  /// Linear: about this many ticks at 1, 2, 2.5 or 5 times a power of ten.
  /// Log10: a tick at each power of ten.
  int ticks = 5;
  /// Linear: widen the range to whole tick steps (a top of 1.0, not 0.97).
  bool nice = false;
  std::string color = "black"; ///< of the tick labels and the title
  bool grid = false;           ///< light lines across the panel at each tick
};

/// Points, joined or not.
struct Series {
  std::vector<double> x, y;
  std::string color = "black";
  std::string label;  ///< the legend entry ("" none)
  bool join = true;   ///< a polyline through the points
  double width = 2;   ///< of the polyline
  std::string dash;   ///< stroke-dasharray of the polyline ("" solid)
  double radius = 0;  ///< > 0: a dot of this radius at each point
  bool right = false; ///< y on the right axis
  /// Per point, optional (empty, or one per point; "" none): a tooltip
  /// (<title>) on the dot, a text beside it.
  std::vector<std::string> tooltips, labels;
};

/// A horizontal (y = at) or vertical (x = at) reference line.
struct Rule {
  bool vertical = false;
  double at = 0;
  std::string color = "#999";
  std::string dash; ///< stroke-dasharray ("" solid)
  double width = 1;
  std::string label;  ///< written on the line, at its right or top end
  std::string legend; ///< its legend entry ("" none)
  bool right = false; ///< a horizontal line measured on the right axis
};

/// A ring around a point: a chosen version, a tuner's answer.
struct Ring {
  double x = 0, y = 0;
  double radius = 6;
  std::string color = "black";
  std::string label; ///< beside the ring, or in a stack (`stacked`)
  /// The label at the bottom of the panel, stacked with the other stacked
  /// rings' and joined to its ring by a dotted leader (rings at one x keep
  /// readable labels).
  bool stacked = false;
  std::string legend; ///< its legend entry ("" none)
  bool right = false; ///< y on the right axis
};

/// Where the legend goes.
enum class Legend { None, Bottom, Top, Right };

/// One panel and everything drawn in it.
struct Figure {
  double width = 640, height = 420;
  double fontSize = 12;
  std::string title;
  Axis x, y;
  Axis y2; ///< the right axis, when `hasY2`
  bool hasY2 = false;
  std::vector<Series> series;
  std::vector<Rule> rules;
  std::vector<Ring> rings;
  Legend legend = Legend::Bottom;

  /// The SVG document.
  std::string svg() const;
};

/// `text` safe inside an SVG element or attribute: & < > " as references,
/// the control characters XML 1.0 forbids (even as references) dropped.
std::string escapeXml(const std::string &text);

/// `v` as a linear axis writes its ticks: short, no exponent between 0.01
/// and 10^4 ("0.25", "48", "8e-08"); for labels that quote a value.
std::string tickText(double v);

} // namespace approx::rt::plot

#endif // APPROX_RUNTIME_TUNE_PLOT_H
