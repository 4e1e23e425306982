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
//   f16 / bf16 ops: every one of the 2^16 inputs for the unary ops, every
//     one of the 2^32 (x, y) pairs for div and pow. The reference is the op
//     in f64 on the device from the exact input, rounded once to f16/bf16
//     (roundNearest<F16/BF16>: integer arithmetic on the double's bits, no
//     detour through float, so no double rounding); ambiguity as for f32,
//     with the same 2^-20 ulp band (the f64 reference is within 2^-41 f16
//     and 2^-44 bf16 ulp).
//   f64 ops: >= 1e8 samples (fixed seed, special values included); the
//     reference is the op in x87 long double (64-bit significand) on the
//     host, rounded to double; ambiguity as above with 2^-10 f64 ulp (the
//     long double reference is good to ~2^-11 f64 ulp).
// The ulp distance, the rounding and the ambiguity rule come from
// approx_accuracy's header-only part (accuracy/include/approx/accuracy/
// Rounding.h, device-callable, f16/bf16/f32/f64), the same code its unit
// tests check; nothing here needs MPFR. `--self-check` tests the f16/bf16
// rounding, the ulp distance and this file's comparison on the host (no GPU).
// Each op is reported over all finite inputs and over the documented domains
// of its SFU form (docDomain / domainLabel below).
// Non-finite mismatches (NaN/inf where the reference is finite or the
// reverse, e.g. ftz flushing subnormal inputs) are counted, not maxed.
// Every kernel must carry one tunable site (checked from the manifest), and
// the SFU form the manifest names is recorded with each row.
//
// usage: approx-accuracy DIR [--f64-samples N] [--f32-pairs-log2 K]
//                            [--modules M1,M2,...] [--quick] [--json PATH]
//        approx-accuracy --self-check
#include "approx/accuracy/Rounding.h"
#include "approx/runtime/core/Runtime.h"
#include "../BenchCommon.cuh"
#include "../JsonText.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
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

// New ops are appended: the f64 sample seeds (20261121 + op) stay those of
// earlier runs.
enum Op { SIN, COS, EXP, LOG, RCP, SQRT, RSQRT, DIV, POW,
          TAN, EXP2, LOG2, LOG10, TANH, NOPS };
static const char *kOpNames[] = {"sin",  "cos",   "exp", "log", "rcp",
                                 "sqrt", "rsqrt", "div", "pow", "tan",
                                 "exp2", "log2",  "log10", "tanh"};
static_assert(sizeof(kOpNames) / sizeof(kOpNames[0]) == NOPS, "op names");

__host__ __device__ inline bool isBinary(Op op) { return op == DIV || op == POW; }

// ---------------------------------------------------------------------------
// f32, f16, bf16 on the device
// ---------------------------------------------------------------------------

/// The band (in result ulps) around a rounding midpoint where the f64
/// reference cannot decide the rounding. f32: the library's constant (the
/// f64 reference is within 2^-28 f32 ulp). f16/bf16: the same 2^-20, an
/// even wider margin (2^-41 f16 ulp, 2^-44 bf16 ulp).
template <class F> __host__ __device__ constexpr double refTolerance() {
  return acc::kF32FromF64RefTolerance;
}

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

// f32 binary-op samples: x, y drawn from the sample index (host can redo it).
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

// f16/bf16 binary ops: every pair; the index is (x bits << 16) | y bits.
__host__ __device__ inline void halfPairFor(uint32_t idx, uint16_t &x,
                                            uint16_t &y) {
  x = uint16_t(idx >> 16);
  y = uint16_t(idx & 0xffffu);
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

// Half inputs: x[i] = index (unary) or the pair of index, index =
// (base + i) * stride (stride 1 except for --quick).
__global__ void fillHalf(uint16_t *x, uint16_t *y, uint64_t base,
                         uint64_t stride, uint64_t n) {
  uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    uint32_t idx = uint32_t((base + i) * stride);
    if (y)
      halfPairFor(idx, x[i], y[i]);
    else
      x[i] = uint16_t(idx);
  }
}

__device__ double refDevice(Op op, double x, double y) {
  switch (op) {
  case SIN: return sin(x);
  case COS: return cos(x);
  case TAN: return tan(x);
  case EXP: return exp(x);
  case EXP2: return exp2(x);
  case LOG: return log(x);
  case LOG2: return log2(x);
  case LOG10: return log10(x);
  case RCP: return 1.0 / x;
  case SQRT: return sqrt(x);
  case RSQRT: return 1.0 / sqrt(x);
  case TANH: return tanh(x);
  case DIV: return x / y;
  case POW: return pow(x, y);
  default: return 0;
  }
}

