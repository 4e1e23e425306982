//===- TunerTest.cpp - the perforation tuner without a GPU ----------------===//
//
// candidatesOf over hand-built manifests (schemes x block-shape variants,
// and each refusal), tune over a synthetic measure (the Pareto front, the
// pick under the QoS, ties, a failing measurement), and the renderers.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/perforation/Tuner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace approx::rt;
namespace pf = approx::rt::perforation;

namespace {

Manifest manifest(bool variants) {
  Manifest m;
  KnobInfo scheme;
  scheme.name = "perforation";
  scheme.kind = KnobKind::Global;
  scheme.min = 0, scheme.max = 2;
  m.knobs.push_back(scheme);
  SiteInfo site;
  site.technique = "perforation";
  site.knob = "perforation";
  site.kernels = {variants ? "blur__32x8" : "blur"};
  site.data = R"({"schemes":["accurate","rows1:nn","stencil:nn"]})";
  m.sites.push_back(site);
  if (variants) {
    site.kernels = {"blur__64x4"};
    m.sites.push_back(site);
    KnobInfo block;
    block.name = "perforation_block";
    block.kind = KnobKind::Variant;
    block.min = 0, block.max = 1;
    block.dispatch = {{"blur", {"blur__32x8", "blur__64x4"}}};
    m.knobs.push_back(block);
  }
  return m;
}

std::string refusal(const Manifest &m, const std::string &kernel = "blur",
                    std::pair<unsigned, unsigned> block = {32, 8}) {
  auto r = pf::candidatesOf(m, kernel, {}, block);
  return r.isOk() ? "" : r.status().toString();
}

TEST(PerforationTuner, CandidatesAreSchemesTimesShapes) {
  auto c = pf::candidatesOf(manifest(true), "blur", {}, {0, 0});
  ASSERT_TRUE(c.isOk()) << c.status().toString();
  ASSERT_EQ(c->size(), 6u);
  EXPECT_EQ((*c)[0].label(), "accurate 32x8");
  EXPECT_EQ((*c)[4].label(), "rows1:nn 64x4");
  EXPECT_EQ((*c)[4].schemeValue, 1);
  EXPECT_EQ((*c)[4].blockValue, 1);
  auto one = pf::candidatesOf(manifest(false), "blur", {}, {16, 16});
  ASSERT_TRUE(one.isOk()) << one.status().toString();
  ASSERT_EQ(one->size(), 3u);
  EXPECT_EQ((*one)[2].label(), "stencil:nn 16x16");
  EXPECT_EQ((*one)[2].blockValue, -1);
}

TEST(PerforationTuner, CandidatesFromTypedPayloads) {
  // Version 3: schemes and block shapes come from the knobs' payloads; the
  // site data and the variants' names are not read.
  Manifest m = manifest(true);
  auto scheme = [](const char *kind, int64_t skip, const char *recon) {
    Payload p;
    p.type = Payload::Type::PerforationScheme;
    p.scheme = kind, p.skip = skip, p.reconstruction = recon;
    return p;
  };
  m.knobs[0].domain.kind = DomainKind::Categorical;
  m.knobs[0].domain.values = {{"accurate", scheme("accurate", 1, "nn")},
                              {"cols2:linear", scheme("cols", 2, "linear")},
                              {"center3", scheme("center", 3, "copy")}};
  Payload wide;
  wide.type = Payload::Type::BlockShape;
  wide.x = 128, wide.y = 2, wide.rows = 4;
  Payload tall = wide;
  tall.x = 8, tall.y = 32, tall.rows = 1;
  m.knobs[1].domain.kind = DomainKind::Categorical;
  m.knobs[1].domain.values = {{"a", wide}, {"b", tall}};
  m.knobs[1].dispatch[0].variants = {"blur_any_name", "blur_other"};
  for (SiteInfo &s : m.sites)
    s.data = R"({"schemes":"not read"})";
  auto c = pf::candidatesOf(m, "blur", {}, {0, 0});
  ASSERT_TRUE(c.isOk()) << c.status().toString();
  ASSERT_EQ(c->size(), 6u);
  EXPECT_EQ((*c)[1].label(), "cols2:linear 128x2r4");
  EXPECT_EQ((*c)[5].label(), "center3 8x32");
  // The typed scheme comes from the payload, not from the name.
  EXPECT_EQ((*c)[1].spec.kind, pf::SchemeKind::Cols);
  EXPECT_EQ((*c)[1].spec.skip, 2);
  EXPECT_EQ((*c)[1].spec.recon, pf::Recon::Linear);
  EXPECT_EQ((*c)[5].spec.kind, pf::SchemeKind::Center);
  EXPECT_EQ((*c)[5].spec.skip, 3);
  // A payload that is no scheme is one line naming the knob's value.
  m.knobs[0].domain.values[1].payload.skip = 0;
  std::string why = refusal(m, "blur");
  EXPECT_NE(why.find("knob 'perforation' value 'cols2:linear'"),
            std::string::npos) << why;
  EXPECT_NE(why.find("the skip lies outside [1, 1024]"), std::string::npos)
      << why;
  m.knobs[0].domain.values[1].payload.skip = 2;
  m.knobs[0].domain.values[2].payload.reconstruction = "linear";
  why = refusal(m, "blur");
  EXPECT_NE(why.find("only rows, cols and stencil rebuild linearly"),
            std::string::npos) << why;
}

TEST(PerforationTuner, VersionTwoNamesAreParsedOnce) {
  auto c = pf::candidatesOf(manifest(false), "blur", {}, {16, 16});
  ASSERT_TRUE(c.isOk()) << c.status().toString();
  for (const pf::Candidate &k : *c)
    EXPECT_EQ(pf::schemeName(k.spec), k.scheme);
}

TEST(PerforationTuner, CandidatesRefusals) {
  EXPECT_NE(refusal(manifest(false), "sharpen").find("no perforation site of kernel 'sharpen'"),
            std::string::npos);
  EXPECT_NE(refusal(manifest(false), "blur", {0, 8}).find("give its block shape"),
            std::string::npos);
  Manifest m = manifest(false);
  m.knobs[0].max = 5;
  EXPECT_NE(refusal(m).find("not a global knob of range [0, 2]"), std::string::npos);
  m = manifest(false);
  m.sites[0].data = R"({"schemes":["rows1:nn","stencil:nn","cols1:nn"]})";
  EXPECT_NE(refusal(m).find("no 'accurate' scheme"), std::string::npos);
  m = manifest(false);
  m.sites[0].data = "not json";
  EXPECT_NE(refusal(m).find("no scheme list"), std::string::npos);
  m = manifest(true);
  m.knobs[1].dispatch[0].variants[1] = "blur_wide";
  EXPECT_NE(refusal(m).find("variant 'blur_wide' of 'blur' is not named blur__XxY[rK]"),
            std::string::npos);
  m.knobs[1].dispatch[0].variants[1] = "blur__64x4r";
  EXPECT_NE(refusal(m).find("is not named"), std::string::npos);
  m.knobs[1].dispatch[0].variants[1] = "blur__64x4r0";
  EXPECT_NE(refusal(m).find("is not named"), std::string::npos);
  // K rows per thread: the label says it, the tile is Y*K rows high.
  m.knobs[1].dispatch[0].variants[1] = "blur__32x8r4";
  auto rk = pf::candidatesOf(m, "blur", {}, {0, 0});
  ASSERT_TRUE(rk.isOk()) << rk.status().toString();
  EXPECT_EQ((*rk)[3].label(), "accurate 32x8r4");
  EXPECT_EQ((*rk)[3].tileRows(), 32u);
  EXPECT_EQ((*rk)[0].tileRows(), 8u);
  m = manifest(true);
  m.sites[1].data = R"({"schemes":["accurate","rows2:nn","stencil:nn"]})";
  EXPECT_NE(refusal(m).find("list different schemes"), std::string::npos);
  m.sites[1].data = R"({"schemes":["accurate","rows1:nn"]})";
  EXPECT_NE(refusal(m).find("list different schemes"), std::string::npos);
  // A tile without halo records stencil as accurate: the other site names it.
  m.sites[1].data = R"({"schemes":["accurate","rows1:nn","accurate"]})";
  auto merged = pf::candidatesOf(m, "blur", {}, {0, 0});
  ASSERT_TRUE(merged.isOk()) << merged.status().toString();
  EXPECT_EQ((*merged)[2].scheme, "stencil:nn");
}

TEST(PerforationTuner, FrontAndPick) {
  auto c = pf::candidatesOf(manifest(true), "blur", {}, {0, 0});
  ASSERT_TRUE(c.isOk());
  // (ms, error) per label.
  std::map<std::string, std::pair<double, double>> curve = {
      {"accurate 32x8", {1.0, 0.0}},     {"rows1:nn 32x8", {0.7, 0.04}},
      {"stencil:nn 32x8", {0.9, 0.01}},  {"accurate 64x4", {0.95, 0.0}},
      {"rows1:nn 64x4", {0.6, 0.08}},    {"stencil:nn 64x4", {0.92, 0.012}}};
  pf::MeasureFn measure = [&](const pf::Candidate &k)
      -> Expected<std::pair<double, double>> { return curve.at(k.label()); };
  auto r = pf::tune(*c, measure, 0.05);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  ASSERT_EQ(r->points.size(), 6u);
  EXPECT_EQ(r->points[size_t(r->best)].candidate.label(), "rows1:nn 32x8");
  std::vector<std::string> front;
  for (const pf::Point &p : r->points)
    if (p.pareto)
      front.push_back(p.candidate.label());
  EXPECT_EQ(front, (std::vector<std::string>{"rows1:nn 32x8", "stencil:nn 32x8",
                                             "accurate 64x4", "rows1:nn 64x4"}));
  // A tighter bound picks the slower, better version; none fits below 0.
  auto tight = pf::tune(*c, measure, 0.01);
  ASSERT_TRUE(tight.isOk());
  EXPECT_EQ(tight->points[size_t(tight->best)].candidate.label(), "stencil:nn 32x8");
  // NaN errors count as unusable, never as feasible.
  curve["rows1:nn 64x4"] = {0.1, NAN};
  auto nan = pf::tune(*c, measure, 1.0);
  ASSERT_TRUE(nan.isOk());
  EXPECT_EQ(nan->points[size_t(nan->best)].candidate.label(), "rows1:nn 32x8");
  EXPECT_FALSE(nan->points[4].pareto);
  // A failing measurement ends the search, naming the candidate.
  pf::MeasureFn failing = [&](const pf::Candidate &k)
      -> Expected<std::pair<double, double>> {
    if (k.schemeValue == 2)
      return invalidArgument("launch failed");
    return curve.at(k.label());
  };
  auto f = pf::tune(*c, failing, 0.05);
  ASSERT_FALSE(f.isOk());
  EXPECT_NE(f.status().toString().find("stencil:nn 32x8: launch failed"),
            std::string::npos);
  EXPECT_FALSE(pf::tune({}, measure, 0.05).isOk());
  EXPECT_FALSE(pf::tune(*c, measure, NAN).isOk());
}

TEST(PerforationTuner, HaloOfTheTileLoads) {
  Manifest m = manifest(true);
  m.sites[0].op = "tile_load";
  m.sites[0].data = R"({"halo":[1,2],"schemes":["accurate","rows1:nn","stencil:nn"]})";
  m.sites[1].op = "tile_load";
  m.sites[1].data = R"({"halo":[2,1],"schemes":["accurate","rows1:nn","stencil:nn"]})";
  auto h = pf::haloOf(m, "blur");
  ASSERT_TRUE(h.isOk()) << h.status().toString();
  EXPECT_EQ(*h, (std::pair<int64_t, int64_t>{2, 2}));
  EXPECT_FALSE(pf::haloOf(m, "sharpen").isOk());
  m.sites[1].data = R"({"halo":[-1,1]})";
  EXPECT_NE(pf::haloOf(m, "blur").status().toString().find("bad halo"),
            std::string::npos);
  EXPECT_NE(pf::haloOf(manifest(false), "blur").status().toString().find(
                "records its halo"),
            std::string::npos);
}

TEST(PerforationTuner, Renderers) {
  auto c = pf::candidatesOf(manifest(false), "blur", {}, {32, 8});
  ASSERT_TRUE(c.isOk());
  pf::MeasureFn measure = [](const pf::Candidate &k)
      -> Expected<std::pair<double, double>> {
    return std::make_pair(1.0 - 0.1 * double(k.schemeValue),
                          k.schemeValue ? 0.01 * double(k.schemeValue) : 0.0);
  };
  auto r = pf::tune(*c, measure, 0.015);
  ASSERT_TRUE(r.isOk());
  std::string table = pf::renderTable(*r, "mre", 1.0);
  EXPECT_NE(table.find("| rows1:nn 32x8 | 0.9 | 1.111 | 0.01 | **pick** front |"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("(over QoS)"), std::string::npos);
  std::string svg = pf::renderParetoSvg(*r, "blur <3x3>", "mre");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("blur &lt;3x3&gt;"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("r=\"8\""), std::string::npos) << "the pick is ringed";
}

} // namespace
