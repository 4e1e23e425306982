// Three plain CUDA stencils, one per border form, for approx-cc's
// transparent perforation (docs/perforation.md, "CUDA front door"):
//
//   approx-cc stencils.cu -o DIR \
//     --approx-options="perforate=accurate,rows1:nn,stencil:nn perforate-blocks=32x4r8"
//
// Nothing here knows about approx: the window loops are unrolled
// (#pragma unroll) so that their offsets are constants, which is what
// approx-perforation-raise needs; everything else is ordinary CUDA.

// 3x3 Gaussian (1 2 1 / 2 4 2 / 1 2 1, over 16), borders clamped.
extern "C" __global__ void __launch_bounds__(256)
gaussian3(const float *__restrict__ in, float *__restrict__ out, int h, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const float k[3] = {1.f, 2.f, 1.f};
  float s = 0.f;
#pragma unroll
  for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
    for (int dx = -1; dx <= 1; ++dx) {
      int yy = min(max(y + dy, 0), h - 1);
      int xx = min(max(x + dx, 0), w - 1);
      s += k[dy + 1] * k[dx + 1] * in[yy * w + xx];
    }
  out[y * w + x] = s / 16.f;
}

// The pixel at (y, x), or 0 outside the image.
__device__ __forceinline__ float at(const float *__restrict__ in, int y, int x,
                                    int h, int w) {
  return (y >= 0 && y < h && x >= 0 && x < w) ? in[y * w + x] : 0.f;
}

// Sobel gradient magnitude, zero outside the image.
extern "C" __global__ void __launch_bounds__(256)
sobel3(const float *__restrict__ in, float *__restrict__ out, int h, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float gx = at(in, y - 1, x + 1, h, w) + 2.f * at(in, y, x + 1, h, w) +
             at(in, y + 1, x + 1, h, w) - at(in, y - 1, x - 1, h, w) -
             2.f * at(in, y, x - 1, h, w) - at(in, y + 1, x - 1, h, w);
  float gy = at(in, y + 1, x - 1, h, w) + 2.f * at(in, y + 1, x, h, w) +
             at(in, y + 1, x + 1, h, w) - at(in, y - 1, x - 1, h, w) -
             2.f * at(in, y - 1, x, h, w) - at(in, y - 1, x + 1, h, w);
  out[y * w + x] = sqrtf(gx * gx + gy * gy);
}

// 5-point Laplacian of the interior; the one-pixel frame is left as is.
extern "C" __global__ void __launch_bounds__(256)
laplace5(const float *__restrict__ in, float *__restrict__ out, int h, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y < 1 || y >= h - 1 || x < 1 || x >= w - 1)
    return;
  out[y * w + x] = in[(y - 1) * w + x] + in[(y + 1) * w + x] +
                   in[y * w + x - 1] + in[y * w + x + 1] - 4.f * in[y * w + x];
}
