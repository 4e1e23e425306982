//===- LnsTables.cpp - sb/db/cb tables for the LNS implementations --------===//
//
// The builders fit per segment with the double references of
// LnsFunctions.h, then measure each table through `evaluate`, the host
// model of the lowering, on the inputs whose texture fraction is exact
// (the same points the texture2 and texture3 fits use, so their reference
// values are computed once) and on lnsErrorSample.
//
// The f32 operations in `evaluate` must stay separate roundings, as the
// lowering emits them: the library is compiled with -ffp-contract=off (see
// CMakeLists.txt) so that no compiler contracts them into FMAs.
//
//===----------------------------------------------------------------------===//

#include "LnsTables.h"

#include "FilterModel.h"
#include "Minimax.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace approx::lns {

namespace {

constexpr double kLn2 = 0.693147180559945309417232121458176568;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// arith.maximumf: NaN if either is NaN, and -0 < +0.
float maximumF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return kNaN;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

/// The three results of one evaluation.
struct Values {
  float sb, db, cb;
};

/// Whether t has the shape `impl` gives k segments per unit (cheap: the
/// eval functions check it on every call).
bool shapeMatches(const LnsTable &t, unsigned k, LnsImpl impl) {
  if (k == 0 || (k & (k - 1)) != 0 || k > kMaxSegmentsPerUnit)
    return false;
  const size_t n = size_t(kLnsRange) * k;
  switch (impl) {
  case LnsImpl::Texture2:
    return t.width == int(2 * n) && t.height == 2 && t.depth == 1 &&
           t.channels == 4 && t.data.size() == 2 * n * 2 * 4;
  case LnsImpl::Texture3:
    return t.width == int(2 * n) && t.height == 2 && t.depth == 2 &&
           t.channels == 4 && t.data.size() == 2 * n * 2 * 2 * 4;
  case LnsImpl::Texture1:
    return t.width == int(n + 1) && t.height == 1 && t.depth == 1 &&
           t.channels == 4 && t.data.size() == (n + 1) * 4;
  case LnsImpl::Horner:
    return t.height == int(n) && t.width == 3 && t.depth == 1 &&
           t.channels >= 2 && t.channels <= 6 &&
           t.data.size() == n * 3 * size_t(t.channels);
  }
  return false;
}

/// The lowering's f32 operations for every function at once (the contract,
/// "f32 operations the lowering performs"), for a table that matches k.
/// Texture channels outside channelMask are not computed (the builders
/// skip the channel that is 0 on the segment they measure).
Values evaluate(const LnsTable &t, unsigned k, LnsImpl impl, float x,
                unsigned channelMask = 0x7) {
  const unsigned n = unsigned(kLnsRange) * k;
  const float kf = float(k);
  const float nearStart = float(n - k);
  // f(x) = max(x, 0) + f(-|x|); NaN stays NaN through max.
  const float xa = -std::fabs(x);
  const float positive = maximumF(x, 0.0f);
  const float tt = xa + 32.0f;
  const float u = tt * kf; // exact
  float v[4] = {0, 0, 0, 0};
  bool near;
  if (impl == LnsImpl::Texture1) {
    const float cx = u + 0.5f;
    Texture2D tex{t.width, t.height, t.channels, t.data.data()};
    filter2D(tex, cx, 0.5f, v, channelMask);
    near = u >= nearStart;
  } else {
    const float fl = std::floor(u);
    const float lo = std::fmax(fl, 0.0f); // maxnum: NaN -> 0
    const float xe = std::fmin(lo, float(n - 1));
    const float g = u - xe; // exact
    near = xe >= nearStart;
    if (impl == LnsImpl::Texture2 || impl == LnsImpl::Texture3) {
      const float xf = g + 0.5f;
      const float twoXe = 2.0f * xe;
      const float cx = twoXe + xf; // 2 xe is exact: fused or not, the same
      if (impl == LnsImpl::Texture2) {
        Texture2D tex{t.width, t.height, t.channels, t.data.data()};
        filter2D(tex, cx, xf, v, channelMask);
      } else {
        Texture3D tex{t.width, t.height, t.depth, t.channels, t.data.data()};
        filter3D(tex, cx, xf, xf, v, channelMask);
      }
    } else {
      const int d1 = t.channels;
      const size_t w = size_t(xe);
      for (int f = 0; f < 3; ++f) {
        const float *c = &t.data[(w * 3 + size_t(f)) * size_t(d1)];
        float p = c[d1 - 1];
        for (int i = d1 - 2; i >= 0; --i)
          p = std::fma(p, g, c[i]);
        v[f] = p;
      }
    }
  }
  const bool below = xa < -32.0f;
  // The GPU takes this log2 on the SFU (lg2.approx.f32, which keeps
  // subnormal inputs), the host model with libm's log2f (within about an
  // ulp): db on segments in [-1, 0] may differ there by lg2.approx's error.
  // Everything else matches the GPU bit for bit.
  const float dbTable = near ? v[2] + std::log2(-xa) : v[1];
  Values r;
  r.sb = positive + (below ? 0.0f : v[0]);
  r.db = positive + (below ? 0.0f : dbTable);
  r.cb = (near && !below && !(x > 0)) ? v[2] : kNaN;
  return r;
}

float pick(const Values &v, LnsFunction f) {
  switch (f) {
  case LnsFunction::Sb:
    return v.sb;
  case LnsFunction::Db:
    return v.db;
  case LnsFunction::Cb:
    return v.cb;
  }
  return kNaN;
}

float evalChecked(const LnsTable &t, unsigned k, LnsImpl impl, LnsFunction f,
                  float x) {
  if (!shapeMatches(t, k, impl))
    return kNaN;
  return pick(evaluate(t, k, impl, x), f);
}

/// Running maxima of |model - reference| (a NaN reference: not applicable).
struct ErrorMax {
  double exact[3] = {0, 0, 0}, any[3] = {0, 0, 0};

