// run-baselines.cu - the Table-6 suite against the builds a user would pick
// instead of ours (issue 30, "Baselines a user would pick"): nvcc -O3 and
// nvcc -O3 -use_fast_math of the same app source, beside ours (approx-cc's
// PTX through the runtime) at λ = 0 and at λmax. bench/apps/
// run-baselines.sh builds everything and runs it on a GPU machine.
//
// Per app, on one fixed-seed input (the tuning input of run-apps):
//   kernel time   the four builds interleaved round by round: inputs
//                 restored and outputs poisoned outside the clock, CUDA
//                 events around the launch only;
//   app time      the same four, each run as an application does it: every
//                 input copied from pageable host memory, the launch, every
//                 output copied back to pageable memory (one transfer path
//                 for all four);
//   ratios        ours(λ=0) / O3 and ours(λmax) / fast-math, per round
//                 (paired samples), median and 95% bootstrap interval;
//   agreement     ours(λ=0) against O3 and ours(λmax) against fast-math:
//                 output elements that differ bit for bit, the largest ulp
//                 distance, the app's own metric against O3's output, and
//                 the paper's (mean relative error over every element);
//   energy        NVML's energy counter around batches of application runs,
//                 per run: median of --energy-batches batches per build,
//                 interleaved. The counter moves in steps (its period is
//                 measured first and recorded); a batch lasts at least
//                 --energy-seconds and 20 periods, so the step costs at
//                 most 5% of a batch;
//   device state  SM and memory clocks, temperature and power at the
//                 start and end of each app (clocks are not locked: the
//                 device tool does not allow it, so they are logged).
// Repetition: at least --min-reps rounds; then until every build's median
// has its 95% bootstrap interval within ±--tight of it, --max-reps rounds,
// or --app-seconds spent on that measurement of the app. Each reported
// median says how many rounds it took and its interval.
//
// usage: baselines --ours DIR --plain DIR [--apps a,b] [--min-reps N]
//          [--max-reps N] [--tight R] [--app-seconds S]
//          [--energy-seconds S] [--energy-batches N] [--json PATH]
//   --ours DIR   approx-cc's <abbr>.ptx/.manifest.json (compile-apps.sh)
//   --plain DIR  <abbr>.O3.ptx and <abbr>.fast.ptx (run-baselines.sh)
#include "../PlainPtx.cuh"
#include "Harness.cuh"

#include "approx/runtime/core/DeviceMonitor.h"
#include "approx/runtime/sfu/Occupancy.h"
#include "approx/runtime/tune/Metrics.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

using namespace approx::rt;

