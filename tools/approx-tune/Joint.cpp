//===- Joint.cpp - approx tune: joint search, verification, guard, report -===//
//
// Everything a user's bad input can break is checked before the GPU is
// touched: the bound, the knob names, the verification inputs (each set is
// generated or read, and its shape checked, up front). Timings are taken on
// one device only (the one --device names), so no two compared times come
// from different GPUs.
//
//===----------------------------------------------------------------------===//
#include "Joint.h"
#include "JointHarness.h"
#include "Output.h"

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/sfu/Occupancy.h"
#include "approx/runtime/sfu/SlotGrid.h"
#include "approx/runtime/tune/BuildSetEvaluator.h"
#include "approx/runtime/tune/ExecEvaluator.h"
#include "approx/runtime/tune/JointTuner.h"
#include "approx/runtime/tune/KernelEvaluator.h"
#include "approx/runtime/tune/Plot.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <chrono>
#include <set>
#include <thread>
#include <unistd.h>

namespace approx::tune {

using namespace approx::rt;
using json = nlohmann::json;

namespace {

json finite(double v) { return std::isfinite(v) ? json(v) : json("inf"); }

/// The knobs a launch of `plan` can read: the dispatch knob and every knob
/// of the kernels it dispatches to, or the kernel's own.
std::vector<std::string> knobsOfLaunch(const Manifest &m,
                                       const RunPlan &plan) {
  std::set<std::string> names;
  std::vector<std::string> order;
  auto add = [&](const std::string &n) {
    if (names.insert(n).second)
      order.push_back(n);
  };
  if (plan.dispatchKnob) {
    add(plan.dispatchKnob->name);
    for (const VariantDispatch &d : plan.dispatchKnob->dispatch)
      if (d.kernel == plan.launchName)
        for (const std::string &v : d.variants)
          if (const KernelInfo *k = m.findKernel(v))
            for (const std::string &n : k->knobs)
              add(n);
  }
  for (const std::string &n : plan.kernel->knobs)
    add(n);
  return order;
}

/// The block-shape payload of configuration `c`, if a knob of it has one.
const Payload *blockShapeOf(const Manifest &m, const Config &c) {
  for (const KnobInfo &k : m.knobs) {
    if (k.domain.kind != DomainKind::Categorical)
      continue;
    int64_t v = c.valueOf(m, k.name);
    size_t i = size_t(v - k.min);
    if (i < k.domain.values.size() &&
        k.domain.values[i].payload.type == Payload::Type::BlockShape)
      return &k.domain.values[i].payload;
  }
  return nullptr;
}

std::string shortText(const Manifest &m, const Config &c, const Config &ref) {
  std::string s;
  for (const KnobInfo &k : m.knobs) {
    int64_t v = c.valueOf(m, k.name);
    if (v != ref.valueOf(m, k.name))
      s += (s.empty() ? "" : ",") + k.name + "=" + k.valueId(v);
  }
  return s.empty() ? "(reference)" : s;
}

std::string htmlEscape(const std::string &s) { return plot::escapeXml(s); }

} // namespace


int runJoint(const Manifest &man, const RunPlan &plan, const Options &o,
             const std::string &image) {
  // The knobs searched, checked against the launch before any GPU work.
  std::vector<std::string> launchKnobs = knobsOfLaunch(man, plan);
  std::vector<std::string> searched;
  if (!o.jointKnobs.empty()) {
    for (const std::string &n : o.jointKnobs) {
      if (!man.findKnob(n))
        usageError("--knobs: unknown knob " + quote(n));
      if (std::find(launchKnobs.begin(), launchKnobs.end(), n) ==
          launchKnobs.end())
        usageError("--knobs: kernel " + quote(plan.launchName) +
                   " does not read knob " + quote(n));
      if (o.knobValues.count(n))
        usageError("--knobs: knob " + quote(n) + " is also pinned by --knob " +
                   quote(n) + "=VALUE");
      searched.push_back(n);
    }
  } else {
    for (const std::string &n : launchKnobs) {
      const KnobInfo *k = man.findKnob(n);
      if (k && (k->kind != KnobKind::Build || !o.cacheDir.empty()) &&
          k->max > k->min && !o.knobValues.count(n))
        searched.push_back(n);
    }
  }
  for (const std::string &n : searched)
    if (man.findKnob(n)->kind == KnobKind::Build && o.cacheDir.empty())
      usageError("--knobs: " + quote(n) +
                 " is a build knob: each of its values is another build "
                 "(approx-build; docs/configurations.md); give --cache DIR "
                 "or pin it with --knob");
  if (searched.empty() || plan.tunedKnob.empty())
    usageError("kernel " + quote(plan.launchName) +
               " has no knob left to search (none with more than one value "
               "that --knob does not pin)");

  // The reference: every knob precise, pinned knobs as given.
  Config reference = preciseConfig(man);
  for (const auto &[n, v] : o.knobValues)
    reference.values[n] = v;
  if (Status s = checkConfig(man, reference); !s.isOk())
    usageError("--knob: " + s.message());

  // Every input set made (and checked) before the GPU is touched.
  std::vector<ArgSpec> train = makeSpecs(plan, o);
  struct VerifySet {
    std::string label;
    std::vector<ArgSpec> specs;
  };
  std::vector<VerifySet> verify;
  for (uint64_t seed : o.verifySeeds) {
    Options v = o;
    v.seed = seed;
    verify.push_back({"seed " + std::to_string(seed), makeSpecs(plan, v)});
  }
  for (const auto &set : o.verifyInputs) {
    RunPlan p = plan;
    std::string label;
    for (const auto &[idx, dist] : set) {
      if (idx < 0 || size_t(idx) >= plan.args.size() ||
          !plan.args[size_t(idx)].hasData)
        usageError("--verify " + std::to_string(idx) + ": argument " +
                   std::to_string(idx) +
                   " is not an input the kernel reads (see --list)");
      p.args[size_t(idx)].dist = dist;
      // Files by their base name: the report stays readable.
      std::string what = dist.text;
      if (dist.kind == "file")
        what = dist.path.substr(dist.path.rfind('/') + 1);
      label += (label.empty() ? "" : "; ") + std::to_string(idx) + "=" + what;
    }
    verify.push_back({label, makeSpecs(p, o)});
  }

  Expected<std::shared_ptr<Context>> ctx = Context::create(o.device);
  if (!ctx)
    statusError(ctx.status());
  size_t freeBytes = 0, totalBytes = 0;
  if (Status mem = (*ctx)->memInfo(freeBytes, totalBytes); !mem.isOk())
    statusError(mem);
  // The tuning set and one verification set are resident at a time.
  uint64_t need = deviceBytes(plan) * (verify.empty() ? 1 : 2);
  if (need > freeBytes)
    throw CliError{2, "the arguments need " + std::to_string(need) +
                          " bytes of device memory; " +
                          std::to_string(freeBytes) + " are free"};
  LoadOptions lo;
  lo.imagePath = image;
  lo.allowPathsOutsideManifestDir = o.allowOutside;
  lo.applyEnvironment = false; // the tuner sets the knobs itself
  Expected<std::unique_ptr<Module>> mod = Module::load(*ctx, o.manifest, lo);
  if (!mod)
    statusError(mod.status());
  const DeviceInfo &dev = (*ctx)->device();

  EvaluatorOptions eo;
  eo.kernel = plan.launchName;
  eo.knob = plan.tunedKnob;
  eo.launch = plan.launch;
  eo.reference = reference;
  eo.metric = *parseMetric(o.metric);
  eo.timing.warmup = o.warmup;
  eo.timing.reps = o.reps;
  eo.tightness = {o.untilCi, o.maxReps};
  eo.allowZeroInputs = o.allowZero;
  // A block-shape value launches its own shape over the grid the default
  // shape covers (the threads of the default launch, re-tiled).
  const LaunchConfig base = plan.launch;
  eo.launchFor = [base, &man](const Config &c) -> Expected<LaunchConfig> {
    const Payload *b = blockShapeOf(man, c);
    if (!b)
      return base;
    uint64_t w = uint64_t(base.grid.x) * base.block.x;
    uint64_t h = uint64_t(base.grid.y) * base.block.y;
    uint64_t rows = uint64_t(b->y) * std::max(1u, b->rows);
    LaunchConfig l = base;
    l.block = {b->x, b->y, 1};
    l.grid = {unsigned((w + b->x - 1) / b->x), unsigned((h + rows - 1) / rows),
              base.grid.z};
    return l;
  };
  // One build, or every build of the cache (build knobs searched), over
  // module `m` (a device's).
  auto makeEvaluator = [&](Module &m, std::vector<ArgSpec> specs)
      -> Expected<std::unique_ptr<ConfigEvaluator>> {
    if (!o.cacheDir.empty()) {
      APPROX_ASSIGN_OR_RETURN(
          std::unique_ptr<BuildSetEvaluator> ev,
          BuildSetEvaluator::create(m, std::move(specs), eo, o.cacheDir, lo));
      return std::unique_ptr<ConfigEvaluator>(std::move(ev));
    }
    APPROX_ASSIGN_OR_RETURN(std::unique_ptr<KernelEvaluator> ev,
                            KernelEvaluator::create(m, std::move(specs), eo));
    return std::unique_ptr<ConfigEvaluator>(std::move(ev));
  };
  // λ of a warp split: the occupancy bound and the measured slot step.
  std::map<std::string, int> steps;
  std::map<std::string, int64_t> bounds;
  for (const std::string &n : searched) {
    const KnobInfo *k = man.findKnob(n);
    if (k->warpSlot == WarpSlot::None)
      continue;
    Expected<OccupancyInfo> occ =
        lambdaBound(**mod, plan.kernel->name, plan.launch, n);
    if (!occ)
      statusError(occ.status());
    bounds[n] = std::min(occ->lambdaMax, k->max);
    Expected<SlotGrid> g = measureSlotGrid((*mod)->context(), k->warpSlot);
    if (!g)
      statusError(g.status().withContext("measuring the lambda grid"));
    steps[n] = g->step;
  }
  auto grid = [bounds, steps, points = o.gridPoints](
                  const KnobInfo &k) mutable -> std::vector<int64_t> {
    auto b = bounds.find(k.name);
    if (b == bounds.end())
      return {};
    int64_t step = steps[k.name], max = b->second;
    std::vector<int64_t> all;
    for (int64_t v = step; v < max; v += step)
      all.push_back(v);
    all.push_back(max);
    // At most --grid-points of them, spread.
    std::vector<int64_t> g;
    size_t n = std::min(all.size(), size_t(std::max(2, points - 1)));
    for (size_t i = 0; i < n; ++i)
      g.push_back(all[n == 1 ? 0 : i * (all.size() - 1) / (n - 1)]);
    g.erase(std::unique(g.begin(), g.end()), g.end());
    return g;
  };
  std::printf("device   %s (sm_%d%d, %d SMs), CUDA driver API %d.%d\n",
              dev.name.c_str(), dev.ccMajor, dev.ccMinor, dev.smCount,
              dev.driverVersion / 1000, (dev.driverVersion % 1000) / 10);
  std::printf("kernel   %s  grid %u,%u,%u  block %u,%u,%u\n",
              plan.launchName.c_str(), plan.launch.grid.x, plan.launch.grid.y,
              plan.launch.grid.z, plan.launch.block.x, plan.launch.block.y,
              plan.launch.block.z);

  // One module per device; --devices spreads the verification sets over
  // them (errors and the guard's cost ratio are measured within one
  // device, so no time is compared across GPUs); the search runs on the
  // first.
  std::vector<int> ordinals = o.devices.empty() ? std::vector<int>{o.device}
                                                : o.devices;
  ordinals.resize(std::min(ordinals.size(), std::max<size_t>(1, verify.size())));
  std::vector<std::unique_ptr<Module>> modules;
  std::vector<std::string> names = {dev.name};
  modules.push_back(std::move(*mod));
  for (size_t d = 1; d < ordinals.size(); ++d) {
    Expected<std::shared_ptr<Context>> c = Context::create(ordinals[d]);
    if (!c)
      statusError(c.status().withContext("--devices " +
                                         std::to_string(ordinals[d])));
    Expected<std::unique_ptr<Module>> m = Module::load(*c, o.manifest, lo);
    if (!m)
      statusError(m.status());
    names.push_back((*c)->device().name);
    modules.push_back(std::move(*m));
  }
  std::vector<std::vector<ArgSpec>> sets;
  Harness h;
  h.subject = "kernel " + plan.launchName;
  h.kernel = plan.launchName;
  h.searched = searched;
  h.reference = reference;
  h.metricName = eo.metric.name();
  for (VerifySet &v : verify) {
    h.verifyLabels.push_back(v.label);
    sets.push_back(std::move(v.specs));
  }
  h.make = [&](size_t d, int set) {
    return makeEvaluator(*modules[d], set < 0 ? std::move(train)
                                              : std::move(sets[size_t(set)]));
  };
  h.ordinals = ordinals;
  h.deviceNames = names;
  h.device = dev;
  h.grid = grid;
  return searchAndReport(man, o, h);
}

int searchAndReport(const Manifest &man, const Options &o, Harness &h) {
  const Config &reference = h.reference;
  const std::vector<std::string> &searched = h.searched;
  const DeviceInfo &dev = h.device;
  Expected<std::unique_ptr<ConfigEvaluator>> evx = h.make(0, -1);
  if (!evx)
    statusError(evx.status());
  std::unique_ptr<ConfigEvaluator> ev = std::move(*evx);
  auto launchesOf = [](ConfigEvaluator &e) -> uint64_t {
    if (auto *k = dynamic_cast<KernelEvaluator *>(&e))
      return k->launches();
    if (auto *b = dynamic_cast<BuildSetEvaluator *>(&e))
      return b->launches();
    if (auto *x = dynamic_cast<ExecEvaluator *>(&e))
      return uint64_t(x->runs());
    return 0;
  };
  JointOptions jo;
  jo.qosBound = o.qos;
  jo.knobs = searched;
  jo.reference = reference;
  jo.budget = o.budget;
  jo.ordinalPoints = o.gridPoints;
  jo.grid = h.grid;
  if (!o.quiet)
    jo.onTrial = [&](const JointTrial &t, int count) {
      std::fprintf(stderr, "  [%-9s] %3d/%d  T %9.4f ms  E %-10.4g %s  %s\n",
                   jointPhaseName(t.phase), count, o.budget, t.timeMs,
                   t.error, t.feasible ? "ok" : "--",
                   shortText(man, t.config, reference).c_str());
    };

  std::string knobList;
  for (const std::string &n : searched) {
    const KnobInfo *k = man.findKnob(n);
    knobList += (knobList.empty() ? "" : ", ") + n + " (" +
                domainKindName(k->domain.kind) +
                (k->technique.empty() ? "" : ", " + k->technique) + ")";
  }
  std::printf("knobs    %s\n", knobList.c_str());
  std::printf("bound    %s <= %g; budget %d configurations; timing: %d "
              "warm-up + median of %d\n",
              h.metricName.c_str(), o.qos, o.budget, o.warmup, o.reps);
  if (o.untilCi > 0)
    std::printf("         then until the median's 95%% interval is within "
                "+-%g of it, at most %d\n",
                o.untilCi, o.maxReps);

  SessionReadings readings(dev.uuid);
  std::printf("%s\n", readings.startLine().c_str());
  Expected<JointResult> jr = tuneJoint(*ev, jo);
  if (!jr)
    statusError(jr.status());
  const JointResult &r = *jr;

  // Verification: the ladder (and the single pick) on every other input,
  // then the guard on the same inputs.
  std::vector<Config> checked = r.ladder;
  bool singleInLadder = false;
  for (const Config &c : checked)
    singleInLadder |= configText(man, c) == configText(man, r.singlePick);
  if (!singleInLadder)
    checked.push_back(r.singlePick);
  std::vector<VerifyRow> rows(checked.size());
  for (size_t i = 0; i < checked.size(); ++i)
    rows[i].config = checked[i];
  struct GuardRun {
    std::string label;
    std::vector<double> errors; ///< per invocation, kept outputs
    int violations = 0, fallbacks = 0, checks = 0;
    size_t rung = 0;
    double checkMs = 0, keptMs = 0;
    int device = 0;
  };
  const std::vector<std::string> &verify = h.verifyLabels;
  std::vector<GuardRun> guards(verify.size());
  std::vector<std::vector<VerifyRow>> perSet(verify.size());
  std::vector<Status> failures(verify.size());
  struct DeviceRun {
    double wallMs = 0;
    int sets = 0;
  };
  const std::vector<int> &ordinals = h.ordinals;
  std::vector<DeviceRun> devices(ordinals.size());
  auto verifyOn = [&](size_t d) {
    auto t0 = std::chrono::steady_clock::now();
    for (size_t i = d; i < verify.size(); i += devices.size()) {
      const std::string &label = verify[i];
      ++devices[d].sets;
      Expected<std::unique_ptr<ConfigEvaluator>> vev = h.make(d, int(i));
      if (!vev) {
        failures[i] = vev.status().withContext("verification input " + label);
        return;
      }
      Expected<std::vector<VerifyRow>> vr =
          verifyConfigs({vev->get()}, checked, o.qos);
      if (!vr) {
        failures[i] = vr.status().withContext("verification input " + label);
        return;
      }
      perSet[i] = std::move(*vr);
      // A fresh guard per input: the deployment's state is per program run.
      FallbackGuard g(r.ladder, o.qos, o.guardPeriod);
      GuardRun &gr = guards[i];
      gr.label = label;
      for (int k = 0; k < o.guardInvocations; ++k) {
        Expected<Evaluation> e = g.invoke(**vev);
        if (!e) {
          failures[i] = e.status().withContext("guard on " + label);
          return;
        }
        gr.errors.push_back(e->error);
        gr.violations += !(e->error <= o.qos);
      }
      gr.fallbacks = g.fallbacks();
      gr.checks = g.checks();
      gr.rung = g.rung();
      gr.checkMs = g.checkMs();
      gr.keptMs = g.keptMs();
      gr.device = ordinals[d];
    }
    devices[d].wallMs = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - t0)
                            .count();
  };
  auto v0 = std::chrono::steady_clock::now();
  {
    std::vector<std::thread> workers;
    for (size_t d = 1; d < devices.size(); ++d)
      workers.emplace_back(verifyOn, d);
    verifyOn(0);
    for (std::thread &w : workers)
      w.join();
  }
  double verifyWallMs = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - v0)
                            .count();
  for (const Status &f : failures)
    if (!f.isOk())
      statusError(f);
  for (size_t i = 0; i < verify.size(); ++i) {
    for (size_t k = 0; k < rows.size(); ++k) {
      rows[k].errors.push_back(perSet[i][k].errors.front());
      rows[k].violations += perSet[i][k].violations;
    }
    if (!o.quiet)
      std::fprintf(stderr,
                   "  [verify   ] %s (device %d): pick E %.4g%s, guard rung "
                   "%zu\n",
                   verify[i].c_str(), guards[i].device,
                   perSet[i][0].errors.front(),
                   perSet[i][0].errors.front() <= o.qos ? "" : " (violates)",
                   guards[i].rung);
  }

  // The table.
  std::printf("\n%-10s %10s %9s %11s %4s  %s\n", "phase", "T (ms)", "speedup",
              "E", "QoS", "configuration (knobs off the reference)");
  for (const JointTrial &t : r.trials)
    std::printf("%-10s %10.4f %8.3fx %11.4g %4s  %s%s%s\n",
                jointPhaseName(t.phase), t.timeMs,
                t.timeMs > 0 ? r.baseTimeMs / t.timeMs : 0.0, t.error,
                t.feasible ? "ok" : "--",
                shortText(man, t.config, reference).c_str(),
                t.failure.empty() ? "" : "  failed: ",
                escapeBytes(t.failure).c_str());
  auto speedup = [&](double t) { return t > 0 ? r.baseTimeMs / t : 0.0; };
  auto ci = [](const std::pair<double, double> &i) {
    char b[64];
    std::snprintf(b, sizeof b, " [%.4f, %.4f]", i.first, i.second);
    return std::isfinite(i.first) ? std::string(b) : std::string();
  };
  std::printf("\nreference      T %.4f ms%s\n", r.baseTimeMs,
              ci(r.baseInterval).c_str());
  std::printf("single pick    T %.4f ms%s (%.3fx), E %.4g  %s\n",
              r.singleTimeMs, ci(r.singleInterval).c_str(),
              speedup(r.singleTimeMs), r.singleError,
              shortText(man, r.singlePick, reference).c_str());
  std::printf("joint pick     T %.4f ms%s (%.3fx), E %.4g  %s%s\n",
              r.pickTimeMs, ci(r.pickInterval).c_str(), speedup(r.pickTimeMs),
              r.pickError,
              shortText(man, r.pick, reference).c_str(),
              r.noGain     ? "  (the reference: no pick was faster re-timed, by its 95% interval)"
              : r.jointWon ? ""
                           : "  (the single pick: no combination was faster "
                             "re-timed)");
  std::printf("measured       %d configurations (budget %d), %d descent "
              "rounds, %d excluded by constraints%s\n",
              r.measured, o.budget, r.rounds, r.excluded,
              r.budgetSpent ? "; the budget ended the search" : "");
  if (!r.unbuilt.empty())
    std::printf("unbuilt        %zu configurations skipped: their builds are "
                "not in %s (listed in the JSON's \"unbuilt\", an "
                "approx-build --plan)\n",
                r.unbuilt.size(), escapeBytes(o.cacheDir).c_str());
  int guardViolations = 0;
  if (!verify.empty()) {
    std::printf("\nverification on %zu other inputs (E per input):\n",
                verify.size());
    for (const VerifyRow &row : rows) {
      std::string es;
      for (double e : row.errors)
        es += (es.empty() ? "" : " ") + plot::tickText(e);
      std::printf("  %-40s violations %d/%zu  [%s]\n",
                  shortText(man, row.config, reference).c_str(),
                  row.violations, row.errors.size(), es.c_str());
    }
    double checkMs = 0, keptMs = 0;
    int invocations = 0, fallbacks = 0;
    for (const GuardRun &g : guards) {
      checkMs += g.checkMs;
      keptMs += g.keptMs;
      guardViolations += g.violations;
      invocations += int(g.errors.size());
      fallbacks += g.fallbacks;
    }
    std::printf("verification took %.2f s on %zu device(s)\n",
                verifyWallMs / 1000, devices.size());
    std::printf("guard (period %d, %d invocations per input): %d of %d kept "
                "outputs violate; %d fallbacks; checking costs %.1f%% of the "
                "kept runs' time\n",
                o.guardPeriod, o.guardInvocations, guardViolations,
                invocations, fallbacks,
                keptMs > 0 ? 100.0 * checkMs / keptMs : 0.0);
  }

  json j;
  j["tool"] = "approx tune";
  j["date"] = nowUtc();
  j["command"] = o.command;
  j["device"] = {{"name", dev.name},
                 {"uuid", dev.uuid},
                 {"compute_capability", std::to_string(dev.ccMajor) + "." +
                                            std::to_string(dev.ccMinor)},
                 {"sm_count", dev.smCount},
                 {"driver_api_version", dev.driverVersion}};
  // Clocks, temperature, power at the start and now, and the energy the
  // session (search and verification) took.
  j["device_state"] = readings.finish();
  j["manifest"] = o.manifest;
  if (!h.kernel.empty())
    j["kernel"] = h.kernel;
  else
    j["program"] = h.subject;
  j["knobs"] = searched;
  j["bound"] = {{"metric", h.metricName}, {"value", o.qos}};
  j["budget"] = o.budget;
  j["timing"] = {{"warmup", o.warmup}, {"reps", o.reps},
                 {"until_ci", o.untilCi}, {"max_reps", o.maxReps},
                 {"statistic", "median"}};
  j["reference"] = configText(man, reference);
  auto interval = [](const std::pair<double, double> &i) {
    return std::isfinite(i.first) ? json::array({i.first, i.second})
                                  : json(nullptr);
  };
  j["trials"] = json::array();
  for (const JointTrial &t : r.trials) {
    j["trials"].push_back({{"phase", jointPhaseName(t.phase)},
                           {"config", configText(man, t.config)},
                           {"time_ms", t.timeMs},
                           {"time_ci95_ms", interval({t.timeLoMs, t.timeHiMs})},
                           {"error", finite(t.error)},
                           {"feasible", t.feasible}});
    if (!t.failure.empty())
      j["trials"].back()["failure"] = t.failure;
  }
  j["front"] = r.front;
  j["base_time_ms"] = r.baseTimeMs;
  j["base_time_ci95_ms"] = interval(r.baseInterval);
  j["single_pick"] = {{"config", configText(man, r.singlePick)},
                      {"knob", r.singleKnob},
                      {"time_ms", r.singleTimeMs},
                      {"time_ci95_ms", interval(r.singleInterval)},
                      {"error", finite(r.singleError)},
                      {"speedup", speedup(r.singleTimeMs)}};
  j["pick"] = {{"config", configText(man, r.pick)},
               {"time_ms", r.pickTimeMs},
               {"time_ci95_ms", interval(r.pickInterval)},
               {"error", finite(r.pickError)},
               {"speedup", speedup(r.pickTimeMs)},
               {"joint_won", r.jointWon},
               {"no_gain", r.noGain}};
  j["measured"] = r.measured;
  j["rounds"] = r.rounds;
  j["excluded"] = r.excluded;
  j["budget_spent"] = r.budgetSpent;
  j["ladder"] = json::array();
  for (const Config &c : r.ladder)
    j["ladder"].push_back(configText(man, c));
  j["verification"] = json::array();
  for (size_t i = 0; i < verify.size(); ++i) {
    json v = {{"input", verify[i]}, {"device", guards[i].device}};
    v["errors"] = json::array();
    for (const VerifyRow &row : rows)
      v["errors"].push_back(
          {{"config", configText(man, row.config)},
           {"error", finite(row.errors[i])},
           {"violates", !(row.errors[i] <= o.qos)}});
    const GuardRun &g = guards[i];
    v["guard"] = {{"period", o.guardPeriod},
                  {"invocations", g.errors.size()},
                  {"violations", g.violations},
                  {"fallbacks", g.fallbacks},
                  {"checks", g.checks},
                  {"final_rung", g.rung},
                  {"check_ms", g.checkMs},
                  {"kept_ms", g.keptMs}};
    j["verification"].push_back(v);
  }
  j[h.kernel.empty() ? "program_runs" : "kernel_launches"] = launchesOf(*ev);
  j["devices"] = json::array();
  for (size_t d = 0; d < devices.size(); ++d)
    j["devices"].push_back({{"ordinal", ordinals[d]},
                            {"name", h.deviceNames[d]},
                            {"role", d == 0 ? "search and verification"
                                            : "verification"},
                            {"verification_sets", devices[d].sets},
                            {"verification_wall_ms", devices[d].wallMs}});
  j["verification_wall_ms"] = verifyWallMs;
  // What the cache lacked, as an approx-build --plan (build knobs only).
  j["unbuilt"] = json::array();
  for (const Config &c : r.unbuilt) {
    json b = json::object();
    for (const KnobInfo &k : man.knobs)
      if (k.kind == KnobKind::Build)
        b[k.name] = k.valueId(c.valueOf(man, k.name));
    j["unbuilt"].push_back(b);
  }
  std::string jsonText =
      j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  if (!o.jsonPath.empty())
    writeOutputFile(o.jsonPath, jsonText);

  if (!o.reportPath.empty()) {
    plot::Figure f;
    f.title = escapeBytes(man.module) + " / " + h.subject + " on " +
              dev.name + ": every trial, the front and the picks";
    f.x.label = "kernel time (ms, median)";
    f.y.label = "error (" + h.metricName + ")";
    f.x.grid = f.y.grid = true;
    plot::Series all, front;
    all.join = false;
    all.radius = 3;
    all.color = "#888";
    all.label = "trial";
    for (const JointTrial &t : r.trials)
      if (t.phase != JointTrial::Phase::Retime) {
        all.x.push_back(t.timeMs);
        all.y.push_back(t.error);
        all.tooltips.push_back(std::string(jointPhaseName(t.phase)) + ": " +
                               shortText(man, t.config, reference));
      }
    front.color = "#1f77b4";
    front.label = "front (feasible)";
    front.radius = 3;
    for (size_t i : r.front) {
      front.x.push_back(r.trials[i].timeMs);
      front.y.push_back(r.trials[i].error);
    }
    f.series = {all, front};
    plot::Rule q;
    q.at = o.qos;
    q.dash = "4,3";
    q.legend = "bound";
    q.label = "E <= " + plot::tickText(o.qos);
    f.rules.push_back(q);
    plot::Ring pick, single;
    pick.x = r.pickTimeMs, pick.y = r.pickError, pick.color = "#d62728";
    pick.legend = "pick (re-timed)";
    single.x = r.singleTimeMs, single.y = r.singleError;
    single.color = "#2ca02c";
    single.legend = "best single knob (re-timed)";
    f.rings = {pick, single};
    std::string html =
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>approx "
        "tune: " +
        htmlEscape(escapeBytes(man.module)) +
        "</title><style>body{font-family:sans-serif;max-width:1000px;margin:"
        "auto}table{border-collapse:collapse;font-size:13px}td,th{border:1px "
        "solid #ccc;padding:2px 6px;text-align:right}td.l{text-align:left}"
        "</style></head><body>\n<h1>approx tune</h1>\n<p>" +
        htmlEscape(o.command) + "</p>\n<p>" + htmlEscape(nowUtc()) + ", " +
        htmlEscape(dev.name) + ", CUDA driver API " +
        std::to_string(dev.driverVersion) + "; bound " +
        htmlEscape(h.metricName) + " &lt;= " + plot::tickText(o.qos) +
        "; " + std::to_string(r.measured) + " configurations measured of a "
        "budget of " + std::to_string(o.budget) + ".</p>\n" + f.svg() +
        "\n<h2>Picks</h2>\n<table><tr><th>what</th><th>T (ms)</th><th>speedup"
        "</th><th>E</th><th>configuration</th></tr>\n";
    auto row = [&](const std::string &what, double t, double e,
                   const Config &c) {
      char b[160];
      std::snprintf(b, sizeof b, "<td>%.4f</td><td>%.3fx</td><td>%.4g</td>",
                    t, speedup(t), e);
      html += "<tr><td class=l>" + what + "</td>" + b + "<td class=l>" +
              htmlEscape(shortText(man, c, reference)) + "</td></tr>\n";
    };
    row("reference", r.baseTimeMs, r.trials.front().error, reference);
    row("best single knob", r.singleTimeMs, r.singleError, r.singlePick);
    row("joint pick", r.pickTimeMs, r.pickError, r.pick);
    html += "</table>\n";
    if (!verify.empty()) {
      html += "<h2>Verification inputs</h2>\n<table><tr><th>configuration"
              "</th><th>violations</th>";
      for (const std::string &v : verify)
        html += "<th>" + htmlEscape(v) + "</th>";
      html += "</tr>\n";
      for (const VerifyRow &vr : rows) {
        html += "<tr><td class=l>" +
                htmlEscape(shortText(man, vr.config, reference)) + "</td><td>" +
                std::to_string(vr.violations) + "/" +
                std::to_string(vr.errors.size()) + "</td>";
        for (double e : vr.errors)
          html += std::string("<td") +
                  (e <= o.qos ? ">" : " style=\"color:#d62728\">") +
                  plot::tickText(e) + "</td>";
        html += "</tr>\n";
      }
      html += "</table>\n<h2>Guard</h2>\n<table><tr><th>input</th><th>kept "
              "outputs violating</th><th>fallbacks</th><th>final rung</th>"
              "<th>check cost</th></tr>\n";
      for (const GuardRun &g : guards) {
        char b[200];
        std::snprintf(b, sizeof b,
                      "<td>%d/%zu</td><td>%d</td><td>%zu</td><td>%.1f%%</td>",
                      g.violations, g.errors.size(), g.fallbacks, g.rung,
                      g.keptMs > 0 ? 100 * g.checkMs / g.keptMs : 0.0);
        html += "<tr><td class=l>" + htmlEscape(g.label) + "</td>" + b +
                "</tr>\n";
      }
      html += "</table>\n";
    }
    html += "<h2>Trials</h2>\n<table><tr><th>#</th><th>phase</th><th>T (ms)"
            "</th><th>E</th><th>ok</th><th>configuration</th></tr>\n";
    for (size_t i = 0; i < r.trials.size(); ++i) {
      const JointTrial &t = r.trials[i];
      char b[200];
      std::snprintf(b, sizeof b,
                    "<td>%zu</td><td class=l>%s</td><td>%.4f</td><td>%.4g"
                    "</td><td>%s</td>",
                    i + 1, jointPhaseName(t.phase), t.timeMs, t.error,
                    t.feasible ? "ok" : "--");
      html += std::string("<tr>") + b + "<td class=l>" +
              htmlEscape(shortText(man, t.config, reference)) + "</td></tr>\n";
    }
    html += "</table>\n<h2>JSON</h2>\n<pre>" + htmlEscape(jsonText) +
            "</pre>\n</body></html>\n";
    writeOutputFile(o.reportPath, html);
  }
  return guardViolations ? 3 : 0;
}

} // namespace approx::tune