  static double distance(float model, double ref) {
    if (double(model) == ref)
      return 0; // also equal infinities
    double e = std::fabs(double(model) - ref);
    return std::isnan(e) ? kInf : e;
  }
  void add(bool exactInput, LnsFunction f, float model, double ref) {
    if (std::isnan(ref))
      return;
    const int i = int(f);
    // db diverges at 0, where the f32 result's own rounding dominates: its
    // error is absolute where |db| <= 1 and relative beyond (as bench/lns
    // measures it on the GPU).
    const double e = f == LnsFunction::Db
                         ? distance(model, ref) / std::max(1.0, std::fabs(ref))
                         : distance(model, ref);
    if (exactInput)
      exact[i] = std::max(exact[i], e);
    any[i] = std::max(any[i], e);
  }
  /// All three functions at x, given the reference values (NaN: skip).
  void addAll(bool exactInput, const Values &v, double sb, double db,
              double cb) {
    add(exactInput, LnsFunction::Sb, v.sb, sb);
    add(exactInput, LnsFunction::Db, v.db, db);
    add(exactInput, LnsFunction::Cb, v.cb, cb);
  }
  /// The sample of arbitrary inputs, with references computed here.
  void addSample(const LnsTable &t, unsigned k, LnsImpl impl) {
    for (float x : lnsErrorSample(k)) {
      Values v = evaluate(t, k, impl, x);
      double xd = x;
      double cb = (xd >= -1 && xd <= 0) ? cbFast(xd) : std::nan("");
      addAll(false, v, sbFast(xd), dbFast(xd), cb);
    }
  }
  void store(LnsTable &t) const {
    for (int i = 0; i < 3; ++i) {
      t.maxErrorExact[i] = exact[i];
      t.maxErrorAny[i] = any[i];
    }
  }
};

bool refuse(const std::string &message, std::string *error) {
  if (error)
    *error = message;
  return false;
}

/// x at g = j / 256 of segment w: exact in double and in float.
double gridX(unsigned k, unsigned w, unsigned j) {
  return -double(kLnsRange) + (double(w) + double(j) / 256.0) / double(k);
}

/// The references at a grid point, computed from one 2^x.
void gridReferences(double x, bool near, double &sb, double &second) {
  const double e = std::exp2(x);
  sb = std::log1p(e) / kLn2;
  second = near ? cbFast(x) : std::log1p(-e) / kLn2;
}

/// db from cb on the near side (x in [-1, 0]).
double dbFromCb(double x, double cb) {
  return x == 0 ? -kInf : cb + std::log2(-x);
}

} // namespace

