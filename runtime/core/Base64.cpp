//===- Base64.cpp - Strict RFC 4648 decoding and encoding -----------------===//
//
// Four characters make three bytes; `==` ends a group holding one byte and
// `=` one holding two. The bits a short group does not use must be zero
// (RFC 4648 section 3.5 lets a decoder insist on it; we do).
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Base64.h"

namespace approx::rt {

static const char kAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 6-bit value of `c`, or -1.
static int sextet(unsigned char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

Expected<uint64_t> base64DecodedSize(const std::string &text) {
  if (text.size() % 4 != 0)
    return invalidArgument("base64 text of " + std::to_string(text.size()) +
                           " characters: the length must be a multiple of 4");
  uint64_t n = uint64_t(text.size()) / 4 * 3;
  if (!text.empty() && text[text.size() - 1] == '=')
    --n;
  if (text.size() >= 2 && text[text.size() - 2] == '=')
    --n;
  return n;
}

static Expected<std::vector<uint8_t>> decode(const std::string &text,
                                             uint64_t size);

Expected<std::vector<uint8_t>> decodeBase64(const std::string &text) {
  APPROX_ASSIGN_OR_RETURN(uint64_t size, base64DecodedSize(text));
  try {
    return decode(text, size);
  } catch (const std::bad_alloc &) {
    return Status(StatusCode::OutOfMemory,
                  "base64: out of host memory for " + std::to_string(size) +
                      " bytes");
  }
}

static Expected<std::vector<uint8_t>> decode(const std::string &text,
                                             uint64_t size) {
  std::vector<uint8_t> out;
  out.reserve(size_t(size));
  for (size_t g = 0; g < text.size(); g += 4) {
    bool last = g + 4 == text.size();
    int v[4];
    int pad = 0;
    for (int i = 0; i < 4; ++i) {
      unsigned char c = static_cast<unsigned char>(text[g + i]);
      if (c == '=') {
        // Padding only in the last group, only in its last two places, and
        // nothing but padding after it.
        if (!last || i < 2 || (i == 2 && text[g + 3] != '='))
          return invalidArgument("base64: misplaced '=' at offset " +
                                 std::to_string(g + i));
        v[i] = 0;
        ++pad;
        continue;
      }
      v[i] = sextet(c);
      if (v[i] < 0) {
        std::string shown = c >= 0x20 && c < 0x7f
                                ? std::string("'") + char(c) + "'"
                                : "byte " + std::to_string(int(c));
        return invalidArgument("base64: " + shown +
                               " at offset " + std::to_string(g + i) +
                               " is not in the alphabet");
      }
    }
    uint32_t bits = uint32_t(v[0]) << 18 | uint32_t(v[1]) << 12 |
                    uint32_t(v[2]) << 6 | uint32_t(v[3]);
    if ((pad == 1 && (bits & 0xff)) || (pad == 2 && (bits & 0xffff)))
      return invalidArgument("base64: non-zero padding bits in the last "
                             "group (offset " +
                             std::to_string(g) + ")");
    out.push_back(uint8_t(bits >> 16));
    if (pad < 2)
      out.push_back(uint8_t(bits >> 8));
    if (pad < 1)
      out.push_back(uint8_t(bits));
  }
  return out;
}

std::string encodeBase64(const std::vector<uint8_t> &bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t b = uint32_t(bytes[i]) << 16 | uint32_t(bytes[i + 1]) << 8 |
                 bytes[i + 2];
    out.push_back(kAlphabet[b >> 18]);
    out.push_back(kAlphabet[(b >> 12) & 63]);
    out.push_back(kAlphabet[(b >> 6) & 63]);
    out.push_back(kAlphabet[b & 63]);
  }
  size_t rest = bytes.size() - i;
  if (rest) {
    uint32_t b = uint32_t(bytes[i]) << 16;
    if (rest == 2)
      b |= uint32_t(bytes[i + 1]) << 8;
    out.push_back(kAlphabet[b >> 18]);
    out.push_back(kAlphabet[(b >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(b >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

} // namespace approx::rt
