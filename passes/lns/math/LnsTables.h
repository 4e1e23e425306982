//===- LnsTables.h - sb/db/cb tables for the LNS implementations ----------===//
//
// The tables `approx-lns-lower` embeds for the table implementations of the
// LNS functions, and host models of the GPU code that reads them. Everything
// follows the LNS numerics contract (docs/lns.md, "Numerics"): segment w
// of N = 32 k covers x in [-32 + w/k, -32 + (w+1)/k] with local variable g
// in [0, 1]; channel / row 0 is sb, 1 is db (segments w < N - k, x <= -1),
// 2 is cb (segments w >= N - k, x in [-1, 0]), where db = cb + log2(-x).
//
//  - texture2 (the paper's order 2): per segment a0 + a1 g + a2 g^2 in four
//    texels that the bilinear filter combines; fitted by discrete minimax
//    over the 257 values of g the filter can see, with g^2 replaced by
//    what the filter's rounded weight w11 really gives,
//    rho(g) = floor(256 g^2 + 1/2) / 256.
//  - texture3 (the paper's order 3): per segment a cubic as partial sums
//    of its coefficients in the eight texels of a 2 x 2 x 2 cell of a 3-D
//    texture, which one trilinear fetch with the same fraction g in x, y and
//    z combines; fitted like texture2 over the 257 fractions, on the basis
//    the hardware's rounded weights give (texture3Basis; FilterModel.h).
//  - texture1: linear interpolation between N + 1 nodes.
//  - horner: a minimax polynomial of degree 1..5 per segment, evaluated
//    with fmaf.
// Every builder also reports the achieved maximum absolute error per
// function, measured through the host model of the GPU code (the f32
// operations of the lowering plus the bit-exact texture filter model).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_LNS_MATH_LNSTABLES_H
#define APPROX_LNS_MATH_LNSTABLES_H

#include "LnsFunctions.h"

#include <string>
#include <vector>

