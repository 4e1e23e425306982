//===- TunerTest.cpp - SMP / HEU / OMG over recorded and synthetic curves -===//
//
// SMP, HEU and OMG over CurveEvaluator (no GPU): exact answers on monotone
// curves, the QoS on jagged and noisy ones, run counts.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/Tuner.h"

#include <cmath>
#include <gtest/gtest.h>
#include <random>

using namespace approx::rt;

namespace {

/// T falls linearly from 10 to 4 ms, E rises as emax*(λ/lmax)^p.
CurveEvaluator powerCurve(int64_t lmax, double emax, double p) {
  std::vector<double> t, e;
  for (int64_t l = 0; l <= lmax; ++l) {
    t.push_back(10.0 - 6.0 * double(l) / double(lmax));
    e.push_back(emax * std::pow(double(l) / double(lmax), p));
  }
  return CurveEvaluator(t, e);
}

/// The largest λ meeting `bound` on the curve (brute force).
int64_t bestLambda(CurveEvaluator &c, double bound) {
  int64_t best = 0;
  for (int64_t l = 0; l <= c.lambdaMax(); ++l)
    if (c.evaluate(l)->error <= bound)
      best = l;
  return best;
}

TuneOptions absQoS(double q) {
  TuneOptions o;
  o.qos = QoS::absolute(q);
  return o;
}

} // namespace

TEST(Tuner, QoSBound) {
  EXPECT_DOUBLE_EQ(QoS::ratio(0.8).bound(0.3), 0.24);
  EXPECT_DOUBLE_EQ(QoS::absolute(1e-5).bound(0.3), 1e-5);
  EXPECT_FALSE(QoS::absolute(-1).validate().isOk());
  EXPECT_FALSE(QoS::ratio(NAN).validate().isOk());
}

TEST(Tuner, ParseMethod) {
  EXPECT_EQ(*parseTuneMethod("HEU"), TuneMethod::Heu);
  EXPECT_EQ(*parseTuneMethod("smp"), TuneMethod::Smp);
  EXPECT_EQ(*parseTuneMethod("omg"), TuneMethod::Omg);
  EXPECT_FALSE(parseTuneMethod("newton").isOk());
}

TEST(Tuner, LinearCurveAllMethodsAgree) {
  // E = 1e-5 * λ/64: QoS 0.85e-5 -> λ* = 54.
  for (TuneMethod m : {TuneMethod::Smp, TuneMethod::Heu, TuneMethod::Omg}) {
    CurveEvaluator c = powerCurve(64, 1e-5, 1.0);
    Expected<TuneResult> r = tune(c, m, absQoS(0.85e-5));
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    EXPECT_EQ(r->lambda, 54) << tuneMethodName(m);
    EXPECT_TRUE(r->satisfied);
    EXPECT_LE(r->error, 0.85e-5);
    EXPECT_EQ(r->baseTimeMs, 10.0);
    EXPECT_EQ(r->lambdaMax, 64);
    EXPECT_EQ(size_t(r->runs), r->trace.size());
    EXPECT_EQ(r->trace.front().lambda, 0);
  }
}

TEST(Tuner, RunCounts) {
  CurveEvaluator c1 = powerCurve(64, 1e-5, 1.0);
  EXPECT_EQ(tune(c1, TuneMethod::Omg, absQoS(0.85e-5))->runs, 65);
  CurveEvaluator c2 = powerCurve(64, 1e-5, 1.0);
  // SMP: 0, then 64 down to 54.
  EXPECT_EQ(tune(c2, TuneMethod::Smp, absQoS(0.85e-5))->runs, 1 + 11);
  CurveEvaluator c3 = powerCurve(64, 1e-5, 1.0);
  Expected<TuneResult> h = tune(c3, TuneMethod::Heu, absQoS(0.85e-5));
  // 0, 64, the line's point (54): E(54) lies in the band below the QoS.
  EXPECT_LE(h->runs, 4);
}

TEST(Tuner, QoSRatioUsesSfuError) {
  CurveEvaluator c = powerCurve(48, 0.3, 1.0);
  TuneOptions o;
  o.qos = QoS::ratio(0.8);
  Expected<TuneResult> r = tune(c, TuneMethod::Heu, o);
  ASSERT_TRUE(r.isOk());
  EXPECT_DOUBLE_EQ(r->sfuError, 0.3);
  EXPECT_DOUBLE_EQ(r->qosBound, 0.24);
  EXPECT_EQ(r->lambda, 38); // 0.3*38/48 = 0.2375 <= 0.24 < 0.24375
}

