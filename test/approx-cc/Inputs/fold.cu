// libdevice calls on constants with exact results fold, as nvcc folds them;
// the others stay (test/approx-cc/nvcc-parity.test).
extern "C" __global__ void reduce(float *x) {
  int tx = threadIdx.x;
  for (int i = 1; i <= __log2f(16); i++) {
    int step = __powf(2, i);
    if (tx % step == 0)
      x[tx] += x[tx + step / 2];
    __syncthreads();
  }
}
extern "C" __global__ void kept(float *x) {
  x[0] = __log2f(3.0f);
  x[1] = __powf(2.0f, 0.5f);
  x[2] = exp2f(200.0f);
  x[3] = log2(0.0);
}
