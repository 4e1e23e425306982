//===- PlotTest.cpp - The runtime's SVG plot module ----------------------===//
//
// approx/runtime/tune/Plot.h, read back through a strict little XML reader
// (below): every document is well-formed (one root, tags balanced,
// attributes quoted, only the five predefined references, no control
// character), whatever the labels hold. On top of that: the frame and the
// ticks of linear, nice and log10 axes, where points land, series (joined
// or not, non-finite points and non-positive ones on a log axis left out),
// tooltips and labels, the right axis, rules, rings (stacked labels), the
// legend, hostile text in every slot that takes text, empty and degenerate
// data, and no "nan" or "inf" in any document. The first test mirrors
// test/bench/lib/check-svgplot.py's first figure (the Python twin).
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/Plot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

using namespace approx::rt::plot;

namespace {

//===----------------------------------------------------------------------===//
// A strict reader for the XML subset the module writes.
//===----------------------------------------------------------------------===//

struct Element {
  std::string name;
  std::map<std::string, std::string> attrs; ///< values decoded
  std::string text;                         ///< own text, decoded
  int parent = -1;                          ///< index in the document
};

using Doc = std::vector<Element>;

/// Decodes `raw` (text or an attribute value) into `out`; "" or the reason
/// it is not well-formed.
std::string decode(const std::string &raw, std::string &out) {
  for (size_t i = 0; i < raw.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(raw[i]);
    if (c == '<')
      return "raw '<'";
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
      return "control character " + std::to_string(int(c));
    if (c != '&') {
      out += raw[i];
      continue;
    }
    size_t semi = raw.find(';', i);
    if (semi == std::string::npos)
      return "unterminated reference";
    std::string ref = raw.substr(i + 1, semi - i - 1);
    static const std::map<std::string, char> named = {
        {"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}};
    auto it = named.find(ref);
    if (it == named.end())
      return "unknown reference &" + ref + ";";
    out += it->second;
    i = semi;
  }
  return "";
}

/// Parses `s` into `doc`; "" or the reason it is not well-formed.
std::string parse(const std::string &s, Doc &doc) {
  doc.clear();
  std::vector<int> open;
  bool root = false;
  size_t i = 0;
  auto nameAt = [&](size_t &j) {
    size_t b = j;
    while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) ||
                            s[j] == '-' || s[j] == '_' || s[j] == ':'))
      ++j;
    return s.substr(b, j - b);
  };
  while (i < s.size()) {
    if (s[i] != '<') {
      size_t j = std::min(s.find('<', i), s.size());
      std::string raw = s.substr(i, j - i), text;
      if (open.empty()) {
        if (raw.find_first_not_of(" \t\r\n") != std::string::npos)
          return "text outside the root: " + raw;
      } else {
        std::string why = decode(raw, text);
        if (!why.empty())
          return why + " in text " + raw;
        doc[size_t(open.back())].text += text;
      }
      i = j;
      continue;
    }
    if (s.compare(i, 2, "</") == 0) {
      size_t j = i + 2;
      std::string name = nameAt(j);
      if (j >= s.size() || s[j] != '>')
        return "bad end tag at " + std::to_string(i);
      if (open.empty() || doc[size_t(open.back())].name != name)
        return "end tag </" + name + "> closes nothing open";
      open.pop_back();
      i = j + 1;
      continue;
    }
    size_t j = i + 1;
    Element e;
    e.name = nameAt(j);
    if (e.name.empty())
      return "bad tag at " + std::to_string(i);
    bool closed = false;
    for (;;) {
      size_t k = j;
      while (j < s.size() && s[j] == ' ')
        ++j;
      if (s.compare(j, 2, "/>") == 0) {
        closed = true, j += 2;
        break;
      }
      if (j < s.size() && s[j] == '>') {
        ++j;
        break;
      }
      if (j == k)
        return "no space before an attribute of <" + e.name + ">";
      std::string key = nameAt(j);
      if (key.empty() || s.compare(j, 2, "=\"") != 0)
        return "bad attribute in <" + e.name + ">";
      size_t end = s.find('"', j + 2);
      if (end == std::string::npos)
        return "unterminated attribute in <" + e.name + ">";
      std::string value;
      std::string why = decode(s.substr(j + 2, end - j - 2), value);
      if (!why.empty())
        return why + " in attribute " + key + " of <" + e.name + ">";
      if (!e.attrs.emplace(key, value).second)
        return "attribute " + key + " twice in <" + e.name + ">";
      j = end + 1;
    }
    if (open.empty() && root)
      return "a second root <" + e.name + ">";
    root = true;
    e.parent = open.empty() ? -1 : open.back();
    doc.push_back(e);
    if (!closed)
      open.push_back(int(doc.size() - 1));
    i = j;
  }
  if (!open.empty())
    return "<" + doc[size_t(open.back())].name + "> not closed";
  if (!root)
    return "no element";
  return "";
}

