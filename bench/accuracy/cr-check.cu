//===- cr-check.cu - the correctly rounded rung, checked and timed (GPU) --===//
//
//   cr-check DIR [--quick]
//
// DIR holds the modules of cr-kernels.py (cr_correct, cost_correct,
// cost_tunable: PTX + manifest, compiled by approx-opt elsewhere).
//
// 1. Exhaustive: cr_<f> of cr_correct on every one of the 2^32 f32 inputs
//    (--quick: 2^26 of them, evenly strided). The device reference is f in
//    f64 (libdevice) rounded to nearest; where that f64 value lies within
//    2^-20 ulp of a midpoint (bench/accuracy's ambiguity band) it decides
//    nothing, and MPFR on the host does. Every disagreement with a decided
//    reference is also recomputed with MPFR, so `misrounded` is MPFR's
//    verdict: inputs whose result differs from MPFR's correctly rounded one.
// 2. An MPFR sample independent of libdevice: every 64th input (--quick:
//    every 4096th).
// 3. Throughput of cost_<f> (64 evaluations per thread, no memory in the
//    loop): precise (cost_tunable, lambda 0), SFU (lambda 64), correct
//    (cost_correct). CUDA events, 5 warm-up and 21 timed launches, median.
//
// Exit status: 0 when every function has 0 misrounded results, 1 when some
// has one, 2 on an error, 77 without a usable GPU.
//
//===----------------------------------------------------------------------===//

#include "approx/accuracy/Mpfr.h"
#include "approx/accuracy/Rounding.h"
#include "approx/runtime/core/Runtime.h"
#include "../BenchCommon.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace approx::rt;
namespace acc = approx::accuracy;

namespace {

const char *kFuncs[] = {"exp", "exp2", "log", "log2"};
const acc::Func kAccFuncs[] = {acc::Func::Exp, acc::Func::Exp2,
                               acc::Func::Log, acc::Func::Log2};

/// An input the host must look at: undecided reference, or a disagreement.
struct Flagged {
  uint32_t x, got;
};

__device__ double refF64(int f, double x) {
  switch (f) {
  case 0:
    return exp(x);
  case 1:
    return exp2(x);
  case 2:
    return log(x);
  default:
    return log2(x);
  }
}

__global__ void fillBits(float *x, uint64_t base, uint64_t stride,
                         uint64_t n) {
  uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = __uint_as_float(uint32_t((base + i) * stride));
}

__global__ void compare(int f, const float *x, const float *got, uint64_t n,
                        Flagged *list, unsigned long long *count,
                        unsigned long long cap) {
  uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double y = refF64(f, double(x[i]));
  acc::NearestRounding<acc::F32> r = acc::roundNearest<acc::F32>(y);
  uint32_t g = __float_as_uint(got[i]);
  bool bothNaN = isnan(y) && isnan(got[i]);
  bool undecided = r.ambiguous(acc::kF32FromF64RefTolerance);
  bool differs = !bothNaN && r.bits != g;
  if (undecided || differs) {
    unsigned long long k = atomicAdd(count, 1ull);
    if (k < cap)
      list[k] = {__float_as_uint(x[i]), g};
  }
}

bool sameResult(float a, float b) {
  uint32_t ab, bb;
  std::memcpy(&ab, &a, 4);
  std::memcpy(&bb, &b, 4);
  return (std::isnan(a) && std::isnan(b)) || ab == bb;
}

/// MPFR on `n` items, all host threads; `body(i)` returns 1 for a miss.
template <class Body> uint64_t parallelCount(uint64_t n, Body body) {
  std::atomic<uint64_t> next{0}, misses{0};
  auto worker = [&]() {
    uint64_t local = 0;
    for (uint64_t i; (i = next.fetch_add(1024)) < n;)
      for (uint64_t j = i; j < std::min(n, i + 1024); ++j)
        local += body(j);
    misses += local;
  };
  std::vector<std::thread> pool;
  unsigned t = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned k = 1; k < t; ++k)
    pool.emplace_back(worker);
  worker();
  for (auto &th : pool)
    th.join();
  return misses;
}

