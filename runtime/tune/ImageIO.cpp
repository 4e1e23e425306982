//===- ImageIO.cpp - 2-D images from NumPy .npy files ---------------------===//
//
// The .npy format: "\x93NUMPY", major and minor version bytes, the header
// length (2 bytes little-endian in version 1, 4 in versions 2 and 3), then
// a Python dict literal with 'descr', 'fortran_order' and 'shape', padded
// with spaces and a newline; the data follows.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/ImageIO.h"

#include "approx/runtime/core/FileIO.h"

#include <cstring>
#include <regex>

namespace approx::rt {

namespace {

/// The value of `key` in the header dict, up to the next ',' or '}' at
/// depth 0 ("" when absent).
std::string field(const std::string &header, const std::string &key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return "";
  size_t colon = header.find(':', at);
  if (colon == std::string::npos)
    return "";
  size_t i = colon + 1, depth = 0;
  std::string out;
  for (; i < header.size(); ++i) {
    char c = header[i];
    if (c == '(')
      ++depth;
    if (c == ')' && depth)
      --depth;
    if (depth == 0 && (c == ',' || c == '}'))
      break;
    out += c;
  }
  size_t b = out.find_first_not_of(' '), e = out.find_last_not_of(' ');
  return b == std::string::npos ? "" : out.substr(b, e - b + 1);
}

} // namespace

Expected<Image2D> parseNpy(const std::string &bytes, const std::string &name) {
  auto bad = [&](const std::string &why) {
    return invalidArgument(name + ": " + why);
  };
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
    return bad("not a .npy file (no \\x93NUMPY magic)");
  const unsigned major = uint8_t(bytes[6]);
  size_t hlen = 0, start = 0;
  if (major == 1) {
    hlen = uint8_t(bytes[8]) | (size_t(uint8_t(bytes[9])) << 8);
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return bad("truncated header");
    hlen = uint8_t(bytes[8]) | (size_t(uint8_t(bytes[9])) << 8) |
           (size_t(uint8_t(bytes[10])) << 16) |
           (size_t(uint8_t(bytes[11])) << 24);
    start = 12;
  } else {
    return bad(".npy format version " + std::to_string(major) +
               " (1, 2 or 3 expected)");
  }
  if (hlen > 65536 || start + hlen > bytes.size())
    return bad("truncated or oversized header");
  const std::string header = bytes.substr(start, hlen);
  const std::string descr = field(header, "descr");
  const std::string order = field(header, "fortran_order");
  const std::string shape = field(header, "shape");
  size_t elem = 0;
  if (descr == "'|u1'" || descr == "'u1'")
    elem = 1;
  else if (descr == "'<f4'")
    elem = 4;
  else if (descr == "'<f8'")
    elem = 8;
  else
    return bad("element type " + (descr.empty() ? "(none)" : descr) +
               " (uint8, little-endian float32 or float64 expected)");
  if (order != "False")
    return bad("Fortran order (C order expected: numpy.ascontiguousarray)");
  static const std::regex twoD(R"(\(\s*(\d{1,9})\s*,\s*(\d{1,9})\s*,?\s*\))");
  std::smatch m;
  if (!std::regex_match(shape, m, twoD))
    return bad("shape " + (shape.empty() ? "(none)" : shape) +
               " (a 2-D image expected)");
  Image2D img;
  img.height = std::stoll(m[1]);
  img.width = std::stoll(m[2]);
  if (img.height < 1 || img.width < 1 || img.height > kMaxImageSide ||
      img.width > kMaxImageSide)
    return bad("size " + std::to_string(img.height) + "x" +
               std::to_string(img.width) + " outside [1, " +
               std::to_string(kMaxImageSide) + "] per side");
  const size_t n = size_t(img.height * img.width);
  const size_t data = start + hlen;
  if (bytes.size() - data != n * elem)
    return bad("holds " + std::to_string(bytes.size() - data) +
               " data bytes, its shape needs " + std::to_string(n * elem));
  img.pixels.resize(n);
  const char *p = bytes.data() + data;
  for (size_t i = 0; i < n; ++i) {
    if (elem == 1) {
      img.pixels[i] = float(uint8_t(p[i])) / 255.0f;
    } else if (elem == 4) {
      std::memcpy(&img.pixels[i], p + 4 * i, 4);
    } else {
      double d;
      std::memcpy(&d, p + 8 * i, 8);
      img.pixels[i] = float(d);
    }
  }
  return img;
}

Expected<Image2D> readNpy(const std::string &path) {
  const uint64_t limit =
      (uint64_t(1) << 32) + 65536 + 16; // 4 GiB of data at most
  Expected<std::string> bytes = readRegularFile(path, limit, "image");
  if (!bytes)
    return bytes.status();
  return parseNpy(*bytes, path);
}

} // namespace approx::rt