// The SFU form's documented domains: bit 0 = domain A, bit 1 = domain B
// (labels in domainLabel()). x, y and ref are exact doubles; the thresholds
// are f32's for every format (f16/bf16 forms compute in f32, or natively in
// bf16 with f32's exponent range; f16's range lies inside f32's normal
// range). Exp's domain B (f32 only) measures ulp - floor(1.173|x|), to
// compare with __expf's bound 2 + floor(1.173|x|).
__host__ __device__ inline unsigned docDomain(Op op, double x, double y,
                                              double ref, bool rangeReduced,
                                              bool half) {
  const double pi = 3.14159265358979323846, minN = 1.1754943508222875e-38;
  double ar = fabs(ref);
  bool refNormalF32 = ar == 0 || (ar >= minN && ar <= 3.4028234663852886e38);
  switch (op) {
  case SIN:
  case COS:
    return (rangeReduced ? fabs(x) <= 65536.0 * pi : fabs(x) <= pi) ? 1u : 0u;
  case TAN: // where |tan x| <= 1, i.e. x within pi/4 of a multiple of pi
    if (rangeReduced)
      return fabs(x) <= 65536.0 * pi && ar <= 1.0 ? 1u : 0u;
    return (fabs(x) <= pi / 4 ? 1u : 0u) | (fabs(x) <= pi && ar <= 1.0 ? 2u : 0u);
  case EXP:
    return refNormalF32 && ref != 0 ? (half ? 1u : 3u) : 0u;
  case EXP2: return refNormalF32 && ref != 0 ? 1u : 0u;
  case LOG:
  case LOG2:
  case LOG10:
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
  case TANH: return 0u; // documented over all finite x: domain 0 only
  default: return 1u;
  }
}

static std::string domainLabel(Op op, int d, bool rr, bool half) {
  if (d == 0)
    return "all finite x";
  std::string s;
  switch (op) {
  case SIN:
  case COS: s = d == 1 ? (rr ? "abs(x) <= 2^16 pi" : "abs(x) <= pi") : ""; break;
  case TAN:
    if (rr)
      s = d == 1 ? "abs(x) <= 2^16 pi, abs(tan x) <= 1" : "";
    else
      s = d == 1 ? "abs(x) <= pi/4" : "abs(x) <= pi, abs(tan x) <= 1";
    break;
  case EXP:
    s = d == 1 ? "result normal"
               : (half ? "" : "result normal; ulp - floor(1.173 abs(x))");
    break;
  case EXP2: s = d == 1 ? "result normal" : ""; break;
  case LOG:
  case LOG2:
  case LOG10: s = d == 1 ? "x in [0.5, 2]" : "normal x outside [0.5, 2]"; break;
  case RCP: s = d == 1 ? "x, 1/x normal" : ""; break;
  case SQRT: s = d == 1 ? "x = 0 or normal" : ""; break;
  case RSQRT: s = d == 1 ? "x normal" : ""; break;
  case DIV: s = d == 1 ? "x normal, abs(y) in [2^-126, 2^126], result normal" : ""; break;
  case POW: s = d == 1 ? "x normal, result normal, nonzero" : ""; break;
  default: break;
  }
  if (half && s.find("normal") != std::string::npos)
    s += " (normal: in f32)";
  return s;
}

struct Contrib { // one thread's contribution to one Acc
  unsigned long long ulpKey = 0, absKey = 0;
  unsigned count = 0, nonfinite = 0, ambiguous = 0;
};

