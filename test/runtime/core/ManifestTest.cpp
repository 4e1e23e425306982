//===- ManifestTest.cpp - Manifest v2 parsing and validation --------------===//
//
// Every validation rule of docs/manifest.md, each with a valid and an
// invalid case, on JSON built in the test from the document's own example;
// plus the v2 test data file, image path resolution and file checks.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Base64.h"
#include "approx/runtime/core/Manifest.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace approx::rt;
using json = nlohmann::json;

namespace {

/// The example of docs/manifest.md. The document's kernel lists sites
/// [0, 1, 2, 3] while its `sites` array shows one site; the example is
/// abbreviated there, so here the kernel lists the one site shown.
json docExample() {
  return json::parse(R"json({
  "format": "approx-manifest",
  "version": 2,
  "producer": "approx-opt 0.2.0",
  "module": "box_muller",
  "gpu_module": "kernels",
  "ptx": "box_muller.ptx",
  "cubin": "box_muller.cubin",
  "chip": "sm_90",
  "knobs": [
    { "name": "lambda", "kind": "global", "symbol": "lambda", "type": "i32",
      "path": "global", "min": 0, "max": 64, "default": 0,
      "warp_slot": "hw" }
  ],
  "kernels": [
    { "name": "box_muller_gpu",
      "knobs": ["lambda"],
      "sites": [0],
      "args": [
        { "kind": "memref", "element": "f32", "rank": 1, "shape": [-1],
          "abi": "descriptor", "access": "readwrite",
          "first_param": 0, "num_params": 5 },
        { "kind": "scalar", "type": "i64", "first_param": 5, "num_params": 1 },
        { "kind": "scalar", "type": "i64", "first_param": 6, "num_params": 1 }
      ],
      "params": [
        { "arg": 0, "field": "allocated", "type": "ptr", "size": 8 },
        { "arg": 0, "field": "aligned",   "type": "ptr", "size": 8 },
        { "arg": 0, "field": "offset",    "type": "i64", "size": 8 },
        { "arg": 0, "field": "size0",     "type": "i64", "size": 8 },
        { "arg": 0, "field": "stride0",   "type": "i64", "size": 8 },
        { "arg": 1, "field": "value",     "type": "i64", "size": 8 },
        { "arg": 2, "field": "value",     "type": "i64", "size": 8 }
      ]
    }
  ],
  "sites": [
    { "technique": "sfu", "function": "box_muller_gpu",
      "kernels": ["box_muller_gpu"], "knob": "lambda",
      "op": "log", "type": "f32", "form": "tunable",
      "loc": "examples/box_muller.mlir:10:12 (inlined at examples/box_muller.mlir:42:18)",
      "data": { "sfu": "lg2.approx.ftz.f32, mul.f32", "versioning": "region",
                "range_reduction": false, "newton_steps": 0,
                "demote_to_f32": false } }
  ]
})json");
}

json knobParam(const char *knob, const char *type, int64_t size) {
  return {{"field", "knob"}, {"knob", knob}, {"type", type}, {"size", size}};
}

/// A kernel `name` taking one scalar of `type` (param type `ptype`).
json scalarKernel(const std::string &name, const std::string &type,
                  const std::string &ptype, int64_t size) {
  return {{"name", name},
          {"args",
           {{{"kind", "scalar"}, {"type", type}, {"first_param", 0},
             {"num_params", 1}}}},
          {"params",
           {{{"arg", 0}, {"field", "value"}, {"type", ptype}, {"size", size}}}}};
}

/// little-endian f32 bytes of `v`, base64-encoded.
std::string floatsBase64(const std::vector<float> &v) {
  std::vector<uint8_t> b(v.size() * 4);
  for (size_t i = 0; i < v.size(); ++i) {
    uint32_t bits;
    std::memcpy(&bits, &v[i], 4);
    for (int k = 0; k < 4; ++k)
      b[i * 4 + k] = uint8_t(bits >> (8 * k));
  }
  return encodeBase64(b);
}

/// A resource knob `table` with two 2x1 single-channel tables.
json resourceKnob() {
  return {{"name", "table"},
          {"kind", "resource"},
          {"symbol", "table_tex"},
          {"type", "i64"},
          {"path", "global"},
          {"min", 0},
          {"max", 1},
          {"default", 0},
          {"resource",
           {{"type", "texture_2d"},
            {"filter", "linear"},
            {"address", "clamp"},
            {"normalized_coords", false},
            {"options",
             {{{"width", 2},
               {"height", 1},
               {"channels", 1},
               {"element", "f32"},
               {"data", floatsBase64({1.0f, 2.0f})}},
              {{"width", 2},
               {"height", 1},
               {"channels", 1},
               {"element", "f32"},
               {"data", floatsBase64({-0.5f, 1e30f})}}}}}}};
}

/// The doc example plus a variant knob `prec` dispatching logical kernel
/// `box_muller` to box_muller_gpu (0) or box_muller_f32 (1), a copy of
/// box_muller_gpu.
json withVariant() {
  json j = docExample();
  json k2 = j["kernels"][0];
  k2["name"] = "box_muller_f32";
  k2["sites"] = json::array();
  k2["knobs"] = {"lambda", "prec"};
  j["kernels"][0]["knobs"].push_back("prec");
  j["kernels"].push_back(k2);
  j["knobs"].push_back({{"name", "prec"},
                        {"kind", "variant"},
                        {"min", 0},
                        {"max", 1},
                        {"default", 0},
                        {"dispatch",
                         {{{"kernel", "box_muller"},
                           {"variants", {"box_muller_gpu", "box_muller_f32"}}}}}});
  return j;
}

/// The doc example with `lambda` on path "param" (one trailing parameter).
json withParamKnob() {
  json j = docExample();
  j["knobs"][0]["path"] = "param";
  j["kernels"][0]["params"].push_back(knobParam("lambda", "i32", 4));
  return j;
}

Expected<Manifest> parse(const json &j) { return parseManifest(j.dump()); }

/// Parses `j` and expects a ParseError whose message contains `needle`.
void expectError(const json &j, const std::string &needle) {
  Expected<Manifest> m = parse(j);
  ASSERT_FALSE(m.isOk()) << "expected failure containing: " << needle;
  EXPECT_EQ(m.status().code(), StatusCode::ParseError);
  EXPECT_NE(m.status().message().find(needle), std::string::npos)
      << "message: " << m.status().message();
  EXPECT_EQ(m.status().message().find('\n'), std::string::npos)
      << "not one line: " << m.status().message();
  EXPECT_EQ(m.status().message().rfind("manifest: ", 0), 0u)
      << m.status().message();
}

void expectOk(const json &j) {
  Expected<Manifest> m = parse(j);
  EXPECT_TRUE(m.isOk()) << m.status().toString();
}

/// A scratch directory removed at the end of the test.
class TempDir {
public:
  TempDir() {
    char tmpl[] = "/tmp/approx-manifest-test-XXXXXX";
    char *d = ::mkdtemp(tmpl);
    EXPECT_NE(d, nullptr);
    path_ = d ? d : "/tmp";
  }
  ~TempDir() {
    std::string cmd = "rm -rf '" + path_ + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
  }
  const std::string &path() const { return path_; }
  std::string write(const std::string &name, const std::string &text) const {
    std::string p = path_ + "/" + name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }

private:
  std::string path_;
};

} // namespace

