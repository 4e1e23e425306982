//===- Cli.h - One command-line behaviour for every approx tool -*- C++ -*-===//
//
// CLI11 (Debian's libcli11-dev) walks argv: options and their values, flags,
// positionals, `--help`, unknown options, missing values, required options.
// This header adds what every approx tool promises on top of it, in one
// place, plain C++ (no LLVM, no runtime):
//
//  - an error is ONE line on stderr, `TOOL: message`, control bytes escaped
//    and long text elided, and the exit status is the tool's usage status
//    (2, unless the tool documented another before it used this header);
//  - `--help` (`-h`) prints the usage on stdout and exits 0, whatever else
//    is on the line;
//  - numbers are parsed strictly. CLI11 2.1.2 converts with strtoull and
//    strtoll in base 0, so on its own it takes "-1" for an unsigned option as
//    2^64 - 1, "010" as 8, "0x10" as 16 and "" as 0: here integers are
//    decimal, range-checked, and every value is checked once CLI11 has
//    finished, so that structural errors (an unknown option, a missing
//    value) come first and `--help` always wins.
//
// Messages name the option and quote the value: "--reps: 0 is out of range
// [1, 1000000]", "--seed: '-1' is not a decimal integer >= 0", "--qos:
// 'nan' is not a finite number", "--metric: 'psnr' is not one of mre, ssim".
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_SUPPORT_CLI_H
#define APPROX_SUPPORT_CLI_H

#include "approx/Common/Quote.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace approx::cli {

/// A bad command line found by a check of this header or of the tool (a
/// value, a combination of options): reported like CLI11's own errors.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Throws a UsageError with `message` (one line, values already quoted).
[[noreturn]] inline void usageError(const std::string &message) {
  throw UsageError(message);
}

/// `s` as one line of plain ASCII (approx/Common/Quote.h).
inline std::string escape(const std::string &s) {
  return approx::text::escapeBytes(s);
}

/// `'` + escape(s) + `'`, long values cut in the middle.
inline std::string quote(const std::string &s) { return approx::text::quote(s); }

namespace detail {

/// Optional sign, then decimal digits without a leading zero ("0" alone is
/// fine): "010" could mean octal to a reader, so it means nothing here.
inline bool decimalSyntax(const std::string &t, bool allowSign) {
  size_t i = 0;
  if (allowSign && i < t.size() && (t[i] == '-' || t[i] == '+'))
    ++i;
  if (i == t.size())
    return false;
  if (t[i] == '0' && i + 1 < t.size())
    return false;
  for (; i < t.size(); ++i)
    if (t[i] < '0' || t[i] > '9')
      return false;
  return true;
}

/// `v` for a range message: integers as integers, others as %g.
inline std::string numberText(double v) {
  char b[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(b, sizeof b, "%.0f", v);
  else
    std::snprintf(b, sizeof b, "%g", v);
  return b;
}

/// Bytes as "64 KiB", "256 MiB", "4 GiB" (exact multiples), else bytes.
inline std::string sizeText(uint64_t bytes) {
  const char *units[] = {"GiB", "MiB", "KiB"};
  for (int i = 0; i < 3; ++i) {
    uint64_t unit = uint64_t(1) << (30 - 10 * i);
    if (bytes >= unit && bytes % unit == 0)
      return std::to_string(bytes / unit) + " " + units[i];
  }
  return std::to_string(bytes) + " bytes";
}

} // namespace detail

/// A decimal integer in [lo, hi]; `what` names it in errors ("--reps").
inline int64_t parseInt(const std::string &text, const std::string &what,
                        int64_t lo, int64_t hi) {
  if (!detail::decimalSyntax(text, true))
    usageError(what + ": " + quote(text) + " is not a decimal integer");
  errno = 0;
  long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v < lo || v > hi)
    usageError(what + ": " + escape(text) + " is out of range [" +
               std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return int64_t(v);
}

/// A decimal integer in [lo, hi] without a sign: "-1" is refused, never
/// read as 2^64 - 1.
inline uint64_t
parseUnsigned(const std::string &text, const std::string &what, uint64_t lo = 0,
              uint64_t hi = std::numeric_limits<uint64_t>::max()) {
  if (!detail::decimalSyntax(text, false))
    usageError(what + ": " + quote(text) + " is not a decimal integer >= 0");
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v < lo || v > hi)
    usageError(what + ": " + escape(text) + " is out of range [" +
               std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return uint64_t(v);
}

/// A finite number (strtod's syntax, nothing around it) in [lo, hi].
inline double parseNumber(const std::string &text, const std::string &what,
                          double lo = -HUGE_VAL, double hi = HUGE_VAL) {
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end ||
      text.find_first_of(" \t\n\r\f\v") != std::string::npos)
    usageError(what + ": " + quote(text) + " is not a number");
  if (!std::isfinite(v) || errno == ERANGE)
    usageError(what + ": " + quote(text) + " is not a finite number");
  if (v < lo || v > hi)
    usageError(what + ": " + escape(text) + " is out of range [" +
               detail::numberText(lo) + ", " + detail::numberText(hi) + "]");
  return v;
}

