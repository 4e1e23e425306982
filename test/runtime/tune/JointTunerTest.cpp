//===- JointTunerTest.cpp - The joint search against brute force ----------===//
//
// tuneJoint over synthetic evaluators (no GPU), each checked against a
// brute-force oracle over the whole product space: separable curves,
// interacting (adversarial) errors, jagged ordinal curves, timing noise,
// categorical fronts with dominated values and a neutral block-shape knob,
// constraints, the budget; then verifyConfigs and FallbackGuard.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/JointTuner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

using namespace approx::rt;

namespace {

KnobInfo ordinal(const std::string &name, int64_t max) {
  KnobInfo k;
  k.name = name;
  k.kind = KnobKind::Host;
  k.min = 0;
  k.max = max;
  k.domain.kind = DomainKind::Ordinal;
  return k;
}

KnobInfo categorical(const std::string &name, int n) {
  KnobInfo k;
  k.name = name;
  k.kind = KnobKind::Host;
  k.min = 0;
  k.max = n - 1;
  k.domain.kind = DomainKind::Categorical;
  for (int i = 0; i < n; ++i) {
    KnobValue v;
    v.id = "v" + std::to_string(i);
    k.domain.values.push_back(v);
  }
  return k;
}

/// A space whose true time and error are functions of the configuration;
/// `noise` multiplies each measured time by a factor in [1-noise, 1+noise].
class Synthetic : public ConfigEvaluator {
public:
  using Fn = std::function<double(const std::map<std::string, int64_t> &)>;
  Synthetic(std::vector<KnobInfo> knobs, Fn time, Fn error,
            double noise = 0, unsigned seed = 1)
      : time_(std::move(time)), error_(std::move(error)), noise_(noise),
        rng_(seed) {
    m_.module = "synthetic";
    m_.knobs = std::move(knobs);
  }
  const Manifest &space() const override { return m_; }
  Expected<Evaluation> evaluate(const Config &c, bool) override {
    APPROX_RETURN_IF_ERROR(checkConfig(m_, c));
    ++calls;
    std::map<std::string, int64_t> v;
    for (const KnobInfo &k : m_.knobs)
      v[k.name] = c.valueOf(m_, k.name);
    double t = time_(v);
    if (noise_ > 0)
      t *= std::uniform_real_distribution<double>(1 - noise_, 1 + noise_)(rng_);
    return Evaluation{t, error_(v), {}};
  }
  double trueTime(const Config &c) const { return time_(values(c)); }
  double trueError(const Config &c) const { return error_(values(c)); }
  std::map<std::string, int64_t> values(const Config &c) const {
    std::map<std::string, int64_t> v;
    for (const KnobInfo &k : m_.knobs)
      v[k.name] = c.valueOf(m_, k.name);
    return v;
  }
  Manifest m_;
  int calls = 0;

private:
  Fn time_, error_;
  double noise_;
  std::mt19937 rng_;
};

/// Brute force: the fastest configuration (true time) meeting `bound`
/// (true error) over the whole product space, constraints respected.
struct Oracle {
  Config best;
  double time = INFINITY;
  /// The fastest configuration varying one knob alone.
  double singleTime = INFINITY;
};
Oracle bruteForce(const Synthetic &s, double bound) {
  Oracle o;
  const std::vector<KnobInfo> &ks = s.m_.knobs;
  std::vector<int64_t> cur(ks.size());
  for (size_t i = 0; i < ks.size(); ++i)
    cur[i] = ks[i].min;
  while (true) {
    Config c;
    int moved = 0;
    for (size_t i = 0; i < ks.size(); ++i) {
      c.values[ks[i].name] = cur[i];
      moved += cur[i] != 0;
    }
    if (checkConfig(s.m_, c).isOk() && s.trueError(c) <= bound) {
      double t = s.trueTime(c);
      if (t < o.time) {
        o.time = t;
        o.best = c;
      }
      if (moved <= 1)
        o.singleTime = std::min(o.singleTime, t);
    }
    size_t i = 0;
    while (i < ks.size() && ++cur[i] > ks[i].max)
      cur[i] = ks[i].min, ++i;
    if (i == ks.size())
      break;
  }
  return o;
}

double frac(int64_t v, int64_t max) { return double(v) / double(max); }

/// Three techniques: λ (0..64, time falls, error rises), a scheme (4
/// values: 0 exact, 3 dominated), a storage type (3 values).
Synthetic separable(double noise = 0, unsigned seed = 1) {
  return Synthetic(
      {ordinal("lambda", 64), categorical("scheme", 4),
       categorical("storage", 3)},
      [](const std::map<std::string, int64_t> &v) {
        const double scheme[] = {1.0, 0.75, 0.6, 0.8};
        const double storage[] = {1.0, 0.7, 0.55};
        return 10.0 * (1 - 0.4 * frac(v.at("lambda"), 64)) *
               scheme[v.at("scheme")] * storage[v.at("storage")];
      },
      [](const std::map<std::string, int64_t> &v) {
        const double scheme[] = {0, 0.01, 0.03, 0.05};
        const double storage[] = {0, 0.002, 0.04};
        return 0.02 * frac(v.at("lambda"), 64) + scheme[v.at("scheme")] +
               storage[v.at("storage")];
      },
      noise, seed);
}

/// Another input of the same space: `s`'s times, its errors times `factor`.
Synthetic scaledErrors(const Synthetic &s, double factor) {
  auto at = [&s](const std::map<std::string, int64_t> &v) {
    Config c;
    c.values = v;
    return c;
  };
  return Synthetic(
      s.m_.knobs,
      [&s, at](const std::map<std::string, int64_t> &v) {
        return s.trueTime(at(v));
      },
      [&s, at, factor](const std::map<std::string, int64_t> &v) {
        return factor * s.trueError(at(v));
      });
}

JointOptions options(double bound, int budget = 64) {
  JointOptions o;
  o.qosBound = bound;
  o.budget = budget;
  return o;
}

} // namespace

