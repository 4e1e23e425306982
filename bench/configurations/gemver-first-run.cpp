//===- gemver-first-run.cpp - GEMVER's first run of a build, end to end ---===//
//
// gemver-first-run MANIFEST N: one run of examples/precision/gemver.mlir's
// three kernels from a build approx-opt or approx-build made, as a program
// would run it the first time: the driver and context, the module's load
// (the PTX JIT-compiled for this GPU), the nine arrays allocated and filled
// with random values in the storage types the build's kernels take, the
// three launches (block 32x8, 256, 256 as PolyBench/GPU), and the wait. Each
// phase's wall time and the total, in milliseconds, one line each, then
// the PTX and manifest sizes. docs/configurations.md quotes it
// (bench/configurations/gemver-gpu.sh).
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/FloatBits.h"
#include "approx/runtime/core/Runtime.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace approx::rt;
using approx::rt::floatbits::roundFromF64;
using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void fail(const std::string &what, const Status &s) {
  std::fprintf(stderr, "gemver-first-run: %s: %s\n", what.c_str(),
               s.toString().c_str());
  std::exit(1);
}
template <typename T> T must(Expected<T> e, const std::string &what) {
  if (!e)
    fail(what, e.status());
  return e.take();
}
void must(const Status &s, const std::string &what) {
  if (!s.isOk())
    fail(what, s);
}

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

/// `n` random values in [0.5, 1.5) stored as `t`.
std::vector<uint8_t> randomOf(ScalarType t, size_t n, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> u(0.5, 1.5);
  size_t es = scalarTypeSize(t);
  std::vector<uint8_t> out(n * es);
  for (size_t i = 0; i < n; ++i) {
    double v = u(rng);
    uint64_t d;
    std::memcpy(&d, &v, 8);
    uint8_t *p = out.data() + i * es;
    if (t == ScalarType::F64) {
      std::memcpy(p, &v, 8);
    } else if (t == ScalarType::F32) {
      uint32_t b = roundFromF64<23, 8>(d);
      std::memcpy(p, &b, 4);
    } else {
      uint16_t b = uint16_t(t == ScalarType::F16 ? roundFromF64<10, 5>(d)
                                                 : roundFromF64<7, 8>(d));
      std::memcpy(p, &b, 2);
    }
  }
  return out;
}

long fileBytes(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? long(st.st_size) : -1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: gemver-first-run MANIFEST N\n");
    return 2;
  }
  const std::string manifestPath = argv[1];
  char *end = nullptr;
  long long n = std::strtoll(argv[2], &end, 10);
  if (!end || *end || n < 256 || n > 32768 || n % 256) {
    std::fprintf(stderr, "gemver-first-run: N must be a multiple of 256 in "
                         "[256, 32768], got '%s'\n", argv[2]);
    return 2;
  }
  const Clock::time_point t0 = Clock::now();
  std::shared_ptr<Context> ctx = must(Context::create(0), "context");
  const double tContext = msSince(t0);
  Clock::time_point t = Clock::now();
  std::unique_ptr<Module> mod = must(Module::load(ctx, manifestPath), "load");
  const double tLoad = msSince(t);

  // The arguments, each in the element type the launched kernel takes (a
  // dispatched variant: the one its knobs' defaults select).
  t = Clock::now();
  std::mt19937_64 rng(20261128);
  std::vector<DeviceBuffer> keep;
  const char *kernels[] = {"gemver_kernel1", "gemver_kernel2",
                           "gemver_kernel3"};
  std::vector<std::vector<Arg>> args(3);
  for (int k = 0; k < 3; ++k) {
    const KernelInfo *info = must(mod->resolveKernel(kernels[k]), "kernel");
    for (const ArgInfo &a : info->args) {
      if (a.kind == ArgInfo::Kind::Scalar) {
        ScalarType s = a.type.scalar;
        args[k].push_back(s == ScalarType::F64 || s == ScalarType::F32
                              ? Arg::floating(1.5)
                              : Arg::integer(n));
        continue;
      }
      std::vector<int64_t> shape(size_t(a.rank), n);
      size_t count = a.rank == 2 ? size_t(n * n) : size_t(n);
      std::vector<uint8_t> bytes = randomOf(a.type.scalar, count, rng);
      keep.push_back(must(DeviceBuffer::fromHost(ctx, bytes.data(), count,
                                                 a.type.scalar),
                          "upload"));
      args[k].push_back(Arg::memref(keep.back().view(), shape));
    }
  }
  const double tData = msSince(t);

  t = Clock::now();
  unsigned g = unsigned(n);
  LaunchConfig l1{{g / 32, g / 8, 1}, {32, 8, 1}, 0};
  LaunchConfig l23{{g / 256, 1, 1}, {256, 1, 1}, 0};
  must(mod->launch(kernels[0], l1, args[0]), "launch gemver_kernel1");
  must(mod->launch(kernels[1], l23, args[1]), "launch gemver_kernel2");
  must(mod->launch(kernels[2], l23, args[2]), "launch gemver_kernel3");
  must(ctx->synchronize(), "run");
  const double tRun = msSince(t);
  const double total = msSince(t0);

  std::string ptx = manifestPath.substr(0, manifestPath.size() -
                                               std::strlen(".manifest.json")) +
                    ".ptx";
  std::printf("context_ms %.1f\nload_jit_ms %.1f\ndata_ms %.1f\nrun_ms %.1f\n"
              "total_ms %.1f\nkernels_in_ptx %zu\nptx_bytes %ld\n"
              "manifest_bytes %ld\n",
              tContext, tLoad, tData, tRun, total,
              mod->manifest().kernels.size(), fileBytes(ptx),
              fileBytes(manifestPath));
  return 0;
}
