//===- ProgramEvaluatorTest.cpp - A whole program behind evaluate(Config) -===//
//
// ProgramEvaluator over a fake program (no GPU): the space it declares from a
// profile, the round trip between precision Configurations and Configs,
// what evaluate measures, failed and overflowing runs, and configurations
// outside the space.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/ProgramEvaluator.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace approx::rt;
using namespace approx::rt::precision;

namespace {

constexpr ScalarType F64 = ScalarType::F64, F32 = ScalarType::F32,
                     F16 = ScalarType::F16;

/// Two f64 objects: A read by kernel k (copied in), B written (copied out).
AppProfile profile() {
  AppProfile p;
  ObjectProfile a;
  a.name = "A";
  a.elements = 4;
  a.events.push_back({Direction::H2D, 1e-3, 0});
  a.readBy = {"k"};
  ObjectProfile b;
  b.name = "B";
  b.elements = 4;
  b.events.push_back({Direction::D2H, 1e-3, 0});
  b.writtenBy = {"k"};
  p.objects = {a, b};
  KernelProfile k;
  k.name = "k";
  k.seconds = 1e-3;
  p.kernels = {k};
  p.totalSeconds = 3e-3;
  return p;
}

const std::vector<std::vector<double>> kReference = {{}, {1, 2, 3, 4}};

/// The fake program: B's values off by 1e-3 (relative) when A is f16, 1e-7
/// when f32; faster the narrower A. Overflows when B is f16; fails when A is
/// f32 and B is f32.
ScaledProgram fakeProgram(std::vector<Configuration> *seen) {
  return [seen](const Configuration &c) -> Expected<ProgramRun> {
    if (seen)
      seen->push_back(c);
    const ObjectChoice *a = c.find("A"), *b = c.find("B");
    if (a->storage == F32 && b->storage == F32)
      return internalError("the program exited with status 3");
    double rel = a->storage == F16 ? 1e-3 : a->storage == F32 ? 1e-7 : 0;
    ProgramRun r;
    r.outputs = {{}, {}};
    for (double v : kReference[1])
      r.outputs[1].push_back(v * (1 + rel));
    r.report.wallSeconds = a->storage == F64 ? 3e-3 : 2e-3;
    if (b->storage == F16)
      r.report.overflowed = {"B"};
    return r;
  };
}

Configuration configWith(ScalarType a, ScalarType b, Method h2d = Method::copy()) {
  std::vector<ObjectChoice> objects = {
      {"A", F64, a, h2d, Method::none()},
      {"B", F64, b, Method::none(), b == F64 ? Method::copy() : Method::host(4)}};
  return configurationFor(profile(), objects);
}

} // namespace

TEST(ProgramEvaluator, SpaceOfTheProfile) {
  ProgramEvaluator ev(profile(), fakeProgram(nullptr), kReference);
  const Manifest &m = ev.space();
  ASSERT_EQ(m.knobs.size(), 6u);
  const KnobInfo *a = m.findKnob("o0");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->kind, KnobKind::Host);
  EXPECT_FALSE(a->hasSymbol());
  EXPECT_EQ(a->domain.kind, DomainKind::Storage);
  EXPECT_EQ(a->domain.objectName, "A");
  ASSERT_EQ(a->domain.values.size(), 4u); // f64, f32, f16, bf16
  EXPECT_EQ(a->domain.values[0].payload.storage, F64);
  EXPECT_EQ(a->domain.values[2].payload.storage, F16);
  // Value 0 of each method knob: the unchanged program's move.
  EXPECT_EQ(ev.methodOf("o0_h2d", 0), Method::copy());
  EXPECT_EQ(ev.methodOf("o0_d2h", 0), Method::none());
  EXPECT_EQ(ev.methodOf("o1_d2h", 0), Method::copy());
  EXPECT_EQ(std::string(knobKindName(a->kind)), "host");
}

TEST(ProgramEvaluator, ConfigurationsRoundTrip) {
  ProgramEvaluator ev(profile(), fakeProgram(nullptr), kReference);
  Configuration c = configWith(F16, F32, Method::device());
  Expected<Config> k = ev.configOf(c);
  ASSERT_TRUE(k.isOk()) << k.status().toString();
  EXPECT_EQ(k->values.at("o0"), 2);
  EXPECT_EQ(k->values.at("o0_h2d"), 1); // device: added as m1
  EXPECT_EQ(ev.space().findKnob("o0_h2d")->max, 1);
  EXPECT_EQ(ev.methodOf("o1_d2h", k->values.at("o1_d2h")), Method::host(4));
  Expected<Configuration> back = ev.configurationOf(*k);
  ASSERT_TRUE(back.isOk()) << back.status().toString();
  EXPECT_EQ(back->key(), c.key());
  ASSERT_EQ(back->kernels.size(), 1u);
  EXPECT_EQ(back->kernels[0].storage.size(), 2u);
  // The same method again is the same value; an earlier Config stays valid.
  Expected<Config> again = ev.configOf(configWith(F32, F64, Method::device()));
  ASSERT_TRUE(again.isOk());
  EXPECT_EQ(again->values.at("o0_h2d"), 1);
  EXPECT_TRUE(checkConfig(ev.space(), *k).isOk());
}

