//===- Apps.cpp - The 14 PolyBench/GPU applications as data --------------===//
//
// The tables of Apps.h: per application its sizes, objects, launches,
// PolyBench/GPU 1.0's init function (Default input set) and the CPU
// reference of the GPU program, plus the Image and Random generators and
// the error metric. Sources and every deviation from PolyBench/GPU are
// listed in README.md; in short:
//  - kernels, thread mapping, block shapes, init formulas and constants are
//    PolyBench/GPU 1.0's CUDA versions (DATA_TYPE double); grids are
//    ceil(threads / block) as in its OpenCL host (the CUDA host of CORR and
//    COVAR truncates, and COVAR's reduce grid divides N by the x block);
//  - arrays PolyBench/GPU leaves uninitialized but copies to the device
//    (accumulators such as 3MM's E, F, G) are zeros; GESUMMV's B, never
//    initialized there, takes PolyBench/ACC's B[i][j] = i*j/N;
//  - init formulas are written with logical 2-D indices (PolyBench/GPU's
//    flat strides agree at its square sizes), except FDTD-2D, whose init
//    writes ex and ey with row stride NY while they have NY+1 columns and
//    NX+1 rows: kept, since it changes values at the paper's size.
//
//===----------------------------------------------------------------------===//
#include "Apps.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <thread>

namespace approx::polybench {

namespace {

using Shape = std::vector<int64_t>;
using ShapeFn = std::function<Shape(const Sizes &)>;
using Threads = std::array<int64_t, 3>;

constexpr double kPi = 3.14159265358979323846; // glibc's M_PI

int64_t at(const Sizes &s, const char *n) { return s.at(n); }

/// A shape of size parameters, each plus an offset (CORR's M+1).
ShapeFn dims(std::vector<std::string> names, std::vector<int64_t> plus = {}) {
  plus.resize(names.size(), 0);
  return [names, plus](const Sizes &s) {
    Shape out;
    for (size_t d = 0; d < names.size(); ++d)
      out.push_back(s.at(names[d]) + plus[d]);
    return out;
  };
}

ObjectSpec obj(std::string name, ShapeFn shape, Role role, bool toDevice,
               bool fromDevice, bool data) {
  ObjectSpec o;
  o.name = std::move(name);
  o.shape = std::move(shape);
  o.role = role;
  o.toDevice = toDevice;
  o.fromDevice = fromDevice;
  o.data = data;
  return o;
}

LaunchSpec launch(std::string kernel, std::array<unsigned, 3> block,
                  std::function<Threads(const Sizes &)> threads,
                  std::vector<ArgSpec> args) {
  LaunchSpec l;
  l.kernel = std::move(kernel);
  l.block = block;
  l.threads = std::move(threads);
  l.args = std::move(args);
  return l;
}

/// A 2-D kernel: x by y threads (size names), blocks of 32 x 8.
LaunchSpec launch2d(std::string kernel, std::string x, std::string y,
                    std::vector<ArgSpec> args) {
  return launch(
      std::move(kernel), {32, 8, 1},
      [x, y](const Sizes &s) {
        return Threads{s.at(x), s.at(y), 1};
      },
      std::move(args));
}

/// A 1-D kernel: x threads (a size name), blocks of 256.
LaunchSpec launch1d(std::string kernel, std::string x,
                    std::vector<ArgSpec> args) {
  return launch(
      std::move(kernel), {256, 1, 1},
      [x](const Sizes &s) {
        return Threads{s.at(x), 1, 1};
      },
      std::move(args));
}

PhaseSpec once(std::vector<LaunchSpec> launches) {
  PhaseSpec p;
  p.launches = std::move(launches);
  return p;
}

PhaseSpec loop(std::string var, std::function<int64_t(const Sizes &)> begin,
               std::function<int64_t(const Sizes &)> end,
               std::vector<LaunchSpec> launches) {
  PhaseSpec p;
  p.loopVar = std::move(var);
  p.begin = std::move(begin);
  p.end = std::move(end);
  p.launches = std::move(launches);
  return p;
}

ArgSpec O(const char *n) { return ArgSpec::object(n); }
ArgSpec S(const char *n) { return ArgSpec::size(n); }

/// Row-major 2-D view of a buffer.
struct M2 {
  double *p;
  int64_t cols;
  double &operator()(int64_t i, int64_t j) const { return p[i * cols + j]; }
};
/// Row-major 3-D view of a buffer.
struct M3 {
  double *p;
  int64_t d1, d2;
  double &operator()(int64_t i, int64_t j, int64_t k) const {
    return p[(i * d1 + j) * d2 + k];
  }
};

M2 m2(Buffers &b, int idx, int64_t cols) {
  return {b[size_t(idx)].data(), cols};
}
double *v1(Buffers &b, int idx) { return b[size_t(idx)].data(); }

/// Runs f(lo, hi) over [0, n) split among the hardware threads (the
/// references of the O(n^3) applications at the paper's size). Elements
/// are independent, so the result does not depend on the split.
void parallelFor(int64_t n, const std::function<void(int64_t, int64_t)> &f) {
  unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  int64_t t = std::min<int64_t>(hw, std::max<int64_t>(1, n / 4));
  if (t <= 1) {
    f(0, n);
    return;
  }
  std::vector<std::thread> pool;
  int64_t chunk = (n + t - 1) / t;
  for (int64_t lo = chunk; lo < n; lo += chunk)
    pool.emplace_back(f, lo, std::min(n, lo + chunk));
  f(0, std::min(n, chunk));
  for (std::thread &th : pool)
    th.join();
}

/// Runs f(i) for i in [0, n), thread t taking i = t, t + T, ... (balanced
/// for the triangular loops of CORR and COVAR).
void parallelForCyclic(int64_t n, const std::function<void(int64_t)> &f) {
  int64_t t =
      std::min<int64_t>(std::max(1u, std::thread::hardware_concurrency()),
                        std::max<int64_t>(1, n));
  auto body = [&](int64_t first) {
    for (int64_t i = first; i < n; i += t)
      f(i);
  };
  std::vector<std::thread> pool;
  for (int64_t k = 1; k < t; ++k)
    pool.emplace_back(body, k);
  body(0);
  for (std::thread &th : pool)
    th.join();
}

/// symmat[j1][j2] = symmat[j2][j1] = sum_(i=1..n) data[i][j1] data[i][j2]
/// for 1 <= j1 < j1End, j1 + skip <= j2 <= m, summed over i in order (as
/// corr_kernel and covar_kernel do); columns are copied out first so the
/// dot products read contiguous memory.
void symmetricProducts(M2 data, M2 symmat, int64_t m, int64_t n, int64_t j1End,
                       int64_t skip) {
  std::vector<double> cols(size_t((m + 1) * n));
  for (int64_t i = 1; i <= n; ++i)
    for (int64_t j = 1; j <= m; ++j)
      cols[size_t(j * n + i - 1)] = data(i, j);
  parallelForCyclic(j1End - 1, [&](int64_t k) {
    int64_t j1 = k + 1;
    const double *c1 = cols.data() + j1 * n;
    for (int64_t j2 = j1 + skip; j2 <= m; ++j2) {
      const double *c2 = cols.data() + j2 * n;
      double acc = 0;
      for (int64_t i = 0; i < n; ++i)
        acc = acc + c1[i] * c2[i];
      symmat(j1, j2) = acc;
      symmat(j2, j1) = acc;
    }
  });
}

/// glibc's rand() from its default seed (1): random_r's TYPE_3 additive
/// feedback generator, r[i] = r[i-31] + r[i-3] after a Park-Miller seeding
/// and 310 discarded values; returns r >> 1. The first values are
/// 1804289383, 846930886 (tested).
class GlibcRand {
public:
  GlibcRand() {
    r_[0] = 1;
    for (int i = 1; i < 31; ++i) {
      int64_t v = (16807 * int64_t(int32_t(r_[i - 1]))) % 2147483647;
      if (v < 0)
        v += 2147483647;
      r_[i] = uint32_t(v);
    }
    for (int i = 31; i < 34; ++i)
      r_[i] = r_[i - 31];
    for (int i = 34; i < 344; ++i)
      r_[i % 344] = r_[(i - 31) % 344] + r_[(i - 3) % 344];
    i_ = 344;
  }
  int32_t next() {
    uint32_t v = r_[(i_ - 31) % 344] + r_[(i_ - 3) % 344];
    r_[i_ % 344] = v;
    ++i_;
    return int32_t(v >> 1);
  }

private:
  uint32_t r_[344] = {};
  uint64_t i_ = 0;
};

//===--- The applications ------------------------------------------------===//

App conv2d() {
  App a;
  a.name = "2DCONV";
  a.id = "2dconv";
  a.summary = "3x3 convolution of A into B (interior points)";
  a.sizeNames = {"NI", "NJ"};
  a.paper = {{"NI", 4096}, {"NJ", 4096}};
  a.x16 = {{"NI", 16384}, {"NJ", 16384}};
  a.tiny = {{"NI", 37}, {"NJ", 45}};
  a.objects = {obj("A", dims({"NI", "NJ"}), Role::In, true, false, true),
               obj("B", dims({"NI", "NJ"}), Role::Out, false, true, false)};
  a.phases = {once({launch2d("Convolution2D_kernel", "NJ", "NI",
                             {O("A"), O("B"), S("NI"), S("NJ")})})};
  a.initDefault = [](const Sizes &, Buffers &b) {
    // A[i][j] = (float)rand() / RAND_MAX: a float quotient, stored as double.
    GlibcRand rng;
    for (double &v : b[0])
      v = double(float(rng.next()) / float(2147483647));
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t ni = at(s, "NI"), nj = at(s, "NJ");
    M2 A = m2(b, 0, nj), B = m2(b, 1, nj);
    for (int64_t i = 1; i < ni - 1; ++i)
      for (int64_t j = 1; j < nj - 1; ++j) {
        double r = 0.2 * A(i - 1, j - 1);
        r = r + 0.5 * A(i - 1, j);
        r = r + -0.8 * A(i - 1, j + 1);
        r = r + -0.3 * A(i, j - 1);
        r = r + 0.6 * A(i, j);
        r = r + -0.9 * A(i, j + 1);
        r = r + 0.4 * A(i + 1, j - 1);
        r = r + 0.7 * A(i + 1, j);
        r = r + 0.1 * A(i + 1, j + 1);
        B(i, j) = r;
      }
  };
  return a;
}

/// C(rows x cols) += X(rows x inner) * Y(inner x cols), accumulating per k
/// as the kernels do.
void mmAccumulate(double *X, double *Y, double *C, int64_t rows, int64_t cols,
                  int64_t inner) {
  parallelFor(rows, [=](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i)
      for (int64_t k = 0; k < inner; ++k) {
        double x = X[i * inner + k];
        const double *y = Y + k * cols;
        double *c = C + i * cols;
        for (int64_t j = 0; j < cols; ++j)
          c[j] = c[j] + x * y[j];
      }
  });
}

/// X(i, j) = i (j + plus) / div for i < rows, j < cols: PolyBench/GPU's
/// init of the inputs of 2MM and 3MM.
void fillProducts(M2 X, int64_t rows, int64_t cols, int64_t plus,
                  int64_t div) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      X(i, j) = double(i) * double(j + plus) / double(div);
}

