//===- CommandLine.h - approx-cc's options ----------------------*- C++ -*-===//
//
// approx-cc's command line, read by CLI11 through approx/Support/Cli.h in a
// translation unit of its own: CLI11 throws, and the rest of approx-cc is
// built as LLVM is, without exceptions.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TOOLS_APPROX_CC_COMMANDLINE_H
#define APPROX_TOOLS_APPROX_CC_COMMANDLINE_H

#include <string>
#include <vector>

namespace approxcc {

/// Everything on the command line (--help documents each).
struct Options {
  std::string input;     ///< FILE.cu
  std::string outputDir; ///< -o DIR
  std::string name;      ///< --name; "": the input's stem
  std::string chip = "sm_90";
  std::string clangPath, cudaPath; ///< --clang, --cuda-path
  std::vector<std::string> includes, defines; ///< -I, -D (repeatable)
  std::string pipelineOptions; ///< --approx-options
  bool emitHeader = false;     ///< --emit-header
  bool keepIR = false;         ///< --emit-raised
  unsigned timeLimit = 600;    ///< --time-limit, seconds for the whole run
  unsigned memoryLimit = 16384; ///< --memory-limit, MiB per process; 0: none
};

/// Parses argv into `o`: -1 to go on, else the exit status (0 after
/// printing --help, 2 after a one-line usage error `approx-cc: ...`).
int parseCommandLine(int argc, char **argv, Options &o);

} // namespace approxcc

#endif // APPROX_TOOLS_APPROX_CC_COMMANDLINE_H
