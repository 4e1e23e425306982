// mco.cu - MCO (Table 6): Monte-Carlo prices of European calls, one block per
// option over a shared set of normal samples, the CUDA SDK's MonteCarloKernel
// (MonteCarloOneBlockPerOption) rewritten for this suite.
#include "ax.cuh"

namespace mco {
constexpr int kThreads = 256; // the block size the reduction below assumes

// One thread's share of the paths of one option: the terminal price
// S·exp((r − σ²/2)T + σ√T·z) of each path, and the sum of the call payoffs.
// (r − σ²/2)T and σ√T are per-option constants the host prepares, as the SDK.
template <class M>
__device__ __forceinline__ void accumulate(float &sum, const float *z, float s,
                                           float x, float muByT, float vBySqrtT,
                                           int pathN) {
  float acc = 0;
  for (int p = threadIdx.x; p < pathN; p += blockDim.x) {
    float end = s * M::exp(muByT + vBySqrtT * z[p]);
    acc += fmaxf(end - x, 0.0f);
  }
  sum = acc;
}
} // namespace mco

extern "C" __global__ void mco_price(float *price, const float *s,
                                     const float *x, const float *muByT,
                                     const float *vBySqrtT, const float *disc,
                                     const float *z, int pathN) {
  __shared__ float part[mco::kThreads];
  const int opt = blockIdx.x;
  float sum;
  // The math is barrier-free; the tree reduction below is not, so only the
  // path loop is versioned.
  AX_VERSIONED(mco::accumulate, sum, z, s[opt], x[opt], muByT[opt],
               vBySqrtT[opt], pathN);
  part[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      part[threadIdx.x] += part[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) // discounted mean payoff: disc = exp(−rT) / pathN
    price[opt] = disc[opt] * part[0];
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace mco {
// 1024 options × 2^19 paths: 5·10^8 exp, about 0.3 ms on an H100 (the 2 MiB
// of samples stay in L2, each block streams them once).
constexpr int kOptions = 1024, kPaths = 1 << 19;

apps::Problem make(uint64_t seed) {
  // The SDK's ranges: spot 5..50, strike 10..25, expiry 1..5 years, r = 6%,
  // volatility 10%; standard normal samples shared by all options.
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> spot(5, 50), strike(10, 25),
      years(1, 5);
  std::normal_distribution<float> normal(0, 1);
  const float r = 0.06f, v = 0.10f;
  std::vector<float> s(kOptions), x(kOptions), mu(kOptions), sig(kOptions),
      disc(kOptions), z(kPaths);
  for (int i = 0; i < kOptions; ++i) {
    s[i] = spot(g), x[i] = strike(g);
    float t = years(g);
    mu[i] = (r - 0.5f * v * v) * t;
    sig[i] = v * std::sqrt(t);
    disc[i] = std::exp(-r * t) / kPaths; // no float division on the device
  }
  for (float &zi : z)
    zi = normal(g);
  apps::Problem p;
  p.buffers = {apps::Buffer::out("price", kOptions * 4),
               apps::Buffer::input("spot", s),
               apps::Buffer::input("strike", x),
               apps::Buffer::input("muByT", mu),
               apps::Buffer::input("vBySqrtT", sig),
               apps::Buffer::input("discount", disc),
               apps::Buffer::input("normals", z)};
  for (int b = 0; b < 7; ++b)
    p.args.push_back(apps::Arg::buf(b));
  p.args.push_back(apps::Arg::i32(kPaths));
  p.grid[0] = kOptions; // one block per option
  p.block[0] = kThreads;
  return p;
}

// The SDK's check: L1 relative error sum|Δ| / sum|ref| over the option
// prices (deep out-of-the-money options are worth ~0, where a per-option
// relative error would be dominated by noise).
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  return apps::normalisedL1Of(apps::view<float>(ref, 0), apps::view<float>(out, 0),
                              size_t(kOptions));
}
} // namespace mco

AX_REGISTER_APP({"mco", "MonteCarlo", "Compute Finance",
                 "Monte-Carlo prices of 1024 European calls over 2^19 paths",
                 "mco_price", "exp", "L1 relative error of the call prices",
                 false, mco::make, mco::error, (const void *)mco_price,
                 ax::setHandLambda});
#endif
