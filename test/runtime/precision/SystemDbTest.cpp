//===- SystemDbTest.cpp - the system inspector's database -----------------===//
//
// The two recorded fixtures (data/precision/: a PCIe 4 A100 host with 64
// logical cores, a PCIe 5 H100 host with 16) load, round-trip through save
// and load bit for bit, and predict times computed here by hand from their
// points; every validation error is one exact line; a database from the
// other machine is refused naming the fields; Algorithm 2's inputs
// (predictMove per method) add up as documented.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/SystemDb.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace approx::rt;
using namespace approx::rt::precision;

namespace {

std::string fixture(const char *name) {
  return std::string(APPROX_PRECISION_TEST_DATA) + "/" + name;
}
std::string readAll(const std::string &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
SystemDb loadOrDie(const char *name) {
  Expected<SystemDb> db = loadSystemDb(fixture(name));
  EXPECT_TRUE(db.isOk()) << db.status().toString();
  return db ? *db : SystemDb{};
}
const char *kA100 = "a100-pcie4-epyc64.json";
const char *kH100 = "h100-pcie5-xeon16.json";

/// A minimal valid database text with `tail` spliced into the top object.
std::string minimal(const std::string &tail = "") {
  return R"({"format": "approx-precision-db", "version": 1,
    "created": "2026-11-25T10:00:00Z",
    "machine": {"cpu": {"model": "X", "logical_cores": 4, "simd": "avx2+f16c"},
                "gpu": {"name": "G", "uuid": "GPU-1", "driver": "550.1",
                        "pcie_gen": 4, "pcie_width": 16}})" +
         tail + "}";
}

std::string errorOf(const std::string &text) {
  Expected<SystemDb> db = parseSystemDb(text);
  EXPECT_FALSE(db.isOk());
  if (db)
    return "";
  EXPECT_EQ(db.status().code(), StatusCode::ParseError);
  EXPECT_EQ(db.status().message().find('\n'), std::string::npos);
  return db.status().message();
}

std::string tempPath(const char *stem) {
  return testing::TempDir() + "/" + stem + "-" + std::to_string(getpid()) +
         ".json";
}

} // namespace

TEST(SystemDb, FixturesLoad) {
  SystemDb a = loadOrDie(kA100);
  EXPECT_EQ(a.machine.cpu.model, "AMD EPYC 7543 32-Core Processor");
  EXPECT_EQ(a.machine.cpu.logicalCores, 64u);
  EXPECT_EQ(a.machine.gpu.name, "NVIDIA A100-PCIE-40GB");
  EXPECT_EQ(a.machine.gpu.pcieGen, 4);
  EXPECT_EQ(a.hostConvert.size(), 20u);
  EXPECT_EQ(a.deviceConvert.size(), 10u);
  EXPECT_EQ(a.transfer.size(), 4u);
  EXPECT_EQ(a.pipelined.size(), 8u);
  EXPECT_EQ(a.hostThreads(ScalarType::F64, ScalarType::F16),
            (std::vector<unsigned>{1, 64}));
  SystemDb h = loadOrDie(kH100);
  EXPECT_EQ(h.machine.cpu.logicalCores, 16u);
  EXPECT_EQ(h.machine.gpu.pcieGen, 5);
  EXPECT_EQ(h.hostThreads(ScalarType::F64, ScalarType::F16),
            (std::vector<unsigned>{1, 16}));
  EXPECT_TRUE(h.hostThreads(ScalarType::F16, ScalarType::BF16).empty());
}

TEST(SystemDb, SaveLoadRoundTrip) {
  SystemDb a = loadOrDie(kA100);
  std::string path = tempPath("db-roundtrip");
  ASSERT_TRUE(saveSystemDb(a, path).isOk());
  Expected<SystemDb> b = loadSystemDb(path);
  ASSERT_TRUE(b.isOk()) << b.status().toString();
  EXPECT_EQ(systemDbToJson(*b), systemDbToJson(a));
  EXPECT_EQ(readAll(path), systemDbToJson(a));
  // No temporary left next to it.
  EXPECT_FALSE(std::ifstream(path + ".tmp." + std::to_string(getpid())));
  std::remove(path.c_str());
}