//===----------------------------------------------------------------------===//
// The whole document
//===----------------------------------------------------------------------===//

TEST(Manifest, ParsesDocExample) {
  Expected<Manifest> m = parseManifest(docExample().dump(), "/x");
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(m->version, 2);
  EXPECT_EQ(m->producer, "approx-opt 0.2.0");
  EXPECT_EQ(m->module, "box_muller");
  EXPECT_EQ(m->gpuModule, "kernels");
  EXPECT_EQ(m->ptx, "box_muller.ptx");
  EXPECT_EQ(m->cubin, "box_muller.cubin");
  EXPECT_EQ(m->chip, "sm_90");
  EXPECT_EQ(m->directory, "/x");
  ASSERT_EQ(m->knobs.size(), 1u);
  const KnobInfo &k = m->knobs[0];
  EXPECT_EQ(k.kind, KnobKind::Global);
  EXPECT_EQ(k.symbol, "lambda");
  EXPECT_EQ(k.type, ScalarType::I32);
  EXPECT_EQ(k.path, KnobPath::Global);
  EXPECT_EQ(k.warpSlot, WarpSlot::Hw);
  EXPECT_EQ(k.max, 64);
  EXPECT_FALSE(k.isParam());
  const KernelInfo *kern = m->findKernel("box_muller_gpu");
  ASSERT_NE(kern, nullptr);
  EXPECT_EQ(kern->sites, std::vector<size_t>{0});
  ASSERT_EQ(kern->args.size(), 3u);
  EXPECT_EQ(kern->args[0].kind, ArgInfo::Kind::Memref);
  EXPECT_EQ(kern->args[0].abi, ArgInfo::Abi::Descriptor);
  EXPECT_EQ(kern->args[0].access, ArgInfo::Access::ReadWrite);
  EXPECT_EQ(kern->args[0].shape, std::vector<int64_t>{-1});
  EXPECT_EQ(kern->params.size(), 7u);
  EXPECT_EQ(kern->params[6].type, ValueType(ScalarType::I64));
  ASSERT_EQ(m->sites.size(), 1u);
  const SiteInfo &s = m->sites[0];
  EXPECT_EQ(s.technique, "sfu");
  EXPECT_EQ(s.function, "box_muller_gpu");
  EXPECT_EQ(s.kernels, std::vector<std::string>{"box_muller_gpu"});
  EXPECT_EQ(s.form, "tunable");
  EXPECT_EQ(s.op, "log");
  EXPECT_NE(s.loc.find("inlined at"), std::string::npos);
  // `data` is kept as JSON text for display.
  EXPECT_EQ(json::parse(s.data)["versioning"], "region");
  EXPECT_EQ(m->findKernel("nope"), nullptr);
  EXPECT_NE(m->findKnob("lambda"), nullptr);
}

TEST(Manifest, DocExampleAsPrintedListsSitesItDoesNotShow) {
  // docs/manifest.md's kernel lists sites [0, 1, 2, 3] with one site shown:
  // an index past the sites array is an error.
  json j = docExample();
  j["kernels"][0]["sites"] = {0, 1, 2, 3};
  expectError(j, "kernels[0].sites[1]: 1 is out of range [0, 1)");
}

TEST(Manifest, LoadsTestDataFile) {
  Expected<Manifest> m =
      loadManifestFile(std::string(APPROX_RT_TEST_DATA) +
                       "/sfu_test.manifest.json");
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(m->kernels.size(), 2u);
  EXPECT_EQ(m->sites.size(), 5u);
  EXPECT_EQ(m->directory, APPROX_RT_TEST_DATA);
  EXPECT_EQ(m->knobs[0].warpSlot, WarpSlot::Hw);
  EXPECT_EQ(m->findKernel("sin_exp")->args[1].access, ArgInfo::Access::Write);
  EXPECT_EQ(m->findKernel("rounds_inplace")->sites,
            (std::vector<size_t>{2, 3, 4}));
}

TEST(Manifest, UnknownKeysAreIgnored) {
  json j = docExample();
  j["future_key"] = {{"anything", 1}};
  j["knobs"][0]["color"] = "blue";
  j["kernels"][0]["args"][0]["hint"] = 3.5;
  j["sites"][0]["extra"] = json::array();
  expectOk(j);
}

//===----------------------------------------------------------------------===//
// Top level, version, integers, strings
//===----------------------------------------------------------------------===//

TEST(Manifest, RejectsInvalidJson) {
  Expected<Manifest> m = parseManifest("{ \"format\": ");
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().code(), StatusCode::ParseError);
  EXPECT_NE(m.status().message().find("not valid JSON"), std::string::npos);
  EXPECT_FALSE(parseManifest("[]").isOk());
  EXPECT_FALSE(parseManifest("").isOk());
  EXPECT_FALSE(parseManifest("42").isOk());
}

TEST(Manifest, InvalidJsonMessageStaysShort) {
  // An unterminated 80 KB string: the parser's "last read" echo is cut.
  Expected<Manifest> m =
      parseManifest("{ \"format\": \"" + std::string(80000, 'z'));
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("missing closing quote"),
            std::string::npos);
  EXPECT_LT(m.status().message().size(), 400u);
}

TEST(Manifest, Version1GetsTheDocumentedMessage) {
  json j = docExample();
  j["version"] = 1;
  Expected<Manifest> m = parse(j);
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().message(),
            "manifest: version: format version 1 is no longer read (this "
            "runtime reads versions 2 and 3); recompile with approx-opt");
}

TEST(Manifest, OtherVersionsAreRefusedWithoutWrapping) {
  json j = docExample();
  j["version"] = 4;
  expectError(j, "version: format version 4 is newer than this runtime reads");
  // 2^32 + 1 and 2^32 + 2 would be 1 and 2 after a 32-bit wrap.
  j["version"] = 4294967297ull;
  expectError(j, "version: format version 4294967297 is newer than this");
  j["version"] = 4294967298ull;
  expectError(j, "format version 4294967298 is newer than this");
  j["version"] = 18446744073709551615ull;
  expectError(j, "format version 18446744073709551615 is newer than this");
  j["version"] = -2;
  expectError(j, "format version -2 is not supported");
  j["version"] = 2.0;
  expectError(j, "version: expected an integer");
  j["version"] = "2";
  expectError(j, "version: expected an integer");
  j.erase("version");
  expectError(j, "<root>: missing required key 'version'");
}

TEST(Manifest, RejectsWrongFormat) {
  json j = docExample();
  j["format"] = "something-else";
  expectError(j, "format: is 'something-else', expected 'approx-manifest'");
}

TEST(Manifest, TopLevelKeys) {
  json j = docExample();
  j.erase("ptx");
  expectOk(j); // the cubin alone is enough
  j.erase("cubin");
  expectError(j, "neither 'ptx' nor 'cubin' is given");
  j = docExample();
  j["ptx"] = "";
  expectError(j, "ptx: is empty");
  j = docExample();
  j["module"] = "";
  expectError(j, "module: is empty");
  j = docExample();
  j.erase("module");
  expectError(j, "missing required key 'module'");
  j = docExample();
  j.erase("kernels");
  expectError(j, "missing required key 'kernels'");
  j = docExample();
  j["kernels"] = json::object();
  expectError(j, "kernels: expected an array");
  j = docExample();
  j.erase("producer");
  j.erase("gpu_module");
  j.erase("chip");
  expectOk(j);
  j = docExample();
  j["producer"] = 7;
  expectError(j, "producer: expected a string");
}

