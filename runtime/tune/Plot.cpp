//===- Plot.cpp - SVG line and scatter plots for the tuners --------------===//
//
// Fits each axis to what is drawn on it (or to the range given), lays the
// panel out from the font size (room for tick labels, axis titles and the
// legend), then writes the document in drawing order: ticks and grid,
// frame, titles, rules, series, rings, legend. Coordinates are written with
// one decimal, and only for points that passed the axis's filter, so that
// no "nan" or "inf" can reach the file.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/Plot.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace approx::rt::plot {

std::string escapeXml(const std::string &text) {
  std::string o;
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' &&
        c != '\r')
      continue; // not allowed in XML 1.0, not even as a reference
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else if (c == '"')
      o += "&quot;";
    else
      o += c;
  }
  return o;
}

std::string tickText(double v) {
  if (v == 0)
    return "0";
  double a = std::fabs(v);
  char b[64];
  if (a >= 1e-2 && a < 1e4)
    std::snprintf(b, sizeof b, a >= 10 ? "%.0f" : "%.3g", v);
  else
    std::snprintf(b, sizeof b, "%.2g", v);
  return b;
}

namespace {

/// A coordinate: one decimal, no "-0.0". Not finite (a figure of no size,
/// a NaN width): 0, so that no "nan" or "inf" reaches the document.
std::string num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.1f", std::isfinite(v) ? v : 0.0);
  return std::string(b) == "-0.0" ? "0.0" : b;
}

/// A size or width as %g; not finite: 0.
std::string gnum(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%g", std::isfinite(v) ? v : 0.0);
  return b;
}

/// Characters (UTF-8 code points) in `s`, for the legend's spacing.
size_t characters(const std::string &s) {
  size_t n = 0;
  for (char c : s)
    n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

/// A 1, 2, 2.5 or 5 times a power of ten step for about `n` ticks.
double niceStep(double span, int n) {
  if (!(span > 0) || n < 1)
    return 1;
  double raw = span / n, mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw * (1 - 1e-9))
      return m * mag;
  return 10 * mag;
}

/// An axis fitted to its data: value -> [0, 1] along it.
struct Fitted {
  const Axis *axis;
  double lo = 0, hi = 1; ///< in transformed units (log10 for Log10)

  bool usable(double v) const {
    return std::isfinite(v) && (axis->scale == Scale::Linear || v > 0);
  }
  double t(double v) const {
    return axis->scale == Scale::Log10 ? std::log10(v) : v;
  }
  double frac(double v) const { return (t(v) - lo) / (hi - lo); }

  Fitted(const Axis &a, const std::vector<double> &values) : axis(&a) {
    double dlo = INFINITY, dhi = -INFINITY;
    for (double v : values)
      if (usable(v))
        dlo = std::min(dlo, t(v)), dhi = std::max(dhi, t(v));
    if (!std::isfinite(dlo))
      dlo = a.scale == Scale::Log10 ? -7 : 0, dhi = dlo + 1;
    lo = usable(a.lo) ? t(a.lo) : dlo;
    hi = usable(a.hi) ? t(a.hi) : dhi;
    if (!(hi > lo))
      hi = lo + (std::fabs(lo) > 0 ? std::fabs(lo) * 0.1 : 1.0);
    if (a.nice && a.scale == Scale::Linear) {
      double step = niceStep(hi - lo, a.ticks);
      lo = std::floor(lo / step + 1e-9) * step;
      hi = std::ceil(hi / step - 1e-9) * step;
    }
  }

  std::vector<double> ticks() const {
    std::vector<double> out;
    if (axis->scale == Scale::Log10) {
      for (double e = std::ceil(lo - 1e-9); e <= hi + 1e-9; ++e)
        out.push_back(std::pow(10.0, e));
      return out;
    }
    double step = niceStep(hi - lo, axis->ticks);
    for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9;
         v += step)
      out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
    return out;
  }

  std::string label(double v) const {
    if (axis->scale == Scale::Log10) {
      char b[32];
      std::snprintf(b, sizeof b, "1e%d", int(std::lround(std::log10(v))));
      return b;
    }
    return tickText(v);
  }
};

} // namespace

