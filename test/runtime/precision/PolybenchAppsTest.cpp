//===- PolybenchAppsTest.cpp - The PolyBench/GPU tables, no GPU ----------===//
//
// examples/precision/polybench/Apps.h without a GPU: every table is
// consistent at its three sizes and agrees with its kernels' signatures (in
// the .mlir files, and in the compiled manifests where the build has them);
// the sizes are PolyBench/GPU's and 16x the bytes; the Default inputs are
// PolyBench's init formulas (hand-computed elements, glibc's rand() for
// 2DCONV, FDTD-2D's flat-index init); Random is reproducible by seed and
// Image resamples as documented; the CPU references give hand-computed
// results on small cases; the error metric and its guard.
//
//===----------------------------------------------------------------------===//
#include "Apps.h"

#include "approx/runtime/core/Manifest.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>

using namespace approx::polybench;

namespace {

const App &app(const char *name) {
  const App *a = findApp(name);
  EXPECT_NE(a, nullptr) << name;
  return *a;
}

Buffers defaults(const App &a, const Sizes &s) {
  Buffers b;
  std::string err;
  EXPECT_TRUE(makeInputs(a, s, InputSpec{}, b, err)) << err;
  return b;
}

/// Element (i, j) of object `o` of `b` at sizes `s` (row-major).
double at2(const App &a, const Sizes &s, const Buffers &b, const char *o,
           int64_t i, int64_t j) {
  int idx = a.objectIndex(o);
  std::vector<int64_t> sh = a.objects[size_t(idx)].shape(s);
  return b[size_t(idx)][size_t(i * sh[1] + j)];
}

double at1(const App &a, const Buffers &b, const char *o, int64_t i) {
  return b[size_t(a.objectIndex(o))][size_t(i)];
}

/// The argument kinds of `gpu.func @kernel(...)` in `text`: 'm<rank>' for a
/// memref of f64, 'f' for f64, 'i' for index.
std::vector<std::string> mlirSignature(const std::string &text,
                                       const std::string &kernel) {
  size_t p = text.find("gpu.func @" + kernel + "(");
  if (p == std::string::npos)
    return {};
  size_t e = text.find(") kernel", p);
  std::string sig = text.substr(p, e - p);
  std::vector<std::string> out;
  size_t q = sig.find('(') + 1;
  while (q < sig.size()) {
    size_t c = sig.find(':', q);
    if (c == std::string::npos)
      break;
    size_t start = sig.find_first_not_of(' ', c + 1);
    std::string type = sig.substr(start);
    if (type.rfind("memref<", 0) == 0) {
      size_t close = type.find('>');
      std::string inner = type.substr(7, close - 7);
      EXPECT_NE(inner.find("xf64"), std::string::npos)
          << kernel << ": " << inner;
      int rank = 0;
      for (char ch : inner)
        rank += ch == '?';
      out.push_back("m" + std::to_string(rank));
      q = start + close + 1;
    } else if (type.rfind("f64", 0) == 0) {
      out.push_back("f");
      q = start + 3;
    } else if (type.rfind("index", 0) == 0) {
      out.push_back("i");
      q = start + 5;
    } else {
      ADD_FAILURE() << kernel << ": unexpected argument type " << type;
      break;
    }
  }
  return out;
}

std::vector<std::string> tableSignature(const App &a, const LaunchSpec &l) {
  std::vector<std::string> out;
  for (const ArgSpec &x : l.args) {
    if (x.kind == ArgSpec::Kind::Object) {
      int i = a.objectIndex(x.name);
      out.push_back(i < 0
                        ? "?"
                        : "m" + std::to_string(
                                    a.objects[size_t(i)].shape(a.tiny).size()));
    } else {
      out.push_back(x.kind == ArgSpec::Kind::Scalar ? "f" : "i");
    }
  }
  return out;
}

} // namespace

