//===- Search.cpp - CPU backend, MPFR confirmation, checkpointed runs -----===//
#include "approx/hrcs/Search.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <future>
#include <mutex>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace approx::hrcs {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

template <int W, int D>
void searchPacket(const UnitPackets &u, size_t index,
                  std::vector<uint64_t> &out, PhaseStats &st) {
  const Packet &pk = u.packets[index];
  const uint64_t *src = u.table(index);
  Table<W, D> tab;
  tab.load(src, u.degree);
  const PhaseParams &pp = u.phase;
  const uint64_t N = pp.intervalArgs;
  const uint64_t sub = std::max<uint64_t>(1, N / pp.split);
  uint64_t j = pk.j0;
  for (uint32_t k = 0; k < pk.intervals; ++k, j += N) {
    uint64_t n = std::min<uint64_t>(N, pk.end - j);
    Quadratic q{tab.value(0), tab.value(1), tab.value(2)};
    ++st.phase1;
    if (linearCandidate(q, n, pp.eps1, pp)) {
      ++st.phase2;
      auto t2 = Clock::now();
      for (uint64_t m0 = 0; m0 < n; m0 += sub) {
        uint64_t ns = std::min(sub, n - m0);
        Quadratic s = subInterval(q, m0);
        if (!linearCandidate(s, ns, pp.eps2, pp))
          continue;
        ++st.phase3;
        exhaustive(s, ns, pp, [&](uint64_t m) {
          if (out.size() < kMaxCandidates)
            out.push_back(j + m0 + m);
          ++st.candidates;
        });
        if (st.candidates > kMaxCandidates)
          return; // reported by CpuBackend::run
      }
      st.phase2Seconds += since(t2);
    }
    tab.step();
  }
}

/// searchPacket for dispatchTable.
struct PacketRun {
  const UnitPackets &u;
  size_t pk;
  std::vector<uint64_t> &out;
  PhaseStats &st;
  template <int W, int D> void run() { searchPacket<W, D>(u, pk, out, st); }
};

/// v as a normalized hex float, 0x1.<hex>p<e> (C99 %a style), exact.
std::string hexOf(mpfr_srcptr v) {
  if (mpfr_zero_p(v))
    return mpfr_signbit(v) ? "-0x0p+0" : "0x0p+0";
  if (!mpfr_number_p(v))
    return mpfr_nan_p(v) ? "nan" : (mpfr_sgn(v) < 0 ? "-inf" : "inf");
  mpfr_exp_t e = 0;
  char *digits = mpfr_get_str(nullptr, &e, 2, 0, v, MPFR_RNDN); // "[-]1..."
  std::string bits(digits);
  mpfr_free_str(digits);
  std::string out;
  if (bits[0] == '-') {
    out = "-";
    bits.erase(0, 1);
  }
  std::string frac = bits.substr(1);
  while (!frac.empty() && frac.back() == '0')
    frac.pop_back();
  while (frac.size() % 4)
    frac += '0';
  out += "0x1";
  if (!frac.empty()) {
    out += '.';
    for (size_t i = 0; i < frac.size(); i += 4)
      out += "0123456789abcdef"[std::stoi(frac.substr(i, 4), nullptr, 2)];
  }
  return out + "p" + (e - 1 >= 0 ? "+" : "") + std::to_string((long)e - 1);
}

bool writeFileAtomically(const std::string &path, const std::string &data) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f)
      return false;
    f << data;
    if (!f.flush())
      return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return false;
  std::ostringstream s;
  s << f.rdbuf();
  out = s.str();
  return true;
}

} // namespace

void PhaseStats::add(const PhaseStats &o) {
  arguments += o.arguments;
  phase1 += o.phase1;
  phase2 += o.phase2;
  phase3 += o.phase3;
  candidates += o.candidates;
  direct += o.direct;
  polySeconds += o.polySeconds;
  phase1Seconds += o.phase1Seconds;
  phase2Seconds += o.phase2Seconds;
  phase3Seconds += o.phase3Seconds;
  confirmSeconds += o.confirmSeconds;
}

