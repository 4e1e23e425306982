//===- approx-inspect.cpp - the system inspector of precision scaling -----===//
//
// Run once per machine (PreScaler's "system inspector", CGO'20 §4; issue
// 10, docs/precision.md): records this machine's fingerprint and the
// throughput of every way of converting and moving f64/f32/f16/bf16 arrays
// (host conversion per thread count, device conversion, pinned and pageable
// transfers, pipelined conversion + transfer) into the JSON database of
// runtime/precision/SystemDb.h, written atomically; prints the best method
// per pair and size; `--check FILE` tells whether a database was recorded
// on a machine like this one. Minutes, not the paper's hours: sizes grow by
// 4x, each point is a median of a few repetitions, and a time budget drops
// the largest sizes when it runs out.
//
// Every error is one line on stderr; nothing is written unless the whole
// measurement succeeded.
//
//===----------------------------------------------------------------------===//
#include "Inspect.h"

#include "approx/Support/Cli.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/precision/SystemDb.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace approx::rt;
using namespace approx::rt::precision;
using namespace approx::inspect;

namespace {

const char *const kHelp = R"(usage: approx-inspect -o FILE [options]
       approx-inspect --check FILE [--device N] [--same-card] [--pcie G:W]

Measures, once per machine, how fast this host and GPU convert and move
arrays between f64, f32, f16 and bf16, and writes the precision-scaling
system database (docs/precision.md) that the decision maker reads:
  host conversion   convert() host -> host, for each thread count;
  device conversion the conversion kernel, device -> device;
  transfers         plain copies, h2d and d2h, from pinned and pageable
                    host memory;
  pipelined         conversion overlapped with the transfer in chunks,
                    converting on the host (all cores) or on the device;
                    narrowing pairs h2d, widening pairs d2h, sizes of at
                    least 4 chunks.
Sizes (of the source array) run from 64 KiB to --max-bytes by factors of 4.
GB/s counts source + destination bytes for conversions, the bytes moved for
transfers.

Measuring:
  -o, --output FILE      the database to write (atomically; its directory
                         must exist; an existing FILE must be a regular file)
  --quick                64 KiB .. 64 MiB, 4 MiB chunks, fewer repetitions
                         (about half a minute on a 16-core H100 host)
  --device N             CUDA device ordinal (default 0)
  --pairs LIST           FROM:TO,... (default f64:f32,f64:f16,f64:bf16,
                         f32:f16,f32:bf16 and their reverses)
  --max-bytes N          largest source size, 64K .. 4G (suffix K, M, G or
                         none for bytes; default 1G, --quick 64M)
  --threads LIST         host thread counts, each 1 .. 256 (default 1, 2,
                         4, ... and the logical core count)
  --chunks LIST          pipelined chunk sizes, 64K .. 256M, powers of two
                         (default 1M,4M,16M; --quick 4M)
  --max-seconds S        budget of the measuring phase, 1 .. 86400 (default
                         170, --quick 40); when it runs out the largest
                         sizes are skipped, and the end says so
  --pcie GEN:WIDTH       the GPU's maximum PCIe link (e.g. 5:16), when
                         sysfs does not tell it
  --verbose              repetitions and timings of every point on stderr
  --quiet                no progress lines

Checking:
  --check FILE           load FILE and compare its machine with this one
                         (CPU model, cores, SIMD, GPU model, PCIe link;
                         --same-card adds the GPU UUID and driver version)
  --help                 this text

Exit status: 0 success (--check: FILE fits this machine), 1 usage error or
--check: FILE was recorded elsewhere, 2 runtime error (files, memory,
driver), 77 no CUDA driver or GPU. Every error is one line on stderr.
)";

/// A runtime error or --check's verdict: `code` is the exit status.
struct CliError {
  int code;
  std::string message;
};

/// A runtime error: 77 when there is no driver or GPU (as approx-tune).
[[noreturn]] void fail(const Status &s) {
  if (s.code() == StatusCode::Unavailable)
    throw CliError{77, "no CUDA GPU to measure: " + s.message()};
  throw CliError{2, s.message()};
}

struct Options {
  std::string output, check;
  bool quick = false, verbose = false, quiet = false, sameCard = false;
  int device = 0;
  std::vector<Pair> pairs;
  uint64_t maxBytes = 0; ///< 0: the mode's default
  std::vector<unsigned> threads;
  std::vector<uint64_t> chunks;
  double maxSeconds = 0; ///< 0: the mode's default
  int pcieGen = 0, pcieWidth = 0;
};

