//===- GpuSearch.cu - Phase kernels and CUB compaction --------------------===//
//
// Per batch of packets:
//   kernel 1 (thread per packet): tabulate a0, a1, a2 over the packet's S
//     intervals, test each (phase 1), write the failing intervals' degree-2
//     models to their slot and set a flag;
//   cub::DeviceSelect::Flagged: the failing intervals' slots, compacted;
//   kernel 2 (thread per failing interval): the `split` sub-intervals, same
//     test, flags and models of the failing ones;
//   cub::DeviceSelect::Flagged again;
//   kernel 3 (thread per failing sub-interval): every argument, degree 2 in
//     128 bits; candidates appended with one atomic each (they are rare).
// The per-packet code is Phases.h, shared with the CPU backend.
//
//===----------------------------------------------------------------------===//
#include "approx/hrcs/GpuSearch.h"

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>

namespace approx::hrcs {
namespace {

struct PacketInfo {
  uint64_t j0, end, firstInterval;
  uint32_t intervals, unit;
};

/// A degree-2 model waiting for phase 2 or 3.
struct Record {
  Quadratic q;
  uint64_t j;    ///< first argument
  uint32_t n;    ///< arguments
  uint32_t unit; ///< index of its PhaseParams
};

template <int W, int D>
__global__ void phase1Kernel(const PacketInfo *packets, const uint64_t *tables,
                             const PhaseParams *params, uint32_t nPackets,
                             int degree, uint8_t *flags, Record *records) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nPackets)
    return;
  const PacketInfo pk = packets[t];
  const PhaseParams pp = params[pk.unit];
  Table<W, D> tab;
  tab.load(tables + (size_t)t * tableEntries(degree) * W, degree);
  const uint64_t N = pp.intervalArgs;
  uint64_t j = pk.j0;
  for (uint32_t k = 0; k < pk.intervals; ++k, j += N) {
    uint64_t n = pk.end - j < N ? pk.end - j : N;
    Quadratic q{tab.value(0), tab.value(1), tab.value(2)};
    if (linearCandidate(q, n, pp.eps1, pp)) {
      uint64_t slot = pk.firstInterval + k;
      flags[slot] = 1;
      records[slot] = Record{q, j, (uint32_t)n, pk.unit};
    }
    tab.step();
  }
}

__global__ void phase2Kernel(const Record *records, const uint32_t *selected,
                             uint32_t nSelected, const PhaseParams *params,
                             uint32_t split, uint8_t *flags, Record *out) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nSelected)
    return;
  const Record r = records[selected[t]];
  const PhaseParams pp = params[r.unit];
  const uint64_t sub = pp.intervalArgs / split ? pp.intervalArgs / split : 1;
  uint32_t s = 0;
  for (uint64_t m0 = 0; m0 < r.n; m0 += sub, ++s) {
    uint64_t ns = r.n - m0 < sub ? r.n - m0 : sub;
    Quadratic q = subInterval(r.q, m0);
    if (linearCandidate(q, ns, pp.eps2, pp)) {
      size_t slot = (size_t)t * split + s;
      flags[slot] = 1;
      out[slot] = Record{q, r.j + m0, (uint32_t)ns, r.unit};
    }
  }
}

__global__ void phase3Kernel(const Record *records, const uint32_t *selected,
                             uint32_t nSelected, const PhaseParams *params,
                             unsigned long long *count, uint64_t *out,
                             uint64_t capacity) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nSelected)
    return;
  const Record r = records[selected[t]];
  const PhaseParams pp = params[r.unit];
  exhaustive(r.q, r.n, pp, [&](uint64_t m) {
    unsigned long long pos = atomicAdd(count, 1ULL);
    if (pos < capacity)
      out[pos] = r.j + m;
  });
}

/// phase1Kernel<W, D> for dispatchTable.
struct Phase1Launch {
  uint32_t grid, block;
  const PacketInfo *packets;
  const uint64_t *tables;
  const PhaseParams *params;
  uint32_t nPackets;
  int degree;
  uint8_t *flags;
  Record *records;
  cudaStream_t stream;
  template <int W, int D> void run() {
    phase1Kernel<W, D><<<grid, block, 0, stream>>>(
        packets, tables, params, nPackets, degree, flags, records);
  }
};

