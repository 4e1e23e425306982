// features.cu - kernels for the runtime's manifest-v2 features, on a GPU.
//
// Compiled to PTX at build time (nvcc -ptx, when nvcc is found) for
// test/runtime/GpuFeatureTest.cpp; features.manifest.json is its hand-written
// v2 manifest. The ABI is the compiler's (docs/manifest.md): extern "C"
// kernels, memref descriptors flattened to (allocated, aligned, offset,
// size0, stride0), abi "bare" memrefs as one pointer, knob parameters last.
//
//   bare_affine   memref<1024xf32> bare, in place x = 2x + 1
//   axpy_f32/f64  the two variants of logical kernel "axpy" (knob prec),
//                 with different ABIs: y = a*x + y
//   tex_point     out[i] = texture lut_tex at (xs[i], ys[i]): knob lut,
//                 path global, point filter, clamp, unnormalized
//   tex_linear    the same through lin_tex: knob lin, linear filter, border
//   tex_param     the same through a trailing parameter: knob lutp, path
//                 param, 4 channels, point, wrap, normalized coordinates;
//                 out = x + 10 y + 100 z + 1000 w of the texel
//   scale_p       y = x scaled `rounds` times by (1 + mu/1000), mu a knob
//                 parameter (path param)
//   fault         x *= 1 + lambda/1000, but lambda >= 40 stores through an
//                 invalid address (a deliberate illegal-address fault)

extern "C" {
__device__ int lambda = 0;
__device__ int mu = 0;
__device__ unsigned long long lut_tex = 0;
__device__ unsigned long long lin_tex = 0;
__device__ unsigned long long lutp_tex = 0;
}

#define DESC(T, n)                                                             \
  T *n##_alloc, T *n, long long n##_off, long long n##_size,                   \
      long long n##_stride
#define AT(n, i) n[n##_off + (i) * n##_stride]

__device__ __forceinline__ long long gid() {
  return (long long)blockIdx.x * blockDim.x + threadIdx.x;
}

extern "C" __global__ void bare_affine(float *x, int n) {
  long long i = gid();
  if (i < n)
    x[i] = 2.0f * x[i] + 1.0f;
}

extern "C" __global__ void axpy_f32(DESC(const float, x), DESC(float, y),
                                    float a, int n) {
  long long i = gid();
  if (i < n)
    AT(y, i) = a * AT(x, i) + AT(y, i);
}

extern "C" __global__ void axpy_f64(DESC(const double, x), DESC(double, y),
                                    double a, int n) {
  long long i = gid();
  if (i < n)
    AT(y, i) = a * AT(x, i) + AT(y, i);
}

extern "C" __global__ void tex_point(DESC(float, out), DESC(const float, xs),
                                     DESC(const float, ys), int n) {
  long long i = gid();
  if (i < n)
    AT(out, i) = tex2D<float>((cudaTextureObject_t)lut_tex, AT(xs, i),
                              AT(ys, i));
}

extern "C" __global__ void tex_linear(DESC(float, out), DESC(const float, xs),
                                      DESC(const float, ys), int n) {
  long long i = gid();
  if (i < n)
    AT(out, i) = tex2D<float>((cudaTextureObject_t)lin_tex, AT(xs, i),
                              AT(ys, i));
}

extern "C" __global__ void tex_param(DESC(float, out), DESC(const float, xs),
                                     DESC(const float, ys), int n,
                                     unsigned long long tex) {
  long long i = gid();
  if (i < n) {
    float4 v = tex2D<float4>((cudaTextureObject_t)tex, AT(xs, i), AT(ys, i));
    AT(out, i) = v.x + 10.0f * v.y + 100.0f * v.z + 1000.0f * v.w;
  }
}

extern "C" __global__ void scale_p(DESC(const float, x), DESC(float, y),
                                   int n, int rounds, int mu_value) {
  long long i = gid();
  if (i >= n)
    return;
  float v = AT(x, i);
  float s = 1.0f + (float)mu_value * 1e-3f;
  for (int r = 0; r < rounds; ++r)
    v = v * s + 1e-3f * __sinf(v);
  AT(y, i) = v;
}

extern "C" __global__ void fault(DESC(float, x), int n) {
  long long i = gid();
  if (i >= n)
    return;
  if (lambda >= 40 && i == 0)
    *(volatile float *)(unsigned long long)8 = AT(x, i); // illegal address
  AT(x, i) = AT(x, i) * (1.0f + (float)lambda * 1e-3f);
}
