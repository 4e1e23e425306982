//===- Json.cpp - Typed JSON reading with paths in the errors -------------===//
//
// The readers of Json.h. Each check throws Error with the JSON path of the
// value it rejects and says what is wrong in the reader's wording; parsing
// confines nlohmann-json's exceptions to this file and parseDocument().
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Json.h"

#include <algorithm>

namespace approx::rt::jsonread {

void fail(const std::string &path, const std::string &message) {
  throw Error{path.empty() ? "<root>" : path, message};
}

std::string at(const std::string &path, const std::string &key) {
  return path.empty() ? key : path + "." + key;
}

std::string at(const std::string &path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

const char *kindOf(const Value &v) {
  if (v.is_null())
    return "null";
  if (v.is_boolean())
    return "a boolean";
  if (v.is_number())
    return "a number";
  if (v.is_string())
    return "a string";
  if (v.is_array())
    return "an array";
  return "an object";
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

void Reader::wrongKind(const Value &v, const std::string &path,
                       const char *what) const {
  const std::string w = what;
  if (wording_ == Wording::Expected) {
    if (w == "boolean")
      fail(path, "expected true or false");
    const bool vowel = w == "object" || w == "array" || w == "integer";
    fail(path, std::string("expected ") + (vowel ? "an " : "a ") + w);
  }
  const bool vowel = w == "object" || w == "array" || w == "integer";
  // A float where an integer goes: say that it is the fraction at fault.
  const char *fraction =
      w == "integer" && v.is_number() ? " with a fraction" : "";
  fail(path, std::string("is ") + kindOf(v) + fraction + ", not " +
                 (vowel ? "an " : "a ") + w);
}

void Reader::failChoice(const std::string &path, const std::string &found,
                        const std::string &list) {
  fail(path, "is " + quote(found) + ", expected one of " + list);
}

void Reader::expectObject(const Value &v, const std::string &path) const {
  if (!v.is_object())
    wrongKind(v, path, "object");
}

void Reader::expectArray(const Value &v, const std::string &path) const {
  if (!v.is_array())
    wrongKind(v, path, "array");
}

std::string Reader::asString(const Value &v, const std::string &path) const {
  if (!v.is_string())
    wrongKind(v, path, "string");
  std::string s = v.get<std::string>();
  if (nul_ == Nul::Refused && s.find('\0') != std::string::npos)
    fail(path, "the string " + quote(s) + " contains a NUL character");
  return s;
}

int64_t Reader::asInteger(const Value &v, const std::string &path, int64_t lo,
                          int64_t hi) const {
  if (!v.is_number_integer())
    wrongKind(v, path, "integer");
  std::string range = " is out of range [" + std::to_string(lo) + ", " +
                      std::to_string(hi) + "]";
  if (v.is_number_unsigned()) {
    // Compared as uint64 first: a value past INT64_MAX must not wrap.
    uint64_t u = v.get<uint64_t>();
    if (u > uint64_t(std::numeric_limits<int64_t>::max()) || int64_t(u) > hi ||
        int64_t(u) < lo)
      fail(path, std::to_string(u) + range);
    return int64_t(u);
  }
  int64_t x = v.get<int64_t>();
  if (x < lo || x > hi)
    fail(path, std::to_string(x) + range);
  return x;
}

uint64_t Reader::asUnsigned(const Value &v, const std::string &path,
                            uint64_t lo, uint64_t hi) const {
  if (!v.is_number_integer())
    wrongKind(v, path, "integer");
  if (!v.is_number_unsigned() && v.get<int64_t>() < 0)
    fail(path, std::to_string(v.get<int64_t>()) + " is negative");
  uint64_t x = v.get<uint64_t>();
  if (x < lo || x > hi)
    fail(path, std::to_string(x) + " is out of range [" + std::to_string(lo) +
                   ", " + std::to_string(hi) + "]");
  return x;
}

double Reader::asNumber(const Value &v, const std::string &path) const {
  if (!v.is_number())
    wrongKind(v, path, "number");
  return v.get<double>();
}

bool Reader::asBoolean(const Value &v, const std::string &path) const {
  if (!v.is_boolean())
    wrongKind(v, path, "boolean");
  return v.get<bool>();
}

const Value *Reader::find(const Value &obj, const std::string &path,
                          const char *key) const {
  expectObject(obj, path);
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const Value &Reader::member(const Value &obj, const std::string &path,
                            const char *key) const {
  const Value *v = find(obj, path, key);
  if (!v) {
    if (wording_ == Wording::Expected)
      fail(path, std::string("missing required key '") + key + "'");
    fail(at(path, key), "missing");
  }
  return *v;
}

const Value &Reader::object(const Value &obj, const std::string &path,
                            const char *key) const {
  const Value &v = member(obj, path, key);
  expectObject(v, at(path, key));
  return v;
}

const Value &Reader::array(const Value &obj, const std::string &path,
                           const char *key) const {
  const Value &v = member(obj, path, key);
  expectArray(v, at(path, key));
  return v;
}

const Value &Reader::optionalArray(const Value &obj, const std::string &path,
                                   const char *key) const {
  static const Value kEmpty = Value::array();
  const Value *v = find(obj, path, key);
  if (!v)
    return kEmpty;
  expectArray(*v, at(path, key));
  return *v;
}

std::string Reader::string(const Value &obj, const std::string &path,
                           const char *key) const {
  return asString(member(obj, path, key), at(path, key));
}

std::string Reader::nonEmptyString(const Value &obj, const std::string &path,
                                   const char *key) const {
  std::string s = string(obj, path, key);
  if (s.empty())
    fail(at(path, key), "is empty");
  return s;
}

std::string Reader::optionalString(const Value &obj, const std::string &path,
                                   const char *key,
                                   const std::string &absent) const {
  const Value *v = find(obj, path, key);
  return v ? asString(*v, at(path, key)) : absent;
}

int64_t Reader::integer(const Value &obj, const std::string &path,
                        const char *key, int64_t lo, int64_t hi) const {
  return asInteger(member(obj, path, key), at(path, key), lo, hi);
}

uint64_t Reader::unsignedInteger(const Value &obj, const std::string &path,
                                 const char *key, uint64_t lo,
                                 uint64_t hi) const {
  return asUnsigned(member(obj, path, key), at(path, key), lo, hi);
}

double Reader::number(const Value &obj, const std::string &path,
                      const char *key) const {
  return asNumber(member(obj, path, key), at(path, key));
}

bool Reader::boolean(const Value &obj, const std::string &path,
                     const char *key) const {
  return asBoolean(member(obj, path, key), at(path, key));
}

void Reader::onlyKeys(const Value &obj, const std::string &path,
                      std::initializer_list<const char *> keys) const {
  expectObject(obj, path);
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    for (const char *k : keys)
      known = known || it.key() == k;
    if (!known)
      fail(at(path, escapeBytes(it.key())), "unknown field");
  }
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// The deepest nesting of arrays and objects in `text` (outside strings),
/// stopping early past `limit`: nlohmann's parser is iterative, but a reader
/// may recurse (the manifest re-serializes its `data` objects).
static int nestingDepth(const std::string &text, int limit) {
  int depth = 0, deepest = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit)
        return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

Status detail::parseText(const std::string &text, const std::string &what,
                         int maxNesting, Value &root) {
  if (maxNesting > 0 && nestingDepth(text, maxNesting) > maxNesting)
    return parseError(what + ": <root>: JSON nested deeper than " +
                      std::to_string(maxNesting) + " levels");
  try {
    root = Value::parse(text);
  } catch (const Value::parse_error &e) {
    // nlohmann quotes everything it read of the bad token ("last read:
    // '...'"), which for a long string is the whole string: keep 60 bytes.
    std::string m = e.what();
    size_t last = m.find("; last read: '");
    if (last != std::string::npos && m.size() > last + 14 + 60)
      m = m.substr(0, last + 14 + 60) + "...'";
    return parseError(what + ": <root>: not valid JSON: " + escapeBytes(m));
  } catch (const std::bad_alloc &) {
    return Status(StatusCode::OutOfMemory,
                  what + ": out of host memory while parsing");
  }
  return Status::ok();
}

} // namespace approx::rt::jsonread
