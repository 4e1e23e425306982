// approx-accuracy.cu - measure every op/form/rung approx-opt emits.
//
// Loads the modules written by gen-kernels.py (PTX + manifest) through the
// approx runtime and runs each kernel at lambda = 0 (precise form) and
// lambda = 64 (every warp slot: SFU form). Errors follow the CUDA
// Programming Guide's definition: the distance in ulps between the returned
// value and the correctly rounded result.
//   f32 unary ops: all 2^32 inputs. The reference is the op in f64 on the
//     device (libdevice f64, <= 2 f64 ulp), rounded to f32. That rounding is
//     wrong only when the f64 value lies within its own error of a midpoint
//     between two floats; such inputs (distance to a midpoint < 2^-20 f32
//     ulp) are counted as "ambiguous" and left out of the max.
//   f32 binary ops (div, pow): 2^30 pseudo-random pairs (fixed seed).
//   f64 ops: >= 1e8 samples (fixed seed, special values included); the
//     reference is the op in x87 long double (64-bit significand) on the
//     host, rounded to double; ambiguity as above with 2^-10 f64 ulp (the
//     long double reference is good to ~2^-11 f64 ulp).
// The ulp distance and the ambiguity rule come from approx_accuracy's
// header-only part (accuracy/include/approx/accuracy/Rounding.h, device-
// callable), the same code its unit tests check; nothing here needs MPFR.
// Each op is reported over all finite inputs and over the documented domains
// of its SFU form (docDomain / domainLabel below).
// Non-finite mismatches (NaN/inf where the reference is finite or the
// reverse, e.g. ftz flushing subnormal inputs) are counted, not maxed.
//
// usage: approx-accuracy DIR [--f64-samples N] [--f32-pairs-log2 K]
//                            [--quick] [--json PATH]
#include "approx/accuracy/Rounding.h"
#include "approx/runtime/core/Runtime.h"
#include "../BenchCommon.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace approx::rt;
namespace acc = approx::accuracy;


enum Op { SIN, COS, EXP, LOG, RCP, SQRT, RSQRT, DIV, POW, NOPS };
static const char *kOpNames[] = {"sin",  "cos",   "exp", "log", "rcp",
                                 "sqrt", "rsqrt", "div", "pow"};

// ---------------------------------------------------------------------------
// f32, on the device
// ---------------------------------------------------------------------------

struct Acc {                 // per (form, domain)
  unsigned long long ulpKey; // (ulp distance, saturated to 32 bits) << 32 | idx
  unsigned long long absKey; // (float bits of |err|) << 32 | idx
  unsigned long long count, nonfinite, ambiguous;
};

__host__ __device__ inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Binary-op samples: x, y drawn from the sample index (host can redo it).
__host__ __device__ inline void pairFor(Op op, uint64_t i, float &x, float &y) {
  uint32_t a = hash32(uint32_t(i) * 2 + 0x9e3779b9u);
  uint32_t b = hash32(uint32_t(i) * 2 + 1 + 0x7f4a7c15u);
  if (op == DIV) { // random finite bit patterns
    a &= 0xfeffffffu; // keep exponents below 0xff (finite)
    b &= 0xfeffffffu;
    std::memcpy(&x, &a, 4);
    std::memcpy(&y, &b, 4);
  } else { // pow: x > 0 normal/subnormal, y in [-8, 8)
    a &= 0x7effffffu;
    std::memcpy(&x, &a, 4);
    y = (float(b >> 8) / 16777216.0f) * 16.0f - 8.0f;
  }
}

__global__ void fillBits(float *x, uint64_t base, uint64_t n) {
  uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    uint32_t b = uint32_t(base + i);
    x[i] = __uint_as_float(b);
  }
}

__global__ void fillPairs(Op op, float *x, float *y, uint64_t base,
                          uint64_t n) {
  uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    pairFor(op, base + i, x[i], y[i]);
}

