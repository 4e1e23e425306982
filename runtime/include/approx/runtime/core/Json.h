//===- Json.h - Typed JSON reading with paths in the errors -----*- C++ -*-===//
//
// The one kit the runtime reads its JSON files with: the manifest
// (core/Manifest.cpp) and the precision technique's database, configuration
// and profile. A reader checks one value at a time against what the schema
// wants and throws Error{path, message} naming the JSON path at fault
// ("kernels[0].params[3].size"); parseDocument() confines the exceptions
// (nlohmann-json's and these) to one call and turns each into a one-line
// ParseError, "<what>: <path>: <message>". Integers are compared exactly,
// whichever way nlohmann-json stored them (signed or its uint64 encoding),
// and never clamped or wrapped. Text taken from a file is escaped before it
// reaches a message.
//
// Two wordings, because both are documented and tested where they are used:
// the manifest's ("expected an integer"; "knobs[0]: missing required key
// 'max'") and the precision files' ("is a string, not an integer";
// "machine.gpu.uuid: missing"). Everything else is shared.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_JSON_H
#define APPROX_RUNTIME_CORE_JSON_H

#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Status.h"
#include "approx/runtime/core/Text.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <new>
#include <string>
#include <utility>

namespace approx::rt::jsonread {

/// A parsed JSON value.
using Value = nlohmann::json;

/// A schema violation: the JSON path of the value at fault and what is wrong
/// with it. Thrown by the readers, caught by parseDocument().
struct Error {
  std::string path;    ///< "knobs[0].max"; "<root>" for the document.
  std::string message; ///< "4294967296 is out of range [-128, 127]".
};

/// Throws Error{path, message}; an empty path names the root ("<root>").
[[noreturn]] void fail(const std::string &path, const std::string &message);

/// `path.key`, or `key` at the root (empty path).
std::string at(const std::string &path, const std::string &key);
/// `path[i]`.
std::string at(const std::string &path, size_t i);

/// "null", "a boolean", "a number", "a string", "an array" or "an object".
const char *kindOf(const Value &v);

/// How a reader words a value of the wrong kind and a missing key.
enum class Wording {
  /// "expected an integer", and a missing key at its object:
  /// "knobs[0]: missing required key 'max'" (the manifest).
  Expected,
  /// "is a string, not an integer" (a float: "is a number with a fraction,
  /// not an integer"), and a missing key at its own path:
  /// "machine.gpu.uuid: missing" (the precision files).
  Found,
};

/// Whether strings may hold a NUL character.
enum class Nul {
  Allowed,
  /// Refused: "the string 'a\x00b' contains a NUL character" (names that
  /// reach C APIs, as the manifest's do).
  Refused,
};

/// Typed getters over JSON values. `path` is always the JSON path of the
/// value handed in (empty for the root); getters that take a `key` read
/// that member of the object at `path`. Each throws Error on a violation.
class Reader {
public:
  /// A reader with `wording`; strings may hold NUL unless `nul` refuses.
  constexpr explicit Reader(Wording wording, Nul nul = Nul::Allowed)
      : wording_(wording), nul_(nul) {}

  // --- one value --------------------------------------------------------
  /// Throws unless `v` is an object.
  void expectObject(const Value &v, const std::string &path) const;
  /// Throws unless `v` is an array.
  void expectArray(const Value &v, const std::string &path) const;
  /// `v` as a string (see Nul).
  std::string asString(const Value &v, const std::string &path) const;
  /// `v` as an integer in [lo, hi]; a negative value below `lo` is "out of
  /// range" like any other.
  int64_t asInteger(const Value &v, const std::string &path,
                    int64_t lo = std::numeric_limits<int64_t>::min(),
                    int64_t hi = std::numeric_limits<int64_t>::max()) const;
  /// `v` as a non-negative integer in [lo, hi]; a negative one "is
  /// negative".
  uint64_t asUnsigned(const Value &v, const std::string &path, uint64_t lo,
                      uint64_t hi) const;
  /// `v` as a number, integer or not.
  double asNumber(const Value &v, const std::string &path) const;
  /// `v` as true or false.
  bool asBoolean(const Value &v, const std::string &path) const;

