//===- JointFakeTest.cpp - The joint search over a kernel, no GPU ---------===//
//
// tuneJoint through KernelEvaluator over the fake driver: the fake kernel
// `scale` (fake/TestModule.h) reads λ (a global knob) and `table` (a
// resource knob with two tables, 2x1 and 2x2 texels); its output error and
// time depend on both, so the joint pick must combine a table with a
// smaller λ than λ alone would take. Also: the launches the search makes
// are the trials it reports (nothing measured twice but the re-timings),
// and a fallback guard over the same evaluator.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "TestModule.h"

#include "approx/runtime/tune/JointTuner.h"
#include "approx/runtime/tune/KernelEvaluator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

using namespace approx::rt;
using approx::rt::fake::FakeDriver;
using approx::rt::fake::LaunchRecord;

namespace {

class JointFakeTest : public ::testing::Test {
protected:
  void SetUp() override {
    f.reset();
    ctx = *detail::createContext(f.table(), 0);
    char tmpl[] = "/tmp/approx-joint-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir = tmpl;
    std::ofstream(dir + "/fake.ptx") << fake::kTestPtx;
    std::ofstream(dir + "/fake.manifest.json") << fake::testManifest().dump();
    Expected<std::unique_ptr<Module>> m =
        Module::load(ctx, dir + "/fake.manifest.json");
    ASSERT_TRUE(m.isOk()) << m.status().toString();
    mod = m.take();
    // x *= 1 + 1e-3 λ + 0.02 [2-D table]; 10 ms - 0.05 λ - 3 [2-D].
    f.setKernel("scale", [this](LaunchRecord &r) {
      float *x = r.ptr<float>(1);
      int64_t n = r.param<int64_t>(3);
      double l = double(r.global("lambda"));
      const fake::FakeTexture *t = f.texture(uint64_t(r.global("table_tex")));
      double wide = t && t->height > 1 ? 1 : 0; // the 2x2 table
      for (int64_t i = 0; i < n; ++i)
        x[i] *= float(1 + 1e-3 * l + 0.02 * wide);
      r.durationMs = 10 - 0.05 * l - 3 * wide;
      return CUDA_SUCCESS;
    });
  }
  void TearDown() override {
    mod.reset();
    ctx.reset();
    EXPECT_EQ(f.liveAllocations(), 0u);
    EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
  }

  std::unique_ptr<KernelEvaluator> evaluator(float scale = 1) {
    EvaluatorOptions o;
    o.kernel = "scale";
    o.knob = "lambda";
    o.launch.grid.x = 8;
    o.launch.block.x = 256;
    o.timing.warmup = 0;
    o.timing.reps = 1;
    Config ref = preciseConfig(mod->manifest());
    ref.values["table"] = 0; // the narrow table is the reference's
    o.reference = ref;
    std::vector<float> in(256);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = scale * (1 + float(i % 7));
    Expected<std::unique_ptr<KernelEvaluator>> ev = KernelEvaluator::create(
        *mod,
        {ArgSpec::inputOf(ScalarType::F32, {256}, in, true),
         ArgSpec::value(Arg::integer(256))},
        o);
    EXPECT_TRUE(ev.isOk()) << ev.status().toString();
    return ev ? ev.take() : nullptr;
  }

  FakeDriver &f = FakeDriver::get();
  std::shared_ptr<Context> ctx;
  std::unique_ptr<Module> mod;
  std::string dir;
};

} // namespace

TEST_F(JointFakeTest, CombinesAResourceKnobWithLambda) {
  std::unique_ptr<KernelEvaluator> ev = evaluator();
  ASSERT_TRUE(ev);
  JointOptions o;
  o.qosBound = 0.05;
  o.knobs = {"lambda", "table"};
  o.reference = ev->referenceConfig();
  o.grid = [](const KnobInfo &) {
    std::vector<int64_t> g;
    for (int64_t l = 4; l <= 64; l += 4)
      g.push_back(l);
    return g;
  };
  Expected<JointResult> r = tuneJoint(*ev, o);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  // Alone: λ 48 (E 0.048, 7.6 ms) or the 2x2 table (E 0.02, 7 ms, the
  // single pick); together: the table and λ 28 (E 0.048), 5.6 ms.
  EXPECT_EQ(r->singlePick.valueOf(mod->manifest(), "table"), 1);
  EXPECT_EQ(r->singlePick.valueOf(mod->manifest(), "lambda"), 0);
  EXPECT_EQ(r->pick.valueOf(mod->manifest(), "table"), 1);
  EXPECT_EQ(r->pick.valueOf(mod->manifest(), "lambda"), 28);
  EXPECT_TRUE(r->jointWon);
  EXPECT_NEAR(r->pickTimeMs, 5.6, 1e-3);
  EXPECT_LE(r->pickError, 0.05);
  // Each trial is one timed launch plus the reference's and the outputs':
  // no configuration was timed twice but the three re-timings.
  int retimes = 0;
  for (const JointTrial &t : r->trials)
    retimes += t.phase == JointTrial::Phase::Retime;
  EXPECT_EQ(retimes, 3);
  EXPECT_LE(r->measured, o.budget);

  // The guard on an input whose values make no difference to relative
  // errors keeps the pick; the ladder ends at the reference.
  ASSERT_GE(r->ladder.size(), 2u);
  EXPECT_EQ(configText(mod->manifest(), r->ladder.back()),
            configText(mod->manifest(), r->reference));
  std::unique_ptr<KernelEvaluator> other = evaluator(3);
  FallbackGuard g(r->ladder, 0.05, 2);
  for (int i = 0; i < 4; ++i) {
    Expected<Evaluation> e = g.invoke(*other);
    ASSERT_TRUE(e.isOk()) << e.status().toString();
    EXPECT_LE(e->error, 0.05);
  }
  EXPECT_EQ(g.fallbacks(), 0);
  EXPECT_EQ(g.checks(), 2);
  // A tighter bound on the other input makes the guard fall back.
  FallbackGuard tight(r->ladder, 0.03, 1);
  Expected<Evaluation> e = tight.invoke(*other);
  ASSERT_TRUE(e.isOk());
  EXPECT_LE(e->error, 0.03);
  EXPECT_GE(tight.fallbacks(), 1);
}

TEST_F(JointFakeTest, ABuildKnobOutsideTheModuleIsOneLine) {
  // The fake module has no build knob; a configuration naming an unknown
  // knob is refused by the evaluator before any launch.
  std::unique_ptr<KernelEvaluator> ev = evaluator();
  ASSERT_TRUE(ev);
  size_t before = f.launches.size();
  JointOptions o;
  o.qosBound = 0.05;
  o.knobs = {"storage__x"};
  Expected<JointResult> r = tuneJoint(*ev, o);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("unknown knob 'storage__x'"),
            std::string::npos);
  EXPECT_EQ(f.launches.size(), before);
}
