// cut.cu - CUT (Table 6): distance-cutoff Coulomb potential on a 3-D lattice
// from atoms binned into cells (double precision), Parboil cutcp's
// lattice6overlap kernel rewritten for this suite.
#include "ax.cuh"

namespace cut {
struct alignas(32) Atom { double x, y, z, q; }; // a bin slot (CUDA 13 deprecates double4)

// Lattice points per thread along z, blockDim.z apart; they share the atom's
// dx^2 + dy^2. A block covers one bin's worth of lattice points.
constexpr int kPts = 4;

// V(p) = sum over atoms with r < c of q / r * (1 - r^2/c^2)^2 (the smoothed
// cutoff of cutcp), over the bins within `reach` bins of the block's bin.
template <class M>
__device__ __forceinline__ void
potential(double *lattice, const Atom *bins, int depth, int nbx, int nby,
          int nbz, int reach, double h, double c2, double invC2, int ix, int iy,
          int iz0, int nx, int ny) {
  const double px = ix * h, py = iy * h;
  double e[kPts] = {};
  const int bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
  for (int k = max(bz - reach, 0); k <= min(bz + reach, nbz - 1); ++k)
    for (int j = max(by - reach, 0); j <= min(by + reach, nby - 1); ++j)
      for (int i = max(bx - reach, 0); i <= min(bx + reach, nbx - 1); ++i) {
        const Atom *bin = bins + (size_t(k * nby + j) * nbx + i) * depth;
        for (int a = 0; a < depth; ++a) {
          const Atom at = bin[a]; // (x, y, z, q), the same for the block
          if (at.q == 0)
            break; // the bin's empty slots (q = 0) are at its end
          const double dx = px - at.x, dy = py - at.y, dxy2 = dx * dx + dy * dy;
#pragma unroll
          for (int p = 0; p < kPts; ++p) {
            const double dz = (iz0 + p * int(blockDim.z)) * h - at.z;
            const double r2 = dxy2 + dz * dz;
            if (r2 < c2) {
              const double s = 1.0 - r2 * invC2;
              e[p] += at.q * M::rsqrt(r2) * (s * s);
            }
          }
        }
      }
#pragma unroll
  for (int p = 0; p < kPts; ++p)
    lattice[(size_t(iz0 + p * blockDim.z) * ny + iy) * nx + ix] = e[p];
}
} // namespace cut

