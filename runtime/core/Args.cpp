//===- Args.cpp - Argument checking and flattening ------------------------===//
//
// Checks each Arg against the manifest's ArgInfo and writes the flat
// parameter list cuLaunchKernel takes; host-only, unit tested. Parameters
// live in one byte buffer, each at an offset aligned to 8 (16 for larger
// vectors), so a pointer per parameter stays valid when the pack is moved.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Args.h"

#include "approx/runtime/core/FloatBits.h"
#include "approx/runtime/core/Text.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace approx::rt {

Arg Arg::memref(BufferView buf, std::vector<int64_t> shape) {
  Arg a;
  a.kind_ = Kind::Memref;
  a.buf_ = buf;
  a.shape_ = std::move(shape);
  return a;
}

Arg Arg::memref(BufferView buf) {
  uint64_t es = buf.elem.size();
  return memref(buf, {int64_t(es ? buf.bytes / es : 0)});
}

Arg Arg::integer(int64_t v) {
  Arg a;
  a.kind_ = Kind::Int;
  a.i_ = v;
  return a;
}

Arg Arg::floating(double v) {
  Arg a;
  a.kind_ = Kind::Float;
  a.f_ = v;
  return a;
}

Arg Arg::pointer(uint64_t devicePtr) {
  Arg a;
  a.kind_ = Kind::Pointer;
  a.ptr_ = devicePtr;
  return a;
}

Arg Arg::bytes(std::vector<uint8_t> raw) {
  Arg a;
  a.kind_ = Kind::Bytes;
  a.raw_ = std::move(raw);
  return a;
}

static std::string shapeString(const std::vector<int64_t> &shape,
                               const ValueType &elem) {
  std::ostringstream os;
  os << "memref<";
  for (int64_t d : shape) {
    if (d < 0)
      os << "?";
    else
      os << d;
    os << "x";
  }
  os << elem.name() << ">";
  return os.str();
}

std::string Arg::describe() const {
  switch (kind_) {
  case Kind::Memref:
    return shapeString(shape_, buf_.elem) + " (" + std::to_string(buf_.bytes) +
           "-byte buffer)";
  case Kind::Int:
    return "integer " + std::to_string(i_);
  case Kind::Float: {
    std::ostringstream os;
    os << "float " << f_;
    return os.str();
  }
  case Kind::Pointer: {
    std::ostringstream os;
    os << "pointer 0x" << std::hex << ptr_;
    return os.str();
  }
  case Kind::Bytes:
    return std::to_string(raw_.size()) + " raw bytes";
  }
  return "?";
}

std::string describeArgInfo(const ArgInfo &a) {
  switch (a.kind) {
  case ArgInfo::Kind::Memref:
    return shapeString(a.shape, a.type) +
           (a.abi == ArgInfo::Abi::Bare ? " (bare)" : "");
  case ArgInfo::Kind::Pointer:
    return "ptr (address space " + std::to_string(a.addressSpace) + ")";
  case ArgInfo::Kind::Scalar:
    return a.type.name();
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Narrow floats
//===----------------------------------------------------------------------===//

// The narrow formats round and widen through core/FloatBits.h, the bit-exact
// routines the host conversion uses too: one rounding (no double rounding
// through f32), independent of the floating-point environment.
static uint64_t f64Bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, 8);
  return b;
}

uint16_t doubleToHalfBits(double v) {
  return uint16_t(floatbits::roundFromF64<10, 5>(f64Bits(v)));
}

uint16_t doubleToBf16Bits(double v) {
  return uint16_t(floatbits::roundFromF64<7, 8>(f64Bits(v)));
}

uint16_t floatToHalfBits(float f) { return doubleToHalfBits(double(f)); }

