// sin.cu - SIN (Table 6): geometric-Brownian-motion price paths for a Monte
// Carlo Asian option, the CUDA SDK's generatePaths (MC_SingleAsianOptionP)
// rewritten for this suite.
#include "ax.cuh"

namespace asian {
// One path: s_{t+1} = s_t · exp((r − σ²/2)·dt + σ·√dt·z_t), every step
// written out (time-major, so the threads of a warp write one row together).
template <class M>
__device__ __forceinline__ void path(float *paths, const float *z, float spot,
                                     float r, float sigma, float dt,
                                     int numSims, int numSteps, int i) {
  const float drift = dt * (r - 0.5f * sigma * sigma);
  const float diffusion = sigma * M::sqrt(dt);
  float s = spot;
  for (int t = 0; t < numSteps; ++t) {
    s *= M::exp(drift + diffusion * z[size_t(t) * numSims + i]);
    paths[size_t(t) * numSims + i] = s;
  }
}
} // namespace asian

extern "C" __global__ void sin_generate_paths(float *paths, const float *z,
                                              float spot, float r, float sigma,
                                              float dt, int numSims,
                                              int numSteps) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < numSims;
       i += blockDim.x * gridDim.x)
    AX_VERSIONED(asian::path, paths, z, spot, r, sigma, dt, numSims, numSteps,
                 i);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <random>

namespace asian {
// 2^18 paths × 252 daily steps (one trading year): 2^26·(4 B in + 4 B out),
// ~0.2 ms on an H100, memory-bound as the SDK's kernel.
constexpr int kSims = 1 << 18, kSteps = 252;

apps::Problem make(uint64_t seed) {
  // The SDK's option: spot 40, r = 3%, σ = 20%, one year; the normals the
  // SDK draws with cuRAND in the kernel are drawn here on the host.
  std::mt19937_64 g(seed);
  std::normal_distribution<float> normal(0, 1);
  std::vector<float> z(size_t(kSims) * kSteps);
  for (float &zi : z)
    zi = normal(g);
  apps::Problem p;
  p.buffers = {apps::Buffer::out("paths", z.size() * 4),
               apps::Buffer::input("normals", z)};
  p.args = {apps::Arg::buf(0),     apps::Arg::buf(1),
            apps::Arg::f32(40.0f), apps::Arg::f32(0.03f),
            apps::Arg::f32(0.20f), apps::Arg::f32(1.0f / kSteps),
            apps::Arg::i32(kSims), apps::Arg::i32(kSteps)};
  p.block[0] = 256;
  p.grid[0] = kSims / 256; // one path per thread
  return p;
}

// Mean relative error of every simulated price (all positive, near spot).
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  return apps::meanRelativeOf(apps::view<float>(ref, 0), apps::view<float>(out, 0),
                              size_t(kSims) * kSteps);
}
} // namespace asian

AX_REGISTER_APP({"sin", "single", "Compute Finance",
                 "2^18 Asian-option price paths of 252 daily steps",
                 "sin_generate_paths", "sqrt, exp",
                 "mean relative error of the path prices", false, asian::make,
                 asian::error, (const void *)sin_generate_paths,
                 ax::setHandLambda});
#endif