TEST(Table, FourteenAppsInTableFourOrder) {
  std::vector<std::string> names;
  for (const App &a : apps())
    names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"2DCONV", "2MM", "3DCONV", "3MM",
                                             "ATAX", "BICG", "CORR", "COVAR",
                                             "FDTD-2D", "GEMM", "GESUMMV",
                                             "MVT", "SYRK", "SYR2K"}));
  EXPECT_EQ(findApp("fdtd-2d"), findApp("fdtd2d"));
  EXPECT_EQ(findApp("2mm")->name, "2MM");
  EXPECT_EQ(findApp("nope"), nullptr);
  SizeClass c;
  EXPECT_TRUE(parseSizeClass("16x", c));
  EXPECT_EQ(c, SizeClass::X16);
  EXPECT_FALSE(parseSizeClass("huge", c));
}

TEST(Table, ConsistentAtEverySize) {
  for (const App &a : apps())
    for (SizeClass c : {SizeClass::Paper, SizeClass::X16, SizeClass::Tiny}) {
      SCOPED_TRACE(a.name + " " + sizeClassName(c));
      std::vector<std::string> bad = checkApp(a, a.sizes(c));
      EXPECT_TRUE(bad.empty()) << bad.front();
      EXPECT_EQ(a.sizes(c).size(), a.sizeNames.size());
      bool output = false;
      for (const ObjectSpec &o : a.objects)
        output |= o.fromDevice;
      EXPECT_TRUE(output);
    }
  // checkApp finds what it is there for.
  App broken = *findApp("gemm");
  broken.phases[0].launches[0].args[0] = ArgSpec::object("Z");
  broken.phases[0].launches[0].args.push_back(ArgSpec::loop("t"));
  Sizes s = broken.tiny;
  s["NK"] = 0;
  EXPECT_EQ(checkApp(broken, s).size(), 1u); // the size, first
  std::vector<std::string> bad = checkApp(broken, broken.tiny);
  ASSERT_EQ(bad.size(), 3u);
  EXPECT_NE(bad[0].find("names no object: Z"), std::string::npos);
  EXPECT_NE(bad[1].find("loop variable t"), std::string::npos);
  EXPECT_NE(bad[2].find("object A is used by no launch"), std::string::npos);
}

TEST(Table, PaperSizesArePolyBenchGpuAndX16IsSixteenTimes) {
  EXPECT_EQ(app("2DCONV").paper.at("NI"), 4096);
  EXPECT_EQ(app("2MM").paper.at("NL"), 2048);
  EXPECT_EQ(app("3DCONV").paper.at("NK"), 256);
  EXPECT_EQ(app("3MM").paper.at("NM"), 512);
  EXPECT_EQ(app("ATAX").paper.at("NY"), 4096);
  EXPECT_EQ(app("CORR").paper.at("M"), 2048);
  EXPECT_EQ(app("FDTD-2D").paper.at("TMAX"), 500);
  EXPECT_EQ(app("GEMM").paper.at("NI"), 512);
  EXPECT_EQ(app("GESUMMV").paper.at("N"), 4096);
  EXPECT_EQ(app("SYRK").paper.at("N"), 1024);
  EXPECT_EQ(app("SYR2K").paper.at("N"), 2048);
  for (const App &a : apps()) {
    SCOPED_TRACE(a.name);
    int64_t big = 0, big16 = 0;
    for (const ObjectSpec &o : a.objects) {
      big = std::max(big, elementCount(o.shape(a.paper)));
      big16 = std::max(big16, elementCount(o.shape(a.x16)));
    }
    double r = double(big16) / double(big);
    EXPECT_GT(r, 15.98); // CORR, COVAR: (4M+1)^2 / (M+1)^2
    EXPECT_LT(r, 16.01);
    EXPECT_EQ(a.x16.count("TMAX") ? a.x16.at("TMAX") : 0,
              a.paper.count("TMAX") ? a.paper.at("TMAX") : 0);
  }
}