/// `svg` parsed; fails the test when it is not well-formed.
Doc read(const std::string &svg) {
  Doc doc;
  std::string why = parse(svg, doc);
  EXPECT_EQ(why, "") << svg;
  return doc;
}

std::vector<const Element *> all(const Doc &d, const std::string &name) {
  std::vector<const Element *> out;
  for (const Element &e : d)
    if (e.name == name)
      out.push_back(&e);
  return out;
}

/// The <text> elements that read `text`.
std::vector<const Element *> texts(const Doc &d, const std::string &text) {
  std::vector<const Element *> out;
  for (const Element *e : all(d, "text"))
    if (e->text == text)
      out.push_back(e);
  return out;
}

double at(const Element &e, const std::string &key) {
  auto it = e.attrs.find(key);
  EXPECT_NE(it, e.attrs.end()) << e.name << " has no " << key;
  return it == e.attrs.end() ? NAN : std::stod(it->second);
}

/// The polyline's points.
std::vector<std::pair<double, double>> points(const Element &polyline) {
  std::vector<std::pair<double, double>> out;
  std::string p = polyline.attrs.at("points");
  size_t i = 0;
  while (i < p.size()) {
    size_t sp = std::min(p.find(' ', i), p.size());
    std::string xy = p.substr(i, sp - i);
    size_t comma = xy.find(',');
    out.emplace_back(std::stod(xy.substr(0, comma)),
                     std::stod(xy.substr(comma + 1)));
    i = sp + 1;
  }
  return out;
}

struct Frame {
  double x0, y0, w, h;
};

/// The panel's frame: the one unfilled, black-stroked rect.
Frame frameOf(const Doc &d) {
  std::vector<const Element *> rects;
  for (const Element *r : all(d, "rect"))
    if (r->attrs.count("x") && r->attrs.at("fill") == "none")
      rects.push_back(r);
  EXPECT_EQ(rects.size(), 1u);
  if (rects.empty())
    return {NAN, NAN, NAN, NAN};
  const Element &r = *rects[0];
  return {at(r, "x"), at(r, "y"), at(r, "width"), at(r, "height")};
}

bool hasNanOrInf(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return s.find("nan") != std::string::npos ||
         s.find("inf") != std::string::npos;
}

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
    ++n;
  return n;
}

constexpr double kInf = std::numeric_limits<double>::infinity();

} // namespace

TEST(PlotModule, TheReaderRejectsWhatIsNotWellFormed) {
  Doc d;
  EXPECT_EQ(parse("<svg><text>a</text></svg>", d), "");
  EXPECT_NE(parse("<svg><text>a</svg>", d), "");
  EXPECT_NE(parse("<svg><text>a<b</text></svg>", d), "");
  EXPECT_NE(parse("<svg><text>a & b</text></svg>", d), "");
  EXPECT_NE(parse("<svg><text fill=\"a\"b\">x</text></svg>", d), "");
  EXPECT_NE(parse("<svg/><svg/>", d), "");
  EXPECT_NE(parse("<svg>\x01</svg>", d), "");
  EXPECT_EQ(parse("<svg><t a=\"&lt;&quot;\">&amp;</t></svg>", d), "");
  EXPECT_EQ(d[1].attrs["a"], "<\"");
  EXPECT_EQ(d[1].text, "&");
}

