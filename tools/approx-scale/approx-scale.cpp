//===- approx-scale.cpp - Precision scaling of a PolyBench/GPU app -------===//
//
// PreScaler's whole flow (CGO'20, Fig. 7) on one application of
// examples/precision/polybench, on the GPU:
//
//   approx-scale --app NAME --ptx-dir DIR --db FILE --toq 0.9[,0.95,...]
//                [--size paper|16x|tiny] [--input default|random|image:FILE]
//                [--seed S] [--strategy ours|prescaler|pfp|in-kernel|all]
//                [--holdout-seed S2 | --holdout-image FILE2]
//                [--reps N] [--warmups W] [-o report.json] [--quiet]
//
//   1. loads the system database (approx-inspect) and refuses one recorded
//      on another machine (checkMachine, same model);
//   2. profiles the app in f64 through a precision Session: objects,
//      transfers, kernel times, total time; its outputs are the reference.
//      Every measured run (profile, trial, held-out) is --warmups untimed
//      runs (default 1) and the median of --reps (default 3);
//   3. per TOQ (a comma-separated list, in the order given) and strategy,
//      decideWith() with a Trial that runs, through the evaluation harness
//      (ProgramEvaluator: the configuration as a point of the program's
//      space, evaluate(Config)), the app in scale
//      mode (DIR/<id>_variants.manifest.json, the storage variants) and
//      compares its outputs with the reference (quality = 1 - mean relative
//      error); trials are memoised by Configuration::key() across
//      strategies and TOQs (one profile, each configuration run once per
//      process); progress per trial on stderr;
//   4. prints the chosen configuration (storage type and methods per
//      object), the trials (count, bound), predicted vs measured time and
//      the speedup over the f64 profile; the chosen configuration is run if
//      the search only predicted it;
//   5. --holdout-seed / --holdout-image: re-runs the chosen configuration on
//      another input of the same set (random inputs: seed S2; image inputs:
//      the photograph FILE2), against that input's own f64 run (once per
//      process), and says whether the TOQ still holds; each configuration
//      runs once on it;
//   6. the staging control: the f64 program measured as a trial, every
//      transfer a staged copy through the trials' pinned staging
//      (prec::stagedCopyConfiguration, as many host threads as the
//      database measured); each pick's speedup over it, and its speedup
//      over the f64 profile split into staging (profile / control) and
//      precision (control / pick). --app only: the mgpu hooks copy objects
//      kept in their declared type directly;
//   7. -o: a JSON report with all of it.
//
// --exec: the same search over an unmodified MLIR host program linked with
// libapprox_mgpu.so and compiled with precision variants (docs/precision.md,
// "approx-scale --exec: unmodified MLIR programs"):
//
//   approx-scale --exec PROGRAM [--arg A]... --manifest VARIANTS.manifest.json
//                --db FILE --toq Q[,Q...] [--strategy ...] [--reps N]
//                [--warmups W] [-o report.json] [--quiet]
//                [--no-machine-check]
//
// Every run is a subprocess (ExecProgram.h) in a private temporary
// directory: --warmups plain runs, then --reps runs with
// APPROX_PRECISION=profile (the median by total time is the profile, its
// outputs the reference); each trial --warmups + --reps runs with
// APPROX_PRECISION=scale, its configuration, EXPECT = the profile, a report
// and an outputs file (APPROX_PRECISION_OUTPUTS); quality and times as for
// --app (prec::trialResult). A trial whose program exits non-zero is a
// failed trial (its stderr's last line on stderr and in the report); a
// failed profile run ends the tool. --no-machine-check skips the database's
// machine check and needs no GPU in this process: for tests over the fake
// driver only, where the database cannot describe the machine.
//
// Exits 0, 1 on an error (one line), 2 on a usage error, 77 (with the
// reason) where no GPU is usable.
//
//===----------------------------------------------------------------------===//
#include "Apps.h"
#include "ExecProgram.h"
#include "Inspect.h"
#include "Runner.h"

#include "approx/Support/Cli.h"
#include "approx/runtime/core/DeviceMonitor.h"
#include "approx/runtime/precision/Decision.h"
#include "approx/runtime/precision/ProgramEvaluator.h"
#include "approx/runtime/precision/Session.h"
#include "approx/runtime/precision/SystemDb.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <string>
#include <vector>

using namespace approx::polybench;
namespace rt = approx::rt;
namespace prec = approx::rt::precision;
using json = nlohmann::json;

