//===- run-app.cpp - Runs one PolyBench/GPU application ------------------===//
//
// The generic host of the 14 applications (Apps.h) on the approx runtime:
//
//   run-app --app NAME --ptx-dir DIR --size paper|16x|tiny
//           --input default|random|image[:FILE.npy] [--seed S] [--check]
//           [--tol X] [--reps N] [--profile OUT.json | --config FILE
//           [--expect PROFILE.json]]
//   run-app --list
//
// generates the inputs, loads DIR/<id>.manifest.json and its PTX, allocates
// the objects, copies them to the device, runs the launch sequence, copies
// the outputs back and prints the times (steady_clock over alloc + H2D +
// kernels + D2H; CUDA events for each phase). --check runs the CPU
// reference on the same inputs and prints the mean relative error of each
// output and of all of them together (Apps.h: relativeErrors); with --tol,
// an error above X (or a NaN/inf output) exits 1. --reps repeats the GPU
// program (same inputs) and prints each run and the medians. Image input:
// a 2-D .npy (uint8, float32 or float64; ImageIO.h) scaled to 0-255
// (values in [0, 1] times 255, others min-max normalised unless already in
// [0, 255]); without a file, a synthetic image (not a natural one).
// Everything goes through a precision Session (Runner.h): --profile runs in
// profile mode and writes the AppProfile (the last repetition's) as JSON
// (Decision.h, "approx-precision-profile"); --config runs in scale mode with
// a configuration file (approx-precision-config, e.g. approx-scale's) on
// DIR/<id>_variants.manifest.json, printing the conversions' losses, and
// --expect checks that its transfers repeat the profile's. Exits 77 with the
// reason where no GPU is usable, 2 on a usage error.
//
//===----------------------------------------------------------------------===//
#include "Apps.h"
#include "Runner.h"

#include "approx/Support/Cli.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace approx::polybench;
namespace rt = approx::rt;
namespace prec = approx::rt::precision;

