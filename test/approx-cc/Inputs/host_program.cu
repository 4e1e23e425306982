// An unmodified CUDA program: host launches, cooperative groups, a
// __constant__ table the host fills, and loops with and without unroll
// pragmas (test/approx-cc/nvcc-parity.test).
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__constant__ float c_taps[17];

__global__ void taps(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 17; ++k)
    s += c_taps[k] * in[i + k];
  block.sync();
  if (i < n)
    out[i] = sqrtf(s);
}

__global__ void unrolled(float *x, int n) {
  float s = 0;
#pragma unroll 8
  for (int k = 0; k < n; ++k)
    s += sqrtf(x[threadIdx.x + k * 32]);
  x[threadIdx.x] = s;
}

__global__ void kept(float *x, int n) {
  float s = 0;
#pragma unroll 1
  for (int k = 0; k < n; ++k)
    s += sqrtf(x[threadIdx.x + k * 32]);
  x[threadIdx.x] = s;
}

int main() {
  float h[17] = {1};
  float *in, *out;
  cudaMemcpyToSymbol(c_taps, h, sizeof h);
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, 4096 * sizeof(float));
  taps<<<16, 256>>>(in, out, 4000);
  unrolled<<<1, 32>>>(out, 16);
  kept<<<1, 32>>>(out, 16);
  return cudaDeviceSynchronize() != cudaSuccess;
}
