// error-metrics.cpp - the error metrics of perforation-bench
// (error-metrics.h): the CPU definitions, the CPU replay of metrics.cu's
// kernels, and the host side of those kernels (GpuMetrics).
#include "error-metrics.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <sstream>

namespace pbench {

ErrorStats compareCpu(const std::vector<float> &ref,
                      const std::vector<float> &got, int64_t h, int64_t w,
                      bool image, bool withSsim) {
  ErrorStats e;
  std::vector<double> r(ref.begin(), ref.end()), g(got.begin(), got.end());
  for (double v : g)
    if (std::isnan(v))
      e.unwritten = true;
  if (e.unwritten)
    return e;
  for (size_t i = 0; i < r.size(); ++i)
    if (!std::isfinite(r[i]) || !std::isfinite(g[i]))
      e.nonfinite = true;
  if (e.nonfinite)
    return e;
  double lo = *std::min_element(r.begin(), r.end());
  double hi = *std::max_element(r.begin(), r.end());
  Expected<RelativeError> mre = meanRelativeError(r, g, pbk::kNearZero);
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
    if (withSsim && h >= kSsimWindow && w >= kSsimWindow) {
      Expected<double> s = ssim(r, g, h, w, range);
      if (s)
        e.ssim = *s;
    }
  }
  return e;
}

std::vector<double> ssimWeights() {
  std::vector<double> k(pbk::kTaps);
  double sum = 0;
  for (int x = -pbk::kRadius; x <= pbk::kRadius; ++x) {
    double v = std::exp(-0.5 / (1.5 * 1.5) * double(x * x));
    k[size_t(x + pbk::kRadius)] = v;
    sum += v;
  }
  for (double &v : k)
    v /= sum;
  return k;
}

double dataRange(const pbk::ErrorAcc &a) {
  return a.hi > a.lo ? a.hi - a.lo : 1.0;
}

ErrorStats finishMetrics(const pbk::ErrorAcc &a, int64_t n, bool image) {
  ErrorStats e;
  if (a.nanOut > 0) {
    e.unwritten = true;
    return e;
  }
  if (a.infOut > 0 || a.badRef > 0) {
    e.nonfinite = true;
    return e;
  }
  if (a.used > 0)
    e.mre = a.sumRel / a.used;
  const double mae = a.sumAbs / double(n);
  e.meanError = a.hi > a.lo ? mae / (a.hi - a.lo) : mae;
  if (image) {
    const double range = dataRange(a), mse = a.sumSq / double(n);
    e.psnr = mse == 0 ? INFINITY : 10 * std::log10(range * range / mse);
  }
  return e;
}

int64_t ssimBand(int64_t H) {
  return std::clamp<int64_t>((H - 2 * pbk::kRadius + 255) / 256, 16, 256);
}

Dim3 ssimGrid(int64_t H, int64_t W, int64_t band) {
  return {
      unsigned((W - 2 * pbk::kRadius + pbk::kSsimCols - 1) / pbk::kSsimCols),
      unsigned((H - 2 * pbk::kRadius + band - 1) / band), 1};
}

pbk::ErrorAcc replayMetrics(const float *ref, const float *out, int64_t n,
                            unsigned blocks) {
  pbk::ErrorAcc total;
  pbk::accInit(total);
  const int64_t stride = int64_t(blocks) * pbk::kThreads;
  for (unsigned b = 0; b < blocks; ++b)
    for (int t = 0; t < pbk::kThreads; ++t) {
      pbk::ErrorAcc a;
      pbk::accInit(a);
      for (int64_t i = int64_t(b) * pbk::kThreads + t; i < n; i += stride)
        pbk::accAdd(a, ref[i], out[i]);
      pbk::accMerge(total, a);
    }
  return total;
}

