//===- Guard.cpp - sampled-tile check of a perforated launch --------------===//
//
// SampledTileGuard::check (Guard.h): sample interior tiles, gather their
// input windows into a stack (window s in rows [s*BH, (s+1)*BH) of a
// k*BH x BW image, BH = TY + 2 hy, BW = TX + 2 hx), run the kernel
// accurately on it, gather the centres and the launch's tiles, compare, fall
// back when the error exceeds the bound.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/perforation/Guard.h"

#include "../core/Driver.h" // the driver table: private to the runtime
#include "approx/runtime/tune/ImageMetrics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

namespace approx::rt::perforation {

namespace {

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

namespace {

/// out[idx] = src[(origin[s].row + i) * pitch + origin[s].col + j] for
/// idx = (s * bh + i) * bw + j < total; origins are (row, col) u64 pairs;
/// element size 4 or 8 bytes. Hand-written PTX (JIT-compiled for the device
/// at load), so the runtime needs no CUDA compiler.
const char kGatherPtx[] = R"PTX(.version 7.0
.target sm_50
.address_size 64

.visible .entry approx_guard_gather(
	.param .u64 p_src,
	.param .u64 p_dst,
	.param .u64 p_origins,
	.param .u64 p_pitch,
	.param .u64 p_bh,
	.param .u64 p_bw,
	.param .u64 p_total,
	.param .u32 p_es
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<24>;

	ld.param.u64 %rd1, [p_src];
	ld.param.u64 %rd2, [p_dst];
	ld.param.u64 %rd3, [p_origins];
	ld.param.u64 %rd4, [p_pitch];
	ld.param.u64 %rd5, [p_bh];
	ld.param.u64 %rd6, [p_bw];
	ld.param.u64 %rd7, [p_total];
	ld.param.u32 %r1, [p_es];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mul.wide.u32 %rd8, %r2, %r3;
	cvt.u64.u32 %rd9, %r4;
	add.u64 %rd10, %rd8, %rd9;
	setp.ge.u64 %p1, %rd10, %rd7;
	@%p1 bra DONE;
	mul.lo.u64 %rd11, %rd5, %rd6;
	div.u64 %rd12, %rd10, %rd11;
	rem.u64 %rd13, %rd10, %rd11;
	div.u64 %rd14, %rd13, %rd6;
	rem.u64 %rd15, %rd13, %rd6;
	shl.b64 %rd16, %rd12, 4;
	add.u64 %rd16, %rd3, %rd16;
	ld.global.u64 %rd17, [%rd16];
	ld.global.u64 %rd18, [%rd16+8];
	add.u64 %rd17, %rd17, %rd14;
	add.u64 %rd18, %rd18, %rd15;
	mad.lo.u64 %rd19, %rd17, %rd4, %rd18;
	cvt.u64.u32 %rd20, %r1;
	mad.lo.u64 %rd21, %rd19, %rd20, %rd1;
	mad.lo.u64 %rd22, %rd10, %rd20, %rd2;
	setp.eq.u32 %p2, %r1, 8;
	@%p2 bra WIDE;
	ld.global.u32 %r5, [%rd21];
	st.global.u32 [%rd22], %r5;
	bra.uni DONE;
WIDE:
	ld.global.u64 %rd23, [%rd21];
	st.global.u64 [%rd22], %rd23;
DONE:
	ret;
}
)PTX";

} // namespace

struct SampledTileGuard::Impl {
  std::shared_ptr<Context> ctx;
  CUmodule module = nullptr;
  CUfunction gather = nullptr;
  DeviceBuffer origins, tiles, outStack;
  std::vector<DeviceBuffer> stacks;

  const detail::Driver *drv() const { return ctx->impl().drv; }

  /// `buf` holds at least `bytes` (reallocated larger when not).
  Status ensure(DeviceBuffer &buf, size_t bytes, ValueType elem) {
    if (buf.view().bytes >= bytes && buf.view().elem == elem)
      return Status::ok();
    APPROX_RETURN_IF_ERROR(buf.free());
    Expected<DeviceBuffer> b = DeviceBuffer::allocate(ctx, bytes, elem);
    if (!b)
      return b.status();
    buf = b.take();
    return Status::ok();
  }

