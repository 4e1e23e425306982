//===- Cli.h - Options shared by approx-hrcs and approx-hrcs-mpi -*- C++ -*-===//
#ifndef APPROX_HRCS_TOOL_CLI_H
#define APPROX_HRCS_TOOL_CLI_H

#include "approx/hrcs/Search.h"

#include <memory>
#include <string>
#include <vector>

namespace approx::hrcs {

/// Everything the command line sets.
struct Cli {
  SearchParams sp;
  RunOptions ro;
  std::string backend = "cpu";
  bool check = false, checkGpu = false;
  int device = 0, maxIntervalBits = 0;
  /// --devices: several GPUs of this node at once (approx-hrcs only).
  std::vector<int> devices;
};

/// Parses argv into `c` (approx/Support/Cli.h). Returns -1 to go on, else
/// the exit status (0 after --help; 2 after a one-line error on stderr,
/// prefixed with `tool`).
int parseCli(int argc, char **argv, const char *tool, Cli &c);

/// The backend `c` asks for, on CUDA device `device`; nullptr after a
/// one-line error (then `status` is the exit status).
std::unique_ptr<Backend> makeBackend(const Cli &c, int device,
                                     const char *tool, int &status);
/// The backend of approx-hrcs: makeBackend's, or with --devices a
/// SplitBackend over one GPU backend per device.
std::unique_ptr<Backend> makeBackends(const Cli &c, const char *tool,
                                      int &status);

/// The per-phase table (the paper's Tables 5 and 6) on stdout.
void printReport(const Plan &plan, const Cli &c, const char *backend,
                 const PhaseStats &s, size_t cases, double seconds,
                 const std::string &wcPath);

} // namespace approx::hrcs

#endif
