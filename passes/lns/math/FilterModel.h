//===- FilterModel.h - Model of the texture unit's 2-D and 3-D filters ----===//
//
// What an H100's texture unit returns for a linearly filtered fetch of a
// float4 f32 texture with unnormalised coordinates and clamp addressing, as
// measured for the LNS numerics contract (docs/lns.md, "Numerics": the
// texture filter unit): the coordinates are rounded to 8 fractional bits
// (ties up), the four weights are integers in units of 1/256 with w11
// rounded half up, every channel is summed in fixed point with 28 bits
// below the largest exponent among the texels that carry weight (each
// texel truncated toward zero), and the sum is rounded to f32 with ties
// away from zero. Everything is computed in integers; no step goes through
// float arithmetic.
//
// Valid for finite texels and normal results. Outside the model (denormal
// results, inf/NaN texels, NaN coordinates) the functions still return
// something defined (see each), not what the hardware would.
//
// The 3-D (trilinear) filter, measured on an H100 (bench/lns/
// filter3d-probe.cu, 2026-11-26): the three coordinates are rounded as
// above. The eight weights are integers in units of 1/256 from three
// rounded splits: 256 into the z slices (256 - c, c), each slice's share s
// into x (x = 1 gets round(s a / 256), half up), each column's share v into
// y (y = 1 gets round(v b / 256), half up where x = 1 and half down where
// x = 0). This matches all 2^24 fraction triples read off one-hot textures.
// No weight is negative, the z marginal is exact, the x and y marginals are
// not (the Bernstein layout texture3 first used lost |a1|/768 to that;
// LnsTables.cpp). Each z slice is summed as the 2-D filter sums its four
// texels, then the two slice sums are added exactly and rounded ties away:
// this agrees with 99.95% of random fetches of random-exponent textures and
// every fetch of same-exponent ones; elsewhere (mostly where the slices
// cancel at different exponents) the hardware differs, by 1 ulp in most of
// those cases: a step of its slice combination the model does not capture.

//===----------------------------------------------------------------------===//

#ifndef APPROX_LNS_MATH_FILTERMODEL_H
#define APPROX_LNS_MATH_FILTERMODEL_H

#include <cstdint>

namespace approx::lns {

/// A 2-D texture: `channels` (1..4) floats per texel, row-major, texel
/// (i, j) at data[(j * width + i) * channels].
struct Texture2D {
  int width = 0, height = 0, channels = 0;
  const float *data = nullptr;
};

/// A 3-D texture: `channels` (1..4) floats per texel, x fastest, then y,
/// then z: texel (i, j, l) at data[((l * height + j) * width + i) *
/// channels].
struct Texture3D {
  int width = 0, height = 0, depth = 0, channels = 0;
  const float *data = nullptr;
};

/// The texels and integer weights (units of 1/256, summing to 256) of one
/// fetch. i, j: the unclamped lower texel indices; a, b: the 8-bit
/// fractions.
struct FilterWeights {
  int64_t i = 0, j = 0;
  int a = 0, b = 0;
  int w00 = 256, w10 = 0, w01 = 0, w11 = 0;
};

/// floor((c - 0.5) * 256 + 0.5), computed exactly: the unnormalised
/// coordinate c as a fixed-point number with 8 fractional bits, rounded
/// ties up. |c| is first clamped to 2^30 (the clamp addressing makes larger
/// values equivalent); NaN gives 0.
int64_t quantizeCoordinate(float c);

/// The weights of fractions a, b in 0..255: w11 = floor(a*b/256 + 1/2),
/// w10 = a - w11, w01 = b - w11, w00 = 256 - a - b + w11. Writes
/// w[0..3] = w00, w10, w01, w11.
void bilinearWeights(int a, int b, int w[4]);

/// The trilinear weights of fractions a, b, c in 0..255 (the measured rule
/// above): w[x + 2 y + 4 z] for the texel at offset (x, y, z) in {0, 1}^3.
/// They sum to 256, none is negative, and at c = 0 they are the 2-D rule's.
void trilinearWeights(int a, int b, int c, int w[8]);

/// The texel indices and weights of a fetch at (cx, cy).
FilterWeights filterWeights(float cx, float cy);

/// The f32 nearest to s * 2^e, ties away from zero (denormal results are
/// rounded the same way at 2^-149; overflow gives +-inf).
float roundTiesAway(int64_t s, int e);

/// One channel: texels t[0..3] = T00, T10, T01, T11 with weights
/// w[0..3] = w00, w10, w01, w11 (units of 1/256). Non-finite texels that
/// carry weight give the plain weighted sum (inf or NaN).
float filterChannel(const float t[4], const int w[4]);

/// One channel of any number of texels: the contract's sum of t[n] w[n] / 256
/// in one fixed-point sum (the 2-D filter's). count <= 8.
float filterChannelN(const float *t, const int *w, int count);

/// One channel of the 3-D filter: texels t[x + 2y + 4z], weights w alike.
/// Each z slice is summed as the 2-D filter sums its four texels (28 bits
/// below the slice's largest exponent, truncated), the two slice sums are
/// added exactly and the total rounded to f32 ties away.
float filterChannel3D(const float t[8], const int w[8]);

/// A linearly filtered fetch at unnormalised (cx, cy) with clamp
/// addressing. out[c] for c < channels, 0 for the others; NaN coordinates
/// give NaN in every channel. Channels whose bit is clear in channelMask
/// are not computed (left 0), for callers that need only some.
void filter2D(const Texture2D &tex, float cx, float cy, float out[4],
              unsigned channelMask = 0xf);

/// A trilinearly filtered fetch at unnormalised (cx, cy, cz) of a 3-D
/// texture with clamp addressing (the measured model above), with the
/// conventions of filter2D.
void filter3D(const Texture3D &tex, float cx, float cy, float cz, float out[4],
              unsigned channelMask = 0xf);

} // namespace approx::lns

#endif // APPROX_LNS_MATH_FILTERMODEL_H
