// lns-bench.cu - the LNS family's GPU checks and benchmark (run-lns.sh).
//
// Loads the modules of gen-kernels.py through the runtime and:
//  1. bitexact: fetches the probe's random float4 table at a sweep of
//     coordinates (every 8-bit fraction pair over texel cells, ties,
//     sub-1/256 bits, borders, random) and compares every channel with the
//     CPU model (passes/lns/math/FilterModel.h) bit for bit; then evaluates
//     sb and db of texture2, texture1 and horner modules on inputs covering
//     every segment and compares them with the CPU evaluators (LnsTables.h),
//     bit for bit except db in (-1, 0), where the GPU's lg2.approx differs
//     from the host's log2f by design. The same for the 3-D filter (probe3d:
//     every fraction triple of one cell, plus random coordinates), reported
//     with its largest difference in ulps (the model's two-slice sum is off
//     where the slices cancel at different exponents), and texture3's
//     evaluation, which counts;
//  2. accuracy: the max error of sb and db, per module, over every f32 in
//     [-32, 0] and over the paper's grid of multiples of 2^-f (Figure 3),
//     computed on the GPU against an f64 reference;
//  3. throughput: the paper's Table 1: time per element of sb and of sb+db
//     for each row, medians of interleaved rounds (CUDA events, warm-up),
//     the split's λ swept, and the ratio to the SFU row; where KERNELS_DIR
//     has gen-kernels.py's tp_*_branch modules, also the split with one
//     warp-uniform branch per op (approx-lns-lower alone, without
//     approx-lns-version), swept the same way ("branch", "branch_lambda",
//     "branch_sweep", "branch_sweep_ci", "branch_speedup" and its "ci" in
//     the JSON);
//  4. dynamic: the SFU, texture2 and split rows again with dynamic work
//     distribution (each thread takes chunks from a global counter), the
//     split's λ swept, and its speedup against the bound 1 + r_TEX/r_SFU.
// Prints markdown; --json PATH writes everything. Exit 1 on a bit mismatch.
//
// Dispersion (issue 30): each sample of a row is the median of 5 timed
// launches (2 warm-up); a measurement (one of sb, sb+db in 3 and in 4) runs
// its rows, and every λ of its sweeps, interleaved round by round, for at
// least --min-reps rounds; with --until-ci R it goes on until the 95%
// bootstrap interval (approx::rt::medianInterval) of every median it
// reports (each row and each λ of the sweeps) lies within ±R of that median
// (approx::rt::Tightness; checked every 10 rounds past --min-reps), or
// --max-reps rounds. The defaults (5 rounds, --until-ci 0: off) are the
// runs of 2026-11-22 and -26. The JSON keeps every field it had, with the
// same meaning (the reported medians stay the upper middle sample), and
// adds beside them, per measurement, "ci" (each row's 95% interval, in the
// row's ps/element), "sweep_ci" and, in 3, "versioned_sweep_ci" (the same
// per λ) and "rounds" (rounds taken); at the top level "timing" (the
// options and the interval's method), "nvml" (null, or why there are no
// readings) and "device_state": per section run (bitexact, accuracy,
// throughput, dynamic) the SM and memory clocks, temperature, power and
// energy counter at its "start" and "end" (NVML through
// approx::rt::DeviceMonitor; null without NVML). With --until-ci the tables
// print each interval beside its value and the rounds taken; without it
// they are as before.
//
// usage: lns-bench KERNELS_DIR [--json PATH] [--min-reps N] [--until-ci R]
//                  [--max-reps N] [--iters N] [--block 32..256]
//                  [--only bitexact|accuracy|throughput|dynamic]
//   --min-reps N   interleaved rounds per measurement, at least (default 5;
//                  --rounds N is the same option)
//   --until-ci R   go on until every reported median's 95% interval is
//                  within ±R of it, e.g. 0.01 (default 0: off, exactly
//                  --min-reps rounds)
//   --max-reps N   with --until-ci: rounds per measurement, at most
//                  (default 200; not below --min-reps)
//   --iters N      iterations per thread (default 2048)
//   --block N      threads per block, 32..256 (default 256)
//   --only MODE    run only that section (repeatable; default: all)
// A bad option value is one line on stderr and exit 2, before the GPU is
// touched.
#include "../BenchCommon.cuh"
#include "../JsonText.h"

#include "approx/runtime/core/DeviceMonitor.h"
#include "approx/runtime/tune/Metrics.h"

#include "FilterModel.h"
#include "LnsTables.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace approx::rt;
namespace lns = approx::lns;

