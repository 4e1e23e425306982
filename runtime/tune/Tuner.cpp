//===- Tuner.cpp - SMP, HEU and OMG over an Evaluator ---------------------===//
//
// The three searches of Tuner.h over an Evaluator; each λ is measured at
// most once per search and recorded in the trace.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/Tuner.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace approx::rt {

CurveEvaluator::CurveEvaluator(std::vector<double> timeMs,
                               std::vector<double> error, int64_t lambdaMax)
    : time_(std::move(timeMs)), error_(std::move(error)),
      lambdaMax_(lambdaMax >= 0 ? lambdaMax
                                : int64_t(std::min(time_.size(),
                                                   error_.size())) -
                                      1) {}

Expected<TunePoint> CurveEvaluator::evaluate(int64_t lambda) {
  ++calls_;
  if (lambda < 0 || size_t(lambda) >= time_.size() ||
      size_t(lambda) >= error_.size())
    return outOfRange("λ = " + std::to_string(lambda) +
                      " is outside the recorded curve [0, " +
                      std::to_string(int64_t(time_.size()) - 1) + "]");
  return TunePoint{lambda, time_[size_t(lambda)], error_[size_t(lambda)]};
}

Status QoS::validate() const {
  if (!std::isfinite(value) || value < 0)
    return invalidArgument("QoS must be a finite value >= 0");
  return Status::ok();
}

std::string QoS::describe() const {
  std::ostringstream os;
  if (kind == Kind::Absolute)
    os << "E <= " << value;
  else
    os << "E <= " << value << " * E(lambda_max) (QoS_ratio " << value << ")";
  return os.str();
}

const char *tuneMethodName(TuneMethod m) {
  switch (m) {
  case TuneMethod::Smp:
    return "SMP";
  case TuneMethod::Heu:
    return "HEU";
  case TuneMethod::Omg:
    return "OMG";
  }
  return "?";
}

Expected<TuneMethod> parseTuneMethod(const std::string &name) {
  std::string n;
  for (char c : name)
    n.push_back(char(std::tolower(static_cast<unsigned char>(c))));
  if (n == "smp")
    return TuneMethod::Smp;
  if (n == "heu")
    return TuneMethod::Heu;
  if (n == "omg")
    return TuneMethod::Omg;
  return invalidArgument("unknown tuning method '" + name +
                         "' (known: smp, heu, omg)");
}

namespace {

/// Evaluates each λ at most once per search and records the trace.
class Search {
public:
  Search(Evaluator &eval, TuneMethod m, const TuneOptions &opts,
         TuneResult &result)
      : eval_(eval), method_(m), opts_(opts), result_(result) {}

  Expected<TunePoint> at(int64_t lambda) {
    auto it = seen_.find(lambda);
    if (it != seen_.end())
      return it->second;
    Expected<TunePoint> p = eval_.evaluate(lambda);
    if (!p)
      return p.status().withContext(std::string(tuneMethodName(method_)) +
                                    " at lambda " + std::to_string(lambda));
    seen_[lambda] = *p;
    result_.trace.push_back(*p);
    ++result_.runs;
    if (opts_.onPoint)
      opts_.onPoint(method_, *p, result_.runs);
    return p;
  }
  bool seen(int64_t lambda) const { return seen_.count(lambda) != 0; }

private:
  Evaluator &eval_;
  TuneMethod method_;
  const TuneOptions &opts_;
  TuneResult &result_;
  std::map<int64_t, TunePoint> seen_;
};

void finish(TuneResult &r, const TunePoint &p) {
  r.lambda = p.lambda;
  r.timeMs = p.timeMs;
  r.error = p.error;
  r.satisfied = p.error <= r.qosBound;
}

} // namespace

std::vector<int64_t> searchGrid(int64_t lambdaMax, int step) {
  std::vector<int64_t> g;
  for (int64_t l = 0; l < lambdaMax; l += std::max(1, step))
    g.push_back(l);
  g.push_back(lambdaMax);
  return g;
}

TuneOptions paperHeuOptions(TuneOptions o) {
  o.heuSecant = false;
  o.heuPredictStop = false;
  o.heuTimeTolerance = 0;
  return o;
}

