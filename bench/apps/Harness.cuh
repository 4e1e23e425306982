// Harness.cuh - one app problem on the device, shared by the suite's
// runners (run-apps.cu, run-baselines.cu): device buffers with pristine input
// copies, the runtime's argument list, and the hand build's launch; the
// JSON of a number and of the device's state (NVML) that both record.
#pragma once
#include "../BenchCommon.cuh"
#include "../Repeat.cuh"
#include "App.h"

#include "approx/runtime/core/DeviceMonitor.h"

#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace apps {
namespace rt = approx::rt;

/// One problem's device buffers: working copies and pristine inputs.
struct DeviceProblem {
  Problem p;
  std::vector<void *> work, pristine;
  explicit DeviceProblem(Problem prob) : p(std::move(prob)) {
    for (const Buffer &b : p.buffers) {
      void *w = nullptr, *q = nullptr;
      CK(cudaMalloc(&w, b.bytes));
      if (!b.host.empty()) {
        CK(cudaMalloc(&q, b.bytes));
        CK(cudaMemcpy(q, b.host.data(), b.bytes, cudaMemcpyHostToDevice));
      }
      work.push_back(w);
      pristine.push_back(q);
    }
    p.buffers.shrink_to_fit();
  }
  ~DeviceProblem() {
    for (size_t i = 0; i < work.size(); ++i) {
      cudaFree(work[i]);
      cudaFree(pristine[i]);
    }
  }
  void restore() {
    for (size_t i = 0; i < work.size(); ++i) {
      if (pristine[i])
        CK(cudaMemcpyAsync(work[i], pristine[i], p.buffers[i].bytes,
                           cudaMemcpyDeviceToDevice));
      else
        CK(cudaMemsetAsync(work[i], 0xff, p.buffers[i].bytes));
    }
  }
  Outputs outputs() {
    CK(cudaDeviceSynchronize());
    Outputs o;
    for (size_t i = 0; i < work.size(); ++i)
      if (p.buffers[i].output) {
        o.emplace_back(p.buffers[i].bytes);
        CK(cudaMemcpy(o.back().data(), work[i], p.buffers[i].bytes,
                      cudaMemcpyDeviceToHost));
      }
    return o;
  }
  std::vector<rt::Arg> runtimeArgs() const {
    std::vector<rt::Arg> a;
    for (const Arg &x : p.args)
      switch (x.kind) {
      case Arg::Kind::Buffer:
        a.push_back(
            rt::Arg::pointer(uint64_t(uintptr_t(work[size_t(x.buffer)]))));
        break;
      case Arg::Kind::I32:
      case Arg::Kind::I64:
        a.push_back(rt::Arg::integer(x.i));
        break;
      case Arg::Kind::F32:
      case Arg::Kind::F64:
        a.push_back(rt::Arg::floating(x.f));
        break;
      }
    return a;
  }
  rt::LaunchConfig config() const {
    rt::LaunchConfig c{{p.grid[0], p.grid[1], p.grid[2]},
                       {p.block[0], p.block[1], p.block[2]}};
    c.sharedMemBytes = p.sharedBytes;
    return c;
  }
  /// The launch's kernel parameters (void *[] of cudaLaunchKernel and
  /// cuLaunchKernel), valid while this object lives.
  struct Params {
    std::vector<int64_t> i64;
    std::vector<double> f64;
    std::vector<int32_t> i32;
    std::vector<float> f32;
    std::vector<void *> ptrs, list;
  };
  Params params() const {
    const size_t n = p.args.size();
    Params q{std::vector<int64_t>(n), std::vector<double>(n),
             std::vector<int32_t>(n), std::vector<float>(n),
             std::vector<void *>(n),  std::vector<void *>(n)};
    for (size_t k = 0; k < n; ++k) {
      const Arg &x = p.args[k];
      switch (x.kind) {
      case Arg::Kind::Buffer:
        q.ptrs[k] = work[size_t(x.buffer)];
        q.list[k] = &q.ptrs[k];
        break;
      case Arg::Kind::I32:
        q.i32[k] = int32_t(x.i);
        q.list[k] = &q.i32[k];
        break;
      case Arg::Kind::I64:
        q.i64[k] = x.i;
        q.list[k] = &q.i64[k];
        break;
      case Arg::Kind::F32:
        q.f32[k] = float(x.f);
        q.list[k] = &q.f32[k];
        break;
      case Arg::Kind::F64:
        q.f64[k] = x.f;
        q.list[k] = &q.f64[k];
        break;
      }
    }
    return q;
  }
  /// The hand-written kernel's launch with the same arguments.
  void launchHand(const App &app) {
    Params q = params();
    CK(cudaLaunchKernel(app.handKernel, dim3(p.grid[0], p.grid[1], p.grid[2]),
                        dim3(p.block[0], p.block[1], p.block[2]), q.list.data(),
                        p.sharedBytes, 0));
  }
};

/// A number for JSON (6 significant digits); "inf" for an infinite one (an
/// error metric's NaN/inf output mismatch: no QoS accepts it); null for NaN
/// (a reading NVML does not give).
inline std::string jsonNum(double v) {
  if (std::isnan(v))
    return "null";
  if (!std::isfinite(v))
    return "\"inf\"";
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

/// The device's state now (SM and memory clocks, temperature, power and,
/// with `energy`, the energy counter) as a JSON object; null without a
/// monitor (no NVML) or when the reading fails.
inline std::string stateJson(const rt::DeviceMonitor *mon, bool energy = true) {
  if (!mon)
    return "null";
  auto s = mon->read();
  if (!s.isOk())
    return "null";
  return "{\"sm_mhz\":" + std::to_string(s->smClockMHz) +
         ",\"mem_mhz\":" + std::to_string(s->memClockMHz) +
         ",\"temp_c\":" + std::to_string(s->temperatureC) +
         ",\"power_w\":" + jsonNum(s->powerW) +
         (energy ? ",\"energy_j\":" + jsonNum(s->energyJ) : std::string()) +
         "}";
}

// The repetition rule, its samples and its loop are the bench programs'
// (../Repeat.cuh); the suite's runners name them as apps::.
using bench::RepeatRule;
using bench::repeatRounds;
using bench::Sampled;

} // namespace apps
