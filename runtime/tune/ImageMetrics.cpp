//===- ImageMetrics.cpp - Image quality: PSNR, SSIM, mean errors ----------===//
//
// PSNR and SSIM follow scikit-image's code path, not just the formulas, so
// that the numbers agree to rounding: SSIM filters with scipy's
// gaussian_filter (a separable 11-tap kernel normalised to sum 1, rows
// first, then columns, `reflect` border), takes the population
// (co)variances, and averages the SSIM map after cropping the window's
// half-width.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/ImageMetrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace approx::rt {

namespace {

/// Same non-zero size, finite values.
Status checkPair(const char *what, const std::vector<double> &ref,
                 const std::vector<double> &out) {
  if (ref.size() != out.size())
    return invalidArgument(std::string(what) + ": reference has " +
                           std::to_string(ref.size()) + " values, output " +
                           std::to_string(out.size()));
  if (ref.empty())
    return invalidArgument(std::string(what) + ": the images are empty");
  for (size_t i = 0; i < ref.size(); ++i) {
    if (!std::isfinite(ref[i]) || !std::isfinite(out[i]))
      return invalidArgument(
          std::string(what) + ": element " + std::to_string(i) + " is " +
          (std::isnan(ref[i]) || std::isnan(out[i]) ? "NaN" : "infinite") +
          " in the " + (std::isfinite(ref[i]) ? "output" : "reference"));
  }
  return Status::ok();
}

Status checkRange(const char *what, double dataRange) {
  if (!(dataRange > 0) || !std::isfinite(dataRange))
    return invalidArgument(std::string(what) + ": data range " +
                           std::to_string(dataRange) +
                           " must be positive and finite");
  return Status::ok();
}

/// SSIM's Gaussian: sigma 1.5, truncate 3.5, radius int(3.5*1.5 + 0.5) = 5.
constexpr double kSigma = 1.5;
constexpr int64_t kRadius = (kSsimWindow - 1) / 2;

/// scipy.ndimage._gaussian_kernel1d(1.5, 0, 5): exp(-x^2 / (2 sigma^2)),
/// normalised to sum 1.
std::vector<double> gaussianKernel() {
  std::vector<double> k(size_t(2 * kRadius + 1));
  double sum = 0;
  for (int64_t x = -kRadius; x <= kRadius; ++x) {
    double v = std::exp(-0.5 / (kSigma * kSigma) * double(x * x));
    k[size_t(x + kRadius)] = v;
    sum += v;
  }
  for (double &v : k)
    v /= sum;
  return k;
}

/// scipy's mode='reflect' (d c b a | a b c d | d c b a) for any index.
int64_t reflect(int64_t p, int64_t n) {
  int64_t m = p % (2 * n);
  if (m < 0)
    m += 2 * n;
  return m < n ? m : 2 * n - 1 - m;
}

/// gaussian_filter(img, sigma=1.5, truncate=3.5, mode='reflect') on an
/// H x W image: along axis 0 (rows), then axis 1.
std::vector<double> gaussianFilter(const std::vector<double> &img, int64_t H,
                                   int64_t W, const std::vector<double> &k) {
  std::vector<double> tmp(img.size()), out(img.size());
  for (int64_t y = 0; y < H; ++y)
    for (int64_t x = 0; x < W; ++x) {
      double s = 0;
      for (int64_t d = -kRadius; d <= kRadius; ++d)
        s += k[size_t(d + kRadius)] * img[size_t(reflect(y + d, H) * W + x)];
      tmp[size_t(y * W + x)] = s;
    }
  for (int64_t y = 0; y < H; ++y)
    for (int64_t x = 0; x < W; ++x) {
      double s = 0;
      for (int64_t d = -kRadius; d <= kRadius; ++d)
        s += k[size_t(d + kRadius)] * tmp[size_t(y * W + reflect(x + d, W))];
      out[size_t(y * W + x)] = s;
    }
  return out;
}

} // namespace

Expected<double> psnr(const std::vector<double> &ref,
                      const std::vector<double> &out, double dataRange) {
  APPROX_RETURN_IF_ERROR(checkPair("psnr", ref, out));
  APPROX_RETURN_IF_ERROR(checkRange("psnr", dataRange));
  double sq = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double d = ref[i] - out[i];
    sq += d * d;
  }
  double mse = sq / double(ref.size());
  if (mse == 0)
    return std::numeric_limits<double>::infinity();
  return 10 * std::log10(dataRange * dataRange / mse);
}

