//===- DecisionTest.cpp - PreScaler's decision maker ----------------------===//
//
// Algorithm 2 against the two recorded machines (different methods for
// different sizes and machines); Algorithm 1 with PFP on a synthetic
// application whose trials are computed, not run: its time is the
// database's prediction of every move plus a kernel time that depends on
// the storage types, its quality 1 - the sum of per-object errors of the
// narrowest type each object's data pass through (transient intermediates
// included), and it overflows where told. Each test checks the exact
// configuration chosen and the exact trials run, so a change in the search
// order, the stop rule, the wildcard test or the bound shows.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/Decision.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <unistd.h>

using namespace approx::rt;
using namespace approx::rt::precision;

namespace {

const ScalarType F64 = ScalarType::F64, F32 = ScalarType::F32,
                 F16 = ScalarType::F16, BF16 = ScalarType::BF16;

SystemDb loadDb(const char *name) {
  Expected<SystemDb> db =
      loadSystemDb(std::string(APPROX_PRECISION_TEST_DATA) + "/" + name);
  EXPECT_TRUE(db.isOk()) << db.status().toString();
  return db ? *db : SystemDb{};
}
const char *kA100 = "a100-pcie4-epyc64.json";
const char *kH100 = "h100-pcie5-xeon16.json";

constexpr uint64_t k256M = (256u << 20) / 8; // elements of a 256 MiB f64

ObjectProfile object(const std::string &name, uint64_t n, double h2dSeconds,
                     double d2hSeconds = -1) {
  ObjectProfile o;
  o.name = name;
  o.declared = F64;
  o.elements = n;
  if (h2dSeconds >= 0) {
    o.events.push_back({Direction::H2D, h2dSeconds, 0});
    o.readBy = {"k"};
  }
  if (d2hSeconds >= 0) {
    o.events.push_back({Direction::D2H, d2hSeconds, 0});
    o.writtenBy = {"k"};
  }
  return o;
}

int rank(ScalarType t) {
  return t == F64 ? 0 : t == F32 ? 1 : t == F16 ? 2 : 3;
}

/// The synthetic application.
struct Synth {
  const SystemDb *db = nullptr;
  AppProfile app;
  /// err[object][type]: the object's contribution to the mean relative
  /// error when its data pass through `type`.
  std::map<std::string, std::map<ScalarType, double>> err;
  std::set<std::pair<std::string, ScalarType>> overflowAt;
  double other = 0.002;   ///< host time outside kernels and transfers
  double kernel = 0.005;  ///< kernel time with f64/f32 storage
  double halfPenalty = 0; ///< extra kernel time per object at f16/bf16
  /// The kernel time scales with the bytes of storage (memory-bound
  /// kernel) instead of being constant.
  bool kernelScalesWithBytes = false;
  int calls = 0;

  Synth(const SystemDb &d) : db(&d) {
    app.kernels = {{"k", 0.005, false}};
  }

  double kernelOf(const Configuration &c) const {
    double k = kernel;
    if (kernelScalesWithBytes) {
      double now = 0, declared = 0;
      for (const ObjectChoice &o : c.objects) {
        now += double(scalarTypeSize(o.storage));
        declared += double(scalarTypeSize(o.declared));
      }
      k *= now / declared;
    }
    for (const ObjectChoice &o : c.objects)
      if (o.storage == F16 || o.storage == BF16)
        k += halfPenalty;
    return k;
  }

  Expected<TrialResult> operator()(const Configuration &c) {
    ++calls;
    TrialResult r;
    double e = 0, moves = 0;
    for (const ObjectChoice &o : c.objects) {
      ScalarType eff = o.storage;
      bool over = overflowAt.count({o.name, o.storage}) > 0;
      for (const Method *m : {&o.h2d, &o.d2h})
        if (m->kind == Method::Transient) {
          if (rank(m->intermediate) > rank(eff))
            eff = m->intermediate;
          over = over || overflowAt.count({o.name, m->intermediate});
        }
      auto it = err.find(o.name);
      if (it != err.end() && it->second.count(eff))
        e += it->second.at(eff);
      r.overflow = r.overflow || over;
      const ObjectProfile *p = nullptr;
      for (const ObjectProfile &q : app.objects)
        if (q.name == o.name)
          p = &q;
      for (const TransferEvent &ev : p->events) {
        Expected<double> t = db->predictMove(
            o.declared, o.storage, ev.direction,
            ev.elements ? ev.elements : p->elements,
            ev.direction == Direction::H2D ? o.h2d : o.d2h,
            MoveMemory{p->hostMemory, HostMemory::Pinned});
        if (!t)
          return t.status();
        moves += *t;
      }
    }
    r.quality = 1 - e;
    r.kernelSeconds = kernelOf(c);
    r.totalSeconds = other + r.kernelSeconds + moves;
    return r;
  }

  /// Sets the profile's times to the original configuration's.
  void profile() {
    double total = other + kernel;
    for (ObjectProfile &o : app.objects)
      for (TransferEvent &ev : o.events) {
        ev.seconds = *db->predictMove(F64, F64, ev.direction, o.elements,
                                      Method::copy(),
                                      MoveMemory{o.hostMemory,
                                                 HostMemory::Pinned});
        total += ev.seconds;
      }
    app.kernels[0].seconds = kernel;
    app.totalSeconds = total;
  }

