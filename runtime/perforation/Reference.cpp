//===- Reference.cpp - CPU reference of kernel perforation ----------------===//
//
// docs/perforation.md ("Semantics") step for step, written for clarity, not
// speed: the accurate buffer is built whole, the loaded set is a mask, and a
// skipped element looks up its nearest loaded neighbours along the
// perforated axis by scanning the mask (an independent route to the a and b
// that the lowering computes from the phase), then takes the nearer one or
// the fused multiply-add between them.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/perforation/Reference.h"

#include "approx/runtime/core/Text.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace approx::rt::perforation {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

/// x mod m in [0, m) for any sign of x (m >= 1).
int64_t posMod(int64_t x, int64_t m) {
  int64_t r = x % m;
  return r < 0 ? r + m : r;
}

/// floor(x / m) for any sign of x (m >= 1).
int64_t floorDiv(int64_t x, int64_t m) {
  int64_t q = x / m;
  return (x % m != 0 && x < 0) ? q - 1 : q;
}

/// r = a + b; false on overflow.
bool addOk(int64_t a, int64_t b, int64_t &r) {
  return !__builtin_add_overflow(a, b, &r);
}

/// buffer = tile + 2 halo along one axis, refused on overflow.
Status checkedBuffer(int64_t tile, int64_t halo, int64_t &buffer) {
  int64_t twice;
  if (__builtin_mul_overflow(halo, int64_t(2), &twice) ||
      !addOk(tile, twice, buffer))
    return invalidArgument("a tile of " + str(tile) + " with a halo of " +
                           str(halo) + " overflows 64-bit sizes");
  return Status::ok();
}

/// first = origin - halo; the first and last coordinate of a buffer of
/// `extent` there must fit in 64 bits.
Status checkedOrigin(int64_t origin, int64_t halo, int64_t extent,
                     const char *what, int64_t &first) {
  int64_t last;
  if (__builtin_sub_overflow(origin, halo, &first) ||
      !addOk(first, extent - 1, last))
    return invalidArgument("tile origin " + std::string(what) + " = " +
                           str(origin) +
                           " puts the buffer's coordinates beyond 64 bits");
  return Status::ok();
}

/// For each position of a line, the nearest loaded position strictly
/// before it (-1 when none) and strictly after it (extent when none).
void neighbours(const std::vector<uint8_t> &loaded, std::vector<int64_t> &prev,
                std::vector<int64_t> &next) {
  const int64_t n = int64_t(loaded.size());
  prev.assign(size_t(n), -1);
  next.assign(size_t(n), n);
  for (int64_t i = 1; i < n; ++i)
    prev[size_t(i)] = loaded[size_t(i - 1)] ? i - 1 : prev[size_t(i - 1)];
  for (int64_t i = n - 2; i >= 0; --i)
    next[size_t(i)] = loaded[size_t(i + 1)] ? i + 1 : next[size_t(i + 1)];
}

/// The value of skipped position i between loaded a (< 0: missing) and b
/// (>= extent: missing); `read(p)` is the loaded value at p.
template <typename T, typename Read>
T rebuild(int64_t i, int64_t a, int64_t b, int64_t extent, Recon recon,
          Read read) {
  const bool hasA = a >= 0, hasB = b < extent;
  if (recon == Recon::Linear && hasA && hasB) {
    const T A = read(a), B = read(b);
    const T w = T(i - a) / T(b - a); // RN((i-a)/(b-a)) in T
    const T diff = B - A;            // rounded once, in T
    return std::fma(diff, w, A);
  }
  // nn: the nearer side, a on a tie; the other where one is missing.
  const bool takeA = hasA && (!hasB || i - a <= b - i);
  return read(takeA ? a : b);
}

std::string schemeText(const Scheme &scheme) {
  return quote(schemeName(scheme));
}

} // namespace

//===----------------------------------------------------------------------===//
// Names.
//===----------------------------------------------------------------------===//

