//===- HostHeader.h - A C++ header for approx-cc's output -------*- C++ -*-===//
//
// `approx-cc --emit-header` writes DIR/NAME.h: typed wrappers over the
// runtime's C++ API for one manifest, so a CUDA host program loads the
// module, sets its knobs and launches each kernel in three lines, with the
// kernel's own parameter types checked by the C++ compiler.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TOOLS_APPROX_CC_HOSTHEADER_H
#define APPROX_TOOLS_APPROX_CC_HOSTHEADER_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace approxcc {

/// The header for `manifest` (an approx-manifest v2 object) written as
/// NAME.manifest.json; `source` names the input in the banner. Fails on a
/// manifest without kernels or with an argument kind it cannot type.
llvm::Expected<std::string> generateHostHeader(const llvm::json::Object &manifest,
                                               llvm::StringRef name,
                                               llvm::StringRef source);

} // namespace approxcc

#endif
