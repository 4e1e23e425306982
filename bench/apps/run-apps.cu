// run-apps.cu - the evaluation suite on the GPU (bench/apps/run-apps.sh).
//
// For every app linked in (bench/apps/<abbr>.cu, built with -DAX_LISTING3)
// and every set of approx-cc outputs given (--set LABEL=DIR, one per slot
// source), on one fixed-seed tuning input:
//   - the λ grid of each slot source (sfu/SlotGrid.h probe);
//   - T(λ) and E(λ) for every λ in [0, λmax] (E: the app's own metric
//     against its λ = 0 output), and, with two launches per λ, how far E
//     moves between identical runs;
//   - ours (approx-cc PTX through the runtime) against the hand-written
//     Listing-3 build at λ = 0 and λmax, interleaved launch by launch;
//   - SMP, HEU (on the measured grid) and OMG at QoS_ratio R over the
//     measured curve: λ*, runs, T(λ*), E(λ*); T(λ_HEU)/T(λ_OMG) also
//     re-timed side by side (the curve's minimum is biased low);
//   - HEU's and OMG's λ* on a held-out input (another seed): E there
//     against the same bound.
// Timing: inputs restored and outputs poisoned before every launch, outside
// the timed region; CUDA events around each launch; 3 warm-up rounds, then
// medians. Each measurement (one λ of the curve, ours against the hand build
// at λ = 0 or λmax, one round of HEU against OMG) runs its launches
// interleaved, round by round, for at least --min-reps rounds; with
// --until-ci R it goes on until the 95% bootstrap interval of every launch's
// median lies within ±R of that median (checked every 10 rounds past
// --min-reps), or --max-reps rounds (issue 30, "Dispersion"). The defaults
// (10 rounds, --until-ci 0: off) are the runs of 2026-11-26. Every median
// in the JSON has its interval and rounds beside it (time_ms_ci and
// reps_taken for the curve; ours_hand_ci, ours_hand_ratio, ours_hand_reps;
// each tuner's time_ms_ci; heu_omg_retimed_ci, _rounds and _reps), and the
// device state (SM and memory clocks, temperature, power; NVML, null
// without it) at the start and end of each app and of the run. Beside each
// app's own error curve E, error_mre is the paper's metric (mean relative
// error over every output element; the tuners use E).
//
// usage: run-apps --set LABEL=DIR [--set ...] [--apps a,b] [--min-reps N]
//                 [--until-ci R] [--max-reps N] [--qos-ratio R] [--json PATH]
//   --min-reps N   rounds per measurement, at least (default 10; --reps N
//                  is the same option)
//   --until-ci R   go on until every median's 95% interval is within ±R of
//                  it, e.g. 0.01 (default 0: off, --min-reps rounds)
//   --max-reps N   rounds per measurement, at most (default 200)
#include "Harness.cuh"

#include "approx/runtime/core/DeviceMonitor.h"
#include "approx/runtime/sfu/Occupancy.h"
#include "approx/runtime/sfu/SlotGrid.h"
#include "approx/runtime/tune/Metrics.h"
#include "approx/runtime/tune/Tuner.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace approx::rt;

