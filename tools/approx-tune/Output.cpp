//===- Output.cpp - approx-tune's output files ----------------------------===//
#include "Output.h"

#include "CommandLine.h"

#include "approx/runtime/core/Text.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>

namespace approx::tune {

std::string nowUtc() {
  std::time_t t = std::time(nullptr);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return b;
}

namespace {

nlohmann::json stateJson(const rt::DeviceState &s) {
  auto num = [](double x) {
    return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
  };
  return {{"sm_clock_mhz", s.smClockMHz},
          {"mem_clock_mhz", s.memClockMHz},
          {"temperature_c", s.temperatureC},
          {"power_w", num(s.powerW)},
          {"energy_counter_j", num(s.energyJ)}};
}

} // namespace

SessionReadings::SessionReadings(const std::string &uuid) {
  rt::Expected<std::unique_ptr<rt::DeviceMonitor>> m =
      rt::DeviceMonitor::open(uuid);
  if (!m) {
    why_ = m.status().message();
    return;
  }
  rt::Expected<rt::DeviceState> s = (*m)->read();
  if (!s) {
    why_ = s.status().message();
    return;
  }
  monitor_ = std::move(*m);
  start_ = *s;
}

std::string SessionReadings::startLine() const {
  if (!monitor_)
    return "gpu      no clock or power readings (" + rt::escapeBytes(why_) +
           ")";
  char b[160];
  std::snprintf(b, sizeof b, "gpu      SM %u MHz, memory %u MHz, %u C, %.1f W",
                start_.smClockMHz, start_.memClockMHz, start_.temperatureC,
                start_.powerW);
  return b;
}

nlohmann::json SessionReadings::finish() {
  if (!monitor_)
    return {{"unavailable", why_}};
  rt::Expected<rt::DeviceState> end = monitor_->read();
  if (!end)
    return {{"start", stateJson(start_)},
            {"unavailable", end.status().message()}};
  const double e = end->energyJ - start_.energyJ;
  return {{"start", stateJson(start_)},
          {"end", stateJson(*end)},
          {"energy_j", std::isfinite(e) ? nlohmann::json(e)
                                        : nlohmann::json(nullptr)}};
}

void writeOutputFile(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f)
    statusError(rt::ioError("cannot write " + rt::quote(path)));
  std::printf("wrote %s\n", rt::escapeBytes(path).c_str());
}

} // namespace approx::tune
