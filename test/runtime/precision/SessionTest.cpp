//===- SessionTest.cpp - the precision Session without a GPU -------------===//
//
// The profiler and scaling mode (precision/Session.h) over the fake driver
// (fake/FakeDriver.h): a hand-written module (data/precision/
// session.manifest.json + session.ptx) with `axpy(x, y, n)` (y += 2x)
// behind a variant knob in four storage variants and a plain `store`
// kernel; the fake runs axpy in the variant's types. Checked: the public
// Event; profile recording (events, readers and writers from the manifest's
// access, kernel times, transfer signature) and its JSON round trip;
// variant selection by the objects' storage types; the one-line missing
// variant and differing-transfers errors; conversion overflow reaching the
// report and the trial; the Trial adapter's quality; memoised trials;
// pipelined chunk sizes; the staging control (every object f64, staged
// copies through the engine's pinned staging, reserved before the clock).
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "PrecisionFake.h"

#include "approx/runtime/precision/HostConvert.h"
#include "approx/runtime/precision/Session.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace approx::rt;
using namespace approx::rt::precision;
using approx::rt::fake::FakeDriver;
using approx::rt::fake::LaunchRecord;
using approx::rt::fake::setFakeAxpyKernel;
using approx::rt::fake::toF64;

namespace {

/// The module's kernels (the conversions come from PrecisionFake.h).
void registerKernels(FakeDriver &f) {
  // axpy in each variant's storage types: y += 2 x, computed in f64.
  const std::pair<const char *, std::pair<ScalarType, ScalarType>> axpys[] = {
      {"axpy__p0", {ScalarType::F64, ScalarType::F64}},
      {"axpy__p1", {ScalarType::F64, ScalarType::F32}},
      {"axpy__p2", {ScalarType::F32, ScalarType::F64}},
      {"axpy__p3", {ScalarType::F16, ScalarType::F64}}};
  for (auto &[name, types] : axpys)
    setFakeAxpyKernel(f, name, types.first, types.second, 0.5);
  f.setKernel("store", [](LaunchRecord &r) {
    const size_t n = size_t(r.param<int64_t>(5));
    double *y = r.ptr<double>(1);
    for (size_t i = 0; i < n; ++i)
      y[i] = double(i);
    r.durationMs = 0.25;
    return CUDA_SUCCESS;
  });
}

class SessionTest : public ::testing::Test {
protected:
  void SetUp() override {
    Expected<std::shared_ptr<Context>> c = fake::resetPrecisionFake();
    registerKernels(f);
    ASSERT_TRUE(c.isOk()) << c.status().toString();
    ctx = *c;
    Expected<std::unique_ptr<Module>> m = Module::load(
        ctx, std::string(APPROX_RT_TEST_DATA) +
                 "/precision/session.manifest.json");
    ASSERT_TRUE(m.isOk()) << m.status().toString();
    module = m.take();
  }
  void TearDown() override {
    module.reset();
    ctx.reset();
    fake::expectPrecisionFakeClean();
  }

  /// The program: X, Y registered; X, Y to the device; axpy; Y back.
  /// `swap` moves Y before X (a different transfer sequence); `skipBack`
  /// leaves out the copy back.
  Status program(Session &s, const std::vector<double> &x,
                 std::vector<double> &y, bool swap = false,
                 bool skipBack = false) {
    const uint64_t n = x.size();
    APPROX_ASSIGN_OR_RETURN(size_t X, s.object("X", ScalarType::F64, n));
    APPROX_ASSIGN_OR_RETURN(size_t Y, s.object("Y", ScalarType::F64, n));
    if (swap) {
      APPROX_RETURN_IF_ERROR(s.toDevice(Y, y.data()));
      APPROX_RETURN_IF_ERROR(s.toDevice(X, x.data()));
    } else {
      APPROX_RETURN_IF_ERROR(s.toDevice(X, x.data()));
      APPROX_RETURN_IF_ERROR(s.toDevice(Y, y.data()));
    }
    LaunchConfig cfg{{1, 1, 1}, {32, 1, 1}, 0};
    APPROX_RETURN_IF_ERROR(s.launch(
        *module, "axpy", cfg,
        {LaunchArg::object(X), LaunchArg::object(Y),
         LaunchArg::value(Arg::integer(int64_t(n)))}));
    if (!skipBack)
      APPROX_RETURN_IF_ERROR(s.toHost(Y, y.data()));
    return Status::ok();
  }