TEST(Manifest, IntegersAreRangeCheckedNeverWrapped) {
  json j = docExample();
  // uint64 encodings above int64's range.
  j["knobs"][0]["max"] = 18446744073709551615ull;
  expectError(j, "knobs[0].max: 18446744073709551615 is out of range");
  j = docExample();
  j["knobs"][0]["max"] = 9223372036854775808ull;
  expectError(j, "knobs[0].max: 9223372036854775808 is out of range");
  // Fits int64 but not the knob's i32.
  j = docExample();
  j["knobs"][0]["max"] = 4294967296ll;
  expectError(j, "knobs[0].max: 4294967296 is out of range [-2147483648, "
                 "2147483647]");
  // Fields with their own ranges.
  j = docExample();
  j["kernels"][0]["args"][0]["rank"] = 33;
  expectError(j, "args[0].rank: 33 is out of range [0, 32]");
  j = docExample();
  j["kernels"][0]["args"][1]["first_param"] = 4294967301ll;
  expectError(j, "args[1].first_param: 4294967301 is out of range [0, 7]");
  j = docExample();
  j["kernels"][0]["params"][5]["size"] = 4294967304ll;
  expectError(j, "params[5].size: 4294967304 is out of range [1, 32764]");
  j = docExample();
  j["kernels"][0]["params"][5]["arg"] = -1;
  expectError(j, "params[5].arg: -1 is out of range [0, 2]");
  j = docExample();
  j["kernels"][0]["args"][0]["shape"] = {-2};
  expectError(j, "shape[0]: -2 is out of range [-1, 9223372036854775807]");
  j = docExample();
  j["kernels"][0]["args"][0]["shape"] = {9223372036854775807ll};
  expectOk(j); // a size is an i64 in the descriptor
  j["kernels"][0]["args"][0]["shape"] = {9223372036854775808ull};
  expectError(j, "shape[0]: 9223372036854775808 is out of range");
  j = docExample();
  j["knobs"][0]["min"] = 0.5;
  expectError(j, "knobs[0].min: expected an integer");
}

TEST(Manifest, StringsWithNulAreRefused) {
  json j = docExample();
  j["module"] = std::string("box\0muller", 10);
  expectError(j, "module: the string 'box\\x00muller' contains a NUL");
}

TEST(Manifest, DeepNestingIsRefusedBeforeParsing) {
  json j = docExample();
  std::string text = j.dump();
  std::string deep(100, '[');
  deep += std::string(100, ']');
  text.insert(text.size() - 1, ",\"x\":" + deep);
  Expected<Manifest> m = parseManifest(text);
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("nested deeper than 64 levels"),
            std::string::npos);
  // Brackets inside strings do not count.
  j["loc_note"] = std::string(100, '[');
  expectOk(j);
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

TEST(Manifest, NamesArePtxIdentifiers) {
  for (const char *good : {"k", "K9_$", "_k", "$k", "%k", "_0"}) {
    json j = docExample();
    j["kernels"][0]["name"] = good;
    j["sites"][0]["kernels"] = {good};
    expectOk(j);
  }
  for (const char *bad : {"9k", "_", "%", "$", "k-1", "k.1", "", "k 1"}) {
    json j = docExample();
    j["kernels"][0]["name"] = bad;
    expectError(j, "kernels[0].name: '" + std::string(bad) +
                       "' is not a PTX identifier");
  }
  json j = docExample();
  j["knobs"][0]["name"] = "lam\nbda";
  expectError(j, "knobs[0].name: 'lam\\x0abda' is not a PTX identifier");
  j = docExample();
  j["knobs"][0]["symbol"] = "lambda!";
  expectError(j, "knobs[0].symbol: 'lambda!' is not a PTX identifier");
  // Length: 1024 characters is the limit.
  j = docExample();
  std::string longName(1024, 'k');
  j["kernels"][0]["name"] = longName;
  j["sites"][0]["kernels"] = {longName};
  expectOk(j);
  j["kernels"][0]["name"] = longName + "k";
  expectError(j, "kernels[0].name: 'kkkk");
}

TEST(Manifest, DuplicatesAreRefused) {
  json j = docExample();
  j["kernels"].push_back(j["kernels"][0]);
  expectError(j, "kernels[1].name: duplicate kernel 'box_muller_gpu'");
  j = docExample();
  j["knobs"].push_back(j["knobs"][0]);
  expectError(j, "knobs[1].name: duplicate knob 'lambda'");
  j = docExample();
  json k2 = j["knobs"][0];
  k2["name"] = "mu";
  j["knobs"].push_back(k2);
  expectError(j, "knobs[1].symbol: 'lambda' is also the symbol of knob "
                 "'lambda'");
  j = docExample();
  j["kernels"][0]["knobs"] = {"lambda", "lambda"};
  expectError(j, "kernels[0].knobs[1]: knob 'lambda' is listed twice");
  j = docExample();
  j["kernels"][0]["sites"] = {0, 0};
  expectError(j, "kernels[0].sites[1]: site 0 is listed twice");
  j = docExample();
  j["sites"][0]["kernels"] = {"box_muller_gpu", "box_muller_gpu"};
  expectError(j, "sites[0].kernels[1]: kernel 'box_muller_gpu' is listed "
                 "twice");
}

//===----------------------------------------------------------------------===//
// Knobs
//===----------------------------------------------------------------------===//

TEST(Manifest, GlobalKnobRules) {
  json j = docExample();
  j["knobs"][0]["default"] = 65;
  expectError(j, "knobs[0].default: 65 is out of range [0, 64]");
  j = docExample();
  j["knobs"][0].erase("default");
  expectError(j, "knobs[0]: missing required key 'default'");
  j = docExample();
  j["knobs"][0]["min"] = 10;
  j["knobs"][0]["max"] = 5;
  expectError(j, "knobs[0]: min 10 > max 5");
  for (const char *t : {"f32", "i1", "index", "ptr"}) {
    j = docExample();
    j["knobs"][0]["type"] = t;
    expectError(j, "knobs[0].type: is '" + std::string(t) +
                       "', expected \"i8\", \"i16\", \"i32\" or \"i64\"");
  }
  j = docExample();
  j["knobs"][0]["type"] = "i8";
  j["knobs"][0]["max"] = 127;
  expectOk(j);
  j["knobs"][0]["max"] = 128;
  expectError(j, "knobs[0].max: 128 is out of range [-128, 127]");
  j = docExample();
  j["knobs"][0]["type"] = "i64";
  j["knobs"][0]["max"] = 9223372036854775807ll;
  expectOk(j);
  j = docExample();
  j["knobs"][0]["kind"] = "dial";
  expectError(j, "knobs[0].kind: is 'dial', expected one of \"global\", "
                 "\"variant\", \"resource\"");
  j = docExample();
  j["knobs"][0]["path"] = "stack";
  expectError(j, "knobs[0].path: is 'stack', expected one of \"global\", "
                 "\"param\"");
  j = docExample();
  j["knobs"][0].erase("path");
  expectError(j, "knobs[0]: missing required key 'path'");
  j = docExample();
  j["knobs"][0].erase("symbol");
  expectError(j, "knobs[0]: missing required key 'symbol'");
  for (auto [name, slot] : {std::pair{"hw", WarpSlot::Hw},
                            std::pair{"virtual", WarpSlot::Virtual},
                            std::pair{"software", WarpSlot::Software}}) {
    j = docExample();
    j["knobs"][0]["warp_slot"] = name;
    Expected<Manifest> m = parse(j);
    ASSERT_TRUE(m.isOk());
    EXPECT_EQ(m->knobs[0].warpSlot, slot);
  }
  j = docExample();
  j["knobs"][0].erase("warp_slot");
  Expected<Manifest> m = parse(j);
  ASSERT_TRUE(m.isOk());
  EXPECT_EQ(m->knobs[0].warpSlot, WarpSlot::None);
  j["knobs"][0]["warp_slot"] = "lane";
  expectError(j, "knobs[0].warp_slot: is 'lane'");
}

