//===- approx-tune.cpp - Tune λ of a compiled approx kernel on the GPU ----===//
//
// A command line over the approx runtime: loads PTX/cubin + manifest, binds a
// kernel to generated (distribution + seed) or file inputs and a launch
// shape, then runs SMP / HEU / OMG under an absolute QoS or a QoS_ratio,
// showing progress, printing the visited points and results, and writing
// JSON and an SVG of the T(λ)/E(λ) curves. --dry-run prints the parameter
// layout without a GPU. Every error is one line on stderr (CommandLine.h
// for option checks, Plan.h for argument binding and size checks). See
// --help.
//
//===----------------------------------------------------------------------===//
#include "CommandLine.h"
#include "Output.h"
#include "Joint.h"
#include "Plan.h"
#include "Plot.h"

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/sfu/Occupancy.h"
#include "approx/runtime/sfu/SlotGrid.h"
#include "approx/runtime/tune/KernelEvaluator.h"
#include "approx/runtime/tune/Tuner.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <exception>
#include <fstream>
#include <map>
#include <new>
#include <sys/stat.h>

using namespace approx::rt;
using namespace approx::tune;
using json = nlohmann::json;

namespace {

json pointJson(const TunePoint &p) {
  json j = {{"lambda", p.lambda}, {"time_ms", p.timeMs},
            {"error", std::isfinite(p.error) ? json(p.error) : json("inf")}};
  // The median's 95% interval, where the evaluator measured one.
  if (std::isfinite(p.timeLoMs) && std::isfinite(p.timeHiMs))
    j["time_ci95_ms"] = {p.timeLoMs, p.timeHiMs};
  return j;
}

/// --run-once: one launch with the knobs as set, outputs written raw to
/// PREFIX.argI. Inputs are generated as for tuning; outputs are poisoned
/// (0xFF bytes) first, so an unwritten element shows as NaN or -1.
int runOnce(Module &mod, const RunPlan &plan, std::vector<ArgSpec> specs,
            const std::string &prefix) {
  std::shared_ptr<Context> ctx = mod.context();
  std::vector<DeviceBuffer> buffers(specs.size());
  std::vector<Arg> args;
  for (size_t i = 0; i < specs.size(); ++i) {
    ArgSpec &s = specs[i];
    if (!s.isBuffer()) {
      args.push_back(s.scalar);
      continue;
    }
    uint64_t bytes = plan.args[i].bytes;
    Expected<DeviceBuffer> b =
        DeviceBuffer::allocate(ctx, size_t(bytes), s.elem);
    if (!b)
      statusError(b.status());
    buffers[i] = b.take();
    Status st = s.role == ArgSpec::Role::Out
                    ? buffers[i].fillBytes(0xff)
                    : buffers[i].copyFromHost(s.data.data(), s.data.size());
    if (!st.isOk())
      statusError(st);
    args.push_back(Arg::memref(buffers[i].view(), s.shape));
  }
  Status launched = mod.launchSync(plan.launchName, plan.launch, args);
  if (!launched.isOk())
    statusError(launched);
  for (size_t i = 0; i < specs.size(); ++i) {
    if (!specs[i].compared())
      continue;
    std::string bytes(buffers[i].bytes(), '\0');
    Status st = buffers[i].copyToHost(bytes.data(), bytes.size());
    if (!st.isOk())
      statusError(st);
    writeOutputFile(prefix + ".arg" + std::to_string(i), bytes);
  }
  return 0;
}

int run(int argc, char **argv) {
  Options o;
  if (int status = parseCommandLine(argc, argv, o); status >= 0)
    return status;
  Expected<Manifest> man = loadManifestFile(o.manifest);
  if (!man)
    statusError(man.status());
  // Both images the manifest names stay inside its directory (unless
  // allowed), whichever one this run reads, and for --list too. One that
  // is absent is no error until a run needs it.
  for (bool cubin : {false, true}) {
    const std::string &rel = cubin ? man->cubin : man->ptx;
    if (rel.empty())
      continue;
    Expected<std::string> path = resolveImagePath(*man, cubin, o.allowOutside);
    std::string dir = man->directory.empty() ? "." : man->directory;
    struct stat st;
    if (!path && !(path.status().code() == StatusCode::IoError &&
                   ::lstat((dir + "/" + rel).c_str(), &st) != 0))
      statusError(path.status());
  }
  if (o.list) {
    printList(*man);
    return 0;
  }
  if (o.execGiven)
    return runJointExec(*man, o);
  // The image: --image as given, else the manifest's, kept inside the
  // manifest's directory unless allowed (checked in dry runs too).
  std::string image = o.image;
  if (image.empty()) {
    if (o.cubin && man->cubin.empty())
      usageError("--cubin: the manifest names no cubin");
    bool cubin = o.cubin || man->ptx.empty();
    Expected<std::string> path = resolveImagePath(*man, cubin, o.allowOutside);
    if (!path)
      statusError(path.status());
    image = *path;
  }
  RunPlan plan = makePlan(*man, o);
  if (o.dryRun) {
    printDryRun(*man, plan, image);
    return 0;
  }
  if (o.joint) {
    checkHostMemory(plan);
    return runJoint(*man, plan, o, image);
  }
  if (plan.tunedKnob.empty() && o.runOncePrefix.empty())
    usageError("kernel " + quote(plan.kernel->name) +
               " reads no knob: nothing to tune");
  checkHostMemory(plan);

  Expected<std::shared_ptr<Context>> ctx = Context::create(o.device);
  if (!ctx)
    statusError(ctx.status());
  size_t freeBytes = 0, totalBytes = 0;
  Status mem = (*ctx)->memInfo(freeBytes, totalBytes);
  if (!mem.isOk())
    statusError(mem);
  uint64_t need = deviceBytes(plan);
  if (need > freeBytes)
    throw CliError{2, "the arguments need " + std::to_string(need) +
                          " bytes of device memory (inputs twice: working "
                          "and pristine copies); " +
                          std::to_string(freeBytes) + " of " +
                          std::to_string(totalBytes) + " bytes are free"};
  LoadOptions lo;
  lo.imagePath = image;
  lo.allowPathsOutsideManifestDir = o.allowOutside;
  lo.applyEnvironment = false; // the tuner sets the knobs itself
  Expected<std::unique_ptr<Module>> mod = Module::load(*ctx, o.manifest, lo);
  if (!mod)
    statusError(mod.status());
  for (auto &[name, value] : o.knobValues) {
    Status s = (*mod)->setKnob(name, value);
    if (!s.isOk())
      statusError(s);
  }
  std::vector<ArgSpec> specs = makeSpecs(plan, o);
  if (!o.runOncePrefix.empty())
    return runOnce(**mod, plan, std::move(specs), o.runOncePrefix);
  json argsJson = json::array();
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const ArgPlan &a = plan.args[i];
    json aj = {{"index", i}, {"type", describeArgInfo(*a.info)}};
    if (a.kind == ArgPlan::Kind::Buffer) {
      aj["shape"] = a.shape;
      aj["role"] = a.role == ArgSpec::Role::Out     ? "out"
                   : a.role == ArgSpec::Role::InOut ? "inout"
                                                    : "in";
      if (a.hasData) {
        aj["distribution"] = a.dist.text;
        if (a.dist.kind != "file")
          aj["seed"] = o.seed + uint64_t(i);
      }
    } else {
      aj["value"] = a.text == "size" ? std::to_string(o.size) : a.text;
    }
    argsJson.push_back(aj);
  }
  const LaunchConfig &cfg = plan.launch;

