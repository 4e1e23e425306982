//===- SystemDb.cpp - The system inspector's database ---------------------===//
//
// The JSON side reads through JsonFields.h: every schema violation becomes
// one ParseError line naming the JSON path, and names read from the file are
// escaped (quote) before they reach a message.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/SystemDb.h"

#include "JsonFormat.h"

#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/precision/HostConvert.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace approx::rt::precision {

using json = nlohmann::json;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

const char *directionName(Direction d) {
  return d == Direction::H2D ? "h2d" : "d2h";
}
Expected<Direction> parseDirection(const std::string &name) {
  if (name == "h2d")
    return Direction::H2D;
  if (name == "d2h")
    return Direction::D2H;
  return invalidArgument("unknown direction " + quote(name) +
                         " (expected h2d or d2h)");
}
const char *hostMemoryName(HostMemory m) {
  return m == HostMemory::Pinned ? "pinned" : "pageable";
}
Expected<HostMemory> parseHostMemory(const std::string &name) {
  if (name == "pinned")
    return HostMemory::Pinned;
  if (name == "pageable")
    return HostMemory::Pageable;
  return invalidArgument("unknown host memory " + quote(name) +
                         " (expected pinned or pageable)");
}
const char *whereName(Where w) { return w == Where::Host ? "host" : "device"; }
Expected<Where> parseWhere(const std::string &name) {
  if (name == "host")
    return Where::Host;
  if (name == "device")
    return Where::Device;
  return invalidArgument("unknown conversion side " + quote(name) +
                         " (expected host or device)");
}

const char *methodKindName(Method::Kind k) {
  switch (k) {
  case Method::None:
    return "none";
  case Method::Copy:
    return "copy";
  case Method::Host:
    return "host";
  case Method::Device:
    return "device";
  case Method::Transient:
    return "transient";
  case Method::Pipelined:
    return "pipelined";
  }
  return "?";
}

Method Method::copy() {
  Method m;
  m.kind = Copy;
  return m;
}
Method Method::host(unsigned threads) {
  Method m;
  m.kind = Host;
  m.threads = threads;
  return m;
}
Method Method::device() {
  Method m;
  m.kind = Device;
  return m;
}
Method Method::transient(ScalarType intermediate, unsigned threads) {
  Method m;
  m.kind = Transient;
  m.intermediate = intermediate;
  m.threads = threads;
  return m;
}
Method Method::pipelined(Where where, unsigned threads, uint64_t chunkBytes) {
  Method m;
  m.kind = Pipelined;
  m.where = where;
  m.threads = where == Where::Host ? threads : 0;
  m.chunkBytes = chunkBytes;
  return m;
}

std::string Method::str() const {
  switch (kind) {
  case None:
  case Copy:
  case Device:
    return methodKindName(kind);
  case Host:
    return "host(t=" + std::to_string(threads) + ")";
  case Transient:
    return std::string("transient(") + scalarTypeName(intermediate) +
           ",t=" + std::to_string(threads) + ")";
  case Pipelined:
    if (where == Where::Host)
      return "pipelined(host,t=" + std::to_string(threads) +
             ",chunk=" + std::to_string(chunkBytes) + ")";
    return "pipelined(device,chunk=" + std::to_string(chunkBytes) + ")";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// This machine
//===----------------------------------------------------------------------===//

static std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string cpuModelFromCpuinfo(const std::string &text) {
  // x86 names the model in "model name"; Arm kernels print "Model name" (lscpu
  // style, some), "Hardware" or only "CPU part".
  static const char *const kKeys[] = {"model name", "Model name", "Hardware",
                                      "CPU part"};
  for (const char *key : kKeys) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      size_t colon = line.find(':');
      if (colon == std::string::npos || trim(line.substr(0, colon)) != key)
        continue;
      std::string v = trim(line.substr(colon + 1));
      if (!v.empty())
        return v;
    }
  }
  return "unknown";
}