TEST(Manifest, UnknownKnobInKernel) {
  json j = docExample();
  j["kernels"][0]["knobs"] = {"mu"};
  expectError(j, "kernels[0].knobs[0]: unknown knob 'mu'");
}

TEST(Manifest, VariantKnob) {
  Expected<Manifest> m = parse(withVariant());
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  const KnobInfo *k = m->findKnob("prec");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->kind, KnobKind::Variant);
  EXPECT_FALSE(k->hasSymbol());
  auto [knob, d] = m->findDispatch("box_muller");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(knob, k);
  EXPECT_EQ(d->variants[1], "box_muller_f32");
  EXPECT_EQ(m->findDispatch("box_muller_gpu").second, nullptr);

  // A logical name may be one of its own variants.
  json j = withVariant();
  j["knobs"][1]["dispatch"][0]["kernel"] = "box_muller_gpu";
  expectOk(j);
  // min..max need not start at 0.
  j = withVariant();
  j["knobs"][1]["min"] = 3;
  j["knobs"][1]["max"] = 4;
  j["knobs"][1]["default"] = 4;
  expectOk(j);

  j = withVariant();
  j["knobs"][1]["max"] = 2;
  expectError(j, "knobs[1].dispatch[0].variants: has 2 variants; the knob's "
                 "range [0, 2] needs max - min + 1 of them");
  j = withVariant();
  j["knobs"][1]["dispatch"] = json::array();
  expectError(j, "knobs[1].dispatch: a variant knob needs at least one");
  j = withVariant();
  j["knobs"][1].erase("dispatch");
  expectError(j, "knobs[1]: missing required key 'dispatch'");
  j = withVariant();
  j["knobs"][1]["dispatch"][0]["variants"][1] = "nope";
  expectError(j, "knobs[1].dispatch[0].variants[1]: unknown kernel 'nope'");
  j = withVariant();
  j["kernels"][1]["knobs"] = {"lambda"};
  expectError(j, "knobs[1].dispatch[0].variants[1]: kernel 'box_muller_f32' "
                 "does not list knob 'prec'");
  // Two entries with one logical name are ambiguous.
  j = withVariant();
  j["knobs"][1]["dispatch"].push_back(j["knobs"][1]["dispatch"][0]);
  expectError(j, "knobs[1].dispatch[1].kernel: kernel name 'box_muller' is "
                 "dispatched by two entries (knobs 'prec' and 'prec')");
  // A variant that is itself a logical name would chain.
  j = withVariant();
  j["knobs"][1]["dispatch"].push_back(
      {{"kernel", "box_muller_f32"},
       {"variants", {"box_muller_gpu", "box_muller_gpu"}}});
  expectError(j, "dispatch[0].variants[1]: kernel 'box_muller_f32' is itself "
                 "dispatched by knob 'prec'");
  // Variant knobs have no symbol and no parameter.
  j = withVariant();
  j["kernels"][0]["params"].push_back(knobParam("prec", "i32", 4));
  expectError(j, "params[7].knob: knob 'prec' is a variant knob; only path "
                 "\"param\" knobs have parameters");
}

// ManifestIndex answers as Manifest's scans do, and lists what a launch may
// run: the kernel itself, then its variants, each once.
TEST(Manifest, IndexAgreesWithTheScans) {
  json j = withVariant();
  // The logical name is its own variant 0 (approx-precision-variants).
  j["knobs"][1]["dispatch"][0]["kernel"] = "box_muller_gpu";
  Expected<Manifest> m = parse(j);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  ManifestIndex ix(*m);
  for (const KernelInfo &k : m->kernels)
    EXPECT_EQ(ix.kernel(k.name), m->findKernel(k.name)) << k.name;
  EXPECT_EQ(ix.kernel("nope"), nullptr);
  EXPECT_EQ(ix.dispatch("box_muller_gpu"), m->findDispatch("box_muller_gpu"));
  EXPECT_NE(ix.dispatch("box_muller_gpu").second, nullptr);
  EXPECT_EQ(ix.dispatch("box_muller_f32").second, nullptr);
  const std::vector<const KernelInfo *> &c = ix.candidates("box_muller_gpu");
  ASSERT_EQ(c.size(), 2u); // box_muller_gpu once, though also variant 0
  EXPECT_EQ(c[0], m->findKernel("box_muller_gpu"));
  EXPECT_EQ(c[1], m->findKernel("box_muller_f32"));
  ASSERT_EQ(ix.candidates("box_muller_f32").size(), 1u);
  EXPECT_TRUE(ix.candidates("nope").empty());

  // A logical name that is no kernel: its variants only.
  Expected<Manifest> v = parse(withVariant());
  ASSERT_TRUE(v.isOk()) << v.status().toString();
  ManifestIndex vx(*v);
  const std::vector<const KernelInfo *> &d = vx.candidates("box_muller");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0]->name, "box_muller_gpu");
  EXPECT_EQ(d[1]->name, "box_muller_f32");
}