TEST(Table, ArgumentsMatchTheKernelsInTheMlirFiles) {
  for (const App &a : apps()) {
    SCOPED_TRACE(a.name);
    std::ifstream f(std::string(APPROX_POLYBENCH_SRC) + "/" + a.id + ".mlir");
    ASSERT_TRUE(f.good()) << a.id << ".mlir";
    std::stringstream ss;
    ss << f.rdbuf();
    for (const PhaseSpec &p : a.phases)
      for (const LaunchSpec &l : p.launches) {
        SCOPED_TRACE(l.kernel);
        std::vector<std::string> sig = mlirSignature(ss.str(), l.kernel);
        ASSERT_FALSE(sig.empty()) << "no gpu.func @" << l.kernel;
        EXPECT_EQ(sig, tableSignature(a, l));
      }
  }
}

TEST(Table, ArgumentsMatchTheCompiledManifests) {
  std::string dir = APPROX_POLYBENCH_PTX_DIR;
  if (const char *e = std::getenv("APPROX_POLYBENCH_PTX"))
    dir = e;
  struct stat st;
  if (stat((dir + "/gemm.manifest.json").c_str(), &st) != 0)
    GTEST_SKIP() << "no compiled manifests in " << dir;
  for (const App &a : apps()) {
    SCOPED_TRACE(a.name);
    auto m = approx::rt::loadManifestFile(dir + "/" + a.id + ".manifest.json");
    ASSERT_TRUE(m.isOk()) << m.status().toString();
    for (const PhaseSpec &p : a.phases)
      for (const LaunchSpec &l : p.launches) {
        const approx::rt::KernelInfo *k = m->findKernel(l.kernel);
        ASSERT_NE(k, nullptr) << l.kernel;
        std::vector<std::string> sig;
        for (const approx::rt::ArgInfo &x : k->args) {
          if (x.kind == approx::rt::ArgInfo::Kind::Memref) {
            EXPECT_EQ(x.type.scalar, approx::rt::ScalarType::F64);
            sig.push_back("m" + std::to_string(x.rank));
          } else {
            sig.push_back(x.type.scalar == approx::rt::ScalarType::F64 ? "f"
                                                                       : "i");
          }
        }
        EXPECT_EQ(sig, tableSignature(a, l)) << l.kernel;
        // The roles agree with what the compiler saw of each access.
        for (size_t i = 0; i < l.args.size(); ++i) {
          if (l.args[i].kind != ArgSpec::Kind::Object)
            continue;
          const ObjectSpec &o =
              a.objects[size_t(a.objectIndex(l.args[i].name))];
          if (o.role == Role::In) {
            EXPECT_EQ(k->args[i].access, approx::rt::ArgInfo::Access::Read)
                << l.kernel << " " << o.name;
          }
        }
      }
  }
}

TEST(Default, TwoDConvIsGlibcRandFromSeedOne) {
  const App &a = app("2DCONV");
  Buffers b = defaults(a, a.tiny);
  // glibc's first rand() values, as (float)rand() / RAND_MAX.
  const int64_t r[] = {1804289383, 846930886, 1681692777, 1714636915};
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(b[0][size_t(k)], double(float(r[k]) / float(2147483647)));
  EXPECT_NEAR(b[0][0], 0.840188, 1e-6);
  for (double v : b[1])
    EXPECT_EQ(v, 0.0);
}

