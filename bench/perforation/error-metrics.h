// error-metrics.h - how perforation-bench measures a version's error
// against the direct kernel's output: mean relative error, mean error over
// the reference's range, PSNR and SSIM, by three routes that must agree up
// to the order of a sum: the definitions (runtime/tune/ImageMetrics.h, on
// the CPU: compareCpu), the GPU kernels of metrics.cu (GpuMetrics, which
// loads them through the runtime), and the CPU replay of those kernels'
// loops (replayCompare, for the self-test without a GPU).
#ifndef APPROX_BENCH_PERFORATION_ERROR_METRICS_H
#define APPROX_BENCH_PERFORATION_ERROR_METRICS_H

#include "inputs.h"
#include "metrics-kernels.h"
#include "support.h"

#include "approx/runtime/tune/ImageMetrics.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace pbench {

struct ErrorStats {
  double mre = NAN, meanError = NAN, psnr = NAN, ssim = NAN;
  bool unwritten = false; ///< NaN in the output (the poison left)
  bool nonfinite = false; ///< an infinite output or a non-finite reference
};

/// The metrics of `got` against `ref` by ImageMetrics.h (the definitions).
ErrorStats compareCpu(const std::vector<float> &ref,
                      const std::vector<float> &got, int64_t h, int64_t w,
                      bool image, bool withSsim = true);

/// ImageMetrics.cpp's SSIM Gaussian: exp(-x^2 / (2 * 1.5^2)), x = -5..5,
/// normalised to sum 1.
std::vector<double> ssimWeights();

/// The data range of PSNR and SSIM: the reference's, or 1 when constant.
double dataRange(const pbk::ErrorAcc &a);

/// Mean relative error, mean error over the range and PSNR from the sums
/// (ImageMetrics.h's formulas); SSIM is left to the caller.
ErrorStats finishMetrics(const pbk::ErrorAcc &a, int64_t n, bool image);

/// The rows of output a pb_ssim block covers, and the grid.
int64_t ssimBand(int64_t H);

Dim3 ssimGrid(int64_t H, int64_t W, int64_t band);

/// pb_metrics's loops on the CPU (same partition of the elements).
pbk::ErrorAcc replayMetrics(const float *ref, const float *out, int64_t n,
                            unsigned blocks);

/// pb_ssim's loops on the CPU: the mean of the SSIM map.
double replaySsim(const float *ref, const float *out, int64_t H, int64_t W,
                  const double *w, double c1, double c2, int64_t band);

/// The metrics by the kernels' CPU replay.
ErrorStats replayCompare(const std::vector<float> &ref,
                         const std::vector<float> &got, int64_t h, int64_t w,
                         bool image, unsigned blocks);

/// Equal up to the order of a sum of doubles (both NaN, or the same
/// infinity, count as equal).
bool sameValue(double a, double b);

/// "" when `got` matches `want` (the definitions), else what differs.
std::string mismatch(const ErrorStats &want, const ErrorStats &got);

/// The kernels of metrics.cu, loaded through the runtime with a manifest
/// written here (they take pointers and scalars only).
class GpuMetrics {
public:
  static std::unique_ptr<GpuMetrics> load(std::shared_ptr<Context> ctx,
                                          const std::string &ptxPath);

  unsigned metricBlocks() const { return blocks_; }
  /// Seconds spent in compare(): the sums, and SSIM.
  double secMetrics = 0, secSsim = 0;

  /// The manifest of metrics.cu's kernels: every parameter 8 bytes.
  static std::string manifest();

  /// dst (H x W) = src (h x w) mirror-tiled.
  void gather(const DeviceBuffer &src, int64_t h, int64_t w, DeviceBuffer &dst,
              int64_t H, int64_t W);

  /// The metrics of `out` against `ref` (h x w f32 on the device).
  ErrorStats compare(const DeviceBuffer &ref, const DeviceBuffer &out,
                     int64_t h, int64_t w, bool image, bool withSsim);

private:
  GpuMetrics() = default;

  /// Launches `kernel` with `args` + the partials buffer; its `count`
  /// doubles back on the host.
  std::vector<double> reduce(const char *kernel, Dim3 grid, size_t count,
                             std::vector<Arg> args);

  std::shared_ptr<Context> ctx_;
  std::unique_ptr<Module> mod_;
  DeviceBuffer weights_, partials_;
  unsigned blocks_ = 1;
};

} // namespace pbench

#endif // APPROX_BENCH_PERFORATION_ERROR_METRICS_H
