//===- approx-tune.cpp - Tune λ of a compiled approx kernel on the GPU ----===//
//
// A command line over the approx runtime: loads PTX/cubin + manifest, binds a
// kernel to generated (distribution + seed) or file inputs and a launch
// shape, then runs SMP / HEU / OMG under an absolute QoS or a QoS_ratio,
// showing progress, printing the visited points and results, and writing
// JSON and an SVG of the T(λ)/E(λ) curves. See --help.
//
//===----------------------------------------------------------------------===//
#include "Plot.h"

#include "approx/runtime/tune/KernelEvaluator.h"
#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/tune/Tuner.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace approx::rt;
using json = nlohmann::json;

namespace {

const char *kHelp = R"(usage: approx-tune [options] MANIFEST.manifest.json

Tunes the approximation knob (lambda) of one kernel compiled by approx-opt:
warps whose hardware warp-slot id is below lambda use the SFU path. Measures
T(lambda) (median CUDA-event time) and E(lambda) (error against the lambda=0
output) and searches max lambda with E <= QoS.

Module and kernel:
  --list                 print kernels, their arguments and knobs; exit
  --kernel NAME          kernel to tune (default: the manifest's only kernel)
  --knob NAME            knob to tune (default: the kernel's first knob)
  --image PATH           load this PTX/cubin instead of the manifest's "ptx"
  --cubin                load the manifest's "cubin" instead of its "ptx"
  --device N             CUDA device ordinal (default 0)

Arguments (I is the 0-based MLIR argument index, as in --list):
  --size N               size of every dynamic memref dimension not given by
                         --shape (default 1048576)
  --shape I=D0xD1x...    shape of memref argument I
  --input I=DIST         memref I is read by the kernel, filled from DIST:
                           uniform:LO:HI      uniform in [LO, HI)
                           normal:MEAN:SD     normal distribution
                           linspace:LO:HI     evenly spaced LO..HI
                           file:PATH          raw little-endian binary of the
                                              element type (size must match)
  --inout I=DIST         as --input, and the kernel writes it: it is
                         restored before every run and compared
  --scalar I=VALUE       value of scalar argument I ("size" = --size)
  --seed S               seed; argument I draws from S + I (default 1)
  --allow-zero-inputs    permit all-zero inputs (refused by default: they
                         hide indexing bugs and time unrealistically)
  Memref arguments with neither --input nor --inout are outputs: poisoned
  (NaN) before every run and compared against the lambda=0 run. One the
  manifest marks as read by the kernel ("access") must be given data.

Launch:
  --block X[,Y,Z]        threads per block (default 256)
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
  --sweep                also measure every lambda in [0, lambda_max] for the
                         table and plot (what OMG measures)
  --warmup N             untimed launches before timing (default 3)
  --reps N               timed launches per point; median reported (default 20)

Output:
  --json PATH            write inputs, device, trace and results as JSON
  --svg PATH             write the T(lambda) / E(lambda) plot as SVG
  --quiet                no progress lines
  --help                 this text

Exit status: 0 on success, 1 on usage errors, 2 on runtime errors, 77 when no
CUDA driver/GPU is available.
)";

struct DistSpec {
  std::string kind; // uniform normal linspace file
  double a = 0, b = 1;
  std::string path;
  std::string text;
};

struct Options {
  std::string manifest, kernel, knob, image;
  bool list = false, cubin = false, sweep = false, quiet = false;
  bool allowZero = false;
  int device = 0;
  int64_t size = 1 << 20;
  std::map<int, std::vector<int64_t>> shapes;
  std::map<int, std::pair<DistSpec, bool>> inputs; // bool: inout
  std::map<int, std::string> scalars;
  uint64_t seed = 1;
  Dim3 block{256, 1, 1}, grid{0, 0, 0};
  bool gridAuto = true;
  unsigned shared = 0;
  std::string method = "heu";
  bool qosAbs = false;
  double qos = 0.8;
  std::string metric = "mre";
  int64_t lambdaMax = -1;
  int warmup = 3, reps = 20;
  std::string jsonPath, svgPath;
};

[[noreturn]] void usage(const std::string &msg) {
  std::fprintf(stderr, "approx-tune: %s\n(see approx-tune --help)\n",
               msg.c_str());
  std::exit(1);
}

[[noreturn]] void die(const Status &s) {
  std::fprintf(stderr, "approx-tune: error: %s\n", s.toString().c_str());
  std::exit(s.code() == StatusCode::Unavailable ? 77 : 2);
}

std::vector<std::string> split(const std::string &s, char sep) {
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

double toDouble(const std::string &s, const std::string &what) {
  char *end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end)
    usage("bad number '" + s + "' in " + what);
  return v;
}

int64_t toInt(const std::string &s, const std::string &what) {
  char *end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 0);
  if (s.empty() || *end)
    usage("bad integer '" + s + "' in " + what);
  return v;
}

std::pair<int, std::string> indexed(const std::string &v,
                                    const std::string &opt) {
  size_t eq = v.find('=');
  if (eq == std::string::npos)
    usage(opt + " expects I=VALUE, got '" + v + "'");
  return {int(toInt(v.substr(0, eq), opt)), v.substr(eq + 1)};
}

Dim3 parseDim3(const std::string &v, const std::string &opt) {
  std::vector<std::string> p = split(v, ',');
  if (p.empty() || p.size() > 3)
    usage(opt + " expects X[,Y,Z]");
  Dim3 d;
  unsigned *f[3] = {&d.x, &d.y, &d.z};
  for (size_t i = 0; i < p.size(); ++i) {
    int64_t x = toInt(p[i], opt);
    if (x < 1 || x > 0x7fffffff)
      usage(opt + ": sizes must be >= 1");
    *f[i] = unsigned(x);
  }
  return d;
}

DistSpec parseDist(const std::string &v) {
  DistSpec d;
  d.text = v;
  std::vector<std::string> p = split(v, ':');
  d.kind = p[0];
  if (d.kind == "file") {
    if (v.size() <= 5)
      usage("file: needs a path");
    d.path = v.substr(5);
    return d;
  }
  if (d.kind != "uniform" && d.kind != "normal" && d.kind != "linspace")
    usage("unknown distribution '" + d.kind +
          "' (uniform:LO:HI, normal:MEAN:SD, linspace:LO:HI, file:PATH)");
  if (p.size() != 3)
    usage(d.kind + " needs two parameters, e.g. " + d.kind + ":0:1");
  d.a = toDouble(p[1], v);
  d.b = toDouble(p[2], v);
  return d;
}

Options parseArgs(int argc, char **argv) {
  Options o;
  auto need = [&](int &i) -> std::string {
    if (i + 1 >= argc)
      usage(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  bool haveQos = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kHelp, stdout);
      std::exit(0);
    } else if (a == "--list") {
      o.list = true;
    } else if (a == "--kernel") {
      o.kernel = need(i);
    } else if (a == "--knob") {
      o.knob = need(i);
    } else if (a == "--image") {
      o.image = need(i);
    } else if (a == "--cubin") {
      o.cubin = true;
    } else if (a == "--device") {
      o.device = int(toInt(need(i), a));
    } else if (a == "--size") {
      o.size = toInt(need(i), a);
      if (o.size < 0)
        usage("--size must be >= 0");
    } else if (a == "--shape") {
      auto [idx, v] = indexed(need(i), a);
      std::vector<int64_t> dims;
      for (const std::string &d : split(v, 'x'))
        dims.push_back(toInt(d, a));
      o.shapes[idx] = dims;
    } else if (a == "--input" || a == "--inout") {
      auto [idx, v] = indexed(need(i), a);
      o.inputs[idx] = {parseDist(v), a == "--inout"};
    } else if (a == "--scalar") {
      auto [idx, v] = indexed(need(i), a);
      o.scalars[idx] = v;
    } else if (a == "--seed") {
      o.seed = uint64_t(toInt(need(i), a));
    } else if (a == "--allow-zero-inputs") {
      o.allowZero = true;
    } else if (a == "--block") {
      o.block = parseDim3(need(i), a);
    } else if (a == "--grid") {
      std::string v = need(i);
      o.gridAuto = v == "auto";
      if (!o.gridAuto)
        o.grid = parseDim3(v, a);
    } else if (a == "--shared") {
      o.shared = unsigned(toInt(need(i), a));
    } else if (a == "--method") {
      o.method = need(i);
      if (o.method != "all" && !parseTuneMethod(o.method))
        usage("unknown method '" + o.method + "' (heu, smp, omg, all)");
    } else if (a == "--qos" || a == "--qos-ratio") {
      if (haveQos)
        usage("give one of --qos and --qos-ratio");
      haveQos = true;
      o.qosAbs = a == "--qos";
      o.qos = toDouble(need(i), a);
      if (!(o.qos >= 0) || !std::isfinite(o.qos))
        usage(a + " must be a finite value >= 0");
    } else if (a == "--metric") {
      o.metric = need(i);
      if (!parseMetric(o.metric))
        usage(parseMetric(o.metric).status().message());
    } else if (a == "--lambda-max") {
      o.lambdaMax = toInt(need(i), a);
    } else if (a == "--sweep") {
      o.sweep = true;
    } else if (a == "--warmup") {
      o.warmup = int(toInt(need(i), a));
    } else if (a == "--reps") {
      o.reps = int(toInt(need(i), a));
      if (o.reps < 1)
        usage("--reps must be >= 1");
    } else if (a == "--json") {
      o.jsonPath = need(i);
    } else if (a == "--svg") {
      o.svgPath = need(i);
    } else if (a == "--quiet" || a == "-q") {
      o.quiet = true;
    } else if (!a.empty() && a[0] == '-') {
      usage("unknown option '" + a + "'");
    } else if (o.manifest.empty()) {
      o.manifest = a;
    } else {
      usage("more than one manifest given");
    }
  }
  if (o.manifest.empty())
    usage("no manifest given");
  return o;
}

