//===- HostConvertTest.cpp - f64/f32/f16/bf16 host conversion -------------===//
//
// convert() against oracles that share no code with it: MPFR (precision and
// exponent range of binary16, bfloat16 and binary32, with subnormalize)
// for every rounding, a ldexp decoder for exact widening, and the
// ties-to-even rule written out at every f16 and bf16 halfway point. Every
// f16 and bf16 pattern, a million random f32 patterns, f64 halfway points
// and "double rounding traps" (f64 values that round wrongly through f32),
// subnormals both ways under a hostile MXCSR, overflow / underflow / NaN
// counts, signed zeros, NaN payloads, the Scalar and AVX2 paths bit for bit
// at odd sizes and thread counts, and every error message.
//
// Without MPFR the oracle tests skip and say so; without AVX2 + F16C the
// AVX2 half of each test is left out and the comparison test skips.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/HostConvert.h"

#include <gtest/gtest.h>

#ifdef APPROX_PRECISION_HAVE_MPFR
#include <mpfr.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace approx::rt;
using namespace approx::rt::precision;

namespace {

using Isa = ConvertOptions::Isa;

/// A binary format as the tests see it: M fraction bits, E exponent bits.
struct Fmt {
  ScalarType type;
  int M, E;
  size_t bytes;
  const char *name;

  int bias() const { return (1 << (E - 1)) - 1; }
  uint64_t infBits() const { return ((uint64_t(1) << E) - 1) << M; }
  uint64_t signBit() const { return uint64_t(1) << (M + E); }
  uint64_t absMask() const { return signBit() - 1; }
  uint64_t quietBit() const { return uint64_t(1) << (M - 1); }
  bool isNaN(uint64_t b) const { return (b & absMask()) > infBits(); }
};
const Fmt kF64{ScalarType::F64, 52, 11, 8, "f64"};
const Fmt kF32{ScalarType::F32, 23, 8, 4, "f32"};
const Fmt kF16{ScalarType::F16, 10, 5, 2, "f16"};
const Fmt kBF16{ScalarType::BF16, 7, 8, 2, "bf16"};
const Fmt kAll[] = {kF64, kF32, kF16, kBF16};

uint64_t bitsOf(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
double fromBits(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float floatFromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/// The value of non-NaN bits `b` in `f`, by ldexp (exact).
double decode(uint64_t b, const Fmt &f) {
  if (f.type == ScalarType::F64)
    return fromBits(b);
  const bool neg = (b & f.signBit()) != 0;
  const uint64_t exp = (b & f.absMask()) >> f.M;
  const uint64_t frac = b & ((uint64_t(1) << f.M) - 1);
  double v;
  if (exp == uint64_t((1 << f.E) - 1))
    v = std::numeric_limits<double>::infinity();
  else if (exp == 0)
    v = std::ldexp(double(frac), 1 - f.bias() - f.M);
  else
    v = std::ldexp(double(frac | (uint64_t(1) << f.M)),
                   int(exp) - f.bias() - f.M);
  return neg ? -v : v;
}

/// The documented NaN result: same sign, quiet, top payload bits kept.
uint64_t expectedNaN(uint64_t b, const Fmt &from, const Fmt &to) {
  if (from.type == to.type)
    return b;
  const uint64_t frac = b & ((uint64_t(1) << from.M) - 1);
  const uint64_t moved =
      to.M >= from.M ? frac << (to.M - from.M) : frac >> (from.M - to.M);
  return ((b & from.signBit()) ? to.signBit() : 0) | to.infBits() |
         to.quietBit() | moved;
}

std::vector<uint8_t> pack(const std::vector<uint64_t> &bits, const Fmt &f) {
  std::vector<uint8_t> out(bits.size() * f.bytes);
  for (size_t i = 0; i < bits.size(); ++i)
    std::memcpy(out.data() + i * f.bytes, &bits[i], f.bytes); // little endian
  return out;
}

std::vector<uint64_t> unpack(const uint8_t *p, size_t n, const Fmt &f) {
  std::vector<uint64_t> out(n, 0);
  for (size_t i = 0; i < n; ++i)
    std::memcpy(&out[i], p + i * f.bytes, f.bytes);
  return out;
}

ConvertOptions opts(Isa isa, unsigned threads = 1) {
  ConvertOptions o;
  o.isa = isa;
  o.threads = threads;
  return o;
}

/// Scalar, and Avx2 where this CPU has it.
std::vector<Isa> isas() {
  std::vector<Isa> v{ConvertOptions::Scalar};
  if (isaAvailable(ConvertOptions::Avx2))
    v.push_back(ConvertOptions::Avx2);
  return v;
}

/// `in` (bit patterns of `from`) converted to `to`; fails the test on error.
std::vector<uint64_t> run(const std::vector<uint64_t> &in, const Fmt &from,
                          const Fmt &to, const ConvertOptions &o,
                          ConvertStats *stats = nullptr) {
  const std::vector<uint8_t> src = pack(in, from);
  std::vector<uint8_t> dst(in.size() * to.bytes + 1);
  Status s =
      convert(src.data(), from.type, dst.data(), to.type, in.size(), o, stats);
  EXPECT_TRUE(s.isOk()) << s.toString();
  return unpack(dst.data(), in.size(), to);
}

std::string where(const Fmt &from, const Fmt &to, Isa isa, uint64_t in) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s -> %s (%s) of %#llx", from.name, to.name,
                isaName(isa), (unsigned long long)in);
  return buf;
}

/// Checks that widening `in` from `from` to `to` is exact (NaNs: documented
/// pattern); stops after a few failures.
void expectExactWidening(const std::vector<uint64_t> &in, const Fmt &from,
                         const Fmt &to, Isa isa) {
  const std::vector<uint64_t> out = run(in, from, to, opts(isa));
  int failures = 0;
  for (size_t i = 0; i < in.size() && failures < 5; ++i) {
    const uint64_t want = from.isNaN(in[i]) ? expectedNaN(in[i], from, to)
                                            : bitsOf(decode(in[i], from));
    const uint64_t got =
        from.isNaN(in[i]) ? out[i] : bitsOf(decode(out[i], to));
    if (got != want) {
      ++failures;
      ADD_FAILURE() << where(from, to, isa, in[i]) << ": got " << std::hex
                    << out[i];
    }
  }
}

/// Every pattern of a 16-bit format.
std::vector<uint64_t> all16() {
  std::vector<uint64_t> v(65536);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = i;
  return v;
}

#ifdef APPROX_PRECISION_HAVE_MPFR
/// Rounds doubles to nearest even in `f` with MPFR: precision M + 1, the
/// exponent range of `f` (MPFR writes 0.1b... x 2^e, so the least subnormal
/// 2^(1-bias-M) has e = 2 - bias - M and the top binade e = bias + 1), and
/// mpfr_subnormalize for the subnormals. Restores MPFR's range on exit.
class MpfrRounder {
public:
  explicit MpfrRounder(const Fmt &f)
      : oldMin_(mpfr_get_emin()), oldMax_(mpfr_get_emax()) {
    mpfr_set_emin(2 - f.bias() - f.M);
    mpfr_set_emax(f.bias() + 1);
    mpfr_init2(y_, f.M + 1);
  }
  ~MpfrRounder() {
    mpfr_clear(y_);
    mpfr_set_emin(oldMin_);
    mpfr_set_emax(oldMax_);
  }
  MpfrRounder(const MpfrRounder &) = delete;
  MpfrRounder &operator=(const MpfrRounder &) = delete;

