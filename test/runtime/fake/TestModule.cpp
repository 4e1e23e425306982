//===- TestModule.cpp - A PTX + manifest pair for the fake driver ---------===//
//
// See TestModule.h for what the module holds.
//
//===----------------------------------------------------------------------===//
#include "TestModule.h"

#include "approx/runtime/core/Base64.h"

#include <cstring>
#include <vector>

namespace approx::rt::fake {

using json = nlohmann::json;

namespace {
std::string floatsBase64(const std::vector<float> &v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size()); // little-endian host
  return encodeBase64(b);
}

json table(int w, int h, int c, const std::vector<float> &v) {
  return {{"width", w}, {"height", h}, {"channels", c}, {"element", "f32"},
          {"data", floatsBase64(v)}};
}

json descParams(int arg) {
  json p = json::array();
  for (auto [f, t] : {std::pair{"allocated", "ptr"}, {"aligned", "ptr"},
                      {"offset", "i64"}, {"size0", "i64"}, {"stride0", "i64"}})
    p.push_back({{"arg", arg}, {"field", f}, {"type", t}, {"size", 8}});
  return p;
}

json memrefArg(int first) {
  return {{"kind", "memref"}, {"element", "f32"}, {"rank", 1},
          {"shape", {-1}}, {"abi", "descriptor"}, {"access", "readwrite"},
          {"first_param", first}, {"num_params", 5}};
}

json i32Arg(int first) {
  return {{"kind", "scalar"}, {"type", "i32"}, {"first_param", first},
          {"num_params", 1}};
}

/// A kernel (memref<?xf32>, i32) reading `knobs`, plus `extra` params.
json descKernel(const std::string &name, std::vector<std::string> knobs,
                json extra = json::array()) {
  json params = descParams(0);
  params.push_back({{"arg", 1}, {"field", "value"}, {"type", "i32"},
                    {"size", 4}});
  for (auto &p : extra)
    params.push_back(p);
  return {{"name", name}, {"knobs", knobs},
          {"args", {memrefArg(0), i32Arg(5)}}, {"params", params}};
}

} // namespace

const char *const kTestPtx = R"(//
.version 8.0
.target sm_90
.address_size 64
.visible .global .align 4 .u32 lambda;
.visible .global .align 4 .u32 mu;
.visible .global .align 8 .u64 table_tex;
.visible .global .align 8 .u64 tab2_tex;
.visible .entry scale(
	.param .u64 scale_param_0,
	.param .u64 scale_param_1,
	.param .u64 scale_param_2,
	.param .u64 scale_param_3,
	.param .u64 scale_param_4,
	.param .u32 scale_param_5
)
{
	ret;
}
.visible .entry scale_p(
	.param .u64 scale_p_param_0,
	.param .u64 scale_p_param_1,
	.param .u64 scale_p_param_2,
	.param .u64 scale_p_param_3,
	.param .u64 scale_p_param_4,
	.param .u32 scale_p_param_5,
	.param .u32 scale_p_param_6,
	.param .u64 scale_p_param_7
)
{
	ret;
}
.visible .entry half(
	.param .u64 half_param_0,
	.param .u64 half_param_1
)
{
	ret;
}
.visible .entry fault(
	.param .u64 fault_param_0,
	.param .u64 fault_param_1,
	.param .u64 fault_param_2,
	.param .u64 fault_param_3,
	.param .u64 fault_param_4,
	.param .u32 fault_param_5
)
{
	ret;
}
)";

json testManifest() {
  json knobs = json::array();
  knobs.push_back({{"name", "lambda"}, {"kind", "global"},
                   {"symbol", "lambda"}, {"type", "i32"}, {"path", "global"},
                   {"min", 0}, {"max", 64}, {"default", 0},
                   {"warp_slot", "hw"}});
  knobs.push_back({{"name", "mu"}, {"kind", "global"}, {"symbol", "mu"},
                   {"type", "i32"}, {"path", "param"}, {"min", 0},
                   {"max", 64}, {"default", 2}});
  knobs.push_back(
      {{"name", "table"}, {"kind", "resource"}, {"symbol", "table_tex"},
       {"type", "i64"}, {"path", "global"}, {"min", 0}, {"max", 1},
       {"default", 0},
       {"resource",
        {{"type", "texture_2d"}, {"filter", "linear"},
         {"address", "border"}, {"normalized_coords", false},
         {"options",
          {table(2, 1, 1, {1.0f, 2.0f}),
           table(2, 2, 2, {1, 2, 3, 4, 5, 6, 7, 8})}}}}});
  knobs.push_back(
      {{"name", "tab2"}, {"kind", "resource"}, {"symbol", "tab2_tex"},
       {"type", "i64"}, {"path", "param"}, {"min", 0}, {"max", 0},
       {"default", 0},
       {"resource",
        {{"type", "texture_2d"}, {"filter", "point"}, {"address", "wrap"},
         {"normalized_coords", true},
         {"options", {table(1, 1, 4, {9, 8, 7, 6})}}}}});
  knobs.push_back({{"name", "prec"}, {"kind", "variant"}, {"min", 0},
                   {"max", 1}, {"default", 0},
                   {"dispatch",
                    {{{"kernel", "run"}, {"variants", {"scale", "half"}}}}}});
  json kernels = json::array();
  kernels.push_back(descKernel("scale", {"lambda", "table", "prec"}));
  kernels.push_back(descKernel(
      "scale_p", {"mu", "tab2"},
      {{{"field", "knob"}, {"knob", "mu"}, {"type", "i32"}, {"size", 4}},
       {{"field", "knob"}, {"knob", "tab2"}, {"type", "i64"}, {"size", 8}}}));
  kernels.push_back(
      {{"name", "half"},
       {"knobs", {"prec"}},
       {"args",
        {{{"kind", "memref"}, {"element", "f64"}, {"rank", 1},
          {"shape", {8}}, {"abi", "bare"}, {"access", "write"},
          {"first_param", 0}, {"num_params", 1}},
         {{"kind", "scalar"}, {"type", "i64"}, {"first_param", 1},
          {"num_params", 1}}}},
       {"params",
        {{{"arg", 0}, {"field", "aligned"}, {"type", "ptr"}, {"size", 8}},
         {{"arg", 1}, {"field", "value"}, {"type", "i64"}, {"size", 8}}}}});
  kernels.push_back(descKernel("fault", {"lambda"}));
  return {{"format", "approx-manifest"}, {"version", 2},
          {"module", "fake"},           {"ptx", "fake.ptx"},
          {"knobs", knobs},             {"kernels", kernels}};
}

} // namespace approx::rt::fake
