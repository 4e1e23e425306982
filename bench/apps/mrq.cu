// mrq.cu - MRQ (Table 6): the Q matrix of non-Cartesian MRI reconstruction,
// Q(x) = Σ_k |φ_k|² e^{i2π k·x} at every voxel x over all K-space samples,
// Parboil mri-q's ComputeQ_GPU rewritten for this suite.
#include "ax.cuh"

namespace mrq {
constexpr float kTwoPi = 6.2831853071795864769f;

// One voxel against samples [0, numK): K-space is (kx, ky, kz, |φ|²) per
// sample in global memory; every thread of the launch reads the same sample
// at once (a broadcast from L1, where mri-q uses constant memory).
template <class M>
__device__ __forceinline__ void
accumulate(float *qr, float *qi, const float4 *__restrict__ kv, int numK,
           float x, float y, float z, int i) {
  float re = 0, im = 0;
  for (int k = 0; k < numK; ++k) {
    float4 s = kv[k];
    float arg = kTwoPi * (s.x * x + s.y * y + s.z * z);
    re += s.w * M::cos(arg);
    im += s.w * M::sin(arg);
  }
  qr[i] = re, qi[i] = im;
}
} // namespace mrq

extern "C" __global__ void mrq_computeq(float *qr, float *qi, const float *x,
                                        const float *y, const float *z,
                                        const float4 *kv, int numX, int numK) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < numX)
    AX_VERSIONED(mrq::accumulate, qr, qi, kv, numK, x[i], y[i], z[i], i);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace mrq {
// Parboil's large data set: a 64³ voxel grid and 2048 K-space samples, 537M
// sin/cos pairs: compute-bound, ~1.5 ms on an H100 with the precise sin/cos.
constexpr int kSide = 64, kNumX = kSide * kSide * kSide, kNumK = 2048;

apps::Problem make(uint64_t seed) {
  // Voxel centres of a unit field of view, x ∈ [−0.5, 0.5)³. K-space: a 3-D
  // radial ("kooshball") trajectory, 32 spokes through the centre with 64
  // samples each, |k| up to the Nyquist edge 32 cycles/FOV along random
  // directions, with small trajectory errors. |φ|² = |data|² · density
  // compensation: the signal of a smooth object falls off with |k| and the
  // radial density compensation grows as |k|², with complex noise.
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> u01(0, 1);
  std::normal_distribution<float> nrm(0, 1);
  std::vector<float> x(kNumX), y(kNumX), z(kNumX);
  for (int i = 0; i < kNumX; ++i) {
    x[i] = (i % kSide + 0.5f) / kSide - 0.5f;
    y[i] = (i / kSide % kSide + 0.5f) / kSide - 0.5f;
    z[i] = (i / (kSide * kSide) + 0.5f) / kSide - 0.5f;
  }
  std::vector<float4> kv(kNumK);
  const int perSpoke = 64, spokes = kNumK / perSpoke;
  for (int s = 0; s < spokes; ++s) {
    float cz = 2 * u01(g) - 1, ph = 6.2831853f * u01(g);
    float sz = std::sqrt(1 - cz * cz);
    float d[3] = {sz * std::cos(ph), sz * std::sin(ph), cz};
    for (int j = 0; j < perSpoke; ++j) {
      float kr = (j - perSpoke / 2 + 0.5f) * (kSide / 2.0f) / (perSpoke / 2);
      float a = std::fabs(kr);
      float sig = 1.0f / (1 + 0.02f * a * a); // smooth object's spectrum
      float re = sig + 0.01f * nrm(g),
            im = 0.3f * sig * nrm(g) + 0.01f * nrm(g);
      float dcf = (a * a + 0.25f) / (kSide * kSide / 4.0f);
      kv[s * perSpoke + j] = {
          kr * d[0] + 0.01f * nrm(g), kr * d[1] + 0.01f * nrm(g),
          kr * d[2] + 0.01f * nrm(g), (re * re + im * im) * dcf};
    }
  }
  apps::Problem p;
  p.buffers = {
      apps::Buffer::out("Qr", kNumX * 4), apps::Buffer::out("Qi", kNumX * 4),
      apps::Buffer::input("x", x),        apps::Buffer::input("y", y),
      apps::Buffer::input("z", z),        apps::Buffer::input("kspace", kv)};
  p.args = {apps::Arg::buf(0),     apps::Arg::buf(1),    apps::Arg::buf(2),
            apps::Arg::buf(3),     apps::Arg::buf(4),    apps::Arg::buf(5),
            apps::Arg::i32(kNumX), apps::Arg::i32(kNumK)};
  p.grid[0] = kNumX / 256; // mri-q's 256-thread blocks, one voxel a thread
  p.block[0] = 256;
  return p;
}

// Relative L1 error of the complex Q, Σ|Q − Qref| / Σ|Qref|: Q oscillates
// and crosses zero across the grid, so a per-voxel relative error would be
// dominated by the few voxels where |Q| is near 0.
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  const float *rr = apps::view<float>(ref, 0), *ri = apps::view<float>(ref, 1);
  const float *orr = apps::view<float>(out, 0), *oi = apps::view<float>(out, 1);
  double num = 0, den = 0;
  for (int i = 0; i < kNumX; ++i) {
    num += std::hypot(double(orr[i]) - rr[i], double(oi[i]) - ri[i]);
    den += std::hypot(double(rr[i]), double(ri[i]));
  }
  return std::isfinite(num) ? num / den : INFINITY;
}
} // namespace mrq

AX_REGISTER_APP({"mrq", "mri-q", "Image processing",
                 "Q of a 64^3 voxel grid over 2048 radial K-space samples",
                 "mrq_computeq", "sin, cos",
                 "relative L1 error of the complex Q (sum |dQ| / sum |Q|)",
                 false, mrq::make, mrq::error, (const void *)mrq_computeq,
                 ax::setHandLambda});
#endif