  /// The bits (as a double) of `x` rounded.
  uint64_t round(double x) {
    const int inex = mpfr_set_d(y_, x, MPFR_RNDN);
    mpfr_subnormalize(y_, inex, MPFR_RNDN);
    return bitsOf(mpfr_get_d(y_, MPFR_RNDN));
  }

private:
  mpfr_exp_t oldMin_, oldMax_;
  mpfr_t y_;
};
#define REQUIRE_MPFR()                                                         \
  do {                                                                         \
  } while (0)
#else
#define REQUIRE_MPFR()                                                         \
  GTEST_SKIP() << "built without MPFR (mpfr.h, libmpfr or libgmp not found "   \
                  "when configuring), which these tests use as the oracle"
#endif

/// Checks every conversion of `in` (patterns of `from`) to `to` against
/// MPFR, on every available path; NaNs against expectedNaN. Stops after a
/// few failures per path.
void expectMatchesMpfr(const std::vector<uint64_t> &in, const Fmt &from,
                       const Fmt &to) {
#ifdef APPROX_PRECISION_HAVE_MPFR
  std::vector<uint64_t> want(in.size());
  {
    MpfrRounder r(to);
    for (size_t i = 0; i < in.size(); ++i)
      want[i] = from.isNaN(in[i]) ? expectedNaN(in[i], from, to)
                                  : r.round(decode(in[i], from));
  }
  for (Isa isa : isas()) {
    const std::vector<uint64_t> out = run(in, from, to, opts(isa));
    int failures = 0;
    for (size_t i = 0; i < in.size() && failures < 5; ++i) {
      const uint64_t got =
          from.isNaN(in[i]) ? out[i] : bitsOf(decode(out[i], to));
      if (got != want[i]) {
        ++failures;
        ADD_FAILURE() << where(from, to, isa, in[i]) << " = "
                      << decode(in[i], from) << ": got bits " << std::hex
                      << out[i] << " (" << std::dec << decode(out[i], to)
                      << "), MPFR says " << fromBits(want[i]);
      }
    }
  }
#else
  (void)in, (void)from, (void)to;
#endif
}

/// Halfway points of a 16-bit format (as doubles, exact): between each
/// non-negative finite value and the next, the last one against 2^(emax+1),
/// and their negatives. Also returns, per point, the pattern ties-to-even
/// must give.
void halfwayPoints(const Fmt &f, std::vector<double> &points,
                   std::vector<uint64_t> &even) {
  for (uint64_t h = 0; h < f.infBits(); ++h) {
    const double lo = decode(h, f);
    const double hi =
        h + 1 == f.infBits() ? std::ldexp(1.0, f.bias() + 1) : decode(h + 1, f);
    const double mid = (lo + hi) / 2;       // exact: one more bit than f has
    const uint64_t e = (h & 1) ? h + 1 : h; // h + 1 may be infinity
    points.push_back(mid);
    even.push_back(e);
    points.push_back(-mid);
    even.push_back(e | f.signBit());
  }
}

std::mt19937_64 &rng() {
  static std::mt19937_64 g(20261125);
  return g;
}

/// `count` doubles with random significands and exponents in [lo, hi], both
/// signs.
std::vector<uint64_t> randomF64(size_t count, int lo, int hi) {
  std::uniform_int_distribution<int> e(lo, hi);
  std::vector<uint64_t> v(count);
  for (uint64_t &x : v) {
    const uint64_t r = rng()();
    x = (r & 0x800fffffffffffffULL) | (uint64_t(e(rng()) + 1023) << 52);
  }
  return v;
}

//===----------------------------------------------------------------------===//
// Exact widening and round trips over every 16-bit pattern
//===----------------------------------------------------------------------===//

TEST(HostConvert, EveryF16WidensExactlyAndRoundTrips) {
  const std::vector<uint64_t> all = all16();
  for (Isa isa : isas()) {
    SCOPED_TRACE(isaName(isa));
    expectExactWidening(all, kF16, kF32, isa);
    expectExactWidening(all, kF16, kF64, isa);
    for (const Fmt &wide : {kF32, kF64}) {
      const std::vector<uint64_t> back =
          run(run(all, kF16, wide, opts(isa)), wide, kF16, opts(isa));
      for (size_t i = 0; i < all.size(); ++i) {
        // NaNs come back quiet, payload kept.
        const uint64_t want =
            kF16.isNaN(all[i]) ? all[i] | kF16.quietBit() : all[i];
        ASSERT_EQ(back[i], want) << where(kF16, wide, isa, all[i]);
      }
    }
  }
}

TEST(HostConvert, EveryBf16WidensExactlyAndRoundTrips) {
  const std::vector<uint64_t> all = all16();
  for (Isa isa : isas()) {
    SCOPED_TRACE(isaName(isa));
    expectExactWidening(all, kBF16, kF32, isa);
    expectExactWidening(all, kBF16, kF64, isa);
    for (const Fmt &wide : {kF32, kF64}) {
      const std::vector<uint64_t> back =
          run(run(all, kBF16, wide, opts(isa)), wide, kBF16, opts(isa));
      for (size_t i = 0; i < all.size(); ++i) {
        const uint64_t want =
            kBF16.isNaN(all[i]) ? all[i] | kBF16.quietBit() : all[i];
        ASSERT_EQ(back[i], want) << where(kBF16, wide, isa, all[i]);
      }
    }
  }
}

TEST(HostConvert, EveryF16AndBf16ToEachOtherMatchesMpfr) {
  REQUIRE_MPFR();
  const std::vector<uint64_t> all = all16();
  expectMatchesMpfr(all, kF16, kBF16);
  expectMatchesMpfr(all, kBF16, kF16);
}

//===----------------------------------------------------------------------===//
// f32 -> f16 / bf16
//===----------------------------------------------------------------------===//

TEST(HostConvert, F32SpecialsAndRandomPatternsMatchMpfr) {
  REQUIRE_MPFR();
  std::vector<uint64_t> in = {0x00000000,
                              0x80000000,
                              0x7f800000,
                              0xff800000, // +-0, +-inf
                              0x7fc00000,
                              0xffc00001,
                              0x7f800001,
                              0xff80ffff, // NaNs, quiet and not
                              0x00000001,
                              0x807fffff,
                              0x00800000,
                              0x7f7fffff, // f32 extremes
                              bitsOf(65504.0f),
                              bitsOf(65520.0f),
                              bitsOf(65519.996f),
                              bitsOf(std::ldexp(1.0f, -24)),
                              bitsOf(std::ldexp(1.0f, -25)),
                              bitsOf(std::ldexp(1.5f, -25)),
                              bitsOf(std::ldexp(1.0f, -14)),
                              bitsOf(std::ldexp(1.0f, -133)),
                              bitsOf(std::ldexp(1.0f, -134)),
                              bitsOf(std::ldexp(3.0f, -135)),
                              bitsOf(3.3961776e38f),
                              bitsOf(1.0f),
                              bitsOf(-1.0f),
                              bitsOf(0.1f),
                              bitsOf(1.0009765625f)};
  std::uniform_int_distribution<int> exp(-30, 17);
  for (int i = 0; i < (1 << 19); ++i) // any pattern
    in.push_back(rng()() & 0xffffffff);
  for (int i = 0; i < (1 << 19); ++i) // mostly in f16's range
    in.push_back((rng()() & 0x807fffff) | uint64_t(exp(rng()) + 127) << 23);
  expectMatchesMpfr(in, kF32, kF16);
  expectMatchesMpfr(in, kF32, kBF16);
}

/// Every f32 at and around each f16 / bf16 halfway point: the point (ties to
/// even, checked without MPFR too), one f32 ulp either side, and the
/// 16-bit values themselves.
void checkF32Boundaries(const Fmt &to) {
  std::vector<double> points;
  std::vector<uint64_t> even;
  halfwayPoints(to, points, even);
  std::vector<uint64_t> ties;
  for (double p : points)
    ties.push_back(bitsOf(float(p))); // exact
  for (Isa isa : isas()) {
    const std::vector<uint64_t> out = run(ties, kF32, to, opts(isa));
    for (size_t i = 0; i < ties.size(); ++i)
      ASSERT_EQ(out[i], even[i])
          << where(kF32, to, isa, ties[i]) << " = " << points[i]
          << ": a tie must go to the even neighbour";
  }
  std::vector<uint64_t> near;
  for (double p : points) {
    const float f = float(p);
    near.push_back(bitsOf(std::nextafter(f, 0.0f)));
    near.push_back(bitsOf(std::nextafter(f, f * 2)));
  }
  for (uint64_t h = 0; h < 0x10000; ++h)
    if (!to.isNaN(h))
      near.push_back(bitsOf(float(decode(h, to))));
  expectMatchesMpfr(ties, kF32, to);
  expectMatchesMpfr(near, kF32, to);
}

TEST(HostConvert, F32AtF16HalfwayPointsTiesToEven) { checkF32Boundaries(kF16); }

TEST(HostConvert, F32AtBf16HalfwayPointsTiesToEven) {
  checkF32Boundaries(kBF16);
}

//===----------------------------------------------------------------------===//
// f64 -> f16 / bf16 / f32, with the double rounding traps
//===----------------------------------------------------------------------===//

/// f64 values at and next to each halfway point of `to`: the tie, one f64
/// ulp either side, and a quarter and a half f32 ulp either side (values
/// that round to the tie, or to an f32 tie, when rounded to f32 first).
std::vector<uint64_t> f64NearHalfway(const Fmt &to) {
  std::vector<double> points;
  std::vector<uint64_t> even;
  halfwayPoints(to, points, even);
  std::vector<uint64_t> v;
  for (double p : points) {
    v.push_back(bitsOf(p));
    v.push_back(bitsOf(std::nextafter(p, 0.0)));
    v.push_back(bitsOf(std::nextafter(p, 2 * p)));
    const float f = float(p);
    const double ulp32 =
        double(std::nextafter(std::fabs(f), INFINITY)) - std::fabs(double(f));
    for (double k : {-0.5, -0.25, 0.25, 0.5})
      v.push_back(bitsOf(p + k * ulp32));
  }
  return v;
}

TEST(HostConvert, F64ToF16MatchesMpfrIncludingDoubleRoundingTraps) {
  REQUIRE_MPFR();
  std::vector<uint64_t> in = f64NearHalfway(kF16);
  const std::vector<uint64_t> rnd = randomF64(1 << 17, -30, 17);
  in.insert(in.end(), rnd.begin(), rnd.end());
  expectMatchesMpfr(in, kF64, kF16);

  // The traps are real: rounding through f32 gets many of them wrong.
  const std::vector<uint64_t> traps = f64NearHalfway(kF16);
  const std::vector<uint64_t> direct =
      run(traps, kF64, kF16, opts(ConvertOptions::Scalar));
  const std::vector<uint64_t> twice =
      run(run(traps, kF64, kF32, opts(ConvertOptions::Scalar)), kF32, kF16,
          opts(ConvertOptions::Scalar));
  size_t differ = 0;
  for (size_t i = 0; i < traps.size(); ++i)
    differ += direct[i] != twice[i];
  EXPECT_GT(differ, size_t(10000)) << "the trap inputs should catch double "
                                      "rounding";
}

TEST(HostConvert, F64ToBf16MatchesMpfrIncludingDoubleRoundingTraps) {
  REQUIRE_MPFR();
  std::vector<uint64_t> in = f64NearHalfway(kBF16);
  const std::vector<uint64_t> rnd = randomF64(1 << 17, -140, 130);
  in.insert(in.end(), rnd.begin(), rnd.end());
  expectMatchesMpfr(in, kF64, kBF16);
}

TEST(HostConvert, F64ToF32MatchesMpfr) {
  REQUIRE_MPFR();
  std::vector<uint64_t> in = randomF64(1 << 17, -155, 130);
  // Halfway points of random f32 (normal and subnormal) and their
  // neighbours, the overflow threshold (a tie: FLT_MAX is odd, so inf) and
  // values around it, and any patterns.
  for (int i = 0; i < (1 << 15); ++i) {
    uint32_t b = uint32_t(rng()()) & 0x7f7fffff;
    if (i % 4 == 0)
      b &= 0x007fffff; // subnormal
    const double lo = double(floatFromBits(b));
    const double hi = double(std::nextafter(floatFromBits(b), INFINITY));
    const double mid = (lo + hi) / 2;
    for (double x : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e300)})
      for (double s : {1.0, -1.0})
        in.push_back(bitsOf(s * x));
  }
  const double top = std::ldexp(2.0 - std::ldexp(1.0, -24), 127);
  for (double x :
       {top, std::nextafter(top, 0.0), std::nextafter(top, 1e300), 1e39, 1e300,
        1e-300, 4e-324, -4e-324, std::ldexp(1.0, -150), std::ldexp(1.0, -151),
        std::nextafter(std::ldexp(1.0, -150), 1.0)})
    for (double s : {1.0, -1.0})
      in.push_back(bitsOf(s * x));
  for (int i = 0; i < (1 << 16); ++i)
    in.push_back(rng()());
  expectMatchesMpfr(in, kF64, kF32);
}