namespace {
std::shared_ptr<Context> gCtx;
std::string gDir;
std::ostringstream gJson;
int gRounds = 5, gIters = 2048, gBlock = 256; // gRounds: --min-reps
int gMaxReps = 200;
double gUntilCi = 0; // 0: off, exactly gRounds rounds
// Past --min-reps, tightness is checked every this many rounds (a bootstrap
// of 2,000 resamples per median).
constexpr int kCheckEvery = 10;
// The GPU's clocks, temperature and power (NVML); null without it.
std::unique_ptr<DeviceMonitor> gMon;

std::unique_ptr<Module> load(const std::string &name) {
  auto m = Module::load(gCtx, gDir + "/" + name + ".manifest.json");
  check(m.status(), name.c_str());
  return std::move(*m);
}

DeviceBuffer upload(const std::vector<float> &v) {
  auto b = DeviceBuffer::fromHost(gCtx, v.data(), v.size(), ScalarType::F32);
  check(b.status(), "upload");
  return std::move(*b);
}
DeviceBuffer alloc(size_t n, ScalarType t = ScalarType::F32) {
  auto b = DeviceBuffer::allocate(gCtx, n * 4, t);
  check(b.status(), "allocate");
  return std::move(*b);
}
/// A JSON number, or a string for inf/NaN (JSON has neither).
std::string jnum(double v) {
  if (std::isnan(v))
    return "\"nan\"";
  if (std::isinf(v))
    return v > 0 ? "\"inf\"" : "\"-inf\"";
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}
/// The device's state now (SM and memory clocks, temperature, power,
/// energy counter) as a JSON object; null without NVML or when the reading
/// fails, and a value the GPU does not report is null.
std::string stateJson() {
  if (!gMon)
    return "null";
  auto s = gMon->read();
  if (!s.isOk())
    return "null";
  auto num = [](double v, int precision) {
    if (!std::isfinite(v))
      return std::string("null");
    std::ostringstream o;
    o.precision(precision);
    o << v;
    return o.str();
  };
  return "{\"sm_mhz\": " + std::to_string(s->smClockMHz) +
         ", \"mem_mhz\": " + std::to_string(s->memClockMHz) +
         ", \"temp_c\": " + std::to_string(s->temperatureC) +
         ", \"power_w\": " + num(s->powerW, 6) +
         ", \"energy_j\": " + num(s->energyJ, 12) + "}";
}
std::vector<float> download(const DeviceBuffer &b, size_t n) {
  std::vector<float> v(n);
  check(b.copyToHost(v.data(), n * 4), "download");
  return v;
}
uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
LaunchConfig linear(size_t n, unsigned block = 256) {
  LaunchConfig c;
  c.block.x = block;
  c.grid.x = unsigned((n + block - 1) / block);
  return c;
}

// ---------------------------------------------------------------------------
// 1. Bit exactness.
// ---------------------------------------------------------------------------
int bitExactFilter() {
  auto m = load("probe");
  const TextureTable &table = m->manifest().knobs[0].resource.options.at(0);
  lns::Texture2D tex{int(table.width), int(table.height), 4,
                     table.data->data()};
  std::vector<float> cx, cy;
  // Every pair of 8-bit fractions on a few texel cells (incl. the border).
  for (int cell : {0, 17, 62, 63})
    for (int a = 0; a < 256; ++a)
      for (int b = 0; b < 256; ++b) {
        cx.push_back(cell + 0.5f + a / 256.0f);
        cy.push_back(40 - cell / 2 + 0.5f + b / 256.0f);
      }
  // Ties and sub-1/256 bits, negative and beyond-the-edge coordinates.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-3.0f, 67.0f);
  for (int i = 0; i < 200000; ++i) {
    float x = u(rng), y = u(rng);
    if (i % 4 == 0) { // exact ties of the 8-bit rounding
      x = std::floor(x) + (int(rng() % 256) + 0.5f) / 256.0f;
      y = std::floor(y) + (int(rng() % 256) + 0.5f) / 256.0f;
    }
    cx.push_back(x);
    cy.push_back(y);
  }
  const size_t n = cx.size();
  DeviceBuffer dx = upload(cx), dy = upload(cy), out = alloc(4 * n);
  check(m->launchSync("fetch", linear(n),
                      {Arg::memref(dx.view()), Arg::memref(dy.view()),
                       Arg::memref(out.view()), Arg::integer(int64_t(n))}),
        "fetch");
  std::vector<float> hw = download(out, 4 * n);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    float model[4];
    lns::filter2D(tex, cx[i], cy[i], model);
    for (int c = 0; c < 4; ++c)
      if (bits(model[c]) != bits(hw[4 * i + c]) && bad++ < 5)
        std::printf("  mismatch at (%.9g, %.9g) channel %d: hardware %.9g "
                    "model %.9g\n",
                    cx[i], cy[i], c, hw[4 * i + c], model[c]);
  }
  std::printf("| filter probe | %zu fetches x 4 channels | %zu differ |\n", n,
              bad);
  gJson << "\"filter\": {\"fetches\": " << n << ", \"mismatches\": " << bad
        << "}, ";
  return bad ? 1 : 0;
}

