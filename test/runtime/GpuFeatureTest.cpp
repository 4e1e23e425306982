//===- GpuFeatureTest.cpp - Manifest v2 features on a real GPU ------------===//
//
// ctest label "gpu". Runs test/runtime/data/gpu/features.{cu,manifest.json}
// (the PTX is built with nvcc at build time). Exits 77 (skipped) with the
// reason printed when there is no usable GPU, or when the PTX could not be
// built because nvcc was not found.
//
//   Bare     an abi "bare" memref is one pointer, end to end;
//   Variant  a logical name launches the variant its knob selects (module
//            value or per-launch value), each with its own ABI;
//   Texture  resource knobs: texels read back through point, linear
//            (9-bit weights) and normalized/wrap textures, through a global
//            and through a parameter; switching tables; no device memory
//            left behind after unload;
//   Streams  two streams with different per-launch values of a path-param
//            knob give bit-identical results to sequential launches;
//            timing on a stream;
//   Codes    CUDA errors keep distinct classes: out of memory, bad PTX,
//            missing symbol;
//   Fault    (own process, last: it leaves the context unusable) a kernel
//            storing through an invalid address: the launch reports a
//            sticky DeviceFault, the tuner stops with it, and the evaluator
//            launches nothing more.
//
//===----------------------------------------------------------------------===//
#include "GpuTestMain.h"

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/sfu/Occupancy.h"
#include "approx/runtime/tune/KernelEvaluator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <sys/stat.h>

using namespace approx::rt;

namespace {

const std::string kDir = APPROX_RT_GPU_DATA;
const std::string kManifest = kDir + "/features.manifest.json";
std::shared_ptr<Context> gCtx;

std::unique_ptr<Module> loadModule() {
  return test::loadModuleAt(gCtx, kManifest);
}

template <typename T>
DeviceBuffer upload(const std::vector<T> &v, ScalarType t) {
  Expected<DeviceBuffer> b = DeviceBuffer::fromHost(gCtx, v.data(), v.size(), t);
  EXPECT_TRUE(b.isOk()) << b.status().toString();
  return b ? b.take() : DeviceBuffer();
}

template <typename T> std::vector<T> download(const DeviceBuffer &b) {
  std::vector<T> v(b.bytes() / sizeof(T));
  Status s = b.copyToHost(v.data(), b.bytes());
  EXPECT_TRUE(s.isOk()) << s.toString();
  return v;
}

LaunchConfig cfgFor(size_t n, unsigned block = 256) {
  LaunchConfig c;
  c.block.x = block;
  c.grid.x = unsigned((n + block - 1) / block);
  return c;
}

/// Samples a texture kernel (tex_point, tex_linear, tex_param) at (xs, ys).
std::vector<float> sample(Module &m, const std::string &kernel,
                          const std::vector<float> &xs,
                          const std::vector<float> &ys,
                          const LaunchOptions &opts = {}) {
  size_t n = xs.size();
  DeviceBuffer dx = upload(xs, ScalarType::F32);
  DeviceBuffer dy = upload(ys, ScalarType::F32);
  Expected<DeviceBuffer> out =
      DeviceBuffer::allocate(gCtx, n * 4, ScalarType::F32);
  EXPECT_TRUE(out.isOk());
  if (!out)
    return {};
  EXPECT_TRUE(out->fillBytes(0xff).isOk());
  Status s = m.launchSync(kernel, cfgFor(n),
                          {Arg::memref(out->view()), Arg::memref(dx.view()),
                           Arg::memref(dy.view()), Arg::integer(int64_t(n))},
                          opts);
  EXPECT_TRUE(s.isOk()) << s.toString();
  return download<float>(*out);
}

} // namespace

//===----------------------------------------------------------------------===//
// Bare, Variant
//===----------------------------------------------------------------------===//

TEST(Bare, OnePointerEndToEnd) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  std::vector<float> x(1024);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i) * 0.5f - 100.0f;
  DeviceBuffer b = upload(x, ScalarType::F32);
  ASSERT_OK(m->launchSync("bare_affine", cfgFor(1024),
                          {Arg::memref(b.view(), {1024}), Arg::integer(1024)}));
  std::vector<float> y = download<float>(b);
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(y[i], 2.0f * x[i] + 1.0f) << i;
  // The static shape is checked: a bare memref carries no sizes.
  EXPECT_EQ(m->launch("bare_affine", cfgFor(1024),
                      {Arg::memref(b.view(), {512}), Arg::integer(512)})
                .code(),
            StatusCode::InvalidArgument);
}

