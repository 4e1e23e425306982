//===- Decision.cpp - PreScaler's Algorithms 1 and 2 ----------------------===//
//
// The search of docs/precision.md, "System database and decision maker".
// Configurations are compared by Configuration::key(); a configuration
// already run (or the original, measured by the profiler) is never run
// again. The trial bound #objects x (1 + #types) is checked before every
// trial and asserted after.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/Decision.h"

#include "JsonFormat.h"

#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/precision/HostConvert.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace approx::rt::precision {

using json = nlohmann::json;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

namespace {

/// Descending precision: f64, f32, f16, bf16 (f16 has 11 significant bits,
/// bf16 8).
int precisionRank(ScalarType t) {
  switch (t) {
  case ScalarType::F64:
    return 0;
  case ScalarType::F32:
    return 1;
  case ScalarType::F16:
    return 2;
  case ScalarType::BF16:
    return 3;
  default:
    return 9;
  }
}

/// True when every value of `b` is a value of `a`.
bool holds(ScalarType a, ScalarType b) {
  if (a == b || a == ScalarType::F64)
    return true;
  return a == ScalarType::F32 &&
         (b == ScalarType::F16 || b == ScalarType::BF16);
}

double maxFinite(ScalarType t) {
  switch (t) {
  case ScalarType::F64:
    return std::numeric_limits<double>::max();
  case ScalarType::F32:
    return std::numeric_limits<float>::max();
  case ScalarType::F16:
    return 65504.0;
  case ScalarType::BF16:
    return 3.3895313892515355e38;
  default:
    return 0;
  }
}

double sum(const std::vector<TransferEvent> &ev) {
  double s = 0;
  for (const TransferEvent &e : ev)
    s += e.seconds;
  return s;
}

} // namespace

//===----------------------------------------------------------------------===//
// Strategies
//===----------------------------------------------------------------------===//

const char *strategyName(StrategyKind k) {
  switch (k) {
  case StrategyKind::InKernel:
    return "in-kernel";
  case StrategyKind::Pfp:
    return "pfp";
  case StrategyKind::PreScaler:
    return "prescaler";
  case StrategyKind::Ours:
    return "ours";
  }
  return "?";
}

Expected<StrategyKind> parseStrategy(const std::string &name) {
  for (StrategyKind k : {StrategyKind::InKernel, StrategyKind::Pfp,
                         StrategyKind::PreScaler, StrategyKind::Ours})
    if (name == strategyName(k))
      return k;
  return invalidArgument("unknown strategy " + quote(name) +
                         " (expected in-kernel, pfp, prescaler or ours)");
}