App mm2() {
  App a;
  a.name = "2MM";
  a.id = "2mm";
  a.summary = "C += A B; E += C D";
  a.sizeNames = {"NI", "NJ", "NK", "NL"};
  a.paper = {{"NI", 2048}, {"NJ", 2048}, {"NK", 2048}, {"NL", 2048}};
  a.x16 = {{"NI", 8192}, {"NJ", 8192}, {"NK", 8192}, {"NL", 8192}};
  a.tiny = {{"NI", 19}, {"NJ", 23}, {"NK", 29}, {"NL", 17}};
  a.objects = {obj("A", dims({"NI", "NK"}), Role::In, true, false, true),
               obj("B", dims({"NK", "NJ"}), Role::In, true, false, true),
               obj("C", dims({"NI", "NJ"}), Role::InOut, true, false, true),
               obj("D", dims({"NJ", "NL"}), Role::In, true, false, true),
               obj("E", dims({"NI", "NL"}), Role::InOut, true, true, false)};
  a.phases = {
      once({launch2d("mm2_kernel1", "NJ", "NI",
                     {O("A"), O("B"), O("C"), S("NI"), S("NJ"), S("NK")}),
            launch2d("mm2_kernel2", "NL", "NI",
                     {O("C"), O("D"), O("E"), S("NI"), S("NL"), S("NJ")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t ni = at(s, "NI"), nj = at(s, "NJ"), nk = at(s, "NK"),
            nl = at(s, "NL");
    fillProducts(m2(b, 0, nk), ni, nk, 0, ni); // A
    fillProducts(m2(b, 1, nj), nk, nj, 1, nj); // B
    fillProducts(m2(b, 2, nj), ni, nj, 3, nl); // C
    fillProducts(m2(b, 3, nl), nj, nl, 2, nk); // D
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t ni = at(s, "NI"), nj = at(s, "NJ"), nk = at(s, "NK"),
            nl = at(s, "NL");
    mmAccumulate(v1(b, 0), v1(b, 1), v1(b, 2), ni, nj, nk);
    mmAccumulate(v1(b, 2), v1(b, 3), v1(b, 4), ni, nl, nj);
  };
  return a;
}

App conv3d() {
  App a;
  a.name = "3DCONV";
  a.id = "3dconv";
  a.summary = "3-D stencil of A into B, one launch per plane i";
  a.sizeNames = {"NI", "NJ", "NK"};
  a.paper = {{"NI", 256}, {"NJ", 256}, {"NK", 256}};
  a.x16 = {{"NI", 645}, {"NJ", 645}, {"NK", 645}};
  a.tiny = {{"NI", 7}, {"NJ", 11}, {"NK", 37}};
  a.objects = {
      obj("A", dims({"NI", "NJ", "NK"}), Role::In, true, false, true),
      obj("B", dims({"NI", "NJ", "NK"}), Role::InOut, true, true, false)};
  a.phases = {loop(
      "i", [](const Sizes &) { return int64_t(1); },
      [](const Sizes &s) { return at(s, "NI") - 1; },
      {launch2d(
          "convolution3D_kernel", "NK", "NJ",
          {O("A"), O("B"), S("NI"), S("NJ"), S("NK"), ArgSpec::loop("i")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t ni = at(s, "NI"), nj = at(s, "NJ"), nk = at(s, "NK");
    M3 A{v1(b, 0), nj, nk};
    for (int64_t i = 0; i < ni; ++i)
      for (int64_t j = 0; j < nj; ++j)
        for (int64_t k = 0; k < nk; ++k)
          A(i, j, k) = double(i % 12 + 2 * (j % 7) + 3 * (k % 13));
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t ni = at(s, "NI"), nj = at(s, "NJ"), nk = at(s, "NK");
    M3 A{v1(b, 0), nj, nk}, B{v1(b, 1), nj, nk};
    const double c11 = 2, c21 = 5, c31 = -8, c12 = -3, c22 = 6, c32 = -9,
                 c13 = 4, c23 = 7, c33 = 10;
    for (int64_t i = 1; i < ni - 1; ++i)
      for (int64_t j = 1; j < nj - 1; ++j)
        for (int64_t k = 1; k < nk - 1; ++k) {
          double r = c11 * A(i - 1, j - 1, k - 1);
          r = r + c13 * A(i + 1, j - 1, k - 1);
          r = r + c21 * A(i - 1, j - 1, k - 1);
          r = r + c23 * A(i + 1, j - 1, k - 1);
          r = r + c31 * A(i - 1, j - 1, k - 1);
          r = r + c33 * A(i + 1, j - 1, k - 1);
          r = r + c12 * A(i, j - 1, k);
          r = r + c22 * A(i, j, k);
          r = r + c32 * A(i, j + 1, k);
          r = r + c11 * A(i - 1, j - 1, k + 1);
          r = r + c13 * A(i + 1, j - 1, k + 1);
          r = r + c21 * A(i - 1, j, k + 1);
          r = r + c23 * A(i + 1, j, k + 1);
          r = r + c31 * A(i - 1, j + 1, k + 1);
          r = r + c33 * A(i + 1, j + 1, k + 1);
          B(i, j, k) = r;
        }
  };
  return a;
}

App mm3() {
  App a;
  a.name = "3MM";
  a.id = "3mm";
  a.summary = "E += A B; F += C D; G += E F";
  a.sizeNames = {"NI", "NJ", "NK", "NL", "NM"};
  a.paper = {{"NI", 512}, {"NJ", 512}, {"NK", 512}, {"NL", 512}, {"NM", 512}};
  a.x16 = {
      {"NI", 2048}, {"NJ", 2048}, {"NK", 2048}, {"NL", 2048}, {"NM", 2048}};
  a.tiny = {{"NI", 13}, {"NJ", 17}, {"NK", 19}, {"NL", 23}, {"NM", 29}};
  a.objects = {obj("A", dims({"NI", "NK"}), Role::In, true, false, true),
               obj("B", dims({"NK", "NJ"}), Role::In, true, false, true),
               obj("C", dims({"NJ", "NM"}), Role::In, true, false, true),
               obj("D", dims({"NM", "NL"}), Role::In, true, false, true),
               obj("E", dims({"NI", "NJ"}), Role::InOut, true, false, false),
               obj("F", dims({"NJ", "NL"}), Role::InOut, true, false, false),
               obj("G", dims({"NI", "NL"}), Role::InOut, true, true, false)};
  a.phases = {
      once({launch2d("mm3_kernel1", "NJ", "NI",
                     {O("A"), O("B"), O("E"), S("NI"), S("NJ"), S("NK")}),
            launch2d("mm3_kernel2", "NL", "NJ",
                     {O("C"), O("D"), O("F"), S("NJ"), S("NL"), S("NM")}),
            launch2d("mm3_kernel3", "NL", "NI",
                     {O("E"), O("F"), O("G"), S("NI"), S("NL"), S("NJ")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t ni = at(s, "NI"), nj = at(s, "NJ"), nk = at(s, "NK"),
            nl = at(s, "NL"), nm = at(s, "NM");
    fillProducts(m2(b, 0, nk), ni, nk, 0, ni); // A
    fillProducts(m2(b, 1, nj), nk, nj, 1, nj); // B
    fillProducts(m2(b, 2, nm), nj, nm, 3, nl); // C
    fillProducts(m2(b, 3, nl), nm, nl, 2, nk); // D
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t ni = at(s, "NI"), nj = at(s, "NJ"), nk = at(s, "NK"),
            nl = at(s, "NL"), nm = at(s, "NM");
    mmAccumulate(v1(b, 0), v1(b, 1), v1(b, 4), ni, nj, nk);
    mmAccumulate(v1(b, 2), v1(b, 3), v1(b, 5), nj, nl, nm);
    mmAccumulate(v1(b, 4), v1(b, 5), v1(b, 6), ni, nl, nj);
  };
  return a;
}

App atax() {
  App a;
  a.name = "ATAX";
  a.id = "atax";
  a.summary = "tmp += A x; y += A^T tmp";
  a.sizeNames = {"NX", "NY"};
  a.paper = {{"NX", 4096}, {"NY", 4096}};
  a.x16 = {{"NX", 16384}, {"NY", 16384}};
  a.tiny = {{"NX", 37}, {"NY", 300}};
  a.objects = {obj("A", dims({"NX", "NY"}), Role::In, true, false, true),
               obj("x", dims({"NY"}), Role::In, true, false, true),
               obj("y", dims({"NY"}), Role::InOut, true, true, false),
               obj("tmp", dims({"NX"}), Role::InOut, true, false, false)};
  a.phases = {once({launch1d("atax_kernel1", "NX",
                             {O("A"), O("x"), O("tmp"), S("NX"), S("NY")}),
                    launch1d("atax_kernel2", "NY",
                             {O("A"), O("y"), O("tmp"), S("NX"), S("NY")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t nx = at(s, "NX"), ny = at(s, "NY");
    M2 A = m2(b, 0, ny);
    double *x = v1(b, 1);
    for (int64_t j = 0; j < ny; ++j)
      x[j] = double(j) * kPi;
    for (int64_t i = 0; i < nx; ++i)
      for (int64_t j = 0; j < ny; ++j)
        A(i, j) = double(i) * double(j) / double(nx);
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t nx = at(s, "NX"), ny = at(s, "NY");
    M2 A = m2(b, 0, ny);
    double *x = v1(b, 1), *y = v1(b, 2), *tmp = v1(b, 3);
    for (int64_t i = 0; i < nx; ++i)
      for (int64_t j = 0; j < ny; ++j)
        tmp[i] = tmp[i] + A(i, j) * x[j];
    for (int64_t i = 0; i < nx; ++i)
      for (int64_t j = 0; j < ny; ++j)
        y[j] = y[j] + A(i, j) * tmp[i];
  };
  return a;
}

App bicg() {
  App a;
  a.name = "BICG";
  a.id = "bicg";
  a.summary = "s = A^T r; q = A p";
  a.sizeNames = {"NX", "NY"};
  a.paper = {{"NX", 4096}, {"NY", 4096}};
  a.x16 = {{"NX", 16384}, {"NY", 16384}};
  a.tiny = {{"NX", 300}, {"NY", 37}};
  a.objects = {obj("A", dims({"NX", "NY"}), Role::In, true, false, true),
               obj("r", dims({"NX"}), Role::In, true, false, true),
               obj("s", dims({"NY"}), Role::Out, true, true, false),
               obj("p", dims({"NY"}), Role::In, true, false, true),
               obj("q", dims({"NX"}), Role::Out, true, true, false)};
  a.phases = {once({launch1d("bicg_kernel1", "NY",
                             {O("A"), O("r"), O("s"), S("NX"), S("NY")}),
                    launch1d("bicg_kernel2", "NX",
                             {O("A"), O("p"), O("q"), S("NX"), S("NY")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t nx = at(s, "NX"), ny = at(s, "NY");
    M2 A = m2(b, 0, ny);
    double *r = v1(b, 1), *p = v1(b, 3);
    for (int64_t i = 0; i < nx; ++i) {
      r[i] = double(i) * kPi;
      for (int64_t j = 0; j < ny; ++j)
        A(i, j) = double(i) * double(j) / double(nx);
    }
    for (int64_t j = 0; j < ny; ++j)
      p[j] = double(j) * kPi;
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t nx = at(s, "NX"), ny = at(s, "NY");
    M2 A = m2(b, 0, ny);
    double *r = v1(b, 1), *sv = v1(b, 2), *p = v1(b, 3), *q = v1(b, 4);
    for (int64_t j = 0; j < ny; ++j)
      sv[j] = 0;
    for (int64_t i = 0; i < nx; ++i)
      for (int64_t j = 0; j < ny; ++j)
        sv[j] = sv[j] + A(i, j) * r[i];
    for (int64_t i = 0; i < nx; ++i) {
      q[i] = 0;
      for (int64_t j = 0; j < ny; ++j)
        q[i] = q[i] + A(i, j) * p[j];
    }
  };
  return a;
}

constexpr double kFloatN = 3214212.01; // PolyBench's FLOAT_N
constexpr double kEps = 0.005;         // CORR's EPS

/// mean[j] = sum_(i=1..n) data[i][j] / float_n, j = 1..m.
void meanColumns(M2 data, double *mean, int64_t m, int64_t n) {
  for (int64_t j = 1; j <= m; ++j) {
    mean[j] = 0;
    for (int64_t i = 1; i <= n; ++i)
      mean[j] = mean[j] + data(i, j);
    mean[j] = mean[j] / kFloatN;
  }
}

App corr() {
  App a;
  a.name = "CORR";
  a.id = "corr";
  a.summary = "correlation matrix: mean, std, reduce, corr kernels";
  a.sizeNames = {"M", "N"};
  a.paper = {{"M", 2048}, {"N", 2048}};
  a.x16 = {{"M", 8192}, {"N", 8192}};
  a.tiny = {{"M", 260}, {"N", 33}};
  a.objects = {
      obj("data", dims({"N", "M"}, {1, 1}), Role::InOut, true, false, true),
      obj("mean", dims({"M"}, {1}), Role::Out, true, false, false),
      obj("stddev", dims({"M"}, {1}), Role::Out, true, false, false),
      obj("symmat", dims({"M", "M"}, {1, 1}), Role::InOut, true, true, false)};
  a.phases = {
      once({launch1d("mean_kernel", "M",
                     {O("mean"), O("data"), ArgSpec::scalar("float_n", kFloatN),
                      S("M"), S("N")}),
            launch1d("std_kernel", "M",
                     {O("mean"), O("stddev"), O("data"),
                      ArgSpec::scalar("float_n", kFloatN),
                      ArgSpec::scalar("eps", kEps), S("M"), S("N")}),
            launch2d("reduce_kernel", "M", "N",
                     {O("mean"), O("stddev"), O("data"),
                      ArgSpec::scalar("float_n", kFloatN), S("M"), S("N")}),
            launch1d("corr_kernel", "M",
                     {O("symmat"), O("data"), S("M"), S("N")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t m = at(s, "M"), n = at(s, "N");
    M2 data = m2(b, 0, m + 1), symmat = m2(b, 3, m + 1);
    for (int64_t i = 0; i <= n; ++i)
      for (int64_t j = 0; j <= m; ++j)
        data(i, j) = double(i) * double(j) / double(m + 1);
    // PolyBench/GPU copies this one value to the device after the kernels;
    // no kernel writes it, so it is part of symmat's initial contents here.
    symmat(m, m) = 1.0;
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t m = at(s, "M"), n = at(s, "N");
    M2 data = m2(b, 0, m + 1), symmat = m2(b, 3, m + 1);
    double *mean = v1(b, 1), *sd = v1(b, 2);
    meanColumns(data, mean, m, n);
    for (int64_t j = 1; j <= m; ++j) {
      sd[j] = 0;
      for (int64_t i = 1; i <= n; ++i)
        sd[j] = sd[j] + (data(i, j) - mean[j]) * (data(i, j) - mean[j]);
      sd[j] = sd[j] / kFloatN;
      sd[j] = std::sqrt(sd[j]);
      if (sd[j] <= kEps)
        sd[j] = 1.0;
    }
    for (int64_t i = 1; i <= n; ++i)
      for (int64_t j = 1; j <= m; ++j) {
        data(i, j) = data(i, j) - mean[j];
        data(i, j) = data(i, j) / (std::sqrt(kFloatN) * sd[j]);
      }
    for (int64_t j1 = 1; j1 < m; ++j1)
      symmat(j1, j1) = 1.0;
    symmetricProducts(data, symmat, m, n, m, 1);
  };
  return a;
}

App covar() {
  App a;
  a.name = "COVAR";
  a.id = "covar";
  a.summary = "covariance matrix: mean, reduce, covar kernels";
  a.sizeNames = {"M", "N"};
  a.paper = {{"M", 2048}, {"N", 2048}};
  a.x16 = {{"M", 8192}, {"N", 8192}};
  a.tiny = {{"M", 270}, {"N", 29}};
  a.objects = {
      obj("data", dims({"N", "M"}, {1, 1}), Role::InOut, true, false, true),
      obj("symmat", dims({"M", "M"}, {1, 1}), Role::InOut, true, true, false),
      obj("mean", dims({"M"}, {1}), Role::Out, true, false, false)};
  a.phases = {
      once({launch1d("mean_kernel", "M",
                     {O("mean"), O("data"), ArgSpec::scalar("float_n", kFloatN),
                      S("M"), S("N")}),
            launch2d("reduce_kernel", "M", "N",
                     {O("mean"), O("data"), S("M"), S("N")}),
            launch1d("covar_kernel", "M",
                     {O("symmat"), O("data"), S("M"), S("N")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t m = at(s, "M"), n = at(s, "N");
    M2 data = m2(b, 0, m + 1);
    for (int64_t i = 1; i <= n; ++i)
      for (int64_t j = 1; j <= m; ++j)
        data(i, j) = double(i) * double(j) / double(m);
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t m = at(s, "M"), n = at(s, "N");
    M2 data = m2(b, 0, m + 1), symmat = m2(b, 1, m + 1);
    double *mean = v1(b, 2);
    meanColumns(data, mean, m, n);
    for (int64_t i = 1; i <= n; ++i)
      for (int64_t j = 1; j <= m; ++j)
        data(i, j) = data(i, j) - mean[j];
    symmetricProducts(data, symmat, m, n, m + 1, 0);
  };
  return a;
}

App fdtd2d() {
  App a;
  a.name = "FDTD-2D";
  a.id = "fdtd2d";
  a.summary = "TMAX steps of 2-D FDTD, three kernels per step";
  a.sizeNames = {"NX", "NY", "TMAX"};
  a.paper = {{"NX", 2048}, {"NY", 2048}, {"TMAX", 500}};
  a.x16 = {{"NX", 8192}, {"NY", 8192}, {"TMAX", 500}};
  a.tiny = {{"NX", 21}, {"NY", 45}, {"TMAX", 5}};
  a.objects = {
      obj("_fict_", dims({"TMAX"}), Role::In, true, false, true),
      obj("ex", dims({"NX", "NY"}, {0, 1}), Role::InOut, true, false, true),
      obj("ey", dims({"NX", "NY"}, {1, 0}), Role::InOut, true, false, true),
      obj("hz", dims({"NX", "NY"}), Role::InOut, true, true, true)};
  a.phases = {loop(
      "t", [](const Sizes &) { return int64_t(0); },
      [](const Sizes &s) { return at(s, "TMAX"); },
      {launch2d("fdtd_step1_kernel", "NY", "NX",
                {O("_fict_"), O("ex"), O("ey"), O("hz"), ArgSpec::loop("t"),
                 S("NX"), S("NY")}),
       launch2d("fdtd_step2_kernel", "NY", "NX",
                {O("ex"), O("ey"), O("hz"), S("NX"), S("NY")}),
       launch2d("fdtd_step3_kernel", "NY", "NX",
                {O("ex"), O("ey"), O("hz"), S("NX"), S("NY")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t nx = at(s, "NX"), ny = at(s, "NY"), tmax = at(s, "TMAX");
    double *fict = v1(b, 0), *ex = v1(b, 1), *ey = v1(b, 2);
    M2 hz = m2(b, 3, ny);
    for (int64_t t = 0; t < tmax; ++t)
      fict[t] = double(t);
    // PolyBench/GPU's flat indices: ex and ey written with row stride NY
    // (ex has NY+1 columns; ey's last row and ex's last NX elements stay 0).
    for (int64_t i = 0; i < nx; ++i)
      for (int64_t j = 0; j < ny; ++j) {
        ex[i * ny + j] = (double(i) * double(j + 1) + 1) / double(nx);
        ey[i * ny + j] = (double(i - 1) * double(j + 2) + 2) / double(nx);
        hz(i, j) = (double(i - 9) * double(j + 4) + 3) / double(nx);
      }
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t nx = at(s, "NX"), ny = at(s, "NY"), tmax = at(s, "TMAX");
    double *fict = v1(b, 0);
    M2 ex = m2(b, 1, ny + 1), ey = m2(b, 2, ny), hz = m2(b, 3, ny);
    for (int64_t t = 0; t < tmax; ++t) {
      for (int64_t j = 0; j < ny; ++j)
        ey(0, j) = fict[t];
      for (int64_t i = 1; i < nx; ++i)
        for (int64_t j = 0; j < ny; ++j)
          ey(i, j) = ey(i, j) - 0.5 * (hz(i, j) - hz(i - 1, j));
      for (int64_t i = 0; i < nx; ++i)
        for (int64_t j = 1; j < ny; ++j)
          ex(i, j) = ex(i, j) - 0.5 * (hz(i, j) - hz(i, j - 1));
      for (int64_t i = 0; i < nx; ++i)
        for (int64_t j = 0; j < ny; ++j)
          hz(i, j) = hz(i, j) -
                     0.7 * (ex(i, j + 1) - ex(i, j) + ey(i + 1, j) - ey(i, j));
    }
  };
  return a;
}

App gemm() {
  App a;
  a.name = "GEMM";
  a.id = "gemm";
  a.summary = "C := alpha A B + beta C";
  a.sizeNames = {"NI", "NJ", "NK"};
  a.paper = {{"NI", 512}, {"NJ", 512}, {"NK", 512}};
  a.x16 = {{"NI", 2048}, {"NJ", 2048}, {"NK", 2048}};
  a.tiny = {{"NI", 21}, {"NJ", 45}, {"NK", 13}};
  a.objects = {obj("A", dims({"NI", "NK"}), Role::In, true, false, true),
               obj("B", dims({"NK", "NJ"}), Role::In, true, false, true),
               obj("C", dims({"NI", "NJ"}), Role::InOut, true, true, true)};
  a.phases = {once({launch2d(
      "gemm_kernel", "NJ", "NI",
      {O("A"), O("B"), O("C"), ArgSpec::scalar("alpha", 32412.0),
       ArgSpec::scalar("beta", 2123.0), S("NI"), S("NJ"), S("NK")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t ni = at(s, "NI"), nj = at(s, "NJ"), nk = at(s, "NK");
    M2 A = m2(b, 0, nk), B = m2(b, 1, nj), C = m2(b, 2, nj);
    for (int64_t i = 0; i < ni; ++i)
      for (int64_t j = 0; j < nk; ++j)
        A(i, j) = double(i) * double(j) / double(ni);
    for (int64_t i = 0; i < nk; ++i)
      for (int64_t j = 0; j < nj; ++j)
        B(i, j) = (double(i) * double(j) + 1) / double(nj);
    for (int64_t i = 0; i < ni; ++i)
      for (int64_t j = 0; j < nj; ++j)
        C(i, j) = (double(i) * double(j) + 2) / double(nj);
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t ni = at(s, "NI"), nj = at(s, "NJ"), nk = at(s, "NK");
    const double alpha = 32412.0, beta = 2123.0;
    double *A = v1(b, 0), *B = v1(b, 1), *C = v1(b, 2);
    parallelFor(ni, [=](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) {
        double *c = C + i * nj;
        for (int64_t j = 0; j < nj; ++j)
          c[j] = c[j] * beta;
        for (int64_t k = 0; k < nk; ++k) {
          double ak = alpha * A[i * nk + k];
          for (int64_t j = 0; j < nj; ++j)
            c[j] = c[j] + ak * B[k * nj + j];
        }
      }
    });
  };
  return a;
}

App gesummv() {
  App a;
  a.name = "GESUMMV";
  a.id = "gesummv";
  a.summary = "y = alpha A x + beta B x";
  a.sizeNames = {"N"};
  a.paper = {{"N", 4096}};
  a.x16 = {{"N", 16384}};
  a.tiny = {{"N", 300}};
  a.objects = {obj("A", dims({"N", "N"}), Role::In, true, false, true),
               obj("B", dims({"N", "N"}), Role::In, true, false, true),
               obj("x", dims({"N"}), Role::In, true, false, true),
               obj("y", dims({"N"}), Role::InOut, true, true, false),
               obj("tmp", dims({"N"}), Role::InOut, true, false, false)};
  a.phases = {once({launch1d("gesummv_kernel", "N",
                             {O("A"), O("B"), O("x"), O("y"), O("tmp"),
                              ArgSpec::scalar("alpha", 43532.0),
                              ArgSpec::scalar("beta", 12313.0), S("N")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t n = at(s, "N");
    M2 A = m2(b, 0, n), B = m2(b, 1, n);
    double *x = v1(b, 2);
    for (int64_t i = 0; i < n; ++i) {
      x[i] = double(i) / double(n);
      for (int64_t j = 0; j < n; ++j) {
        A(i, j) = double(i) * double(j) / double(n);
        B(i, j) = double(i) * double(j) / double(n); // PolyBench/ACC's B
      }
    }
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t n = at(s, "N");
    const double alpha = 43532.0, beta = 12313.0;
    M2 A = m2(b, 0, n), B = m2(b, 1, n);
    double *x = v1(b, 2), *y = v1(b, 3), *tmp = v1(b, 4);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        tmp[i] = tmp[i] + A(i, j) * x[j];
        y[i] = y[i] + B(i, j) * x[j];
      }
      y[i] = alpha * tmp[i] + beta * y[i];
    }
  };
  return a;
}

App mvt() {
  App a;
  a.name = "MVT";
  a.id = "mvt";
  a.summary = "x1 += A y_1; x2 += A^T y_2";
  a.sizeNames = {"N"};
  a.paper = {{"N", 4096}};
  a.x16 = {{"N", 16384}};
  a.tiny = {{"N", 300}};
  a.objects = {obj("a", dims({"N", "N"}), Role::In, true, false, true),
               obj("x1", dims({"N"}), Role::InOut, true, true, true),
               obj("x2", dims({"N"}), Role::InOut, true, true, true),
               obj("y_1", dims({"N"}), Role::In, true, false, true),
               obj("y_2", dims({"N"}), Role::In, true, false, true)};
  a.phases = {once(
      {launch1d("mvt_kernel1", "N", {O("a"), O("x1"), O("y_1"), S("N")}),
       launch1d("mvt_kernel2", "N", {O("a"), O("x2"), O("y_2"), S("N")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t n = at(s, "N");
    M2 A = m2(b, 0, n);
    double *x1 = v1(b, 1), *x2 = v1(b, 2), *y1 = v1(b, 3), *y2 = v1(b, 4);
    for (int64_t i = 0; i < n; ++i) {
      x1[i] = double(i) / double(n);
      x2[i] = (double(i) + 1) / double(n);
      y1[i] = (double(i) + 3) / double(n);
      y2[i] = (double(i) + 4) / double(n);
      for (int64_t j = 0; j < n; ++j)
        A(i, j) = double(i) * double(j) / double(n);
    }
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t n = at(s, "N");
    M2 A = m2(b, 0, n);
    double *x1 = v1(b, 1), *x2 = v1(b, 2), *y1 = v1(b, 3), *y2 = v1(b, 4);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        x1[i] = x1[i] + A(i, j) * y1[j];
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        x2[i] = x2[i] + A(j, i) * y2[j];
  };
  return a;
}

App syrk() {
  App a;
  a.name = "SYRK";
  a.id = "syrk";
  a.summary = "C := alpha A A^T + beta C";
  a.sizeNames = {"N", "M"};
  a.paper = {{"N", 1024}, {"M", 1024}};
  a.x16 = {{"N", 4096}, {"M", 4096}};
  a.tiny = {{"N", 45}, {"M", 13}};
  a.objects = {obj("A", dims({"N", "M"}), Role::In, true, false, true),
               obj("C", dims({"N", "N"}), Role::InOut, true, true, true)};
  a.phases = {
      once({launch2d("syrk_kernel", "N", "N",
                     {O("A"), O("C"), ArgSpec::scalar("alpha", 12435.0),
                      ArgSpec::scalar("beta", 4546.0), S("M"), S("N")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t n = at(s, "N"), m = at(s, "M");
    M2 A = m2(b, 0, m), C = m2(b, 1, n);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < m; ++j)
        A(i, j) = double(i) * double(j) / double(n);
      for (int64_t j = 0; j < n; ++j)
        C(i, j) = (double(i) * double(j) + 2) / double(n);
    }
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t n = at(s, "N"), m = at(s, "M");
    const double alpha = 12435.0, beta = 4546.0;
    M2 A = m2(b, 0, m), C = m2(b, 1, n);
    parallelFor(n, [=](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double c = C(i, j) * beta;
          for (int64_t k = 0; k < m; ++k)
            c = c + alpha * A(i, k) * A(j, k);
          C(i, j) = c;
        }
    });
  };
  return a;
}

App syr2k() {
  App a;
  a.name = "SYR2K";
  a.id = "syr2k";
  a.summary = "C := alpha A B^T + alpha B A^T + beta C";
  a.sizeNames = {"N", "M"};
  a.paper = {{"N", 2048}, {"M", 2048}};
  a.x16 = {{"N", 8192}, {"M", 8192}};
  a.tiny = {{"N", 37}, {"M", 11}};
  a.objects = {obj("A", dims({"N", "M"}), Role::In, true, false, true),
               obj("B", dims({"N", "M"}), Role::In, true, false, true),
               obj("C", dims({"N", "N"}), Role::InOut, true, true, true)};
  a.phases = {
      once({launch2d("syr2k_kernel", "N", "N",
                     {O("A"), O("B"), O("C"), ArgSpec::scalar("alpha", 12435.0),
                      ArgSpec::scalar("beta", 4546.0), S("M"), S("N")})})};
  a.initDefault = [](const Sizes &s, Buffers &b) {
    int64_t n = at(s, "N"), m = at(s, "M");
    M2 A = m2(b, 0, m), B = m2(b, 1, m), C = m2(b, 2, n);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j)
        C(i, j) = (double(i) * double(j) + 2) / double(n);
      for (int64_t j = 0; j < m; ++j) {
        A(i, j) = double(i) * double(j) / double(n);
        B(i, j) = (double(i) * double(j) + 1) / double(n);
      }
    }
  };
  a.reference = [](const Sizes &s, Buffers &b) {
    int64_t n = at(s, "N"), m = at(s, "M");
    const double alpha = 12435.0, beta = 4546.0;
    M2 A = m2(b, 0, m), B = m2(b, 1, m), C = m2(b, 2, n);
    parallelFor(n, [=](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double c = C(i, j) * beta;
          for (int64_t k = 0; k < m; ++k)
            c = c + (alpha * A(i, k) * B(j, k) + alpha * B(i, k) * A(j, k));
          C(i, j) = c;
        }
    });
  };
  return a;
}

std::string lower(std::string s) {
  for (char &c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

} // namespace

//===--- Names -----------------------------------------------------------===//

const char *sizeClassName(SizeClass c) {
  switch (c) {
  case SizeClass::Paper:
    return "paper";
  case SizeClass::X16:
    return "16x";
  case SizeClass::Tiny:
    return "tiny";
  }
  return "?";
}

bool parseSizeClass(const std::string &s, SizeClass &out) {
  for (SizeClass c : {SizeClass::Paper, SizeClass::X16, SizeClass::Tiny})
    if (s == sizeClassName(c)) {
      out = c;
      return true;
    }
  return false;
}

const char *roleName(Role r) {
  switch (r) {
  case Role::In:
    return "in";
  case Role::Out:
    return "out";
  case Role::InOut:
    return "inout";
  }
  return "?";
}

const char *inputSetName(InputSet s) {
  switch (s) {
  case InputSet::Default:
    return "default";
  case InputSet::Image:
    return "image";
  case InputSet::Random:
    return "random";
  }
  return "?";
}

const Sizes &App::sizes(SizeClass c) const {
  return c == SizeClass::Paper ? paper : c == SizeClass::X16 ? x16 : tiny;
}

int App::objectIndex(const std::string &n) const {
  for (size_t i = 0; i < objects.size(); ++i)
    if (objects[i].name == n)
      return int(i);
  return -1;
}

const std::vector<App> &apps() {
  static const std::vector<App> all = {
      conv2d(), mm2(),    conv3d(), mm3(),     atax(), bicg(), corr(),
      covar(),  fdtd2d(), gemm(),   gesummv(), mvt(),  syrk(), syr2k()};
  return all;
}

const App *findApp(const std::string &nameOrId) {
  std::string k = lower(nameOrId);
  for (const App &a : apps())
    if (lower(a.name) == k || a.id == k)
      return &a;
  return nullptr;
}

int64_t elementCount(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::array<int64_t, 3> gridOf(const LaunchSpec &l, const Sizes &s) {
  std::array<int64_t, 3> t = l.threads(s), g{};
  for (int d = 0; d < 3; ++d)
    g[size_t(d)] = (t[size_t(d)] + l.block[size_t(d)] - 1) / l.block[size_t(d)];
  return g;
}

std::vector<std::string> checkApp(const App &app, const Sizes &s) {
  std::vector<std::string> bad;
  for (const std::string &n : app.sizeNames) {
    auto it = s.find(n);
    if (it == s.end())
      bad.push_back("size " + n + " missing");
    else if (it->second <= 0)
      bad.push_back("size " + n + " is not positive");
  }
  if (!bad.empty())
    return bad; // the shapes below would read missing sizes
  for (const ObjectSpec &o : app.objects) {
    std::vector<int64_t> sh = o.shape(s);
    if (sh.empty() || sh.size() > 3)
      bad.push_back("object " + o.name + " has rank " +
                    std::to_string(sh.size()));
    for (int64_t d : sh)
      if (d <= 0)
        bad.push_back("object " + o.name + " has a dimension " +
                      std::to_string(d));
    if (o.fromDevice && o.role == Role::In)
      bad.push_back("object " + o.name + " is read back but never written");
  }
  std::vector<bool> used(app.objects.size(), false);
  for (const PhaseSpec &p : app.phases) {
    if (!p.loopVar.empty() && (!p.begin || !p.end))
      bad.push_back("loop " + p.loopVar + " has no bounds");
    for (const LaunchSpec &l : p.launches) {
      if (l.kernel.empty())
        bad.push_back("a launch has no kernel");
      uint64_t threads = uint64_t(l.block[0]) * l.block[1] * l.block[2];
      if (threads == 0 || threads > 1024 || l.block[2] > 64)
        bad.push_back(l.kernel + ": block of " + std::to_string(threads) +
                      " threads");
      if (threads == 0)
        continue;
      std::array<int64_t, 3> g = gridOf(l, s);
      if (g[0] < 1 || g[0] > 2147483647 || g[1] < 1 || g[1] > 65535 ||
          g[2] < 1 || g[2] > 65535)
        bad.push_back(l.kernel + ": grid " + std::to_string(g[0]) + "x" +
                      std::to_string(g[1]) + "x" + std::to_string(g[2]) +
                      " out of CUDA's range");
      for (const ArgSpec &a : l.args) {
        switch (a.kind) {
        case ArgSpec::Kind::Object: {
          int i = app.objectIndex(a.name);
          if (i < 0)
            bad.push_back(l.kernel + ": argument names no object: " + a.name);
          else
            used[size_t(i)] = true;
          break;
        }
        case ArgSpec::Kind::Size:
          if (!s.count(a.name))
            bad.push_back(l.kernel + ": argument names no size: " + a.name);
          break;
        case ArgSpec::Kind::Loop:
          if (a.name != p.loopVar || p.loopVar.empty())
            bad.push_back(l.kernel + ": loop variable " + a.name +
                          " outside its loop");
          break;
        case ArgSpec::Kind::Scalar:
          if (!std::isfinite(a.value))
            bad.push_back(l.kernel + ": scalar " + a.name + " is not finite");
          break;
        }
      }
    }
  }
  for (size_t i = 0; i < used.size(); ++i)
    if (!used[i])
      bad.push_back("object " + app.objects[i].name + " is used by no launch");
  return bad;
}

//===--- Inputs ----------------------------------------------------------===//

void fillRandom(uint64_t seed, uint64_t stream, std::vector<double> &dst) {
  // SplitMix64 (Steele, Lea, Flood 2014); the stream separates objects.
  uint64_t x =
      seed * 0x9E3779B97F4A7C15ull + (stream + 1) * 0xD1B54A32D192ED03ull;
  for (double &v : dst) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    v = double(z >> 11) * 0x1.0p-53; // 53 random bits: [0, 1)
  }
}

void fillFromImage(const GrayImage &img, const std::vector<int64_t> &shape,
                   std::vector<double> &dst) {
  const int64_t h = img.height, w = img.width;
  if (shape.size() == 1) {
    // Raster order, resampled to the vector's length.
    const int64_t hw = h * w, n = shape[0];
    for (int64_t k = 0; k < n; ++k)
      dst[size_t(k)] = img.pixels[size_t(k * hw / n)]; // k * hw < 2^63
    return;
  }
  const int64_t rows = shape[shape.size() - 2], cols = shape.back();
  const int64_t planes = elementCount(shape) / (rows * cols);
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t r = 0; r < rows; ++r) {
      // Nearest-neighbour row of the image; each plane shifts by p rows,
      // so the planes of a 3-D object differ like the frames of a pan.
      int64_t ir = (r * h / rows + p) % h;
      const double *src = img.pixels.data() + ir * w;
      double *out = dst.data() + (p * rows + r) * cols;
      for (int64_t c = 0; c < cols; ++c)
        out[c] = src[c * w / cols];
    }
}

GrayImage syntheticImage(int64_t height, int64_t width) {
  GrayImage g;
  g.height = height;
  g.width = width;
  g.pixels.resize(size_t(height * width));
  for (int64_t r = 0; r < height; ++r)
    for (int64_t c = 0; c < width; ++c) {
      double y = double(r) / double(height), x = double(c) / double(width);
      double v = 90 + 60 * x + 40 * y +
                 25 * std::sin(12 * x + 3 * y) * std::cos(9 * y);
      double dx = x - 0.6, dy = y - 0.4;
      if (dx * dx + dy * dy < 0.04)
        v += 70; // a bright disc: an edge with a jump
      if (int64_t(x * 40) % 2 == 0 && y > 0.75)
        v -= 50; // stripes: high frequency
      g.pixels[size_t(r * width + c)] = std::min(255.0, std::max(0.0, v));
    }
  return g;
}

bool makeInputs(const App &app, const Sizes &s, const InputSpec &in,
                Buffers &out, std::string &error) {
  if (in.set == InputSet::Image &&
      (!in.image || in.image->height <= 0 || in.image->width <= 0 ||
       in.image->pixels.size() != size_t(in.image->height * in.image->width))) {
    error = "the image input set needs a non-empty image";
    return false;
  }
  out.assign(app.objects.size(), {});
  for (size_t i = 0; i < app.objects.size(); ++i)
    out[i].assign(size_t(elementCount(app.objects[i].shape(s))), 0.0);
  app.initDefault(s, out);
  if (in.set == InputSet::Default)
    return true;
  for (size_t i = 0; i < app.objects.size(); ++i) {
    if (!app.objects[i].data)
      continue;
    if (in.set == InputSet::Random)
      fillRandom(in.seed, i, out[i]);
    else
      fillFromImage(*in.image, app.objects[i].shape(s), out[i]);
  }
  return true;
}

} // namespace approx::polybench
