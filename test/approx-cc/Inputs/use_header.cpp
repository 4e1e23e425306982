// A host program against approx-cc --emit-header's box_muller.h: compiled
// (not run) by header.test, so a change in the header's API breaks a test.
#include "box_muller.h"

int main() {
  auto ctx = approx::rt::Context::create();
  if (!ctx)
    return 1;
  auto m = approx_cc::box_muller::load(*ctx, ".");
  if (!m)
    return 1;
  if (!approx_cc::box_muller::set_lambda(**m, 32))
    return 1;
  float *u = nullptr;
  uint64_t z = 0;
  approx::rt::LaunchConfig cfg{{1, 1, 1}, {256, 1, 1}};
  return approx_cc::box_muller::box_muller(**m, cfg, u, u, z, z, 256) ? 0 : 1;
}