Expected<double> ssim(const std::vector<double> &ref,
                      const std::vector<double> &out, int64_t H, int64_t W,
                      double dataRange) {
  if (H < kSsimWindow || W < kSsimWindow)
    return invalidArgument("ssim: an image of " + std::to_string(H) + " x " +
                           std::to_string(W) + " is smaller than the " +
                           std::to_string(kSsimWindow) + " x " +
                           std::to_string(kSsimWindow) + " window");
  if (H > std::numeric_limits<int64_t>::max() / W ||
      ref.size() != size_t(H * W))
    return invalidArgument("ssim: reference has " + std::to_string(ref.size()) +
                           " values for a " + std::to_string(H) + " x " +
                           std::to_string(W) + " image");
  APPROX_RETURN_IF_ERROR(checkPair("ssim", ref, out));
  APPROX_RETURN_IF_ERROR(checkRange("ssim", dataRange));

  const std::vector<double> k = gaussianKernel();
  std::vector<double> xx(ref.size()), yy(ref.size()), xy(ref.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    xx[i] = ref[i] * ref[i];
    yy[i] = out[i] * out[i];
    xy[i] = ref[i] * out[i];
  }
  const std::vector<double> ux = gaussianFilter(ref, H, W, k);
  const std::vector<double> uy = gaussianFilter(out, H, W, k);
  const std::vector<double> uxx = gaussianFilter(xx, H, W, k);
  const std::vector<double> uyy = gaussianFilter(yy, H, W, k);
  const std::vector<double> uxy = gaussianFilter(xy, H, W, k);

  const double c1 = (0.01 * dataRange) * (0.01 * dataRange);
  const double c2 = (0.03 * dataRange) * (0.03 * dataRange);
  double sum = 0;
  for (int64_t y = kRadius; y < H - kRadius; ++y)
    for (int64_t x = kRadius; x < W - kRadius; ++x) {
      const size_t i = size_t(y * W + x);
      const double vx = uxx[i] - ux[i] * ux[i];
      const double vy = uyy[i] - uy[i] * uy[i];
      const double vxy = uxy[i] - ux[i] * uy[i];
      const double a1 = 2 * ux[i] * uy[i] + c1, a2 = 2 * vxy + c2;
      const double b1 = ux[i] * ux[i] + uy[i] * uy[i] + c1, b2 = vx + vy + c2;
      sum += (a1 * a2) / (b1 * b2);
    }
  return sum / double((H - 2 * kRadius) * (W - 2 * kRadius));
}

Expected<double> meanAbsError(const std::vector<double> &ref,
                              const std::vector<double> &out) {
  APPROX_RETURN_IF_ERROR(checkPair("meanAbsError", ref, out));
  double sum = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    sum += std::fabs(out[i] - ref[i]);
  return sum / double(ref.size());
}

Expected<double> meanErrorOverRange(const std::vector<double> &ref,
                                    const std::vector<double> &out) {
  Expected<double> mae = meanAbsError(ref, out);
  if (!mae)
    return Status(mae.status().code(),
                  "meanErrorOverRange" +
                      mae.status().message().substr(
                          std::string("meanAbsError").size()));
  auto [lo, hi] = std::minmax_element(ref.begin(), ref.end());
  return *hi > *lo ? *mae / (*hi - *lo) : *mae;
}

Expected<RelativeError> meanRelativeError(const std::vector<double> &ref,
                                          const std::vector<double> &out,
                                          double nearZero) {
  APPROX_RETURN_IF_ERROR(checkPair("meanRelativeError", ref, out));
  if (!(nearZero >= 0) || !std::isfinite(nearZero))
    return invalidArgument("meanRelativeError: near-zero threshold " +
                           std::to_string(nearZero) +
                           " must be finite and at least 0");
  RelativeError r;
  double sum = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (std::fabs(ref[i]) <= nearZero) {
      ++r.skipped;
      continue;
    }
    sum += std::fabs(out[i] - ref[i]) / std::fabs(ref[i]);
    ++r.used;
  }
  if (r.used == 0)
    return invalidArgument(
        "meanRelativeError: all " + std::to_string(r.skipped) +
        " references are within " + std::to_string(nearZero) +
        " of 0; there is no relative error to average");
  r.mean = sum / double(r.used);
  return r;
}

} // namespace approx::rt