TEST(Manifest, ResourceKnob) {
  json j = docExample();
  j["knobs"].push_back(resourceKnob());
  j["kernels"][0]["knobs"].push_back("table");
  Expected<Manifest> m = parse(j);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  const KnobInfo *k = m->findKnob("table");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->kind, KnobKind::Resource);
  EXPECT_EQ(k->resource.filter, TextureFilter::Linear);
  EXPECT_EQ(k->resource.address, TextureAddress::Clamp);
  EXPECT_FALSE(k->resource.normalizedCoords);
  ASSERT_EQ(k->resource.options.size(), 2u);
  const TextureTable &t = k->resource.options[1];
  EXPECT_EQ(t.width, 2u);
  EXPECT_EQ(t.height, 1u);
  EXPECT_EQ(t.rowBytes(), 8u);
  ASSERT_EQ(t.data->size(), 2u);
  EXPECT_EQ((*t.data)[0], -0.5f);
  EXPECT_EQ((*t.data)[1], 1e30f);

  auto table = [&](json &jj) -> json & {
    return jj["knobs"][1]["resource"]["options"][0];
  };
  auto withTable = [&] {
    json jj = docExample();
    jj["knobs"].push_back(resourceKnob());
    return jj;
  };
  const char *opt0 = "knobs[1].resource.options[0]";
  json b = withTable();
  table(b)["width"] = 0;
  expectError(b, std::string(opt0) + ".width: 0 is out of range [1, 65536]");
  b = withTable();
  table(b)["height"] = 65537;
  expectError(b, std::string(opt0) + ".height: 65537 is out of range");
  b = withTable();
  table(b)["channels"] = 3;
  expectError(b, std::string(opt0) + ".channels: 3 is not supported");
  b = withTable();
  table(b)["channels"] = 8;
  expectError(b, std::string(opt0) + ".channels: 8 is out of range [1, 4]");
  b = withTable();
  table(b)["element"] = "f16";
  expectError(b, std::string(opt0) + ".element: is 'f16', expected \"f32\"");
  b = withTable();
  table(b)["data"] = floatsBase64({1.0f, 2.0f, 3.0f});
  expectError(b, std::string(opt0) + ".data: decodes to 12 bytes; 2 x 1 x 1 "
                                     "f32 need 8");
  b = withTable();
  table(b)["data"] = "AACAPwAAAEA";
  expectError(b, std::string(opt0) + ".data: base64 text of 11 characters: "
                                     "the length must be a multiple of 4");
  b = withTable();
  table(b)["data"] = "AACA?wAAAEA=";
  expectError(b, std::string(opt0) + ".data: base64: '?' at offset 4 is not "
                                     "in the alphabet");
  b = withTable();
  table(b)["width"] = 4;
  table(b)["height"] = 2;
  table(b)["channels"] = 4;
  table(b)["data"] = floatsBase64(std::vector<float>(32, 0.25f));
  expectOk(b);
  b = withTable();
  b["knobs"][1]["resource"]["options"].push_back(table(b));
  expectError(b, "knobs[1].resource.options: has 3 tables; the knob's range "
                 "[0, 1] needs max - min + 1 of them");
  b = withTable();
  b["knobs"][1]["resource"]["address"] = "wrap";
  expectError(b, "knobs[1].resource.address: \"wrap\" needs "
                 "\"normalized_coords\": true");
  b["knobs"][1]["resource"]["normalized_coords"] = true;
  expectOk(b);
  b = withTable();
  b["knobs"][1]["resource"]["address"] = "mirror";
  expectError(b, "\"mirror\" needs \"normalized_coords\": true");
  b = withTable();
  b["knobs"][1]["resource"]["address"] = "border";
  expectOk(b);
  b = withTable();
  b["knobs"][1]["resource"].erase("normalized_coords");
  expectError(b, "knobs[1].resource: missing required key "
                 "'normalized_coords'");
  b = withTable();
  b["knobs"][1]["resource"]["filter"] = "cubic";
  expectError(b, "knobs[1].resource.filter: is 'cubic'");
  b = withTable();
  b["knobs"][1]["resource"]["type"] = "texture_1d";
  expectError(b, "knobs[1].resource.type: is 'texture_1d', expected "
                 "\"texture_2d\" or \"texture_3d\"");
  b = withTable();
  b["knobs"][1]["type"] = "i32";
  expectError(b, "knobs[1].type: is 'i32'; a resource knob carries a 64-bit "
                 "handle");
  b = withTable();
  b["knobs"][1].erase("resource");
  expectError(b, "knobs[1]: missing required key 'resource'");
  // path "param": one i64 knob parameter in every kernel that reads it.
  b = withTable();
  b["knobs"][1]["path"] = "param";
  b["kernels"][0]["knobs"].push_back("table");
  b["kernels"][0]["params"].push_back(knobParam("table", "i64", 8));
  expectOk(b);
}

TEST(Manifest, Texture3DResourceKnob) {
  // resourceKnob() as a texture_3d: table 0 is 2 x 1 x 2 (x fastest, then
  // y, then z), table 1 is 1 x 1 x 1 with two channels.
  auto with3d = [] {
    json jj = docExample();
    json k = resourceKnob();
    k["resource"]["type"] = "texture_3d";
    json &t0 = k["resource"]["options"][0];
    t0["depth"] = 2;
    t0["data"] = floatsBase64({1.0f, 2.0f, 3.0f, 4.0f});
    k["resource"]["options"][1]["width"] = 1;
    k["resource"]["options"][1]["depth"] = 1;
    k["resource"]["options"][1]["channels"] = 2;
    jj["knobs"].push_back(k);
    return jj;
  };
  Expected<Manifest> m = parse(with3d());
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  const KnobInfo *k = m->findKnob("table");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->resource.type, TextureType::Texture3D);
  EXPECT_STREQ(textureTypeName(k->resource.type), "texture_3d");
  EXPECT_EQ(k->resource.filter, TextureFilter::Linear);
  ASSERT_EQ(k->resource.options.size(), 2u);
  const TextureTable &t = k->resource.options[0];
  EXPECT_EQ(t.width, 2u);
  EXPECT_EQ(t.height, 1u);
  EXPECT_EQ(t.depth, 2u);
  EXPECT_EQ(t.rowBytes(), 8u);
  EXPECT_EQ(t.bytes(), 16u);
  EXPECT_EQ(*t.data, (std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f}));
  EXPECT_EQ(k->resource.options[1].depth, 1u);
  EXPECT_EQ(k->resource.options[1].channels, 2u);
  EXPECT_EQ(*k->resource.options[1].data, (std::vector<float>{-0.5f, 1e30f}));
  // A texture_2d table has depth 1 and its old byte count.
  Expected<Manifest> m2 = [&] {
    json jj = docExample();
    jj["knobs"].push_back(resourceKnob());
    return parse(jj);
  }();
  ASSERT_TRUE(m2.isOk()) << m2.status().toString();
  EXPECT_EQ(m2->findKnob("table")->resource.type, TextureType::Texture2D);
  EXPECT_EQ(m2->findKnob("table")->resource.options[0].depth, 1u);
  EXPECT_EQ(m2->findKnob("table")->resource.options[0].bytes(), 8u);

  auto table = [](json &jj) -> json & {
    return jj["knobs"][1]["resource"]["options"][0];
  };
  const std::string opt0 = "knobs[1].resource.options[0]";
  json b = with3d();
  table(b).erase("depth");
  expectError(b, opt0 + ": missing required key 'depth' (a \"texture_3d\" "
                        "table has width, height and depth)");
  // Each dimension is bounded by CUDA's 3-D limit.
  for (auto [key, value] :
       {std::pair<const char *, int>{"depth", 0}, {"depth", 16385},
        {"width", 16385}, {"height", 16385}}) {
    b = with3d();
    table(b)[key] = value;
    expectError(b, opt0 + "." + key + ": " + std::to_string(value) +
                       " is out of range [1, 16384]");
  }
  b = with3d();
  table(b)["data"] = floatsBase64({1.0f, 2.0f});
  expectError(b, opt0 + ".data: decodes to 8 bytes; 2 x 1 x 2 x 1 f32 need "
                        "16");
  b = with3d();
  table(b)["width"] = 16384;
  table(b)["height"] = 16384;
  table(b)["depth"] = 16384;
  table(b)["channels"] = 4;
  expectError(b, opt0 + ".data: decodes to 16 bytes; 16384 x 16384 x 16384 "
                        "x 4 f32 need 70368744177664");
  b = with3d();
  table(b)["depth"] = 1;
  table(b)["height"] = 2;
  expectOk(b); // the same 16 bytes as 2 x 2 x 1
  // `depth` belongs to texture_3d: on a texture_2d table it is an error,
  // not an ignored key (the data length would be blamed instead).
  b = with3d();
  b["knobs"][1]["resource"]["type"] = "texture_2d";
  expectError(b, opt0 + ".depth: is only for \"texture_3d\" tables; this "
                        "resource is \"texture_2d\"");
  // texture_2d keeps its own limits: 16385 wide is fine there.
  b = docExample();
  b["knobs"].push_back(resourceKnob());
  table(b)["width"] = 16385;
  table(b)["data"] = floatsBase64(std::vector<float>(16385, 0.5f));
  expectOk(b);
}

