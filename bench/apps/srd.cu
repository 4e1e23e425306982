// srd.cu - SRD (Table 6): the directional derivatives and the diffusion
// coefficient of one speckle reducing anisotropic diffusion step over an
// ultrasound image, Rodinia srad's first kernel rewritten for this suite.
#include "ax.cuh"

namespace srd {
// One pixel of J (log-compressed intensities, exp(I/255) as srad prepares
// them): the four one-sided differences, then the instantaneous coefficient
// of variation q² from the normalised gradient G² = |∇J|²/J² and Laplacian
// L = ΔJ/J, and the coefficient c = 1 / (1 + (q² − q0²) / (q0² (1 + q0²))),
// clamped to [0, 1]. Borders are clamped (srad's iN/iS/jW/jE index arrays).
template <class M>
__device__ __forceinline__ void
coefficient(float *c, float *dN, float *dS, float *dW, float *dE,
            const float *J, int rows, int cols, float q0sqr, int r, int k) {
  size_t p = size_t(r) * cols + k;
  float Jc = J[p];
  float n = J[p - (r > 0 ? cols : 0)] - Jc;
  float s = J[p + (r < rows - 1 ? cols : 0)] - Jc;
  float w = J[p - (k > 0 ? 1 : 0)] - Jc;
  float e = J[p + (k < cols - 1 ? 1 : 0)] - Jc;
  float G2 = M::div(n * n + s * s + w * w + e * e, Jc * Jc);
  float L = M::div(n + s + w + e, Jc);
  float num = 0.5f * G2 - 0.0625f * (L * L);
  float den = 1.0f + 0.25f * L;
  float qsqr = M::div(num, den * den);
  float d = M::div(qsqr - q0sqr, q0sqr * (1.0f + q0sqr));
  float cc = M::rcp(1.0f + d);
  c[p] = fminf(fmaxf(cc, 0.0f), 1.0f);
  dN[p] = n, dS[p] = s, dW[p] = w, dE[p] = e;
}
} // namespace srd

extern "C" __global__ void srd_coefficient(float *c, float *dN, float *dS,
                                           float *dW, float *dE, const float *J,
                                           int rows, int cols, float q0sqr) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && k < cols)
    AX_VERSIONED(srd::coefficient, c, dN, dS, dW, dE, J, rows, cols, q0sqr, r,
                 k);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace srd {
// A 4096 x 4096 image: 4 bytes in, 20 out per pixel, 400 MB of traffic,
// ~0.17 ms on an H100, memory-bound as srad's kernel.
constexpr int kRows = 4096, kCols = 4096;

apps::Problem make(uint64_t seed) {
  // A B-mode-like scan: tissue of mid echogenicity with brighter layered
  // structures (smooth in depth), a few dark cyst-like ellipses and bright
  // specular lines, all multiplied by fully developed speckle (the intensity
  // of a complex Gaussian, exponentially distributed, correlated over ~2
  // pixels by averaging), then log-compressed to 0-255 and mapped through
  // exp(I/255) as srad does before its kernels.
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> u01(0, 1);
  std::exponential_distribution<float> speckle(1.0f);
  struct Ellipse {
    float y, x, ry, rx, gain;
  };
  std::vector<Ellipse> blobs(12);
  for (auto &b : blobs)
    b = {u01(g) * kRows, u01(g) * kCols, 80 + 400 * u01(g), 80 + 400 * u01(g),
         u01(g) < 0.6f ? 0.1f : 2.5f}; // cysts (dark) or lesions (bright)
  std::vector<float> sp(size_t(kRows) * kCols), J(sp.size());
  for (auto &v : sp)
    v = speckle(g);
  for (int r = 0; r < kRows; ++r)
    for (int k = 0; k < kCols; ++k) {
      float layer =
          1.0f + 0.5f * std::sin(r * 0.004f + 0.3f * std::sin(k * 0.002f));
      float tgc = 1.2f - 0.6f * r / kRows; // depth attenuation
      float echo = layer * tgc;
      for (const auto &b : blobs) {
        float dy = (r - b.y) / b.ry, dx = (k - b.x) / b.rx;
        if (dy * dy + dx * dx < 1)
          echo *= b.gain;
      }
      size_t p = size_t(r) * kCols + k, right = k + 1 < kCols ? p + 1 : p;
      float s = 0.5f * (sp[p] + sp[right]); // 2-pixel lateral correlation
      float db = 10 * std::log10(echo * s + 1e-3f); // ~ -30 .. +10 dB
      float I = std::fmin(std::fmax((db + 30) * (255.0f / 45), 0.0f), 255.0f);
      J[p] = std::exp(I / 255.0f);
    }
  // q0² = var/mean² of J over a homogeneous region of interest, as srad
  // takes it from a user-chosen ROI (here rows and columns 0-127).
  double sum = 0, sum2 = 0;
  for (int r = 0; r < 128; ++r)
    for (int k = 0; k < 128; ++k) {
      double v = J[size_t(r) * kCols + k];
      sum += v, sum2 += v * v;
    }
  double mean = sum / (128 * 128), var = sum2 / (128 * 128) - mean * mean;
  size_t bytes = size_t(kRows) * kCols * 4;
  apps::Problem p;
  p.buffers = {apps::Buffer::out("c", bytes),  apps::Buffer::out("dN", bytes),
               apps::Buffer::out("dS", bytes), apps::Buffer::out("dW", bytes),
               apps::Buffer::out("dE", bytes), apps::Buffer::input("J", J)};
  p.args = {apps::Arg::buf(0),
            apps::Arg::buf(1),
            apps::Arg::buf(2),
            apps::Arg::buf(3),
            apps::Arg::buf(4),
            apps::Arg::buf(5),
            apps::Arg::i32(kRows),
            apps::Arg::i32(kCols),
            apps::Arg::f32(float(var / (mean * mean)))};
  p.grid[0] = kCols / 32, p.grid[1] = kRows / 8;
  p.block[0] = 32, p.block[1] = 8;
  return p;
}

// Mean absolute error of the coefficient over its range [0, 1]: c weights
// the diffusion update (kernel 2 adds λ/4 · Σ c·d to J), so an absolute
// error is what reaches the image; c is 0 (clamped) or tiny at edges, where
// a relative error would blow up. The derivatives are exact in every build.
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  const float *r = apps::view<float>(ref, 0), *o = apps::view<float>(out, 0);
  size_t n = size_t(kRows) * kCols;
  double sum = 0;
  for (size_t i = 0; i < n; ++i) {
    double d = std::fabs(double(o[i]) - r[i]);
    if (!std::isfinite(d))
      return INFINITY;
    sum += d;
  }
  return sum / n;
}
} // namespace srd

AX_REGISTER_APP(
    {"srd", "srad", "Image Processing",
     "SRAD diffusion coefficients of a 4096 x 4096 ultrasound image",
     "srd_coefficient", "rcp, div",
     "mean absolute error of the diffusion coefficient (range 0-1)", false,
     srd::make, srd::error, (const void *)srd_coefficient, ax::setHandLambda});
#endif
