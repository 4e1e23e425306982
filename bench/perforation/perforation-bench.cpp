// perforation-bench.cpp - kernel perforation on the GPU: time, speedup,
// DRAM bandwidth, byte-ratio bound and error of every example x scheme x
// block shape x size (bench/perforation/run.sh builds and runs it; not a
// test).
//
// For each example NAME, KERNEL_DIR holds two compilations of
// examples/perforation/NAME.mlir (bench/perforation/compile.sh):
//   NAME_direct  the plain kernel: every window element a global load;
//   NAME         after approx-perforation-raise: a tile load whose scheme
//                knob `perforation` and block-shape variant knob
//                `perforation_block` pick the version;
//   NAME_output  after approx-perforation-output: Paraprox's output
//                perforation (knob `perforation_output`), the comparison.
// Every version runs on the same inputs with the same output poisoned before
// each launch (outside the timed region); times are CUDA-event medians after
// a warm-up (Module::time), the input drawn afresh for each size.
//
// Error: against the direct kernel's output (the exact computation), on the
// photographs of IMAGE_DIR (scikit-image's, at their own size; written by
// bench/perforation/images.py) and on synthetic patterns at --error-size.
// Metrics: mean relative error (|ref| > 1e-3 only: the paper's near-zero
// caveat), mean absolute error as % of the reference's range (the paper's
// "mean error" for Sobel), PSNR and SSIM (over the reference's range).
//
// Speed: at each --sizes, baseline = the faster of the direct kernel and the
// accurate tiling (best block shape). DRAM bytes: the compulsory R + W
// (each input and the output once) scaled by the sectors a scheme still
// touches: rows(n) skips n of every n+1 input rows; cols and stencil skip no
// 32-byte sector of DRAM (every sector still holds a loaded element), so
// their bound is 1. The byte-ratio bound (R+W)/(R(1-skip)+W) is the speedup
// a DRAM-bound kernel could reach; "of bound" = speedup / bound.
//
// usage: perforation-bench KERNEL_DIR IMAGE_DIR [--sizes 1024,8192,16384]
//          [--error-size 1024] [--reps 20] [--examples a,b] [--json PATH]
#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/perforation/Reference.h"
#include "approx/runtime/perforation/Tuner.h"
#include "approx/runtime/tune/ImageIO.h"
#include "approx/runtime/tune/ImageMetrics.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace approx::rt;
namespace pf = approx::rt::perforation;

namespace {

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "perforation-bench: %s\n", msg.c_str());
  std::exit(2);
}

template <typename T> T must(Expected<T> e, const std::string &what) {
  if (!e)
    die(what + ": " + e.status().toString());
  return e.take();
}

void must(Status s, const std::string &what) {
  if (!s.isOk())
    die(what + ": " + s.toString());
}

//===----------------------------------------------------------------------===//
// Inputs.
//===----------------------------------------------------------------------===//

struct Image {
  std::string name;
  int64_t h = 0, w = 0;
  std::vector<float> px; ///< row-major, in [0, 1]
};

/// A .npy image (runtime/tune/ImageIO.h: uint8 scaled to [0, 1]).
Image readImage(const std::string &path, const std::string &name) {
  Image2D i = must(readNpy(path), "image");
  return Image{name, i.height, i.width, std::move(i.pixels)};
}

/// Synthetic patterns (fixed seeds): the input dependence the paper reports
/// (0.12% on a flat image, 19% on a pattern).
Image synthetic(const std::string &kind, int64_t n, unsigned seed) {
  Image img{kind + "-" + std::to_string(n), n, n, {}};
  img.px.resize(size_t(n * n));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int64_t y = 0; y < n; ++y)
    for (int64_t x = 0; x < n; ++x) {
      float &p = img.px[size_t(y * n + x)];
      if (kind == "flat")
        p = 0.5f + 0.002f * (u(gen) - 0.5f);
      else if (kind == "gradient")
        p = 0.05f + 0.9f * float(x + y) / float(2 * n);
      else if (kind == "checker8")
        p = ((y / 8 + x / 8) % 2) ? 0.8f : 0.2f;
      else if (kind == "stripes")
        p = (y % 2) ? 0.9f : 0.1f;
      else if (kind == "zoneplate") {
        double r2 = double(y - n / 2) * (y - n / 2) + double(x - n / 2) * (x - n / 2);
        p = float(0.5 + 0.45 * std::cos(M_PI * r2 / double(n)));
      } else // noise
        p = u(gen);
    }
  return img;
}