Strategy strategy(StrategyKind kind) {
  Strategy s;
  s.kind = kind;
  switch (kind) {
  case StrategyKind::InKernel:
    s.methods.host = false;
    s.methods.pipelinedHost = false;
    s.methods.pipelinedDevice = false;
    s.methods.transient = false;
    s.wildcard = false;
    break;
  case StrategyKind::Pfp:
    s.methods.pipelinedHost = false;
    s.methods.pipelinedDevice = false;
    s.methods.transient = false;
    s.perObject = false;
    s.wildcard = false;
    s.pfpCoresOnly = true;
    break;
  case StrategyKind::PreScaler:
    s.methods.pipelinedDevice = false;
    break;
  case StrategyKind::Ours:
    s.continuePastOverflow = true;
    s.wildcardDelta = true;
    s.trialNarrowingWildcard = true;
    break;
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Algorithm 2
//===----------------------------------------------------------------------===//

Expected<MethodChoice> bestMethod(const SystemDb &db, const ObjectProfile &obj,
                                  ScalarType B, Direction d,
                                  const MethodSet &set,
                                  const std::vector<ScalarType> &inter,
                                  HostMemory staging) {
  ScalarType A = obj.declared;
  if (!isPrecision(A) || !isPrecision(B))
    return invalidArgument("object " + quote(obj.name) + ": " +
                           scalarTypeName(A) + " stored as " +
                           scalarTypeName(B) +
                           " is not between f64, f32, f16 and bf16");
  std::vector<uint64_t> ns;
  for (const TransferEvent &e : obj.events)
    if (e.direction == d)
      ns.push_back(e.elements ? e.elements : obj.elements);
  if (ns.empty())
    return MethodChoice{Method::none(), 0.0};
  MoveMemory mem{obj.hostMemory, staging};
  auto cost = [&](const Method &m) -> Expected<double> {
    double s = 0;
    for (uint64_t n : ns) {
      APPROX_ASSIGN_OR_RETURN(double t, db.predictMove(A, B, d, n, m, mem));
      s += t;
    }
    return s;
  };
  std::string what = "object " + quote(obj.name) + " (" + scalarTypeName(A) +
                     " stored as " + scalarTypeName(B) + ", " +
                     directionName(d) + ")";
  if (A == B) {
    Expected<double> s = cost(Method::copy());
    if (!s)
      return s.status().withContext("cannot move " + what);
    return MethodChoice{Method::copy(), *s};
  }
  bool h2d = d == Direction::H2D;
  // Conversion source -> destination for a step between x (host side) and
  // y (device side).
  auto src = [&](ScalarType x, ScalarType y) { return h2d ? x : y; };
  auto dst = [&](ScalarType x, ScalarType y) { return h2d ? y : x; };
  auto threadsOk = [&](unsigned t) {
    return set.onlyThreads == 0 || t == set.onlyThreads;
  };
  std::vector<Method> cands;
  if (set.host)
    for (unsigned t : db.hostThreads(src(A, B), dst(A, B)))
      if (threadsOk(t))
        cands.push_back(Method::host(t));
  if (set.device && db.findDeviceConvert(src(A, B), dst(A, B)))
    cands.push_back(Method::device());
  for (const PipelinedTable *p : db.pipelinedFor(d, src(A, B), dst(A, B))) {
    if (p->where == Where::Host ? (set.pipelinedHost && threadsOk(p->threads))
                                : set.pipelinedDevice)
      cands.push_back(Method::pipelined(p->where, p->threads, p->chunkBytes));
  }
  if (set.transient) {
    std::set<int> seen;
    for (ScalarType I : inter) {
      if (I == A || I == B || !isPrecision(I) || !seen.insert(int(I)).second)
        continue;
      if (!db.findDeviceConvert(src(I, B), dst(I, B)))
        continue;
      for (unsigned t : db.hostThreads(src(A, I), dst(A, I)))
        if (threadsOk(t))
          cands.push_back(Method::transient(I, t));
    }
  }
  std::optional<MethodChoice> best;
  Status firstError;
  for (const Method &m : cands) {
    Expected<double> s = cost(m);
    if (!s) {
      if (firstError.isOk())
        firstError = s.status();
      continue;
    }
    if (!best || *s < best->seconds)
      best = MethodChoice{m, *s};
  }
  if (best)
    return *best;
  if (!firstError.isOk())
    return firstError.withContext("cannot move " + what);
  return notFound("cannot move " + what + ": the precision database has no "
                  "conversion table for " + scalarTypeName(src(A, B)) +
                  " -> " + scalarTypeName(dst(A, B)) +
                  " among the methods allowed");
}

Expected<MethodChoice> bestMethod(const SystemDb &db, const ObjectProfile &obj,
                                  ScalarType storage, Direction d,
                                  bool allowTransient) {
  MethodSet set;
  set.transient = allowTransient;
  std::vector<ScalarType> inter;
  if (allowTransient)
    inter = {ScalarType::F64, ScalarType::F32, ScalarType::F16,
             ScalarType::BF16};
  return bestMethod(db, obj, storage, d, set, inter);
}

//===----------------------------------------------------------------------===//
// Configurations
//===----------------------------------------------------------------------===//

const ObjectChoice *Configuration::find(const std::string &name) const {
  for (const ObjectChoice &o : objects)
    if (o.name == name)
      return &o;
  return nullptr;
}

std::string Configuration::key() const {
  std::string k;
  for (const ObjectChoice &o : objects)
    k += (k.empty() ? "" : " ") + o.name + "=" + scalarTypeName(o.storage) +
         "[h2d:" + o.h2d.str() + ",d2h:" + o.d2h.str() + "]";
  for (const KernelChoice &kc : kernels)
    if (kc.compute)
      k += " " + kc.name + ".compute=" + scalarTypeName(*kc.compute);
  return k;
}

bool Configuration::changesNothing() const {
  // A staged copy (host between equal types) keeps the values but not the
  // program's way of moving them.
  for (const ObjectChoice &o : objects)
    if (o.storage != o.declared ||
        (o.h2d.kind != Method::Copy && o.h2d.kind != Method::None) ||
        (o.d2h.kind != Method::Copy && o.d2h.kind != Method::None))
      return false;
  for (const KernelChoice &kc : kernels)
    if (kc.compute)
      return false;
  return true;
}

namespace {

using jsonread::at;
using jsonread::fail;

constexpr const char *kConfigFormat = "approx-precision-config";
constexpr int kConfigVersion = 1;

json methodJson(const Method &m) {
  json j = {{"kind", methodKindName(m.kind)}};
  if (m.kind == Method::Host || m.kind == Method::Transient ||
      (m.kind == Method::Pipelined && m.where == Where::Host))
    j["threads"] = m.threads;
  if (m.kind == Method::Transient)
    j["intermediate"] = scalarTypeName(m.intermediate);
  if (m.kind == Method::Pipelined) {
    j["where"] = whereName(m.where);
    j["chunk"] = m.chunkBytes;
  }
  return j;
}

json configJson(const Configuration &c) {
  json root;
  root["format"] = kConfigFormat;
  root["version"] = kConfigVersion;
  root["toq"] = c.toq;
  root["strategy"] = c.strategy;
  json objs = json::array();
  for (const ObjectChoice &o : c.objects)
    objs.push_back({{"name", o.name},
                    {"declared", scalarTypeName(o.declared)},
                    {"storage", scalarTypeName(o.storage)},
                    {"h2d", methodJson(o.h2d)},
                    {"d2h", methodJson(o.d2h)}});
  root["objects"] = std::move(objs);
  json ks = json::array();
  for (const KernelChoice &k : c.kernels) {
    json st = json::object();
    for (auto &[name, t] : k.storage)
      st[name] = scalarTypeName(t);
    ks.push_back({{"name", k.name},
                  {"compute", k.compute ? scalarTypeName(*k.compute) : "keep"},
                  {"storage", std::move(st)}});
  }
  root["kernels"] = std::move(ks);
  return root;
}

Method methodAt(const json &o, const std::string &path, const char *key,
                ScalarType A, ScalarType B) {
  std::string p = at(path, key);
  const json &j = reader.object(o, path, key);
  std::string kind = reader.string(j, p, "kind");
  Method m;
  if (kind == "none") {
    reader.onlyKeys(j, p, {"kind"});
    m = Method::none();
  } else if (kind == "copy") {
    reader.onlyKeys(j, p, {"kind"});
    m = Method::copy();
  } else if (kind == "host") {
    reader.onlyKeys(j, p, {"kind", "threads"});
    m = Method::host(
        unsigned(reader.unsignedInteger(j, p, "threads", 1, 1u << 20)));
  } else if (kind == "device") {
    reader.onlyKeys(j, p, {"kind"});
    m = Method::device();
  } else if (kind == "transient") {
    reader.onlyKeys(j, p, {"kind", "threads", "intermediate"});
    ScalarType I = typeAt(j, p, "intermediate");
    if (I == A || I == B)
      fail(at(p, "intermediate"),
           std::string(scalarTypeName(I)) +
               " is the declared or storage type (not transient)");
    m = Method::transient(
        I, unsigned(reader.unsignedInteger(j, p, "threads", 1, 1u << 20)));
  } else if (kind == "pipelined") {
    std::string ws = reader.string(j, p, "where");
    Expected<Where> w = parseWhere(ws);
    if (!w)
      fail(at(p, "where"), w.status().message());
    unsigned t = 0;
    if (*w == Where::Host) {
      reader.onlyKeys(j, p, {"kind", "where", "threads", "chunk"});
      t = unsigned(reader.unsignedInteger(j, p, "threads", 1, 1u << 20));
    } else {
      reader.onlyKeys(j, p, {"kind", "where", "chunk"});
    }
    m = Method::pipelined(
        *w, t, reader.unsignedInteger(j, p, "chunk", 1, uint64_t(1) << 50));
  } else {
    fail(at(p, "kind"), "unknown method " + quote(kind) +
                            " (expected none, copy, host, device, transient "
                            "or pipelined)");
  }
  if (m.kind == Method::Copy && A != B)
    fail(p, std::string("copy cannot move ") + scalarTypeName(A) +
                " stored as " + scalarTypeName(B));
  // Host between equal types is a staged copy (stagedCopyConfiguration).
  if (m.kind != Method::Copy && m.kind != Method::None &&
      m.kind != Method::Host && A == B)
    fail(p, std::string("method ") + kind +
                " converts, but storage is the "
                "declared type " +
                scalarTypeName(A) + " (use copy)");
  return m;
}

Configuration parseConfigOrThrow(const json &root) {
  reader.expectObject(root, "<root>");
  // The format first: a file of another kind says so, not its fields.
  checkFormat(root, kConfigFormat, kConfigVersion);
  reader.onlyKeys(
      root, "", {"format", "version", "toq", "strategy", "objects", "kernels"});
  Configuration c;
  c.toq = reader.number(root, "", "toq");
  if (!(c.toq > 0 && c.toq <= 1))
    fail("toq", std::to_string(c.toq) + " is not in (0, 1]");
  c.strategy = reader.string(root, "", "strategy");
  const json &objs = reader.array(root, "", "objects");
  std::set<std::string> names;
  for (size_t i = 0; i < objs.size(); ++i) {
    std::string p = at("objects", i);
    const json &o = objs[i];
    reader.expectObject(o, p);
    reader.onlyKeys(o, p, {"name", "declared", "storage", "h2d", "d2h"});
    ObjectChoice oc;
    oc.name = reader.nonEmptyString(o, p, "name");
    if (!names.insert(oc.name).second)
      fail(at(p, "name"), quote(oc.name) + " names a second object");
    oc.declared = typeAt(o, p, "declared");
    oc.storage = typeAt(o, p, "storage");
    if (oc.storage != oc.declared &&
        scalarTypeSize(oc.storage) >= scalarTypeSize(oc.declared))
      fail(at(p, "storage"), std::string(scalarTypeName(oc.storage)) +
                                 " is not narrower than the declared " +
                                 scalarTypeName(oc.declared));
    oc.h2d = methodAt(o, p, "h2d", oc.declared, oc.storage);
    oc.d2h = methodAt(o, p, "d2h", oc.declared, oc.storage);
    c.objects.push_back(std::move(oc));
  }
  const json &ks = reader.array(root, "", "kernels");
  std::set<std::string> knames;
  for (size_t i = 0; i < ks.size(); ++i) {
    std::string p = at("kernels", i);
    const json &k = ks[i];
    reader.expectObject(k, p);
    reader.onlyKeys(k, p, {"name", "compute", "storage"});
    KernelChoice kc;
    kc.name = reader.nonEmptyString(k, p, "name");
    if (!knames.insert(kc.name).second)
      fail(at(p, "name"), quote(kc.name) + " names a second kernel");
    std::string comp = reader.string(k, p, "compute");
    if (comp != "keep") {
      Expected<ScalarType> t = parsePrecision(comp);
      if (!t)
        fail(at(p, "compute"), "unknown type " + quote(comp) +
                                   " (expected keep, f64, f32, f16 or bf16)");
      kc.compute = *t;
    }
    const json &st = reader.object(k, p, "storage");
    for (auto it = st.begin(); it != st.end(); ++it) {
      std::string sp = at(at(p, "storage"), escapeBytes(it.key()));
      const ObjectChoice *oc = c.find(it.key());
      if (!oc)
        fail(sp, "names no object of the configuration");
      ScalarType t = typeAt(st, at(p, "storage"), it.key().c_str());
      if (t != oc->storage)
        fail(sp, std::string(scalarTypeName(t)) +
                     " is not the object's "
                     "storage type " +
                     scalarTypeName(oc->storage));
      kc.storage.push_back({it.key(), t});
    }
    c.kernels.push_back(std::move(kc));
  }
  return c;
}

} // namespace

Configuration configurationFor(const AppProfile &app,
                               std::vector<ObjectChoice> objects) {
  Configuration c;
  c.objects = std::move(objects);
  for (const KernelProfile &k : app.kernels) {
    KernelChoice kc;
    kc.name = k.name;
    for (size_t i = 0; i < app.objects.size() && i < c.objects.size(); ++i) {
      const ObjectProfile &o = app.objects[i];
      if (std::count(o.readBy.begin(), o.readBy.end(), k.name) ||
          std::count(o.writtenBy.begin(), o.writtenBy.end(), k.name))
        kc.storage.push_back({o.name, c.objects[i].storage});
    }
    c.kernels.push_back(std::move(kc));
  }
  return c;
}

Configuration stagedCopyConfiguration(const AppProfile &app, unsigned threads) {
  const Method staged = Method::host(std::max(1u, threads));
  std::vector<ObjectChoice> objects;
  for (const ObjectProfile &o : app.objects) {
    ObjectChoice ch{o.name, o.declared, o.declared, Method::none(),
                    Method::none()};
    for (const TransferEvent &e : o.events)
      (e.direction == Direction::H2D ? ch.h2d : ch.d2h) = staged;
    objects.push_back(std::move(ch));
  }
  Configuration c = configurationFor(app, std::move(objects));
  c.toq = 1;
  c.strategy = "staged-copy";
  return c;
}

std::string configurationToJson(const Configuration &c) {
  return configJson(c).dump(1) + "\n";
}

Expected<Configuration> parseConfiguration(const std::string &text) {
  return jsonread::parseDocument<Configuration>(text, "precision config",
                                                parseConfigOrThrow);
}

Expected<Configuration> loadConfiguration(const std::string &path) {
  return jsonread::loadDocument(path, uint64_t(16) << 20,
                                "precision configuration", parseConfiguration);
}

Status saveConfiguration(const Configuration &c, const std::string &path) {
  return writeFileAtomically(path, configurationToJson(c),
                             "precision configuration");
}

//===----------------------------------------------------------------------===//
// The profile file
//===----------------------------------------------------------------------===//

namespace {

using jsonread::at;
using jsonread::fail;

constexpr const char *kProfileFormat = "approx-precision-profile";
constexpr int kProfileVersion = 1;

double secondsAt(const json &o, const std::string &path, const char *key) {
  double x = reader.number(o, path, key);
  if (!std::isfinite(x) || x < 0)
    fail(at(path, key), std::to_string(x) + " is not a number >= 0");
  return x;
}

std::vector<std::string> stringsAt(const json &o, const std::string &path,
                                   const char *key) {
  const json &a = reader.array(o, path, key);
  std::vector<std::string> out;
  for (size_t i = 0; i < a.size(); ++i)
    out.push_back(reader.asString(a[i], at(at(path, key), i)));
  return out;
}

AppProfile parseProfileOrThrow(const json &root) {
  reader.expectObject(root, "<root>");
  // The format first: a file of another kind says so, not its fields.
  checkFormat(root, kProfileFormat, kProfileVersion);
  reader.onlyKeys(root, "",
                  {"format", "version", "objects", "kernels", "total_seconds",
                   "transfers"});
  AppProfile p;
  p.totalSeconds = secondsAt(root, "", "total_seconds");
  const json &objs = reader.array(root, "", "objects");
  for (size_t i = 0; i < objs.size(); ++i) {
    std::string path = at("objects", i);
    const json &o = objs[i];
    reader.expectObject(o, path);
    reader.onlyKeys(o, path,
                    {"name", "declared", "elements", "host_memory", "events",
                     "read_by", "written_by"});
    ObjectProfile op;
    op.name = reader.string(o, path, "name");
    op.declared = typeAt(o, path, "declared");
    op.elements =
        reader.unsignedInteger(o, path, "elements", 0, uint64_t(1) << 60);
    std::string hm = reader.string(o, path, "host_memory");
    Expected<HostMemory> h = parseHostMemory(hm);
    if (!h)
      fail(at(path, "host_memory"), h.status().message());
    op.hostMemory = *h;
    const json &ev = reader.array(o, path, "events");
    for (size_t k = 0; k < ev.size(); ++k) {
      std::string ep = at(at(path, "events"), k);
      reader.expectObject(ev[k], ep);
      reader.onlyKeys(ev[k], ep, {"direction", "seconds", "elements"});
      TransferEvent e;
      std::string dn = reader.string(ev[k], ep, "direction");
      Expected<Direction> d = parseDirection(dn);
      if (!d)
        fail(at(ep, "direction"), d.status().message());
      e.direction = *d;
      e.seconds = secondsAt(ev[k], ep, "seconds");
      e.elements =
          reader.unsignedInteger(ev[k], ep, "elements", 0, uint64_t(1) << 60);
      op.events.push_back(e);
    }
    op.readBy = stringsAt(o, path, "read_by");
    op.writtenBy = stringsAt(o, path, "written_by");
    p.objects.push_back(std::move(op));
  }
  const json &ks = reader.array(root, "", "kernels");
  for (size_t i = 0; i < ks.size(); ++i) {
    std::string path = at("kernels", i);
    const json &k = ks[i];
    reader.expectObject(k, path);
    reader.onlyKeys(k, path, {"name", "seconds", "can_compute_lower"});
    KernelProfile kp;
    kp.name = reader.string(k, path, "name");
    kp.seconds = secondsAt(k, path, "seconds");
    kp.canComputeLower = reader.boolean(k, path, "can_compute_lower");
    p.kernels.push_back(std::move(kp));
  }
  p.transfers = stringsAt(root, "", "transfers");
  return p;
}

} // namespace

std::string appProfileToJson(const AppProfile &p) {
  json root;
  root["format"] = kProfileFormat;
  root["version"] = kProfileVersion;
  root["total_seconds"] = p.totalSeconds;
  json objs = json::array();
  for (const ObjectProfile &o : p.objects) {
    json ev = json::array();
    for (const TransferEvent &e : o.events)
      ev.push_back({{"direction", directionName(e.direction)},
                    {"seconds", e.seconds},
                    {"elements", e.elements}});
    objs.push_back({{"name", o.name},
                    {"declared", scalarTypeName(o.declared)},
                    {"elements", o.elements},
                    {"host_memory", hostMemoryName(o.hostMemory)},
                    {"events", std::move(ev)},
                    {"read_by", o.readBy},
                    {"written_by", o.writtenBy}});
  }
  root["objects"] = std::move(objs);
  json ks = json::array();
  for (const KernelProfile &k : p.kernels)
    ks.push_back({{"name", k.name},
                  {"seconds", k.seconds},
                  {"can_compute_lower", k.canComputeLower}});
  root["kernels"] = std::move(ks);
  root["transfers"] = p.transfers;
  return root.dump(1) + "\n";
}

Expected<AppProfile> parseAppProfile(const std::string &text) {
  return jsonread::parseDocument<AppProfile>(text, "precision profile",
                                             parseProfileOrThrow);
}

Expected<AppProfile> loadAppProfile(const std::string &path) {
  return jsonread::loadDocument(path, uint64_t(64) << 20, "precision profile",
                                parseAppProfile);
}

Status saveAppProfile(const AppProfile &p, const std::string &path) {
  return writeFileAtomically(path, appProfileToJson(p), "precision profile");
}

//===----------------------------------------------------------------------===//
// Algorithm 1
//===----------------------------------------------------------------------===//

namespace {

Status checkProfile(const AppProfile &app) {
  if (app.objects.empty())
    return invalidArgument("the profile has no memory object to scale");
  if (!std::isfinite(app.totalSeconds) || app.totalSeconds <= 0)
    return invalidArgument("the profile's total time " +
                           std::to_string(app.totalSeconds) +
                           " s is not a positive number");
  std::set<std::string> kernels;
  for (const KernelProfile &k : app.kernels) {
    if (k.name.empty())
      return invalidArgument("a kernel of the profile has no name");
    if (!kernels.insert(k.name).second)
      return invalidArgument("kernel " + quote(k.name) +
                             " appears twice in the profile");
    if (!std::isfinite(k.seconds) || k.seconds < 0)
      return invalidArgument("kernel " + quote(k.name) + ": time " +
                             std::to_string(k.seconds) +
                             " s is not a number >= 0");
  }
  std::set<std::string> names;
  for (const ObjectProfile &o : app.objects) {
    std::string what = "object " + quote(o.name);
    if (o.name.empty())
      return invalidArgument("an object of the profile has no name");
    if (!names.insert(o.name).second)
      return invalidArgument(what + " appears twice in the profile");
    if (!isPrecision(o.declared))
      return invalidArgument(what + ": declared type " +
                             scalarTypeName(o.declared) +
                             " is not f64, f32, f16 or bf16");
    if (o.elements == 0)
      return invalidArgument(what + " has no elements");
    for (const TransferEvent &e : o.events) {
      if (!std::isfinite(e.seconds) || e.seconds < 0)
        return invalidArgument(what + ": a transfer's time " +
                               std::to_string(e.seconds) +
                               " s is not a number >= 0");
      if (e.elements > o.elements)
        return invalidArgument(what + ": a transfer of " +
                               std::to_string(e.elements) +
                               " elements is larger than the object (" +
                               std::to_string(o.elements) + ")");
    }
    for (const auto *list : {&o.readBy, &o.writtenBy})
      for (const std::string &k : *list)
        if (!kernels.count(k))
          return invalidArgument(what + " names kernel " + quote(k) +
                                 ", which the profile does not list");
  }
  return Status::ok();
}

Status checkTypes(const std::vector<ScalarType> &types) {
  if (types.empty())
    return invalidArgument("no storage type to choose from");
  for (size_t i = 0; i < types.size(); ++i) {
    if (!isPrecision(types[i]))
      return invalidArgument(std::string("storage type ") +
                             scalarTypeName(types[i]) +
                             " is not f64, f32, f16 or bf16");
    if (i && precisionRank(types[i]) <= precisionRank(types[i - 1]))
      return invalidArgument(
          std::string("storage types must be distinct and in descending "
                      "precision (f64, f32, f16, bf16): ") +
          scalarTypeName(types[i]) + " follows " +
          scalarTypeName(types[i - 1]));
  }
  return Status::ok();
}

/// The types, methods and time of the current configuration.
struct State {
  std::vector<ScalarType> types;
  std::vector<MethodChoice> h2d, d2h;
  double seconds = 0;
  bool measured = false;
};

class Search {
public:
  Search(const SystemDb &db, const AppProfile &app, const DecisionOptions &o,
         const Trial &trial)
      : db_(db), app_(app), opt_(o), s_(o.strategy), trial_(trial) {}

  Expected<Decision> run();

private:
  /// Candidate storage types of object i: its declared type and every
  /// listed type of fewer bytes, in descending precision.
  std::vector<ScalarType> candidates(size_t i) const {
    ScalarType A = app_.objects[i].declared;
    std::vector<ScalarType> c{A};
    for (ScalarType t : opt_.types)
      if (scalarTypeSize(t) < scalarTypeSize(A))
        c.push_back(t);
    return c;
  }

  MethodSet normalSet() const {
    MethodSet m = s_.methods;
    m.transient = false;
    return m;
  }

  Status setObject(State &st, size_t i, ScalarType t, const MethodSet &set,
                   const std::vector<ScalarType> &inter) const {
    const ObjectProfile &o = app_.objects[i];
    APPROX_ASSIGN_OR_RETURN(
        MethodChoice h, bestMethod(db_, o, t, Direction::H2D, set, inter,
                                   opt_.staging));
    APPROX_ASSIGN_OR_RETURN(
        MethodChoice d, bestMethod(db_, o, t, Direction::D2H, set, inter,
                                   opt_.staging));
    st.types[i] = t;
    st.h2d[i] = h;
    st.d2h[i] = d;
    return Status::ok();
  }

  Configuration config(const State &st) const {
    std::vector<ObjectChoice> objects;
    for (size_t i = 0; i < app_.objects.size(); ++i)
      objects.push_back({app_.objects[i].name, app_.objects[i].declared,
                         st.types[i], st.h2d[i].method, st.d2h[i].method});
    Configuration c = configurationFor(app_, std::move(objects));
    c.toq = opt_.toq;
    c.strategy = strategyName(s_.kind);
    return c;
  }

  static std::string typesKey(const std::vector<ScalarType> &t) {
    std::string k;
    for (ScalarType x : t)
      k += std::string(scalarTypeName(x)) + ",";
    return k;
  }

  double movesSeconds(const State &st) const {
    double s = 0;
    for (size_t i = 0; i < st.types.size(); ++i)
      s += st.h2d[i].seconds + st.d2h[i].seconds;
    return s;
  }

  struct Outcome {
    bool ran = false; ///< false: the bound stopped it
    TrialResult r;
    bool pass = false;
  };

  /// Runs `st` (or returns the remembered result of the same configuration).
  Expected<Outcome> tryConfig(const State &st, const char *phase,
                              const std::string &object);

  const SystemDb &db_;
  const AppProfile &app_;
  const DecisionOptions &opt_;
  Strategy s_;
  const Trial &trial_;
  Decision out_;
  std::map<std::string, Outcome> memo_;
  std::map<std::string, double> kernelByTypes_;
  double profileKernel_ = 0, otherSeconds_ = 0;
};

Expected<Search::Outcome> Search::tryConfig(const State &st, const char *phase,
                                            const std::string &object) {
  Configuration c = config(st);
  std::string key = c.key();
  auto it = memo_.find(key);
  if (it != memo_.end())
    return it->second;
  if (out_.trials.size() >= out_.trialBound) {
    out_.budgetExhausted = true;
    return Outcome{};
  }
  Expected<TrialResult> r = trial_(c);
  if (!r)
    return r.status().withContext("trial " +
                                  std::to_string(out_.trials.size() + 1) +
                                  " (" + key + ")");
  TrialResult res = *r;
  if (!std::isfinite(res.totalSeconds) || res.totalSeconds <= 0)
    return invalidArgument("trial " + std::to_string(out_.trials.size() + 1) +
                           " reported a total time of " +
                           std::to_string(res.totalSeconds) +
                           " s (expected a positive number)");
  if (!std::isfinite(res.quality))
    res.failed = true; // NaN output: no quality to speak of
  if (!std::isfinite(res.kernelSeconds))
    res.kernelSeconds = -1;
  Outcome o;
  o.ran = true;
  o.r = res;
  o.pass = !res.failed && !res.overflow && res.quality >= opt_.toq;
  out_.trials.push_back({phase, object, c, res, o.pass});
  assert(out_.trials.size() <= out_.trialBound &&
         "the decision maker exceeded its trial bound");
  memo_[key] = o;
  if (res.kernelSeconds >= 0)
    kernelByTypes_[typesKey(st.types)] = res.kernelSeconds;
  return o;
}

Expected<Decision> Search::run() {
  const size_t M = app_.objects.size(), n = opt_.types.size();
  out_.trialBound = unsigned(M * (1 + n));
  out_.baselineSeconds = app_.totalSeconds;
  if (s_.pfpCoresOnly)
    s_.methods.onlyThreads = db_.machine.cpu.logicalCores;
  double transfers = 0;
  for (const KernelProfile &k : app_.kernels)
    profileKernel_ += k.seconds;
  for (const ObjectProfile &o : app_.objects)
    transfers += sum(o.events);
  otherSeconds_ = std::max(0.0, app_.totalSeconds - profileKernel_ - transfers);

  // The original configuration, measured by the profiler.
  State cur;
  cur.types.resize(M);
  cur.h2d.resize(M);
  cur.d2h.resize(M);
  for (size_t i = 0; i < M; ++i)
    APPROX_RETURN_IF_ERROR(setObject(cur, i, app_.objects[i].declared,
                                     normalSet(), {}));
  cur.seconds = app_.totalSeconds;
  cur.measured = true;
  {
    Outcome o;
    o.ran = true;
    o.pass = true;
    o.r.quality = 1;
    o.r.totalSeconds = app_.totalSeconds;
    o.r.kernelSeconds = profileKernel_;
    memo_[config(cur).key()] = o;
    kernelByTypes_[typesKey(cur.types)] = profileKernel_;
  }

  // PFP: every object at one type, for each type (an object keeps its
  // declared type where the type is not narrower).
  if (s_.pfp) {
    State best = cur;
    for (ScalarType T : opt_.types) {
      State st = cur;
      for (size_t i = 0; i < M; ++i) {
        ScalarType A = app_.objects[i].declared;
        ScalarType t = scalarTypeSize(T) < scalarTypeSize(A) ? T : A;
        APPROX_RETURN_IF_ERROR(setObject(st, i, t, normalSet(), {}));
      }
      APPROX_ASSIGN_OR_RETURN(Outcome o, tryConfig(st, "pfp", ""));
      if (!o.ran)
        break;
      if (o.pass && o.r.totalSeconds < best.seconds) {
        best = st;
        best.seconds = o.r.totalSeconds;
        best.measured = true;
      }
    }
    cur = best;
  }

  if (s_.perObject) {
    std::vector<size_t> order(M);
    for (size_t i = 0; i < M; ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return sum(app_.objects[a].events) > sum(app_.objects[b].events);
    });
    for (size_t i : order) {
      if (out_.budgetExhausted)
        break;
      const ObjectProfile &obj = app_.objects[i];
      std::vector<ScalarType> cand = candidates(i);
      // Normal search (Algorithm 1, lines 1-13): direct methods only, the
      // declared type skipped (line 3), descending precision, stop at the
      // first TOQ failure.
      State normalBest = cur;
      std::vector<ScalarType> accepted, failed;
      struct Seen {
        State st;
        TrialResult r;
      };
      std::map<int, Seen> seen;
      for (size_t k = 1; k < cand.size(); ++k) {
        ScalarType T = cand[k];
        State st = cur;
        APPROX_RETURN_IF_ERROR(setObject(st, i, T, normalSet(), {}));
        APPROX_ASSIGN_OR_RETURN(Outcome o, tryConfig(st, "normal", obj.name));
        if (!o.ran)
          break;
        if (!o.pass) {
          failed.push_back(T);
          bool widerLater = false;
          for (size_t l = k + 1; l < cand.size(); ++l)
            widerLater = widerLater || maxFinite(cand[l]) > maxFinite(T);
          if (s_.continuePastOverflow && o.r.overflow && !o.r.failed &&
              widerLater)
            continue;
          break;
        }
        accepted.push_back(T);
        st.seconds = o.r.totalSeconds;
        st.measured = true;
        seen[int(T)] = {st, o.r};
        if (st.seconds < normalBest.seconds)
          normalBest = st;
      }
      if (out_.budgetExhausted) {
        cur = normalBest;
        break;
      }
      // Wildcard test (lines 14-32): transient methods through the accepted
      // and failed types, predicted, for every accepted target.
      std::optional<State> wild;
      if (s_.wildcard && s_.methods.transient && !accepted.empty()) {
        std::vector<ScalarType> inter = accepted;
        inter.insert(inter.end(), failed.begin(), failed.end());
        MethodSet set = s_.methods;
        for (ScalarType T : accepted) {
          const Seen &sn = seen[int(T)];
          State w = sn.st;
          APPROX_RETURN_IF_ERROR(setObject(w, i, T, set, inter));
          if (w.h2d[i].method == sn.st.h2d[i].method &&
              w.d2h[i].method == sn.st.d2h[i].method)
            continue; // nothing the normal search did not try
          double expected;
          if (s_.wildcardDelta) {
            expected = sn.r.totalSeconds -
                       (sn.st.h2d[i].seconds + sn.st.d2h[i].seconds) +
                       (w.h2d[i].seconds + w.d2h[i].seconds);
          } else {
            double kernel =
                sn.r.kernelSeconds >= 0 ? sn.r.kernelSeconds : profileKernel_;
            expected = movesSeconds(w) + kernel + otherSeconds_;
          }
          w.seconds = expected;
          w.measured = false;
          if (!wild || expected < wild->seconds)
            wild = w;
        }
      }
      if (!wild || wild->seconds >= normalBest.seconds) {
        cur = normalBest;
        continue;
      }
      ScalarType T = wild->types[i];
      bool usesFailed = false, narrows = false;
      for (const Method *m : {&wild->h2d[i].method, &wild->d2h[i].method}) {
        if (m->kind != Method::Transient)
          continue;
        usesFailed = usesFailed || std::count(failed.begin(), failed.end(),
                                              m->intermediate);
        narrows = narrows || !holds(m->intermediate, T);
      }
      if (!usesFailed && !(s_.trialNarrowingWildcard && narrows)) {
        cur = *wild; // predicted, not run (line 29)
        continue;
      }
      APPROX_ASSIGN_OR_RETURN(Outcome o,
                              tryConfig(*wild, "wildcard", obj.name));
      if (!o.ran || !o.pass ||
          (s_.trialNarrowingWildcard &&
           o.r.totalSeconds >= normalBest.seconds)) {
        cur = normalBest;
        continue;
      }
      cur = *wild;
      cur.seconds = o.r.totalSeconds;
      cur.measured = true;
    }
  }

  out_.config = config(cur);
  auto kb = kernelByTypes_.find(typesKey(cur.types));
  double kernel = kb != kernelByTypes_.end() ? kb->second : profileKernel_;
  out_.predictedSeconds = otherSeconds_ + kernel + movesSeconds(cur);
  auto m = memo_.find(out_.config.key());
  if (m != memo_.end()) {
    out_.measuredSeconds = m->second.r.totalSeconds;
    out_.quality = m->second.r.quality;
  }
  return std::move(out_);
}

} // namespace

Expected<Decision> decide(const SystemDb &db, const AppProfile &app,
                          const DecisionOptions &options, const Trial &trial) {
  if (!(options.toq > 0 && options.toq <= 1))
    return invalidArgument("TOQ " + std::to_string(options.toq) +
                           " is not in (0, 1] (0.9: mean relative error "
                           "<= 10%)");
  APPROX_RETURN_IF_ERROR(checkTypes(options.types));
  APPROX_RETURN_IF_ERROR(checkProfile(app));
  if (!trial)
    return invalidArgument("decide() needs a trial callback");
  Search s(db, app, options, trial);
  return s.run();
}

Expected<Decision> decideWith(StrategyKind kind, const SystemDb &db,
                              const AppProfile &app, DecisionOptions options,
                              const Trial &trial) {
  options.strategy = strategy(kind);
  return decide(db, app, options, trial);
}

std::string decisionToJson(const Decision &d) {
  json root;
  root["config"] = configJson(d.config);
  root["trial_bound"] = d.trialBound;
  root["budget_exhausted"] = d.budgetExhausted;
  root["baseline_seconds"] = d.baselineSeconds;
  root["predicted_seconds"] = d.predictedSeconds;
  root["measured_seconds"] =
      d.measuredSeconds ? json(*d.measuredSeconds) : json(nullptr);
  root["quality"] = d.quality ? json(*d.quality) : json(nullptr);
  json trials = json::array();
  for (const TrialRecord &t : d.trials)
    trials.push_back({{"phase", t.phase},
                      {"object", t.object},
                      {"config", t.config.key()},
                      {"quality", t.result.quality},
                      {"failed", t.result.failed},
                      {"overflow", t.result.overflow},
                      {"total_seconds", t.result.totalSeconds},
                      {"kernel_seconds", t.result.kernelSeconds},
                      {"pass", t.pass}});
  root["trials"] = std::move(trials);
  return root.dump(1) + "\n";
}

} // namespace approx::rt::precision
