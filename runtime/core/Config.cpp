//===- Config.cpp - A point of a manifest's knob space --------------------===//
//
// Parsing and checking configurations against a manifest's typed knob
// space, their canonical text, and the configuration cache's keys
// (docs/configurations.md).
//
//===----------------------------------------------------------------------===//

#include "approx/runtime/core/Config.h"
#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Sha256.h"
#include "approx/runtime/core/Text.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <cerrno>
#include <cstdlib>
#include <sys/stat.h>

namespace approx::rt {
namespace {

/// The knob's value ids, comma-separated (for messages).
std::string idList(const KnobInfo &k) {
  std::string out;
  for (const KnobValue &v : k.domain.values)
    out += (out.empty() ? "" : ", ") + v.id;
  return out;
}

} // namespace

int64_t Config::valueOf(const Manifest &m, const std::string &knob) const {
  auto it = values.find(knob);
  if (it != values.end())
    return it->second;
  const KnobInfo *k = m.findKnob(knob);
  return k ? k->defaultValue : 0;
}

Expected<Config> parseConfig(const Manifest &m, const std::string &text) {
  Config c;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    size_t end = text.find(',', start);
    std::string entry = text.substr(
        start, end == std::string::npos ? std::string::npos : end - start);
    size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == entry.size())
      return invalidArgument("configuration entry " + quote(entry) +
                             " is not KNOB=VALUE");
    std::string name = entry.substr(0, eq), value = entry.substr(eq + 1);
    const KnobInfo *k = m.findKnob(name);
    if (!k)
      return notFound("configuration names unknown knob " + quote(name));
    if (c.values.count(name))
      return invalidArgument("configuration names knob " + quote(name) +
                             " twice");
    if (k->domain.kind == DomainKind::Ordinal) {
      char *stop = nullptr;
      errno = 0;
      long long v = std::strtoll(value.c_str(), &stop, 10);
      if (value.empty() || *stop || errno)
        return invalidArgument("configuration: " + quote(value) +
                               " is not an integer value of ordinal knob " +
                               quote(name));
      if (v < k->min || v > k->max)
        return outOfRange("configuration: " + name + "=" + value +
                          " lies outside [" + std::to_string(k->min) + ", " +
                          std::to_string(k->max) + "]");
      c.values[name] = v;
    } else {
      std::optional<int64_t> i = k->valueOf(value);
      if (!i)
        return notFound("configuration: " + quote(value) +
                        " is not a value of knob " + quote(name) + " (" +
                        idList(*k) + ")");
      c.values[name] = *i;
    }
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return c;
}

Status checkConfig(const Manifest &m, const Config &c) {
  for (const auto &[name, v] : c.values) {
    const KnobInfo *k = m.findKnob(name);
    if (!k)
      return notFound("configuration names unknown knob " + quote(name));
    if (v < k->min || v > k->max)
      return outOfRange("configuration: knob " + quote(name) + " at " +
                        std::to_string(v) + " lies outside [" +
                        std::to_string(k->min) + ", " + std::to_string(k->max) +
                        "]");
  }
  for (const KnobInfo &k : m.knobs)
    for (const KnobConstraint &r : k.constraints) {
      std::string mine = k.valueId(c.valueOf(m, k.name));
      if (std::find(r.when.begin(), r.when.end(), mine) == r.when.end())
        continue;
      const KnobInfo *other = m.findKnob(r.knob); // checked by the parser
      std::string theirs = other->valueId(c.valueOf(m, r.knob));
      if (std::find(r.values.begin(), r.values.end(), theirs) ==
          r.values.end()) {
        std::string want;
        for (const std::string &v : r.values)
          want += (want.empty() ? "" : ", ") + v;
        return invalidArgument("configuration breaks a constraint: " + k.name +
                               "=" + mine + " needs " + r.knob + " in (" +
                               want + "), not " + theirs);
      }
    }
  return Status::ok();
}

/// True when value `v` of a categorical knob approximates nothing.
static bool isExact(const KnobValue &v) {
  switch (v.payload.type) {
  case Payload::Type::PerforationScheme:
    return v.payload.scheme == "accurate";
  case Payload::Type::LnsImpl:
    return v.payload.impl == "precise";
  default:
    return false;
  }
}

Config preciseConfig(const Manifest &m) {
  Config c;
  for (const KnobInfo &k : m.knobs) {
    int64_t v = k.defaultValue;
    if (k.kind == KnobKind::Build) {
      v = k.builtValue;
    } else if (k.domain.kind == DomainKind::Ordinal) {
      v = k.min <= 0 && 0 <= k.max ? 0 : k.min;
    } else if (k.domain.kind == DomainKind::Categorical) {
      for (size_t i = 0; i < k.domain.values.size(); ++i)
        if (isExact(k.domain.values[i])) {
          v = k.min + int64_t(i);
          break;
        }
    }
    c.values[k.name] = v;
  }
  return c;
}

