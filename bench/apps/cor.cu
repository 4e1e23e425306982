// cor.cu - COR (Table 6): the column statistics and normalisation that turn
// a data matrix into the input of its correlation matrix (double precision),
// PolyBench correlation's mean/std/reduce kernels rewritten for this suite.
#include "ax.cuh"

namespace cor {
constexpr double kEps = 0.1; // PolyBench's floor: a flat column gets std 1
// Block: kTileCols columns × kRowThreads row threads; each thread strides
// down its column.
constexpr int kTileCols = 16, kRowThreads = 32;

// One column's mean and standard deviation, from the block's per-thread
// partial sums (one value a column, reduced in shared memory).
template <class M>
__device__ __forceinline__ void mean(double *m, double sum, double n) {
  *m = M::div(sum, n);
}
template <class M>
__device__ __forceinline__ void stddev(double *s, double sumSq, double n) {
  double v = M::sqrt(M::div(sumSq, n));
  *s = v <= kEps ? 1.0 : v;
}

// reduce_kernel's work on this thread's rows of column j: centre and scale,
// (x − mean) / (sqrt(n) · std), so that Σ_i x_i,a x_i,b is the correlation.
template <class M>
__device__ __forceinline__ void
normalise(double *out, const double *data, int rows, int cols, int j, int i0,
          int di, double mu, double sd, double n) {
  for (int i = i0; i < rows; i += di) {
    size_t p = size_t(i) * cols + j;
    out[p] = M::div(data[p] - mu, M::sqrt(n) * sd);
  }
}
} // namespace cor

// Two passes (sum, then squared deviations) reduced per column in shared
// memory, then the normalisation; the reductions and barriers stay outside
// the versioned regions.
extern "C" __global__ void cor_normalise(double *out, double *stdOut,
                                         const double *data, int rows,
                                         int cols) {
  using namespace cor;
  __shared__ double part[kRowThreads][kTileCols];
  __shared__ double colMean[kTileCols], colStd[kTileCols];
  int tx = threadIdx.x, ty = threadIdx.y;
  int j = blockIdx.x * kTileCols + tx;
  double n = rows, mu = 0, sd = 1;
  for (int pass = 0; pass < 2; ++pass) {
    double acc = 0;
    if (j < cols)
      for (int i = ty; i < rows; i += kRowThreads) {
        double v = data[size_t(i) * cols + j];
        acc += pass == 0 ? v : (v - mu) * (v - mu);
      }
    part[ty][tx] = acc;
    __syncthreads();
    if (ty == 0) {
      double sum = 0;
      for (int k = 0; k < kRowThreads; ++k)
        sum += part[k][tx];
      if (pass == 0)
        AX_VERSIONED(cor::mean, &colMean[tx], sum, n);
      else
        AX_VERSIONED(cor::stddev, &colStd[tx], sum, n);
    }
    __syncthreads();
    if (pass == 0)
      mu = colMean[tx];
    __syncthreads(); // part[][] is rewritten by the next pass
  }
  sd = colStd[tx];
  if (j < cols) {
    if (ty == 0)
      stdOut[j] = sd;
    AX_VERSIONED(cor::normalise, out, data, rows, cols, j, ty, kRowThreads, mu,
                 sd, n);
  }
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace cor {
// 4096 observations × 4096 variables (PolyBench's EXTRALARGE is 3000 × 2600):
// 128 MiB read three times and written once, ~0.2-0.3 ms on an H100,
// memory-bound. (The correlation matrix, data^T·data, is a DGEMM with no
// division or sqrt; it is not part of this kernel.)
constexpr int kRows = 4096, kCols = 4096, kFactors = 6;

apps::Problem make(uint64_t seed) {
  // Variables driven by a few latent factors plus their own noise, each with
  // its own unit and offset (like sensor channels or returns of assets):
  // x_ij = offset_j + scale_j · (Σ_f L_jf F_if + e_ij). A few columns are
  // nearly constant (std below PolyBench's 0.1 floor).
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  std::normal_distribution<double> nrm(0, 1);
  std::vector<double> F(size_t(kRows) * kFactors), L(size_t(kCols) * kFactors);
  std::vector<double> off(kCols), scale(kCols);
  for (auto &f : F)
    f = nrm(g);
  for (auto &l : L)
    l = 0.5 * nrm(g);
  for (int j = 0; j < kCols; ++j) {
    off[j] = 200 * (u01(g) - 0.5);
    scale[j] = u01(g) < 0.01 ? 0.01 : std::pow(10.0, 2 * u01(g) - 1);
  }
  std::vector<double> data(size_t(kRows) * kCols);
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kCols; ++j) {
      double v = nrm(g);
      for (int f = 0; f < kFactors; ++f)
        v += L[size_t(j) * kFactors + f] * F[size_t(i) * kFactors + f];
      data[size_t(i) * kCols + j] = off[j] + scale[j] * v;
    }
  apps::Problem p;
  p.buffers = {apps::Buffer::out("normalised", data.size() * 8),
               apps::Buffer::out("stddev", size_t(kCols) * 8),
               apps::Buffer::input("data", data)};
  p.args = {apps::Arg::buf(0), apps::Arg::buf(1), apps::Arg::buf(2),
            apps::Arg::i32(kRows), apps::Arg::i32(kCols)};
  p.grid[0] = (kCols + kTileCols - 1) / kTileCols;
  p.block[0] = kTileCols, p.block[1] = kRowThreads;
  return p;
}

// Normalised L1 error of the normalised matrix, Σ|out − ref| / Σ|ref|: its
// entries straddle 0 (x − mean), where a per-entry relative error is
// ill-conditioned. The normalised columns are what the correlation sums;
// its entries' error is the same order.
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  return apps::normalisedL1Of(apps::view<double>(ref, 0), apps::view<double>(out, 0),
                              size_t(kRows) * kCols);
}
} // namespace cor

AX_REGISTER_APP({"cor", "corr", "Linear algebra",
                 "column mean, std and normalisation of a 4096 x 4096 matrix",
                 "cor_normalise", "div, sqrt",
                 "normalised L1 error of the normalised data matrix", true,
                 cor::make, cor::error, (const void *)cor_normalise,
                 ax::setHandLambda});
#endif