TEST(HostConvert, RandomF64ToAllMatchMpfr) {
  REQUIRE_MPFR();
  std::vector<uint64_t> in;
  for (int i = 0; i < (1 << 16); ++i)
    in.push_back(rng()());
  const std::vector<uint64_t> wide = randomF64(1 << 16, -160, 140);
  in.insert(in.end(), wide.begin(), wide.end());
  for (const Fmt &to : {kF32, kF16, kBF16})
    expectMatchesMpfr(in, kF64, to);
}

//===----------------------------------------------------------------------===//
// Subnormals, overflow, underflow, zeros, NaNs
//===----------------------------------------------------------------------===//

TEST(HostConvert, SubnormalsInAndOut) {
  for (Isa isa : isas()) {
    SCOPED_TRACE(isaName(isa));
    // f16 subnormals from f32 and f64: 2^-24 (least), 2^-25 (tie -> 0),
    // 1.5 * 2^-25 (-> 2^-24), 1023 * 2^-24 (largest).
    const std::vector<double> xs = {std::ldexp(1.0, -24), std::ldexp(1.0, -25),
                                    std::ldexp(1.5, -25),
                                    std::ldexp(1023.0, -24)};
    const std::vector<uint64_t> wantF16 = {0x0001, 0x0000, 0x0001, 0x03ff};
    std::vector<uint64_t> asF64, asF32;
    for (double x : xs) {
      asF64.push_back(bitsOf(x));
      asF32.push_back(bitsOf(float(x)));
    }
    EXPECT_EQ(run(asF64, kF64, kF16, opts(isa)), wantF16);
    EXPECT_EQ(run(asF32, kF32, kF16, opts(isa)), wantF16);
    // f32 subnormals to and from f64; 2^-150 is a tie (-> 0), a hair more
    // rounds up.
    EXPECT_EQ(run({bitsOf(std::ldexp(1.0, -149)), bitsOf(std::ldexp(1.0, -150)),
                   bitsOf(std::nextafter(std::ldexp(1.0, -150), 1.0)),
                   bitsOf(-std::ldexp(3.0, -149))},
                  kF64, kF32, opts(isa)),
              (std::vector<uint64_t>{0x00000001, 0x00000000, 0x00000001,
                                     0x80000003}));
    EXPECT_EQ(run({0x00000001, 0x807fffff}, kF32, kF64, opts(isa)),
              (std::vector<uint64_t>{bitsOf(std::ldexp(1.0, -149)),
                                     bitsOf(-std::ldexp(8388607.0, -149))}));
    // bf16 subnormals: 0x0001 is 2^-133; f64 values near it round correctly
    // (the round-to-odd path through f32's subnormals).
    EXPECT_EQ(run({0x0001, 0x807f}, kBF16, kF32, opts(isa)),
              (std::vector<uint64_t>{0x00010000, 0x807f0000}));
    EXPECT_EQ(run({bitsOf(std::ldexp(1.0, -133)), bitsOf(std::ldexp(1.0, -134)),
                   bitsOf(std::nextafter(std::ldexp(1.0, -134), 1.0)),
                   bitsOf(std::ldexp(3.0, -134))},
                  kF64, kBF16, opts(isa)),
              (std::vector<uint64_t>{0x0001, 0x0000, 0x0001, 0x0002}));
    // f16 subnormal -> bf16 (normal there).
    EXPECT_EQ(run({0x0001}, kF16, kBF16, opts(isa)),
              (std::vector<uint64_t>{0x3380})); // 2^-24
  }
}

