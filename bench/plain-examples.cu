// plain-examples.cu - the examples' hand-written CUDA (handwritten.cuh) as a
// user would build it without the warp split: the precise bodies only, one
// extern "C" kernel per example, compiled to PTX twice by run-bench.sh
// (nvcc -O3, and nvcc -O3 -use_fast_math) and timed by approx-bench
// --plain against ours at λ = 0 and λmax (issue 30: the baselines a user
// would pick).
#include "handwritten.cuh"

extern "C" __global__ void boxMullerPlain(float *data, long long nPerRng,
                                          long long nRng) {
  long long rng = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (rng >= nRng)
    return;
  for (long long i = 0; i < nPerRng; i += 2)
    boxMuller<false>(data[i * nRng + rng], data[(i + 1) * nRng + rng]);
}

extern "C" __global__ void blackScholesPlain(float *call, float *put,
                                             const float *price,
                                             const float *strike,
                                             const float *years, float r,
                                             float v, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  blackScholesBody<false>(call, put, price, strike, years, r, v, i);
}

extern "C" __global__ void coulombPlain(const double *atoms,
                                        const double *points, double *energy,
                                        long long natoms, long long npoints) {
  long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints)
    return;
  energy[p] = coulombSum<false>(atoms, points[3 * p], points[3 * p + 1],
                                points[3 * p + 2], natoms);
}
