//===- Plot.cpp - Hand-written SVG for approx-tune ------------------------===//
//
// Scales the curve into a fixed 760x480 canvas with two y axes (T(λ)/T(0)
// left, E(λ) right), escapes every text for XML, and skips non-finite
// errors instead of drawing them.
//
//===----------------------------------------------------------------------===//
#include "Plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace approx::tune {

namespace {

std::string esc(const std::string &s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else
      o += c;
  }
  return o;
}

std::string num(double v, const char *fmt = "%.1f") {
  char b[64];
  std::snprintf(b, sizeof b, fmt, v);
  return b;
}

/// A "nice" step for about `n` ticks over [0, hi].
double niceStep(double hi, int n) {
  if (hi <= 0)
    return 1;
  double raw = hi / n, mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw)
      return m * mag;
  return 10 * mag;
}

std::string fmtTick(double v) {
  if (v == 0)
    return "0";
  double a = std::fabs(v);
  if (a >= 1e-2 && a < 1e4)
    return num(v, a >= 10 ? "%.0f" : "%.3g");
  return num(v, "%.2g");
}

} // namespace

std::string renderTradeoffSvg(const PlotData &d) {
  const double W = 760, H = 480, L = 78, R = 86, T = 48, B = 84;
  const double pw = W - L - R, ph = H - T - B;
  int64_t xmax = std::max<int64_t>(
      {d.knobMax, d.lambdaMax, d.curve.empty() ? 1 : d.curve.back().lambda,
       1});
  double t0 = 0;
  for (const PlotPoint &p : d.curve)
    if (p.lambda == 0)
      t0 = p.timeMs;
  if (t0 <= 0 && !d.curve.empty())
    t0 = d.curve.front().timeMs;
  double tmax = 0, emax = 0;
  for (const PlotPoint &p : d.curve) {
    tmax = std::max(tmax, t0 > 0 ? p.timeMs / t0 : 0);
    if (std::isfinite(p.error))
      emax = std::max(emax, p.error);
  }
  if (d.qosBound > 0 && std::isfinite(d.qosBound))
    emax = std::max(emax, d.qosBound);
  double tStep = niceStep(std::max(tmax, 1.0), 5);
  double tTop = std::ceil(std::max(tmax, 1.0) / tStep) * tStep;
  double eStep = niceStep(emax > 0 ? emax : 1, 5);
  double eTop = std::ceil((emax > 0 ? emax : 1) / eStep) * eStep;
  auto X = [&](double l) { return L + pw * l / double(xmax); };
  auto YT = [&](double t) { return T + ph * (1 - t / tTop); };
  auto YE = [&](double e) { return T + ph * (1 - e / eTop); };

  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
    << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << " " << H
    << "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n";
  s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s << "<text x=\"" << W / 2 << "\" y=\"24\" text-anchor=\"middle\" "
    << "font-size=\"15\" font-weight=\"bold\">" << esc(d.title) << "</text>\n";
  // Grid and ticks.
  for (double t = 0; t <= tTop + 1e-12; t += tStep) {
    double y = YT(t);
    s << "<line x1=\"" << L << "\" y1=\"" << num(y) << "\" x2=\"" << L + pw
      << "\" y2=\"" << num(y) << "\" stroke=\"#e4e4e4\"/>\n";
    s << "<text x=\"" << L - 6 << "\" y=\"" << num(y + 4)
      << "\" text-anchor=\"end\">" << fmtTick(t) << "</text>\n";
  }
  for (double e = 0; e <= eTop * (1 + 1e-9); e += eStep)
    s << "<text x=\"" << L + pw + 6 << "\" y=\"" << num(YE(e) + 4)
      << "\" fill=\"#c0392b\">" << fmtTick(e) << "</text>\n";
  double xStep = niceStep(double(xmax), 8);
  for (double l = 0; l <= xmax + 1e-9; l += xStep) {
    double x = X(l);
    s << "<line x1=\"" << num(x) << "\" y1=\"" << T + ph << "\" x2=\""
      << num(x) << "\" y2=\"" << T + ph + 5 << "\" stroke=\"black\"/>\n";
    s << "<text x=\"" << num(x) << "\" y=\"" << T + ph + 19
      << "\" text-anchor=\"middle\">" << fmtTick(l) << "</text>\n";
  }
  s << "<rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << pw
    << "\" height=\"" << ph << "\" fill=\"none\" stroke=\"black\"/>\n";
  s << "<text x=\"" << L + pw / 2 << "\" y=\"" << T + ph + 38
    << "\" text-anchor=\"middle\">approximation degree λ (warp slots on "
       "the SFU path)</text>\n";
  s << "<text transform=\"translate(22," << T + ph / 2
    << ") rotate(-90)\" text-anchor=\"middle\">normalized time T(λ)/T(0)"
       "</text>\n";
  s << "<text transform=\"translate(" << W - 18 << "," << T + ph / 2
    << ") rotate(90)\" text-anchor=\"middle\" fill=\"#c0392b\">error E(λ) "
       "vs λ=0</text>\n";
  // Occupancy bound.
  if (d.lambdaMax >= 0) {
    double x = X(double(d.lambdaMax));
    s << "<line x1=\"" << num(x) << "\" y1=\"" << T << "\" x2=\"" << num(x)
      << "\" y2=\"" << T + ph
      << "\" stroke=\"#27ae60\" stroke-width=\"2\" stroke-dasharray=\"6,4\"/>"
         "\n";
    s << "<text x=\"" << num(x - 4) << "\" y=\"" << T + 14
      << "\" text-anchor=\"end\" fill=\"#27ae60\">λmax=" << d.lambdaMax
      << " (occupancy)</text>\n";
  }
  // QoS.
  if (d.qosBound >= 0 && std::isfinite(d.qosBound)) {
    double y = YE(d.qosBound);
    s << "<line x1=\"" << L << "\" y1=\"" << num(y) << "\" x2=\"" << L + pw
      << "\" y2=\"" << num(y)
      << "\" stroke=\"#c000c0\" stroke-width=\"1.5\"/>\n";
    s << "<text x=\"" << L + 6 << "\" y=\"" << num(y - 5)
      << "\" fill=\"#c000c0\">QoS: E ≤ " << fmtTick(d.qosBound)
      << "</text>\n";
  }
  // Curves.
  auto polyline = [&](bool time, const char *color) {
    s << "<polyline fill=\"none\" stroke=\"" << color
      << "\" stroke-width=\"2\" points=\"";
    for (const PlotPoint &p : d.curve) {
      if (!time && !std::isfinite(p.error))
        continue;
      double y = time ? YT(t0 > 0 ? p.timeMs / t0 : 0) : YE(p.error);
      s << num(X(double(p.lambda))) << "," << num(y) << " ";
    }
    s << "\"/>\n";
    for (const PlotPoint &p : d.curve) {
      if (!time && !std::isfinite(p.error))
        continue;
      double y = time ? YT(t0 > 0 ? p.timeMs / t0 : 0) : YE(p.error);
      s << "<circle cx=\"" << num(X(double(p.lambda))) << "\" cy=\""
        << num(y) << "\" r=\"2.2\" fill=\"" << color << "\"/>\n";
    }
  };
  polyline(true, "black");
  polyline(false, "#c0392b");
  // λ* markers, labels stacked at the bottom of the plot.
  int i = 0;
  for (const PlotMarker &m : d.markers) {
    double x = X(double(m.lambda));
    double y = YE(std::isfinite(m.error) ? m.error : 0);
    s << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y)
      << "\" r=\"6\" fill=\"none\" stroke=\"#2c3e50\" stroke-width=\"2\"/>\n";
    double ly = T + ph - 10 - 16 * i;
    s << "<line x1=\"" << num(x) << "\" y1=\"" << num(y + 6) << "\" x2=\""
      << num(x) << "\" y2=\"" << num(ly + 4)
      << "\" stroke=\"#2c3e50\" stroke-dasharray=\"2,2\"/>\n";
    s << "<text x=\"" << num(x - 6) << "\" y=\"" << num(ly)
      << "\" text-anchor=\"end\" fill=\"#2c3e50\">" << esc(m.label)
      << "</text>\n";
    ++i;
  }
  // Legend: one row under the x-axis title, clear of the curves.
  double ly = H - 8, lx = L;
  auto item = [&](const char *color, const char *dash, const char *label,
                  double width) {
    s << "<line x1=\"" << lx << "\" y1=\"" << ly - 4 << "\" x2=\"" << lx + 22
      << "\" y2=\"" << ly - 4 << "\" stroke=\"" << color
      << "\" stroke-width=\"2\"" << (*dash ? " stroke-dasharray=\"" : "")
      << dash << (*dash ? "\"" : "") << "/><text x=\"" << lx + 27
      << "\" y=\"" << ly << "\">" << label << "</text>\n";
    lx += width;
  };
  item("black", "", "T(λ)/T(0) (median)", 160);
  item("#c0392b", "", "E(λ)", 70);
  item("#c000c0", "", "QoS bound", 105);
  item("#27ae60", "6,4", "occupancy bound", 140);
  s << "<circle cx=\"" << lx + 8 << "\" cy=\"" << ly - 4
    << "\" r=\"5\" fill=\"none\" stroke=\"#2c3e50\" stroke-width=\"2\"/>"
    << "<text x=\"" << lx + 18 << "\" y=\"" << ly << "\">λ* per method</text>\n";
  s << "</svg>\n";
  return s.str();
}

} // namespace approx::tune
