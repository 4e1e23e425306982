//===- FilterModel.cpp - Model of the texture unit's 2-D and 3-D filters --===//
//
// The contract's filter, step by step, in 64-bit integers: q = trunc(T *
// 2^(28 - E)) has at most 28 bits and the weights at most 9, so the sum of
// four products stays below 2^38 (eight, in 3-D: below 2^39).
//
//===----------------------------------------------------------------------===//

#include "FilterModel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace approx::lns {

int64_t quantizeCoordinate(float c) {
  if (std::isnan(c))
    return 0;
  // (c - 0.5) * 256 + 0.5 = 256 c - 127.5, so the result is
  // floor(256 c + 0.5) - 128. 256 c is exact in double, and so is the
  // + 0.5 for |c| <= 2^30 (at most 39 significant bits; below 2^-28 the
  // sum stays clear of the integers, so its rounding cannot cross one).
  double y = double(std::clamp(c, -0x1p30f, 0x1p30f)) * 256.0;
  return int64_t(std::floor(y + 0.5)) - 128;
}

void bilinearWeights(int a, int b, int w[4]) {
  int w11 = (a * b + 128) >> 8; // floor(a*b/256 + 1/2), a*b >= 0
  w[0] = 256 - a - b + w11;
  w[1] = a - w11;
  w[2] = b - w11;
  w[3] = w11;
}

void trilinearWeights(int a, int b, int c, int w[8]) {
  // The measured rule: split 256 by c into the two z slices, each slice's
  // share by a (the x = 1 part rounded half up), and each of those columns
  // by b (rounded half up where x = 1, half down where x = 0). Every step
  // is a rounded product in units of 1/256, so no weight is negative.
  const int slice[2] = {256 - c, c};
  for (int z = 0; z < 2; ++z) {
    const int x1 = (slice[z] * a + 128) >> 8, x0 = slice[z] - x1;
    const int y1x1 = (x1 * b + 128) >> 8, y1x0 = (x0 * b + 127) >> 8;
    w[4 * z + 0] = x0 - y1x0;
    w[4 * z + 1] = x1 - y1x1;
    w[4 * z + 2] = y1x0;
    w[4 * z + 3] = y1x1;
  }
}

/// floor(q / 256) and q - 256 floor(q / 256) for any sign of q.
static void splitFixed(int64_t q, int64_t &index, int &frac) {
  index = q >= 0 ? q / 256 : -((-q + 255) / 256);
  frac = int(q - index * 256);
}

FilterWeights filterWeights(float cx, float cy) {
  FilterWeights fw;
  splitFixed(quantizeCoordinate(cx), fw.i, fw.a);
  splitFixed(quantizeCoordinate(cy), fw.j, fw.b);
  int w[4];
  bilinearWeights(fw.a, fw.b, w);
  fw.w00 = w[0];
  fw.w10 = w[1];
  fw.w01 = w[2];
  fw.w11 = w[3];
  return fw;
}

float roundTiesAway(int64_t s, int e) {
  if (s == 0)
    return 0.0f;
  const bool negative = s < 0;
  uint64_t m = negative ? uint64_t(0) - uint64_t(s) : uint64_t(s);
  int bits = 64 - __builtin_clzll(m);
  // Keep 24 significant bits, or fewer where the result is denormal (its
  // last bit is 2^-149).
  const int shift = std::max(bits - 24, -149 - e);
  if (shift > 0) {
    if (shift >= 64) {
      m = 0; // below half of 2^-149 (m < 2^63)
    } else {
      const uint64_t rest = m & ((uint64_t(1) << shift) - 1);
      m >>= shift;
      if (rest >= (uint64_t(1) << (shift - 1))) // half or more: away from 0
        ++m;
    }
    e += shift;
  }
  if (m == 0)
    return negative ? -0.0f : 0.0f;
  // Normalise m to [2^23, 2^24) and assemble the bits of a normal result.
  bits = 64 - __builtin_clzll(m);
  if (bits < 24) {
    m <<= 24 - bits;
    e -= 24 - bits;
  } else if (bits > 24) { // 2^24 after rounding up
    m >>= 1;
    e += 1;
  }
  const int biased = e + 150;
  if (biased >= 1 && biased <= 254) {
    const uint32_t word = (negative ? 0x80000000u : 0u) |
                          (uint32_t(biased) << 23) | uint32_t(m - (1u << 23));
    float v;
    std::memcpy(&v, &word, sizeof v);
    return v;
  }
  // Denormal (m is on the 2^-149 grid, so exact) or overflow (inf).
  const float v = std::ldexp(float(m), e);
  return negative ? -v : v;
}