TEST(SystemDb, SaveIsAtomic) {
  SystemDb a = loadOrDie(kA100);
  std::string path = tempPath("db-atomic");
  ASSERT_TRUE(saveSystemDb(a, path).isOk());
  std::string before = readAll(path);
  // A directory that does not exist: the write fails, names the file.
  Status s = saveSystemDb(a, "/nonexistent-dir-approx/x.json");
  EXPECT_EQ(s.code(), StatusCode::IoError);
  EXPECT_NE(s.message().find("cannot write precision database "
                             "'/nonexistent-dir-approx/x.json'"),
            std::string::npos)
      << s.message();
  // The temporary name is taken: the save fails and the old file survives.
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  { std::ofstream(tmp) << "x"; }
  SystemDb other = a;
  other.created = "2027-01-01";
  s = saveSystemDb(other, path);
  EXPECT_EQ(s.code(), StatusCode::IoError);
  EXPECT_EQ(readAll(path), before);
  std::remove(tmp.c_str());
  std::remove(path.c_str());
}

TEST(SystemDb, AddMeasurements) {
  SystemDb db;
  ASSERT_TRUE(db.addTransfer(Direction::H2D, HostMemory::Pinned, 1 << 20, 20)
                  .isOk());
  ASSERT_TRUE(db.addTransfer(Direction::H2D, HostMemory::Pinned, 1 << 16, 5)
                  .isOk());
  ASSERT_TRUE(db.addTransfer(Direction::H2D, HostMemory::Pinned, 1 << 20, 21)
                  .isOk()); // replaces
  const TransferTable *t = db.findTransfer(Direction::H2D, HostMemory::Pinned);
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->points.size(), 2u);
  EXPECT_EQ(t->points[0].bytes, 65536u);
  EXPECT_EQ(t->points[1].gbps, 21.0);
  ASSERT_TRUE(
      db.addHostConvert(ScalarType::F64, ScalarType::F16, 8, 1 << 20, 30).isOk());
  ASSERT_TRUE(db.addDeviceConvert(ScalarType::F16, ScalarType::F32, 1 << 20,
                                  300)
                  .isOk());
  ASSERT_TRUE(db.addPipelined(Direction::D2H, ScalarType::F16, ScalarType::F64,
                              Where::Device, 0, 1 << 22, 1 << 20, 40)
                  .isOk());
  EXPECT_EQ(db.addHostConvert(ScalarType::F64, ScalarType::F64, 1, 1, 1)
                .message(),
            "conversion f64 -> f64 converts nothing");
  EXPECT_EQ(db.addHostConvert(ScalarType::I32, ScalarType::F64, 1, 1, 1)
                .message(),
            "conversion i32 -> f64 is not between f64, f32, f16 and bf16");
  EXPECT_EQ(db.addHostConvert(ScalarType::F64, ScalarType::F32, 0, 1, 1)
                .message(),
            "host conversion needs threads >= 1");
  EXPECT_EQ(db.addDeviceConvert(ScalarType::F64, ScalarType::F32, 0, 1)
                .message(),
            "a measurement needs a size > 0 bytes");
  EXPECT_EQ(db.addTransfer(Direction::D2H, HostMemory::Pinned, 1, -2).message(),
            "throughput -2.000000 GB/s is not a finite positive number");
  EXPECT_EQ(db.addTransfer(Direction::D2H, HostMemory::Pinned, 1, NAN).code(),
            StatusCode::InvalidArgument);
  EXPECT_EQ(db.addPipelined(Direction::D2H, ScalarType::F16, ScalarType::F64,
                            Where::Device, 4, 1 << 22, 1, 1)
                .message(),
            "a device-side pipeline has no host threads (threads must be 0)");
  EXPECT_EQ(db.addPipelined(Direction::D2H, ScalarType::F16, ScalarType::F64,
                            Where::Host, 4, 0, 1, 1)
                .message(),
            "a pipelined method needs a chunk > 0 bytes");
  // A pipelined table predicts from its smallest size up, not below.
  Expected<double> below = db.pipelinedSeconds(
      Direction::D2H, ScalarType::F16, ScalarType::F64, Where::Device, 0,
      1 << 22, (1 << 19) / 2);
  EXPECT_EQ(below.status().code(), StatusCode::NotFound);
  EXPECT_EQ(below.status().message(),
            "precision database: pipelined d2h f16 -> f64 in chunks of "
            "4194304 bytes was measured from 1048576 bytes, not for 524288");
  Expected<double> at = db.pipelinedSeconds(Direction::D2H, ScalarType::F16,
                                            ScalarType::F64, Where::Device, 0,
                                            1 << 22, (1 << 20) / 2);
  ASSERT_TRUE(at.isOk()) << at.status().toString();
  EXPECT_NEAR(*at, (1 << 20) * 5 / (40e9), 1e-12); // 1 MiB f16 + 4 MiB f64
  // What the inspector records, a saved file reads back.
  db.machine = loadOrDie(kH100).machine;
  db.created = "2026-11-25";
  Expected<SystemDb> back = parseSystemDb(systemDbToJson(db));
  ASSERT_TRUE(back.isOk()) << back.status().toString();
  EXPECT_EQ(systemDbToJson(*back), systemDbToJson(db));
}