  EvaluatorOptions eo;
  eo.kernel = plan.launchName;
  eo.knob = plan.tunedKnob;
  eo.launch = cfg;
  eo.metric = *parseMetric(o.metric);
  eo.timing.warmup = o.warmup;
  eo.timing.reps = o.reps;
  eo.tightness = {o.untilCi, o.maxReps};
  eo.allowZeroInputs = o.allowZero;
  // λ's bound is the SFU's, from the launch's occupancy (printed below).
  OccupancyInfo occ;
  eo.bound = lambdaBoundFn(&occ);
  eo.lambdaMaxOverride = o.lambdaMax;
  Expected<std::unique_ptr<KernelEvaluator>> evx =
      KernelEvaluator::create(**mod, std::move(specs), eo);
  if (!evx)
    statusError(evx.status());
  KernelEvaluator &ev = **evx;
  const KnobInfo *knob = man->findKnob(ev.knob());
  const DeviceInfo &dev = (*ctx)->device();

  std::printf("device   %s (sm_%d%d, %d SMs), CUDA driver API %d.%d\n",
              dev.name.c_str(), dev.ccMajor, dev.ccMinor, dev.smCount,
              dev.driverVersion / 1000, (dev.driverVersion % 1000) / 10);
  std::printf("kernel   %s%s%s  grid %u,%u,%u  block %u,%u,%u  smem %u\n",
              plan.launchName.c_str(), plan.dispatchKnob ? " -> " : "",
              plan.dispatchKnob ? plan.kernel->name.c_str() : "",
              cfg.grid.x, cfg.grid.y, cfg.grid.z,
              cfg.block.x, cfg.block.y, cfg.block.z, cfg.sharedMemBytes);
  std::printf("occupancy %d blocks/SM x %d warps = %d resident warps/SM "
              "(%d regs/thread) -> lambda_max %lld (knob %s max %lld)%s\n",
              occ.residentBlocksPerSM, occ.warpsPerBlock,
              occ.residentWarpsPerSM, occ.numRegs, (long long)occ.lambdaMax,
              ev.knob().c_str(), (long long)knob->max,
              o.lambdaMax >= 0 ? " [overridden]" : "");
  std::printf("metric   %s; timing: %d warm-up + median of %d\n",
              eo.metric.name().c_str(), o.warmup, o.reps);
  if (o.untilCi > 0)
    std::printf("         then until the median's 95%% interval is within "
                "+-%g of it, at most %d\n",
                o.untilCi, o.maxReps);

