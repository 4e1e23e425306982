//===- ManifestTest.cpp - Manifest parsing and validation -----------------===//
//
// Every validation rule of docs/manifest.md, each with a valid and an
// invalid case, on JSON built in the test.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Manifest.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace approx::rt;
using json = nlohmann::json;

namespace {

/// The example of docs/manifest.md (comments removed).
json docExample() {
  return json::parse(R"({
  "format": "approx-manifest", "version": 1, "module": "box_muller",
  "gpu_module": "kernels", "ptx": "box_muller.ptx", "chip": "sm_90",
  "slot": "hw",
  "knobs": [{ "name": "lambda", "symbol": "lambda", "type": "i32",
              "min": 0, "max": 64, "default": 0 }],
  "kernels": [
    { "name": "box_muller", "knobs": ["lambda"],
      "args": [
        { "kind": "memref", "element": "f32", "rank": 1, "shape": [-1],
          "first_param": 0, "num_params": 5 },
        { "kind": "scalar", "type": "i32", "first_param": 5, "num_params": 1 }
      ],
      "params": [
        { "arg": 0, "field": "allocated", "type": "ptr", "size": 8 },
        { "arg": 0, "field": "aligned",   "type": "ptr", "size": 8 },
        { "arg": 0, "field": "offset",    "type": "i64", "size": 8 },
        { "arg": 0, "field": "size0",     "type": "i64", "size": 8 },
        { "arg": 0, "field": "stride0",   "type": "i64", "size": 8 },
        { "arg": 1, "field": "value",     "type": "i32", "size": 4 }
      ]
    }
  ],
  "sites": [
    { "kernel": "box_muller", "op": "log", "type": "f32", "knob": "lambda",
      "loc": "examples/box_muller.mlir:12:10",
      "range_reduction": false, "newton_steps": 0, "demote_to_f32": false }
  ]
})");
}

/// Parses `j` and expects a ParseError whose message contains `needle`.
void expectError(const json &j, const std::string &needle) {
  Expected<Manifest> m = parseManifest(j.dump());
  ASSERT_FALSE(m.isOk()) << "expected failure containing: " << needle;
  EXPECT_EQ(m.status().code(), StatusCode::ParseError);
  EXPECT_NE(m.status().message().find(needle), std::string::npos)
      << "message: " << m.status().message();
}

} // namespace

TEST(Manifest, ParsesDocExample) {
  Expected<Manifest> m = parseManifest(docExample().dump(), "/x");
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(m->module, "box_muller");
  EXPECT_EQ(m->directory, "/x");
  ASSERT_EQ(m->knobs.size(), 1u);
  EXPECT_EQ(m->knobs[0].max, 64);
  const KernelInfo *k = m->findKernel("box_muller");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->args.size(), 2u);
  EXPECT_EQ(k->args[0].kind, ArgInfo::Kind::Memref);
  EXPECT_EQ(k->args[0].shape, std::vector<int64_t>{-1});
  EXPECT_EQ(k->params.size(), 6u);
  EXPECT_EQ(k->params[5].type, ScalarType::I32);
  ASSERT_EQ(m->sites.size(), 1u);
  EXPECT_EQ(m->sites[0].op, "log");
  EXPECT_EQ(m->findKernel("nope"), nullptr);
  EXPECT_NE(m->findKnob("lambda"), nullptr);
}

TEST(Manifest, LoadsTestDataFile) {
  Expected<Manifest> m =
      loadManifestFile(std::string(APPROX_RT_TEST_DATA) +
                       "/sfu_test.manifest.json");
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(m->kernels.size(), 2u);
  EXPECT_EQ(m->directory, APPROX_RT_TEST_DATA);
}

TEST(Manifest, MissingFileIsIoError) {
  Expected<Manifest> m = loadManifestFile("/nonexistent/x.manifest.json");
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().code(), StatusCode::IoError);
}

TEST(Manifest, RejectsInvalidJson) {
  Expected<Manifest> m = parseManifest("{ \"format\": ");
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().code(), StatusCode::ParseError);
  EXPECT_NE(m.status().message().find("not valid JSON"), std::string::npos);
  EXPECT_FALSE(parseManifest("[]").isOk());
  EXPECT_FALSE(parseManifest("").isOk());
}

TEST(Manifest, RejectsWrongFormatAndVersion) {
  json j = docExample();
  j["format"] = "something-else";
  expectError(j, "expected 'approx-manifest'");
  j = docExample();
  j["version"] = 2;
  expectError(j, "format version 2 is not supported");
  j = docExample();
  j.erase("version");
  expectError(j, "missing required key 'version'");
}

TEST(Manifest, RejectsMissingImage) {
  json j = docExample();
  j.erase("ptx");
  expectError(j, "neither 'ptx' nor 'cubin'");
}

TEST(Manifest, RejectsBadSlot) {
  json j = docExample();
  j["slot"] = "lane";
  expectError(j, "expected hw, virtual or software");
}