TEST(Variant, LogicalNameFollowsTheKnobWithEachVariantsAbi) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  const size_t n = 4096;
  std::vector<float> xf(n), yf(n);
  std::vector<double> xd(n), yd(n);
  for (size_t i = 0; i < n; ++i) {
    xf[i] = float(i) * 0.25f;
    yf[i] = 1.0f;
    xd[i] = double(i) * 0.125;
    yd[i] = 2.0;
  }
  DeviceBuffer bxf = upload(xf, ScalarType::F32), byf = upload(yf, ScalarType::F32);
  DeviceBuffer bxd = upload(xd, ScalarType::F64), byd = upload(yd, ScalarType::F64);
  std::vector<Arg> f32Args = {Arg::memref(bxf.view()), Arg::memref(byf.view()),
                              Arg::floating(3.0), Arg::integer(int64_t(n))};
  std::vector<Arg> f64Args = {Arg::memref(bxd.view()), Arg::memref(byd.view()),
                              Arg::floating(0.5), Arg::integer(int64_t(n))};
  // prec = 0 (default): axpy_f32; f64 buffers are refused before launching.
  ASSERT_OK(m->launchSync("axpy", cfgFor(n), f32Args));
  EXPECT_EQ(m->launch("axpy", cfgFor(n), f64Args).code(),
            StatusCode::InvalidArgument);
  std::vector<float> rf = download<float>(byf);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(rf[i], 3.0f * xf[i] + 1.0f) << i;
  // A per-launch value selects axpy_f64 for one launch.
  LaunchOptions lo;
  lo.knobs["prec"] = 1;
  ASSERT_OK(m->launchSync("axpy", cfgFor(n), f64Args, lo));
  std::vector<double> rd = download<double>(byd);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(rd[i], 0.5 * xd[i] + 2.0) << i;
  EXPECT_EQ(*m->getKnob("prec"), 0);
  // The module's value.
  ASSERT_OK(m->setKnob("prec", 1));
  ASSERT_OK(m->launchSync("axpy", cfgFor(n), f64Args));
  rd = download<double>(byd);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(rd[i], 0.5 * xd[i] * 2 + 2.0) << i;
}

//===----------------------------------------------------------------------===//
// Texture
//===----------------------------------------------------------------------===//

TEST(Texture, PointClampTablesAndSwitching) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  // Table 0 is 4x2: texel (x, y) = 1 + x + 4y, centres at +0.5.
  std::vector<float> xs, ys, want;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) {
      xs.push_back(float(x) + 0.5f);
      ys.push_back(float(y) + 0.5f);
      want.push_back(float(1 + x + 4 * y));
    }
  xs.push_back(-3.0f), ys.push_back(0.5f), want.push_back(1.0f);  // clamp
  xs.push_back(10.0f), ys.push_back(1.5f), want.push_back(8.0f);  // clamp
  EXPECT_EQ(sample(*m, "tex_point", xs, ys), want);
  EXPECT_EQ(m->liveTextures(), 1u);
  // Table 1 (3x1: 100, 200, 300) through setKnob: a new texture, the old
  // one released.
  ASSERT_OK(m->setKnob("lut", 1));
  EXPECT_EQ(m->liveTextures(), 0u);
  std::vector<float> got =
      sample(*m, "tex_point", {0.5f, 1.5f, 2.5f, 7.0f}, {0.5f, 0.5f, 0.5f, 0.5f});
  EXPECT_EQ(got, (std::vector<float>{100, 200, 300, 300}));
  // Back to table 0 for one launch.
  LaunchOptions lo;
  lo.knobs["lut"] = 0;
  got = sample(*m, "tex_point", {3.5f}, {1.5f}, lo);
  EXPECT_EQ(got, std::vector<float>{8.0f});
  EXPECT_EQ(m->liveTextures(), 2u);
  // The symbol holds the handle of the last launch's texture.
  Expected<int64_t> h = m->readKnobSymbol("lut");
  ASSERT_TRUE(h.isOk());
  EXPECT_NE(*h, 0);
}

TEST(Texture, LinearFilteringAndBorder) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  // 2x1 table [1, 3], centres at x = 0.5 and 1.5; border colour 0. Linear
  // filtering weights are 9-bit fixed point (1/256): these fractions are
  // exact in it.
  std::vector<float> xs = {0.5f, 1.5f, 1.0f, 0.75f, 1.25f, 0.0f, 2.0f, -5.0f};
  std::vector<float> want = {1.0f, 3.0f, 2.0f, 1.5f, 2.5f, 0.5f, 1.5f, 0.0f};
  std::vector<float> got = sample(*m, "tex_linear", xs,
                                  std::vector<float>(xs.size(), 0.5f));
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 2.0 / 256) << "x = " << xs[i];
}

