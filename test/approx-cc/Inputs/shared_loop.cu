// A block-level reduction: shared memory, a loop and __syncthreads(), with
// exp on both sides of the barriers. extern "C": the kernel keeps its name.
extern "C" __global__ void softmax_sum(const float *x, float *out, int n) {
  __shared__ float part[256];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc += expf(x[i]);
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = logf(part[0]);
}
