// A 3x3 box blur whose window loops are left rolled: approx-cc's -O1 keeps
// them as loops, so the offsets are not constants.
extern "C" __global__ void __launch_bounds__(256)
box3(const float *__restrict__ in, float *__restrict__ out, int h, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      s += in[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)];
  out[y * w + x] = s / 9.f;
}
