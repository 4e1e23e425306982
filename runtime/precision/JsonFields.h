//===- JsonFields.h - schema checks for precision JSON files (private) ----===//
//
// The field readers shared by the precision files (SystemDb.cpp: the system
// database; Decision.cpp: the configuration and the profile). A schema
// violation throws Bad{path, message}, where path is the JSON path of the
// offending value ("objects[2].h2d.kind"); parseDocument() confines the
// exceptions and turns each into one ParseError line, as Manifest.cpp does.
// Names read from a file are escaped before they reach a message.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_JSONFIELDS_H
#define APPROX_RUNTIME_PRECISION_JSONFIELDS_H

#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Status.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/precision/HostConvert.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <new>
#include <string>
#include <vector>

namespace approx::rt::precision::jsonfields {

using json = nlohmann::json;

/// A schema violation: `path: message`.
struct Bad {
  std::string path, message;
};

/// Throws Bad{path, message}.
[[noreturn]] void bad(const std::string &path, const std::string &message);

/// `path.key`, or `key` at the root (empty path).
std::string sub(const std::string &path, const std::string &key);
/// `path[i]`.
std::string idx(const std::string &path, size_t i);

/// "null", "a boolean", "a number", "a string", "an array" or "an object".
const char *kindOf(const json &j);

/// Throws unless `v` is an object ("is a string, not an object").
void expectObject(const json &v, const std::string &path);
/// Throws unless `v` is an array.
void expectArray(const json &v, const std::string &path);

/// Throws on the first key of the object `o` not among `keys`.
void onlyKeys(const json &o, const std::string &path,
              std::initializer_list<const char *> keys);

/// The value of `key` in the object `o` at `path`; throws when `o` is not
/// an object or has no `key`.
const json &field(const json &o, const std::string &path, const char *key);
/// field() that must be an object.
const json &objectAt(const json &o, const std::string &path, const char *key);
/// field() that must be an array.
const json &arrayAt(const json &o, const std::string &path, const char *key);
/// field() that must be a string, non-empty unless `allowEmpty`.
std::string stringAt(const json &o, const std::string &path, const char *key,
                     bool allowEmpty = false);
/// field() that must be a number (integer or not).
double numberAt(const json &o, const std::string &path, const char *key);
/// field() that must be an integer in [lo, hi].
uint64_t uintAt(const json &o, const std::string &path, const char *key,
                uint64_t lo, uint64_t hi);
/// field() that must name f64, f32, f16 or bf16.
ScalarType typeAt(const json &o, const std::string &path, const char *key);

/// Checks that `root` is an object whose "format" is `format` and whose
/// "version" is `version`.
void checkFormat(const json &root, const char *format, uint64_t version);

/// Parses `text` as JSON and hands the tree to `parseOrThrow`. Every error
/// (not JSON, a Bad, any other JSON exception, out of memory) comes back
/// as one line prefixed by `what` ("precision db").
template <typename T, typename ParseFn>
Expected<T> parseDocument(const std::string &text, const std::string &what,
                          ParseFn parseOrThrow) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error &e) {
    std::string m = e.what();
    if (m.size() > 160)
      m = m.substr(0, 160) + "...";
    return parseError(what + ": <root>: not valid JSON: " + escapeBytes(m));
  } catch (const std::bad_alloc &) {
    return Status(StatusCode::OutOfMemory,
                  what + ": out of host memory while parsing");
  }
  try {
    return parseOrThrow(root);
  } catch (const Bad &b) {
    return parseError(what + ": " + b.path + ": " + b.message);
  } catch (const json::exception &e) {
    return parseError(what + ": " + escapeBytes(e.what()));
  } catch (const std::bad_alloc &) {
    return Status(StatusCode::OutOfMemory,
                  what + ": out of host memory while parsing");
  }
}

/// Reads the regular file `path` (at most `maxBytes`, named `what` in
/// errors) and parses it with `parse`; errors name the path.
template <typename T>
Expected<T> loadDocument(const std::string &path, uint64_t maxBytes,
                         const char *what,
                         Expected<T> (*parse)(const std::string &)) {
  APPROX_ASSIGN_OR_RETURN(std::string text,
                          readRegularFile(path, maxBytes, what));
  Expected<T> t = parse(text);
  if (!t)
    return t.status().withContext(quote(path));
  return t;
}

} // namespace approx::rt::precision::jsonfields

#endif // APPROX_RUNTIME_PRECISION_JSONFIELDS_H