/// Generates `n` values of DIST as doubles.
Expected<std::vector<double>> generate(const DistSpec &d, size_t n,
                                       uint64_t seed) {
  std::vector<double> v(n);
  std::mt19937_64 rng(seed);
  if (d.kind == "uniform") {
    std::uniform_real_distribution<double> u(d.a, d.b);
    for (double &x : v)
      x = u(rng);
  } else if (d.kind == "normal") {
    std::normal_distribution<double> g(d.a, d.b);
    for (double &x : v)
      x = g(rng);
  } else if (d.kind == "linspace") {
    for (size_t i = 0; i < n; ++i)
      v[i] = n > 1 ? d.a + (d.b - d.a) * double(i) / double(n - 1) : d.a;
  } else {
    return invalidArgument("cannot generate '" + d.kind + "'");
  }
  return v;
}

std::vector<uint8_t> encode(const std::vector<double> &v, ScalarType t) {
  size_t es = scalarTypeSize(t);
  std::vector<uint8_t> out(v.size() * es);
  for (size_t i = 0; i < v.size(); ++i) {
    uint8_t *p = out.data() + i * es;
    switch (t) {
    case ScalarType::F32: {
      float f = float(v[i]);
      std::memcpy(p, &f, 4);
      break;
    }
    case ScalarType::F64:
      std::memcpy(p, &v[i], 8);
      break;
    case ScalarType::F16: {
      uint16_t h = floatToHalfBits(float(v[i]));
      std::memcpy(p, &h, 2);
      break;
    }
    default: {
      int64_t x = int64_t(std::llround(v[i]));
      std::memcpy(p, &x, es); // little-endian truncation
      break;
    }
    }
  }
  return out;
}

