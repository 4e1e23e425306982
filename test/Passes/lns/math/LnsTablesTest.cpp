//===- LnsTablesTest.cpp - The LNS tables, their models and bounds --------===//
//
// The references and their special values, segment validation with its
// messages, the texture2 layout of eq. 4, texture3's Bernstein layout, and
// the measured errors of every implementation against bounds derived from
// the approximation theory plus the f32 roundings of the pipeline (not from
// observation):
//   texture2: the fit on the filter's basis {1, g, rho(g)} is at least as
//     good as a0 + a1 g + a2 rho with a = the quadratic's minimax, whose
//     error is |f'''| h^3 / 192 plus |a2| max|rho - g^2| = |f''| h^2/2 / 512;
//     the f32 roundings add a texel's half ulp, the truncation 2^(E-28) and
//     the result's half ulp;
//   texture3: the fit on the filter's basis {1, g, rho2(g), rho3(g)} is at
//     least as good as the cubic's minimax a with the rounded weights,
//     whose error is |f''''| h^4 / 3072 plus (|a2| + |a3|) / 512 (each
//     rounded weight is within 1/512 of g^2, g^3), plus the same f32
//     roundings; the |a2|/512 term, |f''| h^2 / 1024, is texture2's too and
//     dominates both for sb from k = 4 on: texture3 gains little there;
//   texture1: nodes lowered by half the sagitta leave |f''| h^2 / 16;
//   horner: at most the Chebyshev interpolation error
//     |f^(d+1)| h^(d+1) / ((d+1)! 2^(2d+1)), plus coefficient and fma
//     roundings.
//
//===----------------------------------------------------------------------===//

#include "LnsTables.h"
#include "FilterModel.h"
#include "Minimax.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <tuple>

using namespace approx::lns;

namespace {

const long double kLn2 = 0.693147180559945309417232121458176568L;
const float kInf = std::numeric_limits<float>::infinity();

uint32_t bitsOf(float v) {
  uint32_t w;
  std::memcpy(&w, &v, sizeof w);
  return w;
}

/// max |f^(n)| over [lo, hi] by central differences of the long double
/// reference with step 1/256 (all three are analytic on a neighbourhood of
/// their table domains: db up to 0, cb everywhere, so the stencil may reach
/// past the ends). Truncation error O(step^2) and cancellation
/// ~2^n eps / step^n stay below 1e-3 relative for n <= 6; callers add a
/// margin of 1..5%.
long double maxDerivative(LnsFunction fn, int n, long double lo,
                          long double hi) {
  const long double step = 1.0L / 256;
  long double best = 0;
  for (int i = 0; i <= 2048; ++i) {
    const long double x = lo + (hi - lo) * i / 2048;
    // The n-th central difference: sum_k (-1)^k C(n, k) f(x + (n/2 - k) s).
    long double sum = 0, binom = 1;
    for (int k = 0; k <= n; ++k) {
      if (k > 0)
        binom = binom * (n - k + 1) / k;
      sum += ((k % 2) ? -1 : 1) * binom *
             lnsReference(fn, x + (n / 2.0L - k) * step);
    }
    best = std::max(best, std::fabs(sum) / std::pow(step, n));
  }
  return best;
}

} // namespace

//===----------------------------------------------------------------------===//
// References
//===----------------------------------------------------------------------===//

TEST(LnsFunctions, SpecialValues) {
  const long double inf = std::numeric_limits<long double>::infinity();
  EXPECT_EQ(sbReference(-inf), 0);
  EXPECT_EQ(sbReference(inf), inf);
  EXPECT_EQ(sbReference(0), 1);
  EXPECT_EQ(dbReference(0), -inf);
  EXPECT_EQ(dbReference(-0.0L), -inf);
  EXPECT_EQ(dbReference(-inf), 0);
  EXPECT_EQ(dbReference(inf), inf);
  EXPECT_NEAR(double(dbReference(-1)), -1.0, 1e-18);
  EXPECT_NEAR(double(cbReference(0)), std::log2(0.6931471805599453), 1e-15);
  EXPECT_NEAR(double(cbReference(-1)), -1.0, 1e-18);
  EXPECT_TRUE(std::isnan(sbReference(NAN)));
  EXPECT_TRUE(std::isnan(dbReference(NAN)));
  EXPECT_TRUE(std::isnan(cbReference(NAN)));
  // Below the table range: the true value, not 0.
  EXPECT_NEAR(double(sbReference(-40) / (std::exp2(-40.0L) / kLn2)), 1.0,
              1e-11);
  EXPECT_NEAR(double(dbReference(-40) / (-std::exp2(-40.0L) / kLn2)), 1.0,
              1e-11);
  // x > 0: f(x) = x + f(-x); cb is continuous through 0.
  EXPECT_NEAR(double(sbReference(3) - 3 - sbReference(-3)), 0, 1e-18);
  EXPECT_NEAR(double(dbReference(3) - 3 - dbReference(-3)), 0, 1e-18);
  EXPECT_NEAR(double(cbReference(1e-12L) - cbReference(0)), 0, 1e-11);
  EXPECT_NEAR(double(cbReference(-1e-12L) - cbReference(0)), 0, 1e-11);
  // db = cb + log2(-x).
  for (long double x : {-0.9L, -0.25L, -1e-3L, -1e-9L})
    EXPECT_NEAR(double(dbReference(x) - cbReference(x) - std::log2(-x)), 0,
                1e-17);
  EXPECT_STREQ(lnsFunctionName(LnsFunction::Cb), "cb");
}

