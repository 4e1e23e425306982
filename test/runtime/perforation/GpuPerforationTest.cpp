//===- GpuPerforationTest.cpp - perforation lowering vs CPU reference ----===//
//
// Runs the kernels of Inputs/kernels.mlir, compiled by approx-to-ptx (where
// MLIR is: scripts/gpu-prepare.sh) into $APPROX_PERFORATION_KERNELS, on a
// GPU, for every scheme and several image sizes (odd ones, and ones that are
// not multiples of the tile), and compares each block's reconstructed shared
// buffer, or each output-perforated image, with the CPU reference of
// runtime/perforation, bit for bit. Exits 77 (skipped) with the reason when
// no GPU or no compiled kernels are there.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/perforation/Guard.h"
#include "approx/runtime/perforation/Reference.h"
#include "approx/runtime/perforation/Tuner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sys/stat.h>

using namespace approx::rt;
namespace pf = approx::rt::perforation;

namespace {

std::shared_ptr<Context> gCtx;
std::string gManifest;

#define ASSERT_OK(expr)                                                        \
  do {                                                                         \
    Status s_ = (expr);                                                        \
    ASSERT_TRUE(s_.isOk()) << s_.toString();                                   \
  } while (0)

/// Knob orders, as in Inputs/kernels.mlir.
const std::vector<std::string> k2d = {
    "accurate", "rows1:nn", "rows1:linear", "rows2:linear",
    "rows3:nn", "cols1:nn", "cols2:linear", "stencil:nn"};
const std::vector<std::string> k2z = {"accurate", "rows1:linear", "cols1:nn",
                                      "stencil:linear"};
const std::vector<std::string> k1d = {"accurate", "rows1:nn", "rows1:linear",
                                      "rows2:linear", "stencil:nn"};
const std::vector<std::string> kOut = {"accurate", "rows1", "rows2", "cols1",
                                       "center1"};

/// Image sizes: odd, prime, smaller than one tile, not tile multiples.
/// Widths that are multiples of 4 take the 16-byte vector fetch where the
/// image is aligned: narrower than a tile (8), a tile multiple (96), and
/// not (36, 100: vectors wholly outside the image at the right edge).
const std::vector<std::pair<int64_t, int64_t>> kSizes = {
    {1, 1},   {7, 5},   {9, 8},     {16, 36},   {37, 53},
    {45, 100}, {64, 96}, {129, 257}, {300, 211}};

std::vector<float> randomImage(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  std::vector<float> v(size_t(n), 0.0f);
  for (float &x : v)
    x = d(gen);
  return v;
}

pf::Scheme scheme(const std::string &name) {
  Expected<pf::Scheme> s = pf::parseScheme(name);
  EXPECT_TRUE(s.isOk()) << s.status().toString();
  return s.isOk() ? *s : pf::Scheme{};
}

std::unique_ptr<Module> load() {
  Expected<std::unique_ptr<Module>> m = Module::load(gCtx, gManifest);
  EXPECT_TRUE(m.isOk()) << m.status().toString();
  return m ? m.take() : nullptr;
}

/// Every block's buffer of a 2-D dump kernel against referenceTile2D. The
/// image starts `shift` elements into its buffer: a shift of 1 leaves it
/// 4 bytes off 16-byte alignment, so the kernels must take a scalar fetch.
void check2D(const std::string &kernel, const std::string &knob,
             const std::vector<std::string> &schemes, pf::Tile2D tile,
             pf::Border border, int64_t shift = 0) {
  std::unique_ptr<Module> m = load();
  ASSERT_TRUE(m);
  const int64_t by = tile.bufferRows(), bx = tile.bufferCols();
  unsigned seed = 1;
  for (auto [h, w] : kSizes) {
    std::vector<float> padded = randomImage(h * w + shift, seed++);
    const float *img = padded.data() + shift;
    unsigned gx = unsigned((w + 31) / 32), gy = unsigned((h + 7) / 8);
    int64_t blocks = int64_t(gx) * gy;
    Expected<DeviceBuffer> in = DeviceBuffer::fromHost(
        gCtx, padded.data(), padded.size(), ScalarType::F32);
    ASSERT_TRUE(in.isOk()) << in.status().toString();
    BufferView image = in->view();
    image.ptr += uint64_t(shift) * 4, image.bytes -= size_t(shift) * 4;
    Expected<DeviceBuffer> dump = DeviceBuffer::allocate(
        gCtx, size_t(blocks * by * bx) * 4, ScalarType::F32);
    ASSERT_TRUE(dump.isOk()) << dump.status().toString();
    for (size_t s = 0; s < schemes.size(); ++s) {
      SCOPED_TRACE(kernel + " " + schemes[s] + " on " + std::to_string(h) +
                   "x" + std::to_string(w));
      ASSERT_OK(dump->fill32(0x7fc00001)); // a NaN: unwritten shows
      LaunchConfig cfg{{gx, gy, 1}, {32, 8, 1}, 0};
      LaunchOptions opts;
      opts.knobs[knob] = int64_t(s);
      ASSERT_OK(m->launchSync(kernel, cfg,
                              {Arg::memref(image, {h, w}),
                               Arg::memref(dump->view(), {blocks, by * bx})},
                              opts));
      std::vector<float> got(size_t(blocks * by * bx));
      ASSERT_OK(dump->copyToHost(got.data(), got.size() * 4));
      pf::Scheme sc = scheme(schemes[s]);
      int64_t bad = 0;
      for (unsigned byi = 0; byi < gy; ++byi)
        for (unsigned bxi = 0; bxi < gx; ++bxi) {
          Expected<std::vector<float>> ref = pf::referenceTile2D<float>(
              img, h, w, int64_t(byi) * 8, int64_t(bxi) * 32, tile, sc,
              border);
          ASSERT_TRUE(ref.isOk()) << ref.status().toString();
          const float *g = got.data() + (int64_t(byi) * gx + bxi) * by * bx;
          for (int64_t k = 0; k < by * bx; ++k)
            if (std::memcmp(&g[k], &(*ref)[size_t(k)], 4) != 0 && bad++ < 5)
              ADD_FAILURE() << "block (" << byi << ", " << bxi << ") element ("
                            << k / bx << ", " << k % bx << "): GPU " << g[k]
                            << ", reference " << (*ref)[size_t(k)];
        }
      EXPECT_EQ(bad, 0);
    }
  }
}

} // namespace

