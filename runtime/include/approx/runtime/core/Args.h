//===- Args.h - Kernel arguments matched to the manifest ABI -----*- C++ -*-===//
//
// A launch takes one `Arg` per MLIR-level kernel argument. `packArgs` checks
// them against a KernelInfo (count, kind, element/scalar type, rank, static
// sizes, buffer capacity, integer range) and flattens them into the exact
// `void**` list cuLaunchKernel wants: a memref becomes allocated, aligned,
// offset, sizes..., strides... (row-major, in elements). Pure host code: it is
// unit tested without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_ARGS_H
#define APPROX_RUNTIME_ARGS_H

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace approx::rt {

/// A non-owning view of device memory: what a memref argument points at.
struct BufferView {
  uint64_t ptr = 0;  ///< CUdeviceptr.
  size_t bytes = 0;  ///< capacity.
  ScalarType elem = ScalarType::F32;
};

/// One MLIR-level kernel argument.
class Arg {
public:
  enum class Kind { Memref, Int, Float };

  /// A dense row-major memref over `buf` with the given shape (sizes in
  /// elements). The element type must equal the manifest's.
  static Arg memref(BufferView buf, std::vector<int64_t> shape);
  /// A rank-1 memref covering the whole buffer.
  static Arg memref(BufferView buf);
  /// An integer scalar; fits any integer/index parameter it is in range of.
  static Arg integer(int64_t v);
  /// A float scalar; fits f16/f32/f64 parameters (converted).
  static Arg floating(double v);

  Kind kind() const { return kind_; }
  const BufferView &buffer() const { return buf_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  int64_t intValue() const { return i_; }
  double floatValue() const { return f_; }
  /// "memref<1024xf32>", "i64 7", "f64 0.5".
  std::string describe() const;

private:
  Kind kind_ = Kind::Int;
  BufferView buf_;
  std::vector<int64_t> shape_;
  int64_t i_ = 0;
  double f_ = 0;
};

/// The flattened parameter list of one launch. Move-only: `pointers()` point
/// into its own storage.
class PackedArgs {
public:
  PackedArgs() = default;
  PackedArgs(PackedArgs &&) = default;
  PackedArgs &operator=(PackedArgs &&) = default;
  PackedArgs(const PackedArgs &) = delete;
  PackedArgs &operator=(const PackedArgs &) = delete;

  /// One pointer per PTX parameter, for cuLaunchKernel's kernelParams.
  void **pointers() { return ptrs_.data(); }
  size_t size() const { return ptrs_.size(); }
  /// The raw 8-byte slot of parameter `i` (little-endian value in the low
  /// bytes); for tests.
  uint64_t slot(size_t i) const { return slots_[i]; }

private:
  friend Expected<PackedArgs> packArgs(const KernelInfo &,
                                       const std::vector<Arg> &);
  std::vector<uint64_t> slots_;
  std::vector<void *> ptrs_;
};

/// Checks `args` against `kernel` and flattens them. Errors name the kernel,
/// the argument index and what was expected.
Expected<PackedArgs> packArgs(const KernelInfo &kernel,
                              const std::vector<Arg> &args);

/// "memref<?x4xf32>" / "i32" for an ArgInfo.
std::string describeArgInfo(const ArgInfo &a);

/// Converts a float to IEEE binary16 bits (round to nearest even).
uint16_t floatToHalfBits(float f);
/// Converts IEEE binary16 bits to float.
float halfBitsToFloat(uint16_t h);

} // namespace approx::rt

#endif // APPROX_RUNTIME_ARGS_H