#if defined(__x86_64__)
/// Sets MXCSR for the test's scope, restores it after.
class ScopedMxcsr {
public:
  explicit ScopedMxcsr(unsigned csr) : saved_(_mm_getcsr()) { _mm_setcsr(csr); }
  ~ScopedMxcsr() { _mm_setcsr(saved_); }

private:
  unsigned saved_;
};
#endif

TEST(HostConvert, IndependentOfCallersMxcsr) {
#if defined(__x86_64__)
  // Subnormal-rich inputs for every pair, converted under the default MXCSR
  // and under FTZ + DAZ + round up: same bits, and MXCSR given back as it
  // was, flags included.
  std::vector<uint64_t> in64 = randomF64(20000, -160, -120);
  const std::vector<uint64_t> small64 = randomF64(20000, -30, -10);
  in64.insert(in64.end(), small64.begin(), small64.end());
  std::vector<uint64_t> in32, in16(all16());
  for (int i = 0; i < 40000; ++i)
    in32.push_back(rng()() & 0x80ffffff); // f32 subnormals and tiny normals
  const auto inputs = [&](const Fmt &f) -> const std::vector<uint64_t> & {
    return f.type == ScalarType::F64   ? in64
           : f.type == ScalarType::F32 ? in32
                                       : in16;
  };
  for (Isa isa : isas())
    for (unsigned threads : {1u, 4u})
      for (const Fmt &from : kAll)
        for (const Fmt &to : kAll) {
          const std::vector<uint64_t> &in = inputs(from);
          const std::vector<uint64_t> want = run(in, from, to, opts(isa, 1));
          const unsigned hostile = 0x1f80 | 0x8000 | 0x0040 | 0x4000 | 0x3f;
          ScopedMxcsr csr(hostile); // FTZ, DAZ, round up, all flags set
          const std::vector<uint64_t> got =
              run(in, from, to, opts(isa, threads));
          const unsigned after = _mm_getcsr();
          ASSERT_EQ(after, hostile) << "MXCSR not restored";
          ASSERT_EQ(got, want)
              << from.name << " -> " << to.name << " (" << isaName(isa) << ", "
              << threads << " threads) changed under FTZ/DAZ/round-up";
        }
#else
  GTEST_SKIP() << "MXCSR exists on x86-64 only";
#endif
}