/// A byte count: decimal digits and an optional binary suffix K, M or G,
/// in [lo, hi].
inline uint64_t parseSize(const std::string &text, const std::string &what,
                          uint64_t lo, uint64_t hi) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
    ++digits;
  uint64_t mult = 1;
  const std::string suffix = text.substr(digits);
  if (suffix == "K")
    mult = uint64_t(1) << 10;
  else if (suffix == "M")
    mult = uint64_t(1) << 20;
  else if (suffix == "G")
    mult = uint64_t(1) << 30;
  else if (!suffix.empty())
    digits = 0;
  if (digits == 0)
    usageError(what + ": " + quote(text) +
               " is not a size (decimal bytes, or with a suffix K, M or G)");
  // More than 18 digits is out of range anyway (and could wrap strtoull).
  uint64_t v = digits > 18
                   ? std::numeric_limits<uint64_t>::max()
                   : std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
  if (v > hi / mult || v * mult < lo)
    usageError(what + ": " + quote(text) + " is out of range [" +
               detail::sizeText(lo) + ", " + detail::sizeText(hi) + "]");
  return v * mult;
}

/// `text` split at `sep`; an empty entry (",," or a trailing ",") is an
/// error naming `what`.
inline std::vector<std::string>
splitList(const std::string &text, const std::string &what, char sep = ',') {
  std::vector<std::string> out;
  size_t b = 0;
  while (true) {
    size_t c = text.find(sep, b);
    std::string item =
        text.substr(b, c == std::string::npos ? std::string::npos : c - b);
    if (item.empty())
      usageError(what + ": " + quote(text) + " has an empty entry");
    out.push_back(item);
    if (c == std::string::npos)
      break;
    b = c + 1;
  }
  return out;
}

/// "I=VALUE" as (I, VALUE), I a decimal index in [0, maxIndex] (an
/// argument of a kernel, say); `what` names the option in errors.
inline std::pair<int64_t, std::string> parseIndexed(const std::string &text,
                                                    const std::string &what,
                                                    int64_t maxIndex) {
  size_t eq = text.find('=');
  if (eq == std::string::npos)
    usageError(what + " expects I=VALUE, got " + quote(text));
  return {parseInt(text.substr(0, eq), what + " index", 0, maxIndex),
          text.substr(eq + 1)};
}

/// Each entry of the comma list `text` through `fn` (a parse* call).
template <typename F>
auto parseList(const std::string &text, const std::string &what, F fn)
    -> std::vector<decltype(fn(text))> {
  std::vector<decltype(fn(text))> out;
  for (const std::string &item : splitList(text, what))
    out.push_back(fn(item));
  return out;
}

/// `text` if it is one of `choices`, else an error listing them.
inline const std::string &parseChoice(const std::string &text,
                                      const std::string &what,
                                      const std::vector<std::string> &choices) {
  for (const std::string &c : choices)
    if (c == text)
      return text;
  std::string list;
  for (const std::string &c : choices)
    list += (list.empty() ? "" : ", ") + c;
  usageError(what + ": " + quote(text) + " is not one of " + list);
}

