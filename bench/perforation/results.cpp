// results.cpp - perforation-bench's statistics, tables and JSON
// (results.h).
#include "results.h"
#include "../JsonText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace pbench {

double median(std::vector<double> v) {
  if (v.empty())
    return NAN;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string num(double v, int prec) {
  if (std::isnan(v))
    return "null";
  if (std::isinf(v))
    return v > 0 ? "1e999" : "-1e999";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", prec, v);
  return buf;
}

double primaryOf(const Example &ex, const ErrorStats &e) {
  if (e.unwritten || e.nonfinite)
    return INFINITY;
  return ex.metric == "mre" ? e.mre : e.meanError;
}

Distribution distributionOf(const Example &ex,
                            const std::vector<ErrorStats> &es) {
  Distribution d;
  std::vector<double> ps, ss;
  for (const ErrorStats &e : es) {
    d.values.push_back(primaryOf(ex, e));
    d.unwritten += e.unwritten;
    d.nonfinite += e.nonfinite;
    if (!std::isnan(e.psnr))
      ps.push_back(e.psnr);
    if (!std::isnan(e.ssim))
      ss.push_back(e.ssim);
  }
  std::vector<double> v;
  for (double x : d.values)
    if (!std::isnan(x))
      v.push_back(x);
  if (!v.empty()) {
    d.med = median(v);
    d.lo = *std::min_element(v.begin(), v.end());
    d.hi = *std::max_element(v.begin(), v.end());
  }
  d.psnr = median(ps);
  d.ssim = median(ss);
  return d;
}

std::string pct(double v) {
  return std::isinf(v) ? "inf" : num(100 * v, 3) + "%";
}

namespace {

/// One NVML reading as JSON; null for none.
std::string stateJson(const std::optional<DeviceState> &s) {
  if (!s)
    return "null";
  return "{\"sm_mhz\": " + std::to_string(s->smClockMHz) +
         ", \"mem_mhz\": " + std::to_string(s->memClockMHz) +
         ", \"temp_c\": " + std::to_string(s->temperatureC) +
         ", \"power_w\": " + num(s->powerW, 6) +
         ", \"energy_j\": " + num(s->energyJ, 12) + "}";
}

/// One NVML reading for the tables; "-" for none.
std::string stateText(const std::optional<DeviceState> &s) {
  if (!s)
    return "-";
  return std::to_string(s->smClockMHz) + " / " +
         std::to_string(s->memClockMHz) + " MHz, " +
         std::to_string(s->temperatureC) + " C, " +
         (std::isnan(s->powerW) ? std::string("- W") : num(s->powerW, 4) + " W");
}
} // namespace

void writeResults(Results &R, const std::string &jsonPath) {
  // Tables and JSON.
  std::ostringstream json;
  json << "{\n\"copy_gbs\": " << num(R.copyGBs) << ",\n\"sizes\": [";
  for (size_t i = 0; i < R.sizes.size(); ++i)
    json << (i ? ", " : "") << R.sizes[i];
  json << "],\n\"error_sets\": [";
  for (size_t i = 0; i < R.sets.size(); ++i)
    json << (i ? ", " : "") << "\"" << R.sets[i] << "\"";
  json << "],\n\"photo_tiling\": \"mirror (numpy reflect, edge not repeated) "
          "of each photograph to N x N; native: at its own size\","
       << "\n\"ssim\": \"whole image, on the GPU, at every error set up to "
       << R.ssimMax << "^2\",\n\"native_pattern_size\": " << R.errorSize;
  // How long each time repeated, and the GPU's state around each size's
  // timing (issue 30, "Dispersion").
  json << ",\n\"timing\": {\"warmup\": " << R.timing.first.warmup
       << ", \"min_reps\": " << R.timing.first.reps
       << ", \"until_ci\": " << num(R.timing.untilCi, 6)
       << ", \"max_reps\": " << R.timing.maxReps
       << ", \"batch_reps\": " << TimingRule::kBatchReps
       << ", \"interval\": \"95% percentile bootstrap of the median (2000 "
          "resamples, fixed seed)\"}"
       << ",\n\"nvml\": " << (R.nvml.empty() ? "null" : jsonString(R.nvml))
       << ",\n\"device_state\": {";
  {
    bool f = true;
    for (int64_t n : R.sizes) {
      const Results::SizeState &st = R.deviceStates[n];
      json << (f ? "" : ",\n  ") << "\"" << n
           << "\": {\"start\": " << stateJson(st.start)
           << ", \"end\": " << stateJson(st.end) << "}";
      f = false;
    }
  }
  json << "},\n\"examples\": [\n";
  bool firstEx = true;
  for (const auto &ev : R.examples) {
    const Example &ex = ev.first;
    const std::vector<Version> &versions = ev.second;
    auto &tm = R.times[ex.name];
    auto &ts = R.timeStats[ex.name];
    auto timeStatOf = [&](const std::string &label,
                          int64_t n) -> const TimeStat * {
      auto l = ts.find(label);
      if (l == ts.end())
        return nullptr;
      auto t = l->second.find(n);
      return t == l->second.end() ? nullptr : &t->second;
    };
    // The error set a size's table uses: that size's, else the native one.
    auto setFor = [&](int64_t n) {
      std::string s = std::to_string(n);
      return std::find(R.sets.begin(), R.sets.end(), s) != R.sets.end()
                 ? s
                 : std::string("native");
    };
    std::printf("## %s (primary metric: %s; error = median [min, max] over the "
                "inputs of each size)\n\n",
                ex.name.c_str(), ex.metric.c_str());
    for (int64_t n : R.sizes) {
      const std::string set = setFor(n);
      double direct = tm["direct"][n], accurate = INFINITY;
      for (const Version &v : versions)
        if (v.scheme == "accurate")
          accurate = std::min(accurate, tm[v.label][n]);
      double base = std::min(direct, accurate);
      double bytes = double(ex.inputs + 1) * double(n) * double(n) * 4.0;
      std::printf(
          "%lld^2: direct %.4f ms (%.0f GB/s, %.0f%% of copy), best accurate "
          "tiling %.4f ms; baseline %.4f ms; errors over %zu inputs (%s%s)\n\n",
          (long long)n, direct, bytes / direct / 1e6,
          100.0 * bytes / direct / 1e6 / R.copyGBs, accurate, base,
          R.inputs[set][ex.name].size(),
          set == "native" ? "native set" : "at this size",
          ex.hotspot || n <= R.ssimMax ? "" : ", no SSIM");
      std::printf(
          "| version | ms [95%% interval] | speedup | GB/s | bound | of bound "
          "| %s median [min, max] | PSNR | SSIM |\n",
          ex.metric.c_str());
      std::printf("|---|---|---|---|---|---|---|---|---|\n");
      for (const Version &v : versions) {
        double t = tm[v.label][n];
        double r = double(ex.inputs) * n * n * 4.0, w = double(n) * n * 4.0;
        double moved = r * (1 - v.dramSkip) + w;
        double bound = (r + w) / moved;
        Distribution d = distributionOf(ex, R.errors[set][ex.name][v.label]);
        std::string err =
            v.scheme.empty()
                ? "0"
                : pct(d.med) + " [" + pct(d.lo) + ", " + pct(d.hi) + "]" +
                      (d.unwritten
                           ? " (" + std::to_string(d.unwritten) + " unwritten)"
                           : "") +
                      (d.nonfinite
                           ? " (" + std::to_string(d.nonfinite) + " not finite)"
                           : "");
        // The median, and its interval where there is one: then both to at
        // least 4 significant digits (a few microseconds' interval is
        // narrower than 0.0001 ms).
        const TimeStat *st = timeStatOf(v.label, n);
        char ms[96];
        if (st) {
          const int d =
              t > 0 && std::isfinite(t)
                  ? std::max(4, 3 - int(std::floor(std::log10(t))))
                  : 4;
          std::snprintf(ms, sizeof ms, "%.*f [%.*f, %.*f]", d, t, d, st->lo,
                        d, st->hi);
        } else {
          std::snprintf(ms, sizeof ms, "%.4f", t);
        }
        std::printf(
            "| %s | %s | %.3f | %.0f | %.3f | %.0f%% | %s | %s | %s |\n",
            v.label.c_str(), ms, base / t, moved / t / 1e6, bound,
            100.0 * (base / t) / bound, err.c_str(), num(d.psnr, 4).c_str(),
            num(d.ssim, 4).c_str());
      }
      std::printf("\n");
    }
    // The error's dependence on the size (and the tiling): every set.
    std::printf("%s: %s median [max] by input set\n\n| version |",
                ex.name.c_str(), ex.metric.c_str());
    for (const std::string &s : R.sets)
      std::printf(" %s |", s == "native" ? "native" : (s + "^2").c_str());
    std::printf("\n|---|");
    for (size_t i = 0; i < R.sets.size(); ++i)
      std::printf("---|");
    std::printf("\n");
    for (const Version &v : versions) {
      if (v.scheme.empty())
        continue;
      std::printf("| %s |", v.label.c_str());
      for (const std::string &s : R.sets) {
        Distribution d = distributionOf(ex, R.errors[s][ex.name][v.label]);
        std::printf(" %s [%s] |", pct(d.med).c_str(), pct(d.hi).c_str());
      }
      std::printf("\n");
    }
    std::printf("\n");

    // JSON.
    auto names = [&](const std::vector<std::string> &v) {
      std::ostringstream o;
      o << "[";
      for (size_t i = 0; i < v.size(); ++i)
        o << (i ? ", " : "") << "\"" << v[i] << "\"";
      o << "]";
      return o.str();
    };
    auto statsJson = [&](const std::vector<ErrorStats> &es) {
      std::ostringstream o;
      o << "[";
      for (size_t i = 0; i < es.size(); ++i)
        o << (i ? ", " : "") << "{\"mre\": " << num(es[i].mre)
          << ", \"mean_error\": " << num(es[i].meanError)
          << ", \"psnr\": " << num(es[i].psnr)
          << ", \"ssim\": " << num(es[i].ssim)
          << ", \"unwritten\": " << (es[i].unwritten ? "true" : "false")
          << ", \"nonfinite\": " << (es[i].nonfinite ? "true" : "false") << "}";
      o << "]";
      return o.str();
    };
    json << (firstEx ? "" : ",\n") << "{\"name\": \"" << ex.name
         << "\", \"metric\": \"" << ex.metric
         << "\", \"inputs\": " << names(R.inputs["native"][ex.name])
         << ",\n \"inputs_by_size\": {";
    for (size_t i = 1; i < R.sets.size(); ++i)
      json << (i > 1 ? ", " : "") << "\"" << R.sets[i]
           << "\": " << names(R.inputs[R.sets[i]][ex.name]);
    json << "},\n \"versions\": [\n";
    firstEx = false;
    for (size_t vi = 0; vi < versions.size(); ++vi) {
      const Version &v = versions[vi];
      double r = double(ex.inputs), w = 1.0;
      json << (vi ? ",\n" : "") << "  {\"label\": \"" << v.label
           << "\", \"scheme\": \"" << v.scheme << "\", \"block\": [" << v.bx
           << ", " << v.by << "], \"rows_per_thread\": " << v.rows
           << ", \"loaded_fraction\": " << num(v.loadedFraction)
           << ", \"dram_skip\": " << num(v.dramSkip)
           << ", \"bound\": " << num((r + w) / (r * (1 - v.dramSkip) + w), 6)
           << ", \"ms\": {";
      bool f = true;
      for (int64_t n : R.sizes) {
        json << (f ? "" : ", ") << "\"" << n
             << "\": " << num(tm[v.label][n], 6);
        f = false;
      }
      // The median's 95% interval and the timed launches ("ms" is the
      // median, as before).
      json << "}, \"ms_ci95\": {";
      f = true;
      for (int64_t n : R.sizes) {
        const TimeStat *st = timeStatOf(v.label, n);
        json << (f ? "" : ", ") << "\"" << n << "\": "
             << (st ? "[" + num(st->lo, 6) + ", " + num(st->hi, 6) + "]"
                    : std::string("null"));
        f = false;
      }
      json << "}, \"reps\": {";
      f = true;
      for (int64_t n : R.sizes) {
        const TimeStat *st = timeStatOf(v.label, n);
        json << (f ? "" : ", ") << "\"" << n
             << "\": " << (st ? std::to_string(st->reps) : "null");
        f = false;
      }
      json << "}, \"gbs\": {";
      f = true;
      for (int64_t n : R.sizes) {
        double moved = (r * (1 - v.dramSkip) + w) * double(n) * double(n) * 4.0;
        json << (f ? "" : ", ") << "\"" << n
             << "\": " << num(moved / tm[v.label][n] / 1e6, 5);
        f = false;
      }
      json << "},\n   \"errors\": "
           << statsJson(R.errors["native"][ex.name][v.label])
           << ",\n   \"errors_by_size\": {";
      for (size_t i = 1; i < R.sets.size(); ++i)
        json << (i > 1 ? ", " : "") << "\"" << R.sets[i]
             << "\": " << statsJson(R.errors[R.sets[i]][ex.name][v.label]);
      json << "},\n   \"error_stats\": {";
      for (size_t i = 0; i < R.sets.size(); ++i) {
        const std::vector<ErrorStats> &es =
            R.errors[R.sets[i]][ex.name][v.label];
        Distribution d = distributionOf(ex, es);
        if (v.scheme.empty())
          d.med = d.lo = d.hi = 0; // the reference itself
        json << (i ? ", " : "") << "\"" << R.sets[i]
             << "\": {\"median\": " << num(d.med, 6)
             << ", \"min\": " << num(d.lo, 6) << ", \"max\": " << num(d.hi, 6)
             << ", \"psnr_median\": " << num(d.psnr, 6)
             << ", \"ssim_median\": " << num(d.ssim, 6)
             << ", \"unwritten\": " << d.unwritten
             << ", \"nonfinite\": " << d.nonfinite << ", \"values\": [";
        for (size_t k = 0; k < d.values.size(); ++k)
          json << (k ? ", " : "") << num(d.values[k], 6);
        json << "]}";
      }
      json << "}}";
    }
    json << "]}";
    std::fflush(stdout);
  }
  json << "\n],\n\"phases_s\": {";
  for (size_t i = 0; i < R.phases.size(); ++i)
    json << (i ? ", " : "") << "\"" << R.phases[i].first
         << "\": " << num(R.phases[i].second, 4);
  json << "}\n}\n";
  // The repetition rule, the launches it took and the GPU's state.
  int fewest = 0, most = 0;
  for (const auto &e : R.timeStats)
    for (const auto &l : e.second)
      for (const auto &t : l.second) {
        fewest = fewest ? std::min(fewest, t.second.reps) : t.second.reps;
        most = std::max(most, t.second.reps);
      }
  std::printf("## Timing\n\nEach time: the median of %d to %d timed launches "
              "after %d warm-ups (",
              fewest, most, R.timing.first.warmup);
  if (R.timing.untilCi > 0)
    std::printf("at least %d, until the 95%% interval of the median is within "
                "+-%s%% of it, at most %d",
                R.timing.first.reps, num(100 * R.timing.untilCi, 4).c_str(),
                R.timing.maxReps);
  else
    std::printf("--reps %d, no --until-ci", R.timing.first.reps);
  std::printf("), with its 95%% percentile-bootstrap interval.\n\n");
  if (!R.nvml.empty())
    std::printf("No GPU state readings (NVML): %s\n\n", R.nvml.c_str());
  std::printf("| size | GPU at the start: SM / memory clock, temperature, "
              "power | at the end |\n|---|---|---|\n");
  for (int64_t n : R.sizes)
    std::printf("| %lld^2 | %s | %s |\n", (long long)n,
                stateText(R.deviceStates[n].start).c_str(),
                stateText(R.deviceStates[n].end).c_str());
  std::printf("\n");
  std::printf("## Run time by phase\n\n| phase | s |\n|---|---|\n");
  for (const auto &p : R.phases)
    std::printf("| %s | %.1f |\n", p.first.c_str(), p.second);
  std::printf("\n");
  if (!jsonPath.empty()) {
    std::ofstream f(jsonPath);
    f << json.str();
    if (!f)
      die("cannot write " + jsonPath);
  }
}

Results demoResults() {
  Results R;
  R.copyGBs = 2950;
  R.sizes = {1024, 8192};
  R.sets = {"native", "1024", "8192"};
  R.phases = {{"start-up (demo)", 1.0}, {"total", 2.0}};
  R.timing.first.reps = 20, R.timing.untilCi = 0.01, R.timing.maxReps = 200;
  DeviceState hot;
  hot.smClockMHz = 1980, hot.memClockMHz = 2619, hot.temperatureC = 41;
  hot.powerW = 312.5, hot.energyJ = 123456.789;
  R.deviceStates[1024] = {hot, hot};
  R.deviceStates[8192].start = hot; // and no reading at the end
  for (const Example &ex : {kExamples[0], kExamples[5]}) {
    std::vector<Version> vs;
    vs.push_back({"direct", "", Source::Direct, -1, -1, 32, 8, 1, 1, 0});
    vs.push_back(
        {"accurate 32x4r8", "accurate", Source::Input, 0, 3, 32, 4, 8, 1, 0});
    vs.push_back({"rows1:nn 32x4r8", "rows1:nn", Source::Input, 1, 3, 32, 4, 8,
                  0.6, 0.5});
    vs.push_back({"stencil:nn 32x4r8", "stencil:nn", Source::Input, 7, 3, 32, 4,
                  8, 0.9, 0});
    vs.push_back({"out:rows1:nn 32x8", "rows1:nn", Source::Output, 1, -1, 32, 8,
                  1, 1, 0});
    const double ms[] = {1.2, 0.9, 0.7, 0.75, 1.1};
    for (const std::string &set : R.sets) {
      const int inputs = ex.hotspot ? 3 : 15;
      for (int i = 0; i < inputs; ++i)
        R.inputs[set][ex.name].push_back("input" + std::to_string(i) + "-" +
                                         set);
      for (size_t v = 1; v < vs.size(); ++v)
        for (int i = 0; i < inputs; ++i) {
          ErrorStats e;
          const double base = v == 1 ? 0 : 0.01 * double(v) * (1 + 0.1 * i);
          e.mre = e.meanError = base;
          e.psnr = base > 0 ? -10 * std::log10(base * base) : INFINITY;
          e.ssim = 1 - base;
          if (set == "8192" && v == 4 && i == 0)
            e = ErrorStats(), e.unwritten = true;
          if (set == "1024" && v == 3 && i == 1)
            e = ErrorStats(), e.nonfinite = true;
          R.errors[set][ex.name][vs[v].label].push_back(e);
        }
    }
    for (size_t v = 0; v < vs.size(); ++v)
      for (int64_t n : R.sizes) {
        const double t = ms[v] * double(n * n) / (16384.0 * 16384.0);
        R.times[ex.name][vs[v].label][n] = t;
        // An interval and a rep count for all but one (null in the JSON).
        if (ex.hotspot && v == 4 && n == 8192)
          continue;
        TimeStat st;
        st.ms = t, st.lo = t * (1 - 0.002 * double(v + 1)),
        st.hi = t * (1 + 0.003 * double(v + 1));
        st.reps = 20 + 10 * int(v);
        R.timeStats[ex.name][vs[v].label][n] = st;
      }
    R.examples.push_back({ex, vs});
  }
  return R;
}

} // namespace pbench
