//===- Manifest.h - The compiler -> runtime contract -------------*- C++ -*-===//
//
// In-memory form of `NAME.manifest.json` (docs/manifest.md, format version 1)
// and its parser. Parsing validates everything a launcher relies on: types,
// parameter sizes, memref descriptor layout (3 + 2*rank params), argument to
// parameter cross references, knob ranges and knob names used by kernels. A
// manifest that parses is safe to launch from.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_MANIFEST_H
#define APPROX_RUNTIME_MANIFEST_H

#include "approx/runtime/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace approx::rt {

/// Scalar/element types of the manifest ("ptr" is a CUdeviceptr).
enum class ScalarType { I1, I8, I16, I32, I64, Index, F16, F32, F64, Ptr };

/// Parses a manifest type name ("f32", "index", ...).
Expected<ScalarType> parseScalarType(const std::string &name);
/// The manifest spelling of `t`.
const char *scalarTypeName(ScalarType t);
/// Size in bytes of one value of `t` as passed to / stored by the kernel
/// (i1 is one byte, index is 8).
size_t scalarTypeSize(ScalarType t);
bool isFloatType(ScalarType t);
bool isIntegerType(ScalarType t); ///< i1..i64 and index.

/// A tunable global (e.g. λ): a `.visible .global` of `type` named `symbol`.
struct KnobInfo {
  std::string name;
  std::string symbol;
  ScalarType type = ScalarType::I32;
  int64_t min = 0;
  int64_t max = 0;
  int64_t defaultValue = 0;
};

/// One MLIR-level kernel argument.
struct ArgInfo {
  enum class Kind { Memref, Scalar };
  Kind kind = Kind::Scalar;
  ScalarType type = ScalarType::I32; ///< element type (memref) or value type.
  int64_t rank = 0;                  ///< memref only.
  std::vector<int64_t> shape;        ///< memref only; -1 for dynamic sizes.
  /// memref only: how the kernel uses it, as the compiler saw it
  /// ("read", "write", "readwrite", "none"); "" when the manifest omits it.
  std::string access;
  size_t firstParam = 0;
  size_t numParams = 0;
};

/// One PTX parameter (one `void*` given to cuLaunchKernel).
struct ParamInfo {
  size_t arg = 0;
  std::string field; ///< allocated, aligned, offset, sizeN, strideN, value.
  ScalarType type = ScalarType::I64;
  size_t size = 0;
};

struct KernelInfo {
  std::string name;
  std::vector<std::string> knobs;
  std::vector<ArgInfo> args;
  std::vector<ParamInfo> params;
};

/// One approximated call site (informational).
struct SiteInfo {
  std::string kernel, op, type, knob, loc;
  bool rangeReduction = false;
  int64_t newtonSteps = 0;
  bool demoteToF32 = false;
  bool sfuForm = true; ///< false: the op has no SFU form (stays precise).
};

struct Manifest {
  int version = 1;
  std::string module;
  std::string gpuModule;
  std::string ptx;   ///< path relative to the manifest (may be empty).
  std::string cubin; ///< path relative to the manifest (may be empty).
  std::string chip;
  std::string slot = "hw"; ///< "hw" | "virtual" | "software".
  std::vector<KnobInfo> knobs;
  std::vector<KernelInfo> kernels;
  std::vector<SiteInfo> sites;
  std::string directory; ///< directory of the manifest file ("" if parsed
                         ///< from a string).

  const KernelInfo *findKernel(const std::string &name) const;
  const KnobInfo *findKnob(const std::string &name) const;
};

/// Parses and validates manifest JSON text. `directory` is recorded to
/// resolve the ptx/cubin paths.
Expected<Manifest> parseManifest(const std::string &jsonText,
                                 const std::string &directory = "");

/// Reads and parses a manifest file.
Expected<Manifest> loadManifestFile(const std::string &path);

} // namespace approx::rt

#endif // APPROX_RUNTIME_MANIFEST_H
