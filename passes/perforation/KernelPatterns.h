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

#include <string>

namespace mlir::approx::perforation {

/// Axis 0 is the row (the thread's y), axis 1 the column (x).
gpu::Dimension dimOfAxis(int axis);

/// True when `v` is the thread's global coordinate along `axis`:
/// gpu.global_id, or block_id * block_dim + thread_id (either operand order
/// of each). With `allowConst`, a constant equal to the kernel's
/// known_block_size (`known`: X, Y, Z) stands for gpu.block_dim.
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
