//===- Avx2.cpp - the x86 AVX2 + F16C conversion path ---------------------===//
//
// Eight elements per step, in functions compiled for AVX2 + F16C through
// `__attribute__((target(...)))` (the rest of the runtime stays baseline
// x86-64; HostConvert.cpp calls these only after cpuHasAvx2F16c()).
//
//   f32 <-> f64, f16 -> f32/f64   cvtps2pd, cvtpd2ps (RNE), vcvtph2ps
//   f32 -> f16                    vcvtps2ph with RNE in its immediate
//   f32 -> bf16                   integer RNE: (x + 0x7fff + lsb) >> 16
//   bf16 -> f32/f64               x << 16 (then cvtps2pd)
//   f64 -> f16/bf16               round to odd into f32 (cvtpd2ps toward
//                                 zero, then OR the sticky bit into the last
//                                 place when inexact), then RNE as above
//   f16 <-> bf16                  through f32, which holds both exactly
//
// Round to odd into a format with at least two more significand bits than
// the target, followed by RNE into the target, equals a single RNE (Boldo &
// Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms
// using rounding to odd", IEEE TC 2008): f32 has 24 bits against 11 (f16)
// and 8 (bf16), and wherever a target rounds, its subnormals included, the
// last place of f32 is at least 2^13 (f16) or 2^16 (bf16) times finer, so
// f64 -> f16/bf16 is correctly rounded even where rounding to nearest into
// f32 first would double-round (docs/precision.md has the argument).
//
// Each kernel sets MXCSR to a known state for its own loop (exceptions
// masked, no FTZ, no DAZ, round to nearest or toward zero) and restores the
// caller's MXCSR, flags included, on the way out. A tail shorter than eight
// goes through the same instructions via small buffers, so every element
// takes this path (the tests compare it with the scalar path bit for bit).
// NaNs come out as the scalar path has them (Scalar.cpp); bf16 results and
// bf16 -> f32 quiet them by hand, since the integer code would not.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define APPROX_HAVE_AVX2_PATH 1
#include <cpuid.h>
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstring>

namespace approx::rt::precision::detail {

#ifdef APPROX_HAVE_AVX2_PATH

#define APPROX_AVX2 __attribute__((target("avx2,f16c")))

namespace {

/// MXCSR: all exceptions masked, no FTZ/DAZ, round to nearest even.
constexpr unsigned kCsrNearest = 0x1f80;
/// The same, rounding toward zero (RC = 11b).
constexpr unsigned kCsrTowardZero = 0x1f80 | 0x6000;

using Byte = unsigned char;

APPROX_AVX2 inline __m128i load128(const Byte *p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
}
APPROX_AVX2 inline __m256i load256(const Byte *p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
}
APPROX_AVX2 inline void store128(Byte *p, __m128i v) {
  _mm_storeu_si128(reinterpret_cast<__m128i *>(p), v);
}
APPROX_AVX2 inline void store256(Byte *p, __m256i v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), v);
}
APPROX_AVX2 inline __m256d loadPd(const Byte *p) {
  return _mm256_loadu_pd(reinterpret_cast<const double *>(p));
}
APPROX_AVX2 inline void storePd(Byte *p, __m256d v) {
  _mm256_storeu_pd(reinterpret_cast<double *>(p), v);
}

/// Eight f32 to f16, round to nearest even (from the immediate, not MXCSR).
APPROX_AVX2 inline __m128i f32ToF16(__m256 x) {
  return _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT);
}

/// Eight f32 bit patterns to bf16, round to nearest even; NaN -> quiet NaN
/// keeping the top payload bits.
APPROX_AVX2 inline __m128i f32ToBf16(__m256i x) {
  const __m256i abs = _mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff));
  const __m256i isNan = _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x7f800000));
  const __m256i high = _mm256_srli_epi32(x, 16);
  // Adding 0x7fff + lsb rounds the low half away at ties-to-even; a carry
  // out of the largest finite binade yields the infinity pattern, and no
  // finite value carries into the sign bit.
  const __m256i bias = _mm256_add_epi32(
      _mm256_and_si256(high, _mm256_set1_epi32(1)), _mm256_set1_epi32(0x7fff));
  __m256i r = _mm256_srli_epi32(_mm256_add_epi32(x, bias), 16);
  r = _mm256_blendv_epi8(r, _mm256_or_si256(high, _mm256_set1_epi32(0x40)),
                         isNan);
  // Pack the 8 x 32-bit lanes (each <= 0xffff) into 8 x 16 in order:
  // packus works per 128-bit half, so take quadwords 0 and 2.
  return _mm256_castsi256_si128(
      _mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0x08));
}

