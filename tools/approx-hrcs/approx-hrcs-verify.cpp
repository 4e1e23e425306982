//===- approx-hrcs-verify.cpp - The search against an independent oracle --===//
//
// approx-hrcs-verify [--functions exp,log,...] [--binades all|sampled|LIST]
//                    [--epsilons 12,16,20,24] [--splits 1,2,8,16]
//                    [--algorithms lefevre,regular] [--backend cpu|gpu]
//                    [--threads T] [--json FILE]
// approx-hrcs-verify --random N [--seed S] ...
//
// Exhaustive evidence for the hard-to-round search (docs/hrcs.md): for each
// binary32 binade of each function, the set of (q = 25, eps) cases the
// search returns is compared, by exact set equality, with the set the
// brute-force oracle of approx/accuracy/HardCases.h finds (C library in
// double, MPFR where undecided; it shares no code with the search), for
// every eps, split and algorithm asked for. A cell whose oracle set holds
// more than --dense-limit cases (f within eps of a boundary over most of the
// binade: tiny |x| for exp, exp2, sin, cos) is compared on three segments of
// 2^10 arguments (the binade's start, middle and end), since confirming
// millions of cases by MPFR would take minutes per cell; the report says
// which cells were sampled.
//
// --random N draws N plans and domains instead (function, segment of a
// binade, p, q, emin, eps, split, interval bits, packet bits, division
// threshold, algorithm) and compares each the same way.
//
// Exit status: 0 when every cell matches, 1 on any mismatch, 2 for bad
// options (one line), 3 when --time-limit left binades out (listed in the
// JSON's not_run; the costliest, sin and cos far from 0, are run last).
// --devices D,D shares the GPU workers out among several GPUs.
//
//===----------------------------------------------------------------------===//
#include "approx/accuracy/HardCases.h"
#include "approx/hrcs/Search.h"
#ifdef APPROX_HRCS_HAS_CUDA
#include "approx/hrcs/GpuSearch.h"
#endif

#include "approx/Support/Cli.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace approx;
using hrcs::SearchParams;