TEST(JointTuner, SeparableMatchesBruteForce) {
  for (double bound : {0.005, 0.015, 0.025, 0.035, 0.05, 0.1}) {
    Synthetic s = separable();
    Oracle o = bruteForce(s, bound);
    Expected<JointResult> r = tuneJoint(s, options(bound));
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    SCOPED_TRACE("bound " + std::to_string(bound) + ": pick " +
                 configText(s.m_, r->pick));
    EXPECT_LE(s.trueError(r->pick), bound);
    EXPECT_LE(s.trueTime(r->pick), o.singleTime + 1e-12);
    // The screening grid has 9 λ points: within one grid step of the best.
    EXPECT_LE(s.trueTime(r->pick), o.time * 1.06);
    EXPECT_LE(r->measured, 64);
    EXPECT_EQ(s.calls, r->measured);
  }
}

TEST(JointTuner, BeatsTheBestSingleKnobWhenTheBudgetAllows) {
  Synthetic s = separable();
  Expected<JointResult> r = tuneJoint(s, options(0.035));
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(r->jointWon);
  // scheme=v1 (0.75) + storage=v1 (0.7) + some λ: below 0.525 of T0.
  EXPECT_LT(r->pickTimeMs, 0.75 * r->singleTimeMs);
  EXPECT_GE(r->rounds, 1);
  // The ladder falls back to the reference, ever safer.
  ASSERT_GE(r->ladder.size(), 2u);
  EXPECT_EQ(configText(s.m_, r->ladder.back()), configText(s.m_, r->reference));
  for (size_t i = 1; i < r->ladder.size(); ++i)
    EXPECT_LT(s.trueError(r->ladder[i]), s.trueError(r->ladder[i - 1]));
}

TEST(JointTuner, InteractingErrorsStayFeasible) {
  // Adversarial: each knob alone is harmless, any two together blow the
  // error up (a product term), so the product of single picks violates.
  Synthetic s(
      {ordinal("a", 8), ordinal("b", 8), categorical("c", 3)},
      [](const std::map<std::string, int64_t> &v) {
        return 10.0 - 0.5 * double(v.at("a")) - 0.4 * double(v.at("b")) -
               1.0 * double(v.at("c"));
      },
      [](const std::map<std::string, int64_t> &v) {
        double a = v.at("a"), b = v.at("b"), c = v.at("c");
        return 0.001 * (a + b + c) + 0.05 * (a * b + b * c + a * c);
      });
  for (double bound : {0.005, 0.01, 0.02, 0.1}) {
    Oracle o = bruteForce(s, bound);
    Expected<JointResult> r = tuneJoint(s, options(bound));
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    EXPECT_LE(s.trueError(r->pick), bound);
    EXPECT_LE(s.trueTime(r->pick), o.singleTime + 1e-12);
  }
}

