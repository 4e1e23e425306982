// approx-bench.cu - compiler-generated kernels vs hand-written CUDA, and the
// tuners' cost, on the examples (bench/run-bench.sh builds and runs it).
//
// For each example: the approx-opt PTX (loaded through the approx runtime)
// and the hand-written CUDA version (handwritten.cuh: nvcc -O3 precise code
// plus the paper's Listing-3 inline-PTX SFU branch) run on the same inputs
// with the same launch; both are timed the same way (in-place/input buffers
// restored and outputs poisoned before every launch, outside the timed
// region; CUDA events around the launch; warm-up, then the median of N).
// Reported: ours/hand-written at lambda = 0 and at lambda_max, the pure-SFU
// speedup T(0)/T(lambda_max) of each, and the tuners (HEU, SMP, OMG) at
// QoS_ratio 0.8: lambda returned and runs spent. With --plain DIR, also the
// builds a user would pick instead (issue 30): the hand-written precise code
// without the split (plain-examples.cu) as nvcc -O3 and nvcc -O3
// -use_fast_math build it (DIR/plain-examples.{O3,fast}.ptx, run-bench.sh),
// timed in interleaved rounds with ours at λ = 0 and at λmax (the same
// buffers, restored before every launch): ours at λ = 0 against -O3, ours
// at λmax against fast math, as per-round paired ratios with their 95%
// bootstrap intervals, and their outputs' mean relative error against ours
// at λ = 0. The hand-written split runs in the same rounds, at λ = 0 and
// with every warp slot of the SM approximated, its λ global written before
// its own launches (ours/hand as paired ratios too). HEU and SMP search
// the measured λ grid (sfu/SlotGrid.h), as approx-tune does by default;
// where HEU's λ is not OMG's fastest, the two are re-timed side by side. Those rounds follow
// issue 30's rule: at least --min-reps, then until every median's 95%
// interval is within ±--until-ci of it, at most --max-reps (Repeat.cuh).
//
// usage: approx-bench EXAMPLES_DIR [--min-reps N | --reps N] [--until-ci R]
//                     [--max-reps N] [--json PATH] [--plain DIR]
#include "handwritten.cuh"
#include "PlainPtx.cuh"

#include "approx/runtime/tune/KernelEvaluator.h"
#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/sfu/Occupancy.h"
#include "approx/runtime/sfu/SlotGrid.h"
#include "BenchCommon.cuh"
#include "Repeat.cuh"
#include "approx/runtime/tune/Tuner.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace approx::rt;


static int gWarmup = 3, gReps = 20, gMaxReps = 200;
static double gUntilCi = 0;

/// Device copies of one example's buffers for the hand-written kernel.
struct HandBuffers {
  std::vector<void *> work, pristine;
  std::vector<size_t> bytes;
  std::vector<bool> isOut;
  void add(const void *host, size_t n, bool out) {
    void *w, *p = nullptr;
    CK(cudaMalloc(&w, n));
    if (!out) {
      CK(cudaMalloc(&p, n));
      CK(cudaMemcpy(p, host, n, cudaMemcpyHostToDevice));
    }
    work.push_back(w);
    pristine.push_back(p);
    bytes.push_back(n);
    isOut.push_back(out);
  }
  void prepare() {
    for (size_t i = 0; i < work.size(); ++i) {
      if (isOut[i])
        CK(cudaMemset(work[i], 0xff, bytes[i]));
      else
        CK(cudaMemcpy(work[i], pristine[i], bytes[i],
                      cudaMemcpyDeviceToDevice));
    }
  }
  ~HandBuffers() {
    for (size_t i = 0; i < work.size(); ++i) {
      cudaFree(work[i]);
      if (pristine[i])
        cudaFree(pristine[i]);
    }
  }
};

