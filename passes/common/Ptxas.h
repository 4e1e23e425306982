//===- Ptxas.h - finding and running the CUDA toolkit's ptxas -*- C++ -*-===//
//
// approx-export (cubin=) and approx-occupancy-cap both run ptxas on PTX the
// pipeline made. Private to passes/.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_PASSES_COMMON_PTXAS_H
#define APPROX_PASSES_COMMON_PTXAS_H

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>

namespace mlir::approx {

/// The ptxas to run: `option`, else $CUDA_PATH/bin/ptxas, the build-time
/// default, then PATH; "" when none is found.
std::string findPtxas(llvm::StringRef option);

/// Runs `ptxas -arch chip [extra] -o output input`; "" on success, else one
/// line naming `displayName` and ptxas' first error line. `log` (may be
/// null) gets ptxas' whole output.
std::string runPtxas(llvm::StringRef ptxas, llvm::StringRef chip,
                     llvm::StringRef input, llvm::StringRef output,
                     llvm::StringRef displayName, bool verbose = false,
                     std::string *log = nullptr);

/// What `ptxas -v` says of one entry function.
struct PtxasEntryInfo {
  unsigned registers = 0;
  unsigned spillStoreBytes = 0, spillLoadBytes = 0;
};

/// The entries of a `ptxas -v` log, by name.
std::map<std::string, PtxasEntryInfo> parsePtxasInfo(llvm::StringRef log);

} // namespace mlir::approx

#endif // APPROX_PASSES_COMMON_PTXAS_H