/// Parses argv into `o`: -1 to go on, else the exit status (0 after --help,
/// 1 after a one-line usage error).
int parseArgs(int argc, char **argv, Options &o) {
  namespace cli = approx::cli;
  cli::CommandLine cl{
      cli::Tool{"approx-inspect", 1, " (see approx-inspect --help)"},
      "the system inspector of precision scaling", kHelp};
  cl.text("-o,--output", o.output);
  cl.text("--check", o.check);
  cl.flag("--quick", o.quick);
  cl.flag("--verbose", o.verbose);
  cl.flag("--quiet", o.quiet);
  cl.flag("--same-card", o.sameCard);
  cl.integer("--device", o.device, 0, 2147483647);
  cl.value("--pairs", [&](const std::string &v) {
    Expected<std::vector<Pair>> p = parsePairs(v);
    if (!p)
      cli::usageError("--pairs: " + p.status().message());
    o.pairs = *p;
  });
  cl.value("--max-bytes", [&](const std::string &v) {
    o.maxBytes =
        cli::parseSize(v, "--max-bytes", uint64_t(64) << 10, uint64_t(4) << 30);
  });
  cl.value("--threads", [&](const std::string &v) {
    o.threads = cli::parseList(v, "--threads", [](const std::string &t) {
      return unsigned(cli::parseInt(t, "--threads", 1, 256));
    });
    std::sort(o.threads.begin(), o.threads.end());
    o.threads.erase(std::unique(o.threads.begin(), o.threads.end()),
                    o.threads.end());
  });
  cl.value("--chunks", [&](const std::string &v) {
    o.chunks = cli::parseList(v, "--chunks", [](const std::string &c) {
      uint64_t b = cli::parseSize(c, "--chunks", uint64_t(64) << 10,
                                  uint64_t(256) << 20);
      if (b & (b - 1))
        cli::usageError("--chunks: " + quote(c) + " is not a power of two");
      return b;
    });
    std::sort(o.chunks.begin(), o.chunks.end());
    o.chunks.erase(std::unique(o.chunks.begin(), o.chunks.end()),
                   o.chunks.end());
  });
  cl.number("--max-seconds", o.maxSeconds, 1, 86400);
  cl.value("--pcie", [&](const std::string &v) {
    size_t c = v.find(':');
    if (c == std::string::npos)
      cli::usageError("--pcie: " + quote(v) + " is not GEN:WIDTH (e.g. 5:16)");
    o.pcieGen = int(cli::parseInt(v.substr(0, c), "--pcie generation", 1, 7));
    o.pcieWidth = int(cli::parseInt(v.substr(c + 1), "--pcie width", 1, 32));
    int w = o.pcieWidth;
    if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16 && w != 32)
      cli::usageError("--pcie: width " + std::to_string(w) +
                      " is not a PCIe link width (1, 2, 4, 8, 16, 32)");
  });
  // A stray argument is most likely the database without its -o.
  std::vector<std::string> stray;
  cl.positionals("ARG", stray);
  cl.check([&] {
    if (!stray.empty())
      cli::usageError("unexpected argument " + quote(stray.front()) +
                      " (the database is named with -o FILE)");
    if (!o.check.empty() && !o.output.empty())
      cli::usageError("--check and -o exclude each other");
    if (o.check.empty() && o.output.empty())
      cli::usageError("no output: give -o FILE (or --check FILE)");
    if (!o.check.empty() &&
        (o.quick || o.maxBytes || !o.pairs.empty() || !o.threads.empty() ||
         !o.chunks.empty() || o.maxSeconds > 0))
      cli::usageError("--check takes no measuring option (--quick, --pairs, "
                      "--max-bytes, --threads, --chunks, --max-seconds)");
    if (o.check.empty() && o.sameCard)
      cli::usageError("--same-card goes with --check");
  });
  return cl.parse(argc, argv);
}

