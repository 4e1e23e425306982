//===- CommandLine.cpp - approx-tune's options, strictly parsed -----------===//
//
// CLI11 through approx/Support/Cli.h walks argv; the values are checked by
// its strict parsers (decimal, range-checked, finite): "1e3", "0x10", " 5",
// "5 " and "" are all errors, and so is a value past the type's range or
// the option's.
//
//===----------------------------------------------------------------------===//
#include "CommandLine.h"

#include "approx/Support/Cli.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/tune/Metrics.h"
#include "approx/runtime/tune/Tuner.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sys/stat.h>

namespace approx::tune {

using namespace approx::rt;

const char *const kHelp = R"(usage: approx-tune [options] MANIFEST.manifest.json

Tunes an approximation knob (lambda) of one kernel compiled by approx-opt:
for the SFU technique, warps whose warp-slot id is below lambda use the SFU
path. Measures T(lambda) (median CUDA-event time) and E(lambda) (error
against the lambda=0 output) and searches max lambda with E <= QoS.

Module and kernel:
  --list                 print knobs, kernels, arguments, parameters and
                         sites; exit
  --dry-run              parse the manifest and every option, bind the
                         arguments to fake device pointers and print the
                         packed parameter layout (one line per PTX
                         parameter); needs no GPU and no CUDA driver
  --run-once PREFIX      launch the kernel once with the knobs as set (their
                         defaults, or --knob NAME=VALUE) and write each
                         output and inout buffer I to PREFIX.argI (raw
                         little-endian bytes of its element type, row-major);
                         no tuning, and the kernel need not read a knob
  --kernel NAME          kernel to tune, or a logical name a variant knob
                         dispatches (default: the manifest's only kernel)
  --knob NAME            knob to tune (default: the kernel's knob with a
                         warp slot, else its first knob)
  --knob NAME=VALUE      set another knob (global, variant or resource) for
                         the whole run; repeatable
  --image PATH           load this PTX/cubin instead of the manifest's "ptx"
  --cubin                load the manifest's "cubin" instead of its "ptx"
  --allow-outside-paths  accept a manifest "ptx"/"cubin" path that is
                         absolute, holds "..", or leads out of the
                         manifest's directory (refused by default)
  --device N             CUDA device ordinal (default 0)

Arguments (I is the 0-based MLIR argument index, as in --list):
  --size N               size of every dynamic memref dimension not given by
                         --shape, and the byte size of pointer arguments
                         (default 1048576)
  --shape I=D0xD1x...    shape of memref (or pointer, in bytes or in
                         --element units) argument I
  --element I=TYPE       element type of pointer argument I's buffer (i8,
                         i16, i32, i64, f16, bf16, f32, f64; default i8),
                         for its --shape, data and comparison
  --input I=DIST         memref I is read by the kernel, filled from DIST:
                           uniform:LO:HI      uniform in [LO, HI)
                           normal:MEAN:SD     normal distribution
                           linspace:LO:HI     evenly spaced LO..HI
                           file:PATH          raw little-endian bytes of the
                                              element type; a regular file
                                              of exactly the buffer's size
                         integer elements must receive values that fit them
  --inout I=DIST         as --input, and the kernel writes it: it is
                         restored before every run and compared
  --scalar I=VALUE       value of scalar argument I: an integer, a float,
                         "size" (= --size), or for a vector type its lanes
                         separated by commas (e.g. 1,2,3,4); "null" for a
                         pointer argument
  --seed S               seed; argument I draws from S + I (default 1)
  --allow-zero-inputs    permit all-zero inputs (refused by default: they
                         hide indexing bugs and time unrealistically)
  Memref and pointer arguments with neither --input nor --inout are outputs:
  poisoned (NaN) before every run and compared against the lambda=0 run.
  One the manifest marks as read by the kernel ("access") must get data.

Launch:
  --block X[,Y,Z]        threads per block (default 256; at most 1024)
  --grid X[,Y,Z]|auto    blocks (default auto: ceil(largest memref / block))
  --shared BYTES         dynamic shared memory per block (default 0)

Search:
  --method M             heu | smp | omg | all (default heu)
  --qos E                absolute QoS: E(lambda*) <= E
  --qos-ratio R          QoS_ratio (paper section 7): E <= R * E(lambda_max)
                         (default 0.8 when --qos is not given)
  --metric M             mre (mean relative error; ref==0 elements count
                         their absolute error), mre-skip-zero, maxabs, rmse
                         (default mre)
  --lambda-max N         override the occupancy bound on lambda
  --lambda-step N|auto   SMP and HEU visit multiples of N only (T(lambda)
                         changes there); auto (default) measures the step
                         with the SFU probe for the knob's warp slot
  --sweep                also measure every lambda in [0, lambda_max] for the
                         table and plot (what OMG measures)
  --warmup N             untimed launches before timing (default 3)
  --reps N               timed launches per point; median reported (default 20)
  --until-ci R           then more, until the median's 95% bootstrap
                         interval lies within +-R of it (e.g. 0.01), at
                         most --max-reps in all (default 200)

Joint tuning (approx tune, or --joint; docs/tuning.md):
  --joint                search every knob of the kernel together (lambda,
                         schemes, block shapes, LNS impls, precision
                         variants) for the fastest configuration with
                         E <= --qos (absolute; --qos-ratio is refused)
  --knobs A,B,...        search only these knobs (default: every knob of
                         the kernel with more than one value; --knob
                         NAME=VALUE pins a knob instead)
  --budget N             at most N configurations measured (default 64)
  --grid-points N        screening points of an ordinal knob (default 9)
  --verify-seed S        a verification input set: every generated input
                         drawn again from seed S + I; repeatable
  --verify I=DIST[;J=DIST...]
                         a verification input set: argument I's data from
                         DIST (e.g. file:other.bin), J's from its DIST, the
                         rest as tuned; repeatable
  --guard-period N       the run-time guard re-computes the reference on
                         every N-th invocation (default 4)
  --guard-invocations N  invocations per verification set (default 4)
  --report PATH          write a self-contained HTML report (front, trials,
                         pick, verification, guard)
  -- PROGRAM ARGS...     tune a whole program instead of one kernel: each
                         configuration reaches it as a knobs file
                         (APPROX_CONFIG, applied when it loads MANIFEST's
                         module through the runtime or libapprox_mgpu.so),
                         its time is the program's wall time, and its
                         outputs are the device-to-host copies it makes
                         through either (APPROX_CAPTURE), the --capture-arg
                         arguments and the --exec-output files
  --exec-output PATH:T   a file the program writes (raw values of float
                         type T), compared too; repeatable
  --capture-arg K:I[:T]  also compare kernel K's argument I after each
                         launch through the runtime (its last launch's
                         memory, to the end of its allocation; T, the
                         element type, is needed for a pointer): how a
                         program that copies with cudaMemcpy is judged;
                         repeatable
  --storage T,T,...      also search each memory object's storage type
                         among these (f32, f16, bf16) for an MLIR host
                         program linked with libapprox_mgpu.so: a profile run
                         names the objects, each trial runs under the
                         precision hooks (the module needs the variants:
                         approx-to-ptx precision-all=T,...)
  --no-capture           compare only the --exec-output files
  --program-check M      respect (default: a run exiting non-zero fails the
                         configuration) or ignore (judge it by its outputs)
  --verify-arg I=V[;J=W] a verification run: program argument I (0-based)
                         replaced by V; repeatable, one set each
  --devices A,B,...      the search times on device A alone; the
                         verification sets are spread over all of them
                         (errors only: no time is compared across GPUs)
  --cache DIR            search build knobs too (storage types): each value
                         runs on its build in approx-build's cache DIR;
                         configurations whose build is not there are
                         skipped and listed (JSON "unbuilt", an approx-build
                         --plan)

Output:
  --json PATH            write inputs, device, trace and results as JSON
  --svg PATH             write the T(lambda) / E(lambda) plot as SVG
  --quiet                no progress lines
  --help                 this text

Sizes are checked before anything is allocated: byte counts that overflow,
exceed the machine's memory (host) or the device's free memory are errors.
Integer options are decimal and range-checked: --device [0, 2147483647],
--size and shape dimensions [0, 2^63-1], --reps [1, 1000000], --warmup
[0, 1000000], --shared [0, 4294967295], --lambda-max [0, 2^63-1], --lambda-step [1, 64] or auto, --seed
[0, 2^64-1], --block dimensions [1, 1024] (product at most 1024), --grid
X [1, 2^31-1], Y and Z [1, 65535].

Exit status: 0 on success, 1 on usage errors, 2 on runtime errors, 3 when a
method's lambda* misses the QoS, 77 when no CUDA driver/GPU is available.
Every error is one line on stderr.
)";

