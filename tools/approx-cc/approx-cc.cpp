//===- approx-cc.cpp - the CUDA front door --------------------------------===//
//
// approx-cc FILE.cu -o DIR [--name NAME] [--chip sm_90] [--approx-options
// "approx-to-ptx options"]: compiles the device code of an unmodified CUDA
// file with clang, imports the LLVM IR as MLIR, raises it (kernels to
// gpu.func, libdevice calls to math ops) and runs approx-to-ptx, which
// writes DIR/NAME.ptx and DIR/NAME.manifest.json (and NAME.h, NAME.raised.mlir
// when asked). Each failure is one line naming the cause; nothing is written
// then. A bad command line is one line and exit status 2
// (approx/Support/Cli.h, CLI11); any other failure exit status 1.
//
// Robustness:
//   - every path and option reaches the pipeline as data (pass option
//     structs), never spliced into a pipeline string;
//   - every temporary (clang's IR and log, approx-to-ptx's files, the header,
//     the raised module) lives in one private scratch directory inside DIR,
//     removed on every way out: success, an error, LLVM's fatal errors (a
//     full disk), signals, the time and memory limits;
//   - the outputs are committed together under DIR's lock
//     (approx/Passes/OutputFiles.h): all or nothing, never mixed with a
//     concurrent run's;
//   - clang runs under --time-limit and --memory-limit, and so does the rest
//     of the run (an alarm for the time left, RLIMIT_AS), each reported in
//     one line.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/InitApprox.h"
#include "approx/Passes/OutputFiles.h"
#include "approx/Passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMIRToLLVMTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/LLVMIRToNVVMTranslation.h"
#include "mlir/Target/LLVMIR/Import.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "CommandLine.h"
#include "HostHeader.h"

#include <cerrno>
#include <cmath>
#include <chrono>
#include <climits>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <csignal>
#include <cstdlib>
#include <optional>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

using namespace mlir;

/// The command line (CommandLine.h), read once in main().
static approxcc::Options opts;

/// The run's scratch directory (see the file comment); "" when none.
static std::string scratchDir;

/// Removes `path` and, if it is a directory, everything in it, without
/// allocating (it also runs when out of memory and in signal handlers):
/// getdents64 into a stack buffer.
static void removeTree(const char *path) {
  if (::unlink(path) == 0 || errno == ENOENT)
    return;
  int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(8) char buf[4096];
    long n;
    while ((n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
      for (long at = 0; at < n;) {
        const auto *e = reinterpret_cast<const struct dirent64 *>(buf + at);
        at += e->d_reclen;
        if (!std::strcmp(e->d_name, ".") || !std::strcmp(e->d_name, ".."))
          continue;
        char child[PATH_MAX];
        if (std::snprintf(child, sizeof child, "%s/%s", path, e->d_name) <
            int(sizeof child))
          removeTree(child);
      }
    }
    ::close(fd);
  }
  ::rmdir(path);
}

/// Removes the scratch directory and everything in it. Also called from
/// signal handlers and when out of memory: best effort.
static void removeScratch() {
  if (!scratchDir.empty()) {
    removeTree(scratchDir.c_str());
    scratchDir.clear();
  }
}

/// Removes the scratch directory when the process ends through std::exit or
/// a return from main (static destructors run on both).
static struct ScratchGuard {
  ~ScratchGuard() { removeScratch(); }
} scratchGuard;

[[noreturn]] static void die(const llvm::Twine &msg) {
  llvm::errs() << "approx-cc: error: " << msg << "\n";
  std::exit(EXIT_FAILURE);
}

/// A file of the scratch directory.
static std::string scratchFile(llvm::StringRef name) {
  return scratchDir + "/" + name.str();
}

/// The message the time limit's alarm prints (made before it is armed: the
/// handler only writes it).
static char timeLimitMessage[160];

static void onTimeLimit(int) {
  ssize_t ignored = ::write(2, timeLimitMessage, strlen(timeLimitMessage));
  (void)ignored;
  removeScratch();
  ::_exit(EXIT_FAILURE);
}

/// LLVM's fatal errors (a write to a full disk: "IO failure on output
/// stream") as one line; LLVM then removes its registered files and exits.
static void onFatalError(void *, const char *reason, bool) {
  llvm::errs() << "approx-cc: error: " << reason << "\n";
  llvm::errs().flush();
  removeScratch();
}