  static Configuration config(ScalarType x, Method xh2d, ScalarType y,
                              Method yh2d, Method yd2h) {
    Configuration c;
    c.toq = 0.9;
    c.strategy = "test";
    c.objects.push_back({"X", ScalarType::F64, x, xh2d, Method::none()});
    c.objects.push_back({"Y", ScalarType::F64, y, yh2d, yd2h});
    return c;
  }

  FakeDriver &f = FakeDriver::get();
  std::shared_ptr<Context> ctx;
  std::unique_ptr<Module> module;
};

} // namespace

TEST_F(SessionTest, EventTimesTheFakeClock) {
  Expected<Event> a = Event::create(ctx), b = Event::create(ctx);
  ASSERT_TRUE(a.isOk() && b.isOk());
  ASSERT_TRUE(a->record().isOk());
  std::vector<double> y(4, 0);
  Expected<DeviceBuffer> buf =
      DeviceBuffer::allocate(ctx, y.size() * 8, ScalarType::F64);
  ASSERT_TRUE(buf.isOk());
  ASSERT_TRUE(module
                  ->launch("store", {{1, 1, 1}, {4, 1, 1}, 0},
                           {Arg::memref(buf->view()), Arg::integer(4)})
                  .isOk());
  ASSERT_TRUE(b->record().isOk());
  ASSERT_TRUE(b->synchronize().isOk());
  Expected<double> ms = Event::elapsedMs(*a, *b);
  ASSERT_TRUE(ms.isOk()) << ms.status().toString();
  EXPECT_DOUBLE_EQ(*ms, 0.25);
  Event empty;
  EXPECT_FALSE(empty.record().isOk());
  EXPECT_FALSE(Event::elapsedMs(empty, *b).isOk());
}

