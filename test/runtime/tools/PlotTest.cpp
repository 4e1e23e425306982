//===- PlotTest.cpp - approx-tune's SVG of T(λ) and E(λ) ------------------===//
//
// approx-tune's SVG renderer: curves, bounds, markers, escaping of the
// title, degenerate curves.
//
//===----------------------------------------------------------------------===//
#include "Plot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace approx::tune;

namespace {
PlotData sample() {
  PlotData d;
  d.title = "k <&> on GPU";
  for (int l = 0; l <= 48; ++l)
    d.curve.push_back({l, 2.0 - l / 48.0, 1e-7 * l / 48.0});
  d.qosBound = 0.8e-7;
  d.lambdaMax = 48;
  d.knobMax = 64;
  d.markers = {{"HEU λ*=38 (4 runs)", 38, 0.79e-7}};
  return d;
}
} // namespace

TEST(Plot, DrawsCurvesBoundsAndMarkers) {
  std::string svg = renderTradeoffSvg(sample());
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(std::count(svg.begin(), svg.end(), '\n') > 50, true);
  // Two polylines (time, error), the QoS line, λmax and the marker label.
  size_t polylines = 0;
  for (size_t p = svg.find("<polyline"); p != std::string::npos;
       p = svg.find("<polyline", p + 1))
    ++polylines;
  EXPECT_EQ(polylines, 2u);
  EXPECT_NE(svg.find("QoS: E ≤ 8e-08"), std::string::npos);
  EXPECT_NE(svg.find("λmax=48 (occupancy)"), std::string::npos);
  EXPECT_NE(svg.find("HEU λ*=38 (4 runs)"), std::string::npos);
  // The title is escaped.
  EXPECT_NE(svg.find("k &lt;&amp;&gt; on GPU"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

TEST(Plot, SurvivesDegenerateData) {
  PlotData d;
  d.title = "empty";
  std::string svg = renderTradeoffSvg(d);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  d.curve = {{0, 1.0, 0.0},
             {1, 0.5, std::numeric_limits<double>::infinity()}};
  d.qosBound = std::numeric_limits<double>::infinity();
  svg = renderTradeoffSvg(d);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}
