//===- ExampleFakeMain.cpp - the mgpu precision example on the fake driver ===//
//
// Runs examples/precision/mgpu's GESUMMV -- its host code exactly as
// gpu-to-llvm lowered it, compiled with precision-all= -- over the fake
// driver instead of a GPU, in whatever APPROX_PRECISION* environment the
// ctest gives (ctest mgpu.example.*). So the hooks see the real mgpu* call
// sequence: the JIT module load from a global constructor, allocation order,
// expanded descriptors, whole-object copies, module unload. Each kernel of
// the manifest runs as a host loop reading and writing its arrays in the
// element types the manifest gives that variant, so a wrong variant or a
// wrong conversion shows in the program's own check (its exit status).
// Then this main checks what the program cannot see: the kernel the fake
// launched is the one with the configured storage types (the original in
// plain and profile mode), a profile has the program's four objects,
// transfers and kernel, and a scale report (APPROX_PRECISION_REPORT) names
// that variant and the objects moved.
//
// The object runs through ObjectMain.h (its constructors moved by the
// build).
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "ObjectMain.h"
#include "PrecisionFake.h"
#include "PrecisionHooks.h"

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/precision/Decision.h"
#include "approx/runtime/precision/HostConvert.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using approx::rt::ArgInfo;
using approx::rt::KernelInfo;
using approx::rt::Manifest;
using approx::rt::ScalarType;
using approx::rt::fake::FakeDriver;
using approx::rt::fake::LaunchRecord;
namespace precision = approx::rt::precision;


namespace {

int fail(const std::string &msg) {
  std::fprintf(stderr, "example-fake: %s\n", msg.c_str());
  return 1;
}

/// The element types of `k`'s memref arguments.
std::vector<ScalarType> memrefTypes(const KernelInfo &k) {
  std::vector<ScalarType> t;
  for (const ArgInfo &a : k.args)
    if (a.kind == ArgInfo::Kind::Memref)
      t.push_back(a.type.scalar);
  return t;
}

/// Registers `k` (gesummv(at, bt, x, y, alpha, beta, n) in some storage
/// types) as its host loop: the kernel's arithmetic in f64 on the arrays
/// widened from their storage types, y rounded to its storage type.
bool registerGesummv(FakeDriver &f, const KernelInfo &k) {
  if (k.args.size() != 7 || memrefTypes(k).size() != 4)
    return false;
  const std::vector<ScalarType> t = memrefTypes(k);
  std::vector<size_t> first;
  for (const ArgInfo &a : k.args)
    first.push_back(a.firstParam);
  f.setKernel(k.name, [t, first](LaunchRecord &r) {
    const int64_t n = r.param<int64_t>(first[6]);
    const double alpha = r.param<double>(first[4]);
    const double beta = r.param<double>(first[5]);
    // Descriptors: allocated, aligned, offset, sizes, strides; identity
    // layouts with offset 0 are all the example passes.
    for (int a = 0; a < 4; ++a)
      if (r.param<int64_t>(first[a] + 2) != 0 ||
          r.param<int64_t>(first[a] + 3) != n)
        return CUDA_ERROR_INVALID_VALUE;
    const size_t nn = size_t(n) * size_t(n);
    using approx::rt::fake::toF64;
    std::vector<double> at = toF64(r.ptr<void>(first[0] + 1), t[0], nn);
    std::vector<double> bt = toF64(r.ptr<void>(first[1] + 1), t[1], nn);
    std::vector<double> x = toF64(r.ptr<void>(first[2] + 1), t[2], size_t(n));
    std::vector<double> y(static_cast<size_t>(n));
    for (size_t i = 0; i < size_t(n); ++i) {
      double sa = 0, sb = 0;
      for (size_t j = 0; j < size_t(n); ++j) {
        sa += at[j * size_t(n) + i] * x[j];
        sb += bt[j * size_t(n) + i] * x[j];
      }
      y[i] = alpha * sa + beta * sb;
    }
    precision::ConvertOptions o;
    o.threads = 1;
    if (!precision::convert(y.data(), ScalarType::F64,
                            r.ptr<void>(first[3] + 1), t[3], size_t(n), o)
             .isOk())
      return CUDA_ERROR_ILLEGAL_ADDRESS;
    return CUDA_SUCCESS;
  });
  return true;
}

const char *env(const char *name) {
  const char *v = std::getenv(name);
  return v && *v ? v : nullptr;
}

/// Whether the fake launched exactly one kernel, `want`.
int checkLaunch(const std::string &want) {
  const auto &launches = FakeDriver::get().launches;
  std::vector<std::string> kernels;
  for (const LaunchRecord &r : launches)
    if (r.kernel.rfind("gesummv", 0) == 0)
      kernels.push_back(r.kernel);
  if (kernels.size() != 1 || kernels[0] != want)
    return fail("expected one launch of " + want + ", got " +
                std::to_string(kernels.size()) +
                (kernels.empty() ? "" : " (last " + kernels.back() + ")"));
  return 0;
}

/// The profile of the example: obj0..obj3 = A, B (n x n), x, y (n), copied
/// in, in, in, out; one kernel, gesummv.
int checkProfile(const std::string &path, uint64_t n) {
  approx::rt::Expected<precision::AppProfile> p =
      precision::loadAppProfile(path);
  if (!p)
    return fail("profile " + path + ": " + p.status().message());
  const std::vector<std::string> transfers = {
      "h2d obj0 " + std::to_string(n * n), "h2d obj1 " + std::to_string(n * n),
      "h2d obj2 " + std::to_string(n), "d2h obj3 " + std::to_string(n)};
  if (p->transfers != transfers)
    return fail("profile transfers differ from the program's four copies");
  if (p->objects.size() != 4 || p->kernels.size() != 1 ||
      p->kernels[0].name != "gesummv")
    return fail("profile: expected 4 objects and kernel gesummv");
  for (size_t i = 0; i < 4; ++i) {
    const precision::ObjectProfile &o = p->objects[i];
    const bool out = i == 3;
    if (o.name != "obj" + std::to_string(i) || o.declared != ScalarType::F64 ||
        o.elements != (i < 2 ? n * n : n) ||
        (out ? o.writtenBy : o.readBy) != std::vector<std::string>{"gesummv"} ||
        !(out ? o.readBy : o.writtenBy).empty())
      return fail("profile: object " + std::to_string(i) +
                  " is not the program's");
  }
  return 0;
}

/// The scale report: `want` ran for gesummv, and the transfers of every
/// object were timed.
int checkReport(const std::string &path, const std::string &want) {
  std::ifstream in(path);
  nlohmann::json r = nlohmann::json::parse(in, nullptr, /*exceptions=*/false);
  if (r.is_discarded() || !r.is_object())
    return fail("report " + path + " is not JSON");
  const nlohmann::json &k = r["kernels"];
  if (!k.is_array() || k.size() != 1 || k[0]["name"] != "gesummv" ||
      k[0]["ran"] != nlohmann::json::array({want}))
    return fail("report " + path + ": expected kernel gesummv ran as " + want);
  const nlohmann::json &o = r["objects"];
  if (!o.is_array() || o.size() != 4)
    return fail("report " + path + ": expected 4 objects");
  return 0;
}

} // namespace