TEST(Default, InitFormulas) {
  {
    const App &a = app("2MM");
    const Sizes &s = a.tiny; // NI 19, NJ 23, NK 29, NL 17
    Buffers b = defaults(a, s);
    EXPECT_EQ(at2(a, s, b, "A", 3, 5), 15.0 / 19);
    EXPECT_EQ(at2(a, s, b, "B", 2, 4), 10.0 / 23);
    EXPECT_EQ(at2(a, s, b, "C", 4, 1), 16.0 / 17);
    EXPECT_EQ(at2(a, s, b, "D", 3, 2), 12.0 / 29);
    EXPECT_EQ(at2(a, s, b, "E", 5, 5), 0.0);
  }
  {
    const App &a = app("3MM");
    const Sizes &s = a.tiny; // NI 13, NJ 17, NK 19, NL 23, NM 29
    Buffers b = defaults(a, s);
    EXPECT_EQ(at2(a, s, b, "C", 2, 4), 14.0 / 23);
    EXPECT_EQ(at2(a, s, b, "D", 3, 1), 9.0 / 19);
  }
  {
    const App &a = app("3DCONV");
    Buffers b = defaults(a, a.tiny); // 7 x 11 x 37
    EXPECT_EQ(b[0][size_t((5 * 11 + 8) * 37 + 14)], 5 + 2 * 1 + 3 * 1);
  }
  {
    const App &a = app("ATAX");
    Buffers b = defaults(a, a.tiny); // NX 37, NY 300
    EXPECT_EQ(at1(a, b, "x", 2), 2 * 3.14159265358979323846);
    EXPECT_EQ(at2(a, a.tiny, b, "A", 3, 4), 12.0 / 37);
    EXPECT_EQ(at1(a, b, "y", 7), 0.0);
  }
  {
    const App &a = app("BICG");
    Buffers b = defaults(a, a.tiny); // NX 300, NY 37
    EXPECT_EQ(at1(a, b, "r", 299), 299 * 3.14159265358979323846);
    EXPECT_EQ(at1(a, b, "p", 36), 36 * 3.14159265358979323846);
  }
  {
    const App &a = app("CORR");
    const Sizes &s = a.tiny; // M 260, N 33
    Buffers b = defaults(a, s);
    EXPECT_EQ(at2(a, s, b, "data", 2, 3), 6.0 / 261);
    EXPECT_EQ(at2(a, s, b, "symmat", 260, 260), 1.0);
    EXPECT_EQ(at2(a, s, b, "symmat", 259, 259), 0.0);
  }
  {
    const App &a = app("COVAR");
    const Sizes &s = a.tiny; // M 270, N 29
    Buffers b = defaults(a, s);
    EXPECT_EQ(at2(a, s, b, "data", 2, 3), 6.0 / 270);
    EXPECT_EQ(at2(a, s, b, "data", 0, 3), 0.0);
  }
  {
    // ex (NX x NY+1) and ey (NX+1 x NY) written with row stride NY.
    const App &a = app("FDTD-2D");
    const Sizes &s = a.tiny; // NX 21, NY 45, TMAX 5
    Buffers b = defaults(a, s);
    EXPECT_EQ(at1(a, b, "_fict_", 4), 4.0);
    EXPECT_EQ(at2(a, s, b, "ex", 0, 45),
              (1.0 * 1 + 1) / 21); // flat 45: i 1, j 0
    EXPECT_EQ(at2(a, s, b, "ey", 1, 0),
              (0.0 * 2 + 2) / 21); // flat 45: i 1, j 0
    EXPECT_EQ(at2(a, s, b, "hz", 0, 0), (-9.0 * 4 + 3) / 21);
    const std::vector<double> &ex = b[1], &ey = b[2];
    for (size_t k = 21 * 45; k < ex.size(); ++k)
      EXPECT_EQ(ex[k], 0.0);
    for (size_t k = 21 * 45; k < ey.size(); ++k)
      EXPECT_EQ(ey[k], 0.0);
  }
  {
    const App &a = app("GEMM");
    const Sizes &s = a.tiny; // NI 21, NJ 45, NK 13
    Buffers b = defaults(a, s);
    EXPECT_EQ(at2(a, s, b, "B", 2, 3), 7.0 / 45);
    EXPECT_EQ(at2(a, s, b, "C", 1, 1), 3.0 / 45);
  }
  {
    const App &a = app("GESUMMV");
    Buffers b = defaults(a, a.tiny); // N 300
    EXPECT_EQ(at1(a, b, "x", 150), 0.5);
    EXPECT_EQ(b[0], b[1]); // B = A (PolyBench/ACC's B)
  }
  {
    const App &a = app("MVT");
    Buffers b = defaults(a, a.tiny); // N 300
    EXPECT_EQ(at1(a, b, "x2", 5), 6.0 / 300);
    EXPECT_EQ(at1(a, b, "y_2", 0), 4.0 / 300);
  }
  {
    const App &a = app("SYRK");
    const Sizes &s = a.tiny; // N 45, M 13
    Buffers b = defaults(a, s);
    EXPECT_EQ(at2(a, s, b, "C", 2, 3), 8.0 / 45);
    EXPECT_EQ(at2(a, s, b, "A", 44, 12), 528.0 / 45);
  }
  {
    const App &a = app("SYR2K");
    const Sizes &s = a.tiny; // N 37, M 11
    Buffers b = defaults(a, s);
    EXPECT_EQ(at2(a, s, b, "B", 1, 2), 3.0 / 37);
  }
}

