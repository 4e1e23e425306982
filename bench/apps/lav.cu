// lav.cu - LAV (Table 6): potential and force on each particle from the
// particles of its own and its 26 neighbour boxes, with exp(-a2 r^2)
// pair terms, Rodinia lavaMD's kernel_gpu_cuda rewritten for this suite.
#include "ax.cuh"

namespace lav {
constexpr int kPar = 100; // particles per box (lavaMD's NUMBER_PAR_PER_BOX)

// One neighbour box, staged in shared memory: f.w += q_j exp(-a2 r^2) and
// f.xyz += q_j 2 a2 exp(-a2 r^2) (r_i - r_j), minus the gradient. No barrier.
template <class M>
__device__ __forceinline__ void tile(float4 &f, float4 ri, const float4 *sr,
                                     const float *sq, float a2) {
  for (int j = 0; j < kPar; ++j) {
    const float dx = ri.x - sr[j].x, dy = ri.y - sr[j].y, dz = ri.z - sr[j].z;
    const float r2 = dx * dx + dy * dy + dz * dz;
    const float v = sq[j] * M::exp(-a2 * r2), fs = 2.0f * a2 * v;
    f.w += v;
    f.x += fs * dx, f.y += fs * dy, f.z += fs * dz;
  }
}
} // namespace lav

// One block per home box (boxes1d^3 boxes of unit edge), one thread per
// particle; rv holds positions (x, y, z, unused), qv charges, fv (fx, fy, fz,
// potential).
extern "C" __global__ void lav_kernel(float4 *fv, const float4 *rv,
                                      const float *qv, int boxes1d, float a2) {
  __shared__ float4 sr[lav::kPar];
  __shared__ float sq[lav::kPar];
  const int home = blockIdx.x, i = threadIdx.x;
  const int bx = home % boxes1d, by = home / boxes1d % boxes1d,
            bz = home / (boxes1d * boxes1d);
  const bool active = i < lav::kPar;
  const float4 ri = active ? rv[home * lav::kPar + i] : float4{};
  float4 f{0, 0, 0, 0};
  for (int nz = max(bz - 1, 0); nz <= min(bz + 1, boxes1d - 1); ++nz)
    for (int ny = max(by - 1, 0); ny <= min(by + 1, boxes1d - 1); ++ny)
      for (int nx = max(bx - 1, 0); nx <= min(bx + 1, boxes1d - 1); ++nx) {
        const int nb = (nz * boxes1d + ny) * boxes1d + nx;
        __syncthreads(); // the previous box's tile is no longer read
        if (active)
          sr[i] = rv[nb * lav::kPar + i], sq[i] = qv[nb * lav::kPar + i];
        __syncthreads();
        if (active) // the barrier-free phase: versioned on its own
          AX_VERSIONED(lav::tile, f, ri, sr, sq, a2);
      }
  if (active)
    fv[home * lav::kPar + i] = f;
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace lav {
constexpr int kBoxes1d = 16, kBoxes = kBoxes1d * kBoxes1d * kBoxes1d;
constexpr int kN = kBoxes * kPar;

apps::Problem make(uint64_t seed) {
  // lavaMD's setup, made spatial: each box of unit edge holds 100 particles
  // placed uniformly inside it, charges uniform in [0.1, 1] (lavaMD's range);
  // alpha = 0.5, a2 = 2 alpha^2.
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> u(0, 1), charge(0.1f, 1.0f);
  std::vector<float4> r(kN);
  std::vector<float> q(kN);
  for (int b = 0; b < kBoxes; ++b)
    for (int k = 0; k < kPar; ++k) {
      const int x = b % kBoxes1d, y = b / kBoxes1d % kBoxes1d,
                z = b / (kBoxes1d * kBoxes1d);
      r[b * kPar + k] = {x + u(g), y + u(g), z + u(g), 0};
      q[b * kPar + k] = charge(g);
    }
  apps::Problem p;
  p.buffers = {apps::Buffer::out("fv", size_t(kN) * 16),
               apps::Buffer::input("rv", r), apps::Buffer::input("qv", q)};
  p.args = {apps::Arg::buf(0), apps::Arg::buf(1), apps::Arg::buf(2),
            apps::Arg::i32(kBoxes1d), apps::Arg::f32(0.5f)};
  p.grid[0] = kBoxes; // lavaMD: one block of 128 threads per box
  p.block[0] = 128;
  return p;
}

// The potential is a sum of positive terms: its mean relative error. The
// force components cancel towards zero in the bulk: their normalised L1
// error sum|F - Fref| / sum|Fref|. E is the mean of the two.
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  const float4 *r = apps::view<float4>(ref, 0), *o = apps::view<float4>(out, 0);
  std::vector<double> vr(kN), vo(kN);
  double num = 0, den = 0;
  for (int i = 0; i < kN; ++i) {
    vr[i] = r[i].w, vo[i] = o[i].w;
    num += std::fabs(double(o[i].x) - r[i].x) + std::fabs(double(o[i].y) - r[i].y) +
           std::fabs(double(o[i].z) - r[i].z);
    den += std::fabs(double(r[i].x)) + std::fabs(double(r[i].y)) +
           std::fabs(double(r[i].z));
  }
  const double e = 0.5 * (apps::meanRelative(vr.data(), vo.data(), kN) + num / den);
  return std::isfinite(e) ? e : INFINITY;
}
} // namespace lav

AX_REGISTER_APP({"lav", "lavaMD", "Molecular dynamics",
                 "exp-potential and force on 409.6k particles in 16^3 boxes",
                 "lav_kernel", "exp",
                 "mean of potential mean relative error and force L1 error", false,
                 lav::make, lav::error, (const void *)lav_kernel,
                 ax::setHandLambda});
#endif