  Trial trial() {
    return [this](const Configuration &c) { return (*this)(c); };
  }
};

/// "phase object: storage types" of each trial, to compare logs exactly.
std::vector<std::string> log(const Decision &d) {
  std::vector<std::string> r;
  for (const TrialRecord &t : d.trials) {
    std::string s = t.phase + (t.object.empty() ? "" : " " + t.object) + ":";
    for (const ObjectChoice &o : t.config.objects) {
      s += std::string(" ") + scalarTypeName(o.storage);
      for (const Method *m : {&o.h2d, &o.d2h})
        if (m->kind == Method::Transient)
          s += std::string("~") + scalarTypeName(m->intermediate);
    }
    s += t.pass ? " pass" : " fail";
    r.push_back(s);
  }
  return r;
}

std::string types(const Configuration &c) {
  std::string s;
  for (const ObjectChoice &o : c.objects)
    s += (s.empty() ? "" : " ") + o.name + "=" + scalarTypeName(o.storage);
  return s;
}

} // namespace

//===----------------------------------------------------------------------===//
// Algorithm 2
//===----------------------------------------------------------------------===//

TEST(Decision, BestMethodBySize) {
  SystemDb a = loadDb(kA100);
  MethodSet published = strategy(StrategyKind::PreScaler).methods;
  published.transient = false;
  // 64 KiB of f64 to f16: starting 64 threads costs more than it saves
  // (1.2 GB/s recorded at 64 KiB), the one-thread loop wins.
  ObjectProfile small = object("s", 8192, 0);
  Expected<MethodChoice> m =
      bestMethod(a, small, F16, Direction::H2D, published, {});
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(m->method.str(), "host(t=1)");
  // 256 MiB: the 64-thread conversion of the whole array. The recorded
  // host pipeline converts 4 MiB chunks, where 64 threads reach only
  // ~16 GB/s: slower here.
  ObjectProfile big = object("b", k256M, 0);
  m = bestMethod(a, big, F16, Direction::H2D, published, {});
  ASSERT_TRUE(m.isOk());
  EXPECT_EQ(m->method.str(), "host(t=64)");
  EXPECT_LT(m->seconds,
            *a.predictMove(F64, F16, Direction::H2D, k256M,
                           Method::pipelined(Where::Host, 64, 4u << 20)));
  // The predicted time is that method's predictMove.
  MethodSet direct = published;
  direct.pipelinedHost = false;
  m = bestMethod(a, big, F16, Direction::H2D, direct, {});
  EXPECT_EQ(m->method.str(), "host(t=64)");
  EXPECT_DOUBLE_EQ(m->seconds,
                   *a.predictMove(F64, F16, Direction::H2D, k256M,
                                  Method::host(64)));
  // Only the device: its method, or a one-line error when it is excluded
  // and nothing else is allowed.
  MethodSet none;
  none.host = none.device = none.pipelinedHost = none.pipelinedDevice = false;
  Expected<MethodChoice> e = bestMethod(a, big, F16, Direction::H2D, none, {});
  EXPECT_EQ(e.status().code(), StatusCode::NotFound);
  EXPECT_EQ(e.status().message(),
            "cannot move object 'b' (f64 stored as f16, h2d): the precision "
            "database has no conversion table for f64 -> f16 among the "
            "methods allowed");
  // No event in the direction: none, 0 s. Same type: copy.
  m = bestMethod(a, big, F16, Direction::D2H, published, {});
  EXPECT_EQ(m->method.str(), "none");
  EXPECT_EQ(m->seconds, 0.0);
  m = bestMethod(a, big, F64, Direction::H2D, published, {});
  EXPECT_EQ(m->method.str(), "copy");
  // Two events: the sum of both (a quarter of the object, then all of it).
  ObjectProfile two = big;
  two.events = {{Direction::H2D, 0, k256M / 4}, {Direction::H2D, 0, 0}};
  m = bestMethod(a, two, F16, Direction::H2D, direct, {});
  EXPECT_DOUBLE_EQ(
      m->seconds,
      *a.predictMove(F64, F16, Direction::H2D, k256M / 4, m->method) +
          *a.predictMove(F64, F16, Direction::H2D, k256M, m->method));
}