TEST(SystemDb, Interpolation) {
  std::vector<Point> p = {{1000, 10}, {100000, 1000}};
  // At the points, exact; between, log-log linear: at 10^4 (halfway in log),
  // sqrt(10 * 1000) = 100.
  EXPECT_DOUBLE_EQ(interpolateGbps(p, 1000), 10);
  EXPECT_DOUBLE_EQ(interpolateGbps(p, 100000), 1000);
  EXPECT_NEAR(interpolateGbps(p, 10000), 100, 1e-9);
  // Clamped outside.
  EXPECT_DOUBLE_EQ(interpolateGbps(p, 10), 10);
  EXPECT_DOUBLE_EQ(interpolateGbps(p, 1e12), 1000);
  EXPECT_DOUBLE_EQ(interpolateGbps({{4096, 3}}, 1e9), 3);
}

TEST(SystemDb, PredictionsFromTheFixture) {
  SystemDb a = loadOrDie(kA100);
  // f64 -> f16 at 64 threads, 16 MiB source (2 Mi elements): 70 * 0.8 = 56
  // GB/s over 16 Mi + 4 Mi bytes.
  uint64_t n = (16u << 20) / 8;
  Expected<double> h = a.hostConvertSeconds(ScalarType::F64, ScalarType::F16,
                                            64, n);
  ASSERT_TRUE(h.isOk());
  EXPECT_DOUBLE_EQ(*h, (20.0 * (1 << 20)) / 56e9);
  // Pinned H2D of 4 MiB: between 1 MiB (20) and 16 MiB (24.5), log-log.
  double g = std::exp(std::log(20.0) +
                      0.5 * (std::log(24.5) - std::log(20.0)));
  Expected<double> x = a.transferSeconds(Direction::H2D, HostMemory::Pinned,
                                         4u << 20);
  ASSERT_TRUE(x.isOk());
  EXPECT_NEAR(*x, (4.0 * (1 << 20)) / (g * 1e9), 1e-15);
  // 4 GiB is beyond the last point (1 GiB, 25.2 GB/s): clamped throughput.
  x = a.transferSeconds(Direction::H2D, HostMemory::Pinned, 4ull << 30);
  EXPECT_DOUBLE_EQ(*x, double(4ull << 30) / 25.2e9);
  // 1 KiB is below the first point (64 KiB, 6 GB/s).
  x = a.transferSeconds(Direction::H2D, HostMemory::Pinned, 1024);
  EXPECT_DOUBLE_EQ(*x, 1024 / 6e9);

  // predictMove, method by method, 256 MiB of f64 (32 Mi elements) as f16.
  uint64_t m = (256u << 20) / 8;
  double src = 256.0 * (1 << 20), half = src / 4, single = src / 2;
  auto ll = [](double a, double b, double t) {
    return std::exp(std::log(a) + t * (std::log(b) - std::log(a)));
  };
  double pinned64M = ll(24.5, 25.1, 0.5), pinned128M = ll(24.5, 25.1, 0.75);
  MoveMemory mem; // pageable app memory, pinned staging
  auto move = [&](const Method &meth, ScalarType B, Direction d) {
    Expected<double> t = a.predictMove(ScalarType::F64, B, d, m, meth, mem);
    EXPECT_TRUE(t.isOk()) << t.status().toString();
    return t ? *t : -1.0;
  };
  // Host: 64-thread conversion at 110 * 0.8 GB/s, then a pinned transfer.
  EXPECT_DOUBLE_EQ(move(Method::host(64), ScalarType::F16, Direction::H2D),
                   (src + half) / 88e9 + half / (pinned64M * 1e9));
  // Device: a pageable transfer of the f64 array (10.5 GB/s at 256 MiB),
  // then the device conversion (1350 * 0.98 = 1323 -> 1320 recorded).
  EXPECT_DOUBLE_EQ(move(Method::device(), ScalarType::F16, Direction::H2D),
                   src / 10.5e9 + (src + half) / 1320e9);
  // Transient through f32: host f64 -> f32 (110), pinned transfer of 128
  // MiB, device f32 -> f16 from a 128 MiB source (990 .. 1340).
  EXPECT_DOUBLE_EQ(
      move(Method::transient(ScalarType::F32, 64), ScalarType::F16,
           Direction::H2D),
      (src + single) / 110e9 + single / (pinned128M * 1e9) +
          (single + half) / (ll(990, 1340, 0.75) * 1e9));
  // D2H mirrors: device f16 -> f64 from the 64 MiB f16 array (995 at 16
  // MiB, 1350 * 0.995 -> 1340 at 256 MiB), pageable D2H of 256 MiB (8.8).
  EXPECT_DOUBLE_EQ(move(Method::device(), ScalarType::F16, Direction::D2H),
                   (half + src) / (ll(995, 1340, 0.5) * 1e9) + src / 8.8e9);
  // Pipelined: its own table (f64 -> f16 h2d, host, 64 threads, 4 MiB).
  const PipelinedTable *pt = a.findPipelined(
      Direction::H2D, ScalarType::F64, ScalarType::F16, Where::Host, 64,
      4u << 20);
  ASSERT_NE(pt, nullptr);
  EXPECT_DOUBLE_EQ(move(Method::pipelined(Where::Host, 64, 4u << 20),
                        ScalarType::F16, Direction::H2D),
                   (src + half) / (pt->points[3].gbps * 1e9));
  // Copy: the app's pageable H2D, 10.5 GB/s at 256 MiB.
  Expected<double> c = a.predictMove(ScalarType::F64, ScalarType::F64,
                                     Direction::H2D, m, Method::copy(), mem);
  EXPECT_DOUBLE_EQ(*c, src / 10.5e9);
  EXPECT_DOUBLE_EQ(*a.predictMove(ScalarType::F64, ScalarType::F16,
                                  Direction::H2D, m, Method::none(), mem),
                   0.0);
}