namespace {

/// One line on stderr, exit status 2 (approx/Support/Cli.h).
int usage(const std::string &msg) {
  return approx::cli::Tool("run-app").fail(msg);
}

std::string shapeText(const std::vector<int64_t> &sh) {
  std::string s;
  for (size_t d = 0; d < sh.size(); ++d)
    s += (d ? "x" : "") + std::to_string(sh[d]);
  return s;
}

std::string sizesText(const App &a, const Sizes &s) {
  std::string out;
  for (const std::string &n : a.sizeNames)
    out += (out.empty() ? "" : " ") + n + "=" + std::to_string(s.at(n));
  return out;
}

void list() {
  for (const App &a : apps()) {
    std::printf("%s (%s): %s\n", a.name.c_str(), a.id.c_str(),
                a.summary.c_str());
    for (SizeClass c : {SizeClass::Paper, SizeClass::X16, SizeClass::Tiny}) {
      const Sizes &s = a.sizes(c);
      uint64_t bytes = 0;
      for (const ObjectSpec &o : a.objects)
        bytes += uint64_t(elementCount(o.shape(s))) * 8;
      std::printf("  %-5s %s  (%.1f MiB of objects)\n", sizeClassName(c),
                  sizesText(a, s).c_str(), double(bytes) / (1 << 20));
    }
    for (const ObjectSpec &o : a.objects)
      std::printf("  object %-7s %-5s %s%s%s, paper %s\n", o.name.c_str(),
                  roleName(o.role), o.toDevice ? "h2d " : "",
                  o.fromDevice ? "d2h " : "", o.data ? "data" : "state",
                  shapeText(o.shape(a.paper)).c_str());
    for (const PhaseSpec &p : a.phases) {
      if (!p.loopVar.empty())
        std::printf("  for %s in [%lld, %lld) at paper size:\n",
                    p.loopVar.c_str(), (long long)p.begin(a.paper),
                    (long long)p.end(a.paper));
      for (const LaunchSpec &l : p.launches) {
        std::array<int64_t, 3> g = gridOf(l, a.paper);
        std::string args;
        for (const ArgSpec &x : l.args)
          args += (args.empty() ? "" : ", ") + x.name;
        std::printf("  %s%s<<<%lldx%lld, %ux%u>>>(%s)\n",
                    p.loopVar.empty() ? "" : "  ", l.kernel.c_str(),
                    (long long)g[0], (long long)g[1], l.block[0], l.block[1],
                    args.c_str());
      }
    }
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  namespace cli = approx::cli;
  std::string appName, ptxDir, sizeName, input = "default";
  uint64_t seed = 1;
  bool check = false, listApps = false;
  double tol = 0;
  int reps = 1;
  std::string profileOut, configFile, expectFile;
  cli::CommandLine cl{cli::Tool{"run-app"},
                      "Runs one PolyBench/GPU application on the approx "
                      "runtime; exits 77 where no GPU is usable, 2 on a "
                      "usage error."};
  cl.flag("--list", listApps, "print the applications and exit");
  cl.text("--app", appName, "the application (--list)");
  cl.text("--ptx-dir", ptxDir, "the directory of <id>.manifest.json");
  cl.text("--size", sizeName, "paper, 16x or tiny");
  cl.text("--input", input, "default, random or image[:FILE.npy]");
  cl.unsignedInteger("--seed", seed, 0, UINT64_MAX, "seed of --input random");
  cl.flag("--check", check, "compare with the CPU reference");
  CLI::Option *tolOpt = cl.number("--tol", tol, 0, HUGE_VAL,
                                  "with --check: exit 1 above this error");
  cl.integer("--reps", reps, 1, 1000000, "GPU runs (same inputs)");
  cl.text("--profile", profileOut, "profile mode: write the AppProfile");
  cl.text("--config", configFile, "scale mode with this configuration");
  cl.text("--expect", expectFile, "with --config: the profile to repeat");
  cl.check([&] {
    if (listApps)
      return;
    if (appName.empty() || ptxDir.empty() || sizeName.empty())
      cli::usageError("--app, --ptx-dir and --size are required");
    if (!profileOut.empty() && !configFile.empty())
      cli::usageError("--profile (the f64 run) and --config (a scaled run) "
                      "exclude each other");
    if (!expectFile.empty() && configFile.empty())
      cli::usageError("--expect needs --config");
  });
  if (int status = cl.parse(argc, argv); status >= 0)
    return status;
  if (listApps) {
    list();
    return 0;
  }
  const bool haveTol = tolOpt->count() > 0;
  check = check || haveTol;
  RunOptions ropt;
  if (!profileOut.empty())
    ropt.mode = prec::SessionMode::Profile;
  if (!configFile.empty()) {
    ropt.mode = prec::SessionMode::Scale;
    rt::Expected<prec::Configuration> c = prec::loadConfiguration(configFile);
    if (!c) {
      std::fprintf(stderr, "run-app: %s\n", c.status().toString().c_str());
      return 1;
    }
    ropt.config = *c;
    if (!expectFile.empty()) {
      rt::Expected<prec::AppProfile> p = prec::loadAppProfile(expectFile);
      if (!p) {
        std::fprintf(stderr, "run-app: %s\n", p.status().toString().c_str());
        return 1;
      }
      ropt.expectedTransfers = p->transfers;
    }
  }
  const App *app = findApp(appName);
  if (!app)
    return usage("no application " + cli::quote(appName) + " (see --list)");
  SizeClass sc;
  if (!parseSizeClass(sizeName, sc))
    return usage("size " + cli::quote(sizeName) + " is not paper, 16x or tiny");
  const Sizes &sizes = app->sizes(sc);
  if (std::vector<std::string> bad = checkApp(*app, sizes); !bad.empty()) {
    std::fprintf(stderr, "run-app: %s table: %s\n", app->name.c_str(),
                 bad.front().c_str());
    return 1;
  }

  InputSpec in;
  in.seed = seed;
  GrayImage image;
  std::string imageName;
  if (input == "default") {
    in.set = InputSet::Default;
  } else if (input == "random") {
    in.set = InputSet::Random;
  } else if (input.rfind("image", 0) == 0 &&
             (input.size() == 5 || input[5] == ':')) {
    in.set = InputSet::Image;
    if (input.size() > 6) {
      imageName = input.substr(6);
      std::string err;
      if (!loadGrayImage(imageName, image, err)) {
        std::fprintf(stderr, "run-app: %s\n", err.c_str());
        return 1;
      }
    } else {
      imageName = "synthetic 512x512";
      image = syntheticImage(512, 512);
    }
    in.image = &image;
  } else {
    return usage("input " + cli::quote(input) +
                 " is not default, random or image[:FILE]");
  }

  std::printf("app=%s id=%s size=%s %s input=%s", app->name.c_str(),
              app->id.c_str(), sizeClassName(sc),
              sizesText(*app, sizes).c_str(), inputSetName(in.set));
  if (in.set == InputSet::Random)
    std::printf(" seed=%llu", (unsigned long long)seed);
  if (in.set == InputSet::Image)
    std::printf(" image=%s", imageName.c_str());
  std::printf("\n");

  auto t0 = std::chrono::steady_clock::now();
  Buffers inputs;
  std::string err;
  if (!makeInputs(*app, sizes, in, inputs, err)) {
    std::fprintf(stderr, "run-app: %s\n", err.c_str());
    return 1;
  }
  double genMs = std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - t0)
                     .count();
  uint64_t bytes = 0;
  for (size_t i = 0; i < app->objects.size(); ++i) {
    const ObjectSpec &o = app->objects[i];
    bytes += inputs[i].size() * 8;
    std::printf("object %s %s %s%s%s shape=%s\n", o.name.c_str(),
                roleName(o.role), o.toDevice ? "h2d " : "",
                o.fromDevice ? "d2h " : "", o.data ? "data" : "state",
                shapeText(o.shape(sizes)).c_str());
  }
  std::printf("inputs: %.1f MiB generated in %.1f ms\n",
              double(bytes) / (1 << 20), genMs);

  std::shared_ptr<rt::Context> ctx;
  if (int rc = openGpu("run-app", ctx))
    return rc;
  std::printf("device=%s\n", ctx->device().name.c_str());
  auto t1 = std::chrono::steady_clock::now();
  rt::Expected<std::unique_ptr<Runner>> runner =
      Runner::load(ctx, *app, ptxDir, !configFile.empty());
  if (!runner) {
    std::fprintf(stderr, "run-app: %s\n", runner.status().toString().c_str());
    return 1;
  }
  std::printf("module: %s loaded in %.1f ms\n",
              manifestPath(ptxDir, *app, !configFile.empty()).c_str(),
              std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - t1)
                  .count());