const char *lnsImplName(LnsImpl impl) {
  switch (impl) {
  case LnsImpl::Texture1:
    return "texture1";
  case LnsImpl::Texture2:
    return "texture2";
  case LnsImpl::Horner:
    return "horner";
  case LnsImpl::Texture3:
    return "texture3";
  }
  return "?";
}

std::string checkSegments(unsigned k, LnsImpl impl) {
  const std::string name = std::to_string(k);
  if (k == 0 || (k & (k - 1)) != 0)
    return "segments per unit " + name + " is not a power of two";
  if (impl != LnsImpl::Horner) {
    const uint64_t n = uint64_t(kLnsRange) * k;
    const uint64_t width = impl == LnsImpl::Texture1 ? n + 1 : 2 * n;
    const bool threeD = impl == LnsImpl::Texture3;
    const unsigned limit = threeD ? kMaxTexture3DWidth : kMaxTextureWidth;
    if (width > limit)
      return "segments per unit " + name + " needs a " +
             (threeD ? "3-D " : "") + "texture " + std::to_string(width) +
             " texels wide; the limit is " + std::to_string(limit);
  }
  if (k > kMaxSegmentsPerUnit)
    return "segments per unit " + name + " is above the maximum " +
           std::to_string(kMaxSegmentsPerUnit);
  return "";
}

std::string checkDegree(unsigned degree) {
  if (degree < 1 || degree > 5)
    return "horner degree " + std::to_string(degree) + " is outside 1..5";
  return "";
}

std::vector<float> lnsErrorSample(unsigned k) {
  std::vector<float> xs;
  const unsigned n = unsigned(kLnsRange) * k;
  const unsigned perSegment = std::max(12u, (65536u + n - 1) / n);
  xs.reserve(size_t(n) * perSegment + 4096 + 16);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(state >> 33);
  };
  for (unsigned w = 0; w < n; ++w) {
    for (unsigned s = 0; s < perSegment; ++s) {
      const unsigned j = next() % 256;
      double g;
      switch (s % 3) {
      case 0: // a rounding tie of the 8-bit fraction (rounds up)
      case 1: // just below one (rounds down)
        g = (j + 0.5) / 256.0;
        break;
      default: // uniform
        g = double(next()) / 2147483648.0;
        break;
      }
      float x = float(-double(kLnsRange) + (double(w) + g) / double(k));
      if (s % 3 == 1)
        x = std::nextafter(x, -INFINITY);
      if (x >= -float(kLnsRange) && x <= 0)
        xs.push_back(x);
    }
  }
  // db's neighbourhood of 0, log-uniform over the normal floats.
  for (unsigned i = 0; i < 4096; ++i)
    xs.push_back(-std::exp2(-126.0f * float(next()) / 2147483648.0f));
  // Below the table, where the functions are replaced by 0.
  for (float x :
       {-32.0f - 0x1p-18f, -32.0f - 0x1p-17f, -32.5f, -33.0f, -40.0f, -1000.0f})
    xs.push_back(x);
  return xs;
}

void texture3Basis(unsigned j, long double phi[4]) {
  // The weights of the texels that hold a1 (z = 1), a2 (x = z = 1) and a3
  // (x = y = z = 1), summed; at j = 256 (g = 1) the fetch reads the cell's
  // far corner alone.
  if (j >= 256) {
    phi[0] = phi[1] = phi[2] = phi[3] = 1;
    return;
  }
  int w[8];
  trilinearWeights(int(j), int(j), int(j), w);
  phi[0] = 1;
  phi[1] = (w[4] + w[5] + w[6] + w[7]) / 256.0L;
  phi[2] = (w[5] + w[7]) / 256.0L;
  phi[3] = w[7] / 256.0L;
}