namespace {
int gMinReps = 10, gMaxReps = 200, gWarmup = 3;
double gUntilCi = 0; // 0: off

/// The runner's median since its first runs (the upper middle sample for an
/// even count): the JSON's medians keep that meaning.
double upperMedian(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// One interleaved measurement: each launch's samples (ms), and the rounds.
using apps::Sampled;
/// A measurement's median as the runner has always reported it.
double ms(const Sampled &t, size_t k) { return upperMedian(t.samples[k]); }

/// Times `launches` interleaved: sample i of each in turn, each after a
/// restore, events around the launch only; gWarmup rounds first, then at
/// least gMinReps rounds, until every launch's median is tight
/// (gUntilCi) or gMaxReps rounds.
Sampled timeInterleaved(apps::DeviceProblem &d,
                       const std::vector<std::function<void()>> &launches) {
  apps::RepeatRule rule;
  rule.warmup = gWarmup, rule.minReps = gMinReps, rule.maxReps = gMaxReps;
  rule.tight = gUntilCi;
  return bench::timeLaunches([&d] { d.restore(); }, launches, rule);
}

std::string jsonArray(const std::vector<double> &v) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < v.size(); ++i) {
    os << (i ? "," : "");
    if (std::isfinite(v[i]))
      os << v[i];
    else
      os << "\"inf\""; // a NaN/inf mismatch: no QoS accepts it
  }
  os << "]";
  return os.str();
}
std::string jsonPair(std::pair<double, double> p) {
  return "[" + apps::jsonNum(p.first) + "," + apps::jsonNum(p.second) + "]";
}
std::string jsonRatio(const Sampled::Ratio &r) {
  return "{\"median\":" + apps::jsonNum(r.median) +
         ",\"lo\":" + apps::jsonNum(r.lo) + ",\"hi\":" + apps::jsonNum(r.hi) +
         "}";
}
/// A reading for the table's header lines.
std::string stateText(const DeviceMonitor *mon) {
  if (!mon)
    return "no NVML readings";
  auto s = mon->read();
  if (!s.isOk())
    return "NVML: " + s.status().toString();
  char buf[160];
  std::snprintf(buf, sizeof buf, "SM %u MHz, memory %u MHz, %u C, %.0f W",
                s->smClockMHz, s->memClockMHz, s->temperatureC, s->powerW);
  return buf;
}

/// A finite number >= lo (> lo when `strict`).
double numberValue(const std::string &opt, const std::string &v, double lo,
                   bool strict, const char *what) {
  char *end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  if (v.empty() || !end || *end || !std::isfinite(x) || x < lo ||
      (strict && x == lo)) {
    std::fprintf(stderr, "run-apps: %s wants %s, not '%s'\n", opt.c_str(),
                 what, v.c_str());
    std::exit(2);
  }
  return x;
}

struct SetSpec {
  std::string label, dir;
};
} // namespace

