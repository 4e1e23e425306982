//===- ImageMetrics.h - Image quality: PSNR, SSIM, mean errors --*- C++ -*-===//
//
// The quality measures the perforation paper reports for its image
// benchmarks, over row-major images flattened to doubles: PSNR, SSIM as
// scikit-image computes it (structural_similarity with gaussian_weights=True,
// sigma=1.5, use_sample_covariance=False; Wang et al. 2004), the mean
// absolute error (the paper's "mean error" for Sobel) and a mean relative
// error that leaves out near-zero references and says how many.
//
// Every function refuses sizes that differ, empty inputs, a data range that
// is not positive and finite, and NaN or infinite values (an image metric of
// them means nothing), with one-line InvalidArgument errors.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_TUNE_IMAGEMETRICS_H
#define APPROX_RUNTIME_TUNE_IMAGEMETRICS_H

#include "approx/runtime/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace approx::rt {

/// Peak signal-to-noise ratio in dB: 10 log10(R^2 / MSE) with R =
/// `dataRange` (skimage's peak_signal_noise_ratio); +inf when the images
/// are identical.
Expected<double> psnr(const std::vector<double> &ref,
                      const std::vector<double> &out, double dataRange);

/// The side of SSIM's Gaussian window (2 * int(3.5 * 1.5 + 0.5) + 1 = 11);
/// both image sizes must be at least this.
constexpr int64_t kSsimWindow = 11;

/// Mean structural similarity of two H x W row-major images, as
/// skimage.metrics.structural_similarity(ref, out, data_range=R,
/// gaussian_weights=True, sigma=1.5, use_sample_covariance=False): local
/// means, variances and covariance from a Gaussian filter (sigma 1.5,
/// truncated at 3.5 sigma: radius 5) with scipy's `reflect` border, K1 =
/// 0.01, K2 = 0.03, and the SSIM map averaged after cropping 5 elements on
/// every side. 1 for identical images.
Expected<double> ssim(const std::vector<double> &ref,
                      const std::vector<double> &out, int64_t H, int64_t W,
                      double dataRange);

/// mean |out - ref|.
Expected<double> meanAbsError(const std::vector<double> &ref,
                              const std::vector<double> &out);

/// mean |out - ref| / (max ref - min ref): the "mean error" of the
/// perforation paper (Sobel), in units of the reference's range; the plain
/// mean |out - ref| when the reference is constant.
Expected<double> meanErrorOverRange(const std::vector<double> &ref,
                                    const std::vector<double> &out);

/// A mean relative error that skips near-zero references.
struct RelativeError {
  double mean = 0;    ///< mean of |out-ref|/|ref| over the elements used.
  size_t used = 0;    ///< elements with |ref| > nearZero.
  size_t skipped = 0; ///< elements with |ref| <= nearZero, left out.
};

/// mean |out-ref| / |ref| over the elements with |ref| > `nearZero` (>= 0);
/// the others are counted in `skipped`. An error when every reference is
/// skipped (there is nothing to average).
Expected<RelativeError> meanRelativeError(const std::vector<double> &ref,
                                          const std::vector<double> &out,
                                          double nearZero);

} // namespace approx::rt

#endif // APPROX_RUNTIME_TUNE_IMAGEMETRICS_H