namespace {

bool quiet = false;

const char *const kHelp =
    R"(usage: approx-scale --app NAME --ptx-dir DIR --db FILE --toq Q[,Q...]
                    [--size paper|16x|tiny] [--input default|random|image:FILE]
                    [--seed S] [--strategy ours|prescaler|pfp|in-kernel|all]
                    [--holdout-seed S2 | --holdout-image FILE2] [--reps N]
                    [--warmups W] [-o report.json] [--quiet]
       approx-scale --exec PROGRAM [--arg A]... --manifest VARIANTS.manifest.json
                    --db FILE --toq Q[,Q...] [--strategy ...] [--reps N]
                    [--warmups W] [-o report.json] [--quiet]
                    [--no-machine-check]

Precision scaling (PreScaler's flow, docs/precision.md) of a PolyBench/GPU
application (--app) or of an unmodified MLIR host program (--exec), on the
GPU: profile in f64, search storage types per TOQ and strategy, measure.
  --toq Q[,Q...]     target output qualities, each in (0, 1] (0.9: mean
                     relative error <= 10%), in the order given
  --strategy S       ours, prescaler, pfp, in-kernel or all (default ours)
  --reps N           measured runs per configuration, median (1 to 100,
                     default 3)
  --warmups W        untimed runs before each (0 to 10, default 1)
  --until-ci R       then more runs, until the median's 95% bootstrap
                     interval lies within +-R of it (0.01: +-1%), at most
                     --max-reps in all (default 200); the reports give
                     each time's interval and run count (--app)
  --seed S           seed of --input random (0 to 2^64-1, default 1)
  --holdout-seed S2  also run the chosen configuration on seed S2
  --holdout-image F  ... or on the photograph F (--input image:FILE)
  -o FILE            the JSON report
  --no-machine-check (--exec) skip the database's machine check (tests)
Every input (options, database, application, images, manifests) is checked
before the GPU is opened. Exit status: 0, 1 on an error, 2 on a usage error
(one line each), 77 (with the reason) where no GPU is usable.
)";

int fail(const std::string &msg) {
  std::fprintf(stderr, "approx-scale: %s\n", msg.c_str());
  return 1;
}

/// `path` loads as a manifest and, with `image`, names an image that is
/// there: what Module::load checks that needs no GPU.
rt::Status checkManifest(const std::string &path, bool image) {
  rt::Expected<rt::Manifest> m = rt::loadManifestFile(path);
  if (!m)
    return m.status();
  if (!image)
    return rt::Status::ok();
  return rt::resolveImagePath(*m, m->ptx.empty(), false).status();
}

/// Outputs of a run: the arrays read back (others empty).
Buffers outputsOf(const App &app, const Buffers &outs) {
  Buffers r(app.objects.size());
  for (size_t i = 0; i < app.objects.size(); ++i)
    if (app.objects[i].fromDevice)
      r[i] = outs[i];
  return r;
}

json methodJson(const prec::Method &m) { return m.str(); }

json configSummary(const prec::Configuration &c) {
  json objs = json::array();
  for (const prec::ObjectChoice &o : c.objects)
    objs.push_back({{"name", o.name},
                    {"declared", rt::scalarTypeName(o.declared)},
                    {"storage", rt::scalarTypeName(o.storage)},
                    {"h2d", methodJson(o.h2d)},
                    {"d2h", methodJson(o.d2h)}});
  return objs;
}

/// The command line of either mode.
struct Options {
  std::string appName, ptxDir, dbPath, sizeName = "paper", input = "default",
                                       strategyName = "ours", out,
                                       holdoutImage;
  std::vector<double> toqs;
  bool haveHoldout = false;
  uint64_t seed = 1, holdoutSeed = 0;
  unsigned reps = 3;
  // Untimed runs before each measured configuration: the first run in a
  // process pays lazy module loading and first-touch costs (tens of ms on
  // an H100, 2026-11-25). 0 suits programs whose run is long enough that
  // these vanish (CORR, COVAR: 1.4 s of kernels).
  unsigned warmups = 1;
  // Dispersion (issue 30): more runs until the median is tight.
  double untilCi = 0;
  unsigned maxReps = 200;
  approx::rt::Tightness tightness() const {
    return {untilCi, int(std::max(maxReps, reps))};
  }
  // --exec.
  std::string program, manifest;
  std::vector<std::string> args;
  bool noMachineCheck = false;
};

/// `toqs` as "0.9,0.95".
std::string toqListText(const std::vector<double> &toqs) {
  std::string list;
  for (double toq : toqs) {
    char b[32];
    std::snprintf(b, sizeof b, "%s%g", list.empty() ? "" : ",", toq);
    list += b;
  }
  return list;
}

/// The database was recorded on a machine like this one (checkMachine).
rt::Status checkHere(const prec::SystemDb &db, const rt::Context &ctx) {
  prec::Fingerprint here;
  here.cpu = prec::currentCpu();
  here.gpu = approx::inspect::gpuFingerprint(ctx, [](const std::string &w) {
    std::fprintf(stderr, "approx-scale: warning: %s\n", w.c_str());
  });
  return prec::checkMachine(db, here);
}

/// `inner` with one progress line per trial on stderr, memoised by
/// Configuration::key() across strategies and TOQs; `ran` counts the
/// trials actually run.
prec::Trial progressTrial(prec::Trial inner, std::shared_ptr<unsigned> ran) {
  auto progress = std::make_shared<unsigned>(0);
  prec::Trial logged = [inner = std::move(inner), progress](
                           const prec::Configuration &c)
      -> rt::Expected<prec::TrialResult> {
    rt::Expected<prec::TrialResult> r = inner(c);
    if (r && !quiet)
      std::fprintf(stderr,
                   "[trial %u] %s: quality=%.6f total=%.3f ms kernels=%.3f "
                   "ms%s%s\n",
                   ++*progress, c.key().c_str(), r->quality,
                   r->totalSeconds * 1e3, r->kernelSeconds * 1e3,
                   r->overflow ? " OVERFLOW" : "",
                   r->failed ? " FAILED" : "");
    return r;
  };
  return prec::memoizeTrial(logged, std::make_shared<prec::TrialMemo>(),
                            std::move(ran));
}

/// --app's held-out check of a chosen configuration: adds "holdout" to the
/// strategy's JSON entry and prints its line.
using HeldOutCheck = std::function<rt::Status(const prec::Decision &,
                                              double toq, json &entry)>;

/// Every TOQ with every strategy, in that order, over one memoised trial:
/// prints each decision (objects, trials, predicted and measured time, the
/// speedup over the f64 profile) and returns their JSON entries. The chosen
/// configuration is measured (through `trial`) if the search only
/// predicted it, or re-timed through `retime` when given (--until-ci: a
/// pick made from the search's noisy points is timed again, apart from
/// them); `heldOut` (may be empty) runs after each.
rt::Expected<json> runSearches(const prec::SystemDb &db,
                               const prec::AppProfile &profile,
                               const std::vector<double> &toqs,
                               const std::vector<prec::StrategyKind> &kinds,
                               const prec::Trial &trial,
                               const HeldOutCheck &heldOut,
                               const prec::Trial &retime = {}) {
  std::vector<std::pair<double, prec::StrategyKind>> searches;
  for (double q : toqs)
    for (prec::StrategyKind k : kinds)
      searches.emplace_back(q, k);
  json strategies = json::array();
  for (const auto &[toq, kind] : searches) {
    const char *name = prec::strategyName(kind);
    if (!quiet)
      std::fprintf(stderr, "strategy %s, toq %g\n", name, toq);
    prec::DecisionOptions opt;
    opt.toq = toq;
    rt::Expected<prec::Decision> d =
        prec::decideWith(kind, db, profile, opt, trial);
    if (!d)
      return d.status().withContext(name);
    // Measure the chosen configuration if the search only predicted it.
    rt::Expected<prec::TrialResult> chosen =
        retime ? retime(d->config) : trial(d->config);
    if (!chosen)
      return chosen.status().withContext(name);
    const double base = profile.totalSeconds;
    std::printf("\nstrategy %s, toq %g: %zu trials (bound %u%s)\n", name, toq,
                d->trials.size(), d->trialBound,
                d->budgetExhausted ? ", exhausted" : "");
    for (const prec::ObjectChoice &o : d->config.objects)
      std::printf("  %-8s %s -> %-4s h2d %s, d2h %s\n", o.name.c_str(),
                  rt::scalarTypeName(o.declared),
                  rt::scalarTypeName(o.storage), o.h2d.str().c_str(),
                  o.d2h.str().c_str());
    bool pass = !chosen->failed && !chosen->overflow && chosen->quality >= toq;
    std::printf("  predicted %.3f ms, measured %.3f ms, f64 %.3f ms: "
                "speedup %.3fx (predicted %.3fx), quality %.6f%s\n",
                d->predictedSeconds * 1e3, chosen->totalSeconds * 1e3,
                base * 1e3, base / chosen->totalSeconds,
                base / d->predictedSeconds, chosen->quality,
                pass ? "" : " (below the TOQ)");
    json s = json::parse(prec::decisionToJson(*d));
    s["strategy"] = name;
    s["toq"] = toq;
    s["objects"] = configSummary(d->config);
    s["verified"] = {{"quality", chosen->quality},
                     {"overflow", chosen->overflow},
                     {"failed", chosen->failed},
                     {"total_seconds", chosen->totalSeconds},
                     {"total_seconds_ci", {chosen->totalLo, chosen->totalHi}},
                     {"runs", chosen->runs},
                     {"energy_j_per_run", chosen->energyJoules},
                     {"retimed", bool(retime)},
                     {"kernel_seconds", chosen->kernelSeconds},
                     {"pass", pass}};
    // Each object's transfers as measured in that run (wall time with the
    // conversions): the byte-ratio goal's numerator.
    json per = json::object();
    for (const prec::ObjectTransferTime &o : chosen->objectTransfers)
      per[o.name] = {{"h2d", o.h2dSeconds}, {"d2h", o.d2hSeconds}};
    s["verified"]["object_transfer_seconds"] = per;
    s["speedup"] = base / chosen->totalSeconds;
    s["predicted_speedup"] = base / d->predictedSeconds;
    if (heldOut)
      APPROX_RETURN_IF_ERROR(heldOut(*d, toq, s));
    strategies.push_back(std::move(s));
  }
  return strategies;
}

/// The staging control's host threads: the most the database measured a
/// host conversion with (the picks' host methods choose among those), else
/// the machine's logical cores.
unsigned controlThreads(const prec::SystemDb &db) {
  unsigned t = 0;
  for (const prec::HostConvertTable &h : db.hostConvert)
    t = std::max(t, h.threads);
  if (t == 0)
    t = db.machine.cpu.logicalCores;
  return std::max(1u, t);
}

/// The staging control (issue 30): the f64 program moved through the
/// scaled trials' pinned staging, measured as a trial (`ctl`, or the error
/// that stopped it). Adds "pinned_f64" to `report` and, to each strategy
/// entry, its pick's speedup over the control and the split of its speedup
/// over the pageable f64 profile (`base` seconds): "gain_staging" (base /
/// control) times "gain_precision" (control / pick, the same number as
/// "speedup_pinned_f64"); prints them as a table.
void addStagingControl(json &report, json &strategies, double base,
                       const rt::Expected<prec::TrialResult> &ctl,
                       const prec::Configuration &c, unsigned threads) {
  const std::string method = prec::Method::host(threads).str();
  if (!ctl || ctl->failed || !(ctl->totalSeconds > 0)) {
    const std::string why = ctl ? "the run failed" : ctl.status().message();
    std::printf("\nstaging control (every object in its declared type, "
                "staged copy %s): not measured: %s\n",
                method.c_str(), why.c_str());
    report["pinned_f64"] = {
        {"method", method}, {"threads", threads}, {"error", why}};
    return;
  }
  const double pinned = ctl->totalSeconds;
  json per = json::object();
  for (const prec::ObjectTransferTime &o : ctl->objectTransfers)
    per[o.name] = {{"h2d", o.h2dSeconds}, {"d2h", o.d2hSeconds}};
  report["pinned_f64"] = {{"method", method},
                          {"threads", threads},
                          {"config", configSummary(c)},
                          {"total_seconds", pinned},
                          {"total_seconds_ci", {ctl->totalLo, ctl->totalHi}},
                          {"runs", ctl->runs},
                          {"energy_j_per_run", ctl->energyJoules},
                          {"kernel_seconds", ctl->kernelSeconds},
                          {"quality", ctl->quality},
                          {"overflow", ctl->overflow},
                          {"object_transfer_seconds", per},
                          {"f64_seconds", base},
                          {"speedup", base / pinned}};
  std::printf("\nstaging control (every object in its declared type, staged "
              "copy %s through pinned staging): %.3f ms, kernels %.3f ms, "
              "quality %.6f; pageable f64 %.3f ms: staging alone %.3fx\n",
              method.c_str(), pinned * 1e3, ctl->kernelSeconds * 1e3,
              ctl->quality, base * 1e3, base / pinned);
  std::printf("  %-10s %-5s %10s %12s %11s %8s %10s\n", "strategy", "toq",
              "pick ms", "vs pageable", "vs pinned", "staging", "precision");
  for (json &s : strategies) {
    const double pick = s["verified"]["total_seconds"].get<double>();
    s["speedup_pinned_f64"] = pinned / pick;
    s["gain_staging"] = base / pinned;
    s["gain_precision"] = pinned / pick;
    std::printf("  %-10s %-5g %10.3f %11.3fx %10.3fx %7.3fx %9.3fx\n",
                s["strategy"].get<std::string>().c_str(),
                s["toq"].get<double>(), pick * 1e3, base / pick, pinned / pick,
                base / pinned, pinned / pick);
  }
}

/// The end of either mode: the summary line, and the report (-o) with the
/// strategies and the count of trials run.
int finishReport(json &report, json strategies, unsigned ran, size_t kinds,
                 size_t toqs, const std::string &out) {
  report["strategies"] = std::move(strategies);
  report["trials_run"] = ran;
  std::printf("\n%u distinct configurations run over %zu strategies and %zu "
              "TOQs\n",
              ran, kinds, toqs);
  if (!out.empty()) {
    if (rt::Status s = prec::writeFileAtomically(out, report.dump(1) + "\n",
                                                 "approx-scale report");
        !s)
      return fail(s.message());
    std::printf("report: %s\n", out.c_str());
  }
  return 0;
}

/// The report's fields common to both modes.
void reportCommon(json &report, const Options &o, const std::string &device,
                  const prec::AppProfile &profile) {
  // "toq": the first TOQ (the only one before TOQ lists); every strategy
  // entry names its own.
  report["toq"] = o.toqs.front();
  report["toqs"] = o.toqs;
  report["reps"] = o.reps; // each measurement: warmups untimed runs, median of reps
  report["warmups"] = o.warmups;
  report["device"] = device;
  report["db"] = o.dbPath;
  report["profile"] = json::parse(prec::appProfileToJson(profile));
}

/// approx-scale --exec (the file comment): 0, or the exit code.
int runExec(const Options &o, const std::vector<prec::StrategyKind> &kinds) {
  rt::Expected<prec::SystemDb> db = prec::loadSystemDb(o.dbPath);
  if (!db)
    return fail(db.status().message());
  // The program reads the manifest (not its image, which it embeds): a
  // bad one is found before the GPU.
  if (rt::Status s = checkManifest(o.manifest, false); !s)
    return fail(s.message());
  std::string device = "unchecked (--no-machine-check)";
  if (!o.noMachineCheck) {
    std::shared_ptr<rt::Context> ctx;
    if (int rc = openGpu("approx-scale", ctx))
      return rc;
    if (rt::Status s = checkHere(*db, *ctx); !s)
      return fail(s.message());
    device = ctx->device().name;
    // The context goes: the program's runs have the GPU to themselves.
  } else {
    std::fprintf(stderr, "approx-scale: warning: --no-machine-check: the "
                         "database is not checked against this machine "
                         "(for tests only)\n");
  }
  rt::Expected<approx::scale::TempDir> dirOr = approx::scale::TempDir::create("approx-scale");
  if (!dirOr)
    return fail(dirOr.status().message());
  const approx::scale::TempDir dir = dirOr.take();
  using Env = std::vector<std::pair<std::string, std::string>>;
  auto run = [&](const Env &env) {
    return approx::scale::runProgram(dir, o.program, o.args, env);
  };
  const std::string outputs = dir.file("outputs.bin");
  auto profileEnv = [&](const std::string &prof) -> Env {
    prec::HookFiles f;
    f.manifest = o.manifest;
    f.profileOut = prof;
    f.outputs = outputs;
    return prec::hookEnvironment("profile", f);
  };

  // The f64 profile: --warmups plain runs, then the median of --reps
  // profiled runs by total time; its outputs are every trial's reference.
  for (unsigned w = 0; w < o.warmups; ++w) {
    rt::Expected<approx::scale::Exit> x = run({});
    if (!x)
      return fail(x.status().message());
    if (!x->ok)
      return fail("warm-up run of " + o.program + ": " + x->describe());
  }
  std::vector<prec::AppProfile> profiles;
  std::vector<std::vector<prec::NamedOutput>> profileOutputs;
  for (unsigned k = 0; k < o.reps; ++k) {
    const std::string prof = dir.file("profile" + std::to_string(k) + ".json");
    std::remove(outputs.c_str());
    rt::Expected<approx::scale::Exit> x = run(profileEnv(prof));
    if (!x)
      return fail(x.status().message());
    if (!x->ok)
      return fail("profile run of " + o.program + ": " + x->describe());
    rt::Expected<prec::AppProfile> p = prec::loadAppProfile(prof);
    if (!p)
      return fail("profile run: " + p.status().message());
    rt::Expected<std::vector<prec::NamedOutput>> outs =
        prec::loadOutputs(outputs);
    if (!outs)
      return fail("profile run: " + outs.status().message());
    profiles.push_back(p.take());
    profileOutputs.push_back(outs.take());
  }
  std::vector<double> seconds;
  for (const prec::AppProfile &p : profiles)
    seconds.push_back(p.totalSeconds);
  const size_t m = prec::medianIndex(seconds);
  const prec::AppProfile &profile = profiles[m];
  const std::string profilePath =
      dir.file("profile" + std::to_string(m) + ".json");
  std::vector<std::string> names;
  for (const prec::NamedOutput &n : profileOutputs[m])
    names.push_back(n.name);
  if (names.empty())
    return fail("profile run: " + o.program +
                " read no float object back from the device (no outputs to "
                "compare)");
  const std::vector<std::vector<double>> reference =
      approx::scale::alignOutputs(profileOutputs[m], names);
  double kernelSeconds = 0;
  for (const prec::KernelProfile &k : profile.kernels)
    kernelSeconds += k.seconds;
  std::printf("program=%s toq=%s device=%s\n", o.program.c_str(),
              toqListText(o.toqs).c_str(), device.c_str());
  std::printf("f64 profile: total %.3f ms, kernels %.3f ms, %zu objects, "
              "%zu transfers, %zu outputs\n",
              profile.totalSeconds * 1e3, kernelSeconds * 1e3,
              profile.objects.size(), profile.transfers.size(), names.size());

  // One run in a configuration. One that changes nothing is the program
  // itself: it runs as the f64 profile did (profile mode), as --app runs it
  // through the plain module.
  std::string failure; // the last run's, when it exited non-zero
  double failedSeconds = 0;
  const std::string config = dir.file("trial.config.json");
  const std::string report = dir.file("trial.report.json");
  const std::string trialProfile = dir.file("trial.profile.json");
  prec::ScaledProgram once =
      [&](const prec::Configuration &c) -> rt::Expected<prec::ProgramRun> {
    failure.clear();
    std::remove(outputs.c_str());
    std::remove(report.c_str());
    Env env;
    if (c.changesNothing()) {
      env = profileEnv(trialProfile);
    } else {
      APPROX_RETURN_IF_ERROR(prec::saveConfiguration(c, config));
      prec::HookFiles f;
      f.manifest = o.manifest;
      f.config = config;
      f.expect = profilePath;
      f.report = report;
      f.outputs = outputs;
      env = prec::hookEnvironment("scale", f);
    }
    APPROX_ASSIGN_OR_RETURN(approx::scale::Exit x, run(env));
    rt::Expected<prec::ProgramRun> r = rt::internalError("not run");
    if (x.ok && c.changesNothing()) {
      rt::Expected<prec::AppProfile> p = prec::loadAppProfile(trialProfile);
      r = p ? approx::scale::readProfiledRun(*p, outputs, names)
            : rt::Expected<prec::ProgramRun>(p.status());
    } else if (x.ok) {
      r = approx::scale::readScaledRun(report, outputs, names);
    }
    if (!x.ok || !r) {
      failure = x.ok ? r.status().message() : x.describe();
      failedSeconds = x.seconds;
      return rt::internalError(failure);
    }
    return r;
  };
  json failures = json::object();
  // The program failed in a configuration: a failed trial, not the end of
  // the search.
  prec::FailedRun failedRun =
      [&](const prec::Configuration &c,
          const rt::Status &) -> std::optional<prec::TrialResult> {
    if (failure.empty())
      return std::nullopt;
    std::fprintf(stderr, "approx-scale: %s: %s\n", c.key().c_str(),
                 failure.c_str());
    failures[c.key()] = failure;
    prec::TrialResult t;
    t.totalSeconds = failedSeconds > 0 ? failedSeconds : 1e-9;
    return t;
  };
  // Every trial is a point of the program's space, measured through the
  // evaluation harness (ProgramEvaluator.h).
  prec::ProgramEvaluator evaluator(profile,
                                   prec::medianOf(once, o.warmups, o.reps),
                                   reference, failedRun);
  prec::Trial inner = [&](const prec::Configuration &c) {
    return evaluator.trial(c);
  };
  auto ran = std::make_shared<unsigned>(0);
  prec::Trial trial = progressTrial(inner, ran);

  json out;
  out["program"] = o.program;
  out["args"] = o.args;
  out["manifest"] = o.manifest;
  out["outputs"] = names;
  reportCommon(out, o, device, profile);
  rt::Expected<json> strategies =
      runSearches(*db, profile, o.toqs, kinds, trial, {});
  if (!strategies)
    return fail(strategies.status().message());
  out["failed_trials"] = failures;
  // No staging control here: the hooks move an object kept in its declared
  // type by the program's own copy, whatever its configured method.
  std::printf("\nstaging control: not measured under --exec\n");
  return finishReport(out, strategies.take(), *ran, kinds.size(),
                      o.toqs.size(), o.out);
}

/// Parses the command line into `o` and `kinds`: -1 to go on, else the
/// exit status (0 after --help, 2 after a one-line usage error).
int parseOptions(int argc, char **argv, Options &o,
                 std::vector<prec::StrategyKind> &kinds) {
  namespace cli = approx::cli;
  cli::CommandLine cl{cli::Tool{"approx-scale"}, "precision scaling", kHelp};
  std::vector<CLI::Option *> appOnly, execOnly;
  appOnly.push_back(cl.text("--app", o.appName));
  appOnly.push_back(cl.text("--ptx-dir", o.ptxDir));
  appOnly.push_back(cl.text("--size", o.sizeName));
  appOnly.push_back(cl.text("--input", o.input));
  appOnly.push_back(cl.unsignedInteger("--seed", o.seed));
  CLI::Option *holdoutSeed =
      cl.unsignedInteger("--holdout-seed", o.holdoutSeed);
  appOnly.push_back(holdoutSeed);
  appOnly.push_back(cl.text("--holdout-image", o.holdoutImage));
  CLI::Option *exec = cl.text("--exec", o.program);
  execOnly.push_back(exec);
  execOnly.push_back(cl.list("--arg", o.args));
  execOnly.push_back(cl.text("--manifest", o.manifest));
  execOnly.push_back(cl.flag("--no-machine-check", o.noMachineCheck));
  cl.text("--db", o.dbPath);
  // One TOQ or a comma-separated list: one profile, trials shared.
  CLI::Option *toq = cl.value("--toq", [&](const std::string &v) {
    o.toqs = cli::parseList(v, "--toq", [](const std::string &q) {
      return cli::parseNumber(q, "--toq");
    });
  });
  cl.text("--strategy", o.strategyName);
  // Every measured run (profile, trial, held-out): --warmups untimed runs,
  // then the median of --reps.
  cl.integer("--reps", o.reps, 1, 100);
  cl.integer("--warmups", o.warmups, 0, 10);
  CLI::Option *untilCi = cl.number("--until-ci", o.untilCi, 1e-6, 0.5);
  appOnly.push_back(untilCi);
  CLI::Option *maxReps = cl.integer("--max-reps", o.maxReps, 1, 1000);
  appOnly.push_back(maxReps);
  cl.text("-o", o.out);
  cl.flag("--quiet", quiet);
  cl.check([&] {
    auto given = [](const std::vector<CLI::Option *> &opts) -> CLI::Option * {
      for (CLI::Option *opt : opts)
        if (opt->count())
          return opt;
      return nullptr;
    };
    const bool isExec = exec->count() > 0;
    if (CLI::Option *a = given(appOnly); isExec && a)
      cli::usageError("--exec does not take " + a->get_name() +
                      " (an --app option)");
    if (CLI::Option *e = given(execOnly); !isExec && e)
      cli::usageError(e->get_name() + " needs --exec PROGRAM");
    if (isExec && (o.manifest.empty() || o.dbPath.empty() || !toq->count()))
      cli::usageError("--exec needs --manifest, --db and --toq");
    if (!isExec && (o.appName.empty() || o.ptxDir.empty() || o.dbPath.empty() ||
                    !toq->count()))
      cli::usageError("--app, --ptx-dir, --db and --toq are required");
    for (double q : o.toqs)
      if (!(q > 0 && q <= 1))
        cli::usageError("TOQ " + std::to_string(q) +
                        " is not in (0, 1] (0.9: mean relative error <= 10%)");
    if (o.strategyName == "all") {
      kinds = {prec::StrategyKind::Ours, prec::StrategyKind::PreScaler,
               prec::StrategyKind::Pfp, prec::StrategyKind::InKernel};
    } else {
      rt::Expected<prec::StrategyKind> k = prec::parseStrategy(o.strategyName);
      if (!k)
        cli::usageError(k.status().message());
      kinds = {*k};
    }
    o.haveHoldout = holdoutSeed->count() > 0;
  });
  return cl.parse(argc, argv);
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  std::vector<prec::StrategyKind> kinds;
  if (int status = parseOptions(argc, argv, o, kinds); status >= 0)
    return status;
  auto usage = [](const std::string &msg) {
    return approx::cli::Tool("approx-scale").fail(msg);
  };
  const bool exec = !o.program.empty();
  if (exec) {
    struct stat st;
    if (::stat(o.program.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        ::access(o.program.c_str(), X_OK) != 0)
      return usage("--exec " + approx::cli::quote(o.program) +
                   " is not an executable file (give its path)");
    return runExec(o, kinds);
  }
  const App *app = findApp(o.appName);
  if (!app)
    return usage("no application '" + o.appName + "' (run-app --list)");
  // The --app flow reads the options by their names.
  const std::string &sizeName = o.sizeName, &input = o.input,
                    &holdoutImage = o.holdoutImage, &dbPath = o.dbPath,
                    &ptxDir = o.ptxDir;
  const std::vector<double> &toqs = o.toqs;
  const bool haveHoldout = o.haveHoldout;
  const uint64_t seed = o.seed, holdoutSeed = o.holdoutSeed;
  const unsigned reps = o.reps, warmups = o.warmups;
  const rt::Tightness tight = o.tightness();
  SizeClass sc;
  if (!parseSizeClass(sizeName, sc))
    return usage("size '" + sizeName + "' is not paper, 16x or tiny");
  InputSpec in;
  in.seed = seed;
  GrayImage image;
  if (input == "default") {
    in.set = InputSet::Default;
  } else if (input == "random") {
    in.set = InputSet::Random;
  } else if (input.rfind("image:", 0) == 0 && input.size() > 6) {
    in.set = InputSet::Image;
    std::string err;
    if (!loadGrayImage(input.substr(6), image, err))
      return fail(err);
    in.image = &image;
  } else {
    return usage("input '" + input + "' is not default, random or image:FILE");
  }
  if (haveHoldout && in.set != InputSet::Random)
    return usage("--holdout-seed needs --input random (the default set has "
                 "one input; a held-out image is --holdout-image FILE)");
  GrayImage heldImage;
  if (!holdoutImage.empty()) {
    if (in.set != InputSet::Image)
      return usage("--holdout-image needs --input image:FILE (the default "
                   "set has one input; random inputs take --holdout-seed)");
    std::string err;
    if (!loadGrayImage(holdoutImage, heldImage, err))
      return fail(err);
  }
  const bool heldOut = haveHoldout || !holdoutImage.empty();
  const Sizes &sizes = app->sizes(sc);

  rt::Expected<prec::SystemDb> db = prec::loadSystemDb(dbPath);
  if (!db)
    return fail(db.status().message());
  // Both modules' manifests and images, and the inputs, before the GPU.
  for (bool variants : {false, true})
    if (rt::Status s =
            checkManifest(manifestPath(ptxDir, *app, variants), true);
        !s)
      return fail(s.message());
  Buffers inputs;
  std::string err;
  if (!makeInputs(*app, sizes, in, inputs, err))
    return fail(err);
  std::shared_ptr<rt::Context> ctx;
  if (int rc = openGpu("approx-scale", ctx))
    return rc;
  if (rt::Status s = checkHere(*db, *ctx); !s)
    return fail(s.message());

  rt::Expected<std::unique_ptr<Runner>> plain =
      Runner::load(ctx, *app, ptxDir, false);
  if (!plain)
    return fail(plain.status().message());
  rt::Expected<std::unique_ptr<Runner>> scaled =
      Runner::load(ctx, *app, ptxDir, true);
  if (!scaled)
    return fail(scaled.status().message());

  // The f64 profile, measured as every trial is (an untimed run, then the
  // median of --reps by total time); its outputs are the reference of every
  // trial.
  Buffers outs;
  RunTimes t;
  for (unsigned w = 0; w < warmups; ++w)
    if (rt::Status s = (*plain)->run(sizes, inputs, outs, t); !s)
      return fail(s.message());
  RunOptions po;
  po.mode = prec::SessionMode::Profile;
  // The f64 runs' wall times (every timed run), for the interval.
  std::vector<double> profileSeconds;
  auto medianProfile = [&](const Buffers &ins, Buffers &o, RunTimes &times,
                           prec::AppProfile &prof) -> rt::Status {
    std::vector<std::pair<prec::AppProfile, RunTimes>> runs;
    for (unsigned k = 0; k < reps; ++k) {
      prec::AppProfile p;
      RunTimes rt_;
      APPROX_RETURN_IF_ERROR((*plain)->run(sizes, ins, o, rt_, po, &p));
      runs.emplace_back(std::move(p), rt_);
    }
    std::vector<double> seconds;
    for (const auto &r : runs)
      seconds.push_back(r.first.totalSeconds);
    const size_t m = prec::medianIndex(seconds);
    prof = runs[m].first;
    times = runs[m].second;
    // --until-ci: more runs, their times only, until the median is tight.
    while (!tight.reached(seconds) && seconds.size() < size_t(tight.maxReps)) {
      prec::AppProfile p;
      RunTimes rt_;
      APPROX_RETURN_IF_ERROR((*plain)->run(sizes, ins, o, rt_, po, &p));
      seconds.push_back(p.totalSeconds);
    }
    if (seconds.size() > reps)
      prof.totalSeconds = rt::median(seconds);
    profileSeconds = std::move(seconds);
    return rt::Status::ok();
  };
  // The GPU's energy (NVML, issue 30) around the f64 profile's runs and
  // each re-timed measurement (--until-ci): per run, the counter's
  // difference over the runs it spans (warm-ups included). NaN without
  // NVML; the host's energy (conversions) is not counted.
  std::unique_ptr<rt::DeviceMonitor> monitor;
  if (auto m = rt::DeviceMonitor::open(ctx->device().uuid))
    monitor = m.take();
  auto energyNow = [&]() {
    if (!monitor)
      return double(NAN);
    auto r = monitor->read();
    return r ? r->energyJ : double(NAN);
  };
  prec::AppProfile profile;
  const double profileE0 = energyNow();
  if (rt::Status s = medianProfile(inputs, outs, t, profile); !s)
    return fail(s.message());
  const double profileEnergy =
      (energyNow() - profileE0) / double(std::max<size_t>(1, profileSeconds.size()));
  Buffers reference = outputsOf(*app, outs);
  const std::string toqList = toqListText(toqs);
  std::printf("app=%s size=%s input=%s%s toq=%s device=%s\n", app->name.c_str(),
              sizeClassName(sc), inputSetName(in.set),
              in.set == InputSet::Random
                  ? (" seed=" + std::to_string(seed)).c_str()
                  : "",
              toqList.c_str(), ctx->device().name.c_str());
  std::printf("f64 profile: total %.3f ms, kernels %.3f ms, h2d %.3f ms, "
              "d2h %.3f ms, %zu objects, %zu transfers\n",
              t.totalMs, t.kernelMs, t.h2dMs, t.d2hMs,
              profile.objects.size(), profile.transfers.size());

  rt::Expected<std::unique_ptr<prec::TransferEngine>> eng =
      prec::TransferEngine::create(ctx);
  if (!eng)
    return fail(eng.status().message());
  std::shared_ptr<prec::TransferEngine> engine = eng.take();
  Runner &sr = **scaled;
  // One set of output arrays for every scaled run (Runner::run reuses them),
  // as the program would keep its result arrays.
  Buffers scaledOuts;
  auto runScaled = [&](const Buffers &ins, const prec::Configuration &c,
                       const std::vector<std::string> &expected)
      -> rt::Expected<prec::ProgramRun> {
    RunOptions ro;
    ro.mode = prec::SessionMode::Scale;
    ro.config = c;
    ro.expectedTransfers = expected;
    ro.engine = engine;
    RunTimes rt_;
    // A configuration that changes nothing is the program itself: it runs
    // as the f64 profile did (plain module, plain copies), so the scaling
    // machinery's own costs are not charged to "keep everything" (FDTD-2D
    // measured 0.91x for it through the variants module, H100 2026-11-26).
    if (c.changesNothing()) {
      APPROX_RETURN_IF_ERROR((*plain)->run(sizes, ins, scaledOuts, rt_));
      return prec::ProgramRun{outputsOf(*app, scaledOuts), rt_.report};
    }
    APPROX_RETURN_IF_ERROR(sr.run(sizes, ins, scaledOuts, rt_, ro));
    return prec::ProgramRun{outputsOf(*app, scaledOuts), rt_.report};
  };
  // Every trial is a point of the program's space, measured through the
  // evaluation harness (ProgramEvaluator.h).
  prec::ProgramEvaluator evaluator(
      profile,
      prec::medianOf(
          [&](const prec::Configuration &c) {
            return runScaled(inputs, c, profile.transfers);
          },
          warmups, reps),
      reference);
  prec::Trial inner = [&](const prec::Configuration &c) {
    return evaluator.trial(c);
  };
  auto ran = std::make_shared<unsigned>(0);
  prec::Trial trial = progressTrial(inner, ran);

  json report;
  report["app"] = app->name;
  report["size"] = sizeClassName(sc);
  report["input"] = inputSetName(in.set);
  report["seed"] = seed;
  reportCommon(report, o, ctx->device().name, profile);
  {
    const auto [lo, hi] = rt::medianInterval(profileSeconds);
    report["profile_seconds_ci"] = {lo, hi};
    report["profile_runs"] = profileSeconds.size();
    report["profile_energy_j_per_run"] = profileEnergy;
  }
  // --until-ci: each pick and the staging control re-timed apart from the
  // search's points, until tight (memoised: a pick several strategies make
  // is timed once).
  std::unique_ptr<prec::ProgramEvaluator> retimeEvaluator;
  std::map<std::string, prec::TrialResult> retimed;
  prec::Trial retime;
  if (o.untilCi > 0) {
    retimeEvaluator = std::make_unique<prec::ProgramEvaluator>(
        profile,
        prec::medianOf(
            [&](const prec::Configuration &c) {
              return runScaled(inputs, c, profile.transfers);
            },
            warmups, reps, tight),
        reference);
    retime = [&](const prec::Configuration &c)
        -> rt::Expected<prec::TrialResult> {
      if (auto hit = retimed.find(c.key()); hit != retimed.end())
        return hit->second;
      const double e0 = energyNow();
      APPROX_ASSIGN_OR_RETURN(prec::TrialResult r, retimeEvaluator->trial(c));
      r.energyJoules = (energyNow() - e0) / double(warmups + r.runs);
      retimed.emplace(c.key(), r);
      return r;
    };
  }
  // The held-out input and its f64 run, made once; each configuration runs
  // on it once (by key), whichever strategies and TOQs chose it.
  Buffers hinputs, hreference;
  std::vector<std::string> htransfers;
  double hf64Seconds = 0;
  std::map<std::string, prec::TrialResult> heldMemo;
  std::unique_ptr<prec::ProgramEvaluator> heldEvaluator;
  if (heldOut) {
    InputSpec hin = in;
    if (haveHoldout)
      hin.seed = holdoutSeed;
    else
      hin.image = &heldImage;
    if (!makeInputs(*app, sizes, hin, hinputs, err))
      return fail(err);
    Buffers houts;
    RunTimes ht;
    prec::AppProfile hprof;
    for (unsigned w = 0; w < warmups; ++w)
      if (rt::Status st = (*plain)->run(sizes, hinputs, houts, ht); !st)
        return fail("held-out f64 run: " + st.message());
    if (rt::Status st = medianProfile(hinputs, houts, ht, hprof); !st)
      return fail("held-out f64 run: " + st.message());
    hreference = outputsOf(*app, houts);
    htransfers = hprof.transfers;
    hf64Seconds = hprof.totalSeconds;
    // The held-out input's program, through the harness as the trials are.
    heldEvaluator = std::make_unique<prec::ProgramEvaluator>(
        profile,
        prec::medianOf(
            [&](const prec::Configuration &c) {
              return runScaled(hinputs, c, htransfers);
            },
            warmups, reps),
        hreference);
  }
  HeldOutCheck heldOutCheck;
  if (heldOut)
    heldOutCheck = [&](const prec::Decision &d, double toq,
                       json &s) -> rt::Status {
      auto hit = heldMemo.find(d.config.key());
      if (hit == heldMemo.end()) {
        rt::Expected<prec::TrialResult> hr = heldEvaluator->trial(d.config);
        if (!hr)
          return hr.status().withContext("held-out run");
        hit = heldMemo.emplace(d.config.key(), *hr).first;
      }
      const prec::TrialResult &h = hit->second;
      bool hpass = !h.failed && !h.overflow && h.quality >= toq;
      std::string what = haveHoldout ? "seed " + std::to_string(holdoutSeed)
                                     : "image " + holdoutImage;
      std::printf("  held-out %s: quality %.6f%s -> TOQ %s\n", what.c_str(),
                  h.quality, h.overflow ? " (overflow)" : "",
                  hpass ? "holds" : "VIOLATED");
      json hj = {{"quality", h.quality},
                 {"overflow", h.overflow},
                 {"total_seconds", h.totalSeconds},
                 {"f64_seconds", hf64Seconds},
                 {"pass", hpass}};
      if (haveHoldout)
        hj["seed"] = holdoutSeed;
      else
        hj["image"] = holdoutImage;
      s["holdout"] = std::move(hj);
      return rt::Status::ok();
    };
  rt::Expected<json> strategies =
      runSearches(*db, profile, toqs, kinds, trial, heldOutCheck, retime);
  if (!strategies)
    return fail(strategies.status().message());

  // The staging control, measured after the searches so that it changes
  // none of their runs: the f64 program through the trials' machinery
  // (variants module, TransferEngine, the same warm-ups and median), every
  // transfer a staged copy by the host threads through pinned staging,
  // which is reserved here, outside the clock, as a trial's warm-up leaves
  // it. Not a search trial: not memoised, not in trials_run.
  const unsigned threads = controlThreads(*db);
  const prec::Configuration control =
      prec::stagedCopyConfiguration(profile, threads);
  auto measureControl = [&]() -> rt::Expected<prec::TrialResult> {
    for (const prec::ObjectProfile &ob : profile.objects)
      APPROX_RETURN_IF_ERROR(
          engine->reserve(ob.declared, ob.declared, size_t(ob.elements),
                          prec::TransferPlan::hostMulti(threads)));
    return retime ? retime(control) : evaluator.trial(control);
  };
  const rt::Expected<prec::TrialResult> ctl = measureControl();
  json all = strategies.take();
  addStagingControl(report, all, profile.totalSeconds, ctl, control, threads);
  return finishReport(report, std::move(all), *ran, kinds.size(), toqs.size(),
                      o.out);
}