#define CUDA_TRY(call)                                                         \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      error = std::string(#call).substr(0, std::string(#call).find('(')) +     \
              " failed: " + cudaGetErrorString(e_);                            \
      return false;                                                            \
    }                                                                          \
  } while (0)

/// A device buffer that grows (and reports an allocation failure).
struct DeviceBuffer {
  void *ptr = nullptr;
  size_t bytes = 0;
  ~DeviceBuffer() {
    if (ptr)
      cudaFree(ptr);
  }
  bool reserve(size_t want, std::string &error, const char *what) {
    if (want <= bytes)
      return true;
    if (ptr)
      cudaFree(ptr);
    ptr = nullptr;
    bytes = 0;
    cudaError_t e = cudaMalloc(&ptr, want);
    if (e != cudaSuccess) {
      cudaGetLastError();
      error = std::string("GPU out of memory: ") + what + " needs " +
              std::to_string(want >> 20) + " MiB (" + cudaGetErrorString(e) +
              ")";
      return false;
    }
    bytes = want;
    return true;
  }
  template <class T> T *as() { return static_cast<T *>(ptr); }
};

class GpuBackend final : public Backend {
public:
  GpuBackend(int device, uint64_t maxIntervals)
      : device_(device), maxIntervals_(maxIntervals) {}
  const char *name() const override { return "gpu"; }
  bool init(std::string &error) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
      error = std::string("no CUDA device: ") +
              (e != cudaSuccess ? cudaGetErrorString(e) : "none found");
      return false;
    }
    if (device_ < 0 || device_ >= n) {
      error = "CUDA device " + std::to_string(device_) + " does not exist (" +
              std::to_string(n) + " found)";
      return false;
    }
    CUDA_TRY(cudaSetDevice(device_));
    if (maxIntervals_ == 0) {
      size_t freeB = 0, totalB = 0;
      CUDA_TRY(cudaMemGetInfo(&freeB, &totalB));
      // Records (64 B) + flags per interval, a quarter of free memory.
      maxIntervals_ = std::max<uint64_t>(1 << 16, freeB / 4 / 72);
      // 2^28 intervals (a quarter of a million threads of 1024 intervals)
      // keep an H100 busy; records for them take 16 GiB.
      maxIntervals_ = std::min<uint64_t>(maxIntervals_, uint64_t(1) << 28);
    }
    // Each backend its own stream: several (one per host thread) share a
    // GPU without waiting for one another's copies.
    CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    CUDA_TRY(cudaEventCreate(&e0_));
    CUDA_TRY(cudaEventCreate(&e1_));
    CUDA_TRY(cudaEventCreate(&e2_));
    CUDA_TRY(cudaEventCreate(&e3_));
    return true;
  }
  ~GpuBackend() override {
    for (cudaEvent_t e : {e0_, e1_, e2_, e3_})
      if (e)
        cudaEventDestroy(e);
    if (stream_)
      cudaStreamDestroy(stream_);
  }

  bool run(std::vector<UnitPackets> &units,
           std::vector<uint64_t> &candidates, PhaseStats &stats,
           std::string &error) override {
    // The calling thread's current device (a SplitBackend runs each GPU's
    // share on a thread of its own).
    CUDA_TRY(cudaSetDevice(device_));
    // Group by (words, degree): one kernel instantiation each.
    std::vector<PhaseParams> params;
    for (const UnitPackets &u : units)
      params.push_back(u.phase);
    split_ = params.empty() ? 1 : params[0].split;
    if (!paramsBuf_.reserve(params.size() * sizeof(PhaseParams), error,
                            "phase parameters"))
      return false;
    CUDA_TRY(cudaMemcpyAsync(paramsBuf_.ptr, params.data(),
                             params.size() * sizeof(PhaseParams),
                             cudaMemcpyHostToDevice, stream_));
    for (int words = 2; words <= kMaxWords; ++words)
      for (int degree = 0; degree <= kMaxDegree; ++degree) {
        std::vector<std::pair<uint32_t, size_t>> group; // (unit, packet)
        for (uint32_t ui = 0; ui < units.size(); ++ui)
          if (units[ui].words == words && units[ui].degree == degree)
            for (size_t k = 0; k < units[ui].packets.size(); ++k)
              group.push_back({ui, k});
        if (group.empty())
          continue;
        // Launches of at most maxIntervals_ intervals.
        size_t at = 0;
        while (at < group.size()) {
          size_t end = at;
          uint64_t intervals = 0;
          while (end < group.size() &&
                 (end == at ||
                  intervals + packetOf(units, group[end]).intervals <=
                      maxIntervals_))
            intervals += packetOf(units, group[end++]).intervals;
          if (!launch(units, group, at, end, intervals, words, degree, candidates,
                      stats, error)) {
            // Out of memory: shrink the launch and retry, down to 2^12.
            if (error.rfind("GPU out of memory", 0) == 0 &&
                maxIntervals_ > (1u << 12)) {
              maxIntervals_ /= 2;
              releaseAll();
              continue;
            }
            return false;
          }
          at = end;
        }
      }
    return true;
  }

