//===- approx-perforation-tune.cpp - pick a perforation scheme on the GPU -===//
//
// Loads a module compiled with approx-perforation-raise (PTX + manifest),
// binds the kernel's image arguments to .npy files, and measures every
// scheme x block shape (runtime/perforation/Tuner.h): median time, error
// against the accurate scheme's output, the Pareto front, the fastest
// version under the QoS. Prints a table; writes JSON and an SVG. With
// --guard-samples it also runs the sampled-tile guard (Guard.h) on the pick
// and reports its cost. Every error is one line on stderr and exit 2; every
// input (options, manifest, kernel arguments, images) is checked before the
// GPU is opened.
//
//===----------------------------------------------------------------------===//
#include "approx/Support/Cli.h"
#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/perforation/Guard.h"
#include "approx/runtime/perforation/Tuner.h"
#include "approx/runtime/tune/ImageIO.h"
#include "approx/runtime/tune/ImageMetrics.h"
#include "approx/runtime/tune/KernelEvaluator.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <tuple>

using namespace approx::rt;
namespace pf = approx::rt::perforation;
using json = nlohmann::json;

namespace {

const char *kUsage = R"(usage: approx-perforation-tune MANIFEST --kernel NAME
         --image I=FILE.npy [--image J=FILE.npy ...] --output I
         [--scalar I=VALUE ...] [--block XxY] [--metric mre|mean-error|ssim]
         [--near-zero X] [--qos X] [--reps N] [--warmup N]
         [--guard-samples N] [--json PATH] [--svg PATH]

Measures every scheme x block shape of a kernel compiled with
approx-perforation-raise (knobs `perforation` and `perforation_block`):
median time, error against the `accurate` output, the Pareto front, and
the fastest version whose error is at most --qos (default 0.05).
  --image I=FILE   argument I is a 2-D image read from a .npy file (uint8
                   scaled to [0, 1], float32 or float64); all one size
  --output I       argument I is the output image (allocated, that size)
                   Images are 2-D f32 memrefs, or pointers (a CUDA kernel
                   from approx-cc: row-major f32, the row pitch the width;
                   give its sizes with --scalar)
  --scalar I=V     argument I is a scalar
  --block XxY      the block shape when the module has no block-shape knob
  --metric         mre: mean relative error over |ref| > --near-zero
                   (default 1e-3); mean-error: mean |error| over the
                   reference's range; ssim: 1 - SSIM (range 1)
  --guard-samples  also check the pick with N sampled tiles (Guard.h) and
                   report the guard's cost
Ranges: --output and argument indices 0 to 4096, --reps 1 to 10000,
--warmup 0 to 10000, --guard-samples 1 to 4096; --qos and --near-zero are
finite and >= 0. Everything is checked before the GPU is opened; every
error is one line on stderr and exit status 2.
)";

/// The largest argument index the options take.
constexpr int kMaxArg = 4096;

[[noreturn]] void fail(const std::string &msg) {
  std::fprintf(stderr, "approx-perforation-tune: %s\n", msg.c_str());
  std::exit(2);
}

template <typename T> T must(Expected<T> e, const std::string &what) {
  if (!e)
    fail(what + ": " + e.status().toString());
  return e.take();
}

void must(const Status &s, const std::string &what) {
  if (!s.isOk())
    fail(what + ": " + s.toString());
}

/// The kernel a launch of `name` runs with every knob at its default, from
/// the manifest alone (Module::resolveKernel's rule, before any GPU).
const KernelInfo *kernelOf(const Manifest &m, const std::string &name) {
  auto [knob, dispatch] = m.findDispatch(name);
  if (dispatch)
    return m.findKernel(
        dispatch->variants[size_t(knob->defaultValue - knob->min)]);
  return m.findKernel(name);
}

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f)
    fail("cannot write " + path);
  std::printf("wrote %s\n", path.c_str());
}

} // namespace