/// Eight bf16 to f32 bit patterns (exact; NaNs keep their quiet bit as is).
APPROX_AVX2 inline __m256i bf16ToF32Bits(__m128i h) {
  return _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16);
}

/// Sets the quiet bit of the NaN lanes of eight f32 bit patterns.
APPROX_AVX2 inline __m256i quietF32(__m256i x) {
  const __m256i abs = _mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff));
  const __m256i isNan = _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x7f800000));
  return _mm256_or_si256(
      x, _mm256_and_si256(isNan, _mm256_set1_epi32(0x00400000)));
}

/// Four f64 rounded to odd into f32. Needs MXCSR rounding toward zero.
APPROX_AVX2 inline __m128 roundToOdd4(__m256d x) {
  const __m128 t = _mm256_cvtpd_ps(x); // truncated; huge finite -> FLT_MAX
  // Inexact lanes (ordered compare: NaN lanes are false and stay as they
  // are). The low doubleword of each 64-bit mask lane gives a 32-bit mask.
  const __m256i inexact =
      _mm256_castpd_si256(_mm256_cmp_pd(x, _mm256_cvtps_pd(t), _CMP_NEQ_OQ));
  const __m128i mask = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
      inexact, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)));
  // The sticky bit: a truncated inexact result gets an odd last place
  // (a zero becomes the least subnormal of the same sign).
  return _mm_or_ps(t, _mm_castsi128_ps(_mm_srli_epi32(mask, 31)));
}

/// Eight f64 at p rounded to odd into f32.
APPROX_AVX2 inline __m256 roundToOdd8(const Byte *p) {
  return _mm256_set_m128(roundToOdd4(loadPd(p + 32)), roundToOdd4(loadPd(p)));
}

/// Eight f32 (exact) to f64, in two stores; Stream: non-temporal stores,
/// d 32-byte aligned.
template <bool Stream = false>
APPROX_AVX2 inline void storeF64x8(Byte *d, __m256 f) {
  const __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(f));
  const __m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1));
  if constexpr (Stream) {
    _mm256_stream_pd(reinterpret_cast<double *>(d), lo);
    _mm256_stream_pd(reinterpret_cast<double *>(d + 32), hi);
  } else {
    storePd(d, lo);
    storePd(d + 32, hi);
  }
}

