//===- KernelEvaluatorTest.cpp - T(λ), E(λ) and faults over the fake ------===//
//
// KernelEvaluator over fake kernels whose outputs and times depend on the
// knob (fake/TestModule.h): the tuners find the λ the curve implies, knob
// values reach path-param kernels as parameters, bad arguments and sizes are
// refused before anything is allocated, and a sticky device fault stops the
// evaluator for good: no launch (indeed no driver call) happens after it.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "TestModule.h"

#include "approx/runtime/sfu/Occupancy.h"
#include "approx/runtime/tune/KernelEvaluator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>

using namespace approx::rt;
using approx::rt::fake::FakeDriver;
using approx::rt::fake::LaunchRecord;

namespace {

/// In place: x[i] *= 1 + knob * 1e-3 over the memref of params 0..4; the
/// launch takes 10 - 0.1 * knob ms. `knob` reads the value for the launch.
fake::KernelBody scaleBody(std::function<int64_t(const LaunchRecord &)> knob) {
  return [knob](LaunchRecord &r) {
    float *x = r.ptr<float>(1);
    int64_t n = r.param<int64_t>(3);
    int64_t k = knob(r);
    for (int64_t i = 0; i < n; ++i)
      x[i] *= float(1 + double(k) * 1e-3);
    r.durationMs = 10 - 0.1 * double(k);
    return CUDA_SUCCESS;
  };
}

class KernelEvaluatorTest : public ::testing::Test {
protected:
  void SetUp() override {
    f.reset();
    ctx = *detail::createContext(f.table(), 0);
    char tmpl[] = "/tmp/approx-evaluator-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir = tmpl;
    std::ofstream(dir + "/fake.ptx") << fake::kTestPtx;
    std::ofstream(dir + "/fake.manifest.json") << fake::testManifest().dump();
    Expected<std::unique_ptr<Module>> m =
        Module::load(ctx, dir + "/fake.manifest.json");
    ASSERT_TRUE(m.isOk()) << m.status().toString();
    mod = m.take();
  }
  void TearDown() override {
    mod.reset();
    ctx.reset();
    EXPECT_EQ(f.liveAllocations(), 0u);
    EXPECT_EQ(f.liveTextures(), 0u);
    EXPECT_EQ(f.liveEvents(), 0u);
    EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
  }

  static std::vector<float> inputs(size_t n) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(0.5f, 2.0f);
    std::vector<float> v(n);
    for (float &x : v)
      x = u(rng);
    return v;
  }

  EvaluatorOptions options(const std::string &kernel) {
    EvaluatorOptions o;
    o.kernel = kernel;
    o.launch.grid.x = 4096; // 8 resident blocks of 8 warps: λmax 64
    o.launch.block.x = 256;
    o.timing.warmup = 1;
    o.timing.reps = 3;
    o.bound = lambdaBoundFn(&occ); // the SFU's λ bound, as approx-tune's
    return o;
  }

  Expected<std::unique_ptr<KernelEvaluator>>
  evaluator(const std::string &kernel, size_t n = 1024,
            const std::string &knob = "") {
    EvaluatorOptions o = options(kernel);
    o.knob = knob;
    return KernelEvaluator::create(
        *mod,
        {ArgSpec::inputOf(ScalarType::F32, {int64_t(n)}, inputs(n), true),
         ArgSpec::value(Arg::integer(int64_t(n)))},
        o);
  }

  /// Driver calls made so far, over all entry points.
  int totalCalls() const {
    int n = 0;
    for (auto &[name, c] : f.calls)
      n += c;
    return n;
  }

  FakeDriver &f = FakeDriver::get();
  OccupancyInfo occ; ///< the last bound computed (options())
  std::shared_ptr<Context> ctx;
  std::unique_ptr<Module> mod;
  std::string dir;
};

} // namespace

