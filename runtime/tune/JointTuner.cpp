//===- JointTuner.cpp - Screening, descent on fronts, re-timing -----------===//
//
// The search of JointTuner.h. Each distinct configuration is measured once
// (by its configText); re-timings are the only repeats.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/JointTuner.h"

#include "approx/runtime/core/Text.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace approx::rt {

const char *jointPhaseName(JointTrial::Phase p) {
  switch (p) {
  case JointTrial::Phase::Reference:
    return "reference";
  case JointTrial::Phase::Screen:
    return "screen";
  case JointTrial::Phase::Model:
    return "model";
  case JointTrial::Phase::Descent:
    return "descent";
  case JointTrial::Phase::Retime:
    return "retime";
  }
  return "?";
}

namespace {

/// `n` points spread over [lo, hi], both ends included, sorted, distinct.
std::vector<int64_t> spread(int64_t lo, int64_t hi, int n) {
  std::vector<int64_t> g;
  if (hi <= lo || n <= 1)
    return {lo, hi};
  for (int i = 0; i < n; ++i)
    g.push_back(lo + int64_t(std::llround(double(hi - lo) * i / (n - 1))));
  std::sort(g.begin(), g.end());
  g.erase(std::unique(g.begin(), g.end()), g.end());
  return g;
}

/// Drops every other interior point (keeps both ends).
std::vector<int64_t> thin(const std::vector<int64_t> &g) {
  if (g.size() <= 3)
    return g;
  std::vector<int64_t> out;
  for (size_t i = 0; i < g.size(); ++i)
    if (i == 0 || i + 1 == g.size() || i % 2 == 0)
      out.push_back(g[i]);
  if (out.size() == g.size()) // a 4-point grid: drop one interior point
    out.erase(out.begin() + 1);
  return out;
}

class Search {
public:
  Search(ConfigEvaluator &eval, const JointOptions &opts, JointResult &r)
      : eval_(eval), m_(eval.space()), opts_(opts), r_(r) {}

  /// The trial of `c`, measured unless known; null for a configuration a
  /// constraint of the space excludes (never measured). Every evaluation
  /// error ends the search.
  Expected<const JointTrial *> measure(const Config &c,
                                       JointTrial::Phase phase,
                                       const std::string &knob) {
    std::string key = configText(m_, c);
    auto it = seen_.find(key);
    if (it != seen_.end())
      return &r_.trials[it->second];
    if (excluded_.count(key))
      return nullptr;
    if (!checkConfig(m_, c).isOk()) {
      excluded_.insert(key);
      ++r_.excluded;
      return nullptr;
    }
    Expected<Evaluation> e = eval_.evaluate(c, false);
    if (!e && e.status().code() == StatusCode::NotFound) {
      // Another build the evaluator does not hold: not measured, listed.
      excluded_.insert(key);
      r_.unbuilt.push_back(c);
      return nullptr;
    }
    if (!e)
      return e.status();
    return record(c, *e, phase, knob, &key);
  }

  const JointTrial *record(const Config &c, const Evaluation &e,
                           JointTrial::Phase phase, const std::string &knob,
                           const std::string *key) {
    JointTrial t;
    t.phase = phase;
    t.config = c;
    t.timeMs = e.timeMs;
    t.timeLoMs = e.timeLoMs;
    t.timeHiMs = e.timeHiMs;
    t.error = e.error;
    t.feasible = std::isfinite(e.error) && e.error <= opts_.qosBound;
    t.knob = knob;
    t.failure = e.failure;
    r_.trials.push_back(t);
    ++r_.measured;
    if (key)
      seen_[*key] = r_.trials.size() - 1;
    if (opts_.onTrial)
      opts_.onTrial(r_.trials.back(), r_.measured);
    return &r_.trials.back();
  }

  bool budgetLeft(int reserve = 0) const {
    return r_.measured + reserve < opts_.budget;
  }