// One step converts eight elements; kSrc / kDst are element sizes.
struct F64ToF32 {
  static constexpr size_t kSrc = 8, kDst = 4;
  APPROX_AVX2 static void step(const Byte *s, Byte *d) {
    _mm_storeu_ps(reinterpret_cast<float *>(d), _mm256_cvtpd_ps(loadPd(s)));
    _mm_storeu_ps(reinterpret_cast<float *>(d + 16),
                  _mm256_cvtpd_ps(loadPd(s + 32)));
  }
};
struct F64ToF16 {
  static constexpr size_t kSrc = 8, kDst = 2;
  APPROX_AVX2 static void step(const Byte *s, Byte *d) {
    store128(d, f32ToF16(roundToOdd8(s)));
  }
};
struct F64ToBf16 {
  static constexpr size_t kSrc = 8, kDst = 2;
  APPROX_AVX2 static void step(const Byte *s, Byte *d) {
    store128(d, f32ToBf16(_mm256_castps_si256(roundToOdd8(s))));
  }
};
// The widening pairs to f64 also have stepT<Stream> (loopStream).
struct F32ToF64 {
  static constexpr size_t kSrc = 4, kDst = 8;
  template <bool Stream = false>
  APPROX_AVX2 static void stepT(const Byte *s, Byte *d) {
    storeF64x8<Stream>(d, _mm256_castsi256_ps(load256(s)));
  }
  APPROX_AVX2 static void step(const Byte *s, Byte *d) { stepT(s, d); }
};
struct F32ToF16 {
  static constexpr size_t kSrc = 4, kDst = 2;
  APPROX_AVX2 static void step(const Byte *s, Byte *d) {
    store128(d, f32ToF16(_mm256_castsi256_ps(load256(s))));
  }
};
struct F32ToBf16 {
  static constexpr size_t kSrc = 4, kDst = 2;
  APPROX_AVX2 static void step(const Byte *s, Byte *d) {
    store128(d, f32ToBf16(load256(s)));
  }
};
struct F16ToF64 {
  static constexpr size_t kSrc = 2, kDst = 8;
  template <bool Stream = false>
  APPROX_AVX2 static void stepT(const Byte *s, Byte *d) {
    storeF64x8<Stream>(d, _mm256_cvtph_ps(load128(s)));
  }
  APPROX_AVX2 static void step(const Byte *s, Byte *d) { stepT(s, d); }
};
struct F16ToF32 {
  static constexpr size_t kSrc = 2, kDst = 4;
  APPROX_AVX2 static void step(const Byte *s, Byte *d) {
    store256(d, _mm256_castps_si256(_mm256_cvtph_ps(load128(s))));
  }
};
struct F16ToBf16 {
  static constexpr size_t kSrc = 2, kDst = 2;
  APPROX_AVX2 static void step(const Byte *s, Byte *d) {
    store128(d, f32ToBf16(_mm256_castps_si256(_mm256_cvtph_ps(load128(s)))));
  }
};
struct Bf16ToF64 {
  static constexpr size_t kSrc = 2, kDst = 8;
  template <bool Stream = false>
  APPROX_AVX2 static void stepT(const Byte *s, Byte *d) {
    // cvtps2pd quiets signalling NaNs itself.
    storeF64x8<Stream>(d, _mm256_castsi256_ps(bf16ToF32Bits(load128(s))));
  }
  APPROX_AVX2 static void step(const Byte *s, Byte *d) { stepT(s, d); }
};
struct Bf16ToF32 {
  static constexpr size_t kSrc = 2, kDst = 4;
  APPROX_AVX2 static void step(const Byte *s, Byte *d) {
    store256(d, quietF32(bf16ToF32Bits(load128(s))));
  }
};
struct Bf16ToF16 {
  static constexpr size_t kSrc = 2, kDst = 2;
  APPROX_AVX2 static void step(const Byte *s, Byte *d) {
    // vcvtps2ph quiets signalling NaNs itself.
    store128(d, f32ToF16(_mm256_castsi256_ps(bf16ToF32Bits(load128(s)))));
  }
};

/// The loop of K over n elements. noinline, so that no instruction of it
/// moves across the MXCSR writes in kernel<>().
template <class K>
APPROX_AVX2 __attribute__((noinline)) void loop(const void *src, void *dst,
                                                size_t n) {
  const Byte *s = static_cast<const Byte *>(src);
  Byte *d = static_cast<Byte *>(dst);
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    K::step(s + i * K::kSrc, d + i * K::kDst);
  if (i < n) {
    alignas(32) Byte in[8 * K::kSrc] = {};
    alignas(32) Byte out[8 * K::kDst];
    std::memcpy(in, s + i * K::kSrc, (n - i) * K::kSrc);
    K::step(in, out);
    std::memcpy(d + i * K::kDst, out, (n - i) * K::kDst);
  }
}