TEST_F(SessionTest, ProfileRecordsObjectsKernelsAndTransfers) {
  SessionOptions o;
  o.mode = SessionMode::Profile;
  Expected<std::unique_ptr<Session>> s = Session::create(ctx, o);
  ASSERT_TRUE(s.isOk()) << s.status().toString();
  std::vector<double> x = {1, 2, 3, 4, 5}, y = {10, 20, 30, 40, 50};
  ASSERT_TRUE(program(**s, x, y).isOk());
  EXPECT_EQ(f.launches.back().kernel, "axpy__p0"); // the f64 variant
  Expected<RunReport> r = (*s)->finish();
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ(y, (std::vector<double>{12, 24, 36, 48, 60}));
  EXPECT_EQ(r->launches, 1u);
  EXPECT_EQ(r->transfers, 3u);
  EXPECT_DOUBLE_EQ(r->kernelSeconds, 0.5e-3);
  EXPECT_GT(r->wallSeconds, 0);
  EXPECT_TRUE(r->overflowed.empty());
  // Per object, first-transfer order; their sum is the report's.
  ASSERT_EQ(r->objectTransfers.size(), 2u);
  EXPECT_EQ(r->objectTransfers[0].name, "X");
  EXPECT_EQ(r->objectTransfers[1].name, "Y");
  // (The fake clock advances on launches only: copies take 0 s here.)
  EXPECT_EQ(r->objectTransfers[0].d2hSeconds, 0);
  EXPECT_DOUBLE_EQ(r->objectTransfers[0].h2dSeconds +
                       r->objectTransfers[1].h2dSeconds,
                   r->h2dSeconds);
  EXPECT_DOUBLE_EQ(r->objectTransfers[1].d2hSeconds, r->d2hSeconds);

  Expected<AppProfile> p = (*s)->profile();
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  ASSERT_EQ(p->objects.size(), 2u);
  const ObjectProfile &X = p->objects[0], &Y = p->objects[1];
  EXPECT_EQ(X.name, "X");
  EXPECT_EQ(X.elements, 5u);
  ASSERT_EQ(X.events.size(), 1u);
  EXPECT_EQ(X.events[0].direction, Direction::H2D);
  EXPECT_EQ(X.events[0].elements, 5u);
  ASSERT_EQ(Y.events.size(), 2u);
  EXPECT_EQ(Y.events[1].direction, Direction::D2H);
  // From the manifest's access: x read, y readwrite.
  EXPECT_EQ(X.readBy, std::vector<std::string>{"axpy"});
  EXPECT_TRUE(X.writtenBy.empty());
  EXPECT_EQ(Y.readBy, std::vector<std::string>{"axpy"});
  EXPECT_EQ(Y.writtenBy, std::vector<std::string>{"axpy"});
  ASSERT_EQ(p->kernels.size(), 1u);
  EXPECT_EQ(p->kernels[0].name, "axpy"); // the logical name
  EXPECT_DOUBLE_EQ(p->kernels[0].seconds, 0.5e-3);
  EXPECT_EQ(p->transfers, (std::vector<std::string>{"h2d X 5", "h2d Y 5",
                                                    "d2h Y 5"}));
  EXPECT_DOUBLE_EQ(p->totalSeconds, r->wallSeconds);

  // JSON round trip.
  Expected<AppProfile> q = parseAppProfile(appProfileToJson(*p));
  ASSERT_TRUE(q.isOk()) << q.status().toString();
  EXPECT_EQ(appProfileToJson(*q), appProfileToJson(*p));
  Expected<AppProfile> bad = parseAppProfile(
      R"({"format": "approx-precision-profile", "version": 1,
          "objects": [], "kernels": [], "total_seconds": -1,
          "transfers": []})");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().message(),
            "precision profile: total_seconds: -1.000000 is not a number >= 0");

  EXPECT_FALSE((*s)->finish().isOk()); // once
  EXPECT_FALSE((*s)->toHost(1, y.data()).isOk());
}

TEST_F(SessionTest, PlainModeRecordsNoProfile) {
  Expected<std::unique_ptr<Session>> s = Session::create(ctx, {});
  ASSERT_TRUE(s.isOk());
  std::vector<double> x = {1}, y = {1};
  ASSERT_TRUE(program(**s, x, y).isOk());
  ASSERT_TRUE((*s)->finish().isOk());
  EXPECT_EQ(y[0], 3);
  Expected<AppProfile> p = (*s)->profile();
  ASSERT_FALSE(p.isOk());
  EXPECT_EQ(p.status().message(),
            "profile: a plain session records no profile");
}

TEST_F(SessionTest, ScaleSelectsTheVariantOfTheStorageTypes) {
  struct Case {
    ScalarType x, y;
    const char *variant;
  };
  for (Case c : {Case{ScalarType::F16, ScalarType::F64, "axpy__p3"},
                 Case{ScalarType::F32, ScalarType::F64, "axpy__p2"},
                 Case{ScalarType::F64, ScalarType::F32, "axpy__p1"}}) {
    SCOPED_TRACE(c.variant);
    Method xm = c.x == ScalarType::F64 ? Method::copy() : Method::host(1);
    Method ym = c.y == ScalarType::F64 ? Method::copy() : Method::device();
    SessionOptions o;
    o.mode = SessionMode::Scale;
    o.config = config(c.x, xm, c.y, ym, ym);
    Expected<std::unique_ptr<Session>> s = Session::create(ctx, o);
    ASSERT_TRUE(s.isOk()) << s.status().toString();
    std::vector<double> x = {0.1, 0.2, 0.3}, y = {1, 2, 3};
    ASSERT_TRUE(program(**s, x, y).isOk());
    Expected<RunReport> r = (*s)->finish();
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    bool launched = false;
    for (const LaunchRecord &l : f.launches)
      launched = launched || l.kernel == c.variant;
    EXPECT_TRUE(launched);
    EXPECT_EQ(*(*s)->storage(0), c.x);
    EXPECT_EQ(*(*s)->storage(1), c.y);
    for (size_t i = 0; i < 3; ++i)
      EXPECT_NEAR(y[i], double(i + 1) + 2 * x[i], 1e-3);
    EXPECT_TRUE(r->overflowed.empty());
    // Scale mode times each object's transfers too (engine wall time).
    ASSERT_EQ(r->objectTransfers.size(), 2u);
    EXPECT_GT(r->objectTransfers[0].h2dSeconds, 0);
    EXPECT_GT(r->objectTransfers[1].d2hSeconds, 0);
    // A trial carries them.
    TrialResult t = trialResult(ProgramRun{{y}, *r}, {y});
    ASSERT_EQ(t.objectTransfers.size(), 2u);
    EXPECT_EQ(t.objectTransfers[1].name, "Y");
  }
}