std::string currentSimd() {
  std::string s;
#if defined(__x86_64__) || defined(__i386__)
  auto add = [&](const char *f) { s += (s.empty() ? "" : "+") + std::string(f); };
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    add("avx512f");
  if (__builtin_cpu_supports("avx2"))
    add("avx2");
  // clang 14's builtin does not know "f16c": CPUID leaf 1, ECX bit 29.
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29)))
    add("f16c");
#endif
  return s.empty() ? "none" : s;
}

CpuInfo currentCpu() {
  CpuInfo c;
  // /proc files report size 0 to fstat, so read as a stream; a failure
  // leaves the model "unknown".
  std::ifstream in("/proc/cpuinfo");
  std::stringstream ss;
  ss << in.rdbuf();
  c.model = cpuModelFromCpuinfo(ss.str());
  c.logicalCores = std::max(1u, std::thread::hardware_concurrency());
  c.simd = currentSimd();
  return c;
}

std::string utcNow() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::vector<std::string> machineDifferences(const Fingerprint &a,
                                            const Fingerprint &b) {
  std::vector<std::string> d;
  if (a.cpu.model != b.cpu.model)
    d.push_back("cpu.model");
  if (a.cpu.logicalCores != b.cpu.logicalCores)
    d.push_back("cpu.logical_cores");
  if (a.cpu.simd != b.cpu.simd)
    d.push_back("cpu.simd");
  if (a.gpu.name != b.gpu.name)
    d.push_back("gpu.name");
  if (a.gpu.uuid != b.gpu.uuid)
    d.push_back("gpu.uuid");
  if (a.gpu.driver != b.gpu.driver)
    d.push_back("gpu.driver");
  if (a.gpu.pcieGen != b.gpu.pcieGen)
    d.push_back("gpu.pcie_gen");
  if (a.gpu.pcieWidth != b.gpu.pcieWidth)
    d.push_back("gpu.pcie_width");
  return d;
}

static std::string describe(const Fingerprint &f) {
  return quote(f.cpu.model) + " (" + std::to_string(f.cpu.logicalCores) +
         " cores, " + escapeBytes(f.cpu.simd) + ") with " + quote(f.gpu.name) +
         " (PCIe " + std::to_string(f.gpu.pcieGen) + " x" +
         std::to_string(f.gpu.pcieWidth) + ")";
}

Status checkMachine(const SystemDb &db, const Fingerprint &current,
                    MachineMatch match) {
  std::vector<std::string> diff = machineDifferences(db.machine, current);
  std::string fields;
  for (const std::string &f : diff) {
    if (match == MachineMatch::SameModel &&
        (f == "gpu.uuid" || f == "gpu.driver"))
      continue;
    fields += (fields.empty() ? "" : ", ") + f;
  }
  if (fields.empty())
    return Status::ok();
  std::string extra;
  if (match == MachineMatch::SameCard &&
      std::find(diff.begin(), diff.end(), "gpu.uuid") != diff.end())
    extra = ", GPU " + quote(db.machine.gpu.uuid) + " vs " +
            quote(current.gpu.uuid);
  if (match == MachineMatch::SameCard &&
      std::find(diff.begin(), diff.end(), "gpu.driver") != diff.end())
    extra += ", driver " + quote(db.machine.gpu.driver) + " vs " +
             quote(current.gpu.driver);
  return invalidArgument("precision database was recorded on " +
                         describe(db.machine) + ", this machine is " +
                         describe(current) + " (differs in " + fields + extra +
                         "): re-run approx-inspect");
}

//===----------------------------------------------------------------------===//
// Interpolation and prediction
//===----------------------------------------------------------------------===//

double interpolateGbps(const std::vector<Point> &p, double bytes) {
  if (p.empty())
    return 0;
  if (bytes <= double(p.front().bytes))
    return p.front().gbps;
  if (bytes >= double(p.back().bytes))
    return p.back().gbps;
  size_t i = 1;
  while (double(p[i].bytes) < bytes)
    ++i;
  const Point &a = p[i - 1], &b = p[i];
  double t = (std::log(bytes) - std::log(double(a.bytes))) /
             (std::log(double(b.bytes)) - std::log(double(a.bytes)));
  return std::exp(std::log(a.gbps) + t * (std::log(b.gbps) - std::log(a.gbps)));
}

