// metrics.cu - perforation-bench's GPU kernels for the error measurement at
// large sizes: mirror tiling of a photograph (pb_gather), the error sums
// (pb_metrics) and the SSIM map's sum (pb_ssim). prepare.sh compiles it to
// PTX (.carry/perforation-bench/kernels/bench_metrics.ptx); the bench loads
// it through the runtime with a manifest of its own. The per-thread work is
// in metrics-kernels.h, which the bench also runs on the CPU to check it;
// every kernel assumes blockDim.x == pbk::kThreads (the bench launches so).
#include "metrics-kernels.h"

using pbk::kThreads;

/// Sums `v` over the block into red[0] (kThreads doubles of shared memory).
__device__ __forceinline__ double blockSum(double v, double *red) {
  const int t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s)
      red[t] += red[t + s];
    __syncthreads();
  }
  return red[0];
}

/// dst[y * W + x] = src[rowMap[y] * srcW + colMap[x]] for y < H, x < W.
/// Grid: (ceil(W / 256), any); rows grid-strided.
extern "C" __global__ void pb_gather(const float *src, long long srcW,
                                     const int *rowMap, const int *colMap,
                                     float *dst, long long H, long long W) {
  const long long x = (long long)blockIdx.x * kThreads + threadIdx.x;
  if (x >= W)
    return;
  const long long sx = colMap[x];
  for (long long y = blockIdx.y; y < H; y += gridDim.y)
    dst[y * W + x] = src[(long long)rowMap[y] * srcW + sx];
}

/// partials[b * kFields + k]: block b's field k of ErrorAcc over the
/// elements i = b * 256 + t + j * gridDim.x * 256 < n.
extern "C" __global__ void pb_metrics(const float *ref, const float *out,
                                      long long n, double *partials) {
  __shared__ double red[pbk::kFields][kThreads];
  const int t = threadIdx.x;
  pbk::ErrorAcc a;
  pbk::accInit(a);
  const long long stride = (long long)gridDim.x * kThreads;
  // Unrolled so that several iterations' loads are in flight at once.
  PB_UNROLL4
  for (long long i = (long long)blockIdx.x * kThreads + t; i < n; i += stride)
    pbk::accAdd(a, ref[i], out[i]);
  double f[pbk::kFields];
  pbk::accStore(a, f);
  for (int k = 0; k < pbk::kFields; ++k)
    red[k][t] = f[k];
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (t < s) {
      pbk::ErrorAcc x, y;
      double fx[pbk::kFields], fy[pbk::kFields];
      for (int k = 0; k < pbk::kFields; ++k)
        fx[k] = red[k][t], fy[k] = red[k][t + s];
      pbk::accLoad(x, fx);
      pbk::accLoad(y, fy);
      pbk::accMerge(x, y);
      pbk::accStore(x, fx);
      for (int k = 0; k < pbk::kFields; ++k)
        red[k][t] = fx[k];
    }
    __syncthreads();
  }
  if (t < pbk::kFields)
    partials[(long long)blockIdx.x * pbk::kFields + t] = red[t][0];
}

/// partials[blockIdx.y * gridDim.x + blockIdx.x]: the sum of the SSIM map
/// over output rows [5 + blockIdx.y * band, min(that + band, H - 5)) and
/// output columns [5 + blockIdx.x * 246, +246) (and < W - 5). Thread t owns
/// column blockIdx.x * 246 + t: it keeps that column's 11 rows in a ring,
/// writes their vertical sums to shared memory, and threads 5..250 combine
/// their neighbours' sums. Grid: (ceil((W - 10) / 246), ceil((H - 10) /
/// band)); H, W >= 11. w: the 11 Gaussian weights.
extern "C" __global__ void pb_ssim(const float *ref, const float *out,
                                   long long H, long long W, const double *w,
                                   double c1, double c2, long long band,
                                   double *partials) {
  __shared__ double vs[5][kThreads];
  __shared__ double red[kThreads];
  const int t = threadIdx.x;
  double wt[pbk::kTaps];
  for (int d = 0; d < pbk::kTaps; ++d)
    wt[d] = w[d];
  const long long xc = (long long)blockIdx.x * pbk::kSsimCols + t;
  const bool inside = xc < W;
  const long long y0 = pbk::kRadius + (long long)blockIdx.y * band;
  const long long y1 =
      y0 + band < H - pbk::kRadius ? y0 + band : H - pbk::kRadius;
  pbk::VRing ring;
  pbk::ringClear(ring);
  for (long long y = y0 - pbk::kRadius; y < y0 + pbk::kRadius; ++y)
    pbk::ringPush(ring, inside ? ref[y * W + xc] : 0.0f,
                  inside ? out[y * W + xc] : 0.0f);
  double acc = 0;
  for (long long y = y0; y < y1; ++y) {
    const long long yn = y + pbk::kRadius;
    pbk::ringPush(ring, inside ? ref[yn * W + xc] : 0.0f,
                  inside ? out[yn * W + xc] : 0.0f);
    double m[5];
    pbk::ringFilter(ring, wt, m);
    for (int k = 0; k < 5; ++k)
      vs[k][t] = m[k];
    __syncthreads();
    if (t >= pbk::kRadius && t < kThreads - pbk::kRadius &&
        xc < W - pbk::kRadius)
      acc += pbk::ssimPoint(vs, t, wt, c1, c2);
    __syncthreads();
  }
  const double s = blockSum(acc, red);
  if (t == 0)
    partials[(long long)blockIdx.y * gridDim.x + blockIdx.x] = s;
}
