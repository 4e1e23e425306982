//===- Base64.h - RFC 4648 base64 (standard alphabet, padded) ----*- C++ -*-===//
//
// Resource tables in the manifest are base64 text. The decoder is strict:
// the standard alphabet only, length a multiple of 4, `=` padding only at the
// end, no whitespace, and zero padding bits (one text per byte string), so a
// damaged table is an error, not different data.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_BASE64_H
#define APPROX_RUNTIME_CORE_BASE64_H

#include "approx/runtime/core/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace approx::rt {

/// The number of bytes `text` decodes to, computed from its length and
/// padding alone (so a size can be checked before anything is allocated);
/// an error when the length is not a multiple of 4.
Expected<uint64_t> base64DecodedSize(const std::string &text);

/// Decodes `text`; errors say which character offset is at fault.
Expected<std::vector<uint8_t>> decodeBase64(const std::string &text);

/// Encodes `bytes` (standard alphabet, with padding).
std::string encodeBase64(const std::vector<uint8_t> &bytes);

} // namespace approx::rt

#endif // APPROX_RUNTIME_CORE_BASE64_H