TEST_F(KernelEvaluatorTest, TunesAGlobalKnobOverTheCurveItMeasures) {
  f.setKernel("scale", scaleBody([](const LaunchRecord &r) {
                return r.global("lambda");
              }));
  Expected<std::unique_ptr<KernelEvaluator>> ev = evaluator("scale");
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  EXPECT_EQ((*ev)->knob(), "lambda"); // the knob with a warp slot
  EXPECT_EQ((*ev)->lambdaMax(), 64);
  EXPECT_EQ(occ.residentWarpsPerSM, 64);
  Expected<TunePoint> p = (*ev)->evaluate(20);
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  EXPECT_NEAR(p->error, 0.020, 1e-6); // mean relative error of the scaling
  EXPECT_NEAR(p->timeMs, 8.0, 1e-4);
  for (TuneMethod m : {TuneMethod::Heu, TuneMethod::Smp, TuneMethod::Omg}) {
    TuneOptions o;
    o.qos = QoS::absolute(0.0305);
    o.heuTolerance = 0;
    Expected<TuneResult> r = tune(**ev, m, o);
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    EXPECT_EQ(r->lambda, 30) << tuneMethodName(m);
    EXPECT_LE(r->error, 0.0305);
  }
  // Inputs are restored before every launch: λ=0 gives the reference back.
  Expected<ErrorStats> again = (*ev)->statsAt(0);
  ASSERT_TRUE(again.isOk());
  EXPECT_EQ(again->maxAbs, 0.0);
}

TEST_F(KernelEvaluatorTest, ParamKnobValuesReachTheKernelAsParameters) {
  f.setKernel("scale_p", scaleBody([](const LaunchRecord &r) {
                return int64_t(r.param<int32_t>(6));
              }));
  Expected<std::unique_ptr<KernelEvaluator>> ev =
      evaluator("scale_p", 1024, "mu");
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  EXPECT_EQ((*ev)->lambdaMax(), 64); // no warp slot: the knob's max
  Expected<TunePoint> p = (*ev)->evaluate(12);
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  EXPECT_NEAR(p->error, 0.012, 1e-6);
  EXPECT_EQ(f.launches.back().param<int32_t>(6), 12);
  EXPECT_NE(f.texture(f.launches.back().param<uint64_t>(7)), nullptr);
}

TEST_F(KernelEvaluatorTest, ALogicalNameTunesItsVariant) {
  f.setKernel("scale", scaleBody([](const LaunchRecord &r) {
                return r.global("lambda");
              }));
  Expected<std::unique_ptr<KernelEvaluator>> ev = evaluator("run");
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  ASSERT_TRUE((*ev)->evaluate(7).isOk());
  EXPECT_EQ(f.launches.back().kernel, "scale");
}

TEST_F(KernelEvaluatorTest, RefusesBeforeAllocatingAnything) {
  EvaluatorOptions o = options("scale");
  auto expectRefused = [&](std::vector<ArgSpec> args,
                           const std::string &needle, StatusCode code) {
    int allocs = f.calls["cuMemAlloc"];
    Expected<std::unique_ptr<KernelEvaluator>> ev =
        KernelEvaluator::create(*mod, std::move(args), o);
    ASSERT_FALSE(ev.isOk()) << needle;
    EXPECT_EQ(ev.status().code(), code) << ev.status().toString();
    EXPECT_NE(ev.status().message().find(needle), std::string::npos)
        << ev.status().message();
    EXPECT_EQ(f.calls["cuMemAlloc"], allocs) << needle;
  };
  std::vector<float> x = inputs(16);
  ArgSpec n = ArgSpec::value(Arg::integer(16));
  expectRefused({ArgSpec::output(ScalarType::F32,
                                 {int64_t(1) << 62, int64_t(1) << 62}),
                 n},
                "the shape's byte size overflows 64 bits",
                StatusCode::InvalidArgument);
  expectRefused({ArgSpec::output(ScalarType::F32, {int64_t(1) << 40}), n},
                "bytes of device memory", StatusCode::OutOfMemory);
  expectRefused({ArgSpec::inputOf(ScalarType::F32, {16},
                                  std::vector<float>(16, 0.0f), true),
                 n},
                "input is all zeros", StatusCode::InvalidArgument);
  expectRefused({ArgSpec::inputOf(ScalarType::F32, {17}, x, true), n},
                "input has 64 bytes, its shape needs 68",
                StatusCode::InvalidArgument);
  expectRefused({n, n}, "argument 0 (memref<?xf32>): needs a buffer",
                StatusCode::InvalidArgument);
  expectRefused({ArgSpec::inputOf(ScalarType::F32, {16}, x), n},
                "no output buffer to compare", StatusCode::InvalidArgument);
  o.knob = "mu";
  expectRefused({ArgSpec::inputOf(ScalarType::F32, {16}, x, true), n},
                "knob 'mu' is not read by kernel 'scale'",
                StatusCode::InvalidArgument);
  EXPECT_EQ(f.calls["cuMemAlloc"], 0);
}