void listModule(const Manifest &m) {
  std::printf("module %s (%s)\n", escapeBytes(m.module).c_str(),
              escapeBytes(m.chip).c_str());
  for (const KnobInfo &k : m.knobs) {
    std::printf("  knob %s: %s in [%lld, %lld], default %lld", k.name.c_str(),
                knobKindName(k.kind), (long long)k.min, (long long)k.max,
                (long long)k.defaultValue);
    if (k.hasSymbol())
      std::printf(" (%s %s, path %s%s%s)", scalarTypeName(k.type),
                  k.symbol.c_str(), knobPathName(k.path),
                  k.warpSlot == WarpSlot::None ? "" : ", warp slot ",
                  warpSlotName(k.warpSlot));
    std::printf("\n");
  }
  for (const KernelInfo &k : m.kernels) {
    std::printf("  kernel %s", k.name.c_str());
    if (!k.knobs.empty()) {
      std::printf(" (knobs:");
      for (const std::string &n : k.knobs)
        std::printf(" %s", n.c_str());
      std::printf(")");
    }
    std::printf("\n");
    for (size_t i = 0; i < k.args.size(); ++i)
      std::printf("    arg %zu: %s\n", i, describeArgInfo(k.args[i]).c_str());
    if (!k.sites.empty()) {
      std::printf("    sites:");
      for (size_t s : k.sites)
        std::printf(" %s.%s", escapeBytes(m.sites[s].op).c_str(),
                    escapeBytes(m.sites[s].type).c_str());
      std::printf("\n");
    }
  }
}

