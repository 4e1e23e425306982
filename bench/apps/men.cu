// men.cu - MEN (Table 6): Box-Muller transform of Mersenne-twister uniforms
// into standard normals, the CUDA SDK's BoxMullerGPU (MersenneTwister sample)
// rewritten for this suite.
#include "ax.cuh"

namespace men {
// One pair: u1 in (0, 1] (so log is finite), u2 in (0, 1];
// r = sqrt(−2 ln u1), φ = 2π u2, (r cos φ, r sin φ).
template <class M>
__device__ __forceinline__ void boxMuller(float *z, const float *u, int half,
                                          int i) {
  const float twoPi = 6.28318530717958647692f;
  float r = M::sqrt(-2.0f * M::log(u[i]));
  float phi = twoPi * u[i + half];
  z[i] = r * M::cos(phi);
  z[i + half] = r * M::sin(phi);
}
} // namespace men

// Pairs element i with i + half so that both reads and writes coalesce.
extern "C" __global__ void men_box_muller(float *z, const float *u, int half) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < half)
    AX_VERSIONED(men::boxMuller, z, u, half, i);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace men {
// 2^26 draws: 256 MiB in, 256 MiB out, ~0.2 ms on an H100 (memory-bound like
// the SDK's transform, with log, sqrt, sin and cos per pair on top).
constexpr int kDraws = 1 << 26, kHalf = kDraws / 2;

apps::Problem make(uint64_t seed) {
  // What the twister hands the transform: 24-bit uniforms k·2^-24 for
  // k = 1 .. 2^24, i.e. in (0, 1].
  std::mt19937_64 g(seed);
  std::vector<float> u(kDraws);
  for (float &ui : u)
    ui = float((g() >> 40) + 1) * 0x1p-24f;
  apps::Problem p;
  p.buffers = {apps::Buffer::out("normals", size_t(kDraws) * 4),
               apps::Buffer::input("uniforms", u)};
  p.args = {apps::Arg::buf(0), apps::Arg::buf(1), apps::Arg::i32(kHalf)};
  p.block[0] = 256;
  p.grid[0] = (kHalf + 255) / 256;
  return p;
}

// Normals cluster around 0, where a per-element relative error explodes, so
// the error is normalised over the whole sample: sum|out − ref| / sum|ref|.
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  return apps::normalisedL1Of(apps::view<float>(ref, 0), apps::view<float>(out, 0),
                              size_t(kDraws));
}
} // namespace men

AX_REGISTER_APP({"men", "mersenne", "Simulation",
                 "Box-Muller transform of 2^26 uniforms into normals",
                 "men_box_muller", "log, sqrt, sin, cos",
                 "sum|out - ref| / sum|ref| over the normals", false, men::make,
                 men::error, (const void *)men_box_muller, ax::setHandLambda});
#endif