/// Memory set aside for the clean-up after running out of memory: freed
/// (unmapped: it is above malloc's mmap threshold) before the scratch
/// directory is removed.
static void *memoryReserve = nullptr;

/// Running out of memory under --memory-limit (RLIMIT_AS), as one line.
static void onBadAlloc(void *, const char *, bool) {
  std::free(memoryReserve);
  memoryReserve = nullptr;
  char msg[160];
  int n = std::snprintf(msg, sizeof msg,
                        "approx-cc: error: out of memory (the limit is %u "
                        "MiB: --memory-limit)\n",
                        opts.memoryLimit);
  ssize_t ignored = ::write(2, msg, n > 0 ? size_t(n) : 0);
  (void)ignored;
  removeScratch();
  ::_exit(EXIT_FAILURE);
}

/// Writes the scratch file `path` through `fill`; a failure is one line
/// naming `shown`, the output it becomes.
static void writeScratchFile(const std::string &path, const std::string &shown,
                             llvm::function_ref<void(llvm::raw_ostream &)> fill) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    die("cannot write " + approx::quoteName(shown) + ": " + ec.message());
  fill(os);
  os.close();
  if (os.has_error()) {
    std::string why = os.error().message();
    os.clear_error(); // a stream destroyed with its error set is fatal
    die("cannot write " + approx::quoteName(shown) + ": " + why);
  }
}

/// Writes OUT/NAME.h (OUT: the scratch folder of the outputs) from the
/// manifest approx-to-ptx just wrote there.
static void writeHeader(const std::string &out, const std::string &base,
                        const std::string &source) {
  std::string manifestPath = out + "/" + base + ".manifest.json";
  auto text = llvm::MemoryBuffer::getFile(manifestPath);
  if (!text)
    die("cannot read the manifest approx-to-ptx wrote");
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*text)->getBuffer());
  if (!json || !json->getAsObject()) {
    if (!json)
      llvm::consumeError(json.takeError());
    die("cannot parse the manifest approx-to-ptx wrote");
  }
  llvm::Expected<std::string> header = approxcc::generateHostHeader(
      *json->getAsObject(), base, llvm::sys::path::filename(source));
  if (!header)
    die("cannot write the header: " + llvm::toString(header.takeError()));
  writeScratchFile(out + "/" + base + ".h", opts.outputDir + "/" + base + ".h",
                   [&](llvm::raw_ostream &os) { os << *header; });
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

/// The toolkit's CUDART_VERSION as "M.m" (13000 -> "13.0"), or "" when its
/// header does not say. clang 22 passes the SDK version to the device side
/// only when it links libdevice itself; without it (-nocudalib) a host
/// `<<<...>>>` in the input is lowered to cudaConfigureCall, which CUDA 13
/// no longer declares.
static std::string toolkitVersion(const std::string &cuda) {
  llvm::SmallString<256> header(cuda);
  llvm::sys::path::append(header, "include", "cuda_runtime_api.h");
  auto buffer = llvm::MemoryBuffer::getFile(header);
  if (!buffer)
    return "";
  llvm::StringRef text = (*buffer)->getBuffer();
  size_t at = text.find("#define CUDART_VERSION");
  if (at == llvm::StringRef::npos)
    return "";
  unsigned version = 0;
  if (text.substr(at + 22).ltrim(" \t").consumeInteger(10, version) ||
      version < 1000)
    return "";
  return std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10);
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