Expected<Scheme> parseScheme(std::string_view name) {
  const std::string whole(name);
  if (name.empty())
    return invalidArgument("empty perforation scheme name");
  std::string_view head = name, reconText;
  bool hasRecon = false;
  if (size_t colon = name.find(':'); colon != std::string_view::npos) {
    head = name.substr(0, colon);
    reconText = name.substr(colon + 1);
    hasRecon = true;
  }
  size_t letters = 0;
  while (letters < head.size() && head[letters] >= 'a' && head[letters] <= 'z')
    ++letters;
  std::string_view kindText = head.substr(0, letters);
  std::string_view skipText = head.substr(letters);

  Scheme s;
  if (kindText == "accurate")
    s.kind = SchemeKind::Accurate;
  else if (kindText == "rows")
    s.kind = SchemeKind::Rows;
  else if (kindText == "cols")
    s.kind = SchemeKind::Cols;
  else if (kindText == "stencil")
    s.kind = SchemeKind::Stencil;
  else if (kindText == "center")
    s.kind = SchemeKind::Center;
  else
    return invalidArgument("unknown perforation scheme " + quote(whole) +
                           " (known: accurate, rows<n>, cols<n>, stencil, "
                           "center<n>, with an optional :nn or :linear)");

  const bool takesSkip = s.kind == SchemeKind::Rows ||
                         s.kind == SchemeKind::Cols ||
                         s.kind == SchemeKind::Center;
  if (!takesSkip && !skipText.empty())
    return invalidArgument("perforation scheme " + quote(whole) +
                           " takes no skip: only rows, cols and center skip "
                           "n of every n+1");
  if (takesSkip) {
    if (skipText.empty())
      return invalidArgument("perforation scheme " + quote(whole) +
                             " needs a skip n >= 1 after the kind, as in " +
                             std::string(kindText) + "1");
    bool digits = skipText.front() != '0' && skipText.size() <= 4 &&
                  std::all_of(skipText.begin(), skipText.end(),
                              [](char c) { return c >= '0' && c <= '9'; });
    int64_t n = 0;
    if (digits)
      for (char c : skipText)
        n = n * 10 + (c - '0');
    if (!digits || n < 1 || n > kMaxSkip)
      return invalidArgument("perforation scheme " + quote(whole) +
                             ": the skip must be a decimal in [1, " +
                             str(kMaxSkip) + "] without leading zeros");
    s.skip = n;
  }

  if (hasRecon) {
    if (reconText == "nn")
      s.recon = Recon::Nearest;
    else if (reconText == "linear")
      s.recon = Recon::Linear;
    else
      return invalidArgument(
          "perforation scheme " + quote(whole) + ": unknown reconstruction " +
          quote(std::string(reconText)) + " (known: nn, linear)");
  }
  if (s.recon == Recon::Linear && s.kind == SchemeKind::Accurate)
    return invalidArgument("perforation scheme " + quote(whole) +
                           ": accurate skips nothing and takes no "
                           "reconstruction");
  if (s.recon == Recon::Linear && s.kind == SchemeKind::Center)
    return invalidArgument("perforation scheme " + quote(whole) +
                           ": center is output perforation, which copies; "
                           "linear is not available");
  return s;
}

Expected<Scheme> schemeFromPayload(const Payload &p) {
  auto bad = [&](const std::string &why) {
    return invalidArgument("perforation scheme payload (scheme " +
                           quote(p.scheme) + ", skip " + str(p.skip) +
                           ", reconstruction " + quote(p.reconstruction) +
                           "): " + why);
  };
  if (p.type != Payload::Type::PerforationScheme)
    return bad(std::string("the payload is of type ") +
               payloadTypeName(p.type));
  Scheme s;
  if (p.scheme == "accurate")
    s.kind = SchemeKind::Accurate;
  else if (p.scheme == "rows")
    s.kind = SchemeKind::Rows;
  else if (p.scheme == "cols")
    s.kind = SchemeKind::Cols;
  else if (p.scheme == "stencil")
    s.kind = SchemeKind::Stencil;
  else if (p.scheme == "center")
    s.kind = SchemeKind::Center;
  else
    return bad("unknown scheme");
  const bool takesSkip = s.kind == SchemeKind::Rows ||
                         s.kind == SchemeKind::Cols ||
                         s.kind == SchemeKind::Center;
  if (takesSkip) {
    if (p.skip < 1 || p.skip > kMaxSkip)
      return bad("the skip lies outside [1, " + str(kMaxSkip) + "]");
    s.skip = p.skip;
  }
  if (p.reconstruction == "linear") {
    if (s.kind == SchemeKind::Accurate || s.kind == SchemeKind::Center)
      return bad("only rows, cols and stencil rebuild linearly");
    s.recon = Recon::Linear;
  } else if (p.reconstruction != "nn" && p.reconstruction != "copy") {
    return bad("unknown reconstruction");
  }
  return s;
}

