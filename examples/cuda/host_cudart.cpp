// host_cudart.cpp - host.cpp's Box-Muller program written the way most CUDA
// programs are: memory through the CUDA runtime API (cudaMalloc, cudaMemcpy),
// only the launch through approx's runtime (the PTX of `approx-cc
// box_muller.cu`). The runtime never sees its copies, so a whole-program
// tuner judges it by the kernel's output argument instead:
//
//   approx tune DIR/box_muller.manifest.json --qos 1e-3 \
//     --capture-arg _Z10box_mullerPKfS0_PfS1_i:2:f32 -- box_muller_cudart DIR/box_muller.manifest.json
//
//   box_muller_cudart MANIFEST [N] [REPEATS]
// Prints the mean and variance of z0; exits 0 when they are those of a
// standard normal, 77 where no GPU is usable.
#include "approx/runtime/core/Runtime.h"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace approx::rt;

static int fail(const std::string &what) {
  std::fprintf(stderr, "box_muller_cudart: %s\n", what.c_str());
  return 1;
}

#define CUDART(call)                                                           \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess)                                                     \
      return fail(std::string(#call) + ": " + cudaGetErrorString(e_));         \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: box_muller_cudart MANIFEST [N] [REPEATS]\n");
    return 2;
  }
  const int n = argc > 2 ? std::atoi(argv[2]) : 1 << 24;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 20;
  if (n <= 0 || repeats <= 0)
    return fail("N and REPEATS must be positive");
  if (Status s = probeDriver(); !s) {
    std::printf("skipped: %s\n", s.message().c_str());
    return 77;
  }
  const size_t count = static_cast<size_t>(n);
  std::vector<float> u1(count), u2(count);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> uniform(1e-7f, 1.0f);
  for (int i = 0; i < n; ++i) {
    u1[size_t(i)] = uniform(rng);
    u2[size_t(i)] = uniform(rng);
  }
  float *d[4] = {};
  for (float *&p : d)
    CUDART(cudaMalloc(&p, count * sizeof(float)));
  CUDART(cudaMemcpy(d[0], u1.data(), count * 4, cudaMemcpyHostToDevice));
  CUDART(cudaMemcpy(d[1], u2.data(), count * 4, cudaMemcpyHostToDevice));

  // The runtime on the primary context cudaMalloc made current.
  auto ctx = Context::create();
  if (!ctx)
    return fail(ctx.status().toString());
  auto module = Module::load(*ctx, argv[1]);
  if (!module)
    return fail(module.status().toString());
  const std::string kernel = (*module)->kernelNames().front();
  LaunchConfig cfg{{unsigned((n + 255) / 256), 1, 1}, {256, 1, 1}};
  for (int r = 0; r < repeats; ++r)
    if (Status s = (*module)->launch(
            kernel, cfg,
            {Arg::pointer(uint64_t(uintptr_t(d[0]))),
             Arg::pointer(uint64_t(uintptr_t(d[1]))),
             Arg::pointer(uint64_t(uintptr_t(d[2]))),
             Arg::pointer(uint64_t(uintptr_t(d[3]))), Arg::integer(n)});
        !s)
      return fail(s.toString());
  std::vector<float> z0(count);
  CUDART(cudaMemcpy(z0.data(), d[2], count * 4, cudaMemcpyDeviceToHost));
  for (float *p : d)
    CUDART(cudaFree(p));
  double mean = 0, var = 0;
  for (float v : z0)
    mean += v;
  mean /= n;
  for (float v : z0)
    var += (v - mean) * (v - mean);
  var /= n;
  std::printf("kernel %s, n %d, %d launches: z0 mean %.4f variance %.4f\n",
              kernel.c_str(), n, repeats, mean, var);
  return std::abs(mean) < 0.01 && std::abs(var - 1.0) < 0.02 ? 0 : 1;
}