TEST(LnsFunctions, FastAgreesWithLongDouble) {
  for (int i = 0; i <= 200000; ++i) {
    double x = -32.0 + 32.0 * i / 200000;
    for (LnsFunction f : {LnsFunction::Sb, LnsFunction::Db, LnsFunction::Cb}) {
      if (x == 0 && f == LnsFunction::Db)
        continue;
      long double ref = lnsReference(f, x);
      double fast = lnsFast(f, x);
      ASSERT_LE(std::fabs(fast - ref), 1e-15L * std::fabs(ref) + 1e-300L)
          << lnsFunctionName(f) << "(" << x << ")";
    }
  }
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

TEST(LnsTables, CheckSegments) {
  EXPECT_EQ(checkSegments(48, LnsImpl::Texture2),
            "segments per unit 48 is not a power of two");
  EXPECT_EQ(checkSegments(0, LnsImpl::Horner),
            "segments per unit 0 is not a power of two");
  EXPECT_EQ(checkSegments(4096, LnsImpl::Texture2),
            "segments per unit 4096 needs a texture 262144 texels wide; the "
            "limit is 65536");
  EXPECT_EQ(checkSegments(2048, LnsImpl::Texture1),
            "segments per unit 2048 needs a texture 65537 texels wide; the "
            "limit is 65536");
  EXPECT_EQ(checkSegments(2048, LnsImpl::Horner),
            "segments per unit 2048 is above the maximum 1024");
  for (unsigned k = 1; k <= 1024; k *= 2)
    for (LnsImpl impl : {LnsImpl::Texture1, LnsImpl::Texture2, LnsImpl::Horner})
      EXPECT_EQ(checkSegments(k, impl), "") << k << " " << lnsImplName(impl);
  // texture3: a 3-D texture 64 k wide, at most 16384.
  for (unsigned k = 1; k <= 256; k *= 2)
    EXPECT_EQ(checkSegments(k, LnsImpl::Texture3), "") << k;
  EXPECT_EQ(checkSegments(512, LnsImpl::Texture3),
            "segments per unit 512 needs a 3-D texture 32768 texels wide; "
            "the limit is 16384");
  EXPECT_EQ(checkSegments(12, LnsImpl::Texture3),
            "segments per unit 12 is not a power of two");
  EXPECT_STREQ(lnsImplName(LnsImpl::Texture3), "texture3");
  EXPECT_EQ(checkDegree(0), "horner degree 0 is outside 1..5");
  EXPECT_EQ(checkDegree(6), "horner degree 6 is outside 1..5");
  EXPECT_EQ(checkDegree(5), "");

  LnsTable t;
  std::string error;
  EXPECT_FALSE(buildTexture2(48, t, &error));
  EXPECT_EQ(error, "segments per unit 48 is not a power of two");
  EXPECT_FALSE(buildTexture1(4096, t, &error));
  EXPECT_EQ(error, "segments per unit 4096 needs a texture 131073 texels "
                   "wide; the limit is 65536");
  EXPECT_FALSE(buildHorner(64, 6, t, &error));
  EXPECT_EQ(error, "horner degree 6 is outside 1..5");
  EXPECT_FALSE(buildHorner(3, 2, t, nullptr));
  EXPECT_FALSE(buildTexture3(1024, t, &error));
  EXPECT_EQ(error, "segments per unit 1024 needs a 3-D texture 65536 texels "
                   "wide; the limit is 16384");
}

//===----------------------------------------------------------------------===//
// texture2
//===----------------------------------------------------------------------===//

namespace {

/// Tables are built once per (impl, k, degree) for the whole test binary.
const LnsTable &table(LnsImpl impl, unsigned k, unsigned degree = 0) {
  static std::map<std::tuple<int, unsigned, unsigned>, LnsTable> cache;
  auto key = std::make_tuple(int(impl), k, degree);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  LnsTable t;
  std::string error;
  auto start = std::chrono::steady_clock::now();
  bool ok = impl == LnsImpl::Texture2   ? buildTexture2(k, t, &error)
            : impl == LnsImpl::Texture3 ? buildTexture3(k, t, &error)
            : impl == LnsImpl::Texture1 ? buildTexture1(k, t, &error)
                                        : buildHorner(k, degree, t, &error);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_TRUE(ok) << error;
  std::printf("[ table    ] %s k=%u d=%u: %.3f s; exact sb %.3g db %.3g cb "
              "%.3g; any sb %.3g db %.3g cb %.3g\n",
              lnsImplName(impl), k, degree, seconds, t.maxErrorExact[0],
              t.maxErrorExact[1], t.maxErrorExact[2], t.maxErrorAny[0],
              t.maxErrorAny[1], t.maxErrorAny[2]);
  return cache.emplace(key, std::move(t)).first->second;
}

float texel(const LnsTable &t, size_t i, size_t row, int c) {
  return t.data[(row * size_t(t.width) + i) * 4 + size_t(c)];
}

/// |f''| on [-32, 0] (sb), [-32, -1] (db), [-1, 0] (cb) in closed form:
/// sb'' = ln2 s (1 - s) with s = 2^x / (1 + 2^x), at most ln2 / 4;
/// db'' = -ln2 2^x / (1 - 2^x)^2, largest at -1: 2 ln2; cb'' from the
/// differences (cb is analytic on [-1, 0]).
long double maxSecond(LnsFunction f) {
  switch (f) {
  case LnsFunction::Sb:
    return kLn2 / 4;
  case LnsFunction::Db:
    return 2 * kLn2;
  case LnsFunction::Cb:
    return maxDerivative(LnsFunction::Cb, 2, -1, 0) * 1.01L;
  }
  return 0;
}

/// The texture2 bound for exact inputs (see the file comment); values of
/// sb, db (x <= -1) and cb lie in [-1, 1], so a half ulp is <= 2^-24 and
/// E <= 1.
long double texture2Bound(LnsFunction f, unsigned k) {
  const long double h = 1.0L / k;
  const long double third = f == LnsFunction::Sb ? maxDerivative(f, 3, -32, 0)
                            : f == LnsFunction::Db
                                ? maxDerivative(f, 3, -32, -1)
                                : maxDerivative(f, 3, -1, 0);
  const long double fit =
      third * 1.01L * h * h * h / 192 + maxSecond(f) * h * h / 2 / 512;
  return fit + 0x1p-24L + 0x1p-27L + 0x1p-24L;
}

} // namespace

TEST(LnsTables, Texture2Layout) {
  const unsigned k = 64, n = 32 * k;
  const LnsTable &t = table(LnsImpl::Texture2, k);
  ASSERT_EQ(t.width, int(2 * n));
  ASSERT_EQ(t.height, 2);
  ASSERT_EQ(t.channels, 4);
  ASSERT_EQ(t.data.size(), size_t(2 * n * 2 * 4));
  const long double h = 1.0L / k;
  const long double bounds[3] = {texture2Bound(LnsFunction::Sb, k),
                                 texture2Bound(LnsFunction::Db, k),
                                 texture2Bound(LnsFunction::Cb, k)};
  for (unsigned w = 0; w < n; ++w) {
    const bool near = w >= n - k;
    const long double x0 = -32 + w * h, x1 = x0 + h;
    for (int c = 0; c < 4; ++c) {
      const float t00 = texel(t, 2 * w, 0, c), t10 = texel(t, 2 * w + 1, 0, c),
                  t01 = texel(t, 2 * w, 1, c), t11 = texel(t, 2 * w + 1, 1, c);
      // Eq. 4: T[2w+1, 0] = T[2w, 1] = a0 + a1/2.
      ASSERT_EQ(bitsOf(t10), bitsOf(t01)) << w << " " << c;
      const bool used = c == 0 || (c == 1 && !near) || (c == 2 && near);
      if (!used) {
        ASSERT_EQ(t00, 0.0f);
        ASSERT_EQ(t10, 0.0f);
        ASSERT_EQ(t11, 0.0f);
        continue;
      }
      const LnsFunction f = LnsFunction(c);
      // a0 = P(0) ~ f(x0), a0 + a1 + a2 = P(1) ~ f(x1), and
      // a2 = T11 - 2 T10 + T00 ~ f'' h^2 / 2.
      const long double bound = bounds[c];
      ASSERT_NEAR(double(t00), double(lnsReference(f, x0)), double(bound))
          << w << " " << c;
      ASSERT_NEAR(double(t11), double(lnsReference(f, x1)), double(bound))
          << w << " " << c;
      const long double xm = x0 + h / 2;
      const long double second =
          (lnsReference(f, xm - h / 2) - 2 * lnsReference(f, xm) +
           lnsReference(f, xm + h / 2)) /
          (h * h / 4);
      const long double a2 = (long double)t11 - 2.0L * t10 + t00;
      ASSERT_NEAR(double(a2), double(second * h * h / 2),
                  double(0.02L * std::fabs(second) * h * h / 2 + 8 * bound))
          << w << " " << c;
    }
  }
}

TEST(LnsTables, Texture2ThroughTheFilterIsTheFittedPolynomial) {
  // At g = j/256 the filter returns a0 + a1 g + a2 rho(g), rho(g) =
  // floor(j^2/256 + 1/2)/256, up to the truncation and the final rounding.
  const unsigned k = 64, n = 32 * k;
  const LnsTable &t = table(LnsImpl::Texture2, k);
  Texture2D tex{t.width, t.height, t.channels, t.data.data()};
  for (unsigned w = 0; w < n; w += 37) {
    for (unsigned j = 0; j < 256; ++j) {
      float out[4];
      const float xf = float(j) / 256 + 0.5f;
      filter2D(tex, 2.0f * w + xf, xf, out);
      for (int c = 0; c < 2; ++c) {
        const long double a0 = texel(t, 2 * w, 0, c);
        const long double a1 =
            2 * ((long double)texel(t, 2 * w + 1, 0, c) - a0);
        const long double a2 = texel(t, 2 * w + 1, 1, c) - a0 - a1;
        const long double g = j / 256.0L, rho = ((j * j + 128) >> 8) / 256.0L;
        const long double p = a0 + a1 * g + a2 * rho;
        ASSERT_NEAR(double(out[c]), double(p), 0x1p-27 + 0x1p-24)
            << w << " " << j << " " << c;
      }
    }
  }
}

TEST(LnsTables, Texture2Errors) {
  const unsigned k = 64;
  const LnsTable &t = table(LnsImpl::Texture2, k);
  // sb over exact inputs: the paper's ~23 bits for 64 segments. The bound
  // from the math is 2^-22.4 (fit 2^-24.5 + roundings 2^-23 + 2^-27).
  const long double sbBound = texture2Bound(LnsFunction::Sb, k);
  EXPECT_LE(sbBound, 0x1p-22L);
  EXPECT_LE(t.maxErrorExact[0], double(sbBound));
  EXPECT_LE(t.maxErrorExact[0], 0x1p-22);
  EXPECT_LE(t.maxErrorExact[2], double(texture2Bound(LnsFunction::Cb, k)));
  // db: far (x <= -1) by the table; near 0 db = cb + log2(-x) with |db| <=
  // 8 + log2(k) + 0.53 < 16 for exact inputs, so the log2f and the sum add
  // two roundings of at most 2^-20 each.
  EXPECT_LE(t.maxErrorExact[1],
            double(std::max(texture2Bound(LnsFunction::Db, k),
                            texture2Bound(LnsFunction::Cb, k) + 0x1p-19L)));
  // Arbitrary inputs: the fraction is rounded to 8 bits (|dg| <= 1/512)
  // and x + 32 to 2^-19 for x > -16, so add |f'| (h/512 + 2^-20) with
  // |sb'| <= 1/2. Where 2 xe + xf rounds (cx has fewer fractional bits than
  // xf), the two coordinates can round to a = b + 1: the filter then gives
  // a0 + a1 g' + a2 w11/256 at g' = (a + b)/512, off the fitted grid, which
  // adds at most |a2|/512 = |f''| h^2/1024.
  const long double h = 1.0L / k;
  const long double quant = h / 512 + 0x1p-20L;
  EXPECT_LE(t.maxErrorAny[0],
            double(0.5L * quant + sbBound +
                   maxSecond(LnsFunction::Sb) * h * h / 1024));
  const long double cbSlope = maxDerivative(LnsFunction::Cb, 1, -1, 0);
  EXPECT_LE(t.maxErrorAny[2],
            double(cbSlope * 1.01L * quant + texture2Bound(LnsFunction::Cb, k) +
                   maxSecond(LnsFunction::Cb) * h * h / 1024));
  // Every exact input is an f32 input too.
  for (int f = 0; f < 3; ++f)
    EXPECT_GE(t.maxErrorAny[f], t.maxErrorExact[f]);
}

TEST(LnsTables, Texture2ErrorsAcrossSegmentCounts) {
  // Smaller k: the rho term |f''| h^2 / 1024 dominates; larger k: the f32
  // roundings (2^-24 + 2^-27 + 2^-24).
  for (unsigned k : {1u, 16u, 256u}) {
    const LnsTable &t = table(LnsImpl::Texture2, k);
    EXPECT_LE(t.maxErrorExact[0], double(texture2Bound(LnsFunction::Sb, k)))
        << k;
    EXPECT_LE(t.maxErrorExact[2], double(texture2Bound(LnsFunction::Cb, k)))
        << k;
  }
}

TEST(LnsTables, Texture2Largest) {
  const unsigned k = 1024;
  const LnsTable &t = table(LnsImpl::Texture2, k);
  EXPECT_EQ(t.width, 65536);
  EXPECT_LE(t.maxErrorExact[0], double(texture2Bound(LnsFunction::Sb, k)));
  EXPECT_LE(t.maxErrorExact[0], 0x1p-22);
  EXPECT_LE(t.maxErrorExact[2], double(texture2Bound(LnsFunction::Cb, k)));
}

//===----------------------------------------------------------------------===//
// texture3
//===----------------------------------------------------------------------===//

namespace {

/// Texel (i, y, z), channel c, of a texture3 table.
float texel3(const LnsTable &t, size_t i, size_t y, size_t z, int c) {
  return t.data[((z * 2 + y) * size_t(t.width) + i) * 4 + size_t(c)];
}

/// max |f^(n)| on the function's table domain, with 1% for the differences.
long double maxDerivativeOn(LnsFunction f, int n) {
  const long double lo = f == LnsFunction::Cb ? -1 : -32;
  const long double hi = f == LnsFunction::Db ? -1 : 0;
  return maxDerivative(f, n, lo, hi) * 1.01L;
}

/// The texture3 bound for exact inputs (see the file comment). |a2| and
/// |a3| are the Taylor coefficients f'' h^2 / 2 and f''' h^3 / 6 at worst,
/// with 5% and the next term for the minimax's shift from them.
long double texture3Bound(LnsFunction f, unsigned k) {
  const long double h = 1.0L / k;
  const long double m2 = maxSecond(f), m3 = maxDerivativeOn(f, 3),
                    m4 = maxDerivativeOn(f, 4);
  const long double quartic = m4 * h * h * h * h / 3072;
  const long double a2 = 1.05L * m2 * h * h / 2 + m3 * h * h * h / 2;
  const long double a3 = 1.05L * m3 * h * h * h / 6 + m4 * h * h * h * h / 6;
  return quartic + a2 / 512 + a3 / 256 + 0x1p-24L + 0x1p-27L + 0x1p-24L;
}

/// The power coefficients of the cubic whose partial sums a texture3 cell
/// holds: T(0,0,0) = a0, T(0,0,1) = a0 + a1, T(1,0,1) = a0 + a1 + a2,
/// T(1,1,1) = a0 + a1 + a2 + a3.
void powerFromCell(const LnsTable &t, unsigned w, int c, long double a[4]) {
  const long double t0 = texel3(t, 2 * w, 0, 0, c),
                    t4 = texel3(t, 2 * w, 0, 1, c),
                    t5 = texel3(t, 2 * w + 1, 0, 1, c),
                    t7 = texel3(t, 2 * w + 1, 1, 1, c);
  a[0] = t0;
  a[1] = t4 - t0;
  a[2] = t5 - t4;
  a[3] = t7 - t5;
}

/// rho2(j), rho3(j): the filter model's rounded g^2 and g^3 at g = j/256.
long double rho2(unsigned j) { return ((j * j + 128) >> 8) / 256.0L; }
long double rho3(unsigned j) {
  return ((((j * j + 128) >> 8) * j + 128) >> 8) / 256.0L;
}

} // namespace

TEST(LnsTables, Texture3BasisIsTheFilterOnPartialSums) {
  // A cell holding T(x, y, z) = a0 + a1 z + a2 xz + a3 xyz, weighed by the
  // filter model's weights at g = j/256 in x, y and z, is a0 + a1 g +
  // a2 rho2 + a3 rho3: the identity texture3's fit relies on.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> coef(-2.0, 2.0);
  for (int it = 0; it < 50; ++it) {
    long double a[4];
    for (long double &v : a)
      v = coef(rng);
    for (unsigned j = 0; j < 256; ++j) {
      int w[8];
      trilinearWeights(int(j), int(j), int(j), w);
      long double sum = 0;
      for (unsigned n = 0; n < 8; ++n) {
        const unsigned x = n & 1, y = (n >> 1) & 1, z = n >> 2;
        sum += w[n] * (a[0] + z * (a[1] + x * (a[2] + y * a[3])));
      }
      sum /= 256;
      const long double fitted =
          a[0] + a[1] * (j / 256.0L) + a[2] * rho2(j) + a[3] * rho3(j);
      ASSERT_NEAR(double(sum), double(fitted), 1e-15) << j;
    }
  }
  for (unsigned j = 0; j <= 256; ++j) {
    long double phi[4];
    texture3Basis(j, phi);
    const long double g = j / 256.0L;
    ASSERT_EQ(phi[0], 1);
    ASSERT_EQ(phi[1], g) << j; // the z split is exact
    ASSERT_EQ(phi[2], j < 256 ? rho2(j) : 1) << j;
    ASSERT_EQ(phi[3], j < 256 ? rho3(j) : 1) << j;
    ASSERT_LE(std::fabs(phi[2] - g * g), 1.0L / 512) << j;
    ASSERT_LE(std::fabs(phi[3] - g * g * g), 1.0L / 256) << j;
    if (j == 0 || j == 128 || j == 256) {
      ASSERT_EQ(phi[2], g * g);
      ASSERT_EQ(phi[3], g * g * g);
    }
  }
}

TEST(LnsTables, Texture3Layout) {
  const unsigned k = 16, n = 32 * k;
  const LnsTable &t = table(LnsImpl::Texture3, k);
  ASSERT_EQ(t.width, int(2 * n));
  ASSERT_EQ(t.height, 2);
  ASSERT_EQ(t.depth, 2);
  ASSERT_EQ(t.channels, 4);
  ASSERT_EQ(t.data.size(), size_t(2 * n * 2 * 2 * 4));
  const long double h = 1.0L / k;
  const long double bounds[3] = {texture3Bound(LnsFunction::Sb, k),
                                 texture3Bound(LnsFunction::Db, k),
                                 texture3Bound(LnsFunction::Cb, k)};
  for (unsigned w = 0; w < n; ++w) {
    const bool near = w >= n - k;
    const long double x0 = -32 + w * h, x1 = x0 + h;
    for (int c = 0; c < 4; ++c) {
      // Partial sums: the z = 0 texels all hold a0, (0, y, 1) a0 + a1.
      float v[8];
      for (unsigned cell = 0; cell < 8; ++cell)
        v[cell] = texel3(t, 2 * w + (cell & 1), (cell >> 1) & 1, cell >> 2, c);
      for (unsigned cell : {1u, 2u, 3u})
        ASSERT_EQ(bitsOf(v[cell]), bitsOf(v[0])) << w << " " << cell;
      ASSERT_EQ(bitsOf(v[6]), bitsOf(v[4])) << w;
      const float beta[4] = {v[0], v[4], v[5], v[7]};
      const bool used = c == 0 || (c == 1 && !near) || (c == 2 && near);
      if (!used) {
        for (float v : beta)
          ASSERT_EQ(v, 0.0f);
        continue;
      }
      // a0 = P(0) ~ f(x0) and a0 + a1 + a2 + a3 = P(1) ~ f(x1).
      const LnsFunction f = LnsFunction(c);
      const long double bound = bounds[c];
      ASSERT_NEAR(double(beta[0]), double(lnsReference(f, x0)), double(bound))
          << w << " " << c;
      ASSERT_NEAR(double(beta[3]), double(lnsReference(f, x1)), double(bound))
          << w << " " << c;
    }
  }
}

TEST(LnsTables, Texture3ThroughTheFilterIsTheFittedPolynomial) {
  // The cubic the texels hold (power coefficients from the partial sums):
  // at g = 0, 1/2, 1 the model's weights are exact, so the fetch is the
  // polynomial in real arithmetic, and the fitted polynomial there is
  // within the fit's error of f; at every g = j/256 the fetch is
  // a0 + a1 g + a2 rho2 + a3 rho3, up to the truncation and the rounding.
  const unsigned k = 16, n = 32 * k;
  const LnsTable &t = table(LnsImpl::Texture3, k);
  Texture3D tex{t.width, t.height, t.depth, t.channels, t.data.data()};
  const long double h = 1.0L / k;
  const long double bounds[3] = {texture3Bound(LnsFunction::Sb, k),
                                 texture3Bound(LnsFunction::Db, k),
                                 texture3Bound(LnsFunction::Cb, k)};
  for (unsigned w = 0; w < n; w += 7) {
    const bool near = w >= n - k;
    for (int c : {0, near ? 2 : 1}) {
      long double a[4];
      powerFromCell(t, w, c, a);
      const LnsFunction f = LnsFunction(c);
      for (unsigned j = 0; j <= 256; ++j) {
        if (j == 256 && w + 1 < n)
          continue; // g = 1 is the next segment's g = 0
        float out[4];
        const float xf = float(j) / 256 + 0.5f;
        filter3D(tex, 2.0f * w + xf, xf, xf, out);
        const long double g = j / 256.0L;
        const long double p = a[0] + a[1] * g + a[2] * rho2(j) + a[3] * rho3(j);
        ASSERT_NEAR(double(out[c]), double(p), 0x1p-27 + 0x1p-24)
            << w << " " << j << " " << c;
        if (j == 0 || j == 128 || j == 256) {
          const long double real = a[0] + g * (a[1] + g * (a[2] + g * a[3]));
          ASSERT_NEAR(double(p), double(real), 1e-15) << w << " " << j;
          ASSERT_NEAR(double(real), double(lnsReference(f, -32 + (w + g) * h)),
                      double(bounds[c]))
              << w << " " << j << " " << c;
        }
      }
    }
  }
}

TEST(LnsTables, Texture3Errors) {
  for (unsigned k : {1u, 4u, 16u, 64u}) {
    const LnsTable &t = table(LnsImpl::Texture3, k);
    EXPECT_LE(t.maxErrorExact[0], double(texture3Bound(LnsFunction::Sb, k)))
        << k;
    EXPECT_LE(t.maxErrorExact[2], double(texture3Bound(LnsFunction::Cb, k)))
        << k;
    // db near 0 as for texture2: cb + log2f(-x) adds two roundings.
    EXPECT_LE(t.maxErrorExact[1],
              double(std::max(texture3Bound(LnsFunction::Db, k),
                              texture3Bound(LnsFunction::Cb, k) + 0x1p-19L)))
        << k;
    for (int f = 0; f < 3; ++f)
      EXPECT_GE(t.maxErrorAny[f], t.maxErrorExact[f]) << k;
  }
  // The largest: 256 per unit, a 3-D texture 16384 wide.
  const LnsTable &t = table(LnsImpl::Texture3, 256);
  EXPECT_EQ(t.width, 16384);
  EXPECT_LE(t.maxErrorExact[0], 0x1p-23);
}

TEST(LnsTables, Texture3AgainstTexture2) {
  // On exact inputs texture3's fit has one more basis function, so it is at
  // least as good as texture2's before the f32 roundings (one rounding of
  // slack). It is clearly better only where the cubic truncation, not the
  // rounded g^2 weight, limits texture2: sb at 1 and 2 segments per unit,
  // db (whose f''' is large near -1) up to 16. Measured with the model
  // (sb / db on exact inputs, texture2 -> texture3): k = 1: 3.05e-4 ->
  // 1.50e-4 / 5.26e-3 -> 9.05e-4; k = 4: 1.09e-5 -> 1.02e-5 / 2.06e-4 ->
  // 5.98e-5; k = 16: 6.81e-7 -> 6.74e-7 / 7.00e-6 -> 4.66e-6; k = 64:
  // 9.27e-8 both / 3.68e-7 -> 3.46e-7.
  for (unsigned k : {1u, 4u, 16u, 64u, 256u}) {
    const LnsTable &t2 = table(LnsImpl::Texture2, k);
    const LnsTable &t3 = table(LnsImpl::Texture3, k);
    for (int f = 0; f < 3; ++f)
      EXPECT_LE(t3.maxErrorExact[f], t2.maxErrorExact[f] + 0x1p-24)
          << k << " " << f;
    // Arbitrary inputs: the 8-bit coordinate rounding (|f'| h / 512)
    // dominates both alike (from k = 4 on, within 1%).
    EXPECT_LE(t3.maxErrorAny[0], 1.01 * t2.maxErrorAny[0]) << k;
    if (k >= 4)
      EXPECT_GE(t3.maxErrorAny[0], 0.99 * t2.maxErrorAny[0]) << k;
  }
  EXPECT_LE(table(LnsImpl::Texture3, 1).maxErrorExact[0],
            0.6 * table(LnsImpl::Texture2, 1).maxErrorExact[0]);
  for (unsigned k : {1u, 4u, 16u})
    EXPECT_LE(table(LnsImpl::Texture3, k).maxErrorExact[1],
              0.7 * table(LnsImpl::Texture2, k).maxErrorExact[1])
        << k;
}

TEST(LnsTables, Texture3IsLimitedByTheRoundedWeights) {
  // Why texture3 gains little for sb: on sb's most curved segment (x up to
  // 0, k = 4) a cubic with exact weights g^2, g^3 would be 100 times better
  // than texture2, but the filter's weights are rho2, rho3 (within 1/512 of
  // g^2, g^3), and the fit on them stays at |a2| / 512 ~ |sb''| h^2 / 1024,
  // texture2's own level.
  const unsigned k = 4, w = 32 * k - 1;
  std::vector<long double> f(257);
  for (unsigned j = 0; j <= 256; ++j)
    f[j] = sbReference(-32.0L + (w + j / 256.0L) / k);
  auto fit = [&](unsigned nb, bool rounded) {
    std::vector<long double> basis(257 * nb);
    for (unsigned j = 0; j <= 256; ++j) {
      const long double g = j / 256.0L;
      basis[j * nb + 0] = 1;
      basis[j * nb + 1] = g;
      basis[j * nb + 2] = rounded ? rho2(j) : g * g;
      if (nb == 4)
        basis[j * nb + 3] = rounded ? rho3(j) : g * g * g;
    }
    MinimaxResult r;
    EXPECT_TRUE(discreteMinimax(basis.data(), f.data(), 257, nb, r, nullptr));
    return r.maxError;
  };
  const long double quadRounded = fit(3, true), cubicRounded = fit(4, true),
                    cubicExact = fit(4, false);
  const long double h = 1.0L / k, level = kLn2 / 4 * h * h / 1024;
  EXPECT_LE(cubicExact, quadRounded / 100);
  EXPECT_LE(cubicRounded, quadRounded);
  EXPECT_GE(cubicRounded, 0.5L * level);
  EXPECT_GE(cubicRounded, 0.8L * quadRounded);
}

//===----------------------------------------------------------------------===//
// texture1 and horner
//===----------------------------------------------------------------------===//

TEST(LnsTables, Texture1Errors) {
  for (unsigned k : {64u, 256u}) {
    const LnsTable &t = table(LnsImpl::Texture1, k);
    const unsigned n = 32 * k;
    ASSERT_EQ(t.width, int(n + 1));
    ASSERT_EQ(t.height, 1);
    // The node x = -1 holds both db (y) and cb (z); y is 0 right of it, z
    // left of it.
    EXPECT_NEAR(t.data[size_t(n - k) * 4 + 1], -1.0, 1e-4);
    EXPECT_NEAR(t.data[size_t(n - k) * 4 + 2], -1.0, 1e-4);
    EXPECT_EQ(t.data[size_t(n - k + 1) * 4 + 1], 0.0f);
    EXPECT_EQ(t.data[size_t(n - k - 1) * 4 + 2], 0.0f);
    // |f''| h^2 / 16 with 5% for the neighbouring segments' differing
    // sagittas, plus a texel's and the result's half ulp and the
    // truncation.
    const long double h = 1.0L / k;
    auto bound = [&](LnsFunction f) {
      return 1.05L * maxSecond(f) * h * h / 16 + 0x1p-24L + 0x1p-27L + 0x1p-25L;
    };
    EXPECT_LE(t.maxErrorExact[0], double(bound(LnsFunction::Sb))) << k;
    EXPECT_LE(t.maxErrorExact[2], double(bound(LnsFunction::Cb))) << k;
    EXPECT_LE(t.maxErrorExact[1],
              double(std::max(bound(LnsFunction::Db),
                              bound(LnsFunction::Cb) + 0x1p-19L)))
        << k;
    // Half the plain interpolation error: the adjustment must matter
    // (where the interpolation error, not f32, dominates).
    if (k == 64) {
      EXPECT_LE(t.maxErrorExact[0],
                double(0.6L * maxSecond(LnsFunction::Sb) * h * h / 8));
    }
  }
}

TEST(LnsTables, HornerErrors) {
  struct Case {
    unsigned k, d;
  };
  for (Case c : {Case{1, 5}, Case{2, 5}, Case{4, 5}, Case{8, 3}}) {
    const LnsTable &t = table(LnsImpl::Horner, c.k, c.d);
    const unsigned n = 32 * c.k;
    ASSERT_EQ(t.height, int(n));
    ASSERT_EQ(t.width, 3);
    ASSERT_EQ(t.channels, int(c.d + 1));
    const long double h = 1.0L / c.k;
    long double factorial = 1;
    for (unsigned i = 2; i <= c.d + 1; ++i)
      factorial *= i;
    auto bound = [&](LnsFunction f, long double lo, long double hi) {
      const long double cheb = maxDerivative(f, int(c.d + 1), lo, hi) * 1.05L *
                               std::pow(h, (long double)(c.d + 1)) /
                               (factorial * std::ldexp(1.0L, 2 * c.d + 1));
      // Coefficients rounded (sum |c_i| 2^-24) and d fma roundings, with
      // |p| <= 1.5 on these segments: (2 d + 1) 1.5 2^-24.
      return cheb + (2 * c.d + 1) * 1.5L * 0x1p-24L;
    };
    EXPECT_LE(t.maxErrorExact[0], double(bound(LnsFunction::Sb, -32, 0)))
        << c.k << " " << c.d;
    EXPECT_LE(t.maxErrorExact[2], double(bound(LnsFunction::Cb, -1, 0)))
        << c.k << " " << c.d;
    EXPECT_LE(t.maxErrorExact[1],
              double(std::max(bound(LnsFunction::Db, -32, -1),
                              bound(LnsFunction::Cb, -1, 0) + 0x1p-19L)))
        << c.k << " " << c.d;
    // No coordinate quantisation: arbitrary inputs only add x + 32's
    // rounding (2^-20 for x > -16) times |f'| <= 1/2 (sb, cb), plus db's
    // f32 roundings near 0 (|db| < 128: 2^-17).
    EXPECT_LE(t.maxErrorAny[0],
              double(bound(LnsFunction::Sb, -32, 0) + 0x1p-21L));
    EXPECT_LE(t.maxErrorAny[1], 0x1p-17 + t.maxErrorExact[1]);
    // The unused rows are zero: db on [-1, 0], cb below -1.
    for (unsigned w = 0; w < n; ++w)
      for (unsigned i = 0; i <= c.d; ++i) {
        const bool near = w >= n - c.k;
        ASSERT_EQ(t.data[(w * 3 + (near ? 1 : 2)) * (c.d + 1) + i], 0.0f);
      }
  }
}

//===----------------------------------------------------------------------===//
// The evaluation models: special values
//===----------------------------------------------------------------------===//

namespace {

struct Impl {
  LnsImpl impl;
  unsigned k, d;
  float eval(LnsFunction f, float x) const {
    const LnsTable &t = table(impl, k, d);
    switch (impl) {
    case LnsImpl::Texture2:
      return evalTexture2(t, k, f, x);
    case LnsImpl::Texture1:
      return evalTexture1(t, k, f, x);
    case LnsImpl::Horner:
      return evalHorner(t, k, f, x);
    case LnsImpl::Texture3:
      return evalTexture3(t, k, f, x);
    }
    return NAN;
  }
};

const Impl kImpls[] = {{LnsImpl::Texture2, 64, 0},
                       {LnsImpl::Texture1, 64, 0},
                       {LnsImpl::Horner, 1, 5},
                       {LnsImpl::Texture3, 64, 0}};

} // namespace

TEST(LnsTables, SpecialValues) {
  for (const Impl &m : kImpls) {
    SCOPED_TRACE(lnsImplName(m.impl));
    const LnsFunction sb = LnsFunction::Sb, db = LnsFunction::Db,
                      cb = LnsFunction::Cb;
    const LnsTable &t = table(m.impl, m.k, m.d);
    // x = 0 (and -0): sb(0) = 1, db(0) = -inf, cb(0) = log2(ln 2), within
    // the table's error.
    for (float zero : {0.0f, -0.0f}) {
      EXPECT_NEAR(m.eval(sb, zero), 1.0, t.maxErrorExact[0]);
      EXPECT_EQ(m.eval(db, zero), -kInf);
    }
    EXPECT_NEAR(m.eval(cb, 0.0f), std::log2(0.6931471805599453),
                t.maxErrorExact[2]);
    // -inf: both 0; +inf: both +inf; NaN: NaN.
    EXPECT_EQ(m.eval(sb, -kInf), 0.0f);
    EXPECT_EQ(m.eval(db, -kInf), 0.0f);
    EXPECT_EQ(m.eval(sb, kInf), kInf);
    EXPECT_EQ(m.eval(db, kInf), kInf);
    for (LnsFunction f : {sb, db, cb})
      EXPECT_TRUE(std::isnan(m.eval(f, NAN)));
    // x = -32 is in the table (sb(-32) = 2^-32 / ln2 roughly), just below
    // it every function is exactly 0.
    EXPECT_NEAR(m.eval(sb, -32.0f), double(sbReference(-32)), 1e-11);
    EXPECT_GT(m.eval(sb, -32.0f), 0.0f);
    const float below = std::nextafter(-32.0f, -kInf);
    EXPECT_EQ(bitsOf(m.eval(sb, below)), bitsOf(0.0f));
    EXPECT_EQ(bitsOf(m.eval(db, below)), bitsOf(0.0f));
    EXPECT_EQ(m.eval(sb, -1000.0f), 0.0f);
    // x = -1 reads segment N - k, whose y is 0: db comes from z + log2(1).
    EXPECT_NEAR(m.eval(db, -1.0f), -1.0, 1e-4);
    EXPECT_NEAR(m.eval(db, std::nextafter(-1.0f, 0.0f)), -1.0, 1e-4);
    EXPECT_NEAR(m.eval(db, std::nextafter(-1.0f, -2.0f)), -1.0, 1e-4);
    // x > 0: max(x, 0) + f(-x) in f32, bit for bit; far out the identity.
    for (float x : {0.25f, 1.0f, 5.0f, 31.5f}) {
      EXPECT_EQ(bitsOf(m.eval(sb, x)), bitsOf(x + m.eval(sb, -x))) << x;
      EXPECT_EQ(bitsOf(m.eval(db, x)), bitsOf(x + m.eval(db, -x))) << x;
    }
    EXPECT_EQ(m.eval(sb, 100.0f), 100.0f);
    EXPECT_EQ(m.eval(db, 1e30f), 1e30f);
    EXPECT_TRUE(std::isnan(m.eval(cb, 0.5f)));
    EXPECT_TRUE(std::isnan(m.eval(cb, -2.0f)));
  }
}

TEST(LnsTables, EvaluationRejectsMismatchedTables) {
  const LnsTable &t = table(LnsImpl::Texture2, 64);
  EXPECT_TRUE(std::isnan(evalTexture2(t, 32, LnsFunction::Sb, -3.0f)));
  EXPECT_TRUE(std::isnan(evalTexture1(t, 64, LnsFunction::Sb, -3.0f)));
  EXPECT_TRUE(std::isnan(evalHorner(t, 64, LnsFunction::Sb, -3.0f)));
  EXPECT_FALSE(std::isnan(evalTexture2(t, 64, LnsFunction::Sb, -3.0f)));
  // A texture2 table is not a texture3 one (depth 1), nor the reverse.
  EXPECT_TRUE(std::isnan(evalTexture3(t, 64, LnsFunction::Sb, -3.0f)));
  const LnsTable &t3 = table(LnsImpl::Texture3, 64);
  EXPECT_TRUE(std::isnan(evalTexture2(t3, 64, LnsFunction::Sb, -3.0f)));
  EXPECT_TRUE(std::isnan(evalTexture3(t3, 32, LnsFunction::Sb, -3.0f)));
  EXPECT_FALSE(std::isnan(evalTexture3(t3, 64, LnsFunction::Sb, -3.0f)));
}

TEST(LnsTables, ErrorSampleCoversTheDomain) {
  std::vector<float> xs = lnsErrorSample(64);
  EXPECT_GE(xs.size(), 32u * 64 * 12);
  size_t below = 0, nearZero = 0;
  for (float x : xs) {
    ASSERT_FALSE(std::isnan(x));
    ASSERT_LE(x, 0.0f);
    below += x < -32;
    nearZero += x > -0x1p-20f;
  }
  EXPECT_GT(below, 0u);
  EXPECT_GT(nearZero, 100u);
}

TEST(LnsTables, EvaluationFollowsTheContractOps) {
  // The contract's f32 operations written out one rounding at a time; the
  // models must agree bit for bit (guards the order of the operations, the
  // clamps, the near test and the positive reduction). Inputs: random ones,
  // positive ones, and the error sample's coordinate-rounding ties.
  const unsigned k = 64, n = 32 * k;
  const LnsTable &t2 = table(LnsImpl::Texture2, k);
  const LnsTable &t1 = table(LnsImpl::Texture1, k);
  const LnsTable &hz = table(LnsImpl::Horner, 1, 5);
  const LnsTable &t3 = table(LnsImpl::Texture3, k);
  Texture2D tex2{t2.width, t2.height, t2.channels, t2.data.data()};
  Texture3D tex3{t3.width, t3.height, t3.depth, t3.channels, t3.data.data()};
  Texture2D tex1{t1.width, t1.height, t1.channels, t1.data.data()};
  std::vector<float> inputs = lnsErrorSample(k);
  inputs.resize(std::min<size_t>(inputs.size(), 40000));
  uint32_t state = 1;
  for (int it = 0; it < 20000; ++it) {
    state = state * 1664525u + 1013904223u;
    const float x = -32.0f * float(state >> 8) / 16777216.0f;
    inputs.push_back(it % 4 == 0 ? -x : x);
  }
  for (float input : inputs) {
    volatile float x = input;
    // Common prefix.
    volatile float xa = -std::fabs(x);
    volatile float pos = x > 0 ? float(x) : 0.0f;
    volatile float tt = xa + 32.0f;
    volatile float u = tt * float(k);
    volatile float fl = std::floor(u);
    volatile float lo = std::fmax(fl, 0.0f);
    volatile float xe = std::fmin(lo, float(n - 1));
    volatile float g = u - xe;
    const bool near2 = xe >= float(n - k);
    // texture2
    volatile float xf = g + 0.5f;
    volatile float twoXe = 2.0f * xe;
    volatile float cx = twoXe + xf;
    float v[4];
    filter2D(tex2, cx, xf, v);
    volatile float lg = std::log2(-xa);
    volatile float db2 = near2 ? v[2] + lg : v[1];
    volatile float sb2r = pos + v[0], db2r = pos + db2;
    ASSERT_EQ(bitsOf(evalTexture2(t2, k, LnsFunction::Sb, x)), bitsOf(sb2r))
        << x;
    ASSERT_EQ(bitsOf(evalTexture2(t2, k, LnsFunction::Db, x)), bitsOf(db2r))
        << x;
    // texture3: the same coordinates, (cx, xf, xf) in the 3-D texture.
    filter3D(tex3, cx, xf, xf, v);
    volatile float db3 = near2 ? v[2] + lg : v[1];
    volatile float sb3r = pos + v[0], db3r = pos + db3;
    ASSERT_EQ(bitsOf(evalTexture3(t3, k, LnsFunction::Sb, x)), bitsOf(sb3r))
        << x;
    ASSERT_EQ(bitsOf(evalTexture3(t3, k, LnsFunction::Db, x)), bitsOf(db3r))
        << x;
    // texture1
    volatile float cx1 = u + 0.5f;
    filter2D(tex1, cx1, 0.5f, v);
    const bool near1 = u >= float(n - k);
    volatile float db1 = near1 ? v[2] + lg : v[1];
    volatile float sb1r = pos + v[0], db1r = pos + db1;
    ASSERT_EQ(bitsOf(evalTexture1(t1, k, LnsFunction::Sb, x)), bitsOf(sb1r))
        << x;
    ASSERT_EQ(bitsOf(evalTexture1(t1, k, LnsFunction::Db, x)), bitsOf(db1r))
        << x;
    // horner, k = 1, degree 5: C[w][f][0..5].
    volatile float uh = tt * 1.0f;
    volatile float xeh = std::fmin(std::fmax(std::floor(uh), 0.0f), 31.0f);
    volatile float gh = uh - xeh;
    const size_t w = size_t(xeh);
    float p[3];
    for (int f = 0; f < 3; ++f) {
      const float *c = &hz.data[(w * 3 + size_t(f)) * 6];
      float acc = c[5];
      for (int i = 4; i >= 0; --i)
        acc = std::fma(acc, float(gh), c[i]);
      p[f] = acc;
    }
    const bool nearH = xeh >= 31.0f;
    volatile float dbh = nearH ? p[2] + lg : p[1];
    volatile float sbhr = pos + p[0], dbhr = pos + dbh;
    ASSERT_EQ(bitsOf(evalHorner(hz, 1, LnsFunction::Sb, x)), bitsOf(sbhr)) << x;
    ASSERT_EQ(bitsOf(evalHorner(hz, 1, LnsFunction::Db, x)), bitsOf(dbhr)) << x;
  }
}
