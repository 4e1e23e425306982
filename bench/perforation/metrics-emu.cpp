// metrics-emu.cpp - metrics.cu's kernels run on the CPU, to check them
// without a GPU: each block's 256 threads are std::threads, __syncthreads a
// std::barrier, one block at a time (so __shared__ arrays can be function
// statics). Compares their results with runtime/tune/ImageMetrics.h on
// perforation-bench's test pairs, and pb_gather with the CPU mirror tiling.
// A check for whoever edits metrics.cu (not built by run.sh or CMake):
//
//   g++ -std=c++20 -O1 -Iinclude -Iruntime/include -I.carry/cli11
//       bench/perforation/metrics-emu.cpp bench/perforation/inputs.cpp
//       bench/perforation/error-metrics.cpp bench/perforation/checks.cpp
//       BUILD/runtime/libapprox_runtime.a -ldl -pthread -o /tmp/metrics-emu
//   /tmp/metrics-emu [IMAGE_DIR]
//
// (A race the barrier schedule does not expose can still pass here; the
// bench's start-up check on the GPU is the final word.)
#include <barrier>
#include <thread>
#include <vector>

namespace emu {
struct U3 {
  unsigned x = 0, y = 0, z = 0;
};
} // namespace emu
thread_local emu::U3 threadIdx, blockIdx;
emu::U3 blockDim, gridDim;
std::barrier<> *gBarrier = nullptr;
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
inline void __syncthreads() { gBarrier->arrive_and_wait(); }
#include "metrics.cu"
#undef __shared__
#undef __forceinline__
#undef __device__
#undef __global__

/// Runs `kernel` over `grid` blocks of 256 threads, one block at a time.
template <class F> void launchEmu(emu::U3 grid, F kernel) {
  gridDim = grid;
  blockDim = {unsigned(pbk::kThreads), 1, 1};
  for (unsigned by = 0; by < grid.y; ++by)
    for (unsigned bx = 0; bx < grid.x; ++bx) {
      std::barrier<> bar(pbk::kThreads);
      gBarrier = &bar;
      std::vector<std::thread> ts;
      for (unsigned t = 0; t < unsigned(pbk::kThreads); ++t)
        ts.emplace_back([&, t] {
          threadIdx = {t, 0, 0};
          blockIdx = {bx, by, 0};
          kernel();
        });
      for (std::thread &th : ts)
        th.join();
    }
}

#include "checks.h"
#include "error-metrics.h"
#include "inputs.h"

#include "approx/Support/Cli.h"

#include <cstdio>
#include <string>
#include <utility>

using namespace pbench;

namespace {

/// GpuMetrics::compare with the kernels emulated.
ErrorStats emuCompare(const std::vector<float> &ref,
                      const std::vector<float> &out, int64_t h, int64_t w,
                      bool image, unsigned blocks) {
  const int64_t n = h * w;
  std::vector<double> part(size_t(blocks) * pbk::kFields);
  launchEmu({blocks, 1, 1},
            [&] { pb_metrics(ref.data(), out.data(), n, part.data()); });
  pbk::ErrorAcc a = pbk::accMergeParts(part.data(), blocks);
  ErrorStats e = finishMetrics(a, n, image);
  if (image && !e.unwritten && !e.nonfinite && h >= kSsimWindow &&
      w >= kSsimWindow) {
    const double R = dataRange(a);
    const int64_t band = ssimBand(h);
    const Dim3 g = ssimGrid(h, w, band);
    std::vector<double> s(size_t(g.total()));
    const std::vector<double> k = ssimWeights();
    launchEmu({g.x, g.y, 1}, [&] {
      pb_ssim(ref.data(), out.data(), h, w, k.data(), (0.01 * R) * (0.01 * R),
              (0.03 * R) * (0.03 * R), band, s.data());
    });
    double sum = 0;
    for (double v : s)
      sum += v;
    e.ssim = sum / double((h - 2 * pbk::kRadius) * (w - 2 * pbk::kRadius));
  }
  return e;
}

} // namespace

int main(int argc, char **argv) {
  std::string imageDir;
  approx::cli::CommandLine cl{
      approx::cli::Tool{"metrics-emu"},
      "metrics.cu's kernels on CPU threads against ImageMetrics.h"};
  cl.text("IMAGE_DIR", imageDir,
          "photographs (camera.npy) besides the "
          "synthetic pairs");
  if (int status = cl.parse(argc, argv); status >= 0)
    return status;
  std::vector<Image> photos;
  if (!imageDir.empty())
    photos.push_back(readImage(imageDir + "/camera.npy", "camera"));
  int failed = 0;
  for (const TestPair &p : testPairs(photos, 0))
    for (unsigned blocks : {1u, 3u}) {
      ErrorStats want = compareCpu(p.ref, p.out, p.h, p.w, p.image);
      ErrorStats got = emuCompare(p.ref, p.out, p.h, p.w, p.image, blocks);
      std::string d = mismatch(want, got);
      failed += !d.empty();
      std::printf("%-40s %u blocks: %s\n", p.what.c_str(), blocks,
                  d.empty() ? "agrees with ImageMetrics.h" : d.c_str());
    }
  Image src = photos.empty() ? synthetic("noise", 200, 9) : photos.front();
  for (auto [H, W] : {std::pair<int64_t, int64_t>{301, 517}, {64, 700}}) {
    std::vector<int> rows = mirrorMap(src.h, H), cols = mirrorMap(src.w, W);
    std::vector<float> dst(size_t(H * W), -1.0f);
    launchEmu({unsigned((W + pbk::kThreads - 1) / pbk::kThreads), 7, 1}, [&] {
      pb_gather(src.px.data(), src.w, rows.data(), cols.data(), dst.data(), H,
                W);
    });
    bool ok = dst == mirrorTile(src, H, W).px;
    failed += !ok;
    std::printf("pb_gather %lldx%lld: %s\n", (long long)H, (long long)W,
                ok ? "equals the CPU mirror tiling" : "DIFFERS");
  }
  std::printf("%s\n", failed ? "FAILED" : "all agree");
  return failed ? 1 : 0;
}