__device__ double refF32(Op op, float xf, float yf) {
  double x = xf, y = yf;
  switch (op) {
  case SIN: return sin(x);
  case COS: return cos(x);
  case EXP: return exp(x);
  case LOG: return log(x);
  case RCP: return 1.0 / x;
  case SQRT: return sqrt(x);
  case RSQRT: return 1.0 / sqrt(x);
  case DIV: return x / y;
  case POW: return pow(x, y);
  default: return 0;
  }
}

// The SFU form's documented domains: bit 0 = domain A, bit 1 = domain B
// (labels in domainLabel()). Exp's domain B measures ulp - floor(1.173|x|),
// to compare with __expf's bound 2 + floor(1.173|x|).
__host__ __device__ inline unsigned docDomain(Op op, double x, double y,
                                              double ref, bool rangeReduced) {
  const double pi = 3.14159265358979323846, minN = 1.1754943508222875e-38;
  double ar = fabs(ref);
  bool refNormalF32 = ar == 0 || (ar >= minN && ar <= 3.4028234663852886e38);
  switch (op) {
  case SIN:
  case COS:
    return (rangeReduced ? fabs(x) <= 65536.0 * pi : fabs(x) <= pi) ? 1u : 0u;
  case EXP: return refNormalF32 && ref != 0 ? 3u : 0u;
  case LOG:
    return x >= 0.5 && x <= 2.0 ? 1u : (x >= minN ? 2u : 0u);
  case RCP: return fabs(x) >= minN && refNormalF32 ? 1u : 0u;
  case SQRT: return x == 0 || x >= minN ? 1u : 0u;
  case RSQRT: return x >= minN ? 1u : 0u;
  case DIV:
    return fabs(x) >= minN && fabs(y) >= minN &&
                   fabs(y) <= 8.5070591730234616e37 && refNormalF32
               ? 1u
               : 0u;
  case POW: return x >= minN && refNormalF32 && ref != 0 ? 1u : 0u;
  default: return 1u;
  }
}

static const char *domainLabel(Op op, int d, bool rr) {
  if (d == 0)
    return "all finite x";
  switch (op) {
  case SIN:
  case COS: return d == 1 ? (rr ? "abs(x) <= 2^16 pi" : "abs(x) <= pi") : "";
  case EXP: return d == 1 ? "result normal" : "result normal; ulp - floor(1.173 abs(x))";
  case LOG: return d == 1 ? "x in [0.5, 2]" : "normal x outside [0.5, 2]";
  case RCP: return d == 1 ? "x, 1/x normal" : "";
  case SQRT: return d == 1 ? "x = 0 or normal" : "";
  case RSQRT: return d == 1 ? "x normal" : "";
  case DIV: return d == 1 ? "x normal, abs(y) in [2^-126, 2^126], result normal" : "";
  case POW: return d == 1 ? "x normal, result normal, nonzero" : "";
  default: return "";
  }
}

struct Contrib { // one thread's contribution to one Acc
  unsigned long long ulpKey = 0, absKey = 0;
  unsigned count = 0, nonfinite = 0, ambiguous = 0;
};

__device__ void measure(Contrib &c, float out, double ref, uint32_t idx) {
  acc::NearestRounding<acc::F32> rr = acc::roundNearest<acc::F32>(ref);
  float r32 = acc::toFloat(rr);
  bool refNan = isnan(ref), outNan = isnan(out);
  if (refNan || outNan || isinf(r32) || isinf(out)) {
    bool same = (refNan && outNan) || (out == r32);
    if (same)
      c.count = 1;
    else
      c.nonfinite = 1;
    return;
  }
  // Ambiguous correct rounding: ref within 2^-20 ulp of a midpoint,
  // measured in the spacing of the binade where ref lies.
  if (rr.ambiguous(acc::kF32FromF64RefTolerance)) {
    c.ambiguous = 1;
    return;
  }
  uint64_t u = acc::ulpDistance<acc::F32>(__float_as_uint(out), rr.bits);
  if (u > 0xffffffffULL)
    u = 0xffffffffULL;
  float ae = float(fabs(double(out) - ref));
  c.ulpKey = (u << 32) | idx;
  c.absKey = (uint64_t(__float_as_uint(ae)) << 32) | uint64_t(idx);
  c.count = 1;
}