TEST(PlotModule, LinesPointsTooltipsAndLabels) {
  Figure f;
  f.title = "k <&> \"q\"";
  f.x.label = "time (ms)";
  f.y.label = "error (log)";
  f.y.scale = Scale::Log10;
  Series front;
  front.label = "front";
  front.x = {1, 2, 3, 4};
  front.y = {1e-3, 1e-2, NAN, 1e-1};
  front.radius = 4;
  front.tooltips = {"a", "b", "c", "d<e"};
  front.labels = {"A", "", "C", "D"};
  Series rest;
  rest.label = "others";
  rest.join = false;
  rest.radius = 2.5;
  rest.x = {1.5, 2.5, kInf};
  rest.y = {0.0, 5e-3, 1e-2};
  f.series = {front, rest};
  Rule qos;
  qos.at = 0.05, qos.label = "QoS", qos.dash = "4 3";
  f.rules = {qos};
  Ring pick;
  pick.x = 2, pick.y = 1e-2, pick.radius = 8, pick.label = "pick";
  f.rings = {pick};
  std::string svg = f.svg();
  Doc d = read(svg);
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].name, "svg");
  EXPECT_EQ(d[0].attrs["xmlns"], "http://www.w3.org/2000/svg");
  auto lines = all(d, "polyline");
  ASSERT_EQ(lines.size(), 1u) << "only the joined series";
  EXPECT_EQ(points(*lines[0]).size(), 3u) << "the NaN point is left out";
  // 3 front dots, 1 other (0 is not on a log axis, inf not finite), the
  // ring, the legend's dot.
  EXPECT_EQ(all(d, "circle").size(), 6u);
  std::vector<std::string> tips;
  for (const Element *t : all(d, "title"))
    tips.push_back(t->text);
  EXPECT_EQ(tips, (std::vector<std::string>{"a", "b", "d<e"}));
  for (const char *t :
       {"k <&> \"q\"", "time (ms)", "error (log)", "1e-3", "1e-2", "1e-1",
        "QoS", "pick", "front", "others", "A", "D"})
    EXPECT_EQ(texts(d, t).size(), 1u) << t;
  EXPECT_TRUE(texts(d, "C").empty()) << "the NaN point's label is drawn";
  EXPECT_NE(svg.find("k &lt;&amp;&gt; &quot;q&quot;"), std::string::npos);
  EXPECT_FALSE(hasNanOrInf(svg));
}

TEST(PlotModule, LinearAxesMapOntoTheFrame) {
  Figure f;
  f.width = 600, f.height = 400;
  f.x.lo = 0, f.x.hi = 10;
  f.y.lo = 0, f.y.nice = true; // data up to 0.97: a top of 1
  Series s;
  s.label = "s";
  s.x = {0, 5, 10};
  s.y = {0, 0.5, 0.97};
  s.radius = 3;
  f.series = {s};
  Doc d = read(f.svg());
  EXPECT_EQ(d[0].attrs["width"], "600");
  EXPECT_EQ(d[0].attrs["viewBox"], "0 0 600 400");
  Frame fr = frameOf(d);
  ASSERT_TRUE(fr.w > 100 && fr.h > 100) << fr.w << " " << fr.h;
  EXPECT_GT(fr.x0, 0);
  EXPECT_LE(fr.x0 + fr.w, 600);
  EXPECT_LE(fr.y0 + fr.h, 400);

  // x ticks every 2, under the frame, evenly from its left to its right.
  const char *xt[] = {"0", "2", "4", "6", "8", "10"};
  for (int k = 0; k < 6; ++k) {
    const Element *t = nullptr;
    for (const Element *e : texts(d, xt[k]))
      if (e->attrs.at("text-anchor") == "middle")
        t = e;
    ASSERT_NE(t, nullptr) << xt[k];
    EXPECT_NEAR(at(*t, "x"), fr.x0 + fr.w * k / 5, 0.2) << xt[k];
    EXPECT_GT(at(*t, "y"), fr.y0 + fr.h);
  }
  // y ticks every 0.2 up to the nice top 1, left of the frame.
  const char *yt[] = {"0", "0.2", "0.4", "0.6", "0.8", "1"};
  for (int k = 0; k < 6; ++k) {
    const Element *t = nullptr;
    for (const Element *e : texts(d, yt[k]))
      if (e->attrs.at("text-anchor") == "end")
        t = e;
    ASSERT_NE(t, nullptr) << yt[k];
    EXPECT_LT(at(*t, "x"), fr.x0);
    EXPECT_NEAR(at(*t, "y"), fr.y0 + fr.h * (1 - k / 5.0) + 12 / 3.0, 0.2)
        << yt[k];
  }
  EXPECT_TRUE(texts(d, "1.2").empty()) << "no tick above the nice top";

  // The points: (0, 0) on the bottom-left corner, (10, 0.97) at the right
  // edge, 3% under the top.
  auto lines = all(d, "polyline");
  ASSERT_EQ(lines.size(), 1u);
  auto p = points(*lines[0]);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_NEAR(p[0].first, fr.x0, 0.2);
  EXPECT_NEAR(p[0].second, fr.y0 + fr.h, 0.2);
  EXPECT_NEAR(p[1].first, fr.x0 + fr.w / 2, 0.2);
  EXPECT_NEAR(p[1].second, fr.y0 + fr.h / 2, 0.2);
  EXPECT_NEAR(p[2].first, fr.x0 + fr.w, 0.2);
  EXPECT_NEAR(p[2].second, fr.y0 + fr.h * 0.03, 0.2);
  // The dots sit on the line's points (the legend's entry is a line).
  auto dots = all(d, "circle");
  ASSERT_EQ(dots.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(at(*dots[size_t(k)], "cx"), p[size_t(k)].first, 1e-9);
    EXPECT_NEAR(at(*dots[size_t(k)], "cy"), p[size_t(k)].second, 1e-9);
  }
  // The legend is under the panel.
  ASSERT_EQ(texts(d, "s").size(), 1u);
  EXPECT_GT(at(*texts(d, "s")[0], "y"), fr.y0 + fr.h);
}