std::string schemeName(const Scheme &scheme) {
  const char *recon = scheme.recon == Recon::Linear ? ":linear" : ":nn";
  switch (scheme.kind) {
  case SchemeKind::Accurate:
    return "accurate";
  case SchemeKind::Rows:
    return "rows" + str(scheme.skip) + recon;
  case SchemeKind::Cols:
    return "cols" + str(scheme.skip) + recon;
  case SchemeKind::Stencil:
    return std::string("stencil") + recon;
  case SchemeKind::Center:
    return "center" + str(scheme.skip);
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// 2-D.
//===----------------------------------------------------------------------===//

Status validate2D(const Tile2D &tile, const Scheme &scheme) {
  const int64_t ty = tile.tileRows, tx = tile.tileCols;
  const int64_t hy = tile.haloRows, hx = tile.haloCols;
  if (ty < 1 || tx < 1)
    return invalidArgument("a tile of " + str(ty) + " x " + str(tx) +
                           " elements: both sizes must be at least 1");
  if (hy < 0 || hx < 0)
    return invalidArgument("a halo of (" + str(hy) + ", " + str(hx) +
                           ") is negative");
  if (hy > ty)
    return invalidArgument("a halo of " + str(hy) +
                           " rows is larger than the " + str(ty) + "-row tile");
  if (hx > tx)
    return invalidArgument("a halo of " + str(hx) +
                           " columns is larger than the " + str(tx) +
                           "-column tile");
  int64_t by, bx, count;
  APPROX_RETURN_IF_ERROR(checkedBuffer(ty, hy, by));
  APPROX_RETURN_IF_ERROR(checkedBuffer(tx, hx, bx));
  if (__builtin_mul_overflow(by, bx, &count) || count > kMaxBufferElements)
    return invalidArgument("a tile of " + str(ty) + " x " + str(tx) +
                           " with a halo of (" + str(hy) + ", " + str(hx) +
                           ") needs a buffer of " + str(by) + " x " + str(bx) +
                           " elements, more than 2^31");
  if (scheme.skip < 1)
    return invalidArgument("a skip of " + str(scheme.skip) +
                           ": a scheme skips n >= 1 of every n+1");
  switch (scheme.kind) {
  case SchemeKind::Center:
    return invalidArgument("scheme " + schemeText(scheme) +
                           " is output perforation; a tile load takes "
                           "accurate, rows, cols or stencil");
  case SchemeKind::Rows:
    if (scheme.skip >= by)
      return invalidArgument("scheme " + schemeText(scheme) + " needs " +
                             str(scheme.skip) +
                             "+1 buffer rows to keep one "
                             "loaded row; the buffer has " +
                             str(by));
    break;
  case SchemeKind::Cols:
    if (scheme.skip >= bx)
      return invalidArgument("scheme " + schemeText(scheme) + " needs " +
                             str(scheme.skip) +
                             "+1 buffer columns to keep "
                             "one loaded column; the buffer has " +
                             str(bx));
    break;
  case SchemeKind::Accurate:
  case SchemeKind::Stencil:
    break;
  }
  return Status::ok();
}

Expected<std::vector<uint8_t>>
loadedMask2D(int64_t oy, int64_t ox, const Tile2D &tile, const Scheme &scheme) {
  APPROX_RETURN_IF_ERROR(validate2D(tile, scheme));
  const int64_t by = tile.bufferRows(), bx = tile.bufferCols();
  int64_t gy0, gx0;
  APPROX_RETURN_IF_ERROR(checkedOrigin(oy, tile.haloRows, by, "oy", gy0));
  APPROX_RETURN_IF_ERROR(checkedOrigin(ox, tile.haloCols, bx, "ox", gx0));
  const int64_t span = scheme.skip + 1;
  std::vector<uint8_t> mask(size_t(by * bx));
  for (int64_t i = 0; i < by; ++i) {
    for (int64_t j = 0; j < bx; ++j) {
      bool loaded = true;
      switch (scheme.kind) {
      case SchemeKind::Accurate:
      case SchemeKind::Center: // refused above
        break;
      case SchemeKind::Rows:
        loaded = posMod(gy0 + i, span) == 0;
        break;
      case SchemeKind::Cols:
        loaded = posMod(gx0 + j, span) == 0;
        break;
      case SchemeKind::Stencil:
        loaded = i >= tile.haloRows && i < tile.haloRows + tile.tileRows &&
                 j >= tile.haloCols && j < tile.haloCols + tile.tileCols;
        break;
      }
      mask[size_t(i * bx + j)] = loaded ? 1 : 0;
    }
  }
  return mask;
}

template <typename T>
Expected<std::vector<T>>
referenceTile2D(const T *in, int64_t H, int64_t W, int64_t oy, int64_t ox,
                const Tile2D &tile, const Scheme &scheme, Border border) {
  if (!in)
    return invalidArgument("referenceTile2D: the image pointer is null");
  if (H < 1 || W < 1 || H > std::numeric_limits<int64_t>::max() / W)
    return invalidArgument("referenceTile2D: an image of " + str(H) + " x " +
                           str(W) +
                           " elements: both sizes must be at least 1 and "
                           "their product must fit in 64 bits");
  APPROX_ASSIGN_OR_RETURN(std::vector<uint8_t> mask,
                          loadedMask2D(oy, ox, tile, scheme));
  const int64_t by = tile.bufferRows(), bx = tile.bufferCols();
  const int64_t hy = tile.haloRows, hx = tile.haloCols;
  const int64_t gy0 = oy - hy, gx0 = ox - hx; // checked by loadedMask2D

  // acc(i, j) over the whole buffer.
  std::vector<T> acc(size_t(by * bx));
  for (int64_t i = 0; i < by; ++i) {
    for (int64_t j = 0; j < bx; ++j) {
      const int64_t gy = gy0 + i, gx = gx0 + j;
      T v;
      if (border == Border::Clamp)
        v = in[std::clamp<int64_t>(gy, 0, H - 1) * W +
               std::clamp<int64_t>(gx, 0, W - 1)];
      else
        v = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? in[gy * W + gx] : T(0);
      acc[size_t(i * bx + j)] = v;
    }
  }
  auto at = [&](int64_t i, int64_t j) { return acc[size_t(i * bx + j)]; };

  std::vector<T> out(acc.size());
  switch (scheme.kind) {
  case SchemeKind::Accurate:
  case SchemeKind::Center: // refused by validate2D
    out = acc;
    break;
  case SchemeKind::Stencil:
    for (int64_t i = 0; i < by; ++i)
      for (int64_t j = 0; j < bx; ++j)
        out[size_t(i * bx + j)] = at(std::clamp(i, hy, hy + tile.tileRows - 1),
                                     std::clamp(j, hx, hx + tile.tileCols - 1));
    break;
  case SchemeKind::Rows: {
    std::vector<uint8_t> rowLoaded(static_cast<size_t>(by));
    for (int64_t i = 0; i < by; ++i)
      rowLoaded[size_t(i)] = mask[size_t(i * bx)];
    std::vector<int64_t> prev, next;
    neighbours(rowLoaded, prev, next);
    for (int64_t i = 0; i < by; ++i)
      for (int64_t j = 0; j < bx; ++j)
        out[size_t(i * bx + j)] =
            rowLoaded[size_t(i)]
                ? at(i, j)
                : rebuild<T>(i, prev[size_t(i)], next[size_t(i)], by,
                             scheme.recon, [&](int64_t p) { return at(p, j); });
    break;
  }
  case SchemeKind::Cols: {
    std::vector<uint8_t> colLoaded(mask.begin(), mask.begin() + bx);
    std::vector<int64_t> prev, next;
    neighbours(colLoaded, prev, next);
    for (int64_t i = 0; i < by; ++i)
      for (int64_t j = 0; j < bx; ++j)
        out[size_t(i * bx + j)] =
            colLoaded[size_t(j)]
                ? at(i, j)
                : rebuild<T>(j, prev[size_t(j)], next[size_t(j)], bx,
                             scheme.recon, [&](int64_t p) { return at(i, p); });
    break;
  }
  }
  return out;
}

template Expected<std::vector<float>>
referenceTile2D<float>(const float *, int64_t, int64_t, int64_t, int64_t,
                       const Tile2D &, const Scheme &, Border);
template Expected<std::vector<double>>
referenceTile2D<double>(const double *, int64_t, int64_t, int64_t, int64_t,
                        const Tile2D &, const Scheme &, Border);

double loadedFraction2D(const Tile2D &tile, const Scheme &scheme) {
  if (!validate2D(tile, scheme).isOk())
    return std::numeric_limits<double>::quiet_NaN();
  switch (scheme.kind) {
  case SchemeKind::Accurate:
  case SchemeKind::Center: // refused above
    return 1.0;
  case SchemeKind::Rows:
  case SchemeKind::Cols:
    // Over the n+1 phases each buffer row (column) is loaded exactly once.
    return 1.0 / double(scheme.skip + 1);
  case SchemeKind::Stencil:
    return double(tile.tileRows * tile.tileCols) /
           double(tile.bufferRows() * tile.bufferCols());
  }
  return std::numeric_limits<double>::quiet_NaN();
}

//===----------------------------------------------------------------------===//
// 1-D.
//===----------------------------------------------------------------------===//

Status validate1D(const Tile1D &tile, const Scheme &scheme,
                  int64_t elementBytes) {
  if (elementBytes < 1 || elementBytes > kSectorBytes ||
      kSectorBytes % elementBytes != 0)
    return invalidArgument("an element of " + str(elementBytes) +
                           " bytes does not divide a 32-byte sector");
  const int64_t t = tile.tile, h = tile.halo;
  if (t < 1)
    return invalidArgument("a 1-D tile of " + str(t) +
                           " elements: the size must be at least 1");
  if (h < 0)
    return invalidArgument("a halo of " + str(h) + " elements is negative");
  if (h > t)
    return invalidArgument("a halo of " + str(h) +
                           " elements is larger than the " + str(t) +
                           "-element tile");
  int64_t b;
  APPROX_RETURN_IF_ERROR(checkedBuffer(t, h, b));
  if (b > kMaxBufferElements)
    return invalidArgument("a 1-D tile of " + str(t) + " with a halo of " +
                           str(h) + " needs a buffer of " + str(b) +
                           " elements, more than 2^31");
  if (scheme.skip < 1)
    return invalidArgument("a skip of " + str(scheme.skip) +
                           ": a scheme skips n >= 1 of every n+1");
  const int64_t sector = kSectorBytes / elementBytes;
  switch (scheme.kind) {
  case SchemeKind::Cols:
  case SchemeKind::Center:
    return invalidArgument("scheme " + schemeText(scheme) +
                           " is not a 1-D input scheme: take accurate, rows "
                           "(whole 32-byte sectors) or stencil");
  case SchemeKind::Rows:
    // A skipped run is n sectors: B >= n*S + 1 keeps a loaded element in
    // the buffer wherever it starts.
    if (scheme.skip > (b - 1) / sector) {
      int64_t need;
      const bool fits = !__builtin_mul_overflow(scheme.skip, sector, &need) &&
                        addOk(need, 1, need);
      return invalidArgument(
          "scheme " + schemeText(scheme) + " skips " + str(scheme.skip) +
          " of every " + str(scheme.skip) + "+1 sectors of " + str(sector) +
          " elements: the " + str(b) +
          "-element buffer may hold no loaded element (it needs n*" +
          str(sector) + "+1 = " + (fits ? str(need) : "more than 2^63") + ")");
    }
    break;
  case SchemeKind::Accurate:
  case SchemeKind::Stencil:
    break;
  }
  return Status::ok();
}

Expected<std::vector<uint8_t>> loadedMask1D(int64_t o, const Tile1D &tile,
                                            const Scheme &scheme,
                                            int64_t elementBytes) {
  APPROX_RETURN_IF_ERROR(validate1D(tile, scheme, elementBytes));
  const int64_t b = tile.bufferSize();
  int64_t g0;
  APPROX_RETURN_IF_ERROR(checkedOrigin(o, tile.halo, b, "o", g0));
  const int64_t sector = kSectorBytes / elementBytes;
  std::vector<uint8_t> mask(size_t(b), 1);
  for (int64_t i = 0; i < b; ++i) {
    if (scheme.kind == SchemeKind::Rows)
      mask[size_t(i)] =
          posMod(floorDiv(g0 + i, sector), scheme.skip + 1) == 0 ? 1 : 0;
    else if (scheme.kind == SchemeKind::Stencil)
      mask[size_t(i)] = i >= tile.halo && i < tile.halo + tile.tile ? 1 : 0;
  }
  return mask;
}

template <typename T>
Expected<std::vector<T>> referenceTile1D(const T *in, int64_t N, int64_t o,
                                         const Tile1D &tile,
                                         const Scheme &scheme, Border border) {
  if (!in)
    return invalidArgument("referenceTile1D: the array pointer is null");
  if (N < 1)
    return invalidArgument("referenceTile1D: an array of " + str(N) +
                           " elements: the size must be at least 1");
  APPROX_ASSIGN_OR_RETURN(std::vector<uint8_t> mask,
                          loadedMask1D(o, tile, scheme, int64_t(sizeof(T))));
  const int64_t b = tile.bufferSize(), h = tile.halo;
  const int64_t g0 = o - h; // checked by loadedMask1D
  std::vector<T> acc(static_cast<size_t>(b));
  for (int64_t i = 0; i < b; ++i) {
    const int64_t g = g0 + i;
    acc[size_t(i)] = border == Border::Clamp
                         ? in[std::clamp<int64_t>(g, 0, N - 1)]
                         : (g >= 0 && g < N ? in[g] : T(0));
  }
  auto at = [&](int64_t p) { return acc[size_t(p)]; };
  std::vector<T> out(acc.size());
  switch (scheme.kind) {
  case SchemeKind::Accurate:
  case SchemeKind::Cols:   // refused by validate1D
  case SchemeKind::Center: // refused by validate1D
    out = acc;
    break;
  case SchemeKind::Stencil:
    for (int64_t i = 0; i < b; ++i)
      out[size_t(i)] = at(std::clamp(i, h, h + tile.tile - 1));
    break;
  case SchemeKind::Rows: {
    std::vector<int64_t> prev, next;
    neighbours(mask, prev, next);
    for (int64_t i = 0; i < b; ++i)
      out[size_t(i)] = mask[size_t(i)]
                           ? at(i)
                           : rebuild<T>(i, prev[size_t(i)], next[size_t(i)], b,
                                        scheme.recon, at);
    break;
  }
  }
  return out;
}

template Expected<std::vector<float>>
referenceTile1D<float>(const float *, int64_t, int64_t, const Tile1D &,
                       const Scheme &, Border);
template Expected<std::vector<double>>
referenceTile1D<double>(const double *, int64_t, int64_t, const Tile1D &,
                        const Scheme &, Border);

//===----------------------------------------------------------------------===//
// Output perforation.
//===----------------------------------------------------------------------===//

namespace {

/// min(floor(p/(n+1))(n+1) + floor(n/2), extent-1) without overflow, for
/// 0 <= p < extent and n >= 1.
int64_t groupSource(int64_t p, int64_t extent, int64_t n) {
  // n >= p: the group is 0 (n+1 may overflow, p < n+1 anyway).
  const int64_t first = n >= p ? 0 : (p / (n + 1)) * (n + 1);
  const int64_t mid = n / 2;
  return mid > extent - 1 - first ? extent - 1 : first + mid;
}

} // namespace

Expected<std::pair<int64_t, int64_t>>
outputSource(int64_t y, int64_t x, int64_t H, int64_t W, const Scheme &scheme) {
  if (H < 1 || W < 1)
    return invalidArgument("an output of " + str(H) + " x " + str(W) +
                           " elements: both sizes must be at least 1");
  if (y < 0 || y >= H || x < 0 || x >= W)
    return invalidArgument("output coordinate (" + str(y) + ", " + str(x) +
                           ") lies outside the " + str(H) + " x " + str(W) +
                           " output");
  if (scheme.skip < 1)
    return invalidArgument("a skip of " + str(scheme.skip) +
                           ": a scheme skips n >= 1 of every n+1");
  if (scheme.kind == SchemeKind::Stencil)
    return invalidArgument("scheme " + schemeText(scheme) +
                           " is input perforation; output perforation takes "
                           "accurate, rows, cols or center");
  if (scheme.recon == Recon::Linear)
    return invalidArgument("scheme " + schemeText(scheme) +
                           " with linear reconstruction: output perforation "
                           "copies computed elements (nn only)");
  const bool rows =
      scheme.kind == SchemeKind::Rows || scheme.kind == SchemeKind::Center;
  const bool cols =
      scheme.kind == SchemeKind::Cols || scheme.kind == SchemeKind::Center;
  return std::make_pair(rows ? groupSource(y, H, scheme.skip) : y,
                        cols ? groupSource(x, W, scheme.skip) : x);
}

} // namespace approx::rt::perforation
