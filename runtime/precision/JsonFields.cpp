//===- JsonFields.cpp - schema checks for precision JSON files ------------===//
//
// The field readers of JsonFields.h. Each throws Bad with the JSON path of
// the value it rejects and says what it found ("is a string, not an
// integer"), so one message locates and explains the fault.
//
//===----------------------------------------------------------------------===//
#include "JsonFields.h"

namespace approx::rt::precision::jsonfields {

void bad(const std::string &path, const std::string &message) {
  throw Bad{path, message};
}

std::string sub(const std::string &path, const std::string &key) {
  return path.empty() ? key : path + "." + key;
}

std::string idx(const std::string &path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

const char *kindOf(const json &j) {
  if (j.is_null())
    return "null";
  if (j.is_boolean())
    return "a boolean";
  if (j.is_number())
    return "a number";
  if (j.is_string())
    return "a string";
  if (j.is_array())
    return "an array";
  return "an object";
}

void expectObject(const json &v, const std::string &path) {
  if (!v.is_object())
    bad(path, std::string("is ") + kindOf(v) + ", not an object");
}

void expectArray(const json &v, const std::string &path) {
  if (!v.is_array())
    bad(path, std::string("is ") + kindOf(v) + ", not an array");
}

void onlyKeys(const json &o, const std::string &path,
              std::initializer_list<const char *> keys) {
  for (auto it = o.begin(); it != o.end(); ++it) {
    bool known = false;
    for (const char *k : keys)
      known = known || it.key() == k;
    if (!known)
      bad(sub(path, escapeBytes(it.key())), "unknown field");
  }
}

const json &field(const json &o, const std::string &path, const char *key) {
  expectObject(o, path);
  if (!o.contains(key))
    bad(sub(path, key), "missing");
  return o.at(key);
}

const json &objectAt(const json &o, const std::string &path, const char *key) {
  const json &v = field(o, path, key);
  expectObject(v, sub(path, key));
  return v;
}

const json &arrayAt(const json &o, const std::string &path, const char *key) {
  const json &v = field(o, path, key);
  expectArray(v, sub(path, key));
  return v;
}

std::string stringAt(const json &o, const std::string &path, const char *key,
                     bool allowEmpty) {
  const json &v = field(o, path, key);
  if (!v.is_string())
    bad(sub(path, key), std::string("is ") + kindOf(v) + ", not a string");
  std::string s = v.get<std::string>();
  if (!allowEmpty && s.empty())
    bad(sub(path, key), "is empty");
  return s;
}

double numberAt(const json &o, const std::string &path, const char *key) {
  const json &v = field(o, path, key);
  if (!v.is_number())
    bad(sub(path, key), std::string("is ") + kindOf(v) + ", not a number");
  return v.get<double>();
}

uint64_t uintAt(const json &o, const std::string &path, const char *key,
                uint64_t lo, uint64_t hi) {
  const json &v = field(o, path, key);
  if (v.is_number_float() || !v.is_number())
    bad(sub(path, key), std::string("is ") + kindOf(v) +
                            (v.is_number() ? " with a fraction" : "") +
                            ", not an integer");
  if (v.is_number_integer() && !v.is_number_unsigned())
    bad(sub(path, key), std::to_string(v.get<int64_t>()) + " is negative");
  uint64_t x = v.get<uint64_t>();
  if (x < lo || x > hi)
    bad(sub(path, key), std::to_string(x) + " is out of range [" +
                            std::to_string(lo) + ", " + std::to_string(hi) +
                            "]");
  return x;
}

ScalarType typeAt(const json &o, const std::string &path, const char *key) {
  std::string s = stringAt(o, path, key, /*allowEmpty=*/true);
  Expected<ScalarType> t = parsePrecision(s);
  if (!t)
    bad(sub(path, key),
        "unknown type " + quote(s) + " (expected f64, f32, f16 or bf16)");
  return *t;
}

void checkFormat(const json &root, const char *format, uint64_t version) {
  std::string f = stringAt(root, "", "format", /*allowEmpty=*/true);
  if (f != format)
    bad("format", quote(f) + " is not '" + format + "'");
  uint64_t v = uintAt(root, "", "version", 0, UINT32_MAX);
  if (v != version)
    bad("version", std::to_string(v) +
                       " is not supported (this build "
                       "reads version " +
                       std::to_string(version) + ")");
}

} // namespace approx::rt::precision::jsonfields