/// Runs clang on the input under the time and memory limits; returns the
/// path of the device LLVM IR (in the scratch directory).
static std::string compileDevice(const std::string &clang,
                                 const std::string &cuda) {
  std::string ll = scratchFile("device.ll"), log = scratchFile("clang.log");
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
                                   ll};
  if (std::string sdk = toolkitVersion(cuda); !sdk.empty()) {
    args.push_back("-Xclang");
    args.push_back("-target-sdk-version=" + sdk);
  }
  // CUDA 13 keeps libcu++ (cuda/std, which cooperative_groups.h includes)
  // under include/cccl, which nvcc searches and clang does not.
  llvm::SmallString<256> cccl(cuda);
  llvm::sys::path::append(cccl, "include", "cccl");
  if (llvm::sys::fs::is_directory(cccl)) {
    args.push_back("-isystem");
    args.push_back(std::string(cccl));
  }
  for (const std::string &i : opts.includes)
    args.push_back("-I" + i);
  for (const std::string &d : opts.defines)
    args.push_back("-D" + d);
  // Without -funroll-loops, clang at -O1 marks every loop unroll.disable,
  // and LLVM's unroller later leaves loops alone that nvcc -O3 unrolls; with
  // it, only `#pragma nounroll` does (issue 31). Perforation's window loops
  // are unrolled before import (unrollWindowLoops).
  args.push_back("-funroll-loops");
  args.push_back("--");
  args.push_back(opts.input);
  llvm::SmallVector<llvm::StringRef> refs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(log),
                                                llvm::StringRef(log)};
  std::string err;
  int rc = llvm::sys::ExecuteAndWait(clang, refs, std::nullopt, redirects,
                                     opts.timeLimit, opts.memoryLimit, &err);
  // -2: killed by a signal, ours at the time limit or its own (a crash).
  if (rc == -2 && llvm::StringRef(err).contains("timed out"))
    die("clang " + approx::quoteName(clang) + " did not finish on " +
        approx::quoteName(opts.input) + " within the time limit of " +
        std::to_string(opts.timeLimit) + " s (--time-limit)");
  if (rc != 0) {
    auto text = llvm::MemoryBuffer::getFile(log);
    llvm::StringRef body = text ? (*text)->getBuffer() : "";
    if (opts.memoryLimit &&
        (body.contains("out of memory") || body.contains("bad_alloc") ||
         body.contains("Cannot allocate memory")))
      die("clang " + approx::quoteName(clang) + " ran out of memory on " +
          approx::quoteName(opts.input) + " under the limit of " +
          std::to_string(opts.memoryLimit) + " MiB (--memory-limit)");
    std::string first = firstError(body);
    if (first.empty())
      die("clang " + approx::quoteName(clang) + " failed on " +
          approx::quoteName(opts.input) + " without a message (" +
          (err.empty() ? "exit status " + std::to_string(rc) : err) + ")");
    die("clang rejected " + approx::quoteName(opts.input) + ": " + first);
  }
  return ll;
}

/// Arms the limits for the rest of the run (after clang): an alarm for the
/// time left of --time-limit and an address-space limit of --memory-limit.
static void limitThisProcess(std::chrono::steady_clock::time_point start) {
  double used = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - start)
                    .count();
  unsigned left = used >= opts.timeLimit
                      ? 1
                      : std::max(1u, opts.timeLimit - unsigned(used));
  std::snprintf(timeLimitMessage, sizeof timeLimitMessage,
                "approx-cc: error: the run did not finish within the time "
                "limit of %u s (--time-limit)\n",
                opts.timeLimit);
  std::signal(SIGALRM, onTimeLimit);
  ::alarm(left);
  struct rlimit r;
  if (opts.memoryLimit && ::getrlimit(RLIMIT_AS, &r) == 0) {
    rlim_t want = rlim_t(opts.memoryLimit) << 20;
    if (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > want)
      r.rlim_cur = r.rlim_max == RLIM_INFINITY || r.rlim_max > want ? want
                                                                      : r.rlim_max;
    ::setrlimit(RLIMIT_AS, &r);
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

/// Computed goto (`goto *p`, an indirect branch to a block address) has no
/// MLIR form: refused with the source line, before the import fails on it
/// without one.
static void refuseComputedGoto(llvm::Module &module) {
  for (llvm::Function &f : module)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &inst : bb)
        if (llvm::isa<llvm::IndirectBrInst>(inst) ||
            llvm::any_of(inst.operands(), [](const llvm::Use &u) {
              return llvm::isa<llvm::BlockAddress>(u.get());
            })) {
          // The branch itself may carry no line: the nearest one before it.
          unsigned line = 0;
          for (const llvm::Instruction *i = &inst; i && !line;
               i = i->getPrevNode())
            if (const llvm::DebugLoc &dl = i->getDebugLoc())
              line = dl.getLine();
          std::string where = approx::quoteName(opts.input);
          if (line)
            where += " line " + std::to_string(line);
          die(where + ": computed goto (goto *p, in " +
              approx::quoteName(llvm::demangle(f.getName())) +
              ") is not supported: use a switch");
        }
}