static double secondsFor(const std::vector<Point> &p, double sizeBytes,
                         double countedBytes) {
  if (countedBytes <= 0)
    return 0;
  return countedBytes / (interpolateGbps(p, sizeBytes) * 1e9);
}

static std::string pairName(ScalarType from, ScalarType to) {
  return std::string(scalarTypeName(from)) + " -> " + scalarTypeName(to);
}

const HostConvertTable *SystemDb::findHostConvert(ScalarType from,
                                                  ScalarType to,
                                                  unsigned threads) const {
  for (const HostConvertTable &t : hostConvert)
    if (t.from == from && t.to == to && t.threads == threads)
      return &t;
  return nullptr;
}
const DeviceConvertTable *SystemDb::findDeviceConvert(ScalarType from,
                                                      ScalarType to) const {
  for (const DeviceConvertTable &t : deviceConvert)
    if (t.from == from && t.to == to)
      return &t;
  return nullptr;
}
const TransferTable *SystemDb::findTransfer(Direction d, HostMemory m) const {
  for (const TransferTable &t : transfer)
    if (t.direction == d && t.memory == m)
      return &t;
  return nullptr;
}
const PipelinedTable *SystemDb::findPipelined(Direction d, ScalarType from,
                                              ScalarType to, Where w,
                                              unsigned threads,
                                              uint64_t chunk) const {
  for (const PipelinedTable &t : pipelined)
    if (t.direction == d && t.from == from && t.to == to && t.where == w &&
        t.threads == threads && t.chunkBytes == chunk)
      return &t;
  return nullptr;
}
std::vector<unsigned> SystemDb::hostThreads(ScalarType from,
                                            ScalarType to) const {
  std::vector<unsigned> r;
  for (const HostConvertTable &t : hostConvert)
    if (t.from == from && t.to == to)
      r.push_back(t.threads);
  std::sort(r.begin(), r.end());
  return r;
}
std::vector<const PipelinedTable *>
SystemDb::pipelinedFor(Direction d, ScalarType from, ScalarType to) const {
  std::vector<const PipelinedTable *> r;
  for (const PipelinedTable &t : pipelined)
    if (t.direction == d && t.from == from && t.to == to)
      r.push_back(&t);
  return r;
}

Expected<double> SystemDb::hostConvertSeconds(ScalarType from, ScalarType to,
                                              unsigned threads,
                                              uint64_t n) const {
  const HostConvertTable *t = findHostConvert(from, to, threads);
  if (!t)
    return notFound("precision database has no host conversion table for " +
                    pairName(from, to) + " with " + std::to_string(threads) +
                    " thread(s)");
  double src = double(n) * double(scalarTypeSize(from));
  double dst = double(n) * double(scalarTypeSize(to));
  return secondsFor(t->points, src, src + dst);
}
Expected<double> SystemDb::deviceConvertSeconds(ScalarType from, ScalarType to,
                                                uint64_t n) const {
  const DeviceConvertTable *t = findDeviceConvert(from, to);
  if (!t)
    return notFound("precision database has no device conversion table for " +
                    pairName(from, to));
  double src = double(n) * double(scalarTypeSize(from));
  double dst = double(n) * double(scalarTypeSize(to));
  return secondsFor(t->points, src, src + dst);
}
Expected<double> SystemDb::transferSeconds(Direction d, HostMemory m,
                                           uint64_t bytes) const {
  const TransferTable *t = findTransfer(d, m);
  if (!t)
    return notFound(std::string("precision database has no ") +
                    hostMemoryName(m) + " " + directionName(d) +
                    " transfer table");
  return secondsFor(t->points, double(bytes), double(bytes));
}
Expected<double> SystemDb::pipelinedSeconds(Direction d, ScalarType from,
                                            ScalarType to, Where w,
                                            unsigned threads, uint64_t chunk,
                                            uint64_t n) const {
  const PipelinedTable *t = findPipelined(d, from, to, w, threads, chunk);
  if (!t)
    return notFound(std::string("precision database has no pipelined ") +
                    directionName(d) + " table for " + pairName(from, to) +
                    " converting on the " + whereName(w) +
                    (w == Where::Host
                         ? " with " + std::to_string(threads) + " thread(s)"
                         : std::string()) +
                    " in chunks of " + std::to_string(chunk) + " bytes");
  double src = double(n) * double(scalarTypeSize(from));
  double dst = double(n) * double(scalarTypeSize(to));
  // No extrapolation below the table: a pipeline of fewer chunks than the
  // inspector measured (4) overlaps less, and taking its smallest point's
  // rate predicted a 2 MiB move 5x too fast (GEMM's C, H100 2026-11-26).
  if (!t->points.empty() && src < double(t->points.front().bytes))
    return Status(StatusCode::NotFound,
                  "precision database: pipelined " +
                      std::string(directionName(d)) + " " +
                      pairName(from, to) + " in chunks of " +
                      std::to_string(chunk) + " bytes was measured from " +
                      std::to_string(t->points.front().bytes) +
                      " bytes, not for " +
                      std::to_string(uint64_t(src)));
  return secondsFor(t->points, src, src + dst);
}

