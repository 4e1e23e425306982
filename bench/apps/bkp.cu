// bkp.cu - BKP (Table 6): the hidden layer of a 2-layer perceptron, forward
// pass of a batch of 64 x 64 images (weighted sums reduced in shared memory,
// then the sigmoid), Rodinia backprop's layerforward rewritten for this suite.
#include "ax.cuh"

namespace bkp {
// backprop's 16 hidden units and 16 x 16 thread blocks.
constexpr int kHidden = 16, kTile = 16;
constexpr float kE = 2.71828182845904524f;

// The reduction's depth and strides come from log and pow, as in
// layerforward (log2 of the tile height, 2^level), rounded to int: an SFU
// result a few ulp below 4.0 must not truncate to 3 and drop a level.
template <class M> __device__ __forceinline__ void depth(int *n, int rows) {
  *n = __float2int_rn(M::log(float(rows)) * 1.44269504088896341f);
}
template <class M> __device__ __forceinline__ void stride(int *p, int level) {
  *p = __float2int_rn(M::pow(2.0f, float(level)));
}
// The squashing function 1 / (1 + e^−x), with e^−x and the reciprocal as
// pow (so the layer's math is Table 6's pow and log only).
template <class M> __device__ __forceinline__ void squash(float *h, float x) {
  *h = M::pow(1.0f + M::pow(kE, -x), -1.0f);
}
} // namespace bkp

// One block per image, thread (tx, ty) = (hidden unit, row of the input
// tile). Per tile of 16 inputs: each thread forms input·weight in shared
// memory, a log2(16)-level tree sums the tile's rows, and row 0 keeps the
// running total; then h = sigmoid(total + bias). Barriers stay outside the
// versioned regions.
extern "C" __global__ void bkp_layerforward(float *hidden, const float *input,
                                            const float *weight,
                                            const float *bias, int nIn) {
  __shared__ float prod[bkp::kTile][bkp::kHidden];
  int tx = threadIdx.x, ty = threadIdx.y;
  const float *x = input + size_t(blockIdx.x) * nIn;
  int levels;
  AX_VERSIONED(bkp::depth, &levels, int(blockDim.y));
  float total = 0;
  for (int t = 0; t < nIn; t += bkp::kTile) {
    prod[ty][tx] = x[t + ty] * weight[size_t(t + ty) * bkp::kHidden + tx];
    __syncthreads();
    for (int l = 1; l <= levels; ++l) {
      int p;
      AX_VERSIONED(bkp::stride, &p, l);
      if (ty % p == 0)
        prod[ty][tx] += prod[ty + p / 2][tx];
      __syncthreads();
    }
    if (ty == 0) // prod[0][tx] is rewritten next tile by this thread only
      total += prod[0][tx];
  }
  if (ty == 0)
    AX_VERSIONED(bkp::squash, &hidden[size_t(blockIdx.x) * bkp::kHidden + tx],
                 total + bias[tx]);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace bkp {
// 2048 images of 4096 pixels (backprop runs one 65536-input sample; a batch
// gives a launch worth timing): 256 tiles per block, each with four pow and
// five barriers, ~1 ms on an H100 with the precise pow; 32 MiB of input.
constexpr int kImages = 2048, kSide = 64, kIn = kSide * kSide;

apps::Problem make(uint64_t seed) {
  // Images: dark background, 2-5 bright Gaussian strokes/blobs of random
  // size and brightness, sensor noise, clipped to [0, 1]. Weights: a
  // Glorot-uniform initialisation (±sqrt(6 / (fan-in + fan-out))) and small
  // biases, so the pre-activations fall in about [−3, 3], sigmoid's
  // non-saturated range.
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> u01(0, 1);
  std::normal_distribution<float> noise(0, 0.02f);
  std::vector<float> in(size_t(kImages) * kIn), fx(kSide), fy(kSide);
  for (int im = 0; im < kImages; ++im) {
    float *px = &in[size_t(im) * kIn];
    for (int i = 0; i < kIn; ++i)
      px[i] = 0.05f + noise(g);
    int blobs = 2 + int(4 * u01(g));
    for (int b = 0; b < blobs; ++b) {
      float cx = kSide * u01(g), cy = kSide * u01(g),
            amp = 0.5f + 0.5f * u01(g);
      float sx = 2 + 10 * u01(g), sy = 2 + 10 * u01(g); // elongated: strokes
      for (int k = 0; k < kSide; ++k) {
        fx[k] = std::exp(-0.5f * (k - cx) * (k - cx) / (sx * sx));
        fy[k] = amp * std::exp(-0.5f * (k - cy) * (k - cy) / (sy * sy));
      }
      for (int r = 0; r < kSide; ++r)
        for (int c = 0; c < kSide; ++c)
          px[r * kSide + c] += fy[r] * fx[c];
    }
    for (int i = 0; i < kIn; ++i)
      px[i] = std::fmin(std::fmax(px[i], 0.0f), 1.0f);
  }
  const float lim = std::sqrt(6.0f / (kIn + kHidden));
  std::vector<float> w(size_t(kIn) * kHidden), b(kHidden);
  for (auto &v : w)
    v = lim * (2 * u01(g) - 1);
  for (auto &v : b)
    v = 0.1f * (2 * u01(g) - 1);
  apps::Problem p;
  p.buffers = {apps::Buffer::out("hidden", size_t(kImages) * kHidden * 4),
               apps::Buffer::input("input", in),
               apps::Buffer::input("weight", w),
               apps::Buffer::input("bias", b)};
  p.args = {apps::Arg::buf(0), apps::Arg::buf(1), apps::Arg::buf(2),
            apps::Arg::buf(3), apps::Arg::i32(kIn)};
  p.grid[0] = kImages;
  p.block[0] = kHidden, p.block[1] = kTile;
  return p;
}

// Mean relative error of the hidden activations (all in (0, 1), away from
// 0: the relative error is well conditioned).
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  return apps::meanRelativeOf(apps::view<float>(ref, 0),
                              apps::view<float>(out, 0), kImages * kHidden);
}
} // namespace bkp

AX_REGISTER_APP({"bkp", "backprop", "Machine Learning",
                 "hidden layer (16 sigmoid units) of 2048 64 x 64 images",
                 "bkp_layerforward", "pow, log",
                 "mean relative error of the hidden activations", false,
                 bkp::make, bkp::error, (const void *)bkp_layerforward,
                 ax::setHandLambda});
#endif