TEST(JointTuner, JaggedOrdinalCurve) {
  // E(λ) not monotone: feasible islands; the pick must still meet it.
  Synthetic s(
      {ordinal("lambda", 32), categorical("scheme", 3)},
      [](const std::map<std::string, int64_t> &v) {
        return 8.0 - 0.1 * double(v.at("lambda")) - 1.5 * double(v.at("scheme"));
      },
      [](const std::map<std::string, int64_t> &v) {
        int64_t l = v.at("lambda");
        double jag = (l % 3 == 1) ? 0.05 : 0.0;
        return 0.001 * double(l) + jag + 0.01 * double(v.at("scheme"));
      });
  for (double bound : {0.01, 0.02, 0.04}) {
    Expected<JointResult> r = tuneJoint(s, options(bound));
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    EXPECT_LE(s.trueError(r->pick), bound);
    Oracle o = bruteForce(s, bound);
    EXPECT_LE(s.trueTime(r->pick), o.singleTime + 1e-12);
  }
}

TEST(JointTuner, NoisyTimesNeverPickSlowerThanTheSinglePick) {
  // ±4% timing noise, 50 seeds: the pick always meets the bound (errors
  // are exact) and, re-timed against the single pick, is never slower
  // in truth than the true best single pick by more than the noise.
  for (unsigned seed = 1; seed <= 50; ++seed) {
    Synthetic s = separable(0.04, seed);
    Oracle o = bruteForce(s, 0.035);
    Expected<JointResult> r = tuneJoint(s, options(0.035));
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    EXPECT_LE(s.trueError(r->pick), 0.035);
    EXPECT_LE(s.trueTime(r->pick), o.singleTime * 1.09) << "seed " << seed;
  }
}

TEST(JointTuner, CategoricalFrontAndNeutralBlockShape) {
  // A block shape (4 values, no error, one clearly best) and a scheme
  // whose values 2 and 3 are dominated by 1: the oracle's block is found.
  Synthetic s(
      {categorical("block", 4), categorical("scheme", 4)},
      [](const std::map<std::string, int64_t> &v) {
        const double block[] = {1.0, 0.9, 0.7, 1.1};
        const double scheme[] = {1.0, 0.6, 0.8, 0.9};
        return 5.0 * block[v.at("block")] * scheme[v.at("scheme")];
      },
      [](const std::map<std::string, int64_t> &v) {
        const double scheme[] = {0, 0.01, 0.02, 0.03};
        return scheme[v.at("scheme")];
      });
  Expected<JointResult> r = tuneJoint(s, options(0.015));
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  Oracle o = bruteForce(s, 0.015);
  EXPECT_EQ(configText(s.m_, r->pick), configText(s.m_, o.best));
  EXPECT_TRUE(r->jointWon);
  // The front holds no dominated trial.
  for (size_t i = 1; i < r->front.size(); ++i) {
    EXPECT_GT(r->trials[r->front[i]].timeMs, r->trials[r->front[i - 1]].timeMs);
    EXPECT_LT(r->trials[r->front[i]].error, r->trials[r->front[i - 1]].error);
  }
}

TEST(JointTuner, ConstraintsAreNeverMeasured) {
  Synthetic s = separable();
  // scheme v2 needs storage v0.
  KnobConstraint k;
  k.when = {"v2"};
  k.knob = "storage";
  k.values = {"v0"};
  s.m_.knobs[1].constraints.push_back(k);
  Expected<JointResult> r = tuneJoint(s, options(0.1));
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  for (const JointTrial &t : r->trials)
    EXPECT_TRUE(checkConfig(s.m_, t.config).isOk())
        << configText(s.m_, t.config);
  EXPECT_TRUE(checkConfig(s.m_, r->pick).isOk());
  Oracle o = bruteForce(s, 0.1);
  EXPECT_LE(s.trueTime(r->pick), o.time * 1.06);
}