  std::vector<TuneMethod> methods;
  if (o.method == "all")
    methods = {TuneMethod::Heu, TuneMethod::Smp, TuneMethod::Omg};
  else
    methods = {*parseTuneMethod(o.method)};

  TuneOptions to;
  to.qos = o.qosAbs ? QoS::absolute(o.qos) : QoS::ratio(o.qos);
  std::printf("QoS      %s\n", to.qos.describe().c_str());
  to.lambdaStep = o.lambdaStep;
  if (to.lambdaStep == 0) { // auto: the probe of sfu/SlotGrid.h, ~0.3 s
    Expected<SlotGrid> g = measureSlotGrid((*mod)->context(), knob->warpSlot);
    if (!g)
      statusError(g.status().withContext("measuring the lambda grid"));
    to.lambdaStep = g->step;
    std::printf("grid     lambda step %d (measured for slot %s, staircase "
                "fit R2 %.4f)\n",
                g->step, warpSlotName(knob->warpSlot), g->captured);
  } else {
    std::printf("grid     lambda step %d (--lambda-step)\n", to.lambdaStep);
  }
  if (!o.quiet)
    to.onPoint = [](TuneMethod m, const TunePoint &p, int run) {
      std::fprintf(stderr, "  [%s] run %2d: lambda %3lld  T %9.4f ms  E %.4g\n",
                   tuneMethodName(m), run, (long long)p.lambda, p.timeMs,
                   p.error);
    };

  SessionReadings readings(dev.uuid);
  std::printf("%s\n", readings.startLine().c_str());
  std::vector<TuneResult> results;
  for (TuneMethod m : methods) {
    Expected<TuneResult> r = tune(ev, m, to);
    if (!r)
      statusError(r.status());
    results.push_back(*r);
  }
  std::vector<TunePoint> sweep;
  if (o.sweep) {
    for (int64_t l = 0; l <= ev.lambdaMax(); ++l) {
      Expected<TunePoint> p = ev.evaluate(l);
      if (!p)
        statusError(p.status());
      sweep.push_back(*p);
      if (!o.quiet)
        std::fprintf(stderr, "  [sweep] lambda %3lld  T %9.4f ms  E %.4g\n",
                     (long long)l, p->timeMs, p->error);
    }
  }

  // Table of every measured point (cached: each λ was measured once).
  std::map<int64_t, TunePoint> all;
  for (const TuneResult &r : results)
    for (const TunePoint &p : r.trace)
      all[p.lambda] = p;
  for (const TunePoint &p : sweep)
    all[p.lambda] = p;
  double t0 = all.count(0) ? all[0].timeMs : 0;
  double bound = results.front().qosBound;
  std::printf("\n%8s %12s %9s %12s %5s  visited by\n", "lambda", "T (ms)",
              "speedup", "E", "QoS");
  for (auto &[l, p] : all) {
    std::string by;
    for (const TuneResult &r : results)
      for (const TunePoint &q : r.trace)
        if (q.lambda == l)
          by += std::string(by.empty() ? "" : ",") + tuneMethodName(r.method);
    if (by.empty())
      by = "sweep";
    std::printf("%8lld %12.4f %8.3fx %12.4g %5s  %s\n", (long long)l,
                p.timeMs, p.timeMs > 0 ? t0 / p.timeMs : 0.0, p.error,
                p.error <= bound ? "ok" : "--", by.c_str());
  }
  std::printf("\n%-6s %8s %12s %9s %12s %12s %6s\n", "method", "lambda*",
              "T(l*) ms", "speedup", "E(l*)", "QoS bound", "runs");
  for (const TuneResult &r : results)
    std::printf("%-6s %8lld %12.4f %8.3fx %12.4g %12.4g %6d%s\n",
                tuneMethodName(r.method), (long long)r.lambda, r.timeMs,
                r.timeMs > 0 ? r.baseTimeMs / r.timeMs : 0.0, r.error,
                r.qosBound, r.runs, r.satisfied ? "" : "  (QoS NOT met)");
  std::printf("pure SFU (lambda=%lld): T %.4f ms (%.3fx), E %.4g; kernel "
              "launches in total: %llu\n",
              (long long)results.front().lambdaMax, results.front().sfuTimeMs,
              results.front().sfuTimeMs > 0
                  ? results.front().baseTimeMs / results.front().sfuTimeMs
                  : 0.0,
              results.front().sfuError, (unsigned long long)ev.launches());