/// Refuses an output path that saveSystemDb could not replace safely: a
/// directory that does not exist or cannot be written, an existing path that
/// is not a regular file (a directory, a device, a FIFO, a symbolic link).
void checkOutput(const std::string &path) {
  std::string dir = ".";
  size_t slash = path.find_last_of('/');
  if (slash != std::string::npos)
    dir = slash == 0 ? "/" : path.substr(0, slash);
  if (slash != std::string::npos && slash + 1 == path.size())
    throw CliError{2, "output " + quote(path) +
                          " names a directory, not a "
                          "file"};
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0)
    throw CliError{2, "output directory " + quote(dir) + ": " +
                          std::strerror(errno)};
  if (!S_ISDIR(st.st_mode))
    throw CliError{2, "output directory " + quote(dir) + " is not a directory"};
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw CliError{2, "output directory " + quote(dir) +
                          " is not writable: " + std::strerror(errno)};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    const char *kind = S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISLNK(st.st_mode)  ? "a symbolic link"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    throw CliError{2, "output " + quote(path) + " is " + kind +
                          "; refusing to replace it"};
  }
}

/// This machine's fingerprint; the PCIe link from --pcie when given. The
/// database needs a link (generation 1..7, width 1..32): unreadable, it is
/// an error that says how to give it.
Fingerprint machine(const Context &ctx, const Options &o, bool quiet) {
  std::vector<std::string> warnings;
  Fingerprint f;
  f.cpu = currentCpu();
  f.gpu =
      gpuFingerprint(ctx, [&](const std::string &w) { warnings.push_back(w); });
  if (o.pcieGen) {
    f.gpu.pcieGen = o.pcieGen;
    f.gpu.pcieWidth = o.pcieWidth;
  } else if (f.gpu.pcieGen == 0 || f.gpu.pcieWidth == 0) {
    std::string why = "cannot read the GPU's PCIe link";
    for (auto it = warnings.rbegin(); it != warnings.rend(); ++it)
      if (it->find("PCI") != std::string::npos)
        why = it->substr(std::string("warning: ").size());
    throw CliError{2, why + "; the database needs the link: give it with "
                            "--pcie GEN:WIDTH (nvidia-smi -q shows "
                            "\"Max\" under \"GPU Link Info\")"};
  }
  if (!quiet)
    for (const std::string &w : warnings)
      if (w.find("PCI") == std::string::npos)
        std::fprintf(stderr, "approx-inspect: %s\n", w.c_str());
  return f;
}

std::string describe(const Fingerprint &f) {
  return quote(f.cpu.model) + " (" + std::to_string(f.cpu.logicalCores) +
         " cores, " + f.cpu.simd + ") with " + quote(f.gpu.name) + " (" +
         f.gpu.uuid + ", driver " + f.gpu.driver + ", PCIe " +
         std::to_string(f.gpu.pcieGen) + " x" +
         std::to_string(f.gpu.pcieWidth) + ")";
}

int runCheck(const Options &o) {
  Expected<SystemDb> db = loadSystemDb(o.check);
  if (!db)
    fail(db.status());
  Expected<std::shared_ptr<Context>> ctx = Context::create(o.device);
  if (!ctx)
    fail(ctx.status());
  Fingerprint f = machine(**ctx, o, true);
  Status s = checkMachine(
      *db, f, o.sameCard ? MachineMatch::SameCard : MachineMatch::SameModel);
  if (!s)
    throw CliError{1, quote(o.check) + ": " + s.message()};
  std::printf("approx-inspect: %s was recorded on this machine (%s), "
              "%s\n",
              quote(o.check).c_str(), describe(db->machine).c_str(),
              db->created.c_str());
  return 0;
}

/// Lowers `maxBytes` (by 4x steps) until the buffers fit the host's and the
/// device's free memory, saying so.
uint64_t fitMemory(const Context &ctx, uint64_t maxBytes, size_t ratio,
                   bool quiet) {
  size_t devFree = 0, devTotal = 0;
  Status s = ctx.memInfo(devFree, devTotal);
  if (!s)
    fail(s);
  const uint64_t hostAvail =
      uint64_t(::sysconf(_SC_AVPHYS_PAGES)) * uint64_t(::sysconf(_SC_PAGESIZE));
  const uint64_t margin = uint64_t(512) << 20;
  uint64_t b = maxBytes;
  // Host: source + destination (pageable) + pinned; device: source +
  // destination + the engine's slots and scratch (small).
  while (b > (uint64_t(64) << 10) && (b * (2 + ratio) + margin > hostAvail ||
                                      b * (1 + ratio) + margin > devFree))
    b /= 4;
  if (b != maxBytes && !quiet)
    std::fprintf(stderr,
                 "approx-inspect: warning: sizes capped at %s (host has %s "
                 "available, the GPU %s free; %s would need %s and %s)\n",
                 sizeName(b).c_str(), sizeName(hostAvail >> 20 << 20).c_str(),
                 sizeName(devFree >> 20 << 20).c_str(),
                 sizeName(maxBytes).c_str(),
                 sizeName(maxBytes * (2 + ratio)).c_str(),
                 sizeName(maxBytes * (1 + ratio)).c_str());
  return b;
}

