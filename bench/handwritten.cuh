// handwritten.cuh - hand-written CUDA versions of examples/*.mlir for the
// benchmark: the precise code as nvcc compiles it (no fast math) plus the
// paper's Listing-3 branch: warps whose hardware warp slot (%warpid) is below
// the global `hwLambda` run inline-PTX SFU code, the others the precise code.
#pragma once
#include <cstdint>

__device__ int hwLambda = 0;

__device__ __forceinline__ bool sfuWarp() {
  unsigned w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  return w < unsigned(hwLambda);
}
__device__ __forceinline__ float sfuLog(float x) {
  float t, y;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(t) : "f"(x));
  asm("mul.rn.f32 %0, %1, 0f3F317218;" : "=f"(y) : "f"(t)); // * ln 2
  return y;
}
__device__ __forceinline__ float sfuExp(float x) {
  float t, y;
  asm("mul.rn.f32 %0, %1, 0f3FB8AA3B;" : "=f"(t) : "f"(x)); // * log2 e
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(t));
  return y;
}
__device__ __forceinline__ float sfuSqrt(float x) {
  float y;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float sfuSin(float x) {
  float y;
  asm("sin.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float sfuCos(float x) {
  float y;
  asm("cos.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float sfuDiv(float a, float b) {
  float y;
  asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b));
  return y;
}
__device__ __forceinline__ float sfuRcp(float x) {
  float y;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ double sfuRsqrt64(double x) {
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  return y;
}

// --- Box-Muller (paper Listings 2/3), in place -----------------------------
template <bool SFU>
__device__ __forceinline__ void boxMuller(float &u1, float &u2) {
  const float twoPi = 6.28318530717958647f;
  float r, phi = twoPi * u2;
  if (SFU) {
    r = sfuSqrt(-2.0f * sfuLog(u1));
    u1 = r * sfuCos(phi);
    u2 = r * sfuSin(phi);
  } else {
    r = sqrtf(-2.0f * logf(u1));
    u1 = r * cosf(phi);
    u2 = r * sinf(phi);
  }
}
__global__ void boxMullerHand(float *data, long long nPerRng, long long nRng) {
  const bool sfu = sfuWarp();
  long long rng = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (rng >= nRng)
    return;
  if (sfu) {
    for (long long i = 0; i < nPerRng; i += 2)
      boxMuller<true>(data[i * nRng + rng], data[(i + 1) * nRng + rng]);
  } else {
    for (long long i = 0; i < nPerRng; i += 2)
      boxMuller<false>(data[i * nRng + rng], data[(i + 1) * nRng + rng]);
  }
}

// --- Black-Scholes (CUDA samples) ------------------------------------------
template <bool SFU> __device__ __forceinline__ float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
              a4 = -1.821255978f, a5 = 1.330274429f,
              rsqrt2pi = 0.39894228040143267793994605993438f;
  float k = SFU ? sfuRcp(1.0f + 0.2316419f * fabsf(d))
                : 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
  float ex = SFU ? sfuExp(-0.5f * d * d) : expf(-0.5f * d * d);
  float c = rsqrt2pi * ex * poly;
  return d > 0 ? 1.0f - c : c;
}
template <bool SFU>
__device__ __forceinline__ void blackScholesBody(float *call, float *put,
                                                 const float *price,
                                                 const float *strike,
                                                 const float *years, float r,
                                                 float v, long long i) {
  float s = price[i], x = strike[i], t = years[i];
  float sqrtT = SFU ? sfuSqrt(t) : sqrtf(t);
  float lsx = SFU ? sfuLog(SFU ? sfuDiv(s, x) : s / x) : logf(s / x);
  float vst = v * sqrtT;
  float num = lsx + (r + 0.5f * v * v) * t;
  float d1 = SFU ? sfuDiv(num, vst) : num / vst;
  float d2 = d1 - vst;
  float c1 = cnd<SFU>(d1), c2 = cnd<SFU>(d2);
  float expRT = SFU ? sfuExp(-r * t) : expf(-r * t);
  float xe = x * expRT;
  call[i] = s * c1 - xe * c2;
  put[i] = xe * (1.0f - c2) - s * (1.0f - c1);
}
__global__ void blackScholesHand(float *call, float *put, const float *price,
                                 const float *strike, const float *years,
                                 float r, float v, long long n) {
  const bool sfu = sfuWarp();
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (sfu)
    blackScholesBody<true>(call, put, price, strike, years, r, v, i);
  else
    blackScholesBody<false>(call, put, price, strike, years, r, v, i);
}

// --- Direct Coulomb summation in f64 ----------------------------------------
template <bool SFU>
__device__ __forceinline__ double coulombSum(const double *atoms, double px,
                                             double py, double pz,
                                             long long natoms) {
  double sum = 0;
  for (long long j = 0; j < natoms; ++j) {
    double dx = px - atoms[4 * j], dy = py - atoms[4 * j + 1],
           dz = pz - atoms[4 * j + 2], q = atoms[4 * j + 3];
    double d2 = dx * dx + dy * dy + dz * dz;
    double inv = SFU ? sfuRsqrt64(d2) : 1.0 / sqrt(d2);
    sum += q * inv;
  }
  return sum;
}
__global__ void coulombHand(const double *atoms, const double *points,
                            double *energy, long long natoms,
                            long long npoints) {
  const bool sfu = sfuWarp();
  long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints)
    return;
  double px = points[3 * p], py = points[3 * p + 1], pz = points[3 * p + 2];
  energy[p] = sfu ? coulombSum<true>(atoms, px, py, pz, natoms)
                  : coulombSum<false>(atoms, px, py, pz, natoms);
}
