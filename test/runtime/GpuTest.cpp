//===- GpuTest.cpp - Runtime tests on a real GPU (ctest label "gpu") ------===//
//
// Runs against test/runtime/data/sfu_test.{ptx,manifest.json} (hand-written
// stand-in for compiler output; same ABI; manifest format version 2). Exits
// 77 (ctest SKIP_RETURN_CODE) with the reason printed when no CUDA driver or
// GPU is usable. The manifest-v2 features (bare memrefs, variants, textures,
// streams, status classes, sticky faults) are in GpuFeatureTest.cpp.
//
// What is checked:
//   Precise  at λ=0 every output is within libdevice's documented bounds of
//            a double-precision host reference (sinf, expf: 2 ulp), special
//            values included;
//   Sfu      at λ=knob max the SFU forms are in use (error > 0) and within
//            the documented intrinsic bounds (__sinf: 2^-21.41 absolute on
//            [-pi, pi]; __expf: 2 + floor(|1.173 x|) ulp); λ past the
//            occupancy bound changes nothing;
//   Curve    E(λ) rises with λ, T(λmax) < T(0) on a compute-bound kernel;
//   Tuner    SMP/HEU/OMG λ* meet the QoS when re-measured on the input;
//   Errors   bad PTX (InvalidImage, one-line JIT log), unknown kernel/knob,
//            λ out of range, wrong buffer size/count are errors, not
//            crashes; a knob reaches its symbol with the next launch;
//   Leaks    device memory returns to its baseline after every path.
//
//===----------------------------------------------------------------------===//
#include "GpuTestMain.h"

#include "approx/runtime/tune/KernelEvaluator.h"
#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/sfu/Occupancy.h"
#include "approx/runtime/sfu/SlotGrid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

using namespace approx::rt;

namespace {

const std::string kData = APPROX_RT_TEST_DATA;
const std::string kManifest = kData + "/sfu_test.manifest.json";
std::shared_ptr<Context> gCtx;

std::unique_ptr<Module> loadModule() {
  return test::loadModuleAt(gCtx, kManifest);
}

/// The CUDA Programming Guide's ulp error: the distance, in representable
/// floats, between `out` and the correctly rounded result (`ref`, exact to
/// double precision, rounded to float).
double ulpError(float out, double ref) {
  if (std::isnan(ref) || std::isnan(out))
    return std::isnan(ref) && std::isnan(out) ? 0 : INFINITY;
  auto ordinal = [](float f) {
    int32_t b;
    std::memcpy(&b, &f, 4);
    return b < 0 ? -int64_t(b & 0x7fffffff) : int64_t(b);
  };
  return double(std::llabs(ordinal(out) - ordinal(float(ref))));
}

std::vector<float> randomUniform(size_t n, float lo, float hi,
                                 unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = u(rng);
  return v;
}

struct SinExpRun {
  std::vector<float> s, e;
};

/// Runs sin_exp at `lambda` over `x` with `block` threads per block.
SinExpRun runSinExp(Module &m, const std::vector<float> &x, int64_t lambda,
                    unsigned block = 256, unsigned smem = 0) {
  SinExpRun r;
  size_t n = x.size();
  Expected<DeviceBuffer> dx =
      DeviceBuffer::fromHost(gCtx, x.data(), n, ScalarType::F32);
  Expected<DeviceBuffer> ds =
      DeviceBuffer::allocate(gCtx, n * 4, ScalarType::F32);
  Expected<DeviceBuffer> de =
      DeviceBuffer::allocate(gCtx, n * 4, ScalarType::F32);
  EXPECT_TRUE(dx && ds && de);
  if (!dx || !ds || !de)
    return r;
  EXPECT_TRUE(ds->fillBytes(0xff).isOk());
  EXPECT_TRUE(de->fillBytes(0xff).isOk());
  Status st = m.setKnob("lambda", lambda);
  EXPECT_TRUE(st.isOk()) << st.toString();
  LaunchConfig cfg;
  cfg.block.x = block;
  cfg.grid.x = unsigned((n + block - 1) / block);
  cfg.sharedMemBytes = smem;
  st = m.launchSync("sin_exp", cfg,
                    {Arg::memref(dx->view()), Arg::memref(ds->view()),
                     Arg::memref(de->view()), Arg::integer(int64_t(n))});
  EXPECT_TRUE(st.isOk()) << st.toString();
  r.s.resize(n);
  r.e.resize(n);
  EXPECT_TRUE(ds->copyToHost(r.s.data(), n * 4).isOk());
  EXPECT_TRUE(de->copyToHost(r.e.data(), n * 4).isOk());
  return r;
}

std::vector<float> sinExpInputs() {
  std::vector<float> x = randomUniform(1 << 20, -3.14159265f, 3.14159265f, 7);
  const float specials[] = {0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::denorm_min(),
                            -1e-40f,
                            std::numeric_limits<float>::min(),
                            88.0f,
                            -87.0f,
                            89.0f,
                            -104.0f,
                            1e4f,
                            -1e30f,
                            3.14159265f,
                            1.5707964f};
  for (size_t i = 0; i < sizeof(specials) / sizeof(float); ++i)
    x[i * 4099] = specials[i];
  return x;
}

} // namespace

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(Errors, BadPtxReportsJitLog) {
  Expected<Manifest> man = loadManifestFile(kManifest);
  ASSERT_TRUE(man.isOk());
  std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry broken() { bogus.instr %r1; ret; }\n";
  Expected<std::unique_ptr<Module>> m =
      Module::loadFromMemory(gCtx, *man, ptx);
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().code(), StatusCode::InvalidImage);
  EXPECT_NE(m.status().message().find("cuModuleLoadDataEx"),
            std::string::npos);
  EXPECT_NE(m.status().message().find("JIT log"), std::string::npos)
      << m.status().message();
  EXPECT_EQ(m.status().message().find('\n'), std::string::npos);
  std::printf("bad PTX -> %s\n", m.status().toString().c_str());
}

