//===- ExecEvaluator.cpp - A whole program behind evaluate(Config) --------===//
#include "approx/runtime/tune/ExecEvaluator.h"

#include "approx/runtime/core/Capture.h"
#include "approx/runtime/core/Config.h"
#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Process.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/tune/KernelEvaluator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace approx::rt {

namespace {

/// The captured copies in `dir` (d2h-NNNNNN.TYPE.bin) in order, then the
/// captured arguments (arg-NN.TYPE.bin) in request order (core/Capture.h).
Expected<std::vector<double>> readCaptures(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (dirent *e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n.rfind("d2h-", 0) == 0 || n.rfind("arg-", 0) == 0)
        names.push_back(n);
    }
    ::closedir(d);
  }
  // The copies first, then the arguments.
  std::sort(names.begin(), names.end(), [](const std::string &a,
                                           const std::string &b) {
    bool ca = a.rfind("d2h-", 0) == 0, cb = b.rfind("d2h-", 0) == 0;
    return ca != cb ? ca : a < b;
  });
  std::vector<double> out;
  for (const std::string &n : names) {
    // d2h-000001.f32.bin: the type between the first and the last dot.
    size_t a = n.find('.'), b = n.rfind('.');
    Expected<ValueType> t = parseValueType(n.substr(a + 1, b - a - 1));
    if (!t)
      return invalidArgument("captured copy " + quote(n) +
                             " has no element type in its name");
    std::string path = dir + "/" + n;
    APPROX_ASSIGN_OR_RETURN(uint64_t size, regularFileSize(path, "captured copy"));
    APPROX_ASSIGN_OR_RETURN(std::string bytes,
                            readRegularFile(path, size, "captured copy"));
    appendAsDouble(std::vector<uint8_t>(bytes.begin(), bytes.end()), *t, out);
  }
  return out;
}

/// DIR/capture-seconds, 0 when absent.
double captureSeconds(const std::string &dir) {
  std::ifstream f(dir + "/capture-seconds");
  double s = 0;
  return f >> s && s > 0 ? s : 0;
}

} // namespace

ExecEvaluator::ExecEvaluator(Manifest space, ExecOptions opts,
                             Config reference)
    : space_(std::move(space)), opts_(std::move(opts)),
      reference_(std::move(reference)) {}

Expected<ExecEvaluator::Run> ExecEvaluator::runOnce(const Config &c) {
  APPROX_ASSIGN_OR_RETURN(TempDir dir, TempDir::create("approx-tune"));
  std::string knobs = dir.file("knobs.json"), capture = dir.file("capture");
  {
    std::ofstream f(knobs);
    f << knobsFileText(space_, c);
    if (!f)
      return ioError("cannot write " + quote(knobs));
  }
  if (::mkdir(capture.c_str(), 0700) != 0)
    return ioError("cannot create " + quote(capture));
  if (!opts_.captureArgs.empty()) {
    std::ofstream f(capture + "/capture.json");
    f << capture::requestFileText(opts_.captureArgs);
    if (!f)
      return ioError("cannot write " + quote(capture + "/capture.json"));
  }
  for (const auto &[path, type] : opts_.outputFiles)
    ::unlink(path.c_str()); // a stale output must not pass for this run's
  std::vector<std::pair<std::string, std::string>> env = {
      {"APPROX_CONFIG", knobs},
      {"APPROX_CAPTURE", capture},
      {"APPROX_MANIFEST", opts_.manifestPath}};
  if (opts_.environment) {
    APPROX_ASSIGN_OR_RETURN(auto more, opts_.environment(c, dir.path()));
    env.insert(env.end(), more.begin(), more.end());
  }
  APPROX_ASSIGN_OR_RETURN(
      Exit x, runProgram(dir, opts_.program, opts_.args, env,
                         {"APPROX_CONFIG", "APPROX_CAPTURE", "APPROX_MANIFEST",
                          "APPROX_PRECISION"}));
  ++runs_;
  Run r;
  // The capturing's own time is not the program's (core/Capture.h).
  r.seconds = std::max(0.0, x.seconds - captureSeconds(capture));
  r.ok = x.ok;
  if (!x.ok)
    lastFailure_ = x.describe();
  if (opts_.captureCopies) {
    APPROX_ASSIGN_OR_RETURN(r.outputs, readCaptures(capture));
  }
  for (const auto &[path, type] : opts_.outputFiles) {
    Expected<uint64_t> size = regularFileSize(path, "output file");
    if (!size) {
      if (!x.ok)
        return r; // a failed run may well leave no output
      return size.status().withContext("the program's output");
    }
    APPROX_ASSIGN_OR_RETURN(std::string bytes,
                            readRegularFile(path, *size, "output file"));
    if (bytes.size() % scalarTypeSize(type) != 0)
      return invalidArgument("output file " + quote(path) + " has " +
                             std::to_string(bytes.size()) +
                             " bytes, not a whole number of " +
                             scalarTypeName(type));
    appendAsDouble(std::vector<uint8_t>(bytes.begin(), bytes.end()), type,
                   r.outputs);
  }
  return r;
}

