// inputs.cpp - perforation-bench's inputs (inputs.h): photographs,
// synthetic patterns, mirror tiling and HotSpot chips.
#include "inputs.h"

#include "approx/runtime/tune/ImageIO.h"

#include <algorithm>
#include <cmath>
#include <dirent.h>
#include <random>

namespace pbench {

Image readImage(const std::string &path, const std::string &name) {
  Image2D i = must(readNpy(path), "image");
  return Image{name, i.height, i.width, std::move(i.pixels)};
}

std::vector<Image> readPhotos(const std::string &dir) {
  std::vector<Image> photos;
  if (DIR *d = opendir(dir.c_str())) {
    std::vector<std::string> names;
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 4 && n.substr(n.size() - 4) == ".npy")
        names.push_back(n);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const std::string &n : names)
      photos.push_back(readImage(dir + "/" + n, n.substr(0, n.size() - 4)));
  }
  return photos;
}

Image syntheticSequential(const std::string &kind, int64_t n, unsigned seed) {
  Image img{kind + "-" + std::to_string(n), n, n, {}};
  img.px.resize(size_t(n * n));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int64_t y = 0; y < n; ++y)
    for (int64_t x = 0; x < n; ++x) {
      float &p = img.px[size_t(y * n + x)];
      if (kind == "flat")
        p = 0.5f + 0.002f * (u(gen) - 0.5f);
      else if (kind == "gradient")
        p = 0.05f + 0.9f * float(x + y) / float(2 * n);
      else if (kind == "checker8")
        p = ((y / 8 + x / 8) % 2) ? 0.8f : 0.2f;
      else if (kind == "stripes")
        p = (y % 2) ? 0.9f : 0.1f;
      else if (kind == "zoneplate") {
        double r2 =
            double(y - n / 2) * (y - n / 2) + double(x - n / 2) * (x - n / 2);
        p = float(0.5 + 0.45 * std::cos(M_PI * r2 / double(n)));
      } else // noise
        p = u(gen);
    }
  return img;
}

Image synthetic(const std::string &kind, int64_t n, unsigned seed,
                unsigned threads) {
  if (std::find(kPatterns.begin(), kPatterns.end(), kind) == kPatterns.end())
    die("unknown pattern " + kind);
  Image img{kind + "-" + std::to_string(n), n, n, {}};
  img.px.resize(size_t(n * n));
  float *px = img.px.data();
  parallelFor(
      n,
      [&](int64_t y0, int64_t y1) {
        std::mt19937 gen(seed);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        if (kind == "flat" || kind == "noise")
          gen.discard(static_cast<unsigned long long>(y0 * n));
        for (int64_t y = y0; y < y1; ++y) {
          float *row = px + y * n;
          if (kind == "flat")
            for (int64_t x = 0; x < n; ++x)
              row[x] = 0.5f + 0.002f * (u(gen) - 0.5f);
          else if (kind == "gradient")
            for (int64_t x = 0; x < n; ++x)
              row[x] = 0.05f + 0.9f * float(x + y) / float(2 * n);
          else if (kind == "checker8")
            for (int64_t x = 0; x < n; ++x)
              row[x] = ((y / 8 + x / 8) % 2) ? 0.8f : 0.2f;
          else if (kind == "stripes")
            for (int64_t x = 0; x < n; ++x)
              row[x] = (y % 2) ? 0.9f : 0.1f;
          else if (kind == "zoneplate")
            for (int64_t x = 0; x < n; ++x) {
              double r2 = double(y - n / 2) * (y - n / 2) +
                          double(x - n / 2) * (x - n / 2);
              row[x] = float(0.5 + 0.45 * std::cos(M_PI * r2 / double(n)));
            }
          else
            for (int64_t x = 0; x < n; ++x)
              row[x] = u(gen);
        }
      },
      threads);
  return img;
}

int64_t mirrorIndex(int64_t p, int64_t n) {
  if (n == 1)
    return 0;
  const int64_t period = 2 * n - 2;
  int64_t m = p % period;
  if (m < 0)
    m += period;
  return m < n ? m : period - m;
}

std::vector<int> mirrorMap(int64_t n, int64_t size) {
  std::vector<int> m(static_cast<size_t>(size));
  for (int64_t p = 0; p < size; ++p)
    m[size_t(p)] = int(mirrorIndex(p, n));
  return m;
}

Image mirrorTile(const Image &img, int64_t H, int64_t W) {
  Image out{img.name + "-" + std::to_string(H), H, W, {}};
  out.px.resize(size_t(H * W));
  const std::vector<int> rows = mirrorMap(img.h, H), cols = mirrorMap(img.w, W);
  for (int64_t y = 0; y < H; ++y)
    for (int64_t x = 0; x < W; ++x)
      out.px[size_t(y * W + x)] =
          img.px[size_t(int64_t(rows[size_t(y)]) * img.w + cols[size_t(x)])];
  return out;
}