namespace {

const char *kTool = "approx-hrcs-verify";
/// Arguments per segment of a sampled (dense) cell.
const uint64_t kSample = 1024;

/// One binade of binary32 arguments: sign, exponent (2^e <= |x| < 2^(e+1)),
/// precision p of its arguments (subnormal binades have fewer bits).
struct Binade {
  std::string fn;
  int sign = 1, e = 0;
  int p() const { return e >= -126 ? 24 : std::max(2, e + 150); }
  std::string name() const {
    char b[64];
    if (sign > 0)
      std::snprintf(b, sizeof b, "[2^%d, 2^%d)", e, e + 1);
    else
      std::snprintf(b, sizeof b, "(-2^%d, -2^%d]", e + 1, e);
    return b;
  }
  /// The arguments, ascending: lo + j ulp, j < count.
  double ulp() const { return std::ldexp(1.0, e - p() + 1); }
  uint64_t count() const {
    return e == -149 ? 1 : uint64_t(1) << (p() - 1);
  }
  double lo() const {
    double a = std::ldexp(1.0, e);
    return sign > 0 ? a : -(a + (double)(count() - 1) * ulp());
  }
};

/// Every binary32 binade the search covers for `fn`: log and log2 on
/// positive arguments (subnormal ones included), exp and exp2 up to |x| <
/// 512 and 1024 (beyond, the search refuses: its range check), sin and cos
/// up to 2^20 (the search's limit).
std::vector<Binade> allBinades(const std::string &fn) {
  std::vector<Binade> out;
  int top = fn == "exp" ? 8 : fn == "exp2" ? 9 : fn == "sin" || fn == "cos" ? 19 : 127;
  bool both = !(fn == "log" || fn == "log2");
  for (int e = -149; e <= top; ++e) {
    out.push_back({fn, 1, e});
    if (both)
      out.push_back({fn, -1, e});
  }
  return out;
}

/// The CI subset: per function, the binades where F''' is largest (|x| of
/// 32 and more for exp: the cases the sub-interval bound missed), around
/// 1 and the function's zeros, tiny and subnormal arguments.
std::vector<Binade> sampledBinades(const std::string &fn) {
  std::vector<std::pair<int, int>> se;
  if (fn == "exp")
    se = {{-1, 5}, {1, 6}, {1, 5}, {-1, 6}, {1, 0}, {-1, -7}, {1, -40}};
  else if (fn == "exp2")
    se = {{1, 6}, {-1, 6}, {1, 7}, {-1, -1}, {1, -30}};
  else if (fn == "log")
    se = {{1, 0}, {1, -1}, {1, 60}, {1, -140}};
  else if (fn == "log2")
    se = {{1, 0}, {1, -1}, {1, 100}, {1, -127}};
  else if (fn == "sin")
    se = {{1, 1}, {-1, 4}, {1, 9}, {1, -12}};
  else
    se = {{1, 0}, {-1, 3}, {-1, 8}, {1, -10}};
  std::vector<Binade> out;
  for (auto [s, e] : se)
    out.push_back({fn, s, e});
  return out;
}

/// f(x) in double, only to place a random emin near the results.
double evalForFloor(const std::string &fn, double x) {
  double y = fn == "exp"    ? std::exp(x)
             : fn == "exp2" ? std::exp2(x)
             : fn == "log"  ? std::log(x)
             : fn == "log2" ? std::log2(x)
             : fn == "sin"  ? std::sin(x)
                            : std::cos(x);
  return y == 0 || !std::isfinite(y) ? 1.0 : y;
}

std::string hex(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%a", v);
  return b;
}

/// One comparison: a domain segment, one eps, one search setting.
struct Cell {
  std::string fn, binade, setting;
  double eps = 0;
  int split = 0;
  std::string algorithm;
  uint64_t truth = 0, found = 0, missed = 0, falsePos = 0;
  bool sampled = false;
  double seconds = 0;
  std::vector<uint64_t> missedArgs, falseArgs; // first few
};

struct Options {
  std::vector<std::string> functions{"exp", "exp2", "log", "log2", "sin",
                                     "cos"};
  std::string binades = "all";
  std::vector<int> epsilons{12, 16, 20, 24};
  std::vector<int> splits{1, 2, 8, 16};
  std::vector<std::string> algorithms{"lefevre", "regular"};
  int q = 25;
  std::string backend = "cpu";
  int threads = 1;
  std::vector<int> devices{0};
  uint64_t denseLimit = uint64_t(1) << 16;
  std::string json;
  int random = 0;
  unsigned seed = 1;
  double timeLimit = 0; ///< seconds; 0: none
  std::string cellsPath; ///< --cells
  bool verbose = false;
};

/// The packets of one domain and epsilon, computed by the first setting
/// that needs them and adopted by the others (splits and algorithms change
/// thresholds, not tables): Plan::packets is most of a binary32 search.
class PacketCache {
public:
  hrcs::UnitPackets get(const hrcs::Plan &plan, const hrcs::Unit &u,
                        uint64_t segment) {
    const std::pair<uint64_t, uint64_t> key{segment, u.j0};
    {
      std::lock_guard<std::mutex> lock(m_);
      auto it = map_.find(key);
      if (it != map_.end()) {
        hrcs::UnitPackets p = it->second;
        plan.adopt(p, u);
        return p;
      }
    }
    hrcs::UnitPackets p = plan.packets(u);
    std::lock_guard<std::mutex> lock(m_);
    map_.emplace(key, p);
    return p;
  }

private:
  std::mutex m_;
  std::map<std::pair<uint64_t, uint64_t>, hrcs::UnitPackets> map_;
};

/// Runs binades (or random draws) on --threads worker threads, each with
/// its own backend: a one-core CPU backend, or a GPU backend on its own
/// stream of the one GPU, while the oracle, the plans and MPFR run in
/// parallel.
class Verifier {
public:
  explicit Verifier(const Options &o) : o_(o) {}