/// How a tool reports a bad command line.
struct Tool {
  std::string name; ///< the prefix of every line, e.g. "approx-scale"
  /// The exit status of a usage error: 2, except where a tool documented
  /// another before this header (approx-tune and approx-inspect: 1, their
  /// 2 being a runtime error).
  int usageStatus = 2;
  std::string hint; ///< appended to usage errors, e.g. " (see T --help)"

  Tool(std::string name, int usageStatus = 2, std::string hint = "")
      : name(std::move(name)), usageStatus(usageStatus), hint(std::move(hint)) {
  }

  /// Prints `name: message` and the hint as one line on stderr (control
  /// bytes escaped, over 1 KiB elided in the middle); returns usageStatus.
  int fail(const std::string &message) const {
    std::string m;
    for (char ch : message) {
      unsigned char c = static_cast<unsigned char>(ch);
      if (c < 0x20 || c == 0x7f) {
        char b[8];
        std::snprintf(b, sizeof b, "\\x%02x", c);
        m += b;
      } else {
        m += ch;
      }
    }
    constexpr size_t kMax = 1024, kKept = 480;
    if (m.size() > kMax)
      m = m.substr(0, kKept) + "...[" + std::to_string(m.size() - 2 * kKept) +
          " bytes]..." + m.substr(m.size() - kKept);
    std::fprintf(stderr, "%s: %s%s\n", name.c_str(), m.c_str(), hint.c_str());
    return usageStatus;
  }
};

/// A CLI11 command line with the behaviour of the file comment. Options
/// given twice keep the last value (as the hand-written parsers did);
/// repeatable ones are declared with `list`. After CLI11 has parsed, in
/// this order: an unexpected argument (an unknown option is more often a
/// misspelt required one than not), a missing `required` option, each
/// value's conversion in the order the options were declared, the checks
/// added with `check`.
class CommandLine {
public:
  /// `help`: the usage text `--help` prints; empty: CLI11's own, from the
  /// descriptions.
  CommandLine(Tool tool, const std::string &description,
              const std::string &help = "")
      : tool_(std::move(tool)), app_(description, tool_.name) {
    app_.option_defaults()->multi_option_policy(
        CLI::MultiOptionPolicy::TakeLast);
    // Reported by parse(), before the missing required options.
    app_.allow_extras();
    if (!help.empty())
      app_.formatter_fn([help](const CLI::App *, std::string,
                               CLI::AppFormatMode) { return help; });
  }

  CLI::App &app() { return app_; }
  const Tool &tool() const { return tool_; }

  /// A string option (any text, the empty string included).
  CLI::Option *text(const std::string &names, std::string &target,
                    const std::string &desc = "") {
    return app_.add_option(names, target, desc);
  }

  /// A flag: present or not.
  CLI::Option *flag(const std::string &names, bool &target,
                    const std::string &desc = "") {
    return app_.add_flag(names, target, desc);
  }

  /// A repeatable option: one value per occurrence (never the positionals
  /// after it), in the order given.
  CLI::Option *list(const std::string &names, std::vector<std::string> &target,
                    const std::string &desc = "") {
    return app_.add_option(names, target, desc)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  }

  /// Positional arguments: every one given, in order.
  CLI::Option *positionals(const std::string &name,
                           std::vector<std::string> &target,
                           const std::string &desc = "") {
    return app_.add_option(name, target, desc)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  }

  /// An option whose value (the last given) goes through `convert` after
  /// parsing; `convert` throws UsageError (the parse* functions do).
  CLI::Option *value(const std::string &names,
                     std::function<void(const std::string &)> convert,
                     const std::string &desc = "",
                     const std::string &typeName = "TEXT") {
    raw_.emplace_back();
    std::string &raw = raw_.back();
    CLI::Option *opt = app_.add_option(names, raw, desc)->type_name(typeName);
    conversions_.push_back([opt, &raw, convert] {
      if (opt->count())
        convert(raw);
    });
    return opt;
  }