std::string Figure::svg() const {
  const double fs = fontSize;
  // The panel, with room for what surrounds it.
  double left = 5.5 * fs + 14, right = hasY2 ? 6.5 * fs + 14 : 20;
  double top = 2.6 * fs + 12, bottom = 4.5 * fs + 18;
  if (legend == Legend::Right)
    right += 11 * fs;
  if (legend == Legend::Top)
    top += fs + 6;
  const double x0 = left, y0 = top, w = width - left - right,
               h = height - top - bottom;

  std::vector<double> xs, ys, y2s;
  for (const Series &s : series) {
    xs.insert(xs.end(), s.x.begin(), s.x.end());
    (s.right ? y2s : ys)
        .insert((s.right ? y2s : ys).end(), s.y.begin(), s.y.end());
  }
  for (const Rule &r : rules)
    (r.vertical ? xs : r.right ? y2s : ys).push_back(r.at);
  for (const Ring &r : rings) {
    xs.push_back(r.x);
    (r.right ? y2s : ys).push_back(r.y);
  }
  const Fitted fx(x, xs), fy(y, ys), fy2(y2, y2s);
  auto px = [&](double v) { return x0 + w * fx.frac(v); };
  auto py = [&](double v, bool rightAxis) {
    return y0 + h * (1 - (rightAxis ? fy2 : fy).frac(v));
  };
  auto dash = [](const std::string &d) {
    return d.empty() ? std::string()
                     : " stroke-dasharray=\"" + escapeXml(d) + "\"";
  };

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << gnum(width)
    << "\" height=\"" << gnum(height) << "\" viewBox=\"0 0 " << gnum(width)
    << " " << gnum(height)
    << "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\""
    << gnum(fs) << "\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (!title.empty())
    o << "<text x=\"" << num(width / 2) << "\" y=\"" << num(fs + 8)
      << "\" text-anchor=\"middle\" font-size=\"" << gnum(fs + 2)
      << "\" font-weight=\"bold\">" << escapeXml(title) << "</text>\n";

  // Ticks and grid.
  for (double v : fy.ticks()) {
    double yy = py(v, false);
    if (y.grid)
      o << "<line x1=\"" << num(x0) << "\" y1=\"" << num(yy) << "\" x2=\""
        << num(x0 + w) << "\" y2=\"" << num(yy) << "\" stroke=\"#e4e4e4\"/>\n";
    o << "<text x=\"" << num(x0 - 6) << "\" y=\"" << num(yy + fs / 3)
      << "\" text-anchor=\"end\" fill=\"" << escapeXml(y.color) << "\">"
      << escapeXml(fy.label(v)) << "</text>\n";
  }
  if (hasY2)
    for (double v : fy2.ticks())
      o << "<text x=\"" << num(x0 + w + 6) << "\" y=\""
        << num(py(v, true) + fs / 3) << "\" fill=\"" << escapeXml(y2.color)
        << "\">" << escapeXml(fy2.label(v)) << "</text>\n";
  for (double v : fx.ticks()) {
    double xx = px(v);
    o << "<line x1=\"" << num(xx) << "\" y1=\"" << num(y0 + h) << "\" x2=\""
      << num(xx) << "\" y2=\"" << num(y0 + h + 4) << "\" stroke=\"black\"/>\n";
    o << "<text x=\"" << num(xx) << "\" y=\"" << num(y0 + h + 4 + fs)
      << "\" text-anchor=\"middle\" fill=\"" << escapeXml(x.color) << "\">"
      << escapeXml(fx.label(v)) << "</text>\n";
  }
  o << "<rect x=\"" << num(x0) << "\" y=\"" << num(y0) << "\" width=\""
    << num(w) << "\" height=\"" << num(h)
    << "\" fill=\"none\" stroke=\"black\"/>\n";
  // Axis titles.
  if (!x.label.empty())
    o << "<text x=\"" << num(x0 + w / 2) << "\" y=\""
      << num(y0 + h + 10 + 2.4 * fs) << "\" text-anchor=\"middle\" fill=\""
      << escapeXml(x.color) << "\">" << escapeXml(x.label) << "</text>\n";
  if (!y.label.empty())
    o << "<text transform=\"translate("
      << num(std::max(x0 - 3.2 * fs - 8, fs + 2)) << "," << num(y0 + h / 2)
      << ") rotate(-90)\" text-anchor=\"middle\" fill=\"" << escapeXml(y.color)
      << "\">" << escapeXml(y.label) << "</text>\n";
  if (hasY2 && !y2.label.empty())
    o << "<text transform=\"translate(" << num(x0 + w + right - fs - 4) << ","
      << num(y0 + h / 2) << ") rotate(90)\" text-anchor=\"middle\" fill=\""
      << escapeXml(y2.color) << "\">" << escapeXml(y2.label) << "</text>\n";

  // Reference lines.
  for (const Rule &r : rules) {
    if (r.vertical ? !fx.usable(r.at) : !(r.right ? fy2 : fy).usable(r.at))
      continue;
    double xa = r.vertical ? px(r.at) : x0, xb = r.vertical ? xa : x0 + w;
    double ya = r.vertical ? y0 : py(r.at, r.right),
           yb = r.vertical ? y0 + h : ya;
    o << "<line x1=\"" << num(xa) << "\" y1=\"" << num(ya) << "\" x2=\""
      << num(xb) << "\" y2=\"" << num(yb) << "\" stroke=\""
      << escapeXml(r.color) << "\" stroke-width=\"" << gnum(r.width) << "\""
      << dash(r.dash) << "/>\n";
    if (!r.label.empty())
      o << "<text x=\"" << num(r.vertical ? xa - 4 : x0 + w - 4) << "\" y=\""
        << num(r.vertical ? y0 + fs + 2 : ya - 4)
        << "\" text-anchor=\"end\" fill=\"" << escapeXml(r.color) << "\">"
        << escapeXml(r.label) << "</text>\n";
  }

  // A label beside a point: right of it, or left of it in the panel's last
  // quarter, where it would run off the figure.
  auto label = [&](double px_, double py_, double r, const std::string &text,
                   const std::string &color) {
    bool leftwards = px_ > x0 + 0.75 * w;
    o << "<text x=\"" << num(leftwards ? px_ - r - 3 : px_ + r + 3) << "\" y=\""
      << num(py_ - 4) << "\"" << (leftwards ? " text-anchor=\"end\"" : "")
      << " fill=\"" << escapeXml(color) << "\">" << escapeXml(text)
      << "</text>\n";
  };

  // Series.
  for (const Series &s : series) {
    const Fitted &f = s.right ? fy2 : fy;
    struct P {
      size_t i;
      double x, y;
    };
    std::vector<P> pts;
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
      if (fx.usable(s.x[i]) && f.usable(s.y[i]))
        pts.push_back({i, px(s.x[i]), py(s.y[i], s.right)});
    if (s.join && pts.size() > 1) {
      o << "<polyline fill=\"none\" stroke=\"" << escapeXml(s.color)
        << "\" stroke-width=\"" << gnum(s.width) << "\"" << dash(s.dash)
        << " points=\"";
      for (size_t k = 0; k < pts.size(); ++k)
        o << (k ? " " : "") << num(pts[k].x) << "," << num(pts[k].y);
      o << "\"/>\n";
    }
    for (const P &p : pts) {
      const std::string tip =
          p.i < s.tooltips.size() ? s.tooltips[p.i] : std::string();
      if (s.radius > 0)
        o << "<circle cx=\"" << num(p.x) << "\" cy=\"" << num(p.y) << "\" r=\""
          << gnum(s.radius) << "\" fill=\"" << escapeXml(s.color) << "\">"
          << (tip.empty() ? "" : "<title>" + escapeXml(tip) + "</title>")
          << "</circle>\n";
      if (p.i < s.labels.size() && !s.labels[p.i].empty())
        label(p.x, p.y, s.radius, s.labels[p.i], "black");
    }
  }

  // Rings; stacked labels from the bottom of the panel up.
  int stack = 0;
  for (const Ring &r : rings) {
    const Fitted &f = r.right ? fy2 : fy;
    if (!fx.usable(r.x) || !f.usable(r.y))
      continue;
    double cx = px(r.x), cy = py(r.y, r.right);
    o << "<circle cx=\"" << num(cx) << "\" cy=\"" << num(cy) << "\" r=\""
      << gnum(r.radius) << "\" fill=\"none\" stroke=\"" << escapeXml(r.color)
      << "\" stroke-width=\"2\"/>\n";
    if (r.label.empty())
      continue;
    if (!r.stacked) {
      label(cx, cy, r.radius, r.label, r.color);
      continue;
    }
    double ly = y0 + h - 10 - (fs + 4) * stack++;
    o << "<line x1=\"" << num(cx) << "\" y1=\"" << num(cy + r.radius)
      << "\" x2=\"" << num(cx) << "\" y2=\"" << num(ly + 4) << "\" stroke=\""
      << escapeXml(r.color) << "\" stroke-dasharray=\"2,2\"/>\n";
    o << "<text x=\"" << num(cx - 6) << "\" y=\"" << num(ly)
      << "\" text-anchor=\"end\" fill=\"" << escapeXml(r.color) << "\">"
      << escapeXml(r.label) << "</text>\n";
  }

  // Legend: the series, rules and rings that have an entry, in that order.
  if (legend != Legend::None) {
    struct Item {
      char kind; // 'l' line, 'd' dot, 'r' ring
      std::string color, dash, text;
    };
    std::vector<Item> items;
    for (const Series &s : series)
      if (!s.label.empty())
        items.push_back({s.join ? 'l' : 'd', s.color, s.dash, s.label});
    for (const Rule &r : rules)
      if (!r.legend.empty())
        items.push_back({'l', r.color, r.dash, r.legend});
    for (const Ring &r : rings)
      if (!r.legend.empty())
        items.push_back({'r', r.color, "", r.legend});
    double lx = legend == Legend::Right ? x0 + w + (hasY2 ? 6.5 * fs : 12) : x0;
    double ly = legend == Legend::Right ? y0 + fs
                : legend == Legend::Top ? y0 - fs / 2 - 2
                                        : height - 8;
    for (const Item &it : items) {
      const std::string color = escapeXml(it.color);
      double mid = ly - fs / 3, sw = 27;
      if (it.kind == 'l') {
        o << "<line x1=\"" << num(lx) << "\" y1=\"" << num(mid) << "\" x2=\""
          << num(lx + 22) << "\" y2=\"" << num(mid) << "\" stroke=\"" << color
          << "\" stroke-width=\"2\"" << dash(it.dash) << "/>";
      } else {
        o << "<circle cx=\"" << num(lx + 8) << "\" cy=\"" << num(mid)
          << "\" r=\""
          << (it.kind == 'd' ? "4\" fill=\"" + color + "\""
                             : "5\" fill=\"none\" stroke=\"" + color +
                                   "\" stroke-width=\"2\"")
          << "/>";
        sw = 19;
      }
      o << "<text x=\"" << num(lx + sw) << "\" y=\"" << num(ly) << "\">"
        << escapeXml(it.text) << "</text>\n";
      if (legend == Legend::Right)
        ly += fs + 6;
      else
        lx += sw + 0.6 * fs * double(characters(it.text)) + 16;
    }
  }
  o << "</svg>\n";
  return o.str();
}

} // namespace approx::rt::plot
