//===- Technique.cpp - The registry of techniques -------------------------===//
//
// A process-wide list, guarded by a mutex: tools register before they build
// pipelines, tests may register a technique of their own.
//
//===----------------------------------------------------------------------===//
#include "approx/Passes/Technique.h"

#include <algorithm>
#include <mutex>

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

LogicalResult
mlir::approx::refuseOwnOptions(StringRef name, StringRef options,
                               const llvm::StringMap<std::string> &own,
                               std::string &error) {
  if (own.empty())
    return success();
  error = ("technique " + name + " takes its options as approx-to-ptx's own (" +
           options + "), not technique=" + name + ".KEY")
              .str();
  return failure();
}