Expected<Evaluation> ExecEvaluator::measure(const Config &c,
                                            bool withOutputs) {
  APPROX_RETURN_IF_ERROR(checkConfig(space_, c));
  if (!haveRef_ && configText(space_, c) != configText(space_, reference_)) {
    APPROX_RETURN_IF_ERROR(measure(reference_, false).status());
  }
  std::vector<double> times;
  Run last;
  bool failed = false;
  for (int i = 0; i < opts_.warmups + opts_.reps ||
                  (!opts_.tightness.reached(times) &&
                   int(times.size()) < opts_.tightness.maxReps);
       ++i) {
    APPROX_ASSIGN_OR_RETURN(Run r, runOnce(c));
    failed |= !r.ok;
    if (i >= opts_.warmups)
      times.push_back(r.seconds * 1000);
    last = std::move(r);
    if (failed && opts_.respectExitStatus)
      break; // one failing run fails the configuration
  }
  Evaluation e;
  if (!times.empty()) {
    e.timeMs = median(times);
    std::tie(e.timeLoMs, e.timeHiMs) = medianInterval(times);
  }
  bool isRef = configText(space_, c) == configText(space_, reference_);
  if (isRef && !haveRef_) {
    if (failed && opts_.respectExitStatus)
      return Status(StatusCode::InvalidArgument,
                    "the reference configuration's run failed (" +
                        lastFailure_ + "): nothing to compare against");
    if (last.outputs.empty())
      return invalidArgument(
          "the reference run left no output to compare: no device-to-host "
          "copy through the runtime or the mgpu library was captured, no "
          "requested argument launched and no output file named");
    ref_ = last.outputs;
    haveRef_ = true;
  }
  if (failed && opts_.respectExitStatus) {
    e.error = INFINITY;
    e.failure = lastFailure_;
  } else if (last.outputs.size() != ref_.size()) {
    e.error = INFINITY; // a different number of outputs: not comparable
    e.failure = "its outputs hold " + std::to_string(last.outputs.size()) +
                " values, the reference's " + std::to_string(ref_.size());
  } else {
    APPROX_ASSIGN_OR_RETURN(e.error, opts_.metric(ref_, last.outputs));
    if (std::isnan(e.error)) {
      e.error = INFINITY;
      e.failure = "the metric is NaN (a NaN among its outputs)";
    }
  }
  cache_[configText(space_, c)] = e;
  if (withOutputs)
    e.outputs = std::move(last.outputs);
  return e;
}

Expected<Evaluation> ExecEvaluator::evaluate(const Config &c,
                                             bool withOutputs) {
  auto it = cache_.find(configText(space_, c));
  if (it != cache_.end() && !withOutputs)
    return it->second;
  return measure(c, withOutputs);
}

Expected<Evaluation> ExecEvaluator::remeasure(const Config &c) {
  return measure(c, false);
}

} // namespace approx::rt
