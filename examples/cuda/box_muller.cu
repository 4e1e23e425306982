// Box-Muller as a CUDA user writes it (examples/cuda/host.cpp runs it).
#include <cmath>

__global__ void __launch_bounds__(256)
box_muller(const float *u1, const float *u2, float *z0, float *z1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r = sqrtf(-2.0f * logf(u1[i]));
    float t = 6.2831853f * u2[i];
    z0[i] = r * cosf(t);
    z1[i] = r * sinf(t) / (1.0f + expf(-t));
  }
}