TEST_F(KernelEvaluatorTest, AStickyFaultStopsEveryLaterLaunch) {
  // λ >= 40 faults, as a kernel reading out of bounds at some λ would.
  f.setKernel("scale", [](LaunchRecord &r) -> CUresult {
    if (r.global("lambda") >= 40)
      return CUDA_ERROR_ILLEGAL_ADDRESS;
    return scaleBody([](const LaunchRecord &q) {
      return q.global("lambda");
    })(r);
  });
  Expected<std::unique_ptr<KernelEvaluator>> ev = evaluator("scale");
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  ASSERT_TRUE((*ev)->evaluate(5).isOk());
  TuneOptions o;
  o.qos = QoS::ratio(0.8);
  Expected<TuneResult> r = tune(**ev, TuneMethod::Omg, o);
  ASSERT_FALSE(r.isOk());
  EXPECT_TRUE(isStickyFault(r.status())) << r.status().toString();
  // OMG measures λ = 0 then λmax = 64, which faults.
  EXPECT_NE(r.status().message().find("OMG at lambda 64"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("restart the process"),
            std::string::npos);
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos);

  // From now on: no launch and no driver call at all, cached points
  // included, and the tuners refuse to start.
  int calls = totalCalls();
  uint64_t launches = (*ev)->launches();
  Expected<TunePoint> cached = (*ev)->evaluate(5);
  ASSERT_FALSE(cached.isOk());
  EXPECT_TRUE(isStickyFault(cached.status()));
  EXPECT_NE(cached.status().message().find(
                "kernel 'scale': no further launches after a device fault"),
            std::string::npos);
  EXPECT_FALSE((*ev)->runOnce(1).isOk());
  EXPECT_FALSE((*ev)->statsAt(1).isOk());
  EXPECT_TRUE(isStickyFault((*ev)->health()));
  for (TuneMethod m : {TuneMethod::Heu, TuneMethod::Smp, TuneMethod::Omg}) {
    Expected<TuneResult> again = tune(**ev, m, o);
    ASSERT_FALSE(again.isOk());
    EXPECT_TRUE(isStickyFault(again.status()));
    EXPECT_NE(again.status().message().find(": not started: "),
              std::string::npos);
  }
  EXPECT_EQ(totalCalls(), calls);
  EXPECT_EQ((*ev)->launches(), launches);
}

