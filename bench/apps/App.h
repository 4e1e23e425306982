// App.h - what an evaluation app tells the runner (host side only).
//
// Each bench/apps/<abbr>.cu holds one application of the paper's Table 6,
// written for this suite: its hotspot kernel (extern "C", plain CUDA math
// through ax.cuh), and, outside __CUDA_ARCH__, an App: a realistic input
// generator, the launch, and the application's own quality metric.
// approx-cc compiles the device side; run-apps.cu links every app's host
// side with its Listing-3 build (-DAX_LISTING3) and compares the two.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace apps {

/// One device buffer of the launch: inputs carry their host contents,
/// outputs their size; the runner restores inputs before every launch
/// (kernels may work in place) and poisons outputs.
struct Buffer {
  std::string name;
  std::vector<uint8_t> host; ///< initial contents (inputs and in-outs)
  size_t bytes = 0;
  bool output = false; ///< compared by the metric (in-outs: true, with host)
  template <class T> static Buffer input(std::string n, const std::vector<T> &v) {
    Buffer b{std::move(n), {}, v.size() * sizeof(T), false};
    b.host.resize(b.bytes);
    std::memcpy(b.host.data(), v.data(), b.bytes);
    return b;
  }
  template <class T> static Buffer inout(std::string n, const std::vector<T> &v) {
    Buffer b = input(std::move(n), v);
    b.output = true;
    return b;
  }
  static Buffer out(std::string n, size_t bytes) { return {std::move(n), {}, bytes, true}; }
};

/// One kernel argument: a buffer's device address or a scalar of the
/// kernel's parameter type.
struct Arg {
  enum class Kind { Buffer, I32, I64, F32, F64 } kind;
  int buffer = -1;
  int64_t i = 0;
  double f = 0;
  static Arg buf(int index) { return {Kind::Buffer, index}; }
  static Arg i32(int32_t v) { return {Kind::I32, -1, v}; }
  static Arg i64(int64_t v) { return {Kind::I64, -1, v}; }
  static Arg f32(float v) { return {Kind::F32, -1, 0, v}; }
  static Arg f64(double v) { return {Kind::F64, -1, 0, v}; }
};

/// One problem instance: buffers, arguments, launch shape.
struct Problem {
  std::vector<Buffer> buffers;
  std::vector<Arg> args;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  unsigned sharedBytes = 0; ///< dynamic shared memory
};

/// Outputs of one launch: the contents of each output buffer, in order.
using Outputs = std::vector<std::vector<uint8_t>>;

/// Reads output buffer `k` of `o` as T.
template <class T> const T *view(const Outputs &o, size_t k) {
  return reinterpret_cast<const T *>(o[k].data());
}

struct App {
  const char *abbr;        ///< Table 6's abbreviation (file name, lower case)
  const char *name;        ///< the application it stands for
  const char *domain;      ///< Table 6's domain
  const char *description; ///< one line: what the kernel computes
  const char *kernel;      ///< extern "C" kernel name
  const char *functions;   ///< the transcendentals it uses ("exp, sqrt")
  const char *metric;      ///< what error() measures ("mean relative error")
  bool doublePrecision;
  /// A problem of realistic size and content; `seed` varies the data only.
  Problem (*make)(uint64_t seed);
  /// E(ref, out) >= 0, smaller is better; ref is the λ = 0 output.
  double (*error)(const Problem &p, const Outputs &ref, const Outputs &out);
  const void *handKernel;       ///< the Listing-3 build of `kernel`
  cudaError_t (*setHandLambda)(int); ///< its λ
};

/// Every app linked in, in registration order (one list however many
/// translation units include this: an inline function's static is shared).
inline std::vector<App> &registry() {
  static std::vector<App> all;
  return all;
}
inline bool registerApp(const App &a) {
  registry().push_back(a);
  return true;
}

/// Mean relative error of n values, |out - ref| / |ref|, where ref == 0
/// counts |out| (the convention of runtime/tune/Metrics.h); NaN/inf
/// mismatches give +inf. One pass, no copies: outputs reach 10^8 values.
template <class T>
double meanRelativeOf(const T *ref, const T *out, size_t n) {
  double sum = 0;
  bool bad = false;
#pragma omp parallel for reduction(+ : sum) reduction(|| : bad)
  for (long long i = 0; i < (long long)n; ++i) {
    double r = double(ref[i]), o = double(out[i]);
    if ((std::isnan(r) && std::isnan(o)) || (std::isinf(r) && r == o))
      continue;
    if (!std::isfinite(r) || !std::isfinite(o)) {
      bad = true;
      continue;
    }
    double d = std::fabs(o - r);
    sum += r != 0 ? d / std::fabs(r) : d;
  }
  if (bad)
    return INFINITY;
  return n ? sum / double(n) : 0;
}
/// Normalised L1 error sum|out - ref| / sum|ref| (sum|out - ref| when ref
/// is all 0): for outputs that cross zero, where a per-element relative
/// error is meaningless. +inf if any output is not finite.
template <class T>
double normalisedL1Of(const T *ref, const T *out, size_t n) {
  double num = 0, den = 0;
  bool bad = false;
#pragma omp parallel for reduction(+ : num, den) reduction(|| : bad)
  for (long long i = 0; i < (long long)n; ++i) {
    double r = double(ref[i]), o = double(out[i]);
    if (!std::isfinite(o)) {
      bad = true;
      continue;
    }
    num += std::fabs(o - r);
    den += std::fabs(r);
  }
  if (bad || !std::isfinite(num))
    return INFINITY;
  return den > 0 ? num / den : num;
}

inline double meanRelative(const double *ref, const double *out, size_t n) {
  return meanRelativeOf(ref, out, n);
}

/// The paper's metric over a whole launch (ICS'16, footnote 5: mean
/// relative error): meanRelativeOf over every element of every output
/// buffer, the buffers' elements `elem` bytes wide (4: f32, 8: f64).
inline double meanRelativeOfOutputs(const Outputs &ref, const Outputs &out,
                                    size_t elem) {
  double sum = 0;
  size_t n = 0;
  for (size_t k = 0; k < ref.size() && k < out.size(); ++k) {
    const size_t m = std::min(ref[k].size(), out[k].size()) / elem;
    const double e =
        elem == 8 ? meanRelativeOf(view<double>(ref, k), view<double>(out, k), m)
                  : meanRelativeOf(view<float>(ref, k), view<float>(out, k), m);
    sum += e * double(m);
    n += m;
  }
  return n ? sum / double(n) : 0.0;
}

} // namespace apps

/// In an app's .cu: registers the App (host build with AX_LISTING3 only).
#define AX_REGISTER_APP(...)                                                   \
  static const bool axAppRegistered = ::apps::registerApp(__VA_ARGS__)
