//===- ImageIO.h - 2-D images from NumPy .npy files --------------*- C++ -*-===//
//
// The perforation tuner and benchmark read their images as .npy files
// (numpy.save of a 2-D array: scikit-image's pictures, or anything a user
// has), so no image library is needed. Accepted: format versions 1-3, C
// order, 2-D, element types uint8 (scaled to [0, 1]), float32 and float64
// (little-endian); sizes up to 65536 x 65536. Everything else is refused
// with one line naming the file and the cause.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_TUNE_IMAGEIO_H
#define APPROX_RUNTIME_TUNE_IMAGEIO_H

#include "approx/runtime/core/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace approx::rt {

/// A row-major image.
struct Image2D {
  int64_t height = 0, width = 0;
  std::vector<float> pixels; ///< height * width, row-major
};

/// The largest side readNpy accepts.
constexpr int64_t kMaxImageSide = 65536;

/// Parses the bytes of a .npy file (`name` is used in errors).
Expected<Image2D> parseNpy(const std::string &bytes, const std::string &name);

/// Reads and parses .npy file `path` (a regular file of bounded size).
Expected<Image2D> readNpy(const std::string &path);

} // namespace approx::rt

#endif // APPROX_RUNTIME_TUNE_IMAGEIO_H
