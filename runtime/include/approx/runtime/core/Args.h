//===- Args.h - Kernel arguments matched to the manifest ABI -----*- C++ -*-===//
//
// A launch takes one `Arg` per MLIR-level kernel argument. `packArgs` checks
// them against a KernelInfo (count, kind, element/value type, rank, static
// sizes, buffer capacity, integer range, byte size) and flattens them into
// the exact `void**` list cuLaunchKernel wants:
//   memref, abi descriptor  allocated, aligned, offset 0, sizes..., strides...
//                           (row-major, in elements);
//   memref, abi bare        one aligned pointer;
//   pointer                 one pointer;
//   scalar                  its value in its size's bytes, little-endian
//                           (vectors: lanes x element size packed bytes);
//   knob parameters         trailing, from the launch's knob values.
// Pure host code: it is unit tested without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_ARGS_H
#define APPROX_RUNTIME_CORE_ARGS_H

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Status.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace approx::rt {

/// A non-owning view of device memory: what a memref argument points at.
struct BufferView {
  uint64_t ptr = 0;  ///< CUdeviceptr.
  size_t bytes = 0;  ///< capacity.
  ValueType elem = ScalarType::F32; ///< element type (may be a vector).
};

/// One MLIR-level kernel argument.
class Arg {
public:
  /// What the argument holds.
  enum class Kind { Memref, Int, Float, Pointer, Bytes };

  /// A dense row-major memref over `buf` with the given shape (sizes in
  /// elements). The element type must equal the manifest's. Also accepted
  /// by a `pointer` argument (which receives the buffer's address).
  static Arg memref(BufferView buf, std::vector<int64_t> shape);
  /// A rank-1 memref covering the whole buffer.
  static Arg memref(BufferView buf);
  /// An integer scalar; fits any integer/index parameter it is in range of
  /// (signed or unsigned range of the width), or converts to a float one.
  static Arg integer(int64_t v);
  /// A float scalar; fits f16/bf16/f32/f64 parameters (rounded to nearest
  /// even from the double, in one step).
  static Arg floating(double v);
  /// A raw device address for a `pointer` argument (0 is a null pointer).
  static Arg pointer(uint64_t devicePtr);
  /// Raw little-endian bytes for a scalar or vector argument; the count must
  /// equal the parameter's size exactly.
  static Arg bytes(std::vector<uint8_t> raw);

  /// The accessors below are meaningful for their kind only.
  Kind kind() const { return kind_; }
  const BufferView &buffer() const { return buf_; }          ///< Memref
  const std::vector<int64_t> &shape() const { return shape_; } ///< Memref
  int64_t intValue() const { return i_; }                    ///< Int
  double floatValue() const { return f_; }                   ///< Float
  uint64_t pointerValue() const { return ptr_; }             ///< Pointer
  const std::vector<uint8_t> &rawBytes() const { return raw_; } ///< Bytes
  /// "memref<1024xf32> (4096-byte buffer)", "integer 7", "float 0.5",
  /// "pointer 0x1000", "4 raw bytes".
  std::string describe() const;

private:
  Kind kind_ = Kind::Int;
  BufferView buf_;
  std::vector<int64_t> shape_;
  int64_t i_ = 0;
  double f_ = 0;
  uint64_t ptr_ = 0;
  std::vector<uint8_t> raw_;
};

/// Values of the knob parameters of one launch, by knob name: the knob's
/// value for a global knob, the texture handle for a resource knob.
using KnobParamValues = std::map<std::string, int64_t>;

/// The flattened parameter list of one launch. Move-only: `pointers()` point
/// into its own storage (which a move keeps in place).
class PackedArgs {
public:
  /// An empty pack (packArgs makes the real ones).
  PackedArgs() = default;
  /// Moves keep the parameters' addresses (the storage moves as a block).
  PackedArgs(PackedArgs &&) = default;
  PackedArgs &operator=(PackedArgs &&) = default;
  PackedArgs(const PackedArgs &) = delete;
  PackedArgs &operator=(const PackedArgs &) = delete;

  /// One pointer per PTX parameter, for cuLaunchKernel's kernelParams.
  void **pointers() { return ptrs_.data(); }
  /// Number of PTX parameters.
  size_t size() const { return ptrs_.size(); }
  /// Byte size of parameter `i`.
  size_t paramSize(size_t i) const { return sizes_[i]; }
  /// The bytes of parameter `i`.
  std::vector<uint8_t> bytes(size_t i) const;
  /// The first (up to) 8 bytes of parameter `i` as a little-endian integer,
  /// zero-extended; for tests and printing.
  uint64_t slot(size_t i) const;

private:
  friend Expected<PackedArgs> packArgs(const KernelInfo &,
                                       const std::vector<Arg> &,
                                       const KnobParamValues &);
  std::vector<uint8_t> storage_;
  std::vector<size_t> offsets_, sizes_;
  std::vector<void *> ptrs_;
};

/// Checks `args` against `kernel` and flattens them; knob parameters take
/// their values from `knobs`. Errors name the kernel, the argument or
/// parameter index and what was expected.
Expected<PackedArgs> packArgs(const KernelInfo &kernel,
                              const std::vector<Arg> &args,
                              const KnobParamValues &knobs = {});

/// "memref<?x4xf32>", "memref<8xf32> (bare)", "ptr (address space 1)",
/// "vector<4xf32>" for an ArgInfo.
std::string describeArgInfo(const ArgInfo &a);

/// IEEE binary16 bits of `v`, rounded to nearest even in one step.
uint16_t doubleToHalfBits(double v);
/// bfloat16 bits of `v`, rounded to nearest even in one step.
uint16_t doubleToBf16Bits(double v);
/// IEEE binary16 bits of `f` (round to nearest even).
uint16_t floatToHalfBits(float f);
/// The value of IEEE binary16 bits.
float halfBitsToFloat(uint16_t h);
/// The value of bfloat16 bits.
float bf16BitsToFloat(uint16_t b);

} // namespace approx::rt

#endif // APPROX_RUNTIME_CORE_ARGS_H