TEST(Perforation, TileLoadClamp) {
  check2D("dump2d", "scheme2d", k2d, {8, 32, 1, 1}, pf::Border::Clamp);
}

TEST(Perforation, TileLoadZero) {
  check2D("dump2z", "scheme2z", k2z, {8, 32, 2, 3}, pf::Border::Zero);
}

TEST(Perforation, TileLoadPaddedBuffer) {
  check2D("dump2p", "scheme2d", k2d, {8, 32, 1, 1}, pf::Border::Clamp);
}

TEST(Perforation, TileLoadMisalignedImage) {
  check2D("dump2d", "scheme2d", k2d, {8, 32, 1, 1}, pf::Border::Clamp, 1);
  check2D("dump2p", "scheme2d", k2d, {8, 32, 1, 1}, pf::Border::Clamp, 1);
  check2D("dump2z", "scheme2z", k2z, {8, 32, 2, 3}, pf::Border::Zero, 1);
}

TEST(Perforation, Load1D) {
  std::unique_ptr<Module> m = load();
  ASSERT_TRUE(m);
  pf::Tile1D tile{256, 3};
  for (int64_t n : {1, 7, 255, 256, 1000, 4099}) {
    std::vector<float> x = randomImage(n, unsigned(n));
    unsigned blocks = unsigned((n + 255) / 256);
    Expected<DeviceBuffer> in =
        DeviceBuffer::fromHost(gCtx, x.data(), x.size(), ScalarType::F32);
    ASSERT_TRUE(in.isOk()) << in.status().toString();
    Expected<DeviceBuffer> dump =
        DeviceBuffer::allocate(gCtx, size_t(blocks) * 262 * 4, ScalarType::F32);
    ASSERT_TRUE(dump.isOk()) << dump.status().toString();
    for (size_t s = 0; s < k1d.size(); ++s) {
      SCOPED_TRACE(k1d[s] + " on " + std::to_string(n));
      ASSERT_OK(dump->fill32(0x7fc00001));
      LaunchOptions opts;
      opts.knobs["scheme1d"] = int64_t(s);
      ASSERT_OK(m->launchSync(
          "dump1d", LaunchConfig{{blocks, 1, 1}, {128, 1, 1}, 0},
          {Arg::memref(in->view(), {n}),
           Arg::memref(dump->view(), {int64_t(blocks), 262})},
          opts));
      std::vector<float> got(size_t(blocks) * 262);
      ASSERT_OK(dump->copyToHost(got.data(), got.size() * 4));
      int64_t bad = 0;
      for (unsigned b = 0; b < blocks; ++b) {
        Expected<std::vector<float>> ref = pf::referenceTile1D<float>(
            x.data(), n, int64_t(b) * 256, tile, scheme(k1d[s]),
            pf::Border::Clamp);
        ASSERT_TRUE(ref.isOk()) << ref.status().toString();
        for (int64_t k = 0; k < 262; ++k)
          if (std::memcmp(&got[size_t(b * 262 + k)], &(*ref)[size_t(k)], 4) &&
              bad++ < 5)
            ADD_FAILURE() << "block " << b << " element " << k << ": GPU "
                          << got[size_t(b * 262 + k)] << ", reference "
                          << (*ref)[size_t(k)];
      }
      EXPECT_EQ(bad, 0);
    }
  }
}