TEST(Errors, ManifestImageMismatch) {
  Expected<Manifest> man = loadManifestFile(kManifest);
  ASSERT_TRUE(man.isOk());
  Manifest bad = *man;
  bad.kernels[0].name = "no_such_kernel";
  std::string ptx;
  {
    FILE *f = std::fopen((kData + "/sfu_test.ptx").c_str(), "rb");
    ASSERT_NE(f, nullptr);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
      ptx.append(buf, n);
    std::fclose(f);
  }
  Expected<std::unique_ptr<Module>> m = Module::loadFromMemory(gCtx, bad, ptx);
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("no_such_kernel"), std::string::npos);
  bad = *man;
  bad.knobs[0].symbol = "mu";
  m = Module::loadFromMemory(gCtx, bad, ptx);
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("symbol 'mu'"), std::string::npos);
  bad = *man;
  bad.knobs[0].type = ScalarType::I64;
  m = Module::loadFromMemory(gCtx, bad, ptx);
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("has 4 bytes"), std::string::npos);
}

TEST(Errors, UnknownNamesAndRanges) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  EXPECT_EQ(m->setKnob("mu", 1).code(), StatusCode::NotFound);
  EXPECT_EQ(m->setKnob("lambda", 65).code(), StatusCode::OutOfRange);
  EXPECT_EQ(m->setKnob("lambda", -1).code(), StatusCode::OutOfRange);
  ASSERT_OK(m->setKnob("lambda", 17));
  Expected<int64_t> v = m->getKnob("lambda");
  ASSERT_TRUE(v.isOk());
  EXPECT_EQ(*v, 17);
  {
    // The symbol is written before the next launch of a kernel reading it.
    Expected<DeviceBuffer> x =
        DeviceBuffer::allocate(gCtx, 256 * 4, ScalarType::F32);
    ASSERT_TRUE(x.isOk());
    ASSERT_OK(x->fill32(0x3f800000u)); // 1.0f
    LaunchConfig one;
    one.block.x = 256;
    ASSERT_OK(m->launchSync("rounds_inplace", one,
                            {Arg::memref(x->view()), Arg::integer(1)}));
    Expected<int64_t> sym = m->readKnobSymbol("lambda");
    ASSERT_TRUE(sym.isOk()) << sym.status().toString();
    EXPECT_EQ(*sym, 17);
  }
  LaunchConfig cfg;
  cfg.grid.x = 1;
  cfg.block.x = 32;
  Status s = m->launch("nope", cfg, {});
  EXPECT_EQ(s.code(), StatusCode::NotFound);
  EXPECT_NE(s.message().find("known: sin_exp, rounds_inplace"),
            std::string::npos);
  cfg.block.x = 2048;
  Expected<DeviceBuffer> b = DeviceBuffer::allocate(gCtx, 64, ScalarType::F32);
  ASSERT_TRUE(b.isOk());
  EXPECT_EQ(m->launch("rounds_inplace", cfg,
                      {Arg::memref(b->view()), Arg::integer(1)})
                .code(),
            StatusCode::InvalidArgument);
}

