//===- CommandLine.cpp - approx-cc's options -------------------------------===//
//
// The options llvm::cl declared before, with the same spellings (--name X
// and --name=X, -o DIR, -Idir and -I dir, -DX=1 and -D X=1), without LLVM's
// own options and with one-line errors: llvm::cl printed two lines or more
// for an unknown option or a missing -o.
//
//===----------------------------------------------------------------------===//
#include "CommandLine.h"

#include "approx/Support/Cli.h"

namespace approxcc {

int parseCommandLine(int argc, char **argv, Options &o) {
  approx::cli::CommandLine cl{
      approx::cli::Tool{"approx-cc"},
      "approx-cc: tunable approximate PTX + manifest from a CUDA file"};
  cl.required(cl.text("FILE.cu", o.input, "the CUDA file"));
  cl.required(cl.text("-o", o.outputDir, "output directory"));
  cl.text("--name", o.name,
          "output name: DIR/NAME.ptx, DIR/NAME.manifest.json, and the "
          "gpu.module (default: the input's stem)");
  cl.text("--chip", o.chip, "target SM (default sm_90)");
  cl.text("--clang", o.clangPath,
          "CUDA device compiler (default: APPROX_CLANG, the build's "
          "clang++-22, then clang++-22 on PATH)");
  cl.text("--cuda-path", o.cudaPath,
          "CUDA toolkit root for clang (default: CUDA_PATH, then the build's "
          "toolkit)");
  cl.list("-I", o.includes, "include directory (-Idir or -I dir)");
  cl.list("-D", o.defines, "macro definition (-DNAME=VALUE or -D NAME=VALUE)");
  cl.text("--approx-options", o.pipelineOptions,
          "more approx-to-ptx options, as one string (\"knob=lambda "
          "functions=exp,sin\"; see docs/pipeline.md)");
  cl.flag("--emit-header", o.emitHeader,
          "also write DIR/NAME.h: typed C++ wrappers over the runtime (load, "
          "set each knob, launch each kernel)");
  cl.flag("--emit-raised", o.keepIR,
          "also write DIR/NAME.raised.mlir, the module approx-to-ptx starts "
          "from");
  cl.unsignedInteger("--time-limit", o.timeLimit, 1, 86400,
             "seconds the whole run may take, clang included (default 600)");
  cl.unsignedInteger("--memory-limit", o.memoryLimit, 0, 1u << 24,
             "MiB of memory clang, and then approx-cc, may each use (default "
             "16384; 0: no limit)");
  return cl.parse(argc, argv);
}

} // namespace approxcc