TEST(JointTuner, BudgetIsKeptOrRefused) {
  Synthetic s = separable();
  // 1 + (8 + 3 + 2) + 3 + 3 = 20 without thinning; 15 after (λ on 3
  // points), the least that fits.
  Expected<JointResult> r = tuneJoint(s, options(0.035, 15));
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_LE(r->measured, 15);
  EXPECT_LE(s.trueError(r->pick), 0.035);
  Synthetic s2 = separable();
  Expected<JointResult> small = tuneJoint(s2, options(0.035, 8));
  ASSERT_FALSE(small.isOk());
  EXPECT_NE(small.status().message().find("a trial budget of 8 cannot screen"),
            std::string::npos)
      << small.status().message();
  EXPECT_EQ(s2.calls, 0); // refused before any measurement
}

TEST(JointTuner, RefusesBadInput) {
  Synthetic s = separable();
  JointOptions o = options(0.01);
  o.knobs = {"lambda", "nope"};
  Expected<JointResult> r = tuneJoint(s, o);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("unknown knob 'nope'"),
            std::string::npos);
  EXPECT_FALSE(tuneJoint(s, options(NAN)).isOk());
  EXPECT_FALSE(tuneJoint(s, options(-1)).isOk());
  JointOptions outside = options(0.01);
  outside.reference.values["lambda"] = 99;
  r = tuneJoint(s, outside);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("the reference configuration"),
            std::string::npos);
  EXPECT_EQ(s.calls, 0);
}

TEST(JointTuner, NamedKnobsOnly) {
  Synthetic s = separable();
  JointOptions o = options(0.05);
  o.knobs = {"scheme"};
  Expected<JointResult> r = tuneJoint(s, o);
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->pick.valueOf(s.m_, "lambda"), 0);
  EXPECT_EQ(r->pick.valueOf(s.m_, "storage"), 0);
  EXPECT_EQ(r->pick.valueOf(s.m_, "scheme"), 2); // 0.6 at E 0.03
}

TEST(JointTuner, VerifyCountsViolations) {
  Synthetic train = separable();
  Expected<JointResult> r = tuneJoint(train, options(0.035));
  ASSERT_TRUE(r.isOk());
  // Two other "inputs": one where every error is 1.5x larger.
  Synthetic same = separable();
  Synthetic harder = scaledErrors(train, 1.5);
  Expected<std::vector<VerifyRow>> rows =
      verifyConfigs({&same, &harder}, r->ladder, 0.035);
  ASSERT_TRUE(rows.isOk()) << rows.status().toString();
  ASSERT_EQ(rows->size(), r->ladder.size());
  const VerifyRow &pick = rows->front();
  EXPECT_EQ(pick.errors.size(), 2u);
  EXPECT_EQ(pick.violations,
            1.5 * train.trueError(r->pick) > 0.035 ? 1 : 0);
  EXPECT_EQ(rows->back().violations, 0); // the reference
}

TEST(JointTuner, GuardFallsBackOnAViolatingInput) {
  Synthetic train = separable();
  Expected<JointResult> r = tuneJoint(train, options(0.035));
  ASSERT_TRUE(r.isOk());
  ASSERT_GE(r->ladder.size(), 2u);
  // An input on which every approximation is 3x worse.
  Synthetic hostile = scaledErrors(train, 3);
  FallbackGuard g(r->ladder, 0.035, /*period=*/4);
  for (int i = 0; i < 8; ++i) {
    Expected<Evaluation> e = g.invoke(hostile);
    ASSERT_TRUE(e.isOk());
    EXPECT_LE(e->error, 0.035) << "invocation " << i;
  }
  EXPECT_GE(g.fallbacks(), 1);
  EXPECT_EQ(g.checks(), 2); // invocations 0 and 4
  EXPECT_GT(g.checkMs(), 0);
  // On a benign input the guard never falls back.
  Synthetic benign = separable();
  FallbackGuard calm(r->ladder, 0.035, 4);
  for (int i = 0; i < 8; ++i)
    ASSERT_TRUE(calm.invoke(benign).isOk());
  EXPECT_EQ(calm.fallbacks(), 0);
  EXPECT_EQ(calm.rung(), 0u);
}

