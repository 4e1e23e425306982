//===- OutputsFile.h - A program's outputs as f64, in one file --*- C++ -*-===//
//
// The file APPROX_PRECISION_OUTPUTS names (runtime/mgpu/PrecisionHooks.h):
// per object, the host contents of its last device-to-host transfer as f64,
// written by the mgpu* hooks at the end of a profile or scale run and read
// by `approx-scale --exec`, which compares a scaled run's outputs with the
// f64 run's (Quality.h). Header-only: the hooks' library and the tool each
// compile it, and neither links the other.
//
// Layout, all integers and values little-endian:
//
//   "APXOUT1\n"                 8 bytes of magic
//   u64 count                   objects
//   count times:
//     u32 length, name bytes    "obj3" (no NUL)
//     u64 n, n x f64            the values
//
// Nothing follows the last object.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_OUTPUTSFILE_H
#define APPROX_RUNTIME_PRECISION_OUTPUTSFILE_H

#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Status.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace approx::rt::precision {

/// One object's outputs: its name and its values in f64.
struct NamedOutput {
  std::string name;
  std::vector<double> values;
};

namespace outputs_file_detail {
constexpr char kMagic[8] = {'A', 'P', 'X', 'O', 'U', 'T', '1', '\n'};

template <typename T> void put(std::string &s, T v) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  for (size_t i = 0; i < sizeof(T) / 2; ++i)
    std::swap(b[i], b[sizeof(T) - 1 - i]);
#endif
  s.append(reinterpret_cast<const char *>(b), sizeof(T));
}

template <typename T> bool get(const std::string &s, size_t &at, T &v) {
  if (s.size() - at < sizeof(T))
    return false;
  unsigned char b[sizeof(T)];
  std::memcpy(b, s.data() + at, sizeof(T));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  for (size_t i = 0; i < sizeof(T) / 2; ++i)
    std::swap(b[i], b[sizeof(T) - 1 - i]);
#endif
  std::memcpy(&v, b, sizeof(T));
  at += sizeof(T);
  return true;
}
} // namespace outputs_file_detail

/// The bytes of an outputs file holding `outputs`, in their order.
inline std::string encodeOutputs(const std::vector<NamedOutput> &outputs) {
  namespace d = outputs_file_detail;
  std::string s(d::kMagic, sizeof(d::kMagic));
  d::put<uint64_t>(s, outputs.size());
  for (const NamedOutput &o : outputs) {
    d::put<uint32_t>(s, uint32_t(o.name.size()));
    s += o.name;
    d::put<uint64_t>(s, o.values.size());
    for (double v : o.values)
      d::put<double>(s, v);
  }
  return s;
}

/// The objects of an outputs file's bytes; `path` names it in errors
/// (ParseError: bad magic, a truncated record, bytes after the last one).
inline Expected<std::vector<NamedOutput>>
parseOutputs(const std::string &bytes, const std::string &path) {
  namespace d = outputs_file_detail;
  auto bad = [&](const std::string &why) {
    return parseError("outputs file '" + path + "': " + why);
  };
  if (bytes.size() < sizeof(d::kMagic) ||
      std::memcmp(bytes.data(), d::kMagic, sizeof(d::kMagic)) != 0)
    return bad("not an outputs file (no APXOUT1 magic)");
  size_t at = sizeof(d::kMagic);
  uint64_t count = 0;
  if (!d::get(bytes, at, count))
    return bad("truncated object count");
  std::vector<NamedOutput> out;
  for (uint64_t k = 0; k < count; ++k) {
    const std::string which = "object " + std::to_string(k + 1);
    uint32_t len = 0;
    if (!d::get(bytes, at, len) || bytes.size() - at < len)
      return bad(which + ": truncated name");
    NamedOutput o;
    o.name.assign(bytes, at, len);
    at += len;
    uint64_t n = 0;
    if (!d::get(bytes, at, n) || (bytes.size() - at) / sizeof(double) < n)
      return bad(which + " (" + o.name + "): truncated values");
    o.values.resize(size_t(n));
    for (double &v : o.values)
      d::get(bytes, at, v);
    out.push_back(std::move(o));
  }
  if (at != bytes.size())
    return bad(std::to_string(bytes.size() - at) +
               " bytes after the last object");
  return out;
}

/// Reads and parses the outputs file `path` (a regular file of at most
/// 64 GiB).
inline Expected<std::vector<NamedOutput>>
loadOutputs(const std::string &path) {
  APPROX_ASSIGN_OR_RETURN(std::string bytes,
                          readRegularFile(path, uint64_t(1) << 36,
                                          "outputs file"));
  return parseOutputs(bytes, path);
}

} // namespace approx::rt::precision

#endif // APPROX_RUNTIME_PRECISION_OUTPUTSFILE_H