HotspotConsts hotspotConsts(int64_t n, double &perCell) {
  const double chip = 0.016, tChip = 0.0005, kSi = 100.0, specHeat = 1.75e6,
               factor = 0.5, maxPd = 3.0e6, precision = 0.001;
  double gh = chip / double(n), gw = chip / double(n);
  double cap = factor * specHeat * tChip * gw * gh;
  double rx = gw / (2.0 * kSi * tChip * gh), ry = gh / (2.0 * kSi * tChip * gw);
  double rz = tChip / (kSi * gh * gw);
  double step = precision / (maxPd / (factor * tChip * specHeat));
  HotspotConsts c;
  c.sdc = float(step / cap);
  c.rx1 = float(1 / rx), c.ry1 = float(1 / ry), c.rz1 = float(1 / rz);
  // Units: W per cell scaled to the grid so the total stays chip-like.
  perCell = 1.0 / double(n * n) * 40.0;
  return c;
}

HotspotCase hotspotInputSequential(int64_t n, unsigned seed) {
  double perCell = 0;
  HotspotCase c;
  c.k = hotspotConsts(n, perCell);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  c.power.assign(size_t(n * n), 0.0f);
  c.temp.assign(size_t(n * n), 0.0f);
  for (int u0 = 0; u0 < 12; ++u0) {
    int64_t y0 = int64_t(u(gen) * n), x0 = int64_t(u(gen) * n);
    int64_t hh = 1 + int64_t(u(gen) * n / 4), ww = 1 + int64_t(u(gen) * n / 4);
    double d = perCell * (0.5 + 4.0 * u(gen));
    for (int64_t y = y0; y < std::min(n, y0 + hh); ++y)
      for (int64_t x = x0; x < std::min(n, x0 + ww); ++x)
        c.power[size_t(y * n + x)] += float(d);
  }
  for (int64_t y = 0; y < n; ++y)
    for (int64_t x = 0; x < n; ++x) {
      double fy = double(y) / n, fx = double(x) / n;
      c.power[size_t(y * n + x)] += float(perCell * 0.1 * u(gen));
      c.temp[size_t(y * n + x)] =
          float(320.0 +
                25.0 * std::exp(-8.0 * ((fy - 0.4) * (fy - 0.4) +
                                        (fx - 0.6) * (fx - 0.6))) +
                0.5 * u(gen));
    }
  return c;
}

HotspotCase hotspotInput(int64_t n, unsigned seed, unsigned threads) {
  double perCell = 0;
  HotspotCase c;
  c.k = hotspotConsts(n, perCell);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  struct Unit {
    int64_t y0, x0, hh, ww;
    double d;
  };
  std::vector<Unit> units;
  for (int u0 = 0; u0 < 12; ++u0) {
    Unit un;
    un.y0 = int64_t(u(gen) * n), un.x0 = int64_t(u(gen) * n);
    un.hh = 1 + int64_t(u(gen) * n / 4), un.ww = 1 + int64_t(u(gen) * n / 4);
    un.d = perCell * (0.5 + 4.0 * u(gen));
    units.push_back(un);
  }
  c.power.resize(size_t(n * n));
  c.temp.resize(size_t(n * n));
  float *power = c.power.data(), *temp = c.temp.data();
  parallelFor(
      n,
      [&](int64_t r0, int64_t r1) {
        std::mt19937 g(seed);
        std::uniform_real_distribution<double> v(0.0, 1.0);
        g.discard(static_cast<unsigned long long>(120 + 4 * r0 * n));
        for (int64_t y = r0; y < r1; ++y) {
          float *p = power + y * n, *t = temp + y * n;
          std::fill(p, p + n, 0.0f);
          for (const Unit &un : units)
            if (y >= un.y0 && y < std::min(n, un.y0 + un.hh))
              for (int64_t x = un.x0; x < std::min(n, un.x0 + un.ww); ++x)
                p[x] += float(un.d);
          for (int64_t x = 0; x < n; ++x) {
            double fy = double(y) / n, fx = double(x) / n;
            p[x] += float(perCell * 0.1 * v(g));
            t[x] = float(320.0 +
                         25.0 * std::exp(-8.0 * ((fy - 0.4) * (fy - 0.4) +
                                                 (fx - 0.6) * (fx - 0.6))) +
                         0.5 * v(g));
          }
        }
      },
      threads);
  return c;
}

} // namespace pbench
