//===- Reference.h - CPU reference of kernel perforation --------*- C++ -*-===//
//
// The exact CPU model of docs/perforation.md ("Semantics"): which elements
// of a work-group's tile plus halo a perforation scheme fetches, how the
// skipped ones are rebuilt (nearest neighbour, or linear with one fused
// multiply-add in the element type), the clamp and zero borders, the 1-D
// load by 32-byte sectors, and Paraprox's output perforation. The lowering
// of approx.perforation.* implements the same text, and the tests compare
// the two bit for bit. Nothing here throws or aborts: a bad tile, scheme or
// image comes back as an InvalidArgument Status naming the bad value.
//
// Buffers are row-major BY x BX (BY = TY + 2 hy, BX = TX + 2 hx); buffer
// element (i, j) stands for the image coordinate (oy - hy + i, ox - hx + j).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PERFORATION_REFERENCE_H
#define APPROX_RUNTIME_PERFORATION_REFERENCE_H

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Status.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace approx::rt::perforation {

/// What a scheme skips (docs/perforation.md, "Loaded set").
enum class SchemeKind {
  Accurate, ///< Nothing: the same tiling, the fair baseline.
  Rows,     ///< n of every n+1 image rows (1-D: 32-byte sectors).
  Cols,     ///< n of every n+1 image columns (2-D only).
  Stencil,  ///< The halo, rebuilt from the tile's border.
  Center,   ///< Output perforation only: rows and columns at once.
};

/// How a skipped element is rebuilt.
enum class Recon {
  Nearest, ///< The nearer loaded neighbour; a tie takes the one above/left.
  Linear,  ///< fma(B - A, RN((i-a)/(b-a)), A); nearest where a side is missing.
};

/// What a load reads outside the image.
enum class Border {
  Clamp, ///< The nearest image element (the edge repeated).
  Zero,  ///< Zero.
};

/// One perforation scheme. `skip` (n) means something for Rows, Cols and
/// Center only; `recon` for Rows, Cols and Stencil only.
struct Scheme {
  SchemeKind kind = SchemeKind::Accurate; ///< What is skipped.
  int64_t skip = 1;                       ///< n: skip n of every n+1.
  Recon recon = Recon::Nearest;           ///< How skipped elements return.
};

/// The largest skip a scheme name may carry (the dialect's bound too).
constexpr int64_t kMaxSkip = 1024;

/// Parses a scheme's short name, the form manifests use: `accurate`,
/// `rows<n>`, `cols<n>`, `stencil`, `center<n>`, where n is a decimal in
/// [1, kMaxSkip] without leading zeros, optionally followed by `:nn` or
/// `:linear` (default nn). `accurate` and `center<n>` take no `:linear`.
Expected<Scheme> parseScheme(std::string_view name);

/// A scheme from a manifest's typed `perforation_scheme` payload (version
/// 3: scheme, skip, reconstruction), with the same checks as parseScheme;
/// an error names the payload's fields when they are not a scheme.
Expected<Scheme> schemeFromPayload(const Payload &payload);

/// The canonical short name, parseScheme's inverse: "accurate", "rows1:nn",
/// "cols2:linear", "stencil:nn", "center2" (the `skip` of accurate and
/// stencil and the `recon` of accurate and center are not printed).
std::string schemeName(const Scheme &scheme);

//===----------------------------------------------------------------------===//
// 2-D tile loads.
//===----------------------------------------------------------------------===//

/// A 2-D tile: TY x TX interior elements and a halo of hy rows and hx
/// columns on each side.
struct Tile2D {
  int64_t tileRows = 0; ///< TY.
  int64_t tileCols = 0; ///< TX.
  int64_t haloRows = 0; ///< hy.
  int64_t haloCols = 0; ///< hx.

  /// BY = TY + 2 hy (meaningful once validate2D accepted the tile).
  int64_t bufferRows() const { return tileRows + 2 * haloRows; }
  /// BX = TX + 2 hx (meaningful once validate2D accepted the tile).
  int64_t bufferCols() const { return tileCols + 2 * haloCols; }
};

/// The largest buffer (elements) a tile may have: indices stay 32-bit.
constexpr int64_t kMaxBufferElements = int64_t(1) << 31;

/// Checks a 2-D input-perforation tile and scheme: TY, TX >= 1, hy, hx >= 0,
/// a halo no larger than the tile, a buffer of at most kMaxBufferElements
/// elements, skip >= 1, rows with n+1 <= BY, cols with n+1 <= BX, and no
/// Center (output perforation only). Stencil without a halo is accepted (it
/// loads everything), though the dialect's verifier refuses it.
Status validate2D(const Tile2D &tile, const Scheme &scheme);

/// The loaded set of the tile whose interior starts at image coordinate
/// (oy, ox): 1 where the buffer element is fetched from the image, row-major
/// BY x BX. The row and column grids are aligned to the image (mathematical
/// modulo, so negative coordinates work).
Expected<std::vector<uint8_t>>
loadedMask2D(int64_t oy, int64_t ox, const Tile2D &tile, const Scheme &scheme);

/// The reconstructed BY x BX buffer (row-major) of the tile whose interior
/// starts at (oy, ox) of the H x W row-major image `in`: loaded elements
/// hold the accurate value under `border`, skipped ones are rebuilt as the
/// scheme says. Instantiated for float and double.
template <typename T>
Expected<std::vector<T>>
referenceTile2D(const T *in, int64_t H, int64_t W, int64_t oy, int64_t ox,
                const Tile2D &tile, const Scheme &scheme, Border border);

extern template Expected<std::vector<float>>
referenceTile2D<float>(const float *, int64_t, int64_t, int64_t, int64_t,
                       const Tile2D &, const Scheme &, Border);
extern template Expected<std::vector<double>>
referenceTile2D<double>(const double *, int64_t, int64_t, int64_t, int64_t,
                        const Tile2D &, const Scheme &, Border);

/// The fraction of a BY x BX buffer that `scheme` fetches, averaged over
/// every alignment of the tile on the image: for rows, over the n+1 phases
/// (oy - hy) mod (n+1), in each of which the buffer loads ceil or floor of
/// BY/(n+1) rows; for cols the same over columns. Every buffer row (column)
/// is loaded in exactly one of the n+1 phases, so the mean is exactly
/// 1/(n+1); accurate is 1 and stencil TY*TX / (BY*BX) at every alignment.
/// It bounds the global bytes read per tile against accurate. NaN when
/// validate2D refuses the tile or scheme.
double loadedFraction2D(const Tile2D &tile, const Scheme &scheme);

//===----------------------------------------------------------------------===//
// 1-D loads.
//===----------------------------------------------------------------------===//

/// A 1-D tile: T interior elements and a halo of h on each side.
struct Tile1D {
  int64_t tile = 0; ///< T.
  int64_t halo = 0; ///< h.

  /// B = T + 2h (meaningful once validate1D accepted the tile).
  int64_t bufferSize() const { return tile + 2 * halo; }
};

/// Elements per 32-byte sector: S = 32 / elementBytes.
constexpr int64_t kSectorBytes = 32;

/// Checks a 1-D tile and scheme for elements of `elementBytes` bytes (a
/// divisor of 32): T >= 1, 0 <= h <= T, B <= kMaxBufferElements, skip >= 1,
/// no Cols or Center, and for rows a buffer that holds a loaded element at
/// every alignment: B >= n*S + 1 (a skipped run is n sectors long).
Status validate1D(const Tile1D &tile, const Scheme &scheme,
                  int64_t elementBytes);

/// The loaded set of the 1-D tile whose interior starts at `o`: element i
/// (g = o - h + i) is fetched unless rows skips its sector, i.e. unless
/// floor(g / S) mod (n+1) != 0.
Expected<std::vector<uint8_t>> loadedMask1D(int64_t o, const Tile1D &tile,
                                            const Scheme &scheme,
                                            int64_t elementBytes);

/// The reconstructed B-element buffer of the 1-D tile whose interior starts
/// at `o` of the N-element array `in`, with S = 32 / sizeof(T): a skipped
/// element is rebuilt from the last element of the loaded sector before it
/// and the first of the loaded sector after it, as one row of the 2-D case.
/// Instantiated for float and double.
template <typename T>
Expected<std::vector<T>> referenceTile1D(const T *in, int64_t N, int64_t o,
                                         const Tile1D &tile,
                                         const Scheme &scheme, Border border);

extern template Expected<std::vector<float>>
referenceTile1D<float>(const float *, int64_t, int64_t, const Tile1D &,
                       const Scheme &, Border);
extern template Expected<std::vector<double>>
referenceTile1D<double>(const double *, int64_t, int64_t, const Tile1D &,
                        const Scheme &, Border);

//===----------------------------------------------------------------------===//
// Output perforation (Paraprox).
//===----------------------------------------------------------------------===//

/// The computed coordinate (r, c) whose value output (y, x) of an H x W
/// output copies: rows, skip n: r = min(floor(y/(n+1))(n+1) + floor(n/2),
/// H-1), c = x; cols the same along x; center both; accurate (y, x).
/// Stencil and Linear are refused (output perforation copies), as are
/// coordinates outside the output.
Expected<std::pair<int64_t, int64_t>>
outputSource(int64_t y, int64_t x, int64_t H, int64_t W, const Scheme &scheme);

//===----------------------------------------------------------------------===//
// Whole images.
//===----------------------------------------------------------------------===//

/// Read access to one tile's reconstructed buffer, relative to one output's
/// own buffer position: view(di, dj) is buffer element (hy + ty + di,
/// hx + tx + dj) for the output at (ty, tx) of the tile. Reading outside the
/// buffer (|di| > hy at the tile's edge, say) returns 0 and marks the view,
/// and applyTiled2D then fails.
template <typename T> class TileView {
public:
  /// A view of `buffer` (BY x BX) at buffer position (row, col).
  TileView(const std::vector<T> &buffer, int64_t bufferRows, int64_t bufferCols,
           int64_t row, int64_t col)
      : buffer_(buffer), rows_(bufferRows), cols_(bufferCols), row_(row),
        col_(col) {}
  /// Not copyable: a stencil takes the view by reference, so that a read
  /// outside the buffer is seen by applyTiled2D.
  TileView(const TileView &) = delete;
  TileView &operator=(const TileView &) = delete;

  /// The buffer element at offset (di, dj) from the output's position.
  T operator()(int64_t di, int64_t dj) const {
    int64_t i = row_ + di, j = col_ + dj;
    if (i < 0 || i >= rows_ || j < 0 || j >= cols_) {
      outside_ = true;
      badRow_ = di;
      badCol_ = dj;
      return T(0);
    }
    return buffer_[size_t(i * cols_ + j)];
  }

  /// True when some read fell outside the buffer.
  bool readOutside() const { return outside_; }
  /// The offset of the last read outside the buffer.
  std::pair<int64_t, int64_t> badOffset() const { return {badRow_, badCol_}; }

private:
  const std::vector<T> &buffer_;
  int64_t rows_, cols_, row_, col_;
  mutable bool outside_ = false;
  mutable int64_t badRow_ = 0, badCol_ = 0;
};

/// Runs a tiled stencil over the whole H x W image `in` as a GPU grid
/// would: output tiles of TY x TX with origins at multiples of the tile size
/// (the last row and column of tiles partial), each tile's buffer built by
/// referenceTile2D, and out[y][x] = f(view, y, x) for every output, where
/// `view` is a TileView at that output's own buffer position and (y, x) its
/// image coordinate. Returns the H x W output, row-major, or the first
/// error (including a read of `f` outside the buffer).
template <typename T, typename F>
Expected<std::vector<T>> applyTiled2D(const T *in, int64_t H, int64_t W,
                                      const Tile2D &tile, const Scheme &scheme,
                                      Border border, F f) {
  APPROX_RETURN_IF_ERROR(validate2D(tile, scheme));
  if (!in)
    return invalidArgument("applyTiled2D: the image pointer is null");
  if (H < 1 || W < 1 || H > std::numeric_limits<int64_t>::max() / W)
    return invalidArgument("applyTiled2D: an image of " + std::to_string(H) +
                           " x " + std::to_string(W) +
                           " elements: both sizes must be at least 1 and "
                           "their product must fit in 64 bits");
  const int64_t ty = tile.tileRows, tx = tile.tileCols;
  const int64_t by = tile.bufferRows(), bx = tile.bufferCols();
  std::vector<T> out(size_t(H) * size_t(W));
  for (int64_t oy = 0; oy < H; oy += ty) {
    for (int64_t ox = 0; ox < W; ox += tx) {
      APPROX_ASSIGN_OR_RETURN(
          std::vector<T> buffer,
          referenceTile2D<T>(in, H, W, oy, ox, tile, scheme, border));
      for (int64_t y = oy; y < oy + ty && y < H; ++y) {
        for (int64_t x = ox; x < ox + tx && x < W; ++x) {
          TileView<T> view(buffer, by, bx, tile.haloRows + (y - oy),
                           tile.haloCols + (x - ox));
          T v = f(view, y, x);
          if (view.readOutside())
            return invalidArgument(
                "applyTiled2D: the stencil read offset (" +
                std::to_string(view.badOffset().first) + ", " +
                std::to_string(view.badOffset().second) + ") at output (" +
                std::to_string(y) + ", " + std::to_string(x) +
                "), outside the buffer of halo (" +
                std::to_string(tile.haloRows) + ", " +
                std::to_string(tile.haloCols) + ")");
          out[size_t(y * W + x)] = v;
        }
      }
    }
  }
  return out;
}

} // namespace approx::rt::perforation

#endif // APPROX_RUNTIME_PERFORATION_REFERENCE_H
