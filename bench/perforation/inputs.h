// inputs.h - perforation-bench's inputs: the photographs of IMAGE_DIR
// (.npy), the six synthetic patterns, the mirror tiling of a photograph to
// N x N (numpy's `reflect`; the CPU reference of pb_gather), and the
// HotSpot chips (our generator, Rodinia's constants). The patterns and the
// chips are made on all cores, bit-identical to the sequential generators
// of earlier runs, which are kept for the self-test to compare with.
#ifndef APPROX_BENCH_PERFORATION_INPUTS_H
#define APPROX_BENCH_PERFORATION_INPUTS_H

#include "support.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pbench {

struct Image {
  std::string name;
  int64_t h = 0, w = 0;
  std::vector<float> px; ///< row-major, in [0, 1]
};

/// A .npy image (runtime/tune/ImageIO.h: uint8 scaled to [0, 1]).
Image readImage(const std::string &path, const std::string &name);

/// The photographs: every *.npy of `dir`, by name (none when `dir` cannot
/// be read).
std::vector<Image> readPhotos(const std::string &dir);

/// The synthetic patterns, in the order of their seeds (100 + index).

inline const std::vector<std::string> kPatterns = {
    "flat", "gradient", "checker8", "stripes", "zoneplate", "noise"};

/// Synthetic patterns (fixed seeds): the input dependence the paper reports
/// (0.12% on a flat image, 19% on a pattern). The generator of earlier runs,
/// one pixel after another; kept as the reference synthetic() must equal.
Image syntheticSequential(const std::string &kind, int64_t n, unsigned seed);

/// syntheticSequential, bit for bit, on `threads` threads: a float draw of
/// mt19937 is one 32-bit word (libstdc++'s generate_canonical<float, 24>),
/// so the rows from y0 start at word y0 * n (mt19937::discard).
Image synthetic(const std::string &kind, int64_t n, unsigned seed,
                unsigned threads = 0);

/// numpy's `reflect` index (the edge not repeated, period 2n - 2) of p for
/// an axis of n >= 1 pixels.
int64_t mirrorIndex(int64_t p, int64_t n);

/// mirrorIndex(p, n) for p in [0, size): pb_gather's row or column map.
std::vector<int> mirrorMap(int64_t n, int64_t size);

/// The photograph mirror-tiled to H x W on the CPU (pb_gather's reference).
Image mirrorTile(const Image &img, int64_t H, int64_t W);

/// HotSpot inputs (our generator, Rodinia's physical constants): a 16 mm
/// square chip of 0.5 mm silicon, power from a few rectangular units plus
/// noise, temperature around 320-345 K.
struct HotspotConsts {
  float sdc = 0, rx1 = 0, ry1 = 0, rz1 = 0;
};

struct HotspotCase {
  std::vector<float> power, temp;
  HotspotConsts k;
};

/// The chip constants of an n x n grid, and the per-cell power scale.
HotspotConsts hotspotConsts(int64_t n, double &perCell);

/// The generator of earlier runs, one cell after another: the reference
/// hotspotInput must equal.
HotspotCase hotspotInputSequential(int64_t n, unsigned seed);

/// hotspotInputSequential, bit for bit, on `threads` threads: a double draw
/// is two 32-bit words (generate_canonical<double, 53>), the 12 units take
/// 5 draws each and every cell 2, so row y0's draws start at word
/// 120 + 4 * y0 * n; the units are added in the same order per cell.
HotspotCase hotspotInput(int64_t n, unsigned seed, unsigned threads = 0);

} // namespace pbench

#endif // APPROX_BENCH_PERFORATION_INPUTS_H
