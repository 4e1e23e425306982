//===- FilterModel.h - Bit-exact model of the texture unit's 2-D filter ---===//
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

/// The texel indices and weights of a fetch at (cx, cy).
FilterWeights filterWeights(float cx, float cy);

/// The f32 nearest to s * 2^e, ties away from zero (denormal results are
/// rounded the same way at 2^-149; overflow gives +-inf).
float roundTiesAway(int64_t s, int e);

/// One channel: texels t[0..3] = T00, T10, T01, T11 with weights
/// w[0..3] = w00, w10, w01, w11 (units of 1/256). Non-finite texels that
/// carry weight give the plain weighted sum (inf or NaN).
float filterChannel(const float t[4], const int w[4]);

/// A linearly filtered fetch at unnormalised (cx, cy) with clamp
/// addressing. out[c] for c < channels, 0 for the others; NaN coordinates
/// give NaN in every channel. Channels whose bit is clear in channelMask
/// are not computed (left 0), for callers that need only some.
void filter2D(const Texture2D &tex, float cx, float cy, float out[4],
              unsigned channelMask = 0xf);

} // namespace approx::lns

#endif // APPROX_LNS_MATH_FILTERMODEL_H