TEST(SystemDb, PredictionErrors) {
  SystemDb a = loadOrDie(kA100);
  auto err = [&](ScalarType A, ScalarType B, Direction d, const Method &m) {
    Expected<double> t = a.predictMove(A, B, d, 1000, m);
    EXPECT_FALSE(t.isOk());
    return t ? std::string() : t.status().message();
  };
  EXPECT_EQ(err(ScalarType::F64, ScalarType::F16, Direction::H2D,
                Method::copy()),
            "method copy does not fit f64 stored as f16 (types differ: copy "
            "cannot convert)");
  EXPECT_EQ(err(ScalarType::F32, ScalarType::F32, Direction::H2D,
                Method::device()),
            "method device does not fit f32 stored as f32 (same type: copy)");
  EXPECT_EQ(err(ScalarType::F64, ScalarType::F16, Direction::H2D,
                Method::host(12)),
            "precision database has no host conversion table for f64 -> f16 "
            "with 12 thread(s)");
  EXPECT_EQ(err(ScalarType::F16, ScalarType::BF16, Direction::H2D,
                Method::device()),
            "precision database has no device conversion table for f16 -> "
            "bf16");
  EXPECT_EQ(err(ScalarType::F64, ScalarType::F16, Direction::H2D,
                Method::transient(ScalarType::F16, 64)),
            "transient intermediate f16 must differ from f64 and f16");
  EXPECT_EQ(err(ScalarType::F64, ScalarType::F32, Direction::H2D,
                Method::pipelined(Where::Device, 0, 1 << 20)),
            "precision database has no pipelined h2d table for f64 -> f32 "
            "converting on the device in chunks of 1048576 bytes");
  EXPECT_EQ(err(ScalarType::I32, ScalarType::F32, Direction::H2D,
                Method::device()),
            "cannot predict a move of i32 stored as f32: not f64, f32, f16 "
            "or bf16");
  SystemDb empty;
  Expected<double> t = empty.transferSeconds(Direction::D2H,
                                             HostMemory::Pageable, 10);
  EXPECT_EQ(t.status().code(), StatusCode::NotFound);
  EXPECT_EQ(t.status().message(),
            "precision database has no pageable d2h transfer table");
}

