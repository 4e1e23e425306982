// measure.cpp - perforation-bench's DRAM ceiling, error sets and timing
// (measure.h).
#include "measure.h"

#include "approx/runtime/core/DeviceMonitor.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>

namespace pbench {

double dramCeiling(std::shared_ptr<Context> ctx) {
  size_t bytes = size_t(1) << 30;
  DeviceBuffer a =
      must(DeviceBuffer::allocate(ctx, bytes, ScalarType::I8), "alloc");
  DeviceBuffer b =
      must(DeviceBuffer::allocate(ctx, bytes, ScalarType::I8), "alloc");
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
  return 2.0 * double(bytes) / median(t) / 1e9;
}

void measureErrors(std::shared_ptr<Context> ctx, GpuMetrics &gpu,
                   const std::vector<std::unique_ptr<Runner>> &runners,
                   const std::vector<Image> &photos,
                   const std::vector<int64_t> &errorSizes, int64_t errorSize,
                   int64_t ssimMax, Results &R) {
  // Sets: "native", then each error size. errors[set][example][label] =
  // one ErrorStats per input, inputs[set][example] their names.
  auto &errors = R.errors;
  auto &inputs = R.inputs;
  auto &phases = R.phases;
  std::vector<std::string> sets = {"native"};
  for (int64_t n : errorSizes)
    sets.push_back(std::to_string(n));
  std::map<std::string, bool> crossChecked;
  std::vector<DeviceBuffer> photoBufs;
  for (const Image &p : photos)
    photoBufs.push_back(upload(ctx, p.px));

  // One input through one example: the reference, then every version.
  double secRuns = 0, secInputs = 0;
  auto measure = [&](Runner &run, const std::string &set, const Case &c,
                     DeviceBuffer &ref, DeviceBuffer &out) {
    const bool image = !run.ex.hotspot;
    const bool withSsim = std::max(c.h, c.w) <= ssimMax;
    auto t0 = std::chrono::steady_clock::now();
    run.run(run.versions[0], c, ref);
    secRuns += seconds(t0);
    inputs[set][run.ex.name].push_back(c.name);
    for (size_t v = 1; v < run.versions.size(); ++v) {
      auto t1 = std::chrono::steady_clock::now();
      run.run(run.versions[v], c, out);
      secRuns += seconds(t1);
      ErrorStats e = gpu.compare(ref, out, c.h, c.w, image, withSsim);
      errors[set][run.ex.name][run.versions[v].label].push_back(e);
      // Once per example: a real perforated output against ImageMetrics.h.
      if (!crossChecked[run.ex.name] && run.versions[v].scheme != "accurate" &&
          c.h * c.w <= 2048 * 2048) {
        crossChecked[run.ex.name] = true;
        ErrorStats want =
            compareCpu(download(ref, c.h * c.w), download(out, c.h * c.w), c.h,
                       c.w, image, withSsim);
        std::string d = mismatch(want, e);
        if (!d.empty())
          die("the GPU metrics of " + run.ex.name + " " +
              run.versions[v].label + " on " + c.name +
              " disagree with ImageMetrics.h (CPU vs GPU):" + d);
      }
    }
  };
  bool anyImage = false, anyHotspot = false;
  for (const auto &r : runners)
    (r->ex.hotspot ? anyHotspot : anyImage) = true;
  for (const std::string &set : sets) {
    auto t0 = std::chrono::steady_clock::now();
    secRuns = secInputs = gpu.secMetrics = gpu.secSsim = 0;
    const bool native = set == "native";
    const int64_t n = native ? errorSize : std::stoll(set);
    if (anyImage) {
      // The images of the set, each built once and run through every
      // example: photographs (mirror-tiled unless native), then patterns.
      const size_t count = photos.size() + kPatterns.size();
      for (size_t i = 0; i < count; ++i) {
        auto tIn = std::chrono::steady_clock::now();
        Case c;
        if (i < photos.size()) {
          const Image &p = photos[i];
          if (native) {
            c.name = p.name, c.h = p.h, c.w = p.w;
            c.in.push_back(upload(ctx, p.px));
          } else {
            c.name = p.name + "-" + set, c.h = n, c.w = n;
            c.in.push_back(must(
                DeviceBuffer::allocate(ctx, size_t(n * n) * 4, ScalarType::F32),
                "allocate"));
            gpu.gather(photoBufs[i], p.h, p.w, c.in[0], n, n);
          }
        } else {
          size_t k = i - photos.size();
          Image img = synthetic(kPatterns[k], n, 100 + unsigned(k));
          c.name = img.name, c.h = n, c.w = n;
          c.in.push_back(upload(ctx, img.px));
        }
        DeviceBuffer ref = must(
            DeviceBuffer::allocate(ctx, size_t(c.h * c.w) * 4, ScalarType::F32),
            "allocate");
        DeviceBuffer out = must(
            DeviceBuffer::allocate(ctx, size_t(c.h * c.w) * 4, ScalarType::F32),
            "allocate");
        secInputs += seconds(tIn);
        for (auto &r : runners)
          if (!r->ex.hotspot)
            measure(*r, set, c, ref, out);
      }
    }
    if (anyHotspot)
      for (unsigned seed = 1; seed <= 3; ++seed) {
        auto tIn = std::chrono::steady_clock::now();
        HotspotCase h = hotspotInput(n, seed);
        Case c;
        c.name =
            "hotspot-seed" + std::to_string(seed) + (native ? "" : "-" + set);
        c.h = n, c.w = n, c.hs = h.k;
        c.in.push_back(upload(ctx, h.power));
        c.in.push_back(upload(ctx, h.temp));
        DeviceBuffer ref = must(
            DeviceBuffer::allocate(ctx, size_t(n * n) * 4, ScalarType::F32),
            "allocate");
        DeviceBuffer out = must(
            DeviceBuffer::allocate(ctx, size_t(n * n) * 4, ScalarType::F32),
            "allocate");
        secInputs += seconds(tIn);
        for (auto &r : runners)
          if (r->ex.hotspot)
            measure(*r, set, c, ref, out);
      }
    phases.push_back(
        {"errors " +
             (native ? "native (photographs at their size, patterns at " +
                           std::to_string(errorSize) + "^2)"
                     : set + "^2") +
             ": inputs " + num(secInputs, 3) + " s, launches " +
             num(secRuns, 3) + " s, sums " + num(gpu.secMetrics, 3) +
             " s, SSIM " + num(gpu.secSsim, 3) + " s",
         seconds(t0)});
    std::fprintf(stderr, "perforation-bench: %s done (%.1f s)\n",
                 phases.back().first.c_str(), phases.back().second);
  }
  for (const auto &r : runners)
    if (!crossChecked[r->ex.name])
      std::fprintf(stderr,
                   "perforation-bench: %s: no case small enough to "
                   "cross-check its GPU metrics on the CPU\n",
                   r->ex.name.c_str());
  photoBufs.clear();
  R.sets = sets;
}

void measureTimes(std::shared_ptr<Context> ctx,
                  const std::vector<std::unique_ptr<Runner>> &runners,
                  const std::vector<int64_t> &sizes, Results &R) {
  bool anyImage = false, anyHotspot = false;
  for (const auto &r : runners)
    (r->ex.hotspot ? anyHotspot : anyImage) = true;
  auto tTime = std::chrono::steady_clock::now();
  double tInputs = 0;
  auto &times = R.times;
  // The GPU's clocks, temperature and power around each size's timing
  // (NVML; without it, the JSON says why and its readings are null).
  std::unique_ptr<DeviceMonitor> mon;
  if (auto m = DeviceMonitor::open(ctx->device().uuid); m.isOk())
    mon = m.take();
  else
    R.nvml = m.status().toString();
  auto reading = [&]() -> std::optional<DeviceState> {
    if (!mon)
      return std::nullopt;
    auto s = mon->read();
    if (!s.isOk())
      return std::nullopt;
    return *s;
  };
  for (int64_t n : sizes) {
    auto t0 = std::chrono::steady_clock::now();
    Case noise, chip;
    noise.h = noise.w = chip.h = chip.w = n;
    if (anyImage)
      noise.in.push_back(
          upload(ctx, synthetic("noise", n, 1000 + unsigned(n)).px));
    if (anyHotspot) {
      HotspotCase h = hotspotInput(n, 7 + unsigned(n));
      chip.hs = h.k;
      chip.in.push_back(upload(ctx, h.power));
      chip.in.push_back(upload(ctx, h.temp));
    }
    DeviceBuffer out =
        must(DeviceBuffer::allocate(ctx, size_t(n * n) * 4, ScalarType::F32),
             "allocate");
    tInputs += seconds(t0);
    R.deviceStates[n].start = reading();
    for (auto &rp : runners)
      for (const Version &v : rp->versions) {
        TimeStat t = rp->time(v, rp->ex.hotspot ? chip : noise, out);
        times[rp->ex.name][v.label][n] = t.ms;
        R.timeStats[rp->ex.name][v.label][n] = t;
      }
    R.deviceStates[n].end = reading();
  }
  R.phases.push_back(
      {"timing (of which inputs " + num(tInputs, 3) + " s)", seconds(tTime)});
}

} // namespace pbench