__device__ void warpReduceAndFlush(Contrib c, Acc *acc) {
  for (int off = 16; off > 0; off >>= 1) {
    c.ulpKey = max(c.ulpKey, __shfl_xor_sync(0xffffffffu, c.ulpKey, off));
    c.absKey = max(c.absKey, __shfl_xor_sync(0xffffffffu, c.absKey, off));
    c.count += __shfl_xor_sync(0xffffffffu, c.count, off);
    c.nonfinite += __shfl_xor_sync(0xffffffffu, c.nonfinite, off);
    c.ambiguous += __shfl_xor_sync(0xffffffffu, c.ambiguous, off);
  }
  if ((threadIdx.x & 31) == 0) {
    if (c.ulpKey)
      atomicMax(&acc->ulpKey, c.ulpKey);
    if (c.absKey)
      atomicMax(&acc->absKey, c.absKey);
    if (c.count)
      atomicAdd(&acc->count, (unsigned long long)c.count);
    if (c.nonfinite)
      atomicAdd(&acc->nonfinite, (unsigned long long)c.nonfinite);
    if (c.ambiguous)
      atomicAdd(&acc->ambiguous, (unsigned long long)c.ambiguous);
  }
}

// acc[form * 3 + domain] (domain 0 full, 1 A, 2 B); blockDim.x must be a
// multiple of 32 (all lanes reach the warp reduction).
__global__ void compareF32(Op op, bool rr, const float *x, const float *y,
                           const float *outP, const float *outS, uint64_t base,
                           uint64_t n, Acc *acc) {
  uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  Contrib c[6];
  if (i < n) {
    float xf = x[i], yf = y ? y[i] : 0.0f;
    // Finite inputs only; NaN reference = outside the op's domain.
    bool finite = !(isnan(xf) || isinf(xf) || (y && (isnan(yf) || isinf(yf))));
    double ref = finite ? refF32(op, xf, yf) : 0.0;
    if (finite && !isnan(ref)) {
      uint32_t idx = y ? uint32_t(base + i) : __float_as_uint(xf);
      unsigned doc = docDomain(op, xf, yf, ref, rr);
      for (int form = 0; form < 2; ++form) {
        Contrib &full = c[form * 3];
        measure(full, form ? outS[i] : outP[i], ref, idx);
        if (doc & 1u)
          c[form * 3 + 1] = full;
        if (doc & 2u) {
          Contrib b = full;
          if (op == EXP && b.count) {
            uint64_t u = b.ulpKey >> 32,
                     allow = uint64_t(floor(1.173 * fabs(double(xf))));
            u = u > allow ? u - allow : 0;
            b.ulpKey = (u << 32) | idx;
          }
          c[form * 3 + 2] = b;
        }
      }
    }
  }
  for (int k = 0; k < 6; ++k)
    warpReduceAndFlush(c[k], &acc[k]);
}

// ---------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------

struct Row {
  std::string module, op, type, form, domain;
  uint64_t count = 0, nonfinite = 0, ambiguous = 0;
  double maxUlp = 0, maxAbs = 0;
  std::string worst; // input at max ulp
};
static std::vector<Row> gRows;

static std::string fmtF32(float f) {
  char b[64];
  std::snprintf(b, sizeof b, "%.9g", f);
  return b;
}
static std::string fmtF64(double f) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", f);
  return b;
}

static std::string opFromKernel(const std::string &k) {
  // acc_<op>_<ty>
  size_t a = k.find('_'), b = k.rfind('_');
  return k.substr(a + 1, b - a - 1);
}

static Op opIndex(const std::string &s) {
  for (int i = 0; i < NOPS; ++i)
    if (s == kOpNames[i])
      return Op(i);
  std::fprintf(stderr, "unknown op %s\n", s.c_str());
  std::exit(2);
}

