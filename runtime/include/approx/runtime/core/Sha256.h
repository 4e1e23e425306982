//===- Sha256.h - SHA-256 of a byte string ----------------------*- C++ -*-===//
//
// The digest that names a build in the configuration cache
// (docs/configurations.md); the compiler computes the same with
// llvm::SHA256.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_SHA256_H
#define APPROX_RUNTIME_CORE_SHA256_H

#include <string>

namespace approx::rt {

/// SHA-256 of `data`, as 64 lowercase hexadecimal digits.
std::string sha256Hex(const std::string &data);

} // namespace approx::rt

#endif // APPROX_RUNTIME_CORE_SHA256_H