TEST(Errors, WrongBuffers) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  Expected<DeviceBuffer> f32 =
      DeviceBuffer::allocate(gCtx, 1024 * 4, ScalarType::F32);
  Expected<DeviceBuffer> f64 =
      DeviceBuffer::allocate(gCtx, 1024 * 8, ScalarType::F64);
  ASSERT_TRUE(f32 && f64);
  LaunchConfig cfg;
  cfg.grid.x = 4;
  cfg.block.x = 256;
  // Too few arguments.
  Status s = m->launch("rounds_inplace", cfg, {Arg::memref(f32->view())});
  EXPECT_EQ(s.code(), StatusCode::InvalidArgument);
  EXPECT_NE(s.message().find("takes 2 arguments, got 1"), std::string::npos);
  // Shape larger than the buffer.
  s = m->launch("rounds_inplace", cfg,
                {Arg::memref(f32->view(), {2048}), Arg::integer(1)});
  EXPECT_EQ(s.code(), StatusCode::InvalidArgument);
  EXPECT_NE(s.message().find("needs 8192 bytes"), std::string::npos);
  // Wrong element type.
  s = m->launch("rounds_inplace", cfg,
                {Arg::memref(f64->view()), Arg::integer(1)});
  EXPECT_NE(s.message().find("holds f64, expected f32"), std::string::npos);
  // Buffer copies out of range.
  std::vector<float> host(2048);
  EXPECT_EQ(f32->copyFromHost(host.data(), host.size() * 4).code(),
            StatusCode::InvalidArgument);
  EXPECT_EQ(f32->copyToHost(host.data(), 4, 1024 * 4).code(),
            StatusCode::InvalidArgument);
  EXPECT_EQ(f32->copyFrom(*f64).code(), StatusCode::InvalidArgument);
  // Absurd allocation: a CUDA error value, not a crash.
  Expected<DeviceBuffer> huge =
      DeviceBuffer::allocate(gCtx, size_t(1) << 50, ScalarType::F32);
  ASSERT_FALSE(huge.isOk());
  EXPECT_EQ(huge.status().code(), StatusCode::OutOfMemory);
  EXPECT_NE(huge.status().message().find("cuMemAlloc"), std::string::npos);
  std::printf("huge alloc -> %s\n", huge.status().toString().c_str());
}

TEST(Errors, EvaluatorRefusesZeroInputsAndUnwrittenOutputs) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  EvaluatorOptions o;
  o.bound = lambdaBoundFn(); // the SFU's λ bound
  o.kernel = "sin_exp";
  o.launch.block.x = 256;
  o.launch.grid.x = 4;
  std::vector<float> zeros(1024, 0.0f);
  Expected<std::unique_ptr<KernelEvaluator>> ev = KernelEvaluator::create(
      *m,
      {ArgSpec::inputOf(ScalarType::F32, {1024}, zeros),
       ArgSpec::output(ScalarType::F32, {1024}),
       ArgSpec::output(ScalarType::F32, {1024}),
       ArgSpec::value(Arg::integer(1024))},
      o);
  ASSERT_FALSE(ev.isOk());
  EXPECT_NE(ev.status().message().find("all zeros"), std::string::npos);
  // A launch covering half the data leaves poisoned outputs.
  o.launch.grid.x = 2;
  std::vector<float> x = randomUniform(1024, -1, 1, 3);
  ev = KernelEvaluator::create(
      *m,
      {ArgSpec::inputOf(ScalarType::F32, {1024}, x),
       ArgSpec::output(ScalarType::F32, {1024}),
       ArgSpec::output(ScalarType::F32, {1024}),
       ArgSpec::value(Arg::integer(1024))},
      o);
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  Expected<TunePoint> p = (*ev)->evaluate(0);
  ASSERT_FALSE(p.isOk());
  EXPECT_NE(p.status().message().find("unwritten"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Precise / Sfu
//===----------------------------------------------------------------------===//

TEST(Precise, LambdaZeroWithinLibdeviceBounds) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  std::vector<float> x = sinExpInputs();
  SinExpRun r = runSinExp(*m, x, 0);
  ASSERT_EQ(r.s.size(), x.size());
  double maxS = 0, maxE = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double es = ulpError(r.s[i], std::sin(double(x[i])));
    double ee = ulpError(r.e[i], std::exp(double(x[i])));
    // CUDA C Programming Guide, "Mathematical Functions": sinf, expf 2 ulp.
    ASSERT_LE(es, 2.0) << "sinf(" << x[i] << ") = " << r.s[i];
    ASSERT_LE(ee, 2.0) << "expf(" << x[i] << ") = " << r.e[i];
    maxS = std::max(maxS, es);
    maxE = std::max(maxE, ee);
  }
  std::printf("lambda=0: max ulp sinf %.3f, expf %.3f over %zu inputs\n", maxS,
              maxE, x.size());
}