int runInspect(Options o) {
  checkOutput(o.output);
  Expected<std::shared_ptr<Context>> ctx = Context::create(o.device);
  if (!ctx)
    fail(ctx.status());
  const Fingerprint f = machine(**ctx, o, o.quiet);

  InspectOptions io;
  io.pairs = o.pairs.empty() ? defaultPairs() : o.pairs;
  io.quick = o.quick;
  io.verbose = o.verbose;
  io.threads =
      o.threads.empty() ? defaultThreads(f.cpu.logicalCores) : o.threads;
  io.pipelineThreads = f.cpu.logicalCores;
  io.chunks = !o.chunks.empty() ? o.chunks
              : o.quick
                  ? std::vector<uint64_t>{uint64_t(4) << 20}
                  : std::vector<uint64_t>{uint64_t(1) << 20, uint64_t(4) << 20,
                                          uint64_t(16) << 20};
  io.maxSeconds = o.maxSeconds > 0 ? o.maxSeconds : o.quick ? 40 : 170;
  uint64_t maxBytes = o.maxBytes ? o.maxBytes
                      : o.quick  ? uint64_t(64) << 20
                                 : uint64_t(1) << 30;
  size_t ratio = 1;
  for (const Pair &p : io.pairs)
    ratio = std::max(ratio, scalarTypeSize(p.to) / scalarTypeSize(p.from));
  io.maxBytes = fitMemory(**ctx, maxBytes, ratio, o.quiet);

  auto progress = [&](const std::string &line) {
    if (!o.quiet)
      std::fprintf(stderr, "%s\n", line.c_str());
  };
  auto warn = [&](const std::string &line) {
    std::fprintf(stderr, "%s\n", line.c_str());
  };
  if (!o.quiet)
    std::fprintf(stderr, "approx-inspect: %s\n", describe(f).c_str());

  SystemDb db;
  db.machine = f;
  db.created = utcNow();
  InspectReport rep;
  Status s = inspect(*ctx, io, db, rep, progress, warn);
  if (!s)
    fail(s);
  checkOutput(o.output); // again: it may have changed meanwhile
  Status w = saveSystemDb(db, o.output);
  if (!w)
    fail(w);

  std::printf("machine: %s\n", describe(f).c_str());
  std::fputs(summaryTable(db, io.pairs, inspectSizes(io.maxBytes)).c_str(),
             stdout);
  std::fflush(stdout);
  if (rep.skipped)
    std::fprintf(stderr,
                 "approx-inspect: warning: the budget of %.0f s ran out: "
                 "%zu measurement(s) from %s up were skipped (raise "
                 "--max-seconds or lower --max-bytes)\n",
                 io.maxSeconds, rep.skipped,
                 sizeName(rep.firstSkipped).c_str());
  if (!o.quiet)
    std::fprintf(stderr, "approx-inspect: wrote %s: %zu point(s) in %.1f s\n",
                 quote(o.output).c_str(), rep.measured, rep.seconds);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    Options o;
    if (int status = parseArgs(argc, argv, o); status >= 0)
      return status;
    return o.check.empty() ? runInspect(o) : runCheck(o);
  } catch (const CliError &e) {
    // Messages are built with quote(): file contents arrive escaped. Usage
    // errors were reported by parseArgs; these are runtime errors and
    // --check's verdict.
    std::fprintf(stderr, "approx-inspect: error: %s\n", e.message.c_str());
    return e.code;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "approx-inspect: error: out of host memory\n");
  } catch (const std::exception &e) {
    std::fprintf(stderr, "approx-inspect: error: %s\n",
                 escapeBytes(e.what()).c_str());
  }
  return 2;
}
