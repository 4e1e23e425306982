//===- JsonFormat.h - What the precision JSON files share (private) -------===//
//
// The precision files (SystemDb.cpp: the system database; Decision.cpp: the
// configuration and the profile) are read with core's JSON kit
// (approx/runtime/core/Json.h) in its "is a string, not an integer"
// wording. This adds the fields all three have: the format/version header
// and storage types (f64, f32, f16, bf16).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_JSONFORMAT_H
#define APPROX_RUNTIME_PRECISION_JSONFORMAT_H

#include "approx/runtime/core/Json.h"
#include "approx/runtime/precision/HostConvert.h"

#include <cstdint>
#include <string>

namespace approx::rt::precision {

/// The precision files' reader: "is a string, not an integer"; a missing
/// key is "<path>.<key>: missing".
inline constexpr jsonread::Reader reader(jsonread::Wording::Found);

/// The member `key` of `o`, which must name f64, f32, f16 or bf16.
ScalarType typeAt(const jsonread::Value &o, const std::string &path,
                  const char *key);

/// Checks that `root` is an object whose "format" is `format` and whose
/// "version" is `version`.
void checkFormat(const jsonread::Value &root, const char *format,
                 uint64_t version);

} // namespace approx::rt::precision

#endif // APPROX_RUNTIME_PRECISION_JSONFORMAT_H