TEST(PlotModule, LogAxisTicksAtPowersOfTen) {
  Figure f;
  f.y.scale = Scale::Log10;
  f.y.grid = true;
  Series s;
  s.x = {1, 2, 3, 4, 5};
  s.y = {1e-4, 0, -1, 1e-2, 1e-1}; // 0 and -1 are not on a log axis
  s.radius = 2;
  f.series = {s};
  f.legend = Legend::None;
  Doc d = read(f.svg());
  Frame fr = frameOf(d);
  auto p = points(*all(d, "polyline").at(0));
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(all(d, "circle").size(), 3u) << "no legend dot either";
  // 1e-4 at the bottom, 1e-1 at the top, 1e-2 two thirds up.
  EXPECT_NEAR(p[0].second, fr.y0 + fr.h, 0.2);
  EXPECT_NEAR(p[1].second, fr.y0 + fr.h / 3, 0.2);
  EXPECT_NEAR(p[2].second, fr.y0, 0.2);
  double last = INFINITY;
  for (const char *t : {"1e-4", "1e-3", "1e-2", "1e-1"}) {
    ASSERT_EQ(texts(d, t).size(), 1u) << t;
    double y = at(*texts(d, t)[0], "y");
    EXPECT_LT(y, last) << t << " is not above the tick before";
    last = y;
  }
  EXPECT_TRUE(texts(d, "1e-5").empty());
  EXPECT_TRUE(texts(d, "1e0").empty());
  // A grid line per tick, across the panel.
  size_t grid = 0;
  for (const Element *l : all(d, "line"))
    if (l->attrs.at("stroke") == "#e4e4e4") {
      ++grid;
      EXPECT_NEAR(at(*l, "x1"), fr.x0, 0.2);
      EXPECT_NEAR(at(*l, "x2"), fr.x0 + fr.w, 0.2);
    }
  EXPECT_EQ(grid, 4u);
}