TEST_F(SessionTest, MissingVariantIsOneLineNamingKernelAndTypes) {
  SessionOptions o;
  o.mode = SessionMode::Scale;
  o.config = config(ScalarType::F16, Method::host(1), ScalarType::F32,
                    Method::host(1), Method::host(1));
  Expected<std::unique_ptr<Session>> s = Session::create(ctx, o);
  ASSERT_TRUE(s.isOk());
  std::vector<double> x = {1}, y = {1};
  Status st = program(**s, x, y);
  ASSERT_FALSE(st.isOk());
  EXPECT_EQ(st.code(), StatusCode::NotFound);
  EXPECT_EQ(st.message(),
            "kernel 'axpy' has no variant whose memref arguments are (X: "
            "f16, Y: f32); the module has axpy__p0 (f64, f64), axpy__p1 "
            "(f64, f32), axpy__p2 (f32, f64), axpy__p3 (f16, f64): compile "
            "it with the storage variants this configuration needs "
            "(approx-precision-variants)");
  // A kernel the module lacks.
  Expected<const KernelInfo *> k = (*s)->select(*module, "nope", {});
  ASSERT_FALSE(k.isOk());
  EXPECT_EQ(k.status().message(), "kernel 'nope' is not in module 'session'");
}

TEST_F(SessionTest, TransfersThatDifferFromTheProfileAreAnError) {
  SessionOptions po;
  po.mode = SessionMode::Profile;
  Expected<std::unique_ptr<Session>> p = Session::create(ctx, po);
  ASSERT_TRUE(p.isOk());
  std::vector<double> x = {1, 2}, y = {3, 4};
  ASSERT_TRUE(program(**p, x, y).isOk());
  ASSERT_TRUE((*p)->finish().isOk());
  Expected<AppProfile> prof = (*p)->profile();
  ASSERT_TRUE(prof.isOk());

  SessionOptions o;
  o.mode = SessionMode::Scale;
  o.config = config(ScalarType::F32, Method::host(1), ScalarType::F64,
                    Method::copy(), Method::copy());
  o.expectedTransfers = prof->transfers;
  {
    Expected<std::unique_ptr<Session>> s = Session::create(ctx, o);
    ASSERT_TRUE(s.isOk());
    Status st = program(**s, x, y, /*swap=*/true);
    ASSERT_FALSE(st.isOk());
    EXPECT_EQ(st.message(),
              "the program's transfers differ from the profiled run: "
              "transfer 1 is h2d Y 2, the profiled run's was h2d X 2");
  }
  {
    Expected<std::unique_ptr<Session>> s = Session::create(ctx, o);
    ASSERT_TRUE(s.isOk());
    ASSERT_TRUE(program(**s, x, y, false, /*skipBack=*/true).isOk());
    Expected<RunReport> r = (*s)->finish();
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().message(),
              "the program's transfers differ from the profiled run: it "
              "made 2 transfers, the profiled run 3 (the next was d2h Y 2)");
  }
  {
    // A transfer the configuration has no method for (X's d2h is none).
    Expected<std::unique_ptr<Session>> s = Session::create(ctx, o);
    ASSERT_TRUE(s.isOk());
    ASSERT_TRUE((*s)->object("X", ScalarType::F64, 2).isOk());
    Status st = (*s)->toHost(0, x.data());
    ASSERT_FALSE(st.isOk());
    EXPECT_EQ(st.message(),
              "the program's transfers differ from the profiled run: "
              "transfer 1 is d2h X 2, the profiled run's was h2d X 2");
  }
}