/// loop<K> with non-temporal stores (K::stepT<true>) on the 32-byte
/// aligned middle of the destination, then a store fence. A destination not
/// aligned to its element size takes loop<K> whole.
template <class K>
APPROX_AVX2 __attribute__((noinline)) void loopStream(const void *src,
                                                      void *dst, size_t n) {
  const Byte *s = static_cast<const Byte *>(src);
  Byte *d = static_cast<Byte *>(dst);
  const size_t mis = reinterpret_cast<uintptr_t>(d) & 31;
  if (mis % K::kDst) {
    loop<K>(src, dst, n);
    return;
  }
  const size_t head = std::min(n, ((32 - mis) & 31) / K::kDst);
  if (head)
    loop<K>(s, d, head);
  size_t i = head;
  for (; i + 8 <= n; i += 8)
    K::template stepT<true>(s + i * K::kSrc, d + i * K::kDst);
  if (i < n)
    loop<K>(s + i * K::kSrc, d + i * K::kDst, n - i);
  _mm_sfence(); // the stores are visible before the caller reports done
}

template <class K, unsigned Csr, bool Stream = false>
void kernel(const void *src, void *dst, size_t n) {
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(Csr);
  if constexpr (Stream)
    loopStream<K>(src, dst, n);
  else
    loop<K>(src, dst, n);
  _mm_setcsr(saved); // the caller's mode and exception flags
}

template <size_t Bytes> void copy(const void *src, void *dst, size_t n) {
  std::memcpy(dst, src, n * Bytes);
}

// Class counts: |x| == 0, == inf, > inf (NaN) as lane masks (all ones =
// -1), subtracted into per-lane counters, which are summed when they could
// next overflow and at the end; the tail goes to the scalar counter. Three
// compares and three subtractions per vector: the counts run alongside a
// conversion that costs a fraction of a cycle per element.

/// The sum of the eight 32-bit lanes of v (each < 2^31).
APPROX_AVX2 inline uint64_t sum32(__m256i v) {
  __m128i s =
      _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
  return uint32_t(_mm_cvtsi128_si32(s));
}

/// The sum of the four 64-bit lanes of v.
APPROX_AVX2 inline uint64_t sum64(__m256i v) {
  const __m128i s =
      _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  return uint64_t(_mm_cvtsi128_si64(s)) +
         uint64_t(_mm_cvtsi128_si64(_mm_unpackhi_epi64(s, s)));
}

/// Lanes of one width: L = 16, 32 or 64 bits.
template <int L> struct Lanes;
template <> struct Lanes<16> {
  static constexpr size_t kPerVector = 16;
  static constexpr size_t kMaxSteps = 16384; // int16 counters stay positive
  APPROX_AVX2 static __m256i set1(uint64_t v) {
    return _mm256_set1_epi16(short(v));
  }
  APPROX_AVX2 static __m256i eq(__m256i a, __m256i b) {
    return _mm256_cmpeq_epi16(a, b);
  }
  APPROX_AVX2 static __m256i gt(__m256i a, __m256i b) {
    return _mm256_cmpgt_epi16(a, b);
  }
  APPROX_AVX2 static __m256i sub(__m256i a, __m256i b) {
    return _mm256_sub_epi16(a, b);
  }
  APPROX_AVX2 static uint64_t sum(__m256i v) {
    return sum32(_mm256_madd_epi16(v, _mm256_set1_epi16(1)));
  }
};
template <> struct Lanes<32> {
  static constexpr size_t kPerVector = 8;
  static constexpr size_t kMaxSteps = size_t(1) << 24;
  APPROX_AVX2 static __m256i set1(uint64_t v) {
    return _mm256_set1_epi32(int(v));
  }
  APPROX_AVX2 static __m256i eq(__m256i a, __m256i b) {
    return _mm256_cmpeq_epi32(a, b);
  }
  APPROX_AVX2 static __m256i gt(__m256i a, __m256i b) {
    return _mm256_cmpgt_epi32(a, b);
  }
  APPROX_AVX2 static __m256i sub(__m256i a, __m256i b) {
    return _mm256_sub_epi32(a, b);
  }
  APPROX_AVX2 static uint64_t sum(__m256i v) { return sum32(v); }
};
template <> struct Lanes<64> {
  static constexpr size_t kPerVector = 4;
  static constexpr size_t kMaxSteps = size_t(1) << 40;
  APPROX_AVX2 static __m256i set1(uint64_t v) {
    return _mm256_set1_epi64x((long long)v);
  }
  APPROX_AVX2 static __m256i eq(__m256i a, __m256i b) {
    return _mm256_cmpeq_epi64(a, b);
  }
  APPROX_AVX2 static __m256i gt(__m256i a, __m256i b) {
    return _mm256_cmpgt_epi64(a, b);
  }
  APPROX_AVX2 static __m256i sub(__m256i a, __m256i b) {
    return _mm256_sub_epi64(a, b);
  }
  APPROX_AVX2 static uint64_t sum(__m256i v) { return sum64(v); }
};