float filterChannel(const float t[4], const int w[4]) {
  return filterChannelN(t, w, 4);
}

/// The contract's fixed-point sum of t[n] w[n]: s * 2^(e - 36), with e the
/// largest exponent among the weighted nonzero texels. Returns false where a
/// weighted texel is inf or NaN (outside the model).
static bool fixedSum(const float *t, const int *w, int count, int64_t &s,
                     int &e) {
  constexpr int kMax = 8;
  count = std::clamp(count, 0, kMax);
  uint64_t mag[kMax] = {};
  int et[kMax] = {};
  s = 0;
  e = std::numeric_limits<int>::min();
  for (int n = 0; n < count; ++n) {
    uint32_t word;
    std::memcpy(&word, &t[n], sizeof word);
    if (w[n] == 0 || (word & 0x7fffffff) == 0)
      continue;
    const int biased = int((word >> 23) & 0xff);
    const uint32_t fraction = word & 0x7fffff;
    if (biased == 0xff)
      return false;
    if (biased != 0) {
      et[n] = biased - 126; // frexp's exponent
      mag[n] = fraction | 0x800000u;
    } else {
      const int lead = __builtin_clz(fraction) - 8; // zeros below bit 23
      et[n] = -125 - lead;
      mag[n] = uint64_t(fraction) << lead;
    }
    e = std::max(e, et[n]);
    if (word >> 31)
      mag[n] |= uint64_t(1) << 63; // sign, removed below
  }
  // q = trunc(T 2^(28 - E)) = sign * (M shifted by E_T - E + 4 <= 4).
  for (int n = 0; n < count; ++n) {
    if (mag[n] == 0)
      continue;
    const bool negative = mag[n] >> 63;
    const uint64_t m = mag[n] & ~(uint64_t(1) << 63);
    const int up = et[n] - e + 4;
    const uint64_t q = up >= 0 ? m << up : (-up >= 64 ? 0 : m >> -up);
    s += int64_t(w[n]) * (negative ? -int64_t(q) : int64_t(q));
  }
  return true;
}

/// The plain weighted sum, for texels outside the model.
static float plainSum(const float *t, const int *w, int count) {
  double sum = 0;
  for (int m = 0; m < count; ++m)
    if (w[m] != 0)
      sum += double(w[m]) * double(t[m]);
  return float(sum / 256.0);
}

float filterChannelN(const float *t, const int *w, int count) {
  int64_t s;
  int e;
  if (!fixedSum(t, w, count, s, e))
    return plainSum(t, w, count);
  if (e == std::numeric_limits<int>::min())
    return 0.0f; // every weighted texel is zero
  return roundTiesAway(s, e - 28 - 8);
}

float filterChannel3D(const float t[8], const int w[8]) {
  int64_t s[2];
  int e[2];
  if (!fixedSum(t, w, 4, s[0], e[0]) || !fixedSum(t + 4, w + 4, 4, s[1], e[1]))
    return plainSum(t, w, 8);
  constexpr int kNone = std::numeric_limits<int>::min();
  if (e[0] == kNone || s[0] == 0)
    return e[1] == kNone ? 0.0f : roundTiesAway(s[1], e[1] - 36);
  if (e[1] == kNone || s[1] == 0)
    return roundTiesAway(s[0], e[0] - 36);
  // The exact sum of the two slices (each below 2^36 units of its grid)
  // on the finer grid, in 128 bits. Where the grids are more than 80 bits
  // apart, the finer slice lies below 2^-44 of the coarser one's last unit
  // and only its sign matters (as a sticky bit one unit further down).
  const int hi = e[0] >= e[1] ? 0 : 1, lo = 1 - hi;
  const int gap = std::min(e[hi] - e[lo], 81);
  __int128 sum = (__int128(s[hi]) << gap) +
                 (gap < 81 ? __int128(s[lo]) : __int128(s[lo] > 0 ? 1 : -1));
  // To at most 62 bits, the dropped ones folded into a sticky last bit, so
  // that roundTiesAway sees the same rounding case as the exact sum.
  const bool negative = sum < 0;
  unsigned __int128 m = negative ? -(unsigned __int128)sum : sum;
  int scale = e[hi] - 36 - gap;
  while (m >> 62) {
    m = (m >> 1) | (m & 1);
    ++scale;
  }
  return roundTiesAway(negative ? -int64_t(m) : int64_t(m), scale);
}