TEST(Perforation, OutputPerforation) {
  std::unique_ptr<Module> m = load();
  ASSERT_TRUE(m);
  unsigned seed = 100;
  for (auto [h, w] : kSizes) {
    std::vector<float> img = randomImage(h * w, seed++);
    Expected<DeviceBuffer> in =
        DeviceBuffer::fromHost(gCtx, img.data(), img.size(), ScalarType::F32);
    ASSERT_TRUE(in.isOk()) << in.status().toString();
    Expected<DeviceBuffer> out =
        DeviceBuffer::allocate(gCtx, size_t(h * w) * 4, ScalarType::F32);
    ASSERT_TRUE(out.isOk()) << out.status().toString();
    for (size_t s = 0; s < kOut.size(); ++s) {
      SCOPED_TRACE(kOut[s] + " on " + std::to_string(h) + "x" +
                   std::to_string(w));
      ASSERT_OK(out->fill32(0x7fc00001));
      LaunchOptions opts;
      opts.knobs["output"] = int64_t(s);
      LaunchConfig cfg{{unsigned((w + 31) / 32), unsigned((h + 7) / 8), 1},
                       {32, 8, 1}, 0};
      ASSERT_OK(m->launchSync("paraprox", cfg,
                              {Arg::memref(in->view(), {h, w}),
                               Arg::memref(out->view(), {h, w})},
                              opts));
      std::vector<float> got(size_t(h * w));
      ASSERT_OK(out->copyToHost(got.data(), got.size() * 4));
      int64_t bad = 0;
      for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x) {
          auto rc = pf::outputSource(y, x, h, w, scheme(kOut[s]));
          ASSERT_TRUE(rc.isOk()) << rc.status().toString();
          float want = img[size_t(rc->first * w + rc->second)] * 2.0f + 1.0f;
          float g = got[size_t(y * w + x)];
          if (std::memcmp(&g, &want, 4) != 0 && bad++ < 5)
            ADD_FAILURE() << "(" << y << ", " << x << "): GPU " << g
                          << ", reference " << want;
        }
      EXPECT_EQ(bad, 0);
    }
  }
}