TEST(PlotModule, RightAxisRulesAndStackedRings) {
  Figure f;
  f.x.lo = 0, f.x.hi = 64, f.x.ticks = 8;
  f.y.lo = 0, f.y.hi = 2;
  f.hasY2 = true;
  f.y2.lo = 0, f.y2.hi = 1e-7, f.y2.label = "E", f.y2.color = "#c0392b";
  Series e;
  e.right = true, e.x = {0, 64}, e.y = {0, 0.9e-7};
  f.series = {e};
  Rule lmax;
  lmax.vertical = true, lmax.at = 48, lmax.label = "λmax=48", lmax.dash = "6,4";
  lmax.legend = "occupancy bound";
  Rule qos;
  qos.at = 0.5e-7, qos.right = true, qos.label = "QoS";
  f.rules = {lmax, qos};
  for (int k = 0; k < 3; ++k) {
    Ring r;
    r.x = 40, r.y = 0.5e-7, r.right = true, r.stacked = true;
    r.label = "M" + std::to_string(k);
    if (k == 0)
      r.legend = "λ* per method";
    f.rings.push_back(r);
  }
  std::string svg = f.svg();
  Doc d = read(svg);
  Frame fr = frameOf(d);
  for (const char *t : {"0", "10", "60", "2", "1e-07", "2e-08", "E", "λmax=48",
                        "occupancy bound", "λ* per method", "M0", "M1", "M2"})
    EXPECT_FALSE(texts(d, t).empty()) << t;
  // The right axis: its ticks right of the frame, in its color.
  ASSERT_EQ(texts(d, "1e-07").size(), 1u);
  const Element &top = *texts(d, "1e-07")[0];
  EXPECT_GT(at(top, "x"), fr.x0 + fr.w);
  EXPECT_EQ(top.attrs.at("fill"), "#c0392b");
  // The series is measured on the right axis: 0.9e-7 of 1e-7.
  auto p = points(*all(d, "polyline").at(0));
  ASSERT_EQ(p.size(), 2u);
  EXPECT_NEAR(p[1].second, fr.y0 + fr.h * 0.1, 0.2);
  // The rules: λmax vertical at 48/64, the QoS horizontal half-way up.
  bool vertical = false, horizontal = false;
  for (const Element *l : all(d, "line")) {
    if (l->attrs.count("stroke-dasharray") &&
        l->attrs.at("stroke-dasharray") == "6,4" &&
        std::fabs(at(*l, "y1") - fr.y0) < 0.2) {
      vertical = true;
      EXPECT_NEAR(at(*l, "x1"), fr.x0 + fr.w * 0.75, 0.2);
      EXPECT_NEAR(at(*l, "y2"), fr.y0 + fr.h, 0.2);
    }
    if (std::fabs(at(*l, "x1") - fr.x0) < 0.2 &&
        std::fabs(at(*l, "x2") - (fr.x0 + fr.w)) < 0.2) {
      horizontal = true;
      EXPECT_NEAR(at(*l, "y1"), fr.y0 + fr.h / 2, 0.2);
    }
  }
  EXPECT_TRUE(vertical);
  EXPECT_TRUE(horizontal);
  EXPECT_EQ(count(svg, "stroke-dasharray=\"2,2\""), 3u) << "one leader each";
  // The stacked labels are on three distinct rows inside the panel.
  std::vector<double> rows;
  for (const char *m : {"M0", "M1", "M2"}) {
    ASSERT_EQ(texts(d, m).size(), 1u);
    rows.push_back(at(*texts(d, m)[0], "y"));
    EXPECT_LT(rows.back(), fr.y0 + fr.h);
    EXPECT_GT(rows.back(), fr.y0);
  }
  EXPECT_NE(rows[0], rows[1]);
  EXPECT_NE(rows[1], rows[2]);
  EXPECT_NE(rows[0], rows[2]);
}

