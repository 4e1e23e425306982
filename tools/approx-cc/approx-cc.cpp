//===- approx-cc.cpp - the CUDA front door --------------------------------===//
//
// approx-cc FILE.cu -o DIR [--name NAME] [--chip sm_90] [--approx-options
// "approx-to-ptx options"]: compiles the device code of an unmodified CUDA
// file with clang, imports the LLVM IR as MLIR, raises it (kernels to
// gpu.func, libdevice calls to math ops) and runs approx-to-ptx, which
// writes DIR/NAME.ptx and DIR/NAME.manifest.json all-or-nothing. Each
// failure is one line naming the cause; nothing is written then. A bad
// command line is one line and exit status 2 (approx/Support/Cli.h, CLI11);
// any other failure exit status 1.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/InitApprox.h"
#include "approx/Passes/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMIRToLLVMTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/LLVMIRToNVVMTranslation.h"
#include "mlir/Target/LLVMIR/Import.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "CommandLine.h"
#include "HostHeader.h"
#include <cstdlib>
#include <unistd.h>

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <optional>
#include <string>

using namespace mlir;

/// The command line (CommandLine.h), read once in main().
static approxcc::Options opts;

[[noreturn]] static void die(const llvm::Twine &msg) {
  llvm::errs() << "approx-cc: error: " << msg << "\n";
  std::exit(EXIT_FAILURE);
}

/// Writes DIR/NAME.h from the manifest approx-to-ptx just wrote (through a
/// temporary, renamed: a failure leaves no header).
static void writeHeader(const std::string &dir, const std::string &base,
                        const std::string &source) {
  std::string manifestPath = dir + "/" + base + ".manifest.json";
  auto text = llvm::MemoryBuffer::getFile(manifestPath);
  if (!text)
    die("cannot read " + approx::quoteName(manifestPath));
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*text)->getBuffer());
  if (!json || !json->getAsObject()) {
    if (!json)
      llvm::consumeError(json.takeError());
    die("cannot parse " + approx::quoteName(manifestPath));
  }
  llvm::Expected<std::string> header = approxcc::generateHostHeader(
      *json->getAsObject(), base, llvm::sys::path::filename(source));
  if (!header)
    die("cannot write the header: " + llvm::toString(header.takeError()));
  std::string path = dir + "/" + base + ".h";
  llvm::SmallString<128> tmp;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          dir + "/." + base + ".h-%%%%%%%%.tmp", fd, tmp))
    die("cannot write in " + approx::quoteName(dir) + ": " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << *header;
    os.close();
    if (os.has_error()) {
      llvm::sys::fs::remove(tmp);
      die("cannot write " + approx::quoteName(path));
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    die("cannot write " + approx::quoteName(path) + ": " + ec.message());
  }
}

/// The clang to run: option, APPROX_CLANG, the build's, PATH.
static std::string findClang() {
  if (!opts.clangPath.empty())
    return opts.clangPath;
  if (const char *env = std::getenv("APPROX_CLANG"); env && *env)
    return env;
  if (llvm::StringRef(APPROX_DEFAULT_CLANG).size() &&
      llvm::sys::fs::can_execute(APPROX_DEFAULT_CLANG))
    return APPROX_DEFAULT_CLANG;
  if (auto p = llvm::sys::findProgramByName("clang++-22"))
    return *p;
  return "";
}

static std::string findCudaRoot() {
  if (!opts.cudaPath.empty())
    return opts.cudaPath;
  if (const char *env = std::getenv("CUDA_PATH"); env && *env)
    return env;
  return APPROX_DEFAULT_CUDA_ROOT;
}

/// `line` safe for a terminal and one line long: control bytes as \xNN,
/// at most 400 bytes.
static std::string sanitize(llvm::StringRef line) {
  std::string out;
  for (char c : line.take_front(400)) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      out += llvm::formatv("\\x{0:x-2}", static_cast<unsigned char>(c)).str();
    else
      out += c;
  }
  if (line.size() > 400)
    out += "...";
  return out;
}

/// The first line of clang's log that says `error:`, else its first line.
static std::string firstError(llvm::StringRef log) {
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n', -1, false);
  for (llvm::StringRef l : lines)
    if (l.contains("error:"))
      return sanitize(l.trim());
  return lines.empty() ? "" : sanitize(lines.front().trim());
}

/// Removes a temporary file on every path out.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

