//===- JointExec.cpp - approx tune on a whole program ---------------------===//
//
// `approx tune MANIFEST ... -- PROGRAM ARGS` (docs/tuning.md, "Whole
// programs"): the module's run-time knobs, and with --storage each memory
// object's storage type (a profile run through the precision hooks), over
// ExecEvaluator; every option is checked before the program first runs.
//
//===----------------------------------------------------------------------===//
#include "Joint.h"
#include "JointHarness.h"

#include "approx/runtime/core/Process.h"
#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/precision/ProgramEvaluator.h"
#include "approx/runtime/tune/ExecEvaluator.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <unistd.h>

namespace approx::tune {

using namespace approx::rt;

int runJointExec(const Manifest &man, const Options &o) {
  // The knobs searched: the module's run-time knobs (a program loads one
  // build; its build knobs stay as built).
  // With --storage the precision hooks choose each launch's variant by the
  // objects' storage types, so no variant knob is searched.
  const bool storage = !o.storageTypes.empty();
  std::vector<std::string> searched;
  for (const std::string &n : o.jointKnobs) {
    const KnobInfo *k = man.findKnob(n);
    if (!k)
      usageError("--knobs: unknown knob " + quote(n));
    if (k->kind == KnobKind::Build)
      usageError("--knobs: " + quote(n) + " is a build knob: a program "
                 "runs the build it loads");
    if (storage && k->kind == KnobKind::Variant)
      usageError("--knobs: " + quote(n) + " is a variant knob: with "
                 "--storage the precision hooks choose the variants");
    if (o.knobValues.count(n))
      usageError("--knobs: knob " + quote(n) + " is also pinned by --knob " +
                 quote(n) + "=VALUE");
    searched.push_back(n);
  }
  if (o.jointKnobs.empty())
    for (const KnobInfo &k : man.knobs)
      // A storage variant changes a kernel's argument types under the
      // program's buffers (their types are the host's): never searched by
      // default, and with --storage the hooks choose the variants.
      if (k.kind != KnobKind::Build && k.kind != KnobKind::Host &&
          !(k.kind == KnobKind::Variant &&
            (storage || k.technique == "precision")) &&
          k.max > k.min && !o.knobValues.count(k.name))
        searched.push_back(k.name);
  if (searched.empty() && !storage)
    usageError("module " + quote(man.module) + " has no run-time knob left "
               "to search");
  Config reference = preciseConfig(man);
  for (const auto &[n, v] : o.knobValues)
    reference.values[n] = v;
  if (Status s = checkConfig(man, reference); !s.isOk())
    usageError("--knob: " + s.message());
  const std::string &program = o.execCommand.front();
  if (::access(program.c_str(), X_OK) != 0)
    usageError("-- " + quote(program) + ": not an executable file (give its "
               "path; PATH is not searched)");
  if (o.noCapture && o.execOutputs.empty())
    usageError("--no-capture leaves nothing to compare: name the program's "
               "outputs with --exec-output PATH:TYPE");
  if (o.noCapture && !o.captureArgs.empty())
    usageError("--no-capture turns capturing off; --capture-arg needs it");
  for (const capture::ArgRequest &r : o.captureArgs) {
    const KernelInfo *k = man.findKernel(r.kernel);
    if (auto [knob, dispatch] = man.findDispatch(r.kernel); !k && dispatch)
      k = man.findKernel(dispatch->variants.front());
    const std::string what = "--capture-arg " + quote(r.kernel) + ":" +
                             std::to_string(r.index);
    if (!k)
      usageError(what + ": module " + quote(man.module) + " has no kernel " +
                 quote(r.kernel));
    if (r.index >= k->args.size())
      usageError(what + ": kernel " + quote(r.kernel) + " has " +
                 std::to_string(k->args.size()) + " arguments (0-based index)");
    const ArgInfo &a = k->args[r.index];
    if (a.kind == ArgInfo::Kind::Scalar)
      usageError(what + " is a scalar: only memory can be captured");
    if (a.kind == ArgInfo::Kind::Pointer && !r.type)
      usageError(what + " is a pointer: give its element type, " + what +
                 ":f32");
  }

  // Absolute: the program may change its directory.
  std::string manifestPath = o.manifest;
  if (char *abs = ::realpath(o.manifest.c_str(), nullptr)) {
    manifestPath = abs;
    std::free(abs);
  }
  // --storage: a profile run names the program's memory objects (the n-th
  // mgpuMemAlloc is obj<n>); each float one that can be narrower gets a
  // storage knob, and a trial that narrows any runs under the precision
  // hooks with every scaled transfer converted on the host.
  Manifest space = man;
  std::shared_ptr<precision::AppProfile> profile;
  if (storage) {
    Expected<TempDir> dir = TempDir::create("approx-tune-profile");
    if (!dir)
      statusError(dir.status());
    const std::string out = dir->file("profile.json");
    Expected<Exit> x = runProgram(
        *dir, program,
        std::vector<std::string>(o.execCommand.begin() + 1,
                                 o.execCommand.end()),
        precision::hookEnvironment("profile", {manifestPath, out}),
        {"APPROX_PRECISION", "APPROX_CONFIG", "APPROX_CAPTURE",
         "APPROX_MANIFEST"});
    if (!x)
      statusError(x.status());
    if (!x->ok)
      statusError(Status(StatusCode::InvalidArgument,
                         "--storage: the profile run of " + quote(program) +
                             " failed (" + x->describe() +
                             "): is it an MLIR host program linked with "
                             "libapprox_mgpu.so?"));
    Expected<precision::AppProfile> p = precision::loadAppProfile(out);
    if (!p)
      statusError(p.status().withContext("--storage: the profile run"));
    profile = std::make_shared<precision::AppProfile>(std::move(*p));
    for (const precision::ObjectProfile &obj : profile->objects) {
      KnobInfo k = precision::storageKnobOf(obj, "storage__" + obj.name,
                                            o.storageTypes);
      if (k.max == 0)
        continue; // not a float wider than every type asked for
      searched.push_back(k.name);
      space.knobs.push_back(std::move(k));
    }
    if (space.knobs.size() == man.knobs.size())
      statusError(Status(StatusCode::InvalidArgument,
                         "--storage: no memory object of " + quote(program) +
                             " (" + std::to_string(profile->objects.size()) +
                             " profiled) can be stored in a narrower type"));
    for (size_t i = man.knobs.size(); i < space.knobs.size(); ++i)
      reference.values[space.knobs[i].name] = 0; // the declared type
    // The hooks choose the variants: variant knobs leave the space (and so
    // the knobs file, where the mgpu library would refuse them).
    for (const KnobInfo &k : man.knobs)
      if (k.kind == KnobKind::Variant)
        reference.values.erase(k.name);
    space.knobs.erase(std::remove_if(space.knobs.begin(), space.knobs.end(),
                                     [](const KnobInfo &k) {
                                       return k.kind == KnobKind::Variant;
                                     }),
                      space.knobs.end());
    size_t storageKnobs = 0;
    for (const KnobInfo &k : space.knobs)
      storageKnobs += k.domain.kind == DomainKind::Storage &&
                      k.kind == KnobKind::Host;
    std::printf("profile  %zu memory objects, %zu with a storage knob\n",
                profile->objects.size(), storageKnobs);
  }

  ExecOptions base;
  base.program = program;
  base.args.assign(o.execCommand.begin() + 1, o.execCommand.end());
  base.outputFiles = o.execOutputs;
  base.captureArgs = o.captureArgs;
  base.manifestPath = manifestPath;
  if (profile)
    base.environment =
        [profile, space, manifestPath](const Config &c, const std::string &dir)
        -> Expected<std::vector<std::pair<std::string, std::string>>> {
      // Converted on the host, every core: fewer bytes cross the bus (a
      // conversion on the device moves the declared type's).
      precision::Configuration cfg = precision::storageConfiguration(
          *profile, space, c,
          precision::Method::host(
              std::max(1u, std::thread::hardware_concurrency())));
      if (cfg.changesNothing())
        return std::vector<std::pair<std::string, std::string>>{};
      const std::string path = dir + "/precision.config.json";
      APPROX_RETURN_IF_ERROR(precision::saveConfiguration(cfg, path));
      precision::HookFiles files;
      files.manifest = manifestPath;
      files.config = path;
      return precision::hookEnvironment("scale", files);
    };
  base.captureCopies = !o.noCapture;
  base.respectExitStatus = o.respectProgramCheck;
  base.warmups = o.warmup;
  base.reps = o.reps;
  base.tightness = {o.untilCi, o.maxReps};
  base.metric = *parseMetric(o.metric);

  Harness h;
  h.subject = "program " + program;
  h.searched = searched;
  h.reference = reference;
  h.metricName = base.metric.name();
  std::vector<std::vector<std::string>> argSets;
  for (const auto &set : o.verifyArgs) {
    std::vector<std::string> args = base.args;
    std::string label;
    for (const auto &[idx, value] : set) {
      args[size_t(idx)] = value;
      label += (label.empty() ? "" : "; ") + std::to_string(idx) + "=" +
               value.substr(value.rfind('/') + 1);
    }
    h.verifyLabels.push_back(label);
    argSets.push_back(args);
  }
  h.make = [&](size_t, int set) -> Expected<std::unique_ptr<ConfigEvaluator>> {
    ExecOptions e = base;
    if (set >= 0)
      e.args = argSets[size_t(set)];
    return std::unique_ptr<ConfigEvaluator>(
        std::make_unique<ExecEvaluator>(space, e, reference));
  };
  h.ordinals = {o.device};
  // The device the program will use, when a driver is there to say.
  if (Expected<std::shared_ptr<Context>> c = Context::create(o.device))
    h.device = (*c)->device();
  else
    h.device.name = "(no CUDA driver in this process)";
  h.deviceNames = {h.device.name};
  std::printf("program  %s (%zu arguments), module %s\n", program.c_str(),
              base.args.size(), man.module.c_str());
  return searchAndReport(space, o, h);
}

} // namespace approx::tune