//===----------------------------------------------------------------------===//
// Arguments and parameters
//===----------------------------------------------------------------------===//

TEST(Manifest, MemrefDescriptorLayout) {
  json j = docExample();
  j["kernels"][0]["args"][0]["num_params"] = 4;
  expectError(j, "args[0].num_params: is 4, expected 5");
  j = docExample();
  j["kernels"][0]["args"][0]["rank"] = 2;
  expectError(j, "args[0].shape: has 1 entries for rank 2");
  j = docExample();
  std::swap(j["kernels"][0]["params"][3], j["kernels"][0]["params"][4]);
  expectError(j, "params[3].field: is 'stride0', expected 'size0'");
  j = docExample();
  j["kernels"][0]["params"][1]["type"] = "i64";
  expectError(j, "params[1].type: is i64; field 'aligned' of arg 0 needs ptr");
  j = docExample();
  j["kernels"][0]["params"][2]["type"] = "index";
  expectOk(j); // index and i64 are the same 8 bytes
  j = docExample();
  j["kernels"][0]["params"][2]["type"] = "i32";
  j["kernels"][0]["params"][2]["size"] = 4;
  expectError(j, "params[2].type: is i32; field 'offset' of arg 0 needs i64");
  j = docExample();
  j["kernels"][0]["args"][0]["kind"] = "tensor";
  expectError(j, "args[0].kind: is 'tensor', expected one of \"memref\", "
                 "\"scalar\", \"pointer\"");
  j = docExample();
  j["kernels"][0]["args"][0]["element"] = "ptr";
  expectError(j, "args[0].element: memrefs of ptr are not supported");
  j = docExample();
  j["kernels"][0]["args"][0]["element"] = "vector<4xf32>";
  expectOk(j);
}

TEST(Manifest, MemrefAbiAndAccess) {
  json j = docExample();
  j["kernels"][0]["args"][0].erase("abi");
  expectError(j, "args[0]: missing required key 'abi'");
  j = docExample();
  j["kernels"][0]["args"][0]["abi"] = "packed";
  expectError(j, "args[0].abi: is 'packed'");
  j = docExample();
  j["kernels"][0]["args"][0].erase("access");
  expectError(j, "args[0]: missing required key 'access'");
  for (auto [name, a] : {std::pair{"read", ArgInfo::Access::Read},
                         std::pair{"write", ArgInfo::Access::Write},
                         std::pair{"readwrite", ArgInfo::Access::ReadWrite},
                         std::pair{"none", ArgInfo::Access::None}}) {
    j = docExample();
    j["kernels"][0]["args"][0]["access"] = name;
    Expected<Manifest> m = parse(j);
    ASSERT_TRUE(m.isOk());
    EXPECT_EQ(m->kernels[0].args[0].access, a);
    EXPECT_STREQ(accessName(a), name);
  }
  j = docExample();
  j["kernels"][0]["args"][0]["access"] = "sometimes";
  expectError(j, "args[0].access: is 'sometimes'");

  // abi "bare": one aligned pointer, static shapes only.
  json bare = docExample();
  json &a0 = bare["kernels"][0]["args"][0];
  a0["abi"] = "bare";
  a0["shape"] = {1024};
  a0["num_params"] = 1;
  json &ps = bare["kernels"][0]["params"];
  ps.erase(0);
  ps.erase(1);
  ps.erase(1);
  ps.erase(1);
  for (size_t i = 1; i < bare["kernels"][0]["args"].size(); ++i)
    bare["kernels"][0]["args"][i]["first_param"] = i;
  Expected<Manifest> m = parse(bare);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(m->kernels[0].args[0].abi, ArgInfo::Abi::Bare);
  EXPECT_EQ(m->kernels[0].params.size(), 3u);
  j = bare;
  j["kernels"][0]["args"][0]["shape"] = {-1};
  expectError(j, "args[0].shape[0]: is dynamic (-1); abi \"bare\" needs a "
                 "static shape");
  j = bare;
  j["kernels"][0]["args"][0]["num_params"] = 3;
  expectError(j, "args[0].num_params: is 3, expected 1");
  j["kernels"][0]["args"][0]["num_params"] = 5;
  expectError(j, "args[0].num_params: 5 is out of range [0, 3]");
  j = bare;
  j["kernels"][0]["params"][0]["field"] = "allocated";
  expectError(j, "params[0].field: is 'allocated', expected 'aligned'");
}

TEST(Manifest, ScalarPointerVectorAndBf16Args) {
  json j = docExample();
  j["kernels"].push_back(scalarKernel("v4", "vector<4xf32>", "vector<4xf32>",
                                      16));
  j["kernels"].push_back(scalarKernel("v22", "vector<2x2xf16>",
                                      "vector<2x2xf16>", 8));
  j["kernels"].push_back(scalarKernel("b", "bf16", "bf16", 2));
  j["kernels"].push_back(scalarKernel("i", "i1", "i1", 1));
  j["kernels"].push_back(scalarKernel("x", "index", "i64", 8));
  json ptr = scalarKernel("p", "ptr", "ptr", 8);
  ptr["args"][0] = {{"kind", "pointer"}, {"address_space", 1},
                    {"first_param", 0}, {"num_params", 1}};
  j["kernels"].push_back(ptr);
  Expected<Manifest> m = parse(j);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(m->findKernel("v4")->args[0].type,
            ValueType::vector(ScalarType::F32, {4}));
  EXPECT_EQ(m->findKernel("v22")->args[0].type.size(), 8u);
  EXPECT_EQ(m->findKernel("b")->args[0].type, ValueType(ScalarType::BF16));
  EXPECT_EQ(m->findKernel("p")->args[0].kind, ArgInfo::Kind::Pointer);
  EXPECT_EQ(m->findKernel("p")->args[0].addressSpace, 1u);

  json bad = j;
  bad["kernels"][1]["params"][0]["size"] = 8;
  expectError(bad, "kernels[1].params[0].size: 8 does not match type "
                   "vector<4xf32> (16 bytes)");
  bad = j;
  bad["kernels"][1]["params"][0]["type"] = "vector<2xf32>";
  bad["kernels"][1]["params"][0]["size"] = 8;
  expectError(bad, "kernels[1].params[0].type: is vector<2xf32>; field "
                   "'value' of arg 0 needs vector<4xf32>");
  bad = j;
  bad["kernels"][3]["params"][0]["type"] = "f16";
  expectError(bad, "kernels[3].params[0].type: is f16; field 'value' of arg "
                   "0 needs bf16");
  bad = j;
  bad["kernels"][6]["args"][0]["address_space"] = 16777216;
  expectError(bad, "args[0].address_space: 16777216 is out of range [0, "
                   "16777215]");
  bad = j;
  bad["kernels"][6]["args"][0].erase("address_space");
  expectError(bad, "args[0]: missing required key 'address_space'");
  bad = j;
  bad["kernels"][6]["params"][0]["type"] = "i64";
  expectError(bad, "params[0].type: is i64; field 'value' of arg 0 needs ptr");
  bad = docExample();
  bad["kernels"].push_back(scalarKernel("q", "ptr", "ptr", 8));
  expectError(bad, "kernels[1].args[0].type: a ptr value is an argument of "
                   "kind \"pointer\"");
}