namespace {

/// texture2 and texture3: per segment and channel a polynomial the filter
/// evaluates from one fetch with the same 8-bit fraction j (g = j/256) in
/// every coordinate.
///
/// texture2 (degree 2, bilinear): the filter weighs T00, T10 = T01, T11 by
/// (256 - 2j + r2, j - r2, j - r2, r2)/256 with r2 = floor(j^2/256 + 1/2),
/// so the texels of the paper's eq. 4 (a0, a0 + a1/2, a0 + a1 + a2) give
/// a0 + a1 g + a2 rho2(g), rho2 = r2/256, exactly: fit that basis.
///
/// texture3 (degree 3, trilinear): a fetch at (2w + g + 0.5, g + 0.5,
/// g + 0.5) weighs the eight texels of the cell by the rule measured on an
/// H100 (FilterModel.h): 256 is split by j into the z slices, each slice's
/// share by j into x, each column's by j into y, every split a rounded
/// product. So the texels with z = 1 weigh j exactly, those with x = z = 1
/// round(j^2/256) (texture2's rho2), and the one with x = y = z = 1
/// round(round(j^2/256) j/256) (rho3, within 1/256 of 256 g^3). Storing
/// the partial sums T(x, y, z) = a0 + a1 z + a2 xz + a3 xyz makes the
/// fetch a0 + a1 g + a2 rho2(g) + a3 rho3(g) (texture3Basis). (The
/// Bernstein form, beta_m in the texels with m ones, would need the
/// weights summed by m to be g^m (1 - g)^(3-m) to 1/512; on the hardware
/// they are not, and its linear term alone then errs by |a1|/768: measured
/// 100 times texture2's error at 64 segments per unit.) Fit a on that
/// basis.
///
/// Each fit starts from the previous segment's final reference for that
/// channel (the error curves of neighbouring segments look alike, so this
/// takes about one exchange instead of seven), the first from the
/// polynomial's Chebyshev extrema.
bool buildFilteredPolynomial(unsigned k, LnsImpl impl, LnsTable &out,
                             std::string *error) {
  if (std::string message = checkSegments(k, impl); !message.empty())
    return refuse(message, error);
  const unsigned degree = impl == LnsImpl::Texture3 ? 3 : 2;
  const size_t nb = degree + 1; // basis functions
  const unsigned n = unsigned(kLnsRange) * k, nearStart = n - k;
  const size_t width = 2 * size_t(n);
  out = LnsTable();
  out.width = int(width);
  out.height = 2;
  out.depth = degree == 3 ? 2 : 1;
  out.channels = 4;
  out.data.assign(width * 2 * size_t(out.depth) * 4, 0.0f);

  std::vector<long double> basis(257 * nb);
  for (unsigned j = 0; j <= 256; ++j) {
    if (degree == 3) {
      texture3Basis(j, &basis[j * nb]);
      continue;
    }
    basis[j * nb + 0] = 1;
    basis[j * nb + 1] = j / 256.0L;
    basis[j * nb + 2] = ((j * j + 128) >> 8) / 256.0L;
  }
  DiscreteMinimaxOptions options[3];
  for (DiscreteMinimaxOptions &o : options) {
    o.relTolerance = 1e-6; // far below the f32 roundings that follow
    o.initialReference = degree == 3 ? std::vector<size_t>{0, 37, 128, 219, 256}
                                     : std::vector<size_t>{0, 64, 192, 256};
  }
  // Texel (i, y, z), channel c (z = 0 for texture2).
  auto texel = [&](size_t i, size_t y, size_t z, int c) -> float & {
    return out.data[((z * 2 + y) * width + i) * 4 + size_t(c)];
  };
  std::vector<long double> fsb(257), f2(257);
  std::vector<double> xs(257);
  ErrorMax errors;
  MinimaxResult fit;
  for (unsigned w = 0; w < n; ++w) {
    const bool near = w >= nearStart;
    for (unsigned j = 0; j <= 256; ++j) {
      xs[j] = gridX(k, w, j);
      double sb, second;
      gridReferences(xs[j], near, sb, second);
      fsb[j] = sb;
      f2[j] = second;
    }
    for (int pass = 0; pass < 2; ++pass) {
      const int channel = pass == 0 ? 0 : near ? 2 : 1;
      const long double *values = pass == 0 ? fsb.data() : f2.data();
      options[channel].absTolerance =
          0x1p-32L * std::max(std::fabs(values[0]), std::fabs(values[256]));
      discreteMinimax(basis.data(), values, 257, nb, fit, nullptr,
                      options[channel]);
      options[channel].initialReference = fit.reference;
      const long double *a = fit.coefficients.data();
      if (degree == 2) {
        texel(2 * size_t(w), 0, 0, channel) = float(a[0]);
        texel(2 * size_t(w) + 1, 0, 0, channel) = float(a[0] + a[1] / 2);
        texel(2 * size_t(w), 1, 0, channel) = float(a[0] + a[1] / 2);
        texel(2 * size_t(w) + 1, 1, 0, channel) = float(a[0] + a[1] + a[2]);
      } else {
        for (unsigned cell = 0; cell < 8; ++cell) {
          const unsigned x = cell & 1, y = (cell >> 1) & 1, z = cell >> 2;
          texel(2 * size_t(w) + x, y, z, channel) =
              float(a[0] + z * (a[1] + x * (a[2] + y * a[3])));
        }
      }
    }
    // The exact inputs of this segment read only its own texels (g = 1 is
    // the next segment's g = 0, except at x = 0), and only sb and one of
    // db / cb.
    const unsigned mask = near ? 0x5 : 0x3;
    const unsigned last = w == n - 1 ? 256 : 255;
    for (unsigned j = 0; j <= last; ++j) {
      Values v = evaluate(out, k, impl, float(xs[j]), mask);
      const double sb = double(fsb[j]), second = double(f2[j]);
      if (near)
        errors.addAll(true, v, sb, dbFromCb(xs[j], second), second);
      else
        errors.addAll(true, v, sb, second, std::nan(""));
    }
  }
  errors.addSample(out, k, impl);
  errors.store(out);
  return true;
}

} // namespace