TEST(Decision, BestMethodByMachine) {
  // 256 MiB of f64 in pinned memory, stored as f32, direct methods only.
  // A100 host (PCIe 4, 64 cores): converting on the host (64 threads,
  // 110 GB/s) and sending half the bytes beats sending the f64 array at
  // 25 GB/s. H100 host (PCIe 5, 16 cores, 55 GB/s): sending the f64 array
  // and converting on the device wins.
  MethodSet direct;
  direct.pipelinedHost = direct.pipelinedDevice = direct.transient = false;
  ObjectProfile o = object("x", k256M, 0);
  o.hostMemory = HostMemory::Pinned;
  SystemDb a = loadDb(kA100), h = loadDb(kH100);
  Expected<MethodChoice> ma = bestMethod(a, o, F32, Direction::H2D, direct, {});
  Expected<MethodChoice> mh = bestMethod(h, o, F32, Direction::H2D, direct, {});
  ASSERT_TRUE(ma.isOk() && mh.isOk());
  EXPECT_EQ(ma->method.str(), "host(t=64)");
  EXPECT_EQ(mh->method.str(), "device");
  // The same object in pageable memory on the H100 host: the pageable copy
  // of the f64 array (14.5 GB/s) is slower than 16 threads + a pinned copy.
  o.hostMemory = HostMemory::Pageable;
  mh = bestMethod(h, o, F32, Direction::H2D, direct, {});
  EXPECT_EQ(mh->method.str(), "host(t=16)");
  // With pipelining on the device allowed (ours), the H100 pipeline wins.
  MethodSet ours = strategy(StrategyKind::Ours).methods;
  ours.transient = false;
  mh = bestMethod(h, o, F32, Direction::H2D, ours, {});
  EXPECT_EQ(mh->method.str(), "pipelined(device,chunk=4194304)");
}

TEST(Decision, BestMethodTransient) {
  // Storing f64 as f32 but moving it as f16: host f64 -> f16, a quarter of
  // the bytes over PCIe, device f16 -> f32.
  SystemDb a = loadDb(kA100);
  ObjectProfile o = object("x", k256M, 0);
  Expected<MethodChoice> m = bestMethod(a, o, F32, Direction::H2D, true);
  ASSERT_TRUE(m.isOk());
  EXPECT_EQ(m->method.str(), "transient(f16,t=64)");
  Expected<MethodChoice> direct = bestMethod(a, o, F32, Direction::H2D, false);
  EXPECT_LT(m->seconds, direct->seconds);
}

//===----------------------------------------------------------------------===//
// Algorithm 1
//===----------------------------------------------------------------------===//

TEST(Decision, ToqOutsideRange) {
  SystemDb a = loadDb(kA100);
  Synth s(a);
  s.app.objects = {object("A", k256M, 0)};
  s.profile();
  for (double toq : {0.0, -0.5, 1.0000001, 2.0, double(NAN)}) {
    DecisionOptions o;
    o.toq = toq;
    Expected<Decision> d = decide(a, s.app, o, s.trial());
    ASSERT_FALSE(d.isOk()) << toq;
    EXPECT_EQ(d.status().code(), StatusCode::InvalidArgument);
    EXPECT_EQ(d.status().message(),
              "TOQ " + std::to_string(toq) +
                  " is not in (0, 1] (0.9: mean relative error <= 10%)");
  }
  EXPECT_EQ(s.calls, 0);
  DecisionOptions o;
  o.toq = 1.0; // exact: only configurations without error pass
  EXPECT_TRUE(decide(a, s.app, o, s.trial()).isOk());
}

TEST(Decision, BadInputs) {
  SystemDb a = loadDb(kA100);
  Synth s(a);
  s.app.objects = {object("A", k256M, 0)};
  s.profile();
  DecisionOptions o;
  auto err = [&](const AppProfile &app, const DecisionOptions &opt) {
    Expected<Decision> d = decide(a, app, opt, s.trial());
    return d ? std::string() : d.status().message();
  };
  DecisionOptions bad = o;
  bad.types = {F64, F16, F32};
  EXPECT_EQ(err(s.app, bad), "storage types must be distinct and in "
                             "descending precision (f64, f32, f16, bf16): "
                             "f32 follows f16");
  bad.types = {F32, ScalarType::I32};
  EXPECT_EQ(err(s.app, bad), "storage type i32 is not f64, f32, f16 or bf16");
  AppProfile app = s.app;
  app.objects.push_back(app.objects[0]);
  EXPECT_EQ(err(app, o), "object 'A' appears twice in the profile");
  app = s.app;
  app.objects[0].readBy = {"nope"};
  EXPECT_EQ(err(app, o), "object 'A' names kernel 'nope', which the profile "
                         "does not list");
  app = s.app;
  app.objects[0].events[0].elements = k256M + 1;
  EXPECT_EQ(err(app, o), "object 'A': a transfer of 33554433 elements is "
                         "larger than the object (33554432)");
  app = s.app;
  app.totalSeconds = 0;
  EXPECT_EQ(err(app, o), "the profile's total time 0.000000 s is not a "
                         "positive number");
  // A trial that fails or reports nonsense stops the search, saying which.
  Trial broken = [](const Configuration &) -> Expected<TrialResult> {
    return Status(StatusCode::DeviceFault, "kernel faulted");
  };
  Expected<Decision> d = decide(a, s.app, o, broken);
  EXPECT_EQ(d.status().code(), StatusCode::DeviceFault);
  EXPECT_EQ(d.status().message().rfind("trial 1 (A=f32[h2d:", 0), 0u)
      << d.status().message();
  Trial zero = [](const Configuration &) -> Expected<TrialResult> {
    TrialResult r;
    r.quality = 1;
    return r;
  };
  d = decide(a, s.app, o, zero);
  EXPECT_EQ(d.status().message(), "trial 1 reported a total time of 0.000000 "
                                  "s (expected a positive number)");
  // A database without any transfer table.
  SystemDb empty;
  d = decide(empty, s.app, o, s.trial());
  EXPECT_EQ(d.status().message(),
            "cannot move object 'A' (f64 stored as f64, h2d): precision "
            "database has no pageable h2d transfer table");
}