/// A launch of @blur (32 x 8 threads, tile 8 x 32, halo 1) for the guard,
/// `scheme` its perforated knob value, 0 its accurate one.
pf::GuardLaunch blurLaunch(const DeviceBuffer &in, const DeviceBuffer &out,
                           int64_t h, int64_t w, int64_t scheme) {
  pf::GuardLaunch l;
  l.kernel = "blur";
  l.config = {{unsigned((w + 31) / 32), unsigned((h + 7) / 8), 1},
              {32, 8, 1}, 0};
  l.args = {Arg::memref(in.view(), {h, w}), Arg::memref(out.view(), {h, w})};
  l.images = {0};
  l.output = 1;
  l.height = h, l.width = w;
  l.tileRows = 8, l.tileCols = 32, l.haloRows = 1, l.haloCols = 1;
  l.perforated.knobs["blurscheme"] = scheme;
  l.accurate.knobs["blurscheme"] = 0;
  return l;
}

/// The guard on @blur (a 3x3 box sum; scheme 1 = rows1:nn): silent where
/// perforation is harmless (a flat image), triggered and falling back to an
/// output equal to the accurate one where it is not (1-pixel stripes), and
/// its sampled error close to the whole image's on random data.
TEST(Perforation, Guard) {
  std::unique_ptr<Module> m = load();
  ASSERT_TRUE(m);
  const int64_t h = 517, w = 1003;
  // One guard for every check: its kernel loaded once, its buffers grown
  // from 16 to 256 samples.
  Expected<std::unique_ptr<pf::SampledTileGuard>> guard =
      pf::SampledTileGuard::create(gCtx);
  ASSERT_TRUE(guard.isOk()) << guard.status().toString();
  auto run = [&](const std::vector<float> &img, int64_t scheme,
                 pf::GuardOptions opts, pf::GuardReport &rep,
                 std::vector<float> &got) {
    Expected<DeviceBuffer> in =
        DeviceBuffer::fromHost(gCtx, img.data(), img.size(), ScalarType::F32);
    ASSERT_TRUE(in.isOk()) << in.status().toString();
    Expected<DeviceBuffer> out =
        DeviceBuffer::allocate(gCtx, size_t(h * w) * 4, ScalarType::F32);
    ASSERT_TRUE(out.isOk()) << out.status().toString();
    ASSERT_OK(out->fill32(0x7fc00001));
    pf::GuardLaunch l = blurLaunch(*in, *out, h, w, scheme);
    ASSERT_OK(m->launchSync(l.kernel, l.config, l.args, l.perforated));
    Expected<pf::GuardReport> r = (*guard)->check(*m, l, opts);
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    rep = *r;
    got.assign(size_t(h * w), 0.0f);
    ASSERT_OK(out->copyToHost(got.data(), got.size() * 4));
  };
  pf::GuardOptions opts;
  opts.bound = 0.01;
  pf::GuardReport rep;
  std::vector<float> flat(size_t(h * w), 0.5f), stripes(size_t(h * w)),
      accurate, perforated, got;
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x)
      stripes[size_t(y * w + x)] = (y % 2) ? 0.9f : 0.1f;
  run(flat, 1, opts, rep, got);
  EXPECT_EQ(rep.samples, 16);
  {
    // The one-off form gives the same answer.
    Expected<DeviceBuffer> in = DeviceBuffer::fromHost(
        gCtx, flat.data(), flat.size(), ScalarType::F32);
    Expected<DeviceBuffer> out =
        DeviceBuffer::allocate(gCtx, size_t(h * w) * 4, ScalarType::F32);
    ASSERT_TRUE(in.isOk() && out.isOk());
    pf::GuardLaunch l = blurLaunch(*in, *out, h, w, 1);
    ASSERT_OK(m->launchSync(l.kernel, l.config, l.args, l.perforated));
    Expected<pf::GuardReport> once = pf::checkSampledTiles(*m, l, opts);
    ASSERT_TRUE(once.isOk()) << once.status().toString();
    EXPECT_EQ(once->error, 0.0);
    EXPECT_EQ(once->samples, 16);
  }
  EXPECT_EQ(rep.elements, size_t(16 * 8 * 32));
  EXPECT_EQ(rep.error, 0.0);
  EXPECT_FALSE(rep.exceeded);
  EXPECT_FALSE(rep.fellBack);

  run(stripes, 0, opts, rep, accurate);
  EXPECT_EQ(rep.error, 0.0) << "the accurate scheme against itself";
  opts.fallback = false;
  run(stripes, 1, opts, rep, perforated);
  EXPECT_TRUE(rep.exceeded);
  EXPECT_GT(rep.error, 0.1);
  EXPECT_NE(std::memcmp(perforated.data(), accurate.data(), accurate.size() * 4), 0);
  opts.fallback = true;
  run(stripes, 1, opts, rep, got);
  EXPECT_TRUE(rep.exceeded && rep.fellBack);
  EXPECT_EQ(std::memcmp(got.data(), accurate.data(), accurate.size() * 4), 0)
      << "the fallback writes the accurate output";

  // Random data: the sample's error estimates the whole image's.
  std::vector<float> img = randomImage(h * w, 7);
  for (float &v : img)
    v = 150.0f + v; // positive, away from zero
  run(img, 0, opts, rep, accurate);
  opts.samples = 256;
  opts.fallback = false;
  run(img, 1, opts, rep, perforated);
  double sum = 0;
  for (size_t i = 0; i < img.size(); ++i)
    sum += std::fabs(double(perforated[i]) - accurate[i]) / std::fabs(accurate[i]);
  double whole = sum / double(img.size());
  EXPECT_NEAR(rep.error, whole, 0.25 * whole)
      << "sampled " << rep.error << ", whole image " << whole;
}