bool buildTexture2(unsigned k, LnsTable &out, std::string *error) {
  return buildFilteredPolynomial(k, LnsImpl::Texture2, out, error);
}

bool buildTexture3(unsigned k, LnsTable &out, std::string *error) {
  return buildFilteredPolynomial(k, LnsImpl::Texture3, out, error);
}

bool buildTexture1(unsigned k, LnsTable &out, std::string *error) {
  if (std::string message = checkSegments(k, LnsImpl::Texture1);
      !message.empty())
    return refuse(message, error);
  const unsigned n = unsigned(kLnsRange) * k, nearStart = n - k;
  out = LnsTable();
  out.width = int(n + 1);
  out.height = 1;
  out.channels = 4;
  out.data.assign(size_t(n + 1) * 4, 0.0f);

  // Node values: f(x_j) lowered by half the local sagitta, where the
  // sagitta of a segment is chord minus curve at its midpoint (f''h^2/8 to
  // first order) and a node's is the mean over the one or two segments
  // that interpolate through it with this channel. The interpolant then
  // lies about sagitta/2 above f mid-segment and sagitta/2 below at the
  // nodes: half the plain interpolation error, equioscillating to first
  // order.
  auto nodeX = [&](unsigned j) { return -double(kLnsRange) + double(j) / k; };
  auto channelValues = [&](int channel, unsigned first, unsigned last,
                           double (*f)(double)) {
    // Nodes first..last, segments first..last-1.
    std::vector<double> node(last - first + 1), sag(last - first);
    for (unsigned j = first; j <= last; ++j)
      node[j - first] = f(nodeX(j));
    for (unsigned w = first; w < last; ++w) {
      const double mid = -double(kLnsRange) + (double(w) + 0.5) / k;
      sag[w - first] = (node[w - first] + node[w - first + 1]) / 2 - f(mid);
    }
    for (unsigned j = first; j <= last; ++j) {
      double sum = 0;
      int count = 0;
      if (j > first) {
        sum += sag[j - first - 1];
        ++count;
      }
      if (j < last) {
        sum += sag[j - first];
        ++count;
      }
      out.data[size_t(j) * 4 + size_t(channel)] =
          float(node[j - first] - sum / count / 2);
    }
  };
  channelValues(0, 0, n, sbFast);
  channelValues(1, 0, nearStart, dbFast);
  channelValues(2, nearStart, n, cbFast);

  ErrorMax errors;
  for (unsigned w = 0; w < n; ++w) {
    const bool near = w >= nearStart;
    const unsigned last = w == n - 1 ? 256 : 255;
    for (unsigned j = 0; j <= last; ++j) {
      const double x = gridX(k, w, j);
      double sb, second;
      gridReferences(x, near, sb, second);
      Values v =
          evaluate(out, k, LnsImpl::Texture1, float(x), near ? 0x5 : 0x3);
      if (near)
        errors.addAll(true, v, sb, dbFromCb(x, second), second);
      else
        errors.addAll(true, v, sb, second, std::nan(""));
    }
  }
  errors.addSample(out, k, LnsImpl::Texture1);
  errors.store(out);
  return true;
}