double replaySsim(const float *ref, const float *out, int64_t H, int64_t W,
                  const double *w, double c1, double c2, int64_t band) {
  const Dim3 grid = ssimGrid(H, W, band);
  double total = 0;
  std::vector<pbk::VRing> rings(pbk::kThreads);
  double vs[5][pbk::kThreads];
  for (unsigned by = 0; by < grid.y; ++by)
    for (unsigned bx = 0; bx < grid.x; ++bx) {
      const int64_t y0 = pbk::kRadius + int64_t(by) * band;
      const int64_t y1 = std::min(y0 + band, H - pbk::kRadius);
      std::vector<double> acc(pbk::kThreads, 0.0);
      for (int t = 0; t < pbk::kThreads; ++t) {
        const int64_t xc = int64_t(bx) * pbk::kSsimCols + t;
        const bool inside = xc < W;
        pbk::ringClear(rings[size_t(t)]);
        for (int64_t y = y0 - pbk::kRadius; y < y0 + pbk::kRadius; ++y)
          pbk::ringPush(rings[size_t(t)], inside ? ref[y * W + xc] : 0.0f,
                        inside ? out[y * W + xc] : 0.0f);
      }
      for (int64_t y = y0; y < y1; ++y) {
        const int64_t yn = y + pbk::kRadius;
        for (int t = 0; t < pbk::kThreads; ++t) {
          const int64_t xc = int64_t(bx) * pbk::kSsimCols + t;
          const bool inside = xc < W;
          pbk::ringPush(rings[size_t(t)], inside ? ref[yn * W + xc] : 0.0f,
                        inside ? out[yn * W + xc] : 0.0f);
          double m[5];
          pbk::ringFilter(rings[size_t(t)], w, m);
          for (int k = 0; k < 5; ++k)
            vs[k][t] = m[k];
        }
        for (int t = pbk::kRadius; t < pbk::kThreads - pbk::kRadius; ++t) {
          const int64_t xc = int64_t(bx) * pbk::kSsimCols + t;
          if (xc < W - pbk::kRadius)
            acc[size_t(t)] += pbk::ssimPoint(vs, t, w, c1, c2);
        }
      }
      for (double a : acc)
        total += a;
    }
  return total / double((H - 2 * pbk::kRadius) * (W - 2 * pbk::kRadius));
}

ErrorStats replayCompare(const std::vector<float> &ref,
                         const std::vector<float> &got, int64_t h, int64_t w,
                         bool image, unsigned blocks) {
  pbk::ErrorAcc a = replayMetrics(ref.data(), got.data(), h * w, blocks);
  ErrorStats e = finishMetrics(a, h * w, image);
  if (image && !e.unwritten && !e.nonfinite && h >= kSsimWindow &&
      w >= kSsimWindow) {
    const double R = dataRange(a);
    const std::vector<double> k = ssimWeights();
    e.ssim = replaySsim(ref.data(), got.data(), h, w, k.data(),
                        (0.01 * R) * (0.01 * R), (0.03 * R) * (0.03 * R),
                        ssimBand(h));
  }
  return e;
}

bool sameValue(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b))
    return a == b;
  return std::fabs(a - b) <=
         1e-8 * std::max(std::fabs(a), std::fabs(b)) + 1e-13;
}

std::string mismatch(const ErrorStats &want, const ErrorStats &got) {
  std::ostringstream m;
  m.precision(17);
  if (want.unwritten != got.unwritten)
    m << " unwritten " << want.unwritten << " vs " << got.unwritten;
  if (want.nonfinite != got.nonfinite)
    m << " nonfinite " << want.nonfinite << " vs " << got.nonfinite;
  if (!sameValue(want.mre, got.mre))
    m << " mre " << want.mre << " vs " << got.mre;
  if (!sameValue(want.meanError, got.meanError))
    m << " mean_error " << want.meanError << " vs " << got.meanError;
  if (!sameValue(want.psnr, got.psnr))
    m << " psnr " << want.psnr << " vs " << got.psnr;
  if (!sameValue(want.ssim, got.ssim))
    m << " ssim " << want.ssim << " vs " << got.ssim;
  return m.str();
}

std::unique_ptr<GpuMetrics> GpuMetrics::load(std::shared_ptr<Context> ctx,
                                             const std::string &ptxPath) {
  std::ifstream f(ptxPath);
  if (!f)
    die("cannot read " + ptxPath +
        " (the bench's metric kernels: run bench/perforation/prepare.sh)");
  std::stringstream ss;
  ss << f.rdbuf();
  auto g = std::unique_ptr<GpuMetrics>(new GpuMetrics);
  g->ctx_ = ctx;
  Manifest m = must(parseManifest(manifest()), "bench metrics manifest");
  g->mod_ = must(Module::loadFromMemory(ctx, std::move(m), ss.str()),
                 "load " + ptxPath);
  // One wave of pb_metrics: as many blocks as are resident at once.
  KernelResources res =
      must(g->mod_->kernelResources(
               "pb_metrics", {{1, 1, 1}, {unsigned(pbk::kThreads), 1, 1}, 0}),
           "pb_metrics occupancy");
  g->blocks_ = unsigned(std::max(1, ctx->device().smCount) *
                        std::max(1, res.activeBlocksPerSM));
  std::vector<double> k = ssimWeights();
  g->weights_ =
      must(DeviceBuffer::fromHost(ctx, k.data(), k.size(), ScalarType::F64),
           "upload SSIM weights");
  return g;
}

