//===- Capture.cpp - A program's outputs, for a tuner running it ----------===//
#include "approx/runtime/core/Capture.h"

#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Text.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace approx::rt::capture {

namespace {

std::mutex gMutex;
unsigned gSequence = 0;
double gSeconds = 0;

std::string dir() {
  const char *v = std::getenv("APPROX_CAPTURE");
  return v ? v : "";
}

/// Writes `bytes` at `data` to `path` (replaced); the caller holds gMutex.
Status writeFile(const std::string &path, const void *data, size_t bytes) {
  std::FILE *f = std::fopen(path.c_str(), "wb");
  bool ok = f && (bytes == 0 || std::fwrite(data, 1, bytes, f) == bytes);
  ok = (f && std::fclose(f) == 0) && ok;
  if (!ok)
    return ioError("APPROX_CAPTURE: cannot write " + quote(path) + ": " +
                   std::strerror(errno));
  return Status::ok();
}

/// Adds `s` to the total and rewrites DIR/capture-seconds; the caller holds
/// gMutex.
Status account(double s) {
  gSeconds += s;
  char text[64];
  int n = std::snprintf(text, sizeof text, "%.9f\n", gSeconds);
  return writeFile(dir() + "/capture-seconds", text, size_t(n));
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

} // namespace

bool enabled() { return !dir().empty(); }

Status deviceToHost(const void *host, size_t bytes, ScalarType elem) {
  if (!enabled())
    return Status::ok();
  auto t0 = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(gMutex);
  char name[64];
  std::snprintf(name, sizeof name, "/d2h-%06u.%s.bin", gSequence++,
                scalarTypeName(elem));
  APPROX_RETURN_IF_ERROR(writeFile(dir() + name, host, bytes));
  return account(since(t0));
}

Status writeArg(size_t slot, const void *host, size_t bytes,
                ScalarType elem) {
  if (!enabled())
    return Status::ok();
  auto t0 = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(gMutex);
  char name[64];
  std::snprintf(name, sizeof name, "/arg-%02zu.%s.bin", slot,
                scalarTypeName(elem));
  APPROX_RETURN_IF_ERROR(writeFile(dir() + name, host, bytes));
  return account(since(t0));
}

Status addSeconds(double seconds) {
  if (!enabled())
    return Status::ok();
  std::lock_guard<std::mutex> lock(gMutex);
  return account(seconds);
}

Expected<std::vector<ArgRequest>> argRequests() {
  std::vector<ArgRequest> out;
  if (!enabled())
    return out;
  const std::string path = dir() + "/capture.json";
  Expected<uint64_t> size = regularFileSize(path, "capture requests");
  if (!size)
    return out; // no requests: only the copies are captured
  APPROX_ASSIGN_OR_RETURN(std::string text,
                          readRegularFile(path, 1 << 20, "capture requests"));
  const std::string where = "APPROX_CAPTURE: " + quote(path);
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() ||
      j.value("format", "") != "approx-capture" || !j.contains("version") ||
      !j["version"].is_number_integer() || j["version"].get<int64_t>() != 1 ||
      !j.contains("args") || !j["args"].is_array())
    return parseError(where + ": not an approx-capture version 1 file with "
                              "an \"args\" array");
  for (const nlohmann::json &a : j["args"]) {
    if (!a.is_object() || !a.contains("kernel") || !a["kernel"].is_string() ||
        !a.contains("index") || !a["index"].is_number_unsigned())
      return parseError(where + ": each of \"args\" needs a \"kernel\" string "
                                "and an \"index\" >= 0");
    ArgRequest r;
    r.kernel = a["kernel"].get<std::string>();
    r.index = a["index"].get<size_t>();
    if (a.contains("type")) {
      Expected<ValueType> t = a["type"].is_string()
                                  ? parseValueType(a["type"].get<std::string>())
                                  : Expected<ValueType>(parseError("not a string"));
      if (!t || t->isVector())
        return parseError(where + ": argument " + std::to_string(r.index) +
                          " of " + quote(r.kernel) +
                          ": \"type\" must be a scalar type name");
      r.type = t->scalar;
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::string requestFileText(const std::vector<ArgRequest> &args) {
  nlohmann::json list = nlohmann::json::array();
  for (const ArgRequest &a : args) {
    nlohmann::json e = {{"kernel", a.kernel}, {"index", a.index}};
    if (a.type)
      e["type"] = scalarTypeName(*a.type);
    list.push_back(std::move(e));
  }
  return nlohmann::json({{"format", "approx-capture"},
                         {"version", 1},
                         {"args", std::move(list)}})
             .dump(2) +
         "\n";
}

} // namespace approx::rt::capture
