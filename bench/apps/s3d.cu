// s3d.cu - S3D (Table 6): reverse rate constants of the 25 H2/O2 reactions
// of a combustion mechanism at every grid point (double precision), SHOC
// S3D's ratt2_kernel rewritten for this suite.
#include "ax.cuh"

namespace s3d {
enum Species { H2, H, O, O2, OH, H2O, HO2, H2O2, kSpecies, None = -1 };

// One reaction a + b = c + d (b, d may be None): k_r = k_f / K_c with
// 1/K_c = Π EG(reactants) / Π EG(products) · (p_atm / RT)^(−Δn), where
// EG = exp(−G°/RT) comes from the thermodynamics kernel and k_f from the
// Arrhenius kernel. The clamp keeps k_r finite as in S3D.
template <class M>
__device__ __forceinline__ void
reverse(double *rb, const double *rf, const double *eg, double pfac, size_t n,
        int i, int j, int a, int b, int c, int d) {
  const double kSmallInv = 1e37;
  double num = eg[a] * (b == None ? 1.0 : eg[b]);
  double den = eg[c] * (d == None ? 1.0 : eg[d]);
  int dn = (d != None) - (b != None); // change in moles, −1, 0 or 1
  if (dn < 0)
    num *= pfac;
  if (dn > 0)
    den *= pfac;
  rb[j * n + i] = rf[j * n + i] * fmin(M::div(num, den), kSmallInv);
}

template <class M>
__device__ __forceinline__ void ratt2(double *rb, const double *rf,
                                      const double *egAll, const double *t,
                                      double tconv, int n, int i) {
  const double ru = 8.31451e7, patm = 1.01325e6; // erg/(mol K), dyn/cm^2
  double eg[kSpecies];
  for (int k = 0; k < kSpecies; ++k)
    eg[k] = egAll[size_t(k) * n + i];
  const double pfac = M::div(patm, ru * (t[i] * tconv)); // mol/cm^3
  // The H2/O2 core (Li et al. style). H2 + M = 2H + M and H + O2 + M = HO2
  // + M appear four times each (rate expressions per collision partner), as
  // in real mechanisms and in ratt2 (26 divisions per point).
  reverse<M>(rb, rf, eg, pfac, n, i, 0, H, O2, O, OH);
  reverse<M>(rb, rf, eg, pfac, n, i, 1, O, H2, H, OH);
  reverse<M>(rb, rf, eg, pfac, n, i, 2, OH, H2, H, H2O);
  reverse<M>(rb, rf, eg, pfac, n, i, 3, O, H2O, OH, OH);
  reverse<M>(rb, rf, eg, pfac, n, i, 4, H2, None, H, H);
  reverse<M>(rb, rf, eg, pfac, n, i, 5, H2, None, H, H);
  reverse<M>(rb, rf, eg, pfac, n, i, 6, H2, None, H, H);
  reverse<M>(rb, rf, eg, pfac, n, i, 7, H2, None, H, H);
  reverse<M>(rb, rf, eg, pfac, n, i, 8, H, OH, H2O, None);
  reverse<M>(rb, rf, eg, pfac, n, i, 9, O, H, OH, None);
  reverse<M>(rb, rf, eg, pfac, n, i, 10, O, O, O2, None);
  reverse<M>(rb, rf, eg, pfac, n, i, 11, H, O2, HO2, None);
  reverse<M>(rb, rf, eg, pfac, n, i, 12, H, O2, HO2, None);
  reverse<M>(rb, rf, eg, pfac, n, i, 13, H, O2, HO2, None);
  reverse<M>(rb, rf, eg, pfac, n, i, 14, H, O2, HO2, None);
  reverse<M>(rb, rf, eg, pfac, n, i, 15, OH, OH, H2O2, None);
  reverse<M>(rb, rf, eg, pfac, n, i, 16, HO2, H, H2, O2);
  reverse<M>(rb, rf, eg, pfac, n, i, 17, HO2, H, OH, OH);
  reverse<M>(rb, rf, eg, pfac, n, i, 18, HO2, O, O2, OH);
  reverse<M>(rb, rf, eg, pfac, n, i, 19, HO2, OH, H2O, O2);
  reverse<M>(rb, rf, eg, pfac, n, i, 20, HO2, HO2, H2O2, O2);
  reverse<M>(rb, rf, eg, pfac, n, i, 21, H2O2, H, H2O, OH);
  reverse<M>(rb, rf, eg, pfac, n, i, 22, H2O2, H, HO2, H2);
  reverse<M>(rb, rf, eg, pfac, n, i, 23, H2O2, O, OH, HO2);
  reverse<M>(rb, rf, eg, pfac, n, i, 24, H2O2, OH, HO2, H2O);
}
} // namespace s3d