bool CpuBackend::run(std::vector<UnitPackets> &units,
                     std::vector<uint64_t> &candidates, PhaseStats &stats,
                     std::string &error) {
  auto t0 = Clock::now();
  std::vector<std::pair<const UnitPackets *, size_t>> work;
  for (const UnitPackets &u : units) {
    if (u.words < 2 || u.words > kMaxWords) {
      error = "internal: unsupported table width";
      return false;
    }
    for (size_t k = 0; k < u.packets.size(); ++k)
      work.push_back({&u, k});
  }
  std::atomic<size_t> next{0};
  std::vector<std::vector<uint64_t>> found(threads_);
  std::vector<PhaseStats> st(threads_);
  auto worker = [&](int t) {
    for (size_t i; (i = next++) < work.size();) {
      const UnitPackets &u = *work[i].first;
      const size_t pk = work[i].second;
      PacketRun r{u, pk, found[t], st[t]};
      dispatchTable(u.words, u.degree, r);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads_; ++t)
    pool.emplace_back(worker, t);
  worker(0);
  for (auto &th : pool)
    th.join();
  // Phases 2 and 3 share a timer (they interleave per interval); with
  // several threads their thread-seconds are divided by the thread count.
  double p23 = 0;
  for (int t = 0; t < threads_; ++t) {
    candidates.insert(candidates.end(), found[t].begin(), found[t].end());
    stats.phase1 += st[t].phase1;
    stats.phase2 += st[t].phase2;
    stats.phase3 += st[t].phase3;
    stats.candidates += st[t].candidates;
    p23 += st[t].phase2Seconds;
  }
  p23 /= threads_;
  if (stats.candidates > kMaxCandidates) {
    error = "more than 2^24 candidates in one batch: epsilon is too wide for "
            "this domain (nearly every argument is a case)";
    return false;
  }
  stats.phase2Seconds += p23;
  stats.phase1Seconds += since(t0) - p23;
  return true;
}

bool confirmCase(const Plan &plan, uint64_t j, Case &c) {
  const int q = plan.precision();
  Real x(plan.argPrecision() + 2);
  plan.argument(x, j);
  for (mpfr_prec_t w = q + 64 - (mpfr_prec_t)plan.log2Eps(); w <= 16384;
       w *= 2) {
    Real y(w), f(w), r(w), dist(w);
    int ternary = plan.function().eval(y, x);
    if (!mpfr_regular_p(y)) {
      if (mpfr_zero_p(y) && ternary == 0) { // exact zero: a boundary
        c.index = j;
        c.argument = hexOf(x);
        c.value = "0";
        c.log2Distance = -INFINITY;
        return true;
      }
      return false;
    }
    // F = |y| / ulp_q, ulp_q = 2^(E - q + 1), E = exponent - 1.
    long E = plan.gridExponent(y);
    mpfr_abs(f, y, MPFR_RNDN);
    mpfr_mul_2si(f, f, q - 1 - E, MPFR_RNDN);
    mpfr_rint(r, f, MPFR_RNDN);
    mpfr_sub(dist, f, r, MPFR_RNDN);
    mpfr_abs(dist, dist, MPFR_RNDN);
    // |error of F| <= ulp_w(F)/2 <= 2^(q - w); sure when the gap to eps is
    // wider, or the value is exact.
    Real gap(w);
    mpfr_sub(gap, dist, plan.epsilon(), MPFR_RNDN);
    mpfr_abs(gap, gap, MPFR_RNDN);
    bool sure = ternary == 0 ||
                mpfr_cmp_si_2exp(gap, 1, (long)q - (long)w + 1) > 0;
    if (!sure)
      continue;
    if (mpfr_cmp(dist, plan.epsilon()) >= 0)
      return false;
    c.index = j;
    c.argument = hexOf(x);
    Real shown(q + 24);
    mpfr_set(shown, y, MPFR_RNDN);
    c.value = hexOf(shown);
    if (mpfr_zero_p(dist)) {
      c.log2Distance = -INFINITY;
    } else {
      long e;
      double m = mpfr_get_d_2exp(&e, dist, MPFR_RNDN);
      c.log2Distance = std::log2(m) + (double)e;
    }
    return true;
  }
  return false; // not decidable below 16384 bits: not reported
}

std::vector<uint64_t> bruteForce(const Plan &plan, uint64_t j0, uint64_t j1) {
  std::vector<uint64_t> out;
  Case c;
  for (uint64_t j = j0; j < j1; ++j)
    if (confirmCase(plan, j, c))
      out.push_back(j);
  return out;
}

/// mkdir -p.
static bool makeDir(const std::string &dir, std::string &error) {
  struct stat st;
  if (stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      error = "output path '" + dir + "' exists and is not a directory";
      return false;
    }
    return true;
  }
  size_t slash = dir.find_last_of('/');
  if (slash != std::string::npos && slash > 0 &&
      !makeDir(dir.substr(0, slash), error))
    return false;
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    error = "cannot create output directory '" + dir + "': " + strerror(errno);
    return false;
  }
  return true;
}

