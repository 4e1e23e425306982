//===- PtxAbiTest.cpp - Hand-written manifests match their PTX ------------===//
//
// The GPU tests' manifests are written by hand next to nvcc-built PTX; a
// parameter missing or of the wrong size would only show on a GPU, as a
// crash or garbage. Here the fake driver loads each pair and every kernel's
// `.param` sizes are compared with the manifest's `params`, and every knob
// symbol with its type. features.ptx exists when nvcc built it;
// texture3d/lut3.ptx is hand-written.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"

#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Runtime.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

using namespace approx::rt;
using approx::rt::fake::FakeDriver;

namespace {

void checkPair(const std::string &dir, const std::string &name) {
  FakeDriver &f = FakeDriver::get();
  f.reset();
  std::shared_ptr<Context> ctx = *detail::createContext(f.table(), 0);
  Expected<std::unique_ptr<Module>> m =
      Module::load(ctx, dir + "/" + name + ".manifest.json");
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  ASSERT_EQ(f.liveModules(), 1u);
  fake::FakeModule *fm = *f.modules_.begin();
  for (const KernelInfo &k : (*m)->manifest().kernels) {
    const auto &fn = fm->functions.at(k.name); // load checked it exists
    ASSERT_EQ(fn->paramSizes.size(), k.params.size()) << k.name;
    for (size_t i = 0; i < k.params.size(); ++i)
      EXPECT_EQ(fn->paramSizes[i], k.params[i].size)
          << k.name << " parameter " << i << " (" << k.params[i].field << ")";
  }
  for (const KnobInfo &k : (*m)->manifest().knobs) {
    if (k.hasSymbol()) {
      EXPECT_EQ(fm->globals.at(k.symbol).size(), scalarTypeSize(k.type))
          << k.symbol;
    }
  }
  m->reset();
  ctx.reset();
}

} // namespace

TEST(PtxAbi, SfuTestManifestMatchesItsPtx) {
  checkPair(APPROX_RT_TEST_DATA, "sfu_test");
}

TEST(PtxAbi, FeaturesManifestMatchesItsPtx) {
  struct stat st;
  std::string dir = APPROX_RT_GPU_DATA;
  if (::stat((dir + "/features.ptx").c_str(), &st) != 0)
    GTEST_SKIP() << "features.ptx was not built (no nvcc)";
  checkPair(dir, "features");
}

TEST(PtxAbi, Texture3DManifestMatchesItsPtx) {
  checkPair(std::string(APPROX_RT_TEST_DATA) + "/texture3d", "lut3");
}