extern "C" __global__ void s3d_ratt2(double *rb, const double *rf,
                                     const double *eg, const double *t,
                                     double tconv, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    AX_VERSIONED(s3d::ratt2, rb, rf, eg, t, tconv, n, i);
}

#if defined(AX_LISTING3) && !defined(__CUDA_ARCH__)
#include "App.h"
#include <cmath>
#include <random>

namespace s3d {
// A 112^3 grid (SHOC's largest is 48^3 per GPU): per point 8 + 64 bytes of
// T and EG, 25 · 16 bytes of k_f and k_r, 660 MB of traffic, ~0.22 ms on an
// H100; memory-bound as the original.
constexpr int kEdge = 112, kPoints = kEdge * kEdge * kEdge, kReactions = 25;

apps::Problem make(uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  // Temperature: a wrinkled premixed H2-air flame front across x, 300 K
  // unburnt to 2400 K burnt, with small turbulent fluctuations.
  const double kx = 2 + 2 * u01(g), ky = 1 + 2 * u01(g), ph = 6.3 * u01(g);
  std::normal_distribution<double> jitter(0, 0.01);
  std::vector<double> t(kPoints);
  for (int z = 0, i = 0; z < kEdge; ++z)
    for (int y = 0; y < kEdge; ++y)
      for (int x = 0; x < kEdge; ++x, ++i) {
        double fy = double(y) / kEdge, fz = double(z) / kEdge;
        double front = 0.5 + 0.1 * std::sin(2 * M_PI * kx * fy + ph) *
                                 std::cos(2 * M_PI * ky * fz);
        double c = 0.5 * (1 + std::tanh((double(x) / kEdge - front) / 0.04));
        t[i] = (300 + 2100 * c) * (1 + jitter(g));
      }
  // EG = exp(−G°/RT) from 298 K formation enthalpy H/R [K], entropy S/R
  // and a constant cp/R per species (what S3D's thermodynamics kernel fits
  // with NASA polynomials).
  const double thermo[kSpecies][3] = {
      {0, 15.72, 3.47},    {26219, 13.80, 2.50}, {29974, 19.38, 2.50},
      {0, 24.67, 3.70},    {4486, 22.10, 3.50},  {-29083, 22.71, 4.40},
      {1443, 27.54, 4.50}, {-16370, 27.99, 5.80}};
  std::vector<double> eg(size_t(kSpecies) * kPoints);
  for (int k = 0; k < kSpecies; ++k)
    for (int i = 0; i < kPoints; ++i) {
      double T = t[i], h = thermo[k][0], s = thermo[k][1], cp = thermo[k][2];
      eg[size_t(k) * kPoints + i] =
          std::exp(s + cp * std::log(T / 298) - h / T - cp * (1 - 298 / T));
    }
  // k_f = A T^β exp(−Ea/RT), parameters in the usual ranges (cgs units).
  std::vector<double> rf(size_t(kReactions) * kPoints);
  for (int j = 0; j < kReactions; ++j) {
    double lnA = std::log(10) * (10 + 6 * u01(g)), beta = -1.5 + 4 * u01(g),
           ea = 25000 * u01(g) * u01(g);
    for (int i = 0; i < kPoints; ++i)
      rf[size_t(j) * kPoints + i] =
          std::exp(lnA + beta * std::log(t[i]) - ea / t[i]);
  }
  apps::Problem p;
  p.buffers = {apps::Buffer::out("rb", rf.size() * 8),
               apps::Buffer::input("rf", rf), apps::Buffer::input("eg", eg),
               apps::Buffer::input("t", t)};
  p.args = {apps::Arg::buf(0), apps::Arg::buf(1),   apps::Arg::buf(2),
            apps::Arg::buf(3), apps::Arg::f64(1.0), apps::Arg::i32(kPoints)};
  p.block[0] = 128;
  p.grid[0] = (kPoints + 127) / 128;
  return p;
}

// Mean relative error of the reverse rate constants (positive, spanning
// hundreds of decades, so only a relative measure is meaningful).
double error(const apps::Problem &, const apps::Outputs &ref,
             const apps::Outputs &out) {
  return apps::meanRelativeOf(apps::view<double>(ref, 0), apps::view<double>(out, 0),
                              size_t(kReactions) * kPoints);
}
} // namespace s3d

AX_REGISTER_APP({"s3d", "s3d", "Simulation",
                 "reverse rates of 25 H2/O2 reactions on a 112^3 grid (double)",
                 "s3d_ratt2", "div", "mean relative error of the reverse rates",
                 true, s3d::make, s3d::error, (const void *)s3d_ratt2,
                 ax::setHandLambda});
#endif