Expected<TuneResult> tune(Evaluator &eval, TuneMethod method,
                          const TuneOptions &opts) {
  APPROX_RETURN_IF_ERROR(opts.qos.validate());
  APPROX_RETURN_IF_ERROR(eval.health().withContext(
      std::string(tuneMethodName(method)) + ": not started"));
  TuneResult r;
  r.method = method;
  r.lambdaMax = opts.lambdaMax >= 0 ? opts.lambdaMax : eval.lambdaMax();
  if (r.lambdaMax < 0)
    return invalidArgument("lambda_max is negative");
  const int64_t lmax = r.lambdaMax;
  if (opts.lambdaStep < 1)
    return invalidArgument("lambda step must be >= 1");
  const std::vector<int64_t> grid = searchGrid(lmax, opts.lambdaStep);
  Search s(eval, method, opts, r);

  // The precise reference: T(0); E(0) is 0 by definition of the metric.
  APPROX_ASSIGN_OR_RETURN(TunePoint p0, s.at(0));
  r.baseTimeMs = p0.timeMs;
  APPROX_ASSIGN_OR_RETURN(TunePoint pmax, s.at(lmax));
  r.sfuError = pmax.error;
  r.sfuTimeMs = pmax.timeMs;
  r.qosBound = opts.qos.bound(pmax.error);
  const double q = r.qosBound;

  switch (method) {
  case TuneMethod::Smp: {
    for (auto it = grid.rbegin(); it != grid.rend(); ++it) {
      APPROX_ASSIGN_OR_RETURN(TunePoint p, s.at(*it));
      if (p.error <= q) {
        finish(r, p);
        return r;
      }
    }
    finish(r, p0); // E(0) > q: no point meets the QoS
    return r;
  }
  case TuneMethod::Heu: {
    if (pmax.error <= q) { // §6: the SFU version already meets the QoS
      finish(r, pmax);
      return r;
    }
    if (p0.error > q) {
      finish(r, p0);
      return r;
    }
    // Indices into `grid`: E(grid[lo]) <= q < E(grid[hi]).
    size_t lo = 0, hi = grid.size() - 1;
    TunePoint lp = p0, hp = pmax, prev = p0, last = pmax;
    for (int step = 0; step < opts.heuMaxSteps && hi - lo > 1; ++step) {
      // Nothing left to gain: the bracket's ends differ in time by less
      // than the tolerance (measured times, so this holds whatever E does
      // in between; T falls with λ).
      if (lp.timeMs - hp.timeMs <= opts.heuTimeTolerance * lp.timeMs)
        break;
      // A line meets E = q at λ = root; take the last grid point before
      // the root, but always move: every grid point strictly between lo
      // and hi is still unmeasured. The paper's line joins the bracket
      // ends (regula falsi); the secant variant joins the two most recent
      // points, which converges faster on curved E(λ).
      auto rootOf = [&](const TunePoint &a, const TunePoint &b) {
        return double(a.lambda) + (q - a.error) * double(b.lambda - a.lambda) /
                                      (b.error - a.error);
      };
      double root = rootOf(lp, hp);
      if (opts.heuSecant && last.error != prev.error) {
        double sec = rootOf(last, prev);
        if (sec > double(lp.lambda) && sec < double(hp.lambda))
          root = sec;
      }
      size_t next = lo + 1;
      for (size_t k = lo + 1; k < hi; ++k)
        if (std::isfinite(root) && double(grid[k]) <= root)
          next = k;
      APPROX_ASSIGN_OR_RETURN(TunePoint p, s.at(grid[next]));
      prev = last;
      last = p;
      if (p.error > q) {
        hi = next;
        hp = p;
        continue;
      }
      lo = next;
      lp = p;
      // "E(λ) equals the QoS": within the tolerance band below it.
      if (p.error >= (1 - opts.heuTolerance) * q)
        break;
      // The next grid point is predicted to miss the QoS by the line to
      // the violating end. For concave E (measured on sm_90) that line
      // is below the curve, so the prediction errs on the safe side.
      if (opts.heuPredictStop && lo + 1 < hi) {
        double slope = (hp.error - lp.error) / double(hp.lambda - lp.lambda);
        if (lp.error + slope * double(grid[lo + 1] - lp.lambda) > q)
          break;
      }
    }
    // `lp` starts at λ=0 (E(0) <= q, checked above) and only ever moves to
    // a measured point with E <= q, so it meets the QoS on this input. The
    // paper's safety walk (§5.4) would start from a point that already does
    // and could never take a step.
    finish(r, lp);
    return r;
  }
  case TuneMethod::Omg: {
    std::vector<TunePoint> all;
    for (int64_t l = 0; l <= lmax; ++l) {
      APPROX_ASSIGN_OR_RETURN(TunePoint p, s.at(l));
      all.push_back(p);
    }
    const TunePoint *best = nullptr;
    for (const TunePoint &p : all) {
      if (p.error > q)
        continue;
      r.maxFeasibleLambda = std::max(r.maxFeasibleLambda, p.lambda);
      if (!best || p.timeMs < best->timeMs ||
          (p.timeMs == best->timeMs && p.lambda > best->lambda))
        best = &p;
    }
    finish(r, best ? *best : all.front());
    return r;
  }
  }
  return internalError("unknown tuning method");
}

} // namespace approx::rt