/// Runs clang on the input; returns the device LLVM IR's path.
static void compileDevice(const std::string &clang, const std::string &cuda,
                          TempFile &ll) {
  TempFile log;
  if (llvm::sys::fs::createTemporaryFile("approx-cc", "ll", ll.path) ||
      llvm::sys::fs::createTemporaryFile("approx-cc", "log", log.path))
    die("cannot create a temporary file");
  std::vector<std::string> args = {clang,
                                   "-x",
                                   "cuda",
                                   "--cuda-device-only",
                                   "--cuda-gpu-arch=" + opts.chip,
                                   "-nocudalib",
                                   "--cuda-path=" + cuda,
                                   "-O1",
                                   "-gline-tables-only",
                                   "-Wno-unknown-cuda-version",
                                   "-S",
                                   "-emit-llvm",
                                   "-o",
                                   std::string(ll.path)};
  for (const std::string &i : opts.includes)
    args.push_back("-I" + i);
  for (const std::string &d : opts.defines)
    args.push_back("-D" + d);
  args.push_back("--");
  args.push_back(opts.input);
  llvm::SmallVector<llvm::StringRef> refs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), log.path.str(), log.path.str()};
  std::string err;
  int rc = llvm::sys::ExecuteAndWait(clang, refs, std::nullopt, redirects,
                                     /*secondsToWait=*/600, 0, &err);
  if (rc != 0) {
    auto text = llvm::MemoryBuffer::getFile(log.path);
    std::string first = text ? firstError((*text)->getBuffer()) : "";
    if (first.empty())
      die("clang " + approx::quoteName(clang) + " failed on " +
          approx::quoteName(opts.input) + " without a message (" +
          (err.empty() ? "exit status " + std::to_string(rc) : err) + ")");
    die("clang rejected " + approx::quoteName(opts.input) + ": " + first);
  }
}

/// The frames of `loc`, innermost first: an op inlined from a header (a
/// CUDA math wrapper, a __device__ helper) has a call-site chain.
static void frames(Location loc, SmallVectorImpl<FileLineColLoc> &out) {
  if (auto flc = dyn_cast<FileLineColLoc>(loc))
    out.push_back(flc);
  else if (auto site = dyn_cast<CallSiteLoc>(loc)) {
    frames(site.getCallee(), out);
    frames(site.getCaller(), out);
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location l : fused.getLocations())
      frames(l, out);
  } else if (auto named = dyn_cast<NameLoc>(loc))
    frames(named.getChildLoc(), out);
}