private:
  static const Packet &packetOf(const std::vector<UnitPackets> &units,
                                std::pair<uint32_t, size_t> g) {
    return units[g.first].packets[g.second];
  }
  bool launch(const std::vector<UnitPackets> &units,
              const std::vector<std::pair<uint32_t, size_t>> &group,
              size_t at, size_t end, uint64_t intervals, int words, int degree,
              std::vector<uint64_t> &candidates, PhaseStats &stats,
              std::string &error) {
    const uint32_t nPackets = (uint32_t)(end - at);
    const size_t tableWords = (size_t)tableEntries(degree) * words;
    info_.resize(nPackets);
    uint64_t first = 0;
    for (uint32_t i = 0; i < nPackets; ++i) {
      const Packet &pk = packetOf(units, group[at + i]);
      info_[i] = PacketInfo{pk.j0, pk.end, first, pk.intervals,
                            group[at + i].first};
      first += pk.intervals;
    }
    if (!infoBuf_.reserve(nPackets * sizeof(PacketInfo), error, "packets") ||
        !tableBuf_.reserve(nPackets * tableWords * 8, error, "packet tables") ||
        !flags1_.reserve(intervals, error, "phase-1 flags") ||
        !records1_.reserve(intervals * sizeof(Record), error,
                           "phase-1 records") ||
        !selected_.reserve(intervals * 4 + 4, error, "selection") ||
        !count_.reserve(16, error, "counters"))
      return false;
    CUDA_TRY(cudaMemcpyAsync(infoBuf_.ptr, info_.data(),
                             nPackets * sizeof(PacketInfo),
                             cudaMemcpyHostToDevice, stream_));
    // Tables: one copy per run of consecutive packets of one unit (they are
    // contiguous in the unit's storage), no staging copy.
    for (uint32_t i = 0; i < nPackets;) {
      uint32_t k = i;
      while (k + 1 < nPackets && group[at + k + 1].first == group[at + i].first &&
             group[at + k + 1].second == group[at + k].second + 1)
        ++k;
      const UnitPackets &u = units[group[at + i].first];
      CUDA_TRY(cudaMemcpyAsync(
          tableBuf_.as<uint64_t>() + (size_t)i * tableWords,
          u.table(group[at + i].second), (size_t)(k - i + 1) * tableWords * 8,
          cudaMemcpyHostToDevice, stream_));
      i = k + 1;
    }
    CUDA_TRY(cudaMemsetAsync(flags1_.ptr, 0, intervals, stream_));
    const PhaseParams *pp = paramsBuf_.as<PhaseParams>();
    const int block = 128;
    CUDA_TRY(cudaEventRecord(e0_, stream_));
    Phase1Launch l{(nPackets + block - 1) / block,
                   block,
                   infoBuf_.as<PacketInfo>(),
                   tableBuf_.as<uint64_t>(),
                   pp,
                   nPackets,
                   degree,
                   flags1_.as<uint8_t>(),
                   records1_.as<Record>(),
                   stream_};
    if (!dispatchTable(words, degree, l)) {
      error = "internal: unsupported table width";
      return false;
    }
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaEventRecord(e1_, stream_));
    uint32_t n1 = 0;
    if (!selectInto(flags1_.as<uint8_t>(), intervals, selected_, n1, error))
      return false;
    // Phase 2 (every unit shares the split).
    const uint32_t sp = split_;
    uint32_t n2 = 0;
    if (n1) {
      size_t slots = (size_t)n1 * sp;
      if (!flags2_.reserve(slots, error, "phase-2 flags") ||
          !records2_.reserve(slots * sizeof(Record), error, "phase-2 records") ||
          !selected2_.reserve(slots * 4 + 4, error, "phase-2 selection"))
        return false;
      CUDA_TRY(cudaMemsetAsync(flags2_.ptr, 0, slots, stream_));
      phase2Kernel<<<(n1 + block - 1) / block, block, 0, stream_>>>(
          records1_.as<Record>(), selected_.as<uint32_t>(), n1, pp, sp,
          flags2_.as<uint8_t>(), records2_.as<Record>());
      CUDA_TRY(cudaGetLastError());
      if (!selectInto(flags2_.as<uint8_t>(), slots, selected2_, n2, error))
        return false;
    }
    CUDA_TRY(cudaEventRecord(e2_, stream_));
    // Phase 3.
    uint64_t found = 0;
    if (n2) {
      for (uint64_t cap = 1 << 16;; cap *= 8) {
        if (cap > kMaxCandidates) {
          error = "more than 2^24 candidates in one batch: epsilon is too "
                  "wide for this domain (nearly every argument is a case)";
          return false;
        }
        if (!cand_.reserve(cap * 8, error, "candidates"))
          return false;
        CUDA_TRY(cudaMemsetAsync(count_.ptr, 0, 8, stream_));
        phase3Kernel<<<(n2 + block - 1) / block, block, 0, stream_>>>(
            records2_.as<Record>(), selected2_.as<uint32_t>(), n2, pp,
            count_.as<unsigned long long>(), cand_.as<uint64_t>(), cap);
        CUDA_TRY(cudaGetLastError());
        unsigned long long c = 0;
        CUDA_TRY(cudaMemcpyAsync(&c, count_.ptr, 8, cudaMemcpyDeviceToHost,
                                 stream_));
        CUDA_TRY(cudaStreamSynchronize(stream_));
        found = c;
        if (c <= cap)
          break;
      }
      size_t old = candidates.size();
      candidates.resize(old + found);
      CUDA_TRY(cudaMemcpyAsync(candidates.data() + old, cand_.ptr, found * 8,
                               cudaMemcpyDeviceToHost, stream_));
    }
    CUDA_TRY(cudaEventRecord(e3_, stream_));
    CUDA_TRY(cudaEventSynchronize(e3_));
    float t1 = 0, t2 = 0, t3 = 0;
    cudaEventElapsedTime(&t1, e0_, e1_);
    cudaEventElapsedTime(&t2, e1_, e2_);
    cudaEventElapsedTime(&t3, e2_, e3_);
    stats.phase1 += intervals;
    stats.phase2 += n1;
    stats.phase3 += n2;
    stats.candidates += found;
    stats.phase1Seconds += t1 / 1e3;
    stats.phase2Seconds += t2 / 1e3;
    stats.phase3Seconds += t3 / 1e3;
    return true;
  }

  void releaseAll() {
    for (DeviceBuffer *b : {&infoBuf_, &tableBuf_, &flags1_, &records1_,
                            &selected_, &flags2_, &records2_, &selected2_,
                            &cand_, &temp_}) {
      if (b->ptr)
        cudaFree(b->ptr);
      b->ptr = nullptr;
      b->bytes = 0;
    }
  }

  /// Indices of the set flags of [0, n) into `out`, their number in count.
  bool selectInto(const uint8_t *flags, uint64_t n, DeviceBuffer &out,
                  uint32_t &count, std::string &error) {
    if (n > 0xffffffffu) {
      error = "internal: selection over more than 2^32 items";
      return false;
    }
    thrust::counting_iterator<uint32_t> ids(0);
    size_t temp = 0;
    CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, temp, ids, flags,
                                        out.as<uint32_t>(),
                                        count_.as<uint32_t>() + 2, (int64_t)n,
                                        stream_));
    if (!temp_.reserve(temp, error, "CUB scratch"))
      return false;
    CUDA_TRY(cub::DeviceSelect::Flagged(temp_.ptr, temp, ids, flags,
                                        out.as<uint32_t>(),
                                        count_.as<uint32_t>() + 2, (int64_t)n,
                                        stream_));
    CUDA_TRY(cudaMemcpyAsync(&count, count_.as<uint32_t>() + 2, 4,
                             cudaMemcpyDeviceToHost, stream_));
    CUDA_TRY(cudaStreamSynchronize(stream_));
    return true;
  }

  int device_;
  uint64_t maxIntervals_;
  uint32_t split_ = 1;
  std::vector<PacketInfo> info_;
  DeviceBuffer paramsBuf_, infoBuf_, tableBuf_, flags1_, records1_, selected_,
      flags2_, records2_, selected2_, cand_, count_, temp_;
  cudaEvent_t e0_ = nullptr, e1_ = nullptr, e2_ = nullptr, e3_ = nullptr;
  cudaStream_t stream_ = nullptr;
};