static void runF32(Module &m, const std::string &kernel, bool rr,
                   int pairsLog2, bool quick) {
  Op op = opIndex(opFromKernel(kernel));
  bool binary = op == DIV || op == POW;
  const uint64_t chunk = uint64_t(1) << 28;
  uint64_t total = binary ? (uint64_t(1) << pairsLog2) : (uint64_t(1) << 32);
  if (quick)
    total = std::min<uint64_t>(total, uint64_t(1) << 26);
  float *x, *y = nullptr, *oP, *oS;
  CK(cudaMalloc(&x, chunk * 4));
  if (binary)
    CK(cudaMalloc(&y, chunk * 4));
  CK(cudaMalloc(&oP, chunk * 4));
  CK(cudaMalloc(&oS, chunk * 4));
  Acc *acc;
  CK(cudaMalloc(&acc, 6 * sizeof(Acc)));
  CK(cudaMemset(acc, 0, 6 * sizeof(Acc)));
  for (uint64_t base = 0; base < total; base += chunk) {
    uint64_t n = std::min(chunk, total - base);
    unsigned blocks = unsigned((n + 255) / 256);
    if (binary)
      fillPairs<<<blocks, 256>>>(op, x, y, base, n);
    else
      fillBits<<<blocks, 256>>>(x, quick ? base * 64 : base, n);
    CK(cudaGetLastError());
    BufferView vx{uint64_t(x), n * 4, ScalarType::F32};
    BufferView vy{uint64_t(y), n * 4, ScalarType::F32};
    for (int form = 0; form < 2; ++form) {
      float *o = form ? oS : oP;
      BufferView vo{uint64_t(o), n * 4, ScalarType::F32};
      std::vector<Arg> args = {Arg::memref(vx)};
      if (binary)
        args.push_back(Arg::memref(vy));
      args.push_back(Arg::memref(vo));
      args.push_back(Arg::integer(int64_t(n)));
      check(m.setKnob("lambda", form ? 64 : 0), "setKnob");
      LaunchConfig cfg;
      cfg.block.x = 256;
      cfg.grid.x = blocks;
      check(m.launch(kernel, cfg, args), kernel.c_str());
    }
    compareF32<<<blocks, 256>>>(op, rr, x, y, oP, oS, base, n, acc);
    CK(cudaGetLastError());
  }
  CK(cudaDeviceSynchronize());
  Acc h[6];
  CK(cudaMemcpy(h, acc, sizeof h, cudaMemcpyDeviceToHost));
  for (int k = 0; k < 6; ++k) {
    const char *label = domainLabel(op, k % 3, rr);
    if (!*label)
      continue;
    Row r;
    r.module = m.manifest().module;
    r.op = kOpNames[op];
    r.type = "f32";
    r.form = k < 3 ? "precise" : "sfu";
    r.domain = label;
    r.count = h[k].count;
    r.nonfinite = h[k].nonfinite;
    r.ambiguous = h[k].ambiguous;
    r.maxUlp = double(h[k].ulpKey >> 32);
    uint32_t bits = uint32_t(h[k].absKey >> 32);
    float ae;
    std::memcpy(&ae, &bits, 4);
    r.maxAbs = ae;
    uint32_t idx = uint32_t(h[k].ulpKey & 0xffffffffu);
    if (binary) {
      float a, b;
      pairFor(op, idx, a, b);
      r.worst = "x=" + fmtF32(a) + " y=" + fmtF32(b);
    } else {
      float a;
      std::memcpy(&a, &idx, 4);
      r.worst = "x=" + fmtF32(a);
    }
    gRows.push_back(r);
  }
  cudaFree(x);
  if (y)
    cudaFree(y);
  cudaFree(oP);
  cudaFree(oS);
  cudaFree(acc);
}

// ---------------------------------------------------------------------------
// f64, reference on the host in long double
// ---------------------------------------------------------------------------

