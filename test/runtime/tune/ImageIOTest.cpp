//===- ImageIOTest.cpp - .npy images: accepted forms and refusals ---------===//
#include "approx/runtime/tune/ImageIO.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace approx::rt;

namespace {

/// A .npy file of version `major` with `header` (padded as numpy does) and
/// `data`.
std::string npy(const std::string &header, const std::string &data,
                int major = 1) {
  std::string h = header;
  size_t pre = major == 1 ? 10 : 12;
  while ((pre + h.size() + 1) % 64)
    h += ' ';
  h += '\n';
  std::string out = "\x93NUMPY";
  out += char(major);
  out += char(0);
  out += char(h.size() & 0xff);
  out += char((h.size() >> 8) & 0xff);
  if (major != 1)
    out += std::string(2, '\0');
  return out + h + data;
}

std::string dict(const std::string &descr, const std::string &order,
                 const std::string &shape) {
  return "{'descr': '" + descr + "', 'fortran_order': " + order +
         ", 'shape': " + shape + ", }";
}

std::string error(const std::string &bytes) {
  Expected<Image2D> r = parseNpy(bytes, "x.npy");
  return r.isOk() ? "" : r.status().toString();
}

TEST(ImageIO, ReadsUint8Float32Float64) {
  Expected<Image2D> u8 =
      parseNpy(npy(dict("|u1", "False", "(2, 3)"), std::string("\x00\x33\xff\x01\x02\x03", 6)), "a");
  ASSERT_TRUE(u8.isOk()) << u8.status().toString();
  EXPECT_EQ(u8->height, 2);
  EXPECT_EQ(u8->width, 3);
  EXPECT_EQ(u8->pixels[0], 0.0f);
  EXPECT_EQ(u8->pixels[1], 51.0f / 255.0f);
  EXPECT_EQ(u8->pixels[2], 1.0f);
  float f[2] = {1.5f, -2.25f};
  Expected<Image2D> f32 = parseNpy(
      npy(dict("<f4", "False", "(1, 2)"), std::string((char *)f, 8), 2), "b");
  ASSERT_TRUE(f32.isOk()) << f32.status().toString();
  EXPECT_EQ(f32->pixels[1], -2.25f);
  double d[2] = {0.125, 3.0};
  Expected<Image2D> f64 = parseNpy(
      npy(dict("<f8", "False", "(2,1)"), std::string((char *)d, 16), 3), "c");
  ASSERT_TRUE(f64.isOk()) << f64.status().toString();
  EXPECT_EQ(f64->height, 2);
  EXPECT_EQ(f64->pixels[0], 0.125f);
}

TEST(ImageIO, RefusesWhatItCannotRead) {
  std::string two(4, '\0');
  EXPECT_NE(error("P5 2 2 255").find("not a .npy file"), std::string::npos);
  EXPECT_NE(error(npy(dict("|u1", "False", "(2, 2)"), two, 4)).find("version 4"),
            std::string::npos);
  EXPECT_NE(error(npy(dict(">f4", "False", "(1, 1)"), two)).find("element type '>f4'"),
            std::string::npos);
  EXPECT_NE(error(npy(dict("<i4", "False", "(1, 1)"), two)).find("element type"),
            std::string::npos);
  EXPECT_NE(error(npy(dict("|u1", "True", "(2, 2)"), two)).find("Fortran order"),
            std::string::npos);
  EXPECT_NE(error(npy(dict("|u1", "False", "(2, 2, 1)"), two)).find("a 2-D image expected"),
            std::string::npos);
  EXPECT_NE(error(npy(dict("|u1", "False", "(4,)"), two)).find("a 2-D image expected"),
            std::string::npos);
  EXPECT_NE(error(npy(dict("|u1", "False", "(0, 4)"), "")).find("outside [1, 65536]"),
            std::string::npos);
  EXPECT_NE(error(npy(dict("|u1", "False", "(70000, 1)"), two)).find("outside"),
            std::string::npos);
  EXPECT_NE(error(npy(dict("|u1", "False", "(3, 2)"), two)).find("holds 4 data bytes, its shape needs 6"),
            std::string::npos);
  std::string cut = npy(dict("|u1", "False", "(2, 2)"), two).substr(0, 20);
  EXPECT_NE(error(cut).find("truncated"), std::string::npos);
  EXPECT_NE(error("x.npy").find("x.npy: "), std::string::npos) << "errors name the file";
}

TEST(ImageIO, ReadNpyNamesAMissingFile) {
  Expected<Image2D> r = readNpy("/nonexistent/dir/img.npy");
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().toString().find("img.npy"), std::string::npos);
}

} // namespace
