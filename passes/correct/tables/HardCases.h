//===- HardCases.h - the tables of form(correct), as C++ arrays -*- C++ -*-===//
//
// One array per function of the *.inc files beside this header (written by
// tools/approx-cr-tables: do not edit them), shared by the lowering and its
// CPU test.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_PASSES_CORRECT_TABLES_HARDCASES_H
#define APPROX_PASSES_CORRECT_TABLES_HARDCASES_H

#include <cstdint>

namespace approx::correct {

/// One hard case: x's bits and the correctly rounded f(x)'s bits; x bits
/// ascending in each table.
struct HardCase {
  uint32_t x, result;
};

inline constexpr HardCase kExpF32[] = {
#include "exp_f32.inc"
};
inline constexpr HardCase kExp2F32[] = {
#include "exp2_f32.inc"
};
inline constexpr HardCase kLogF32[] = {
#include "log_f32.inc"
};
inline constexpr HardCase kLog2F32[] = {
#include "log2_f32.inc"
};

} // namespace approx::correct

#endif