  ConfigEvaluator &eval_;
  const Manifest &m_;
  const JointOptions &opts_;
  JointResult &r_;
  std::map<std::string, size_t> seen_;
  std::set<std::string> excluded_;
};

/// The values of `k` a screening tries (the reference's value excluded).
std::vector<int64_t> candidateValues(const KnobInfo &k,
                                     const JointOptions &opts, int64_t ref) {
  std::vector<int64_t> vals;
  if (k.domain.kind == DomainKind::Ordinal) {
    if (opts.grid)
      vals = opts.grid(k);
    if (vals.empty())
      vals = spread(k.min, k.max, std::max(2, opts.ordinalPoints));
  } else {
    for (int64_t v = k.min; v <= k.max; ++v)
      vals.push_back(v);
  }
  vals.erase(std::remove_if(vals.begin(), vals.end(),
                            [&](int64_t v) {
                              return v == ref || v < k.min || v > k.max;
                            }),
             vals.end());
  return vals;
}

} // namespace

Expected<JointResult> tuneJoint(ConfigEvaluator &eval,
                                const JointOptions &opts) {
  const Manifest &m = eval.space();
  if (!std::isfinite(opts.qosBound) || opts.qosBound < 0)
    return invalidArgument("the error bound must be a finite value >= 0");
  if (opts.budget < 2)
    return invalidArgument("the trial budget must be at least 2");
  JointResult r;
  r.reference = opts.reference.values.empty() ? preciseConfig(m)
                                              : opts.reference;
  APPROX_RETURN_IF_ERROR(checkConfig(m, r.reference)
                             .withContext("the reference configuration"));
  // Fill every knob in, so configurations compare by their full values.
  for (const KnobInfo &k : m.knobs)
    r.reference.values[k.name] = r.reference.valueOf(m, k.name);

  // The knobs searched and their screening values.
  std::vector<const KnobInfo *> knobs;
  if (opts.knobs.empty()) {
    for (const KnobInfo &k : m.knobs)
      if (k.max > k.min)
        knobs.push_back(&k);
  } else {
    std::set<std::string> named;
    for (const std::string &n : opts.knobs) {
      const KnobInfo *k = m.findKnob(n);
      if (!k)
        return invalidArgument("unknown knob " + quote(n) +
                               " (the space's knobs are listed by --list)");
      if (named.insert(n).second)
        knobs.push_back(k);
    }
  }
  std::map<std::string, std::vector<int64_t>> values;
  size_t screening = 0;
  for (const KnobInfo *k : knobs) {
    values[k->name] =
        candidateValues(*k, opts, r.reference.values[k->name]);
    screening += values[k->name].size();
  }
  // Reference, screening, then at least one descent move per knob and
  // three re-timings: thin the ordinal grids until that fits.
  auto needed = [&] {
    return 1 + screening + knobs.size() + (opts.retime ? 3 : 0);
  };
  while (needed() > size_t(opts.budget)) {
    const KnobInfo *widest = nullptr;
    for (const KnobInfo *k : knobs)
      if (k->domain.kind == DomainKind::Ordinal &&
          values[k->name].size() > 2 &&
          (!widest || values[k->name].size() > values[widest->name].size()))
        widest = k;
    if (!widest)
      break;
    std::vector<int64_t> g = values[widest->name];
    std::vector<int64_t> t = thin(g); // both ends kept (the max among them)
    if (t.size() == g.size())
      break;
    screening -= g.size() - t.size();
    values[widest->name] = t;
  }
  if (needed() > size_t(opts.budget))
    return invalidArgument(
        "a trial budget of " + std::to_string(opts.budget) +
        " cannot screen this space: it needs at least " +
        std::to_string(needed()) + " configurations (" +
        std::to_string(knobs.size()) + " knobs); raise the budget or name "
        "fewer knobs");

  Search s(eval, opts, r);
  APPROX_ASSIGN_OR_RETURN(
      const JointTrial *ref,
      s.measure(r.reference, JointTrial::Phase::Reference, ""));
  if (!ref)
    return notFound("the reference configuration " +
                    quote(configText(m, r.reference)) +
                    " cannot be measured: its build is not available");
  double refError = ref->error;
  bool refFeasible = ref->feasible;
  double baseTime = ref->timeMs;
  if (!refFeasible)
    return invalidArgument(
        "the reference configuration itself misses the bound (E = " +
        std::to_string(refError) + "): no configuration can be chosen");

  // Screening: each knob alone.
  struct Option {
    int64_t value;
    double timeMs, error;
  };
  std::map<std::string, std::vector<Option>> fronts;
  Config single = r.reference;
  double singleTime = baseTime, singleError = refError;
  std::string singleKnob;
  for (const KnobInfo *k : knobs) {
    std::vector<Option> feasible;
    for (int64_t v : values[k->name]) {
      Config c = r.reference;
      c.values[k->name] = v;
      APPROX_ASSIGN_OR_RETURN(
          const JointTrial *t,
          s.measure(c, JointTrial::Phase::Screen, k->name));
      if (!t || !t->feasible)
        continue;
      feasible.push_back({v, t->timeMs, t->error});
      if (t->timeMs < singleTime) {
        single = c;
        singleTime = t->timeMs;
        singleError = t->error;
        singleKnob = k->name;
      }
    }
    // The knob's candidates for combinations: its feasible values that are
    // not clearly dominated (another is faster by more than the tolerance
    // and at most as wrong) and not slower than the reference. Values as
    // fast alone (within the tolerance) all stay, the more approximate
    // first: alone they may meet another bottleneck (a memory-bound
    // plateau of λ, narrower storage in a compute-bound kernel) that
    // another knob removes.
    double tol = opts.timeTolerance;
    std::vector<Option> front;
    for (const Option &o : feasible) {
      if (o.timeMs >= baseTime * (1 + tol))
        continue;
      bool dominated = false;
      for (const Option &w : feasible)
        dominated |= w.timeMs < o.timeMs * (1 - tol) && w.error <= o.error;
      if (!dominated)
        front.push_back(o);
    }
    std::sort(front.begin(), front.end(),
              [](const Option &a, const Option &b) {
                return a.timeMs != b.timeMs ? a.timeMs < b.timeMs
                                            : a.error > b.error;
              });
    // Within a run of times that are equal within the tolerance, the more
    // approximate first.
    for (size_t i = 0; i < front.size();) {
      size_t j = i + 1;
      while (j < front.size() && front[j].timeMs <= front[i].timeMs * (1 + tol))
        ++j;
      std::stable_sort(front.begin() + long(i), front.begin() + long(j),
                       [](const Option &a, const Option &b) {
                         return a.error > b.error;
                       });
      i = j;
    }
    fronts[k->name] = front;
  }
  r.singleKnob = singleKnob;

  // Coordinate descent on the fronts, knobs by their single gain.
  std::vector<const KnobInfo *> order = knobs;
  auto bestTime = [&](const KnobInfo *k) {
    const std::vector<Option> &f = fronts[k->name];
    return f.empty() ? baseTime : f.front().timeMs;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const KnobInfo *a, const KnobInfo *b) {
                     return bestTime(a) < bestTime(b);
                   });
  Config cur = single;
  double curTime = singleTime, curError = singleError;
  int reserve = opts.retime ? 3 : 0;

  // The separable model: every combination of front values (the
  // reference's value included), time predicted as T0 times each knob's
  // speedup, error as E0 plus each knob's added error; the predicted-
  // feasible ones are measured fastest first while they promise a gain.
  {
    struct Combo {
      std::vector<int> pick; // per knob: -1 reference, else front index
      double time, error;
    };
    std::vector<const KnobInfo *> used;
    for (const KnobInfo *k : knobs)
      if (!fronts[k->name].empty())
        used.push_back(k);
    double count = 1;
    for (const KnobInfo *k : used)
      count *= double(fronts[k->name].size() + 1);
    std::vector<Combo> combos;
    if (used.size() >= 2 && count <= double(opts.modelLimit)) {
      std::vector<int> idx(used.size(), -1);
      while (true) {
        double t = baseTime, e = refError;
        int moved = 0;
        for (size_t i = 0; i < used.size(); ++i) {
          if (idx[i] < 0)
            continue;
          const Option &o = fronts[used[i]->name][size_t(idx[i])];
          t *= o.timeMs / baseTime;
          e += o.error - refError;
          ++moved;
        }
        if (moved >= 2 && e <= opts.qosBound)
          combos.push_back({idx, t, e});
        size_t i = 0;
        while (i < used.size() &&
               ++idx[i] >= int(fronts[used[i]->name].size())) {
          idx[i] = -1;
          ++i;
        }
        if (i == used.size())
          break;
      }
    }
    std::sort(combos.begin(), combos.end(),
              [](const Combo &a, const Combo &b) { return a.time < b.time; });
    int misses = 0;
    for (const Combo &cb : combos) {
      if (cb.time >= curTime * (1 - opts.timeTolerance))
        break; // nothing left promises a gain
      if (misses >= opts.modelMisses)
        break; // the model is wrong here: leave it to the descent
      if (!s.budgetLeft(reserve + int(knobs.size()))) {
        r.budgetSpent = true;
        break;
      }
      Config c = r.reference;
      for (size_t i = 0; i < used.size(); ++i)
        if (cb.pick[i] >= 0)
          c.values[used[i]->name] = fronts[used[i]->name][size_t(cb.pick[i])].value;
      APPROX_ASSIGN_OR_RETURN(const JointTrial *t,
                              s.measure(c, JointTrial::Phase::Model, ""));
      if (t && t->feasible && t->timeMs < curTime * (1 - opts.timeTolerance)) {
        cur = c;
        curTime = t->timeMs;
        curError = t->error;
        misses = 0;
      } else {
        ++misses;
      }
    }
  }

  bool changed = !r.budgetSpent;
  while (changed && !r.budgetSpent) {
    changed = false;
    ++r.rounds;
    for (const KnobInfo *k : order) {
      for (const Option &o : fronts[k->name]) {
        if (cur.values[k->name] == o.value)
          break; // faster values were tried; this one is current
        Config c = cur;
        c.values[k->name] = o.value;
        if (!s.seen_.count(configText(m, c)) && !s.excluded_.count(configText(m, c)) &&
            !s.budgetLeft(reserve)) {
          r.budgetSpent = true;
          break;
        }
        APPROX_ASSIGN_OR_RETURN(
            const JointTrial *t,
            s.measure(c, JointTrial::Phase::Descent, k->name));
        if (t && t->feasible && t->timeMs < curTime * (1 - opts.timeTolerance)) {
          cur = c;
          curTime = t->timeMs;
          curError = t->error;
          changed = true;
          break;
        }
      }
      if (r.budgetSpent)
        break;
    }
  }

  // Re-time the reference and both picks; keep the faster pick.
  r.singlePick = single;
  r.singleTimeMs = singleTime;
  r.singleError = singleError;
  r.baseTimeMs = baseTime;
  r.pick = cur;
  r.pickTimeMs = curTime;
  r.pickError = curError;
  bool distinct = configText(m, cur) != configText(m, single);
  // Without re-timing, the intervals are the search's own measurements'.
  auto intervalOf = [&](const Config &c) -> std::pair<double, double> {
    auto it = s.seen_.find(configText(m, c));
    if (it == s.seen_.end())
      return {NAN, NAN};
    const JointTrial &t = r.trials[it->second];
    return {t.timeLoMs, t.timeHiMs};
  };
  r.baseInterval = intervalOf(r.reference);
  r.singleInterval = intervalOf(single);
  r.pickInterval = intervalOf(cur);
  if (opts.retime) {
    auto retime = [&](const Config &c, const std::string &what,
                      std::pair<double, double> &interval) -> Expected<double> {
      APPROX_ASSIGN_OR_RETURN(Evaluation e, eval.remeasure(c));
      s.record(c, e, JointTrial::Phase::Retime, what, nullptr);
      interval = {e.timeLoMs, e.timeHiMs};
      return e.timeMs;
    };
    APPROX_ASSIGN_OR_RETURN(r.baseTimeMs,
                            retime(r.reference, "reference", r.baseInterval));
    if (configText(m, single) != configText(m, r.reference)) {
      APPROX_ASSIGN_OR_RETURN(r.singleTimeMs,
                              retime(single, "single", r.singleInterval));
    } else {
      r.singleTimeMs = r.baseTimeMs;
      r.singleInterval = r.baseInterval;
    }
    if (distinct) {
      APPROX_ASSIGN_OR_RETURN(r.pickTimeMs,
                              retime(cur, "joint", r.pickInterval));
    } else {
      r.pickTimeMs = r.singleTimeMs;
      r.pickInterval = r.singleInterval;
    }
  }
  r.jointWon = distinct && r.pickTimeMs < r.singleTimeMs;
  if (!r.jointWon) {
    r.pick = single;
    r.pickTimeMs = r.singleTimeMs;
    r.pickError = singleError;
    r.pickInterval = r.singleInterval;
  }
  // Never slower than precise: a pick that is not faster than the
  // reference re-timed (noise made it look faster in the search) gives way
  // to the reference. Where both re-timings have intervals, faster means
  // the pick's whole 95% interval below the reference's: a whole program's
  // wall time (process start included) is noisy enough for a median to
  // look faster by chance.
  auto known = [](const std::pair<double, double> &i) {
    return std::isfinite(i.first) && std::isfinite(i.second) && i.first > 0;
  };
  const bool faster =
      known(r.pickInterval) && known(r.baseInterval)
          ? r.pickInterval.second < r.baseInterval.first
          : r.pickTimeMs < r.baseTimeMs;
  if (configText(m, r.pick) != configText(m, r.reference) && !faster) {
    r.pick = r.reference;
    r.pickTimeMs = r.baseTimeMs;
    r.pickError = refError;
    r.pickInterval = r.baseInterval;
    r.jointWon = false;
    r.noGain = true;
  }

  // The front of the feasible trials, and the ladder below the pick.
  std::vector<size_t> feasible;
  for (size_t i = 0; i < r.trials.size(); ++i)
    if (r.trials[i].feasible &&
        r.trials[i].phase != JointTrial::Phase::Retime)
      feasible.push_back(i);
  std::sort(feasible.begin(), feasible.end(), [&](size_t a, size_t b) {
    const JointTrial &x = r.trials[a], &y = r.trials[b];
    return x.timeMs != y.timeMs ? x.timeMs < y.timeMs : x.error < y.error;
  });
  for (size_t i : feasible)
    if (r.front.empty() || r.trials[i].error < r.trials[r.front.back()].error)
      r.front.push_back(i);
  r.ladder.push_back(r.pick);
  std::string refText = configText(m, r.reference);
  for (size_t i : r.front) {
    const JointTrial &t = r.trials[i];
    std::string text = configText(m, t.config);
    if (t.error < r.pickError && text != refText &&
        text != configText(m, r.pick))
      r.ladder.push_back(t.config);
  }
  if (configText(m, r.pick) != refText)
    r.ladder.push_back(r.reference);
  return r;
}