int main(int argc, char **argv) {
  std::vector<SetSpec> sets;
  std::vector<std::string> only;
  double qosRatio = 0.8;
  std::string jsonPath;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return optionValue(argc, argv, i, "run-apps"); };
    if (a == "--set") {
      std::string v = next();
      size_t eq = v.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "run-apps: --set wants LABEL=DIR\n");
        return 2;
      }
      sets.push_back({v.substr(0, eq), v.substr(eq + 1)});
    } else if (a == "--apps") {
      std::stringstream ss(next());
      for (std::string s; std::getline(ss, s, ',');)
        only.push_back(s);
    } else if (a == "--min-reps" || a == "--reps") {
      gMinReps = countOption("run-apps", a, next());
    } else if (a == "--max-reps") {
      gMaxReps = countOption("run-apps", a, next());
    } else if (a == "--until-ci") {
      gUntilCi = untilCiOption("run-apps", a, next());
    } else if (a == "--qos-ratio") {
      qosRatio = numberValue(a, next(), 0, true, "a positive number");
    } else if (a == "--json") {
      jsonPath = next();
    } else {
      std::fprintf(stderr, "run-apps: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (sets.empty()) {
    std::fprintf(stderr, "usage: run-apps --set LABEL=DIR [--set ...] "
                         "[--apps a,b] [--min-reps N] [--until-ci R] "
                         "[--max-reps N] [--qos-ratio R] [--json F]\n");
    return 2;
  }
  if (gMaxReps < gMinReps) {
    std::fprintf(stderr, "run-apps: --max-reps %d is below --min-reps %d\n",
                 gMaxReps, gMinReps);
    return 2;
  }
  check(probeDriver(), "driver");
  auto ctxOr = Context::create();
  check(ctxOr.status(), "context");
  std::shared_ptr<Context> ctx = *ctxOr;
  CK(cudaFree(nullptr)); // the runtime API joins the same primary context
  const DeviceInfo &dev = ctx->device();
  // Clocks, temperature and power beside the times (NVML; without it the
  // JSON's states are null and the run goes on).
  std::unique_ptr<DeviceMonitor> mon;
  std::string noMonitor;
  if (auto mo = DeviceMonitor::open(dev.uuid); mo.isOk())
    mon = std::move(*mo);
  else
    noMonitor = mo.status().toString();
  if (gUntilCi > 0)
    std::printf("# %s, %d SMs, driver %d, reps %d..%d until ±%.1f%%, "
                "QoS_ratio %.2f\n",
                dev.name.c_str(), dev.smCount, dev.driverVersion, gMinReps,
                gMaxReps, 100 * gUntilCi, qosRatio);
  else
    std::printf("# %s, %d SMs, driver %d, reps %d, QoS_ratio %.2f\n",
                dev.name.c_str(), dev.smCount, dev.driverVersion, gMinReps,
                qosRatio);
  std::printf("# device at start: %s\n",
              mon ? stateText(mon.get()).c_str()
                  : ("no NVML readings: " + noMonitor).c_str());

  std::ostringstream js;
  js << "{\"device\":\"" << dev.name << "\",\"driver\":" << dev.driverVersion
     << ",\"uuid\":\"" << dev.uuid << "\",\"reps\":" << gMinReps
     << ",\"min_reps\":" << gMinReps << ",\"max_reps\":" << gMaxReps
     << ",\"until_ci\":" << gUntilCi << ",\"warmup\":" << gWarmup
     << ",\"qos_ratio\":" << qosRatio
     << ",\"state_start\":" << apps::stateJson(mon.get(), false)
     << ",\"grids\":{";
  std::map<WarpSlot, int> gridStep;
  bool firstGrid = true;
  for (WarpSlot s : {WarpSlot::Hw, WarpSlot::Virtual}) {
    auto g = measureSlotGrid(ctx, s);
    check(g.status(), "slot grid probe");
    gridStep[s] = g->step;
    std::printf("# lambda grid, slot %s: step %d (staircase fit R2 %.4f), probe "
                "T(0) %.3f ms, T(max) %.3f ms\n",
                warpSlotName(s), g->step, g->captured,
                g->timeMs.front(), g->timeMs.back());
    js << (firstGrid ? "" : ",") << "\"" << warpSlotName(s)
       << "\":{\"step\":" << g->step << ",\"captured\":" << g->captured
       << ",\"time_ms\":" << jsonArray(g->timeMs) << "}";
    firstGrid = false;
  }
  js << "},\"apps\":[";

  std::printf("\n| app | set | λmax | step | T(0) ms | SFU speedup | hand SFU "
              "speedup | ours/hand λ=0 | ours/hand λmax | E(λmax) | E "
              "run-to-run | HEU λ/runs | SMP λ/runs | OMG λ/runs | HEU/OMG T | "
              "HEU/OMG T re-timed | held-out E/bound (HEU), own-ratio bound | "
              "λ=0 differ from nvcc |\n|---|---|---|---|---|---|---|---|---|"
              "---|---|---|---|---|---|---|---|---|\n");
  bool firstApp = true;
  for (const apps::App &app : apps::registry()) {
    if (!only.empty() &&
        std::find(only.begin(), only.end(), app.abbr) == only.end())
      continue;
    const std::string stateStart = apps::stateJson(mon.get());
    apps::DeviceProblem tuneIn(app.make(1)), heldIn(app.make(2));
    js << (firstApp ? "" : ",") << "{\"abbr\":\"" << app.abbr
       << "\",\"name\":\"" << app.name << "\",\"domain\":\"" << app.domain
       << "\",\"description\":\"" << app.description << "\",\"functions\":\""
       << app.functions << "\",\"metric\":\"" << app.metric
       << "\",\"dp\":" << (app.doublePrecision ? "true" : "false")
       << ",\"sets\":{";
    firstApp = false;
    bool firstSet = true;
    for (const SetSpec &set : sets) {
      auto mod = Module::load(ctx, set.dir + "/" + app.abbr + ".manifest.json");
      check(mod.status(), app.abbr);
      Module &m = **mod;
      const std::string kernel = app.kernel;
      LaunchConfig cfg = tuneIn.config();
      auto occ = lambdaBound(m, kernel, cfg, "lambda");
      check(occ.status(), app.abbr);
      const int64_t lmax = occ->lambdaMax;
      const KnobInfo *knob = m.manifest().findKnob("lambda");
      const WarpSlot slot = knob ? knob->warpSlot : WarpSlot::Hw;
      const int step = gridStep.count(slot) ? gridStep[slot] : 1;

      auto oursOn = [&](apps::DeviceProblem &d, int64_t lambda) {
        std::vector<Arg> args = d.runtimeArgs();
        LaunchConfig c = d.config();
        return [&m, kernel, args, c, lambda]() {
          LaunchOptions o;
          o.knobs["lambda"] = lambda;
          check(m.launch(kernel, c, args, o), "launch");
        };
      };
      auto outputsAt = [&](apps::DeviceProblem &d, int64_t lambda) {
        d.restore();
        oursOn(d, lambda)();
        return d.outputs();
      };

      // The curve.
      apps::Outputs ref = outputsAt(tuneIn, 0);
      std::vector<double> T, E, E2, Emre;
      const size_t elem = app.doublePrecision ? 8 : 4;
      std::vector<std::pair<double, double>> Tci;
      std::vector<int> Treps;
      for (int64_t l = 0; l <= lmax; ++l) {
        const Sampled t = timeInterleaved(tuneIn, {oursOn(tuneIn, l)});
        T.push_back(ms(t, 0));
        Tci.push_back(t.ci(0));
        Treps.push_back(t.reps);
        const apps::Outputs out = outputsAt(tuneIn, l);
        E.push_back(app.error(tuneIn.p, ref, out));
        // The paper's metric beside the app's own (the tuners use the app's).
        Emre.push_back(apps::meanRelativeOfOutputs(ref, out, elem));
        // A second run shows how far E moves between identical launches:
        // only %warpid slots can move (virtual ones are deterministic).
        E2.push_back(slot == WarpSlot::Hw
                         ? app.error(tuneIn.p, ref, outputsAt(tuneIn, l))
                         : E.back());
      }
      double eNoise = 0;
      for (size_t l = 0; l < E.size(); ++l)
        if (std::max(E[l], E2[l]) > 0)
          eNoise = std::max(eNoise, std::fabs(E[l] - E2[l]) /
                                        std::max(E[l], E2[l]));

      // Ours against the hand-written build, interleaved; the hand knob is
      // set before each pair of timings, not inside them.
      CK(app.setHandLambda(0));
      const Sampled t0 = timeInterleaved(
          tuneIn, {oursOn(tuneIn, 0), [&]() { tuneIn.launchHand(app); }});
      // The hand kernel's full-SFU λ: every warp slot of the SM (its own
      // occupancy may differ from ours, so our λmax need not cover it).
      const int handMax = dev.maxThreadsPerSM / dev.warpSize;
      CK(app.setHandLambda(handMax));
      const Sampled tmax = timeInterleaved(
          tuneIn, {oursOn(tuneIn, lmax), [&]() { tuneIn.launchHand(app); }});
      const std::vector<double> r0 = {ms(t0, 0), ms(t0, 1)},
                                rmax = {ms(tmax, 0), ms(tmax, 1)};
      tuneIn.restore();
      tuneIn.launchHand(app);
      double handE = app.error(tuneIn.p, ref, tuneIn.outputs());
      CK(app.setHandLambda(0));
      // λ = 0 against nvcc's build of the same source (the hand build at 0
      // runs its precise path): output elements that differ bit for bit.
      tuneIn.restore();
      tuneIn.launchHand(app);
      const apps::Outputs hand0 = tuneIn.outputs();
      uint64_t zeroDiffer = 0, zeroCompared = 0;
      for (size_t k = 0; k < ref.size() && k < hand0.size(); ++k)
        for (size_t i = 0; i + elem <= ref[k].size(); i += elem) {
          ++zeroCompared;
          zeroDiffer += std::memcmp(ref[k].data() + i, hand0[k].data() + i, elem) != 0;
        }

      // The searches over the measured curve.
      CurveEvaluator curve(T, E, lmax);
      std::map<TuneMethod, TuneResult> res;
      for (TuneMethod meth : {TuneMethod::Smp, TuneMethod::Heu, TuneMethod::Omg}) {
        TuneOptions o;
        o.qos = QoS::ratio(qosRatio);
        o.lambdaStep = step;
        auto r = tune(curve, meth, o);
        check(r.status(), "tune");
        res[meth] = *r;
      }
      const TuneResult &heu = res[TuneMethod::Heu], &omg = res[TuneMethod::Omg],
                       &smp = res[TuneMethod::Smp];
      // HEU's λ against OMG's, re-timed side by side: OMG's point is the
      // minimum over the curve's noisy medians, so the curve's own ratio
      // is biased against HEU. Three interleaved rounds, median ratio.
      // Its interval: the per-round ratios of the paired samples, pooled
      // over the three rounds.
      std::vector<double> retimed, pooled;
      std::vector<int> retimedReps;
      for (int round = 0; round < 3; ++round) {
        const Sampled pair = timeInterleaved(
            tuneIn, {oursOn(tuneIn, heu.lambda), oursOn(tuneIn, omg.lambda)});
        retimed.push_back(ms(pair, 0) / ms(pair, 1));
        retimedReps.push_back(pair.reps);
        for (size_t i = 0; i < pair.samples[0].size(); ++i)
          pooled.push_back(pair.samples[0][i] / pair.samples[1][i]);
      }
      const double heuOmgRetimed = upperMedian(retimed);
      const std::pair<double, double> heuOmgCi = medianInterval(pooled);
      // Held out: the same bound, another input.
      apps::Outputs heldRef = outputsAt(heldIn, 0);
      double heldHeu =
          app.error(heldIn.p, heldRef, outputsAt(heldIn, heu.lambda));
      double heldOmg =
          app.error(heldIn.p, heldRef, outputsAt(heldIn, omg.lambda));
      // The ratio QoS read on the held-out input itself: r * E_held(λmax).
      double heldBound =
          qosRatio * app.error(heldIn.p, heldRef, outputsAt(heldIn, lmax));

      std::printf("| %s | %s | %lld | %d | %.4f | %.2fx | %.2fx | %.3f | %.3f "
                  "| %.3g | %.2g | %lld/%d | %lld/%d | %lld/%d | %.3f | %.3f | %.3g/%.3g "
                  "%s, own %.3g %s | %llu/%llu |\n",
                  app.abbr, set.label.c_str(), (long long)lmax, step, T[0],
                  T[0] / T[lmax], r0[1] / rmax[1], r0[0] / r0[1],
                  rmax[0] / rmax[1], E[lmax], eNoise, (long long)heu.lambda,
                  heu.runs, (long long)smp.lambda, smp.runs,
                  (long long)omg.lambda, omg.runs, heu.timeMs / omg.timeMs,
                  heuOmgRetimed, heldHeu, heu.qosBound,
                  heldHeu <= heu.qosBound ? "ok" : "VIOLATED", heldBound,
                  heldHeu <= heldBound ? "ok" : "VIOLATED",
                  (unsigned long long)zeroDiffer, (unsigned long long)zeroCompared);
      std::fflush(stdout);
      js << (firstSet ? "" : ",") << "\"" << set.label << "\":{"
         << "\"slot\":\"" << warpSlotName(slot) << "\",\"lambda_max\":" << lmax
         << ",\"step\":" << step << ",\"time_ms\":" << jsonArray(T)
         << ",\"time_ms_ci\":[";
      for (size_t l = 0; l < Tci.size(); ++l)
        js << (l ? "," : "") << jsonPair(Tci[l]);
      js << "],\"reps_taken\":[";
      for (size_t l = 0; l < Treps.size(); ++l)
        js << (l ? "," : "") << Treps[l];
      js << "],\"error\":" << jsonArray(E) << ",\"error_mre\":"
         << jsonArray(Emre) << ",\"error_repeat\":"
         << jsonArray(E2) << ",\"ours_hand\":{\"ours0\":" << r0[0]
         << ",\"hand0\":" << r0[1] << ",\"oursmax\":" << rmax[0]
         << ",\"handmax\":" << rmax[1] << ",\"hand_error_max\":" << handE
         << ",\"zero_differ\":" << zeroDiffer << ",\"zero_compared\":" << zeroCompared
         << "},\"ours_hand_ci\":{\"ours0\":" << jsonPair(t0.ci(0))
         << ",\"hand0\":" << jsonPair(t0.ci(1))
         << ",\"oursmax\":" << jsonPair(tmax.ci(0))
         << ",\"handmax\":" << jsonPair(tmax.ci(1))
         << "},\"ours_hand_ratio\":{\"zero\":" << jsonRatio(t0.ratio(0, 1))
         << ",\"max\":" << jsonRatio(tmax.ratio(0, 1))
         << "},\"ours_hand_reps\":{\"zero\":" << t0.reps
         << ",\"max\":" << tmax.reps << "},\"tune\":{";
      bool firstM = true;
      for (auto &[meth, r] : res) {
        js << (firstM ? "" : ",") << "\"" << tuneMethodName(meth)
           << "\":{\"lambda\":" << r.lambda << ",\"runs\":" << r.runs
           << ",\"time_ms\":" << r.timeMs << ",\"error\":" << r.error
           << ",\"bound\":" << r.qosBound;
        // The λ's interval on the curve (the searches read the curve).
        if (r.lambda >= 0 && size_t(r.lambda) < Tci.size())
          js << ",\"time_ms_ci\":" << jsonPair(Tci[size_t(r.lambda)]);
        js << "}";
        firstM = false;
      }
      js << "},\"heu_omg_retimed\":" << heuOmgRetimed
         << ",\"heu_omg_retimed_ci\":" << jsonPair(heuOmgCi)
         << ",\"heu_omg_retimed_rounds\":" << jsonArray(retimed)
         << ",\"heu_omg_retimed_reps\":[" << retimedReps[0] << ","
         << retimedReps[1] << "," << retimedReps[2] << "]"
         << ",\"held_out\":{\"HEU\":" << heldHeu << ",\"OMG\":" << heldOmg
         << ",\"ratio_bound\":" << heldBound << "},\"hand_lambda_max\":"
         << handMax << "}";
      firstSet = false;
    }
    js << "},\"state_start\":" << stateStart
       << ",\"state_end\":" << apps::stateJson(mon.get()) << "}";
  }
  std::printf("\n# device at end: %s\n",
              mon ? stateText(mon.get()).c_str() : "no NVML readings");
  js << "],\"state_end\":" << apps::stateJson(mon.get(), false) << "}\n";
  if (!jsonPath.empty()) {
    FILE *f = std::fopen(jsonPath.c_str(), "w");
    if (!f) {
      std::perror(jsonPath.c_str());
      return 2;
    }
    std::fputs(js.str().c_str(), f);
    std::fclose(f);
  }
  return 0;
}
