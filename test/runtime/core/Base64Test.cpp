//===- Base64Test.cpp - Strict RFC 4648 decoding ---------------------------===//
//
// The RFC's own test vectors both ways, round trips of every length up to a
// few groups, and one test per kind of malformed text.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Base64.h"

#include <gtest/gtest.h>

using namespace approx::rt;

namespace {
std::vector<uint8_t> bytes(const std::string &s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}
std::string text(const std::vector<uint8_t> &b) {
  return std::string(b.begin(), b.end());
}
void expectBad(const std::string &t, const std::string &needle) {
  Expected<std::vector<uint8_t>> d = decodeBase64(t);
  ASSERT_FALSE(d.isOk()) << t;
  EXPECT_EQ(d.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(d.status().message().find(needle), std::string::npos)
      << d.status().message();
}
} // namespace

TEST(Base64, Rfc4648Vectors) {
  const std::pair<const char *, const char *> kVectors[] = {
      {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
      {"foo", "Zm9v"},  {"foob", "Zm9vYg=="},  {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"}};
  for (auto [plain, enc] : kVectors) {
    EXPECT_EQ(encodeBase64(bytes(plain)), enc);
    Expected<std::vector<uint8_t>> d = decodeBase64(enc);
    ASSERT_TRUE(d.isOk()) << enc << ": " << d.status().toString();
    EXPECT_EQ(text(*d), plain);
    EXPECT_EQ(*base64DecodedSize(enc), std::string(plain).size());
  }
}

TEST(Base64, RoundTripsEveryByteAndLength) {
  std::vector<uint8_t> all;
  for (int i = 0; i < 256; ++i)
    all.push_back(uint8_t(i));
  for (size_t n = 0; n <= all.size(); ++n) {
    std::vector<uint8_t> b(all.begin(), all.begin() + n);
    std::string e = encodeBase64(b);
    EXPECT_EQ(e.size() % 4, 0u);
    Expected<std::vector<uint8_t>> d = decodeBase64(e);
    ASSERT_TRUE(d.isOk()) << n;
    EXPECT_EQ(*d, b);
  }
  EXPECT_EQ(encodeBase64({0xfb, 0xff}), "+/8="); // the two special letters
}

TEST(Base64, RejectsMalformedText) {
  expectBad("Zg=", "length must be a multiple of 4");
  expectBad("Zm9vY", "length must be a multiple of 4");
  expectBad("Zm9v\nYmFy", "length must be a multiple of 4");
  expectBad("Zm9 Ym==", "' ' at offset 3 is not in the alphabet");
  expectBad("Zm9-", "'-' at offset 3"); // base64url is not accepted
  expectBad("Zm9_", "'_' at offset 3");
  expectBad(std::string("Zm\0v", 4), "byte 0 at offset 2");
  expectBad("Zm\xc3\xa9", "byte 195 at offset 2");
  expectBad("Z===", "misplaced '=' at offset 1");
  expectBad("====", "misplaced '=' at offset 0");
  expectBad("Zg==Zm8=", "misplaced '=' at offset 2"); // padding mid-text
  expectBad("Zm=v", "misplaced '=' at offset 2");
  // Non-zero bits under the padding: "Zh==" would also decode to "f".
  expectBad("Zh==", "non-zero padding bits");
  expectBad("Zm9=", "non-zero padding bits");
}

TEST(Base64, DecodedSizeNeedsNoDecoding) {
  EXPECT_EQ(*base64DecodedSize("AAAA"), 3u);
  EXPECT_EQ(*base64DecodedSize("AAA="), 2u);
  EXPECT_EQ(*base64DecodedSize("AA=="), 1u);
  EXPECT_EQ(*base64DecodedSize(std::string(4000, 'A')), 3000u);
  EXPECT_FALSE(base64DecodedSize("AAAAA").isOk());
}