TEST(SystemDb, ValidationErrors) {
  EXPECT_TRUE(parseSystemDb(minimal()).isOk());
  const std::string pts = R"("points": [{"bytes": 65536, "gbps": 5}])";
  struct Case {
    std::string text, message;
  };
  std::vector<Case> cases = {
      {"[1]", "precision db: <root>: is an array, not an object"},
      {"{", ""}, // not JSON: checked below by prefix
      {R"({"format": "approx-manifest", "version": 1})",
       "precision db: format: 'approx-manifest' is not "
       "'approx-precision-db'"},
      {R"({"format": "approx-precision-db", "version": 2})",
       "precision db: version: 2 is not supported (this build reads version "
       "1)"},
      {R"({"format": "approx-precision-db"})", "precision db: version: missing"},
      {minimal(R"(, "extra": 1)"), "precision db: extra: unknown field"},
      {minimal(R"(, "host_convert": [{"from": "f8", "to": "f16", "threads": 1, )" +
               pts + "}]"),
       "precision db: host_convert[0].from: unknown type 'f8' (expected f64, "
       "f32, f16 or bf16)"},
      {minimal(R"(, "host_convert": [{"from": "i32", "to": "f16", "threads": 1, )" +
               pts + "}]"),
       "precision db: host_convert[0].from: unknown type 'i32' (expected "
       "f64, f32, f16 or bf16)"},
      {minimal(R"(, "host_convert": [{"from": "f32", "to": "f32", "threads": 1, )" +
               pts + "}]"),
       "precision db: host_convert[0].to: converts f32 to itself"},
      {minimal(R"(, "host_convert": [{"from": "f64", "to": "f32", "threads": 0, )" +
               pts + "}]"),
       "precision db: host_convert[0].threads: 0 is out of range [1, "
       "1048576]"},
      {minimal(R"(, "host_convert": [{"from": "f64", "to": "f32", "threads": 1}])"),
       "precision db: host_convert[0].points: missing"},
      {minimal(R"(, "host_convert": [{"from": "f64", "to": "f32", "threads": 1, "points": []}])"),
       "precision db: host_convert[0].points: has no measured sizes"},
      {minimal(R"(, "device_convert": [{"from": "f64", "to": "f32", "points": [{"bytes": 65536, "gbps": -3}]}])"),
       "precision db: device_convert[0].points[0].gbps: -3 is not a positive "
       "throughput"},
      {minimal(R"(, "device_convert": [{"from": "f64", "to": "f32", "points": [{"bytes": 65536, "gbps": 0}]}])"),
       "precision db: device_convert[0].points[0].gbps: 0 is not a positive "
       "throughput"},
      {minimal(R"(, "device_convert": [{"from": "f64", "to": "f32", "points": [{"bytes": 65536, "gbps": "fast"}]}])"),
       "precision db: device_convert[0].points[0].gbps: is a string, not a "
       "number"},
      {minimal(R"(, "device_convert": [{"from": "f64", "to": "f32", "points": [{"gbps": 3}]}])"),
       "precision db: device_convert[0].points[0].bytes: missing"},
      {minimal(R"(, "device_convert": [{"from": "f64", "to": "f32", "points": [{"bytes": -1, "gbps": 3}]}])"),
       "precision db: device_convert[0].points[0].bytes: -1 is negative"},
      {minimal(R"(, "device_convert": [{"from": "f64", "to": "f32", "points": [{"bytes": 1.5, "gbps": 3}]}])"),
       "precision db: device_convert[0].points[0].bytes: is a number with a "
       "fraction, not an integer"},
      {minimal(R"(, "transfer": [{"direction": "h2d", "memory": "pinned", "points": [{"bytes": 1048576, "gbps": 3}, {"bytes": 65536, "gbps": 4}]}])"),
       "precision db: transfer[0].points[1].bytes: 65536 is not larger than "
       "the previous size 1048576 (sizes must increase)"},
      {minimal(R"(, "transfer": [{"direction": "h2d", "memory": "pinned", "points": [{"bytes": 65536, "gbps": 3}, {"bytes": 65536, "gbps": 4}]}])"),
       "precision db: transfer[0].points[1].bytes: 65536 is not larger than "
       "the previous size 65536 (sizes must increase)"},
      {minimal(R"(, "transfer": [{"direction": "up", "memory": "pinned", )" + pts + "}]"),
       "precision db: transfer[0].direction: unknown direction 'up' "
       "(expected h2d or d2h)"},
      {minimal(R"(, "transfer": [{"direction": "h2d", "memory": "locked", )" + pts + "}]"),
       "precision db: transfer[0].memory: unknown host memory 'locked' "
       "(expected pinned or pageable)"},
      {minimal(R"(, "transfer": [{"direction": "h2d", "memory": "pinned", )" + pts +
               R"(}, {"direction": "h2d", "memory": "pinned", )" + pts + "}]"),
       "precision db: transfer[1]: a second pinned h2d table"},
      {minimal(R"(, "pipelined": [{"direction": "h2d", "from": "f64", "to": "f16", "where": "device", "threads": 4, "chunk": 1, )" + pts + "}]"),
       "precision db: pipelined[0].threads: a device-side pipeline has no "
       "host threads"},
      {minimal(R"(, "pipelined": [{"direction": "h2d", "from": "f64", "to": "f16", "where": "host", "threads": 4, )" + pts + "}]"),
       "precision db: pipelined[0].chunk: missing"},
      {minimal(R"(, "pipelined": [{"direction": "h2d", "from": "f64", "to": "f16", "where": "gpu", "chunk": 1, )" + pts + "}]"),
       "precision db: pipelined[0].where: unknown conversion side 'gpu' "
       "(expected host or device)"},
      {minimal(R"(, "transfer": {})"),
       "precision db: transfer: is an object, not an array"},
  };
  for (const Case &c : cases) {
    std::string m = errorOf(c.text);
    if (c.message.empty())
      EXPECT_EQ(m.rfind("precision db: <root>: not valid JSON: ", 0), 0u) << m;
    else
      EXPECT_EQ(m, c.message) << c.text;
  }
  // Machine fields.
  auto machine = [](const std::string &cpu, const std::string &gpu) {
    return R"({"format": "approx-precision-db", "version": 1,
      "created": "2026-11-25", "machine": {"cpu": )" +
           cpu + R"(, "gpu": )" + gpu + "}}";
  };
  std::string okCpu = R"({"model": "X", "logical_cores": 4, "simd": "none"})";
  std::string okGpu = R"({"name": "G", "uuid": "U", "driver": "1", "pcie_gen": 4, "pcie_width": 16})";
  EXPECT_TRUE(parseSystemDb(machine(okCpu, okGpu)).isOk());
  EXPECT_EQ(errorOf(machine(R"({"model": "", "logical_cores": 4, "simd": "none"})", okGpu)),
            "precision db: machine.cpu.model: is empty");
  EXPECT_EQ(errorOf(machine(R"({"model": "X", "logical_cores": 0, "simd": "none"})", okGpu)),
            "precision db: machine.cpu.logical_cores: 0 is out of range [1, "
            "1048576]");
  EXPECT_EQ(errorOf(machine(okCpu, R"({"name": "G", "uuid": "U", "driver": "1", "pcie_gen": 4, "pcie_width": 12})")),
            "precision db: machine.gpu.pcie_width: 12 is not a PCIe link width "
            "(1, 2, 4, 8, 16, 32)");
  EXPECT_EQ(errorOf(machine(okCpu, R"({"name": "G", "uuid": "U", "driver": "1", "pcie_gen": 9, "pcie_width": 16})")),
            "precision db: machine.gpu.pcie_gen: 9 is out of range [1, 7]");
  EXPECT_EQ(errorOf(machine(okCpu, R"({"name": "G", "driver": "1", "pcie_gen": 4, "pcie_width": 16})")),
            "precision db: machine.gpu.uuid: missing");
  EXPECT_EQ(errorOf(R"({"format": "approx-precision-db", "version": 1,
      "created": "yesterday", "machine": {}})"),
            "precision db: created: 'yesterday' is not an ISO 8601 date "
            "(YYYY-MM-DD[THH:MM:SSZ])");
  // A file: the error names it.
  Expected<SystemDb> f = loadSystemDb(fixture("no-such.json"));
  EXPECT_FALSE(f.isOk());
}

