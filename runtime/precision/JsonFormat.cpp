//===- JsonFormat.cpp - What the precision JSON files share ---------------===//
//
// See JsonFormat.h. The messages say what was found ("'x' is not
// 'approx-precision-db'"), so a file of another kind says so first.
//
//===----------------------------------------------------------------------===//
#include "JsonFormat.h"

#include "approx/runtime/core/Text.h"

namespace approx::rt::precision {

using jsonread::at;
using jsonread::fail;

ScalarType typeAt(const jsonread::Value &o, const std::string &path,
                  const char *key) {
  std::string s = reader.string(o, path, key);
  Expected<ScalarType> t = parsePrecision(s);
  if (!t)
    fail(at(path, key),
         "unknown type " + quote(s) + " (expected f64, f32, f16 or bf16)");
  return *t;
}

void checkFormat(const jsonread::Value &root, const char *format,
                 uint64_t version) {
  std::string f = reader.string(root, "", "format");
  if (f != format)
    fail("format", quote(f) + " is not '" + format + "'");
  uint64_t v = reader.unsignedInteger(root, "", "version", 0, UINT32_MAX);
  if (v != version)
    fail("version", std::to_string(v) +
                        " is not supported (this build "
                        "reads version " +
                        std::to_string(version) + ")");
}

} // namespace approx::rt::precision