// The harness: evaluate(Config) over every run-time knob of the module.
TEST_F(KernelEvaluatorTest, EvaluatesAConfigurationAgainstTheReference) {
  f.setKernel("scale", scaleBody([](const LaunchRecord &r) {
                return r.global("lambda");
              }));
  Expected<std::unique_ptr<KernelEvaluator>> ev = evaluator("scale", 64);
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  // The reference: the knobs as the module holds them (mu's default is 2),
  // the tuned one (lambda) at 0.
  const Config &ref = (*ev)->referenceConfig();
  EXPECT_EQ(ref.values.at("lambda"), 0);
  EXPECT_EQ(ref.values.at("mu"), 2);
  EXPECT_EQ(ref.values.at("table"), mod->manifest().findKnob("table")->defaultValue);

  Expected<Config> c = parseConfig(mod->manifest(), "lambda=25,table=1");
  ASSERT_TRUE(c.isOk()) << c.status().toString();
  Expected<Evaluation> e = (*ev)->evaluate(*c);
  ASSERT_TRUE(e.isOk()) << e.status().toString();
  EXPECT_NEAR(e->timeMs, 7.5, 1e-4);
  EXPECT_NEAR(e->error, 0.025, 1e-6);
  ASSERT_EQ(e->outputs.size(), 64u);
  std::vector<float> in = inputs(64);
  for (size_t i = 0; i < in.size(); ++i)
    EXPECT_FLOAT_EQ(float(e->outputs[i]), in[i] * 1.025f);
  // The values travelled in the launch; the module's knobs did not move.
  EXPECT_EQ(f.launches.back().global("lambda"), 25);
  EXPECT_EQ(*mod->getKnob("lambda"), 0);
  EXPECT_EQ(*mod->getKnob("table"),
            mod->manifest().findKnob("table")->defaultValue);

  // Cached: the same configuration is not timed again, but its outputs are
  // recomputed by one launch when asked for.
  uint64_t launches = (*ev)->launches();
  Expected<Evaluation> again = (*ev)->evaluate(*c, false);
  ASSERT_TRUE(again.isOk());
  EXPECT_EQ((*ev)->launches(), launches);
  EXPECT_TRUE(again->outputs.empty());
  EXPECT_EQ(again->timeMs, e->timeMs);
  again = (*ev)->evaluate(*c);
  ASSERT_TRUE(again.isOk());
  EXPECT_EQ((*ev)->launches(), launches + 1);
  EXPECT_EQ(again->outputs, e->outputs);
  // evaluate(λ) is the same harness: the reference with the knob at λ.
  Expected<TunePoint> p = (*ev)->evaluate(25);
  ASSERT_TRUE(p.isOk());
  EXPECT_NEAR(p->error, 0.025, 1e-6);
}

TEST_F(KernelEvaluatorTest, AConfigurationOutsideTheSpaceIsOneLine) {
  f.setKernel("scale", scaleBody([](const LaunchRecord &r) {
                return r.global("lambda");
              }));
  Expected<std::unique_ptr<KernelEvaluator>> ev = evaluator("scale", 64);
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  int calls = totalCalls();
  Config bad;
  bad.values["lambda"] = 65; // [0, 64]
  Expected<Evaluation> e = (*ev)->evaluate(bad);
  ASSERT_FALSE(e.isOk());
  EXPECT_NE(e.status().message().find("lambda"), std::string::npos)
      << e.status().message();
  EXPECT_EQ(e.status().message().find('\n'), std::string::npos);
  Config unknown;
  unknown.values["nope"] = 0;
  e = (*ev)->evaluate(unknown);
  ASSERT_FALSE(e.isOk());
  EXPECT_NE(e.status().message().find("nope"), std::string::npos)
      << e.status().message();
  EXPECT_FALSE((*ev)->run(unknown).isOk());
  EXPECT_EQ(totalCalls(), calls); // refused before any driver call
  EXPECT_TRUE((*ev)->health().isOk()); // not a fault: it can go on
  EXPECT_TRUE((*ev)->evaluate(3).isOk());
}

TEST_F(KernelEvaluatorTest, TheLaunchShapeCanDependOnTheConfiguration) {
  f.setKernel("scale", scaleBody([](const LaunchRecord &r) {
                return r.global("lambda");
              }));
  EvaluatorOptions o = options("scale");
  o.bound = {};
  o.launchFor = [](const Config &c) -> Expected<LaunchConfig> {
    auto it = c.values.find("lambda");
    if (it != c.values.end() && it->second == 13)
      return invalidArgument("no block shape for 13");
    LaunchConfig l;
    l.grid.x = 8;
    l.block.x = unsigned(64 + (it == c.values.end() ? 0 : it->second));
    return l;
  };
  std::vector<float> x = inputs(64);
  Expected<std::unique_ptr<KernelEvaluator>> ev = KernelEvaluator::create(
      *mod,
      {ArgSpec::inputOf(ScalarType::F32, {64}, x, true),
       ArgSpec::value(Arg::integer(64))},
      o);
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  ASSERT_TRUE((*ev)->evaluate(32).isOk());
  EXPECT_EQ(f.launches.back().block[0], 96u);
  Expected<TunePoint> p = (*ev)->evaluate(13);
  ASSERT_FALSE(p.isOk());
  EXPECT_NE(p.status().message().find("no block shape for 13"),
            std::string::npos);
}