TEST(Decision, QualityDropsAtF16ForOneObject) {
  // A (input) tolerates f16; B (output) fails the TOQ at f16, so its search
  // stops there: bf16 is never tried for B.
  SystemDb a = loadDb(kA100);
  Synth s(a);
  s.app.objects = {object("A", k256M, 0), object("B", k256M / 2, -1, 0)};
  s.err["A"] = {{F32, 0.001}, {F16, 0.02}, {BF16, 0.05}};
  s.err["B"] = {{F32, 0.001}, {F16, 0.2}, {BF16, 0.4}};
  s.profile();
  for (StrategyKind k : {StrategyKind::PreScaler, StrategyKind::Ours}) {
    s.calls = 0;
    Expected<Decision> d = decideWith(k, a, s.app, {}, s.trial());
    ASSERT_TRUE(d.isOk()) << d.status().toString();
    EXPECT_EQ(types(d->config), "A=f16 B=f32") << strategyName(k);
    std::vector<std::string> expect = {
        "pfp: f32 f32 pass", "pfp: f16 f16 fail", "pfp: bf16 bf16 fail",
        "normal A: f16 f32 pass", "normal A: bf16 f32 pass",
        // B at f16 with A at f16 is PFP's all-f16 (failed): not run again,
        // and B's search stops there, bf16 untried.
        // B's wildcard: D2H through f16 (the failed type) is predicted
        // faster; its accuracy trial fails, so B keeps the direct method.
        "wildcard B: f16 f32~f16 fail"};
    EXPECT_EQ(log(*d), expect) << strategyName(k);
    EXPECT_EQ(int(d->trials.size()), s.calls);
    EXPECT_EQ(d->trialBound, 10u);
    EXPECT_FALSE(d->budgetExhausted);
    EXPECT_NE(d->config.find("B")->d2h.kind, Method::Transient);
    // The final configuration was run: measured = predicted (the synthetic
    // app's time is the database's model).
    ASSERT_TRUE(d->measuredSeconds.has_value());
    EXPECT_NEAR(d->predictedSeconds, *d->measuredSeconds, 1e-12);
    EXPECT_LT(*d->measuredSeconds, d->baselineSeconds);
  }
}

TEST(Decision, OverflowAtF16) {
  // C's values exceed 65504: f16 overflows (a TOQ failure). D fails the TOQ
  // at bf16, so PFP's all-f16 and all-bf16 fail and PFP keeps all-f32.
  // PreScaler stops C's search at the f16 failure; ours goes on to bf16,
  // whose range is f32's, and stores C as bf16.
  SystemDb a = loadDb(kA100);
  Synth s(a);
  s.app.objects = {object("C", k256M, 0), object("D", k256M / 2, 0)};
  s.err["C"] = {{F32, 0.0}, {BF16, 0.03}};
  s.err["D"] = {{F32, 0.0}, {F16, 0.01}, {BF16, 0.2}};
  s.overflowAt = {{"C", F16}};
  s.profile();
  Expected<Decision> p = decideWith(StrategyKind::PreScaler, a, s.app, {},
                                    s.trial());
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  EXPECT_EQ(types(p->config), "C=f32 D=f16");
  EXPECT_EQ(log(*p), (std::vector<std::string>{
                         "pfp: f32 f32 pass", "pfp: f16 f16 fail",
                         "pfp: bf16 bf16 fail", "normal C: f16 f32 fail",
                         // Moving C as f16 (the failed type) is predicted
                         // faster: its accuracy trial overflows.
                         "wildcard C: f32~f16 f32 fail",
                         "normal D: f32 f16 pass", "normal D: f32 bf16 fail"}));
  EXPECT_TRUE(p->trials[3].result.overflow);
  Expected<Decision> o = decideWith(StrategyKind::Ours, a, s.app, {},
                                    s.trial());
  ASSERT_TRUE(o.isOk()) << o.status().toString();
  EXPECT_EQ(types(o->config), "C=bf16 D=f16");
  EXPECT_EQ(log(*o), (std::vector<std::string>{
                         "pfp: f32 f32 pass", "pfp: f16 f16 fail",
                         "pfp: bf16 bf16 fail", "normal C: f16 f32 fail",
                         "normal C: bf16 f32 pass",
                         "wildcard C: f32~f16 f32 fail",
                         // D at bf16 with C at bf16 is PFP's all-bf16: not
                         // run again.
                         "normal D: bf16 f16 pass"}));
  EXPECT_EQ(int(o->trials.size()), 7);
  EXPECT_LT(*o->measuredSeconds, *p->measuredSeconds);
}