static double timeHand(HandBuffers &b, const std::function<void()> &launch) {
  cudaEvent_t s, e;
  CK(cudaEventCreate(&s));
  CK(cudaEventCreate(&e));
  for (int i = 0; i < gWarmup; ++i) {
    b.prepare();
    launch();
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int i = 0; i < gReps; ++i) {
    b.prepare();
    CK(cudaEventRecord(s));
    launch();
    CK(cudaEventRecord(e));
    CK(cudaEventSynchronize(e));
    float t;
    CK(cudaEventElapsedTime(&t, s, e));
    ms.push_back(t);
  }
  CK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  cudaEventDestroy(s);
  cudaEventDestroy(e);
  size_t n = ms.size();
  return n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

static void setHandLambda(int l) {
  CK(cudaMemcpyToSymbol(hwLambda, &l, sizeof l));
}

struct Example {
  std::string name, kind;
  std::vector<ArgSpec> specs;
  LaunchConfig cfg;
  std::function<void(HandBuffers &)> handLaunch;
  std::vector<std::pair<const void *, std::pair<size_t, bool>>> handData;
  int handOutArg; // index in HandBuffers of the first compared output
};

struct Row {
  std::string name, kind;
  int64_t lmax;
  double oursT0, oursTm, handT0, handTm, oursE, handE, diff0;
  // --plain: nvcc -O3 and -use_fast_math of the unsplit precise code; their
  // outputs' MRE against ours at λ = 0 (NaN without --plain), and the
  // interleaved rounds (series: ours λ = 0, -O3, ours λmax, fast math, and
  // where the example has a hand-written split, that split at λ = 0 and at
  // handMax, every warp slot of the SM).
  double o3T = NAN, fastT = NAN, o3Diff = NAN, fastE = NAN;
  bench::Sampled plainRounds;
  bool handSplit = false;
  int handMax = 0;
  TuneResult heu, smp, omg;
  // The λ grid HEU and SMP search (measureSlotGrid for the knob's warp
  // slot, as approx-tune's --lambda-step auto and run-apps do).
  int lambdaStep = 1;
  // HEU's λ against OMG's, re-timed side by side (OMG's is the minimum of
  // the sweep's noisy medians); no rounds when the two λ are equal.
  bench::Sampled pickRounds;
};

// plainRounds' series.
enum Series { Ours0, O3, OursMax, Fast, Hand0, HandMax };

/// --plain's fields of a row's JSON ("" without --plain).
static std::string plainJson(const Row &r) {
  if (std::isnan(r.o3T))
    return "";
  const bench::Sampled &t = r.plainRounds;
  auto num = [](double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", v);
    return std::string(b);
  };
  // Each series' median and interval, then the paired ratios.
  static const char *names[] = {"ours0", "o3", "oursmax", "fast", "hand0", "handmax"};
  std::string ms = "{", ci = "{";
  for (size_t k = 0; k < t.samples.size(); ++k) {
    auto [lo, hi] = t.ci(k);
    ms += std::string(k ? "," : "") + "\"" + names[k] +
          "\":" + num(approx::rt::median(t.samples[k]));
    ci += std::string(k ? "," : "") + "\"" + names[k] + "\":[" + num(lo) +
          "," + num(hi) + "]";
  }
  auto ratio = [&](const bench::Sampled::Ratio &q) {
    return "{\"median\":" + num(q.median) + ",\"lo\":" + num(q.lo) +
           ",\"hi\":" + num(q.hi) + "}";
  };
  std::string hand;
  if (r.handSplit)
    hand = "\"hand_lambda_max\":" + std::to_string(r.handMax) +
           ",\"ours0_vs_hand0\":" + ratio(t.ratio(Ours0, Hand0)) +
           ",\"oursmax_vs_handmax\":" + ratio(t.ratio(OursMax, HandMax)) + ",";
  return "\"o3_t0\":" + num(r.o3T) + ",\"fast_t\":" + num(r.fastT) +
         ",\"o3_vs_ours0_mre\":" + num(r.o3Diff) +
         ",\"fast_emax\":" + num(r.fastE) +
         ",\"plain_rounds\":" + std::to_string(t.reps) +
         ",\"plain_ms\":" + ms + "},\"plain_ci\":" + ci +
         "},\"ours0_vs_o3\":" + ratio(t.ratio(Ours0, O3)) +
         ",\"oursmax_vs_fast\":" + ratio(t.ratio(OursMax, Fast)) + "," + hand;
}

/// A series' median and 95% interval as the printed tables show it (ms).
static std::string medianCell(const bench::Sampled &t, size_t k) {
  auto [lo, hi] = t.ci(k);
  char b[96];
  std::snprintf(b, sizeof b, "%.4f [%.4f, %.4f]", approx::rt::median(t.samples[k]),
                lo, hi);
  return b;
}

/// A paired ratio and its 95% interval as the printed tables show it.
static std::string ratioCell(const bench::Sampled::Ratio &q) {
  char b[64];
  std::snprintf(b, sizeof b, "%.3f [%.3f, %.3f]", q.median, q.lo, q.hi);
  return b;
}

/// The re-timed HEU/OMG ratio's JSON field ("" when the two λ are equal).
static std::string pickJson(const Row &r) {
  if (r.pickRounds.samples.empty())
    return "";
  const bench::Sampled::Ratio q = r.pickRounds.ratio(0, 1);
  char b[160];
  std::snprintf(b, sizeof b,
                "\"heu_omg_retimed\":{\"median\":%.6g,\"lo\":%.6g,\"hi\":%.6g,"
                "\"rounds\":%d},",
                q.median, q.lo, q.hi, r.pickRounds.reps);
  return b;
}

template <typename T>
static std::vector<uint8_t> bytesOf(const std::vector<T> &v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

int main(int argc, char **argv) {
  const char *usage =
      "usage: approx-bench EXAMPLES_DIR [--min-reps N | --reps N] "
      "[--until-ci R] [--max-reps N] [--json PATH] [--plain DIR] "
      "[--cuda DIR]\n";
  if (argc < 2 || argv[1][0] == '-') {
    std::fputs(usage, stderr);
    return 2;
  }
  std::string dir = argv[1], jsonPath, plainDir, cudaDir;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return optionValue(argc, argv, i, "approx-bench"); };
    if (a == "--reps" || a == "--min-reps")
      gReps = countOption("approx-bench", a, next());
    else if (a == "--max-reps")
      gMaxReps = countOption("approx-bench", a, next());
    else if (a == "--until-ci")
      gUntilCi = untilCiOption("approx-bench", a, next());
    else if (a == "--json")
      jsonPath = next();
    else if (a == "--plain")
      plainDir = next();
    else if (a == "--cuda")
      cudaDir = next();
    else {
      std::fprintf(stderr, "approx-bench: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (!cudaDir.empty() && plainDir.empty()) {
    std::fprintf(stderr, "approx-bench: --cuda needs --plain (the nvcc builds "
                         "of examples/cuda/box_muller.cu)\n");
    return 2;
  }
  if (gMaxReps < gReps) {
    std::fprintf(stderr, "approx-bench: --max-reps %d is below --min-reps %d\n",
                 gMaxReps, gReps);
    return 2;
  }
  Expected<std::shared_ptr<Context>> ctx = Context::create(0);
  check(ctx.status(), "context");
  CK(cudaSetDevice(0));
  const DeviceInfo &dev = (*ctx)->device();
  std::printf("device %s (sm_%d%d, %d SMs), driver API %d; warm-up %d, "
              "median of %d\n",
              dev.name.c_str(), dev.ccMajor, dev.ccMinor, dev.smCount,
              dev.driverVersion, gWarmup, gReps);
  std::mt19937 rng(12345);
  std::vector<Row> rows;
  std::map<WarpSlot, int> gridStep; // the measured λ grid per slot source

  // A hand buffer as the runtime's memref argument (ours on the same memory).
  auto view = [](const HandBuffers &hb, size_t i, ScalarType t) {
    return BufferView{uint64_t(uintptr_t(hb.work[i])), hb.bytes[i], t};
  };
  // moduleDir/module.{ptx,manifest.json} is ours; plainDir/plainBase.{O3,
  // fast}.ptx (with --plain) the nvcc builds a user would pick instead.
  auto runExample = [&](const std::string &moduleDir, const std::string &module,
                        const std::string &plainBase, const std::string &kernel,
                        const std::string &kind, std::vector<ArgSpec> specs,
                        LaunchConfig cfg, HandBuffers &hb,
                        const std::function<void()> &hand, bool handSplit,
                        std::vector<size_t> handOut,
                        std::vector<size_t> handOutCount, bool f64,
                        const char *plainKernel,
                        const std::function<void(const PlainKernel &)> &plain,
                        const std::vector<Arg> &oursArgs) {
    Expected<std::unique_ptr<Module>> m =
        Module::load(*ctx, moduleDir + "/" + module + ".manifest.json");
    check(m.status(), module.c_str());
    EvaluatorOptions eo;
    eo.kernel = kernel;
    eo.launch = cfg;
    eo.timing.warmup = gWarmup;
    eo.timing.reps = gReps;
    eo.bound = lambdaBoundFn(); // λmax from the launch's occupancy
    Expected<std::unique_ptr<KernelEvaluator>> ev =
        KernelEvaluator::create(**m, specs, eo);
    check(ev.status(), kernel.c_str());
    Row r;
    r.name = module;
    r.kind = kind;
    r.lmax = (*ev)->lambdaMax();
    Expected<TunePoint> p0 = (*ev)->evaluate(0);
    check(p0.status(), "ours lambda 0");
    Expected<TunePoint> pm = (*ev)->evaluate(r.lmax);
    check(pm.status(), "ours lambda max");
    r.oursT0 = p0->timeMs;
    r.oursTm = pm->timeMs;
    r.oursE = pm->error;
    Expected<std::vector<double>> ref = (*ev)->reference();
    check(ref.status(), "reference");
    // Hand-written: time at 0 and lambda_max, outputs at each.
    auto handOutputs = [&]() {
      std::vector<double> o;
      for (size_t k = 0; k < handOut.size(); ++k) {
        size_t idx = handOut[k], n = handOutCount[k];
        if (f64) {
          std::vector<double> h(n);
          CK(cudaMemcpy(h.data(), hb.work[idx], n * 8,
                        cudaMemcpyDeviceToHost));
          o.insert(o.end(), h.begin(), h.end());
        } else {
          std::vector<float> h(n);
          CK(cudaMemcpy(h.data(), hb.work[idx], n * 4,
                        cudaMemcpyDeviceToHost));
          o.insert(o.end(), h.begin(), h.end());
        }
      }
      return o;
    };
    setHandLambda(0);
    r.handT0 = timeHand(hb, hand);
    std::vector<double> h0 = handOutputs();
    setHandLambda(int(r.lmax));
    r.handTm = timeHand(hb, hand);
    std::vector<double> hm = handOutputs();
    r.handE = *Metric::meanRelative()(h0, hm);
    r.diff0 = *Metric::meanRelative()(*ref, h0);
    // Ours through the runtime on the hand build's buffers, so that every
    // build runs on the same memory, restored before each launch; one
    // module per λ (oursAtLambda says why).
    const std::string manifest = moduleDir + "/" + module + ".manifest.json";
    auto ours = [&](Module &mm) {
      check(mm.launch(kernel, cfg, oursArgs), "launch ours");
    };
    bench::RepeatRule rule;
    rule.warmup = gWarmup, rule.minReps = gReps, rule.maxReps = gMaxReps;
    rule.tight = gUntilCi;
    if (!plainDir.empty()) {
      PlainKernel o3("approx-bench", plainDir + "/" + plainBase + ".O3.ptx",
                     plainKernel);
      PlainKernel fast("approx-bench", plainDir + "/" + plainBase + ".fast.ptx",
                       plainKernel);
      const auto m0 = oursAtLambda(*ctx, manifest, 0);
      const auto mMax = oursAtLambda(*ctx, manifest, r.lmax);
      std::vector<std::function<void()>> launches = {
          [&] { ours(*m0); }, [&] { plain(o3); }, [&] { ours(*mMax); },
          [&] { plain(fast); }};
      std::vector<std::function<void()>> before(launches.size());
      // The hand-written split in the same rounds, its λ global written
      // before its own launches, outside the timing; at its full-SFU λ,
      // every warp slot of the SM (its occupancy may differ from ours, so
      // our λmax need not cover it), as run-apps times the Table-6 apps.
      r.handSplit = handSplit;
      r.handMax = dev.maxThreadsPerSM / dev.warpSize;
      if (handSplit) {
        launches.push_back(hand);
        before.push_back([] { setHandLambda(0); });
        launches.push_back(hand);
        before.push_back([&r] { setHandLambda(r.handMax); });
      }
      r.plainRounds =
          bench::timeLaunches([&hb] { hb.prepare(); }, launches, rule, before);
      setHandLambda(0);
      r.o3T = approx::rt::median(r.plainRounds.samples[O3]);
      r.fastT = approx::rt::median(r.plainRounds.samples[Fast]);
      hb.prepare();
      plain(fast);
      r.fastE = *Metric::meanRelative()(*ref, handOutputs());
      hb.prepare();
      plain(o3);
      r.o3Diff = *Metric::meanRelative()(*ref, handOutputs());
    }
    TuneOptions to;
    to.qos = QoS::ratio(0.8);
    // The steps where T(λ) changes, measured once per slot source.
    const KnobInfo *knob = (*m)->manifest().findKnob("lambda");
    const WarpSlot slot = knob ? knob->warpSlot : WarpSlot::Hw;
    if (!gridStep.count(slot)) {
      Expected<SlotGrid> g = measureSlotGrid(*ctx, slot);
      check(g.status(), "slot grid probe");
      gridStep[slot] = g->step;
    }
    r.lambdaStep = to.lambdaStep = gridStep[slot];
    Expected<TuneResult> heu = tune(**ev, TuneMethod::Heu, to);
    check(heu.status(), "HEU");
    Expected<TuneResult> smp = tune(**ev, TuneMethod::Smp, to);
    check(smp.status(), "SMP");
    Expected<TuneResult> omg = tune(**ev, TuneMethod::Omg, to);
    check(omg.status(), "OMG");
    r.heu = *heu;
    r.smp = *smp;
    r.omg = *omg;
    if (r.heu.lambda != r.omg.lambda) {
      const auto mHeu = oursAtLambda(*ctx, manifest, r.heu.lambda);
      const auto mOmg = oursAtLambda(*ctx, manifest, r.omg.lambda);
      r.pickRounds = bench::timeLaunches(
          [&hb] { hb.prepare(); }, {[&] { ours(*mHeu); }, [&] { ours(*mOmg); }},
          rule);
    }
    rows.push_back(r);
    std::fprintf(stderr, "%s done\n", module.c_str());
  };

  // ---- Box-Muller: in place, memory-streaming ------------------------------
  {
    const long long nRng = 1 << 20, nPerRng = 16;
    std::vector<float> data(size_t(nRng * nPerRng));
    std::uniform_real_distribution<float> u(1e-7f, 1.0f);
    for (float &x : data)
      x = u(rng);
    LaunchConfig cfg;
    cfg.block.x = 256;
    cfg.grid.x = unsigned(nRng / 256);
    HandBuffers hb;
    hb.add(data.data(), data.size() * 4, false);
    runExample(
        dir, "box_muller", "plain-examples", "box_muller_gpu", "memory-streaming (in place)",
        {ArgSpec::inputOf(ScalarType::F32, {int64_t(data.size())}, data, true),
         ArgSpec::value(Arg::integer(nPerRng)),
         ArgSpec::value(Arg::integer(nRng))},
        cfg, hb,
        [&] {
          boxMullerHand<<<cfg.grid.x, cfg.block.x>>>((float *)hb.work[0],
                                                     nPerRng, nRng);
        },
        true, {0}, {data.size()}, false, "boxMullerPlain",
        [&](const PlainKernel &k) {
          long long a = nPerRng, b = nRng;
          void *params[] = {&hb.work[0], &a, &b};
          k.launch(dim3(cfg.grid.x), dim3(cfg.block.x), 0, params);
        },
        {Arg::memref(view(hb, 0, ScalarType::F32), {int64_t(data.size())}),
         Arg::integer(nPerRng), Arg::integer(nRng)});
  }
  // ---- Black-Scholes: memory-streaming -------------------------------------
  {
    const long long n = 1 << 24;
    std::vector<float> price(n), strike(n), years(n);
    std::uniform_real_distribution<float> up(5, 30), us(1, 100), uy(0.25f, 10);
    for (long long i = 0; i < n; ++i) {
      price[i] = up(rng);
      strike[i] = us(rng);
      years[i] = uy(rng);
    }
    const float r = 0.02f, v = 0.30f;
    LaunchConfig cfg;
    cfg.block.x = 256;
    cfg.grid.x = unsigned(n / 256);
    HandBuffers hb;
    hb.add(nullptr, n * 4, true);
    hb.add(nullptr, n * 4, true);
    hb.add(price.data(), n * 4, false);
    hb.add(strike.data(), n * 4, false);
    hb.add(years.data(), n * 4, false);
    runExample(
        dir, "black_scholes", "plain-examples", "black_scholes", "memory-streaming",
        {ArgSpec::output(ScalarType::F32, {n}),
         ArgSpec::output(ScalarType::F32, {n}),
         ArgSpec::inputOf(ScalarType::F32, {n}, price),
         ArgSpec::inputOf(ScalarType::F32, {n}, strike),
         ArgSpec::inputOf(ScalarType::F32, {n}, years),
         ArgSpec::value(Arg::floating(r)), ArgSpec::value(Arg::floating(v)),
         ArgSpec::value(Arg::integer(n))},
        cfg, hb,
        [&] {
          blackScholesHand<<<cfg.grid.x, cfg.block.x>>>(
              (float *)hb.work[0], (float *)hb.work[1],
              (const float *)hb.work[2], (const float *)hb.work[3],
              (const float *)hb.work[4], r, v, n);
        },
        true, {0, 1}, {size_t(n), size_t(n)}, false, "blackScholesPlain",
        [&](const PlainKernel &k) {
          float rr = r, vv = v;
          long long nn = n;
          void *params[] = {&hb.work[0], &hb.work[1], &hb.work[2],
                            &hb.work[3], &hb.work[4], &rr, &vv, &nn};
          k.launch(dim3(cfg.grid.x), dim3(cfg.block.x), 0, params);
        },
        {Arg::memref(view(hb, 0, ScalarType::F32), {n}),
         Arg::memref(view(hb, 1, ScalarType::F32), {n}),
         Arg::memref(view(hb, 2, ScalarType::F32), {n}),
         Arg::memref(view(hb, 3, ScalarType::F32), {n}),
         Arg::memref(view(hb, 4, ScalarType::F32), {n}), Arg::floating(r),
         Arg::floating(v), Arg::integer(n)});
  }
  // ---- Coulomb f64: compute-bound ------------------------------------------
  {
    const long long natoms = 2048, npoints = 1 << 18;
    std::vector<double> atoms(natoms * 4), points(npoints * 3);
    std::uniform_real_distribution<double> ux(0, 64), uq(-1, 1);
    for (long long j = 0; j < natoms; ++j) {
      atoms[4 * j] = ux(rng);
      atoms[4 * j + 1] = ux(rng);
      atoms[4 * j + 2] = ux(rng);
      atoms[4 * j + 3] = uq(rng);
    }
    for (double &p : points)
      p = ux(rng);
    LaunchConfig cfg;
    cfg.block.x = 256;
    cfg.grid.x = unsigned(npoints / 256);
    HandBuffers hb;
    hb.add(atoms.data(), atoms.size() * 8, false);
    hb.add(points.data(), points.size() * 8, false);
    hb.add(nullptr, npoints * 8, true);
    runExample(
        dir, "coulomb_f64", "plain-examples", "coulomb", "compute-bound (natoms rsqrt per output)",
        {ArgSpec::inputOf(ScalarType::F64, {natoms, 4}, atoms),
         ArgSpec::inputOf(ScalarType::F64, {npoints, 3}, points),
         ArgSpec::output(ScalarType::F64, {npoints}),
         ArgSpec::value(Arg::integer(natoms)),
         ArgSpec::value(Arg::integer(npoints))},
        cfg, hb,
        [&] {
          coulombHand<<<cfg.grid.x, cfg.block.x>>>(
              (const double *)hb.work[0], (const double *)hb.work[1],
              (double *)hb.work[2], natoms, npoints);
        },
        true, {2}, {size_t(npoints)}, true, "coulombPlain",
        [&](const PlainKernel &k) {
          long long a = natoms, b = npoints;
          void *params[] = {&hb.work[0], &hb.work[1], &hb.work[2], &a, &b};
          k.launch(dim3(cfg.grid.x), dim3(cfg.block.x), 0, params);
        },
        {Arg::memref(view(hb, 0, ScalarType::F64), {natoms, 4}),
         Arg::memref(view(hb, 1, ScalarType::F64), {npoints, 3}),
         Arg::memref(view(hb, 2, ScalarType::F64), {npoints}),
         Arg::integer(natoms), Arg::integer(npoints)});
  }
  // ---- examples/cuda/box_muller.cu: approx-cc's build against nvcc's -------
  // The same file as a CUDA user writes it: there is no hand split, so the
  // "hand" build is nvcc -O3's (its λ has no effect: hand columns are the
  // plain build at both ends).
  if (!cudaDir.empty()) {
    const int n = 1 << 24;
    std::vector<float> u1(n), u2(n);
    std::uniform_real_distribution<float> u(1e-7f, 1.0f);
    for (int i = 0; i < n; ++i)
      u1[i] = u(rng), u2[i] = u(rng);
    LaunchConfig cfg;
    cfg.block.x = 256;
    cfg.grid.x = unsigned((n + 255) / 256);
    HandBuffers hb;
    hb.add(u1.data(), size_t(n) * 4, false);
    hb.add(u2.data(), size_t(n) * 4, false);
    hb.add(nullptr, size_t(n) * 4, true);
    hb.add(nullptr, size_t(n) * 4, true);
    const char *mangled = "_Z10box_mullerPKfS0_PfS1_i";
    PlainKernel nvccO3("approx-bench", plainDir + "/box_muller_cuda.O3.ptx",
                       mangled);
    auto launchPlain = [&](const PlainKernel &k) {
      int nn = n;
      void *params[] = {&hb.work[0], &hb.work[1], &hb.work[2], &hb.work[3],
                        &nn};
      k.launch(dim3(cfg.grid.x), dim3(cfg.block.x), 0, params);
    };
    auto ptr = [&](size_t i) { return Arg::pointer(uint64_t(uintptr_t(hb.work[i]))); };
    runExample(
        cudaDir, "box_muller", "box_muller_cuda", mangled,
        "CUDA example (approx-cc; hand = nvcc -O3, no split)",
        {ArgSpec::inputOf(ScalarType::F32, {n}, u1),
         ArgSpec::inputOf(ScalarType::F32, {n}, u2),
         ArgSpec::output(ScalarType::F32, {n}),
         ArgSpec::output(ScalarType::F32, {n}), ArgSpec::value(Arg::integer(n))},
        cfg, hb, [&] { launchPlain(nvccO3); }, false, {2, 3},
        {size_t(n), size_t(n)}, false, mangled, launchPlain,
        {ptr(0), ptr(1), ptr(2), ptr(3), Arg::integer(n)});
    rows.back().name = "cuda/box_muller";
  }

  std::printf("\n| example | kind | lambda_max | ours T(0) ms | hand T(0) ms | "
              "ours/hand at 0 | ours T(max) ms | hand T(max) ms | ours/hand "
              "at max | SFU speedup ours | SFU speedup hand | E(max) ours | "
              "E(max) hand | ours vs hand at 0 (MRE) |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Row &r : rows)
    std::printf("| %s | %s | %lld | %.4f | %.4f | %.3f | %.4f | %.4f | %.3f | "
                "%.2fx | %.2fx | %.3g | %.3g | %.2g |\n",
                r.name.c_str(), r.kind.c_str(), (long long)r.lmax, r.oursT0,
                r.handT0, r.oursT0 / r.handT0, r.oursTm, r.handTm,
                r.oursTm / r.handTm, r.oursT0 / r.oursTm, r.handT0 / r.handTm,
                r.oursE, r.handE, r.diff0);
  if (!plainDir.empty()) {
    std::printf("\nAgainst nvcc builds of the hand-written precise code "
                "without the split (-O3; -O3 -use_fast_math), timed in "
                "interleaved rounds with ours (at least %d, until every "
                "median's 95%% interval is within ±%.1f%%, at most %d): "
                "medians [95%% intervals], ratios of paired rounds; MRE "
                "against ours at lambda = 0:\n\n| example | rounds | ours "
                "T(0) ms | nvcc -O3 T ms | ours T(0) / -O3 | -O3 vs ours at 0 "
                "(MRE) | ours T(max) ms | fast-math T ms | ours T(max) / fast "
                "| E fast-math | E(max) ours |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|\n",
                gReps, 100 * gUntilCi, gMaxReps);
    for (const Row &r : rows) {
      const bench::Sampled &t = r.plainRounds;
      std::printf("| %s | %d | %s | %s | %s | %.2g | %s | %s | %s | %.3g | "
                  "%.3g |\n",
                  r.name.c_str(), t.reps, medianCell(t, Ours0).c_str(),
                  medianCell(t, O3).c_str(), ratioCell(t.ratio(Ours0, O3)).c_str(),
                  r.o3Diff, medianCell(t, OursMax).c_str(),
                  medianCell(t, Fast).c_str(),
                  ratioCell(t.ratio(OursMax, Fast)).c_str(), r.fastE, r.oursE);
    }
    std::printf("\nAgainst the hand-written Listing-3 split (handwritten.cuh), "
                "in the same rounds: at lambda = 0, and ours at lambda_max "
                "against the hand split with every warp slot approximated:"
                "\n\n| example | rounds | hand lambda | hand T(0) ms | ours "
                "T(0) / hand | hand T(max) ms | ours T(max) / hand |\n"
                "|---|---|---|---|---|---|---|\n");
    for (const Row &r : rows) {
      if (!r.handSplit)
        continue;
      const bench::Sampled &t = r.plainRounds;
      std::printf("| %s | %d | 0 / %d | %s | %s | %s | %s |\n", r.name.c_str(),
                  t.reps, r.handMax, medianCell(t, Hand0).c_str(),
                  ratioCell(t.ratio(Ours0, Hand0)).c_str(),
                  medianCell(t, HandMax).c_str(),
                  ratioCell(t.ratio(OursMax, HandMax)).c_str());
    }
  }
  std::printf("\nTuners at QoS_ratio 0.8 (runs = distinct lambda measured, "
              "lambda=0 included; HEU and SMP search the measured lambda "
              "grid):\n\n| example | lambda step | QoS bound | HEU lambda | "
              "HEU runs | SMP lambda | SMP runs | OMG lambda (fastest) | OMG "
              "max feasible lambda | OMG runs | HEU T / OMG T | re-timed "
              "side by side [95%% interval] |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  double heuRuns = 0;
  for (const Row &r : rows) {
    heuRuns += r.heu.runs;
    const std::string retimed = r.pickRounds.samples.empty()
                                    ? "same lambda"
                                    : ratioCell(r.pickRounds.ratio(0, 1));
    std::printf("| %s | %d | %.3g | %lld | %d | %lld | %d | %lld | %lld | %d | "
                "%.3f | %s |\n",
                r.name.c_str(), r.lambdaStep, r.heu.qosBound, (long long)r.heu.lambda,
                r.heu.runs, (long long)r.smp.lambda, r.smp.runs,
                (long long)r.omg.lambda, (long long)r.omg.maxFeasibleLambda,
                r.omg.runs, r.heu.timeMs / r.omg.timeMs, retimed.c_str());
  }
  std::printf("\nHEU runs on average: %.2f\n", heuRuns / rows.size());
  if (!jsonPath.empty()) {
    FILE *f = std::fopen(jsonPath.c_str(), "w");
    if (f) {
      std::fprintf(f, "[\n");
      for (size_t i = 0; i < rows.size(); ++i) {
        const Row &r = rows[i];
        auto trace = [&](const TuneResult &t) {
          std::string s = "[";
          for (size_t k = 0; k < t.trace.size(); ++k) {
            char b[128];
            std::snprintf(b, sizeof b, "%s[%lld,%.6g,%.6g]", k ? "," : "",
                          (long long)t.trace[k].lambda, t.trace[k].timeMs,
                          t.trace[k].error);
            s += b;
          }
          return s + "]";
        };
        std::fprintf(
            f,
            "  {\"example\":\"%s\",\"lambda_max\":%lld,\"ours_t0\":%.6g,"
            "\"ours_tmax\":%.6g,\"hand_t0\":%.6g,\"hand_tmax\":%.6g,"
            "\"ours_emax\":%.6g,\"hand_emax\":%.6g,\"qos_bound\":%.6g,"
            "\"lambda_step\":%d,%s%s"
            "\"heu\":{\"lambda\":%lld,\"runs\":%d,\"trace\":%s},"
            "\"smp\":{\"lambda\":%lld,\"runs\":%d},"
            "\"omg\":{\"lambda\":%lld,\"max_feasible\":%lld,\"runs\":%d,"
            "\"trace\":%s}}%s\n",
            r.name.c_str(), (long long)r.lmax, r.oursT0, r.oursTm, r.handT0,
            r.handTm, r.oursE, r.handE, r.heu.qosBound, r.lambdaStep,
            plainJson(r).c_str(),
            pickJson(r).c_str(),
            (long long)r.heu.lambda, r.heu.runs, trace(r.heu).c_str(),
            (long long)r.smp.lambda, r.smp.runs, (long long)r.omg.lambda,
            (long long)r.omg.maxFeasibleLambda, r.omg.runs,
            trace(r.omg).c_str(), i + 1 < rows.size() ? "," : "");
      }
      std::fprintf(f, "]\n");
      std::fclose(f);
    }
  }
  return 0;
}