  /// A signed integer option in [lo, hi].
  template <typename T>
  CLI::Option *integer(const std::string &names, T &target, int64_t lo,
                       int64_t hi, const std::string &desc = "") {
    return value(
        names,
        [&target, lo, hi, n = longName(names)](const std::string &v) {
          target = T(parseInt(v, n, lo, hi));
        },
        desc, "INT");
  }

  /// An unsigned integer option in [lo, hi]: "-1" is an error.
  template <typename T>
  CLI::Option *unsignedInteger(const std::string &names, T &target,
                               uint64_t lo = 0,
                               uint64_t hi = std::numeric_limits<T>::max(),
                               const std::string &desc = "") {
    return value(
        names,
        [&target, lo, hi, n = longName(names)](const std::string &v) {
          target = T(parseUnsigned(v, n, lo, hi));
        },
        desc, "UINT");
  }

  /// A finite number option in [lo, hi].
  CLI::Option *number(const std::string &names, double &target,
                      double lo = -HUGE_VAL, double hi = HUGE_VAL,
                      const std::string &desc = "") {
    return value(
        names,
        [&target, lo, hi, n = longName(names)](const std::string &v) {
          target = parseNumber(v, n, lo, hi);
        },
        desc, "FLOAT");
  }

  /// An option whose value is one of `choices`.
  CLI::Option *choice(const std::string &names, std::string &target,
                      std::vector<std::string> choices,
                      const std::string &desc = "") {
    return value(
        names,
        [&target, choices, n = longName(names)](const std::string &v) {
          target = parseChoice(v, n, choices);
        },
        desc);
  }

  /// Marks `opt` required: "NAME is required" when it is not given, and
  /// "(required)" in CLI11's --help. (CLI11's own required() would report
  /// a missing option before an unexpected one.)
  CLI::Option *required(CLI::Option *opt) {
    required_.push_back(opt);
    const std::string &d = opt->get_description();
    opt->description(d.empty() ? "required" : d + " (required)");
    return opt;
  }

  /// A check of the parsed values together (exclusive options, a value
  /// that depends on another), run after the conversions.
  void check(std::function<void()> fn) { checks_.push_back(std::move(fn)); }

  /// Parses argv: -1 to go on; 0 after printing --help; the usage status
  /// after a one-line error.
  int parse(int argc, char **argv) {
    try {
      app_.parse(argc, argv);
      if (!app_.remaining(false).empty())
        throw CLI::ExtrasError(app_.get_name(), app_.remaining(false));
      for (CLI::Option *opt : required_)
        if (!opt->count())
          throw CLI::RequiredError(opt->get_name());
      for (const std::function<void()> &c : conversions_)
        c();
      for (const std::function<void()> &c : checks_)
        c();
    } catch (const CLI::CallForHelp &e) {
      return app_.exit(e);
    } catch (const CLI::ParseError &e) {
      return tool_.fail(e.what());
    } catch (const UsageError &e) {
      return tool_.fail(e.what());
    }
    return -1;
  }

  /// One line for a usage error found later; returns the usage status.
  int fail(const std::string &message) const { return tool_.fail(message); }

  /// The option's name in messages: its first long name ("--reps"), else
  /// its first name ("-o").
  static std::string longName(const std::string &names) {
    std::vector<std::string> parts;
    size_t b = 0;
    while (true) {
      size_t c = names.find(',', b);
      parts.push_back(names.substr(b, c == std::string::npos ? c : c - b));
      if (c == std::string::npos)
        break;
      b = c + 1;
    }
    for (const std::string &p : parts)
      if (p.rfind("--", 0) == 0)
        return p;
    return parts.front();
  }

private:
  Tool tool_;
  CLI::App app_;
  std::deque<std::string> raw_; ///< stable addresses for CLI11 to fill
  std::vector<CLI::Option *> required_;
  std::vector<std::function<void()>> conversions_, checks_;
};

} // namespace approx::cli

#endif // APPROX_SUPPORT_CLI_H
