//===- Guard.cpp - sampled-tile check of a perforated launch --------------===//
//
// checkSampledTiles (Guard.h): sample interior tiles, stack their input
// windows, run the kernel accurately on the stack, compare the centres with
// the perforated output, fall back when the error exceeds the bound.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/perforation/Guard.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

namespace approx::rt::perforation {

namespace {

/// The sampled windows are stacked vertically: window s occupies rows
/// [s*BH, (s+1)*BH) of a k*BH x BW image, BH = TY + 2 hy, BW = TX + 2 hx.
struct Stack {
  int64_t bh = 0, bw = 0;
  std::vector<std::pair<int64_t, int64_t>> tiles; ///< (row, col) of each tile
};

/// Decodes `n` elements of `elem` to double (f32 and f64 only: checked).
std::vector<double> toDouble(const std::vector<uint8_t> &raw, ScalarType elem) {
  std::vector<double> out;
  if (elem == ScalarType::F32) {
    out.resize(raw.size() / 4);
    for (size_t i = 0; i < out.size(); ++i) {
      float f;
      std::memcpy(&f, raw.data() + 4 * i, 4);
      out[i] = f;
    }
  } else {
    out.resize(raw.size() / 8);
    std::memcpy(out.data(), raw.data(), out.size() * 8);
  }
  return out;
}

} // namespace

Status validateGuardLaunch(const GuardLaunch &launch,
                           const GuardOptions &opts) {
  const int64_t H = launch.height, W = launch.width;
  const int64_t TY = launch.tileRows, TX = launch.tileCols;
  const int64_t hy = launch.haloRows, hx = launch.haloCols;
  if (opts.samples < 1 || opts.samples > 4096)
    return invalidArgument("guard: samples " + std::to_string(opts.samples) +
                           " outside [1, 4096]");
  if (!(opts.bound >= 0) || !(opts.nearZero >= 0))
    return invalidArgument("guard: the bound and nearZero must be >= 0");
  if (H < 1 || W < 1 || TY < 1 || TX < 1 || hy < 0 || hx < 0 ||
      H > (int64_t(1) << 31) || W > (int64_t(1) << 31))
    return invalidArgument("guard: image " + std::to_string(H) + "x" +
                           std::to_string(W) + ", tile " + std::to_string(TY) +
                           "x" + std::to_string(TX) + " and halo " +
                           std::to_string(hy) + "x" + std::to_string(hx) +
                           " must be positive (halo: non-negative)");
  // Arguments: 2-D images of H x W, f32 or f64 output.
  auto image = [&](size_t i, const char *what) -> Status {
    if (i >= launch.args.size())
      return invalidArgument(std::string("guard: ") + what + " index " +
                             std::to_string(i) + " is not an argument");
    const Arg &a = launch.args[i];
    if (a.kind() != Arg::Kind::Memref || a.shape() != std::vector<int64_t>{H, W})
      return invalidArgument(std::string("guard: argument ") +
                             std::to_string(i) + " (" + what + ") is " +
                             a.describe() + ", not a " + std::to_string(H) +
                             "x" + std::to_string(W) + " image");
    if (a.buffer().bytes < uint64_t(H * W) * a.buffer().elem.size())
      return invalidArgument(std::string("guard: argument ") +
                             std::to_string(i) + " (" + what + ") has " +
                             std::to_string(a.buffer().bytes) +
                             " bytes, fewer than its shape needs");
    return Status::ok();
  };
  APPROX_RETURN_IF_ERROR(image(launch.output, "output"));
  if (launch.images.empty())
    return invalidArgument("guard: no input image named");
  for (size_t i : launch.images) {
    APPROX_RETURN_IF_ERROR(image(i, "input"));
    if (i == launch.output)
      return invalidArgument("guard: argument " + std::to_string(i) +
                             " is both an input and the output (in place)");
  }
  const ValueType elem = launch.args[launch.output].buffer().elem;
  if (elem.isVector() ||
      (elem.scalar != ScalarType::F32 && elem.scalar != ScalarType::F64))
    return invalidArgument("guard: the output is " + elem.name() +
                           "; the guard compares f32 and f64 images");
  return Status::ok();
}

Expected<std::vector<std::pair<int64_t, int64_t>>>
sampleTiles(int64_t height, int64_t width, int64_t tileRows, int64_t tileCols,
            int64_t haloRows, int64_t haloCols, int samples, uint64_t seed) {
  const int64_t H = height, W = width, TY = tileRows, TX = tileCols;
  const int64_t hy = haloRows, hx = haloCols;
  if (H < 1 || W < 1 || TY < 1 || TX < 1 || hy < 0 || hx < 0 || samples < 1)
    return invalidArgument("guard: bad image, tile, halo or sample count");
  // Interior tiles: the block grid's tiles whose window lies in the image.
  const int64_t firstRow = (hy + TY - 1) / TY, firstCol = (hx + TX - 1) / TX;
  if (H - TY - hy < 0 || W - TX - hx < 0 ||
      (H - TY - hy) / TY < firstRow || (W - TX - hx) / TX < firstCol)
    return invalidArgument("guard: a " + std::to_string(H) + "x" +
                           std::to_string(W) +
                           " image has no interior tile to sample");
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int64_t> rows(firstRow, (H - TY - hy) / TY),
      cols(firstCol, (W - TX - hx) / TX);
  std::vector<std::pair<int64_t, int64_t>> tiles;
  for (int s = 0; s < samples; ++s) {
    int64_t r = rows(gen);
    tiles.push_back({r * TY, cols(gen) * TX});
  }
  return tiles;
}

Expected<GuardReport> checkSampledTiles(Module &module,
                                        const GuardLaunch &launch,
                                        const GuardOptions &opts) {
  APPROX_RETURN_IF_ERROR(validateGuardLaunch(launch, opts));
  const int64_t W = launch.width;
  const int64_t TY = launch.tileRows, TX = launch.tileCols;
  const int64_t hy = launch.haloRows, hx = launch.haloCols;
  const ValueType elem = launch.args[launch.output].buffer().elem;
  const size_t es = size_t(elem.size());
  Expected<std::vector<std::pair<int64_t, int64_t>>> sampled =
      sampleTiles(launch.height, W, TY, TX, hy, hx, opts.samples, opts.seed);
  if (!sampled)
    return sampled.status();

  Stack st;
  st.bh = TY + 2 * hy, st.bw = TX + 2 * hx;
  st.tiles = sampled.take();
  const int64_t k = int64_t(st.tiles.size());
  const size_t stackBytes = size_t(k * st.bh * st.bw) * es;

  // The stacked inputs, the stacked accurate output.
  std::shared_ptr<Context> ctx = module.context();
  std::vector<Arg> args = launch.args;
  std::vector<DeviceBuffer> owned;
  for (size_t i : launch.images) {
    const BufferView src = launch.args[i].buffer();
    const size_t ies = size_t(src.elem.size());
    Expected<DeviceBuffer> buf =
        DeviceBuffer::allocate(ctx, size_t(k * st.bh * st.bw) * ies, src.elem);
    if (!buf)
      return buf.status();
    for (int64_t s = 0; s < k; ++s) {
      auto [r0, c0] = st.tiles[size_t(s)];
      APPROX_RETURN_IF_ERROR(buf->copyRectFrom(
          src, size_t((r0 - hy) * W + (c0 - hx)) * ies, size_t(W) * ies,
          size_t(s * st.bh * st.bw) * ies, size_t(st.bw) * ies,
          size_t(st.bw) * ies, size_t(st.bh)));
    }
    args[i] = Arg::memref(buf->view(), {k * st.bh, st.bw});
    owned.push_back(buf.take());
  }
  Expected<DeviceBuffer> outStack =
      DeviceBuffer::allocate(ctx, stackBytes, elem);
  if (!outStack)
    return outStack.status();
  args[launch.output] = Arg::memref(outStack->view(), {k * st.bh, st.bw});
  const Dim3 block = launch.config.block;
  LaunchConfig cfg = launch.config;
  cfg.grid = {unsigned((st.bw + block.x - 1) / block.x),
              unsigned((k * st.bh + block.y - 1) / block.y), 1};
  APPROX_RETURN_IF_ERROR(
      module.launchSync(launch.kernel, cfg, args, launch.accurate));

  // The centres, and the perforated output's tiles, side by side on the host.
  Expected<DeviceBuffer> gotTiles =
      DeviceBuffer::allocate(ctx, size_t(k * TY * TX) * es, elem);
  Expected<DeviceBuffer> refTiles =
      DeviceBuffer::allocate(ctx, size_t(k * TY * TX) * es, elem);
  if (!gotTiles)
    return gotTiles.status();
  if (!refTiles)
    return refTiles.status();
  const BufferView out = launch.args[launch.output].buffer();
  for (int64_t s = 0; s < k; ++s) {
    auto [r0, c0] = st.tiles[size_t(s)];
    APPROX_RETURN_IF_ERROR(gotTiles->copyRectFrom(
        out, size_t(r0 * W + c0) * es, size_t(W) * es,
        size_t(s * TY * TX) * es, size_t(TX) * es, size_t(TX) * es,
        size_t(TY)));
    APPROX_RETURN_IF_ERROR(refTiles->copyRectFrom(
        outStack->view(), size_t((s * st.bh + hy) * st.bw + hx) * es,
        size_t(st.bw) * es, size_t(s * TY * TX) * es, size_t(TX) * es,
        size_t(TX) * es, size_t(TY)));
  }
  std::vector<uint8_t> rawGot(size_t(k * TY * TX) * es),
      rawRef(rawGot.size());
  APPROX_RETURN_IF_ERROR(gotTiles->copyToHost(rawGot.data(), rawGot.size()));
  APPROX_RETURN_IF_ERROR(refTiles->copyToHost(rawRef.data(), rawRef.size()));
  std::vector<double> got = toDouble(rawGot, elem.scalar),
                      ref = toDouble(rawRef, elem.scalar);

  GuardReport rep;
  rep.samples = int(k);
  double sum = 0;
  size_t used = 0;
  bool nonFinite = false;
  if (opts.metric == GuardMetric::MeanRelative) {
    for (size_t i = 0; i < ref.size(); ++i) {
      if (!std::isfinite(got[i]) && std::isfinite(ref[i]))
        nonFinite = true;
      if (std::fabs(ref[i]) > opts.nearZero) {
        sum += std::fabs(got[i] - ref[i]) / std::fabs(ref[i]);
        ++used;
      }
    }
  } else {
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < ref.size(); ++i) {
      if (!std::isfinite(got[i]) && std::isfinite(ref[i]))
        nonFinite = true;
      lo = std::min(lo, ref[i]), hi = std::max(hi, ref[i]);
      sum += std::fabs(got[i] - ref[i]);
      ++used;
    }
    if (hi > lo)
      sum /= hi - lo;
  }
  rep.elements = used;
  rep.error = nonFinite ? INFINITY : used ? sum / double(used) : 0.0;
  rep.exceeded = !(rep.error <= opts.bound);
  if (rep.exceeded && opts.fallback) {
    APPROX_RETURN_IF_ERROR(module.launchSync(launch.kernel, launch.config,
                                             launch.args, launch.accurate));
    rep.fellBack = true;
  }
  return rep;
}

} // namespace approx::rt::perforation