TEST(Decision, WildcardChosenWhenTransientIsFaster) {
  // One 256 MiB input; the kernel is 4 ms slower per object stored in f16
  // or bf16 (slow half arithmetic, as on compute capability 6.1). Storing
  // f32 but moving f16 (transient) gets both: the wildcard.
  SystemDb a = loadDb(kA100);
  Synth s(a);
  s.halfPenalty = 0.004;
  s.app.objects = {object("A", k256M, 0)};
  s.err["A"] = {{F32, 0.001}, {F16, 0.01}, {BF16, 0.03}};
  s.profile();
  // PreScaler: the intermediate f16 passed the TOQ as a storage type, so no
  // trial (Algorithm 1, line 24): the wildcard is taken as predicted.
  Expected<Decision> p = decideWith(StrategyKind::PreScaler, a, s.app, {},
                                    s.trial());
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  EXPECT_EQ(log(*p), (std::vector<std::string>{"pfp: f32 pass",
                                               "pfp: f16 pass",
                                               "pfp: bf16 pass"}));
  const ObjectChoice *c = p->config.find("A");
  EXPECT_EQ(c->storage, F32);
  EXPECT_EQ(c->h2d.str(), "transient(f16,t=64)");
  EXPECT_FALSE(p->measuredSeconds.has_value()); // never run
  // Ours: the data pass through f16, which cannot hold every f32: one
  // accuracy trial, and the measured time must beat the normal best.
  Expected<Decision> o = decideWith(StrategyKind::Ours, a, s.app, {},
                                    s.trial());
  ASSERT_TRUE(o.isOk());
  EXPECT_EQ(log(*o), (std::vector<std::string>{
                         "pfp: f32 pass", "pfp: f16 pass", "pfp: bf16 pass",
                         "wildcard A: f32~f16 pass"}));
  EXPECT_EQ(o->config.find("A")->h2d.str(), "transient(f16,t=64)");
  ASSERT_TRUE(o->measuredSeconds.has_value());
  EXPECT_NEAR(o->predictedSeconds, *o->measuredSeconds, 1e-12);
  // Faster than every configuration the normal search ran.
  for (const TrialRecord &t : o->trials) {
    if (t.phase != "wildcard") {
      EXPECT_LT(*o->measuredSeconds, t.result.totalSeconds);
    }
  }
}

TEST(Decision, WildcardRejectedWhenItsAccuracyTrialFails) {
  // The same, but A fails the TOQ at f16: the wildcard through f16 (the
  // failed type) is tried, fails, and A keeps f32 with a direct method.
  SystemDb a = loadDb(kA100);
  Synth s(a);
  s.halfPenalty = 0.004;
  s.app.objects = {object("A", k256M, 0)};
  s.err["A"] = {{F32, 0.001}, {F16, 0.2}, {BF16, 0.3}};
  s.profile();
  for (StrategyKind k : {StrategyKind::PreScaler, StrategyKind::Ours}) {
    Expected<Decision> d = decideWith(k, a, s.app, {}, s.trial());
    ASSERT_TRUE(d.isOk()) << d.status().toString();
    EXPECT_EQ(log(*d), (std::vector<std::string>{
                           "pfp: f32 pass", "pfp: f16 fail", "pfp: bf16 fail",
                           "wildcard A: f32~f16 fail"}))
        << strategyName(k);
    const ObjectChoice *c = d->config.find("A");
    EXPECT_EQ(c->storage, F32);
    EXPECT_NE(c->h2d.kind, Method::Transient);
    EXPECT_EQ(*d->quality, 1 - 0.001);
  }
}

TEST(Decision, TrialBound) {
  // Three 256 MiB f64 inputs, every type passing, half arithmetic slow:
  // PFP picks all-f32; each object then tries f16 and bf16 and a wildcard
  // (f32 moved as f16). With the types f32, f16, bf16 (3 types; f64 is the
  // declared type, not listed) PFP runs 3 trials and each object 3: 12 =
  // 3 x (1 + 3), exactly the bound.
  SystemDb a = loadDb(kA100);
  Synth s(a);
  s.halfPenalty = 0.004;
  s.app.objects = {object("A", k256M, 0.03), object("B", k256M, 0.02),
                   object("C", k256M, 0.01)};
  for (const char *n : {"A", "B", "C"})
    s.err[n] = {{F32, 0.001}, {F16, 0.002}, {BF16, 0.003}};
  s.profile();
  DecisionOptions opt;
  opt.types = {F32, F16, BF16};
  Expected<Decision> d = decideWith(StrategyKind::Ours, a, s.app, opt,
                                    s.trial());
  ASSERT_TRUE(d.isOk()) << d.status().toString();
  EXPECT_EQ(d->trialBound, 12u);
  EXPECT_EQ(d->trials.size(), 12u);
  EXPECT_FALSE(d->budgetExhausted);
  EXPECT_EQ(s.calls, 12);
  // Two objects: the same search would need 3 + 3 + 3 = 9 > 2 x 4 = 8. The
  // bound is enforced: the last trial (B's wildcard) is not run, B keeps
  // its normal best, and the decision says so.
  s.app.objects.pop_back();
  s.profile();
  s.calls = 0;
  d = decideWith(StrategyKind::Ours, a, s.app, opt, s.trial());
  ASSERT_TRUE(d.isOk());
  EXPECT_EQ(d->trialBound, 8u);
  EXPECT_EQ(d->trials.size(), 8u);
  EXPECT_TRUE(d->budgetExhausted);
  EXPECT_EQ(s.calls, 8);
  EXPECT_EQ(log(*d).back(), "normal B: f32~f16 bf16 pass");
  EXPECT_EQ(d->config.find("A")->h2d.str(), "transient(f16,t=64)");
  EXPECT_EQ(d->config.find("B")->storage, F32);
  EXPECT_NE(d->config.find("B")->h2d.kind, Method::Transient);
  // With the four default types the bound is 2 x 5 = 10 and holds.
  s.calls = 0;
  d = decideWith(StrategyKind::Ours, a, s.app, {}, s.trial());
  ASSERT_TRUE(d.isOk());
  EXPECT_EQ(d->trialBound, 10u);
  EXPECT_LE(d->trials.size(), 10u);
  EXPECT_FALSE(d->budgetExhausted);
}