  /// A backend for worker `index`; nullptr and `error` if none. GPU
  /// workers take the --devices in turn.
  std::unique_ptr<hrcs::Backend> workerBackend(size_t index,
                                               std::string &error) {
    if (o_.backend == "gpu") {
#ifdef APPROX_HRCS_HAS_CUDA
      return hrcs::makeGpuBackend(error,
                                  o_.devices[index % o_.devices.size()]);
#else
      error = "--backend gpu needs the GPU build (bench/hrcs/build-gpu.sh)";
      return nullptr;
#endif
    }
    return std::make_unique<hrcs::CpuBackend>(1);
  }

  /// The search's cases among [lo + j0 ulp, lo + j1 ulp), as indices from
  /// lo; false and `error` when the search refused or failed.
  bool search(hrcs::Backend &backend, const SearchParams &base, double lo,
              double ulp, uint64_t j0, uint64_t j1, std::vector<uint64_t> &out,
              PacketCache *cache, std::string &error) {
    SearchParams sp = base;
    sp.lo = hex(lo + (double)j0 * ulp);
    // hi halfway past the last argument: exact, and inside the binade.
    sp.hi = hex(lo + ((double)j1 - 0.5) * ulp);
    hrcs::Plan plan;
    if (!plan.init(sp, o_.backend == "gpu", error))
      return false;
    hrcs::RunOptions ro;
    ro.progress = false;
    // The last, costliest binades run on few workers: their threads then
    // build tables and confirm cases for them.
    ro.threads = std::max(1, o_.threads / std::max(1, busy.load()));
    if (cache)
      ro.packets = [cache, j0](const hrcs::Plan &p, const hrcs::Unit &u) {
        return cache->get(p, u, j0);
      };
    hrcs::RunResult res;
    if (!hrcs::runSearch(plan, backend, ro, res, error))
      return false;
    for (const hrcs::Case &c : res.cases)
      out.push_back(j0 + c.index);
    return true;
  }

