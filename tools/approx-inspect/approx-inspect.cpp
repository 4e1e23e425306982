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

#include "approx/runtime/core/Text.h"
#include "approx/runtime/precision/SystemDb.h"

#include <algorithm>
#include <cctype>
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

struct CliError {
  int code;
  std::string message;
};

[[noreturn]] void usage(const std::string &m) { throw CliError{1, m}; }
/// A runtime error: 77 when there is no driver or GPU (as approx-tune).
[[noreturn]] void fail(const Status &s) {
  if (s.code() == StatusCode::Unavailable)
    throw CliError{77, "no CUDA GPU to measure: " + s.message()};
  throw CliError{2, s.message()};
}

/// A decimal size with an optional binary suffix K, M or G, in [lo, hi].
uint64_t parseSize(const std::string &text, const std::string &what,
                   uint64_t lo, uint64_t hi) {
  size_t digits = 0;
  while (digits < text.size() && std::isdigit((unsigned char)text[digits]))
    ++digits;
  uint64_t mult = 1;
  std::string suffix = text.substr(digits);
  if (suffix == "K")
    mult = uint64_t(1) << 10;
  else if (suffix == "M")
    mult = uint64_t(1) << 20;
  else if (suffix == "G")
    mult = uint64_t(1) << 30;
  else if (!suffix.empty())
    digits = 0;
  if (digits == 0)
    usage(what + ": " + quote(text) +
          " is not a size (decimal bytes, or with a suffix K, M or G)");
  // More than 18 digits is out of range anyway (and could wrap strtoull).
  uint64_t v = digits > 18
                   ? UINT64_MAX
                   : std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
  if (v > hi / mult || v * mult < lo)
    usage(what + ": " + quote(text) + " is out of range [" + sizeName(lo) +
          ", " + sizeName(hi) + "]");
  return v * mult;
}

int64_t parseInt(const std::string &text, const std::string &what, int64_t lo,
                 int64_t hi) {
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || std::isspace((unsigned char)text[0]) ||
      (text.size() > 1 && text[0] == '0' &&
       std::isdigit((unsigned char)text[1])))
    usage(what + ": " + quote(text) + " is not a decimal integer");
  if (errno == ERANGE || v < lo || v > hi)
    usage(what + ": " + escapeBytes(text) + " is out of range [" +
          std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

std::vector<std::string> splitList(const std::string &text,
                                   const std::string &what) {
  std::vector<std::string> out;
  size_t b = 0;
  while (true) {
    size_t c = text.find(',', b);
    std::string item = text.substr(b, c == std::string::npos ? c : c - b);
    if (item.empty())
      usage(what + ": " + quote(text) + " has an empty entry");
    out.push_back(item);
    if (c == std::string::npos)
      break;
    b = c + 1;
  }
  return out;
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

Options parseArgs(int argc, char **argv) {
  Options o;
  bool help = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage("option " + quote(a) + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h")
      help = true;
    else if (a == "-o" || a == "--output")
      o.output = value();
    else if (a == "--check")
      o.check = value();
    else if (a == "--quick")
      o.quick = true;
    else if (a == "--verbose")
      o.verbose = true;
    else if (a == "--quiet")
      o.quiet = true;
    else if (a == "--same-card")
      o.sameCard = true;
    else if (a == "--device")
      o.device = int(parseInt(value(), "--device", 0, 2147483647));
    else if (a == "--pairs") {
      std::string v = value();
      Expected<std::vector<Pair>> p = parsePairs(v);
      if (!p)
        usage("--pairs: " + p.status().message());
      o.pairs = *p;
    } else if (a == "--max-bytes")
      o.maxBytes = parseSize(value(), "--max-bytes", uint64_t(64) << 10,
                             uint64_t(4) << 30);
    else if (a == "--threads") {
      o.threads.clear();
      for (const std::string &t : splitList(value(), "--threads"))
        o.threads.push_back(unsigned(parseInt(t, "--threads", 1, 256)));
      std::sort(o.threads.begin(), o.threads.end());
      o.threads.erase(std::unique(o.threads.begin(), o.threads.end()),
                      o.threads.end());
    } else if (a == "--chunks") {
      o.chunks.clear();
      for (const std::string &c : splitList(value(), "--chunks")) {
        uint64_t b =
            parseSize(c, "--chunks", uint64_t(64) << 10, uint64_t(256) << 20);
        if (b & (b - 1))
          usage("--chunks: " + quote(c) + " is not a power of two");
        o.chunks.push_back(b);
      }
      std::sort(o.chunks.begin(), o.chunks.end());
      o.chunks.erase(std::unique(o.chunks.begin(), o.chunks.end()),
                     o.chunks.end());
    } else if (a == "--max-seconds") {
      std::string v = value();
      char *end = nullptr;
      errno = 0;
      double s = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(s))
        usage("--max-seconds: " + quote(v) + " is not a finite number");
      if (s < 1 || s > 86400)
        usage("--max-seconds: " + v + " is out of range [1, 86400]");
      o.maxSeconds = s;
    } else if (a == "--pcie") {
      std::string v = value();
      size_t c = v.find(':');
      if (c == std::string::npos)
        usage("--pcie: " + quote(v) + " is not GEN:WIDTH (e.g. 5:16)");
      o.pcieGen = int(parseInt(v.substr(0, c), "--pcie generation", 1, 7));
      o.pcieWidth = int(parseInt(v.substr(c + 1), "--pcie width", 1, 32));
      int w = o.pcieWidth;
      if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16 && w != 32)
        usage("--pcie: width " + std::to_string(w) +
              " is not a PCIe link width (1, 2, 4, 8, 16, 32)");
    } else if (!a.empty() && a[0] == '-')
      usage("unknown option " + quote(a));
    else
      usage("unexpected argument " + quote(a) +
            " (the database is named with -o FILE)");
  }
  if (help) {
    std::fputs(kHelp, stdout);
    std::exit(0);
  }
  if (!o.check.empty() && !o.output.empty())
    usage("--check and -o exclude each other");
  if (o.check.empty() && o.output.empty())
    usage("no output: give -o FILE (or --check FILE)");
  if (!o.check.empty() &&
      (o.quick || o.maxBytes || !o.pairs.empty() || !o.threads.empty() ||
       !o.chunks.empty() || o.maxSeconds > 0))
    usage("--check takes no measuring option (--quick, --pairs, --max-bytes, "
          "--threads, --chunks, --max-seconds)");
  if (o.check.empty() && o.sameCard)
    usage("--same-card goes with --check");
  return o;
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
    Options o = parseArgs(argc, argv);
    return o.check.empty() ? runInspect(o) : runCheck(o);
  } catch (const CliError &e) {
    // Messages are built with quote(): file contents arrive escaped.
    const std::string &m = e.message;
    if (e.code == 1 &&
        m.find("precision database was recorded") == std::string::npos)
      std::fprintf(stderr, "approx-inspect: %s (see approx-inspect --help)\n",
                   m.c_str());
    else
      std::fprintf(stderr, "approx-inspect: error: %s\n", m.c_str());
    return e.code;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "approx-inspect: error: out of host memory\n");
  } catch (const std::exception &e) {
    std::fprintf(stderr, "approx-inspect: error: %s\n",
                 escapeBytes(e.what()).c_str());
  }
  return 2;
}