TEST(JointTuner, RandomSpacesAgainstBruteForce) {
  // 300 random spaces of 2-4 knobs (ordinal or categorical), random
  // per-value speedups and errors, and a random pairwise interaction
  // (which the model does not know): the pick always meets the bound,
  // is never slower than the best single-knob configuration, and the
  // measured count never passes the budget.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  int matched = 0;
  for (int trial = 0; trial < 300; ++trial) {
    int n = 2 + int(rng() % 3);
    std::vector<KnobInfo> ks;
    std::vector<std::vector<double>> speed(n), err(n);
    for (int i = 0; i < n; ++i) {
      bool ord = rng() % 2;
      int values = ord ? 9 : 2 + int(rng() % 4);
      ks.push_back(ord ? ordinal("k" + std::to_string(i), values - 1)
                       : categorical("k" + std::to_string(i), values));
      speed[i].push_back(1.0);
      err[i].push_back(0.0);
      for (int v = 1; v < values; ++v) {
        // Ordinal: monotone; categorical: anything.
        double sp = ord ? speed[i].back() * (0.9 + 0.1 * u(rng))
                        : 0.5 + 0.6 * u(rng);
        double e = ord ? err[i].back() + 0.01 * u(rng) : 0.05 * u(rng);
        speed[i].push_back(sp);
        err[i].push_back(e);
      }
    }
    double inter = u(rng) < 0.5 ? 0.0 : 0.5 * u(rng);
    Synthetic s(
        ks,
        [=](const std::map<std::string, int64_t> &v) {
          double t = 10;
          for (int i = 0; i < n; ++i)
            t *= speed[i][size_t(v.at("k" + std::to_string(i)))];
          return t;
        },
        [=](const std::map<std::string, int64_t> &v) {
          double e = 0, moved = 0;
          for (int i = 0; i < n; ++i) {
            double ei = err[i][size_t(v.at("k" + std::to_string(i)))];
            e += ei;
            moved += ei > 0;
          }
          return e * (1 + inter * std::max(0.0, moved - 1));
        });
    double bound = 0.005 + 0.06 * u(rng);
    Oracle o = bruteForce(s, bound);
    Expected<JointResult> r = tuneJoint(s, options(bound, 48));
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    EXPECT_LE(s.trueError(r->pick), bound) << "space " << trial;
    EXPECT_LE(s.trueTime(r->pick), o.singleTime + 1e-9) << "space " << trial;
    EXPECT_LE(r->measured, 48);
    matched += s.trueTime(r->pick) <= o.time * 1.05;
  }
  // Grids of 9 and the budget make the oracle's exact optimum unreachable
  // at times; most spaces still come within 5% of it.
  std::printf("joint pick within 5%% of brute force on %d of 300 spaces\n",
              matched);
  EXPECT_GE(matched, 270);
}

TEST(JointTuner, UnbuiltConfigurationsAreSkippedAndListed) {
  // An evaluator that holds only the builds with storage v0 or v1: the
  // search goes on without v2 and lists what it could not run.
  class Partial : public Synthetic {
  public:
    Partial() : Synthetic(separable()) {}
    Expected<Evaluation> evaluate(const Config &c, bool w) override {
      if (c.valueOf(m_, "storage") == 2)
        return notFound("build storage=v2 is not in the cache");
      return Synthetic::evaluate(c, w);
    }
  } s;
  Expected<JointResult> r = tuneJoint(s, options(0.05));
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_NE(r->pick.valueOf(s.m_, "storage"), 2);
  ASSERT_FALSE(r->unbuilt.empty());
  for (const Config &c : r->unbuilt)
    EXPECT_EQ(c.valueOf(s.m_, "storage"), 2);
  for (const JointTrial &t : r->trials)
    EXPECT_NE(t.config.valueOf(s.m_, "storage"), 2);
}

