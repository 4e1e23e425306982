//===- Tuner.cpp - choosing a perforation scheme and block shape ----------===//
//
// candidatesOf reads the manifest; tune measures, marks the front, picks;
// the renderers print and draw the result (Tuner.h).
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/perforation/Tuner.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/tune/Plot.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace approx::rt::perforation {

std::string Candidate::label() const {
  return scheme + " " + std::to_string(blockX) + "x" + std::to_string(blockY) +
         (rowsPerThread > 1 ? "r" + std::to_string(rowsPerThread) : "");
}

namespace {

/// True when `name` is `kernel` or one of its block-shape clones.
bool isKernelOrClone(const std::string &name, const std::string &kernel) {
  return name == kernel || (name.size() > kernel.size() + 2 &&
                            name.compare(0, kernel.size(), kernel) == 0 &&
                            name.compare(kernel.size(), 2, "__") == 0);
}

/// "32x8" of "k__32x8" (k = 1), "32x8r4" of "k__32x8r4", checked.
bool parseShape(const std::string &variant, const std::string &kernel,
                unsigned &x, unsigned &y, unsigned &k) {
  if (!isKernelOrClone(variant, kernel) || variant == kernel)
    return false;
  const std::string s = variant.substr(kernel.size() + 2);
  char tail = 0;
  k = 1;
  int n = std::sscanf(s.c_str(), "%ux%ur%u%c", &x, &y, &k, &tail);
  if (n != 2 && n != 3)
    return false;
  if (n == 2 && s.find('r') != std::string::npos)
    return false;
  return x >= 1 && y >= 1 && uint64_t(x) * y <= 1024 && k >= 1 && k <= 64;
}

/// A typed scheme's name in the perforation grammar (docs/perforation.md),
/// which the CPU reference and the reports use.
std::string schemeName(const Payload &p) {
  if (p.scheme == "accurate")
    return "accurate";
  if (p.scheme == "center")
    return "center" + std::to_string(p.skip);
  std::string name = p.scheme;
  if (p.scheme == "rows" || p.scheme == "cols")
    name += std::to_string(p.skip);
  return name + ":" + p.reconstruction;
}

std::string num(double v, int digits) {
  if (std::isinf(v))
    return "inf";
  if (std::isnan(v))
    return "nan";
  char b[48];
  std::snprintf(b, sizeof b, "%.*g", digits, v);
  return b;
}

} // namespace

Expected<std::vector<Candidate>>
candidatesOf(const Manifest &m, const std::string &kernel,
             const TuneKnobs &knobs, std::pair<unsigned, unsigned> defaultBlock) {
  // The scheme list. Version 3: the scheme knob's typed values. Otherwise
  // the kernel's (or its clones') perforation sites: typed schemes (v3) or
  // scheme names in their data (v2).
  std::vector<std::string> schemes;
  std::vector<Scheme> specs; // version 3: from the knob's payloads
  bool fromKnob = false;
  if (const KnobInfo *k = m.findKnob(knobs.scheme);
      k && k->domain.kind == DomainKind::Categorical &&
      std::all_of(k->domain.values.begin(), k->domain.values.end(),
                  [](const KnobValue &v) {
                    return v.payload.type == Payload::Type::PerforationScheme;
                  }))
    for (const KnobValue &v : k->domain.values) {
      Expected<Scheme> spec = schemeFromPayload(v.payload);
      if (!spec)
        return spec.status().withContext("knob '" + knobs.scheme + "' value " +
                                         quote(v.id));
      specs.push_back(*spec);
      schemes.push_back(schemeName(v.payload));
      fromKnob = true;
    }
  for (const SiteInfo &s : m.sites) {
    if (fromKnob)
      break;
    if (s.technique != "perforation" || s.knob != knobs.scheme)
      continue;
    bool mine = std::any_of(s.kernels.begin(), s.kernels.end(),
                            [&](const std::string &k) {
                              return isKernelOrClone(k, kernel);
                            });
    if (!mine)
      continue;
    std::vector<std::string> list;
    for (const Payload &p : s.schemes)
      list.push_back(schemeName(p));
    if (list.empty()) {
      nlohmann::json data = nlohmann::json::parse(s.data, nullptr, false);
      if (data.is_discarded() || !data.is_object() ||
          !data.contains("schemes") || !data["schemes"].is_array())
        return invalidArgument("perforation site of '" + kernel +
                               "' has no scheme list in its data");
      for (const auto &n : data["schemes"]) {
        if (!n.is_string())
          return invalidArgument("perforation site of '" + kernel +
                                 "' lists a scheme that is not a string");
        list.push_back(n.get<std::string>());
      }
    }
    // Several tile loads of one kernel share the knob. A scheme that skips
    // nothing on one of them (stencil on a tile without halo) is recorded
    // there as `accurate`: the other site names the knob value.
    if (!schemes.empty()) {
      bool same = schemes.size() == list.size();
      for (size_t i = 0; same && i < list.size(); ++i) {
        if (schemes[i] == list[i] || list[i] == "accurate")
          continue;
        if (schemes[i] == "accurate")
          schemes[i] = list[i];
        else
          same = false;
      }
      if (!same)
        return invalidArgument("the perforation sites of '" + kernel +
                               "' list different schemes for knob '" +
                               knobs.scheme + "'");
      continue;
    }
    schemes = list;
  }
  if (schemes.empty())
    return invalidArgument("no perforation site of kernel '" + kernel +
                           "' is governed by knob '" + knobs.scheme +
                           "' (compile with approx-perforation-raise)");
  const KnobInfo *schemeKnob = nullptr;
  for (const KnobInfo &k : m.knobs)
    if (k.name == knobs.scheme)
      schemeKnob = &k;
  if (!schemeKnob || schemeKnob->kind != KnobKind::Global ||
      schemeKnob->min != 0 || schemeKnob->max + 1 != int64_t(schemes.size()))
    return invalidArgument("knob '" + knobs.scheme + "' is not a global knob "
                           "of range [0, " +
                           std::to_string(schemes.size() - 1) + "]");
  if (std::find(schemes.begin(), schemes.end(), "accurate") == schemes.end())
    return invalidArgument("kernel '" + kernel + "' has no 'accurate' scheme "
                           "to measure the error against");
  // Block shapes: the variant knob dispatching the kernel.
  struct Shape {
    unsigned x, y, k;
  };
  std::vector<Shape> shapes;
  for (const KnobInfo &k : m.knobs) {
    if (k.name != knobs.block || k.kind != KnobKind::Variant)
      continue;
    // Version 3: the knob's block-shape payloads; version 2: the names.
    bool typed = !k.domain.values.empty() &&
                 std::all_of(k.domain.values.begin(), k.domain.values.end(),
                             [](const KnobValue &v) {
                               return v.payload.type ==
                                      Payload::Type::BlockShape;
                             });
    for (const VariantDispatch &d : k.dispatch) {
      if (d.kernel != kernel)
        continue;
      for (size_t i = 0; i < d.variants.size(); ++i) {
        if (typed) {
          const Payload &p = k.domain.values[i].payload;
          shapes.push_back({p.x, p.y, p.rows});
          continue;
        }
        const std::string &v = d.variants[i];
        unsigned x = 0, y = 0, r = 1;
        if (!parseShape(v, kernel, x, y, r))
          return invalidArgument("variant '" + v + "' of '" + kernel +
                                 "' is not named " + kernel + "__XxY[rK]");
        shapes.push_back({x, y, r});
      }
    }
  }
  const bool variants = !shapes.empty();
  if (!variants) {
    if (defaultBlock.first < 1 || defaultBlock.second < 1 ||
        uint64_t(defaultBlock.first) * defaultBlock.second > 1024)
      return invalidArgument("kernel '" + kernel + "' has no block-shape "
                             "knob: give its block shape");
    shapes.push_back({defaultBlock.first, defaultBlock.second, 1});
  }
  // Version 2 names the schemes in the sites' data: parsed here, once.
  if (specs.empty())
    for (const std::string &name : schemes) {
      Expected<Scheme> spec = parseScheme(name);
      if (!spec)
        return spec.status().withContext("perforation site of '" + kernel +
                                         "'");
      specs.push_back(*spec);
    }
  std::vector<Candidate> out;
  for (size_t b = 0; b < shapes.size(); ++b)
    for (size_t s = 0; s < schemes.size(); ++s)
      out.push_back({schemes[s], specs[s], int64_t(s),
                     variants ? int64_t(b) : -1, shapes[b].x, shapes[b].y,
                     shapes[b].k});
  return out;
}

Expected<std::pair<int64_t, int64_t>> haloOf(const Manifest &m,
                                             const std::string &kernel) {
  bool found = false;
  std::pair<int64_t, int64_t> halo{0, 0};
  for (const SiteInfo &s : m.sites) {
    if (s.technique != "perforation" || s.op != "tile_load" ||
        std::none_of(s.kernels.begin(), s.kernels.end(),
                     [&](const std::string &k) {
                       return isKernelOrClone(k, kernel);
                     }))
      continue;
    nlohmann::json data = nlohmann::json::parse(s.data, nullptr, false);
    if (data.is_discarded() || !data.is_object() || !data.contains("halo") ||
        !data["halo"].is_array() || data["halo"].size() != 2 ||
        !data["halo"][0].is_number_integer() ||
        !data["halo"][1].is_number_integer())
      continue;
    int64_t hy = data["halo"][0].get<int64_t>(),
            hx = data["halo"][1].get<int64_t>();
    if (hy < 0 || hx < 0 || hy > 65536 || hx > 65536)
      return invalidArgument("tile-load site of '" + kernel +
                             "' records a bad halo");
    halo = {std::max(halo.first, hy), std::max(halo.second, hx)};
    found = true;
  }
  if (!found)
    return invalidArgument("no tile-load site of kernel '" + kernel +
                           "' records its halo");
  return halo;
}

void markPareto(std::vector<Point> &points) {
  for (Point &p : points) {
    p.pareto = std::isfinite(p.error) && std::isfinite(p.ms);
    for (const Point &q : points)
      if (&q != &p && q.ms <= p.ms && q.error <= p.error &&
          (q.ms < p.ms || q.error < p.error))
        p.pareto = false;
  }
}

Expected<TuneResult> tune(const std::vector<Candidate> &candidates,
                          const MeasureFn &measure, double qos) {
  if (candidates.empty())
    return invalidArgument("tune: no candidate");
  if (!(qos >= 0))
    return invalidArgument("tune: the QoS bound must be >= 0");
  TuneResult r;
  r.qos = qos;
  for (const Candidate &c : candidates) {
    Expected<std::pair<double, double>> m = measure(c);
    if (!m)
      return Status(m.status().code(),
                    c.label() + ": " + m.status().message());
    Point p;
    p.candidate = c;
    p.ms = m->first;
    p.error = std::isnan(m->second) ? INFINITY : m->second;
    p.feasible = p.error <= qos;
    r.points.push_back(p);
  }
  markPareto(r.points);
  for (size_t i = 0; i < r.points.size(); ++i) {
    const Point &p = r.points[i];
    if (!p.feasible)
      continue;
    if (r.best < 0 || p.ms < r.points[size_t(r.best)].ms ||
        (p.ms == r.points[size_t(r.best)].ms &&
         p.error < r.points[size_t(r.best)].error))
      r.best = int(i);
  }
  return r;
}

std::string renderTable(const TuneResult &r, const std::string &metric,
                        double baselineMs) {
  std::ostringstream os;
  os << "| version | ms |" << (baselineMs > 0 ? " speedup |" : "") << " "
     << metric << " | |\n|---|---|" << (baselineMs > 0 ? "---|" : "")
     << "---|---|\n";
  for (size_t i = 0; i < r.points.size(); ++i) {
    const Point &p = r.points[i];
    os << "| " << p.candidate.label() << " | " << num(p.ms, 4) << " |";
    if (baselineMs > 0)
      os << " " << num(baselineMs / p.ms, 4) << " |";
    os << " " << num(p.error, 4) << " | "
       << (int(i) == r.best ? "**pick** " : "") << (p.pareto ? "front" : "")
       << (p.feasible ? "" : " (over QoS)") << " |\n";
  }
  return os.str();
}

std::string renderParetoSvg(const TuneResult &r, const std::string &title,
                            const std::string &metric) {
  // Errors on a log axis, floored at 1e-7 (the accurate scheme's 0).
  auto err = [](double e) { return std::max(e, 1e-7); };
  double t0 = INFINITY, t1 = 0, e0 = INFINITY, e1 = 0;
  for (const Point &p : r.points) {
    if (!std::isfinite(p.error))
      continue;
    t0 = std::min(t0, p.ms), t1 = std::max(t1, p.ms);
    e0 = std::min(e0, err(p.error)), e1 = std::max(e1, err(p.error));
  }
  if (!std::isfinite(t0)) // nothing finite to draw
    t0 = 0, t1 = 1, e0 = 1e-7, e1 = 1;
  if (t1 <= t0)
    t1 = t0 * 1.1 + 1e-9;
  plot::Figure f;
  f.width = 640, f.height = 420, f.fontSize = 11;
  f.title = title;
  f.x.label = "time (ms)";
  f.x.lo = t0 - 0.03 * (t1 - t0), f.x.hi = t1 + 0.03 * (t1 - t0);
  f.y.label = metric + " (log)";
  f.y.scale = plot::Scale::Log10;
  f.y.lo = e0 / std::pow(10.0, 0.2), f.y.hi = e1 * std::pow(10.0, 0.2);
  if (r.qos > 0) {
    plot::Rule q;
    q.at = r.qos, q.dash = "4 3", q.label = "QoS";
    f.rules.push_back(q);
  }
  std::vector<const Point *> front;
  for (const Point &p : r.points)
    if (p.pareto)
      front.push_back(&p);
  std::sort(front.begin(), front.end(),
            [](const Point *a, const Point *b) { return a->ms < b->ms; });
  plot::Series line, others, ends;
  line.label = "Pareto front", line.color = "#c33", line.width = 1.5;
  others.label = "other versions", others.color = "#69c";
  others.join = false, others.radius = 2.5;
  ends.color = "#c33", ends.join = false, ends.radius = 4;
  for (const Point *p : front) {
    line.x.push_back(p->ms), line.y.push_back(err(p->error));
    ends.x.push_back(p->ms), ends.y.push_back(err(p->error));
    ends.tooltips.push_back(p->candidate.label());
    ends.labels.push_back(p->candidate.label());
  }
  for (const Point &p : r.points)
    if (!p.pareto && std::isfinite(p.error)) {
      others.x.push_back(p.ms), others.y.push_back(err(p.error));
      others.tooltips.push_back(p.candidate.label());
    }
  f.series = {line, others, ends};
  if (r.best >= 0) {
    const Point &p = r.points[size_t(r.best)];
    plot::Ring pick;
    pick.x = p.ms, pick.y = err(p.error), pick.radius = 8;
    pick.legend = "the pick (fastest under the QoS)";
    f.rings.push_back(pick);
  }
  return f.svg();
}

} // namespace approx::rt::perforation