TEST(PlotModule, HostileTextIsEscapedInEverySlot) {
  // Closes the element, opens a script, quotes, a CDATA end, a reference
  // that is not one, and a control character XML does not allow.
  const std::string evil =
      "</text><script>alert(1)</script> & &amp; \"q\" 'a' ]]> \x01z";
  const std::string shown =
      "</text><script>alert(1)</script> & &amp; \"q\" 'a' ]]> z";
  const std::string evilColor = "red\" onload=\"alert(1)";
  Figure f;
  f.title = evil;
  f.x.label = evil, f.y.label = evil, f.y2.label = evil;
  f.hasY2 = true;
  f.x.color = evilColor, f.y.color = evilColor, f.y2.color = evilColor;
  Series s;
  s.x = {1, 2}, s.y = {1, 2}, s.radius = 3;
  s.label = evil, s.tooltips = {evil, evil}, s.labels = {evil, ""};
  s.color = evilColor, s.dash = evilColor;
  f.series = {s};
  Rule r;
  r.at = 1.5, r.label = evil, r.legend = evil, r.color = evilColor;
  r.dash = evilColor;
  f.rules = {r};
  Ring a, b;
  a.x = 1, a.y = 1, a.label = evil, a.legend = evil, a.color = evilColor;
  b = a, b.stacked = true, b.legend.clear();
  f.rings = {a, b};
  std::string svg = f.svg();
  Doc d = read(svg);
  EXPECT_TRUE(all(d, "script").empty());
  for (const Element &e : d)
    EXPECT_EQ(e.attrs.count("onload"), 0u) << e.name;
  // Title, 3 axis titles, the point's label, the rule's label, 2 ring
  // labels, 3 legend entries (series, rule, ring): each reads the text.
  EXPECT_EQ(texts(d, shown).size(), 11u);
  std::vector<const Element *> tips = all(d, "title");
  ASSERT_EQ(tips.size(), 2u);
  for (const Element *t : tips)
    EXPECT_EQ(t->text, shown);
  // Colors come back as given (less the control characters): attributes.
  size_t colored = 0;
  for (const Element &e : d)
    for (const auto &kv : e.attrs)
      colored += kv.second == evilColor;
  EXPECT_GT(colored, 10u);
}

TEST(PlotModule, NonFiniteValuesAreLeftOut) {
  Figure f;
  f.x.lo = NAN, f.x.hi = kInf; // the data's range
  f.hasY2 = true;
  Series a, b;
  a.x = {0, 1, NAN, 3, 4, kInf};
  a.y = {0, 1, 2, -kInf, 4, 5};
  a.radius = 2;
  a.labels = {"p0", "p1", "p2", "p3", "p4", "p5"};
  b.right = true;
  b.x = {0, 1, 2};
  b.y = {NAN, NAN, NAN};
  b.radius = 2;
  f.series = {a, b};
  Rule r1, r2;
  r1.at = NAN, r1.label = "never";
  r2.vertical = true, r2.at = -kInf, r2.label = "never";
  f.rules = {r1, r2};
  Ring g;
  g.x = kInf, g.y = 1, g.label = "never";
  f.rings = {g};
  std::string svg = f.svg();
  Doc d = read(svg);
  EXPECT_FALSE(hasNanOrInf(svg));
  EXPECT_TRUE(texts(d, "never").empty());
  auto lines = all(d, "polyline");
  ASSERT_EQ(lines.size(), 1u) << "nothing left of the right series";
  EXPECT_EQ(points(*lines[0]).size(), 3u);
  EXPECT_EQ(all(d, "circle").size(), 3u);
  for (const char *t : {"p0", "p1", "p4"})
    EXPECT_EQ(texts(d, t).size(), 1u) << t;
  for (const char *t : {"p2", "p3", "p5"})
    EXPECT_TRUE(texts(d, t).empty()) << t;
  // The x axis spans the finite data: 0 on the left edge, 4 on the right.
  Frame fr = frameOf(d);
  auto p = points(*lines[0]);
  EXPECT_NEAR(p.front().first, fr.x0, 0.2);
  EXPECT_NEAR(p.back().first, fr.x0 + fr.w, 0.2);

  // Sizes that are not finite do not reach the document either.
  Figure g2;
  g2.width = NAN, g2.fontSize = kInf;
  Series s;
  s.x = {1, 2}, s.y = {1, 2}, s.width = NAN, s.radius = kInf;
  g2.series = {s};
  svg = g2.svg();
  read(svg);
  EXPECT_FALSE(hasNanOrInf(svg));
}

