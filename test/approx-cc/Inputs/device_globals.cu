// __device__ variables, one marked used: clang lists it in @llvm.compiler.used,
// an LLVM array the backend never prints as a PTX symbol.
__device__ __attribute__((used)) float table[4] = {1, 2, 3, 4};
__device__ float coeff = 2.0f;
__global__ void k(float *p) { p[threadIdx.x] = expf(p[threadIdx.x] * table[threadIdx.x % 4] * coeff); }