/// The 3-D filter on probe3d's random float4 3-D table against the assumed
/// 3-D model (FilterModel.h). Every fraction triple (a, b, c) of one interior
/// cell, one launch per c, then random coordinates (a quarter exact ties)
/// including outside the texture. Returns the number of mismatching fetches.
size_t bitExactFilter3D() {
  auto m = load("probe3d");
  const TextureTable &table = m->manifest().knobs[0].resource.options.at(0);
  // The depth from the data's size, whatever the runtime calls it.
  const int depth = int(table.data->size() /
                        (size_t(table.width) * table.height * table.channels));
  lns::Texture3D tex{int(table.width), int(table.height), depth, 4,
                     table.data->data()};
  size_t total = 0, bad = 0, diagonal = 0, badDiagonal = 0;
  size_t near = 0, far = 0; // differing channels
  double maxDiff = 0, maxTexel = 0;
  for (float v : *table.data)
    maxTexel = std::max(maxTexel, double(std::fabs(v)));
  auto run = [&](const std::vector<float> &cx, const std::vector<float> &cy,
                 const std::vector<float> &cz) {
    const size_t n = cx.size();
    DeviceBuffer dx = upload(cx), dy = upload(cy), dz = upload(cz),
                 out = alloc(4 * n);
    check(m->launchSync("fetch", linear(n),
                        {Arg::memref(dx.view()), Arg::memref(dy.view()),
                         Arg::memref(dz.view()), Arg::memref(out.view()),
                         Arg::integer(int64_t(n))}),
          "fetch3d");
    std::vector<float> hw = download(out, 4 * n);
    for (size_t i = 0; i < n; ++i) {
      float model[4];
      lns::filter3D(tex, cx[i], cy[i], cz[i], model);
      const bool diag =
          cx[i] - std::floor(cx[i]) == cy[i] - std::floor(cy[i]) &&
          cy[i] - std::floor(cy[i]) == cz[i] - std::floor(cz[i]);
      bool differs = false;
      for (int c = 0; c < 4; ++c)
        if (bits(model[c]) != bits(hw[4 * i + c])) {
          differs = true;
          // Same sign and within 4 ulps, or beyond (cancellation near 0).
          const uint32_t m = bits(model[c]), h = bits(hw[4 * i + c]);
          const int64_t ulps = std::llabs(int64_t(m & 0x7fffffffu) -
                                          int64_t(h & 0x7fffffffu));
          if ((m >> 31) == (h >> 31) && ulps <= 4)
            ++near;
          else
            ++far;
          maxDiff = std::max(maxDiff, std::fabs(double(model[c]) -
                                                double(hw[4 * i + c])));
          if (bad < 5)
            std::printf("  3-D mismatch at (%.9g, %.9g, %.9g) channel %d: "
                        "hardware %.9g model %.9g\n",
                        cx[i], cy[i], cz[i], c, hw[4 * i + c], model[c]);
        }
      ++total;
      bad += differs;
      diagonal += diag;
      badDiagonal += diag && differs;
    }
  };
  std::vector<float> cx, cy, cz;
  for (int c = 0; c < 256; ++c) {
    cx.clear();
    cy.clear();
    cz.clear();
    for (int a = 0; a < 256; ++a)
      for (int b = 0; b < 256; ++b) {
        cx.push_back(17 + 0.5f + a / 256.0f);
        cy.push_back(1 + 0.5f + b / 256.0f);
        cz.push_back(1 + 0.5f + c / 256.0f);
      }
    run(cx, cy, cz);
  }
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> ux(-3.0f, 67.0f), uyz(-2.0f, 6.0f);
  cx.clear();
  cy.clear();
  cz.clear();
  for (int i = 0; i < 200000; ++i) {
    float x = ux(rng), y = uyz(rng), z = uyz(rng);
    if (i % 4 == 0) { // exact ties of the 8-bit rounding
      x = std::floor(x) + (int(rng() % 256) + 0.5f) / 256.0f;
      y = std::floor(y) + (int(rng() % 256) + 0.5f) / 256.0f;
      z = std::floor(z) + (int(rng() % 256) + 0.5f) / 256.0f;
    }
    cx.push_back(x);
    cy.push_back(y);
    cz.push_back(z);
  }
  run(cx, cy, cz);
  std::printf("| filter probe 3-D (reported, not gating) | %zu fetches x "
              "4 channels | %zu differ (diagonal a = b = c: %zu of %zu); "
              "channels: %zu by 1-4 ulps, %zu by more; max |diff| %.3g of "
              "the largest texel |\n",
              total, bad, badDiagonal, diagonal, near, far,
              maxTexel > 0 ? maxDiff / maxTexel : 0.0);
  gJson << "\"filter3d\": {\"fetches\": " << total
        << ", \"mismatches\": " << bad << ", \"channels_within_4_ulps\": "
        << near << ", \"channels_beyond\": " << far
        << ", \"max_diff_over_max_texel\": " << (maxTexel > 0 ? maxDiff / maxTexel : 0.0)
        << ", \"diagonal\": " << diagonal
        << ", \"diagonal_mismatches\": " << badDiagonal << "}, ";
  return bad;
}

/// sb/db of a table module against the CPU evaluator: every segment, ties,
/// random f32, positive and special inputs.
int bitExactEval(const std::string &name, lns::LnsImpl impl, unsigned k,
                 unsigned degree) {
  auto m = load(name);
  lns::LnsTable t;
  std::string error;
  if (impl == lns::LnsImpl::Horner) {
    if (!lns::buildHorner(k, degree, t, &error)) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), error.c_str());
      return 1;
    }
  } else {
    // The table exactly as the compiler embedded it.
    for (const KnobInfo &kn : m->manifest().knobs)
      if (kn.kind == KnobKind::Resource) {
        const TextureTable &tt = kn.resource.options.at(0);
        t.width = int(tt.width);
        t.height = int(tt.height);
        t.channels = int(tt.channels);
        t.data = *tt.data;
        // texture3's depth (2) from the data's size.
        t.depth = int(t.data.size() / (size_t(t.width) * size_t(t.height) *
                                       size_t(t.channels)));
      }
  }
  std::vector<float> xs;
  const unsigned n = 32 * k;
  std::mt19937 rng(11);
  for (unsigned w = 0; w < n; ++w)
    for (int j : {0, 1, 77, 128, 200, 255})
      xs.push_back(float(-32.0 + (w + j / 256.0) / k));
  std::uniform_real_distribution<float> u(-33.0f, 0.0f);
  for (int i = 0; i < 100000; ++i)
    xs.push_back(u(rng));
  for (int i = 0; i < 20000; ++i) // near 0, every binade
    xs.push_back(-std::ldexp(1.0f + (rng() % 1000) / 1000.0f,
                             -int(rng() % 126)));
  for (float x : {0.0f, -0.0f, 3.0f, 40.0f, -32.0f, -32.000004f, -1.0f,
                  -INFINITY, INFINITY})
    xs.push_back(x);
  DeviceBuffer din = upload(xs), dsb = alloc(xs.size()), ddb = alloc(xs.size());
  check(m->launchSync("eval", linear(xs.size()),
                      {Arg::memref(din.view()), Arg::memref(dsb.view()),
                       Arg::memref(ddb.view()),
                       Arg::integer(int64_t(xs.size()))}),
        name.c_str());
  std::vector<float> sb = download(dsb, xs.size()), db = download(ddb, xs.size());
  size_t badSb = 0, badDb = 0, nearDb = 0;
  double nearWorst = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    float x = xs[i];
    auto eval = [&](lns::LnsFunction f) {
      switch (impl) {
      case lns::LnsImpl::Texture2:
        return lns::evalTexture2(t, k, f, x);
      case lns::LnsImpl::Texture1:
        return lns::evalTexture1(t, k, f, x);
      case lns::LnsImpl::Texture3:
        return lns::evalTexture3(t, k, f, x);
      default:
        return lns::evalHorner(t, k, f, x);
      }
    };
    float s = eval(lns::LnsFunction::Sb), d = eval(lns::LnsFunction::Db);
    if (bits(s) != bits(sb[i]) && !(std::isnan(s) && std::isnan(sb[i])) &&
        badSb++ < 3)
      std::printf("  %s sb(%.9g): gpu %.9g model %.9g\n", name.c_str(), x,
                  sb[i], s);
    bool near = -std::fabs(x) > -1.0f - 1.0f / k && std::fabs(x) <= 32;
    if (near) { // lg2.approx on the GPU, log2f here
      ++nearDb;
      if (std::isfinite(d) && std::isfinite(db[i]))
        nearWorst = std::max(nearWorst, double(std::fabs(d - db[i])) /
                                            std::max(1.0, double(std::fabs(d))));
      continue;
    }
    if (bits(d) != bits(db[i]) && !(std::isnan(d) && std::isnan(db[i])) &&
        badDb++ < 3)
      std::printf("  %s db(%.9g): gpu %.9g model %.9g\n", name.c_str(), x,
                  db[i], d);
  }
  std::printf("| %s | %zu inputs | sb: %zu differ | db (x <= -1): %zu differ "
              "| db near 0: %zu inputs, max rel. diff %.3g |\n",
              name.c_str(), xs.size(), badSb, badDb, nearDb, nearWorst);
  gJson << "\"" << name << "\": {\"inputs\": " << xs.size()
        << ", \"sb_mismatches\": " << badSb << ", \"db_mismatches\": " << badDb
        << ", \"db_near_rel_diff\": " << nearWorst << "}, ";
  return (badSb || badDb) ? 1 : 0;
}

