// nbo.cu - NBO (Table 6): one semi-implicit Euler step of an all-pairs
// gravitational N-body system with softening, tiled through shared memory,
// the CUDA SDK nbody's integrateBodies kernel rewritten for this suite.
#include "ax.cuh"

namespace nbo {
// A block holds kTile bodies; kSlices threads per body each sum every
// kSlices-th tile (the SDK's multi-thread-per-body variant), so a 32k-body
// system still fills the SMs.
constexpr int kTile = 64, kSlices = 8;

// a_i += m_j r_ij / (|r_ij|^2 + eps^2)^(3/2) over one tile. No barrier.
template <class M>
__device__ __forceinline__ void tile(float3 &acc, float4 bi, const float4 *sh,
                                     float eps2) {
#pragma unroll 8
  for (int j = 0; j < kTile; ++j) {
    const float4 bj = sh[j];
    const float rx = bj.x - bi.x, ry = bj.y - bi.y, rz = bj.z - bi.z;
    const float inv = M::rsqrt(rx * rx + ry * ry + rz * rz + eps2);
    const float s = bj.w * inv * inv * inv;
    acc.x += rx * s, acc.y += ry * s, acc.z += rz * s;
  }
}
} // namespace nbo

// pos: (x, y, z, mass); vel: (vx, vy, vz, unused). n: a multiple of kTile.
// Four 512-thread blocks per SM: 512 blocks run in one wave on an H100.
extern "C" __global__ void __launch_bounds__(512, 4) nbo_integrate(float4 *newPos, float4 *newVel,
                                         const float4 *pos, const float4 *vel,
                                         int n, float dt, float damping,
                                         float eps2) {
  using namespace nbo;
  __shared__ float4 sh[kSlices][kTile];
  __shared__ float3 part[kSlices][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y, i = blockIdx.x * kTile + tx;
  const float4 bi = pos[i];
  float3 acc{0, 0, 0};
  const int tiles = n / kTile;
  for (int base = 0; base < tiles; base += kSlices) {
    const int t = base + ty;
    if (t < tiles)
      sh[ty][tx] = pos[t * kTile + tx];
    __syncthreads();
    if (t < tiles) // the barrier-free phase: versioned on its own
      AX_VERSIONED(tile, acc, bi, sh[ty], eps2);
    __syncthreads();
  }
  part[ty][tx] = acc;
  __syncthreads();
  if (ty == 0) { // sum the slices, then v += a dt (damped), x += v dt
    for (int s = 1; s < kSlices; ++s)
      acc.x += part[s][tx].x, acc.y += part[s][tx].y, acc.z += part[s][tx].z;
    float4 v = vel[i];
    v.x = (v.x + acc.x * dt) * damping, v.y = (v.y + acc.y * dt) * damping,
    v.z = (v.z + acc.z * dt) * damping;
    newVel[i] = v;
    newPos[i] = {bi.x + v.x * dt, bi.y + v.y * dt, bi.z + v.z * dt, bi.w};
  }
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace nbo {
constexpr int kN = 32768;

apps::Problem make(uint64_t seed) {
  // The SDK's "shell" start: unit masses in a spherical shell of radii
  // 2.5 s .. 4 s, rotating about z at roughly the circular-orbit speed;
  // softening 0.1, dt 0.016, no damping (the SDK's demo parameters).
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> u(-1, 1), w(0, 1);
  const float s = 1.54f * std::cbrt(kN / 1024.0f), inner = 2.5f * s,
              outer = 4.0f * s;
  const float omega = std::sqrt(float(kN) / (outer * outer * outer));
  std::vector<float4> pos(kN), vel(kN);
  for (int i = 0; i < kN; ++i) {
    float x, y, z, l2;
    do {
      x = u(g), y = u(g), z = u(g), l2 = x * x + y * y + z * z;
    } while (l2 > 1 || l2 < 1e-6f);
    const float r = (inner + (outer - inner) * w(g)) / std::sqrt(l2);
    pos[i] = {x * r, y * r, z * r, 1.0f};
    vel[i] = {-omega * y * r, omega * x * r, 0.0f, 0.0f}; // (omega e_z) x pos
  }
  apps::Problem p;
  p.buffers = {apps::Buffer::out("newPos", size_t(kN) * 16),
               apps::Buffer::out("newVel", size_t(kN) * 16),
               apps::Buffer::input("pos", pos), apps::Buffer::input("vel", vel)};
  p.args = {apps::Arg::buf(0),     apps::Arg::buf(1),    apps::Arg::buf(2),
            apps::Arg::buf(3),     apps::Arg::i32(kN),   apps::Arg::f32(0.016f),
            apps::Arg::f32(1.0f),  apps::Arg::f32(0.01f)};
  p.grid[0] = kN / kTile; // 512 blocks of 64 x 8 threads
  p.block[0] = kTile, p.block[1] = kSlices;
  return p;
}

// One step moves bodies by v dt, which would hide the force error: measure
// the velocity increment, sum|v - vref| / sum|vref - v0| (the normalised L1
// error of a dt). Positions are x0 + v dt: only checked to be finite.
double error(const apps::Problem &p, const apps::Outputs &ref,
             const apps::Outputs &out) {
  const float4 *r = apps::view<float4>(ref, 1), *o = apps::view<float4>(out, 1);
  const float4 *x = apps::view<float4>(out, 0);
  const float4 *v0 = reinterpret_cast<const float4 *>(p.buffers[3].host.data());
  double num = 0, den = 0;
  for (int i = 0; i < kN; ++i) {
    if (!std::isfinite(x[i].x + x[i].y + x[i].z + x[i].w))
      return INFINITY;
    num += std::fabs(double(o[i].x) - r[i].x) + std::fabs(double(o[i].y) - r[i].y) +
           std::fabs(double(o[i].z) - r[i].z);
    den += std::fabs(double(r[i].x) - v0[i].x) + std::fabs(double(r[i].y) - v0[i].y) +
           std::fabs(double(r[i].z) - v0[i].z);
  }
  const double e = num / den;
  return std::isfinite(e) ? e : INFINITY;
}
} // namespace nbo

AX_REGISTER_APP({"nbo", "nbody", "Molecular dynamics",
                 "one integration step of 32768 gravitating bodies, all pairs",
                 "nbo_integrate", "rsqrt",
                 "normalised L1 error of the velocity increment", false,
                 nbo::make, nbo::error, (const void *)nbo_integrate,
                 ax::setHandLambda});
#endif