TEST(InputSets, RandomIsReproducibleBySeed) {
  for (const App &a : apps()) {
    SCOPED_TRACE(a.name);
    Buffers d = defaults(a, a.tiny), r1, r2, r3;
    std::string err;
    InputSpec in{InputSet::Random, 7, nullptr};
    ASSERT_TRUE(makeInputs(a, a.tiny, in, r1, err));
    ASSERT_TRUE(makeInputs(a, a.tiny, in, r2, err));
    in.seed = 8;
    ASSERT_TRUE(makeInputs(a, a.tiny, in, r3, err));
    EXPECT_EQ(r1, r2);
    for (size_t i = 0; i < a.objects.size(); ++i) {
      if (!a.objects[i].data) {
        EXPECT_EQ(r1[i], d[i]) << a.objects[i].name; // the app's own state
        continue;
      }
      EXPECT_NE(r1[i], r3[i]) << a.objects[i].name;
      double sum = 0;
      for (double v : r1[i]) {
        EXPECT_GE(v, 0.0);
        EXPECT_LT(v, 1.0);
        sum += v;
      }
      if (r1[i].size() >= 1000) {
        EXPECT_NEAR(sum / double(r1[i].size()), 0.5, 0.05);
      }
    }
  }
  // Objects get different streams.
  const App &g = app("GEMM");
  Buffers r;
  std::string err;
  ASSERT_TRUE(
      makeInputs(g, g.tiny, InputSpec{InputSet::Random, 1, nullptr}, r, err));
  EXPECT_NE(r[0][0], r[1][0]);
}

TEST(InputSets, ImageResamplesAndNeedsAnImage) {
  GrayImage img{2, 3, {0, 10, 20, 30, 40, 50}};
  std::vector<double> d(4 * 6);
  fillFromImage(img, {4, 6}, d);
  EXPECT_EQ(
      d, (std::vector<double>{0,  0,  10, 10, 20, 20, 0,  0,  10, 10, 20, 20,
                              30, 30, 40, 40, 50, 50, 30, 30, 40, 40, 50, 50}));
  std::vector<double> v(3);
  fillFromImage(img, {3}, v); // raster order, every second pixel
  EXPECT_EQ(v, (std::vector<double>{0, 20, 40}));
  std::vector<double> c(2 * 2 * 3);
  fillFromImage(img, {2, 2, 3}, c); // plane 1 shifted by one row
  EXPECT_EQ(
      c, (std::vector<double>{0, 10, 20, 30, 40, 50, 30, 40, 50, 0, 10, 20}));

  const App &a = app("SYR2K");
  Buffers b, b2;
  std::string err;
  EXPECT_FALSE(
      makeInputs(a, a.tiny, InputSpec{InputSet::Image, 1, nullptr}, b, err));
  EXPECT_NE(err.find("image"), std::string::npos);
  GrayImage s1 = syntheticImage(64, 80), s2 = syntheticImage(50, 70);
  ASSERT_TRUE(
      makeInputs(a, a.tiny, InputSpec{InputSet::Image, 1, &s1}, b, err));
  ASSERT_TRUE(
      makeInputs(a, a.tiny, InputSpec{InputSet::Image, 1, &s2}, b2, err));
  EXPECT_NE(b[0], b2[0]); // held-out: another image
  for (double x : b[0]) {
    EXPECT_GE(x, 0.0);
    EXPECT_LE(x, 255.0);
  }
}