TEST_F(SessionTest, OverflowReachesTheReportAndTheTrial) {
  SessionOptions o;
  o.mode = SessionMode::Scale;
  o.config = config(ScalarType::F16, Method::host(2), ScalarType::F64,
                    Method::copy(), Method::copy());
  Expected<std::unique_ptr<Session>> s = Session::create(ctx, o);
  ASSERT_TRUE(s.isOk());
  std::vector<double> x = {1e6, 1, -7e4}, y = {0, 0, 0}, ref = {2e6, 2, -1.4e5};
  ASSERT_TRUE(program(**s, x, y).isOk());
  Expected<RunReport> r = (*s)->finish();
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->stats.overflowed, 2u);
  EXPECT_EQ(r->overflowed, std::vector<std::string>{"X"});
  EXPECT_TRUE(std::isinf(y[0]) && std::isinf(y[2]));

  ProgramRun run{{y}, *r};
  TrialResult t = trialResult(run, {ref});
  EXPECT_TRUE(t.overflow);
  EXPECT_EQ(t.quality, 0);
  EXPECT_EQ(t.totalSeconds, r->wallSeconds);
  EXPECT_EQ(t.kernelSeconds, r->kernelSeconds);
}

TEST_F(SessionTest, StagedCopyControlMovesF64ThroughPinnedStaging) {
  // The f64 profile, whose objects and transfers the control repeats.
  SessionOptions po;
  po.mode = SessionMode::Profile;
  Expected<std::unique_ptr<Session>> ps = Session::create(ctx, po);
  ASSERT_TRUE(ps.isOk());
  const std::vector<double> x = {1, 2, 3, 4}, y0 = {10, 20, 30, 40};
  std::vector<double> y = y0;
  ASSERT_TRUE(program(**ps, x, y).isOk());
  ASSERT_TRUE((*ps)->finish().isOk());
  Expected<AppProfile> prof = (*ps)->profile();
  ASSERT_TRUE(prof.isOk());
  const std::vector<double> ref = y;
  EXPECT_EQ(f.calls["cuMemHostAlloc"], 0); // plain copies: no staging

  // The control: every object f64, every transfer a staged copy by two
  // threads, through one engine shared by the runs, as approx-scale's
  // trials share theirs; its staging reserved before any run.
  Configuration c = stagedCopyConfiguration(*prof, 2);
  Expected<std::unique_ptr<TransferEngine>> eng = TransferEngine::create(ctx);
  ASSERT_TRUE(eng.isOk());
  std::shared_ptr<TransferEngine> engine = eng.take();
  for (const ObjectProfile &o : prof->objects)
    ASSERT_TRUE(engine
                    ->reserve(o.declared, o.declared, size_t(o.elements),
                              TransferPlan::hostMulti(2))
                    .isOk());
  EXPECT_EQ(engine->pinnedBytes(), x.size() * 8);
  const int allocs = f.calls["cuMemHostAlloc"];
  EXPECT_EQ(allocs, 1);
  unsigned runs = 0;
  const size_t launchesBefore = f.launches.size();
  ScaledProgram once = [&](const Configuration &cfg) -> Expected<ProgramRun> {
    SessionOptions so;
    so.mode = SessionMode::Scale;
    so.config = cfg;
    so.expectedTransfers = prof->transfers;
    so.engine = engine;
    APPROX_ASSIGN_OR_RETURN(std::unique_ptr<Session> s,
                            Session::create(ctx, so));
    std::vector<double> out = y0;
    APPROX_RETURN_IF_ERROR(program(*s, x, out));
    APPROX_ASSIGN_OR_RETURN(RunReport r, s->finish());
    ++runs;
    return ProgramRun{{out}, r};
  };
  // Measured as a trial: a warm-up, then the median of three.
  Expected<ProgramRun> run = medianOf(once, 1, 3)(c);
  ASSERT_TRUE(run.isOk()) << run.status().toString();
  EXPECT_EQ(runs, 4u);
  // The values are the program's (f64 kernels, bit-exact copies) ...
  EXPECT_EQ(run->outputs[0], ref);
  for (size_t k = launchesBefore; k < f.launches.size(); ++k)
    EXPECT_EQ(f.launches[k].kernel, "axpy__p0");
  const RunReport &r = run->report;
  EXPECT_EQ(r.stats.nans + r.stats.overflowed + r.stats.underflowedToZero, 0u);
  EXPECT_TRUE(r.overflowed.empty());
  EXPECT_EQ(r.busBytes, 3 * x.size() * 8); // X, Y in f64; Y back in f64
  ASSERT_EQ(r.objectTransfers.size(), 2u);
  EXPECT_GT(r.objectTransfers[0].h2dSeconds, 0);
  EXPECT_GT(r.objectTransfers[1].d2hSeconds, 0);
  // ... moved through the pinned staging reserved before the clock: no run
  // allocated any.
  EXPECT_EQ(f.calls["cuMemHostAlloc"], allocs);
  EXPECT_EQ(engine->pinnedBytes(), x.size() * 8);
  TrialResult t = trialResult(*run, {ref});
  EXPECT_EQ(t.quality, 1);
  EXPECT_FALSE(t.overflow);

  // The same configuration with plain copies is the program itself and
  // stages nothing (a fresh engine holds no staging after it).
  Configuration plain = c;
  for (ObjectChoice &o : plain.objects) {
    o.h2d = o.h2d.kind == Method::None ? o.h2d : Method::copy();
    o.d2h = o.d2h.kind == Method::None ? o.d2h : Method::copy();
  }
  EXPECT_TRUE(plain.changesNothing());
  EXPECT_FALSE(c.changesNothing());
  Expected<std::unique_ptr<TransferEngine>> fresh = TransferEngine::create(ctx);
  ASSERT_TRUE(fresh.isOk());
  engine = fresh.take();
  ASSERT_TRUE(once(plain).isOk());
  EXPECT_EQ(engine->pinnedBytes(), 0u);
  EXPECT_EQ(f.calls["cuMemHostAlloc"], allocs);
}

