//===- TextTest.cpp - Escaping and the PTX identifier rule ----------------===//
//
// escapeBytes keeps printable ASCII, makes everything else \xNN (and the
// backslash \\), so escaped text is one line; isPtxIdentifier follows
// docs/manifest.md exactly, by approx/Common/PtxIdentifier.h, the rule the
// compiler checks too (narrower there: what it can emit).
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Text.h"

#include "approx/Common/PtxIdentifier.h"

#include <gtest/gtest.h>

using namespace approx::rt;

TEST(Text, EscapeBytes) {
  EXPECT_EQ(escapeBytes("plain name_1$"), "plain name_1$");
  EXPECT_EQ(escapeBytes("a\nb"), "a\\x0ab");
  EXPECT_EQ(escapeBytes(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(escapeBytes("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(escapeBytes("\x7f\x80\xff"), "\\x7f\\x80\\xff");
  EXPECT_EQ(escapeBytes("back\\slash"), "back\\\\slash");
  EXPECT_EQ(escapeBytes("caf\xc3\xa9"), "caf\\xc3\\xa9"); // UTF-8 é
  EXPECT_EQ(quote("k\t"), "'k\\x09'");
  for (int c = 0; c < 256; ++c) {
    std::string e = escapeBytes(std::string(1, char(c)));
    for (char x : e)
      ASSERT_TRUE(x >= 0x20 && x <= 0x7e) << c;
  }
}

TEST(Text, QuoteShortensLongText) {
  std::string shown200(200, 'x');
  EXPECT_EQ(quote(shown200), "'" + shown200 + "'");
  std::string path = "/a" + std::string(500, 'x') + "\x1b.ptx";
  std::string q = quote(path);
  EXPECT_EQ(q, "'/a" + std::string(94, 'x') + "...[315 bytes]..." +
                   std::string(91, 'x') + "\\x1b.ptx'");
}

TEST(Text, PtxIdentifiers) {
  for (const char *good : {"a", "Z", "a1", "k_$", "_a", "_0", "$a", "%r1",
                           "__", "$$", "%_"})
    EXPECT_TRUE(isPtxIdentifier(good)) << good;
  for (const char *bad : {"", "_", "$", "%", "1a", "a-b", "a.b", "a b",
                          "a%", "é", "a\n", "-a"})
    EXPECT_FALSE(isPtxIdentifier(bad)) << bad;
  EXPECT_TRUE(isPtxIdentifier(std::string(1024, 'a')));
  EXPECT_FALSE(isPtxIdentifier(std::string(1025, 'a')));
  EXPECT_TRUE(isPtxIdentifier("_" + std::string(1023, '1')));
}

TEST(Text, PtxIdentifierRuleIsTheCompilers) {
  using approx::ptx::checkName;
  using approx::ptx::NameProblem;
  using approx::ptx::NameRule;
  for (const char *name : {"a", "%r1", "WARP_SZ", "_", "%", "1a", "a-b", ""})
    EXPECT_EQ(isPtxIdentifier(name), checkName(name, NameRule::Ptx).ok())
        << name;
  // What the compiler emits is narrower: no leading %, no WARP_SZ.
  EXPECT_EQ(checkName("%r1", NameRule::Emitted).problem, NameProblem::BadFirst);
  EXPECT_EQ(checkName("WARP_SZ", NameRule::Emitted).problem,
            NameProblem::Reserved);
  EXPECT_TRUE(checkName("WARP_SZ", NameRule::Ptx).ok());
  // The first problem, in order, and where it is.
  EXPECT_EQ(checkName("").problem, NameProblem::Empty);
  EXPECT_EQ(checkName(std::string(1025, 'a')).problem, NameProblem::TooLong);
  EXPECT_EQ(checkName("9-").problem, NameProblem::StartsWithDigit);
  EXPECT_EQ(checkName("-a").problem, NameProblem::BadFirst);
  approx::ptx::NameCheck c = checkName("ab.c-");
  EXPECT_EQ(c.problem, NameProblem::BadChar);
  EXPECT_EQ(c.at, 2u);
  EXPECT_EQ(checkName("$").problem, NameProblem::Lone);
  EXPECT_EQ(checkName("%", NameRule::Emitted).problem, NameProblem::BadFirst);
}
