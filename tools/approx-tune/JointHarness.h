//===- JointHarness.h - approx tune's search-and-report routine -*- C++ -*-===//
//
// What both front ends of `approx tune` (Joint.cpp: a kernel; JointExec.cpp:
// a whole program) hand the one routine that searches, verifies, guards and
// reports: a set of evaluator makers and what the report names.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNE_JOINTHARNESS_H
#define APPROX_TUNE_JOINTHARNESS_H

#include "CommandLine.h"

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/tune/ConfigEvaluator.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace approx::tune {

using approx::rt::Config;
using approx::rt::ConfigEvaluator;
using approx::rt::DeviceInfo;
using approx::rt::Expected;
using approx::rt::KnobInfo;
using approx::rt::Manifest;

/// What the search, the verification and the report need, whatever runs
/// the configurations (a kernel's launches, or a whole program's runs).
struct Harness {
  std::string subject; ///< "kernel K" / "program P", for the report
  std::string kernel;  ///< the kernel tuned ("" for a whole program)
  std::vector<std::string> searched;
  Config reference;
  std::string metricName;
  /// The verification sets' labels; make(d, i) is set i's evaluator.
  std::vector<std::string> verifyLabels;
  /// The evaluator of input set `set` (-1: the tuning inputs) on device
  /// slot `d` (0: the search's device); called once per set.
  std::function<Expected<std::unique_ptr<ConfigEvaluator>>(size_t d, int set)>
      make;
  std::vector<int> ordinals;          ///< device slot -> CUDA ordinal
  std::vector<std::string> deviceNames; ///< device slot -> name
  DeviceInfo device;                  ///< the search's device
  std::function<std::vector<int64_t>(const KnobInfo &)> grid;
};

/// Searches, verifies (every device of h.ordinals), guards and reports
/// (table, --json, --report); the exit status. Throws CliError.
int searchAndReport(const Manifest &man, const Options &o, Harness &h);

} // namespace approx::tune

#endif // APPROX_TUNE_JOINTHARNESS_H