TEST(PlotModule, EmptyAndDegenerateData) {
  // Nothing at all: a frame and the default axis, no mark, no legend.
  {
    std::string svg = Figure().svg();
    Doc d = read(svg);
    Frame fr = frameOf(d);
    EXPECT_GT(fr.w, 0);
    EXPECT_GT(fr.h, 0);
    EXPECT_TRUE(all(d, "polyline").empty());
    EXPECT_TRUE(all(d, "circle").empty());
    EXPECT_FALSE(texts(d, "0").empty());
    EXPECT_FALSE(texts(d, "1").empty());
    EXPECT_FALSE(hasNanOrInf(svg));
  }
  // Empty series, one with x and y of different lengths, one point, and a
  // single repeated value: no line where there is not two points, no nan.
  {
    Figure f;
    Series empty, ragged, one, same;
    empty.label = "empty";
    ragged.x = {1, 2, 3}, ragged.y = {1, 2};
    one.x = {2}, one.y = {2}, one.radius = 2;
    same.x = {5, 5}, same.y = {7, 7}, same.radius = 2;
    f.series = {empty, ragged, one, same};
    std::string svg = f.svg();
    Doc d = read(svg);
    auto lines = all(d, "polyline");
    ASSERT_EQ(lines.size(), 2u) << "ragged (2 points) and same";
    EXPECT_EQ(points(*lines[0]).size(), 2u);
    EXPECT_EQ(all(d, "circle").size(), 3u)
        << "one's dot and same's two (the legend's entry is a line)";
    EXPECT_EQ(texts(d, "empty").size(), 1u)
        << "a labelled series has its entry";
    EXPECT_FALSE(hasNanOrInf(svg));
    Frame fr = frameOf(d);
    for (const Element *c : all(d, "circle"))
      if (at(*c, "cy") < fr.y0 + fr.h + 1) { // a data dot, not the legend's
        EXPECT_GE(at(*c, "cx"), fr.x0 - 0.1);
        EXPECT_LE(at(*c, "cx"), fr.x0 + fr.w + 0.1);
        EXPECT_GE(at(*c, "cy"), fr.y0 - 0.1);
      }
  }
  // A log axis with nothing positive, a figure of no size.
  {
    Figure f;
    f.y.scale = Scale::Log10;
    Series s;
    s.x = {1, 2}, s.y = {0, -3};
    f.series = {s};
    std::string svg = f.svg();
    Doc d = read(svg);
    EXPECT_TRUE(all(d, "polyline").empty());
    EXPECT_FALSE(texts(d, "1e-7").empty()) << "the default log range";
    EXPECT_FALSE(hasNanOrInf(svg));
    Figure z;
    z.width = 0, z.height = 0;
    svg = z.svg();
    read(svg);
    EXPECT_FALSE(hasNanOrInf(svg));
  }
}

TEST(PlotModule, LegendListsSeriesRulesAndRingsInOrder) {
  Figure f;
  Series s;
  s.x = {0, 1}, s.y = {0, 1}, s.label = "line";
  Series dots = s;
  dots.join = false, dots.label = "dots";
  Series quiet = s;
  quiet.label.clear();
  f.series = {s, dots, quiet};
  Rule r;
  r.at = 0.5, r.legend = "rule";
  f.rules = {r};
  Ring g;
  g.x = g.y = 0.5, g.legend = "ring";
  f.rings = {g};
  Doc d = read(f.svg());
  std::vector<double> xs;
  for (const char *t : {"line", "dots", "rule", "ring"}) {
    ASSERT_EQ(texts(d, t).size(), 1u) << t;
    xs.push_back(at(*texts(d, t)[0], "x"));
  }
  EXPECT_TRUE(std::is_sorted(xs.begin(), xs.end())) << "one row, in order";
  for (Legend where : {Legend::Right, Legend::Top}) {
    f.legend = where;
    Doc e = read(f.svg());
    Frame fr = frameOf(e);
    const Element &ring = *texts(e, "ring").at(0);
    if (where == Legend::Right)
      EXPECT_GT(at(ring, "x"), fr.x0 + fr.w);
    else
      EXPECT_LT(at(ring, "y"), fr.y0);
  }
  f.legend = Legend::None;
  EXPECT_TRUE(texts(read(f.svg()), "ring").empty());
}

TEST(PlotModule, TickText) {
  EXPECT_EQ(tickText(0), "0");
  EXPECT_EQ(tickText(0.25), "0.25");
  EXPECT_EQ(tickText(48), "48");
  EXPECT_EQ(tickText(0.8e-7), "8e-08");
  EXPECT_EQ(tickText(12345), "1.2e+04");
  EXPECT_EQ(escapeXml("a<b>&\"c"), "a&lt;b&gt;&amp;&quot;c");
  EXPECT_EQ(escapeXml("t\ta\x01\x1f\nb"), "t\ta\nb");
}
