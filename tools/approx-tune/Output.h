//===- Output.h - approx-tune's output files -------------------*- C++ -*-===//
//
// What both of approx-tune's modes (λ tuning, joint tuning) write their
// records with: the UTC time stamp of a record, the GPU's clocks,
// temperature, power and energy over the session (NVML), and a file
// written whole or a one-line error (CliError, exit status 2).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNE_OUTPUT_H
#define APPROX_TUNE_OUTPUT_H

#include "approx/runtime/core/DeviceMonitor.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace approx::tune {

/// NVML's readings of the session's GPU (core/DeviceMonitor.h): one when
/// the session starts, one when it ends. Without NVML the record says why;
/// the session goes on.
class SessionReadings {
public:
  /// Reads the start state of the GPU with CUDA UUID `uuid`.
  explicit SessionReadings(const std::string &uuid);
  /// "gpu      SM 1980 MHz, memory 3201 MHz, 46 C, 131.5 W" (or why none).
  std::string startLine() const;
  /// Reads the end state: {"start": {...}, "end": {...}, "energy_j": E}
  /// (energy between the two readings, null where the GPU has no
  /// counter), or {"unavailable": WHY}.
  nlohmann::json finish();

private:
  std::unique_ptr<rt::DeviceMonitor> monitor_;
  rt::DeviceState start_;
  std::string why_;
};

/// "2026-11-29T00:55:00Z".
std::string nowUtc();
/// Writes `text` to `path` and prints "wrote PATH"; throws CliError if it
/// cannot.
void writeOutputFile(const std::string &path, const std::string &text);

} // namespace approx::tune

#endif // APPROX_TUNE_OUTPUT_H