/// The transparent pass keeps the kernel's meaning: examples/perforation's
/// Runs `kernel` of `direct` (block 32x8) and of `raised` with each
/// candidate on `args`, which write `out` (h x w, NaN-poisoned before each
/// launch): `accurate` must give the plain output bit for bit, every other
/// scheme must write exactly the elements the plain kernel writes.
static void expectRaisedMatchesDirect(Module &direct, Module &raised,
                                      const std::string &kernel,
                                      const std::vector<pf::Candidate> &candidates,
                                      const std::vector<Arg> &args,
                                      DeviceBuffer &out, int64_t h, int64_t w) {
  auto runOn = [&](Module &m, unsigned bx, unsigned by, unsigned rows,
                   const LaunchOptions &opts) {
    std::vector<float> got(size_t(h * w));
    EXPECT_TRUE(out.fill32(0x7fc00001).isOk());
    LaunchConfig cfg{{unsigned((w + bx - 1) / bx),
                      unsigned((h + by * rows - 1) / (by * rows)), 1},
                     {bx, by, 1}, 0};
    Status s = m.launchSync(kernel, cfg, args, opts);
    EXPECT_TRUE(s.isOk()) << s.toString();
    EXPECT_TRUE(out.copyToHost(got.data(), got.size() * 4).isOk());
    return got;
  };
  std::vector<float> want = runOn(direct, 32, 8, 1, {});
  for (const pf::Candidate &c : candidates) {
    SCOPED_TRACE(c.label() + " on " + std::to_string(h) + "x" +
                 std::to_string(w));
    LaunchOptions opts;
    opts.knobs["perforation"] = c.schemeValue;
    opts.knobs["perforation_block"] = c.blockValue;
    std::vector<float> got =
        runOn(raised, c.blockX, c.blockY, c.rowsPerThread, opts);
    int64_t bad = 0;
    for (size_t k = 0; k < got.size(); ++k) {
      bool wrong = c.scheme == "accurate"
                       ? std::memcmp(&got[k], &want[k], 4) != 0
                       : std::isnan(got[k]) != std::isnan(want[k]);
      if (wrong && bad++ < 3)
        ADD_FAILURE() << "element " << k << ": raised " << got[k]
                      << ", plain " << want[k];
    }
    EXPECT_EQ(bad, 0);
  }
}