std::string statsJsonText(const Plan &plan, const char *backend,
                          const PhaseStats &s, size_t cases, double seconds,
                          int processes) {
  std::ostringstream o;
  o.precision(6);
  o << "{\n  \"params\": \"" << plan.canonical() << "\",\n"
    << "  \"backend\": \"" << backend << "\",\n"
    << "  \"processes\": " << processes << ",\n"
    << "  \"arguments\": " << s.arguments << ",\n"
    << "  \"pieces\": " << plan.pieces().size() << ",\n"
    << "  \"units\": " << plan.units().size() << ",\n"
    << "  \"phase1_intervals\": " << s.phase1 << ",\n"
    << "  \"phase2_intervals\": " << s.phase2 << ",\n"
    << "  \"phase3_subintervals\": " << s.phase3 << ",\n"
    << "  \"candidates\": " << s.candidates << ",\n"
    << "  \"direct_arguments\": " << s.direct << ",\n"
    << "  \"cases\": " << cases << ",\n"
    << "  \"seconds\": {\"polynomials\": " << s.polySeconds
    << ", \"phase1\": " << s.phase1Seconds << ", \"phase2\": "
    << s.phase2Seconds << ", \"phase3\": " << s.phase3Seconds
    << ", \"confirm\": " << s.confirmSeconds << ", \"total\": " << seconds
    << "}\n}\n";
  return o.str();
}

std::string wcText(const Plan &plan,
                   const std::vector<std::pair<uint64_t, std::string>> &lines) {
  std::string out = "# hard-to-round cases of " +
                    std::string(plan.function().name()) +
                    " written by approx-hrcs\n# " + plan.canonical() +
                    "\n# x with |f(x) / ulp_q cmod 1| < epsilon, confirmed "
                    "with MPFR\n";
  for (const auto &l : lines)
    out += l.second + "\n";
  return out;
}

bool SplitBackend::run(std::vector<UnitPackets> &units,
                       std::vector<uint64_t> &candidates, PhaseStats &stats,
                       std::string &error) {
  const size_t n = parts_.size();
  // Largest units first; each part takes the next chunk (about a quarter
  // of its fair share) when it is done with the last: phase-2 work varies
  // from unit to unit, so a static share leaves one GPU waiting.
  std::vector<size_t> order(units.size());
  std::vector<uint64_t> weight(units.size(), 0);
  uint64_t total = 0;
  for (size_t i = 0; i < units.size(); ++i) {
    order[i] = i;
    for (const Packet &pk : units[i].packets)
      weight[i] += pk.intervals;
    total += weight[i];
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return weight[a] > weight[b]; });
  const uint64_t chunk = std::max<uint64_t>(1, total / (4 * n));
  std::mutex m;
  size_t next = 0;
  auto take = [&](std::vector<UnitPackets> &out) {
    std::lock_guard<std::mutex> lock(m);
    uint64_t w = 0;
    while (next < order.size() && (out.empty() || w < chunk)) {
      w += weight[order[next]] + 1;
      out.push_back(std::move(units[order[next++]])); // tables: never copied
    }
    return !out.empty();
  };
  std::vector<std::vector<uint64_t>> found(n);
  std::vector<PhaseStats> st(n);
  std::vector<std::string> errs(n);
  std::vector<char> ok(n, 1);
  std::vector<std::thread> pool;
  for (size_t k = 0; k < n; ++k)
    pool.emplace_back([&, k]() {
      for (std::vector<UnitPackets> share; ok[k] && take(share); share.clear())
        ok[k] = parts_[k]->run(share, found[k], st[k], errs[k]);
    });
  for (auto &t : pool)
    t.join();
  double s1 = 0, s2 = 0, s3 = 0; // the parts ran at the same time
  for (size_t k = 0; k < n; ++k) {
    if (!ok[k]) {
      error = errs[k];
      return false;
    }
    candidates.insert(candidates.end(), found[k].begin(), found[k].end());
    stats.phase1 += st[k].phase1;
    stats.phase2 += st[k].phase2;
    stats.phase3 += st[k].phase3;
    stats.candidates += st[k].candidates;
    s1 = std::max(s1, st[k].phase1Seconds);
    s2 = std::max(s2, st[k].phase2Seconds);
    s3 = std::max(s3, st[k].phase3Seconds);
  }
  stats.phase1Seconds += s1;
  stats.phase2Seconds += s2;
  stats.phase3Seconds += s3;
  return true;
}