static long double refF64(Op op, long double x, long double y) {
  switch (op) {
  case SIN: return sinl(x);
  case COS: return cosl(x);
  case EXP: return expl(x);
  case LOG: return logl(x);
  case RCP: return 1.0L / x;
  case SQRT: return sqrtl(x);
  case RSQRT: return 1.0L / sqrtl(x);
  case DIV: return x / y;
  case POW: return powl(x, y);
  default: return 0;
  }
}

static bool docDomain64(Op op, double x, double y, double ref, bool demote) {
  const double pi = 3.14159265358979323846;
  double ar = std::fabs(ref);
  if (demote) { // f32 SFU form on a demoted argument
    bool f32ok = ar == 0 || (ar >= 1.1754943508222875e-38 && ar <= 3.4e38);
    switch (op) {
    case SIN:
    case COS: return std::fabs(x) <= pi;
    case EXP: return f32ok && ref != 0;
    case LOG: return x >= 1.1754943508222875e-38 && x <= 3.4e38;
    case POW: return x >= 1.1754943508222875e-38 && x <= 3.4e38 && f32ok &&
                     ref != 0;
    default: return true;
    }
  }
  // rcp.approx.ftz.f64 flushes subnormal results: keep 1/x normal.
  const double lo = 0x1p-1021, hi = 0x1p1021, minN = 2.2250738585072014e-308;
  bool normal = ar == 0 || (ar >= minN && ar <= 1.79e308);
  switch (op) {
  case RCP: return std::fabs(x) >= lo && std::fabs(x) <= hi && normal;
  case SQRT: return x == 0 || x >= minN;
  case RSQRT: return x >= minN;
  case DIV:
    return std::fabs(x) >= minN && std::fabs(y) >= lo && std::fabs(y) <= hi &&
           normal && ref != 0;
  default: return true;
  }
}