TEST(Tuner, SfuAlreadyMeetsQoS) {
  // §6: HEU returns λmax at once when the pure-SFU error is acceptable.
  for (TuneMethod m : {TuneMethod::Smp, TuneMethod::Heu}) {
    CurveEvaluator c = powerCurve(64, 1e-7, 1.0);
    Expected<TuneResult> r = tune(c, m, absQoS(1e-5));
    ASSERT_TRUE(r.isOk());
    EXPECT_EQ(r->lambda, 64);
    EXPECT_EQ(r->runs, 2);
  }
}

TEST(Tuner, ZeroQoSGivesPrecise) {
  for (TuneMethod m : {TuneMethod::Smp, TuneMethod::Heu, TuneMethod::Omg}) {
    CurveEvaluator c = powerCurve(16, 1e-3, 1.0);
    Expected<TuneResult> r = tune(c, m, absQoS(0.0));
    ASSERT_TRUE(r.isOk());
    EXPECT_EQ(r->lambda, 0) << tuneMethodName(m);
    EXPECT_TRUE(r->satisfied);
  }
}

TEST(Tuner, LambdaMaxZero) {
  CurveEvaluator c({5.0}, {0.0});
  Expected<TuneResult> r = tune(c, TuneMethod::Heu, absQoS(1.0));
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->lambda, 0);
  EXPECT_EQ(r->runs, 1);
}

TEST(Tuner, ConvexAndConcaveCurvesHeuExactOnMonotone) {
  // With no tolerance band both line rules end on the exact boundary.
  for (bool secant : {true, false}) {
    for (double p : {0.3, 0.5, 1.0, 2.0, 4.0}) {
      for (double frac : {0.05, 0.3, 0.5, 0.8, 0.99}) {
        CurveEvaluator ref = powerCurve(64, 1.0, p);
        int64_t want = bestLambda(ref, frac);
        CurveEvaluator c = powerCurve(64, 1.0, p);
        TuneOptions o = absQoS(frac);
        o.heuTolerance = 0;
        o.heuPredictStop = false;
        o.heuSecant = secant;
        Expected<TuneResult> r = tune(c, TuneMethod::Heu, o);
        ASSERT_TRUE(r.isOk());
        EXPECT_EQ(r->lambda, want)
            << "p=" << p << " q=" << frac << " secant=" << secant;
        EXPECT_LE(r->error, frac);
      }
    }
  }
}

TEST(Tuner, HeuToleranceBandStopsEarlyAndStaysFeasible) {
  // Concave E (like the sm_90 measurements): the default secant + 2% band
  // stops within a step or two of the boundary in few runs.
  for (double frac : {0.3, 0.5, 0.8}) {
    CurveEvaluator ref = powerCurve(64, 1.0, 0.5);
    int64_t want = bestLambda(ref, frac);
    CurveEvaluator c = powerCurve(64, 1.0, 0.5);
    Expected<TuneResult> r = tune(c, TuneMethod::Heu, absQoS(frac));
    ASSERT_TRUE(r.isOk());
    EXPECT_LE(r->error, frac);
    EXPECT_LE(want - r->lambda, 2);
    EXPECT_LE(r->runs, 8);
  }
}

TEST(Tuner, RecordedJaggedCurve) {
  // A recorded non-smooth E (like NBO/CFD/BIF in the paper's Figure 4):
  // a bump above the QoS at λ=20 and a dip below it at λ=40.
  std::vector<double> t, e;
  for (int l = 0; l <= 48; ++l) {
    t.push_back(8.0 - 0.1 * l);
    double v = 0.01 * l;
    if (l == 20)
      v = 0.5;
    if (l == 40)
      v = 0.1;
    e.push_back(v);
  }
  double q = 0.25;
  for (TuneMethod m : {TuneMethod::Smp, TuneMethod::Heu, TuneMethod::Omg}) {
    CurveEvaluator c(t, e);
    Expected<TuneResult> r = tune(c, m, absQoS(q));
    ASSERT_TRUE(r.isOk());
    EXPECT_LE(r->error, q) << tuneMethodName(m);
    EXPECT_TRUE(r->satisfied);
  }
  CurveEvaluator c(t, e);
  Expected<TuneResult> omg = tune(c, TuneMethod::Omg, absQoS(q));
  EXPECT_EQ(omg->lambda, 40); // the fastest feasible point is the dip
  EXPECT_EQ(omg->maxFeasibleLambda, 40);
  CurveEvaluator c2(t, e);
  EXPECT_EQ(tune(c2, TuneMethod::Smp, absQoS(q))->lambda, 40);
}