// ---------------------------------------------------------------------------
// 2. Accuracy.
// ---------------------------------------------------------------------------
struct AccRow {
  std::string name;
  int f; // input precision of the grid (log2 k + 8)
};

void accuracy() {
  const AccRow rows[] = {
      {"sfu", 14},           {"precise", 14},       {"horner_s1_d5", 14},
      {"horner_s4_d3", 14},  {"texture2_s4", 10},   {"texture2_s16", 12},
      {"texture2_s64", 14},  {"texture2_s256", 16}, {"texture2_s1024", 18},
      {"texture3_s4", 10},   {"texture3_s16", 12},  {"texture3_s64", 14},
      {"texture3_s256", 16}, {"texture1_s16", 12},  {"texture1_s64", 14},
      {"texture1_s256", 16}, {"texture1_s1024", 18}};
  std::printf("\n## Accuracy: max |error| against an f64 reference\n\n"
              "db: absolute where |db| <= 1, relative beyond (near 0).\n\n"
              "| module | f | grid sb | grid db (x <= -1) | grid db (-1 < x < "
              "0) | all-f32 sb | all-f32 db (x <= -1) | all-f32 db (-1 < x < "
              "0) |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  gJson << "\"accuracy\": [";
  bool first = true;
  for (const AccRow &r : rows) {
    auto m = load("acc_" + r.name);
    DeviceBuffer err = alloc(3, ScalarType::I32);
    float res[2][3];
    LaunchConfig cfg;
    cfg.block.x = 256;
    cfg.grid.x = unsigned(gCtx->device().smCount * 8);
    for (int pass = 0; pass < 2; ++pass) {
      check(err.fillBytes(0), "fill");
      if (pass == 0) {
        const int64_t count = (int64_t(32) << r.f) + 1;
        check(m->launchSync("acc_grid", cfg,
                            {Arg::floating(std::ldexp(1.0, -r.f)),
                             Arg::integer(count), Arg::memref(err.view())}),
              r.name.c_str());
      } else {
        // |x| from +0 to 32 (bits 0 .. 0x42000000), every f32.
        check(m->launchSync("acc_all", cfg,
                            {Arg::integer(0), Arg::integer(0x42000001LL),
                             Arg::memref(err.view())}),
              r.name.c_str());
      }
      std::vector<float> e = download(err, 3);
      for (int c = 0; c < 3; ++c)
        res[pass][c] = e[c];
    }
    std::printf("| %s | %d | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g |\n",
                r.name.c_str(), r.f, res[0][0], res[0][1], res[0][2],
                res[1][0], res[1][1], res[1][2]);
    gJson << (first ? "" : ", ") << "{\"module\": \"" << r.name
          << "\", \"f\": " << r.f << ", \"grid\": [" << jnum(res[0][0])
          << ", " << jnum(res[0][1]) << ", " << jnum(res[0][2])
          << "], \"all\": [" << jnum(res[1][0]) << ", " << jnum(res[1][1])
          << ", " << jnum(res[1][2]) << "]}";
    first = false;
  }
  gJson << "], ";
}

// ---------------------------------------------------------------------------
// 3. Throughput (Table 1).
// ---------------------------------------------------------------------------
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// Runs `round` (one sample of every series of a measurement, interleaved)
/// gRounds times; with --until-ci on until `tight` says every series is
/// tight (checked every kCheckEvery rounds) or gMaxReps rounds. Returns the
/// rounds taken.
int interleave(const std::function<void()> &round,
               const std::function<bool(const Tightness &)> &tight) {
  const Tightness t{gUntilCi, gMaxReps};
  for (int reps = 1;; ++reps) {
    round();
    if (reps < gRounds)
      continue;
    if (gUntilCi <= 0 || reps >= gMaxReps)
      return reps;
    if ((reps - gRounds) % kCheckEvery == 0 && tight(t))
      return reps;
  }
}
/// The 95% bootstrap interval of the median of `ms`, times `scale` (ms to
/// ps/element).
std::pair<double, double> interval(const std::vector<double> &ms,
                                   double scale) {
  auto [lo, hi] = medianInterval(ms);
  return {lo * scale, hi * scale};
}
/// An interval as JSON: [lo, hi].
std::string jci(std::pair<double, double> ci) {
  return "[" + jnum(ci.first) + ", " + jnum(ci.second) + "]";
}
/// An interval for the tables (--until-ci only): " [lo, hi]".
std::string ciText(std::pair<double, double> ci, int digits) {
  if (gUntilCi <= 0)
    return "";
  char b[96];
  std::snprintf(b, sizeof b, " [%.*f, %.*f]", digits, ci.first, digits,
                ci.second);
  return b;
}
/// The rounds line under a measurement's heading (--until-ci only).
void printRounds(int rounds) {
  if (gUntilCi > 0)
    std::printf("%d interleaved rounds; 95%% intervals of the medians in "
                "brackets\n\n",
                rounds);
}
/// The heading's account of the rounds: "medians of N interleaved rounds",
/// or with --until-ci the rule.
std::string roundsText() {
  char b[200];
  if (gUntilCi > 0)
    std::snprintf(b, sizeof b,
                  "medians of %d to %d interleaved rounds, until every 95%% "
                  "interval is within ±%.3g%% of its median",
                  gRounds, gMaxReps, 100 * gUntilCi);
  else
    std::snprintf(b, sizeof b, "medians of %d interleaved rounds", gRounds);
  return b;
}

void throughput() {
  struct Row {
    std::string name, label;
    int perIter; // elements per iteration
  };
  std::vector<Row> rows = {{"order1", "order-1 (texture1, 256/unit)", 1},
                           {"order2", "order-2 (texture2, 64/unit)", 1},
                           {"order3", "order-3 (texture3, 64/unit)", 1},
                           {"hw", "HW transcendentals (SFU)", 1},
                           {"horner5", "Horner degree 5 (1/unit)", 1},
                           {"precise", "precise (libdevice)", 1},
                           {"split", "order-2 + HW, warp split (λ tuned)", 1},
                           {"versioned",
                            "order-2 + HW, split versioned around the loop by "
                            "hand (λ tuned)",
                            1},
                           {"mix", "order-2 + HW, per thread (2 elements)", 2},
                           {"hw2", "2x HW (2 elements)", 2}};
  // The split with one warp-uniform branch per op (what approx-lns-lower
  // alone emits, gen-kernels.py's tp_*_branch): a row with its own λ sweep
  // where KERNELS_DIR has it (older kernel folders do not).
  const bool withBranch = std::ifstream(gDir + "/tp_sb_branch.manifest.json") &&
                          std::ifstream(gDir + "/tp_sbdb_branch.manifest.json");
  if (withBranch)
    rows.insert(
        rows.begin() + 8,
        {"branch",
         "order-2 + HW, warp split, one branch per op (approx-lns-lower "
         "alone; λ tuned)",
         1});
  // Rows with a λ sweep instead of one timing.
  auto swept = [](const std::string &name) {
    return name == "split" || name == "versioned" || name == "branch";
  };
  // Blocks of gBlock threads; the same total work at every block size.
  LaunchConfig cfg;
  cfg.block.x = unsigned(gBlock);
  cfg.grid.x = unsigned(gCtx->device().smCount * 16 * (256 / gBlock));
  const double threads = double(cfg.grid.x) * cfg.block.x;
  DeviceBuffer out = alloc(size_t(threads));
  std::printf("\n## Table 1 on this GPU: time per element (ps), %s, %d "
              "iterations per thread, %u x %u threads\n\n",
              roundsText().c_str(), gIters, cfg.grid.x, cfg.block.x);
  if (!withBranch)
    std::printf("(no tp_sb_branch / tp_sbdb_branch module in %s: the split "
                "with one branch per op is left out)\n\n",
                gDir.c_str());
  gJson << "\"throughput\": {";
  for (const char *what : {"sb", "sbdb"}) {
    std::map<std::string, std::unique_ptr<Module>> mods;
    for (const Row &r : rows)
      mods[r.name] = load(std::string("tp_") + what + "_" + r.name);
    std::vector<Arg> args{Arg::memref(out.view()), Arg::integer(gIters)};
    TimingOptions topt;
    topt.warmup = 2;
    topt.reps = 5;
    auto timeOnce = [&](Module &m, int64_t lambda) {
      LaunchOptions lo;
      if (lambda >= 0)
        lo.knobs["lambda"] = lambda;
      auto t = m.time("tp", cfg, args, topt, {}, lo);
      check(t.status(), "time");
      return t->medianMs;
    };
    // λ sweep of the split (hw slot: 0 .. the bound in the manifest).
    int64_t lmax = 0;
    for (const KnobInfo &k : mods["split"]->manifest().knobs)
      if (k.name == "lambda")
        lmax = k.max;
    std::vector<int64_t> lambdas;
    for (int64_t l = 0; l <= lmax; l += 4)
      lambdas.push_back(l);
    std::map<std::string, std::vector<double>> ms;
    std::map<int64_t, std::vector<double>> splitMs, versionedMs, branchMs;
    std::vector<std::map<int64_t, std::vector<double>> *> sweeps = {
        &splitMs, &versionedMs};
    if (withBranch)
      sweeps.push_back(&branchMs);
    const int rounds = interleave(
        [&] {
          for (const Row &r : rows)
            if (!swept(r.name))
              ms[r.name].push_back(timeOnce(*mods[r.name], -1));
          for (int64_t l : lambdas) {
            splitMs[l].push_back(timeOnce(*mods["split"], l));
            versionedMs[l].push_back(timeOnce(*mods["versioned"], l));
            if (withBranch)
              branchMs[l].push_back(timeOnce(*mods["branch"], l));
          }
        },
        [&](const Tightness &t) {
          for (const auto &m : ms)
            if (!t.reached(m.second))
              return false;
          for (auto *sweep : sweeps)
            for (const auto &m : *sweep)
              if (!t.reached(m.second))
                return false;
          return true;
        });
    auto bestOf = [&](std::map<int64_t, std::vector<double>> &sweep) {
      int64_t b = 0;
      for (int64_t l : lambdas)
        if (median(sweep[l]) < median(sweep[b]))
          b = l;
      return b;
    };
    int64_t best = bestOf(splitMs), bestVersioned = bestOf(versionedMs),
            bestBranch = withBranch ? bestOf(branchMs) : 0;
    ms["split"] = splitMs[best];
    ms["versioned"] = versionedMs[bestVersioned];
    if (withBranch)
      ms["branch"] = branchMs[bestBranch];
    auto scale = [&](const Row &r) {
      return 1e9 / (threads * gIters * r.perIter);
    };
    auto ps = [&](const Row &r) { return median(ms[r.name]) * scale(r); };
    auto ci = [&](const Row &r) { return interval(ms[r.name], scale(r)); };
    double hw = 0, tex = 0;
    for (const Row &r : rows) {
      if (r.name == "hw")
        hw = ps(r);
      if (r.name == "order2")
        tex = ps(r);
    }
    std::printf("### %s\n\n",
                std::string(what) == "sb" ? "sb alone" : "sb and db");
    printRounds(rounds);
    std::printf("| row | ps/element | ratio to HW |\n| --- | --- | --- |\n");
    gJson << "\"" << what << "\": {";
    std::ostringstream cis; // "ci": each row's interval
    for (const Row &r : rows) {
      std::string tag =
          r.name == "split"       ? " [λ=" + std::to_string(best) + "]"
          : r.name == "versioned" ? " [λ=" + std::to_string(bestVersioned) + "]"
          : r.name == "branch"    ? " [λ=" + std::to_string(bestBranch) + "]"
                                  : "";
      std::printf("| %s%s | %.2f%s | %.3f |\n", r.label.c_str(), tag.c_str(),
                  ps(r), ciText(ci(r), 2).c_str(), ps(r) / hw);
      gJson << "\"" << r.name << "\": " << ps(r) << ", ";
      cis << (&r == &rows.front() ? "" : ", ") << "\"" << r.name
          << "\": " << jci(ci(r));
    }
    // Both units at once: throughput adds, r = 1/t.
    double limit = 1 + hw / tex; // speedup bound over the SFU alone
    auto row = [&](const char *name) -> const Row & {
      for (const Row &r : rows)
        if (r.name == name)
          return r;
      return rows[0];
    };
    double split = hw / ps(row("split")), versioned = hw / ps(row("versioned")),
           branch = withBranch ? hw / ps(row("branch")) : 0;
    gJson << "\"split_lambda\": " << best
          << ", \"versioned_lambda\": " << bestVersioned;
    if (withBranch)
      gJson << ", \"branch_lambda\": " << bestBranch;
    for (auto *sweep : sweeps) {
      const bool isSplit = sweep == &splitMs, isBranch = sweep == &branchMs;
      const std::string key = isSplit    ? "sweep"
                              : isBranch ? "branch_sweep"
                                         : "versioned_sweep";
      std::printf("\n%s λ sweep (ps/element):", isSplit ? "split"
                                                : isBranch
                                                    ? "one-branch-per-op split"
                                                    : "versioned split");
      gJson << ", \"" << key << "\": {";
      std::ostringstream sweepCi;
      bool first = true;
      for (int64_t l : lambdas) {
        double p = median((*sweep)[l]) * 1e9 / (threads * gIters);
        std::printf(" %" PRId64 ":%.2f", l, p);
        gJson << (first ? "" : ", ") << "\"" << l << "\": " << p;
        sweepCi << (first ? "" : ", ") << "\"" << l << "\": "
                << jci(interval((*sweep)[l], 1e9 / (threads * gIters)));
        first = false;
      }
      gJson << "}, \"" << key << "_ci\": {" << sweepCi.str() << "}";
    }
    // The captured share of the available gain, (S-1)/(B-1): S/B would
    // score the SFU alone (S = 1) at 1/B, most of the way to the bound.
    std::printf("\n\nlimit B = 1 + r_TEX/r_SFU = %.3f; speedup over HW: "
                "split S = %.3f, %.1f%% of the available gain (S-1)/(B-1); "
                "versioned by hand %.3f, %.1f%%",
                limit, split, 100 * (split - 1) / (limit - 1), versioned,
                100 * (versioned - 1) / (limit - 1));
    if (withBranch)
      std::printf("; one branch per op %.3f, %.1f%%", branch,
                  100 * (branch - 1) / (limit - 1));
    std::printf("\n\n");
    gJson << ", \"limit\": " << limit << ", \"split_speedup\": " << split
          << ", \"versioned_speedup\": " << versioned;
    if (withBranch)
      gJson << ", \"branch_speedup\": " << branch;
    gJson << ", \"ci\": {" << cis.str() << "}, \"rounds\": " << rounds << "}"
          << (std::string(what) == "sb" ? ", " : "");
  }
  gJson << "}, ";
}
/// The split with dynamic work distribution (gen-kernels.py's dyn_*
/// modules): every thread takes chunks of 64 elements from a global
/// counter, so the warps on the slower unit take fewer. One block per 256
/// threads of an SM's 2048, all resident, so that the hw slot ids cover
/// every warp; the limit is taken from the same kernels' sfu and texture2
/// forms.
void dynamicThroughput() {
  constexpr int64_t kChunk = 64;
  LaunchConfig cfg;
  cfg.block.x = unsigned(gBlock);
  cfg.grid.x = unsigned(gCtx->device().smCount * (2048 / gBlock));
  const double threads = double(cfg.grid.x) * cfg.block.x;
  const int64_t chunks = int64_t(threads) * gIters / kChunk;
  const double elements = double(chunks) * kChunk;
  DeviceBuffer out = alloc(size_t(threads));
  std::printf("\n## Dynamic work distribution: time per element (ps), "
              "%s, %lld chunks of %lld, %u x %u threads\n\n",
              roundsText().c_str(), (long long)chunks, (long long)kChunk,
              cfg.grid.x, cfg.block.x);
  gJson << "\"dynamic\": {";
  for (const char *what : {"sb", "sbdb"}) {
    std::map<std::string, std::unique_ptr<Module>> mods;
    std::map<std::string, DeviceBuffer> counters;
    for (const char *name : {"hw", "order2", "split"}) {
      mods[name] = load(std::string("dyn_") + what + "_" + name);
      const int64_t zero = 0;
      auto c = DeviceBuffer::fromHost(gCtx, &zero, 1, ScalarType::I64);
      check(c.status(), "counter");
      counters.emplace(name, std::move(*c));
    }
    TimingOptions topt;
    topt.warmup = 2;
    topt.reps = 5;
    auto timeOnce = [&](const std::string &name, int64_t lambda) {
      LaunchOptions lo;
      if (lambda >= 0)
        lo.knobs["lambda"] = lambda;
      std::vector<Arg> args{Arg::memref(out.view()),
                            Arg::memref(counters.at(name).view()),
                            Arg::integer(chunks)};
      auto t = mods[name]->time("tp", cfg, args, topt, {}, lo);
      check(t.status(), "time");
      return t->medianMs;
    };
    std::vector<int64_t> lambdas;
    for (int64_t l = 0; l <= 64; l += 4)
      lambdas.push_back(l);
    std::map<std::string, std::vector<double>> ms;
    std::map<int64_t, std::vector<double>> sweep;
    const int rounds = interleave(
        [&] {
          ms["hw"].push_back(timeOnce("hw", -1));
          ms["order2"].push_back(timeOnce("order2", -1));
          for (int64_t l : lambdas)
            sweep[l].push_back(timeOnce("split", l));
        },
        [&](const Tightness &t) {
          for (auto *series : {&ms["hw"], &ms["order2"]})
            if (!t.reached(*series))
              return false;
          for (const auto &m : sweep)
            if (!t.reached(m.second))
              return false;
          return true;
        });
    int64_t best = 0;
    for (int64_t l : lambdas)
      if (median(sweep[l]) < median(sweep[best]))
        best = l;
    auto ps = [&](const std::vector<double> &v) {
      return median(v) * 1e9 / elements;
    };
    const double hw = ps(ms["hw"]), tex = ps(ms["order2"]),
                 split = ps(sweep[best]);
    const auto hwCi = interval(ms["hw"], 1e9 / elements),
               texCi = interval(ms["order2"], 1e9 / elements),
               splitCi = interval(sweep[best], 1e9 / elements);
    const double limit = 1 + hw / tex, speedup = hw / split;
    std::printf("### %s\n\n",
                std::string(what) == "sb" ? "sb alone" : "sb and db");
    printRounds(rounds);
    std::printf("| row | ps/element | ratio to HW |\n| --- | --- | --- |\n| "
                "HW transcendentals (SFU) | %.3f%s | 1.000 |\n| order-2 "
                "(texture2, 64/unit) | %.3f%s | %.3f |\n| order-2 + HW, warp "
                "split [λ=%lld] | %.3f%s | %.3f |\n\nλ sweep (ps/element):",
                hw, ciText(hwCi, 3).c_str(), tex, ciText(texCi, 3).c_str(),
                tex / hw, (long long)best, split, ciText(splitCi, 3).c_str(),
                split / hw);
    gJson << "\"" << what << "\": {\"hw\": " << hw << ", \"order2\": " << tex
          << ", \"split\": " << split << ", \"split_lambda\": " << best
          << ", \"sweep\": {";
    std::ostringstream sweepCi;
    for (size_t i = 0; i < lambdas.size(); ++i) {
      std::printf(" %lld:%.3f", (long long)lambdas[i], ps(sweep[lambdas[i]]));
      gJson << (i ? ", " : "") << "\"" << lambdas[i]
            << "\": " << ps(sweep[lambdas[i]]);
      sweepCi << (i ? ", " : "") << "\"" << lambdas[i]
              << "\": " << jci(interval(sweep[lambdas[i]], 1e9 / elements));
    }
    std::printf("\n\nlimit B = 1 + r_TEX/r_SFU = %.3f; split speedup over "
                "HW S = %.3f, %.1f%% of the available gain (S-1)/(B-1)\n\n",
                limit, speedup, 100 * (speedup - 1) / (limit - 1));
    gJson << "}, \"limit\": " << limit << ", \"split_speedup\": " << speedup
          << ", \"ci\": {\"hw\": " << jci(hwCi) << ", \"order2\": "
          << jci(texCi) << ", \"split\": " << jci(splitCi)
          << "}, \"sweep_ci\": {" << sweepCi.str()
          << "}, \"rounds\": " << rounds << "}"
          << (std::string(what) == "sb" ? ", " : "");
  }
  gJson << "}, ";
}

} // namespace

