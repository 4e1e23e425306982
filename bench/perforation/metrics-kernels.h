// metrics-kernels.h - the per-thread work of perforation-bench's GPU error
// metrics, shared by the device code (bench/perforation/metrics.cu, compiled
// to PTX by prepare.sh) and the host (error-metrics.cpp, which replays
// the kernels' loops on the CPU with these same functions to check them
// against runtime/tune/ImageMetrics.h without a GPU: --self-test).
//
// Three kernels (metrics.cu), 256 threads a block:
//   pb_gather   dst[y][x] = src[rowMap[y]][colMap[x]]: a photograph
//               mirror-tiled to the benchmark's size (the maps are built on
//               the host by mirrorMap);
//   pb_metrics  per block, the sums of ErrorAcc over a grid-stride range of
//               (reference, output) pairs: |d|, d^2, |d|/|ref| where
//               |ref| > 1e-3, the reference's min and max, the non-finite
//               counts; the host adds the blocks' partials in order and
//               finishes mean relative error, mean error over the range and
//               PSNR (finishMetrics in error-metrics.cpp);
//   pb_ssim     per block, the sum of the SSIM map over a band of rows and
//               246 columns: each thread keeps the 11 rows of one column in
//               registers (VRing), filters them vertically into shared
//               memory, and the block filters horizontally (ssimPoint).
// Everything is computed in double from the f32 images, in the order
// ImageMetrics.cpp uses (per element identical up to FMA contraction; the
// sums differ only in their order).
#ifndef APPROX_BENCH_PERFORATION_METRICS_KERNELS_H
#define APPROX_BENCH_PERFORATION_METRICS_KERNELS_H

#if defined(__CUDACC__) || defined(__CUDA__)
#define PB_HD __host__ __device__ __forceinline__
#define PB_UNROLL _Pragma("unroll")
#define PB_UNROLL4 _Pragma("unroll 4")
#else
#define PB_HD inline
#define PB_UNROLL
#define PB_UNROLL4
#endif