/// Brute force: 0 = not a case, 1 = a case, 2 = undecided (MPFR).
__global__ void bruteKernel(double lo, double ulpx, uint64_t count, int fn,
                            int q, long emin, bool hasEmin, double eps,
                            uint8_t *verdict) {
  uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= count)
    return;
  double x = lo + (double)j * ulpx; // exact: p <= 24
  double y;
  switch (fn) {
  case 0: y = exp(x); break;
  case 1: y = exp2(x); break;
  case 2: y = log(x); break;
  case 3: y = log2(x); break;
  case 4: y = sin(x); break;
  default: y = cos(x); break;
  }
  if (y == 0 || !isfinite(y)) {
    verdict[j] = 2;
    return;
  }
  int e;
  double m = frexp(fabs(y), &e); // |y| = m 2^e, m in [1/2, 1)
  long E = e - 1;
  if (hasEmin && E < emin)
    E = emin;
  double F = ldexp(fabs(y), (int)(q - 1 - E)); // exact scaling
  double d = fabs(F - rint(F));
  // |error of y| <= 4 ulp_53(y) <= 2^-50 |y|: of F, <= 2^(q - 50).
  double err = ldexp(1.0, q - 49);
  verdict[j] = fabs(d - eps) <= err ? 2 : (d < eps ? 1 : 0);
}

} // namespace

