//===- SystemDb.h - The system inspector's database of throughputs -*- C++ -*-=//
//
// Precision scaling (issue 10, docs/precision.md, "System database and
// decision maker"): PreScaler's system inspector measures, once per machine,
// how fast this host and GPU convert and move arrays of f64/f32/f16/bf16
// (host conversion per thread count, device conversion, pinned and pageable
// transfers, pipelined conversion + transfer), for sizes from 64 KiB to
// 1 GiB. This file is that record: a versioned JSON file
// ("format": "approx-precision-db", "version": 1), its validating loader, an
// atomic writer, the calls the inspector uses to add measurements, and the
// predictions the decision maker makes from it (Algorithm 2 never runs
// anything: it reads this database).
//
// Size and throughput conventions (every table): `bytes` is the size of the
// source array of the operation (for a transfer: the bytes moved); `gbps` is
// 1e9 bytes per second where the bytes counted are source + destination for
// the conversion tables (host, device, pipelined; as
// bench/precision/host-convert-bench reports) and the bytes moved for a
// transfer. Between measured sizes the throughput is interpolated linearly
// in log(size) -> log(throughput); outside the measured range it is clamped
// to the nearest measured point's throughput (time then grows linearly).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_PRECISION_SYSTEMDB_H
#define APPROX_RUNTIME_PRECISION_SYSTEMDB_H

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace approx::rt::precision {

/// Host to device or device to host.
enum class Direction { H2D, D2H };
/// "h2d", "d2h".
const char *directionName(Direction d);
Expected<Direction> parseDirection(const std::string &name);

/// The host side of a transfer: page-locked or ordinary memory.
enum class HostMemory { Pinned, Pageable };
/// "pinned", "pageable".
const char *hostMemoryName(HostMemory m);
Expected<HostMemory> parseHostMemory(const std::string &name);

/// Where a pipelined method converts its chunks.
enum class Where { Host, Device };
/// "host", "device".
const char *whereName(Where w);
Expected<Where> parseWhere(const std::string &name);

/// The host part of a machine fingerprint (currentCpu() fills it).
struct CpuInfo {
  std::string model;     ///< /proc/cpuinfo "model name" (first CPU)
  unsigned logicalCores = 0; ///< std::thread::hardware_concurrency()
  std::string simd;      ///< "avx512f+avx2+f16c", "avx2+f16c", ..., "none"
};

/// The GPU part of a fingerprint (the inspector fills it from the driver:
/// cuDeviceGetName, cuDeviceGetUuid, the driver version, and the PCIe link's
/// *maximum* generation and width, not the current ones, which drop while
/// the GPU idles).
struct GpuInfo {
  std::string name;   ///< "NVIDIA H100 PCIe"
  std::string uuid;   ///< "GPU-6f1c..."
  std::string driver; ///< "550.54.15"
  int pcieGen = 0;    ///< 1..7
  int pcieWidth = 0;  ///< 1, 2, 4, 8, 16 or 32
};

/// The machine a database was recorded on.
struct Fingerprint {
  CpuInfo cpu;
  GpuInfo gpu;
};

/// This host's CPU: model from /proc/cpuinfo ("unknown" when absent), the
/// logical core count, and the SIMD features convert() can use.
CpuInfo currentCpu();
/// The first "model name" (x86), else "Model name"/"Hardware"/"CPU part"
/// value of a /proc/cpuinfo text, trimmed; "unknown" when none.
std::string cpuModelFromCpuinfo(const std::string &text);
/// The SIMD level of this CPU: those of avx512f, avx2, f16c present, joined
/// by '+' in that order, or "none" (and always "none" off x86).
std::string currentSimd();
/// The current UTC time as "YYYY-MM-DDTHH:MM:SSZ" (for SystemDb::created).
std::string utcNow();

/// Which fields of two fingerprints must agree for a database to be used.
enum class MachineMatch {
  /// The same CPU model, logical core count, SIMD level, GPU model and PCIe
  /// link (gen, width): what the throughputs depend on. Another card of the
  /// same model (another UUID), or another driver release, is accepted.
  SameModel,
  /// SameModel plus the GPU UUID and the driver version.
  SameCard,
};

/// The dotted names ("cpu.model", "gpu.pcie_gen", ...) of the fields that
/// differ between `a` and `b`, all eight fields compared, in schema order.
std::vector<std::string> machineDifferences(const Fingerprint &a,
                                            const Fingerprint &b);

/// One measured size.
struct Point {
  uint64_t bytes = 0; ///< source bytes (transfer: bytes moved)
  double gbps = 0;    ///< 1e9 bytes / s (see the file comment)
};

/// Host conversion `from` -> `to` with `threads` threads (1: a single loop),
/// ConvertOptions::Auto.
struct HostConvertTable {
  ScalarType from = ScalarType::F64, to = ScalarType::F32;
  unsigned threads = 1;
  std::vector<Point> points; ///< strictly increasing bytes
};
/// A conversion kernel on the device, device memory to device memory.
struct DeviceConvertTable {
  ScalarType from = ScalarType::F64, to = ScalarType::F32;
  std::vector<Point> points;
};
/// A plain copy between host and device memory.
struct TransferTable {
  Direction direction = Direction::H2D;
  HostMemory memory = HostMemory::Pinned;
  std::vector<Point> points;
};
/// Conversion overlapped with the transfer, `chunkBytes` (source bytes) at a
/// time: H2D converts `from` (host type) to `to` (device type); D2H
/// converts `from` (device type) to `to` (host type). `threads` is the host
/// conversion's thread count (Where::Host) and 0 for Where::Device. The
/// measurement covers the whole operation, from the source array in
/// ordinary host memory (H2D) or device memory (D2H) to the destination.
struct PipelinedTable {
  Direction direction = Direction::H2D;
  ScalarType from = ScalarType::F64, to = ScalarType::F32;
  Where where = Where::Host;
  unsigned threads = 0;
  uint64_t chunkBytes = 0;
  std::vector<Point> points;
};

/// How one memory object moves in one direction between its declared type A
/// (the host's array) and its storage type B (the device buffer, the kernel
/// variant's type). H2D below; D2H is the mirror image.
struct Method {
  enum Kind {
    None,      ///< no transfer in this direction was profiled
    Copy,      ///< A == B: transfer A bytes from/to the host array
    Host,      ///< host converts A -> B (threads), transfer B bytes
    Device,    ///< transfer A bytes, device converts A -> B
    Transient, ///< host A -> intermediate (threads), transfer intermediate
               ///< bytes, device intermediate -> B
    Pipelined, ///< chunks of conversion overlapped with their transfer
  };
  Kind kind = Copy;
  unsigned threads = 0;   ///< Host, Transient, Pipelined on the host: >= 1
  ScalarType intermediate = ScalarType::F32; ///< Transient only
  Where where = Where::Host;                  ///< Pipelined only
  uint64_t chunkBytes = 0;                   ///< Pipelined only

  static Method none() {
    Method m;
    m.kind = None;
    return m;
  }
  static Method copy();
  static Method host(unsigned threads);
  static Method device();
  static Method transient(ScalarType intermediate, unsigned threads);
  static Method pipelined(Where where, unsigned threads, uint64_t chunkBytes);

  /// "copy", "host(t=16)", "device", "transient(f32,t=16)",
  /// "pipelined(host,t=16,chunk=4194304)", "pipelined(device,chunk=...)",
  /// "none".
  std::string str() const;
  bool operator==(const Method &o) const { return str() == o.str(); }
  bool operator!=(const Method &o) const { return !(*this == o); }
};
/// "none", "copy", "host", "device", "transient", "pipelined".
const char *methodKindName(Method::Kind k);

/// The throughput at `bytes` of a table (log-log interpolation, clamped);
/// `points` must be non-empty with strictly increasing bytes.
double interpolateGbps(const std::vector<Point> &points, double bytes);

/// Where a move's host-side bytes live.
struct MoveMemory {
  HostMemory app = HostMemory::Pageable;   ///< the program's own array
  HostMemory staging = HostMemory::Pinned; ///< the runtime's conversion
                                           ///< buffers (allocated once)
};

/// The whole record. Tables are unique by their key (all fields but points).
struct SystemDb {
  Fingerprint machine;
  std::string created; ///< ISO 8601 UTC, "2026-11-25T10:00:00Z"
  std::vector<HostConvertTable> hostConvert;
  std::vector<DeviceConvertTable> deviceConvert;
  std::vector<TransferTable> transfer;
  std::vector<PipelinedTable> pipelined;

  // --- recording (the inspector) --------------------------------------
  // Each adds one measured point, creating the table if needed; a point at
  // a size already measured is replaced. InvalidArgument for a type that is
  // not f64/f32/f16/bf16, from == to, bytes == 0, a throughput that is not
  // finite and > 0, threads == 0 (host), a chunk of 0 bytes, a device
  // pipeline with threads != 0.
  Status addHostConvert(ScalarType from, ScalarType to, unsigned threads,
                        uint64_t bytes, double gbps);
  Status addDeviceConvert(ScalarType from, ScalarType to, uint64_t bytes,
                          double gbps);
  Status addTransfer(Direction d, HostMemory m, uint64_t bytes, double gbps);
  Status addPipelined(Direction d, ScalarType from, ScalarType to, Where w,
                      unsigned threads, uint64_t chunkBytes, uint64_t bytes,
                      double gbps);

  // --- lookups --------------------------------------------------------
  const HostConvertTable *findHostConvert(ScalarType from, ScalarType to,
                                          unsigned threads) const;
  const DeviceConvertTable *findDeviceConvert(ScalarType from,
                                              ScalarType to) const;
  const TransferTable *findTransfer(Direction d, HostMemory m) const;
  const PipelinedTable *findPipelined(Direction d, ScalarType from,
                                      ScalarType to, Where w,
                                      unsigned threads,
                                      uint64_t chunkBytes) const;
  /// The thread counts measured for host conversion from -> to, ascending.
  std::vector<unsigned> hostThreads(ScalarType from, ScalarType to) const;
  /// The pipelined tables for (d, from, to), in file order.
  std::vector<const PipelinedTable *>
  pipelinedFor(Direction d, ScalarType from, ScalarType to) const;

  // --- predictions (seconds; NotFound naming the table when absent) ----
  // Sizes between or beyond a table's points interpolate (log-log) or take
  // the end point's rate, except a pipelined table below its smallest size:
  // NotFound (fewer chunks than measured overlap less; bestMethod then
  // picks among the other methods).
  Expected<double> hostConvertSeconds(ScalarType from, ScalarType to,
                                      unsigned threads, uint64_t n) const;
  Expected<double> deviceConvertSeconds(ScalarType from, ScalarType to,
                                        uint64_t n) const;
  Expected<double> transferSeconds(Direction d, HostMemory m,
                                   uint64_t bytes) const;
  Expected<double> pipelinedSeconds(Direction d, ScalarType from,
                                    ScalarType to, Where w, unsigned threads,
                                    uint64_t chunkBytes, uint64_t n) const;
  /// The time of moving `n` elements of an object declared `declared` and
  /// stored as `stored` in direction `d` with `method`: the sum of its
  /// steps (Host: conversion + staging transfer; Device: app-memory
  /// transfer + device conversion; Transient: host part + staging transfer
  /// of the intermediate + device part; Pipelined: its table; Copy: an
  /// app-memory transfer; None: 0). InvalidArgument when the method does not
  /// fit the types (Copy with declared != stored, a conversion with
  /// declared == stored, a transient intermediate equal to either type);
  /// NotFound when a table it needs is absent.
  Expected<double> predictMove(ScalarType declared, ScalarType stored,
                               Direction d, uint64_t n, const Method &method,
                               const MoveMemory &memory = {}) const;
};

/// Parses and validates a database. Every error is one ParseError line
/// naming the JSON path ("precision db: host_convert[1].points[2].bytes:
/// 1048576 is not larger than the previous size 1048576"): wrong format or
/// version, a missing or mistyped field, an unknown field, an unknown type
/// name, from == to, a throughput not > 0, sizes not strictly increasing, a
/// table without points, two tables with the same key.
Expected<SystemDb> parseSystemDb(const std::string &text);
/// Reads and parses `path` (a regular file of at most 64 MiB).
Expected<SystemDb> loadSystemDb(const std::string &path);
/// The JSON text of `db` (tables in their order, points as recorded).
std::string systemDbToJson(const SystemDb &db);
/// Writes `db` to `path` atomically: a temporary file in the same
/// directory, flushed and fsync'ed, then renamed over `path`; on any
/// failure the temporary is removed and `path` is untouched (IoError naming
/// the file and the cause).
Status saveSystemDb(const SystemDb &db, const std::string &path);

/// Writes `text` to `path` as saveSystemDb does; `what` names the file in
/// errors.
Status writeFileAtomically(const std::string &path, const std::string &text,
                           const std::string &what);

/// Ok when `db` was recorded on a machine like `current` (`match` says which
/// fields count); otherwise InvalidArgument, one line: "precision database
/// was recorded on 'CPU' (N cores, SIMD) with 'GPU' (PCIe G xW), this
/// machine is ... (differs in cpu.model, gpu.name): re-run approx-inspect".
Status checkMachine(const SystemDb &db, const Fingerprint &current,
                    MachineMatch match = MachineMatch::SameModel);

} // namespace approx::rt::precision

#endif // APPROX_RUNTIME_PRECISION_SYSTEMDB_H
