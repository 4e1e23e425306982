//===- CliTest.cpp - The command-line behaviour every tool shares --------===//
//
// approx::cli (include/approx/Support/Cli.h) over CLI11: strict numbers (no
// "abc" as 0, no "-1" wrapping to 2^64 - 1, no octal or hex), ranges,
// lists, one-line errors with the tool's exit status, --help first, values
// converted only after CLI11's own checks, repeatable options that never
// swallow a positional.
//
//===----------------------------------------------------------------------===//
#include "approx/Support/Cli.h"

#include <gtest/gtest.h>

using namespace approx::cli;

namespace {

/// The UsageError message of `fn`, or "" when it does not throw.
template <typename F> std::string errorOf(F fn) {
  try {
    fn();
  } catch (const UsageError &e) {
    return e.what();
  }
  return "";
}

/// argv for `CommandLine::parse`: "tool" then `args`.
struct Argv {
  std::vector<std::string> strings;
  std::vector<char *> ptrs;
  Argv(const std::vector<std::string> &args) : strings{"tool"} {
    strings.insert(strings.end(), args.begin(), args.end());
    for (std::string &s : strings)
      ptrs.push_back(s.data());
  }
  int argc() const { return int(ptrs.size()); }
  char **argv() { return ptrs.data(); }
};

/// A small tool: --reps [1, 100], --seed (unsigned), --qos (finite, >= 0),
/// --metric mre|ssim, --input (repeatable), -o (required), a positional.
struct Sample {
  int reps = 3;
  uint64_t seed = 1;
  double qos = 0.5;
  std::string metric = "mre", out, manifest;
  std::vector<std::string> inputs;
  bool quick = false;
  CommandLine cl{Tool{"tool", 2, ""}, "a sample tool"};
  Sample() {
    cl.integer("--reps", reps, 1, 100);
    cl.unsignedInteger("--seed", seed);
    cl.number("--qos", qos, 0, HUGE_VAL);
    cl.choice("--metric", metric, {"mre", "ssim"});
    cl.list("--input", inputs);
    cl.flag("--quick", quick);
    cl.required(cl.text("-o,--output", out));
    cl.text("manifest", manifest);
    cl.check([this] {
      if (quick && reps > 10)
        usageError("--quick takes at most 10 --reps");
    });
  }
};

/// Runs a Sample on `args`: the status, stderr and stdout.
struct Outcome {
  int status;
  std::string err, out;
};
Outcome run(const std::vector<std::string> &args, Sample &s) {
  Argv a(args);
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  int status = s.cl.parse(a.argc(), a.argv());
  return {status, testing::internal::GetCapturedStderr(),
          testing::internal::GetCapturedStdout()};
}

} // namespace

TEST(Cli, IntegersAreDecimalAndInRange) {
  EXPECT_EQ(parseInt("42", "--n", 0, 100), 42);
  EXPECT_EQ(parseInt("-7", "--n", -10, 10), -7);
  EXPECT_EQ(parseInt("+7", "--n", -10, 10), 7);
  EXPECT_EQ(parseInt("0", "--n", 0, 0), 0);
  EXPECT_EQ(errorOf([] { parseInt("abc", "--n", 0, 9); }),
            "--n: 'abc' is not a decimal integer");
  for (const char *bad :
       {"", " 5", "5 ", "0x10", "010", "1e3", "5.0", "-", "+"})
    EXPECT_NE(errorOf([&] { parseInt(bad, "--n", -100, 100); }), "") << bad;
  EXPECT_EQ(errorOf([] { parseInt("101", "--n", 0, 100); }),
            "--n: 101 is out of range [0, 100]");
  EXPECT_EQ(
      errorOf([] { parseInt("9223372036854775808", "--n", 0, INT64_MAX); }),
      "--n: 9223372036854775808 is out of range [0, "
      "9223372036854775807]");
}

TEST(Cli, UnsignedRefusesASignInsteadOfWrapping) {
  EXPECT_EQ(parseUnsigned("18446744073709551615", "--seed"), UINT64_MAX);
  EXPECT_EQ(errorOf([] { parseUnsigned("-1", "--seed"); }),
            "--seed: '-1' is not a decimal integer >= 0");
  EXPECT_EQ(errorOf([] { parseUnsigned("abc", "--seed"); }),
            "--seed: 'abc' is not a decimal integer >= 0");
  EXPECT_NE(errorOf([] { parseUnsigned("18446744073709551616", "--seed"); }),
            "");
  EXPECT_EQ(errorOf([] { parseUnsigned("0", "--n", 1, 5); }),
            "--n: 0 is out of range [1, 5]");
}