TEST(Decision, Baselines) {
  SystemDb a = loadDb(kA100);
  Synth s(a);
  s.app.objects = {object("A", k256M, 0), object("B", k256M / 2, -1, 0)};
  s.err["A"] = {{F32, 0.001}, {F16, 0.02}, {BF16, 0.05}};
  s.err["B"] = {{F32, 0.001}, {F16, 0.03}, {BF16, 0.2}};
  s.kernel = 0.05; // a memory-bound kernel: in-kernel scaling pays too
  s.kernelScalesWithBytes = true;
  s.profile();
  // PFP: one type for all, the 64-thread host conversion or the device.
  Expected<Decision> pfp = decideWith(StrategyKind::Pfp, a, s.app, {},
                                      s.trial());
  ASSERT_TRUE(pfp.isOk()) << pfp.status().toString();
  EXPECT_EQ(types(pfp->config), "A=f16 B=f16");
  EXPECT_EQ(log(*pfp), (std::vector<std::string>{"pfp: f32 f32 pass",
                                                 "pfp: f16 f16 pass",
                                                 "pfp: bf16 bf16 fail"}));
  for (const ObjectChoice &c : pfp->config.objects)
    for (const Method *m : {&c.h2d, &c.d2h})
      EXPECT_TRUE(m->kind == Method::None || m->kind == Method::Device ||
                  m->str() == "host(t=64)")
          << m->str();
  // In-kernel: every conversion on the device, transfers full size.
  Expected<Decision> ik = decideWith(StrategyKind::InKernel, a, s.app, {},
                                     s.trial());
  ASSERT_TRUE(ik.isOk()) << ik.status().toString();
  for (const TrialRecord &t : ik->trials)
    for (const ObjectChoice &c : t.config.objects)
      for (const Method *m : {&c.h2d, &c.d2h})
        EXPECT_TRUE(m->kind == Method::None || m->kind == Method::Device ||
                    m->kind == Method::Copy);
  // Ours is never slower than the baselines here, PreScaler not slower than
  // PFP.
  Expected<Decision> pre = decideWith(StrategyKind::PreScaler, a, s.app, {},
                                      s.trial());
  Expected<Decision> ours = decideWith(StrategyKind::Ours, a, s.app, {},
                                       s.trial());
  ASSERT_TRUE(pre.isOk() && ours.isOk());
  EXPECT_LE(*ours->measuredSeconds, *pre->measuredSeconds);
  EXPECT_LE(*pre->measuredSeconds, *pfp->measuredSeconds);
  EXPECT_LT(*pfp->measuredSeconds, *ik->measuredSeconds);
  EXPECT_LT(*ik->measuredSeconds, s.app.totalSeconds);
  EXPECT_EQ(ours->config.strategy, "ours");
}

//===----------------------------------------------------------------------===//
// The configuration file
//===----------------------------------------------------------------------===//

namespace {

Configuration sampleConfig() {
  Configuration c;
  c.toq = 0.9;
  c.strategy = "ours";
  c.objects = {
      {"A", F64, F32, Method::transient(F16, 64), Method::none()},
      {"B", F64, F16, Method::pipelined(Where::Host, 16, 4u << 20),
       Method::host(1)},
      {"C", F32, BF16, Method::device(),
       Method::pipelined(Where::Device, 0, 1u << 20)},
      {"D", F32, F32, Method::copy(), Method::copy()}};
  KernelChoice k;
  k.name = "k";
  k.storage = {{"A", F32}, {"B", F16}};
  KernelChoice k2;
  k2.name = "k2";
  k2.compute = F32;
  k2.storage = {{"C", BF16}};
  c.kernels = {k, k2};
  return c;
}

std::string cfgError(const std::string &text) {
  Expected<Configuration> c = parseConfiguration(text);
  EXPECT_FALSE(c.isOk());
  if (c)
    return "";
  EXPECT_EQ(c.status().code(), StatusCode::ParseError);
  return c.status().message();
}

std::string withObject(const std::string &obj,
                       const std::string &kernels = "[]") {
  return R"({"format": "approx-precision-config", "version": 1, "toq": 0.9,
    "strategy": "ours", "objects": [)" +
         obj + R"(], "kernels": )" + kernels + "}";
}

} // namespace

