// Multiply-add fusion cases where nvcc -O3 (-fmad=true) and LLVM's NVPTX
// back end, left to its generic combine, differ (test/approx-cc/nvcc-parity.test).
#define K(name, ...) extern "C" __global__ void name(const float *a, const float *b, \
    const float *c, const float *d, float *x, float *y) { int i = threadIdx.x; __VA_ARGS__ }
K(two_adds, float t = a[i] * b[i]; x[i] = t + c[i]; y[i] = t + d[i];)
K(add_and_store, float t = a[i] * b[i]; x[i] = t + c[i]; y[i] = t;)
K(add_and_div, float t = a[i] * b[i]; x[i] = c[i] + t; y[i] = __fdividef(c[i], t);)
K(sub_single, x[i] = c[i] - a[i] * b[i];)
K(sub_products, x[i] = a[i] * b[i] - c[i] * d[i];)
K(two_subs, float t = a[i] * b[i]; x[i] = c[i] - t; y[i] = t - d[i];)
K(add_products, x[i] = a[i] * b[i] + c[i] * d[i];)
K(six_adds, float t = a[i] * b[i]; x[i] = t + c[i]; x[i + 32] = t + c[i + 32];
  x[i + 64] = t + c[i + 64]; x[i + 96] = t + c[i + 96]; x[i + 128] = t + c[i + 128];
  y[i] = t + d[i];)
K(chain, float s = a[i]; x[i] = s * s * s + 2.0f * s * s - s;)
K(cnd, float k = __fdividef(1.0f, 1.0f + 0.2316419f * fabsf(c[i]));
  float p = 0.398942f * __expf(-0.5f * c[i] * c[i]) * (k * (0.3193815f + k * -0.3565638f));
  x[i] = c[i] > 0 ? 1.0f - p : p; y[i] = a[i] * x[i] - b[i] * __expf(-d[i]) * p;)
K(sum_squares, float u = a[i] - c[i]; float v = b[i] - d[i]; x[i] = u * u + v * v;)
K(sum_squares_f64, double u = (double)a[i] - c[i]; double v = (double)b[i] - d[i];
  double w = u * u + v * v; x[i] = (float)w;)
