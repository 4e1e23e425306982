__global__ void k(float *p) {
  p[0] = expf(p[0]) +;
}
