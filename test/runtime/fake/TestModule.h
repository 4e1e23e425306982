//===- TestModule.h - A PTX + manifest pair for the fake driver -*- C++ -*-===//
//
// One small module shared by the fake-driver tests: four entries (scale,
// scale_p, half, fault), a knob of every kind and path, and a variant
// dispatch (logical name `run`). The PTX only declares what the fake scans:
// entries with their parameters, and globals.
//
//   lambda  global,   path global, i32 [0, 64], warp slot hw
//   mu      global,   path param,  i32 [0, 64], default 2
//   table   resource, path global, 2 tables (2x1x1, 2x2x2), linear, border
//   tab2    resource, path param,  1 table (1x1x4), point, wrap, normalized
//   prec    variant,  run -> scale (0) | half (1)
//
//   scale(memref<?xf32>, i32)                       reads lambda table prec
//   scale_p(memref<?xf32>, i32) + knobs mu, tab2    reads mu tab2
//   half(memref<8xf64> bare, i64)                   reads prec
//   fault(memref<?xf32>, i32)                       reads lambda
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TEST_RUNTIME_FAKE_TESTMODULE_H
#define APPROX_TEST_RUNTIME_FAKE_TESTMODULE_H

#include <nlohmann/json.hpp>

#include <string>

namespace approx::rt::fake {

/// The module's PTX text.
extern const char *const kTestPtx;

/// The module's manifest (version 2), naming "fake.ptx".
nlohmann::json testManifest();

} // namespace approx::rt::fake

#endif // APPROX_TEST_RUNTIME_FAKE_TESTMODULE_H