TEST(Manifest, RejectsBadKnobs) {
  json j = docExample();
  j["knobs"][0]["default"] = 65;
  expectError(j, "default 65 outside [0, 64]");
  j = docExample();
  j["knobs"][0]["min"] = 10;
  j["knobs"][0]["max"] = 5;
  expectError(j, "min 10 > max 5");
  j = docExample();
  j["knobs"][0]["type"] = "f32";
  expectError(j, "knob type must be an integer type");
  j = docExample();
  j["knobs"].push_back(j["knobs"][0]);
  expectError(j, "duplicate knob 'lambda'");
  j = docExample();
  j["knobs"][0]["max"] = "64";
  expectError(j, "knobs[0].max: expected an integer");
}

TEST(Manifest, RejectsUnknownKnobInKernel) {
  json j = docExample();
  j["kernels"][0]["knobs"] = {"mu"};
  expectError(j, "unknown knob 'mu'");
}

TEST(Manifest, RejectsBadTypesAndSizes) {
  json j = docExample();
  j["kernels"][0]["params"][5]["type"] = "u32";
  expectError(j, "unknown type 'u32'");
  j = docExample();
  j["kernels"][0]["params"][5]["size"] = 8;
  expectError(j, "size 8 does not match type i32 (4 bytes)");
  j = docExample();
  j["kernels"][0]["params"][5]["type"] = "i64";
  j["kernels"][0]["params"][5]["size"] = 8;
  expectError(j, "does not match the scalar's type i32");
}

TEST(Manifest, RejectsBadMemrefDescriptor) {
  json j = docExample();
  j["kernels"][0]["args"][0]["num_params"] = 4;
  expectError(j, "num_params: is 4, expected 5");
  j = docExample();
  j["kernels"][0]["args"][0]["rank"] = 2;
  expectError(j, "has 1 entries for rank 2");
  j = docExample();
  std::swap(j["kernels"][0]["params"][3], j["kernels"][0]["params"][4]);
  expectError(j, "field is 'stride0', expected 'size0'");
  j = docExample();
  j["kernels"][0]["params"][1]["type"] = "i64";
  expectError(j, "field 'aligned' must be ptr");
  j = docExample();
  j["kernels"][0]["args"][0]["shape"] = {-2};
  expectError(j, "expected a size >= 0 or -1");
  j = docExample();
  j["kernels"][0]["args"][0]["kind"] = "tensor";
  expectError(j, "expected \"memref\" or \"scalar\"");
}

TEST(Manifest, ReadsMemrefAccess) {
  json j = docExample();
  j["kernels"][0]["args"][0]["access"] = "readwrite";
  Expected<Manifest> m = parseManifest(j.dump(), "");
  ASSERT_TRUE(m) << m.status().message();
  EXPECT_EQ(m->kernels[0].args[0].access, "readwrite");
  j["kernels"][0]["args"][0].erase("access");
  m = parseManifest(j.dump(), "");
  ASSERT_TRUE(m) << m.status().message();
  EXPECT_EQ(m->kernels[0].args[0].access, "");
  j["kernels"][0]["args"][0]["access"] = "sometimes";
  expectError(j, "expected \"read\", \"write\", \"readwrite\" or \"none\"");
}

TEST(Manifest, RejectsParamArgMismatch) {
  json j = docExample();
  j["kernels"][0]["params"][2]["arg"] = 1;
  expectError(j, "belongs to arg 1 but lies in the range of arg 0");
  j = docExample();
  j["kernels"][0]["params"][5]["arg"] = 7;
  expectError(j, "refers to arg 7 of 2");
  j = docExample();
  j["kernels"][0]["args"][1]["first_param"] = 6;
  expectError(j, "first_param: is 6, expected 5");
  j = docExample();
  j["kernels"][0]["params"].push_back(j["kernels"][0]["params"][5]);
  expectError(j, "belong to no argument");
  j = docExample();
  j["kernels"][0]["params"].erase(5);
  expectError(j, "run past the 5 params");
}

TEST(Manifest, RejectsDuplicateKernel) {
  json j = docExample();
  j["kernels"].push_back(j["kernels"][0]);
  expectError(j, "duplicate kernel 'box_muller'");
}

TEST(Manifest, ScalarTypeHelpers) {
  EXPECT_EQ(scalarTypeSize(ScalarType::I1), 1u);
  EXPECT_EQ(scalarTypeSize(ScalarType::Index), 8u);
  EXPECT_EQ(scalarTypeSize(ScalarType::F16), 2u);
  EXPECT_STREQ(scalarTypeName(ScalarType::F64), "f64");
  EXPECT_TRUE(isFloatType(ScalarType::F16));
  EXPECT_TRUE(isIntegerType(ScalarType::Index));
  EXPECT_FALSE(isIntegerType(ScalarType::Ptr));
  EXPECT_FALSE(parseScalarType("bf16").isOk());
}