TEST_F(SessionTest, ObjectErrors) {
  SessionOptions o;
  o.mode = SessionMode::Scale;
  o.config = config(ScalarType::F16, Method::host(1), ScalarType::F64,
                    Method::copy(), Method::copy());
  Expected<std::unique_ptr<Session>> s = Session::create(ctx, o);
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ((*s)->object("X", ScalarType::F32, 4).status().message(),
            "object 'X' is declared f32, the configuration says f64");
  EXPECT_TRUE((*s)->object("Z", ScalarType::F64, 4).isOk()); // kept f64
  EXPECT_EQ(*(*s)->storage(0), ScalarType::F64);
  EXPECT_EQ((*s)->object("Z", ScalarType::F64, 4).status().message(),
            "object 'Z' is registered twice");
  EXPECT_EQ((*s)->object("W", ScalarType::I32, 4).status().message(),
            "object 'W': type i32 is not f64, f32, f16 or bf16");
  EXPECT_EQ((*s)->object("W", ScalarType::F64, 0).status().message(),
            "object 'W' has no elements");
  EXPECT_EQ((*s)->toDevice(7, nullptr).message(),
            "toDevice: no object 7 (1 registered)");
  SessionOptions none;
  none.mode = SessionMode::Scale;
  EXPECT_EQ(Session::create(ctx, none).status().message(),
            "a scaling session needs a configuration");
}

