// ocn.cu - OCN (Table 6): the time-dependent ocean wave spectrum h(k, t) and
// its choppy-wave displacement spectrum from the initial Phillips spectrum,
// the CUDA SDK oceanFFT's generateSpectrumKernel rewritten for this suite.
#include "ax.cuh"

namespace ocn {
// h(k,t) = h0(k) e^{i w t} + conj(h0(-k)) e^{-i w t}, w = sqrt(g |k|) (deep
// water), and D(k,t) = -i k/|k| h(k,t) (Tessendorf's horizontal
// displacement, which the inverse FFT turns into choppy crests).
template <class M>
__device__ __forceinline__ void spectrum(float2 *ht, float4 *disp,
                                         const float2 *h0, int n, float dk,
                                         float t, int x, int y) {
  const float kx = (x - n / 2) * dk, ky = (y - n / 2) * dk;
  const float klen = M::sqrt(kx * kx + ky * ky);
  const float w = M::sqrt(9.81f * klen);
  const float c = M::cos(w * t), s = M::sin(w * t);
  const float2 a = h0[size_t(y) * (n + 1) + x];             // h0(k)
  const float2 b = h0[size_t(n - y) * (n + 1) + (n - x)];   // h0(-k)
  const float2 h = {(a.x + b.x) * c - (a.y + b.y) * s,
                    (a.x - b.x) * s + (a.y - b.y) * c};
  const float inv = klen > 0.0f ? M::rcp(klen) : 0.0f; // no direction at k = 0
  const float ux = kx * inv, uy = ky * inv;
  const size_t o = size_t(y) * n + x;
  ht[o] = h;
  disp[o] = {ux * h.y, -ux * h.x, uy * h.y, -uy * h.x}; // (Dx, Dy) as re, im
}
} // namespace ocn

// An n x n spectrum; h0 is (n + 1) x (n + 1) so that -k is always inside.
extern "C" __global__ void ocn_spectrum(float2 *ht, float4 *disp,
                                        const float2 *h0, int n, float dk,
                                        float t) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    AX_VERSIONED(ocn::spectrum, ht, disp, h0, n, dk, t, x, y);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace ocn {
constexpr int kN = 4096;                       // a 4096^2 FFT grid
constexpr float kPatch = 1000.0f, kG = 9.81f;  // metres, m/s^2
constexpr float kWind = 20.0f, kWindDir = 0.6f; // m/s, radians

apps::Problem make(uint64_t seed) {
  // Tessendorf's Phillips spectrum: P(k) = A exp(-1/(k Lw)^2) / k^4
  // (k^ . w^)^2 exp(-k^2 l^2), Lw = V^2 / g, small waves l = 0.1 m damped;
  // h0(k) = (xi_r + i xi_i) sqrt(P(k) / 2), xi standard normal.
  std::mt19937_64 g(seed);
  std::normal_distribution<float> xi(0, 1);
  const float dk = 2 * float(M_PI) / kPatch, lw = kWind * kWind / kG, l = 0.1f,
              wx = std::cos(kWindDir), wy = std::sin(kWindDir), amp = 1e-3f;
  std::vector<float2> h0(size_t(kN + 1) * (kN + 1));
  for (int y = 0; y <= kN; ++y)
    for (int x = 0; x <= kN; ++x) {
      const float kx = (x - kN / 2) * dk, ky = (y - kN / 2) * dk,
                  k2 = kx * kx + ky * ky;
      float p = 0;
      if (k2 > 0) {
        const float d = (kx * wx + ky * wy);
        p = amp * std::exp(-1 / (k2 * lw * lw)) / (k2 * k2) * (d * d / k2) *
            std::exp(-k2 * l * l);
      }
      const float r = std::sqrt(0.5f * p);
      h0[size_t(y) * (kN + 1) + x] = {xi(g) * r, xi(g) * r};
    }
  apps::Problem p;
  p.buffers = {apps::Buffer::out("ht", size_t(kN) * kN * 8),
               apps::Buffer::out("disp", size_t(kN) * kN * 16),
               apps::Buffer::input("h0", h0)};
  p.args = {apps::Arg::buf(0), apps::Arg::buf(1),  apps::Arg::buf(2),
            apps::Arg::i32(kN), apps::Arg::f32(dk), apps::Arg::f32(12.5f)};
  p.grid[0] = kN / 32, p.grid[1] = kN / 8; // the SDK's 8 x 8 blocks, widened
  p.block[0] = 32, p.block[1] = 8;
  return p;
}

// By Parseval, the relative L2 error of the spectra is the relative RMS
// error of the height and displacement fields the inverse FFT makes of them:
// sqrt(sum|S - Sref|^2 / sum|Sref|^2) over h, Dx and Dy (complex).
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  double num = 0, den = 0;
  for (int k = 0; k < 2; ++k) {
    const float *r = apps::view<float>(ref, k), *o = apps::view<float>(out, k);
    for (size_t i = 0, m = ref[k].size() / 4; i < m; ++i) {
      const double d = double(o[i]) - r[i];
      num += d * d, den += double(r[i]) * r[i];
    }
  }
  const double e = std::sqrt(num / den);
  return std::isfinite(e) ? e : INFINITY;
}
} // namespace ocn

AX_REGISTER_APP({"ocn", "oceanFFT", "Molecular dynamics",
                 "ocean wave spectrum h(k,t) and choppy displacement, 4096^2",
                 "ocn_spectrum", "rcp, sqrt, sin, cos",
                 "relative L2 (RMS) error of height and displacement spectra",
                 false, ocn::make, ocn::error, (const void *)ocn_spectrum,
                 ax::setHandLambda});
#endif
