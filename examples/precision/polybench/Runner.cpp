//===- Runner.cpp - Runs one PolyBench/GPU application on a GPU ----------===//
//
// Runner of Runner.h. The phase times use CUDA events on the legacy default
// stream, where DeviceBuffer's synchronous copies and the launches run; the
// runtime's public API has no event type, so this file uses its private
// driver table (core/Driver.h), as the runtime's own tests do.
//
//===----------------------------------------------------------------------===//
#include "Runner.h"

#include "Driver.h" // runtime/core: the dlopen'ed driver table

#include <chrono>

namespace approx::polybench {

using namespace approx::rt;

namespace {

/// An owned CUDA event.
class Event {
public:
  explicit Event(const detail::Driver *drv) : drv_(drv) {}
  ~Event() {
    if (ev_)
      drv_->cuEventDestroy(ev_);
  }
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  Status create() {
    APPROX_CU_RETURN_IF_ERROR(drv_, cuEventCreate, &ev_, CU_EVENT_DEFAULT);
    return Status::ok();
  }
  Status record() {
    APPROX_CU_RETURN_IF_ERROR(drv_, cuEventRecord, ev_, nullptr);
    return Status::ok();
  }
  Status sync() {
    APPROX_CU_RETURN_IF_ERROR(drv_, cuEventSynchronize, ev_);
    return Status::ok();
  }
  /// Milliseconds from `start` to this event (both completed).
  Expected<double> since(const Event &start) const {
    float ms = 0;
    APPROX_CU_RETURN_IF_ERROR(drv_, cuEventElapsedTime, &ms, start.ev_, ev_);
    return double(ms);
  }

private:
  const detail::Driver *drv_;
  CUevent ev_ = nullptr;
};

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

} // namespace

std::string manifestPath(const std::string &ptxDir, const App &app) {
  return (ptxDir.empty() ? std::string(".") : ptxDir) + "/" + app.id +
         ".manifest.json";
}

Expected<std::unique_ptr<Runner>> Runner::load(std::shared_ptr<Context> ctx,
                                               const App &app,
                                               const std::string &ptxDir) {
  Expected<std::unique_ptr<Module>> m =
      Module::load(ctx, manifestPath(ptxDir, app));
  if (!m)
    return m.status();
  return std::unique_ptr<Runner>(new Runner(ctx, app, m.take()));
}

Status Runner::run(const Sizes &s, const Buffers &inputs, Buffers &outputs,
                   RunTimes &t) {
  t = RunTimes{};
  const std::vector<ObjectSpec> &objs = app_.objects;
  if (inputs.size() != objs.size())
    return invalidArgument("expected " + std::to_string(objs.size()) +
                           " input arrays, got " +
                           std::to_string(inputs.size()));
  std::vector<std::vector<int64_t>> shapes;
  uint64_t total = 0;
  for (size_t i = 0; i < objs.size(); ++i) {
    shapes.push_back(objs[i].shape(s));
    size_t n = size_t(elementCount(shapes.back()));
    if (inputs[i].size() != n)
      return invalidArgument("object " + objs[i].name + " has " +
                             std::to_string(inputs[i].size()) +
                             " elements, its shape " + std::to_string(n));
    total += n * sizeof(double);
  }
  size_t freeB = 0, totalB = 0;
  APPROX_RETURN_IF_ERROR(ctx_->memInfo(freeB, totalB));
  if (total > freeB)
    return Status(StatusCode::OutOfMemory,
                  app_.name + " needs " + std::to_string(total >> 20) +
                      " MiB of device memory, " + std::to_string(freeB >> 20) +
                      " MiB are free");

  const detail::Driver *drv = detail::driverOf(*ctx_);
  Event e0(drv), e1(drv), e2(drv), e3(drv);
  for (Event *e : {&e0, &e1, &e2, &e3})
    APPROX_RETURN_IF_ERROR(e->create());

  auto start = std::chrono::steady_clock::now();
  std::vector<DeviceBuffer> dev;
  for (size_t i = 0; i < objs.size(); ++i) {
    Expected<DeviceBuffer> b = DeviceBuffer::allocate(
        ctx_, inputs[i].size() * sizeof(double), ScalarType::F64);
    if (!b)
      return b.status().withContext("object " + objs[i].name);
    dev.push_back(b.take());
  }
  t.allocMs = msSince(start);

  APPROX_RETURN_IF_ERROR(e0.record());
  for (size_t i = 0; i < objs.size(); ++i) {
    if (objs[i].toDevice) {
      APPROX_RETURN_IF_ERROR(dev[i].copyFromHost(
          inputs[i].data(), inputs[i].size() * sizeof(double)));
      t.h2dBytes += inputs[i].size() * sizeof(double);
    } else {
      APPROX_RETURN_IF_ERROR(dev[i].fillBytes(0));
    }
  }
  APPROX_RETURN_IF_ERROR(e1.record());

  for (const PhaseSpec &p : app_.phases) {
    int64_t lo = 0, hi = 1;
    if (!p.loopVar.empty()) {
      lo = p.begin(s);
      hi = p.end(s);
    }
    for (int64_t v = lo; v < hi; ++v)
      for (const LaunchSpec &l : p.launches) {
        std::vector<Arg> args;
        for (const ArgSpec &a : l.args) {
          switch (a.kind) {
          case ArgSpec::Kind::Object: {
            int i = app_.objectIndex(a.name);
            args.push_back(
                Arg::memref(dev[size_t(i)].view(), shapes[size_t(i)]));
            break;
          }
          case ArgSpec::Kind::Size:
            args.push_back(Arg::integer(s.at(a.name)));
            break;
          case ArgSpec::Kind::Scalar:
            args.push_back(Arg::floating(a.value));
            break;
          case ArgSpec::Kind::Loop:
            args.push_back(Arg::integer(v));
            break;
          }
        }
        std::array<int64_t, 3> g = gridOf(l, s);
        LaunchConfig cfg{{unsigned(g[0]), unsigned(g[1]), unsigned(g[2])},
                         {l.block[0], l.block[1], l.block[2]},
                         0};
        Status st = module_->launch(l.kernel, cfg, args);
        if (!st)
          return st.withContext(app_.name + " " + l.kernel);
        ++t.launches;
      }
  }
  APPROX_RETURN_IF_ERROR(e2.record());
  // Faults of the kernels surface here, before any copy back.
  if (Status st = e2.sync(); !st)
    return st.withContext(app_.name + " kernels");

  outputs.assign(objs.size(), {});
  for (size_t i = 0; i < objs.size(); ++i) {
    if (!objs[i].fromDevice)
      continue;
    outputs[i].resize(inputs[i].size());
    APPROX_RETURN_IF_ERROR(dev[i].copyToHost(
        outputs[i].data(), outputs[i].size() * sizeof(double)));
    t.d2hBytes += outputs[i].size() * sizeof(double);
  }
  APPROX_RETURN_IF_ERROR(e3.record());
  APPROX_RETURN_IF_ERROR(e3.sync());
  t.totalMs = msSince(start);
  Expected<double> h2d = e1.since(e0), ker = e2.since(e1), d2h = e3.since(e2);
  for (Expected<double> *x : {&h2d, &ker, &d2h})
    if (!*x)
      return x->status();
  t.h2dMs = *h2d;
  t.kernelMs = *ker;
  t.d2hMs = *d2h;
  for (DeviceBuffer &b : dev)
    APPROX_RETURN_IF_ERROR(b.free());
  return Status::ok();
}

} // namespace approx::polybench
