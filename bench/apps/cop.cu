// cop.cu - COP (Table 6): direct Coulomb summation of a chunk of atoms onto a
// 2-D slice of an electrostatic potential lattice, Parboil/VMD cp's cenergy
// kernel rewritten for this suite.
#include "ax.cuh"

namespace cop {
// Lattice points per thread along x, blockDim.x apart (coalesced stores); they
// share the atom's dy^2 + dz^2, as cp's unrolled kernel does.
constexpr int kUnroll = 4;

// V(p) = sum_a q_a / |p - r_a| at kUnroll points of row y of slice z.
template <class M>
__device__ __forceinline__ void cenergy(float *grid, const float4 *atoms,
                                        int natoms, int nx, float spacing,
                                        float z, int x0, int y) {
  float e[kUnroll] = {};
  const float py = y * spacing;
  for (int a = 0; a < natoms; ++a) {
    const float4 at = atoms[a]; // (x, y, z, q); same atom for every thread
    const float dy = py - at.y, dz = z - at.z, dyz2 = dy * dy + dz * dz;
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const float dx = (x0 + k * blockDim.x) * spacing - at.x;
      e[k] += at.w * M::rsqrt(dx * dx + dyz2);
    }
  }
#pragma unroll
  for (int k = 0; k < kUnroll; ++k)
    if (x0 + k * int(blockDim.x) < nx)
      grid[size_t(y) * nx + x0 + k * blockDim.x] = e[k];
}
} // namespace cop

// One block covers kUnroll * blockDim.x by blockDim.y lattice points; 16
// blocks of 128 per SM run the 2048 blocks in one wave on an H100.
extern "C" __global__ void __launch_bounds__(128, 16) cop_cenergy(float *grid, const float4 *atoms,
                                       int natoms, int nx, int ny,
                                       float spacing, float z) {
  const int x0 = blockIdx.x * blockDim.x * cop::kUnroll + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y < ny && x0 < nx)
    AX_VERSIONED(cop::cenergy, grid, atoms, natoms, nx, spacing, z, x0, y);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace cop {
constexpr int kNx = 1024, kNy = 1024; // 0.1 A spacing: a 102.4 A square slice
constexpr float kSpacing = 0.1f, kDepth = 40.0f;
constexpr int kWaters = 680, kIons = 8; // one 2048-atom chunk (cp streams chunks)
constexpr int kAtoms = 3 * kWaters + kIons;

apps::Problem make(uint64_t seed) {
  // A solvated box: TIP3P-like waters (O -0.834 e, H +0.417 e at 0.9572 A,
  // 104.52 degrees, random orientation) and Na+/Cl- ions, uniformly placed in
  // a 102.4 x 102.4 x 40 A box; the slice cuts through its middle.
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> ux(0, kNx * kSpacing),
      uy(0, kNy * kSpacing), uz(0, kDepth), u(-1, 1);
  std::vector<float4> atoms;
  auto unit = [&] {
    float v[3], n2;
    do {
      v[0] = u(g), v[1] = u(g), v[2] = u(g);
      n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    } while (n2 < 1e-4f || n2 > 1);
    const float s = 1 / std::sqrt(n2);
    return float3{v[0] * s, v[1] * s, v[2] * s};
  };
  for (int w = 0; w < kWaters; ++w) {
    const float4 o{ux(g), uy(g), uz(g), -0.834f};
    float3 a = unit(), b = unit(); // b: orthogonalised against a
    const float d = a.x * b.x + a.y * b.y + a.z * b.z;
    b = {b.x - d * a.x, b.y - d * a.y, b.z - d * a.z};
    const float bn = 1 / std::sqrt(b.x * b.x + b.y * b.y + b.z * b.z);
    const float half = 0.5f * 104.52f * 3.14159265f / 180, r = 0.9572f;
    const float ca = r * std::cos(half), sb = r * std::sin(half) * bn;
    atoms.push_back(o);
    atoms.push_back({o.x + ca * a.x + sb * b.x, o.y + ca * a.y + sb * b.y,
                     o.z + ca * a.z + sb * b.z, 0.417f});
    atoms.push_back({o.x + ca * a.x - sb * b.x, o.y + ca * a.y - sb * b.y,
                     o.z + ca * a.z - sb * b.z, 0.417f});
  }
  for (int i = 0; i < kIons; ++i)
    atoms.push_back({ux(g), uy(g), uz(g), i % 2 ? -1.0f : 1.0f});
  apps::Problem p;
  p.buffers = {apps::Buffer::out("potential", size_t(kNx) * kNy * 4),
               apps::Buffer::input("atoms", atoms)};
  // z offset by a fraction of the spacing: no atom sits exactly on the slice.
  p.args = {apps::Arg::buf(0),      apps::Arg::buf(1),
            apps::Arg::i32(kAtoms), apps::Arg::i32(kNx),
            apps::Arg::i32(kNy),    apps::Arg::f32(kSpacing),
            apps::Arg::f32(0.5f * kDepth + 0.0137f)};
  p.block[0] = 16, p.block[1] = 8; // 1M points / 4 = 2048 blocks of 128
  p.grid[0] = kNx / (16 * kUnroll), p.grid[1] = kNy / 8;
  return p;
}

// The potential of neutral water changes sign across the slice, so a
// per-point relative error is dominated by points near V = 0: use the
// normalised L1 error sum|V - Vref| / sum|Vref| over the slice.
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  return apps::normalisedL1Of(apps::view<float>(ref, 0), apps::view<float>(out, 0),
                              size_t(kNx) * kNy);
}
} // namespace cop

AX_REGISTER_APP({"cop", "cp", "Molecular dynamics",
                 "Coulomb potential of 2048 atoms on a 1024x1024 lattice slice",
                 "cop_cenergy", "rsqrt",
                 "normalised L1 error of the potential slice", false,
                 cop::make, cop::error, (const void *)cop_cenergy,
                 ax::setHandLambda});
#endif