bool bruteForceGpu(const Plan &plan, std::vector<uint64_t> &cases,
                   uint64_t &ambiguous, std::string &error) {
  static const char *names[] = {"exp", "exp2", "log", "log2", "sin", "cos"};
  int fn = -1;
  for (int i = 0; i < 6; ++i)
    if (std::string(plan.function().name()) == names[i])
      fn = i;
  if (fn < 0 || plan.argPrecision() > 24 || plan.precision() > 30 ||
      plan.binades() != 1) {
    error = "the GPU brute force covers exp, exp2, log, log2, sin, cos with "
            "p <= 24 and q <= 30, over one binade";
    return false;
  }
  Real x0(64), x1(64);
  plan.argument(x0, 0);
  plan.argument(x1, 1);
  double lo = mpfr_get_d(x0, MPFR_RNDN);
  double ulpx = mpfr_get_d(x1, MPFR_RNDN) - lo;
  uint64_t n = plan.argCount();
  uint8_t *d = nullptr;
  CUDA_TRY(cudaMalloc(&d, n));
  bruteKernel<<<(unsigned)((n + 255) / 256), 256>>>(
      lo, ulpx, n, fn, plan.precision(), plan.params().emin,
      plan.params().emin != 0, mpfr_get_d(plan.epsilon(), MPFR_RNDN), d);
  std::vector<uint8_t> v(n);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess)
    e = cudaMemcpy(v.data(), d, n, cudaMemcpyDeviceToHost);
  cudaFree(d);
  if (e != cudaSuccess) {
    error = std::string("GPU brute force failed: ") + cudaGetErrorString(e);
    return false;
  }
  ambiguous = 0;
  cases.clear();
  Case c;
  for (uint64_t j = 0; j < n; ++j) {
    if (v[j] == 1)
      cases.push_back(j);
    else if (v[j] == 2) {
      ++ambiguous;
      if (confirmCase(plan, j, c))
        cases.push_back(j);
    }
  }
  return true;
}

std::unique_ptr<Backend> makeGpuBackend(std::string &error, int device,
                                        uint64_t maxIntervals) {
  auto b = std::make_unique<GpuBackend>(device, maxIntervals);
  if (!b->init(error))
    return nullptr;
  return b;
}

} // namespace approx::hrcs