/// LLVM's new pass manager with its analyses registered, to run a textual
/// pipeline on clang's module before the import.
struct LLVMPasses {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  LLVMPasses() {
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
  }
  void run(llvm::Module &module, llvm::StringRef pipeline) {
    llvm::ModulePassManager mpm;
    if (llvm::Error e = pb.parsePassPipeline(mpm, pipeline))
      die("internal: the LLVM pipeline '" + pipeline.str() +
          "' does not parse: " + llvm::toString(std::move(e)));
    mpm.run(module, mam);
  }
};

/// The most iterations of one loop unrollWindowLoops unrolls fully: a
/// window of up to 16 x 16.
static constexpr unsigned kMaxWindowTrips = 16;

/// With perforate=: every loop that loads and has a constant trip count of
/// at most kMaxWindowTrips is fully unrolled, as `#pragma unroll` would
/// have it, so that a stencil's window loops (`for dy ... for dx ...`, the
/// usual way to write a convolution) become loads at constant offsets that
/// approx-perforation-raise can tile. Other loops of the file that qualify
/// are unrolled too, as nvcc -O3 would.
static void unrollWindowLoops(llvm::Module &module) {
  LLVMPasses llvmPasses;
  llvm::FunctionAnalysisManager &fam = llvmPasses.fam;
  for (llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    llvm::LoopInfo &li = fam.getResult<llvm::LoopAnalysis>(f);
    llvm::ScalarEvolution &se = fam.getResult<llvm::ScalarEvolutionAnalysis>(f);
    for (llvm::Loop *loop : li.getLoopsInPreorder()) {
      unsigned trips = se.getSmallConstantTripCount(loop);
      bool loads = llvm::any_of(loop->blocks(), [](llvm::BasicBlock *bb) {
        return llvm::any_of(*bb, llvm::IsaPred<llvm::LoadInst>);
      });
      if (trips > 0 && trips <= kMaxWindowTrips && loads)
        llvm::addStringMetadataToLoop(loop, "llvm.loop.unroll.full");
    }
  }
  llvmPasses.run(module, "function(loop-unroll<O3;full-unroll-max=64>)");
}

/// `x` as 2^k with k an integer, if it is one (finite, positive, exact).
static std::optional<int> exactLog2(const llvm::APFloat &x) {
  if (!x.isFiniteNonZero() || x.isNegative())
    return std::nullopt;
  int exp = 0;
  llvm::APFloat mantissa = llvm::frexp(x, exp, llvm::APFloat::rmNearestTiesToEven);
  if (!mantissa.isExactlyValue(0.5))
    return std::nullopt;
  return exp - 1;
}

/// `x` as an integer, if it is one of modest size.
static std::optional<int> exactInt(const llvm::APFloat &x) {
  if (!x.isFinite() || !x.isInteger())
    return std::nullopt;
  double d = x.convertToDouble();
  if (d < -4096 || d > 4096)
    return std::nullopt;
  return static_cast<int>(d);
}