int main(int argc, char **argv) {
  namespace cli = approx::cli;
  std::string manifestPath, kernel, metric = "mre", jsonPath, svgPath;
  std::vector<std::string> imageArgs, scalarArgs;
  std::map<size_t, std::string> imageFiles;
  std::map<size_t, double> scalars;
  int output = -1;
  std::pair<unsigned, unsigned> block{0, 0};
  double nearZero = 1e-3, qos = 0.05;
  TimingOptions timing;
  int guardSamples = 0;
  cli::CommandLine cl{cli::Tool{"approx-perforation-tune"},
                      "pick a perforation scheme on the GPU", kUsage};
  cl.required(cl.text("MANIFEST", manifestPath));
  cl.required(cl.text("--kernel", kernel));
  cl.required(cl.list("--image", imageArgs));
  cl.required(cl.integer("--output", output, 0, kMaxArg));
  cl.list("--scalar", scalarArgs);
  cl.value("--block", [&](const std::string &v) {
    size_t x = v.find('x');
    int64_t bx = 0, by = 0;
    if (x != std::string::npos) {
      try {
        bx = cli::parseInt(v.substr(0, x), "--block", 1, 1024);
        by = cli::parseInt(v.substr(x + 1), "--block", 1, 1024);
      } catch (const cli::UsageError &) {
        bx = 0;
      }
    }
    if (bx < 1 || bx * by > 1024)
      cli::usageError("--block: " + cli::quote(v) +
                      " is not XxY with 1 <= X*Y <= 1024");
    block = {unsigned(bx), unsigned(by)};
  });
  cl.choice("--metric", metric, {"mre", "mean-error", "ssim"});
  cl.number("--near-zero", nearZero, 0, HUGE_VAL);
  cl.number("--qos", qos, 0, HUGE_VAL);
  cl.integer("--reps", timing.reps, 1, 10000);
  cl.integer("--warmup", timing.warmup, 0, 10000);
  cl.integer("--guard-samples", guardSamples, 1, 4096);
  cl.text("--json", jsonPath);
  cl.text("--svg", svgPath);
  cl.check([&] {
    for (const std::string &a : imageArgs) {
      auto [idx, file] = cli::parseIndexed(a, "--image", kMaxArg);
      if (!imageFiles.emplace(size_t(idx), file).second)
        cli::usageError("argument " + std::to_string(idx) + " is given twice");
    }
    for (const std::string &a : scalarArgs) {
      auto [idx, text] = cli::parseIndexed(a, "--scalar", kMaxArg);
      double v = cli::parseNumber(text, "--scalar " + std::to_string(idx));
      if (imageFiles.count(size_t(idx)) ||
          !scalars.emplace(size_t(idx), v).second)
        cli::usageError("argument " + std::to_string(idx) + " is given twice");
    }
    if (imageFiles.count(size_t(output)) || scalars.count(size_t(output)))
      cli::usageError("argument " + std::to_string(output) +
                      " is the output and also an input");
  });
  if (int status = cl.parse(argc, argv); status >= 0)
    return status;

  // Everything is checked before the GPU is touched: the manifest, its
  // image path, the kernel, its candidates, every argument, the images.
  Manifest manifest = must(loadManifestFile(manifestPath), "manifest");
  must(resolveImagePath(manifest, manifest.ptx.empty(), false), "manifest");
  std::vector<pf::Candidate> candidates =
      must(pf::candidatesOf(manifest, kernel, {}, block), "candidates");
  const KernelInfo *info = kernelOf(manifest, kernel);
  if (!info)
    fail("no kernel " + quote(kernel) + " in the manifest");
  if (guardSamples > 0)
    must(pf::haloOf(manifest, kernel), "guard");
  std::vector<size_t> given{size_t(output)};
  for (const auto &[idx, file] : imageFiles)
    given.push_back(idx);
  for (const auto &[idx, value] : scalars)
    given.push_back(idx);
  for (size_t idx : given)
    if (idx >= info->args.size())
      fail("argument " + std::to_string(idx) + ": kernel " + quote(kernel) +
           " has " + std::to_string(info->args.size()) + " argument(s)");
  std::map<size_t, Image2D> images;
  int64_t H = 0, W = 0;
  for (auto &[idx, file] : imageFiles) {
    Image2D img = must(readNpy(file), "image");
    if (H && (img.height != H || img.width != W))
      fail(file + " is " + std::to_string(img.height) + "x" +
           std::to_string(img.width) + ", the other images " +
           std::to_string(H) + "x" + std::to_string(W));
    H = img.height, W = img.width;
    images.emplace(idx, std::move(img));
  }
  for (size_t i = 0; i < info->args.size(); ++i) {
    const ArgInfo &ai = info->args[i];
    if (images.count(i) || long(i) == output) {
      bool pointer = ai.kind == ArgInfo::Kind::Pointer;
      if (!pointer && (ai.kind != ArgInfo::Kind::Memref || ai.rank != 2 ||
                       ai.type != ValueType(ScalarType::F32)))
        fail("argument " + std::to_string(i) + " of " + quote(kernel) + " is " +
             ai.type.name() + " of rank " + std::to_string(ai.rank) +
             "; images must be 2-D f32 memrefs or pointers");
      if (!pointer && ((ai.shape[0] >= 0 && ai.shape[0] != H) ||
                       (ai.shape[1] >= 0 && ai.shape[1] != W)))
        fail("argument " + std::to_string(i) + " of " + quote(kernel) + " is " +
             std::to_string(ai.shape[0]) + "x" + std::to_string(ai.shape[1]) +
             ", the images " + std::to_string(H) + "x" + std::to_string(W));
    } else if (scalars.count(i)) {
      if (ai.kind != ArgInfo::Kind::Scalar)
        fail("argument " + std::to_string(i) + " is not a scalar");
      double v = scalars[i];
      if (!isFloatType(ai.type.scalar) &&
          (v != std::floor(v) || std::fabs(v) >= 0x1p63))
        fail("--scalar " + std::to_string(i) + ": " + ai.type.name() +
             " cannot hold " + std::to_string(v));
    } else {
      fail("argument " + std::to_string(i) + " (" + ai.type.name() + ") of " +
           quote(kernel) + " is not given (--image, --output, --scalar)");
    }
  }

  std::shared_ptr<Context> ctx = must(Context::create(0), "GPU");
  std::unique_ptr<Module> mod = must(Module::load(ctx, manifestPath), "load");
  auto scalarArg = [&](size_t i) {
    return isFloatType(info->args[i].type.scalar)
               ? Arg::floating(scalars[i])
               : Arg::integer(int64_t(scalars[i]));
  };
  // Every candidate is a configuration of the module's knob space, measured
  // by the one evaluation harness (tune/KernelEvaluator.h): images in, the
  // output out, scalars by value.
  std::vector<ArgSpec> specs;
  for (size_t i = 0; i < info->args.size(); ++i) {
    if (images.count(i))
      specs.push_back(
          ArgSpec::inputOf(ScalarType::F32, {H, W}, images[i].pixels));
    else if (long(i) == output)
      specs.push_back(ArgSpec::output(ScalarType::F32, {H, W}));
    else
      specs.push_back(ArgSpec::value(scalarArg(i)));
  }
  const pf::TuneKnobs knobs;
  auto configOf = [&](const pf::Candidate &c) {
    Config k;
    k.values[knobs.scheme] = c.schemeValue;
    if (c.blockValue >= 0)
      k.values[knobs.block] = c.blockValue;
    return k;
  };
  auto launchOf = [&](const pf::Candidate &c) {
    return LaunchConfig{{unsigned((W + c.blockX - 1) / c.blockX),
                         unsigned((H + c.tileRows() - 1) / c.tileRows()), 1},
                        {c.blockX, c.blockY, 1},
                        0};
  };
  std::map<int64_t, const pf::Candidate *> byBlock; // block value -> shape
  for (const pf::Candidate &c : candidates)
    byBlock.emplace(c.blockValue, &c);
  // The reference: `accurate` at the first block shape.
  const pf::Candidate *accurate = nullptr;
  for (const pf::Candidate &c : candidates)
    if (c.scheme == "accurate" && !accurate)
      accurate = &c;
  auto errorOf = [&](const std::vector<double> &ref,
                     const std::vector<double> &got) -> Expected<double> {
    for (double v : got) // unwritten (NaN) or overflowed: unusable
      if (!std::isfinite(v))
        return INFINITY;
    if (metric == "mre") {
      Expected<RelativeError> e = meanRelativeError(ref, got, nearZero);
      if (!e)
        return e.status();
      return e->mean;
    }
    if (metric == "mean-error")
      return meanErrorOverRange(ref, got);
    Expected<double> s = ssim(ref, got, H, W, 1.0);
    if (!s)
      return s.status();
    return 1.0 - *s;
  };
  EvaluatorOptions eo;
  eo.kernel = kernel;
  eo.knob = knobs.scheme;
  eo.reference = configOf(*accurate);
  eo.launchFor = [&](const Config &k) -> Expected<LaunchConfig> {
    auto b = k.values.find(knobs.block);
    auto it = byBlock.find(b == k.values.end() ? -1 : b->second);
    if (it == byBlock.end())
      return invalidArgument("no block shape for this value of " +
                             quote(knobs.block));
    return launchOf(*it->second);
  };
  eo.timing = timing;
  eo.allowZeroInputs = true; // a dark image is an image
  // The metric's own refusals (mre with no |ref| above --near-zero) are
  // found once on the reference below; the harness sees a NaN otherwise.
  eo.metric = Metric::callback(metric, [&](const std::vector<double> &ref,
                                           const std::vector<double> &got) {
    Expected<double> e = errorOf(ref, got);
    return e ? *e : NAN;
  });
  std::unique_ptr<KernelEvaluator> ev =
      must(KernelEvaluator::create(*mod, std::move(specs), eo), "arguments");
  std::vector<double> ref = must(ev->reference(), "reference run");
  must(errorOf(ref, ref), "metric");
  std::printf("%s: %zu versions, %lldx%lld, QoS %s <= %g\n", kernel.c_str(),
              candidates.size(), (long long)H, (long long)W, metric.c_str(), qos);
  pf::MeasureFn measure =
      [&](const pf::Candidate &c) -> Expected<std::pair<double, double>> {
    Expected<Evaluation> e = ev->evaluate(configOf(c), false);
    if (!e)
      return e.status();
    std::printf("  %-22s %9.4f ms  %s %.4g\n", c.label().c_str(), e->timeMs,
                metric.c_str(), e->error);
    std::fflush(stdout);
    return std::make_pair(e->timeMs, e->error);
  };
  pf::TuneResult r = must(pf::tune(candidates, measure, qos), "tune");
  double base = INFINITY;
  for (const pf::Point &p : r.points)
    if (p.candidate.scheme == "accurate")
      base = std::min(base, p.ms);
  std::printf("\n%s", pf::renderTable(r, metric, base).c_str());
  json j = {{"kernel", kernel},     {"metric", metric}, {"qos", qos},
            {"height", H},          {"width", W},       {"reps", timing.reps},
            {"device", ctx->device().name}};
  for (const pf::Point &p : r.points)
    j["points"].push_back({{"scheme", p.candidate.scheme},
                           {"block", {p.candidate.blockX, p.candidate.blockY}},
                           {"ms", p.ms},
                           {"error", std::isfinite(p.error) ? json(p.error)
                                                            : json("inf")},
                           {"pareto", p.pareto},
                           {"feasible", p.feasible}});
  if (r.best < 0) {
    std::printf("\nno version meets %s <= %g\n", metric.c_str(), qos);
    j["pick"] = nullptr;
  } else {
    const pf::Point &p = r.points[size_t(r.best)];
    std::printf("\npick: %s, %.4f ms (%.3fx the best accurate tiling), %s %.4g\n",
                p.candidate.label().c_str(), p.ms, base / p.ms, metric.c_str(),
                p.error);
    j["pick"] = p.candidate.label();
    if (guardSamples > 0) {
      // The guard on the pick: its answer and its cost beside the kernel's.
      // The guard reads and writes its own buffers.
      std::vector<DeviceBuffer> buffers;
      std::vector<Arg> args(info->args.size(), Arg::integer(0));
      for (size_t i = 0; i < info->args.size(); ++i) {
        if (!images.count(i) && long(i) != output) {
          args[i] = scalarArg(i);
          continue;
        }
        std::vector<float> px = images.count(i)
                                    ? images[i].pixels
                                    : std::vector<float>(size_t(H * W), 0.0f);
        buffers.push_back(must(DeviceBuffer::fromHost(ctx, px.data(),
                                                      px.size(),
                                                      ScalarType::F32),
                               "upload"));
        args[i] = info->args[i].kind == ArgInfo::Kind::Pointer
                      ? Arg::pointer(buffers.back().view().ptr)
                      : Arg::memref(buffers.back().view(), {H, W});
      }
      auto optionsOf = [&](const pf::Candidate &c) {
        LaunchOptions o;
        o.knobs = configOf(c).values;
        return o;
      };
      pf::GuardLaunch g;
      g.kernel = kernel;
      g.config = launchOf(p.candidate);
      g.args = args;
      for (auto &[idx, img] : images)
        g.images.push_back(idx);
      g.output = size_t(output);
      g.height = H, g.width = W;
      g.tileRows = p.candidate.tileRows(), g.tileCols = p.candidate.blockX;
      std::tie(g.haloRows, g.haloCols) =
          must(pf::haloOf(mod->manifest(), kernel), "guard");
      g.perforated = optionsOf(p.candidate);
      pf::Candidate acc = p.candidate;
      acc.schemeValue = accurate->schemeValue;
      g.accurate = optionsOf(acc);
      pf::GuardOptions go;
      go.samples = guardSamples;
      go.bound = qos;
      go.metric = metric == "mre" ? pf::GuardMetric::MeanRelative
                                  : pf::GuardMetric::MeanAbsolute;
      go.nearZero = nearZero;
      go.fallback = false;
      must(mod->launchSync(kernel, g.config, args, g.perforated), "launch");
      std::unique_ptr<pf::SampledTileGuard> guard =
          must(pf::SampledTileGuard::create(ctx), "guard");
      std::vector<double> costs;
      pf::GuardReport rep;
      for (int k = 0; k < 7; ++k) {
        must(ctx->synchronize(), "sync");
        auto t0 = std::chrono::steady_clock::now();
        rep = must(guard->check(*mod, g, go), "guard");
        auto t1 = std::chrono::steady_clock::now();
        costs.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      }
      std::sort(costs.begin(), costs.end());
      std::printf("guard: %d tiles, sampled %s %.4g (%s), %.3f ms median "
                  "(%.0f%% of the kernel's %.4f ms)\n",
                  rep.samples, metric.c_str(), rep.error,
                  rep.exceeded ? "over the bound" : "within the bound",
                  costs[3], 100.0 * costs[3] / p.ms, p.ms);
      j["guard"] = {{"samples", rep.samples}, {"error", rep.error},
                    {"exceeded", rep.exceeded}, {"ms", costs[3]}};
    }
  }
  if (!jsonPath.empty())
    writeFile(jsonPath, j.dump(2) + "\n");
  if (!svgPath.empty())
    writeFile(svgPath, pf::renderParetoSvg(r, kernel + ", " + std::to_string(H) +
                                                  "x" + std::to_string(W),
                                           metric));
  return 0;
}