TEST(Manifest, ValueTypes) {
  EXPECT_EQ(parseValueType("f32")->size(), 4u);
  EXPECT_EQ(parseValueType("vector<4xf32>")->name(), "vector<4xf32>");
  EXPECT_EQ(parseValueType("vector<2x2xf16>")->laneCount(), 4u);
  EXPECT_EQ(parseValueType("vector<3xindex>")->size(), 24u);
  EXPECT_EQ(parseValueType("vector<8xi1>")->size(), 8u);
  EXPECT_EQ(parseValueType("vector<4x2xbf16>")->size(), 16u);
  EXPECT_EQ(parseValueType("vector<8191xf32>")->size(), 32764u);
  for (const char *bad :
       {"vector<0xf32>", "vector<4xptr>", "vector<4xf32", "vector<xf32>",
        "vector<4x>", "vector<f32>", "vector<04xf32>", "vector<65537xf32>",
        "vector<8192xf32>", "vector<100x100x100xf64>", "vector<4xu8>",
        "vector<4xvector<2xf32>>", "vector<-4xf32>", "u32", "F32", ""}) {
    Expected<ValueType> t = parseValueType(bad);
    EXPECT_FALSE(t.isOk()) << bad;
  }
  EXPECT_NE(parseValueType("vector<65537xf32>")
                .status()
                .message()
                .find("dimension 65537 is out of range [1, 65536]"),
            std::string::npos);
}

TEST(Manifest, ParamsAndArgsCrossReferences) {
  json j = docExample();
  j["kernels"][0]["params"][2]["arg"] = 1;
  expectError(j, "params[2]: belongs to arg 1 but lies in the range of arg 0");
  j = docExample();
  j["kernels"][0]["params"][6]["arg"] = 7;
  expectError(j, "params[6].arg: 7 is out of range [0, 2]");
  j = docExample();
  j["kernels"][0]["args"][1]["first_param"] = 6;
  expectError(j, "args[1].first_param: is 6, expected 5");
  j = docExample();
  j["kernels"][0]["params"].push_back(j["kernels"][0]["params"][6]);
  expectError(j, "params[7]: belongs to arg 2 but lies after the last "
                 "argument's parameters");
  j = docExample();
  j["kernels"][0]["params"].erase(6);
  expectError(j, "kernels[0].args[2]: params [6, 7) run past the 6 params of "
                 "the kernel");
  j = docExample();
  j["kernels"][0]["params"][5]["type"] = "u32";
  expectError(j, "params[5].type: unknown type 'u32'");
  j = docExample();
  j["kernels"][0]["params"][5]["size"] = 4;
  expectError(j, "params[5].size: 4 does not match type i64 (8 bytes)");
  j = docExample();
  j["kernels"][0]["params"][5]["type"] = "i32";
  j["kernels"][0]["params"][5]["size"] = 4;
  expectError(j, "params[5].type: is i32; field 'value' of arg 1 needs i64");
  j = docExample();
  j["kernels"][0]["params"][5].erase("arg");
  expectError(j, "params[5]: missing required key 'arg'");
  j = docExample();
  j["kernels"][0]["params"][5]["knob"] = "lambda";
  expectError(j, "params[5].knob: only \"field\": \"knob\" parameters name a "
                 "knob");
}

TEST(Manifest, KnobParameters) {
  Expected<Manifest> m = parse(withParamKnob());
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  const ParamInfo &p = m->kernels[0].params.back();
  EXPECT_TRUE(p.isKnob());
  EXPECT_EQ(p.knob, "lambda");
  EXPECT_TRUE(m->knobs[0].isParam());

  json j = withParamKnob();
  j["kernels"][0]["params"].erase(7);
  expectError(j, "kernels[0].params: no parameter for knob 'lambda'");
  j = withParamKnob();
  j["kernels"][0]["params"].push_back(knobParam("lambda", "i32", 4));
  expectError(j, "params[8].knob: knob 'lambda' has a second parameter");
  j = withParamKnob();
  j["kernels"][0]["params"][7]["type"] = "i64";
  j["kernels"][0]["params"][7]["size"] = 8;
  expectError(j, "params[7].type: is i64; knob 'lambda' has type i32");
  j = withParamKnob();
  j["kernels"][0]["params"][7]["arg"] = 2;
  expectError(j, "params[7]: a knob parameter belongs to no argument");
  j = withParamKnob();
  j["kernels"][0]["params"][7]["knob"] = "mu";
  expectError(j, "params[7].knob: unknown knob 'mu'");
  j = withParamKnob();
  j["kernels"][0]["params"][7].erase("knob");
  expectError(j, "params[7]: missing required key 'knob'");
  // A knob parameter for a knob read through its global.
  j = docExample();
  j["kernels"][0]["params"].push_back(knobParam("lambda", "i32", 4));
  expectError(j, "params[7].knob: knob 'lambda' is a global knob with path "
                 "\"global\"; only path \"param\" knobs have parameters");
  // The kernel must list the knob.
  j = withParamKnob();
  j["kernels"][0]["knobs"] = json::array();
  j["sites"][0].erase("knob");
  j["sites"][0]["form"] = "precise";
  expectError(j, "params[7].knob: knob 'lambda' is not in the kernel's "
                 "\"knobs\"");
  // A knob parameter before an argument's parameters.
  j = withParamKnob();
  std::swap(j["kernels"][0]["params"][6], j["kernels"][0]["params"][7]);
  expectError(j, "params[6]: is a knob parameter but lies in the range of "
                 "arg 2");
}

//===----------------------------------------------------------------------===//
// Sites
//===----------------------------------------------------------------------===//