float halfBitsToFloat(uint16_t h) {
  // Every binary16 value is a binary32 value: widening and rounding back
  // are exact.
  uint32_t x = floatbits::roundFromF64<23, 8>(floatbits::widenToF64<10, 5>(h));
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

float bf16BitsToFloat(uint16_t b) {
  uint32_t x = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

std::vector<uint8_t> PackedArgs::bytes(size_t i) const {
  const uint8_t *p = storage_.data() + offsets_[i];
  return std::vector<uint8_t>(p, p + sizes_[i]);
}

uint64_t PackedArgs::slot(size_t i) const {
  uint64_t v = 0;
  size_t n = sizes_[i] < 8 ? sizes_[i] : 8;
  for (size_t b = 0; b < n; ++b)
    v |= uint64_t(storage_[offsets_[i] + b]) << (8 * b);
  return v;
}

namespace {

/// Writes the low `size` bytes of `v`, little-endian.
void putLE(uint8_t *dst, uint64_t v, size_t size) {
  for (size_t b = 0; b < size; ++b)
    dst[b] = uint8_t(v >> (8 * b));
}

/// Encodes integer `v` as `t`, checking that it fits `t`'s width (as a
/// signed or an unsigned value: MLIR integers are signless).
Status encodeInt(int64_t v, ScalarType t, uint8_t *dst,
                 const std::string &where) {
  int64_t lo, hi;
  switch (t) {
  case ScalarType::I1:
    lo = 0, hi = 1;
    break;
  case ScalarType::I8:
    lo = std::numeric_limits<int8_t>::min(), hi = 0xff;
    break;
  case ScalarType::I16:
    lo = std::numeric_limits<int16_t>::min(), hi = 0xffff;
    break;
  case ScalarType::I32:
    lo = std::numeric_limits<int32_t>::min(), hi = 0xffffffffLL;
    break;
  default:
    lo = std::numeric_limits<int64_t>::min(),
    hi = std::numeric_limits<int64_t>::max();
    break;
  }
  if (v < lo || v > hi)
    return outOfRange(where + ": value " + std::to_string(v) +
                      " does not fit " + scalarTypeName(t));
  putLE(dst, uint64_t(v), scalarTypeSize(t));
  return Status::ok();
}

void encodeFloat(double v, ScalarType t, uint8_t *dst) {
  switch (t) {
  case ScalarType::F64: {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    putLE(dst, b, 8);
    break;
  }
  case ScalarType::F32: {
    float f = float(v);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    putLE(dst, b, 4);
    break;
  }
  case ScalarType::F16:
    putLE(dst, doubleToHalfBits(v), 2);
    break;
  case ScalarType::BF16:
    putLE(dst, doubleToBf16Bits(v), 2);
    break;
  default:
    break;
  }
}

/// Packs one memref argument into `slots` (its params).
Status packMemref(const ArgInfo &info, const Arg &arg, uint8_t *const *slots,
                  const std::string &where) {
  if (arg.kind() != Arg::Kind::Memref)
    return invalidArgument(where + ": expected a buffer, got " +
                           arg.describe());
  const BufferView &buf = arg.buffer();
  if (buf.elem != info.type)
    return invalidArgument(where + ": buffer holds " + buf.elem.name() +
                           ", expected " + info.type.name());
  const std::vector<int64_t> &shape = arg.shape();
  if (int64_t(shape.size()) != info.rank)
    return invalidArgument(where + ": got rank " +
                           std::to_string(shape.size()) + " shape " +
                           shapeString(shape, buf.elem));
  uint64_t elems = 1;
  for (int64_t d = 0; d < info.rank; ++d) {
    if (shape[d] < 0)
      return invalidArgument(where + ": negative size in dimension " +
                             std::to_string(d));
    if (info.shape[d] >= 0 && info.shape[d] != shape[d])
      return invalidArgument(where + ": dimension " + std::to_string(d) +
                             " is static " + std::to_string(info.shape[d]) +
                             ", got " + std::to_string(shape[d]));
    if (shape[d] != 0 &&
        elems > std::numeric_limits<uint64_t>::max() / uint64_t(shape[d]))
      return invalidArgument(where + ": shape overflows");
    elems *= uint64_t(shape[d]);
  }
  uint64_t es = info.type.size();
  if (elems > buf.bytes / es)
    return invalidArgument(where + ": shape " + shapeString(shape, buf.elem) +
                           " needs " +
                           (elems > std::numeric_limits<uint64_t>::max() / es
                                ? std::string("more than 2^64")
                                : std::to_string(elems * es)) +
                           " bytes, the buffer holds " +
                           std::to_string(buf.bytes));
  if (elems > 0 && buf.ptr == 0)
    return invalidArgument(where + ": null buffer");
  if (info.abi == ArgInfo::Abi::Bare) {
    putLE(slots[0], buf.ptr, 8);
    return Status::ok();
  }
  putLE(slots[0], buf.ptr, 8);
  putLE(slots[1], buf.ptr, 8);
  putLE(slots[2], 0, 8);
  // Row-major strides, in elements; a stride past INT64_MAX cannot be
  // written (sizes are each <= INT64_MAX, their product may not be).
  uint64_t stride = 1;
  for (int64_t d = info.rank - 1; d >= 0; --d) {
    if (stride > uint64_t(std::numeric_limits<int64_t>::max()))
      return invalidArgument(where + ": stride of dimension " +
                             std::to_string(d) + " overflows i64");
    putLE(slots[3 + d], uint64_t(shape[d]), 8);
    putLE(slots[3 + info.rank + d], stride, 8);
    uint64_t s = uint64_t(shape[d] > 0 ? shape[d] : 1);
    stride = stride > std::numeric_limits<uint64_t>::max() / s
                 ? std::numeric_limits<uint64_t>::max()
                 : stride * s;
  }
  return Status::ok();
}

/// Packs one scalar (or vector) argument whose param is `p`.
Status packScalar(const ArgInfo &info, const ParamInfo &p, const Arg &arg,
                  uint8_t *slot, const std::string &where) {
  if (arg.kind() == Arg::Kind::Bytes) {
    if (arg.rawBytes().size() != p.size)
      return invalidArgument(where + ": got " +
                             std::to_string(arg.rawBytes().size()) +
                             " raw bytes, the parameter has " +
                             std::to_string(p.size));
    std::memcpy(slot, arg.rawBytes().data(), p.size);
    return Status::ok();
  }
  if (info.type.isVector())
    return invalidArgument(where + ": a vector takes its " +
                           std::to_string(p.size) +
                           " bytes as Arg::bytes, got " + arg.describe());
  ScalarType t = p.type.scalar;
  if (isIntegerType(t)) {
    if (arg.kind() != Arg::Kind::Int)
      return invalidArgument(where + ": expected an integer, got " +
                             arg.describe());
    return encodeInt(arg.intValue(), t, slot, where);
  }
  if (isFloatType(t)) {
    if (arg.kind() != Arg::Kind::Int && arg.kind() != Arg::Kind::Float)
      return invalidArgument(where + ": expected a float, got " +
                             arg.describe());
    double v = arg.kind() == Arg::Kind::Int ? double(arg.intValue())
                                            : arg.floatValue();
    encodeFloat(v, t, slot);
    return Status::ok();
  }
  return invalidArgument(where + ": scalar of type " + p.type.name() +
                         " is not supported");
}

} // namespace

Expected<PackedArgs> packArgs(const KernelInfo &kernel,
                              const std::vector<Arg> &args,
                              const KnobParamValues &knobs) {
  std::string kname = "kernel " + quote(kernel.name);
  if (args.size() != kernel.args.size())
    return invalidArgument(kname + " takes " +
                           std::to_string(kernel.args.size()) +
                           " arguments, got " + std::to_string(args.size()));
  PackedArgs packed;
  size_t n = kernel.params.size();
  packed.offsets_.resize(n);
  packed.sizes_.resize(n);
  size_t total = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t size = kernel.params[i].size;
    size_t align = size > 8 ? 16 : 8;
    total = (total + align - 1) / align * align;
    packed.offsets_[i] = total;
    packed.sizes_[i] = size;
    total += size;
  }
  packed.storage_.assign(total, 0);
  std::vector<uint8_t *> slots(n);
  for (size_t i = 0; i < n; ++i)
    slots[i] = packed.storage_.data() + packed.offsets_[i];

  for (size_t i = 0; i < args.size(); ++i) {
    const ArgInfo &info = kernel.args[i];
    const Arg &arg = args[i];
    std::string where = kname + " argument " + std::to_string(i) + " (" +
                        describeArgInfo(info) + ")";
    uint8_t *const *slot = slots.data() + info.firstParam;
    switch (info.kind) {
    case ArgInfo::Kind::Memref:
      APPROX_RETURN_IF_ERROR(packMemref(info, arg, slot, where));
      break;
    case ArgInfo::Kind::Pointer:
      if (arg.kind() == Arg::Kind::Pointer)
        putLE(slot[0], arg.pointerValue(), 8);
      else if (arg.kind() == Arg::Kind::Memref)
        putLE(slot[0], arg.buffer().ptr, 8);
      else
        return invalidArgument(where + ": expected a pointer or a buffer, "
                                       "got " +
                               arg.describe());
      break;
    case ArgInfo::Kind::Scalar:
      APPROX_RETURN_IF_ERROR(packScalar(info, kernel.params[info.firstParam],
                                        arg, slot[0], where));
      break;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const ParamInfo &p = kernel.params[i];
    if (!p.isKnob())
      continue;
    std::string where = kname + " parameter " + std::to_string(i) +
                        " (knob " + quote(p.knob) + ")";
    auto it = knobs.find(p.knob);
    if (it == knobs.end())
      return invalidArgument(where + ": no value given for the knob");
    APPROX_RETURN_IF_ERROR(encodeInt(it->second, p.type.scalar, slots[i],
                                     where));
  }
  packed.ptrs_.resize(n);
  for (size_t i = 0; i < n; ++i)
    packed.ptrs_[i] = slots[i];
  return packed;
}

} // namespace approx::rt