TEST(JointTuner, NeutralAloneHelpsInCombination) {
  // A roofline: T = max(compute, memory). λ cuts compute; the two storage
  // knobs cut memory, which alone changes nothing (compute-bound), but
  // after λ they are what is left (the H200's option pricing did this).
  Synthetic s(
      {ordinal("lambda", 64), categorical("a", 2), categorical("b", 2)},
      [](const std::map<std::string, int64_t> &v) {
        double compute = 10 - 6 * frac(v.at("lambda"), 64);
        double memory = 6 - 1.5 * double(v.at("a")) - 1.5 * double(v.at("b"));
        return std::max(compute, memory);
      },
      [](const std::map<std::string, int64_t> &v) {
        return 0.01 * frac(v.at("lambda"), 64) + 1e-4 * double(v.at("a")) +
               1e-4 * double(v.at("b"));
      });
  Oracle o = bruteForce(s, 0.02);
  Expected<JointResult> r = tuneJoint(s, options(0.02));
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ(configText(s.m_, r->pick), configText(s.m_, o.best));
  EXPECT_NEAR(s.trueTime(r->pick), 4.0, 1e-9); // λ 64, a and b narrow
  EXPECT_NEAR(r->singleTimeMs, 6.0, 1e-9);     // λ 64 alone: memory-bound
}

TEST(JointTuner, NothingFasterGivesThePreciseConfiguration) {
  // No knob changes the time; ±10% noise makes some look faster in the
  // screening. Re-timed, none is: over 40 seeds the pick is never slower
  // than the reference re-timed, and is the reference whenever no pick
  // re-timed faster.
  for (unsigned seed = 1; seed <= 40; ++seed) {
    Synthetic s(
        {ordinal("lambda", 64), categorical("scheme", 3)},
        [](const std::map<std::string, int64_t> &) { return 10.0; },
        [](const std::map<std::string, int64_t> &v) {
          return 1e-4 * double(v.at("lambda")) + 1e-3 * double(v.at("scheme"));
        },
        0.10, seed);
    Expected<JointResult> r = tuneJoint(s, options(0.01));
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    EXPECT_LT(r->pickTimeMs, r->baseTimeMs + 1e-12) << "seed " << seed;
    bool precise = configText(s.m_, r->pick) == configText(s.m_, r->reference);
    if (r->noGain) {
      EXPECT_TRUE(precise);
    } else if (!precise) {
      EXPECT_LT(r->pickTimeMs, r->baseTimeMs);
    }
  }
}

TEST(JointTuner, AGainInsideTheNoiseGivesThePreciseConfiguration) {
  // λ truly saves 3%, but each measurement's 95% interval is ±5%: the
  // re-timed pick's interval overlaps the reference's, so the pick is the
  // reference. With ±1% intervals the same gain stands.
  for (double halfWidth : {0.05, 0.01}) {
    class Banded : public Synthetic {
    public:
      explicit Banded(double w)
          : Synthetic({ordinal("lambda", 64)},
                      [](const std::map<std::string, int64_t> &v) {
                        return v.at("lambda") > 0 ? 9.7 : 10.0;
                      },
                      [](const std::map<std::string, int64_t> &v) {
                        return 1e-5 * double(v.at("lambda"));
                      }),
            w_(w) {}
      Expected<Evaluation> evaluate(const Config &c, bool o) override {
        APPROX_ASSIGN_OR_RETURN(Evaluation e, Synthetic::evaluate(c, o));
        e.timeLoMs = e.timeMs * (1 - w_);
        e.timeHiMs = e.timeMs * (1 + w_);
        return e;
      }
      double w_;
    } s(halfWidth);
    Expected<JointResult> r = tuneJoint(s, options(0.01));
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    bool precise = configText(s.m_, r->pick) == configText(s.m_, r->reference);
    EXPECT_EQ(precise, halfWidth == 0.05) << halfWidth;
    EXPECT_EQ(r->noGain, halfWidth == 0.05) << halfWidth;
  }
}

TEST(JointTuner, AnUnbuiltReferenceIsOneLine) {
  class NoBuilds : public Synthetic {
  public:
    NoBuilds() : Synthetic(separable()) {}
    Expected<Evaluation> evaluate(const Config &, bool) override {
      return notFound("no build");
    }
  } s;
  Expected<JointResult> r = tuneJoint(s, options(0.05));
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("cannot be measured: its build is not "
                                      "available"),
            std::string::npos)
      << r.status().message();
}
