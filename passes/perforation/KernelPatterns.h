//===- KernelPatterns.h - what the perforation passes recognise -*- C++ -*-===//
//
// Shared by approx-perforation-raise and approx-perforation-output: the
// thread's global coordinate in a plain kernel, and scheme names as pass
// options spell them (PerforationSchemeAttr::getShortName's form).
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PASSES_PERFORATION_KERNELPATTERNS_H
#define APPROX_PASSES_PERFORATION_KERNELPATTERNS_H

#include "approx/Dialect/ApproxDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::approx::perforation {

/// Axis 0 is the row (the thread's y), axis 1 the column (x).
gpu::Dimension dimOfAxis(int axis);

/// `v` seen through integer casts (index_cast, extsi / extui, llvm.sext /
/// zext): index arithmetic of CUDA front-door kernels is i32, widened to i64
/// for addresses.
Value stripIntCasts(Value v);

/// The operands of an integer add / sub / mul / and of arith or the LLVM
/// dialect defining `v` (CUDA front-door kernels keep LLVM's).
std::optional<std::pair<Value, Value>> matchAdd(Value v);
std::optional<std::pair<Value, Value>> matchSub(Value v);
std::optional<std::pair<Value, Value>> matchMul(Value v);
std::optional<std::pair<Value, Value>> matchAnd(Value v);

/// True when `v` is the thread's global coordinate along `axis`:
/// gpu.global_id, or block_id * block_dim + thread_id (either operand order
/// of each), in gpu ops on index or in NVVM special registers and LLVM
/// integer ops (CUDA's blockIdx.x * blockDim.x + threadIdx.x), through
/// integer casts. With `allowConst`, a constant equal to the kernel's
/// known_block_size (`known`: X, Y, Z) stands for the block size.
bool isThreadCoordinate(Value v, int axis, ArrayRef<int32_t> known,
                        bool allowConst);

/// Where a scheme is used: a tile load (accurate, rowsN, colsN, stencil,
/// each :nn or :linear) or output perforation (accurate, rowsN, colsN,
/// centerN).
enum class SchemeUse { TileLoad, Output };

/// Parses one short scheme name, spelled exactly as getShortName prints it;
/// on failure `why` says what is wrong, naming the scheme.
FailureOr<PerforationSchemeAttr> parseSchemeName(MLIRContext *ctx,
                                                 StringRef name, SchemeUse use,
                                                 std::string &why);

/// Parses a pass's `schemes` option: each name as parseSchemeName does
/// (`defaults` when `names` is empty), refusing duplicates.
FailureOr<SmallVector<PerforationSchemeAttr>>
parseSchemeList(MLIRContext *ctx, ArrayRef<std::string> names,
                ArrayRef<const char *> defaults, SchemeUse use,
                std::string &why);

} // namespace mlir::approx::perforation

#endif // APPROX_PASSES_PERFORATION_KERNELPATTERNS_H