/// Compares one result (bits of format F) with the reference: counts it, or
/// a non-finite mismatch, or an ambiguous rounding of the reference.
template <class F>
__host__ __device__ void measure(Contrib &c, typename F::Bits out, double ref,
                                 uint32_t idx) {
  acc::NearestRounding<F> rr = acc::roundNearest<F>(ref);
  bool refNan = ref != ref, outNan = acc::isNaN<F>(out);
  if (refNan || outNan || acc::isInf<F>(rr.bits) || acc::isInf<F>(out)) {
    bool same = (refNan && outNan) || (out == rr.bits);
    if (same)
      c.count = 1;
    else
      c.nonfinite = 1;
    return;
  }
  // Ambiguous correct rounding: ref within the band of a midpoint, measured
  // in the spacing of the binade where ref lies.
  if (rr.ambiguous(refTolerance<F>())) {
    c.ambiguous = 1;
    return;
  }
  uint64_t u = acc::ulpDistance<F>(out, rr.bits);
  if (u > 0xffffffffULL)
    u = 0xffffffffULL;
  float ae = float(fabs(acc::toDouble<F>(out) - ref));
  c.ulpKey = (u << 32) | idx;
  c.absKey = (uint64_t(acc::bitsOf(ae)) << 32) | uint64_t(idx);
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
// multiple of 32 (all lanes reach the warp reduction). The sample index of a
// unary input is its bit pattern; of a pair, (base + i) * stride (f32: the
// pairFor() seed; f16/bf16: (x bits << 16) | y bits).
template <class F>
__global__ void compare(Op op, bool rr, const typename F::Bits *x,
                        const typename F::Bits *y, const typename F::Bits *outP,
                        const typename F::Bits *outS, uint64_t base,
                        uint64_t stride, uint64_t n, Acc *acc) {
  constexpr bool half = sizeof(typename F::Bits) == 2;
  uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  Contrib c[6];
  if (i < n) {
    typename F::Bits xb = x[i], yb = y ? y[i] : typename F::Bits(0);
    // Finite inputs only; NaN reference = outside the op's domain.
    bool finite = acc::isFinite<F>(xb) && (!y || acc::isFinite<F>(yb));
    double xd = acc::toDouble<F>(xb), yd = acc::toDouble<F>(yb);
    double ref = finite ? refDevice(op, xd, yd) : 0.0;
    if (finite && !isnan(ref)) {
      uint32_t idx = y ? uint32_t((base + i) * stride) : uint32_t(xb);
      unsigned doc = docDomain(op, xd, yd, ref, rr, half);
      for (int form = 0; form < 2; ++form) {
        Contrib &full = c[form * 3];
        measure<F>(full, form ? outS[i] : outP[i], ref, idx);
        if (doc & 1u)
          c[form * 3 + 1] = full;
        if (doc & 2u) {
          Contrib b = full;
          if (op == EXP && !half && b.count) {
            uint64_t u = b.ulpKey >> 32,
                     allow = uint64_t(floor(1.173 * fabs(xd)));
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
  std::string module, op, type, form, domain, sfuForm;
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
/// A half value as its shortest-enough decimal and its bits: "1.00098 (0x3c01)".
template <class F> static std::string fmtHalf(uint16_t bits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g (0x%04x)", acc::toDouble<F>(bits),
                unsigned(bits));
  return b;
}


/// Markdown table cell text: `|` escaped (pow's SFU form reads "of |x|").
static std::string mdCell(const std::string &s) {
  std::string o;
  for (char ch : s) {
    if (ch == '|')
      o += '\\';
    o += ch;
  }
  return o;
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

/// The SFU form the manifest records for the kernel's one site; exits when
/// the kernel is not one tunable site reading `lambda` (then lambda = 64
/// would not select an SFU form and the row would measure nothing).
static std::string sfuFormOf(Module &m, const std::string &kernel) {
  const Manifest &man = m.manifest();
  const KernelInfo *k = man.findKernel(kernel);
  if (!k || !k->readsKnob("lambda") || k->sites.size() != 1 ||
      k->sites[0] >= man.sites.size() ||
      man.sites[k->sites[0]].form != "tunable") {
    std::fprintf(stderr,
                 "%s/%s: not one tunable site reading the knob lambda; "
                 "regenerate the kernels with gen-kernels.py\n",
                 man.module.c_str(), kernel.c_str());
    std::exit(2);
  }
  const std::string &d = man.sites[k->sites[0]].data;
  size_t p = d.find("\"sfu\"");
  if (p == std::string::npos)
    return "";
  p = d.find('"', d.find(':', p) + 1);
  size_t e = p == std::string::npos ? p : d.find('"', p + 1);
  return e == std::string::npos ? "" : d.substr(p + 1, e - p - 1);
}

template <class F> static ScalarType scalarTypeOf() {
  if constexpr (std::is_same_v<F, acc::F16>)
    return ScalarType::F16;
  else if constexpr (std::is_same_v<F, acc::BF16>)
    return ScalarType::BF16;
  else
    return ScalarType::F32;
}

/// f32: all 2^32 inputs (unary) or 2^pairsLog2 sampled pairs; f16/bf16: all
/// 2^16 inputs or all 2^32 pairs. --quick: at most 2^26 of them.
template <class F>
static void runExhaustive(Module &m, const std::string &kernel, bool rr,
                          int pairsLog2, bool quick) {
  using Bits = typename F::Bits;
  constexpr bool half = sizeof(Bits) == 2;
  Op op = opIndex(opFromKernel(kernel));
  std::string sfu = sfuFormOf(m, kernel);
  bool binary = isBinary(op);
  const uint64_t chunk = uint64_t(1) << 28;
  uint64_t total = binary ? (half ? uint64_t(1) << 32 : uint64_t(1) << pairsLog2)
                          : (uint64_t(1) << (8 * sizeof(Bits)));
  uint64_t stride = 1;
  if (quick && total > (uint64_t(1) << 26)) {
    if (half)
      stride = total >> 26; // every stride-th pair, all x still covered
    total = uint64_t(1) << 26;
  }
  uint64_t bufN = std::min(chunk, total);
  Bits *x, *y = nullptr, *oP, *oS;
  CK(cudaMalloc(&x, bufN * sizeof(Bits)));
  if (binary)
    CK(cudaMalloc(&y, bufN * sizeof(Bits)));
  CK(cudaMalloc(&oP, bufN * sizeof(Bits)));
  CK(cudaMalloc(&oS, bufN * sizeof(Bits)));
  Acc *accs;
  CK(cudaMalloc(&accs, 6 * sizeof(Acc)));
  CK(cudaMemset(accs, 0, 6 * sizeof(Acc)));
  for (uint64_t base = 0; base < total; base += chunk) {
    uint64_t n = std::min(chunk, total - base);
    unsigned blocks = unsigned((n + 255) / 256);
    if (half)
      fillHalf<<<blocks, 256>>>(reinterpret_cast<uint16_t *>(x),
                                reinterpret_cast<uint16_t *>(y), base, stride,
                                n);
    else if (binary)
      fillPairs<<<blocks, 256>>>(op, reinterpret_cast<float *>(x),
                                 reinterpret_cast<float *>(y), base, n);
    else
      fillBits<<<blocks, 256>>>(reinterpret_cast<float *>(x),
                                quick ? base * 64 : base, n);
    CK(cudaGetLastError());
    BufferView vx{uint64_t(x), n * sizeof(Bits), scalarTypeOf<F>()};
    BufferView vy{uint64_t(y), n * sizeof(Bits), scalarTypeOf<F>()};
    for (int form = 0; form < 2; ++form) {
      Bits *o = form ? oS : oP;
      BufferView vo{uint64_t(o), n * sizeof(Bits), scalarTypeOf<F>()};
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
    compare<F><<<blocks, 256>>>(op, rr, x, y, oP, oS, base, stride, n, accs);
    CK(cudaGetLastError());
  }
  CK(cudaDeviceSynchronize());
  Acc h[6];
  CK(cudaMemcpy(h, accs, sizeof h, cudaMemcpyDeviceToHost));
  for (int k = 0; k < 6; ++k) {
    std::string label = domainLabel(op, k % 3, rr, half);
    if (label.empty())
      continue;
    Row r;
    r.module = m.manifest().module;
    r.op = kOpNames[op];
    r.type = F::kName;
    r.form = k < 3 ? "precise" : "sfu";
    r.domain = label;
    r.sfuForm = sfu;
    r.count = h[k].count;
    r.nonfinite = h[k].nonfinite;
    r.ambiguous = h[k].ambiguous;
    r.maxUlp = double(h[k].ulpKey >> 32);
    uint32_t bits = uint32_t(h[k].absKey >> 32);
    r.maxAbs = acc::floatFromBits(bits);
    uint32_t idx = uint32_t(h[k].ulpKey & 0xffffffffu);
    if (half) {
      uint16_t a = uint16_t(idx), b = 0;
      if (binary)
        halfPairFor(idx, a, b);
      r.worst = "x=" + fmtHalf<F>(a) + (binary ? " y=" + fmtHalf<F>(b) : "");
    } else if (binary) {
      float a, b;
      pairFor(op, idx, a, b);
      r.worst = "x=" + fmtF32(a) + " y=" + fmtF32(b);
    } else {
      r.worst = "x=" + fmtF32(acc::floatFromBits(idx));
    }
    gRows.push_back(r);
  }
  cudaFree(x);
  if (y)
    cudaFree(y);
  cudaFree(oP);
  cudaFree(oS);
  cudaFree(accs);
}

// ---------------------------------------------------------------------------
// f64, reference on the host in long double
// ---------------------------------------------------------------------------

static long double refF64(Op op, long double x, long double y) {
  switch (op) {
  case SIN: return sinl(x);
  case COS: return cosl(x);
  case TAN: return tanl(x);
  case EXP: return expl(x);
  case EXP2: return exp2l(x);
  case LOG: return logl(x);
  case LOG2: return log2l(x);
  case LOG10: return log10l(x);
  case RCP: return 1.0L / x;
  case SQRT: return sqrtl(x);
  case RSQRT: return 1.0L / sqrtl(x);
  case TANH: return tanhl(x);
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
  std::string sfu = sfuFormOf(m, kernel);
  bool binary = isBinary(op);
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
    r.sfuForm = sfu;
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

// ---------------------------------------------------------------------------
// --self-check: the host-side pieces, no GPU
// ---------------------------------------------------------------------------

static int gChecks = 0, gFailures = 0;
static void expect(bool ok, const char *what, const std::string &detail) {
  ++gChecks;
  if (!ok && ++gFailures <= 50)
    std::fprintf(stderr, "self-check FAILED: %s: %s\n", what, detail.c_str());
}
/// expect() with the detail text built only on failure (hot loops).
template <class Detail>
static void expectLazy(bool ok, const char *what, Detail detail) {
  if (ok)
    ++gChecks;
  else
    expect(false, what, detail());
}
static std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
  return b;
}

/// roundNearest<F> on every finite value of F, on every rounding midpoint
/// (including the overflow threshold max + ulp/2) and next to each midpoint,
/// inside and outside the ambiguity band.
template <class F> static void selfCheckGrid() {
  using Bits = typename F::Bits;
  const double tol = refTolerance<F>();
  for (uint32_t u = 0; u <= 0xffffu; ++u) {
    Bits b = Bits(u);
    if (!acc::isFinite<F>(b))
      continue;
    double v = acc::toDouble<F>(b);
    acc::NearestRounding<F> r = acc::roundNearest<F>(v);
    expectLazy(r.bits == b && r.frac == 0, F::kName, [&] {
      return std::string("exact value " + hex(b) + " rounds to " + hex(r.bits));
    });
    // The neighbour away from zero (2^(emax+1), encoded as inf, above max).
    Bits mag = Bits(b & Bits(~F::kSignMask)), sign = Bits(b & F::kSignMask);
    double s = acc::signBit<F>(b) ? -1.0 : 1.0;
    Bits next = Bits(sign | Bits(mag + 1)); // max + 1 is the inf encoding
    double spacing = mag == F::kMaxFinite
                         ? acc::toDouble<F>(F::kMaxFinite) -
                               acc::toDouble<F>(Bits(F::kMaxFinite - 1))
                         : std::fabs(acc::toDouble<F>(next)) - std::fabs(v);
    double mid = v + s * spacing / 2; // exact: few significant bits
    Bits even = (mag & 1) ? next : b;
    r = acc::roundNearest<F>(mid);
    expectLazy(r.bits == even && r.ambiguous(tol), F::kName, [&] {
      return std::string("midpoint above " + hex(b) + " rounds to " +
                         hex(r.bits) + " (want " + hex(even) + ", ambiguous)");
    });
    for (double k : {0x1p-10, 0x1p-30}) { // outside / inside the band
      bool inBand = k < tol;
      r = acc::roundNearest<F>(mid - s * spacing * k);
      expectLazy(r.bits == b && r.ambiguous(tol) == inBand, F::kName, [&] {
        return std::string("just below the midpoint above " + hex(b) + ": " +
                           hex(r.bits));
      });
      r = acc::roundNearest<F>(mid + s * spacing * k);
      expectLazy(r.bits == next && r.ambiguous(tol) == inBand, F::kName, [&] {
        return std::string("just above the midpoint above " + hex(b) + ": " +
                           hex(r.bits));
      });
    }
  }
}

/// roundNearest<F> of random doubles against an independent oracle: the
/// nearest of all F values by binary search over the sorted list, ties to
/// the even encoding, 2^(emax+1) standing for infinity.
template <class F> static void selfCheckRandom(uint64_t samples) {
  using Bits = typename F::Bits;
  std::vector<std::pair<double, Bits>> pos; // positive finite values, sorted
  for (uint32_t u = 0; u < F::kInf; ++u)
    pos.push_back({acc::toDouble<F>(Bits(u)), Bits(u)});
  pos.push_back({acc::pow2(F::kEmax + 1), F::kInf});
  std::mt19937_64 rng(1234567);
  const int eLo = F::kQmin - 3, eHi = F::kEmax + 2;
  for (uint64_t i = 0; i < samples; ++i) {
    uint64_t r = rng();
    int e = eLo + int(r % uint64_t(eHi - eLo + 1));
    double m = 1.0 + double(rng() >> 12) * 0x1p-52;
    double v = std::ldexp(m, e) * ((r >> 40) & 1 ? -1.0 : 1.0);
    double a = std::fabs(v);
    Bits want;
    if (a >= pos.back().first) {
      want = F::kInf;
    } else {
      auto hi =
          std::upper_bound(pos.begin(), pos.end(), a,
                           [](double x, const std::pair<double, Bits> &p) {
                             return x < p.first;
                           });
      auto lo = hi - 1; // lo->first <= a < hi->first
      double dLo = a - lo->first, dHi = hi->first - a; // exact (Sterbenz)
      want = dLo < dHi   ? lo->second
             : dHi < dLo ? hi->second
                         : ((lo->second & 1) ? hi->second : lo->second);
    }
    if (v < 0)
      want = Bits(want | F::kSignMask);
    Bits got = acc::roundNearest<F>(v).bits;
    expectLazy(got == want, F::kName, [&] {
      return std::string("random " + fmtF64(v) + " rounds to " + hex(got) +
                         ", oracle " + hex(want));
    });
  }
}

/// roundNearest<F> of floats against CUDA's host conversions (one rounding
/// from float, which cuda_fp16.h / cuda_bf16.h implement in software).
static void selfCheckCudaConversions(uint64_t samples) {
  std::mt19937_64 rng(7654321);
  for (uint64_t i = 0; i < samples; ++i) {
    uint32_t b = uint32_t(rng());
    float f = acc::floatFromBits(b);
    if (f != f)
      continue;
    uint16_t h = __half_as_ushort(__float2half_rn(f));
    uint16_t bf = __bfloat16_as_ushort(__float2bfloat16_rn(f));
    expectLazy(acc::roundNearest<acc::F16>(double(f)).bits == h, "f16", [&] {
      return std::string("float " + fmtF32(f) + " vs __float2half_rn " +
                         hex(h));
    });
    expectLazy(acc::roundNearest<acc::BF16>(double(f)).bits == bf, "bf16", [&] {
      return std::string("float " + fmtF32(f) + " vs __float2bfloat16_rn " +
                         hex(bf));
    });
  }
}

static int selfCheck() {
  // 1. Rounding: exhaustive grid, random doubles against an oracle, CUDA's
  //    float conversions.
  selfCheckGrid<acc::F16>();
  selfCheckGrid<acc::BF16>();
  selfCheckRandom<acc::F16>(2000000);
  selfCheckRandom<acc::BF16>(2000000);
  selfCheckCudaConversions(4000000);
  // The double-rounding traps: the exact value lies just above a half
  // midpoint, but within float's rounding of it, so double -> float -> half
  // lands on the midpoint and rounds to even, the wrong way.
  {
    double v = 1.0 + 0x1p-11 + 0x1p-40;
    uint16_t viaFloat = __half_as_ushort(__float2half_rn(float(v)));
    expect(acc::roundNearest<acc::F16>(v).bits == 0x3c01, "f16",
           "1 + 2^-11 + 2^-40 must round up to 0x3c01");
    expect(viaFloat == 0x3c00, "f16",
           "(sanity) via float it rounds to 0x3c00: " + hex(viaFloat));
    double w = 1.0 + 0x1p-8 + 0x1p-40;
    uint16_t viaFloatB = __bfloat16_as_ushort(__float2bfloat16_rn(float(w)));
    expect(acc::roundNearest<acc::BF16>(w).bits == 0x3f81, "bf16",
           "1 + 2^-8 + 2^-40 must round up to 0x3f81");
    expect(viaFloatB == 0x3f80, "bf16",
           "(sanity) via float it rounds to 0x3f80: " + hex(viaFloatB));
  }
  // 2. ulp distance in f16/bf16 units.
  {
    using acc::ulpDistance;
    expect(ulpDistance<acc::F16>(0x0000, 0x8000) == 0, "f16", "+0 vs -0");
    expect(ulpDistance<acc::F16>(0x3c00, 0x3c01) == 1, "f16", "1 vs next");
    expect(ulpDistance<acc::F16>(0x3c00, 0x3bff) == 1, "f16", "1 vs prev");
    expect(ulpDistance<acc::F16>(0x0001, 0x8001) == 2, "f16", "+-min sub");
    expect(ulpDistance<acc::F16>(0x7bff, 0x7c00) == 1, "f16", "max vs inf");
    expect(ulpDistance<acc::F16>(0x3c00, 0xbc00) == 2 * 0x3c00, "f16", "1 vs -1");
    expect(ulpDistance<acc::F16>(0x7e00, 0x3c00) == acc::kNaNDistance, "f16",
           "NaN vs 1");
    expect(ulpDistance<acc::F16>(0x7e00, 0xfe01) == 0, "f16", "NaN vs NaN");
    expect(ulpDistance<acc::BF16>(0x3f80, 0x3f81) == 1, "bf16", "1 vs next");
    expect(ulpDistance<acc::BF16>(0x7f7f, 0x7f80) == 1, "bf16", "max vs inf");
    expect(ulpDistance<acc::BF16>(0x0001, 0x8000) == 1, "bf16", "min sub vs -0");
  }
  // 3. This file's comparison (measure) on known cases.
  {
    auto run16 = [](uint16_t out, double ref) {
      Contrib c;
      measure<acc::F16>(c, out, ref, 7);
      return c;
    };
    Contrib c = run16(0x3c00, 1.0 + 0x1p-12);
    expect(c.count == 1 && (c.ulpKey >> 32) == 0 && (c.ulpKey & 0xffffffffu) == 7,
           "measure f16", "correctly rounded: 0 ulp");
    c = run16(0x3c01, 1.0 + 0x1p-12);
    expect(c.count == 1 && (c.ulpKey >> 32) == 1, "measure f16", "next: 1 ulp");
    expect(acc::floatFromBits(uint32_t(c.absKey >> 32)) == float(3 * 0x1p-12),
           "measure f16", "abs error 3 * 2^-12");
    c = run16(0x3bff, 1.0 + 0x1p-12);
    expect(c.count == 1 && (c.ulpKey >> 32) == 1, "measure f16", "prev: 1 ulp");
    c = run16(0x3c00, 1.0 + 0x1p-11);
    expect(c.ambiguous == 1 && c.count == 0, "measure f16", "midpoint: ambiguous");
    c = run16(0x7c00, 70000.0);
    expect(c.count == 1 && c.nonfinite == 0, "measure f16", "overflow to inf");
    c = run16(0x7bff, 70000.0);
    expect(c.nonfinite == 1 && c.count == 0, "measure f16", "max for overflow");
    c = run16(0x7c00, 1.0);
    expect(c.nonfinite == 1, "measure f16", "inf for 1");
    c = run16(0x7e00, 1.0);
    expect(c.nonfinite == 1, "measure f16", "NaN for 1");
    c = run16(0x0000, 0x1p-25 + 0x1p-30);
    expect(c.count == 1 && (c.ulpKey >> 32) == 1, "measure f16",
           "flushed smallest subnormal: 1 ulp");
    Contrib d;
    measure<acc::BF16>(d, 0x3f81, 1.0 + 0x1p-9, 3);
    expect(d.count == 1 && (d.ulpKey >> 32) == 1, "measure bf16", "next: 1 ulp");
    Contrib e;
    measure<acc::F32>(e, 0x3f800001u, 1.0 + 0x1p-25, 3);
    expect(e.count == 1 && (e.ulpKey >> 32) == 1, "measure f32", "next: 1 ulp");
  }
  // 4. Domains, labels, pair indices, the manifest's SFU form.
  {
    expect(docDomain(TAN, 0.5, 0, std::tan(0.5), false, false) == 3u, "domain",
           "tan 0.5");
    expect(docDomain(TAN, 1.0, 0, std::tan(1.0), false, false) == 0u, "domain",
           "tan 1 (abs(tan) > 1)");
    expect(docDomain(TAN, 3.0, 0, std::tan(3.0), false, false) == 2u, "domain",
           "tan 3");
    expect(docDomain(TAN, 3.0, 0, std::tan(3.0), true, false) == 1u, "domain",
           "tan 3 range-reduced");
    expect(docDomain(TAN, 1000.0, 0, std::tan(1000.0), true, false) == 0u,
           "domain", "tan 1000 range-reduced (abs(tan) > 1)");
    expect(docDomain(EXP, 1.0, 0, std::exp(1.0), false, false) == 3u, "domain",
           "exp f32");
    expect(docDomain(EXP, 1.0, 0, std::exp(1.0), false, true) == 1u, "domain",
           "exp half: no 1.173 domain");
    expect(docDomain(EXP2, -130.0, 0, std::exp2(-130.0), false, false) == 0u,
           "domain", "exp2 subnormal result");
    expect(docDomain(LOG2, 1.5, 0, std::log2(1.5), false, false) == 1u &&
               docDomain(LOG10, 4.0, 0, std::log10(4.0), false, false) == 2u &&
               docDomain(LOG2, 1e-40, 0, std::log2(1e-40), false, false) == 0u,
           "domain", "log2/log10");
    expect(docDomain(TANH, 0.5, 0, std::tanh(0.5), false, false) == 0u &&
               domainLabel(TANH, 1, false, false).empty(),
           "domain", "tanh: all finite only");
    expect(domainLabel(EXP, 2, false, true).empty() &&
               domainLabel(EXP, 1, false, true) == "result normal (normal: in f32)",
           "domain", "half exp labels");
    uint16_t hx, hy;
    halfPairFor(0x3c00bc01u, hx, hy);
    expect(hx == 0x3c00 && hy == 0xbc01, "pairs", "index -> (x, y)");
  }
  std::printf("self-check: %d checks, %d failed\n", gChecks, gFailures);
  return gFailures ? 1 : 0;
}

// ---------------------------------------------------------------------------

static bool endsWith(const std::string &s, const char *suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--self-check") == 0)
    return selfCheck();
  if (argc < 2 || argv[1][0] == '-') {
    std::fprintf(stderr,
                 "usage: %s DIR [--f64-samples N] [--f32-pairs-log2 K] "
                 "[--modules M1,M2,...] [--quick] [--json PATH]\n"
                 "       %s --self-check\n",
                 argv[0], argv[0]);
    return 1;
  }
  const char *mods[] = {"acc_f32",    "acc_f32_rr", "acc_f64_n0",
                        "acc_f64_n1", "acc_f64_n2", "acc_f64_n3",
                        "acc_f64_demote", "acc_f16", "acc_bf16"};
  std::string dir = argv[1], jsonPath;
  uint64_t f64Samples = 100000000;
  int pairsLog2 = 30;
  bool quick = false;
  std::vector<std::string> only;
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
    else if (a == "--modules" && i + 1 < argc) {
      std::string list = argv[++i];
      for (size_t p = 0; p <= list.size();) {
        size_t q = std::min(list.find(',', p), list.size());
        std::string name = list.substr(p, q - p);
        if (std::find(std::begin(mods), std::end(mods), name) == std::end(mods)) {
          std::fprintf(stderr, "unknown module '%s'\n", name.c_str());
          return 1;
        }
        only.push_back(name);
        p = q + 1;
      }
    } else {
      std::fprintf(stderr, "unknown or incomplete argument '%s'\n", a.c_str());
      return 1;
    }
  }
  if (pairsLog2 < 1 || pairsLog2 > 32) {
    std::fprintf(stderr, "--f32-pairs-log2 must be in [1, 32]\n");
    return 1;
  }
  if (quick)
    f64Samples = std::min<uint64_t>(f64Samples, 1000000);
  Expected<std::shared_ptr<Context>> ctx = Context::create(0);
  check(ctx.status(), "context");
  const DeviceInfo &d = (*ctx)->device();
  std::printf("device %s sm_%d%d, driver API %d\n", d.name.c_str(), d.ccMajor,
              d.ccMinor, d.driverVersion);
  for (const char *name : mods) {
    if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end())
      continue;
    Expected<std::unique_ptr<Module>> m =
        Module::load(*ctx, dir + "/" + name + ".manifest.json");
    check(m.status(), name);
    bool rr = std::strcmp(name, "acc_f32_rr") == 0;
    bool demote = std::strcmp(name, "acc_f64_demote") == 0;
    for (const std::string &k : (*m)->kernelNames()) {
      std::fprintf(stderr, "%s/%s ...\n", name, k.c_str());
      if (endsWith(k, "_f32"))
        runExhaustive<acc::F32>(**m, k, rr, pairsLog2, quick);
      else if (endsWith(k, "_bf16"))
        runExhaustive<acc::BF16>(**m, k, rr, pairsLog2, quick);
      else if (endsWith(k, "_f16"))
        runExhaustive<acc::F16>(**m, k, rr, pairsLog2, quick);
      else
        runF64(**m, k, demote, f64Samples);
    }
  }
  std::printf("| module | op | type | form | domain | inputs | max ulp | "
              "max abs err | worst input (max ulp) | non-finite mismatches | "
              "ambiguous | SFU form |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Row &r : gRows)
    std::printf("| %s | %s | %s | %s | %s | %" PRIu64 " | %.0f | %.3g | %s | "
                "%" PRIu64 " | %" PRIu64 " | %s |\n",
                r.module.c_str(), r.op.c_str(), r.type.c_str(), r.form.c_str(),
                r.domain.c_str(), r.count, r.maxUlp, r.maxAbs,
                r.maxUlp > 0 ? r.worst.c_str() : "-",
                r.nonfinite, r.ambiguous, mdCell(r.sfuForm).c_str());
  if (!jsonPath.empty()) {
    FILE *f = std::fopen(jsonPath.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "cannot write %s\n", jsonPath.c_str());
      return 2;
    }
    std::fprintf(f, "[\n");
    for (size_t i = 0; i < gRows.size(); ++i) {
      const Row &r = gRows[i];
      std::fprintf(f,
                   "  {\"module\":%s,\"op\":%s,\"type\":%s,"
                   "\"form\":%s,\"domain\":%s,\"inputs\":%" PRIu64
                   ",\"max_ulp\":%.0f,\"max_abs\":%.6g,\"worst\":%s,"
                   "\"nonfinite_mismatches\":%" PRIu64
                   ",\"ambiguous\":%" PRIu64 ",\"sfu_form\":%s}%s\n",
                   jsonString(r.module).c_str(), jsonString(r.op).c_str(),
                   jsonString(r.type).c_str(), jsonString(r.form).c_str(),
                   jsonString(r.domain).c_str(), r.count, r.maxUlp, r.maxAbs,
                   jsonString(r.worst).c_str(), r.nonfinite, r.ambiguous,
                   jsonString(r.sfuForm).c_str(),
                   i + 1 < gRows.size() ? "," : "");
    }
    std::fprintf(f, "]\n");
    std::fclose(f);
  }
  return 0;
}