// Block (bx, by, bz) computes the lattice points inside bin (bx, by, bz): the
// lattice has blockDim.{x,y} and kPts * blockDim.z points per bin edge.
extern "C" __global__ void cut_lattice(double *lattice, const cut::Atom *bins,
                                       int depth, int nbx, int nby, int nbz,
                                       int reach, double h, double c2,
                                       double invC2) {
  const int nx = nbx * blockDim.x, ny = nby * blockDim.y;
  const int ix = blockIdx.x * blockDim.x + threadIdx.x;
  const int iy = blockIdx.y * blockDim.y + threadIdx.y;
  const int iz0 = blockIdx.z * blockDim.z * cut::kPts + threadIdx.z;
  AX_VERSIONED(cut::potential, lattice, bins, depth, nbx, nby, nbz, reach, h,
               c2, invC2, ix, iy, iz0, nx, ny);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <algorithm>
#include <cmath>
#include <random>

namespace cut {
// A 48 x 48 x 64 A water box, 4 A bins, 0.5 A lattice, 8 A cutoff.
constexpr int kBx = 12, kBy = 12, kBz = 16, kPerBin = 8;
constexpr double kBin = 4.0, kH = kBin / kPerBin, kCut = 8.0;
constexpr size_t kPoints = size_t(kBx) * kBy * kBz * kPerBin * kPerBin * kPerBin;

apps::Problem make(uint64_t seed) {
  // Liquid water (0.0334 molecules/A^3): oxygens on a jittered 3.1 A cubic
  // lattice, hydrogens 0.9572 A away at 104.52 degrees, TIP3P charges,
  // periodic wrap into the box; then binned as cutcp does on the host.
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> jit(-0.6, 0.6), u(-1, 1);
  const double L[3] = {kBx * kBin, kBy * kBin, kBz * kBin}, a = 3.104;
  std::vector<Atom> atoms;
  auto wrap = [&](double v, int d) { return v - L[d] * std::floor(v / L[d]); };
  auto unit = [&](double *v) {
    double n2;
    do {
      v[0] = u(g), v[1] = u(g), v[2] = u(g);
      n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    } while (n2 < 1e-4 || n2 > 1);
    for (int d = 0; d < 3; ++d) v[d] /= std::sqrt(n2);
  };
  const double half = 0.5 * 104.52 * M_PI / 180, ca = 0.9572 * std::cos(half),
               sb = 0.9572 * std::sin(half);
  for (double z = a / 2; z < L[2]; z += a)
    for (double y = a / 2; y < L[1]; y += a)
      for (double x = a / 2; x < L[0]; x += a) {
        double o[3] = {x + jit(g), y + jit(g), z + jit(g)}, e1[3], e2[3];
        unit(e1), unit(e2);
        const double d = e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2];
        for (int k = 0; k < 3; ++k) e2[k] -= d * e1[k];
        const double n = std::sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]);
        atoms.push_back({wrap(o[0], 0), wrap(o[1], 1), wrap(o[2], 2), -0.834});
        for (double sg : {1.0, -1.0})
          atoms.push_back({wrap(o[0] + ca * e1[0] + sg * sb * e2[0] / n, 0),
                           wrap(o[1] + ca * e1[1] + sg * sb * e2[1] / n, 1),
                           wrap(o[2] + ca * e1[2] + sg * sb * e2[2] / n, 2), 0.417});
      }
  // Bins of `depth` slots, unused ones q = 0 (depth: the fullest bin).
  std::vector<std::vector<Atom>> cell(size_t(kBx) * kBy * kBz);
  for (const Atom &at : atoms) {
    const int i = std::min(int(at.x / kBin), kBx - 1),
              j = std::min(int(at.y / kBin), kBy - 1),
              k = std::min(int(at.z / kBin), kBz - 1);
    cell[(size_t(k) * kBy + j) * kBx + i].push_back(at);
  }
  int depth = 0;
  for (auto &c : cell) depth = std::max(depth, int(c.size()));
  std::vector<Atom> bins(cell.size() * depth, Atom{0, 0, 0, 0});
  for (size_t c = 0; c < cell.size(); ++c)
    std::copy(cell[c].begin(), cell[c].end(), bins.begin() + c * depth);
  apps::Problem p;
  p.buffers = {apps::Buffer::out("lattice", kPoints * 8),
               apps::Buffer::input("bins", bins)};
  p.args = {apps::Arg::buf(0),     apps::Arg::buf(1),
            apps::Arg::i32(depth), apps::Arg::i32(kBx),
            apps::Arg::i32(kBy),   apps::Arg::i32(kBz),
            apps::Arg::i32(int(std::ceil(kCut / kBin))), apps::Arg::f64(kH),
            apps::Arg::f64(kCut * kCut), apps::Arg::f64(1 / (kCut * kCut))};
  p.block[0] = kPerBin, p.block[1] = kPerBin, p.block[2] = kPerBin / kPts;
  p.grid[0] = kBx, p.grid[1] = kBy, p.grid[2] = kBz;
  return p;
}

// Water's potential changes sign across the lattice: normalised L1 error
// sum|V - Vref| / sum|Vref| rather than a per-point relative error.
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  return apps::normalisedL1Of(apps::view<double>(ref, 0), apps::view<double>(out, 0),
                              kPoints);
}
} // namespace cut

AX_REGISTER_APP({"cut", "cutcp", "Molecular dynamics",
                 "8 A cutoff Coulomb potential of 14.2k water atoms on a 1.2M-point lattice",
                 "cut_lattice", "rsqrt",
                 "normalised L1 error of the potential lattice", true,
                 cut::make, cut::error, (const void *)cut_lattice,
                 ax::setHandLambda});
#endif