int main() {
  const char *manifestPath = APPROX_EXAMPLE_MANIFEST;
  approx::rt::Expected<Manifest> m = approx::rt::loadManifestFile(manifestPath);
  if (!m)
    return fail(m.status().message());
  if (!approx::rt::fake::resetPrecisionFake().isOk()) // context dropped
    return fail("the fake driver did not start");
  approx::mgpu::setDriverForTesting(approx::rt::fake::precisionTable());
  FakeDriver &f = FakeDriver::get();
  for (const KernelInfo &k : m->kernels)
    if (!registerGesummv(f, k))
      return fail("kernel " + k.name + " is not gesummv's shape");

  int rc = runObjectMain();

  // The kernel each mode must have launched.
  const std::string mode = env("APPROX_PRECISION") ? env("APPROX_PRECISION")
                                                   : "plain";
  std::string want = "gesummv";
  if (mode == "scale") {
    approx::rt::Expected<precision::Configuration> c =
        precision::loadConfiguration(env("APPROX_PRECISION_CONFIG"));
    if (!c)
      return fail(c.status().message());
    std::vector<ScalarType> types;
    for (int i = 0; i < 4; ++i) {
      const precision::ObjectChoice *o = c->find("obj" + std::to_string(i));
      types.push_back(o ? o->storage : ScalarType::F64);
    }
    want.clear();
    for (const KernelInfo &k : m->kernels)
      if (memrefTypes(k) == types && want.empty())
        want = k.name;
  }
  if (int bad = checkLaunch(want))
    rc = bad;
  const char *n = env("GESUMMV_N");
  if (mode == "profile" && !rc)
    rc = checkProfile(env("APPROX_PRECISION_OUT"),
                      n ? std::strtoull(n, nullptr, 10) : 4096);
  if (mode == "scale" && env("APPROX_PRECISION_REPORT") && !rc)
    rc = checkReport(env("APPROX_PRECISION_REPORT"), want);

  // The hooks go while the fake they call is still there.
  approx::mgpu::PrecisionHooks::resetForTesting();
  approx::mgpu::setDriverForTesting(nullptr);
  if (!rc)
    std::printf("example-fake: %s run checked (%s)\n", mode.c_str(),
                want.c_str());
  return rc;
}