// Knobs the caller set before (approx-tune --knob NAME=VALUE) stay set in
// every evaluation of λ, reference included; an explicit reference wins.
TEST_F(KernelEvaluatorTest, KnobsSetOnTheModuleStaySet) {
  f.setKernel("scale_p", scaleBody([](const LaunchRecord &r) {
                return int64_t(r.param<int32_t>(6));
              }));
  ASSERT_TRUE(mod->setKnob("tab2", 0).isOk());
  ASSERT_TRUE(mod->setKnob("mu", 9).isOk());
  Expected<std::unique_ptr<KernelEvaluator>> ev =
      evaluator("scale_p", 64, "mu");
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  EXPECT_EQ((*ev)->referenceConfig().values.at("mu"), 0); // the tuned knob
  ASSERT_TRUE((*ev)->evaluate(5).isOk());
  EXPECT_EQ(f.launches.back().param<int32_t>(6), 5);
  EXPECT_EQ(*mod->getKnob("mu"), 9); // the module's value did not move

  EvaluatorOptions o = options("scale");
  o.bound = {};
  o.reference = preciseConfig(mod->manifest());
  o.reference->values["lambda"] = 3; // measured against lambda = 3
  f.setKernel("scale", scaleBody([](const LaunchRecord &r) {
                return r.global("lambda");
              }));
  // The table knob set on the module travels with every λ of an evaluator
  // made without a reference.
  ASSERT_TRUE(mod->setKnob("table", 1).isOk());
  Expected<std::unique_ptr<KernelEvaluator>> cur = evaluator("scale", 64);
  ASSERT_TRUE(cur.isOk()) << cur.status().toString();
  EXPECT_EQ((*cur)->configAt(7).values.at("table"), 1);
  EXPECT_EQ((*cur)->configAt(7).values.at("lambda"), 7);
  ASSERT_TRUE((*cur)->evaluate(7).isOk());
  EXPECT_EQ(f.launches.back().global("lambda"), 7);

  ASSERT_TRUE(mod->setKnob("lambda", 40).isOk());
  Expected<std::unique_ptr<KernelEvaluator>> ref = KernelEvaluator::create(
      *mod,
      {ArgSpec::inputOf(ScalarType::F32, {64}, inputs(64), true),
       ArgSpec::value(Arg::integer(64))},
      o);
  ASSERT_TRUE(ref.isOk()) << ref.status().toString();
  Expected<TunePoint> p = (*ref)->evaluate(3);
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  EXPECT_EQ(p->error, 0.0); // the reference itself
}

TEST_F(KernelEvaluatorTest, RepeatsUntilTheMediansIntervalIsTight) {
  // Launch times alternate 10 and 12 ms: 3 launches leave the median's
  // interval wide; with --until-ci 0.01 the evaluator times 10 more at a
  // time up to its cap (no tighter interval exists here), and the time is
  // the median of all of them. Times of 10 ms flat stop at the first 3.
  int calls = 0;
  bool alternate = true;
  f.setKernel("scale", [&](LaunchRecord &r) {
    r.durationMs = alternate && (calls++ % 2) ? 12 : 10;
    return CUDA_SUCCESS;
  });
  EvaluatorOptions o = options("scale");
  o.tightness = {0.01, 23};
  o.cache = false;
  Expected<std::unique_ptr<KernelEvaluator>> ev = KernelEvaluator::create(
      *mod,
      {ArgSpec::inputOf(ScalarType::F32, {64}, inputs(64), true),
       ArgSpec::value(Arg::integer(64))},
      o);
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  Config c = (*ev)->referenceConfig();
  uint64_t before = (*ev)->launches();
  Expected<Evaluation> e = (*ev)->evaluate(c, false);
  ASSERT_TRUE(e.isOk()) << e.status().toString();
  // The reference's outputs (once), the warm-up, then up to the cap.
  EXPECT_EQ((*ev)->launches() - before, 1u + 1u + 23u);
  EXPECT_GT(e->timeHiMs, e->timeLoMs);
  alternate = false;
  before = (*ev)->launches();
  e = (*ev)->evaluate(c, false);
  ASSERT_TRUE(e.isOk());
  EXPECT_EQ((*ev)->launches() - before, 1u + 3u); // tight at once
  EXPECT_DOUBLE_EQ(e->timeMs, 10);
}