  /// Compares the search with the oracle's `truth` (indices from lo, all
  /// of [0, count)) on `segments`, filling `cell`.
  bool compare(hrcs::Backend &backend, const SearchParams &sp, double lo,
               double ulp,
               const std::vector<std::pair<uint64_t, uint64_t>> &segments,
               const std::vector<uint64_t> &truth, Cell &cell,
               PacketCache *cache, std::string &error) {
    auto t0 = std::chrono::steady_clock::now();
    std::vector<uint64_t> got, want;
    for (auto [a, b] : segments) {
      if (!search(backend, sp, lo, ulp, a, b, got, cache, error))
        return false;
      for (uint64_t j : truth)
        if (j >= a && j < b)
          want.push_back(j);
    }
    std::sort(got.begin(), got.end());
    got.erase(std::unique(got.begin(), got.end()), got.end());
    std::vector<uint64_t> miss, extra;
    std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
                        std::back_inserter(miss));
    std::set_difference(got.begin(), got.end(), want.begin(), want.end(),
                        std::back_inserter(extra));
    cell.truth = want.size();
    cell.found = got.size() - extra.size();
    cell.missed = miss.size();
    cell.falsePos = extra.size();
    for (size_t i = 0; i < miss.size() && i < 4; ++i)
      cell.missedArgs.push_back(miss[i]);
    for (size_t i = 0; i < extra.size() && i < 4; ++i)
      cell.falseArgs.push_back(extra[i]);
    cell.seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - t0)
                       .count();
    return true;
  }

  /// Every cell of one binade: the oracle once, then each setting. The
  /// cells are reported together once all are done; past the deadline
  /// `late` is set and none is (the binade counts as not run).
  bool runBinade(hrcs::Backend &backend, const Binade &b, bool &late,
                 std::string &error) {
    std::vector<Cell> done;
    late = false;
    auto func = accuracy::parseFunc(b.fn);
    accuracy::HardCaseQuery qy;
    qy.func = *func;
    qy.lo = b.lo();
    qy.ulp = b.ulp();
    qy.count = b.count();
    qy.q = o_.q;
    for (int k : o_.epsilons)
      qy.epsilons.push_back(std::ldexp(1.0, -k));
    accuracy::HardCaseAnswer ans;
    if (!accuracy::findHardCases(qy, ans, error))
      return false;
    for (size_t ei = 0; ei < o_.epsilons.size(); ++ei) {
      const std::vector<uint64_t> &truth = ans.cases[ei];
      // The settings of one eps share their tables (Plan::adopt).
      PacketCache cache;
      std::vector<std::pair<uint64_t, uint64_t>> segs;
      const uint64_t n = b.count();
      bool sampled = truth.size() > o_.denseLimit && n > 3 * kSample;
      if (sampled)
        segs = {{0, kSample}, {n / 2, n / 2 + kSample}, {n - kSample, n}};
      else
        segs = {{0, n}};
      for (int split : o_.splits)
        for (const std::string &alg : o_.algorithms) {
          if (pastDeadline()) {
            late = true;
            return true;
          }
          SearchParams sp;
          sp.function = b.fn;
          sp.argPrecision = b.p();
          sp.precision = o_.q;
          sp.epsilon = "0x1p-" + std::to_string(o_.epsilons[ei]);
          sp.split = split;
          sp.algorithm = alg;
          Cell c;
          c.fn = b.fn;
          c.binade = b.name();
          c.eps = qy.epsilons[ei];
          c.split = split;
          c.algorithm = alg;
          c.sampled = sampled;
          if (!compare(backend, sp, b.lo(), b.ulp(), segs, truth, c, &cache,
                       error)) {
            error = b.fn + " " + b.name() + ": " + error;
            return false;
          }
          done.push_back(std::move(c));
        }
    }
    for (const Cell &c : done)
      report(c);
    return true;
  }

  /// Past --time-limit.
  bool pastDeadline() const {
    return o_.timeLimit > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start_)
                   .count() > o_.timeLimit;
  }

  /// --cells: each reported cell as one JSON line, flushed, so that a run
  /// stopped from outside keeps what it finished.
  bool openCells(std::string &error) {
    if (o_.cellsPath.empty())
      return true;
    cellsFile_ = std::fopen(o_.cellsPath.c_str(), "w");
    if (!cellsFile_)
      error = "cannot write '" + o_.cellsPath + "'";
    return cellsFile_ != nullptr;
  }

  /// One random plan and domain.
  bool runRandom(hrcs::Backend &backend, std::mt19937_64 &rng,
                 std::string &error) {
    static const char *fns[] = {"exp", "exp2", "log", "log2", "sin", "cos"};
    auto pick = [&](int lo, int hi) {
      return (int)std::uniform_int_distribution<int>(lo, hi)(rng);
    };
    Binade b;
    b.fn = fns[pick(0, 5)];
    // A binade where cases are sparse (dense ones are skipped below).
    if (b.fn == "exp" || b.fn == "exp2")
      b.e = pick(-30, 8);
    else if (b.fn == "log" || b.fn == "log2")
      b.e = pick(-126, 127);
    else
      b.e = pick(-12, 19);
    b.sign = b.fn == "log" || b.fn == "log2" || pick(0, 1) ? 1 : -1;
    const int p = std::min(b.p(), pick(8, 24));
    const int q = p + pick(0, 2);
    const double ulp = std::ldexp(1.0, b.e - p + 1);
    const uint64_t span = uint64_t(1) << (p - 1); // arguments of the binade
    const int lenBits = std::min(p - 1, pick(6, 16));
    const uint64_t len = uint64_t(1) << lenBits;
    const uint64_t start =
        span == len ? 0
                    : std::uniform_int_distribution<uint64_t>(0, span - len)(rng);
    double a = std::ldexp(1.0, b.e);
    double lo = b.sign > 0 ? a + (double)start * ulp
                           : -(a + (double)(start + len - 1) * ulp);
    const int epsBits = pick(std::max(4, q - 20), std::min(30, q + 6));
    SearchParams sp;
    sp.function = b.fn;
    sp.argPrecision = p;
    sp.precision = q;
    sp.epsilon = "0x1p-" + std::to_string(epsBits);
    sp.split = 1 << pick(0, 6);
    sp.intervalBits = pick(0, 1) ? 0 : pick(2, 12);
    sp.packetBits = pick(-1, 6);
    sp.divisionThreshold = pick(0, 16);
    sp.algorithm = pick(0, 2) == 0 ? "lefevre" : pick(0, 1) ? "regular" : "auto";
    if (pick(0, 3) == 0) {
      // A floor near the results' binade, so that some fall under it.
      int e2 = 0;
      std::frexp(evalForFloor(b.fn, lo), &e2);
      sp.emin = e2 - 1 + pick(-1, 2);
    }
    accuracy::HardCaseQuery qy;
    qy.func = *accuracy::parseFunc(b.fn);
    qy.lo = lo;
    qy.ulp = ulp;
    qy.count = len;
    qy.q = q;
    qy.emin = sp.emin;
    qy.epsilons = {std::ldexp(1.0, -epsBits)};
    accuracy::HardCaseAnswer ans;
    if (!accuracy::findHardCases(qy, ans, error))
      return false;
    std::ostringstream setting;
    setting << b.fn << " [" << hex(lo) << ", +" << len << " args) p=" << p
            << " q=" << q << " eps=2^-" << epsBits << " emin=" << sp.emin
            << " split=" << sp.split << " interval-bits=" << sp.intervalBits
            << " packet-bits=" << sp.packetBits
            << " division-threshold=" << sp.divisionThreshold
            << " algorithm=" << sp.algorithm;
    Cell c;
    c.fn = b.fn;
    c.binade = setting.str();
    c.eps = qy.epsilons[0];
    c.split = sp.split;
    c.algorithm = sp.algorithm;
    if (ans.cases[0].size() > o_.denseLimit) {
      std::lock_guard<std::mutex> lock(cellsMutex_);
      ++skippedDense_;
      return true;
    }
    if (!compare(backend, sp, lo, ulp, {{0, len}}, ans.cases[0], c, nullptr,
                 error)) {
      error = c.binade + ": " + error;
      return false;
    }
    report(c);
    return true;
  }

  void report(const Cell &c) {
    std::lock_guard<std::mutex> lock(cellsMutex_);
    cells_.push_back(c);
    if (cellsFile_) {
      std::fprintf(cellsFile_, "%s\n", cellJson(c).c_str());
      std::fflush(cellsFile_);
    }
    if ((c.missed || c.falsePos || o_.verbose) && o_.random > 0) {
      std::fprintf(stderr, "%s: %s: %llu true, %llu found, %llu missed, %llu "
                   "false\n", kTool, c.binade.c_str(),
                   (unsigned long long)c.truth, (unsigned long long)c.found,
                   (unsigned long long)c.missed,
                   (unsigned long long)c.falsePos);
    } else if (c.missed || c.falsePos || o_.verbose) {
      std::fprintf(stderr,
                   "%s: %s %s eps=2^%g split=%d %s: %llu true, %llu found, "
                   "%llu missed, %llu false%s\n",
                   kTool, c.fn.c_str(), c.binade.c_str(), std::log2(c.eps),
                   c.split, c.algorithm.c_str(),
                   (unsigned long long)c.truth, (unsigned long long)c.found,
                   (unsigned long long)c.missed,
                   (unsigned long long)c.falsePos,
                   c.sampled ? " (sampled)" : "");
    }
  }

  /// The table: function x eps x split x algorithm, found/true summed over
  /// binades; and the JSON of every cell.
  int finish(double seconds, size_t jobs,
             const std::vector<std::string> &notRun) {
    // Workers finish in any order: a stable report.
    std::sort(cells_.begin(), cells_.end(), [](const Cell &a, const Cell &b) {
      return std::tie(a.fn, a.binade, b.eps, a.split, a.algorithm) <
             std::tie(b.fn, b.binade, a.eps, b.split, b.algorithm);
    });
    struct Sum {
      uint64_t truth = 0, found = 0, missed = 0, falsePos = 0, cells = 0,
               sampled = 0;
    };
    std::map<std::tuple<std::string, double, int, std::string>, Sum> sums;
    uint64_t missed = 0, falsePos = 0;
    for (const Cell &c : cells_) {
      Sum &s = sums[{c.fn, -c.eps, c.split, c.algorithm}];
      s.truth += c.truth;
      s.found += c.found;
      s.missed += c.missed;
      s.falsePos += c.falsePos;
      s.cells += 1;
      s.sampled += c.sampled;
      missed += c.missed;
      falsePos += c.falsePos;
    }
    if (o_.random == 0) {
      std::printf("| function | eps | split | algorithm | binades (sampled) "
                  "| found / true | missed | false |\n"
                  "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
      for (auto &[k, s] : sums)
        std::printf("| %s | 2^%g | %d | %s | %llu (%llu) | %llu / %llu | "
                    "%llu | %llu |\n",
                    std::get<0>(k).c_str(), std::log2(-std::get<1>(k)),
                    std::get<2>(k), std::get<3>(k).c_str(),
                    (unsigned long long)s.cells,
                    (unsigned long long)s.sampled,
                    (unsigned long long)s.found, (unsigned long long)s.truth,
                    (unsigned long long)s.missed,
                    (unsigned long long)s.falsePos);
    }
    uint64_t truth = 0;
    for (const Cell &c : cells_)
      truth += c.truth;
    std::printf("%s: %zu comparisons%s, %llu true cases, %llu missed, %llu "
                "false, %.1f s\n",
                kTool, cells_.size(),
                skippedDense_ ? (" (" + std::to_string(skippedDense_) +
                                 " dense draws skipped)")
                                    .c_str()
                              : "",
                (unsigned long long)truth, (unsigned long long)missed,
                (unsigned long long)falsePos, seconds);
    if (!notRun.empty())
      std::printf("%s: --time-limit: %zu of %zu binades not run\n", kTool,
                  notRun.size(), jobs);
    if (!o_.json.empty() && !writeJson(seconds, notRun)) {
      std::fprintf(stderr, "%s: cannot write '%s'\n", kTool, o_.json.c_str());
      return 2;
    }
    return missed || falsePos ? 1 : !notRun.empty() ? 3 : 0;
  }

private:
  static std::string cellJson(const Cell &c) {
    std::ostringstream j;
    j.precision(17);
    j << "{\"function\": \"" << c.fn << "\", \"domain\": \"" << c.binade
      << "\", \"eps_log2\": " << std::log2(c.eps) << ", \"split\": "
      << c.split << ", \"algorithm\": \"" << c.algorithm
      << "\", \"sampled\": " << (c.sampled ? "true" : "false")
      << ", \"true\": " << c.truth << ", \"found\": " << c.found
      << ", \"missed\": " << c.missed << ", \"false\": " << c.falsePos
      << ", \"seconds\": " << c.seconds << "}";
    return j.str();
  }

  bool writeJson(double seconds, const std::vector<std::string> &notRun) {
    std::ostringstream j;
    j.precision(17);
    j << "{\n  \"tool\": \"" << kTool << "\",\n  \"backend\": \""
      << o_.backend << "\",\n  \"q\": " << o_.q
      << ",\n  \"dense_limit\": " << o_.denseLimit
      << ",\n  \"seconds\": " << seconds << ",\n  \"not_run\": [";
    for (size_t i = 0; i < notRun.size(); ++i)
      j << (i ? ", " : "") << "\"" << notRun[i] << "\"";
    j << "],\n  \"cells\": [\n";
    for (size_t i = 0; i < cells_.size(); ++i)
      j << "    " << cellJson(cells_[i])
        << (i + 1 < cells_.size() ? ",\n" : "\n");
    j << "  ]\n}\n";
    std::string tmp = o_.json + ".tmp";
    {
      std::ofstream f(tmp);
      if (!(f << j.str()) || !f.flush())
        return false;
    }
    return std::rename(tmp.c_str(), o_.json.c_str()) == 0;
  }

public:
  /// Workers running a binade or draw now.
  std::atomic<int> busy{0};

private:
  const Options &o_;
  const std::chrono::steady_clock::time_point start_ =
      std::chrono::steady_clock::now();
  std::FILE *cellsFile_ = nullptr;
  std::mutex cellsMutex_;
  std::vector<Cell> cells_;
  uint64_t skippedDense_ = 0;
};