/// Plain FILE:LINE:COL locations, without the debug-info scopes the import
/// attaches (the PTX then has no debug sections, as nvcc's without -G): the
/// innermost frame in the input file, so that a site inlined from CUDA's
/// math headers names the user's line, else the innermost frame.
static void simplifyLocations(ModuleOp module, StringRef inputFile) {
  // The import keeps a DIFile's name without its directory, so a name
  // is the input if it is the tail of the input's absolute path.
  llvm::SmallString<256> absolute(inputFile);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  llvm::StringMap<bool> same;
  auto isInput = [&](StringRef file) {
    auto [it, inserted] = same.try_emplace(file, false);
    if (inserted) {
      llvm::SmallString<256> name(file);
      llvm::sys::path::remove_dots(name, /*remove_dot_dot=*/true);
      StringRef abs = absolute.str();
      it->second = abs == name ||
                   (abs.ends_with(name) &&
                    abs.drop_back(name.size()).ends_with("/")) ||
                   llvm::sys::fs::equivalent(file, inputFile);
    }
    return it->second;
  };
  module.walk([&](Operation *op) {
    SmallVector<FileLineColLoc> found;
    frames(op->getLoc(), found);
    if (found.empty()) {
      op->setLoc(UnknownLoc::get(op->getContext()));
      return;
    }
    FileLineColLoc pick = found.front();
    for (FileLineColLoc f : found)
      if (isInput(f.getFilename())) {
        pick = f;
        break;
      }
    op->setLoc(pick);
  });
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (int status = approxcc::parseCommandLine(argc, argv, opts); status >= 0)
    return status;

  if (!llvm::sys::fs::is_regular_file(opts.input))
    die("input " + approx::quoteName(opts.input) + " is not a regular file");
  if (!llvm::sys::fs::is_directory(opts.outputDir))
    die("output directory " + approx::quoteName(opts.outputDir) +
        " does not exist or is not a directory");
  std::string base =
      opts.name.empty() ? llvm::sys::path::stem(opts.input).str() : opts.name;
  std::string why;
  if (!approx::isValidPtxIdentifier(base, &why))
    die((opts.name.empty() ? "the input's stem " : "--name ") +
        approx::quoteName(base) + " cannot name the module: it " + why +
        (opts.name.empty() ? "; pass --name" : ""));
  for (char c : opts.pipelineOptions)
    if (c == '{' || c == '}')
      die("--approx-options may not hold braces");
  std::string clang = findClang();
  if (clang.empty())
    die("no CUDA device compiler: clang++-22 is not installed (apt install "
        "clang-22) and neither --clang nor APPROX_CLANG names one");
  if (!llvm::sys::fs::can_execute(clang))
    die("clang " + approx::quoteName(clang) + " is not an executable");
  std::string cuda = findCudaRoot();
  if (cuda.empty() || !llvm::sys::fs::is_directory(cuda + "/include"))
    die("no CUDA toolkit at " + approx::quoteName(cuda) +
        " (set CUDA_PATH or pass --cuda-path)");

  TempFile ll;
  compileDevice(clang, cuda, ll);

  DialectRegistry registry;
  approx::registerApproxCompilerDependencies(registry);
  // NVVM intrinsics (special registers, barriers) import as nvvm ops.
  registerLLVMDialectImport(registry);
  registerNVVMDialectImport(registry);
  approx::registerApproxPassesAndPipelines();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, llvm::errs());

  llvm::LLVMContext llvmContext;
  llvm::SMDiagnostic parseError;
  std::unique_ptr<llvm::Module> llvmModule =
      llvm::parseIRFile(ll.path, parseError, llvmContext);
  if (!llvmModule)
    die("cannot read clang's output: " + parseError.getMessage());
  OwningOpRef<ModuleOp> module;
  {
    // The import warns about data-layout tokens MLIR does not model; they
    // concern the host ABI, not the kernels: only errors are shown.
    ScopedDiagnosticHandler onlyErrors(&context, [](Diagnostic &d) {
      return success(d.getSeverity() != DiagnosticSeverity::Error);
    });
    module = translateLLVMIRToModule(std::move(llvmModule), &context,
                                     /*emitExpensiveWarnings=*/false);
  }
  if (!module)
    die("cannot import clang's LLVM IR into MLIR");
  simplifyLocations(*module, opts.input);

  PassManager pm(&context);
  std::string pipeline =
      "approx-raise-cuda-kernels{module-name=" + base +
      "},gpu.module(approx-raise-libdevice,approx-raise-kernel-cfg)";
  if (failed(parsePassPipeline(pipeline, pm)))
    die("internal: cannot build the raising pipeline");
  if (failed(pm.run(*module)))
    return EXIT_FAILURE;
  // The raised module goes to a temporary in the output directory, renamed
  // to NAME.raised.mlir only once the PTX and manifest are written: a failed
  // run leaves nothing behind.
  TempFile raisedTmp;
  std::string raised = opts.outputDir + "/" + base + ".raised.mlir";
  if (opts.keepIR && llvm::sys::fs::exists(raised) &&
      !llvm::sys::fs::is_regular_file(raised) &&
      !llvm::sys::fs::is_symlink_file(raised))
    die(approx::quoteName(raised) + " exists and is not a regular file");
  if (opts.keepIR) {
    int fd;
    if (std::error_code ec = llvm::sys::fs::createUniqueFile(
            opts.outputDir + "/." + base + ".raised-%%%%%%%%.tmp", fd,
            raisedTmp.path))
      die("cannot write in " + approx::quoteName(opts.outputDir) + ": " +
          ec.message());
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    module->print(os);
    os.close();
    if (os.has_error())
      die("cannot write " + approx::quoteName(raised) + ": " +
          os.error().message());
  }
  PassManager lower(&context);
  std::string toPtx = "approx-to-ptx{chip=" + opts.chip +
                      " output-dir=" + opts.outputDir + " name=" + base + " " +
                      opts.pipelineOptions + "}";
  // MLIR's option parser prints its complaint to stderr itself; catch it so
  // that the error stays one line.
  std::string parseLog;
  bool parsed;
  {
    TempFile capture;
    int saved = -1, fd = -1;
    if (!llvm::sys::fs::createTemporaryFile("approx-cc", "err", fd,
                                            capture.path)) {
      saved = ::dup(2);
      ::dup2(fd, 2);
      ::close(fd);
    }
    llvm::raw_string_ostream parseErrors(parseLog);
    parsed = succeeded(parsePassPipeline(toPtx, lower, parseErrors));
    llvm::errs().flush();
    if (saved >= 0) {
      ::dup2(saved, 2);
      ::close(saved);
      if (auto text = llvm::MemoryBuffer::getFile(capture.path))
        parseLog = (*text)->getBuffer().str() + parseLog;
    }
  }
  if (!parsed) {
    StringRef first = StringRef(parseLog).split('\n').first;
    first.consume_front("<Pass-Options-Parser>: ");
    die("bad --approx-options " + approx::quoteName(opts.pipelineOptions) +
        ": " + approx::quoteName(first));
  }
  if (failed(lower.run(*module)))
    return EXIT_FAILURE;
  if (opts.emitHeader)
    writeHeader(opts.outputDir, base, opts.input);
  if (opts.keepIR) {
    if (std::error_code ec = llvm::sys::fs::rename(raisedTmp.path, raised))
      die("cannot write " + approx::quoteName(raised) + ": " + ec.message());
    raisedTmp.path.clear();
  }
  return EXIT_SUCCESS;
}