/// Runs `name`'s reference on hand-made inputs at sizes `s`.
Buffers runRef(const char *name, const Sizes &s, Buffers in) {
  app(name).reference(s, in);
  return in;
}

TEST(Reference, Gemm2x2) {
  Sizes s{{"NI", 2}, {"NJ", 2}, {"NK", 2}};
  Buffers r = runRef("GEMM", s, {{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 1, 1, 2}});
  // alpha A B + beta C, A B = [19 22; 43 50], alpha 32412, beta 2123.
  EXPECT_EQ(r[2], (std::vector<double>{32412.0 * 19 + 2123, 32412.0 * 22 + 2123,
                                       32412.0 * 43 + 2123,
                                       32412.0 * 50 + 2 * 2123}));
}

TEST(Reference, TwoAndThreeMatrixProductsAccumulate) {
  Sizes s{{"NI", 2}, {"NJ", 2}, {"NK", 2}, {"NL", 2}};
  // C starts at its initial values: C = C0 + A B, E = 0 + C D.
  Buffers r = runRef(
      "2MM", s,
      {{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 0, 0, 1}, {1, 1, 0, 1}, {0, 0, 0, 0}});
  EXPECT_EQ(r[2], (std::vector<double>{20, 22, 43, 51}));
  EXPECT_EQ(r[4], (std::vector<double>{20, 42, 43, 94}));
  Sizes s3{{"NI", 1}, {"NJ", 1}, {"NK", 1}, {"NL", 1}, {"NM", 1}};
  Buffers r3 = runRef("3MM", s3, {{2}, {3}, {5}, {7}, {0}, {0}, {0}});
  EXPECT_EQ(r3[4][0], 6);
  EXPECT_EQ(r3[5][0], 35);
  EXPECT_EQ(r3[6][0], 210);
}

TEST(Reference, VectorKernels) {
  // ATAX: tmp = A x, y = A^T tmp; A = [1 2 3; 4 5 6], x = [1 1 1].
  Buffers a = runRef("ATAX", {{"NX", 2}, {"NY", 3}},
                     {{1, 2, 3, 4, 5, 6}, {1, 1, 1}, {0, 0, 0}, {0, 0}});
  EXPECT_EQ(a[3], (std::vector<double>{6, 15}));
  EXPECT_EQ(a[2], (std::vector<double>{66, 87, 108}));
  // BICG: s = A^T r, q = A p (s, q overwritten).
  Buffers b =
      runRef("BICG", {{"NX", 2}, {"NY", 3}},
             {{1, 2, 3, 4, 5, 6}, {1, 2}, {9, 9, 9}, {1, 0, 1}, {9, 9}});
  EXPECT_EQ(b[2], (std::vector<double>{9, 12, 15}));
  EXPECT_EQ(b[4], (std::vector<double>{4, 10}));
  // MVT: x1 += A y1, x2 += A^T y2.
  Buffers m =
      runRef("MVT", {{"N", 2}}, {{1, 2, 3, 4}, {1, 1}, {0, 0}, {1, 1}, {1, 2}});
  EXPECT_EQ(m[1], (std::vector<double>{4, 8}));
  EXPECT_EQ(m[2], (std::vector<double>{7, 10}));
  // GESUMMV: y = alpha A x + beta B x.
  Buffers g = runRef("GESUMMV", {{"N", 2}},
                     {{1, 0, 0, 1}, {0, 1, 1, 0}, {1, 2}, {0, 0}, {0, 0}});
  EXPECT_EQ(g[4], (std::vector<double>{1, 2}));
  EXPECT_EQ(g[3], (std::vector<double>{43532.0 * 1 + 12313.0 * 2,
                                       43532.0 * 2 + 12313.0 * 1}));
}