TEST(Sfu, KnobMaxUsesIntrinsicsWithinBounds) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  std::vector<float> x = randomUniform(1 << 20, -3.14159265f, 3.14159265f, 9);
  SinExpRun p = runSinExp(*m, x, 0);
  SinExpRun a = runSinExp(*m, x, 64);
  ASSERT_EQ(a.s.size(), x.size());
  size_t differ = 0;
  double maxAbsS = 0, maxUlpE = 0, worstExcess = -1e30;
  float worstX = 0, worstOut = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    differ += a.s[i] != p.s[i] || a.e[i] != p.e[i];
    double errS = std::fabs(double(a.s[i]) - std::sin(double(x[i])));
    maxAbsS = std::max(maxAbsS, errS);
    // __sinf: max abs error 2^-21.41 for x in [-pi, pi].
    ASSERT_LE(errS, std::pow(2.0, -21.41)) << "sin.approx(" << x[i] << ")";
    double ue = ulpError(a.e[i], std::exp(double(x[i])));
    maxUlpE = std::max(maxUlpE, ue);
    // __expf: 2 + floor(|1.173 x|) ulp.
    double excess = ue - (2.0 + std::floor(std::fabs(1.173 * x[i])));
    if (excess > worstExcess) {
      worstExcess = excess;
      worstX = x[i];
      worstOut = a.e[i];
    }
    ASSERT_LE(excess, 0.0) << "ex2.approx(" << x[i] << "*log2e) = "
                            << a.e[i];
  }
  std::printf("__expf form: worst (ulp - documented bound) = %.4f at x = "
              "%.9g (out %.9g, exact %.12g)\n",
              worstExcess, worstX, worstOut, std::exp(double(worstX)));
  std::printf("lambda=64: %zu/%zu elements differ from lambda=0; max abs "
              "sin err %.3g (bound %.3g); max ulp exp %.2f\n",
              differ, x.size(), maxAbsS, std::pow(2.0, -21.41), maxUlpE);
  EXPECT_GT(differ, x.size() / 4) << "SFU forms not in use at lambda max";
}

TEST(Sfu, NothingChangesPastOccupancyBound) {
  // 40 KiB of dynamic shared memory per 256-thread block limits residency;
  // λ from the occupancy bound to the knob max must then change nothing.
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  LaunchConfig cfg;
  cfg.block.x = 256;
  cfg.grid.x = 4096;
  cfg.sharedMemBytes = 40 * 1024;
  Expected<OccupancyInfo> occ = lambdaBound(*m, "sin_exp", cfg, "lambda");
  ASSERT_TRUE(occ.isOk()) << occ.status().toString();
  std::printf("occupancy: %d blocks/SM x %d warps = %d warps; lambda_max %lld "
              "(%d regs/thread)\n",
              occ->activeBlocksPerSM, occ->warpsPerBlock,
              occ->residentWarpsPerSM, (long long)occ->lambdaMax,
              occ->numRegs);
  ASSERT_LT(occ->lambdaMax, 64);
  ASSERT_GT(occ->lambdaMax, 0);
  std::vector<float> x = randomUniform(4096 * 256, -3.1f, 3.1f, 11);
  SinExpRun atMax = runSinExp(*m, x, occ->lambdaMax, 256, cfg.sharedMemBytes);
  SinExpRun atKnobMax = runSinExp(*m, x, 64, 256, cfg.sharedMemBytes);
  SinExpRun below = runSinExp(*m, x, occ->lambdaMax / 2, 256,
                              cfg.sharedMemBytes);
  size_t diffPast = 0, diffBelow = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    diffPast += atMax.s[i] != atKnobMax.s[i] || atMax.e[i] != atKnobMax.e[i];
    diffBelow += below.s[i] != atKnobMax.s[i] || below.e[i] != atKnobMax.e[i];
  }
  std::printf("elements differing: lambda_max vs 64: %zu; lambda_max/2 vs 64: "
              "%zu (of %zu)\n",
              diffPast, diffBelow, x.size());
  EXPECT_EQ(diffPast, 0u);
  EXPECT_GT(diffBelow, 0u);
}

