//===- PtxNames.h - which names can become PTX symbols ----------*- C++ -*-===//
//
// Knob, kernel and module names end up as PTX identifiers (and as file names).
// The NVPTX backend aborts on some characters and ptxas rejects others, so
// every name is checked here first and refused with a one-line reason.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_DIALECT_PTXNAMES_H
#define APPROX_DIALECT_PTXNAMES_H

#include "mlir/IR/Attributes.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::approx {

/// The longest identifier accepted (PTX asks implementations for at least
/// 1024 characters).
constexpr size_t kMaxPtxIdentifierLength = 1024;

/// True if `name` can be a PTX symbol that the NVPTX backend prints and
/// ptxas accepts: `[A-Za-z_$][A-Za-z0-9_$]*`, not the single character `_`
/// or `$`, not the predefined `WARP_SZ`, at most kMaxPtxIdentifierLength
/// characters. (PTX also allows a leading `%`, reserved for predefined and
/// compiler-generated names, which LLVM does not print: refused here.) On
/// failure `why` says what is wrong, e.g. "contains '-'".
bool isValidPtxIdentifier(llvm::StringRef name, std::string *why = nullptr);

/// `name` quoted for a diagnostic, with control and non-ASCII bytes escaped
/// as \xNN, so that a hostile name cannot write to the terminal. A name over
/// 200 bytes shows its first and last 96 with the count of those left out,
/// so that a diagnostic stays one readable line.
std::string quoteName(llvm::StringRef name);

/// `attr` as MLIR prints it, shortened as quoteName shortens a name: for a
/// diagnostic that shows what was found instead of what was expected.
std::string describeAttr(mlir::Attribute attr);

} // namespace mlir::approx

#endif // APPROX_DIALECT_PTXNAMES_H