const std::vector<std::string> kPatterns = {"flat",    "gradient", "checker8",
                                            "stripes", "zoneplate", "noise"};

/// HotSpot inputs (our generator, Rodinia's physical constants): a 16 mm
/// square chip of 0.5 mm silicon, power from a few rectangular units plus
/// noise, temperature around 320-345 K.
struct HotspotCase {
  std::vector<float> power, temp;
  float sdc, rx1, ry1, rz1;
};
HotspotCase hotspotInput(int64_t n, unsigned seed) {
  const double chip = 0.016, tChip = 0.0005, kSi = 100.0, specHeat = 1.75e6,
               factor = 0.5, maxPd = 3.0e6, precision = 0.001;
  double gh = chip / double(n), gw = chip / double(n);
  double cap = factor * specHeat * tChip * gw * gh;
  double rx = gw / (2.0 * kSi * tChip * gh), ry = gh / (2.0 * kSi * tChip * gw);
  double rz = tChip / (kSi * gh * gw);
  double step = precision / (maxPd / (factor * tChip * specHeat));
  HotspotCase c;
  c.sdc = float(step / cap);
  c.rx1 = float(1 / rx), c.ry1 = float(1 / ry), c.rz1 = float(1 / rz);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  c.power.assign(size_t(n * n), 0.0f);
  c.temp.assign(size_t(n * n), 0.0f);
  // Units: 12 rectangles of random power density (W per cell scaled to the
  // grid so the total stays chip-like).
  double perCell = 1.0 / double(n * n) * 40.0;
  for (int u0 = 0; u0 < 12; ++u0) {
    int64_t y0 = int64_t(u(gen) * n), x0 = int64_t(u(gen) * n);
    int64_t hh = 1 + int64_t(u(gen) * n / 4), ww = 1 + int64_t(u(gen) * n / 4);
    double d = perCell * (0.5 + 4.0 * u(gen));
    for (int64_t y = y0; y < std::min(n, y0 + hh); ++y)
      for (int64_t x = x0; x < std::min(n, x0 + ww); ++x)
        c.power[size_t(y * n + x)] += float(d);
  }
  for (int64_t y = 0; y < n; ++y)
    for (int64_t x = 0; x < n; ++x) {
      double fy = double(y) / n, fx = double(x) / n;
      c.power[size_t(y * n + x)] += float(perCell * 0.1 * u(gen));
      c.temp[size_t(y * n + x)] =
          float(320.0 + 25.0 * std::exp(-8.0 * ((fy - 0.4) * (fy - 0.4) +
                                                (fx - 0.6) * (fx - 0.6))) +
                0.5 * u(gen));
    }
  return c;
}

//===----------------------------------------------------------------------===//
// Versions of one example.
//===----------------------------------------------------------------------===//

/// Which compilation a version runs.
enum class Source { Direct, Input, Output };

struct Version {
  std::string label;  ///< "direct", "rows1:nn 32x8", "out:rows1 32x8"
  std::string scheme; ///< "" for direct
  Source source = Source::Direct;
  int64_t schemeValue = -1, blockValue = -1;
  unsigned bx = 32, by = 8, rows = 1; ///< threads, and rows per thread
  double loadedFraction = 1; ///< of the tile buffer (Reference.h)
  double dramSkip = 0;       ///< of the input's DRAM sectors
};

struct Example {
  std::string name;
  int inputs = 1; ///< image inputs before the output
  bool hotspot = false;
  int64_t hy = 1, hx = 1; ///< the window's halo (for loadedFraction)
  std::string metric;     ///< the primary metric's name
};

const std::vector<Example> kExamples = {
    {"gaussian3_plain", 1, false, 1, 1, "mre"},
    {"sobel3", 1, false, 1, 1, "mean_error"},
    {"sobel5", 1, false, 2, 2, "mean_error"},
    {"median3", 1, false, 1, 1, "mre"},
    {"inversion", 1, false, 0, 0, "mre"},
    {"hotspot", 2, true, 1, 1, "mre"},
};