namespace {
struct Options {
  std::string ours, plain, json;
  std::vector<std::string> only;
  int minReps = 30, maxReps = 300;
  double tight = 0.01, appSeconds = 10, energySeconds = 1;
  int energyBatches = 2;
};

/// A plain build's launch of the app's problem.
void launchPlain(const PlainKernel &k, apps::DeviceProblem &d) {
  apps::DeviceProblem::Params q = d.params();
  const apps::Problem &p = d.p;
  k.launch(dim3(p.grid[0], p.grid[1], p.grid[2]),
           dim3(p.block[0], p.block[1], p.block[2]), p.sharedBytes,
           q.list.data());
}

using apps::Sampled;

/// The repetition rule of the command line.
apps::RepeatRule ruleOf(const Options &o) {
  apps::RepeatRule r;
  r.minReps = o.minReps, r.maxReps = o.maxReps;
  r.tight = o.tight, r.maxSeconds = o.appSeconds;
  return r;
}

/// Bit-for-bit and ulp agreement of two outputs of `elem`-byte floats.
struct Agreement {
  uint64_t compared = 0, differ = 0;
  double maxUlp = 0; ///< +inf: a NaN against a number
};
/// The float's position on the number line in ulps (-0 and +0 both 0).
__int128 ulpPosition(const uint8_t *p, size_t elem) {
  if (elem == 4) {
    int32_t i;
    std::memcpy(&i, p, 4);
    return i < 0 ? -__int128(i & 0x7fffffff) : __int128(i);
  }
  int64_t i;
  std::memcpy(&i, p, 8);
  return i < 0 ? -__int128(i & 0x7fffffffffffffffLL) : __int128(i);
}
bool isNan(const uint8_t *p, size_t elem) {
  if (elem == 4) {
    float f;
    std::memcpy(&f, p, 4);
    return std::isnan(f);
  }
  double d;
  std::memcpy(&d, p, 8);
  return std::isnan(d);
}
Agreement agreement(const apps::Outputs &a, const apps::Outputs &b,
                    size_t elem) {
  Agreement g;
  for (size_t k = 0; k < a.size() && k < b.size(); ++k)
    for (size_t i = 0; i + elem <= a[k].size() && i + elem <= b[k].size();
         i += elem) {
      ++g.compared;
      const uint8_t *x = a[k].data() + i, *y = b[k].data() + i;
      if (std::memcmp(x, y, elem) == 0)
        continue;
      ++g.differ;
      const bool nx = isNan(x, elem), ny = isNan(y, elem);
      if (nx && ny)
        continue;
      if (nx || ny) {
        g.maxUlp = INFINITY;
        continue;
      }
      const __int128 u = ulpPosition(x, elem) - ulpPosition(y, elem);
      g.maxUlp = std::max(g.maxUlp, double(u < 0 ? -u : u));
    }
  return g;
}

std::string num(double v) { return apps::jsonNum(v); }
/// Series k of `t`: its median, 95% interval and rounds, as JSON.
std::string series(const Sampled &t, size_t k) {
  auto [lo, hi] = t.ci(k);
  return "{\"median\":" + num(approx::rt::median(t.samples[k])) +
         ",\"lo\":" + num(lo) + ",\"hi\":" + num(hi) +
         ",\"reps\":" + std::to_string(t.reps) + "}";
}
std::string ratio(const Sampled::Ratio &r) {
  return "{\"median\":" + num(r.median) + ",\"lo\":" + num(r.lo) +
         ",\"hi\":" + num(r.hi) + "}";
}
using apps::stateJson; // with the energy counter

/// How often NVML's energy counter moves: the median time between changes
/// over up to 2 s of polling; NaN when it moved fewer than 3 times.
double counterPeriod(const DeviceMonitor &mon) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  std::vector<double> at;
  double last = NAN;
  while (std::chrono::duration<double>(clock::now() - t0).count() < 2 &&
         at.size() < 12) {
    auto s = mon.read();
    if (!s.isOk() || !std::isfinite(s->energyJ))
      return NAN;
    if (std::isfinite(last) && s->energyJ != last)
      at.push_back(std::chrono::duration<double>(clock::now() - t0).count());
    last = s->energyJ;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  if (at.size() < 3)
    return NAN;
  std::vector<double> gaps;
  for (size_t i = 1; i < at.size(); ++i)
    gaps.push_back(at[i] - at[i - 1]);
  return approx::rt::median(gaps);
}

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return optionValue(argc, argv, i, "baselines"); };
    auto positive = [&](const std::string &v) {
      char *end = nullptr;
      double x = std::strtod(v.c_str(), &end);
      if (!end || *end || !(x > 0) || !std::isfinite(x)) {
        std::fprintf(stderr,
                     "baselines: %s wants a positive number, not '%s'\n",
                     a.c_str(), v.c_str());
        std::exit(2);
      }
      return x;
    };
    auto count = [&](const std::string &v) {
      char *end = nullptr;
      errno = 0;
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || !end || *end || errno || n < 1 || n > 100000) {
        std::fprintf(
            stderr,
            "baselines: %s wants an integer from 1 to 100000, not '%s'\n",
            a.c_str(), v.c_str());
        std::exit(2);
      }
      return int(n);
    };
    if (a == "--ours")
      o.ours = next();
    else if (a == "--plain")
      o.plain = next();
    else if (a == "--json")
      o.json = next();
    else if (a == "--apps") {
      std::stringstream ss(next());
      for (std::string s; std::getline(ss, s, ',');)
        o.only.push_back(s);
    } else if (a == "--min-reps")
      o.minReps = count(next());
    else if (a == "--max-reps")
      o.maxReps = count(next());
    else if (a == "--tight")
      o.tight = positive(next());
    else if (a == "--app-seconds")
      o.appSeconds = positive(next());
    else if (a == "--energy-seconds")
      o.energySeconds = positive(next());
    else if (a == "--energy-batches")
      o.energyBatches = count(next());
    else {
      std::fprintf(stderr, "baselines: unknown option %s\n", a.c_str());
      std::exit(2);
    }
  }
  if (o.ours.empty() || o.plain.empty()) {
    std::fprintf(stderr, "usage: baselines --ours DIR --plain DIR [--apps a,b] "
                         "[--min-reps N] [--max-reps N] [--tight R] "
                         "[--app-seconds S] [--energy-seconds S] "
                         "[--energy-batches N] [--json PATH]\n");
    std::exit(2);
  }
  if (o.maxReps < o.minReps) {
    std::fprintf(stderr, "baselines: --max-reps %d is below --min-reps %d\n",
                 o.maxReps, o.minReps);
    std::exit(2);
  }
  return o;
}
} // namespace