namespace pbk {

/// Threads per block of every kernel (the shared arrays are sized by it).
constexpr int kThreads = 256;
/// SSIM's Gaussian radius (sigma 1.5, truncate 3.5: int(3.5*1.5+0.5) = 5)
/// and taps.
constexpr int kRadius = 5;
constexpr int kTaps = 2 * kRadius + 1;
/// pb_ssim: output columns per block (the other 10 threads only load halo).
constexpr int kSsimCols = kThreads - 2 * kRadius;
/// meanRelativeError's near-zero cut (|ref| <= this is left out).
constexpr double kNearZero = 1e-3;

PB_HD bool isNan(double v) { return v != v; }
PB_HD bool isFinite(double v) { return v == v && v - v == 0; }
PB_HD double absd(double v) { return v < 0 ? -v : v; }

/// What pb_metrics sums per element; kFields doubles in this order.
struct ErrorAcc {
  double sumAbs; ///< sum |out - ref| (finite pairs)
  double sumSq;  ///< sum (ref - out)^2
  double sumRel; ///< sum |out - ref| / |ref| over |ref| > kNearZero
  double used;   ///< elements in sumRel
  double nanOut; ///< NaN outputs (unwritten: the output is poisoned)
  double infOut; ///< infinite outputs
  double badRef; ///< non-finite references
  double lo, hi; ///< min and max of the finite references
};
constexpr int kFields = 9;

PB_HD void accInit(ErrorAcc &a) {
  a.sumAbs = a.sumSq = a.sumRel = a.used = 0;
  a.nanOut = a.infOut = a.badRef = 0;
  a.lo = 1.0 / 0.0;
  a.hi = -1.0 / 0.0;
}

/// One (reference, output) pair; the ops of ImageMetrics.cpp on doubles.
/// A NaN output counts as unwritten whatever the reference.
PB_HD void accAdd(ErrorAcc &a, float refF, float outF) {
  const double r = refF, g = outF;
  const bool rf = isFinite(r), gf = isFinite(g);
  if (!gf) {
    if (isNan(g))
      a.nanOut += 1;
    else
      a.infOut += 1;
  }
  if (!rf) {
    a.badRef += 1;
  } else {
    a.lo = r < a.lo ? r : a.lo;
    a.hi = r > a.hi ? r : a.hi;
  }
  if (!rf || !gf)
    return;
  const double ad = absd(g - r);
  const double d = r - g;
  a.sumAbs += ad;
  a.sumSq += d * d;
  if (absd(r) > kNearZero) {
    a.sumRel += ad / absd(r);
    a.used += 1;
  }
}

PB_HD void accMerge(ErrorAcc &a, const ErrorAcc &b) {
  a.sumAbs += b.sumAbs;
  a.sumSq += b.sumSq;
  a.sumRel += b.sumRel;
  a.used += b.used;
  a.nanOut += b.nanOut;
  a.infOut += b.infOut;
  a.badRef += b.badRef;
  a.lo = b.lo < a.lo ? b.lo : a.lo;
  a.hi = b.hi > a.hi ? b.hi : a.hi;
}

PB_HD void accStore(const ErrorAcc &a, double *f) {
  f[0] = a.sumAbs, f[1] = a.sumSq, f[2] = a.sumRel, f[3] = a.used;
  f[4] = a.nanOut, f[5] = a.infOut, f[6] = a.badRef, f[7] = a.lo, f[8] = a.hi;
}

PB_HD void accLoad(ErrorAcc &a, const double *f) {
  a.sumAbs = f[0], a.sumSq = f[1], a.sumRel = f[2], a.used = f[3];
  a.nanOut = f[4], a.infOut = f[5], a.badRef = f[6], a.lo = f[7], a.hi = f[8];
}

/// The blocks' partial sums (kFields doubles each, as pb_metrics writes
/// them) merged into one.
inline ErrorAcc accMergeParts(const double *parts, unsigned blocks) {
  ErrorAcc a;
  accInit(a);
  for (unsigned b = 0; b < blocks; ++b) {
    ErrorAcc x;
    accLoad(x, parts + size_t(b) * kFields);
    accMerge(a, x);
  }
  return a;
}

/// The 11 rows of one column around the current output row (slot 0 the
/// topmost), as a register ring: push shifts up and appends at the bottom.
struct VRing {
  float r[kTaps], g[kTaps];
};

PB_HD void ringClear(VRing &v) {
  PB_UNROLL
  for (int i = 0; i < kTaps; ++i)
    v.r[i] = 0, v.g[i] = 0;
}

PB_HD void ringPush(VRing &v, float r, float g) {
  PB_UNROLL
  for (int i = 0; i + 1 < kTaps; ++i)
    v.r[i] = v.r[i + 1], v.g[i] = v.g[i + 1];
  v.r[kTaps - 1] = r, v.g[kTaps - 1] = g;
}

/// The vertical pass of SSIM's five Gaussian filters at the ring's centre
/// row: x, y, x*x, y*y, x*y (x the reference), each sum(w[d] * p[d]) in the
/// order of ImageMetrics.cpp's gaussianFilter (d = -5..5).
PB_HD void ringFilter(const VRing &v, const double *w, double *m) {
  double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
  PB_UNROLL
  for (int d = 0; d < kTaps; ++d) {
    const double x = v.r[d], y = v.g[d];
    sx += w[d] * x;
    sy += w[d] * y;
    sxx += w[d] * (x * x);
    syy += w[d] * (y * y);
    sxy += w[d] * (x * y);
  }
  m[0] = sx, m[1] = sy, m[2] = sxx, m[3] = syy, m[4] = sxy;
}

/// The SSIM map at the column of thread t (kRadius <= t < kThreads -
/// kRadius): the horizontal pass over the vertical sums of columns
/// t-5..t+5 (vs[k][...], k as ringFilter's m), then Wang et al.'s formula
/// with population (co)variances, as ImageMetrics.cpp's ssim.
PB_HD double ssimPoint(const double (*vs)[kThreads], int t, const double *w,
                       double c1, double c2) {
  double ux = 0, uy = 0, uxx = 0, uyy = 0, uxy = 0;
  PB_UNROLL
  for (int d = 0; d < kTaps; ++d) {
    const int c = t - kRadius + d;
    ux += w[d] * vs[0][c];
    uy += w[d] * vs[1][c];
    uxx += w[d] * vs[2][c];
    uyy += w[d] * vs[3][c];
    uxy += w[d] * vs[4][c];
  }
  const double vx = uxx - ux * ux;
  const double vy = uyy - uy * uy;
  const double vxy = uxy - ux * uy;
  const double a1 = 2 * ux * uy + c1, a2 = 2 * vxy + c2;
  const double b1 = ux * ux + uy * uy + c1, b2 = vx + vy + c2;
  return (a1 * a2) / (b1 * b2);
}

} // namespace pbk

#endif // APPROX_BENCH_PERFORATION_METRICS_KERNELS_H