/// Gaussian (one input) and HotSpot (two inputs, scalars), raised with
/// block shapes 32x8, 16x16r3 and 64x4r2 (scripts/gpu-prepare.sh), compute
/// with `accurate` exactly what the plain kernel computes, bit for bit, on
/// every size (odd ones, smaller than a tile); every other scheme writes
/// every element.
TEST(Perforation, RaisedMatchesDirect) {
  const char *dir = std::getenv("APPROX_PERFORATION_KERNELS");
  for (const std::string ex : {"gaussian3_plain", "hotspot"}) {
    SCOPED_TRACE(ex);
    std::string raisedPath = std::string(dir) + "/" + ex + "_raised.manifest.json";
    struct stat st;
    if (::stat(raisedPath.c_str(), &st) != 0)
      GTEST_SKIP() << raisedPath << " does not exist (scripts/gpu-prepare.sh)";
    Expected<std::unique_ptr<Module>> direct = Module::load(
        gCtx, std::string(dir) + "/" + ex + "_direct.manifest.json");
    ASSERT_TRUE(direct.isOk()) << direct.status().toString();
    Expected<std::unique_ptr<Module>> raised = Module::load(gCtx, raisedPath);
    ASSERT_TRUE(raised.isOk()) << raised.status().toString();
    auto candidates =
        pf::candidatesOf((*raised)->manifest(), ex, {}, {32, 8});
    ASSERT_TRUE(candidates.isOk()) << candidates.status().toString();
    ASSERT_EQ(candidates->size(), 12u);
    const int inputs = ex == "hotspot" ? 2 : 1;
    unsigned seed = 500;
    for (auto [h, w] : kSizes) {
      std::vector<DeviceBuffer> in;
      for (int i = 0; i < inputs; ++i) {
        std::vector<float> img = randomImage(h * w, seed++);
        Expected<DeviceBuffer> b = DeviceBuffer::fromHost(
            gCtx, img.data(), img.size(), ScalarType::F32);
        ASSERT_TRUE(b.isOk()) << b.status().toString();
        in.push_back(b.take());
      }
      Expected<DeviceBuffer> out =
          DeviceBuffer::allocate(gCtx, size_t(h * w) * 4, ScalarType::F32);
      ASSERT_TRUE(out.isOk()) << out.status().toString();
      std::vector<Arg> args;
      for (DeviceBuffer &b : in)
        args.push_back(Arg::memref(b.view(), {h, w}));
      args.push_back(Arg::memref(out->view(), {h, w}));
      if (ex == "hotspot")
        for (double c : {0.125, 0.25, 0.5, 0.0625})
          args.push_back(Arg::floating(c));
      expectRaisedMatchesDirect(**direct, **raised, ex, *candidates, args,
                                *out, h, w);
    }
  }
}