/// Counts format F (lanes of L bits; |x| as a signed lane is >= 0, so the
/// signed compares order it) with absolute-value mask Abs and infinity Inf.
template <int F, int L, uint64_t Abs, uint64_t Inf>
APPROX_AVX2 __attribute__((noinline)) void countKernel(const void *p, size_t n,
                                                       ClassCounts &acc) {
  using V = Lanes<L>;
  constexpr size_t kBytes = L / 8;
  const __m256i absMask = V::set1(Abs), inf = V::set1(Inf);
  const __m256i zero = _mm256_setzero_si256();
  const Byte *b = static_cast<const Byte *>(p);
  uint64_t zeros = 0, infs = 0, nans = 0;
  size_t i = 0;
  while (n - i >= V::kPerVector) {
    const size_t steps = std::min((n - i) / V::kPerVector, V::kMaxSteps);
    __m256i cz = zero, ci = zero, cn = zero;
    for (size_t s = 0; s < steps; ++s, i += V::kPerVector) {
      const __m256i a = _mm256_and_si256(load256(b + kBytes * i), absMask);
      cz = V::sub(cz, V::eq(a, zero));
      ci = V::sub(ci, V::eq(a, inf));
      cn = V::sub(cn, V::gt(a, inf));
    }
    zeros += V::sum(cz);
    infs += V::sum(ci);
    nans += V::sum(cn);
  }
  acc.zero += zeros;
  acc.inf += infs;
  acc.nan += nans;
  scalarKernels().count[F](b + kBytes * i, n - i, acc);
}

constexpr unsigned kN = kCsrNearest, kZ = kCsrTowardZero;

const KernelTable kAvx2Table = {
    {{&copy<8>, &kernel<F64ToF32, kN>, &kernel<F64ToF16, kZ>,
      &kernel<F64ToBf16, kZ>},
     {&kernel<F32ToF64, kN>, &copy<4>, &kernel<F32ToF16, kN>,
      &kernel<F32ToBf16, kN>},
     {&kernel<F16ToF64, kN>, &kernel<F16ToF32, kN>, &copy<2>,
      &kernel<F16ToBf16, kN>},
     {&kernel<Bf16ToF64, kN>, &kernel<Bf16ToF32, kN>, &kernel<Bf16ToF16, kN>,
      &copy<2>}},
    {&countKernel<kF64, 64, 0x7fffffffffffffff, 0x7ff0000000000000>,
     &countKernel<kF32, 32, 0x7fffffff, 0x7f800000>,
     &countKernel<kF16, 16, 0x7fff, 0x7c00>,
     &countKernel<kBF16, 16, 0x7fff, 0x7f80>},
    {{nullptr, nullptr, nullptr, nullptr},
     {&kernel<F32ToF64, kN, true>, nullptr, nullptr, nullptr},
     {&kernel<F16ToF64, kN, true>, nullptr, nullptr, nullptr},
     {&kernel<Bf16ToF64, kN, true>, nullptr, nullptr, nullptr}}};

} // namespace

const KernelTable *avx2Kernels() { return &kAvx2Table; }

bool cpuHasAvx2F16c() {
  static const bool has = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
      return false;
    // __builtin_cpu_supports("avx2") also checks that the OS saves the YMM
    // state; clang 14 does not know the name "f16c", hence CPUID for it.
    __builtin_cpu_init();
    return (c & bit_F16C) != 0 && __builtin_cpu_supports("avx2");
  }();
  return has;
}

#else // no AVX2 path in this build

const KernelTable *avx2Kernels() { return nullptr; }
bool cpuHasAvx2F16c() { return false; }

#endif

} // namespace approx::rt::precision::detail
