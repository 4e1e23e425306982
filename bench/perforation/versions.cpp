// versions.cpp - perforation-bench's examples and versions, and launching
// and timing one version (versions.h).
#include "versions.h"

#include "approx/runtime/perforation/Reference.h"
#include "approx/runtime/perforation/Tuner.h"
#include "approx/runtime/tune/Metrics.h"

#include <cstdio>
#include <tuple>

namespace pbench {

std::vector<Version> versionsOf(const Example &ex, const Module &perf,
                                const Module &output,
                                const Module *tiledOutput) {
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
    const pf::Scheme &sc = c.spec;
    pf::Tile2D tile{int64_t(v.by * v.rows), int64_t(v.bx), ex.hy, ex.hx};
    v.loadedFraction = pf::loadedFraction2D(tile, sc);
    // Whole rows are never fetched; cols and stencil leave no 32-byte
    // sector of the input untouched.
    v.dramSkip = sc.kind == pf::SchemeKind::Rows
                     ? double(sc.skip) / double(sc.skip + 1)
                     : 0.0;
    out.push_back(v);
  }
  // Output perforation (knob perforation_output): of the plain kernel, and
  // of the accurate tiling at each of its block shapes (the whole tile is
  // loaded, the copied elements' work is skipped). Their `accurate` is the
  // direct kernel, or the accurate tiling, again.
  pf::TuneKnobs ok;
  ok.scheme = "perforation_output";
  auto outputs = [&](const Module &m, Source source, const std::string &what) {
    for (const pf::Candidate &c :
         must(pf::candidatesOf(m.manifest(), ex.name, ok, {32, 8}),
              ex.name + " " + what + " candidates")) {
      if (c.scheme == "accurate")
        continue;
      Version v;
      v.source = source;
      v.scheme = c.scheme;
      v.schemeValue = c.schemeValue;
      v.label = "out:" + c.label();
      if (source == Source::TiledOutput) {
        v.blockValue = c.blockValue;
        v.bx = c.blockX, v.by = c.blockY, v.rows = c.rowsPerThread;
        v.label = "out:" + c.scheme + " tiled " +
                  c.label().substr(c.scheme.size() + 1);
      }
      const pf::Scheme &sc = c.spec;
      // Rows whose outputs are copied are read only by a window that
      // reaches them from a computed row: with a 1-row window none does (a
      // tile is loaded whole).
      v.dramSkip = source == Source::Output && ex.hy == 0 &&
                           (sc.kind == pf::SchemeKind::Rows ||
                            sc.kind == pf::SchemeKind::Center)
                       ? double(sc.skip) / double(sc.skip + 1)
                       : 0.0;
      out.push_back(v);
    }
  };
  outputs(output, Source::Output, "output");
  if (tiledOutput)
    outputs(*tiledOutput, Source::TiledOutput, "tiled output");
  return out;
}

std::vector<Arg> Runner::args(const Case &c, const DeviceBuffer &out) {
  std::vector<Arg> a;
  for (const DeviceBuffer &d : c.in)
    a.push_back(Arg::memref(d.view(), {c.h, c.w}));
  a.push_back(Arg::memref(out.view(), {c.h, c.w}));
  if (ex.hotspot) {
    a.push_back(Arg::floating(c.hs.sdc));
    a.push_back(Arg::floating(c.hs.rx1));
    a.push_back(Arg::floating(c.hs.ry1));
    a.push_back(Arg::floating(c.hs.rz1));
  }
  return a;
}

LaunchConfig Runner::config(const Version &v, const Case &c) {
  return LaunchConfig{{unsigned((c.w + v.bx - 1) / v.bx),
                       unsigned((c.h + v.by * v.rows - 1) / (v.by * v.rows)),
                       1},
                      {v.bx, v.by, 1},
                      0};
}

Module &Runner::module(const Version &v) {
  switch (v.source) {
  case Source::Direct:
    return *direct;
  case Source::Input:
    return *perf;
  case Source::Output:
    return *output;
  case Source::TiledOutput:
    break;
  }
  return *tiledOutput;
}

LaunchOptions Runner::options(const Version &v) {
  LaunchOptions o;
  if (v.source == Source::Output || v.source == Source::TiledOutput)
    o.knobs["perforation_output"] = v.schemeValue;
  else if (v.schemeValue >= 0)
    o.knobs["perforation"] = v.schemeValue;
  if (v.blockValue >= 0)
    o.knobs["perforation_block"] = v.blockValue;
  return o;
}

void Runner::run(const Version &v, const Case &c, DeviceBuffer &out) {
  must(out.fill32(0x7fc00001), "poison");
  must(module(v).launchSync(kernel(v), config(v, c), args(c, out), options(v)),
       ex.name + " " + v.label);
}

TimeStat Runner::time(const Version &v, const Case &c, DeviceBuffer &out) {
  const std::string what = "time " + ex.name + " " + v.label;
  auto launches = [&](int warmup, int reps) {
    TimingOptions o;
    o.warmup = warmup, o.reps = reps;
    return must(module(v).time(
                    kernel(v), config(v, c), args(c, out), o,
                    [&] { return out.fill32(0x7fc00001); }, options(v)),
                what)
        .samplesMs;
  };
  std::vector<double> ms = launches(timing.first.warmup, timing.first.reps);
  const Tightness tight{timing.untilCi, timing.maxReps};
  while (timing.untilCi > 0 && int(ms.size()) < timing.maxReps &&
         !tight.reached(ms)) {
    std::vector<double> more = launches(
        0, std::min(TimingRule::kBatchReps, timing.maxReps - int(ms.size())));
    ms.insert(ms.end(), more.begin(), more.end());
  }
  TimeStat t;
  t.ms = approx::rt::median(ms); // Module::time's median, over every sample
  std::tie(t.lo, t.hi) = approx::rt::medianInterval(ms);
  t.reps = int(ms.size());
  return t;
}

std::vector<std::unique_ptr<Runner>>
loadRunners(std::shared_ptr<Context> ctx, const std::string &kdir,
            const std::vector<std::string> &only, const TimingRule &timing) {
  std::vector<std::unique_ptr<Runner>> runners;
  for (const Example &ex : kExamples) {
    if (!only.empty() &&
        std::find(only.begin(), only.end(), ex.name) == only.end())
      continue;
    auto run = std::make_unique<Runner>();
    run->ctx = ctx;
    run->ex = ex;
    run->timing = timing;
    run->direct =
        must(Module::load(ctx, kdir + "/" + ex.name + "_direct.manifest.json"),
             "load " + ex.name + "_direct");
    run->perf = must(Module::load(ctx, kdir + "/" + ex.name + ".manifest.json"),
                     "load " + ex.name);
    run->output =
        must(Module::load(ctx, kdir + "/" + ex.name + "_output.manifest.json"),
             "load " + ex.name + "_output");
    // Output perforation of the tiled kernels: compiled by compile.sh since
    // 2026-11-29; older kernel directories lack it.
    const std::string tiled = kdir + "/" + ex.name + "_tiled_output.manifest.json";
    if (FILE *f = std::fopen(tiled.c_str(), "r")) {
      std::fclose(f);
      run->tiledOutput = must(Module::load(ctx, tiled), "load " + tiled);
    }
    run->versions =
        versionsOf(ex, *run->perf, *run->output, run->tiledOutput.get());
    runners.push_back(std::move(run));
  }
  return runners;
}

} // namespace pbench