Expected<double> SystemDb::predictMove(ScalarType A, ScalarType B, Direction d,
                                       uint64_t n, const Method &m,
                                       const MoveMemory &mem) const {
  if (!isPrecision(A) || !isPrecision(B))
    return invalidArgument(std::string("cannot predict a move of ") +
                           scalarTypeName(A) + " stored as " +
                           scalarTypeName(B) +
                           ": not f64, f32, f16 or bf16");
  if (m.kind == Method::None)
    return 0.0;
  if ((m.kind == Method::Copy) != (A == B))
    return invalidArgument("method " + m.str() + " does not fit " +
                           scalarTypeName(A) + " stored as " +
                           scalarTypeName(B) +
                           (A == B ? " (same type: copy)"
                                   : " (types differ: copy cannot convert)"));
  bool h2d = d == Direction::H2D;
  // Source and destination of each conversion step, by direction.
  auto conv = [&](ScalarType x, ScalarType y) {
    return h2d ? std::make_pair(x, y) : std::make_pair(y, x);
  };
  uint64_t aBytes = n * scalarTypeSize(A), bBytes = n * scalarTypeSize(B);
  switch (m.kind) {
  case Method::None:
    return 0.0;
  case Method::Copy:
    return transferSeconds(d, mem.app, aBytes);
  case Method::Host: {
    if (m.threads == 0)
      return invalidArgument("method host needs threads >= 1");
    auto [f, t] = conv(A, B);
    APPROX_ASSIGN_OR_RETURN(double c, hostConvertSeconds(f, t, m.threads, n));
    APPROX_ASSIGN_OR_RETURN(double x, transferSeconds(d, mem.staging, bBytes));
    return c + x;
  }
  case Method::Device: {
    auto [f, t] = conv(A, B);
    APPROX_ASSIGN_OR_RETURN(double c, deviceConvertSeconds(f, t, n));
    APPROX_ASSIGN_OR_RETURN(double x, transferSeconds(d, mem.app, aBytes));
    return c + x;
  }
  case Method::Transient: {
    ScalarType I = m.intermediate;
    if (!isPrecision(I) || I == A || I == B)
      return invalidArgument(std::string("transient intermediate ") +
                             scalarTypeName(I) + " must differ from " +
                             scalarTypeName(A) + " and " + scalarTypeName(B));
    if (m.threads == 0)
      return invalidArgument("method transient needs threads >= 1");
    auto [hf, ht] = conv(A, I);
    auto [df, dt] = conv(I, B);
    APPROX_ASSIGN_OR_RETURN(double h, hostConvertSeconds(hf, ht, m.threads, n));
    APPROX_ASSIGN_OR_RETURN(double dv, deviceConvertSeconds(df, dt, n));
    APPROX_ASSIGN_OR_RETURN(
        double x, transferSeconds(d, mem.staging, n * scalarTypeSize(I)));
    return h + x + dv;
  }
  case Method::Pipelined: {
    if (m.chunkBytes == 0 || (m.where == Where::Host && m.threads == 0))
      return invalidArgument("method " + m.str() +
                             " needs a chunk size and host threads");
    auto [f, t] = conv(A, B);
    return pipelinedSeconds(d, f, t, m.where, m.threads, m.chunkBytes, n);
  }
  }
  return internalError("unknown method kind");
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

static Status checkPoint(uint64_t bytes, double gbps) {
  if (bytes == 0)
    return invalidArgument("a measurement needs a size > 0 bytes");
  if (!std::isfinite(gbps) || gbps <= 0)
    return invalidArgument("throughput " + std::to_string(gbps) +
                           " GB/s is not a finite positive number");
  return Status::ok();
}
static Status checkPair(ScalarType from, ScalarType to) {
  if (!isPrecision(from) || !isPrecision(to))
    return invalidArgument(std::string("conversion ") + pairName(from, to) +
                           " is not between f64, f32, f16 and bf16");
  if (from == to)
    return invalidArgument(std::string("conversion ") + pairName(from, to) +
                           " converts nothing");
  return Status::ok();
}
static void insertPoint(std::vector<Point> &pts, uint64_t bytes, double gbps) {
  auto it = std::lower_bound(
      pts.begin(), pts.end(), bytes,
      [](const Point &p, uint64_t b) { return p.bytes < b; });
  if (it != pts.end() && it->bytes == bytes)
    it->gbps = gbps;
  else
    pts.insert(it, Point{bytes, gbps});
}

Status SystemDb::addHostConvert(ScalarType from, ScalarType to,
                                unsigned threads, uint64_t bytes,
                                double gbps) {
  APPROX_RETURN_IF_ERROR(checkPair(from, to));
  APPROX_RETURN_IF_ERROR(checkPoint(bytes, gbps));
  if (threads == 0)
    return invalidArgument("host conversion needs threads >= 1");
  for (HostConvertTable &t : hostConvert)
    if (t.from == from && t.to == to && t.threads == threads) {
      insertPoint(t.points, bytes, gbps);
      return Status::ok();
    }
  hostConvert.push_back({from, to, threads, {{bytes, gbps}}});
  return Status::ok();
}
Status SystemDb::addDeviceConvert(ScalarType from, ScalarType to,
                                  uint64_t bytes, double gbps) {
  APPROX_RETURN_IF_ERROR(checkPair(from, to));
  APPROX_RETURN_IF_ERROR(checkPoint(bytes, gbps));
  for (DeviceConvertTable &t : deviceConvert)
    if (t.from == from && t.to == to) {
      insertPoint(t.points, bytes, gbps);
      return Status::ok();
    }
  deviceConvert.push_back({from, to, {{bytes, gbps}}});
  return Status::ok();
}
Status SystemDb::addTransfer(Direction d, HostMemory m, uint64_t bytes,
                             double gbps) {
  APPROX_RETURN_IF_ERROR(checkPoint(bytes, gbps));
  for (TransferTable &t : transfer)
    if (t.direction == d && t.memory == m) {
      insertPoint(t.points, bytes, gbps);
      return Status::ok();
    }
  transfer.push_back({d, m, {{bytes, gbps}}});
  return Status::ok();
}
Status SystemDb::addPipelined(Direction d, ScalarType from, ScalarType to,
                              Where w, unsigned threads, uint64_t chunk,
                              uint64_t bytes, double gbps) {
  APPROX_RETURN_IF_ERROR(checkPair(from, to));
  APPROX_RETURN_IF_ERROR(checkPoint(bytes, gbps));
  if (chunk == 0)
    return invalidArgument("a pipelined method needs a chunk > 0 bytes");
  if (w == Where::Host && threads == 0)
    return invalidArgument("a host-side pipeline needs threads >= 1");
  if (w == Where::Device && threads != 0)
    return invalidArgument("a device-side pipeline has no host threads "
                           "(threads must be 0)");
  for (PipelinedTable &t : pipelined)
    if (t.direction == d && t.from == from && t.to == to && t.where == w &&
        t.threads == threads && t.chunkBytes == chunk) {
      insertPoint(t.points, bytes, gbps);
      return Status::ok();
    }
  pipelined.push_back({d, from, to, w, threads, chunk, {{bytes, gbps}}});
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {

using jsonread::at;
using jsonread::fail;

constexpr const char *kFormat = "approx-precision-db";
constexpr int kVersion = 1;
constexpr uint64_t kMaxDbBytes = uint64_t(64) << 20;

std::string numberText(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

std::vector<Point> pointsAt(const json &o, const std::string &path) {
  const json &v = reader.array(o, path, "points");
  std::string p = at(path, "points");
  if (v.empty())
    fail(p, "has no measured sizes");
  std::vector<Point> pts;
  for (size_t i = 0; i < v.size(); ++i) {
    std::string pi = at(p, i);
    const json &e = v[i];
    reader.expectObject(e, pi);
    reader.onlyKeys(e, pi, {"bytes", "gbps"});
    uint64_t bytes =
        reader.unsignedInteger(e, pi, "bytes", 1, uint64_t(1) << 50);
    double gbps = reader.number(e, pi, "gbps");
    if (!std::isfinite(gbps) || gbps <= 0)
      fail(at(pi, "gbps"), numberText(gbps) + " is not a positive throughput");
    if (!pts.empty() && bytes <= pts.back().bytes)
      fail(at(pi, "bytes"),
           std::to_string(bytes) + " is not larger than the previous size " +
               std::to_string(pts.back().bytes) + " (sizes must increase)");
    pts.push_back({bytes, gbps});
  }
  return pts;
}

void checkPairOrBad(ScalarType f, ScalarType t, const std::string &path) {
  if (f == t)
    fail(at(path, "to"),
         std::string("converts ") + scalarTypeName(f) + " to itself");
}

bool isIsoDate(const std::string &s) {
  // YYYY-MM-DD, optionally followed by 'T' and a time.
  if (s.size() < 10 || (s.size() > 10 && s[10] != 'T'))
    return false;
  for (int i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[i] < '0' || s[i] > '9')
      return false;
  return s[4] == '-' && s[7] == '-';
}

SystemDb parseOrThrow(const json &root) {
  reader.expectObject(root, "<root>");
  // The format first: a file of another kind says so, not its fields.
  checkFormat(root, kFormat, kVersion);
  reader.onlyKeys(root, "",
                  {"format", "version", "created", "machine", "host_convert",
                   "device_convert", "transfer", "pipelined"});
  SystemDb db;
  db.created = reader.nonEmptyString(root, "", "created");
  if (!isIsoDate(db.created))
    fail("created", quote(db.created) + " is not an ISO 8601 date "
                                        "(YYYY-MM-DD[THH:MM:SSZ])");

  const json &m = reader.object(root, "", "machine");
  reader.onlyKeys(m, "machine", {"cpu", "gpu"});
  const json &cpu = reader.object(m, "machine", "cpu");
  reader.onlyKeys(cpu, "machine.cpu", {"model", "logical_cores", "simd"});
  db.machine.cpu.model = reader.nonEmptyString(cpu, "machine.cpu", "model");
  db.machine.cpu.logicalCores = unsigned(
      reader.unsignedInteger(cpu, "machine.cpu", "logical_cores", 1, 1u << 20));
  db.machine.cpu.simd = reader.nonEmptyString(cpu, "machine.cpu", "simd");
  const json &gpu = reader.object(m, "machine", "gpu");
  reader.onlyKeys(gpu, "machine.gpu",
                  {"name", "uuid", "driver", "pcie_gen", "pcie_width"});
  db.machine.gpu.name = reader.nonEmptyString(gpu, "machine.gpu", "name");
  db.machine.gpu.uuid = reader.nonEmptyString(gpu, "machine.gpu", "uuid");
  db.machine.gpu.driver = reader.nonEmptyString(gpu, "machine.gpu", "driver");
  db.machine.gpu.pcieGen =
      int(reader.unsignedInteger(gpu, "machine.gpu", "pcie_gen", 1, 7));
  uint64_t w = reader.unsignedInteger(gpu, "machine.gpu", "pcie_width", 1, 32);
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16 && w != 32)
    fail("machine.gpu.pcie_width",
         std::to_string(w) + " is not a PCIe link width (1, 2, 4, 8, 16, 32)");
  db.machine.gpu.pcieWidth = int(w);

  const json &hc = reader.optionalArray(root, "", "host_convert");
  for (size_t i = 0; i < hc.size(); ++i) {
    std::string p = at("host_convert", i);
    reader.expectObject(hc[i], p);
    reader.onlyKeys(hc[i], p, {"from", "to", "threads", "points"});
    HostConvertTable t;
    t.from = typeAt(hc[i], p, "from");
    t.to = typeAt(hc[i], p, "to");
    checkPairOrBad(t.from, t.to, p);
    t.threads =
        unsigned(reader.unsignedInteger(hc[i], p, "threads", 1, 1u << 20));
    if (db.findHostConvert(t.from, t.to, t.threads))
      fail(p, "a second table for " + pairName(t.from, t.to) + " with " +
                  std::to_string(t.threads) + " thread(s)");
    t.points = pointsAt(hc[i], p);
    db.hostConvert.push_back(std::move(t));
  }
  const json &dc = reader.optionalArray(root, "", "device_convert");
  for (size_t i = 0; i < dc.size(); ++i) {
    std::string p = at("device_convert", i);
    reader.expectObject(dc[i], p);
    reader.onlyKeys(dc[i], p, {"from", "to", "points"});
    DeviceConvertTable t;
    t.from = typeAt(dc[i], p, "from");
    t.to = typeAt(dc[i], p, "to");
    checkPairOrBad(t.from, t.to, p);
    if (db.findDeviceConvert(t.from, t.to))
      fail(p, "a second table for " + pairName(t.from, t.to));
    t.points = pointsAt(dc[i], p);
    db.deviceConvert.push_back(std::move(t));
  }
  const json &tr = reader.optionalArray(root, "", "transfer");
  for (size_t i = 0; i < tr.size(); ++i) {
    std::string p = at("transfer", i);
    reader.expectObject(tr[i], p);
    reader.onlyKeys(tr[i], p, {"direction", "memory", "points"});
    TransferTable t;
    std::string d = reader.string(tr[i], p, "direction");
    Expected<Direction> dd = parseDirection(d);
    if (!dd)
      fail(at(p, "direction"), dd.status().message());
    std::string mm = reader.string(tr[i], p, "memory");
    Expected<HostMemory> hm = parseHostMemory(mm);
    if (!hm)
      fail(at(p, "memory"), hm.status().message());
    t.direction = *dd;
    t.memory = *hm;
    if (db.findTransfer(t.direction, t.memory))
      fail(p, std::string("a second ") + hostMemoryName(t.memory) + " " +
                  directionName(t.direction) + " table");
    t.points = pointsAt(tr[i], p);
    db.transfer.push_back(std::move(t));
  }
  const json &pl = reader.optionalArray(root, "", "pipelined");
  for (size_t i = 0; i < pl.size(); ++i) {
    std::string p = at("pipelined", i);
    reader.expectObject(pl[i], p);
    reader.onlyKeys(
        pl[i], p,
        {"direction", "from", "to", "where", "threads", "chunk", "points"});
    PipelinedTable t;
    std::string d = reader.string(pl[i], p, "direction");
    Expected<Direction> dd = parseDirection(d);
    if (!dd)
      fail(at(p, "direction"), dd.status().message());
    t.direction = *dd;
    t.from = typeAt(pl[i], p, "from");
    t.to = typeAt(pl[i], p, "to");
    checkPairOrBad(t.from, t.to, p);
    std::string ws = reader.string(pl[i], p, "where");
    Expected<Where> ww = parseWhere(ws);
    if (!ww)
      fail(at(p, "where"), ww.status().message());
    t.where = *ww;
    if (t.where == Where::Host) {
      t.threads =
          unsigned(reader.unsignedInteger(pl[i], p, "threads", 1, 1u << 20));
    } else if (pl[i].contains("threads")) {
      fail(at(p, "threads"), "a device-side pipeline has no host threads");
    }
    t.chunkBytes =
        reader.unsignedInteger(pl[i], p, "chunk", 1, uint64_t(1) << 50);
    if (db.findPipelined(t.direction, t.from, t.to, t.where, t.threads,
                         t.chunkBytes))
      fail(p, "a second table with the same direction, types, side, threads "
              "and chunk");
    t.points = pointsAt(pl[i], p);
    db.pipelined.push_back(std::move(t));
  }
  return db;
}

json pointsJson(const std::vector<Point> &pts) {
  json a = json::array();
  for (const Point &p : pts)
    a.push_back({{"bytes", p.bytes}, {"gbps", p.gbps}});
  return a;
}

} // namespace

Expected<SystemDb> parseSystemDb(const std::string &text) {
  return jsonread::parseDocument<SystemDb>(text, "precision db", parseOrThrow);
}

Expected<SystemDb> loadSystemDb(const std::string &path) {
  return jsonread::loadDocument(path, kMaxDbBytes, "precision database",
                                parseSystemDb);
}

std::string systemDbToJson(const SystemDb &db) {
  json root;
  root["format"] = kFormat;
  root["version"] = kVersion;
  root["created"] = db.created;
  root["machine"] = {
      {"cpu",
       {{"model", db.machine.cpu.model},
        {"logical_cores", db.machine.cpu.logicalCores},
        {"simd", db.machine.cpu.simd}}},
      {"gpu",
       {{"name", db.machine.gpu.name},
        {"uuid", db.machine.gpu.uuid},
        {"driver", db.machine.gpu.driver},
        {"pcie_gen", db.machine.gpu.pcieGen},
        {"pcie_width", db.machine.gpu.pcieWidth}}}};
  json hc = json::array(), dc = json::array(), tr = json::array(),
       pl = json::array();
  for (const HostConvertTable &t : db.hostConvert)
    hc.push_back({{"from", scalarTypeName(t.from)},
                  {"to", scalarTypeName(t.to)},
                  {"threads", t.threads},
                  {"points", pointsJson(t.points)}});
  for (const DeviceConvertTable &t : db.deviceConvert)
    dc.push_back({{"from", scalarTypeName(t.from)},
                  {"to", scalarTypeName(t.to)},
                  {"points", pointsJson(t.points)}});
  for (const TransferTable &t : db.transfer)
    tr.push_back({{"direction", directionName(t.direction)},
                  {"memory", hostMemoryName(t.memory)},
                  {"points", pointsJson(t.points)}});
  for (const PipelinedTable &t : db.pipelined) {
    json j = {{"direction", directionName(t.direction)},
              {"from", scalarTypeName(t.from)},
              {"to", scalarTypeName(t.to)},
              {"where", whereName(t.where)},
              {"chunk", t.chunkBytes},
              {"points", pointsJson(t.points)}};
    if (t.where == Where::Host)
      j["threads"] = t.threads;
    pl.push_back(std::move(j));
  }
  root["host_convert"] = std::move(hc);
  root["device_convert"] = std::move(dc);
  root["transfer"] = std::move(tr);
  root["pipelined"] = std::move(pl);
  return root.dump(1) + "\n";
}

Status writeFileAtomically(const std::string &path, const std::string &text,
                           const std::string &what) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  auto fail = [&](const char *step) {
    std::string m = "cannot write " + what + " " + quote(path) + ": " + step +
                    ": " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return ioError(m);
  };
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    std::string m = "cannot write " + what + " " + quote(path) +
                    ": creating " + quote(tmp) + ": " + std::strerror(errno);
    return ioError(m);
  }
  size_t done = 0;
  while (done < text.size()) {
    ssize_t k = ::write(fd, text.data() + done, text.size() - done);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0) {
      int e = errno;
      ::close(fd);
      errno = e;
      return fail("write");
    }
    done += size_t(k);
  }
  if (::fsync(fd) != 0) {
    int e = errno;
    ::close(fd);
    errno = e;
    return fail("fsync");
  }
  if (::close(fd) != 0)
    return fail("close");
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    return fail("rename");
  return Status::ok();
}

Status saveSystemDb(const SystemDb &db, const std::string &path) {
  return writeFileAtomically(path, systemDbToJson(db), "precision database");
}

} // namespace approx::rt::precision
