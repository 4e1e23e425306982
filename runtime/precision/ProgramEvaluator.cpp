//===- ProgramEvaluator.cpp - A whole program behind evaluate(Config) -----===//
//
// See approx/runtime/precision/ProgramEvaluator.h.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/ProgramEvaluator.h"

#include "approx/runtime/core/Text.h"

#include <cmath>
#include <limits>

namespace approx::rt::precision {

namespace {

std::string storageKnob(size_t i) { return "o" + std::to_string(i); }
std::string methodKnob(size_t i, Direction d) {
  return storageKnob(i) + (d == Direction::H2D ? "_h2d" : "_d2h");
}

bool hasEvents(const ObjectProfile &o, Direction d) {
  for (const TransferEvent &e : o.events)
    if (e.direction == d)
      return true;
  return false;
}

} // namespace

std::vector<std::pair<std::string, std::string>>
hookEnvironment(const std::string &mode, const HookFiles &f) {
  std::vector<std::pair<std::string, std::string>> env = {
      {"APPROX_PRECISION", mode}};
  for (const auto &[name, path] :
       {std::pair<const char *, const std::string &>{
            "APPROX_PRECISION_MANIFEST", f.manifest},
        {"APPROX_PRECISION_OUT", f.profileOut},
        {"APPROX_PRECISION_CONFIG", f.config},
        {"APPROX_PRECISION_EXPECT", f.expect},
        {"APPROX_PRECISION_REPORT", f.report},
        {"APPROX_PRECISION_OUTPUTS", f.outputs}})
    if (!path.empty())
      env.push_back({name, path});
  return env;
}

KnobInfo storageKnobOf(const ObjectProfile &o, const std::string &name,
                       const std::vector<ScalarType> &types) {
  KnobInfo s;
  s.name = name;
  s.kind = KnobKind::Host;
  s.technique = "precision";
  s.domain.kind = DomainKind::Storage;
  s.domain.objectName = o.name;
  std::vector<ScalarType> choices{o.declared};
  for (ScalarType t : types)
    if (isFloatType(o.declared) && isFloatType(t) &&
        scalarTypeSize(t) < scalarTypeSize(o.declared))
      choices.push_back(t);
  for (ScalarType t : choices) {
    KnobValue v;
    v.id = scalarTypeName(t);
    v.payload.type = Payload::Type::Storage;
    v.payload.storage = t;
    s.domain.values.push_back(v);
  }
  s.max = int64_t(s.domain.values.size()) - 1;
  return s;
}

Configuration storageConfiguration(const AppProfile &app, const Manifest &space,
                                   const Config &c, const Method &convert) {
  std::vector<ObjectChoice> objects;
  for (const ObjectProfile &o : app.objects) {
    ObjectChoice ch{o.name, o.declared, o.declared, Method::none(),
                    Method::none()};
    for (const KnobInfo &k : space.knobs)
      if (k.domain.kind == DomainKind::Storage && k.domain.objectName == o.name)
        ch.storage = k.domain.values[size_t(c.valueOf(space, k.name) - k.min)]
                         .payload.storage;
    const bool scaled = ch.storage != o.declared;
    const Method move = scaled ? convert : Method::copy();
    if (hasEvents(o, Direction::H2D))
      ch.h2d = move;
    if (hasEvents(o, Direction::D2H))
      ch.d2h = move;
    objects.push_back(ch);
  }
  Configuration cfg = configurationFor(app, std::move(objects));
  cfg.toq = 1;
  cfg.strategy = "joint";
  return cfg;
}

ProgramEvaluator::ProgramEvaluator(AppProfile profile, ScaledProgram program,
                                   std::vector<std::vector<double>> reference,
                                   FailedRun failed,
                                   std::vector<ScalarType> types)
    : profile_(std::move(profile)), program_(std::move(program)),
      reference_(std::move(reference)), failed_(std::move(failed)) {
  space_.version = kManifestVersion;
  space_.module = "program";
  for (size_t i = 0; i < profile_.objects.size(); ++i) {
    const ObjectProfile &o = profile_.objects[i];
    space_.knobs.push_back(storageKnobOf(o, storageKnob(i), types));
    for (Direction d : {Direction::H2D, Direction::D2H}) {
      KnobInfo m;
      m.name = methodKnob(i, d);
      m.kind = KnobKind::Host;
      m.technique = "precision";
      m.domain.kind = DomainKind::Categorical;
      m.domain.objectName = o.name;
      // Value 0: the unchanged program's move.
      const Method plain = hasEvents(o, d) ? Method::copy() : Method::none();
      m.domain.values.push_back({"m0", Payload{}});
      methods_[m.name].push_back(plain);
      space_.knobs.push_back(std::move(m));
    }
  }
}

KnobInfo &ProgramEvaluator::knob(const std::string &name) {
  for (KnobInfo &k : space_.knobs)
    if (k.name == name)
      return k;
  std::abort(); // the names are the constructor's
}

const Method &ProgramEvaluator::methodOf(const std::string &knob,
                                         int64_t index) const {
  return methods_.at(knob).at(size_t(index));
}

Expected<int64_t> ProgramEvaluator::methodIndex(const std::string &name,
                                                const Method &m) {
  std::vector<Method> &table = methods_[name];
  for (size_t k = 0; k < table.size(); ++k)
    if (table[k] == m)
      return int64_t(k);
  KnobInfo &k = knob(name);
  table.push_back(m);
  k.domain.values.push_back({"m" + std::to_string(table.size() - 1), Payload{}});
  k.max = int64_t(table.size()) - 1;
  return k.max;
}

Expected<Config> ProgramEvaluator::configOf(const Configuration &c) {
  Config out;
  for (size_t i = 0; i < profile_.objects.size(); ++i) {
    const ObjectProfile &o = profile_.objects[i];
    const ObjectChoice *choice = c.find(o.name);
    if (!choice)
      return invalidArgument("the configuration has no entry for object " +
                             quote(o.name) + " of the profile");
    const KnobInfo *s = space_.findKnob(storageKnob(i));
    std::optional<int64_t> v = s->valueOf(scalarTypeName(choice->storage));
    if (!v)
      return invalidArgument(std::string("object ") + quote(o.name) +
                             " stored as " + scalarTypeName(choice->storage) +
                             " is outside the space (declared " +
                             scalarTypeName(o.declared) + ")");
    out.values[s->name] = *v;
    for (auto [d, m] : {std::pair{Direction::H2D, &choice->h2d},
                        std::pair{Direction::D2H, &choice->d2h}}) {
      APPROX_ASSIGN_OR_RETURN(int64_t k, methodIndex(methodKnob(i, d), *m));
      out.values[methodKnob(i, d)] = k;
    }
  }
  return out;
}

Expected<Configuration> ProgramEvaluator::configurationOf(const Config &c) const {
  APPROX_RETURN_IF_ERROR(checkConfig(space_, c));
  std::vector<ObjectChoice> objects;
  for (size_t i = 0; i < profile_.objects.size(); ++i) {
    const ObjectProfile &o = profile_.objects[i];
    const KnobInfo *s = space_.findKnob(storageKnob(i));
    ObjectChoice choice;
    choice.name = o.name;
    choice.declared = o.declared;
    choice.storage = s->domain.values[size_t(c.valueOf(space_, s->name))]
                         .payload.storage;
    choice.h2d = methodOf(methodKnob(i, Direction::H2D),
                          c.valueOf(space_, methodKnob(i, Direction::H2D)));
    choice.d2h = methodOf(methodKnob(i, Direction::D2H),
                          c.valueOf(space_, methodKnob(i, Direction::D2H)));
    objects.push_back(std::move(choice));
  }
  Configuration out = configurationFor(profile_, std::move(objects));
  out.toq = toq_;
  out.strategy = strategy_;
  return out;
}

Expected<Evaluation> ProgramEvaluator::evaluate(const Config &c,
                                                bool withOutputs) {
  APPROX_ASSIGN_OR_RETURN(Configuration config, configurationOf(c));
  Expected<ProgramRun> run = program_(config);
  TrialResult t;
  Evaluation e;
  if (!run) {
    std::optional<TrialResult> f =
        failed_ ? failed_(config, run.status()) : std::nullopt;
    if (!f)
      return run.status();
    t = *f;
    t.failed = true;
  } else {
    t = trialResult(*run, reference_);
    if (withOutputs)
      for (const std::vector<double> &o : run->outputs)
        e.outputs.insert(e.outputs.end(), o.begin(), o.end());
  }
  e.timeMs = t.totalSeconds * 1e3;
  e.error = t.failed || t.overflow ? std::numeric_limits<double>::infinity()
                                   : 1 - t.quality;
  results_[configText(space_, c)] = std::move(t);
  return e;
}

Expected<TrialResult> ProgramEvaluator::trial(const Configuration &c) {
  APPROX_ASSIGN_OR_RETURN(Config k, configOf(c));
  // The run carries the search's provenance (toq, strategy).
  const double toq = toq_;
  const std::string strategy = strategy_;
  if (c.toq > 0 && c.toq <= 1) {
    toq_ = c.toq;
    strategy_ = c.strategy;
  }
  Status s = evaluate(k, false).status();
  toq_ = toq;
  strategy_ = strategy;
  APPROX_RETURN_IF_ERROR(s);
  return results_.at(configText(space_, k));
}

} // namespace approx::rt::precision