/// The direct kernel, every input-perforation candidate (schemes x block
/// shapes, runtime/perforation/Tuner.h) and every output-perforation scheme.
std::vector<Version> versionsOf(const Example &ex, const Module &perf,
                                const Module &output) {
  std::vector<Version> out;
  out.push_back({"direct", "", Source::Direct, -1, -1, 32, 8, 1, 1, 0});
  for (const pf::Candidate &c :
       must(pf::candidatesOf(perf.manifest(), ex.name, {}, {32, 8}),
            ex.name + " candidates")) {
    Version v;
    v.source = Source::Input;
    v.scheme = c.scheme;
    v.schemeValue = c.schemeValue, v.blockValue = c.blockValue;
    v.bx = c.blockX, v.by = c.blockY, v.rows = c.rowsPerThread;
    v.label = c.label();
    pf::Scheme sc = must(pf::parseScheme(c.scheme), "scheme " + c.scheme);
    pf::Tile2D tile{int64_t(v.by * v.rows), int64_t(v.bx), ex.hy, ex.hx};
    v.loadedFraction = pf::loadedFraction2D(tile, sc);
    // Whole rows are never fetched; cols and stencil leave no 32-byte
    // sector of the input untouched.
    v.dramSkip = sc.kind == pf::SchemeKind::Rows
                     ? double(sc.skip) / double(sc.skip + 1)
                     : 0.0;
    out.push_back(v);
  }
  pf::TuneKnobs ok;
  ok.scheme = "perforation_output";
  for (const pf::Candidate &c :
       must(pf::candidatesOf(output.manifest(), ex.name, ok, {32, 8}),
            ex.name + " output candidates")) {
    if (c.scheme == "accurate")
      continue; // the direct kernel again
    Version v;
    v.source = Source::Output;
    v.scheme = c.scheme;
    v.schemeValue = c.schemeValue;
    v.label = "out:" + c.label();
    pf::Scheme sc = must(pf::parseScheme(c.scheme), "scheme " + c.scheme);
    // Rows whose outputs are copied are read only by a window that reaches
    // them from a computed row: with a 1-row window none does.
    v.dramSkip = ex.hy == 0 && (sc.kind == pf::SchemeKind::Rows ||
                                sc.kind == pf::SchemeKind::Center)
                     ? double(sc.skip) / double(sc.skip + 1)
                     : 0.0;
    out.push_back(v);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Running.
//===----------------------------------------------------------------------===//

struct Buffers {
  std::vector<DeviceBuffer> in;
  DeviceBuffer out;
  int64_t h = 0, w = 0;
  HotspotCase hs;
};

struct Runner {
  std::shared_ptr<Context> ctx;
  std::unique_ptr<Module> direct, perf, output;
  Example ex;
  TimingOptions timing;

  std::vector<Arg> args(Buffers &b) {
    std::vector<Arg> a;
    for (DeviceBuffer &d : b.in)
      a.push_back(Arg::memref(d.view(), {b.h, b.w}));
    a.push_back(Arg::memref(b.out.view(), {b.h, b.w}));
    if (ex.hotspot) {
      a.push_back(Arg::floating(b.hs.sdc));
      a.push_back(Arg::floating(b.hs.rx1));
      a.push_back(Arg::floating(b.hs.ry1));
      a.push_back(Arg::floating(b.hs.rz1));
    }
    return a;
  }

  LaunchConfig config(const Version &v, const Buffers &b) {
    return LaunchConfig{{unsigned((b.w + v.bx - 1) / v.bx),
                         unsigned((b.h + v.by * v.rows - 1) / (v.by * v.rows)), 1},
                        {v.bx, v.by, 1},
                        0};
  }

  Module &module(const Version &v) {
    return v.source == Source::Direct  ? *direct
           : v.source == Source::Input ? *perf
                                       : *output;
  }
  /// Both modules launch the logical name (the variant knob dispatches).
  std::string kernel(const Version &) { return ex.name; }
  LaunchOptions options(const Version &v) {
    LaunchOptions o;
    if (v.source == Source::Output)
      o.knobs["perforation_output"] = v.schemeValue;
    else if (v.schemeValue >= 0)
      o.knobs["perforation"] = v.schemeValue;
    if (v.blockValue >= 0)
      o.knobs["perforation_block"] = v.blockValue;
    return o;
  }

  std::vector<float> run(const Version &v, Buffers &b) {
    must(b.out.fill32(0x7fc00001), "poison"); // NaN: unwritten shows
    must(module(v).launchSync(kernel(v), config(v, b), args(b), options(v)),
         ex.name + " " + v.label);
    std::vector<float> got(size_t(b.h * b.w));
    must(b.out.copyToHost(got.data(), got.size() * 4), "copy back");
    return got;
  }

  double time(const Version &v, Buffers &b) {
    Timing t = must(module(v).time(kernel(v), config(v, b), args(b), timing,
                                   [&] { return b.out.fill32(0x7fc00001); },
                                   options(v)),
                    "time " + ex.name + " " + v.label);
    return t.medianMs;
  }
};

Buffers upload(std::shared_ptr<Context> ctx, const Example &ex,
               const std::vector<const std::vector<float> *> &inputs,
               int64_t h, int64_t w) {
  Buffers b;
  b.h = h, b.w = w;
  for (const std::vector<float> *p : inputs)
    b.in.push_back(must(DeviceBuffer::fromHost(ctx, p->data(), p->size(),
                                               ScalarType::F32),
                        "upload"));
  b.out = must(DeviceBuffer::allocate(ctx, size_t(h * w) * 4, ScalarType::F32),
               "allocate output");
  (void)ex;
  return b;
}

struct ErrorStats {
  double mre = NAN, meanError = NAN, psnr = NAN, ssim = NAN;
  bool unwritten = false;
};

ErrorStats compare(const std::vector<float> &ref, const std::vector<float> &got,
                   int64_t h, int64_t w, bool image) {
  ErrorStats e;
  std::vector<double> r(ref.begin(), ref.end()), g(got.begin(), got.end());
  for (double v : g)
    if (std::isnan(v))
      e.unwritten = true;
  if (e.unwritten)
    return e;
  double lo = *std::min_element(r.begin(), r.end());
  double hi = *std::max_element(r.begin(), r.end());
  Expected<RelativeError> mre = meanRelativeError(r, g, 1e-3);
  if (mre)
    e.mre = mre->mean;
  Expected<double> me = meanErrorOverRange(r, g);
  if (me)
    e.meanError = *me;
  if (image) {
    // PSNR and SSIM over the reference's range (an edge map is not in [0, 1]).
    const double range = hi > lo ? hi - lo : 1.0;
    Expected<double> p = psnr(r, g, range);
    if (p)
      e.psnr = *p;
    if (h >= kSsimWindow && w >= kSsimWindow) {
      Expected<double> s = ssim(r, g, h, w, range);
      if (s)
        e.ssim = *s;
    }
  }
  return e;
}

double median(std::vector<double> v) {
  if (v.empty())
    return NAN;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string num(double v, int prec = 4) {
  if (std::isnan(v))
    return "null";
  if (std::isinf(v))
    return v > 0 ? "1e999" : "-1e999";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", prec, v);
  return buf;
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);)
    if (!item.empty())
      out.push_back(item);
  return out;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3)
    die("usage: perforation-bench KERNEL_DIR IMAGE_DIR [--sizes 1024,8192,16384] "
        "[--error-size 1024] [--reps 20] [--examples a,b] [--json PATH]");
  std::string kdir = argv[1], idir = argv[2], jsonPath;
  std::vector<int64_t> sizes = {1024, 8192, 16384};
  int64_t errorSize = 1024;
  std::vector<std::string> only;
  TimingOptions timing;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc)
        die(a + " needs a value");
      return argv[++i];
    };
    if (a == "--sizes") {
      sizes.clear();
      for (const std::string &s : split(next(), ','))
        sizes.push_back(std::stoll(s));
    } else if (a == "--error-size")
      errorSize = std::stoll(next());
    else if (a == "--reps")
      timing.reps = std::stoi(next());
    else if (a == "--examples")
      only = split(next(), ',');
    else if (a == "--json")
      jsonPath = next();
    else
      die("unknown option " + a);
  }
  for (int64_t s : sizes)
    if (s < 1 || s > 32768)
      die("size " + std::to_string(s) + " out of [1, 32768]");

  std::shared_ptr<Context> ctx = must(Context::create(0), "context");

  // Photographs: every *.npy of IMAGE_DIR.
  std::vector<Image> photos;
  if (DIR *d = opendir(idir.c_str())) {
    std::vector<std::string> names;
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 4 && n.substr(n.size() - 4) == ".npy")
        names.push_back(n);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const std::string &n : names)
      photos.push_back(readImage(idir + "/" + n, n.substr(0, n.size() - 4)));
  }
  if (photos.empty())
    std::fprintf(stderr, "perforation-bench: no photographs in %s (run "
                         "bench/perforation/images.py): synthetic inputs only\n",
                 idir.c_str());
  std::vector<Image> errorSet = photos;
  for (size_t k = 0; k < kPatterns.size(); ++k)
    errorSet.push_back(synthetic(kPatterns[k], errorSize, 100 + unsigned(k)));

  // The DRAM ceiling: a device-to-device copy of 1 GiB (read + write).
  double copyGBs = 0;
  {
    size_t bytes = size_t(1) << 30;
    DeviceBuffer a = must(DeviceBuffer::allocate(ctx, bytes, ScalarType::I8), "alloc");
    DeviceBuffer b = must(DeviceBuffer::allocate(ctx, bytes, ScalarType::I8), "alloc");
    must(a.fillBytes(1), "fill");
    std::vector<double> t;
    for (int r = 0; r < 13; ++r) {
      must(ctx->synchronize(), "sync");
      auto t0 = std::chrono::steady_clock::now();
      must(b.copyFrom(a), "copy");
      must(ctx->synchronize(), "sync");
      auto t1 = std::chrono::steady_clock::now();
      if (r >= 3)
        t.push_back(std::chrono::duration<double>(t1 - t0).count());
    }
    copyGBs = 2.0 * double(bytes) / median(t) / 1e9;
  }
  std::printf("DRAM ceiling (1 GiB device-to-device copy, read + write): %.0f GB/s\n\n",
              copyGBs);

  std::ostringstream json;
  json << "{\n\"copy_gbs\": " << num(copyGBs) << ",\n\"examples\": [\n";
  bool firstEx = true;
  for (const Example &ex : kExamples) {
    if (!only.empty() && std::find(only.begin(), only.end(), ex.name) == only.end())
      continue;
    Runner run;
    run.ctx = ctx;
    run.ex = ex;
    run.timing = timing;
    run.direct = must(Module::load(ctx, kdir + "/" + ex.name + "_direct.manifest.json"),
                      "load " + ex.name + "_direct");
    run.perf = must(Module::load(ctx, kdir + "/" + ex.name + ".manifest.json"),
                    "load " + ex.name);
    run.output = must(Module::load(ctx, kdir + "/" + ex.name + "_output.manifest.json"),
                      "load " + ex.name + "_output");
    std::vector<Version> versions = versionsOf(ex, *run.perf, *run.output);

    // Errors over the input set (hotspot: its own generator, 3 seeds).
    std::map<std::string, std::vector<ErrorStats>> errors;
    std::vector<std::string> inputNames;
    // The GPU runs one version after another; the metrics (SSIM is the
    // slow one) are computed on all cores at once.
    auto measureErrors = [&](Buffers &b, bool image) {
      std::vector<float> ref = run.run(versions[0], b);
      std::vector<std::vector<float>> outs(versions.size());
      for (size_t v = 1; v < versions.size(); ++v)
        outs[v] = run.run(versions[v], b);
      std::vector<ErrorStats> stats(versions.size());
      std::vector<std::thread> pool;
      const size_t workers =
          std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
      for (size_t t = 0; t < workers; ++t)
        pool.emplace_back([&, t] {
          for (size_t v = 1 + t; v < versions.size(); v += workers)
            stats[v] = compare(ref, outs[v], b.h, b.w, image);
        });
      for (std::thread &th : pool)
        th.join();
      for (size_t v = 1; v < versions.size(); ++v)
        errors[versions[v].label].push_back(stats[v]);
    };
    if (ex.hotspot) {
      for (unsigned seed = 1; seed <= 3; ++seed) {
        HotspotCase c = hotspotInput(errorSize, seed);
        Buffers b = upload(ctx, ex, {&c.power, &c.temp}, errorSize, errorSize);
        b.hs = c;
        inputNames.push_back("hotspot-seed" + std::to_string(seed));
        measureErrors(b, false);
      }
    } else {
      for (const Image &img : errorSet) {
        Buffers b = upload(ctx, ex, {&img.px}, img.h, img.w);
        inputNames.push_back(img.name);
        measureErrors(b, true);
      }
    }

    // Times at each size, on fresh random inputs.
    std::map<std::string, std::map<int64_t, double>> times;
    for (int64_t n : sizes) {
      Buffers b;
      if (ex.hotspot) {
        HotspotCase c = hotspotInput(n, 7 + unsigned(n));
        b = upload(ctx, ex, {&c.power, &c.temp}, n, n);
        b.hs = c;
      } else {
        Image img = synthetic("noise", n, 1000 + unsigned(n));
        b = upload(ctx, ex, {&img.px}, n, n);
      }
      for (const Version &v : versions)
        times[v.label][n] = run.time(v, b);
    }

    // Tables.
    std::printf("## %s (primary metric: %s; error = median [max] over %zu inputs)\n\n",
                ex.name.c_str(), ex.metric.c_str(), inputNames.size());
    for (int64_t n : sizes) {
      double direct = times["direct"][n], accurate = INFINITY;
      for (const Version &v : versions)
        if (v.scheme == "accurate")
          accurate = std::min(accurate, times[v.label][n]);
      double base = std::min(direct, accurate);
      double bytes = double(ex.inputs + 1) * double(n) * double(n) * 4.0;
      std::printf("%lld^2: direct %.4f ms (%.0f GB/s, %.0f%% of copy), best accurate "
                  "tiling %.4f ms; baseline %.4f ms\n\n",
                  (long long)n, direct, bytes / direct / 1e6,
                  100.0 * bytes / direct / 1e6 / copyGBs, accurate, base);
      std::printf("| version | ms | speedup | GB/s | bound | of bound | %s median | max | PSNR | SSIM |\n",
                  ex.metric.c_str());
      std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
      for (const Version &v : versions) {
        double t = times[v.label][n];
        double r = double(ex.inputs) * n * n * 4.0, w = double(n) * n * 4.0;
        double moved = r * (1 - v.dramSkip) + w;
        double bound = (r + w) / moved;
        std::vector<double> prim, ps, ss;
        for (const ErrorStats &e : errors[v.label]) {
          prim.push_back(ex.metric == "mre" ? e.mre : e.meanError);
          ps.push_back(e.psnr);
          ss.push_back(e.ssim);
        }
        double mx = prim.empty() ? NAN : *std::max_element(prim.begin(), prim.end());
        std::printf("| %s | %.4f | %.3f | %.0f | %.3f | %.0f%% | %s | %s | %s | %s |\n",
                    v.label.c_str(), t, base / t, moved / t / 1e6, bound,
                    100.0 * (base / t) / bound,
                    v.scheme.empty() ? "0" : (num(100 * median(prim), 3) + "%").c_str(),
                    v.scheme.empty() ? "0" : (num(100 * mx, 3) + "%").c_str(),
                    num(median(ps), 4).c_str(), num(median(ss), 4).c_str());
      }
      std::printf("\n");
    }

    // JSON.
    json << (firstEx ? "" : ",\n") << "{\"name\": \"" << ex.name
         << "\", \"metric\": \"" << ex.metric << "\", \"inputs\": [";
    firstEx = false;
    for (size_t i = 0; i < inputNames.size(); ++i)
      json << (i ? ", " : "") << "\"" << inputNames[i] << "\"";
    json << "],\n \"versions\": [\n";
    for (size_t vi = 0; vi < versions.size(); ++vi) {
      const Version &v = versions[vi];
      json << (vi ? ",\n" : "") << "  {\"label\": \"" << v.label
           << "\", \"scheme\": \"" << v.scheme << "\", \"block\": [" << v.bx
           << ", " << v.by << "], \"loaded_fraction\": " << num(v.loadedFraction)
           << ", \"dram_skip\": " << num(v.dramSkip) << ", \"ms\": {";
      bool f = true;
      for (int64_t n : sizes) {
        json << (f ? "" : ", ") << "\"" << n << "\": " << num(times[v.label][n], 6);
        f = false;
      }
      json << "}, \"errors\": [";
      const std::vector<ErrorStats> &es = errors[v.label];
      for (size_t i = 0; i < es.size(); ++i)
        json << (i ? ", " : "") << "{\"mre\": " << num(es[i].mre)
             << ", \"mean_error\": " << num(es[i].meanError)
             << ", \"psnr\": " << num(es[i].psnr) << ", \"ssim\": "
             << num(es[i].ssim) << ", \"unwritten\": "
             << (es[i].unwritten ? "true" : "false") << "}";
      json << "]}";
    }
    json << "]}";
    std::fflush(stdout);
  }
  json << "\n]}\n";
  if (!jsonPath.empty()) {
    std::ofstream f(jsonPath);
    f << json.str();
    if (!f)
      die("cannot write " + jsonPath);
  }
  return 0;
}