  // One transfer engine for every rep, as a program keeps its staging: the
  // reps after the first then measure the steady state, not the pinning of
  // new staging buffers.
  if (ropt.mode == prec::SessionMode::Scale) {
    rt::Expected<std::unique_ptr<prec::TransferEngine>> engine =
        prec::TransferEngine::create(ctx);
    if (!engine) {
      std::fprintf(stderr, "run-app: %s\n",
                   engine.status().toString().c_str());
      return 1;
    }
    ropt.engine = engine.take();
  }
  Buffers outputs;
  std::vector<double> total, h2d, ker, d2h;
  prec::AppProfile profile;
  for (int r = 0; r < reps; ++r) {
    RunTimes t;
    if (rt::Status s = (*runner)->run(sizes, inputs, outputs, t, ropt,
                                      &profile);
        !s) {
      std::fprintf(stderr, "run-app: %s\n", s.toString().c_str());
      return 1;
    }
    std::printf("run %d: total_ms=%.3f alloc_ms=%.3f h2d_ms=%.3f "
                "kernels_ms=%.3f d2h_ms=%.3f launches=%lld h2d_bytes=%llu "
                "d2h_bytes=%llu\n",
                r + 1, t.totalMs, t.allocMs, t.h2dMs, t.kernelMs, t.d2hMs,
                (long long)t.launches, (unsigned long long)t.h2dBytes,
                (unsigned long long)t.d2hBytes);
    if (ropt.mode == prec::SessionMode::Scale) {
      std::string over;
      for (const std::string &o : t.report.overflowed)
        over += (over.empty() ? "" : ",") + o;
      std::printf("run %d: scaled: bus_bytes=%llu overflowed=%llu "
                  "underflowed_to_zero=%llu nans=%llu overflow_objects=%s\n",
                  r + 1, (unsigned long long)t.report.busBytes,
                  (unsigned long long)t.report.stats.overflowed,
                  (unsigned long long)t.report.stats.underflowedToZero,
                  (unsigned long long)t.report.stats.nans,
                  over.empty() ? "none" : over.c_str());
    }
    total.push_back(t.totalMs);
    h2d.push_back(t.h2dMs);
    ker.push_back(t.kernelMs);
    d2h.push_back(t.d2hMs);
  }
  if (reps > 1)
    std::printf("median of %d: total_ms=%.3f h2d_ms=%.3f kernels_ms=%.3f "
                "d2h_ms=%.3f\n",
                reps, median(total), median(h2d), median(ker), median(d2h));

  if (!profileOut.empty()) {
    if (rt::Status s = prec::saveAppProfile(profile, profileOut); !s) {
      std::fprintf(stderr, "run-app: %s\n", s.toString().c_str());
      return 1;
    }
    std::printf("profile: %s (%zu objects, %zu kernels, %zu transfers)\n",
                profileOut.c_str(), profile.objects.size(),
                profile.kernels.size(), profile.transfers.size());
  }

  if (!check)
    return 0;
  if (sc == SizeClass::X16)
    std::printf("note: the CPU reference at 16x can take hours for the "
                "O(n^3) applications\n");
  auto t2 = std::chrono::steady_clock::now();
  Buffers ref = inputs;
  app->reference(sizes, ref);
  std::printf("reference: %.1f ms on the CPU\n",
              std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - t2)
                  .count());
  double sum = 0;
  int64_t count = 0, nonFinite = 0;
  for (size_t i = 0; i < app->objects.size(); ++i) {
    if (!app->objects[i].fromDevice)
      continue;
    ErrorStats e = relativeErrors(outputs[i].data(), ref[i].data(),
                                  int64_t(ref[i].size()));
    std::printf("check %s: mre=%.6g max_rel=%.6g n=%lld guarded=%lld "
                "(|ref| < %.3g) nonfinite=%lld\n",
                app->objects[i].name.c_str(), e.mean(), e.maxRel,
                (long long)e.count, (long long)e.guarded, e.floor,
                (long long)e.nonFinite);
    sum += e.sumRel;
    count += e.count;
    nonFinite += e.nonFinite;
  }
  double mre = nonFinite ? INFINITY : count ? sum / double(count) : 0;
  std::printf("check all outputs: mre=%.6g quality=%.6f", mre, 1 - mre);
  if (haveTol) {
    bool ok = mre <= tol && nonFinite == 0;
    std::printf(" tol=%g %s\n", tol, ok ? "pass" : "FAIL");
    return ok ? 0 : 1;
  }
  std::printf("\n");
  return 0;
}