TEST(SystemDb, ForeignDatabase) {
  SystemDb a = loadOrDie(kA100), h = loadOrDie(kH100);
  EXPECT_TRUE(checkMachine(a, a.machine).isOk());
  Status s = checkMachine(a, h.machine);
  EXPECT_EQ(s.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(s.message(),
            "precision database was recorded on 'AMD EPYC 7543 32-Core "
            "Processor' (64 cores, avx2+f16c) with 'NVIDIA A100-PCIE-40GB' "
            "(PCIe 4 x16), this machine is 'Intel(R) Xeon(R) Platinum "
            "8462Y+' (16 cores, avx512f+avx2+f16c) with 'NVIDIA H100 PCIe' "
            "(PCIe 5 x16) (differs in cpu.model, cpu.logical_cores, "
            "cpu.simd, gpu.name, gpu.pcie_gen): re-run approx-inspect");
  // Another card of the same model, another driver: the same model is
  // accepted; SameCard refuses, naming both.
  Fingerprint other = a.machine;
  other.gpu.uuid = "GPU-other";
  other.gpu.driver = "550.54.15";
  EXPECT_TRUE(checkMachine(a, other).isOk());
  EXPECT_EQ(machineDifferences(a.machine, other),
            (std::vector<std::string>{"gpu.uuid", "gpu.driver"}));
  s = checkMachine(a, other, MachineMatch::SameCard);
  EXPECT_NE(s.message().find("(differs in gpu.uuid, gpu.driver, GPU "
                             "'GPU-3b1e0c52-9d4a-6f7e-2c81-a0f4d5e6b7c8' vs "
                             "'GPU-other', driver '535.104.05' vs "
                             "'550.54.15'): re-run approx-inspect"),
            std::string::npos)
      << s.message();
  // The link trained to x8 (PCIe bandwidth halves): a different machine.
  Fingerprint narrow = a.machine;
  narrow.gpu.pcieWidth = 8;
  s = checkMachine(a, narrow);
  EXPECT_NE(s.message().find("(PCIe 4 x8) (differs in gpu.pcie_width)"),
            std::string::npos)
      << s.message();
}

TEST(SystemDb, CurrentHost) {
  EXPECT_EQ(cpuModelFromCpuinfo("processor\t: 0\nvendor_id\t: AuthenticAMD\n"
                                "model name\t: AMD EPYC 7543 32-Core "
                                "Processor  \nflags\t: fpu\n"),
            "AMD EPYC 7543 32-Core Processor");
  EXPECT_EQ(cpuModelFromCpuinfo("processor : 0\nCPU part : 0xd4f\n"), "0xd4f");
  EXPECT_EQ(cpuModelFromCpuinfo(""), "unknown");
  CpuInfo c = currentCpu();
  EXPECT_FALSE(c.model.empty());
  EXPECT_GE(c.logicalCores, 1u);
  EXPECT_FALSE(c.simd.empty());
  std::string now = utcNow();
  EXPECT_EQ(now.size(), 20u);
  EXPECT_EQ(now.back(), 'Z');
}
