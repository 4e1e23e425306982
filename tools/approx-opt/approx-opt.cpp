//===- approx-opt.cpp - the approx compiler driver ------------------------===//
//
// mlir-opt with the approx dialect, passes and approx-to-ptx pipeline, and
// the upstream pieces of the GPU -> NVVM -> PTX path. Typical use:
//
//   approx-opt kernel.mlir --approx-to-ptx="chip=sm_90 output-dir=out"
//
// Errors are one line each: MLIR's habit of printing the whole failing
// operation under every diagnostic (which for a module-level error is the
// whole module, megabytes of it) is off unless `--approx-debug` (or an
// explicit `--mlir-print-op-on-diagnostic`) asks for it. Stderr passes a
// filter (StderrFilter.h) that escapes control bytes and cuts long lines;
// `--approx-debug` or APPROX_RAW_STDERR=1 leaves it raw (and the tool in one
// process, for a debugger).
//
//===----------------------------------------------------------------------===//

#include "StderrFilter.h"
#include "approx/InitApprox.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <vector>

// The input must be stdin or a regular file no larger than this (MiB;
// APPROX_MAX_INPUT_MIB overrides). MLIR reads the whole input into memory
// and a device such as /dev/zero never ends: refuse it instead of running
// out of memory.
static constexpr uint64_t kDefaultMaxInputMiB = 512;

static bool checkInput(llvm::StringRef input) {
  if (input == "-")
    return true;
  llvm::sys::fs::file_status st;
  if (std::error_code ec = llvm::sys::fs::status(input, st)) {
    llvm::errs() << "approx-opt: error: cannot open input '" << input
                 << "': " << ec.message() << "\n";
    return false;
  }
  if (st.type() != llvm::sys::fs::file_type::regular_file) {
    llvm::errs() << "approx-opt: error: input '" << input
                 << "' is not a regular file\n";
    return false;
  }
  uint64_t maxMiB = kDefaultMaxInputMiB;
  if (const char *env = std::getenv("APPROX_MAX_INPUT_MIB")) {
    // Strict: a decimal count of MiB, 1 to 2^40; anything else is an error,
    // not the default.
    llvm::StringRef text(env);
    unsigned long long v = 0;
    if (text.empty() || !llvm::all_of(text, llvm::isDigit) ||
        text.getAsInteger(10, v) || v == 0 || v > (1ull << 40)) {
      llvm::errs() << "approx-opt: error: APPROX_MAX_INPUT_MIB='" << text
                   << "' is not a number of MiB in [1, 2^40]\n";
      return false;
    }
    maxMiB = v;
  }
  if (st.getSize() > maxMiB * 1024 * 1024) {
    llvm::errs() << "approx-opt: error: input '" << input << "' is "
                 << st.getSize() / (1024 * 1024) << " MiB, above the limit of "
                 << maxMiB << " MiB (set APPROX_MAX_INPUT_MIB to raise it)\n";
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  std::vector<char *> args;
  bool debug = false, explicitPrintOp = false;
  static char quiet[] = "--mlir-print-op-on-diagnostic=false";
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--approx-debug" || arg == "-approx-debug") {
      debug = true;
      continue;
    }
    explicitPrintOp |= arg.contains("mlir-print-op-on-diagnostic");
    args.push_back(argv[i]);
  }
  if (!debug && !explicitPrintOp)
    args.insert(args.begin() + 1, quiet);
  llvm::setBugReportMsg(
      "approx-opt crashed. If mlir-opt-22 crashes on the same input, the bug "
      "is upstream (docs/robustness.md lists the known ones); otherwise "
      "please report it to approx with the input and the command line.\n");
  const char *raw = std::getenv("APPROX_RAW_STDERR");
  if (!debug && !(raw && *raw && llvm::StringRef(raw) != "0"))
    if (std::optional<int> parentExit = approx::runWithFilteredStderr())
      return *parentExit;
  // LLVM's fatal errors (a write to a full disk: "IO failure on output
  // stream") as one line; LLVM then removes the output file it registered
  // and exits with status 1.
  llvm::install_fatal_error_handler([](void *, const char *reason, bool) {
    llvm::errs() << "approx-opt: error: " << reason << "\n";
    llvm::errs().flush();
  });
  int newArgc = static_cast<int>(args.size());
  args.push_back(nullptr);

  mlir::DialectRegistry registry;
  mlir::approx::registerApproxCompilerDependencies(registry);
  mlir::approx::registerApproxPassesAndPipelines();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      newArgc, args.data(),
      "approx compiler: tunable approximation of GPU kernels\n"
      "  --approx-debug   keep MLIR's dump of the failing operation under "
      "each diagnostic\n",
      registry);
  if (!checkInput(input))
    return EXIT_FAILURE;
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(newArgc, args.data(), input, output, registry));
}
