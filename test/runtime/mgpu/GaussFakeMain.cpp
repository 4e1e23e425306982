//===- GaussFakeMain.cpp - gauss_host on the fake driver, as tuned --------===//
//
// Runs examples/combined/mgpu's gauss_host -- its host code exactly as
// gpu-to-llvm lowered it, with precision-all=f32 -- over the fake driver, in
// the environment `approx tune ... --storage f32` gives a trial (ctest
// mgpu.gauss.*): the knob and capture hooks with the precision hooks. Each
// variant of the kernel runs as a host loop in the element types the
// manifest gives it, so a wrong variant or conversion shows in the
// program's own check (its exit status); the object runs through
// ObjectMain.h.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "ObjectMain.h"
#include "KnobHooks.h"
#include "PrecisionFake.h"
#include "PrecisionHooks.h"

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/precision/HostConvert.h"

#include <cmath>
#include <cstdio>
#include <vector>

using approx::rt::ArgInfo;
using approx::rt::KernelInfo;
using approx::rt::Manifest;
using approx::rt::ScalarType;
using approx::rt::fake::FakeDriver;
using approx::rt::fake::LaunchRecord;
namespace precision = approx::rt::precision;


int main() {
  approx::rt::Expected<Manifest> m =
      approx::rt::loadManifestFile(APPROX_GAUSS_MANIFEST);
  if (!m || !approx::rt::fake::resetPrecisionFake().isOk()) {
    std::fprintf(stderr, "gauss-fake: cannot start\n");
    return 1;
  }
  approx::mgpu::setDriverForTesting(approx::rt::fake::precisionTable());
  FakeDriver &f = FakeDriver::get();
  for (const KernelInfo &k : m->kernels) {
    // gauss(x, y, n): y = pdf(x) + log(1 + x^2) in f64, in y's type.
    const ScalarType tx = k.args[0].type.scalar, ty = k.args[1].type.scalar;
    const size_t px = k.args[0].firstParam + 1, py = k.args[1].firstParam + 1,
                 pn = k.args[2].firstParam;
    f.setKernel(k.name, [=](LaunchRecord &r) {
      const size_t n = size_t(r.param<int64_t>(pn));
      std::vector<double> x = approx::rt::fake::toF64(r.ptr<void>(px), tx, n);
      std::vector<double> y(n);
      for (size_t i = 0; i < n; ++i)
        y[i] = std::exp(-0.5 * x[i] * x[i]) * 0.3989422804014327 +
               std::log(1 + x[i] * x[i]);
      precision::ConvertOptions o;
      o.threads = 1;
      return precision::convert(y.data(), ScalarType::F64, r.ptr<void>(py),
                                ty, n, o)
                     .isOk()
                 ? CUDA_SUCCESS
                 : CUDA_ERROR_ILLEGAL_ADDRESS;
    });
  }
  int rc = runObjectMain();
  std::vector<std::string> ran;
  for (const LaunchRecord &r : f.launches)
    if (r.kernel.rfind("gauss", 0) == 0)
      ran.push_back(r.kernel);
  std::printf("gauss-fake: exit %d, launched %s\n", rc,
              ran.size() == 1 ? ran[0].c_str() : "(not one gauss kernel)");
  approx::mgpu::PrecisionHooks::resetForTesting();
  approx::mgpu::KnobHooks::resetForTesting();
  approx::mgpu::setDriverForTesting(nullptr);
  return ran.size() == 1 ? rc : 1;
}