TEST(HostConvert, OverflowAndUnderflowAreCounted) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // f64 and f32 -> f16: {value, expected f16 bits, overflowed, underflowed}.
  struct Case {
    double x;
    uint64_t f16;
    int over, under;
  };
  const Case cases[] = {
      {65504.0, 0x7bff, 0, 0}, {65519.99, 0x7bff, 0, 0},
      {65520.0, 0x7c00, 1, 0}, {-65520.0, 0xfc00, 1, 0},
      {1e30, 0x7c00, 1, 0},    {inf, 0x7c00, 0, 0},
      {-inf, 0xfc00, 0, 0},    {1e-8, 0x0000, 0, 1},
      {-1e-8, 0x8000, 0, 1},   {3e-8, 0x0001, 0, 0},
      {0.0, 0x0000, 0, 0},     {-0.0, 0x8000, 0, 0},
      {-1e-40, 0x8000, 0, 1},  {nan, 0x7e00, 0, 0},
  };
  for (Isa isa : isas())
    for (const Fmt &from : {kF64, kF32}) {
      SCOPED_TRACE(std::string(isaName(isa)) + " from " + from.name);
      std::vector<uint64_t> in;
      int over = 0, under = 0;
      for (const Case &c : cases) {
        in.push_back(from.type == ScalarType::F64 ? bitsOf(c.x)
                                                  : bitsOf(float(c.x)));
        over += c.over;
        under += c.under;
      }
      // Repeated to span several threads' chunks.
      const size_t reps = 40000;
      std::vector<uint64_t> big;
      for (size_t r = 0; r < reps; ++r)
        big.insert(big.end(), in.begin(), in.end());
      for (unsigned threads : {1u, 4u}) {
        ConvertStats st;
        const std::vector<uint64_t> out =
            run(big, from, kF16, opts(isa, threads), &st);
        for (size_t i = 0; i < in.size(); ++i)
          EXPECT_EQ(out[i], cases[i].f16) << "value " << cases[i].x;
        EXPECT_EQ(st.overflowed, over * reps);
        EXPECT_EQ(st.underflowedToZero, under * reps);
        EXPECT_EQ(st.nans, reps);
      }
    }
  // Other narrowing pairs.
  for (Isa isa : isas()) {
    ConvertStats st;
    // f32 3.4e38 is past bf16's overflow threshold (2 - 2^-8) * 2^127.
    EXPECT_EQ(run({bitsOf(3.4e38f), bitsOf(3.39e38f), bitsOf(1e-45f)}, kF32,
                  kBF16, opts(isa), &st),
              (std::vector<uint64_t>{0x7f80, 0x7f7f, 0x0000}));
    EXPECT_EQ(st.overflowed, 1u);
    EXPECT_EQ(st.underflowedToZero, 1u);
    // bf16 70144 and 2^-40 do not fit f16.
    EXPECT_EQ(run({0x4789, 0x2b80, 0x3f80}, kBF16, kF16, opts(isa), &st),
              (std::vector<uint64_t>{0x7c00, 0x0000, 0x3c00}));
    EXPECT_EQ(st.overflowed, 1u);
    EXPECT_EQ(st.underflowedToZero, 1u);
    // Widening and f16 -> bf16 never lose range; NaNs are still counted.
    // f16 65504 rounds to bf16 65536, still finite.
    EXPECT_EQ(run({0x7bff, 0x0001, 0x7e00}, kF16, kBF16, opts(isa), &st),
              (std::vector<uint64_t>{0x4780, 0x3380, 0x7fc0}));
    EXPECT_EQ(st.overflowed, 0u);
    EXPECT_EQ(st.underflowedToZero, 0u);
    EXPECT_EQ(st.nans, 1u);
  }
}