TEST(Decision, ConfigurationRoundTrip) {
  Configuration c = sampleConfig();
  std::string text = configurationToJson(c);
  Expected<Configuration> back = parseConfiguration(text);
  ASSERT_TRUE(back.isOk()) << back.status().toString();
  EXPECT_EQ(back->key(), c.key());
  EXPECT_EQ(configurationToJson(*back), text);
  EXPECT_EQ(c.key(),
            "A=f32[h2d:transient(f16,t=64),d2h:none] "
            "B=f16[h2d:pipelined(host,t=16,chunk=4194304),d2h:host(t=1)] "
            "C=bf16[h2d:device,d2h:pipelined(device,chunk=1048576)] "
            "D=f32[h2d:copy,d2h:copy] k2.compute=f32");
  // The stable text of one object.
  EXPECT_NE(text.find(R"("h2d": {
    "intermediate": "f16",
    "kind": "transient",
    "threads": 64
   })"),
            std::string::npos)
      << text;
  std::string path = testing::TempDir() + "/cfg-" + std::to_string(getpid()) +
                     ".json";
  ASSERT_TRUE(saveConfiguration(c, path).isOk());
  Expected<Configuration> f = loadConfiguration(path);
  ASSERT_TRUE(f.isOk()) << f.status().toString();
  EXPECT_EQ(f->key(), c.key());
  EXPECT_EQ(f->kernels[1].compute, F32);
  EXPECT_FALSE(f->kernels[0].compute.has_value());
  std::remove(path.c_str());

  // changesNothing: every object in its declared type, no compute type.
  EXPECT_FALSE(c.changesNothing());
  Configuration same = c;
  for (ObjectChoice &o : same.objects) {
    o.storage = o.declared;
    o.h2d = o.h2d.kind == Method::None ? o.h2d : Method::copy();
    o.d2h = o.d2h.kind == Method::None ? o.d2h : Method::copy();
  }
  EXPECT_FALSE(same.changesNothing()); // k2 computes in f32
  for (KernelChoice &k : same.kernels)
    k.compute.reset();
  EXPECT_TRUE(same.changesNothing());
  same.objects[3].storage = F16;
  EXPECT_FALSE(same.changesNothing());
  // A decision's configuration round-trips too.
  SystemDb a = loadDb(kA100);
  Synth s(a);
  s.app.objects = {object("A", k256M, 0)};
  s.err["A"] = {{F16, 0.01}};
  s.profile();
  Expected<Decision> d = decide(a, s.app, {}, s.trial());
  ASSERT_TRUE(d.isOk());
  back = parseConfiguration(configurationToJson(d->config));
  ASSERT_TRUE(back.isOk()) << back.status().toString();
  EXPECT_EQ(back->key(), d->config.key());
  EXPECT_NE(decisionToJson(*d).find("\"trial_bound\": 5"), std::string::npos);
}