//===----------------------------------------------------------------------===//
// Curve / Tuner (compute-bound, in-place kernel through KernelEvaluator)
//===----------------------------------------------------------------------===//

namespace {
std::unique_ptr<KernelEvaluator> roundsEvaluator(Module &m, size_t n,
                                                 int rounds) {
  EvaluatorOptions o;
  o.bound = lambdaBoundFn(); // the SFU's λ bound
  o.kernel = "rounds_inplace";
  o.launch.block.x = 256;
  o.launch.grid.x = unsigned((n + 255) / 256);
  o.timing.warmup = 2;
  o.timing.reps = 7;
  std::vector<float> x = randomUniform(n, -2.0f, 2.0f, 5);
  Expected<std::unique_ptr<KernelEvaluator>> ev = KernelEvaluator::create(
      m,
      {ArgSpec::inputOf(ScalarType::F32, {int64_t(n)}, x, /*inout=*/true),
       ArgSpec::value(Arg::integer(rounds))},
      o);
  EXPECT_TRUE(ev.isOk()) << ev.status().toString();
  return ev ? ev.take() : nullptr;
}
} // namespace

TEST(Sfu, SlotGridProbeIsAStaircase) {
  // The probe sweeps every warp slot; its SFU warps are cheaper, so T falls
  // from λ = 0 to the full SFU split, and the grid is a step in [1, 16].
  for (WarpSlot slot : {WarpSlot::Hw, WarpSlot::Virtual}) {
    Expected<SlotGrid> g = measureSlotGrid(gCtx, slot);
    ASSERT_TRUE(g.isOk()) << g.status().toString();
    int warps = gCtx->device().maxThreadsPerSM / gCtx->device().warpSize;
    ASSERT_EQ(g->timeMs.size(), size_t(warps + 1));
    EXPECT_LT(g->timeMs.back(), 0.8 * g->timeMs.front());
    EXPECT_GE(g->step, 1);
    EXPECT_LE(g->step, 16);
    std::printf("slot %s: step %d (R2 %.4f), T(0) %.3f ms, T(%d) %.3f ms\n",
                warpSlotName(slot), g->step, g->captured, g->timeMs.front(),
                warps, g->timeMs.back());
  }
  // Software slots and unsplit knobs have no SMSP staircase: step 1, no run.
  Expected<SlotGrid> none = measureSlotGrid(gCtx, WarpSlot::Software);
  ASSERT_TRUE(none.isOk());
  EXPECT_EQ(none->step, 1);
  EXPECT_TRUE(none->timeMs.empty());
  EXPECT_FALSE(measureSlotGrid(nullptr, WarpSlot::Hw).isOk());
}