bool runSearch(const Plan &plan, Backend &backend, const RunOptions &opts,
               RunResult &result, std::string &error) {
  const std::string statePath = opts.outDir + "/hrcs.state";
  const std::string partialPath = opts.outDir + "/cases.partial";
  const std::string wcPath =
      opts.outDir + "/" + plan.function().name() + ".wc";
  if (opts.shareCount < 1 || opts.shareIndex < 0 ||
      opts.shareIndex >= opts.shareCount) {
    error = "internal: bad share of the units";
    return false;
  }
  const std::string canonical =
      plan.canonical() + (opts.shareCount > 1
                              ? " share=" + std::to_string(opts.shareIndex) +
                                    "/" + std::to_string(opts.shareCount)
                              : std::string());
  size_t unitsDone = 0;
  std::string partial;
  PhaseStats &st = result.stats;
  st = PhaseStats{};
  // No outDir: an in-memory run (a library caller's), no checkpoint.
  const bool files = !opts.outDir.empty();
  if (!files && opts.resume) {
    error = "nothing to resume: no output directory";
    return false;
  }
  const bool dirExisted = files && access(opts.outDir.c_str(), F_OK) == 0;
  if (files && !opts.resume && !makeDir(opts.outDir, error))
    return false;
  if (opts.resume) {
    std::string state;
    if (!readFile(statePath, state)) {
      error = "nothing to resume: no " + statePath;
      return false;
    }
    std::istringstream in(state);
    std::string magic, params, line;
    std::getline(in, magic);
    std::getline(in, params);
    if (magic != "approx-hrcs state 1") {
      error = statePath + " is not an approx-hrcs checkpoint";
      return false;
    }
    if (params != canonical) {
      error = "cannot resume: the checkpoint was made with other parameters (" +
              params + ")";
      return false;
    }
    size_t bytes = 0;
    in >> unitsDone >> bytes >> st.arguments >> st.phase1 >> st.phase2 >>
        st.phase3 >> st.candidates >> st.direct >> st.polySeconds >>
        st.phase1Seconds >> st.phase2Seconds >> st.phase3Seconds >>
        st.confirmSeconds;
    if (!in || unitsDone > plan.units().size() / opts.shareCount + 1) {
      error = statePath + " is damaged";
      return false;
    }
    if (!readFile(partialPath, partial) || partial.size() < bytes) {
      error = partialPath + " is shorter than the checkpoint says";
      return false;
    }
    partial.resize(bytes); // drop what a crash left half-written
    if (!writeFileAtomically(partialPath, partial)) {
      error = "cannot write the checkpoint in '" + opts.outDir + "'";
      return false;
    }
  } else if (files && access(statePath.c_str(), F_OK) == 0) {
    error = "output directory '" + opts.outDir +
            "' holds a checkpoint: pass --resume, or choose another directory";
    return false;
  }

  auto saveState = [&]() {
    if (!files)
      return true;
    std::ostringstream s;
    s.precision(17);
    s << "approx-hrcs state 1\n"
      << canonical << "\n"
      << unitsDone << " " << partial.size() << " " << st.arguments << " "
      << st.phase1 << " " << st.phase2 << " " << st.phase3 << " "
      << st.candidates << " " << st.direct << " " << st.polySeconds << " "
      << st.phase1Seconds << " " << st.phase2Seconds << " "
      << st.phase3Seconds << " " << st.confirmSeconds << "\n";
    return writeFileAtomically(statePath, s.str());
  };
  // Cases are appended (fsync'ed before the state that counts them).
  auto appendCases = [&](const std::string &fresh) {
    if (!files) {
      partial += fresh;
      return true;
    }
    if (fresh.empty())
      return true;
    FILE *f = std::fopen(partialPath.c_str(), "ab");
    if (!f)
      return false;
    bool ok = std::fwrite(fresh.data(), 1, fresh.size(), f) == fresh.size() &&
              std::fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = std::fclose(f) == 0 && ok;
    if (ok)
      partial += fresh;
    return ok;
  };
  if (files && !opts.resume && !writeFileAtomically(partialPath, "")) {
    error = "cannot write the checkpoint in '" + opts.outDir + "'";
    return false;
  }
  if (!saveState()) {
    error = "cannot write the checkpoint in '" + opts.outDir + "'";
    return false;
  }

  auto start = Clock::now();
  auto lastReport = start;
  std::vector<Unit> units;
  for (size_t i = 0; i < plan.units().size(); ++i)
    if ((int)(i % (size_t)opts.shareCount) == opts.shareIndex)
      units.push_back(plan.units()[i]);
  const size_t batch = opts.batchUnits > 0 ? (size_t)opts.batchUnits : 64;
  int threads = std::max(1, opts.threads);
  // A batch: the packets of some units, built by `threads` CPU threads
  // (MPFR + tabulation) while the backend searches the previous batch.
  struct Batch {
    size_t begin = 0, end = 0;
    std::vector<UnitPackets> work;
    std::vector<char> isDirect;
    double seconds = 0;
  };
  auto build = [&plan, &units, threads, &opts](size_t begin, size_t end) {
    Batch b;
    b.begin = begin;
    b.end = end;
    auto tp = Clock::now();
    b.work.resize(end - begin);
    b.isDirect.assign(end - begin, 0);
    std::atomic<size_t> next{begin};
    auto worker = [&]() {
      for (size_t i; (i = next++) < end;) {
        const Unit &u = units[i];
        if (plan.pieces()[u.piece].direct)
          b.isDirect[i - begin] = 1;
        else
          b.work[i - begin] =
              opts.packets ? opts.packets(plan, u) : plan.packets(u);
      }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
      pool.emplace_back(worker);
    worker();
    for (auto &t : pool)
      t.join();
    b.seconds = since(tp);
    return b;
  };
  auto batchEnd = [&](size_t begin) {
    size_t end = std::min(units.size(), begin + batch);
    if (opts.stopAfterUnits && opts.stopAfterUnits > begin)
      end = std::min(end, opts.stopAfterUnits);
    return end;
  };
  // MPFR confirmation of a batch's candidates, on `threads` threads: the
  // .wc lines of the confirmed cases, in argument order.
  auto confirm = [&plan, threads](std::vector<uint64_t> cand) {
    std::sort(cand.begin(), cand.end());
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    std::vector<std::string> lines(cand.size());
    std::atomic<size_t> next{0};
    auto worker = [&]() {
      for (size_t i; (i = next++) < cand.size();) {
        Case c;
        if (!confirmCase(plan, cand[i], c))
          continue;
        std::ostringstream line;
        line.precision(5);
        line << cand[i] << " " << c.argument << " # " << plan.function().name()
             << "(x) = " << c.value << ", ";
        if (std::isinf(c.log2Distance))
          line << "exact";
        else
          line << "2^" << std::fixed << c.log2Distance << " ulp from a boundary";
        line << "\n";
        lines[i] = line.str();
      }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads && (size_t)t < cand.size() / 64 + 1; ++t)
      pool.emplace_back(worker);
    worker();
    for (auto &t : pool)
      t.join();
    std::string fresh;
    for (const std::string &l : lines)
      fresh += l;
    return fresh;
  };
  // A searched batch whose candidates are being confirmed (while the
  // backend searches the next one) and what committing it records.
  struct Confirming {
    std::future<std::string> lines;
    PhaseStats stats;
    size_t end = 0;
    Clock::time_point started;
  };
  std::optional<Confirming> confirming;
  // Waits for the batch in confirmation and commits it: cases appended,
  // checkpoint saved, progress. False (and `error`) if the files fail.
  auto commit = [&]() {
    if (!confirming)
      return true;
    std::string fresh = confirming->lines.get();
    confirming->stats.confirmSeconds += since(confirming->started);
    st.add(confirming->stats);
    unitsDone = confirming->end;
    confirming.reset();
    if (!appendCases(fresh) || !saveState()) {
      error = "cannot write the checkpoint in '" + opts.outDir + "'";
      return false;
    }
    if (opts.progress && (since(lastReport) > 2 || unitsDone == units.size())) {
      lastReport = Clock::now();
      std::fprintf(stderr,
                   "approx-hrcs: %zu/%zu units, %llu of %llu arguments, "
                   "%.1f s\n",
                   unitsDone, units.size(), (unsigned long long)st.arguments,
                   (unsigned long long)plan.argCount(), since(start));
    }
    return true;
  };
  std::future<Batch> pending;
  size_t searched = unitsDone; // units searched (confirmed or in confirmation)
  if (searched < units.size())
    pending = std::async(std::launch::async, build, searched,
                         batchEnd(searched));
  while (searched < units.size() &&
         !(opts.stopAfterUnits && searched >= opts.stopAfterUnits)) {
    Batch b = pending.get();
    size_t end = b.end;
    if (end < units.size() &&
        !(opts.stopAfterUnits && end >= opts.stopAfterUnits))
      pending = std::async(std::launch::async, build, end, batchEnd(end));
    std::vector<uint64_t> cand;
    PhaseStats bst;
    bst.polySeconds += b.seconds;
    std::vector<UnitPackets> searchable;
    bool unproven = false;
    for (size_t i = b.begin; i < end && !unproven; ++i) {
      const Unit &u = units[i];
      bst.arguments += u.j1 - u.j0;
      if (b.isDirect[i - b.begin]) {
        for (uint64_t j = u.j0; j < u.j1; ++j)
          cand.push_back(j);
        bst.direct += u.j1 - u.j0;
      } else {
        searchable.push_back(std::move(b.work[i - b.begin]));
        // The checked assertion of docs/hrcs.md: no unit is searched with a
        // budget that was not proven.
        const std::string &why = searchable.back().budget.unproven;
        if (!why.empty()) {
          error = "cannot prove the error budget of arguments [" +
                  std::to_string(u.j0) + ", " + std::to_string(u.j1) +
                  "): " + why;
          unproven = true;
        }
      }
    }
    if (unproven ||
        (!searchable.empty() && !backend.run(searchable, cand, bst, error))) {
      if (pending.valid())
        pending.wait();
      std::string failure = error;
      if (!commit()) // the batch before this one is kept
        return false;
      error = failure;
      // A fresh run that fails before any unit is done leaves nothing
      // behind; otherwise the checkpoint of the finished units is kept.
      if (files && !opts.resume && unitsDone == 0) {
        std::remove(statePath.c_str());
        std::remove(partialPath.c_str());
        if (!dirExisted)
          rmdir(opts.outDir.c_str());
      } else if (files) {
        error += " (checkpoint of " + std::to_string(unitsDone) +
                 " units kept in '" + opts.outDir + "')";
      }
      return false;
    }
    // The previous batch's confirmation has overlapped this search: commit
    // it, then confirm this batch while the next one is searched.
    if (!commit())
      return false;
    Confirming c;
    c.stats = bst;
    c.end = end;
    c.started = Clock::now();
    c.lines = std::async(std::launch::async, confirm, std::move(cand));
    confirming = std::move(c);
    searched = end;
  }
  if (pending.valid())
    pending.wait();
  if (!commit())
    return false;
  if (opts.stopAfterUnits && unitsDone >= opts.stopAfterUnits &&
      unitsDone < units.size()) {
    result.interrupted = true;
    return true;
  }
  result.seconds = since(start) + 0.0;
  // Final .wc, ascending (the partial file is in unit order and units
  // ascend; its lines carry the argument index first).
  result.cases.clear();
  result.lines.clear();
  {
    std::istringstream in(partial);
    std::string l;
    while (std::getline(in, l)) {
      size_t sp = l.find(' ');
      if (sp == std::string::npos)
        continue;
      Case c;
      c.index = std::stoull(l.substr(0, sp));
      std::string rest = l.substr(sp + 1);
      c.argument = rest.substr(0, rest.find(' '));
      result.cases.push_back(c);
      result.lines.push_back({c.index, rest});
    }
  }
  if (!files)
    return true;
  result.wcPath = wcPath;
  result.statsPath = opts.outDir + "/stats.json";
  if (!writeFileAtomically(wcPath, wcText(plan, result.lines)) ||
      !writeFileAtomically(result.statsPath,
                           statsJsonText(plan, backend.name(), st,
                                         result.cases.size(), result.seconds,
                                         1))) {
    error = "cannot write the results in '" + opts.outDir + "'";
    return false;
  }
  return true;
}

} // namespace approx::hrcs