TEST(Decision, BadConfigurationFiles) {
  const std::string ok =
      R"({"name": "A", "declared": "f64", "storage": "f16", "h2d": {"kind": "host", "threads": 4}, "d2h": {"kind": "none"}})";
  EXPECT_TRUE(parseConfiguration(withObject(ok)).isOk());
  struct Case {
    std::string text, message;
  };
  std::vector<Case> cases = {
      {R"({"format": "approx-precision-db", "version": 1})",
       "precision config: format: 'approx-precision-db' is not "
       "'approx-precision-config'"},
      {R"({"format": "approx-precision-config", "version": 7})",
       "precision config: version: 7 is not supported (this build reads "
       "version 1)"},
      {R"({"format": "approx-precision-config", "version": 1, "toq": 1.5})",
       "precision config: toq: 1.500000 is not in (0, 1]"},
      {R"({"format": "approx-precision-config", "version": 1, "toq": 0.9, "strategy": "x", "objects": [], "kernels": [], "more": 1})",
       "precision config: more: unknown field"},
      {withObject(R"({"name": "A", "declared": "f64", "storage": "f12", "h2d": {"kind": "none"}, "d2h": {"kind": "none"}})"),
       "precision config: objects[0].storage: unknown type 'f12' (expected "
       "f64, f32, f16 or bf16)"},
      {withObject(R"({"name": "A", "declared": "f32", "storage": "f64", "h2d": {"kind": "none"}, "d2h": {"kind": "none"}})"),
       "precision config: objects[0].storage: f64 is not narrower than the "
       "declared f32"},
      {withObject(R"({"name": "A", "declared": "f16", "storage": "bf16", "h2d": {"kind": "none"}, "d2h": {"kind": "none"}})"),
       "precision config: objects[0].storage: bf16 is not narrower than the "
       "declared f16"},
      {withObject(ok + "," + ok),
       "precision config: objects[1].name: 'A' names a second object"},
      {withObject(R"({"name": "A", "declared": "f64", "storage": "f16", "h2d": {"kind": "copy"}, "d2h": {"kind": "none"}})"),
       "precision config: objects[0].h2d: copy cannot move f64 stored as "
       "f16"},
      {withObject(R"({"name": "A", "declared": "f64", "storage": "f64", "h2d": {"kind": "device"}, "d2h": {"kind": "none"}})"),
       "precision config: objects[0].h2d: method device converts, but "
       "storage is the declared type f64 (use copy)"},
      {withObject(R"({"name": "A", "declared": "f64", "storage": "f16", "h2d": {"kind": "host"}, "d2h": {"kind": "none"}})"),
       "precision config: objects[0].h2d.threads: missing"},
      {withObject(R"({"name": "A", "declared": "f64", "storage": "f16", "h2d": {"kind": "host", "threads": 0}, "d2h": {"kind": "none"}})"),
       "precision config: objects[0].h2d.threads: 0 is out of range [1, "
       "1048576]"},
      {withObject(R"({"name": "A", "declared": "f64", "storage": "f16", "h2d": {"kind": "transient", "threads": 2, "intermediate": "f16"}, "d2h": {"kind": "none"}})"),
       "precision config: objects[0].h2d.intermediate: f16 is the declared "
       "or storage type (not transient)"},
      {withObject(R"({"name": "A", "declared": "f64", "storage": "f16", "h2d": {"kind": "pipelined", "where": "device", "chunk": 0}, "d2h": {"kind": "none"}})"),
       "precision config: objects[0].h2d.chunk: 0 is out of range [1, "
       "1125899906842624]"},
      {withObject(R"({"name": "A", "declared": "f64", "storage": "f16", "h2d": {"kind": "pipelined", "where": "device", "threads": 4, "chunk": 8}, "d2h": {"kind": "none"}})"),
       "precision config: objects[0].h2d.threads: unknown field"},
      {withObject(R"({"name": "A", "declared": "f64", "storage": "f16", "h2d": {"kind": "magic"}, "d2h": {"kind": "none"}})"),
       "precision config: objects[0].h2d.kind: unknown method 'magic' "
       "(expected none, copy, host, device, transient or pipelined)"},
      {withObject(R"({"name": "A", "declared": "f64", "storage": "f16", "h2d": {"kind": "none"}})"),
       "precision config: objects[0].d2h: missing"},
      {withObject(ok, R"([{"name": "k", "compute": "keep", "storage": {"Z": "f16"}}])"),
       "precision config: kernels[0].storage.Z: names no object of the "
       "configuration"},
      {withObject(ok, R"([{"name": "k", "compute": "keep", "storage": {"A": "f32"}}])"),
       "precision config: kernels[0].storage.A: f32 is not the object's "
       "storage type f16"},
      {withObject(ok, R"([{"name": "k", "compute": "f8", "storage": {}}])"),
       "precision config: kernels[0].compute: unknown type 'f8' (expected "
       "keep, f64, f32, f16 or bf16)"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(cfgError(c.text), c.message) << c.text;
  EXPECT_EQ(cfgError("{,").rfind("precision config: <root>: not valid JSON: ",
                                 0),
            0u);
  Expected<Configuration> f = loadConfiguration("/nonexistent/cfg.json");
  EXPECT_FALSE(f.isOk());
}

TEST(Decision, StagedCopyConfigurationIsTheStagingControl) {
  AppProfile app;
  app.objects = {object("A", 1000, 0.01), object("y", 10, 0.001, 0.001),
                 object("out", 10, -1, 0.001)};
  app.kernels = {{"k", 0.002, false}};
  app.totalSeconds = 0.02;
  Configuration c = stagedCopyConfiguration(app, 16);
  ASSERT_EQ(c.objects.size(), 3u);
  // Every object in its declared type; each profiled direction a staged
  // copy by 16 threads, the others none.
  EXPECT_EQ(c.key(), "A=f64[h2d:host(t=16),d2h:none] "
                     "y=f64[h2d:host(t=16),d2h:host(t=16)] "
                     "out=f64[h2d:none,d2h:host(t=16)]");
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].storage.size(), 3u);
  EXPECT_EQ(c.strategy, "staged-copy");
  EXPECT_EQ(c.toq, 1);
  // Not the program itself: its moves differ.
  EXPECT_FALSE(c.changesNothing());
  // A configuration file may say so (host between equal types), and it
  // round-trips; the other conversions between equal types stay refused.
  Expected<Configuration> back = parseConfiguration(configurationToJson(c));
  ASSERT_TRUE(back.isOk()) << back.status().toString();
  EXPECT_EQ(back->key(), c.key());
  EXPECT_EQ(
      cfgError(withObject(
          R"({"name": "A", "declared": "f64", "storage": "f64", "h2d": {"kind": "pipelined", "where": "host", "threads": 2, "chunk": 8}, "d2h": {"kind": "none"}})")),
      "precision config: objects[0].h2d: method pipelined converts, but "
      "storage is the declared type f64 (use copy)");
  // 0 threads is taken as 1.
  EXPECT_EQ(stagedCopyConfiguration(app, 0).objects[0].h2d, Method::host(1));
}