/// Folds libdevice's log2, exp2 and pow (fast and precise, f32 and f64) on
/// constants whose result is exact: log2 of 2^k, exp2 of an integer, pow of
/// 2^k to an integer power, where every implementation gives 2^n or n.
/// nvcc folds these (a loop bounded by `__log2f(16)` and stepping by
/// `__powf(2, i)` becomes four iterations with constant strides); LLVM does
/// not know libdevice's functions or the NVVM intrinsics inside them.
/// Returns whether anything changed.
static bool foldExactLibdeviceCalls(llvm::Module &module) {
  bool changed = false;
  for (llvm::Function &callee : module) {
    if (!callee.isDeclaration())
      continue;
    llvm::StringRef name = callee.getName();
    enum { Log2, Exp2, Pow, None } kind = None;
    if (name == "__nv_fast_log2f" || name == "__nv_log2f" || name == "__nv_log2")
      kind = Log2;
    else if (name == "__nv_exp2f" || name == "__nv_exp2")
      kind = Exp2;
    else if (name == "__nv_fast_powf" || name == "__nv_powf" || name == "__nv_pow")
      kind = Pow;
    if (kind == None)
      continue;
    for (llvm::User *user : llvm::make_early_inc_range(callee.users())) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call || call->getCalledFunction() != &callee)
        continue;
      auto arg = [&](unsigned i) -> const llvm::APFloat * {
        auto *c = llvm::dyn_cast<llvm::ConstantFP>(call->getArgOperand(i));
        return c ? &c->getValueAPF() : nullptr;
      };
      std::optional<int> result; // log2: the value; exp2, pow: the exponent
      if (kind == Log2 && arg(0))
        result = exactLog2(*arg(0));
      else if (kind == Exp2 && arg(0))
        result = exactInt(*arg(0));
      else if (kind == Pow && arg(0) && arg(1))
        if (std::optional<int> k = exactLog2(*arg(0)))
          if (std::optional<int> n = exactInt(*arg(1)))
            result = *k * *n;
      if (!result)
        continue;
      llvm::Type *type = call->getType();
      // 2^n must be a normal number of the type (no flush, no overflow).
      int maxExp = type->isFloatTy() ? 127 : 1023;
      llvm::Constant *value;
      if (kind == Log2)
        value = llvm::ConstantFP::get(type, static_cast<double>(*result));
      else if (*result >= 1 - maxExp && *result <= maxExp)
        value = llvm::ConstantFP::get(type, std::ldexp(1.0, *result));
      else
        continue;
      call->replaceAllUsesWith(value);
      call->eraseFromParent();
      changed = true;
    }
  }
  return changed;
}

/// After a fold, loops bounded by what was folded are fully unrolled (as
/// nvcc -O3 does) and the calls in them folded in turn, a few rounds.
static void foldLibdeviceConstants(llvm::Module &module) {
  for (int round = 0; round < 4 && foldExactLibdeviceCalls(module); ++round)
    LLVMPasses().run(module,
                     "function(instcombine,simplifycfg,loop-unroll<O3;"
                     "no-partial;no-runtime;no-upperbound;no-peeling;"
                     "full-unroll-max=64>,instcombine)");
}