TEST(Tuner, HeuWideToleranceStaysFeasible) {
  // A wide band with a kinked curve: the answer still meets the QoS.
  std::vector<double> t, e;
  for (int l = 0; l <= 64; ++l) {
    t.push_back(10.0 - 0.1 * l);
    e.push_back(l <= 30 ? 0.01 * l : 0.3 + 0.05 * (l - 30));
  }
  TuneOptions o = absQoS(0.32);
  o.heuTolerance = 0.1;
  CurveEvaluator c(t, e);
  Expected<TuneResult> r = tune(c, TuneMethod::Heu, o);
  ASSERT_TRUE(r.isOk());
  EXPECT_LE(r->error, 0.32);
  EXPECT_TRUE(r->satisfied);
}

TEST(Tuner, RandomNoisyCurvesAlwaysMeetQoS) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(0, 1);
  double heuRuns = 0;
  int trials = 500;
  for (int trial = 0; trial < trials; ++trial) {
    int64_t lmax = 8 + int64_t(u(rng) * 56);
    std::vector<double> t, e;
    double p = 0.5 + 2 * u(rng), noise = 0.05 * u(rng);
    for (int64_t l = 0; l <= lmax; ++l) {
      t.push_back(10 - 5 * double(l) / lmax + 0.05 * u(rng));
      double base = std::pow(double(l) / lmax, p);
      e.push_back(l == 0 ? 0 : std::max(0.0, base + noise * (u(rng) - 0.5)));
    }
    TuneOptions o;
    o.qos = QoS::ratio(0.1 + 0.8 * u(rng));
    for (TuneMethod m : {TuneMethod::Smp, TuneMethod::Heu, TuneMethod::Omg}) {
      CurveEvaluator c(t, e);
      Expected<TuneResult> r = tune(c, m, o);
      ASSERT_TRUE(r.isOk());
      ASSERT_LE(r->error, r->qosBound) << tuneMethodName(m) << " " << trial;
      ASSERT_LE(r->lambda, lmax);
      if (m == TuneMethod::Heu)
        heuRuns += r->runs;
    }
  }
  // Smooth-ish curves: HEU stays cheap on average.
  EXPECT_LT(heuRuns / trials, 8.0);
}

TEST(Tuner, EvaluatorErrorsPropagate) {
  CurveEvaluator c({1, 2}, {0, 1}, /*lambdaMax=*/5); // curve too short
  Expected<TuneResult> r = tune(c, TuneMethod::Smp, absQoS(0.5));
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), StatusCode::OutOfRange);
  EXPECT_NE(r.status().message().find("SMP at lambda 5"), std::string::npos);
}

TEST(Tuner, EvaluatesEachLambdaOnce) {
  CurveEvaluator c = powerCurve(64, 1.0, 1.0);
  Expected<TuneResult> r = tune(c, TuneMethod::Heu, absQoS(0.5));
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(c.calls(), r->runs);
}

//===----------------------------------------------------------------------===//
// Non-monotone curves: HEU's answer meets the QoS by construction
//===----------------------------------------------------------------------===//

