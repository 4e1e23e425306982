// gus.cu - GUS (Table 6): the elimination multipliers m[i][t] = a[i][t] /
// a[t][t] of a dense diagonally dominant system for a band of pivot columns
// t, Rodinia gaussian's Fan1 kernel rewritten for this suite.
#include "ax.cuh"

namespace gus {
// Fan1 for pivot columns t0 .. t0+band-1 and row i: the multiplier below the
// diagonal, 0 on and above it (as gaussian's zero-initialised m). Row-major
// a and m, one row per thread: the column walk is strided across the warp,
// as in Fan1, and each thread reuses its row's sectors over the band.
template <class M>
__device__ __forceinline__ void multipliers(float *m, const float *a, int n,
                                            int t0, int band, int i) {
  const float *row = a + size_t(i) * n;
  float *mrow = m + size_t(i) * n;
  for (int t = t0; t < t0 + band; ++t)
    mrow[t] = i > t ? M::div(row[t], a[size_t(t) * n + t]) : 0.0f;
}
} // namespace gus

// Gaussian calls Fan1 once per step t with one thread per row; a single step
// moves n·4 bytes (a few µs even for n = 8192), too short to time. Here
// blockIdx.y picks a band of `band` pivot columns and the launch covers every
// column of the matrix: the same per-element work and access pattern as the
// n−1 Fan1 launches of a solve, each step's multipliers taken from the
// current matrix (the input; Fan2's updates between steps are another kernel).
extern "C" __global__ void gus_fan1(float *m, const float *a, int n, int band) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t0 = blockIdx.y * band;
  if (i < n)
    AX_VERSIONED(gus::multipliers, m, a, n, t0, min(band, n - t0), i);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace gus {
// n = 6144: a and m are 144 MiB each, 300 MB of strided traffic, ~0.2 ms on
// an H100 (gaussian's inputs reach n = 4096-16384), memory-bound.
constexpr int kN = 6144, kBand = 64, kBlock = 256;

apps::Problem make(uint64_t seed) {
  // Like gaussian's generated systems: off-diagonal entries decaying away
  // from the diagonal (a[i][j] ~ 10·e^{-0.01|i-j|}, random sign and ±50%),
  // and a diagonal that dominates its row by 10-60%.
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> u01(0, 1);
  std::vector<float> decay(kN);
  for (int d = 0; d < kN; ++d)
    decay[d] = 10.0f * std::exp(-0.01f * d);
  std::vector<float> a(size_t(kN) * kN);
  for (int i = 0; i < kN; ++i) {
    float *row = &a[size_t(i) * kN];
    double off = 0;
    for (int j = 0; j < kN; ++j) {
      if (j == i)
        continue;
      float u = u01(g); // one draw: sign, and a factor 0.5-1.5
      float s = u < 0.5f ? -(0.5f + 2 * u) : 0.5f + 2 * (u - 0.5f);
      row[j] = s * decay[std::abs(i - j)];
      off += std::fabs(row[j]);
    }
    row[i] = float(off * (1.1 + 0.5 * u01(g))) * (u01(g) < 0.2f ? -1 : 1);
  }
  apps::Problem p;
  p.buffers = {apps::Buffer::out("m", size_t(kN) * kN * 4),
               apps::Buffer::input("a", a)};
  p.args = {apps::Arg::buf(0), apps::Arg::buf(1), apps::Arg::i32(kN),
            apps::Arg::i32(kBand)};
  p.grid[0] = (kN + kBlock - 1) / kBlock;
  p.grid[1] = (kN + kBand - 1) / kBand;
  p.block[0] = kBlock;
  return p;
}

// Mean relative error of the multipliers below the diagonal (the zeros on
// and above it are not computed, only stored; all multipliers are nonzero).
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  const float *r = apps::view<float>(ref, 0), *o = apps::view<float>(out, 0);
  double sum = 0;
  for (int i = 1; i < kN; ++i)
    sum += apps::meanRelativeOf(r + size_t(i) * kN, o + size_t(i) * kN, i) * i;
  return sum / (double(kN) * (kN - 1) / 2);
}
} // namespace gus

AX_REGISTER_APP({"gus", "gaussian", "Linear algebra",
                 "Fan1 multipliers of a 6144 x 6144 system, every pivot column",
                 "gus_fan1", "div",
                 "mean relative error of the multipliers below the diagonal",
                 false, gus::make, gus::error, (const void *)gus_fan1,
                 ax::setHandLambda});
#endif