/// --approx-options as approx-to-ptx's options struct (the grouped
/// spellings included), refused in one line when they do not parse or set
/// what approx-cc's own options set.
static std::unique_ptr<approx::ApproxToPTXOptions> parseUserOptions() {
  // MLIR's option parser prints its complaint to stderr itself; catch it so
  // that the error stays one line.
  std::string parseLog, error;
  std::unique_ptr<approx::ApproxToPTXOptions> o;
  {
    const std::string capture = scratchFile("options.err");
    int saved = -1, fd = -1;
    if (!llvm::sys::fs::openFileForWrite(capture, fd)) {
      llvm::errs().flush();
      saved = ::dup(2);
      ::dup2(fd, 2);
      ::close(fd);
    }
    o = approx::parseApproxToPTXOptions(opts.pipelineOptions, error);
    llvm::errs().flush();
    if (saved >= 0) {
      ::dup2(saved, 2);
      ::close(saved);
      if (auto text = llvm::MemoryBuffer::getFile(capture))
        parseLog = (*text)->getBuffer().str();
      llvm::sys::fs::remove(capture);
    }
  }
  if (!o) {
    StringRef first = StringRef(parseLog).split('\n').first;
    first.consume_front("<Pass-Options-Parser>: ");
    die("bad --approx-options " + approx::quoteName(opts.pipelineOptions) +
        ": " + approx::quoteName(first.empty() ? StringRef(error) : first));
  }
  for (auto [option, flag] :
       {std::pair{o->chip.hasValue(), "chip (approx-cc's --chip)"},
        std::pair{o->outputDir.hasValue(), "output-dir (approx-cc's -o)"},
        std::pair{o->name.hasValue(), "name (approx-cc's --name)"},
        std::pair{o->exportFiles.hasValue(), "export"}})
    if (option)
      die("--approx-options may not set " + std::string(flag));
  return o;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  const auto start = std::chrono::steady_clock::now();
  if (int status = approxcc::parseCommandLine(argc, argv, opts); status >= 0)
    return status;
  llvm::install_fatal_error_handler(onFatalError);
  memoryReserve = std::malloc(8 << 20);
  llvm::install_bad_alloc_error_handler(onBadAlloc);
  llvm::sys::SetInterruptFunction(removeScratch);
  llvm::sys::AddSignalHandler([](void *) { removeScratch(); }, nullptr);

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
  // The scratch directory, inside DIR (the commit renames within one file
  // system); its "out" folder holds what is committed.
  {
    // Absolute: a relative model would be taken under $TMPDIR.
    llvm::SmallString<256> model(opts.outputDir), dir;
    llvm::sys::fs::make_absolute(model);
    llvm::sys::path::append(model, ".approx-cc");
    if (std::error_code ec = llvm::sys::fs::createUniqueDirectory(model, dir))
      die("cannot write in " + approx::quoteName(opts.outputDir) + ": " +
          ec.message());
    scratchDir = dir.str().str();
  }
  const std::string out = scratchFile("out");
  if (std::error_code ec = llvm::sys::fs::create_directory(out))
    die("cannot write in " + approx::quoteName(opts.outputDir) + ": " +
        ec.message());

  std::unique_ptr<approx::ApproxToPTXOptions> toPtx = parseUserOptions();
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
  std::string raised = opts.outputDir + "/" + base + ".raised.mlir";
  if (opts.keepIR && llvm::sys::fs::exists(raised) &&
      !llvm::sys::fs::is_regular_file(raised) &&
      !llvm::sys::fs::is_symlink_file(raised))
    die(approx::quoteName(raised) + " exists and is not a regular file");

  const bool perforated = !toPtx->perforate.empty();
  std::string ll = compileDevice(clang, cuda);
  limitThisProcess(start);

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
      llvm::parseIRFile(ll, parseError, llvmContext);
  if (!llvmModule)
    die("cannot read clang's output: " + parseError.getMessage());
  refuseComputedGoto(*llvmModule);
  foldLibdeviceConstants(*llvmModule);
  if (perforated)
    unrollWindowLoops(*llvmModule);
  // MLIR 22's import drops `externally_initialized` (a __constant__ or
  // __device__ variable the host fills with cudaMemcpyToSymbol); without it
  // LLVM folds loads of a zero-initialized __constant__ array to 0.
  llvm::StringSet<> hostFilled;
  for (const llvm::GlobalVariable &g : llvmModule->globals())
    if (g.isExternallyInitialized())
      hostFilled.insert(g.getName());
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
  module->walk([&](LLVM::GlobalOp g) {
    if (hostFilled.contains(g.getSymName()))
      g.setExternallyInitialized(true);
  });
  simplifyLocations(*module, opts.input);

  PassManager pm(&context);
  approx::ApproxRaiseCudaKernelsOptions raiseOptions;
  raiseOptions.moduleName = base;
  pm.addPass(approx::createApproxRaiseCudaKernels(raiseOptions));
  OpPassManager &inGpu = pm.nest<gpu::GPUModuleOp>();
  inGpu.addPass(approx::createApproxRaiseLibdevice());
  inGpu.addPass(approx::createApproxRaiseKernelCfg());
  if (failed(pm.run(*module)))
    return EXIT_FAILURE;
  if (opts.keepIR)
    writeScratchFile(out + "/" + base + ".raised.mlir", raised,
                     [&](llvm::raw_ostream &os) { module->print(os); });
  // approx-to-ptx writes NAME.ptx and NAME.manifest.json into `out`.
  toPtx->chip = opts.chip;
  toPtx->outputDir = out;
  toPtx->name = base;
  PassManager lower(&context);
  approx::buildApproxToPTXPipeline(lower, *toPtx);
  if (failed(lower.run(*module)))
    return EXIT_FAILURE;
  if (opts.emitHeader)
    writeHeader(out, base, opts.input);

  // Everything in `out`, committed into DIR together.
  approx::OutputFiles outputs(opts.outputDir);
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(out, ec), end; it != end && !ec;
       it.increment(ec))
    outputs.adopt(it->path(), opts.outputDir + "/" +
                                  llvm::sys::path::filename(it->path()).str());
  if (ec)
    die("cannot read the scratch directory: " + ec.message());
  if (std::string err = outputs.commit(); !err.empty())
    die(err);
  removeScratch();
  return EXIT_SUCCESS;
}
