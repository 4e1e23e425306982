//===- JsonTest.cpp - The JSON reader kit: types, ranges, wording ---------===//
//
// core/Json.h on its own (the manifest and precision tests cover it through
// their files): integers are compared exactly in both of nlohmann's
// encodings and never clamped or wrapped, each wording names the path at
// fault as its users expect, and parseDocument turns every failure into one
// line.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Json.h"

#include <gtest/gtest.h>

using namespace approx::rt;
using jsonread::Nul;
using jsonread::Reader;
using jsonread::Value;
using jsonread::Wording;

namespace {

const Reader kExpected(Wording::Expected, Nul::Refused);
const Reader kFound(Wording::Found);

/// The error of `read` on `text` ("" when it succeeds).
template <typename Fn> std::string errorOf(const std::string &text, Fn read) {
  Expected<int> r =
      jsonread::parseDocument<int>(text, "doc", [&](const Value &root) {
        read(root);
        return 0;
      });
  return r ? "" : r.status().message();
}

} // namespace

TEST(Json, IntegersAreComparedExactlyAndNeverWrapped) {
  auto integer = [](const Value &r) {
    kExpected.integer(r, "", "x", -128, 127);
  };
  EXPECT_EQ(errorOf(R"({"x": 127})", integer), "");
  EXPECT_EQ(errorOf(R"({"x": 128})", integer),
            "doc: x: 128 is out of range [-128, 127]");
  EXPECT_EQ(errorOf(R"({"x": -129})", integer),
            "doc: x: -129 is out of range [-128, 127]");
  // Past INT64_MAX, in nlohmann's uint64 encoding: not wrapped to negative.
  EXPECT_EQ(errorOf(R"({"x": 18446744073709551615})",
                    [](const Value &r) { kExpected.integer(r, "", "x"); }),
            "doc: x: 18446744073709551615 is out of range "
            "[-9223372036854775808, 9223372036854775807]");
  auto count = [](const Value &r) { kFound.unsignedInteger(r, "", "n", 1, 4); };
  EXPECT_EQ(errorOf(R"({"n": 4})", count), "");
  EXPECT_EQ(errorOf(R"({"n": -1})", count), "doc: n: -1 is negative");
  EXPECT_EQ(errorOf(R"({"n": 5})", count), "doc: n: 5 is out of range [1, 4]");
  EXPECT_EQ(errorOf(R"({"n": 2.0})", count),
            "doc: n: is a number with a fraction, not an integer");
}

TEST(Json, EachWordingNamesThePathAtFault) {
  auto nested = [](const Reader &r) {
    return [&r](const Value &root) {
      const Value &a = r.array(root, "", "a");
      r.boolean(a[0], jsonread::at("a", 0), "flag");
    };
  };
  EXPECT_EQ(errorOf(R"({"a": [{}]})", nested(kExpected)),
            "doc: a[0]: missing required key 'flag'");
  EXPECT_EQ(errorOf(R"({"a": [{}]})", nested(kFound)),
            "doc: a[0].flag: missing");
  EXPECT_EQ(errorOf(R"({"a": [{"flag": 1}]})", nested(kExpected)),
            "doc: a[0].flag: expected true or false");
  EXPECT_EQ(errorOf(R"({"a": [{"flag": 1}]})", nested(kFound)),
            "doc: a[0].flag: is a number, not a boolean");
  EXPECT_EQ(errorOf(R"({"a": {}})", nested(kExpected)),
            "doc: a: expected an array");
  EXPECT_EQ(errorOf(R"({"a": "x"})", nested(kFound)),
            "doc: a: is a string, not an array");
  EXPECT_EQ(errorOf("[]", nested(kExpected)),
            "doc: <root>: expected an object");
  EXPECT_EQ(errorOf("[]", nested(kFound)),
            "doc: <root>: is an array, not an object");
}

TEST(Json, StringsChoicesAndUnknownFields) {
  EXPECT_EQ(errorOf(R"({"s": "a\u0000b"})",
                    [](const Value &r) { kExpected.string(r, "", "s"); }),
            "doc: s: the string 'a\\x00b' contains a NUL character");
  EXPECT_EQ(errorOf(R"({"s": "a\u0000b"})",
                    [](const Value &r) { kFound.string(r, "", "s"); }),
            "");
  EXPECT_EQ(errorOf(R"({"s": ""})",
                    [](const Value &r) { kFound.nonEmptyString(r, "", "s"); }),
            "doc: s: is empty");
  EXPECT_EQ(errorOf(R"({"k": "c"})",
                    [](const Value &r) {
                      kExpected.choice<int>(r, "", "k", {{"a", 1}, {"b", 2}});
                    }),
            "doc: k: is 'c', expected one of \"a\", \"b\"");
  EXPECT_EQ(errorOf(R"({"a": 1, "b\n": 2})",
                    [](const Value &r) { kFound.onlyKeys(r, "", {"a"}); }),
            "doc: b\\x0a: unknown field");
  EXPECT_EQ(errorOf("{}",
                    [](const Value &r) {
                      EXPECT_TRUE(kFound.optionalArray(r, "", "a").empty());
                      EXPECT_EQ(kFound.optionalString(r, "", "s", "d"), "d");
                    }),
            "");
}

TEST(Json, ParseDocumentGivesOneLine) {
  auto nothing = [](const Value &) {};
  std::string m = errorOf("{ \"a\": \"" + std::string(5000, 'z'), nothing);
  EXPECT_EQ(m.rfind("doc: <root>: not valid JSON: ", 0), 0u) << m;
  EXPECT_LT(m.size(), 300u) << m; // the echo of the bad token is cut
  EXPECT_EQ(m.find('\n'), std::string::npos);
  Expected<int> deep = jsonread::parseDocument<int>(
      std::string(10, '[') + std::string(10, ']'), "doc",
      [](const Value &) { return 0; }, /*maxNesting=*/8);
  ASSERT_FALSE(deep.isOk());
  EXPECT_EQ(deep.status().message(),
            "doc: <root>: JSON nested deeper than 8 levels");
  // Any other nlohmann exception is one line too.
  EXPECT_EQ(errorOf("[1]", [](const Value &r) { (void)r.at(5); })
                .rfind("doc: [json.exception.out_of_range", 0),
            0u);
}