TEST(HostConvert, ZerosInfinitiesAndNaNsKeepSignAndClass) {
  for (Isa isa : isas())
    for (const Fmt &from : kAll)
      for (const Fmt &to : kAll) {
        const uint64_t s = from.signBit(), inf = from.infBits();
        const uint64_t q = from.quietBit();
        // +-0, +-inf, quiet and signalling NaNs with payloads at both ends.
        const std::vector<uint64_t> in = {0,
                                          s,
                                          inf,
                                          inf | s,
                                          inf | q,
                                          inf | q | s,
                                          inf | 1,
                                          inf | 1 | s,
                                          inf | q | 1,
                                          inf | (q - 1) | s,
                                          inf | (q >> 1)};
        ConvertStats st;
        const std::vector<uint64_t> out = run(in, from, to, opts(isa), &st);
        for (size_t i = 0; i < in.size(); ++i) {
          const uint64_t want = from.isNaN(in[i])
                                    ? expectedNaN(in[i], from, to)
                                    : ((in[i] & s) ? to.signBit() : 0) |
                                          ((in[i] & inf) ? to.infBits() : 0);
          EXPECT_EQ(out[i], want)
              << where(from, to, isa, in[i]) << ": got " << std::hex << out[i];
          if (from.type != to.type && from.isNaN(in[i])) {
            EXPECT_TRUE(out[i] & to.quietBit()) << "NaN not quiet";
          }
        }
        EXPECT_EQ(st.nans, 7u);
        EXPECT_EQ(st.overflowed, 0u);
        EXPECT_EQ(st.underflowedToZero, 0u);
      }
}

//===----------------------------------------------------------------------===//
// The two paths, thread counts, odd sizes
//===----------------------------------------------------------------------===//

/// Random patterns of `f` with the interesting classes salted in.
std::vector<uint64_t> mixedPatterns(const Fmt &f, size_t n) {
  std::vector<uint64_t> v(n);
  const uint64_t mask =
      f.bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * f.bytes)) - 1;
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = rng()() & mask;
    switch (i % 8) {
    case 1: // near 1 (in range for every target)
      r = (r & (f.signBit() | ((uint64_t(1) << f.M) - 1))) |
          (uint64_t(f.bias() + int(r % 8) - 4) << f.M);
      break;
    case 2: // subnormal
      r &= f.signBit() | ((uint64_t(1) << f.M) - 1);
      break;
    case 3: // zero, infinity or NaN
      r = (r & f.signBit()) |
          (r % 3 == 0   ? 0
           : r % 3 == 1 ? f.infBits()
                        : f.infBits() | (r & f.quietBit()) | 1);
      break;
    default:
      break;
    }
    v[i] = r;
  }
  return v;
}