approx::cli::Tool tool() {
  return approx::cli::Tool("approx-tune", 1, " (see approx-tune --help)");
}

[[noreturn]] void usageError(const std::string &message) {
  approx::cli::usageError(message);
}

[[noreturn]] void statusError(const Status &s) {
  throw CliError{s.code() == StatusCode::Unavailable ? 77 : 2, s.toString()};
}

int64_t parseInteger(const std::string &text, const std::string &what,
                     int64_t lo, int64_t hi) {
  return approx::cli::parseInt(text, what, lo, hi);
}

double parseFinite(const std::string &text, const std::string &what) {
  return approx::cli::parseNumber(text, what);
}

static std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

DistSpec parseDist(const std::string &v, const std::string &what) {
  DistSpec d;
  d.text = v;
  std::vector<std::string> p = split(v, ':');
  d.kind = p[0];
  if (d.kind == "file") {
    if (v.size() <= 5)
      usageError(what + ": file: needs a path");
    d.path = v.substr(5);
    return d;
  }
  if (d.kind != "uniform" && d.kind != "normal" && d.kind != "linspace")
    usageError(what + ": unknown distribution " + quote(d.kind) +
               " (uniform:LO:HI, normal:MEAN:SD, linspace:LO:HI, file:PATH)");
  if (p.size() != 3)
    usageError(what + ": " + d.kind + " needs two parameters, e.g. " +
               d.kind + ":0:1");
  d.a = parseFinite(p[1], what);
  d.b = parseFinite(p[2], what);
  if (d.kind == "normal" && d.b < 0)
    usageError(what + ": the standard deviation must be >= 0");
  // [LO, HI) with HI below LO is no interval (std::uniform_real_distribution
  // requires LO <= HI); a linspace may run downwards.
  if (d.kind == "uniform" && d.a > d.b)
    usageError(what + ": " + quote(v) + " is a reversed range (LO > HI)");
  return d;
}