bool buildHorner(unsigned k, unsigned degree, LnsTable &out,
                 std::string *error) {
  if (std::string message = checkSegments(k, LnsImpl::Horner); !message.empty())
    return refuse(message, error);
  if (std::string message = checkDegree(degree); !message.empty())
    return refuse(message, error);
  const unsigned n = unsigned(kLnsRange) * k, nearStart = n - k;
  const size_t d1 = degree + 1;
  out = LnsTable();
  out.width = 3;
  out.height = int(n);
  out.channels = int(d1);
  out.data.assign(size_t(n) * 3 * d1, 0.0f);

  PolyMinimaxOptions options;
  options.relTolerance = 1e-4; // far below the f32 roundings that follow
  ErrorMax errors;
  MinimaxResult fit;
  for (unsigned w = 0; w < n; ++w) {
    const bool near = w >= nearStart;
    const long double x0 = -(long double)kLnsRange + (long double)w / k;
    const long double h = 1.0L / k;
    for (int pass = 0; pass < 2; ++pass) {
      const LnsFunction fn = pass == 0 ? LnsFunction::Sb
                             : near    ? LnsFunction::Cb
                                       : LnsFunction::Db;
      auto f = [&](long double g) {
        return (long double)lnsFast(fn, double(x0 + g * h));
      };
      // Errors below 2^-32 of the segment's values are far below the f32
      // roundings; chasing them only fits rounding noise.
      options.absTolerance =
          0x1p-32L * std::max(std::fabs(f(0)), std::fabs(f(1)));
      polyMinimax(f, 0, 1, degree, fit, nullptr, options);
      for (size_t i = 0; i < d1; ++i)
        out.data[(size_t(w) * 3 + size_t(fn)) * d1 + i] =
            float(fit.coefficients[i]);
    }
    const unsigned last = w == n - 1 ? 256 : 255;
    for (unsigned j = 0; j <= last; ++j) {
      const double x = gridX(k, w, j);
      double sb, second;
      gridReferences(x, near, sb, second);
      Values v = evaluate(out, k, LnsImpl::Horner, float(x));
      if (near)
        errors.addAll(true, v, sb, dbFromCb(x, second), second);
      else
        errors.addAll(true, v, sb, second, std::nan(""));
    }
  }
  errors.addSample(out, k, LnsImpl::Horner);
  errors.store(out);
  return true;
}

float evalTexture2(const LnsTable &table, unsigned k, LnsFunction f, float x) {
  return evalChecked(table, k, LnsImpl::Texture2, f, x);
}

float evalTexture3(const LnsTable &table, unsigned k, LnsFunction f, float x) {
  return evalChecked(table, k, LnsImpl::Texture3, f, x);
}

float evalTexture1(const LnsTable &table, unsigned k, LnsFunction f, float x) {
  return evalChecked(table, k, LnsImpl::Texture1, f, x);
}

float evalHorner(const LnsTable &table, unsigned k, LnsFunction f, float x) {
  return evalChecked(table, k, LnsImpl::Horner, f, x);
}

} // namespace approx::lns