std::string GpuMetrics::manifest() {
  struct K {
    const char *name;
    const char *types; ///< p: pointer, i: i64, f: f64
  };
  const K kernels[] = {{"pb_gather", "pipppii"},
                       {"pb_metrics", "ppip"},
                       {"pb_ssim", "ppiipffip"}};
  std::ostringstream m;
  m << R"({"format": "approx-manifest", "version": 2,)"
    << R"( "producer": "perforation-bench", "module": "bench_metrics",)"
    << R"( "ptx": "bench_metrics.ptx", "knobs": [], "sites": [],)"
    << R"( "kernels": [)";
  for (size_t k = 0; k < std::size(kernels); ++k) {
    std::ostringstream args, params;
    const std::string t = kernels[k].types;
    for (size_t i = 0; i < t.size(); ++i) {
      const char *ty = t[i] == 'p' ? "ptr" : t[i] == 'i' ? "i64" : "f64";
      args << (i ? ", " : "")
           << (t[i] == 'p' ? R"({"kind": "pointer", "address_space": 1, )"
                           : std::string(R"({"kind": "scalar", "type": ")") +
                                 ty + "\", ")
           << "\"first_param\": " << i << ", \"num_params\": 1}";
      params << (i ? ", " : "") << "{\"arg\": " << i
             << ", \"field\": \"value\", \"size\": 8, \"type\": \"" << ty
             << "\"}";
    }
    m << (k ? ", " : "") << "{\"name\": \"" << kernels[k].name
      << "\", \"knobs\": [], \"sites\": [], \"args\": [" << args.str()
      << "], \"params\": [" << params.str() << "]}";
  }
  m << "]}";
  return m.str();
}

void GpuMetrics::gather(const DeviceBuffer &src, int64_t h, int64_t w,
                        DeviceBuffer &dst, int64_t H, int64_t W) {
  std::vector<int> rows = mirrorMap(h, H), cols = mirrorMap(w, W);
  DeviceBuffer r = must(
      DeviceBuffer::fromHost(ctx_, rows.data(), rows.size(), ScalarType::I32),
      "upload row map");
  DeviceBuffer c = must(
      DeviceBuffer::fromHost(ctx_, cols.data(), cols.size(), ScalarType::I32),
      "upload column map");
  LaunchConfig cfg{{unsigned((W + pbk::kThreads - 1) / pbk::kThreads),
                    unsigned(std::min<int64_t>(H, 4096)), 1},
                   {unsigned(pbk::kThreads), 1, 1},
                   0};
  must(mod_->launchSync(
           "pb_gather", cfg,
           {Arg::pointer(src.devicePtr()), Arg::integer(w),
            Arg::pointer(r.devicePtr()), Arg::pointer(c.devicePtr()),
            Arg::pointer(dst.devicePtr()), Arg::integer(H), Arg::integer(W)}),
       "pb_gather");
}

ErrorStats GpuMetrics::compare(const DeviceBuffer &ref, const DeviceBuffer &out,
                               int64_t h, int64_t w, bool image,
                               bool withSsim) {
  const int64_t n = h * w;
  auto t0 = std::chrono::steady_clock::now();
  std::vector<double> part =
      reduce("pb_metrics", {blocks_, 1, 1}, size_t(blocks_) * pbk::kFields,
             {Arg::pointer(ref.devicePtr()), Arg::pointer(out.devicePtr()),
              Arg::integer(n)});
  pbk::ErrorAcc a = pbk::accMergeParts(part.data(), blocks_);
  ErrorStats e = finishMetrics(a, n, image);
  secMetrics += seconds(t0);
  if (image && withSsim && !e.unwritten && !e.nonfinite && h >= kSsimWindow &&
      w >= kSsimWindow) {
    auto t1 = std::chrono::steady_clock::now();
    const double R = dataRange(a);
    const int64_t band = ssimBand(h);
    const Dim3 grid = ssimGrid(h, w, band);
    std::vector<double> s = reduce(
        "pb_ssim", grid, size_t(grid.total()),
        {Arg::pointer(ref.devicePtr()), Arg::pointer(out.devicePtr()),
         Arg::integer(h), Arg::integer(w), Arg::pointer(weights_.devicePtr()),
         Arg::floating((0.01 * R) * (0.01 * R)),
         Arg::floating((0.03 * R) * (0.03 * R)), Arg::integer(band)});
    double sum = 0;
    for (double v : s)
      sum += v;
    e.ssim = sum / double((h - 2 * pbk::kRadius) * (w - 2 * pbk::kRadius));
    secSsim += seconds(t1);
  }
  return e;
}

std::vector<double> GpuMetrics::reduce(const char *kernel, Dim3 grid,
                                       size_t count, std::vector<Arg> args) {
  if (partials_.count() < count)
    partials_ = must(DeviceBuffer::allocate(ctx_, count * 8, ScalarType::F64),
                     "allocate partials");
  args.push_back(Arg::pointer(partials_.devicePtr()));
  LaunchConfig cfg{grid, {unsigned(pbk::kThreads), 1, 1}, 0};
  must(mod_->launch(kernel, cfg, args), kernel);
  std::vector<double> out(count);
  must(partials_.copyToHost(out.data(), count * 8),
       std::string(kernel) + " partials");
  return out;
}

} // namespace pbench