TEST(Reference, SymmetricRankUpdates) {
  Sizes s{{"N", 2}, {"M", 2}};
  // SYRK: alpha A A^T + beta C; A = [1 2; 3 4], A A^T = [5 11; 11 25].
  Buffers k = runRef("SYRK", s, {{1, 2, 3, 4}, {1, 0, 0, 1}});
  EXPECT_EQ(k[1], (std::vector<double>{12435.0 * 5 + 4546, 12435.0 * 11,
                                       12435.0 * 11, 12435.0 * 25 + 4546}));
  // SYR2K with B = A: twice SYRK's update.
  Buffers k2 = runRef("SYR2K", s, {{1, 2, 3, 4}, {1, 2, 3, 4}, {0, 0, 0, 0}});
  EXPECT_EQ(k2[2], (std::vector<double>{2 * 12435.0 * 5, 2 * 12435.0 * 11,
                                        2 * 12435.0 * 11, 2 * 12435.0 * 25}));
}

TEST(Reference, Stencils) {
  // 2DCONV 3x3: only the centre; the weights sum to 0.5.
  Buffers c =
      runRef("2DCONV", {{"NI", 3}, {"NJ", 3}},
             {std::vector<double>(9, 2.0), std::vector<double>(9, 0.0)});
  for (int k = 0; k < 9; ++k)
    EXPECT_NEAR(c[1][size_t(k)], k == 4 ? 1.0 : 0.0, 1e-15) << k;
  // 3DCONV 3x3x3 of ones: PolyBench/GPU's 15 weights sum to 34.
  Buffers d =
      runRef("3DCONV", {{"NI", 3}, {"NJ", 3}, {"NK", 3}},
             {std::vector<double>(27, 1.0), std::vector<double>(27, 0.0)});
  for (int k = 0; k < 27; ++k)
    EXPECT_EQ(d[1][size_t(k)], k == 13 ? 34.0 : 0.0) << k;
  // FDTD-2D, 2x2, one step, by hand.
  Buffers f =
      runRef("FDTD-2D", {{"NX", 2}, {"NY", 2}, {"TMAX", 1}},
             {{7}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 5}});
  // ey: row 0 = 7; ey[1][j] -= 0.5 (hz[1][j] - hz[0][j]) = 3 - 1, 4 - 1.5.
  EXPECT_EQ(f[2], (std::vector<double>{7, 7, 2, 2.5, 5, 6}));
  // ex[i][1] -= 0.5 (hz[i][1] - hz[i][0]): 2 - 0.5, 5 - 1.
  EXPECT_EQ(f[1], (std::vector<double>{1, 1.5, 3, 4, 4, 6}));
  // hz[i][j] -= 0.7 (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j]).
  EXPECT_DOUBLE_EQ(f[3][0], 1 - 0.7 * (1.5 - 1 + 2 - 7));
  EXPECT_DOUBLE_EQ(f[3][1], 2 - 0.7 * (3 - 1.5 + 2.5 - 7));
  EXPECT_DOUBLE_EQ(f[3][2], 3 - 0.7 * (4 - 4 + 5 - 2));
  EXPECT_DOUBLE_EQ(f[3][3], 5 - 0.7 * (6 - 4 + 6 - 2.5));
}