std::string configText(const Manifest &m, const Config &c) {
  std::vector<std::string> names;
  for (const KnobInfo &k : m.knobs)
    names.push_back(k.name);
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string &n : names)
    out += (out.empty() ? "" : ",") + n + "=" +
           m.findKnob(n)->valueId(c.valueOf(m, n));
  return out;
}

std::string buildConfigText(const Manifest &m, const Config &c) {
  std::vector<std::string> names;
  for (const KnobInfo &k : m.knobs)
    if (k.kind == KnobKind::Build)
      names.push_back(k.name);
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string &n : names)
    out += (out.empty() ? "" : ";") + n + "=" +
           m.findKnob(n)->valueId(c.valueOf(m, n));
  return out;
}

bool isBuiltFor(const Manifest &m, const Config &c) {
  for (const KnobInfo &k : m.knobs) {
    if (k.kind != KnobKind::Build)
      continue;
    auto it = m.configuration.find(k.name);
    if (it == m.configuration.end() ||
        it->second != k.valueId(c.valueOf(m, k.name)))
      return false;
  }
  return true;
}

Expected<std::string> ConfigCache::key(const Manifest &m,
                                       const Config &c) const {
  if (m.recipeId.empty())
    return Status(StatusCode::InvalidArgument,
                  "manifest " + quote(m.module) +
                      " names no recipe: it was not built by approx-build, "
                      "so its other configurations cannot be looked up");
  return sha256Hex(m.recipeId + "\n" + buildConfigText(m, c));
}

Expected<std::string> ConfigCache::find(const Manifest &m,
                                        const Config &c) const {
  Expected<std::string> k = key(m, c);
  if (!k)
    return k.status();
  std::string path = dir_ + "/" + *k + "/" + m.module + ".manifest.json";
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return notFound("configuration " + quote(buildConfigText(m, c)) +
                    " is not built (key " + *k + " in " + quote(dir_) +
                    "): approx-build --cache " + dir_ + " --config ...");
  return path;
}

Expected<Config> readKnobsFile(const std::string &path, const Manifest &m) {
  const std::string where = "knobs file " + quote(path);
  APPROX_ASSIGN_OR_RETURN(std::string text,
                          readRegularFile(path, 1 << 20, "knobs file"));
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return parseError(where + ": not a JSON object");
  if (j.value("format", "") != "approx-knobs" || !j.contains("version") ||
      !j["version"].is_number_integer() || j["version"].get<int64_t>() != 1)
    return parseError(where + ": format must be \"approx-knobs\", version 1");
  if (!j.contains("modules") || !j["modules"].is_object())
    return parseError(where + ": \"modules\" must be an object");
  Config c;
  auto mod = j["modules"].find(m.module);
  if (mod == j["modules"].end())
    return c;
  if (!mod->is_object())
    return parseError(where + ": module " + quote(m.module) +
                      " must map knobs to value ids");
  for (auto it = mod->begin(); it != mod->end(); ++it) {
    const KnobInfo *k = m.findKnob(it.key());
    if (!k)
      return invalidArgument(where + ": module " + quote(m.module) +
                             " has no knob " + quote(it.key()));
    if (!it.value().is_string())
      return parseError(where + ": knob " + quote(it.key()) +
                        ": the value must be a value id (a string)");
    std::optional<int64_t> v = k->valueOf(it.value().get<std::string>());
    if (!v)
      return invalidArgument(where + ": " +
                             quote(it.value().get<std::string>()) +
                             " is not a value of knob " + quote(k->name));
    c.values[k->name] = *v;
  }
  APPROX_RETURN_IF_ERROR(checkConfig(m, c).withContext(where));
  return c;
}

std::string knobsFileText(const Manifest &m, const Config &c) {
  nlohmann::json knobs = nlohmann::json::object();
  // Host knobs are the host's business (a tuner's), not the module's.
  for (const auto &[name, value] : c.values)
    if (const KnobInfo *k = m.findKnob(name); k && k->kind != KnobKind::Host)
      knobs[name] = k->valueId(value);
  nlohmann::json j = {{"format", "approx-knobs"},
                      {"version", 1},
                      {"modules", {{m.module, knobs}}}};
  return j.dump(1) + "\n";
}

} // namespace approx::rt
