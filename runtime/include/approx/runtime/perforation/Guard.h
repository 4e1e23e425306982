//===- Guard.h - sampled-tile check of a perforated launch ------*- C++ -*-===//
//
// Beyond the paper: perforation's error depends on the input by two orders
// of magnitude (0.12% on a flat image, 19% on a pattern), so a scheme tuned
// on one input may be wrong on the next. After a perforated launch,
// checkSampledTiles recomputes a few random tiles accurately and compares
// them with what the launch wrote; when the sampled error exceeds the bound
// it says so and, if asked, relaunches the whole grid accurately.
//
// How, for any stencil kernel of 2-D memref<?x?xT> images: each sampled
// tile's input window (tile plus halo, from interior tiles only, so no
// border rule is involved) is gathered, for every image argument, into a
// stack of windows; the kernel runs accurately on that small stacked image
// (same block shape); the centre of window s is then exactly the direct
// result at sampled tile s, because its reads stay inside window s. The
// gathers are one launch each of a small kernel the runtime carries as PTX
// (one per image, one for the launch's tiles, one for the centres), then
// one copy to the host. A SampledTileGuard keeps that kernel loaded and its
// buffers between checks (docs/perforation.md, "Guard", has the cost).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PERFORATION_GUARD_H
#define APPROX_RUNTIME_PERFORATION_GUARD_H

#include "approx/runtime/core/Runtime.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace approx::rt::perforation {

/// The error the guard measures over the sampled tiles.
enum class GuardMetric {
  MeanRelative, ///< mean |out-ref|/|ref| over |ref| > nearZero
  MeanAbsolute, ///< mean |out-ref| / (max ref - min ref) of the samples
};

/// What the guard checks and does.
struct GuardOptions {
  int samples = 16;       ///< tiles recomputed (1..4096)
  uint64_t seed = 1;      ///< which tiles
  double bound = 0.05;    ///< the error allowed (e.g. 0.05 = 5%)
  GuardMetric metric = GuardMetric::MeanRelative;
  double nearZero = 1e-3; ///< MeanRelative: references at most this skip
  bool fallback = true;   ///< relaunch accurately when the bound is exceeded
};

/// One perforated launch of a 2-D stencil kernel, as the guard sees it.
struct GuardLaunch {
  std::string kernel;           ///< the name launched
  LaunchConfig config;          ///< the perforated launch's shape
  std::vector<Arg> args;        ///< its arguments
  std::vector<size_t> images;   ///< indices of the input images in args
  size_t output = 0;            ///< index of the output image in args
  int64_t height = 0, width = 0; ///< every image's size
  int64_t tileRows = 0, tileCols = 0; ///< the tile one block computes
  int64_t haloRows = 0, haloCols = 0; ///< the window's reach
  LaunchOptions perforated;     ///< the knobs of the launch checked
  LaunchOptions accurate;       ///< the knobs that make it accurate
};

/// What the guard found.
struct GuardReport {
  int samples = 0;       ///< tiles compared
  size_t elements = 0;   ///< elements compared (MeanRelative: those used)
  double error = 0;      ///< the sampled error
  bool exceeded = false; ///< error > bound
  bool fellBack = false; ///< the accurate relaunch ran
};

/// The checks checkSampledTiles makes before touching the GPU: the options'
/// ranges, the tile and halo, and that the named arguments are distinct
/// height x width images large enough for their shape, the output f32 or
/// f64. One-line InvalidArgument naming the bad value.
Status validateGuardLaunch(const GuardLaunch &launch, const GuardOptions &opts);

/// `samples` tile origins (row, col), multiples of the tile, drawn
/// uniformly (seeded) among the interior tiles: those whose window (tile
/// plus halo) lies inside the image. An error when there is none.
Expected<std::vector<std::pair<int64_t, int64_t>>>
sampleTiles(int64_t height, int64_t width, int64_t tileRows, int64_t tileCols,
            int64_t haloRows, int64_t haloCols, int samples, uint64_t seed);

/// A guard for repeated checks on one context: the gather kernel loaded
/// once, scratch buffers kept and grown as needed. Not thread-safe.
class SampledTileGuard {
public:
  /// Loads the gather kernel on `ctx`.
  static Expected<std::unique_ptr<SampledTileGuard>>
  create(std::shared_ptr<Context> ctx);
  /// Unloads the kernel (after the context's work is done).
  ~SampledTileGuard();
  SampledTileGuard(const SampledTileGuard &) = delete;
  SampledTileGuard &operator=(const SampledTileGuard &) = delete;

  /// As checkSampledTiles; `module` must live on this guard's context.
  Expected<GuardReport> check(Module &module, const GuardLaunch &launch,
                              const GuardOptions &opts);

  struct Impl;

private:
  SampledTileGuard() = default;
  std::unique_ptr<Impl> impl_;
};

/// Checks `launch`, which has run, by recomputing sampled tiles (see the
/// file comment); relaunches accurately when the error exceeds the bound
/// and opts.fallback is set. Errors: arguments that are not 2-D images of
/// height x width, a tile or halo that does not fit, an image with no
/// interior tile, and every runtime error of the copies and launches.
/// A one-off: it creates a SampledTileGuard for the call (loading the
/// gather kernel); keep one for repeated checks.
Expected<GuardReport> checkSampledTiles(Module &module,
                                        const GuardLaunch &launch,
                                        const GuardOptions &opts);

} // namespace approx::rt::perforation

#endif // APPROX_RUNTIME_PERFORATION_GUARD_H