TEST(HostConvert, ScalarAndAvx2GiveIdenticalBits) {
  if (!isaAvailable(ConvertOptions::Avx2))
    GTEST_SKIP() << "this CPU lacks AVX2 or F16C (isaAvailable(Avx2) is "
                    "false): only the scalar path exists here";
  const size_t sizes[] = {0, 1, 7, 8, 9, 1000003};
  // Odd byte offsets: no element or vector alignment; guard zones before
  // and after the results catch stray stores (the tails).
  const size_t srcOff = 3, dstOff = 1, guard = 64;
  for (const Fmt &from : kAll) {
    std::vector<uint8_t> src(srcOff);
    const std::vector<uint8_t> packed =
        pack(mixedPatterns(from, 1000003), from);
    src.insert(src.end(), packed.begin(), packed.end());
    for (const Fmt &to : kAll)
      for (size_t n : sizes) {
        ConvertStats want;
        std::vector<uint8_t> ref(dstOff + n * to.bytes + guard, 0xa5);
        ASSERT_TRUE(convert(src.data() + srcOff, from.type, ref.data() + dstOff,
                            to.type, n, opts(ConvertOptions::Scalar, 1), &want)
                        .isOk());
        for (Isa isa : {ConvertOptions::Scalar, ConvertOptions::Avx2})
          for (unsigned threads : {1u, 4u}) {
            std::vector<uint8_t> got(ref.size(), 0xa5);
            ConvertStats st;
            Status s =
                convert(src.data() + srcOff, from.type, got.data() + dstOff,
                        to.type, n, opts(isa, threads), &st);
            ASSERT_TRUE(s.isOk()) << s.toString();
            ASSERT_TRUE(got == ref)
                << from.name << " -> " << to.name << ", n = " << n << ", "
                << isaName(isa) << ", " << threads << " threads";
            EXPECT_EQ(st.overflowed, want.overflowed);
            EXPECT_EQ(st.underflowedToZero, want.underflowedToZero);
            EXPECT_EQ(st.nans, want.nans);
          }
      }
  }
}

// Destinations of at least 4 MiB widening to f64 take the streaming
// (non-temporal) kernels where the destination is element-aligned: the
// same bits, with and without stats, from any 32-byte phase.
TEST(HostConvert, StreamingWideningGivesIdenticalBits) {
  if (!isaAvailable(ConvertOptions::Avx2))
    GTEST_SKIP() << "this CPU lacks AVX2 or F16C (isaAvailable(Avx2) is "
                    "false): only the scalar path exists here";
  const size_t n = (size_t(5) << 20) / 8 + 13; // 5 MiB of f64 and a tail
  const size_t guard = 64;
  for (const Fmt &from : kAll) {
    if (from.type == ScalarType::F64)
      continue;
    const std::vector<uint8_t> src = pack(mixedPatterns(from, n), from);
    std::vector<uint8_t> ref(n * 8 + 64 + guard, 0xa5);
    ASSERT_TRUE(convert(src.data(), from.type, ref.data(), ScalarType::F64, n,
                        opts(ConvertOptions::Scalar, 1))
                    .isOk());
    for (size_t dstOff : {0, 8, 16, 24})
      for (bool stats : {false, true}) {
        std::vector<uint8_t> buf(n * 8 + 64 + guard, 0xa5);
        // A 32-byte aligned base, then the phase under test.
        uint8_t *base = buf.data() + (32 - reinterpret_cast<uintptr_t>(
                                               buf.data()) % 32) % 32;
        ConvertStats st;
        ASSERT_TRUE(convert(src.data(), from.type, base + dstOff,
                            ScalarType::F64, n, opts(ConvertOptions::Avx2, 4),
                            stats ? &st : nullptr)
                        .isOk());
        ASSERT_EQ(std::memcmp(base + dstOff, ref.data(), n * 8), 0)
            << from.name << " -> f64, destination offset " << dstOff
            << (stats ? ", stats" : "");
        for (size_t k = 0; k < guard; ++k)
          ASSERT_EQ(base[dstOff + n * 8 + k], 0xa5) << "store past the end";
      }
  }
}

TEST(HostConvert, StatsMatchACountOfEachElement) {
  // First a run of values near 1 (whole blocks whose results hold no inf or
  // zero, where convert() skips counting the source), then mixed patterns.
  for (const Fmt &from : kAll) {
    std::vector<uint64_t> in;
    const uint64_t frac = (uint64_t(1) << from.M) - 1;
    for (int i = 0; i < 20000; ++i)
      in.push_back((rng()() & (from.signBit() | frac)) |
                   (uint64_t(from.bias()) << from.M));
    const std::vector<uint64_t> mixed = mixedPatterns(from, 100003);
    in.insert(in.end(), mixed.begin(), mixed.end());
    const auto isInf = [](uint64_t b, const Fmt &f) {
      return (b & f.absMask()) == f.infBits();
    };
    const auto isZero = [](uint64_t b, const Fmt &f) {
      return (b & f.absMask()) == 0;
    };
    for (const Fmt &to : kAll)
      for (Isa isa : isas())
        for (unsigned threads : {1u, 4u}) {
          ConvertStats st;
          const std::vector<uint64_t> out =
              run(in, from, to, opts(isa, threads), &st);
          uint64_t over = 0, under = 0, nans = 0;
          for (size_t i = 0; i < in.size(); ++i) {
            const bool finite = !from.isNaN(in[i]) && !isInf(in[i], from);
            over += finite && isInf(out[i], to);
            under += finite && !isZero(in[i], from) && isZero(out[i], to);
            nans += from.isNaN(in[i]);
          }
          EXPECT_EQ(st.overflowed, over)
              << from.name << " -> " << to.name << " " << isaName(isa);
          EXPECT_EQ(st.underflowedToZero, under)
              << from.name << " -> " << to.name << " " << isaName(isa);
          EXPECT_EQ(st.nans, nans)
              << from.name << " -> " << to.name << " " << isaName(isa);
        }
  }
}