/// "I=VALUE" -> (I, VALUE) with I a decimal index.
static std::pair<int, std::string> indexed(const std::string &v,
                                           const std::string &opt) {
  size_t eq = v.find('=');
  if (eq == std::string::npos)
    usageError(opt + " expects I=VALUE, got " + quote(v));
  return {int(parseInteger(v.substr(0, eq), opt + " index", 0, INT_MAX)),
          v.substr(eq + 1)};
}

static approx::rt::Dim3 parseDim3(const std::string &v, const std::string &opt,
                                  int64_t maxX, int64_t maxYZ) {
  std::vector<std::string> p = split(v, ',');
  if (p.size() > 3)
    usageError(opt + " expects X[,Y,Z], got " + quote(v));
  approx::rt::Dim3 d;
  unsigned *f[3] = {&d.x, &d.y, &d.z};
  for (size_t i = 0; i < p.size(); ++i)
    *f[i] = unsigned(parseInteger(p[i], opt, 1, i == 0 ? maxX : maxYZ));
  return d;
}

int parseCommandLine(int argc, char **argv, Options &o) {
  namespace cli = approx::cli;
  for (int i = 0; i < argc; ++i)
    o.command += (i ? " " : "") + std::string(argv[i]);
  // `-- PROGRAM ARGS...`: a whole program to tune (joint tuning only).
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      for (int k = i + 1; k < argc; ++k)
        o.execCommand.push_back(argv[k]);
      o.execGiven = true;
      argc = i;
      break;
    }
  cli::CommandLine cl{tool(), "tune an approximation knob on the GPU", kHelp};
  cl.required(cl.text("MANIFEST", o.manifest));
  cl.flag("--list", o.list);
  cl.flag("--dry-run", o.dryRun);
  CLI::Option *runOnce = cl.text("--run-once", o.runOncePrefix);
  cl.text("--kernel", o.kernel);
  std::vector<std::string> knobs, elements, shapes, inputs, inouts, scalars;
  cl.list("--knob", knobs);
  cl.text("--image", o.image);
  cl.flag("--cubin", o.cubin);
  cl.flag("--allow-outside-paths", o.allowOutside);
  cl.integer("--device", o.device, 0, INT_MAX);
  cl.integer("--size", o.size, 0, INT64_MAX);
  cl.list("--element", elements);
  cl.list("--shape", shapes);
  cl.list("--input", inputs);
  cl.list("--inout", inouts);
  cl.list("--scalar", scalars);
  cl.unsignedInteger("--seed", o.seed);
  cl.flag("--allow-zero-inputs", o.allowZero);
  cl.value("--block", [&](const std::string &v) {
    o.block = parseDim3(v, "--block", kMaxBlockThreads, kMaxBlockThreads);
    if (o.block.total() > uint64_t(kMaxBlockThreads))
      usageError("--block: " + std::to_string(o.block.total()) +
                 " threads per block; at most 1024");
  });
  cl.value("--grid", [&](const std::string &v) {
    o.gridAuto = v == "auto";
    if (!o.gridAuto)
      o.grid = parseDim3(v, "--grid", kMaxGridX, kMaxGridYZ);
  });
  cl.integer("--shared", o.shared, 0, UINT32_MAX);
  CLI::Option *method = cl.value("--method", [&](const std::string &v) {
    if (v != "all" && !parseTuneMethod(v))
      usageError("unknown method " + quote(v) + " (heu, smp, omg, all)");
    o.method = v;
  });
  CLI::Option *qos = cl.number("--qos", o.qos, 0, HUGE_VAL);
  double ratio = o.qos;
  CLI::Option *qosRatio = cl.number("--qos-ratio", ratio, 0, HUGE_VAL);
  cl.value("--metric", [&](const std::string &v) {
    if (!parseMetric(v))
      usageError(parseMetric(v).status().message());
    o.metric = v;
  });
  cl.integer("--lambda-max", o.lambdaMax, 0, INT64_MAX);
  cl.value("--lambda-step", [&](const std::string &v) {
    o.lambdaStep =
        v == "auto" ? 0 : int(parseInteger(v, "--lambda-step", 1, 64));
  });
  cl.flag("--sweep", o.sweep);
  cl.integer("--warmup", o.warmup, 0, kMaxReps);
  cl.integer("--reps", o.reps, 1, kMaxReps);
  cl.number("--until-ci", o.untilCi, 1e-6, 0.5);
  cl.integer("--max-reps", o.maxReps, 1, kMaxReps);
  cl.text("--json", o.jsonPath);
  cl.text("--svg", o.svgPath);
  cl.flag("-q,--quiet", o.quiet);
  cl.flag("--joint", o.joint);
  std::vector<std::string> jointKnobs, verifyInputs;
  cl.list("--knobs", jointKnobs);
  cl.integer("--budget", o.budget, 2, 100000);
  cl.integer("--grid-points", o.gridPoints, 2, 1000);
  std::vector<std::string> verifySeeds;
  cl.list("--verify-seed", verifySeeds);
  cl.list("--verify", verifyInputs);
  cl.integer("--guard-period", o.guardPeriod, 1, 1000000);
  cl.integer("--guard-invocations", o.guardInvocations, 1, 1000000);
  cl.text("--report", o.reportPath);
  cl.text("--cache", o.cacheDir);
  std::vector<std::string> execOutputs, verifyArgs, captureArgs;
  std::string storage;
  CLI::Option *storageOpt = cl.text("--storage", storage);
  cl.list("--exec-output", execOutputs);
  cl.list("--capture-arg", captureArgs);
  cl.list("--verify-arg", verifyArgs);
  cl.flag("--no-capture", o.noCapture);
  CLI::Option *programCheck = cl.value("--program-check", [&](const std::string &v) {
    if (v != "respect" && v != "ignore")
      usageError("--program-check expects respect or ignore, not " + quote(v));
    o.respectProgramCheck = v == "respect";
  });
  std::string devices;
  CLI::Option *devicesOpt = cl.text("--devices", devices);
  cl.check([&] {
    for (const std::string &list : jointKnobs)
      for (const std::string &k : split(list, ','))
        if (k.empty())
          usageError("--knobs expects A,B,... with no empty name");
        else
          o.jointKnobs.push_back(k);
    bool programOnly = !execOutputs.empty() || !verifyArgs.empty() ||
                       !captureArgs.empty() || o.noCapture ||
                       programCheck->count() || storageOpt->count();
    if (programOnly && !o.execGiven)
      usageError("--exec-output, --capture-arg, --storage, --verify-arg, "
                 "--no-capture and --program-check belong to tuning a whole "
                 "program "
                 "(approx tune MANIFEST ... -- PROGRAM ARGS...)");
    if (o.execGiven) {
      if (!o.joint)
        usageError("a program after -- is tuned by approx tune (--joint)");
      if (o.execCommand.empty())
        usageError("-- must be followed by the program to run");
      if (!o.inputs.empty() || !o.shapes.empty() || !o.scalars.empty() ||
          !o.kernel.empty() || !o.verifyInputs.empty() ||
          !o.verifySeeds.empty() || devicesOpt->count() ||
          !o.cacheDir.empty())
        usageError("--kernel, --input, --inout, --shape, --scalar, --verify, "
                   "--verify-seed, --devices and --cache bind a kernel; a "
                   "program (after --) binds its own arguments");
      for (const std::string &v : execOutputs) {
        size_t colon = v.rfind(':');
        Expected<ValueType> t =
            colon == std::string::npos
                ? Expected<ValueType>(invalidArgument(""))
                : parseValueType(v.substr(colon + 1));
        if (colon == 0 || !t || t->isVector() || !isFloatType(t->scalar))
          usageError("--exec-output expects PATH:TYPE with a float TYPE "
                     "(f16, bf16, f32, f64), got " + quote(v));
        o.execOutputs.push_back({v.substr(0, colon), t->scalar});
      }
      if (storageOpt->count())
        for (const std::string &t : split(storage, ',')) {
          Expected<ScalarType> st = parseScalarType(t);
          if (!st || (*st != ScalarType::F32 && *st != ScalarType::F16 &&
                      *st != ScalarType::BF16))
            usageError("--storage expects a list of f32, f16, bf16, got " +
                       quote(storage));
          if (std::find(o.storageTypes.begin(), o.storageTypes.end(), *st) ==
              o.storageTypes.end())
            o.storageTypes.push_back(*st);
        }
      for (const std::string &v : captureArgs) {
        // KERNEL:INDEX[:TYPE]; a kernel name has no ':' (PTX identifiers).
        std::vector<std::string> parts = split(v, ':');
        capture::ArgRequest r;
        bool ok = (parts.size() == 2 || parts.size() == 3) &&
                  !parts[0].empty() && !parts[1].empty() &&
                  parts[1].find_first_not_of("0123456789") ==
                      std::string::npos &&
                  parts[1].size() < 7;
        if (ok) {
          r.kernel = parts[0];
          r.index = size_t(std::stoul(parts[1]));
          if (parts.size() == 3) {
            Expected<ValueType> t = parseValueType(parts[2]);
            ok = t && !t->isVector();
            if (ok)
              r.type = t->scalar;
          }
        }
        if (!ok)
          usageError("--capture-arg expects KERNEL:INDEX or "
                     "KERNEL:INDEX:TYPE (a scalar type), got " + quote(v));
        o.captureArgs.push_back(std::move(r));
      }
      for (const std::string &v : verifyArgs) {
        std::vector<std::pair<int, std::string>> set;
        for (const std::string &part : split(v, ';')) {
          auto [idx, value] = indexed(part, "--verify-arg");
          if (size_t(idx) + 1 >= o.execCommand.size())
            usageError("--verify-arg " + std::to_string(idx) + ": the program "
                       "has " + std::to_string(o.execCommand.size() - 1) +
                       " arguments (0-based index)");
          set.push_back({idx, value});
        }
        o.verifyArgs.push_back(set);
      }
    }
    if (devicesOpt->count()) {
      if (!o.joint)
        usageError("--devices belongs to joint tuning (approx tune)");
      std::set<int> seen;
      for (const std::string &d : split(devices, ',')) {
        int v = int(parseInteger(d, "--devices", 0, INT_MAX));
        if (!seen.insert(v).second)
          usageError("--devices: device " + std::to_string(v) +
                     " is listed twice");
        o.devices.push_back(v);
      }
      o.device = o.devices.front();
    }
    for (const std::string &v : verifySeeds)
      o.verifySeeds.push_back(
          uint64_t(parseInteger(v, "--verify-seed", 0, INT64_MAX)));
    for (const std::string &v : verifyInputs) {
      std::vector<std::pair<int, DistSpec>> set;
      std::set<int> seen;
      for (const std::string &part : split(v, ';')) {
        auto [idx, dist] = indexed(part, "--verify");
        if (!seen.insert(idx).second)
          usageError("--verify: argument " + std::to_string(idx) +
                     " is given twice in one set");
        set.push_back(
            {idx, parseDist(dist, "--verify " + std::to_string(idx))});
      }
      o.verifyInputs.push_back(set);
    }
    bool jointOnly = !o.jointKnobs.empty() || !o.verifySeeds.empty() ||
                     !o.verifyInputs.empty() || !o.reportPath.empty() ||
                     !o.cacheDir.empty();
    if (jointOnly && !o.joint)
      usageError("--knobs, --verify, --verify-seed, --report and --cache "
                 "belong to joint tuning (approx tune, or --joint)");
    struct stat st;
    if (!o.cacheDir.empty() &&
        (::stat(o.cacheDir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)))
      usageError("--cache " + quote(o.cacheDir) +
                 " is not a directory (approx-build's cache)");
    if (o.joint && qosRatio->count())
      usageError("--qos-ratio is relative to the pure-SFU error; joint "
                 "tuning needs an absolute bound, --qos E");
    if (o.joint && !qos->count())
      usageError("joint tuning needs an error bound, --qos E");
    if (o.joint && (method->count() || o.sweep))
      usageError("--method and --sweep belong to lambda tuning "
                 "(approx tune-lambda)");
    if (runOnce->count() && o.runOncePrefix.empty())
      usageError("--run-once needs a non-empty prefix");
    if (method->count() > 1)
      usageError("--method is given twice");
    if (qos->count() + qosRatio->count() > 1)
      usageError("give one of --qos and --qos-ratio, once");
    o.qosAbs = qos->count() > 0;
    if (qosRatio->count())
      o.qos = ratio;
    for (const std::string &v : knobs) {
      size_t eq = v.find('=');
      if (eq == std::string::npos) {
        if (!o.tunedKnob.empty())
          usageError("--knob " + quote(v) + ": the tuned knob is already " +
                     quote(o.tunedKnob));
        o.tunedKnob = v;
        continue;
      }
      std::string name = v.substr(0, eq);
      if (name.empty())
        usageError("--knob expects NAME or NAME=VALUE, got " + quote(v));
      if (o.knobValues.count(name))
        usageError("--knob " + quote(name) + " is given twice");
      o.knobValues[name] =
          parseInteger(v.substr(eq + 1), "--knob " + escapeBytes(name),
                       INT64_MIN, INT64_MAX);
    }
    for (const std::string &v : elements) {
      auto [idx, type] = indexed(v, "--element");
      if (o.elements.count(idx))
        usageError("--element " + std::to_string(idx) + " is given twice");
      o.elements[idx] = type;
    }
    for (const std::string &v : shapes) {
      auto [idx, text] = indexed(v, "--shape");
      std::vector<int64_t> dims;
      for (const std::string &d : split(text, 'x'))
        dims.push_back(
            parseInteger(d, "--shape " + std::to_string(idx), 0, INT64_MAX));
      if (o.shapes.count(idx))
        usageError("--shape " + std::to_string(idx) + " is given twice");
      o.shapes[idx] = dims;
    }
    for (bool inout : {false, true})
      for (const std::string &v : inout ? inouts : inputs) {
        const char *opt = inout ? "--inout" : "--input";
        auto [idx, dist] = indexed(v, opt);
        if (o.inputs.count(idx))
          usageError("argument " + std::to_string(idx) +
                     " has two --input/--inout options");
        o.inputs[idx] = {
            parseDist(dist, std::string(opt) + " " + std::to_string(idx)),
            inout};
      }
    for (const std::string &v : scalars) {
      auto [idx, value] = indexed(v, "--scalar");
      if (o.scalars.count(idx))
        usageError("--scalar " + std::to_string(idx) + " is given twice");
      o.scalars[idx] = value;
    }
  });
  return cl.parse(argc, argv);
}

} // namespace approx::tune