TEST(ProgramEvaluator, EvaluateMeasuresTheProgram) {
  std::vector<Configuration> seen;
  ProgramEvaluator ev(profile(), fakeProgram(&seen), kReference);
  Expected<Evaluation> exact = ev.evaluate(Config{});
  ASSERT_TRUE(exact.isOk()) << exact.status().toString();
  EXPECT_DOUBLE_EQ(exact->timeMs, 3.0);
  EXPECT_DOUBLE_EQ(exact->error, 0.0);
  EXPECT_EQ(exact->outputs, kReference[1]);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(seen[0].changesNothing()); // the defaults are the program

  Expected<Config> half = ev.configOf(configWith(F16, F64));
  ASSERT_TRUE(half.isOk());
  Expected<Evaluation> e = ev.evaluate(*half, false);
  ASSERT_TRUE(e.isOk());
  EXPECT_NEAR(e->error, 1e-3, 1e-9);
  EXPECT_DOUBLE_EQ(e->timeMs, 2.0);
  EXPECT_TRUE(e->outputs.empty());

  Expected<TrialResult> t = ev.trial(configWith(F16, F64));
  ASSERT_TRUE(t.isOk());
  EXPECT_NEAR(t->quality, 1 - 1e-3, 1e-9);
  EXPECT_FALSE(t->overflow);
}

TEST(ProgramEvaluator, OverflowAndFailure) {
  ProgramEvaluator ev(profile(), fakeProgram(nullptr), kReference);
  Expected<TrialResult> o = ev.trial(configWith(F64, F16));
  ASSERT_TRUE(o.isOk());
  EXPECT_TRUE(o->overflow);
  Expected<Evaluation> oe = ev.evaluate(*ev.configOf(configWith(F64, F16)));
  ASSERT_TRUE(oe.isOk());
  EXPECT_TRUE(std::isinf(oe->error));
  // Without a FailedRun, a failing run ends the search with its Status.
  Expected<TrialResult> f = ev.trial(configWith(F32, F32));
  ASSERT_FALSE(f.isOk());
  EXPECT_NE(f.status().message().find("exited with status 3"), std::string::npos);
  // With one, it is a failed trial.
  ProgramEvaluator lenient(
      profile(), fakeProgram(nullptr), kReference,
      [](const Configuration &, const Status &) -> std::optional<TrialResult> {
        TrialResult t;
        t.totalSeconds = 5e-3;
        return t;
      });
  Expected<TrialResult> g = lenient.trial(configWith(F32, F32));
  ASSERT_TRUE(g.isOk()) << g.status().toString();
  EXPECT_TRUE(g->failed);
  EXPECT_DOUBLE_EQ(g->totalSeconds, 5e-3);
}

TEST(ProgramEvaluator, OutsideTheSpace) {
  ProgramEvaluator ev(profile(), fakeProgram(nullptr), kReference,
                      {}, {F64, F32});
  // f16 is not a type of this space.
  Expected<Config> k = ev.configOf(configWith(F16, F64));
  ASSERT_FALSE(k.isOk());
  EXPECT_EQ(k.status().message(),
            "object 'A' stored as f16 is outside the space (declared f64)");
  Configuration missing = configWith(F64, F64);
  missing.objects.pop_back();
  Expected<Config> m = ev.configOf(missing);
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().message(),
            "the configuration has no entry for object 'B' of the profile");
  Config bad;
  bad.values["o0"] = 7;
  Expected<Evaluation> e = ev.evaluate(bad);
  ASSERT_FALSE(e.isOk());
  EXPECT_EQ(e.status().message(),
            "configuration: knob 'o0' at 7 lies outside [0, 1]");
  Config unknown;
  unknown.values["lambda"] = 0;
  EXPECT_FALSE(ev.evaluate(unknown).isOk());
}

TEST(ProgramEvaluator, StorageConfigurationOfTheJointTuner) {
  // The joint tuner's space: a module's knob plus a storage knob for A only
  // (f32 and f16 asked for); B keeps its type.
  AppProfile p = profile();
  Manifest space;
  space.module = "m";
  KnobInfo lambda;
  lambda.name = "lambda";
  lambda.max = 64;
  space.knobs.push_back(lambda);
  space.knobs.push_back(storageKnobOf(p.objects[0], "storage__A", {F32, F16}));
  const KnobInfo &s = space.knobs.back();
  ASSERT_EQ(s.domain.values.size(), 3u); // f64, f32, f16: bf16 not asked
  EXPECT_EQ(s.domain.values[0].id, "f64");
  EXPECT_EQ(s.max, 2);
  // An object of a non-float or narrowest type has no choice.
  ObjectProfile ints = p.objects[0];
  ints.declared = ScalarType::I32;
  EXPECT_EQ(storageKnobOf(ints, "storage__I", {F32, F16}).max, 0);

  Config c;
  c.values = {{"lambda", 8}, {"storage__A", 0}};
  Configuration plain = storageConfiguration(p, space, c, Method::host(8));
  EXPECT_TRUE(plain.changesNothing());
  c.values["storage__A"] = 2;
  Configuration f16 = storageConfiguration(p, space, c, Method::host(8));
  EXPECT_FALSE(f16.changesNothing());
  ASSERT_NE(f16.find("A"), nullptr);
  EXPECT_EQ(f16.find("A")->storage, F16);
  EXPECT_EQ(f16.find("A")->h2d, Method::host(8)); // converted as asked
  EXPECT_EQ(f16.find("A")->d2h, Method::none());   // never copied back
  EXPECT_EQ(f16.find("B")->storage, F64);
  EXPECT_EQ(f16.find("B")->d2h, Method::copy());
  // The kernel reading A runs the variant with A in f16.
  ASSERT_EQ(f16.kernels.size(), 1u);
  EXPECT_EQ(f16.kernels[0].storage,
            (std::vector<std::pair<std::string, ScalarType>>{{"A", F16},
                                                             {"B", F64}}));
}
