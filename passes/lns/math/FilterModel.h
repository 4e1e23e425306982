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
// The 3-D (trilinear) filter is modelled by generalising the 2-D rules, an
// ASSUMPTION NOT YET CHECKED AGAINST HARDWARE (bench/lns's 3-D probe is to
// do that): the three coordinates are rounded as above; the eight weights
// are integers in units of 1/256 whose pair and triple products are rounded
// half up, as w11 is in 2-D (w_ab = round(ab/256), w_abc = round(abc/65536)),
// and whose other weights follow by inclusion-exclusion, so that, as in the
// measured 2-D rule, the weights sum to 256 and every marginal is exact
// (linear data along any axis is interpolated exactly), and every face (a
// fraction 0) is the 2-D rule; the eight weighted texels are summed once, as
// in 2-D (28 bits below the largest exponent, truncated; ties away from
// zero). The price: near the far corner the roundings can leave a weight of
// -1 (a = b = c = 231 gives w000 = -1), which the probe should look at.
// Other rules the hardware might follow, and what they would do to
// texture3 (LnsTables.h), whose linear term the marginals carry: splitting
// each bilinear weight by c with its own rounding (never negative, but the
// z marginal off by up to 2/256) would make texture3 20 to 400 times worse
// than texture2; filtering two slices bilinearly and interpolating them
// with exact (16-bit) weights would make it about 3 times better.
//
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

/// The trilinear weights of fractions a, b, c in 0..255 (the assumed
/// generalisation above): w[x + 2 y + 4 z] for the texel at offset (x, y, z)
/// in {0, 1}^3. With r_ab = floor(ab/256 + 1/2) (and r_ac, r_bc alike) and
/// r_abc = floor(abc/65536 + 1/2): w[7] = r_abc, w[3] = r_ab - r_abc,
/// w[5] = r_ac - r_abc, w[6] = r_bc - r_abc, w[1] = a - r_ab - r_ac + r_abc,
/// w[2] = b - r_ab - r_bc + r_abc, w[4] = c - r_ac - r_bc + r_abc, w[0] =
/// 256 minus the others. They sum to 256 and summed over z are the 2-D
/// rule's; one of them can be -1.
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
/// (the 2-D and 3-D filters share it). count <= 8.
float filterChannelN(const float *t, const int *w, int count);

/// A linearly filtered fetch at unnormalised (cx, cy) with clamp
/// addressing. out[c] for c < channels, 0 for the others; NaN coordinates
/// give NaN in every channel. Channels whose bit is clear in channelMask
/// are not computed (left 0), for callers that need only some.
void filter2D(const Texture2D &tex, float cx, float cy, float out[4],
              unsigned channelMask = 0xf);

/// A trilinearly filtered fetch at unnormalised (cx, cy, cz) of a 3-D
/// texture with clamp addressing (the assumed model above), with the
/// conventions of filter2D.
void filter3D(const Texture3D &tex, float cx, float cy, float cz, float out[4],
              unsigned channelMask = 0xf);

} // namespace approx::lns

#endif // APPROX_LNS_MATH_FILTERMODEL_H
