//===- ExecProgram.cpp - approx-scale --exec: a program as subprocesses ---===//
//
// The mgpu hooks' report and outputs files turned into a ProgramRun
// (ExecProgram.h); the runs themselves are core's runProgram.
//
//===----------------------------------------------------------------------===//
#include "ExecProgram.h"

#include "approx/runtime/core/FileIO.h"

#include <nlohmann/json.hpp>

#include <map>

namespace approx::scale {

namespace prec = rt::precision;
using json = nlohmann::json;

rt::Expected<Exit>
runProgram(const TempDir &dir, const std::string &program,
           const std::vector<std::string> &args,
           const std::vector<std::pair<std::string, std::string>> &env) {
  return rt::runProgram(dir, program, args, env, {"APPROX_PRECISION"});
}

std::vector<std::vector<double>>
alignOutputs(const std::vector<prec::NamedOutput> &outputs,
             const std::vector<std::string> &names) {
  std::map<std::string, const prec::NamedOutput *> byName;
  for (const prec::NamedOutput &o : outputs)
    byName[o.name] = &o;
  std::vector<std::vector<double>> r(names.size());
  for (size_t i = 0; i < names.size(); ++i)
    if (auto it = byName.find(names[i]); it != byName.end())
      r[i] = it->second->values;
  return r;
}

rt::Expected<prec::ProgramRun>
readScaledRun(const std::string &reportPath, const std::string &outputsPath,
              const std::vector<std::string> &names) {
  APPROX_ASSIGN_OR_RETURN(std::string text,
                          rt::readRegularFile(reportPath, uint64_t(1) << 26,
                                              "scale report"));
  json r = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!r.is_object() || r.value("format", "") != "approx-mgpu-scale-report" ||
      !r.contains("wall_seconds") || !r["wall_seconds"].is_number())
    return rt::parseError("scale report '" + reportPath +
                          "' is not an approx-mgpu-scale-report");
  prec::ProgramRun run;
  prec::RunReport &rep = run.report;
  // A field of the wrong type throws (nlohmann's value/get): one line, not
  // an uncaught exception.
  try {
  rep.wallSeconds = r["wall_seconds"].get<double>();
  rep.kernelSeconds = r.value("kernel_seconds", 0.0);
  rep.h2dSeconds = r.value("h2d_seconds", 0.0);
  rep.d2hSeconds = r.value("d2h_seconds", 0.0);
  rep.launches = r.value("launches", uint64_t(0));
  for (const json &o : r.value("overflowed", json::array()))
    if (o.is_string())
      rep.overflowed.push_back(o.get<std::string>());
  for (const json &o : r.value("objects", json::array()))
    if (o.is_object())
      rep.objectTransfers.push_back({o.value("name", ""),
                                     o.value("h2d_seconds", 0.0),
                                     o.value("d2h_seconds", 0.0)});
  const json stats = r.value("stats", json::object());
  rep.stats.overflowed = stats.value("overflowed", uint64_t(0));
  rep.stats.underflowedToZero = stats.value("underflowed_to_zero", uint64_t(0));
  rep.stats.nans = stats.value("nans", uint64_t(0));
  } catch (const json::exception &e) {
    return rt::parseError("scale report '" + reportPath + "': " + e.what());
  }
  APPROX_ASSIGN_OR_RETURN(std::vector<prec::NamedOutput> outs,
                          prec::loadOutputs(outputsPath));
  run.outputs = alignOutputs(outs, names);
  return run;
}

rt::Expected<prec::ProgramRun>
readProfiledRun(const prec::AppProfile &profile,
                const std::string &outputsPath,
                const std::vector<std::string> &names) {
  prec::ProgramRun run;
  run.report.wallSeconds = profile.totalSeconds;
  for (const prec::KernelProfile &k : profile.kernels)
    run.report.kernelSeconds += k.seconds;
  APPROX_ASSIGN_OR_RETURN(std::vector<prec::NamedOutput> outs,
                          prec::loadOutputs(outputsPath));
  run.outputs = alignOutputs(outs, names);
  return run;
}

} // namespace approx::scale