  /// One gather launch on the legacy default stream (ordered with the
  /// module's launches there).
  Status gatherInto(uint64_t src, uint64_t dst, uint64_t origins,
                    uint64_t pitch, uint64_t bh, uint64_t bw, uint64_t total,
                    uint32_t es) {
    if (total == 0)
      return Status::ok();
    const unsigned threads = 256;
    const uint64_t blocks = (total + threads - 1) / threads;
    if (blocks > 0x7fffffffu)
      return invalidArgument("guard: " + std::to_string(total) +
                             " elements to gather is too many");
    void *params[] = {&src, &dst, &origins, &pitch, &bh, &bw, &total, &es};
    APPROX_CU_RETURN_IF_ERROR(drv(), cuLaunchKernel, gather,
                              unsigned(blocks), 1, 1, threads, 1, 1, 0,
                              nullptr, params, nullptr);
    return Status::ok();
  }
};

Expected<std::unique_ptr<SampledTileGuard>>
SampledTileGuard::create(std::shared_ptr<Context> ctx) {
  if (!ctx)
    return invalidArgument("guard: no context");
  std::unique_ptr<SampledTileGuard> g(new SampledTileGuard());
  g->impl_ = std::make_unique<Impl>();
  g->impl_->ctx = ctx;
  APPROX_RETURN_IF_ERROR(ctx->makeCurrent());
  const detail::Driver *drv = g->impl_->drv();
  APPROX_CU_RETURN_IF_ERROR(drv, cuModuleLoadDataEx, &g->impl_->module,
                            kGatherPtx, 0, nullptr, nullptr);
  APPROX_CU_RETURN_IF_ERROR(drv, cuModuleGetFunction, &g->impl_->gather,
                            g->impl_->module, "approx_guard_gather");
  return g;
}

SampledTileGuard::~SampledTileGuard() {
  if (!impl_ || !impl_->module)
    return;
  // Buffers first (their frees wait for the work), then the kernel.
  impl_->stacks.clear();
  impl_->origins = DeviceBuffer();
  impl_->tiles = DeviceBuffer();
  impl_->outStack = DeviceBuffer();
  if (impl_->ctx->makeCurrent().isOk()) {
    (void)impl_->ctx->synchronize();
    (void)impl_->drv()->cuModuleUnload(impl_->module);
  }
}

Expected<GuardReport> SampledTileGuard::check(Module &module,
                                              const GuardLaunch &launch,
                                              const GuardOptions &opts) {
  APPROX_RETURN_IF_ERROR(validateGuardLaunch(launch, opts));
  if (module.context() != impl_->ctx)
    return invalidArgument("guard: the module lives on another context");
  Impl &g = *impl_;
  const int64_t W = launch.width;
  const int64_t TY = launch.tileRows, TX = launch.tileCols;
  const int64_t hy = launch.haloRows, hx = launch.haloCols;
  const ValueType elem = launch.args[launch.output].buffer().elem;
  const size_t es = size_t(elem.size());
  Expected<std::vector<std::pair<int64_t, int64_t>>> sampled =
      sampleTiles(launch.height, W, TY, TX, hy, hx, opts.samples, opts.seed);
  if (!sampled)
    return sampled.status();
  const std::vector<std::pair<int64_t, int64_t>> &tiles = *sampled;
  const int64_t k = int64_t(tiles.size());
  const int64_t bh = TY + 2 * hy, bw = TX + 2 * hx;

  // Origins, three runs of k (row, col): the windows in the images, the
  // tiles in the output, the centres in the stacked output.
  std::vector<uint64_t> origins;
  for (auto [r0, c0] : tiles)
    origins.insert(origins.end(), {uint64_t(r0 - hy), uint64_t(c0 - hx)});
  for (auto [r0, c0] : tiles)
    origins.insert(origins.end(), {uint64_t(r0), uint64_t(c0)});
  for (int64_t s = 0; s < k; ++s)
    origins.insert(origins.end(), {uint64_t(s * bh + hy), uint64_t(hx)});
  APPROX_RETURN_IF_ERROR(g.ctx->makeCurrent());
  APPROX_RETURN_IF_ERROR(
      g.ensure(g.origins, origins.size() * 8, ScalarType::I64));
  APPROX_RETURN_IF_ERROR(
      g.origins.copyFromHost(origins.data(), origins.size() * 8));
  const uint64_t org = g.origins.view().ptr;
  const uint64_t runBytes = uint64_t(k) * 16;

  // The stacked inputs and output.
  std::vector<Arg> args = launch.args;
  if (g.stacks.size() < launch.images.size())
    g.stacks.resize(launch.images.size());
  for (size_t n = 0; n < launch.images.size(); ++n) {
    size_t i = launch.images[n];
    const BufferView src = launch.args[i].buffer();
    const uint64_t ies = src.elem.size();
    if (ies != 4 && ies != 8)
      return invalidArgument("guard: argument " + std::to_string(i) + " is " +
                             src.elem.name() +
                             "; the guard gathers 4- and 8-byte elements");
    APPROX_RETURN_IF_ERROR(
        g.ensure(g.stacks[n], size_t(k * bh * bw) * ies, src.elem));
    APPROX_RETURN_IF_ERROR(g.gatherInto(src.ptr, g.stacks[n].view().ptr, org,
                                        uint64_t(W), uint64_t(bh),
                                        uint64_t(bw), uint64_t(k * bh * bw),
                                        uint32_t(ies)));
    BufferView v = g.stacks[n].view();
    v.bytes = size_t(k * bh * bw) * ies;
    args[i] = Arg::memref(v, {k * bh, bw});
  }
  APPROX_RETURN_IF_ERROR(g.ensure(g.outStack, size_t(k * bh * bw) * es, elem));
  BufferView outView = g.outStack.view();
  outView.bytes = size_t(k * bh * bw) * es;
  args[launch.output] = Arg::memref(outView, {k * bh, bw});
  const Dim3 block = launch.config.block;
  LaunchConfig cfg = launch.config;
  cfg.grid = {unsigned((bw + block.x - 1) / block.x),
              unsigned((k * bh + block.y - 1) / block.y), 1};
  APPROX_RETURN_IF_ERROR(
      module.launch(launch.kernel, cfg, args, launch.accurate));

  // The launch's tiles and the accurate centres, side by side, one copy.
  const size_t tileBytes = size_t(k * TY * TX) * es;
  APPROX_RETURN_IF_ERROR(g.ensure(g.tiles, 2 * tileBytes, elem));
  const BufferView out = launch.args[launch.output].buffer();
  APPROX_RETURN_IF_ERROR(g.gatherInto(
      out.ptr, g.tiles.view().ptr, org + runBytes, uint64_t(W), uint64_t(TY),
      uint64_t(TX), uint64_t(k * TY * TX), uint32_t(es)));
  APPROX_RETURN_IF_ERROR(g.gatherInto(
      g.outStack.view().ptr, g.tiles.view().ptr + tileBytes,
      org + 2 * runBytes, uint64_t(bw), uint64_t(TY), uint64_t(TX),
      uint64_t(k * TY * TX), uint32_t(es)));
  std::vector<uint8_t> raw(2 * tileBytes);
  APPROX_RETURN_IF_ERROR(g.tiles.copyToHost(raw.data(), raw.size()));
  std::vector<uint8_t> rawGot(raw.begin(), raw.begin() + long(tileBytes)),
      rawRef(raw.begin() + long(tileBytes), raw.end());
  std::vector<double> got = toDouble(rawGot, elem.scalar),
                      ref = toDouble(rawRef, elem.scalar);
  GuardReport rep;
  rep.samples = int(k);
  // A non-finite value where the reference is finite is an unusable
  // output: an infinite error (the metrics refuse NaN and infinity).
  bool nonFinite = false;
  for (size_t i = 0; i < ref.size(); ++i)
    nonFinite |= !std::isfinite(got[i]) && std::isfinite(ref[i]);
  if (nonFinite) {
    rep.elements = ref.size();
    rep.error = INFINITY;
  } else if (opts.metric == GuardMetric::MeanRelative) {
    Expected<RelativeError> e = meanRelativeError(ref, got, opts.nearZero);
    // Every reference near zero: nothing to measure, no error seen.
    rep.elements = e ? e->used : 0;
    rep.error = e ? e->mean : 0.0;
  } else {
    Expected<double> e = meanErrorOverRange(ref, got);
    if (!e)
      return e.status();
    rep.elements = ref.size();
    rep.error = *e;
  }
  rep.exceeded = !(rep.error <= opts.bound);
  if (rep.exceeded && opts.fallback) {
    APPROX_RETURN_IF_ERROR(module.launchSync(launch.kernel, launch.config,
                                             launch.args, launch.accurate));
    rep.fellBack = true;
  }
  return rep;
}


Expected<GuardReport> checkSampledTiles(Module &module,
                                        const GuardLaunch &launch,
                                        const GuardOptions &opts) {
  APPROX_RETURN_IF_ERROR(validateGuardLaunch(launch, opts));
  Expected<std::unique_ptr<SampledTileGuard>> g =
      SampledTileGuard::create(module.context());
  if (!g)
    return g.status();
  return (*g)->check(module, launch, opts);
}

} // namespace approx::rt::perforation