int main(int argc, char **argv) {
  std::string json;
  std::vector<std::string> modes;
  bool maxGiven = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return optionValue(argc, argv, i, "lns-bench"); };
    if (a == "--json" && i + 1 < argc)
      json = argv[++i];
    else if (a == "--rounds" && i + 1 < argc)
      gRounds = std::max(1, std::atoi(argv[++i]));
    else if (a == "--min-reps")
      gRounds = countOption("lns-bench", a, next());
    else if (a == "--max-reps") {
      gMaxReps = countOption("lns-bench", a, next());
      maxGiven = true;
    } else if (a == "--until-ci")
      gUntilCi = untilCiOption("lns-bench", a, next());
    else if (a == "--block" && i + 1 < argc)
      gBlock = std::clamp(std::atoi(argv[++i]), 32, 256);
    else if (a == "--iters" && i + 1 < argc)
      gIters = std::max(1, std::atoi(argv[++i]));
    else if (a == "--only" && i + 1 < argc) {
      const std::string mode = argv[++i];
      if (mode != "bitexact" && mode != "accuracy" && mode != "throughput" &&
          mode != "dynamic") {
        std::fprintf(stderr,
                     "lns-bench: --only %s: not one of bitexact, accuracy, "
                     "throughput, dynamic\n",
                     mode.c_str());
        return 2;
      }
      modes.push_back(mode);
    }
    else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "lns-bench: unknown option %s\n", a.c_str());
      return 2;
    } else
      gDir = a;
  }
  if (gDir.empty()) {
    std::fprintf(stderr, "usage: lns-bench KERNELS_DIR [--json PATH] "
                         "[--min-reps N] [--until-ci R] [--max-reps N] "
                         "[--iters N] [--block 32..256] [--only "
                         "bitexact|accuracy|throughput|dynamic]\n");
    return 2;
  }
  // --max-reps bounds --until-ci's rounds: below --min-reps it says nothing
  // sensible (without --until-ci and without --max-reps, --min-reps alone
  // counts, as --rounds always did).
  if ((maxGiven || gUntilCi > 0) && gMaxReps < gRounds) {
    std::fprintf(stderr, "lns-bench: --max-reps %d is below --min-reps %d\n",
                 gMaxReps, gRounds);
    return 2;
  }
  auto want = [&](const char *m) {
    return modes.empty() || std::find(modes.begin(), modes.end(), m) != modes.end();
  };
  auto ctx = Context::create();
  check(ctx.status(), "context");
  gCtx = *ctx;
  // Clocks, temperature and power beside the times (NVML; without it the
  // JSON's states are null and the run goes on).
  std::string noMonitor;
  if (auto mo = DeviceMonitor::open(gCtx->device().uuid); mo.isOk())
    gMon = std::move(*mo);
  else
    noMonitor = mo.status().toString();
  std::printf("# LNS on %s\n\n", gCtx->device().name.c_str());
  gJson << "{\"gpu\": \"" << gCtx->device().name << "\", ";
  // "device_state": each section's readings at its start and end.
  std::ostringstream states;
  auto section = [&](const char *name, const std::function<void()> &body) {
    const std::string start = stateJson();
    body();
    states << (states.tellp() > 0 ? ", " : "") << "\"" << name
           << "\": {\"start\": " << start << ", \"end\": " << stateJson()
           << "}";
  };
  int status = 0;
  if (want("bitexact"))
    section("bitexact", [&] {
      std::printf("## Bit exactness: GPU against the CPU model\n\n");
      status |= bitExactFilter();
      status |= bitExactEval("acc_texture2_s64", lns::LnsImpl::Texture2, 64, 0);
      status |= bitExactEval("acc_texture2_s1024", lns::LnsImpl::Texture2, 1024, 0);
      status |= bitExactEval("acc_texture1_s256", lns::LnsImpl::Texture1, 256, 0);
      status |= bitExactEval("acc_horner_s1_d5", lns::LnsImpl::Horner, 1, 5);
      // The 3-D model's summation is known to be off by a few ulps where the
      // two z slices cancel at different exponents (FilterModel.h): the raw
      // probe is reported; texture3's evaluation, whose texels are smooth
      // partial sums, must agree bit for bit.
      bitExactFilter3D();
      status |= bitExactEval("acc_texture3_s64", lns::LnsImpl::Texture3, 64, 0);
    });
  if (want("accuracy"))
    section("accuracy", accuracy);
  if (want("throughput"))
    section("throughput", throughput);
  if (want("dynamic"))
    section("dynamic", dynamicThroughput);
  gJson << "\"timing\": {\"min_reps\": " << gRounds
        << ", \"until_ci\": " << gUntilCi << ", \"max_reps\": " << gMaxReps
        << ", \"check_every\": " << kCheckEvery
        << ", \"launches_per_sample\": 5, \"warmup_launches\": 2, "
           "\"interval\": \"95% percentile bootstrap of the median (2000 "
           "resamples, fixed seed)\"}, \"nvml\": "
        << (gMon ? std::string("null") : jsonString(noMonitor))
        << ", \"device_state\": {" << states.str() << "}, ";
  gJson << "\"status\": " << status << "}";
  if (!json.empty()) {
    FILE *f = std::fopen(json.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "lns-bench: cannot write %s\n", json.c_str());
      return 2;
    }
    std::fputs(gJson.str().c_str(), f);
    std::fclose(f);
  }
  return status;
}
