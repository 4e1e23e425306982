// compare-nvcc.cu - approx-cc's PTX of an unmodified CUDA kernel against
// nvcc's build of the same source, on the GPU: bit-identical outputs at
// lambda = 0, time ratio at lambda = 0 and at lambda = max, and the error
// the approximate warps add. Built by run-gpu-check.sh with nvcc -O3.
//
//   compare-nvcc PTX KERNEL [N]
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "../../../examples/cuda/box_muller.cu"

#define CK(x)                                                                  \
  do {                                                                         \
    CUresult r_ = (x);                                                         \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *s_ = "";                                                     \
      cuGetErrorString(r_, &s_);                                               \
      std::fprintf(stderr, "%s failed: %s\n", #x, s_);                         \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
#define RT(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e_));     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: compare-nvcc PTX KERNEL [N]\n");
    return 2;
  }
  const int n = argc > 3 ? std::atoi(argv[3]) : 1 << 24;
  RT(cudaFree(nullptr)); // primary context, shared with the driver API
  CUmodule mod;
  CK(cuModuleLoad(&mod, argv[1]));
  CUfunction fn;
  CK(cuModuleGetFunction(&fn, mod, argv[2]));
  CUdeviceptr lambda;
  size_t lambdaSize;
  CK(cuModuleGetGlobal(&lambda, &lambdaSize, mod, "lambda"));

  float *u1, *u2, *a0, *a1, *b0, *b1;
  for (float **p : {&u1, &u2, &a0, &a1, &b0, &b1})
    RT(cudaMalloc(p, n * sizeof(float)));
  std::vector<float> h1(n), h2(n);
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  auto fresh = [&] {
    for (int i = 0; i < n; ++i) {
      h1[i] = std::max(dist(rng), 1e-7f);
      h2[i] = dist(rng);
    }
    RT(cudaMemcpy(u1, h1.data(), n * 4, cudaMemcpyHostToDevice));
    RT(cudaMemcpy(u2, h2.data(), n * 4, cudaMemcpyHostToDevice));
  };
  const int block = 256, grid = (n + block - 1) / block;
  auto runOurs = [&](int lam) {
    CK(cuMemcpyHtoD(lambda, &lam, sizeof(int)));
    int nn = n;
    void *args[] = {&u1, &u2, &a0, &a1, &nn};
    CK(cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, 0, args, nullptr));
  };
  auto runNvcc = [&] { box_muller<<<grid, block>>>(u1, u2, b0, b1, n); };

  cudaDeviceProp prop;
  RT(cudaGetDeviceProperties(&prop, 0));
  int maxLambda = prop.maxThreadsPerMultiProcessor / 32;
  int driver = 0;
  cuDriverGetVersion(&driver);
  std::printf("GPU %s, driver API %d, n = %d\n", prop.name, driver, n);

  // Correctness at lambda = 0, on three fresh inputs.
  std::vector<float> x0(n), x1(n), y0(n), y1(n);
  long mismatches = 0;
  for (int rep = 0; rep < 3; ++rep) {
    fresh();
    runOurs(0);
    runNvcc();
    RT(cudaDeviceSynchronize());
    RT(cudaMemcpy(x0.data(), a0, n * 4, cudaMemcpyDeviceToHost));
    RT(cudaMemcpy(x1.data(), a1, n * 4, cudaMemcpyDeviceToHost));
    RT(cudaMemcpy(y0.data(), b0, n * 4, cudaMemcpyDeviceToHost));
    RT(cudaMemcpy(y1.data(), b1, n * 4, cudaMemcpyDeviceToHost));
    mismatches += std::memcmp(x0.data(), y0.data(), n * 4) != 0;
    for (int i = 0; i < n; ++i)
      mismatches += std::memcmp(&x0[i], &y0[i], 4) != 0 ||
                    std::memcmp(&x1[i], &y1[i], 4) != 0;
  }
  std::printf("lambda = 0: %ld of %d outputs x 3 inputs differ from nvcc's "
              "bit for bit\n", mismatches, 2 * n);

  // Error at lambda = max against the precise (nvcc) result.
  runOurs(maxLambda);
  RT(cudaDeviceSynchronize());
  RT(cudaMemcpy(x1.data(), a1, n * 4, cudaMemcpyDeviceToHost));
  double sumRel = 0, maxAbs = 0;
  for (int i = 0; i < n; ++i) {
    double ref = y1[i], d = std::fabs(double(x1[i]) - ref);
    maxAbs = std::max(maxAbs, d);
    sumRel += std::fabs(ref) > 1e-6 ? d / std::fabs(ref) : d;
  }
  std::printf("lambda = %d: z1 mean relative error %.3g, max abs error %.3g\n",
              maxLambda, sumRel / n, maxAbs);

  // Time: interleaved, events, warm-up, medians over 30 fresh-input rounds.
  cudaEvent_t e0, e1;
  RT(cudaEventCreate(&e0));
  RT(cudaEventCreate(&e1));
  auto time = [&](auto &&launch) {
    RT(cudaEventRecord(e0));
    launch();
    RT(cudaEventRecord(e1));
    RT(cudaEventSynchronize(e1));
    float ms;
    RT(cudaEventElapsedTime(&ms, e0, e1));
    return ms;
  };
  for (int w = 0; w < 5; ++w) {
    runNvcc();
    runOurs(0);
    runOurs(maxLambda);
  }
  std::vector<float> tn, t0, tm;
  for (int rep = 0; rep < 30; ++rep) {
    if (rep % 10 == 0)
      fresh();
    tn.push_back(time(runNvcc));
    t0.push_back(time([&] { runOurs(0); }));
    tm.push_back(time([&] { runOurs(maxLambda); }));
  }
  std::printf("| version | median ms | / nvcc |\n|---|---|---|\n");
  std::printf("| nvcc -O3 | %.4f | 1.000 |\n", median(tn));
  std::printf("| approx-cc, lambda = 0 | %.4f | %.3f |\n", median(t0),
              median(t0) / median(tn));
  std::printf("| approx-cc, lambda = %d | %.4f | %.3f |\n", maxLambda,
              median(tm), median(tm) / median(tn));
  return mismatches ? 1 : 0;
}
