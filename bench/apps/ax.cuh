// ax.cuh - the math the evaluation apps call, in one of two builds.
//
// Default (approx-cc, and nvcc for a plain build): ax::Precise only; every
// function is the CUDA one (`expf`, `sqrt`, `a / b`), so approx-cc sees
// unmodified CUDA after preprocessing and makes each call a site.
//
// -DAX_LISTING3 (nvcc, the hand-written baseline of issue 7): the paper's
// Listing 3. AX_VERSIONED(body, args...) runs body<ax::Sfu> in warps whose
// hardware slot (%warpid) is below the device global `axLambda`, body<ax::
// Precise> in the others: one uniform branch around a barrier-free region.
// ax::Sfu is inline PTX of the same SFU forms approx-cc emits (docs/sfu.md),
// f64 div/rcp/sqrt/rsqrt without Newton steps (approx-cc's default).
// Hand kernels use %warpid: the paper's slot.
#pragma once
#include <cuda_runtime.h>
#include <math.h>

namespace ax {

struct Precise {
  static __device__ __forceinline__ float exp(float x) { return expf(x); }
  static __device__ __forceinline__ double exp(double x) { return ::exp(x); }
  static __device__ __forceinline__ float log(float x) { return logf(x); }
  static __device__ __forceinline__ double log(double x) { return ::log(x); }
  static __device__ __forceinline__ float sin(float x) { return sinf(x); }
  static __device__ __forceinline__ float cos(float x) { return cosf(x); }
  static __device__ __forceinline__ float pow(float x, float y) { return powf(x, y); }
  static __device__ __forceinline__ float sqrt(float x) { return sqrtf(x); }
  static __device__ __forceinline__ double sqrt(double x) { return ::sqrt(x); }
  // Not rsqrtf/rsqrt: CUDA's are the MUFU estimate already (rsqrt.approx),
  // so an app wanting accuracy writes 1/sqrt (sqrt.rn, then div.rn), which
  // approx-cc reads as one rsqrt site.
  static __device__ __forceinline__ float rsqrt(float x) { return 1.0f / sqrtf(x); }
  static __device__ __forceinline__ double rsqrt(double x) { return 1.0 / ::sqrt(x); }
  static __device__ __forceinline__ float div(float a, float b) { return a / b; }
  static __device__ __forceinline__ double div(double a, double b) { return a / b; }
  static __device__ __forceinline__ float rcp(float x) { return 1.0f / x; }
  static __device__ __forceinline__ double rcp(double x) { return 1.0 / x; }
};

#ifdef AX_LISTING3
/// The knob of the hand-written build: one per translation unit (one app).
static __device__ int axLambda = 0;

/// Sets axLambda of this translation unit (host side).
static inline cudaError_t setHandLambda(int lambda) {
  return cudaMemcpyToSymbol(axLambda, &lambda, sizeof(int));
}

__device__ __forceinline__ bool sfuWarp() {
  unsigned w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  return w < unsigned(axLambda);
}

struct Sfu {
  static __device__ __forceinline__ float ex2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  }
  static __device__ __forceinline__ float lg2(float x) {
    float y;
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  }
  static __device__ __forceinline__ float exp(float x) { return ex2(x * 1.44269504088896341f); }
  static __device__ __forceinline__ float log(float x) { return lg2(x) * 0.693147180559945309f; }
  // f64 exp/log have no SFU form; approx-cc leaves them precise by default.
  static __device__ __forceinline__ double exp(double x) { return ::exp(x); }
  static __device__ __forceinline__ double log(double x) { return ::log(x); }
  static __device__ __forceinline__ float sin(float x) {
    float y;
    asm("sin.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  }
  static __device__ __forceinline__ float cos(float x) {
    float y;
    asm("cos.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  }
  // powf through lg2/ex2 for x > 0 (the apps call it on positive bases).
  static __device__ __forceinline__ float pow(float x, float y) { return ex2(y * lg2(x)); }
  static __device__ __forceinline__ float sqrt(float x) {
    float y;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  }
  static __device__ __forceinline__ float rsqrt(float x) {
    float y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  }
  static __device__ __forceinline__ float div(float a, float b) {
    float y;
    asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b));
    return y;
  }
  static __device__ __forceinline__ float rcp(float x) {
    float y;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  }
  static __device__ __forceinline__ double rcp(double x) {
    double y;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    return y;
  }
  static __device__ __forceinline__ double rsqrt(double x) {
    double y;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    return y;
  }
  static __device__ __forceinline__ double div(double a, double b) { return a * rcp(b); }
  static __device__ __forceinline__ double sqrt(double x) { return rcp(rsqrt(x)); }
};

#define AX_VERSIONED(body, ...)                                                \
  do {                                                                         \
    if (::ax::sfuWarp())                                                       \
      body<::ax::Sfu>(__VA_ARGS__);                                            \
    else                                                                       \
      body<::ax::Precise>(__VA_ARGS__);                                        \
  } while (0)
#else
#define AX_VERSIONED(body, ...) body<::ax::Precise>(__VA_ARGS__)
#endif

} // namespace ax