TEST(Texture, ParamPathNormalizedWrapFourChannels) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  // 2x2 texels of 4 channels; the kernel returns x + 10y + 100z + 1000w:
  // (0,0) 4321, (1,0) 8765, (0,1) 1010, (1,1) 2222. Normalized coordinates
  // wrap: u = 1.25 is u = 0.25.
  std::vector<float> us = {0.25f, 0.75f, 0.25f, 0.75f, 1.25f, -0.25f};
  std::vector<float> vs = {0.25f, 0.25f, 0.75f, 0.75f, 0.25f, 0.75f};
  std::vector<float> got = sample(*m, "tex_param", us, vs);
  EXPECT_EQ(got, (std::vector<float>{4321, 8765, 1010, 2222, 4321, 2222}));
  // Path "param": the symbol is never written.
  Expected<int64_t> symbol = m->readKnobSymbol("lutp");
  ASSERT_TRUE(symbol.isOk());
  EXPECT_EQ(*symbol, 0);
}

TEST(Texture, NothingLeftAfterUnload) {
  test::expectDeviceMemoryReturns(gCtx, [&] {
    std::unique_ptr<Module> m = loadModule();
    ASSERT_TRUE(m);
    for (int64_t v : {0, 1, 0, 1}) {
      ASSERT_OK(m->setKnob("lut", v));
      EXPECT_FALSE(sample(*m, "tex_point", {0.5f}, {0.5f}).empty());
    }
    EXPECT_FALSE(sample(*m, "tex_linear", {0.5f}, {0.5f}).empty());
    EXPECT_FALSE(sample(*m, "tex_param", {0.5f}, {0.5f}).empty());
  });
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

TEST(Streams, ParamKnobsOnTwoStreamsMatchSequentialLaunches) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  const size_t n = 1 << 20;
  const int rounds = 64;
  std::vector<float> x(n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float &v : x)
    v = u(rng);
  DeviceBuffer dx = upload(x, ScalarType::F32);
  auto out = [&] {
    Expected<DeviceBuffer> b = DeviceBuffer::allocate(gCtx, n * 4,
                                                      ScalarType::F32);
    EXPECT_TRUE(b.isOk());
    return b.take();
  };
  DeviceBuffer ref1 = out(), ref2 = out(), y1 = out(), y2 = out();
  auto args = [&](DeviceBuffer &y) {
    return std::vector<Arg>{Arg::memref(dx.view()), Arg::memref(y.view()),
                            Arg::integer(int64_t(n)), Arg::integer(rounds)};
  };
  // Sequential, on the default stream.
  LaunchOptions a, b;
  a.knobs["mu"] = 1;
  b.knobs["mu"] = 2;
  ASSERT_OK(m->launchSync("scale_p", cfgFor(n), args(ref1), a));
  ASSERT_OK(m->launchSync("scale_p", cfgFor(n), args(ref2), b));
  // Interleaved on two streams, many times over.
  Expected<Stream> s1 = Stream::create(gCtx), s2 = Stream::create(gCtx);
  ASSERT_TRUE(s1.isOk() && s2.isOk());
  a.stream = &*s1;
  b.stream = &*s2;
  for (int r = 0; r < 20; ++r) {
    ASSERT_OK(m->launch("scale_p", cfgFor(n), args(y1), a));
    ASSERT_OK(m->launch("scale_p", cfgFor(n), args(y2), b));
  }
  ASSERT_OK(s1->synchronize());
  ASSERT_OK(s2->synchronize());
  std::vector<float> r1 = download<float>(ref1), r2 = download<float>(ref2);
  std::vector<float> g1 = download<float>(y1), g2 = download<float>(y2);
  ASSERT_EQ(std::memcmp(g1.data(), r1.data(), n * 4), 0);
  ASSERT_EQ(std::memcmp(g2.data(), r2.data(), n * 4), 0);
  ASSERT_NE(std::memcmp(r1.data(), r2.data(), n * 4), 0)
      << "mu = 1 and mu = 2 gave the same output: the knob did not arrive";
  // Timing on a stream.
  TimingOptions t;
  t.warmup = 1;
  t.reps = 5;
  Expected<Timing> tm = m->time("scale_p", cfgFor(n), args(y1), t, {}, a);
  ASSERT_TRUE(tm.isOk()) << tm.status().toString();
  EXPECT_GT(tm->medianMs, 0.0);
  std::printf("scale_p on a stream: median %.4f ms\n", tm->medianMs);
}

//===----------------------------------------------------------------------===//
// Codes
//===----------------------------------------------------------------------===//