struct Result {
  uint64_t inputs = 0, decided = 0, flagged = 0, mpfrChecked = 0,
           misrounded = 0, sample = 0, sampleMisrounded = 0;
  double preciseG = 0, sfuG = 0, correctG = 0; // evaluations per ns
  std::string firstMiss;
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cr-check DIR [--quick]\n");
    return 2;
  }
  std::string dir = argv[1];
  bool quick = argc > 2 && std::strcmp(argv[2], "--quick") == 0;
  Expected<std::shared_ptr<Context>> ctx = Context::create(0);
  check(ctx.status(), "context");
  const DeviceInfo &dev = (*ctx)->device();
  int driver = 0;
  CK(cudaDriverGetVersion(&driver));
  std::printf("device %s sm_%d%d, driver API %d, %u host threads\n",
              dev.name.c_str(), dev.ccMajor, dev.ccMinor, driver,
              std::max(1u, std::thread::hardware_concurrency()));
  auto load = [&](const char *name) {
    Expected<std::unique_ptr<Module>> m =
        Module::load(*ctx, dir + "/" + name + ".manifest.json");
    check(m.status(), name);
    return std::move(*m);
  };
  std::unique_ptr<Module> crm = load("cr_correct");
  std::unique_ptr<Module> costCorrect = load("cost_correct");
  std::unique_ptr<Module> costTunable = load("cost_tunable");

  const uint64_t total = quick ? uint64_t(1) << 26 : uint64_t(1) << 32;
  const uint64_t stride = (uint64_t(1) << 32) / total;
  const uint64_t chunk = std::min<uint64_t>(total, uint64_t(1) << 28);
  const unsigned long long cap = 1ull << 22;
  float *x, *out;
  Flagged *list;
  unsigned long long *counters; // flagged
  CK(cudaMalloc(&x, chunk * 4));
  CK(cudaMalloc(&out, chunk * 4));
  CK(cudaMalloc(&list, cap * sizeof(Flagged)));
  CK(cudaMalloc(&counters, sizeof(unsigned long long)));
  std::vector<Result> results(4);
  int status = 0;

  // x[i] = the float of bits (base + i) * stride, then out = kernel(x).
  auto runOn = [&](const std::string &kernel, uint64_t base, uint64_t stride,
                   uint64_t n) {
    unsigned blocks = unsigned((n + 255) / 256);
    fillBits<<<blocks, 256>>>(x, base, stride, n);
    CK(cudaGetLastError());
    BufferView vx{uint64_t(x), n * 4, ScalarType::F32};
    BufferView vo{uint64_t(out), n * 4, ScalarType::F32};
    LaunchConfig cfg;
    cfg.block.x = 256;
    cfg.grid.x = blocks;
    check(crm->launch(kernel, cfg,
                      {Arg::memref(vx), Arg::memref(vo),
                       Arg::integer(int64_t(n))}),
          kernel.c_str());
  };

  for (int f = 0; f < 4; ++f) {
    Result &res = results[f];
    std::string kernel = std::string("cr_") + kFuncs[f];
    std::vector<Flagged> flagged;
    for (uint64_t base = 0; base < total; base += chunk) {
      uint64_t n = std::min(chunk, total - base);
      unsigned blocks = unsigned((n + 255) / 256);
      CK(cudaMemset(counters, 0, sizeof(unsigned long long)));
      runOn(kernel, base, stride, n);
      compare<<<blocks, 256>>>(f, x, out, n, list, counters, cap);
      CK(cudaGetLastError());
      unsigned long long h[1];
      CK(cudaMemcpy(h, counters, sizeof h, cudaMemcpyDeviceToHost));
      if (h[0] > cap) {
        std::fprintf(stderr, "%s: %llu flagged inputs in one chunk (cap %llu)\n",
                     kernel.c_str(), h[0], cap);
        return 2;
      }
      size_t old = flagged.size();
      flagged.resize(old + h[0]);
      CK(cudaMemcpy(flagged.data() + old, list, h[0] * sizeof(Flagged),
                    cudaMemcpyDeviceToHost));
      res.decided += n - h[0];
      res.inputs += n;
    }
    res.flagged = flagged.size();
    // MPFR decides every flagged input.
    std::atomic<int> printed{0};
    res.misrounded = parallelCount(flagged.size(), [&](uint64_t i) -> int {
      float xv, got;
      std::memcpy(&xv, &flagged[i].x, 4);
      std::memcpy(&got, &flagged[i].got, 4);
      float want = acc::correctlyRounded(kAccFuncs[f], xv);
      if (sameResult(got, want))
        return 0;
      if (printed++ < 5)
        std::fprintf(stderr, "MISROUNDED %s(%a) = %a, correctly rounded %a\n",
                     kFuncs[f], xv, got, want);
      return 1;
    });
    res.mpfrChecked = flagged.size();
    // The independent MPFR sample: every 64th input (--quick: 4096th).
    {
      const uint64_t sampleStride = quick ? 4096 : 64;
      const uint64_t n = (uint64_t(1) << 32) / sampleStride;
      std::vector<float> xs(n), got(n);
      for (uint64_t base = 0; base < n; base += chunk) {
        uint64_t m = std::min(chunk, n - base);
        runOn(kernel, base, sampleStride, m);
        CK(cudaMemcpy(xs.data() + base, x, m * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(got.data() + base, out, m * 4, cudaMemcpyDeviceToHost));
      }
      res.sample = n;
      res.sampleMisrounded = parallelCount(n, [&](uint64_t i) -> int {
        float want = acc::correctlyRounded(kAccFuncs[f], xs[i]);
        if (sameResult(got[i], want))
          return 0;
        std::fprintf(stderr, "MISROUNDED (sample) %s(%a) = %a, MPFR %a\n",
                     kFuncs[f], xs[i], got[i], want);
        return 1;
      });
    }
    if (res.misrounded || res.sampleMisrounded)
      status = 1;
    std::fprintf(stderr, "%s: %" PRIu64 " inputs, %" PRIu64
                 " flagged for MPFR, %" PRIu64 " misrounded\n",
                 kFuncs[f], res.inputs, res.flagged, res.misrounded);

    // Throughput.
    const int64_t threads = int64_t(1) << 22, perThread = 64;
    float *sink;
    CK(cudaMalloc(&sink, threads * 4));
    BufferView vs{uint64_t(sink), uint64_t(threads) * 4, ScalarType::F32};
    LaunchConfig cfg;
    cfg.block.x = 256;
    cfg.grid.x = unsigned(threads / 256);
    TimingOptions topt;
    topt.warmup = 5;
    topt.reps = 21;
    std::string cost = std::string("cost_") + kFuncs[f];
    std::vector<Arg> args = {Arg::memref(vs), Arg::integer(threads)};
    auto rate = [&](Module &m, int lambda) {
      if (lambda >= 0)
        check(m.setKnob("lambda", lambda), "setKnob");
      Expected<Timing> t = m.time(cost, cfg, args, topt);
      check(t.status(), cost.c_str());
      return double(threads * perThread) / (t->medianMs * 1e6);
    };
    // Interleaved, so that clocks drift over all three alike.
    double p = 0, s = 0, c = 0;
    for (int rep = 0; rep < 3; ++rep) {
      p = std::max(p, rate(*costTunable, 0));
      s = std::max(s, rate(*costTunable, 64));
      c = std::max(c, rate(*costCorrect, -1));
    }
    res.preciseG = p;
    res.sfuG = s;
    res.correctG = c;
    CK(cudaFree(sink));
  }

  std::printf("\n| f32 function | inputs | reference decided on the GPU | "
              "decided by MPFR | misrounded | MPFR sample | "
              "misrounded in sample | SFU Geval/s | precise Geval/s | "
              "correct Geval/s | correct / precise time |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int f = 0; f < 4; ++f) {
    const Result &r = results[f];
    std::printf("| %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64
                " | %" PRIu64 " | %" PRIu64 " | %.1f | %.1f | %.1f | %.2f× |\n",
                kFuncs[f], r.inputs, r.decided, r.mpfrChecked, r.misrounded,
                r.sample, r.sampleMisrounded, r.sfuG, r.preciseG, r.correctG,
                r.preciseG / r.correctG);
  }
  CK(cudaFree(x));
  CK(cudaFree(out));
  CK(cudaFree(list));
  CK(cudaFree(counters));
  return status;
}