TEST(Reference, CovarianceAndCorrelation) {
  const double fn = 3214212.01; // PolyBench's FLOAT_N, not N
  // data rows 1..2, columns 1..2 (row and column 0 unused).
  const double a1 = 100, a2 = 300, b1 = 200, b2 = 500;
  std::vector<double> data{0, 0, 0, 0, a1, b1, 0, a2, b2};
  Buffers cv = runRef("COVAR", {{"M", 2}, {"N", 2}},
                      {data, std::vector<double>(9, 0.0), {0, 0, 0}});
  double m1 = (a1 + a2) / fn, m2 = (b1 + b2) / fn;
  EXPECT_EQ(cv[2][1], m1);
  EXPECT_DOUBLE_EQ(cv[1][1 * 3 + 2],
                   (a1 - m1) * (b1 - m2) + (a2 - m1) * (b2 - m2));
  EXPECT_EQ(cv[1][2 * 3 + 1], cv[1][1 * 3 + 2]);
  EXPECT_DOUBLE_EQ(cv[1][2 * 3 + 2],
                   (b1 - m2) * (b1 - m2) + (b2 - m2) * (b2 - m2));
  EXPECT_EQ(cv[1][0], 0.0);

  std::vector<double> sym(9, 0.0);
  sym[8] = 1.0; // symmat[M][M], as initDefault leaves it
  Buffers cr =
      runRef("CORR", {{"M", 2}, {"N", 2}}, {data, {0, 0, 0}, {0, 0, 0}, sym});
  double s1 = std::sqrt(((a1 - m1) * (a1 - m1) + (a2 - m1) * (a2 - m1)) / fn);
  double s2 = std::sqrt(((b1 - m2) * (b1 - m2) + (b2 - m2) * (b2 - m2)) / fn);
  ASSERT_GT(s1, 0.005);
  EXPECT_DOUBLE_EQ(cr[2][1], s1);
  EXPECT_DOUBLE_EQ(cr[2][2], s2);
  double r = ((a1 - m1) * (b1 - m2) + (a2 - m1) * (b2 - m2)) / (fn * s1 * s2);
  EXPECT_NEAR(cr[3][1 * 3 + 2], r, 1e-12);
  EXPECT_EQ(cr[3][2 * 3 + 1], cr[3][1 * 3 + 2]);
  EXPECT_EQ(cr[3][1 * 3 + 1], 1.0);
  EXPECT_EQ(cr[3][2 * 3 + 2], 1.0);
  // A column whose deviation is at most eps (0.005) gets 1.
  std::vector<double> flat{0, 0, 0, 0, 1, b1, 0, 1, b2};
  Buffers cf =
      runRef("CORR", {{"M", 2}, {"N", 2}}, {flat, {0, 0, 0}, {0, 0, 0}, sym});
  EXPECT_EQ(cf[2][1], 1.0);
  EXPECT_DOUBLE_EQ(cf[2][2], s2);
}

TEST(Errors, MeanRelativeErrorAndGuard) {
  std::vector<double> ref{1, 2}, got{1.1, 2};
  ErrorStats e = relativeErrors(got.data(), ref.data(), 2);
  EXPECT_NEAR(e.mean(), 0.05, 1e-15);
  EXPECT_NEAR(e.maxRel, 0.1, 1e-15);
  EXPECT_EQ(e.guarded, 0);
  // A zero reference is divided by 1e-6 of the output's scale.
  std::vector<double> r2{0, 1e6}, g2{1, 1e6};
  ErrorStats e2 = relativeErrors(g2.data(), r2.data(), 2);
  EXPECT_EQ(e2.floor, 1.0);
  EXPECT_EQ(e2.guarded, 1);
  EXPECT_DOUBLE_EQ(e2.mean(), 0.5);
  // All-zero reference: absolute errors.
  std::vector<double> z{0, 0}, g3{0.25, 0};
  EXPECT_DOUBLE_EQ(relativeErrors(g3.data(), z.data(), 2).mean(), 0.125);
  // NaN or inf where the reference is finite: infinite error.
  std::vector<double> g4{NAN, 2};
  ErrorStats e4 = relativeErrors(g4.data(), ref.data(), 2);
  EXPECT_EQ(e4.nonFinite, 1);
  EXPECT_TRUE(std::isinf(e4.mean()));
  EXPECT_EQ(relativeErrors(ref.data(), ref.data(), 2).mean(), 0.0);
}
