// checks.cpp - perforation-bench's self-test and GPU start-up checks
// (checks.h).
#include "checks.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>

namespace pbench {

std::vector<TestPair> testPairs(const std::vector<Image> &photos, int64_t big) {
  std::vector<TestPair> pairs;
  std::mt19937 gen(7);
  std::normal_distribution<float> noise(0.0f, 0.02f);
  auto perturb = [&](const std::vector<float> &ref, int every) {
    std::vector<float> o(ref);
    for (size_t i = 0; i < o.size(); i += size_t(every))
      o[i] += noise(gen);
    return o;
  };
  // A photograph (or the zone plate) mirror-tiled to a non-square size.
  Image src = photos.empty() ? synthetic("zoneplate", 200, 1) : photos.front();
  Image tiled = mirrorTile(src, 301, 517);
  pairs.push_back({"tiled " + src.name + " 301x517", tiled.px,
                   perturb(tiled.px, 3), 301, 517, true});
  // Noise with a band of near-zero and negative references, an edge map's
  // range (Sobel's output is not in [0, 1]).
  Image nz = synthetic("noise", 97, 5);
  for (size_t i = 0; i < nz.px.size(); ++i)
    nz.px[i] = i % 7 == 0 ? 1e-4f * nz.px[i] : 4.0f * nz.px[i] - 1.0f;
  pairs.push_back({"noise with near-zero refs 97x97", nz.px, perturb(nz.px, 1),
                   97, 97, true});
  // Identical images, a constant reference, HotSpot-like magnitudes.
  Image gr = synthetic("gradient", 64, 1);
  pairs.push_back({"identical 64x64", gr.px, gr.px, 64, 64, true});
  std::vector<float> flat(40 * 50, 0.5f);
  pairs.push_back(
      {"constant reference 40x50", flat, perturb(flat, 2), 40, 50, true});
  HotspotCase hs = hotspotInput(33, 3);
  pairs.push_back(
      {"hotspot-like 33x33", hs.temp, perturb(hs.temp, 1), 33, 33, false});
  // Poisoned and infinite outputs.
  std::vector<float> unw = perturb(gr.px, 5);
  unw[100] = std::numeric_limits<float>::quiet_NaN();
  pairs.push_back({"unwritten 64x64", gr.px, unw, 64, 64, true});
  std::vector<float> inf = perturb(gr.px, 5);
  inf[17] = INFINITY;
  pairs.push_back({"infinite 64x64", gr.px, inf, 64, 64, true});
  if (big > 0) {
    Image t = mirrorTile(src, big, big);
    pairs.push_back({"tiled " + src.name + " " + std::to_string(big) + "^2",
                     t.px, perturb(t.px, 2), big, big, true});
  }
  return pairs;
}

void selfTest(const std::vector<Image> &photos, bool full) {
  auto t0 = std::chrono::steady_clock::now();
  // Generators: the parallel ones equal the sequential ones bit for bit
  // (odd thread counts and sizes: chunks that split rows unevenly).
  for (int64_t n :
       full ? std::vector<int64_t>{257, 1024} : std::vector<int64_t>{131}) {
    for (size_t k = 0; k < kPatterns.size(); ++k)
      for (unsigned th : {1u, 3u, 7u}) {
        Image a = syntheticSequential(kPatterns[k], n, 100 + unsigned(k));
        Image b = synthetic(kPatterns[k], n, 100 + unsigned(k), th);
        if (a.px != b.px)
          die("self-test: synthetic " + kPatterns[k] + " at " +
              std::to_string(n) + " on " + std::to_string(th) +
              " threads differs from the sequential generator");
      }
    for (unsigned th : {1u, 5u}) {
      HotspotCase a = hotspotInputSequential(n, 2), b = hotspotInput(n, 2, th);
      if (a.power != b.power || a.temp != b.temp || a.k.sdc != b.k.sdc)
        die("self-test: hotspotInput at " + std::to_string(n) + " on " +
            std::to_string(th) +
            " threads differs from the sequential generator");
    }
  }
  // Mirror tiling: numpy's reflect, built independently by concatenating
  // the flipped copies (period 2n - 2, no repeated edge).
  for (int64_t n : {1, 2, 3, 5, 172}) {
    std::vector<int64_t> period;
    for (int64_t i = 0; i < n; ++i)
      period.push_back(i);
    for (int64_t i = n - 2; i >= 1; --i)
      period.push_back(i);
    std::vector<int> m = mirrorMap(n, 3 * n + 11);
    for (size_t p = 0; p < m.size(); ++p)
      if (m[p] != period[p % period.size()])
        die("self-test: mirrorMap(" + std::to_string(n) + ") at " +
            std::to_string(p) + " is " + std::to_string(m[p]));
    if (mirrorIndex(-1, n) != (n > 1 ? 1 : 0))
      die("self-test: mirrorIndex(-1)");
  }
  {
    Image src = synthetic("noise", 7, 3);
    src.h = 5, src.w = 7;
    src.px.resize(35);
    Image t = mirrorTile(src, 23, 29);
    for (int64_t y = 0; y < 23; ++y)
      for (int64_t x = 0; x < 29; ++x)
        if (t.px[size_t(y * 29 + x)] !=
            src.px[size_t(mirrorIndex(y, 5) * 7 + mirrorIndex(x, 7))])
          die("self-test: mirrorTile");
    // No seam: across a fold the neighbour is the pixel before the edge.
    if (t.px[size_t(5 * 29)] != src.px[size_t(3 * 7)] ||
        t.px[size_t(7)] != src.px[size_t(5)])
      die("self-test: mirror fold");
  }
  // The kernels' replay against the definitions.
  for (const TestPair &p : testPairs(photos, full ? 1024 : 0))
    for (unsigned blocks : {1u, 7u, 528u}) {
      ErrorStats want = compareCpu(p.ref, p.out, p.h, p.w, p.image);
      ErrorStats got = replayCompare(p.ref, p.out, p.h, p.w, p.image, blocks);
      std::string d = mismatch(want, got);
      if (!d.empty())
        die("self-test: the GPU kernels' CPU replay disagrees with "
            "ImageMetrics.h on " +
            p.what + " (" + std::to_string(blocks) + " blocks):" + d);
    }
  // SSIM bands that do not divide the rows, and a width of one block.
  {
    Image z = synthetic("zoneplate", 300, 1);
    Image a = mirrorTile(z, 59, 246 + 10), b = a;
    for (size_t i = 0; i < b.px.size(); i += 3)
      b.px[i] *= 0.9f;
    std::vector<double> r(a.px.begin(), a.px.end()),
        g(b.px.begin(), b.px.end());
    const std::vector<double> k = ssimWeights();
    double want = must(ssim(r, g, a.h, a.w, 1.0), "ssim");
    for (int64_t band : {1, 7, 16, 49, 64}) {
      double got = replaySsim(a.px.data(), b.px.data(), a.h, a.w, k.data(),
                              1e-4, 9e-4, band);
      if (!sameValue(want, got))
        die("self-test: SSIM replay with band " + std::to_string(band) + ": " +
            std::to_string(want) + " vs " + std::to_string(got));
    }
  }
  // The manifest the GPU kernels are loaded with parses.
  must(parseManifest(GpuMetrics::manifest()),
       "self-test: bench metrics manifest");
  std::printf("self-test passed (%s, %.1f s)\n", full ? "full" : "quick",
              seconds(t0));
}

void checkGpuMetrics(std::shared_ptr<Context> ctx, GpuMetrics &gpu,
                     const std::vector<Image> &photos) {
  std::vector<TestPair> pairs = testPairs(photos, 1024);
  for (const TestPair &p : pairs) {
    DeviceBuffer r = upload(ctx, p.ref), o = upload(ctx, p.out);
    ErrorStats want = compareCpu(p.ref, p.out, p.h, p.w, p.image);
    ErrorStats got = gpu.compare(r, o, p.h, p.w, p.image, true);
    std::string d = mismatch(want, got);
    if (!d.empty())
      die("the GPU metric kernels disagree with ImageMetrics.h on " + p.what +
          " (CPU vs GPU):" + d);
  }
  Image src = photos.empty() ? synthetic("noise", 200, 9) : photos.back();
  DeviceBuffer s = upload(ctx, src.px);
  for (int64_t H : {1024, 1001}) {
    const int64_t W = H == 1024 ? 1024 : 1537;
    DeviceBuffer dst =
        must(DeviceBuffer::allocate(ctx, size_t(H * W) * 4, ScalarType::F32),
             "allocate");
    gpu.gather(s, src.h, src.w, dst, H, W);
    if (download(dst, H * W) != mirrorTile(src, H, W).px)
      die("pb_gather's mirror tiling of " + src.name + " to " +
          std::to_string(H) + "x" + std::to_string(W) +
          " differs from the CPU's");
  }
  std::printf("GPU metrics and mirror tiling agree with the CPU (%zu pairs)\n",
              pairs.size());
}

} // namespace pbench