TEST(Codes, DistinctClassesForDistinctFailures) {
  Expected<DeviceBuffer> huge =
      DeviceBuffer::allocate(gCtx, size_t(1) << 50, ScalarType::F32);
  ASSERT_FALSE(huge.isOk());
  EXPECT_EQ(huge.status().code(), StatusCode::OutOfMemory);
  EXPECT_EQ(huge.status().cudaResult(), 2); // CUDA_ERROR_OUT_OF_MEMORY
  EXPECT_EQ(huge.status().cudaCall(), "cuMemAlloc");
  std::printf("huge alloc -> %s\n", huge.status().toString().c_str());

  Expected<Manifest> man = loadManifestFile(kManifest);
  ASSERT_TRUE(man.isOk());
  std::string bad = ".version 8.0\n.target sm_75\n.address_size 64\n"
                    ".visible .entry broken() { bogus.instr %r1; ret; }\n";
  Expected<std::unique_ptr<Module>> m = Module::loadFromMemory(gCtx, *man, bad);
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().code(), StatusCode::InvalidImage);
  EXPECT_EQ(m.status().cudaCall(), "cuModuleLoadDataEx");
  EXPECT_NE(m.status().message().find("JIT log"), std::string::npos);
  EXPECT_EQ(m.status().message().find('\n'), std::string::npos);
  std::printf("bad PTX -> %s\n", m.status().toString().c_str());

  Manifest renamed = *man;
  renamed.knobs[0].symbol = "no_such_global";
  std::string ptx;
  {
    FILE *f = std::fopen((kDir + "/features.ptx").c_str(), "rb");
    ASSERT_NE(f, nullptr);
    char buf[4096];
    size_t r;
    while ((r = std::fread(buf, 1, sizeof buf, f)) > 0)
      ptx.append(buf, r);
    std::fclose(f);
  }
  m = Module::loadFromMemory(gCtx, renamed, ptx);
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().code(), StatusCode::NotFound);
  EXPECT_EQ(m.status().cudaCall(), "cuModuleGetGlobal");
  EXPECT_FALSE(isStickyFault(m.status()));
}

//===----------------------------------------------------------------------===//
// Fault (runs alone: the context is unusable afterwards)
//===----------------------------------------------------------------------===//

TEST(Fault, IllegalAddressStopsTheTuner) {
  std::unique_ptr<Module> m = loadModule();
  ASSERT_TRUE(m);
  const size_t n = 1 << 16;
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i)
    x[i] = 1.0f + float(i % 97);
  EvaluatorOptions o;
  o.kernel = "fault";
  o.launch = cfgFor(n);
  o.timing.warmup = 1;
  o.timing.reps = 3;
  o.bound = lambdaBoundFn(); // the SFU's λ bound, overridden:
  o.lambdaMaxOverride = 64; // whatever the occupancy: λmax reaches 40
  Expected<std::unique_ptr<KernelEvaluator>> ev = KernelEvaluator::create(
      *m,
      {ArgSpec::inputOf(ScalarType::F32, {int64_t(n)}, x, /*inout=*/true),
       ArgSpec::value(Arg::integer(int64_t(n)))},
      o);
  ASSERT_TRUE(ev.isOk()) << ev.status().toString();
  Expected<TunePoint> p = (*ev)->evaluate(10); // below 40: no fault
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  EXPECT_GT(p->error, 0.0);
  TuneOptions t;
  t.qos = QoS::ratio(0.8);
  Expected<TuneResult> r = tune(**ev, TuneMethod::Omg, t); // λmax faults
  ASSERT_FALSE(r.isOk());
  std::printf("tuner -> %s\n", r.status().toString().c_str());
  EXPECT_TRUE(isStickyFault(r.status())) << r.status().toString();
  EXPECT_NE(r.status().message().find("restart the process"),
            std::string::npos);
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
  uint64_t launches = (*ev)->launches();
  Expected<TuneResult> again = tune(**ev, TuneMethod::Heu, t);
  ASSERT_FALSE(again.isOk());
  EXPECT_TRUE(isStickyFault(again.status()));
  EXPECT_NE(again.status().message().find("not started"), std::string::npos);
  EXPECT_FALSE((*ev)->evaluate(10).isOk()); // even a cached point
  EXPECT_EQ((*ev)->launches(), launches);
  // The driver agrees that the context is gone.
  Expected<DeviceBuffer> b = DeviceBuffer::allocate(gCtx, 64, ScalarType::F32);
  ASSERT_FALSE(b.isOk());
  EXPECT_TRUE(isStickyFault(b.status())) << b.status().toString();
}

int main(int argc, char **argv) {
  return approx::rt::test::gpuTestMain(argc, argv, gCtx, [] {
    struct stat st;
    if (::stat((kDir + "/features.ptx").c_str(), &st) != 0)
      return std::string(APPROX_RT_GPU_DATA_MISSING);
    return std::string();
  });
}
