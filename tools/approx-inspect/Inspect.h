//===- Inspect.h - approx-inspect's fingerprint and measurements -*- C++
//-*-===//
//
// The system inspector of precision scaling (issue 10; PreScaler, CGO'20,
// §4): the machine's fingerprint (CPU, GPU, driver, PCIe link) and the
// throughput of every conversion and transfer method, recorded in the
// database of runtime/precision/SystemDb.h. approx-inspect.cpp is the
// command line around it; this part takes a Context so that it also runs
// over a test driver table.
//
// Measurements run size-major (every table at 64 KiB, then every table at
// 256 KiB, ...), so that a time budget that runs out drops the largest
// sizes of every table rather than whole tables.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_INSPECT_INSPECT_H
#define APPROX_INSPECT_INSPECT_H

#include "approx/runtime/core/Runtime.h"
#include "approx/runtime/precision/SystemDb.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace approx::inspect {

using rt::ScalarType;

/// One ordered conversion pair.
struct Pair {
  ScalarType from = ScalarType::F64, to = ScalarType::F32;
  bool operator==(const Pair &o) const { return from == o.from && to == o.to; }
};

/// "f64->f32".
std::string pairName(const Pair &p);
/// The pairs precision scaling uses: f64 -> f32, f16, bf16; f32 -> f16,
/// bf16 (the host-to-device narrowings) and their reverse widenings (the
/// way back), narrowings first.
std::vector<Pair> defaultPairs();
/// Parses "f64:f32,f32:f64,..." (duplicates dropped, order kept);
/// InvalidArgument naming the bad entry.
rt::Expected<std::vector<Pair>> parsePairs(const std::string &text);

/// What to measure and how long to try.
struct InspectOptions {
  std::vector<Pair> pairs;        ///< empty: defaultPairs()
  uint64_t maxBytes = 1ull << 30; ///< largest source size measured
  std::vector<unsigned> threads;  ///< host thread counts (ascending)
  unsigned pipelineThreads = 1;   ///< host threads of a host-side pipeline
  std::vector<uint64_t> chunks;   ///< pipelined chunk sizes (source bytes)
  double maxSeconds = 170;        ///< budget of the measuring phase
  bool quick = false;             ///< fewer repetitions
  bool verbose = false;           ///< repetition details on stderr
};

/// The sizes measured: 64 KiB * 4^k <= maxBytes.
std::vector<uint64_t> inspectSizes(uint64_t maxBytes);
/// 1, 2, 4, ... below `cores`, then `cores`.
std::vector<unsigned> defaultThreads(unsigned cores);

/// Where lines go: progress / warnings (stderr in the tool).
using LogFn = std::function<void(const std::string &)>;

/// The GPU part of this machine's fingerprint for `ctx`'s device: name,
/// UUID ("GPU-xxxxxxxx-..."), driver ("550.54.15" from
/// /proc/driver/nvidia/version, else "cuda-api-12040"), maximum PCIe link
/// generation and width from sysfs (0 when unreadable; `warn` says why).
rt::precision::GpuInfo gpuFingerprint(const rt::Context &ctx,
                                      const LogFn &warn);
/// The generation of a sysfs max_link_speed text ("32.0 GT/s PCIe" -> 5;
/// 2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6, 128 -> 7); 0 if
/// not one of those.
int pcieGenFromSpeed(const std::string &text);
/// The driver version in a /proc/driver/nvidia/version text ("550.54.15");
/// "" when none.
std::string driverFromProcVersion(const std::string &text);

/// What inspect() did beyond the database.
struct InspectReport {
  size_t measured = 0;       ///< points recorded
  size_t skipped = 0;        ///< points dropped by the budget
  uint64_t firstSkipped = 0; ///< smallest size dropped (0: none)
  double seconds = 0;        ///< wall time of the measuring phase
};

/// Measures every table of `opt` on `ctx` into `db` (whose machine and
/// created fields the caller fills). Buffers are allocated once (host
/// pageable and pinned, device), sized for the largest measurement; an
/// allocation failure (pinned memory included) is returned as is, naming
/// the buffer. `progress` gets one line per measured point.
rt::Status inspect(const std::shared_ptr<rt::Context> &ctx,
                   const InspectOptions &opt, rt::precision::SystemDb &db,
                   InspectReport &report, const LogFn &progress,
                   const LogFn &warn);

/// The summary table (stdout): for every measured pair and its direction
/// (narrowing pairs H2D, widening D2H), per size, the predicted time of the
/// best host-single, host-multi, device and pipelined method (SystemDb's
/// predictMove: the program's array pageable, staging pinned) and the
/// winner, as the paper's Figure 5.
std::string summaryTable(const rt::precision::SystemDb &db,
                         const std::vector<Pair> &pairs,
                         const std::vector<uint64_t> &sizes);

/// "64 KiB", "1 GiB".
std::string sizeName(uint64_t bytes);

} // namespace approx::inspect

#endif // APPROX_INSPECT_INSPECT_H
