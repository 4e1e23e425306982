//===- PolybenchGpuTest.cpp - The PolyBench/GPU apps on a GPU ------------===//
//
// Every application of examples/precision/polybench at its tiny size, with
// the Default, Random and Image input sets, through the generic runner
// (Runner.h) on the compiled PTX, against the CPU reference in f64: mean
// relative error <= 1e-12 and no element off by more than 1e-9 (Apps.h's
// guarded relative error; the GPU fuses multiply-adds, the reference does
// not). Also checks the launch count and the bytes moved. The PTX comes
// from $APPROX_POLYBENCH_PTX, else the build's directory (compiler build)
// or .carry/polybench (runtime-only build, scripts/gpu-prepare.sh). Exits 77
// with the reason when there is no GPU or no PTX. ctest runs one app per
// entry: gpu.polybench.<id>.
//
//===----------------------------------------------------------------------===//
#include "Apps.h"
#include "Runner.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>

using namespace approx::polybench;
namespace rt = approx::rt;

namespace {

std::shared_ptr<rt::Context> gCtx;
std::string gPtxDir;

class Tiny : public ::testing::TestWithParam<std::string> {};

TEST_P(Tiny, MatchesTheCpuReference) {
  const App *app = findApp(GetParam());
  ASSERT_NE(app, nullptr);
  const Sizes &s = app->tiny;
  rt::Expected<std::unique_ptr<Runner>> runner =
      Runner::load(gCtx, *app, gPtxDir);
  ASSERT_TRUE(runner.isOk()) << runner.status().toString();
  GrayImage img = syntheticImage(61, 83);
  for (InputSet set : {InputSet::Default, InputSet::Random, InputSet::Image}) {
    SCOPED_TRACE(std::string("input ") + inputSetName(set));
    Buffers in, out;
    std::string err;
    ASSERT_TRUE(makeInputs(*app, s, InputSpec{set, 3, &img}, in, err)) << err;
    RunTimes t;
    rt::Status st = (*runner)->run(s, in, out, t);
    ASSERT_TRUE(st.isOk()) << st.toString();
    int64_t launches = 0;
    uint64_t h2d = 0, d2h = 0;
    for (const PhaseSpec &p : app->phases)
      launches += int64_t(p.launches.size()) *
                  (p.loopVar.empty() ? 1 : p.end(s) - p.begin(s));
    for (size_t i = 0; i < app->objects.size(); ++i) {
      h2d += app->objects[i].toDevice ? in[i].size() * 8 : 0;
      d2h += app->objects[i].fromDevice ? in[i].size() * 8 : 0;
    }
    EXPECT_EQ(t.launches, launches);
    EXPECT_EQ(t.h2dBytes, h2d);
    EXPECT_EQ(t.d2hBytes, d2h);
    EXPECT_GT(t.kernelMs, 0.0);
    EXPECT_GE(t.totalMs, t.kernelMs);

    Buffers ref = in;
    app->reference(s, ref);
    for (size_t i = 0; i < app->objects.size(); ++i) {
      if (!app->objects[i].fromDevice) {
        EXPECT_TRUE(out[i].empty());
        continue;
      }
      SCOPED_TRACE(app->objects[i].name);
      ASSERT_EQ(out[i].size(), ref[i].size());
      ErrorStats e =
          relativeErrors(out[i].data(), ref[i].data(), int64_t(ref[i].size()));
      EXPECT_EQ(e.nonFinite, 0);
      EXPECT_LE(e.mean(), 1e-12);
      EXPECT_LE(e.maxRel, 1e-9);
      // The output is not the input left as it was: the kernels ran.
      if (app->objects[i].role != Role::In) {
        EXPECT_NE(ref[i], in[i]);
      }
    }
  }
}

std::vector<std::string> ids() {
  std::vector<std::string> v;
  for (const App &a : apps())
    v.push_back(a.id);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Apps, Tiny, ::testing::ValuesIn(ids()),
                         [](const ::testing::TestParamInfo<std::string> &i) {
                           return "app" + i.param;
                         });

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  gPtxDir = APPROX_POLYBENCH_PTX_DIR;
  if (const char *e = std::getenv("APPROX_POLYBENCH_PTX"))
    gPtxDir = e;
  struct stat st;
  if (stat((gPtxDir + "/gemm.manifest.json").c_str(), &st) != 0) {
    std::printf("SKIPPED: no compiled PolyBench kernels in %s (build with the "
                "compiler, or run scripts/gpu-prepare.sh and carry "
                ".carry/polybench, or set APPROX_POLYBENCH_PTX)\n",
                gPtxDir.c_str());
    return 77;
  }
  if (rt::Status s = rt::probeDriver(); !s) {
    std::printf("SKIPPED: %s\n", s.message().c_str());
    return 77;
  }
  rt::Expected<std::shared_ptr<rt::Context>> ctx = rt::Context::create();
  if (!ctx) {
    std::printf("SKIPPED: %s\n", ctx.status().toString().c_str());
    return ctx.status().code() == rt::StatusCode::Unavailable ? 77 : 1;
  }
  gCtx = *ctx;
  int rc = RUN_ALL_TESTS();
  gCtx.reset();
  return rc;
}
