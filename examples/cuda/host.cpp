// host.cpp - a host program using approx-cc's output through the runtime's
// C++ API: load the manifest (and the PTX it names), set lambda, launch.
// No CUDA runtime, no nvcc: the PTX comes from `approx-cc box_muller.cu`.
//
//   box_muller_host DIR/box_muller.manifest.json [LAMBDA] [N]
// Prints the mean of z0 and z1 (about 0 for standard normal draws) and
// their variance (about 1). Exits 77 where no GPU is usable.
#include "approx/runtime/core/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace approx::rt;

static int fail(const Status &s) {
  std::fprintf(stderr, "box_muller_host: %s\n", s.toString().c_str());
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: box_muller_host MANIFEST [LAMBDA] [N]\n");
    return 2;
  }
  int lambda = argc > 2 ? std::atoi(argv[2]) : 0;
  int n = argc > 3 ? std::atoi(argv[3]) : 1 << 20;
  if (Status s = probeDriver(); !s) {
    std::printf("skipped: %s\n", s.message().c_str());
    return 77;
  }
  auto ctx = Context::create();
  if (!ctx)
    return fail(ctx.status());
  auto module = Module::load(*ctx, argv[1]);
  if (!module)
    return fail(module.status());

  std::vector<float> u1(n), u2(n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> uniform(1e-7f, 1.0f);
  for (int i = 0; i < n; ++i) {
    u1[i] = uniform(rng);
    u2[i] = uniform(rng);
  }
  auto d1 = DeviceBuffer::fromHost(*ctx, u1.data(), n, ScalarType::F32);
  auto d2 = DeviceBuffer::fromHost(*ctx, u2.data(), n, ScalarType::F32);
  auto z0 = DeviceBuffer::allocate(*ctx, n * sizeof(float), ScalarType::F32);
  auto z1 = DeviceBuffer::allocate(*ctx, n * sizeof(float), ScalarType::F32);
  for (auto *b : {&d1, &d2, &z0, &z1})
    if (!*b)
      return fail(b->status());

  // The three lines a host program needs: the knob, the kernel, the launch.
  if (Status s = (*module)->setKnob("lambda", lambda); !s)
    return fail(s);
  std::string kernel = (*module)->kernelNames().front();
  LaunchConfig cfg{{unsigned((n + 255) / 256), 1, 1}, {256, 1, 1}};
  if (Status s = (*module)->launchSync(
          kernel, cfg,
          {Arg::pointer(d1->devicePtr()), Arg::pointer(d2->devicePtr()),
           Arg::pointer(z0->devicePtr()), Arg::pointer(z1->devicePtr()),
           Arg::integer(n)});
      !s)
    return fail(s);

  std::vector<float> a(n), b(n);
  if (Status s = z0->copyToHost(a.data(), n * sizeof(float)); !s)
    return fail(s);
  if (Status s = z1->copyToHost(b.data(), n * sizeof(float)); !s)
    return fail(s);
  double mean = 0, var = 0;
  for (int i = 0; i < n; ++i)
    mean += a[i];
  mean /= n;
  for (int i = 0; i < n; ++i)
    var += (a[i] - mean) * (a[i] - mean);
  var /= n;
  std::printf("kernel %s, lambda %d, n %d: z0 mean %.4f variance %.4f\n",
              kernel.c_str(), lambda, n, mean, var);
  // z0 = r cos(t) of uniform draws is standard normal.
  return std::abs(mean) < 0.01 && std::abs(var - 1.0) < 0.02 ? 0 : 1;
}
