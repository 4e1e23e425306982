//===- Format.h - Binary floating-point formats as bit patterns -*- C++ -*-===//
//
// Traits for the four formats the accuracy code measures (f16, bf16, f32,
// f64), described by precision and exponent range only, so that f16 and bf16
// need no native type. Values travel as bit patterns (`F::Bits`); every value
// of every format converts exactly to double. Everything here is inline and
// marked __host__ __device__ under nvcc, so CUDA kernels use the same code.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_ACCURACY_FORMAT_H
#define APPROX_ACCURACY_FORMAT_H

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define APPROX_ACC_HD __host__ __device__
#else
#define APPROX_ACC_HD
#endif

namespace approx::accuracy {

/// The constants of an IEEE-754-style binary format with a `Precision`-bit
/// significand (hidden bit included) and an `ExponentBits`-bit exponent field,
/// stored in the unsigned integer `BitsT`.
template <class BitsT, int Precision, int ExponentBits> struct BinaryFormat {
  using Bits = BitsT;
  /// Significand bits including the hidden bit (p).
  static constexpr int kPrecision = Precision;
  /// Width of the biased exponent field.
  static constexpr int kExponentBits = ExponentBits;
  /// Width of the whole encoding.
  static constexpr int kTotalBits = 1 + ExponentBits + Precision - 1;
  /// Exponent bias.
  static constexpr int kBias = (1 << (ExponentBits - 1)) - 1;
  /// Exponent of the smallest normal number: 2^kEmin.
  static constexpr int kEmin = 1 - kBias;
  /// Exponent of the largest finite binade: [2^kEmax, 2^(kEmax+1)).
  static constexpr int kEmax = kBias;
  /// Exponent of the smallest subnormal (the subnormal spacing): 2^kQmin.
  static constexpr int kQmin = kEmin - (Precision - 1);
  /// The sign bit, the significand field and the exponent field.
  static constexpr Bits kSignMask = Bits(Bits(1) << (kTotalBits - 1));
  static constexpr Bits kMantissaMask = Bits((Bits(1) << (Precision - 1)) - 1);
  static constexpr Bits kExponentMask =
      Bits(((Bits(1) << ExponentBits) - 1) << (Precision - 1));
  /// +infinity.
  static constexpr Bits kInf = kExponentMask;
  /// The largest finite value.
  static constexpr Bits kMaxFinite = Bits(kInf - 1);
  /// The canonical quiet NaN (positive).
  static constexpr Bits kQuietNaN =
      Bits(kExponentMask | (Bits(1) << (Precision - 2)));
};

/// IEEE 754 binary16.
struct F16 : BinaryFormat<uint16_t, 11, 5> {
  /// The format's name in reports.
  static constexpr const char *kName = "f16";
};
/// bfloat16: f32's exponent range with an 8-bit significand.
struct BF16 : BinaryFormat<uint16_t, 8, 8> {
  /// The format's name in reports.
  static constexpr const char *kName = "bf16";
};
/// IEEE 754 binary32.
struct F32 : BinaryFormat<uint32_t, 24, 8> {
  /// The C++ type with this format.
  using Native = float;
  /// The format's name in reports.
  static constexpr const char *kName = "f32";
};
/// IEEE 754 binary64.
struct F64 : BinaryFormat<uint64_t, 53, 11> {
  /// The C++ type with this format.
  using Native = double;
  /// The format's name in reports.
  static constexpr const char *kName = "f64";
};

/// The bit pattern of a float.
APPROX_ACC_HD inline uint32_t bitsOf(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
/// The bit pattern of a double.
APPROX_ACC_HD inline uint64_t bitsOf(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
/// The float with bit pattern `b`.
APPROX_ACC_HD inline float floatFromBits(uint32_t b) {
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
/// The double with bit pattern `b`.
APPROX_ACC_HD inline double doubleFromBits(uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

/// True if `b` encodes a NaN of format F.
template <class F> APPROX_ACC_HD constexpr bool isNaN(typename F::Bits b) {
  return (b & F::kExponentMask) == F::kExponentMask &&
         (b & F::kMantissaMask) != 0;
}
/// True if `b` encodes +inf or -inf.
template <class F> APPROX_ACC_HD constexpr bool isInf(typename F::Bits b) {
  return (b & typename F::Bits(~F::kSignMask)) == F::kInf;
}
/// True if `b` encodes a finite value (zero, subnormal or normal).
template <class F> APPROX_ACC_HD constexpr bool isFinite(typename F::Bits b) {
  return (b & F::kExponentMask) != F::kExponentMask;
}
/// True if `b` encodes +0 or -0.
template <class F> APPROX_ACC_HD constexpr bool isZero(typename F::Bits b) {
  return (b & typename F::Bits(~F::kSignMask)) == 0;
}
/// True if `b` encodes a nonzero subnormal.
template <class F>
APPROX_ACC_HD constexpr bool isSubnormal(typename F::Bits b) {
  return (b & F::kExponentMask) == 0 && (b & F::kMantissaMask) != 0;
}
/// True if the sign bit of `b` is set (also for -0 and negative NaNs).
template <class F> APPROX_ACC_HD constexpr bool signBit(typename F::Bits b) {
  return (b & F::kSignMask) != 0;
}

/// 2^k as a double, for -1074 <= k <= 1023 (built from bits: usable in
/// device code and exact by construction).
APPROX_ACC_HD inline double pow2(int k) {
  if (k >= -1022)
    return doubleFromBits(uint64_t(k + 1023) << 52);
  return doubleFromBits(uint64_t(1) << (k + 1074));
}

/// floor(log2 |x|) for finite nonzero x (subnormal doubles included).
APPROX_ACC_HD inline int exponentOf(double x) {
  uint64_t a = bitsOf(x) & ~F64::kSignMask;
  int field = int(a >> 52);
  if (field != 0)
    return field - 1023;
  int msb = 63;
  while (!((a >> msb) & 1))
    --msb;
  return msb - 1074;
}

/// The value of `b` (format F) as a double; exact for every format here.
template <class F> APPROX_ACC_HD inline double toDouble(typename F::Bits b) {
  if constexpr (sizeof(typename F::Bits) == 8) {
    return doubleFromBits(uint64_t(b));
  } else {
    uint64_t sign = signBit<F>(b) ? F64::kSignMask : 0;
    uint64_t field = (b & F::kExponentMask) >> (F::kPrecision - 1);
    uint64_t mant = b & F::kMantissaMask;
    const int shift = 52 - (F::kPrecision - 1);
    if (field == (uint64_t(1) << F::kExponentBits) - 1) // inf or NaN
      return doubleFromBits(sign | F64::kExponentMask | (mant << shift));
    if (field == 0) {
      if (mant == 0)
        return doubleFromBits(sign);
      // Subnormal in F, normal in double: normalize the significand.
      int msb = F::kPrecision - 2;
      while (!((mant >> msb) & 1))
        --msb;
      int e = F::kQmin + msb;
      uint64_t m = (mant << (52 - msb)) & F64::kMantissaMask;
      return doubleFromBits(sign | (uint64_t(e + 1023) << 52) | m);
    }
    int e = int(field) - F::kBias;
    return doubleFromBits(sign | (uint64_t(e + 1023) << 52) | (mant << shift));
  }
}

} // namespace approx::accuracy

#endif // APPROX_ACCURACY_FORMAT_H
