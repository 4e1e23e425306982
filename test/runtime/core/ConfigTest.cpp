//===- ConfigTest.cpp - Configurations of a manifest's knob space ---------===//
//
// Parsing and checking configurations against the v3 test manifest
// (test/runtime/data/v3/cases.json, case "good"), their canonical text, and
// the cache key approx-build files a build under.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Config.h"
#include "approx/runtime/core/Sha256.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace approx::rt;

namespace {

Manifest good() {
  std::ifstream in(std::string(APPROX_RT_TEST_DATA) + "/v3/cases.json");
  for (const nlohmann::json &c : nlohmann::json::parse(in))
    if (c["name"] == "good") {
      Expected<Manifest> m = parseManifest(c["manifest"].dump());
      EXPECT_TRUE(m.isOk()) << m.status().toString();
      return *m;
    }
  ADD_FAILURE() << "no case 'good'";
  return Manifest();
}

TEST(Config, ParsesIdsAndOrdinals) {
  Manifest m = good();
  Expected<Config> c = parseConfig(m, "lambda=12,perforation=rows1:nn");
  ASSERT_TRUE(c.isOk()) << c.status().toString();
  EXPECT_EQ(c->valueOf(m, "lambda"), 12);
  EXPECT_EQ(c->valueOf(m, "perforation"), 1);
  EXPECT_EQ(c->valueOf(m, "storage__blur__a0"), 0); // the default
  EXPECT_TRUE(checkConfig(m, *c).isOk());
  EXPECT_EQ(configText(m, *c),
            "lambda=12,perforation=rows1:nn,storage__blur__a0=f32");
  EXPECT_EQ(buildConfigText(m, *c), "storage__blur__a0=f32");
}

TEST(Config, RefusesWhatIsOutsideTheSpace) {
  Manifest m = good();
  auto error = [&](const std::string &text) {
    Expected<Config> c = parseConfig(m, text);
    return c.isOk() ? std::string() : c.status().message();
  };
  EXPECT_NE(error("nope=1").find("unknown knob 'nope'"), std::string::npos);
  EXPECT_NE(error("lambda=65").find("lies outside [0, 64]"), std::string::npos);
  EXPECT_NE(error("lambda=x").find("is not an integer value"),
            std::string::npos);
  EXPECT_NE(error("perforation=rows9:nn")
                .find("'rows9:nn' is not a value of knob 'perforation' "
                      "(accurate, rows1:nn, stencil:nn)"),
            std::string::npos);
  EXPECT_NE(error("lambda=1,lambda=2").find("twice"), std::string::npos);
  EXPECT_NE(error("lambda").find("is not KNOB=VALUE"), std::string::npos);
}

TEST(Config, ConstraintsHold) {
  Manifest m = good();
  // stencil:nn needs storage__blur__a0 at f32.
  Expected<Config> ok = parseConfig(m, "perforation=stencil:nn");
  ASSERT_TRUE(ok.isOk());
  EXPECT_TRUE(checkConfig(m, *ok).isOk());
  Expected<Config> bad =
      parseConfig(m, "perforation=stencil:nn,storage__blur__a0=f16");
  ASSERT_TRUE(bad.isOk());
  Status s = checkConfig(m, *bad);
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("perforation=stencil:nn needs storage__blur__a0 "
                             "in (f32), not f16"),
            std::string::npos)
      << s.message();
}

TEST(Config, BuildsAndTheirCacheKeys) {
  Manifest m = good();
  Expected<Config> f32 = parseConfig(m, "lambda=3");
  Expected<Config> f16 = parseConfig(m, "storage__blur__a0=f16");
  ASSERT_TRUE(f32.isOk() && f16.isOk());
  EXPECT_TRUE(isBuiltFor(m, *f32)); // built with f32
  EXPECT_FALSE(isBuiltFor(m, *f16));
  // approx-build's key: sha256(recipe id + "\n" + the build knobs' text).
  ConfigCache cache("/nonexistent");
  Expected<std::string> key = cache.key(m, *f16);
  ASSERT_TRUE(key.isOk());
  EXPECT_EQ(*key, sha256Hex(std::string(64, '0') + "\nstorage__blur__a0=f16"));
  Expected<std::string> missing = cache.find(m, *f16);
  ASSERT_FALSE(missing.isOk());
  EXPECT_NE(missing.status().message().find("is not built"), std::string::npos);
  // A cache holding the build: its manifest file.
  char dir[] = "/tmp/approx-config-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  std::string keyDir = std::string(dir) + "/" + *key;
  ASSERT_EQ(::mkdir(keyDir.c_str(), 0755), 0);
  std::ofstream(keyDir + "/space.manifest.json") << "{}";
  Expected<std::string> found = ConfigCache(dir).find(m, *f16);
  ASSERT_TRUE(found.isOk()) << found.status().toString();
  EXPECT_EQ(*found, keyDir + "/space.manifest.json");
  std::remove((keyDir + "/space.manifest.json").c_str());
  ::rmdir(keyDir.c_str());
  ::rmdir(dir);
  // A manifest without a recipe was not built by approx-build.
  m.recipeId.clear();
  EXPECT_FALSE(cache.key(m, *f16).isOk());
}

} // namespace

TEST(Config, PreciseConfigPicksTheExactValues) {
  Manifest m = good();
  // Defaults that approximate: preciseConfig must not take them.
  for (KnobInfo &k : m.knobs) {
    if (k.name == "lambda")
      k.defaultValue = 5;
    if (k.name == "perforation")
      k.defaultValue = 1; // rows1:nn
  }
  Config c = preciseConfig(m);
  EXPECT_EQ(configText(m, c),
            "lambda=0,perforation=accurate,storage__blur__a0=f32");
  EXPECT_TRUE(checkConfig(m, c).isOk());
  EXPECT_TRUE(isBuiltFor(m, c)); // build knobs as built
  // A categorical knob with no exact value (a block shape) keeps its
  // default; an ordinal knob whose range excludes 0 takes its min.
  for (KnobInfo &k : m.knobs)
    if (k.name == "perforation")
      for (KnobValue &v : k.domain.values)
        if (v.payload.scheme == "accurate")
          v.payload.scheme = "rows";
  for (KnobInfo &k : m.knobs)
    if (k.name == "lambda")
      k.min = 3;
  c = preciseConfig(m);
  EXPECT_EQ(c.valueOf(m, "perforation"), 1);
  EXPECT_EQ(c.valueOf(m, "lambda"), 3);
}
