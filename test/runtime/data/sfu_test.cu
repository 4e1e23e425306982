// sfu_test.cu - hand-written stand-in for compiler output, for runtime tests.
//
// Mirrors what approx-opt emits (docs/manifest.md): extern "C" kernels whose
// parameters are MLIR memref descriptors flattened (allocated, aligned,
// offset, size0, stride0), a `.visible .global` knob `lambda`, and a warp
// split on the hardware warp-slot id: warps with %warpid < lambda take the
// SFU `.approx.ftz` instructions, the others the precise libdevice path.
// Regenerate the PTX with ./regen.sh (nvcc -arch=sm_90 -ptx).

extern "C" {
__device__ int lambda = 0;
}

__device__ __forceinline__ unsigned hwWarpId() {
  unsigned w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  return w;
}
__device__ __forceinline__ float sinApprox(float x) {
  float y;
  asm("sin.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float cosApprox(float x) {
  float y;
  asm("cos.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float expApprox(float x) {
  float t, y;
  asm("mul.ftz.f32 %0, %1, 0f3FB8AA3B;" : "=f"(t) : "f"(x)); // x*log2(e)
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(t));
  return y;
}

// out_sin[i] = sin(x[i]); out_exp[i] = exp(x[i]); i < n.
extern "C" __global__ void sin_exp(
    const float *x_alloc, const float *x, long long x_off, long long x_size,
    long long x_stride, float *s_alloc, float *s, long long s_off,
    long long s_size, long long s_stride, float *e_alloc, float *e,
    long long e_off, long long e_size, long long e_stride, int n) {
  const bool sfu = hwWarpId() < unsigned(lambda);
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || i >= x_size)
    return;
  float v = x[x_off + i * x_stride];
  float rs, re;
  if (sfu) {
    rs = sinApprox(v);
    re = expApprox(v);
  } else {
    rs = sinf(v);
    re = expf(v);
  }
  s[s_off + i * s_stride] = rs;
  e[e_off + i * e_stride] = re;
}

// In place: `rounds` transcendental rounds per element (compute-bound).
extern "C" __global__ void rounds_inplace(float *d_alloc, float *d,
                                          long long d_off, long long d_size,
                                          long long d_stride, int rounds) {
  const bool sfu = hwWarpId() < unsigned(lambda);
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= d_size)
    return;
  float v = d[d_off + i * d_stride];
  if (sfu) {
    for (int r = 0; r < rounds; ++r)
      v = sinApprox(v * 1.37f + 0.5f) + 0.5f * cosApprox(v * 0.71f) +
          0.25f * expApprox(-v * v);
  } else {
    for (int r = 0; r < rounds; ++r)
      v = sinf(v * 1.37f + 0.5f) + 0.5f * cosf(v * 0.71f) +
          0.25f * expf(-v * v);
  }
  d[d_off + i * d_stride] = v;
}