TEST(SessionTrial, QualityIsOneMinusMeanRelativeError) {
  ProgramRun run;
  run.outputs = {{}, {1.1, 2.0, 0.0}};
  run.report.wallSeconds = 2;
  run.report.kernelSeconds = 0.5;
  // Output 0 is not compared (empty reference); floor = 1e-6 * 2.
  std::vector<std::vector<double>> ref = {{}, {1.0, 2.0, 0.0}};
  TrialResult t = trialResult(run, ref);
  EXPECT_FALSE(t.overflow);
  EXPECT_NEAR(t.quality, 1 - 0.1 / 3, 1e-12);
  EXPECT_EQ(t.totalSeconds, 2);
  EXPECT_EQ(t.kernelSeconds, 0.5);
  // An infinite output where the reference is finite: overflow, quality 0.
  run.outputs[1][2] = INFINITY;
  t = trialResult(run, ref);
  EXPECT_TRUE(t.overflow);
  EXPECT_EQ(t.quality, 0);
}

TEST(SessionTrial, MemoizedTrialsRunEachConfigurationOnce) {
  unsigned calls = 0;
  Trial base = [&](const Configuration &) -> Expected<TrialResult> {
    ++calls;
    TrialResult r;
    r.quality = 1;
    r.totalSeconds = 1;
    return r;
  };
  auto memo = std::make_shared<TrialMemo>();
  auto ran = std::make_shared<unsigned>(0);
  Trial a = memoizeTrial(base, memo, ran), b = memoizeTrial(base, memo, ran);
  Configuration c1, c2;
  c1.objects.push_back({"A", ScalarType::F64, ScalarType::F16,
                        Method::host(4), Method::none()});
  c2.objects.push_back({"A", ScalarType::F64, ScalarType::F32,
                        Method::host(4), Method::none()});
  c2.strategy = "other"; // provenance is not part of the key
  ASSERT_TRUE(a(c1).isOk());
  ASSERT_TRUE(b(c1).isOk());
  ASSERT_TRUE(b(c2).isOk());
  EXPECT_EQ(calls, 2u);
  EXPECT_EQ(*ran, 2u);
  EXPECT_EQ(memo->size(), 2u);
}

TEST(SessionPlan, MethodsBecomePlans) {
  Expected<TransferPlan> p =
      planFor(Method::pipelined(Where::Device, 0, 1 << 20), Direction::D2H,
              ScalarType::F64, ScalarType::F16);
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->method, TransferMethod::Pipelined);
  EXPECT_EQ(p->where, ConvertSide::Device);
  EXPECT_EQ(p->chunkBytes, size_t(4) << 20); // 1 MiB of f16 = 4 MiB of f64
  p = planFor(Method::pipelined(Where::Host, 2, 12), Direction::H2D,
              ScalarType::F64, ScalarType::F32);
  EXPECT_EQ(p->chunkBytes, 8u); // rounded down to whole elements
  EXPECT_EQ(planFor(Method::host(1), Direction::H2D, ScalarType::F64,
                    ScalarType::F16)
                ->method,
            TransferMethod::HostSingle);
  p = planFor(Method::host(8), Direction::H2D, ScalarType::F64,
              ScalarType::F16);
  EXPECT_EQ(p->method, TransferMethod::HostMulti);
  EXPECT_EQ(p->threads, 8u);
  p = planFor(Method::transient(ScalarType::F32, 3), Direction::D2H,
              ScalarType::F64, ScalarType::F16);
  EXPECT_EQ(p->method, TransferMethod::Transient);
  EXPECT_EQ(p->intermediate, ScalarType::F32);
  EXPECT_FALSE(planFor(Method::none(), Direction::H2D, ScalarType::F64,
                       ScalarType::F64)
                   .isOk());
}