TEST(HostConvert, ThreadCountsAndChunks) {
  EXPECT_EQ(convertThreads(0, ScalarType::F64, ScalarType::F16, 8), 1u);
  EXPECT_EQ(convertThreads(1000, ScalarType::F64, ScalarType::F16, 8), 1u);
  // 64 KiB of f64 each: 8192 elements per thread at least.
  EXPECT_EQ(convertThreads(8192 * 3, ScalarType::F64, ScalarType::F16, 8), 3u);
  EXPECT_EQ(convertThreads(8192 * 3, ScalarType::F16, ScalarType::F64, 8), 3u);
  EXPECT_EQ(
      convertThreads(size_t(1) << 30, ScalarType::F32, ScalarType::F16, 5), 5u);
  EXPECT_GE(
      convertThreads(size_t(1) << 30, ScalarType::F32, ScalarType::F16, 0), 1u);
  EXPECT_EQ(
      convertThreads(size_t(1) << 40, ScalarType::F32, ScalarType::F16, 100000),
      256u);
  // Any thread count gives the same bits, with sizes that split unevenly.
  const std::vector<uint64_t> in = mixedPatterns(kF64, 300007);
  const std::vector<uint64_t> want =
      run(in, kF64, kBF16, opts(ConvertOptions::Auto, 1));
  for (unsigned threads : {0u, 2u, 3u, 7u, 16u})
    EXPECT_EQ(run(in, kF64, kBF16, opts(ConvertOptions::Auto, threads)), want)
        << threads << " threads";
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// The error's class and that its one-line message contains `text`.
void expectError(const Status &s, StatusCode code, const std::string &text) {
  ASSERT_FALSE(s.isOk()) << "expected an error containing '" << text << "'";
  EXPECT_EQ(s.code(), code) << s.toString();
  EXPECT_NE(s.message().find(text), std::string::npos) << s.toString();
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.toString();
}

TEST(HostConvert, ErrorsAreOneLineStatuses) {
  float a[16] = {};
  uint16_t h[16] = {};
  const ConvertOptions o = opts(ConvertOptions::Scalar);
  const StatusCode bad = StatusCode::InvalidArgument;
  expectError(convert(a, ScalarType::I32, h, ScalarType::F16, 4, o), bad,
              "source type i32 is not a precision");
  expectError(convert(a, ScalarType::F32, h, ScalarType(99), 4, o), bad,
              "destination type #99 is not a precision");
  expectError(convert(nullptr, ScalarType::F32, h, ScalarType::F16, 4, o), bad,
              "null source pointer for 4 elements");
  expectError(convert(a, ScalarType::F32, nullptr, ScalarType::F16, 4, o), bad,
              "null destination pointer");
  // n = 0 needs no memory.
  EXPECT_TRUE(
      convert(nullptr, ScalarType::F32, nullptr, ScalarType::F16, 0, o).isOk());
  const size_t huge = std::numeric_limits<size_t>::max() / 4 + 1;
  expectError(convert(a, ScalarType::F32, h, ScalarType::F16, huge, o), bad,
              "elements of f32 overflow size_t");
  expectError(convert(a, ScalarType::F16, h, ScalarType::F64,
                      std::numeric_limits<size_t>::max() / 8 + 1, o),
              bad, "elements of f64 overflow size_t");
  const void *top = reinterpret_cast<const void *>(
      std::numeric_limits<uintptr_t>::max() - 15);
  expectError(convert(top, ScalarType::F32, h, ScalarType::F16, 8, o), bad,
              "wrap around the address space");
  // Overlap: shifted, identical, and one byte shared; adjacent is fine.
  uint8_t buf[256] = {};
  expectError(convert(buf, ScalarType::F32, buf + 2, ScalarType::F16, 8, o),
              bad, "overlap");
  expectError(convert(buf, ScalarType::F32, buf, ScalarType::F32, 8, o), bad,
              "overlap");
  expectError(convert(buf + 31, ScalarType::F16, buf, ScalarType::F32, 8, o),
              bad, "overlap");
  EXPECT_TRUE(
      convert(buf + 32, ScalarType::F16, buf, ScalarType::F32, 8, o).isOk());
  ConvertOptions unknown = o;
  unknown.isa = ConvertOptions::Isa(7);
  expectError(convert(a, ScalarType::F32, h, ScalarType::F16, 4, unknown), bad,
              "unknown isa 7");
  if (!isaAvailable(ConvertOptions::Avx2)) {
    expectError(convert(a, ScalarType::F32, h, ScalarType::F16, 4,
                        opts(ConvertOptions::Avx2)),
                StatusCode::Unsupported, "isa avx2");
  } else {
    EXPECT_TRUE(convert(a, ScalarType::F32, h, ScalarType::F16, 4,
                        opts(ConvertOptions::Avx2))
                    .isOk());
  }
  // Stats are reset even when the call fails.
  ConvertStats st{5, 6, 7};
  EXPECT_FALSE(
      convert(nullptr, ScalarType::F32, h, ScalarType::F16, 4, o, &st).isOk());
  EXPECT_EQ(st.overflowed + st.underflowedToZero + st.nans, 0u);
}

TEST(HostConvert, NamesParse) {
  for (const char *name : {"f64", "f32", "f16", "bf16"}) {
    Expected<ScalarType> t = parsePrecision(name);
    ASSERT_TRUE(t.isOk()) << name;
    EXPECT_STREQ(scalarTypeName(*t), name);
    EXPECT_TRUE(isPrecision(*t));
  }
  expectError(parsePrecision("i32").status(), StatusCode::InvalidArgument,
              "unknown precision 'i32'");
  expectError(parsePrecision("f8").status(), StatusCode::InvalidArgument,
              "unknown precision");
  for (Isa isa :
       {ConvertOptions::Auto, ConvertOptions::Scalar, ConvertOptions::Avx2}) {
    Expected<Isa> p = parseIsa(isaName(isa));
    ASSERT_TRUE(p.isOk());
    EXPECT_EQ(*p, isa);
  }
  expectError(parseIsa("avx512").status(), StatusCode::InvalidArgument,
              "unknown isa 'avx512'");
  EXPECT_TRUE(autoIsa() == ConvertOptions::Avx2 ||
              autoIsa() == ConvertOptions::Scalar);
}

} // namespace