std::string nowUtc() {
  std::time_t t = std::time(nullptr);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return b;
}

json pointJson(const TunePoint &p) {
  return {{"lambda", p.lambda}, {"time_ms", p.timeMs},
          {"error", std::isfinite(p.error) ? json(p.error) : json("inf")}};
}

} // namespace

int main(int argc, char **argv) {
  Options o = parseArgs(argc, argv);

  Expected<Manifest> man = loadManifestFile(o.manifest);
  if (!man)
    die(man.status());
  if (o.list) {
    listModule(*man);
    return 0;
  }
  if (o.kernel.empty()) {
    if (man->kernels.size() != 1)
      usage("the manifest has " + std::to_string(man->kernels.size()) +
            " kernels; choose one with --kernel (see --list)");
    o.kernel = man->kernels[0].name;
  }
  const KernelInfo *k = man->findKernel(o.kernel);
  if (!k)
    usage("no kernel '" + o.kernel + "' in the manifest (see --list)");

  // Build the argument specs.
  std::vector<ArgSpec> specs;
  json argsJson = json::array();
  uint64_t largest = 0;
  for (size_t i = 0; i < k->args.size(); ++i) {
    const ArgInfo &a = k->args[i];
    int idx = int(i);
    if (a.kind == ArgInfo::Kind::Pointer || a.type.isVector())
      usage("argument " + std::to_string(i) + " (" + describeArgInfo(a) +
            ") is not supported by approx-tune yet");
    if (a.kind == ArgInfo::Kind::Scalar) {
      auto it = o.scalars.find(idx);
      if (it == o.scalars.end())
        usage("scalar argument " + std::to_string(i) + " (" +
              describeArgInfo(a) + ") needs --scalar " + std::to_string(i) +
              "=VALUE");
      Arg v = Arg::integer(0);
      if (it->second == "size")
        v = Arg::integer(o.size);
      else if (isFloatType(a.type.scalar))
        v = Arg::floating(toDouble(it->second, "--scalar"));
      else
        v = Arg::integer(toInt(it->second, "--scalar"));
      specs.push_back(ArgSpec::value(v));
      argsJson.push_back({{"index", i},
                          {"type", describeArgInfo(a)},
                          {"value", it->second == "size"
                                        ? std::to_string(o.size)
                                        : it->second}});
      continue;
    }
    if (o.scalars.count(idx))
      usage("argument " + std::to_string(i) + " is a memref, not a scalar");
    std::vector<int64_t> shape;
    if (o.shapes.count(idx)) {
      shape = o.shapes[idx];
    } else {
      for (int64_t d : a.shape)
        shape.push_back(d >= 0 ? d : o.size);
    }
    uint64_t n = 1;
    for (int64_t d : shape)
      n *= uint64_t(std::max<int64_t>(d, 0));
    largest = std::max(largest, n);
    json aj = {{"index", i}, {"type", describeArgInfo(a)},
               {"shape", shape}};
    auto in = o.inputs.find(idx);
    if (in == o.inputs.end()) {
      // The compiler records what the kernel reads: such a buffer needs data.
      if (isRead(a.access))
        usage("argument " + std::to_string(i) + " (" + describeArgInfo(a) +
              ") is " +
              (a.access == ArgInfo::Access::Read ? "read"
                                                  : "read and written") +
              " by the kernel: give it data with --input or --inout " +
              std::to_string(i) + "=DIST");
      specs.push_back(ArgSpec::output(a.type.scalar, shape));
      aj["role"] = "out";
    } else {
      const DistSpec &d = in->second.first;
      std::vector<uint8_t> bytes;
      if (d.kind == "file") {
        std::ifstream f(d.path, std::ios::binary);
        if (!f)
          die(ioError("cannot open input file '" + d.path + "'"));
        bytes.assign(std::istreambuf_iterator<char>(f), {});
      } else {
        uint64_t seed = o.seed + uint64_t(i);
        Expected<std::vector<double>> v = generate(d, size_t(n), seed);
        if (!v)
          die(v.status());
        bytes = encode(*v, a.type.scalar);
        aj["seed"] = seed;
      }
      specs.push_back(ArgSpec::input(a.type.scalar, shape, std::move(bytes),
                                     in->second.second));
      aj["role"] = in->second.second ? "inout" : "in";
      aj["distribution"] = d.text;
    }
    argsJson.push_back(aj);
  }
  for (auto &[idx, _] : o.inputs)
    if (idx < 0 || size_t(idx) >= k->args.size())
      usage("--input/--inout index " + std::to_string(idx) + " out of range");

  LaunchConfig cfg;
  cfg.block = o.block;
  cfg.sharedMemBytes = o.shared;
  if (o.gridAuto) {
    uint64_t bt = o.block.total();
    cfg.grid.x = unsigned(std::max<uint64_t>(1, (largest + bt - 1) / bt));
  } else {
    cfg.grid = o.grid;
  }

  Expected<std::shared_ptr<Context>> ctx = Context::create(o.device);
  if (!ctx)
    die(ctx.status());
  LoadOptions lo;
  lo.preferCubin = o.cubin;
  lo.imagePath = o.image;
  Expected<std::unique_ptr<Module>> mod = Module::load(*ctx, o.manifest, lo);
  if (!mod)
    die(mod.status());

  EvaluatorOptions eo;
  eo.kernel = o.kernel;
  eo.knob = o.knob;
  eo.launch = cfg;
  eo.metric = *parseMetric(o.metric);
  eo.timing.warmup = o.warmup;
  eo.timing.reps = o.reps;
  eo.allowZeroInputs = o.allowZero;
  eo.lambdaMaxOverride = o.lambdaMax;
  Expected<std::unique_ptr<KernelEvaluator>> evx =
      KernelEvaluator::create(**mod, std::move(specs), eo);
  if (!evx)
    die(evx.status());
  KernelEvaluator &ev = **evx;
  const KnobInfo *knob = man->findKnob(ev.knob());
  const DeviceInfo &dev = (*ctx)->device();
  const OccupancyInfo &occ = ev.occupancy();

  std::printf("device   %s (sm_%d%d, %d SMs), CUDA driver API %d.%d\n",
              dev.name.c_str(), dev.ccMajor, dev.ccMinor, dev.smCount,
              dev.driverVersion / 1000, (dev.driverVersion % 1000) / 10);
  std::printf("kernel   %s  grid %u,%u,%u  block %u,%u,%u  smem %u\n",
              o.kernel.c_str(), cfg.grid.x, cfg.grid.y, cfg.grid.z,
              cfg.block.x, cfg.block.y, cfg.block.z, cfg.sharedMemBytes);
  std::printf("occupancy %d blocks/SM x %d warps = %d resident warps/SM "
              "(%d regs/thread) -> lambda_max %lld (knob %s max %lld)%s\n",
              occ.residentBlocksPerSM, occ.warpsPerBlock,
              occ.residentWarpsPerSM, occ.numRegs, (long long)occ.lambdaMax,
              ev.knob().c_str(), (long long)knob->max,
              o.lambdaMax >= 0 ? " [overridden]" : "");
  std::printf("metric   %s; timing: %d warm-up + median of %d\n",
              eo.metric.name().c_str(), o.warmup, o.reps);

  std::vector<TuneMethod> methods;
  if (o.method == "all")
    methods = {TuneMethod::Heu, TuneMethod::Smp, TuneMethod::Omg};
  else
    methods = {*parseTuneMethod(o.method)};

  TuneOptions to;
  to.qos = o.qosAbs ? QoS::absolute(o.qos) : QoS::ratio(o.qos);
  std::printf("QoS      %s\n", to.qos.describe().c_str());
  if (!o.quiet)
    to.onPoint = [](TuneMethod m, const TunePoint &p, int run) {
      std::fprintf(stderr, "  [%s] run %2d: lambda %3lld  T %9.4f ms  E %.4g\n",
                   tuneMethodName(m), run, (long long)p.lambda, p.timeMs,
                   p.error);
    };

  std::vector<TuneResult> results;
  for (TuneMethod m : methods) {
    Expected<TuneResult> r = tune(ev, m, to);
    if (!r)
      die(r.status());
    results.push_back(*r);
  }
  std::vector<TunePoint> sweep;
  if (o.sweep) {
    for (int64_t l = 0; l <= ev.lambdaMax(); ++l) {
      Expected<TunePoint> p = ev.evaluate(l);
      if (!p)
        die(p.status());
      sweep.push_back(*p);
      if (!o.quiet)
        std::fprintf(stderr, "  [sweep] lambda %3lld  T %9.4f ms  E %.4g\n",
                     (long long)l, p->timeMs, p->error);
    }
  }

  // Table of every measured point (cached: each λ was measured once).
  std::map<int64_t, TunePoint> all;
  for (const TuneResult &r : results)
    for (const TunePoint &p : r.trace)
      all[p.lambda] = p;
  for (const TunePoint &p : sweep)
    all[p.lambda] = p;
  double t0 = all.count(0) ? all[0].timeMs : 0;
  double bound = results.front().qosBound;
  std::printf("\n%8s %12s %9s %12s %5s  visited by\n", "lambda", "T (ms)",
              "speedup", "E", "QoS");
  for (auto &[l, p] : all) {
    std::string by;
    for (const TuneResult &r : results)
      for (const TunePoint &q : r.trace)
        if (q.lambda == l)
          by += std::string(by.empty() ? "" : ",") + tuneMethodName(r.method);
    if (by.empty())
      by = "sweep";
    std::printf("%8lld %12.4f %8.3fx %12.4g %5s  %s\n", (long long)l,
                p.timeMs, p.timeMs > 0 ? t0 / p.timeMs : 0.0, p.error,
                p.error <= bound ? "ok" : "--", by.c_str());
  }
  std::printf("\n%-6s %8s %12s %9s %12s %12s %6s\n", "method", "lambda*",
              "T(l*) ms", "speedup", "E(l*)", "QoS bound", "runs");
  for (const TuneResult &r : results)
    std::printf("%-6s %8lld %12.4f %8.3fx %12.4g %12.4g %6d%s\n",
                tuneMethodName(r.method), (long long)r.lambda, r.timeMs,
                r.timeMs > 0 ? r.baseTimeMs / r.timeMs : 0.0, r.error,
                r.qosBound, r.runs, r.satisfied ? "" : "  (QoS NOT met)");
  std::printf("pure SFU (lambda=%lld): T %.4f ms (%.3fx), E %.4g; kernel "
              "launches in total: %llu\n",
              (long long)results.front().lambdaMax, results.front().sfuTimeMs,
              results.front().sfuTimeMs > 0
                  ? results.front().baseTimeMs / results.front().sfuTimeMs
                  : 0.0,
              results.front().sfuError, (unsigned long long)ev.launches());

  if (!o.jsonPath.empty()) {
    json j;
    j["tool"] = "approx-tune";
    j["date"] = nowUtc();
    j["command"] = [&] {
      std::string c;
      for (int i = 0; i < argc; ++i)
        c += (i ? " " : "") + std::string(argv[i]);
      return c;
    }();
    j["device"] = {{"name", dev.name},
                   {"compute_capability",
                    std::to_string(dev.ccMajor) + "." +
                        std::to_string(dev.ccMinor)},
                   {"sm_count", dev.smCount},
                   {"driver_api_version", dev.driverVersion}};
    j["manifest"] = o.manifest;
    j["kernel"] = o.kernel;
    j["knob"] = ev.knob();
    j["launch"] = {{"grid", {cfg.grid.x, cfg.grid.y, cfg.grid.z}},
                   {"block", {cfg.block.x, cfg.block.y, cfg.block.z}},
                   {"shared_bytes", cfg.sharedMemBytes}};
    j["args"] = argsJson;
    j["metric"] = eo.metric.name();
    j["timing"] = {{"warmup", o.warmup}, {"reps", o.reps},
                   {"statistic", "median"}};
    j["qos"] = {{"kind", o.qosAbs ? "absolute" : "ratio"},
                {"value", o.qos},
                {"bound", bound}};
    j["occupancy"] = {{"active_blocks_per_sm", occ.activeBlocksPerSM},
                      {"resident_blocks_per_sm", occ.residentBlocksPerSM},
                      {"warps_per_block", occ.warpsPerBlock},
                      {"resident_warps_per_sm", occ.residentWarpsPerSM},
                      {"regs_per_thread", occ.numRegs},
                      {"lambda_max", occ.lambdaMax}};
    j["lambda_max"] = ev.lambdaMax();
    j["results"] = json::array();
    for (const TuneResult &r : results) {
      json rj = {{"method", tuneMethodName(r.method)},
                 {"lambda", r.lambda},
                 {"time_ms", r.timeMs},
                 {"error", r.error},
                 {"satisfied", r.satisfied},
                 {"runs", r.runs},
                 {"qos_bound", r.qosBound},
                 {"base_time_ms", r.baseTimeMs},
                 {"sfu_time_ms", r.sfuTimeMs},
                 {"sfu_error", r.sfuError},
                 {"speedup", r.timeMs > 0 ? r.baseTimeMs / r.timeMs : 0.0}};
      if (r.method == TuneMethod::Omg)
        rj["max_feasible_lambda"] = r.maxFeasibleLambda;
      rj["trace"] = json::array();
      for (const TunePoint &p : r.trace)
        rj["trace"].push_back(pointJson(p));
      j["results"].push_back(rj);
    }
    j["points"] = json::array();
    for (auto &[l, p] : all)
      j["points"].push_back(pointJson(p));
    j["kernel_launches"] = ev.launches();
    std::ofstream f(o.jsonPath);
    f << j.dump(2) << "\n";
    if (!f)
      die(ioError("cannot write '" + o.jsonPath + "'"));
    std::printf("wrote %s\n", o.jsonPath.c_str());
  }
  if (!o.svgPath.empty()) {
    approx::tune::PlotData pd;
    pd.title = man->module + " / " + o.kernel + " on " + dev.name;
    for (auto &[l, p] : all)
      pd.curve.push_back({p.lambda, p.timeMs, p.error});
    pd.qosBound = bound;
    pd.lambdaMax = ev.lambdaMax();
    pd.knobMax = knob->max;
    for (const TuneResult &r : results)
      pd.markers.push_back({std::string(tuneMethodName(r.method)) +
                                " λ*=" + std::to_string(r.lambda) + " (" +
                                std::to_string(r.runs) + " runs)",
                            r.lambda, r.error});
    std::ofstream f(o.svgPath);
    f << approx::tune::renderTradeoffSvg(pd);
    if (!f)
      die(ioError("cannot write '" + o.svgPath + "'"));
    std::printf("wrote %s\n", o.svgPath.c_str());
  }
  bool ok = true;
  for (const TuneResult &r : results)
    ok &= r.satisfied;
  return ok ? 0 : 3;
}