  if (!o.jsonPath.empty()) {
    json j;
    j["tool"] = "approx-tune";
    j["date"] = nowUtc();
    j["command"] = o.command;
    j["device"] = {{"name", dev.name},
                   {"uuid", dev.uuid},
                   {"compute_capability",
                    std::to_string(dev.ccMajor) + "." +
                        std::to_string(dev.ccMinor)},
                   {"sm_count", dev.smCount},
                   {"driver_api_version", dev.driverVersion}};
    j["device_state"] = readings.finish();
    j["manifest"] = o.manifest;
    j["kernel"] = plan.launchName;
    j["kernel_launched"] = plan.kernel->name;
    j["knobs"] = plan.knobValues;
    j["knob"] = ev.knob();
    j["launch"] = {{"grid", {cfg.grid.x, cfg.grid.y, cfg.grid.z}},
                   {"block", {cfg.block.x, cfg.block.y, cfg.block.z}},
                   {"shared_bytes", cfg.sharedMemBytes}};
    j["args"] = argsJson;
    j["metric"] = eo.metric.name();
    j["timing"] = {{"warmup", o.warmup}, {"reps", o.reps},
                   {"until_ci", o.untilCi}, {"max_reps", o.maxReps},
                   {"statistic", "median"}};
    j["qos"] = {{"kind", o.qosAbs ? "absolute" : "ratio"},
                {"value", o.qos},
                {"bound", bound}};
    j["occupancy"] = {{"active_blocks_per_sm", occ.activeBlocksPerSM},
                      {"resident_blocks_per_sm", occ.residentBlocksPerSM},
                      {"warps_per_block", occ.warpsPerBlock},
                      {"resident_warps_per_sm", occ.residentWarpsPerSM},
                      {"regs_per_thread", occ.numRegs},
                      {"lambda_max", occ.lambdaMax}};
    j["lambda_max"] = ev.lambdaMax();
    j["results"] = json::array();
    for (const TuneResult &r : results) {
      json rj = {{"method", tuneMethodName(r.method)},
                 {"lambda", r.lambda},
                 {"time_ms", r.timeMs},
                 {"error", r.error},
                 {"satisfied", r.satisfied},
                 {"runs", r.runs},
                 {"qos_bound", r.qosBound},
                 {"base_time_ms", r.baseTimeMs},
                 {"sfu_time_ms", r.sfuTimeMs},
                 {"sfu_error", r.sfuError},
                 {"speedup", r.timeMs > 0 ? r.baseTimeMs / r.timeMs : 0.0}};
      if (r.method == TuneMethod::Omg)
        rj["max_feasible_lambda"] = r.maxFeasibleLambda;
      rj["trace"] = json::array();
      for (const TunePoint &p : r.trace)
        rj["trace"].push_back(pointJson(p));
      j["results"].push_back(rj);
    }
    j["points"] = json::array();
    for (auto &[l, p] : all)
      j["points"].push_back(pointJson(p));
    j["kernel_launches"] = ev.launches();
    writeOutputFile(o.jsonPath,
              j.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  }
  if (!o.svgPath.empty()) {
    approx::tune::PlotData pd;
    pd.title = escapeBytes(man->module) + " / " + plan.launchName + " on " +
               dev.name;
    for (auto &[l, p] : all)
      pd.curve.push_back({p.lambda, p.timeMs, p.error});
    pd.qosBound = bound;
    pd.lambdaMax = ev.lambdaMax();
    pd.knobMax = knob->max;
    for (const TuneResult &r : results)
      pd.markers.push_back({std::string(tuneMethodName(r.method)) +
                                " λ*=" + std::to_string(r.lambda) + " (" +
                                std::to_string(r.runs) + " runs)",
                            r.lambda, r.error});
    writeOutputFile(o.svgPath, approx::tune::renderTradeoffSvg(pd));
  }
  bool ok = true;
  for (const TuneResult &r : results)
    ok &= r.satisfied;
  return ok ? 0 : 3;
}

} // namespace

int main(int argc, char **argv) {
  // Every failure, including one the code did not foresee, is one line.
  try {
    return run(argc, argv);
  } catch (const approx::cli::UsageError &e) {
    return tool().fail(e.what());
  } catch (const CliError &e) {
    std::fprintf(stderr, "approx-tune: error: %s\n", e.message.c_str());
    return e.code;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "approx-tune: error: out of host memory\n");
  } catch (const std::exception &e) {
    std::fprintf(stderr, "approx-tune: error: %s\n",
                 escapeBytes(e.what()).c_str());
  } catch (...) {
    std::fprintf(stderr, "approx-tune: error: unknown exception\n");
  }
  return 2;
}
