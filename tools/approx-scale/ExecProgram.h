//===- ExecProgram.h - approx-scale --exec: a program as subprocesses -*- C++ -*-===//
//
// What `approx-scale --exec` needs to run an unmodified MLIR host program
// (linked with libapprox_mgpu.so) once per measurement: a private temporary
// directory, the program spawned with the APPROX_PRECISION* environment of
// one run (docs/precision.md, "MLIR host programs: mgpu* hooks"), and the
// files such a run leaves read back into the precision Session's ProgramRun
// (the scale report's times and overflowed objects, the outputs file's
// values), so that a trial's result is prec::trialResult's, as for the
// PolyBench apps.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TOOLS_APPROX_SCALE_EXECPROGRAM_H
#define APPROX_TOOLS_APPROX_SCALE_EXECPROGRAM_H

#include "approx/runtime/core/Process.h"
#include "approx/runtime/core/Status.h"
#include "approx/runtime/precision/Decision.h"
#include "approx/runtime/precision/OutputsFile.h"
#include "approx/runtime/precision/Session.h"

#include <string>
#include <utility>
#include <vector>

namespace approx::scale {

// The process helpers are core's (approx/runtime/core/Process.h).
using rt::Exit;
using rt::TempDir;

/// core's runProgram without any APPROX_PRECISION* variable of this
/// process: each run gets only the variables `env` names.
rt::Expected<Exit>
runProgram(const TempDir &dir, const std::string &program,
           const std::vector<std::string> &args,
           const std::vector<std::pair<std::string, std::string>> &env);

/// The values of `outputs` in the order of `names` (an object the file
/// lacks: an empty array, which compareOutputs counts as all wrong).
std::vector<std::vector<double>>
alignOutputs(const std::vector<rt::precision::NamedOutput> &outputs,
             const std::vector<std::string> &names);

/// A scaled run read back: the mgpu hooks' scale report at `reportPath`
/// (APPROX_PRECISION_REPORT) and outputs at `outputsPath`, in `names` order.
rt::Expected<rt::precision::ProgramRun>
readScaledRun(const std::string &reportPath, const std::string &outputsPath,
              const std::vector<std::string> &names);

/// A profile-mode run read back as a ProgramRun: wall = the profile's total
/// seconds, kernels = the sum of its kernels.
rt::Expected<rt::precision::ProgramRun>
readProfiledRun(const rt::precision::AppProfile &profile,
                const std::string &outputsPath,
                const std::vector<std::string> &names);

} // namespace approx::scale

#endif // APPROX_TOOLS_APPROX_SCALE_EXECPROGRAM_H