int main(int argc, char **argv) {
  const Options o = parse(argc, argv);
  check(probeDriver(), "driver");
  auto ctxOr = Context::create();
  check(ctxOr.status(), "context");
  std::shared_ptr<Context> ctx = *ctxOr;
  CK(cudaFree(nullptr)); // the runtime API joins the same primary context
  const DeviceInfo &dev = ctx->device();
  std::unique_ptr<DeviceMonitor> mon;
  if (auto m = DeviceMonitor::open(dev.uuid); m.isOk())
    mon = std::move(*m);
  else
    std::printf("# no NVML readings: %s\n", m.status().toString().c_str());
  const double period = mon ? counterPeriod(*mon) : NAN;
  const double batchSeconds = std::isfinite(period)
                                  ? std::max(o.energySeconds, 20 * period)
                                  : o.energySeconds;
  if (mon)
    std::printf("# NVML energy counter period %.3g s: batches of %.3g s\n",
                period, batchSeconds);
  std::printf("# %s, driver %d, rounds %d..%d until ±%.1f%%, at most %.0f s "
              "per measurement\n",
              dev.name.c_str(), dev.driverVersion, o.minReps, o.maxReps,
              100 * o.tight, o.appSeconds);
  std::printf(
      "\n| app | λmax | O3 kernel ms | ours λ=0 / O3 | fast kernel ms "
      "| ours λmax / fast | ours λ=0 / O3, app | ours λmax / fast, app "
      "| differ λ=0 vs O3 (max ulp) | differ λmax vs fast (max ulp) | E "
      "fast | E ours λmax | energy J/run O3 / ours0 / fast / oursmax "
      "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::ostringstream js;
  js << "{\"device\":\"" << dev.name << "\",\"driver\":" << dev.driverVersion
     << ",\"uuid\":\"" << dev.uuid << "\",\"min_reps\":" << o.minReps
     << ",\"max_reps\":" << o.maxReps << ",\"tight\":" << o.tight
     << ",\"app_seconds\":" << o.appSeconds
     << ",\"energy_counter_period_s\":" << num(period)
     << ",\"energy_batch_seconds\":" << batchSeconds << ",\"apps\":[";
  // The JSON so far, rewritten after every app: a run cut short keeps the
  // apps it finished.
  auto save = [&]() {
    if (o.json.empty())
      return true;
    FILE *f = std::fopen(o.json.c_str(), "w");
    if (!f) {
      std::perror(o.json.c_str());
      return false;
    }
    std::fputs((js.str() + "]}\n").c_str(), f);
    return std::fclose(f) == 0;
  };
  bool first = true;
  for (const apps::App &app : apps::registry()) {
    if (!o.only.empty() &&
        std::find(o.only.begin(), o.only.end(), app.abbr) == o.only.end())
      continue;
    const std::string stateStart = stateJson(mon.get());
    apps::DeviceProblem d(app.make(1));
    auto mod = Module::load(ctx, o.ours + "/" + app.abbr + ".manifest.json");
    check(mod.status(), app.abbr);
    Module &m = **mod;
    const std::string kernel = app.kernel;
    auto occ = lambdaBound(m, kernel, d.config(), "lambda");
    check(occ.status(), app.abbr);
    const int64_t lmax = occ->lambdaMax;
    PlainKernel o3("baselines", o.plain + "/" + app.abbr + ".O3.ptx",
                   app.kernel, d.p.sharedBytes);
    PlainKernel fast("baselines", o.plain + "/" + app.abbr + ".fast.ptx",
                     app.kernel, d.p.sharedBytes);
    const std::vector<Arg> args = d.runtimeArgs();
    const LaunchConfig cfg = d.config();
    // Ours at λ = 0 and λmax, one module each (oursAtLambda says why).
    const std::string manifest = o.ours + "/" + app.abbr + ".manifest.json";
    const auto ours0 = oursAtLambda(ctx, manifest, 0);
    const auto oursMax = oursAtLambda(ctx, manifest, lmax);
    auto ours = [&](Module &mm) {
      check(mm.launch(kernel, cfg, args), "launch");
    };
    // The four builds, in the order of every round.
    const std::vector<std::function<void()>> builds = {
        [&] { launchPlain(o3, d); }, [&] { ours(*ours0); },
        [&] { launchPlain(fast, d); }, [&] { ours(*oursMax); }};

    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    auto elapsed = [&]() {
      CK(cudaEventSynchronize(b));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, a, b));
      return double(ms);
    };
    // Kernel time.
    std::vector<std::function<double()>> kernelSteps, appSteps;
    for (const auto &run : builds)
      kernelSteps.push_back([&d, &a, &b, &elapsed, run] {
        d.restore();
        CK(cudaEventRecord(a));
        run();
        CK(cudaEventRecord(b));
        return elapsed();
      });
    // Application time: pageable host memory in, the kernel, out.
    std::vector<std::vector<uint8_t>> hostOut;
    for (const apps::Buffer &buf : d.p.buffers)
      if (buf.output)
        hostOut.emplace_back(buf.bytes);
    auto appRun = [&](const std::function<void()> &run) {
      for (size_t i = 0; i < d.work.size(); ++i)
        if (!d.p.buffers[i].host.empty())
          CK(cudaMemcpy(d.work[i], d.p.buffers[i].host.data(),
                        d.p.buffers[i].bytes, cudaMemcpyHostToDevice));
      run();
      size_t k = 0;
      for (size_t i = 0; i < d.work.size(); ++i)
        if (d.p.buffers[i].output)
          CK(cudaMemcpy(hostOut[k++].data(), d.work[i], d.p.buffers[i].bytes,
                        cudaMemcpyDeviceToHost));
    };
    for (const auto &run : builds)
      appSteps.push_back([&, run] {
        CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(a));
        appRun(run);
        CK(cudaEventRecord(b));
        return elapsed();
      });
    const Sampled kt = apps::repeatRounds(kernelSteps, ruleOf(o)),
                  at = apps::repeatRounds(appSteps, ruleOf(o));
    CK(cudaGetLastError());

    // Energy per application run, batches interleaved across builds.
    std::vector<std::vector<double>> joules(builds.size());
    if (mon)
      for (int batch = 0; batch < o.energyBatches; ++batch)
        for (size_t k = 0; k < builds.size(); ++k) {
          CK(cudaDeviceSynchronize());
          auto e0 = mon->read();
          const auto t0 = std::chrono::steady_clock::now();
          int runs = 0;
          do {
            appRun(builds[k]);
            ++runs;
          } while (std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - t0)
                       .count() < batchSeconds);
          CK(cudaDeviceSynchronize());
          auto e1 = mon->read();
          if (e0.isOk() && e1.isOk() && std::isfinite(e0->energyJ) &&
              std::isfinite(e1->energyJ))
            joules[k].push_back((e1->energyJ - e0->energyJ) / runs);
        }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));

    // Agreement, against O3's output.
    auto outputsOf = [&](const std::function<void()> &run) {
      d.restore();
      run();
      return d.outputs();
    };
    const apps::Outputs outO3 = outputsOf(builds[0]),
                        outOurs0 = outputsOf(builds[1]),
                        outFast = outputsOf(builds[2]),
                        outOursMax = outputsOf(builds[3]);
    const size_t elem = app.doublePrecision ? 8 : 4;
    const Agreement g0 = agreement(outOurs0, outO3, elem),
                    gmax = agreement(outOursMax, outFast, elem);
    const double eFast = app.error(d.p, outO3, outFast),
                 eOurs0 = app.error(d.p, outO3, outOurs0),
                 eOursMax = app.error(d.p, outO3, outOursMax);
    // The paper's metric (its footnote 5: mean relative error), over every
    // output element, beside the app's own.
    const double mreFast = apps::meanRelativeOfOutputs(outO3, outFast, elem),
                 mreOursMax =
                     apps::meanRelativeOfOutputs(outO3, outOursMax, elem);
    const Sampled::Ratio k0 = kt.ratio(1, 0), kmax = kt.ratio(3, 2),
                         a0 = at.ratio(1, 0), amax = at.ratio(3, 2);
    const std::string stateEnd = stateJson(mon.get());

    auto medianOf = [](std::vector<double> v) {
      return v.empty() ? NAN : approx::rt::median(v);
    };
    std::printf("| %s | %lld | %.4f | %.3f [%.3f, %.3f] | %.4f | %.3f [%.3f, "
                "%.3f] | %.3f | %.3f | %llu/%llu (%.3g) | %llu/%llu (%.3g) | "
                "%.3g | %.3g | %.3g / %.3g / %.3g / %.3g |\n",
                app.abbr, (long long)lmax, approx::rt::median(kt.samples[0]),
                k0.median, k0.lo, k0.hi, approx::rt::median(kt.samples[2]),
                kmax.median, kmax.lo, kmax.hi, a0.median, amax.median,
                (unsigned long long)g0.differ, (unsigned long long)g0.compared,
                g0.maxUlp, (unsigned long long)gmax.differ,
                (unsigned long long)gmax.compared, gmax.maxUlp, eFast, eOursMax,
                medianOf(joules[0]), medianOf(joules[1]), medianOf(joules[2]),
                medianOf(joules[3]));
    std::fflush(stdout);

    static const char *names[] = {"o3", "ours0", "fast", "oursmax"};
    js << (first ? "" : ",") << "{\"abbr\":\"" << app.abbr << "\",\"name\":\""
       << app.name << "\",\"functions\":\"" << app.functions
       << "\",\"metric\":\"" << app.metric
       << "\",\"dp\":" << (app.doublePrecision ? "true" : "false")
       << ",\"lambda_max\":" << lmax << ",\"kernel_ms\":{";
    first = false;
    for (size_t k = 0; k < builds.size(); ++k)
      js << (k ? "," : "") << "\"" << names[k] << "\":" << series(kt, k);
    js << "},\"app_ms\":{";
    for (size_t k = 0; k < builds.size(); ++k)
      js << (k ? "," : "") << "\"" << names[k] << "\":" << series(at, k);
    js << "},\"ratios\":{\"kernel_ours0_o3\":" << ratio(k0)
       << ",\"kernel_oursmax_fast\":" << ratio(kmax)
       << ",\"app_ours0_o3\":" << ratio(a0)
       << ",\"app_oursmax_fast\":" << ratio(amax) << "},\"energy_j\":{";
    for (size_t k = 0; k < builds.size(); ++k) {
      js << (k ? "," : "") << "\"" << names[k] << "\":[";
      for (size_t i = 0; i < joules[k].size(); ++i)
        js << (i ? "," : "") << num(joules[k][i]);
      js << "]";
    }
    js << "},\"agreement\":{\"ours0_o3\":{\"compared\":" << g0.compared
       << ",\"differ\":" << g0.differ << ",\"max_ulp\":" << num(g0.maxUlp)
       << "},\"oursmax_fast\":{\"compared\":" << gmax.compared
       << ",\"differ\":" << gmax.differ << ",\"max_ulp\":" << num(gmax.maxUlp)
       << "}},\"error_vs_o3\":{\"ours0\":" << num(eOurs0)
       << ",\"fast\":" << num(eFast) << ",\"oursmax\":" << num(eOursMax)
       << "},\"mre_vs_o3\":{\"fast\":" << num(mreFast)
       << ",\"oursmax\":" << num(mreOursMax)
       << "},\"state_start\":" << stateStart << ",\"state_end\":" << stateEnd
       << "}";
    if (!save())
      return 2;
  }
  return save() ? 0 : 2;
}