void filter2D(const Texture2D &tex, float cx, float cy, float out[4],
              unsigned channelMask) {
  if (std::isnan(cx) || std::isnan(cy)) {
    for (int c = 0; c < 4; ++c)
      out[c] = std::numeric_limits<float>::quiet_NaN();
    return;
  }
  FilterWeights fw = filterWeights(cx, cy);
  auto clampTo = [](int64_t v, int n) {
    return int(std::clamp<int64_t>(v, 0, int64_t(n) - 1));
  };
  int i0 = clampTo(fw.i, tex.width), i1 = clampTo(fw.i + 1, tex.width);
  int j0 = clampTo(fw.j, tex.height), j1 = clampTo(fw.j + 1, tex.height);
  const int w[4] = {fw.w00, fw.w10, fw.w01, fw.w11};
  const size_t row = size_t(tex.width), step = size_t(tex.channels);
  const float *p00 = tex.data + (size_t(j0) * row + size_t(i0)) * step;
  const float *p10 = tex.data + (size_t(j0) * row + size_t(i1)) * step;
  const float *p01 = tex.data + (size_t(j1) * row + size_t(i0)) * step;
  const float *p11 = tex.data + (size_t(j1) * row + size_t(i1)) * step;
  for (int c = 0; c < 4; ++c) {
    if (c >= tex.channels || !((channelMask >> c) & 1)) {
      out[c] = 0.0f;
      continue;
    }
    const float t[4] = {p00[c], p10[c], p01[c], p11[c]};
    out[c] = filterChannel(t, w);
  }
}

void filter3D(const Texture3D &tex, float cx, float cy, float cz, float out[4],
              unsigned channelMask) {
  if (std::isnan(cx) || std::isnan(cy) || std::isnan(cz)) {
    for (int c = 0; c < 4; ++c)
      out[c] = std::numeric_limits<float>::quiet_NaN();
    return;
  }
  int64_t index[3];
  int frac[3];
  const float coords[3] = {cx, cy, cz};
  for (int d = 0; d < 3; ++d)
    splitFixed(quantizeCoordinate(coords[d]), index[d], frac[d]);
  int w[8];
  trilinearWeights(frac[0], frac[1], frac[2], w);
  auto clampTo = [](int64_t v, int n) {
    return size_t(std::clamp<int64_t>(v, 0, int64_t(n) - 1));
  };
  const size_t xs[2] = {clampTo(index[0], tex.width),
                        clampTo(index[0] + 1, tex.width)};
  const size_t ys[2] = {clampTo(index[1], tex.height),
                        clampTo(index[1] + 1, tex.height)};
  const size_t zs[2] = {clampTo(index[2], tex.depth),
                        clampTo(index[2] + 1, tex.depth)};
  const float *p[8];
  for (int n = 0; n < 8; ++n)
    p[n] = tex.data + ((zs[n >> 2] * size_t(tex.height) + ys[(n >> 1) & 1]) *
                           size_t(tex.width) +
                       xs[n & 1]) *
                          size_t(tex.channels);
  for (int c = 0; c < 4; ++c) {
    if (c >= tex.channels || !((channelMask >> c) & 1)) {
      out[c] = 0.0f;
      continue;
    }
    float t[8];
    for (int n = 0; n < 8; ++n)
      t[n] = p[n][c];
    out[c] = filterChannel3D(t, w);
  }
}

} // namespace approx::lns
