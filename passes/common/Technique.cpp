//===- Technique.cpp - The registry of techniques -------------------------===//
//
// A process-wide list, guarded by a mutex: tools register before they build
// pipelines, tests may register a technique of their own.
//
//===----------------------------------------------------------------------===//
#include "approx/Passes/Technique.h"

#include <algorithm>
#include <mutex>
#include <optional>

using namespace mlir;
using namespace mlir::approx;

namespace {
std::mutex &registryMutex() {
  static std::mutex m;
  return m;
}
std::vector<Technique> &registry() {
  static std::vector<Technique> r;
  return r;
}
} // namespace

void mlir::approx::registerTechnique(Technique t) {
  std::lock_guard<std::mutex> lock(registryMutex());
  std::vector<Technique> &r = registry();
  auto same = std::find_if(
      r.begin(), r.end(), [&](const Technique &x) { return x.name == t.name; });
  if (same != r.end())
    *same = std::move(t);
  else
    r.push_back(std::move(t));
}

std::vector<Technique> mlir::approx::registeredTechniques() {
  std::vector<Technique> r;
  {
    std::lock_guard<std::mutex> lock(registryMutex());
    r = registry();
  }
  std::stable_sort(
      r.begin(), r.end(), [](const Technique &a, const Technique &b) {
        return a.order != b.order ? a.order < b.order : a.name < b.name;
      });
  return r;
}

/// The technique named `name`, if registered.
static std::optional<Technique> findTechnique(StringRef name) {
  for (Technique &t : registeredTechniques())
    if (t.name == name)
      return std::move(t);
  return std::nullopt;
}

/// "a, b, c": the registered techniques' names.
static std::string registeredNames() {
  std::string known;
  for (const Technique &t : registeredTechniques())
    known += (known.empty() ? "" : ", ") + t.name;
  return known;
}

LogicalResult
mlir::approx::refuseOwnOptions(StringRef name,
                               const llvm::StringMap<std::string> &own,
                               std::string &error) {
  if (own.empty())
    return success();
  // StringMap iterates in no fixed order: name the smallest key.
  std::string first = own.begin()->getKey().str();
  for (const auto &e : own)
    first = std::min(first, e.getKey().str());
  std::string keys;
  if (std::optional<Technique> t = findTechnique(name))
    for (const OptionAlias &a : t->options) {
      if (a.key == first) {
        // technique=NAME.KEY=V for one of approx-to-ptx's own options.
        error = ("technique=" + name + "." + first + ": " + name + "." +
                 first + " is approx-to-ptx's " + a.option + "; write " +
                 name + "." + first + "=V or " + a.option + "=V")
                    .str();
        return failure();
      }
      keys += (keys.empty() ? "" : ", ") + (name + "." + a.key).str();
    }
  error = ("technique " + name + " has no option '" + first +
           "' (its options: " + (keys.empty() ? "none" : keys) + ")")
              .str();
  return failure();
}

/// The option text split at spaces outside quotes and braces.
static std::vector<std::string> splitOptions(StringRef text) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      --depth;
    } else if (c == ' ' && depth == 0) {
      if (!cur.empty())
        out.push_back(std::move(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!cur.empty())
    out.push_back(std::move(cur));
  return out;
}

FailureOr<std::string> mlir::approx::expandGroupedOptions(StringRef text,
                                                          std::string &error) {
  std::vector<std::string> tokens = splitOptions(text);
  // Each option named, and how (to refuse one given both ways).
  llvm::StringMap<std::string> spelled;
  for (const std::string &tok : tokens) {
    StringRef name = StringRef(tok).split('=').first;
    if (!name.contains('.'))
      spelled.try_emplace(name, name.str() + "=");
  }
  std::string out;
  for (const std::string &tok : tokens) {
    auto [name, value] = StringRef(tok).split('=');
    std::string rewritten = tok;
    if (name.contains('.')) {
      auto [tech, key] = name.split('.');
      std::optional<Technique> t = findTechnique(tech);
      if (!t) {
        error = "'" + tok + "': no technique '" + tech.str() +
                "' is registered (registered: " + registeredNames() + ")";
        return failure();
      }
      const OptionAlias *alias = nullptr;
      for (const OptionAlias &a : t->options)
        if (a.key == key)
          alias = &a;
      if (alias) {
        auto [it, fresh] =
            spelled.try_emplace(alias->option, name.str() + "=");
        if (!fresh) {
          error = "option '" + alias->option + "' is given twice (" +
                  it->second + " and " + name.str() + "=)";
          return failure();
        }
        rewritten = alias->option + "=" + value.str();
      } else {
        rewritten = "technique=" + tok;
      }
    }
    out += (out.empty() ? "" : " ") + rewritten;
  }
  return out;
}