TEST(Curve, ErrorRisesWithLambda) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  std::unique_ptr<KernelEvaluator> ev = roundsEvaluator(*m, 1 << 22, 32);
  ASSERT_TRUE(ev);
  std::printf("lambda_max (occupancy) = %lld\n", (long long)ev->lambdaMax());
  std::vector<TunePoint> pts;
  for (int64_t l : {int64_t(0), int64_t(8), int64_t(16), int64_t(32),
                    int64_t(48), ev->lambdaMax()}) {
    Expected<TunePoint> p = ev->evaluate(l);
    ASSERT_TRUE(p.isOk()) << p.status().toString();
    std::printf("  lambda %2lld  T %.4f ms  E %.4g\n", (long long)p->lambda,
                p->timeMs, p->error);
    pts.push_back(*p);
  }
  EXPECT_EQ(pts[0].error, 0.0) << "kernel is not deterministic at lambda 0";
  for (size_t i = 1; i < pts.size(); ++i) {
    EXPECT_GT(pts[i].error, 0.0);
    EXPECT_GE(pts[i].error, pts[i - 1].error * 0.95)
        << "E fell from lambda " << pts[i - 1].lambda << " to "
        << pts[i].lambda;
  }
  EXPECT_GT(pts.back().error, 2.0 * pts[2].error);
  EXPECT_LT(pts.back().timeMs, pts[0].timeMs)
      << "pure SFU is not faster than precise";
  // Restoring the in-place input: λ=0 again gives the reference exactly.
  Expected<ErrorStats> again = ev->statsAt(0);
  ASSERT_TRUE(again.isOk());
  EXPECT_EQ(again->maxAbs, 0.0);
}

TEST(Tuner, LambdaStarMeetsQoS) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  std::unique_ptr<KernelEvaluator> ev = roundsEvaluator(*m, 1 << 21, 32);
  ASSERT_TRUE(ev);
  for (TuneMethod method : {TuneMethod::Heu, TuneMethod::Smp,
                            TuneMethod::Omg}) {
    TuneOptions o;
    o.qos = QoS::ratio(0.8);
    Expected<TuneResult> r = tune(*ev, method, o);
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    std::printf("%s: lambda* %lld of %lld, T %.4f ms (T0 %.4f), E %.4g <= "
                "%.4g, runs %d\n",
                tuneMethodName(method), (long long)r->lambda,
                (long long)r->lambdaMax, r->timeMs, r->baseTimeMs, r->error,
                r->qosBound, r->runs);
    EXPECT_TRUE(r->satisfied);
    // Re-measure λ* from scratch (no cache): the QoS holds on the input.
    Expected<ErrorStats> s = ev->statsAt(r->lambda);
    ASSERT_TRUE(s.isOk());
    EXPECT_LE(s->meanRelative, r->qosBound);
  }
}

//===----------------------------------------------------------------------===//
// Leaks
//===----------------------------------------------------------------------===//

TEST(Leaks, DeviceMemoryReturnsToBaseline) {
  test::expectDeviceMemoryReturns(gCtx, [&] {
    std::unique_ptr<Module> m = loadModule();
    ASSERT_TRUE(m);
    // Successful evaluator with 3 x 64 MiB buffers, then error paths.
    {
      std::unique_ptr<KernelEvaluator> ev =
          roundsEvaluator(*m, 16 << 20, 1);
      ASSERT_TRUE(ev);
      ASSERT_TRUE(ev->evaluate(3).isOk());
    }
    {
      EvaluatorOptions o;
      o.bound = lambdaBoundFn(); // the SFU's λ bound
      o.kernel = "sin_exp";
      o.launch.block.x = 256;
      o.launch.grid.x = 1;
      std::vector<float> x(16 << 20, 1.0f);
      // A scalar that does not fit i32: refused by the ABI check after the
      // buffers were allocated, which must all be freed again.
      Expected<std::unique_ptr<KernelEvaluator>> ev = KernelEvaluator::create(
          *m,
          {ArgSpec::inputOf(ScalarType::F32, {16 << 20}, x),
           ArgSpec::output(ScalarType::F32, {16 << 20}),
           ArgSpec::output(ScalarType::F32, {1 << 10}),
           ArgSpec::value(Arg::integer(int64_t(1) << 40))},
          o);
      EXPECT_FALSE(ev.isOk());
    }
    {
      Expected<DeviceBuffer> a =
          DeviceBuffer::allocate(gCtx, 64 << 20, ScalarType::F32);
      ASSERT_TRUE(a.isOk());
      DeviceBuffer b = a.take();
      DeviceBuffer c = std::move(b); // moved-from b must not double free
      ASSERT_OK(c.free());
      ASSERT_OK(c.free());
    }
  }); // buffers of 64 MiB each
}

int main(int argc, char **argv) {
  return approx::rt::test::gpuTestMain(argc, argv, gCtx);
}
