// bif.cu - BIF (Table 6): edge-preserving bilateral smoothing of a noisy
// RGBA photograph-like image, the CUDA SDK's d_bilateral_filter rewritten
// for this suite.
#include "ax.cuh"

namespace bif {
// One output pixel: over the (2r+1)² window (borders clamped, as the SDK's
// texture), weight w = exp(−|Δp|²/2σs² − |ΔRGB|²/2σr²), the spatial and the
// range Gaussian in one exp (the SDK multiplies a spatial table by an
// __expf of the range term); result Σ w·pixel / Σ w. The coefficients come
// in as −1/2σ² so the window holds no division.
template <class M>
__device__ __forceinline__ void filter(float4 *out, const float4 *in, int w,
                                       int h, int r, float cs, float cr, int x,
                                       int y) {
  float4 c = in[size_t(y) * w + x];
  float sr = 0, sg = 0, sb = 0, sw = 0;
  for (int dy = -r; dy <= r; ++dy) {
    const float4 *row = in + size_t(min(max(y + dy, 0), h - 1)) * w;
    for (int dx = -r; dx <= r; ++dx) {
      float4 p = row[min(max(x + dx, 0), w - 1)];
      float er = p.x - c.x, eg = p.y - c.y, eb = p.z - c.z;
      float wt = M::exp(cs * float(dx * dx + dy * dy) +
                        cr * (er * er + eg * eg + eb * eb));
      sr += wt * p.x, sg += wt * p.y, sb += wt * p.z, sw += wt;
    }
  }
  out[size_t(y) * w + x] =
      make_float4(M::div(sr, sw), M::div(sg, sw), M::div(sb, sw), c.w);
}
} // namespace bif

extern "C" __global__ void bif_filter(float4 *out, const float4 *in, int w,
                                      int h, int r, float cs, float cr) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    AX_VERSIONED(bif::filter, out, in, w, h, r, cs, cr, x, y);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace bif {
// 2048 x 2048 RGBA, the SDK's default radius 5 (121 taps): 0.5G exp, ~0.5 ms
// on an H100 with the precise exp, compute-bound as the SDK's kernel.
constexpr int kW = 2048, kH = 2048, kRadius = 5;
constexpr float kSigmaS = 3.0f, kSigmaR = 0.1f; // pixels; RGB distance in [0,1]

apps::Problem make(uint64_t seed) {
  // A synthetic scene: a sky-to-ground colour gradient, a few flat-shaded
  // discs and rectangles with sharp edges and their own soft shading, a
  // fine texture, and Gaussian sensor noise (σ 0.04) — what the filter is
  // for: smooth the noise and texture, keep the edges.
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> u01(0, 1);
  std::normal_distribution<float> noise(0, 0.04f);
  struct Shape {
    bool disc;
    float x, y, a, b, r, g, bl;
  };
  std::vector<Shape> shapes(24);
  for (auto &s : shapes)
    s = {u01(g) < 0.5f,     u01(g) * kW, u01(g) * kH, 40 + 300 * u01(g),
         40 + 300 * u01(g), u01(g),      u01(g),      u01(g)};
  std::vector<float4> img(size_t(kW) * kH);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      float t = float(y) / kH;
      float c[3] = {0.4f + 0.3f * t, 0.6f + 0.1f * t, 0.9f - 0.6f * t};
      for (const auto &s : shapes) {
        float dx = (x - s.x) / s.a, dy = (y - s.y) / s.b;
        bool in = s.disc ? dx * dx + dy * dy < 1
                         : std::fabs(dx) < 1 && std::fabs(dy) < 1;
        if (in) {
          float shade = 0.8f + 0.2f * dx; // lit from the right
          c[0] = s.r * shade, c[1] = s.g * shade, c[2] = s.bl * shade;
        }
      }
      float tex = 0.03f * std::sin(0.7f * x) * std::sin(0.9f * y);
      float v[3];
      for (int k = 0; k < 3; ++k)
        v[k] = std::fmin(std::fmax(c[k] + tex + noise(g), 0.0f), 1.0f);
      img[size_t(y) * kW + x] = {v[0], v[1], v[2], 1.0f};
    }
  apps::Problem p;
  p.buffers = {apps::Buffer::out("out", size_t(kW) * kH * 16),
               apps::Buffer::input("in", img)};
  p.args = {apps::Arg::buf(0),
            apps::Arg::buf(1),
            apps::Arg::i32(kW),
            apps::Arg::i32(kH),
            apps::Arg::i32(kRadius),
            apps::Arg::f32(-0.5f / (kSigmaS * kSigmaS)),
            apps::Arg::f32(-0.5f / (kSigmaR * kSigmaR))};
  p.grid[0] = kW / 16, p.grid[1] = kH / 16; // the SDK's 16 x 16 blocks
  p.block[0] = 16, p.block[1] = 16;
  return p;
}

// Mean absolute error of the RGB channels over their value range [0, 1]
// (the SDK compares images by their pixel differences; PSNR would be
// infinite at λ = 0 and is a log of the mean squared error anyway).
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  const float4 *r = apps::view<float4>(ref, 0), *o = apps::view<float4>(out, 0);
  size_t n = size_t(kW) * kH;
  double sum = 0;
  for (size_t i = 0; i < n; ++i) {
    double d = std::fabs(double(o[i].x) - r[i].x) +
               std::fabs(double(o[i].y) - r[i].y) +
               std::fabs(double(o[i].z) - r[i].z);
    if (!std::isfinite(d))
      return INFINITY;
    sum += d;
  }
  return sum / (3.0 * n);
}
} // namespace bif

AX_REGISTER_APP(
    {"bif", "bilateralFilter", "Image processing",
     "bilateral filter (radius 5) of a noisy 2048 x 2048 RGBA image",
     "bif_filter", "div, exp",
     "mean absolute error of RGB over the value range [0, 1]", false, bif::make,
     bif::error, (const void *)bif_filter, ax::setHandLambda});
#endif