namespace approx::lns {

/// The table implementations.
enum class LnsImpl { Texture1, Texture2, Horner, Texture3 };

/// "texture1", "texture2", "horner" or "texture3".
const char *lnsImplName(LnsImpl impl);

/// The widest 1-D extent of a CUDA 2-D texture the tables may need.
inline constexpr unsigned kMaxTextureWidth = 65536;
/// The widest extent of a CUDA 3-D texture (cudaDevAttrMaxTexture3DWidth
/// on compute capability 5.0 and later): texture3's 64 k texels allow at
/// most 256 segments per unit.
inline constexpr unsigned kMaxTexture3DWidth = 16384;

/// A generated table and its measured errors.
///  - texture2: width 2N, height 2, channels 4; texel (i, row) at
///    data[(row * width + i) * 4 + c] (the tensor<2 x 2N x 4 x f32>).
///  - texture3: width 2N, height 2, depth 2, channels 4; texel (i, y, z)
///    at data[((z * 2 + y) * width + i) * 4 + c] (the tensor<2 x 2 x 2N x 4
///    x f32>: x fastest, then y, then z); the cell of segment w is
///    i in {2w, 2w + 1}, and the texel at offset (x, y, z) holds the
///    partial sum a0 + a1 z + a2 xz + a3 xyz of the segment's cubic.
///  - texture1: width N + 1, height 1, channels 4.
///  - horner: height N (segments), width 3 (sb, db, cb), channels d + 1
///    (c_0 .. c_d): the float C[N][3][d+1] of the contract.
/// maxErrorExact[f]: max |model - f(x)| over every x in [-32, 0] that is a
/// multiple of 2^-(log2 k + 8) (inputs whose 8-bit texture fraction is
/// exact). maxErrorAny[f]: the same maximum, also taken over a dense sample
/// of arbitrary f32 inputs in [-32, 0] and a few below -32 (so including the
/// quantisation of the texture coordinates). db's error (index 1) is
/// absolute where |db| <= 1 and relative beyond: near 0 db grows without
/// bound and the f32 rounding of cb + log2(-x) dominates. cb's (index 2)
/// covers x in [-1, 0] only.
struct LnsTable {
  int width = 0, height = 0, channels = 0;
  /// 2 for texture3's 3-D texture, 1 for the others.
  int depth = 1;
  std::vector<float> data;
  double maxErrorExact[3] = {}, maxErrorAny[3] = {};
};

/// "" if k segments per unit suit `impl`, else a one-line message naming
/// k: k must be a power of two in 1..1024, and a texture at most 65536
/// texels wide (texture2: 64 k, texture1: 32 k + 1), a 3-D one at most
/// 16384 (texture3: 64 k).
std::string checkSegments(unsigned k, LnsImpl impl);
/// "" if a horner degree is in 1..5, else a one-line message naming it.
std::string checkDegree(unsigned degree);

/// Builds the texture2 table of k segments per unit. False, with the
/// message in *error (may be null), if checkSegments refuses k.
bool buildTexture2(unsigned k, LnsTable &out, std::string *error);
/// Builds the texture3 table of k segments per unit (k <= 256).
bool buildTexture3(unsigned k, LnsTable &out, std::string *error);
/// Builds the texture1 table of k segments per unit.
bool buildTexture1(unsigned k, LnsTable &out, std::string *error);
/// Builds the horner table of k segments per unit and the given degree.
bool buildHorner(unsigned k, unsigned degree, LnsTable &out,
                 std::string *error);

/// The host model of what the lowering computes for f(x) from a texture2
/// table of k segments per unit, every f32 operation in the contract's
/// order: x > 0 as max(x, 0) + f(-|x|), 0 below -32, NaN -> NaN, db on
/// segments in [-1, 0] as cb + log2(-x). f = Cb gives the z channel the
/// lowering reads for x in [-1, 0] (NaN elsewhere). The GPU computes that
/// log2 with lg2.approx.ftz.f32, this model with std::log2 in float: a GPU
/// check must allow db on [-1, 0) to differ by lg2.approx's error (and
/// -inf where -x is denormal), while sb, db below -1 and cb match bit for
/// bit. A table that does not match k gives NaN.
float evalTexture2(const LnsTable &table, unsigned k, LnsFunction f, float x);
/// The same for a texture3 table: the fetch at (2 xe + xf, xf, xf) through
/// filter3D (FilterModel.h), bit for bit with an H100 on every input
/// lns-bench tries.
float evalTexture3(const LnsTable &table, unsigned k, LnsFunction f, float x);
/// The same for a texture1 table (a fetch at (u + 0.5, 0.5)).
float evalTexture1(const LnsTable &table, unsigned k, LnsFunction f, float x);
/// The same for a horner table (degree = table.channels - 1; fmaf).
float evalHorner(const LnsTable &table, unsigned k, LnsFunction f, float x);

/// The basis texture3 is fitted on: a fetch of a texture3 cell holding
/// the partial sums T(x, y, z) = a0 + a1 z + a2 xz + a3 xyz at g = j/256
/// (0 <= j <= 256) in all three coordinates returns sum_i a_i phi_i(j)
/// through the filter model's weights (before its f32 roundings): 1, g,
/// rho2(g) = round(256 g^2)/256 and rho3(g) = round(rho2(g) j)/256, within
/// 1/256 of g^3; all equal the powers at j = 0, 128, 256.
void texture3Basis(unsigned j, long double phi[4]);

/// The arbitrary-input sample behind maxErrorAny (deterministic): per
/// segment, inputs whose texture fraction is a rounding tie, just below
/// one, and uniform; log-uniform inputs in [-1, -2^-126]; a few below -32.
std::vector<float> lnsErrorSample(unsigned k);

} // namespace approx::lns

#endif // APPROX_LNS_MATH_LNSTABLES_H