  // --- members of an object ---------------------------------------------
  /// `obj[key]`, or nullptr when absent; throws unless `obj` is an object.
  const Value *find(const Value &obj, const std::string &path,
                    const char *key) const;
  /// `obj[key]`; throws when absent (see Wording).
  const Value &member(const Value &obj, const std::string &path,
                      const char *key) const;
  /// The object at `key`.
  const Value &object(const Value &obj, const std::string &path,
                      const char *key) const;
  /// The array at `key`.
  const Value &array(const Value &obj, const std::string &path,
                     const char *key) const;
  /// The array at `key`, or an empty array when the key is absent.
  const Value &optionalArray(const Value &obj, const std::string &path,
                             const char *key) const;
  /// The string at `key`.
  std::string string(const Value &obj, const std::string &path,
                     const char *key) const;
  /// The string at `key`, which may not be empty ("is empty").
  std::string nonEmptyString(const Value &obj, const std::string &path,
                             const char *key) const;
  /// The string at `key`, or `absent` when the key is absent.
  std::string optionalString(const Value &obj, const std::string &path,
                             const char *key,
                             const std::string &absent = "") const;
  /// The integer at `key`, in [lo, hi].
  int64_t integer(const Value &obj, const std::string &path, const char *key,
                  int64_t lo = std::numeric_limits<int64_t>::min(),
                  int64_t hi = std::numeric_limits<int64_t>::max()) const;
  /// The non-negative integer at `key`, in [lo, hi].
  uint64_t unsignedInteger(const Value &obj, const std::string &path,
                           const char *key, uint64_t lo, uint64_t hi) const;
  /// The number at `key`.
  double number(const Value &obj, const std::string &path,
                const char *key) const;
  /// The boolean at `key`.
  bool boolean(const Value &obj, const std::string &path,
               const char *key) const;
  /// The string at `key` as one of `choices` ("is 'x', expected one of
  /// \"a\", \"b\"").
  template <typename E>
  E choice(const Value &obj, const std::string &path, const char *key,
           std::initializer_list<std::pair<const char *, E>> choices) const {
    std::string s = string(obj, path, key);
    std::string list;
    for (auto &[name, e] : choices) {
      if (s == name)
        return e;
      list += std::string(list.empty() ? "" : ", ") + "\"" + name + "\"";
    }
    failChoice(at(path, key), s, list);
  }
  /// Throws on the first key of the object `obj` not among `keys` ("unknown
  /// field"), for formats that refuse what they do not know.
  void onlyKeys(const Value &obj, const std::string &path,
                std::initializer_list<const char *> keys) const;

private:
  /// Throws: `v` is not the `what` ("object", "integer", ...) wanted.
  [[noreturn]] void wrongKind(const Value &v, const std::string &path,
                              const char *what) const;
  [[noreturn]] static void failChoice(const std::string &path,
                                      const std::string &found,
                                      const std::string &list);

  Wording wording_;
  Nul nul_;
};

namespace detail {
/// Parses `text` into `root`: Ok, or the one-line error prefixed by `what`
/// (not JSON, nested deeper than `maxNesting` when that is > 0, out of
/// memory).
Status parseText(const std::string &text, const std::string &what,
                 int maxNesting, Value &root);
} // namespace detail

/// Parses `text` as JSON and returns `parseOrThrow(root)`. Every error (not
/// JSON, an Error, any other nlohmann-json exception, out of memory) comes
/// back as one line prefixed by `what` ("manifest", "precision db"); a
/// syntax error is "<what>: <root>: not valid JSON: ...", with the parser's
/// echo of what it last read cut to 60 bytes. `maxNesting` > 0 refuses
/// deeper documents before parsing (for readers that recurse).
template <typename T, typename ParseFn>
Expected<T> parseDocument(const std::string &text, const std::string &what,
                          ParseFn parseOrThrow, int maxNesting = 0) {
  Value root;
  APPROX_RETURN_IF_ERROR(detail::parseText(text, what, maxNesting, root));
  try {
    return parseOrThrow(root);
  } catch (const Error &e) {
    return parseError(what + ": " + e.path + ": " + e.message);
  } catch (const Value::exception &e) {
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

} // namespace approx::rt::jsonread

#endif // APPROX_RUNTIME_CORE_JSON_H
