//===- NumberListTest.cpp - Reading input lists ---------------------------===//
//
// Sections, hex floats, NaN spellings, notes and the errors of
// readNumberSections, on small files written to the test's temp directory;
// hexFloat round trips.
//
//===----------------------------------------------------------------------===//
#include "approx/accuracy/NumberList.h"
#include "approx/accuracy/Format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>

using namespace approx::accuracy;

namespace {
std::string writeTemp(const std::string &name, const std::string &text) {
  std::string path = testing::TempDir() + "/approx-numberlist-" + name;
  std::ofstream(path) << text;
  return path;
}
} // namespace

TEST(NumberList, SectionsCommentsAndValues) {
  std::string path = writeTemp("sections.wc", "# first block\n"
                                              "# second line\n"
                                              "0x1.8p+1\n"
                                              "\n"
                                              "-0x1p-1074\n"
                                              "# next section\n"
                                              "1.5\n"
                                              "inf\n");
  std::vector<NumberSection> s;
  std::string error;
  ASSERT_TRUE(readNumberSections(path, s, error)) << error;
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].comments,
            (std::vector<std::string>{"first block", "second line"}));
  EXPECT_EQ(s[0].firstLine, 3u);
  ASSERT_EQ(s[0].rows(), 2u);
  EXPECT_EQ(s[0].values[0], 3.0);
  EXPECT_EQ(s[0].values[1], -0x1p-1074);
  EXPECT_EQ(s[1].comments, std::vector<std::string>{"next section"});
  EXPECT_EQ(s[1].firstLine, 7u);
  EXPECT_EQ(s[1].values[0], 1.5);
  EXPECT_TRUE(std::isinf(s[1].values[1]));
}

TEST(NumberList, NaNSpellingsAndNotes) {
  std::string path = writeTemp("nans.wc", "+snan\n-snan\n-qnan\n-nan\n"
                                          "0x0p+0, ERANGE\n-0x1p-1074\n");
  std::vector<NumberSection> s;
  std::string error;
  ASSERT_TRUE(readNumberSections(path, s, error)) << error;
  ASSERT_EQ(s.size(), 1u);
  ASSERT_EQ(s[0].rows(), 6u);
  EXPECT_EQ(bitsOf(s[0].values[0]), 0x7ff4000000000000ull); // signaling
  EXPECT_EQ(bitsOf(s[0].values[1]), 0xfff4000000000000ull);
  EXPECT_EQ(bitsOf(s[0].values[2]), 0xfff8000000000000ull);
  EXPECT_TRUE(std::isnan(s[0].values[3]) && std::signbit(s[0].values[3]));
  EXPECT_EQ(s[0].values[4], 0.0);
  ASSERT_EQ(s[0].notes.size(), 1u);
  EXPECT_EQ(s[0].notes[0].first, 4u);
  EXPECT_EQ(s[0].notes[0].second, "ERANGE");
}

TEST(NumberList, TwoArgumentRows) {
  std::string path = writeTemp("pow.wc", "0x1p+0,0x1.8p+1\n2 -3\n");
  std::vector<NumberSection> s;
  std::string error;
  ASSERT_TRUE(readNumberSections(path, s, error)) << error;
  ASSERT_EQ(s[0].width, 2);
  ASSERT_EQ(s[0].rows(), 2u);
  EXPECT_EQ(s[0].values[1], 3.0);
  EXPECT_EQ(s[0].values[3], -3.0);
}

TEST(NumberList, Errors) {
  std::vector<NumberSection> s;
  std::string error;
  EXPECT_FALSE(
      readNumberSections(testing::TempDir() + "/no-such-file.wc", s, error));
  EXPECT_NE(error.find("cannot open"), std::string::npos);
  EXPECT_FALSE(
      readNumberSections(writeTemp("bad.wc", "1.0\n0x1.zp3\n"), s, error));
  EXPECT_NE(error.find(":2: not a list of numbers"), std::string::npos)
      << error;
  EXPECT_FALSE(readNumberSections(writeTemp("width.wc", "1 2\n3\n"), s, error));
  EXPECT_NE(error.find(":2: 1 numbers, earlier rows have 2"), std::string::npos)
      << error;
  EXPECT_FALSE(
      readNumberSections(writeTemp("note.wc", "ERANGE 1.0\n"), s, error));
  EXPECT_FALSE(readNumberSections(writeTemp("big.wc", "1e400\n"), s, error));
}

TEST(NumberList, HexFloatRoundTrips) {
  for (double x : {0.0, -0.0, 1.0, -0x1.62e42fefa39efp+9, 0x1p-1074,
                   1.7976931348623157e308, 0.1}) {
    std::string t = hexFloat(x);
    double back = std::strtod(t.c_str(), nullptr);
    EXPECT_EQ(bitsOf(back), bitsOf(x)) << t;
  }
  EXPECT_EQ(hexFloat(1.5), "0x1.8p+0");
}