TEST(SessionTrial, MedianOfRunsWarmupsThenReturnsTheMedianRun) {
  // Wall times of successive calls: two warm-ups (9, 8), then 3, 1, 2.
  std::vector<double> times = {9, 8, 3, 1, 2};
  unsigned calls = 0;
  ScaledProgram program = [&](const Configuration &) -> Expected<ProgramRun> {
    ProgramRun r;
    r.report.wallSeconds = times.at(calls);
    r.outputs = {{double(calls)}};
    ++calls;
    return r;
  };
  Configuration c;
  Expected<ProgramRun> r = medianOf(program, 2, 3)(c);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ(calls, 5u);
  EXPECT_EQ(r->report.wallSeconds, 2.0);
  EXPECT_EQ(r->outputs, (std::vector<std::vector<double>>{{4.0}}));
  // Even counts take the lower middle: 3, 1 -> 1 (the run made first of
  // the two sorted).
  calls = 2;
  r = medianOf(program, 0, 2)(c);
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->report.wallSeconds, 1.0);
  // No timed run is an error; a failing run stops the measurement.
  EXPECT_EQ(medianOf(program, 0, 0)(c).status().message(),
            "medianOf: reps must be at least 1");
  ScaledProgram failing = [&](const Configuration &) -> Expected<ProgramRun> {
    return Status(StatusCode::DeviceFault, "kernel faulted");
  };
  EXPECT_EQ(medianOf(failing, 1, 3)(c).status().code(),
            StatusCode::DeviceFault);
  // With a Tightness: past the reps, runs until the median's 95% interval
  // is within the bound (times only: the outputs stay the median run's of
  // the first reps), at most maxReps in all.
  std::vector<double> noisy = {1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2};
  unsigned n = 0;
  ScaledProgram alternating = [&](const Configuration &) -> Expected<ProgramRun> {
    ProgramRun r;
    r.report.wallSeconds = noisy.at(n % noisy.size());
    r.outputs = {{double(n)}};
    ++n;
    return r;
  };
  r = medianOf(alternating, 0, 3, Tightness{0.01, 10})(c);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ(n, 10u); // never within 1%: stops at maxReps
  EXPECT_EQ(r->report.wallSamples.size(), 10u);
  EXPECT_EQ(r->report.wallSeconds, 1.5); // the median of all ten
  // The outputs: the median run of the first three (1, 2, 1: the third).
  EXPECT_EQ(r->outputs, (std::vector<std::vector<double>>{{2.0}}));
  TrialResult tr = trialResult(*r, {{1.0}});
  EXPECT_EQ(tr.runs, 10u);
  EXPECT_EQ(tr.totalSeconds, 1.5);
  EXPECT_LE(tr.totalLo, 1.5);
  EXPECT_GE(tr.totalHi, 1.5);
  EXPECT_LT(tr.totalLo, tr.totalHi);
  // Constant times are tight at once: no run past the reps.
  ScaledProgram steady = [&](const Configuration &) -> Expected<ProgramRun> {
    ProgramRun q;
    q.report.wallSeconds = 2;
    ++n;
    return q;
  };
  n = 0;
  r = medianOf(steady, 0, 3, Tightness{0.01, 10})(c);
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(n, 3u);
  tr = trialResult(*r, {});
  EXPECT_EQ(tr.runs, 3u);
  EXPECT_EQ(tr.totalLo, 2.0);
  EXPECT_EQ(tr.totalHi, 2.0);
  // Without one, a single run is its own interval.
  n = 0;
  r = medianOf(steady, 0, 1)(c);
  ASSERT_TRUE(r.isOk());
  EXPECT_TRUE(r->report.wallSamples.empty());
  tr = trialResult(*r, {});
  EXPECT_EQ(tr.runs, 1u);
  EXPECT_EQ(tr.totalLo, tr.totalSeconds);
  // The index alone (also approx-scale's choice among profile runs).
  EXPECT_EQ(medianIndex({}), 0u);
  EXPECT_EQ(medianIndex({5}), 0u);
  EXPECT_EQ(medianIndex({3, 1, 2}), 2u);
  EXPECT_EQ(medianIndex({2, 2, 2}), 1u);
  EXPECT_EQ(medianIndex({4, 1, 3, 2}), 3u);
}
