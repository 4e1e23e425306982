//===- ManifestV3Test.cpp - The version-3 knob space ----------------------===//
//
// The reader against test/runtime/data/v3/cases.json, the cases the schema
// test (test/Docs/manifest-schema.test) also runs: every valid case parses,
// every invalid one fails with its one-line message. Then the typed fields
// of the valid case, and version 2's derived domains.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Sha256.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

using namespace approx::rt;
using json = nlohmann::json;

namespace {

json cases() {
  std::ifstream in(std::string(APPROX_RT_TEST_DATA) + "/v3/cases.json");
  return json::parse(in);
}

json caseNamed(const std::string &name) {
  for (const json &c : cases())
    if (c["name"] == name)
      return c["manifest"];
  ADD_FAILURE() << "no case " << name;
  return json::object();
}

TEST(ManifestV3, EveryCase) {
  json all = cases();
  ASSERT_GT(all.size(), 20u);
  for (const json &c : all) {
    std::string name = c["name"];
    Expected<Manifest> m = parseManifest(c["manifest"].dump());
    if (c["valid"].get<bool>()) {
      EXPECT_TRUE(m.isOk()) << name << ": " << m.status().toString();
      continue;
    }
    ASSERT_FALSE(m.isOk()) << name << ": parsed, expected an error";
    std::string error = m.status().message();
    EXPECT_NE(error.find(c["error"].get<std::string>()), std::string::npos)
        << name << ": got '" << error << "'";
    EXPECT_EQ(error.find('\n'), std::string::npos) << name << ": not one line";
  }
}

TEST(ManifestV3, TypedSpace) {
  Expected<Manifest> m = parseManifest(caseNamed("good").dump());
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(m->version, 3);
  const KnobInfo *lambda = m->findKnob("lambda");
  ASSERT_NE(lambda, nullptr);
  EXPECT_EQ(lambda->domain.kind, DomainKind::Ordinal);
  EXPECT_EQ(lambda->technique, "sfu");
  EXPECT_EQ(lambda->governsKernels, std::vector<std::string>{"blur"});
  EXPECT_EQ(lambda->valueOf("12"), 12);
  EXPECT_FALSE(lambda->valueOf("65").has_value());

  const KnobInfo *scheme = m->findKnob("perforation");
  ASSERT_NE(scheme, nullptr);
  ASSERT_EQ(scheme->domain.kind, DomainKind::Categorical);
  ASSERT_EQ(scheme->domain.values.size(), 3u);
  const Payload &rows = scheme->domain.values[1].payload;
  EXPECT_EQ(rows.type, Payload::Type::PerforationScheme);
  EXPECT_EQ(rows.scheme, "rows");
  EXPECT_EQ(rows.skip, 1);
  EXPECT_EQ(rows.reconstruction, "nn");
  EXPECT_EQ(scheme->valueOf("stencil:nn"), 2);
  EXPECT_EQ(scheme->valueId(1), "rows1:nn");
  ASSERT_EQ(scheme->constraints.size(), 1u);
  EXPECT_EQ(scheme->constraints[0].knob, "storage__blur__a0");
  EXPECT_EQ(scheme->constraints[0].values, std::vector<std::string>{"f32"});

  const KnobInfo *storage = m->findKnob("storage__blur__a0");
  ASSERT_NE(storage, nullptr);
  EXPECT_EQ(storage->kind, KnobKind::Build);
  EXPECT_FALSE(storage->hasSymbol());
  EXPECT_EQ(storage->domain.kind, DomainKind::Storage);
  EXPECT_EQ(storage->domain.objectKernel, "blur");
  EXPECT_EQ(storage->domain.objectArg, 0u);
  EXPECT_EQ(storage->domain.values[1].payload.storage, ScalarType::F16);
  EXPECT_EQ(m->configuration.at("storage__blur__a0"), "f32");
  EXPECT_EQ(storage->builtValue, 0);
  EXPECT_EQ(m->recipeId, std::string(64, '0'));

  ASSERT_EQ(m->sites.size(), 2u);
  ASSERT_EQ(m->sites[1].schemes.size(), 3u);
  EXPECT_EQ(m->sites[1].schemes[2].scheme, "stencil");
}

TEST(ManifestV3, MemoryObjectOfSeveralArguments) {
  Expected<Manifest> m = parseManifest(caseNamed("storage-object-also").dump());
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  const KnobInfo *storage = m->findKnob("storage__blur__a0");
  ASSERT_NE(storage, nullptr);
  EXPECT_EQ(storage->domain.objectName, "img");
  ASSERT_EQ(storage->domain.objectAlso.size(), 1u);
  EXPECT_EQ(storage->domain.objectAlso[0].first, "blur");
  EXPECT_EQ(storage->domain.objectAlso[0].second, 1u);
}

TEST(ManifestV3, BuildKnobAndConfigurationAreVersion3) {
  json j = caseNamed("good");
  j["version"] = 2;
  Expected<Manifest> m = parseManifest(j.dump());
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("version 3"), std::string::npos)
      << m.status().message();
}

TEST(ManifestV3, Version2DomainsAreDerived) {
  Expected<Manifest> m = loadManifestFile(std::string(APPROX_RT_TEST_DATA) +
                                          "/sfu_test.manifest.json");
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(m->version, 2);
  for (const KnobInfo &k : m->knobs) {
    if (k.kind == KnobKind::Global)
      EXPECT_EQ(k.domain.kind, DomainKind::Ordinal) << k.name;
    else
      EXPECT_EQ(k.domain.values.size(), size_t(k.max - k.min + 1)) << k.name;
  }
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca4"
                           "95991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9c"
                              "b410ff61f20015ad");
  // Two blocks (56 bytes: the padding spills into a second block).
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

} // namespace
