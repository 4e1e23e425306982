// bla.cu - BLA (Table 6): Black-Scholes European call and put prices of a
// book of options, the CUDA SDK's BlackScholesGPU rewritten for this suite.
#include "ax.cuh"

namespace bla {
// Cumulative normal distribution, Abramowitz-Stegun 26.2.17 polynomial.
template <class M> __device__ __forceinline__ float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
              a4 = -1.821255978f, a5 = 1.330274429f,
              rsqrt2pi = 0.39894228040143267793994605993438f;
  float k = M::rcp(1.0f + 0.2316419f * fabsf(d));
  float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
  float c = rsqrt2pi * M::exp(-0.5f * d * d) * poly;
  return d > 0 ? 1.0f - c : c;
}

template <class M>
__device__ __forceinline__ void price(float *call, float *put, const float *s,
                                      const float *x, const float *t, float r,
                                      float v, int i) {
  float sqrtT = M::sqrt(t[i]);
  float d1 = M::div(M::log(M::div(s[i], x[i])) + (r + 0.5f * v * v) * t[i],
                    v * sqrtT);
  float d2 = d1 - v * sqrtT;
  float xe = x[i] * M::exp(-r * t[i]);
  float c1 = cnd<M>(d1), c2 = cnd<M>(d2);
  call[i] = s[i] * c1 - xe * c2;
  put[i] = xe * (1.0f - c2) - s[i] * (1.0f - c1);
}
} // namespace bla

extern "C" __global__ void bla_price(float *call, float *put, const float *s,
                                     const float *x, const float *t, float r,
                                     float v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    AX_VERSIONED(bla::price, call, put, s, x, t, r, v, i);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <random>

namespace bla {
constexpr int kOptions = 1 << 24;

apps::Problem make(uint64_t seed) {
  // The SDK's ranges: spot 5..30, strike 1..100, expiry 0.25..10 years.
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> spot(5, 30), strike(1, 100),
      years(0.25f, 10);
  std::vector<float> s(kOptions), x(kOptions), t(kOptions);
  for (int i = 0; i < kOptions; ++i)
    s[i] = spot(g), x[i] = strike(g), t[i] = years(g);
  apps::Problem p;
  p.buffers = {apps::Buffer::out("call", kOptions * 4),
               apps::Buffer::out("put", kOptions * 4),
               apps::Buffer::input("spot", s), apps::Buffer::input("strike", x),
               apps::Buffer::input("years", t)};
  p.args = {apps::Arg::buf(0), apps::Arg::buf(1), apps::Arg::buf(2),
            apps::Arg::buf(3), apps::Arg::buf(4), apps::Arg::f32(0.02f),
            apps::Arg::f32(0.30f), apps::Arg::i32(kOptions)};
  p.grid[0] = 480; // the SDK's grid: a grid-stride loop over the book
  p.block[0] = 128;
  return p;
}

// The SDK's check: mean relative error of the call prices (plus puts).
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  return 0.5 * (apps::meanRelativeOf(apps::view<float>(ref, 0),
                                     apps::view<float>(out, 0), kOptions) +
                apps::meanRelativeOf(apps::view<float>(ref, 1),
                                     apps::view<float>(out, 1), kOptions));
}
} // namespace bla

AX_REGISTER_APP({"bla", "BlackScholes", "Compute Finance",
                 "Black-Scholes call and put prices of 16M European options",
                 "bla_price", "sqrt, div, log, exp, rcp",
                 "mean relative error of call and put prices", false,
                 bla::make, bla::error, (const void *)bla_price,
                 ax::setHandLambda});
#endif
