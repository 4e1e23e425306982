// A loop whose body has one expf: approx-cc versions it (SFU and precise
// copies) and approx-unroll-versioned unrolls both.
__global__ void sum_exp(const float *a, float *out, int n, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int i = 0; i < n; ++i)
    acc += expf(a[i * stride + t]);
  out[t] = acc;
}