/// A Binade as --binades spells it: "exp:-:5".
std::string binadeName(const Binade &b) {
  return b.fn + ":" + (b.sign > 0 ? "+" : "-") + ":" + std::to_string(b.e);
}

/// "exp:-:5" (sign, exponent) to a Binade.
bool parseBinade(const std::string &s, Binade &b) {
  size_t c1 = s.find(':'), c2 = s.find(':', c1 + 1);
  if (c1 == std::string::npos || c2 == std::string::npos)
    return false;
  b.fn = s.substr(0, c1);
  std::string sign = s.substr(c1 + 1, c2 - c1 - 1);
  if (sign != "+" && sign != "-")
    return false;
  b.sign = sign == "+" ? 1 : -1;
  try {
    size_t used = 0;
    b.e = std::stoi(s.substr(c2 + 1), &used);
    return used == s.size() - c2 - 1;
  } catch (...) {
    return false;
  }
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  cli::CommandLine cl{cli::Tool{kTool},
                      "The hard-to-round search against an independent "
                      "brute-force oracle, by exact set equality "
                      "(docs/hrcs.md)"};
  const std::vector<std::string> kFunctions{"exp",  "exp2", "log",
                                            "log2", "sin",  "cos"};
  cl.value(
      "--functions",
      [&](const std::string &v) {
        o.functions =
            cli::parseList(v, "--functions", [&](const std::string &f) {
              return cli::parseChoice(f, "--functions", kFunctions);
            });
      },
      "exp, exp2, log, log2, sin, cos (comma-separated)");
  cl.text("--binades", o.binades,
          "all | sampled | FN:SIGN:E,... (e.g. exp:-:5 is (-64, -32])");
  auto intList = [&](const char *name, std::vector<int> &target, int lo, int hi,
                     const char *desc) {
    cl.value(
        name,
        [&target, name, lo, hi](const std::string &v) {
          target = cli::parseList(v, name, [&](const std::string &x) {
            return int(cli::parseInt(x, name, lo, hi));
          });
        },
        desc, "INT,...");
  };
  intList("--epsilons", o.epsilons, 2, 60, "k of eps = 2^-k");
  intList("--splits", o.splits, 1, 1024, "phase-2 splits (powers of two)");
  cl.value(
      "--algorithms",
      [&](const std::string &v) {
        o.algorithms =
            cli::parseList(v, "--algorithms", [](const std::string &a) {
              return cli::parseChoice(a, "--algorithms",
                                      {"lefevre", "regular", "auto"});
            });
      },
      "lefevre, regular, auto");
  cl.integer("--precision", o.q, 2, 53, "boundary precision q (default 25)");
  cl.choice("--backend", o.backend, {"cpu", "gpu"}, "cpu | gpu");
  cl.integer("--threads", o.threads, 1, 1024, "CPU threads");
  intList("--devices", o.devices, 0, 63,
          "CUDA devices, shared out among the workers");
  cl.unsignedInteger("--dense-limit", o.denseLimit, 1, uint64_t(1) << 24,
                     "cells with more true cases are sampled");
  cl.text("--json", o.json, "every comparison, as JSON");
  cl.text("--cells", o.cellsPath,
          "each comparison as a JSON line as soon as its binade is done "
          "(kept if the run is stopped)");
  cl.integer("--random", o.random, 1, 1000000,
             "draw N random plans and domains");
  cl.unsignedInteger("--seed", o.seed, 0, UINT32_MAX, "seed of --random");
  cl.flag("--verbose", o.verbose, "a line per comparison");
  cl.number("--time-limit", o.timeLimit, 0.0, 1e7,
            "start no binade after this many seconds (the report says which "
            "were not run)");
  cl.check([&] {
    for (int s : o.splits)
      if (s & (s - 1))
        cli::usageError("--splits: " + std::to_string(s) +
                        " is not a power of two");
  });
  if (int status = cl.parse(argc, argv); status >= 0)
    return status;
  std::vector<Binade> binades;
  if (o.random == 0) {
    for (const std::string &fn : o.functions) {
      if (o.binades == "all") {
        for (const Binade &b : allBinades(fn))
          binades.push_back(b);
      } else if (o.binades == "sampled") {
        for (const Binade &b : sampledBinades(fn))
          binades.push_back(b);
      }
    }
    if (o.binades != "all" && o.binades != "sampled") {
      std::stringstream in(o.binades);
      std::string item;
      while (std::getline(in, item, ',')) {
        Binade b;
        if (!parseBinade(item, b) || !accuracy::parseFunc(b.fn) ||
            b.e < -149 || b.e > 127) {
          return cl.fail("--binades: " + cli::quote(item) +
                         " is not FN:SIGN:E (e.g. exp:-:5)");
        }
        binades.push_back(b);
      }
    }
  }
  // The costliest binades last (sin and cos far from 0: planning is most
  // of their time), so that a --time-limit leaves out as few as possible.
  std::stable_sort(binades.begin(), binades.end(),
                   [](const Binade &a, const Binade &b) {
                     auto far = [](const Binade &x) {
                       return (x.fn == "sin" || x.fn == "cos") && x.e >= 11;
                     };
                     return far(a) < far(b) || (far(a) && far(b) && a.e < b.e);
                   });
  Verifier v(o);
  {
    // One backend up front: a missing GPU is one line before any work.
    std::string error;
    if (!v.openCells(error) || !v.workerBackend(0, error)) {
      std::fprintf(stderr, "%s: %s\n", kTool, error.c_str());
      return 2;
    }
  }
  auto t0 = std::chrono::steady_clock::now();
  const size_t jobs = o.random > 0 ? (size_t)o.random : binades.size();
  std::atomic<size_t> next{0}, done{0};
  std::atomic<bool> failed{false};
  std::string firstError;
  std::mutex errorMutex, progressMutex;
  auto last = t0;
  std::atomic<size_t> workerIndex{0};
  std::vector<std::string> notRun;
  auto worker = [&]() {
    std::string err;
    std::unique_ptr<hrcs::Backend> backend =
        v.workerBackend(workerIndex++, err);
    if (!backend) {
      std::lock_guard<std::mutex> lock(errorMutex);
      if (!failed.exchange(true))
        firstError = err;
      return;
    }
    for (size_t i; !failed && (i = next++) < jobs;) {
      if (v.pastDeadline()) {
        std::lock_guard<std::mutex> lock(progressMutex);
        if (o.random == 0)
          notRun.push_back(binadeName(binades[i]));
        continue;
      }
      bool ok;
      ++v.busy;
      if (o.random > 0) {
        // Each draw its own generator: the same draws at any --threads.
        std::mt19937_64 rng((uint64_t)o.seed * 1000003u + i);
        ok = v.runRandom(*backend, rng, err);
      } else {
        bool late = false;
        ok = v.runBinade(*backend, binades[i], late, err);
        if (ok && late) {
          std::lock_guard<std::mutex> lock(progressMutex);
          notRun.push_back(binadeName(binades[i]));
        }
      }
      --v.busy;
      if (!ok) {
        std::lock_guard<std::mutex> lock(errorMutex);
        if (!failed.exchange(true))
          firstError = err;
        return;
      }
      size_t n = ++done;
      std::lock_guard<std::mutex> lock(progressMutex);
      auto now = std::chrono::steady_clock::now();
      if (std::chrono::duration<double>(now - last).count() > 10) {
        last = now;
        std::fprintf(stderr, "%s: %zu/%zu %s, %.0f s\n", kTool, n, jobs,
                     o.random > 0 ? "draws" : "binades",
                     std::chrono::duration<double>(now - t0).count());
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < o.threads; ++t)
    pool.emplace_back(worker);
  worker();
  for (auto &th : pool)
    th.join();
  if (failed) {
    std::fprintf(stderr, "%s: %s\n", kTool, firstError.c_str());
    return 2;
  }
  std::sort(notRun.begin(), notRun.end());
  return v.finish(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count(),
      jobs, notRun);
}