static void runF64(Module &m, const std::string &kernel, bool demote,
                   uint64_t samples) {
  Op op = opIndex(opFromKernel(kernel));
  bool binary = op == DIV || op == POW;
  std::vector<double> hx(samples), hy(binary ? samples : 0);
  std::mt19937_64 rng(20261121 + op);
  const double specials[] = {0.0,  -0.0, 1.0, -1.0, 0.5, 2.0,
                             4.9406564584124654e-324, 2.2250738585072014e-308,
                             1.7976931348623157e308, 3.141592653589793,
                             1e-300, 1e300, 88.0, -87.0};
  for (uint64_t i = 0; i < samples; ++i) {
    double v;
    uint64_t b = rng();
    if (demote && (op == SIN || op == COS || op == EXP)) {
      // Half over the documented range, half random bit patterns.
      if (i & 1) {
        double lo = op == EXP ? -87.0 : -3.141592653589793,
               hi = op == EXP ? 88.0 : 3.141592653589793;
        v = lo + (hi - lo) * double(b >> 11) * 0x1p-53;
      } else {
        b &= 0x7fefffffffffffffULL | (uint64_t(1) << 63);
        std::memcpy(&v, &b, 8);
      }
    } else {
      b &= 0x7fefffffffffffffULL; // finite
      if (op == RCP || op == DIV)
        b |= (rng() & 1) << 63;
      std::memcpy(&v, &b, 8);
    }
    if (i < sizeof(specials) / sizeof(double))
      v = specials[i];
    hx[i] = v;
    if (binary) {
      double w;
      if (op == POW) {
        w = double(int64_t(rng() >> 40) - (int64_t(1) << 23)) / double(1 << 20);
      } else {
        uint64_t c = (rng() & 0x7fefffffffffffffULL) | ((rng() & 1) << 63);
        std::memcpy(&w, &c, 8);
      }
      hy[i] = w;
    }
  }
  if (op == POW) // x > 0 for the SFU form's definition
    for (double &v : hx)
      v = std::fabs(v) == 0 ? 1.0 : std::fabs(v);
  std::shared_ptr<Context> ctx = m.context();
  Expected<DeviceBuffer> dx =
      DeviceBuffer::fromHost(ctx, hx.data(), samples, ScalarType::F64);
  check(dx.status(), "upload x");
  Expected<DeviceBuffer> dy = DeviceBuffer::fromHost(
      ctx, binary ? hy.data() : hx.data(), samples, ScalarType::F64);
  check(dy.status(), "upload y");
  Expected<DeviceBuffer> dout =
      DeviceBuffer::allocate(ctx, samples * 8, ScalarType::F64);
  check(dout.status(), "alloc out");
  std::vector<double> out[2];
  for (int form = 0; form < 2; ++form) {
    check(dout->fillBytes(0xff), "poison");
    check(m.setKnob("lambda", form ? 64 : 0), "setKnob");
    std::vector<Arg> args = {Arg::memref(dx->view())};
    if (binary)
      args.push_back(Arg::memref(dy->view()));
    args.push_back(Arg::memref(dout->view()));
    args.push_back(Arg::integer(int64_t(samples)));
    LaunchConfig cfg;
    cfg.block.x = 256;
    cfg.grid.x = unsigned((samples + 255) / 256);
    check(m.launchSync(kernel, cfg, args), kernel.c_str());
    out[form].resize(samples);
    check(dout->copyToHost(out[form].data(), samples * 8), "download");
  }
  for (int k = 0; k < 4; ++k) {
    int form = k / 2;
    bool docOnly = k & 1;
    uint64_t count = 0, nonfinite = 0, ambiguous = 0, worstI = 0;
    double maxUlp = 0, maxAbs = 0;
#pragma omp parallel
    {
      uint64_t c = 0, nf = 0, am = 0, wi = 0;
      double mu = 0, ma = 0;
#pragma omp for schedule(static)
      for (int64_t ii = 0; ii < int64_t(samples); ++ii) {
        uint64_t i = uint64_t(ii);
        double x = hx[i], y = binary ? hy[i] : 0;
        long double refl = refF64(op, x, y);
        acc::NearestRounding<acc::F64> rr = acc::roundNearest(refl);
        double ref = acc::toDouble(rr), o = out[form][i];
        if (std::isnan(ref))
          continue;
        if (docOnly && !docDomain64(op, x, y, ref, demote))
          continue;
        if (std::isnan(o) || std::isinf(o) || std::isinf(ref)) {
          if (o == ref)
            ++c;
          else
            ++nf;
          continue;
        }
        // Within 2^-10 f64 ulp of a midpoint, in the spacing of the side
        // where the exact value lies: at a power of 2 the two sides differ,
        // and a double-rounded long double reference can sit exactly on the
        // lower side's midpoint (e.g. sqrt(DBL_MAX)).
        if (rr.ambiguous(acc::kF64FromLongDoubleRefTolerance)) {
          ++am;
          continue;
        }
        double u = double(acc::ulpDistance(o, ref));
        double a = double(fabsl((long double)o - refl));
        if (u > mu) {
          mu = u;
          wi = i;
        }
        ma = std::max(ma, a);
        ++c;
      }
#pragma omp critical
      {
        count += c;
        nonfinite += nf;
        ambiguous += am;
        if (mu > maxUlp) {
          maxUlp = mu;
          worstI = wi;
        }
        maxAbs = std::max(maxAbs, ma);
      }
    }
    Row r;
    r.module = m.manifest().module;
    r.op = kOpNames[op];
    r.type = "f64";
    r.form = form ? "sfu" : "precise";
    r.domain = docOnly ? (demote ? "f32 SFU domain (abs(x) <= pi for sin/cos, f32-normal x and result)"
                                 : "x, result (and 1/x, 1/y) normal")
                       : "all finite sampled x";
    r.count = count;
    r.nonfinite = nonfinite;
    r.ambiguous = ambiguous;
    r.maxUlp = maxUlp;
    r.maxAbs = maxAbs;
    r.worst = "x=" + fmtF64(hx[worstI]) +
              (binary ? " y=" + fmtF64(hy[worstI]) : "");
    gRows.push_back(r);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [--f64-samples N] [--f32-pairs-log2 "
                         "K] [--quick] [--json PATH]\n",
                 argv[0]);
    return 1;
  }
  std::string dir = argv[1], jsonPath;
  uint64_t f64Samples = 100000000;
  int pairsLog2 = 30;
  bool quick = false;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--f64-samples" && i + 1 < argc)
      f64Samples = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--f32-pairs-log2" && i + 1 < argc)
      pairsLog2 = std::atoi(argv[++i]);
    else if (a == "--quick")
      quick = true;
    else if (a == "--json" && i + 1 < argc)
      jsonPath = argv[++i];
  }
  if (quick)
    f64Samples = std::min<uint64_t>(f64Samples, 1000000);
  Expected<std::shared_ptr<Context>> ctx = Context::create(0);
  check(ctx.status(), "context");
  const DeviceInfo &d = (*ctx)->device();
  std::printf("device %s sm_%d%d, driver API %d\n", d.name.c_str(), d.ccMajor,
              d.ccMinor, d.driverVersion);
  const char *mods[] = {"acc_f32",    "acc_f32_rr", "acc_f64_n0",
                        "acc_f64_n1", "acc_f64_n2", "acc_f64_n3",
                        "acc_f64_demote"};
  for (const char *name : mods) {
    Expected<std::unique_ptr<Module>> m =
        Module::load(*ctx, dir + "/" + name + ".manifest.json");
    check(m.status(), name);
    bool rr = std::strcmp(name, "acc_f32_rr") == 0;
    bool demote = std::strcmp(name, "acc_f64_demote") == 0;
    for (const std::string &k : (*m)->kernelNames()) {
      std::fprintf(stderr, "%s/%s ...\n", name, k.c_str());
      if (k.size() > 4 && k.compare(k.size() - 4, 4, "_f32") == 0)
        runF32(**m, k, rr, pairsLog2, quick);
      else
        runF64(**m, k, demote, f64Samples);
    }
  }
  std::printf("| module | op | type | form | domain | inputs | max ulp | "
              "max abs err | worst input (max ulp) | non-finite mismatches | "
              "ambiguous |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Row &r : gRows)
    std::printf("| %s | %s | %s | %s | %s | %" PRIu64 " | %.0f | %.3g | %s | "
                "%" PRIu64 " | %" PRIu64 " |\n",
                r.module.c_str(), r.op.c_str(), r.type.c_str(), r.form.c_str(),
                r.domain.c_str(), r.count, r.maxUlp, r.maxAbs,
                r.maxUlp > 0 ? r.worst.c_str() : "-",
                r.nonfinite, r.ambiguous);
  if (!jsonPath.empty()) {
    FILE *f = std::fopen(jsonPath.c_str(), "w");
    if (f) {
      std::fprintf(f, "[\n");
      for (size_t i = 0; i < gRows.size(); ++i) {
        const Row &r = gRows[i];
        std::fprintf(f,
                     "  {\"module\":\"%s\",\"op\":\"%s\",\"type\":\"%s\","
                     "\"form\":\"%s\",\"domain\":\"%s\",\"inputs\":%" PRIu64
                     ",\"max_ulp\":%.0f,\"max_abs\":%.6g,\"worst\":\"%s\","
                     "\"nonfinite_mismatches\":%" PRIu64
                     ",\"ambiguous\":%" PRIu64 "}%s\n",
                     r.module.c_str(), r.op.c_str(), r.type.c_str(),
                     r.form.c_str(), r.domain.c_str(), r.count, r.maxUlp,
                     r.maxAbs, r.worst.c_str(), r.nonfinite, r.ambiguous,
                     i + 1 < gRows.size() ? "," : "");
      }
      std::fprintf(f, "]\n");
      std::fclose(f);
    }
  }
  return 0;
}
