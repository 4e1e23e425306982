// cfd.cu - CFD (Table 6): the local time-step factor of every cell of a
// compressible Euler flow (double precision), Rodinia cfd's
// compute_step_factor rewritten for this suite.
#include "ax.cuh"

namespace cfd {
constexpr double kGamma = 1.4;

// Per cell, from the conserved variables (density ρ, momentum ρv, total
// energy ρE; stored variable-major as in Rodinia): velocity v = ρv / ρ,
// pressure p = (γ − 1)(ρE − ρ|v|²/2), speed of sound c = sqrt(γp / ρ), and
// the CFL step factor 0.5 / (sqrt(area) · (|v| + c)).
template <class M>
__device__ __forceinline__ void stepFactor(double *step, const double *vars,
                                           const double *areas, int nelr,
                                           int i) {
  double rho = vars[i];
  double vx = M::div(vars[i + nelr], rho);
  double vy = M::div(vars[i + 2 * nelr], rho);
  double vz = M::div(vars[i + 3 * nelr], rho);
  double rhoE = vars[i + 4 * nelr];
  double speedSqd = vx * vx + vy * vy + vz * vz;
  double p = (kGamma - 1) * (rhoE - 0.5 * rho * speedSqd);
  double c = M::sqrt(M::div(kGamma * p, rho));
  // 0.5 · rcp(x) is 0.5 / x exactly in the precise build.
  step[i] = 0.5 * M::rcp(M::sqrt(areas[i]) * (M::sqrt(speedSqd) + c));
}
} // namespace cfd

extern "C" __global__ void cfd_step_factor(double *step, const double *vars,
                                           const double *areas, int nelr) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nelr)
    AX_VERSIONED(cfd::stepFactor, step, vars, areas, nelr, i);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace cfd {
// 10^7 cells (Rodinia's largest mesh has 0.2M): 7 doubles each, 560 MB of
// traffic, ~0.2 ms on an H100, memory-bound as the original.
constexpr int kBlock = 192, kCells = kBlock * 52084;

apps::Problem make(uint64_t seed) {
  // Cells of an unstructured mesh around a sphere of radius R, graded from
  // fine at the wall to coarse in the far field; the flow is Rodinia's free
  // stream (ρ 1.4, p 1, Mach 1.2) bent around the body by the potential flow
  // of a sphere, with density and pressure following it isentropically, plus
  // 1% noise.
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  std::normal_distribution<double> noise(0, 0.01);
  const double R = 0.2, rhoInf = 1.4, pInf = 1.0, mach = 1.2;
  const double uInf = mach * std::sqrt(kGamma * pInf / rhoInf);
  std::vector<double> vars(size_t(kCells) * 5), area(kCells);
  for (int i = 0; i < kCells; ++i) {
    double r = R * std::pow(10.0, u01(g)); // R .. 10R, denser near the wall
    double cz = 2 * u01(g) - 1, ph = 2 * M_PI * u01(g);
    double sz = std::sqrt(1 - cz * cz);
    double n[3] = {sz * std::cos(ph), sz * std::sin(ph), cz}; // r̂
    double k = R * R * R / (r * r * r);
    // v = U∞ (x̂ (1 + k/2) − 1.5 k (x̂·r̂) r̂)
    double v[3];
    for (int d = 0; d < 3; ++d)
      v[d] = uInf * ((d == 0 ? 1 + 0.5 * k : 0) - 1.5 * k * n[0] * n[d]) *
             (1 + noise(g));
    double q2 = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) / (uInf * uInf);
    double tRatio = 1 + 0.5 * (kGamma - 1) * mach * mach * (1 - q2);
    double rho = rhoInf * std::pow(tRatio, 1 / (kGamma - 1)) * (1 + noise(g));
    double p = pInf * std::pow(tRatio, kGamma / (kGamma - 1));
    double speed2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    vars[i] = rho;
    for (int d = 0; d < 3; ++d)
      vars[i + size_t(d + 1) * kCells] = rho * v[d];
    vars[i + size_t(4) * kCells] = p / (kGamma - 1) + 0.5 * rho * speed2;
    double h = 0.01 * r * (0.8 + 0.4 * u01(g)); // cell size grows with r
    area[i] = h * h * h;
  }
  apps::Problem p;
  p.buffers = {apps::Buffer::out("step_factors", size_t(kCells) * 8),
               apps::Buffer::input("variables", vars),
               apps::Buffer::input("areas", area)};
  p.args = {apps::Arg::buf(0), apps::Arg::buf(1), apps::Arg::buf(2),
            apps::Arg::i32(kCells)};
  p.block[0] = kBlock; // Rodinia's block size for this kernel
  p.grid[0] = kCells / kBlock;
  return p;
}

// Mean relative error of the step factors (all positive, ~60..6500 here).
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  return apps::meanRelativeOf(apps::view<double>(ref, 0),
                              apps::view<double>(out, 0), kCells);
}
} // namespace cfd

AX_REGISTER_APP({"cfd", "cfd", "Simulation",
                 "CFL step factors of 10M cells of an Euler flow (double)",
                 "cfd_step_factor", "sqrt, rcp, div",
                 "mean relative error of the step factors", true, cfd::make,
                 cfd::error, (const void *)cfd_step_factor, ax::setHandLambda});
#endif