Expected<std::vector<VerifyRow>>
verifyConfigs(const std::vector<ConfigEvaluator *> &inputs,
              const std::vector<Config> &configs, double bound) {
  std::vector<VerifyRow> rows;
  for (const Config &c : configs) {
    VerifyRow row;
    row.config = c;
    for (size_t i = 0; i < inputs.size(); ++i) {
      APPROX_RETURN_IF_ERROR(
          checkConfig(inputs[i]->space(), c)
              .withContext("verification input " + std::to_string(i)));
      APPROX_ASSIGN_OR_RETURN(Evaluation e, inputs[i]->evaluate(c, false));
      row.errors.push_back(e.error);
      if (!(e.error <= bound))
        ++row.violations;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

FallbackGuard::FallbackGuard(std::vector<Config> ladder, double bound,
                             int period)
    : ladder_(std::move(ladder)), bound_(bound),
      period_(std::max(1, period)) {}

Expected<Evaluation> FallbackGuard::invoke(ConfigEvaluator &eval) {
  if (ladder_.empty())
    return invalidArgument("the guard's ladder is empty");
  bool sampled = invocations_++ % period_ == 0;
  if (!sampled) {
    APPROX_ASSIGN_OR_RETURN(Evaluation e, eval.evaluate(ladder_[rung_], false));
    keptMs_ += e.timeMs;
    return e;
  }
  // The check: the reference's run, then the rung's output against it.
  APPROX_ASSIGN_OR_RETURN(Evaluation ref, eval.evaluate(ladder_.back(), false));
  checkMs_ += ref.timeMs;
  ++checks_;
  while (true) {
    APPROX_ASSIGN_OR_RETURN(Evaluation e, eval.evaluate(ladder_[rung_], false));
    if (e.error <= bound_ || rung_ + 1 == ladder_.size()) {
      keptMs_ += e.timeMs;
      return e;
    }
    checkMs_ += e.timeMs; // a discarded output
    ++rung_;
    ++fallbacks_;
  }
}

} // namespace approx::rt