/// The CUDA front door: examples/perforation/cuda/stencils.cu through
/// approx-cc as is (`stencils_direct`) and with perforate= and block shapes
/// 32x8, 16x16r3, 64x4r2 (`stencils_raised`, scripts/gpu-prepare.sh). For
/// each kernel -- clamped Gaussian, zero-border Sobel, interior-only
/// Laplacian -- `accurate` computes what the plain kernel computes, bit for
/// bit, on every size; every other scheme writes what the plain kernel
/// writes (the Laplacian's frame stays untouched).
TEST(Perforation, CudaRaisedMatchesDirect) {
  const char *dir = std::getenv("APPROX_PERFORATION_KERNELS");
  std::string raisedPath = std::string(dir) + "/stencils_raised.manifest.json";
  struct stat st;
  if (::stat(raisedPath.c_str(), &st) != 0)
    GTEST_SKIP() << raisedPath << " does not exist (scripts/gpu-prepare.sh)";
  Expected<std::unique_ptr<Module>> direct =
      Module::load(gCtx, std::string(dir) + "/stencils_direct.manifest.json");
  ASSERT_TRUE(direct.isOk()) << direct.status().toString();
  Expected<std::unique_ptr<Module>> raised = Module::load(gCtx, raisedPath);
  ASSERT_TRUE(raised.isOk()) << raised.status().toString();
  unsigned seed = 900;
  for (const std::string kernel : {"gaussian3", "sobel3", "laplace5"}) {
    SCOPED_TRACE(kernel);
    auto candidates =
        pf::candidatesOf((*raised)->manifest(), kernel, {}, {32, 8});
    ASSERT_TRUE(candidates.isOk()) << candidates.status().toString();
    ASSERT_EQ(candidates->size(), 12u);
    for (auto [h, w] : kSizes) {
      std::vector<float> img = randomImage(h * w, seed++);
      Expected<DeviceBuffer> in =
          DeviceBuffer::fromHost(gCtx, img.data(), img.size(), ScalarType::F32);
      ASSERT_TRUE(in.isOk()) << in.status().toString();
      Expected<DeviceBuffer> out =
          DeviceBuffer::allocate(gCtx, size_t(h * w) * 4, ScalarType::F32);
      ASSERT_TRUE(out.isOk()) << out.status().toString();
      std::vector<Arg> args = {Arg::pointer(in->view().ptr),
                               Arg::pointer(out->view().ptr),
                               Arg::integer(h), Arg::integer(w)};
      expectRaisedMatchesDirect(**direct, **raised, kernel, *candidates,
                                args, *out, h, w);
    }
  }
}

