__global__ void k(float *p, int n) {
  void *labels[] = {&&a, &&b};
  goto *labels[n & 1];
a:
  p[0] = 1.0f;
  return;
b:
  p[0] = 2.0f;
}
