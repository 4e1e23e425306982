//===- Args.cpp - Argument checking and flattening ------------------------===//
//
// Checks each Arg against the manifest's ArgInfo and writes the flat
// parameter list cuLaunchKernel takes; host-only, unit tested.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Args.h"

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
  size_t es = scalarTypeSize(buf.elem);
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

static std::string shapeString(const std::vector<int64_t> &shape,
                               ScalarType elem) {
  std::ostringstream os;
  os << "memref<";
  for (int64_t d : shape) {
    if (d < 0)
      os << "?";
    else
      os << d;
    os << "x";
  }
  os << scalarTypeName(elem) << ">";
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
  }
  return "?";
}

std::string describeArgInfo(const ArgInfo &a) {
  if (a.kind == ArgInfo::Kind::Memref)
    return shapeString(a.shape, a.type.scalar);
  return a.type.name();
}

uint16_t floatToHalfBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t exp = (x >> 23) & 0xffu;
  uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) // inf / nan
    return uint16_t(sign | 0x7c00u | (mant ? 0x200u : 0u));
  int32_t e = int32_t(exp) - 127 + 15;
  if (e >= 0x1f)
    return uint16_t(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10)
      return uint16_t(sign);
    mant |= 0x800000u;
    uint32_t shift = uint32_t(14 - e);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
    ++half; // may carry into the exponent: still correct (up to inf)
  return uint16_t(sign | half);
}

float halfBitsToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400u));
      x = sign | (uint32_t(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 0x1f) {
    x = sign | 0x7f800000u | (mant << 13);
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

namespace {

/// Encodes integer `v` into `slot` as `t`, checking its range.
Status encodeInt(int64_t v, ScalarType t, uint64_t &slot,
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
  slot = 0;
  uint64_t bits = uint64_t(v);
  std::memcpy(&slot, &bits, scalarTypeSize(t)); // little-endian low bytes
  return Status::ok();
}

Status encodeFloat(double v, ScalarType t, uint64_t &slot) {
  slot = 0;
  if (t == ScalarType::F64) {
    std::memcpy(&slot, &v, 8);
  } else if (t == ScalarType::F32) {
    float f = float(v);
    std::memcpy(&slot, &f, 4);
  } else {
    uint16_t h = floatToHalfBits(float(v));
    std::memcpy(&slot, &h, 2);
  }
  return Status::ok();
}

} // namespace

Expected<PackedArgs> packArgs(const KernelInfo &kernel,
                              const std::vector<Arg> &args) {
  if (args.size() != kernel.args.size())
    return invalidArgument("kernel '" + kernel.name + "' takes " +
                           std::to_string(kernel.args.size()) +
                           " arguments, got " + std::to_string(args.size()));
  for (const ArgInfo &info : kernel.args)
    if (info.kind == ArgInfo::Kind::Pointer || info.type.isVector() ||
        info.type.scalar == ScalarType::BF16 ||
        (info.kind == ArgInfo::Kind::Memref &&
         info.abi == ArgInfo::Abi::Bare))
      return invalidArgument("kernel '" + kernel.name + "': argument " +
                             describeArgInfo(info) +
                             " is not supported by this runtime yet");
  for (const ParamInfo &p : kernel.params)
    if (p.isKnob())
      return invalidArgument("kernel '" + kernel.name +
                             "': knob parameters are not supported by this "
                             "runtime yet");
  PackedArgs packed;
  packed.slots_.assign(kernel.params.size(), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgInfo &info = kernel.args[i];
    const Arg &arg = args[i];
    std::string where = "kernel '" + kernel.name + "' argument " +
                        std::to_string(i) + " (" + describeArgInfo(info) +
                        ")";
    uint64_t *slot = packed.slots_.data() + info.firstParam;
    if (info.kind == ArgInfo::Kind::Memref) {
      if (arg.kind() != Arg::Kind::Memref)
        return invalidArgument(where + ": expected a buffer, got " +
                               arg.describe());
      const BufferView &buf = arg.buffer();
      if (ValueType(buf.elem) != info.type)
        return invalidArgument(where + ": buffer holds " +
                               scalarTypeName(buf.elem) + ", expected " +
                               info.type.name());
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
          return invalidArgument(
              where + ": dimension " + std::to_string(d) + " is static " +
              std::to_string(info.shape[d]) + ", got " +
              std::to_string(shape[d]));
        if (shape[d] != 0 &&
            elems > std::numeric_limits<uint64_t>::max() / uint64_t(shape[d]))
          return invalidArgument(where + ": shape overflows");
        elems *= uint64_t(shape[d]);
      }
      size_t es = scalarTypeSize(info.type.scalar);
      if (elems > buf.bytes / es)
        return invalidArgument(
            where + ": shape " + shapeString(shape, buf.elem) + " needs " +
            std::to_string(elems * es) + " bytes, the buffer holds " +
            std::to_string(buf.bytes));
      if (elems > 0 && buf.ptr == 0)
        return invalidArgument(where + ": null buffer");
      slot[0] = buf.ptr;
      slot[1] = buf.ptr;
      slot[2] = 0;
      int64_t stride = 1;
      for (int64_t d = info.rank - 1; d >= 0; --d) {
        slot[3 + d] = uint64_t(shape[d]);
        slot[3 + info.rank + d] = uint64_t(stride);
        stride *= shape[d] > 0 ? shape[d] : 1;
      }
      continue;
    }
    // Scalars.
    const ParamInfo &p = kernel.params[info.firstParam];
    if (isIntegerType(info.type.scalar)) {
      if (arg.kind() != Arg::Kind::Int)
        return invalidArgument(where + ": expected an integer, got " +
                               arg.describe());
      APPROX_RETURN_IF_ERROR(
          encodeInt(arg.intValue(), p.type.scalar, slot[0], where));
    } else if (isFloatType(info.type.scalar)) {
      if (arg.kind() == Arg::Kind::Memref)
        return invalidArgument(where + ": expected a float, got " +
                               arg.describe());
      double v = arg.kind() == Arg::Kind::Int ? double(arg.intValue())
                                              : arg.floatValue();
      APPROX_RETURN_IF_ERROR(encodeFloat(v, p.type.scalar, slot[0]));
    } else {
      return invalidArgument(where + ": scalar of type " + info.type.name() +
                             " is not supported");
    }
  }
  packed.ptrs_.resize(packed.slots_.size());
  for (size_t i = 0; i < packed.slots_.size(); ++i)
    packed.ptrs_[i] = &packed.slots_[i];
  return packed;
}

} // namespace approx::rt