/// An image too large for the tile fetch's i32 addressing ((H-1) * W + W-1
/// >= 2^31: 65600 x 32768 floats, 8.6 GB in and out) takes the i64 fetch
/// (docs/perforation.md, "32-bit fetch addressing"): the raised Gaussian's
/// `accurate` 32x8 equals the plain kernel bit for bit on the first rows,
/// the rows whose offsets cross 2^31, and the last rows. Skipped where the
/// GPU has less than 18 GB free.
TEST(Perforation, HugeImageTakesTheI64Fetch) {
  const char *dir = std::getenv("APPROX_PERFORATION_KERNELS");
  std::string raisedPath =
      std::string(dir) + "/gaussian3_plain_raised.manifest.json";
  struct stat st;
  if (::stat(raisedPath.c_str(), &st) != 0)
    GTEST_SKIP() << raisedPath << " does not exist (scripts/gpu-prepare.sh)";
  const int64_t h = 65600, w = 32768;
  const size_t bytes = size_t(h * w) * 4;
  size_t freeBytes = 0, totalBytes = 0;
  ASSERT_OK(gCtx->memInfo(freeBytes, totalBytes));
  if (freeBytes < 2 * bytes + (size_t(1) << 30))
    GTEST_SKIP() << "needs " << (2 * bytes >> 30) << " GiB free, the GPU has "
                 << (freeBytes >> 30);
  Expected<std::unique_ptr<Module>> direct = Module::load(
      gCtx, std::string(dir) + "/gaussian3_plain_direct.manifest.json");
  ASSERT_TRUE(direct.isOk()) << direct.status().toString();
  Expected<std::unique_ptr<Module>> raised = Module::load(gCtx, raisedPath);
  ASSERT_TRUE(raised.isOk()) << raised.status().toString();
  auto candidates =
      pf::candidatesOf((*raised)->manifest(), "gaussian3_plain", {}, {32, 8});
  ASSERT_TRUE(candidates.isOk()) << candidates.status().toString();
  const pf::Candidate *accurate = nullptr;
  for (const pf::Candidate &c : *candidates)
    if (c.scheme == "accurate" && c.blockX == 32 && c.blockY == 8 &&
        c.rowsPerThread == 1)
      accurate = &c;
  ASSERT_NE(accurate, nullptr);

  Expected<DeviceBuffer> in = DeviceBuffer::allocate(gCtx, bytes, ScalarType::F32);
  ASSERT_TRUE(in.isOk()) << in.status().toString();
  Expected<DeviceBuffer> out = DeviceBuffer::allocate(gCtx, bytes, ScalarType::F32);
  ASSERT_TRUE(out.isOk()) << out.status().toString();
  // Distinct values everywhere (a hash of the element's index), uploaded in
  // 64 MiB pieces.
  {
    std::vector<float> piece(size_t(16) << 20);
    for (size_t first = 0; first < size_t(h * w); first += piece.size()) {
      size_t n = std::min(piece.size(), size_t(h * w) - first);
      for (size_t k = 0; k < n; ++k) {
        uint32_t x = uint32_t(first + k) * 2654435761u;
        piece[k] = float(x >> 8) * (1.0f / 16777216.0f);
      }
      ASSERT_OK(in->copyFromHost(piece.data(), n * 4, first * 4));
    }
  }
  std::vector<Arg> args = {Arg::memref(in->view(), {h, w}),
                           Arg::memref(out->view(), {h, w})};
  // Rows: the first, those around element 2^31, the last.
  const std::vector<std::pair<int64_t, int64_t>> rowRanges = {
      {0, 4}, {(int64_t(1) << 31) / w - 2, (int64_t(1) << 31) / w + 2},
      {h - 4, h}};
  auto runAndRead = [&](Module &m, const LaunchOptions &opts) {
    std::vector<float> got;
    EXPECT_TRUE(out->fill32(0x7fc00001).isOk());
    LaunchConfig cfg{{unsigned(w / 32), unsigned((h + 7) / 8), 1}, {32, 8, 1}, 0};
    Status s = m.launchSync("gaussian3_plain", cfg, args, opts);
    EXPECT_TRUE(s.isOk()) << s.toString();
    for (auto [r0, r1] : rowRanges) {
      std::vector<float> rows(size_t((r1 - r0) * w));
      EXPECT_TRUE(
          out->copyToHost(rows.data(), rows.size() * 4, size_t(r0 * w) * 4)
              .isOk());
      got.insert(got.end(), rows.begin(), rows.end());
    }
    return got;
  };
  std::vector<float> want = runAndRead(**direct, {});
  LaunchOptions opts;
  opts.knobs["perforation"] = accurate->schemeValue;
  opts.knobs["perforation_block"] = accurate->blockValue;
  std::vector<float> got = runAndRead(**raised, opts);
  ASSERT_EQ(got.size(), want.size());
  int64_t bad = 0;
  for (size_t k = 0; k < got.size(); ++k)
    if (std::memcmp(&got[k], &want[k], 4) != 0 && bad++ < 5)
      ADD_FAILURE() << "sampled element " << k << ": raised " << got[k]
                    << ", plain " << want[k];
  EXPECT_EQ(bad, 0);
  EXPECT_FALSE(std::isnan(want.back())) << "the plain kernel wrote nothing";
}

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const char *dir = std::getenv("APPROX_PERFORATION_KERNELS");
  if (!dir || !*dir) {
    std::printf("SKIPPED: APPROX_PERFORATION_KERNELS is not set (the "
                "directory approx-to-ptx compiled Inputs/kernels.mlir into; "
                "scripts/gpu-prepare.sh makes .carry/perforation)\n");
    return 77;
  }
  gManifest = std::string(dir) + "/perforation_check.manifest.json";
  struct stat st;
  if (::stat(gManifest.c_str(), &st) != 0) {
    std::printf("SKIPPED: %s does not exist\n", gManifest.c_str());
    return 77;
  }
  Expected<std::shared_ptr<Context>> ctx = Context::create(0);
  if (!ctx.isOk()) {
    std::printf("SKIPPED: no usable CUDA GPU: %s\n",
                ctx.status().toString().c_str());
    return ctx.status().code() == StatusCode::Unavailable ? 77 : 1;
  }
  gCtx = *ctx;
  std::printf("device: %s\n", gCtx->device().name.c_str());
  int rc = RUN_ALL_TESTS();
  gCtx.reset();
  return rc;
}