TEST(Manifest, SiteRules) {
  json j = docExample();
  j["sites"][0].erase("technique");
  expectError(j, "sites[0]: missing required key 'technique'");
  j = docExample();
  j["sites"][0]["technique"] = "lns";
  expectOk(j); // later techniques add theirs
  j = docExample();
  j["sites"][0]["form"] = "maybe";
  expectError(j, "sites[0].form: is 'maybe'");
  for (const char *form : {"sfu", "precise", "fast", "approximate"}) {
    j = docExample();
    j["sites"][0]["form"] = form;
    j["sites"][0].erase("knob");
    j["sites"][0]["reason"] = "pinned";
    expectOk(j);
  }
  j = docExample();
  j["sites"][0].erase("knob");
  expectError(j, "sites[0]: a \"tunable\" site names the knob");
  j = docExample();
  j["sites"][0]["knob"] = "mu";
  expectError(j, "sites[0].knob: unknown knob 'mu'");
  j = docExample();
  j["sites"][0]["kernels"] = {"other"};
  expectError(j, "sites[0].kernels[0]: unknown kernel 'other'");
  j = docExample();
  j["sites"][0]["data"] = "text";
  expectError(j, "sites[0].data: expected an object");
  j = docExample();
  j["sites"][0].erase("data");
  j["sites"][0].erase("loc");
  Expected<Manifest> m = parse(j);
  ASSERT_TRUE(m.isOk());
  EXPECT_EQ(m->sites[0].data, "");
  EXPECT_EQ(m->sites[0].loc, "");
}

TEST(Manifest, KernelSitesAndSiteKernelsAgree) {
  json j = docExample();
  j["kernels"][0]["sites"] = json::array();
  expectError(j, "sites[0].kernels[0]: kernel 'box_muller_gpu' does not list "
                 "site 0 in its \"sites\"");
  j = docExample();
  j["sites"].push_back(j["sites"][0]);
  j["sites"][1]["kernels"] = json::array();
  j["kernels"][0]["sites"] = {0, 1};
  expectError(j, "kernels[0].sites[1]: site 1 does not list kernel "
                 "'box_muller_gpu'");
  j = docExample();
  j["knobs"].push_back({{"name", "mu"}, {"kind", "global"}, {"symbol", "mu"},
                        {"type", "i32"}, {"path", "global"}, {"min", 0},
                        {"max", 1}, {"default", 0}});
  j["sites"][0]["knob"] = "mu";
  expectError(j, "sites[0].kernels[0]: kernel 'box_muller_gpu' does not list "
                 "knob 'mu' (the site's knob)");
}

//===----------------------------------------------------------------------===//
// Files and image paths
//===----------------------------------------------------------------------===//

TEST(Manifest, LoadRefusesNonRegularAndHugeFiles) {
  Expected<Manifest> m = loadManifestFile("/nonexistent/x.manifest.json");
  ASSERT_FALSE(m.isOk());
  EXPECT_EQ(m.status().code(), StatusCode::IoError);
  TempDir dir;
  m = loadManifestFile(dir.path());
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("is a directory, not a regular file"),
            std::string::npos);
  m = loadManifestFile("/dev/zero");
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("is a character device"),
            std::string::npos);
  std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  m = loadManifestFile(fifo); // must not block
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("is a FIFO"), std::string::npos);
  // A sparse file past 256 MiB: refused by its size, never read.
  std::string big = dir.path() + "/big.manifest.json";
  {
    std::ofstream(big) << "{";
  }
  ASSERT_EQ(::truncate(big.c_str(), off_t(kMaxManifestBytes) + 1), 0);
  m = loadManifestFile(big);
  ASSERT_FALSE(m.isOk());
  EXPECT_NE(m.status().message().find("has 268435457 bytes, more than the "
                                      "limit of 268435456"),
            std::string::npos);
  std::string good = dir.write("a.manifest.json", docExample().dump());
  m = loadManifestFile(good);
  ASSERT_TRUE(m.isOk()) << m.status().toString();
  EXPECT_EQ(m->directory, dir.path());
}

TEST(Manifest, ImagePathsStayInsideTheManifestDirectory) {
  TempDir dir;
  ASSERT_EQ(::mkdir((dir.path() + "/sub").c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((dir.path() + "/sub/ptx").c_str(), 0700), 0);
  dir.write("sub/ptx/k.ptx", "// ptx");
  dir.write("outside.ptx", "// ptx");
  ASSERT_EQ(::symlink("../outside.ptx", (dir.path() + "/sub/link.ptx").c_str()),
            0);
  Manifest m = *parse(docExample());
  m.directory = dir.path() + "/sub";

  m.ptx = "ptx/k.ptx";
  Expected<std::string> p = resolveImagePath(m, false, false);
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  EXPECT_EQ(*p, dir.path() + "/sub/ptx/k.ptx");

  m.ptx = "../outside.ptx";
  p = resolveImagePath(m, false, false);
  ASSERT_FALSE(p.isOk());
  EXPECT_NE(p.status().message().find("manifest: ptx: '../outside.ptx' has a "
                                      "'..' component"),
            std::string::npos);
  p = resolveImagePath(m, false, true);
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(*p, dir.path() + "/sub/../outside.ptx");

  m.ptx = "ptx/../../outside.ptx";
  EXPECT_FALSE(resolveImagePath(m, false, false).isOk());
  m.ptx = "ptx/..";
  EXPECT_FALSE(resolveImagePath(m, false, false).isOk());
  m.ptx = "ptx/..k.ptx"; // a name starting with dots is fine (if present)
  EXPECT_EQ(resolveImagePath(m, false, false).status().code(),
            StatusCode::IoError);

  m.ptx = dir.path() + "/outside.ptx";
  p = resolveImagePath(m, false, false);
  ASSERT_FALSE(p.isOk());
  EXPECT_NE(p.status().message().find("is absolute"), std::string::npos);
  EXPECT_TRUE(resolveImagePath(m, false, true).isOk());

  m.ptx = "link.ptx"; // a symbolic link out of the directory
  p = resolveImagePath(m, false, false);
  ASSERT_FALSE(p.isOk());
  EXPECT_NE(p.status().message().find("outside the manifest's directory"),
            std::string::npos);

  m.ptx = "missing.ptx";
  p = resolveImagePath(m, false, false);
  ASSERT_FALSE(p.isOk());
  EXPECT_EQ(p.status().code(), StatusCode::IoError);

  m.cubin = "";
  p = resolveImagePath(m, true, false);
  ASSERT_FALSE(p.isOk());
  EXPECT_EQ(p.status().code(), StatusCode::NotFound);
}

TEST(Manifest, ScalarTypeHelpers) {
  EXPECT_EQ(scalarTypeSize(ScalarType::I1), 1u);
  EXPECT_EQ(scalarTypeSize(ScalarType::Index), 8u);
  EXPECT_EQ(scalarTypeSize(ScalarType::F16), 2u);
  EXPECT_EQ(scalarTypeSize(ScalarType::BF16), 2u);
  EXPECT_STREQ(scalarTypeName(ScalarType::F64), "f64");
  EXPECT_STREQ(scalarTypeName(ScalarType::BF16), "bf16");
  EXPECT_TRUE(isFloatType(ScalarType::F16));
  EXPECT_TRUE(isFloatType(ScalarType::BF16));
  EXPECT_TRUE(isIntegerType(ScalarType::Index));
  EXPECT_FALSE(isIntegerType(ScalarType::Ptr));
  EXPECT_EQ(*parseScalarType("bf16"), ScalarType::BF16);
  EXPECT_FALSE(parseScalarType("u8").isOk());
}