TEST(Cli, NumbersAreFiniteAndInRange) {
  EXPECT_EQ(parseNumber("0.25", "--q"), 0.25);
  EXPECT_EQ(parseNumber("-1e-3", "--q"), -1e-3);
  EXPECT_EQ(errorOf([] { parseNumber("nan", "--q"); }),
            "--q: 'nan' is not a finite number");
  EXPECT_EQ(errorOf([] { parseNumber("inf", "--q"); }),
            "--q: 'inf' is not a finite number");
  EXPECT_EQ(errorOf([] { parseNumber("1e999", "--q"); }),
            "--q: '1e999' is not a finite number");
  EXPECT_EQ(errorOf([] { parseNumber("abc", "--q"); }),
            "--q: 'abc' is not a number");
  EXPECT_EQ(errorOf([] { parseNumber("", "--q"); }), "--q: '' is not a number");
  EXPECT_EQ(errorOf([] { parseNumber("0.5 ", "--q"); }),
            "--q: '0.5 ' is not a number");
  EXPECT_EQ(errorOf([] { parseNumber("1.5", "--q", 0, 1); }),
            "--q: 1.5 is out of range [0, 1]");
}

TEST(Cli, SizesListsAndChoices) {
  EXPECT_EQ(parseSize("64K", "--b", 1, uint64_t(1) << 40), 65536u);
  EXPECT_EQ(parseSize("3", "--b", 1, 10), 3u);
  EXPECT_EQ(errorOf([] { parseSize("32K", "--b", 65536, uint64_t(4) << 30); }),
            "--b: '32K' is out of range [64 KiB, 4 GiB]");
  EXPECT_EQ(errorOf([] { parseSize("-1M", "--b", 1, 10); }),
            "--b: '-1M' is not a size (decimal bytes, or with a suffix K, M "
            "or G)");
  EXPECT_NE(errorOf([] { parseSize("99999999999999G", "--b", 1, 10); }), "");
  EXPECT_EQ(splitList("a,b", "--l"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(errorOf([] { splitList("a,,b", "--l"); }),
            "--l: 'a,,b' has an empty entry");
  EXPECT_EQ(errorOf([] { splitList("a,", "--l"); }),
            "--l: 'a,' has an empty entry");
  auto choice = [] { parseChoice("psnr", "--m", {"mre", "ssim"}); };
  EXPECT_EQ(errorOf(choice), "--m: 'psnr' is not one of mre, ssim");
  EXPECT_EQ(parseIndexed("3=a=b", "--in", 9),
            (std::pair<int64_t, std::string>{3, "a=b"}));
  EXPECT_EQ(errorOf([] { parseIndexed("x", "--in", 9); }),
            "--in expects I=VALUE, got 'x'");
  EXPECT_EQ(errorOf([] { parseIndexed("-1=a", "--in", 9); }),
            "--in index: -1 is out of range [0, 9]");
}

TEST(Cli, QuoteEscapesAndElides) {
  EXPECT_EQ(quote("a\x1b[2Jb\\"), "'a\\x1b[2Jb\\\\'");
  std::string q = quote(std::string(1000, 'z'));
  EXPECT_LT(q.size(), 260u);
  EXPECT_NE(q.find("...[808 bytes]..."), std::string::npos);
}

TEST(Cli, ParsesAndConverts) {
  Sample s;
  Outcome r = run({"m.json", "-o", "out", "--reps", "7", "--seed",
                   "18446744073709551615", "--qos", "0.1", "--metric", "ssim",
                   "--input", "0=a", "--input", "1=b", "--reps", "9"},
                  s);
  EXPECT_EQ(r.status, -1) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(s.reps, 9) << "the last of a repeated option wins";
  EXPECT_EQ(s.seed, UINT64_MAX);
  EXPECT_EQ(s.qos, 0.1);
  EXPECT_EQ(s.metric, "ssim");
  EXPECT_EQ(s.manifest, "m.json");
  EXPECT_EQ(s.inputs, (std::vector<std::string>{"0=a", "1=b"}));
}

TEST(Cli, RepeatableOptionsTakeOneValueEach) {
  Sample s;
  Outcome r = run({"--input", "0=a", "m.json", "-o", "x"}, s);
  EXPECT_EQ(r.status, -1) << r.err;
  EXPECT_EQ(s.inputs, (std::vector<std::string>{"0=a"}));
  EXPECT_EQ(s.manifest, "m.json");
}

TEST(Cli, ErrorsAreOneLineWithTheUsageStatus) {
  struct Case {
    std::vector<std::string> args;
    std::string line;
  };
  for (const Case &c : std::vector<Case>{
           {{"-o", "x", "--seed", "-1"},
            "tool: --seed: '-1' is not a decimal integer >= 0\n"},
           {{"-o", "x", "--seed", "abc"},
            "tool: --seed: 'abc' is not a decimal integer >= 0\n"},
           {{"-o", "x", "--reps", "0"},
            "tool: --reps: 0 is out of range [1, 100]\n"},
           {{"-o", "x", "--reps", ""},
            "tool: --reps: '' is not a decimal integer\n"},
           {{"-o", "x", "--qos", "-0.5"},
            "tool: --qos: -0.5 is out of range [0, inf]\n"},
           {{"-o", "x", "--metric", "psnr"},
            "tool: --metric: 'psnr' is not one of mre, ssim\n"},
           {{"-o", "x", "--frobnicate"},
            "tool: The following argument was not expected: --frobnicate\n"},
           {{"-o", "x", "--reps"}, "tool: --reps: 1 required INT missing\n"},
           {{"m.json"}, "tool: --output is required\n"},
           {{"-o", "x", "--quick", "--reps", "11"},
            "tool: --quick takes at most 10 --reps\n"},
           {{"-o", "x", "a", "b"},
            "tool: The following argument was not expected: b\n"},
           {{"-o", "x", "--a\x1b[2J"},
            "tool: The following argument was not expected: "
            "--a\\x1b[2J\n"},
       }) {
    Sample s;
    Outcome r = run(c.args, s);
    EXPECT_EQ(r.status, 2) << c.line;
    EXPECT_EQ(r.err, c.line);
    EXPECT_EQ(r.out, "");
  }
}

TEST(Cli, StructuralErrorsComeBeforeValues) {
  Sample s;
  Outcome r = run({"-o", "x", "--reps", "0", "--frobnicate"}, s);
  EXPECT_EQ(r.err, "tool: The following argument was not expected: "
                   "--frobnicate\n");
  // A misspelt required option is named, not just the one it missed.
  Sample s2;
  r = run({"--ouptut", "x"}, s2);
  EXPECT_EQ(r.err, "tool: The following argument was not expected: "
                   "--ouptut\n");
}

TEST(Cli, LongErrorsAreElided) {
  Sample s;
  Outcome r = run({"-o", "x", "--" + std::string(100000, 'z')}, s);
  EXPECT_EQ(r.status, 2);
  EXPECT_LT(r.err.size(), 1100u);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

TEST(Cli, HelpWinsAndExitsZero) {
  for (const std::vector<std::string> &args :
       std::vector<std::vector<std::string>>{
           {"--help"}, {"--reps", "0", "-h"}, {"--frobnicate", "--help"}}) {
    Sample s;
    Outcome r = run(args, s);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("--reps"), std::string::npos) << r.out;
  }
}

TEST(Cli, PositionalsKeepEveryValue) {
  std::vector<std::string> files;
  CommandLine cl{Tool{"t"}, "d"};
  cl.required(cl.positionals("FILE", files));
  Argv a({"a", "b", "c"});
  EXPECT_EQ(cl.parse(a.argc(), a.argv()), -1);
  EXPECT_EQ(files, (std::vector<std::string>{"a", "b", "c"}));
  CommandLine none{Tool{"t"}, "d"};
  none.required(none.positionals("FILE", files));
  Argv b({});
  testing::internal::CaptureStderr();
  EXPECT_EQ(none.parse(b.argc(), b.argv()), 2);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "t: FILE is required\n");
}

TEST(Cli, HandWrittenHelpAndAnotherStatus) {
  int n = 0;
  CommandLine cl{Tool{"t2", 1, " (see t2 --help)"}, "d", "usage: t2 [--n N]\n"};
  cl.integer("--n", n, 0, 5);
  {
    Argv a({"--help"});
    testing::internal::CaptureStdout();
    EXPECT_EQ(cl.parse(a.argc(), a.argv()), 0);
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "usage: t2 [--n N]\n");
  }
  CommandLine cl2{Tool{"t2", 1, " (see t2 --help)"}, "d", "usage\n"};
  cl2.integer("--n", n, 0, 5);
  Argv a({"--n", "6"});
  testing::internal::CaptureStderr();
  EXPECT_EQ(cl2.parse(a.argc(), a.argv()), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "t2: --n: 6 is out of range [0, 5] (see t2 --help)\n");
}