TEST(Tuner, HeuOnSawToothCurvesAlwaysMeetsTheQoS) {
  // E rises with λ but falls back at every tooth, so the line through two
  // points can land anywhere; the answer must still be a measured point with
  // E <= QoS (the bracket's lower end), never an unmeasured or violating λ.
  int trials = 0;
  for (int64_t lmax : {8, 31, 64, 97}) {
    for (int period : {2, 3, 5, 7, 16}) {
      for (double tooth : {0.05, 0.3, 1.0, 3.0}) {
        for (bool descending : {false, true}) {
          std::vector<double> t, e;
          for (int64_t l = 0; l <= lmax; ++l) {
            double phase = double(l % period) / double(period);
            double saw = descending ? 1.0 - phase : phase;
            t.push_back(10.0 - 0.05 * double(l));
            e.push_back(l == 0 ? 0.0
                               : 0.01 * double(l) + tooth * saw * 0.1);
          }
          double emax = e.back();
          for (double frac : {0.05, 0.2, 0.5, 0.8, 0.95, 1.5}) {
            for (double tol : {0.0, 0.02, 0.3}) {
              for (bool secant : {true, false}) {
                CurveEvaluator c(t, e);
                TuneOptions o;
                o.qos = QoS::absolute(frac * emax);
                o.heuTolerance = tol;
                o.heuSecant = secant;
                Expected<TuneResult> r = tune(c, TuneMethod::Heu, o);
                ASSERT_TRUE(r.isOk());
                ++trials;
                ASSERT_TRUE(r->satisfied)
                    << "lmax " << lmax << " period " << period << " tooth "
                    << tooth << " frac " << frac;
                ASSERT_LE(r->error, o.qos.value);
                ASSERT_EQ(r->error, e[size_t(r->lambda)]);
                bool measured = false;
                for (const TunePoint &p : r->trace)
                  measured |= p.lambda == r->lambda;
                ASSERT_TRUE(measured);
                ASSERT_EQ(c.calls(), r->runs); // each λ measured once
              }
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(trials, 4 * 5 * 4 * 2 * 6 * 3 * 2);
}

TEST(Tuner, HeuAnswerIsTheBracketsLowerEndOnAnAdversarialCurve) {
  // Every unmeasured λ below λmax violates the QoS except λ = 1: the lines
  // keep landing on violating points, the bracket closes, and the answer is
  // the last satisfied point.
  std::vector<double> t, e;
  for (int l = 0; l <= 40; ++l) {
    t.push_back(5.0);
    e.push_back(l == 0 ? 0.0 : (l == 1 ? 0.01 : 1.0));
  }
  e.back() = 2.0;
  for (bool secant : {true, false}) {
    CurveEvaluator c(t, e);
    TuneOptions o;
    o.qos = QoS::absolute(0.5);
    o.heuSecant = secant;
    Expected<TuneResult> r = tune(c, TuneMethod::Heu, o);
    ASSERT_TRUE(r.isOk());
    EXPECT_LE(r->error, 0.5);
    EXPECT_TRUE(r->satisfied);
    EXPECT_LE(r->lambda, 1);
  }
}

//===----------------------------------------------------------------------===//
// Sticky device faults
//===----------------------------------------------------------------------===//

namespace {

/// Replays a curve; at `faultAt` it answers a sticky device fault and from
/// then on is unhealthy (as KernelEvaluator is).
class FaultingEvaluator : public Evaluator {
public:
  FaultingEvaluator(int64_t lmax, int64_t faultAt, bool sticky = true)
      : lmax_(lmax), faultAt_(faultAt), sticky_(sticky) {}
  Expected<TunePoint> evaluate(int64_t lambda) override {
    ++calls;
    if (!fault_.isOk())
      return fault_;
    if (lambda == faultAt_) {
      Status s = Status::fromCuda(sticky_ ? 700 : 1, "cuCtxSynchronize",
                                  "cuCtxSynchronize failed");
      if (sticky_)
        fault_ = s;
      return s;
    }
    return TunePoint{lambda, 10.0 - 0.1 * double(lambda),
                     0.01 * double(lambda)};
  }
  int64_t lambdaMax() const override { return lmax_; }
  Status health() const override { return fault_; }
  int calls = 0;

private:
  int64_t lmax_, faultAt_;
  bool sticky_;
  Status fault_;
};

} // namespace

TEST(Tuner, StopsAtAStickyFaultAndRefusesToStartAfterIt) {
  for (TuneMethod m : {TuneMethod::Smp, TuneMethod::Heu, TuneMethod::Omg}) {
    // SMP measures 0, 64, 63; OMG 0, 64, then 1.. up to 63; HEU 0, 64, 63
    // (E(64) = 0.64 > 0.635 >= E(63), the line's root lies at 63.5).
    FaultingEvaluator ev(64, 63);
    TuneOptions o;
    o.qos = QoS::absolute(0.635);
    o.heuTolerance = 0;
    Expected<TuneResult> r = tune(ev, m, o);
    ASSERT_FALSE(r.isOk()) << tuneMethodName(m);
    EXPECT_TRUE(isStickyFault(r.status()));
    EXPECT_NE(r.status().message().find(std::string(tuneMethodName(m)) +
                                        " at lambda 63"),
              std::string::npos)
        << r.status().message();
    int calls = ev.calls;
    // The fault was the last evaluation: nothing was asked after it.
    EXPECT_EQ(calls, m == TuneMethod::Omg ? 2 + 63 : 3)
        << tuneMethodName(m);
    for (TuneMethod again : {TuneMethod::Smp, TuneMethod::Heu,
                             TuneMethod::Omg}) {
      Expected<TuneResult> r2 = tune(ev, again, o);
      ASSERT_FALSE(r2.isOk());
      EXPECT_TRUE(isStickyFault(r2.status()));
      EXPECT_NE(r2.status().message().find("not started"), std::string::npos);
    }
    EXPECT_EQ(ev.calls, calls);
  }
}

TEST(Tuner, NonStickyErrorsEndOneSearchOnly) {
  FaultingEvaluator ev(16, 16, /*sticky=*/false);
  TuneOptions o;
  o.qos = QoS::absolute(0.05);
  Expected<TuneResult> r = tune(ev, TuneMethod::Heu, o);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_FALSE(isStickyFault(r.status()));
  EXPECT_TRUE(ev.health().isOk());
  int calls = ev.calls;
  o.lambdaMax = 8; // a search that avoids the failing λ runs
  r = tune(ev, TuneMethod::Heu, o);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_GT(ev.calls, calls);
  EXPECT_EQ(r->lambda, 5);
}

TEST(Tuner, HeuPredictedStopExactOnLinearAndConcave) {
  // The line from a satisfied point to the violating end lies below a
  // concave (or on a linear) E, so a predicted miss is a real one.
  for (double p : {0.3, 0.5, 1.0}) {
    for (double frac : {0.05, 0.3, 0.5, 0.8, 0.99}) {
      CurveEvaluator ref = powerCurve(64, 1.0, p);
      int64_t want = bestLambda(ref, frac);
      CurveEvaluator c = powerCurve(64, 1.0, p);
      TuneOptions o = absQoS(frac);
      o.heuTolerance = 0;
      Expected<TuneResult> r = tune(c, TuneMethod::Heu, o);
      ASSERT_TRUE(r.isOk());
      EXPECT_EQ(r->lambda, want) << "p=" << p << " q=" << frac;
    }
  }
}

TEST(Tuner, SearchGrid) {
  EXPECT_EQ(searchGrid(8, 4), (std::vector<int64_t>{0, 4, 8}));
  EXPECT_EQ(searchGrid(10, 4), (std::vector<int64_t>{0, 4, 8, 10}));
  EXPECT_EQ(searchGrid(3, 1), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(searchGrid(0, 4), (std::vector<int64_t>{0}));
}

/// Hopper's shape: T falls only at multiples of 4, E rises at every λ.
CurveEvaluator staircase(int64_t lmax) {
  std::vector<double> t, e;
  for (int64_t l = 0; l <= lmax; ++l) {
    t.push_back(10.0 - 6.0 * double(l / 4 * 4) / double(lmax));
    e.push_back(double(l) / double(lmax));
  }
  return CurveEvaluator(t, e);
}

TEST(Tuner, GridSearchesVisitStepsOnlyAndMatchOmgTime) {
  for (double frac : {0.1, 0.33, 0.5, 0.8, 0.97}) {
    CurveEvaluator omgCurve = staircase(64);
    Expected<TuneResult> omg = tune(omgCurve, TuneMethod::Omg, absQoS(frac));
    ASSERT_TRUE(omg.isOk());
    for (TuneMethod m : {TuneMethod::Heu, TuneMethod::Smp}) {
      CurveEvaluator c = staircase(64);
      TuneOptions o = absQoS(frac);
      o.lambdaStep = 4;
      Expected<TuneResult> r = tune(c, m, o);
      ASSERT_TRUE(r.isOk());
      for (const TunePoint &p : r->trace)
        EXPECT_EQ(p.lambda % 4, 0) << tuneMethodName(m);
      EXPECT_LE(r->error, frac);
      EXPECT_DOUBLE_EQ(r->timeMs, omg->timeMs)
          << tuneMethodName(m) << " q=" << frac;
    }
  }
  CurveEvaluator c = staircase(64);
  TuneOptions o = absQoS(0.5);
  o.lambdaStep = 0;
  EXPECT_FALSE(tune(c, TuneMethod::Heu, o).isOk());
}

TEST(Tuner, HeuStopsWhenTheBracketHasNoTimeToGain) {
  // A memory-bound kernel: the SFU saves 0.5% of the time. HEU measures
  // both ends, sees nothing to gain, and keeps λ = 0 (no error at all).
  std::vector<double> t, e;
  for (int l = 0; l <= 64; ++l) {
    t.push_back(1.0 - 0.005 * l / 64.0);
    e.push_back(l / 64.0);
  }
  CurveEvaluator c(t, e);
  Expected<TuneResult> r = tune(c, TuneMethod::Heu, absQoS(0.5));
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->runs, 2);
  EXPECT_EQ(r->lambda, 0);
  // Off: the search goes on to the boundary.
  CurveEvaluator c2(t, e);
  TuneOptions o = absQoS(0.5);
  o.heuTimeTolerance = 0;
  r = tune(c2, TuneMethod::Heu, o);
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->lambda, 32);
}

TEST(Tuner, PaperRuleTakesNoShortcut) {
  // No time to gain (T flat within 0.5%): this implementation stops after
  // λ = 0 and λmax on its 1% time tolerance; the paper's rule still walks
  // the bracket until E reaches the QoS. Where there is a gain, both return
  // a point that meets the QoS, the paper's rule in no fewer runs.
  std::vector<double> t(65), e(65);
  for (int l = 0; l <= 64; ++l) {
    t[size_t(l)] = 1.0 - 0.005 * l / 64.0;
    e[size_t(l)] = 1e-5 * std::pow(l / 64.0, 0.5); // concave
  }
  TuneOptions o;
  o.qos = QoS::ratio(0.5);
  o.lambdaStep = 4;
  CurveEvaluator flat1(t, e), flat2(t, e);
  Expected<TuneResult> ours = tune(flat1, TuneMethod::Heu, o);
  Expected<TuneResult> paper =
      tune(flat2, TuneMethod::Heu, paperHeuOptions(o));
  ASSERT_TRUE(ours.isOk() && paper.isOk());
  EXPECT_EQ(ours->runs, 2);
  EXPECT_GT(paper->runs, 2);
  EXPECT_LE(paper->error, paper->qosBound);
  for (int l = 0; l <= 64; ++l)
    t[size_t(l)] = 1.0 - 0.5 * l / 64.0; // 2x at λmax
  CurveEvaluator gain1(t, e), gain2(t, e);
  ours = tune(gain1, TuneMethod::Heu, o);
  paper = tune(gain2, TuneMethod::Heu, paperHeuOptions(o));
  ASSERT_TRUE(ours.isOk() && paper.isOk());
  EXPECT_LE(ours->error, ours->qosBound);
  EXPECT_LE(paper->error, paper->qosBound);
  EXPECT_GE(paper->runs, ours->runs);
}

//===----------------------------------------------------------------------===//
// T(λ)'s interval
//===----------------------------------------------------------------------===//

namespace {

/// A linear curve whose every T(λ) comes with a ±1% interval, as a
/// KernelEvaluator's measurements do.
class IntervalEvaluator : public Evaluator {
public:
  Expected<TunePoint> evaluate(int64_t lambda) override {
    const double t = 10.0 - 0.1 * double(lambda);
    return TunePoint{lambda, t, 0.01 * double(lambda), 0.99 * t, 1.01 * t};
  }
  int64_t lambdaMax() const override { return 64; }
};

} // namespace

TEST(Tuner, TracesKeepTheEvaluatorsIntervalAndCurvesHaveNone) {
  // Every point a search visits carries the interval its evaluator gave
  // (approx-tune's JSON writes it as time_ci95_ms).
  for (TuneMethod m : {TuneMethod::Smp, TuneMethod::Heu, TuneMethod::Omg}) {
    IntervalEvaluator ev;
    Expected<TuneResult> r = tune(ev, m, absQoS(0.3));
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    ASSERT_FALSE(r->trace.empty());
    for (const TunePoint &p : r->trace) {
      EXPECT_DOUBLE_EQ(p.timeLoMs, 0.99 * p.timeMs) << tuneMethodName(m);
      EXPECT_DOUBLE_EQ(p.timeHiMs, 1.01 * p.timeMs) << tuneMethodName(m);
    }
  }
  // Recorded curves have medians only: no interval, not a made-up one.
  CurveEvaluator c = powerCurve(8, 1e-3, 1);
  Expected<TunePoint> p = c.evaluate(4);
  ASSERT_TRUE(p.isOk());
  EXPECT_TRUE(std::isnan(p->timeLoMs));
  EXPECT_TRUE(std::isnan(p->timeHiMs));
}
