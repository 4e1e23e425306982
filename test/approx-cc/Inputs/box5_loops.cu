// A 5x5 box blur written the usual way: two loops over the window, borders
// clamped. With perforate=, approx-cc unrolls the window loops (constant
// trip counts), so the 25 offsets are constants and the load is tiled.
extern "C" __global__ void __launch_bounds__(256)
box5(const float *__restrict__ in, float *__restrict__ out, int h, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      s += in[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)];
  out[y * w + x] = s / 25.f;
}

// A window whose radius is an argument: no constant trip count, nothing to
// unroll; the kernel is compiled as it is, with a remark.
extern "C" __global__ void __launch_bounds__(256)
boxr(const float *__restrict__ in, float *__restrict__ out, int h, int w,
     int r) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx)
      s += in[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)];
  out[y * w + x] = s;
}
