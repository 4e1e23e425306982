//===- Runner.cpp - Runs one PolyBench/GPU application on a GPU ----------===//
//
// Runner of Runner.h: every object, transfer and launch goes through a
// precision Session, which times them with CUDA events (the runtime's public
// Event) and, in scale mode, converts and picks the kernel variants.
//
//===----------------------------------------------------------------------===//
#include "Runner.h"

#include "approx/runtime/tune/ImageIO.h"

#include <algorithm>
#include <chrono>

namespace approx::polybench {

using namespace approx::rt;
using namespace approx::rt::precision;

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

} // namespace

bool loadGrayImage(const std::string &path, GrayImage &img, std::string &err) {
  Expected<Image2D> im = readNpy(path);
  if (!im) {
    err = im.status().message();
    return false;
  }
  img.height = im->height;
  img.width = im->width;
  img.pixels.assign(im->pixels.begin(), im->pixels.end());
  auto [lo, hi] = std::minmax_element(img.pixels.begin(), img.pixels.end());
  double mn = *lo, mx = *hi;
  if (mn >= 0 && mx <= 1) {
    for (double &p : img.pixels)
      p *= 255; // uint8 (ImageIO scales it to [0, 1]) or a [0, 1] float image
  } else if (mn < 0 || mx > 255) {
    double span = mx > mn ? mx - mn : 1;
    for (double &p : img.pixels)
      p = (p - mn) / span * 255;
  }
  return true;
}

std::string manifestPath(const std::string &ptxDir, const App &app,
                         bool variants) {
  return (ptxDir.empty() ? std::string(".") : ptxDir) + "/" + app.id +
         (variants ? "_variants" : "") + ".manifest.json";
}

Expected<std::unique_ptr<Runner>> Runner::load(std::shared_ptr<Context> ctx,
                                               const App &app,
                                               const std::string &ptxDir,
                                               bool variants) {
  Expected<std::unique_ptr<Module>> m =
      Module::load(ctx, manifestPath(ptxDir, app, variants));
  if (!m)
    return m.status();
  return std::unique_ptr<Runner>(new Runner(ctx, app, m.take()));
}

int openGpu(const char *tool, std::shared_ptr<Context> &ctx) {
  if (Status s = probeDriver(); !s) {
    std::printf("skipped: %s\n", s.message().c_str());
    return 77;
  }
  Expected<std::shared_ptr<Context>> c = Context::create();
  if (!c) {
    std::fprintf(stderr, "%s: %s\n", tool, c.status().toString().c_str());
    return c.status().code() == StatusCode::Unavailable ? 77 : 1;
  }
  ctx = *c;
  return 0;
}

Status Runner::run(const Sizes &s, const Buffers &inputs, Buffers &outputs,
                   RunTimes &t, const RunOptions &opt, AppProfile *profile) {
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

  // The output arrays exist before the clock starts, and are kept when a
  // caller passes them back at the right size: a program allocates its
  // result arrays once, and page-faulting hundreds of MiB of fresh memory
  // during the copy back is not the transfer's cost (it made the first
  // benchmark's f64 profiles slower than their copies).
  outputs.resize(objs.size());
  for (size_t i = 0; i < objs.size(); ++i) {
    const size_t want = objs[i].fromDevice ? inputs[i].size() : 0;
    if (outputs[i].size() != want)
      outputs[i].assign(want, 0.0);
  }

  SessionOptions so;
  so.mode = opt.mode;
  so.config = opt.config;
  so.expectedTransfers = opt.expectedTransfers;
  so.engine = opt.engine;
  // The session's clock starts here: module loading and the engine's setup
  // are outside the program's time, allocations inside.
  APPROX_ASSIGN_OR_RETURN(std::unique_ptr<Session> session,
                          Session::create(ctx_, so));
  auto start = std::chrono::steady_clock::now();
  std::vector<size_t> ids;
  for (size_t i = 0; i < objs.size(); ++i) {
    Expected<size_t> id =
        session->object(objs[i].name, ScalarType::F64, inputs[i].size());
    if (!id)
      return id.status().withContext(app_.name);
    ids.push_back(*id);
  }
  t.allocMs = msSince(start);

  for (size_t i = 0; i < objs.size(); ++i) {
    if (objs[i].toDevice) {
      APPROX_RETURN_IF_ERROR(session->toDevice(ids[i], inputs[i].data()));
      t.h2dBytes += inputs[i].size() * sizeof(double);
    } else {
      APPROX_RETURN_IF_ERROR(session->zero(ids[i]));
    }
  }

  for (const PhaseSpec &p : app_.phases) {
    int64_t lo = 0, hi = 1;
    if (!p.loopVar.empty()) {
      lo = p.begin(s);
      hi = p.end(s);
    }
    for (int64_t v = lo; v < hi; ++v)
      for (const LaunchSpec &l : p.launches) {
        std::vector<LaunchArg> args;
        for (const ArgSpec &a : l.args) {
          switch (a.kind) {
          case ArgSpec::Kind::Object: {
            size_t i = size_t(app_.objectIndex(a.name));
            args.push_back(LaunchArg::object(ids[i], shapes[i]));
            break;
          }
          case ArgSpec::Kind::Size:
            args.push_back(LaunchArg::value(Arg::integer(s.at(a.name))));
            break;
          case ArgSpec::Kind::Scalar:
            args.push_back(LaunchArg::value(Arg::floating(a.value)));
            break;
          case ArgSpec::Kind::Loop:
            args.push_back(LaunchArg::value(Arg::integer(v)));
            break;
          }
        }
        std::array<int64_t, 3> g = gridOf(l, s);
        LaunchConfig cfg{{unsigned(g[0]), unsigned(g[1]), unsigned(g[2])},
                         {l.block[0], l.block[1], l.block[2]},
                         0};
        Status st = session->launch(*module_, l.kernel, cfg, args);
        if (!st)
          return st.withContext(app_.name + " " + l.kernel);
        ++t.launches;
      }
  }
  // Faults of the kernels surface at the first copy back (a synchronous
  // copy on the legacy stream) or in finish().
  for (size_t i = 0; i < objs.size(); ++i) {
    if (!objs[i].fromDevice)
      continue;
    if (Status st = session->toHost(ids[i], outputs[i].data()); !st)
      return st.withContext(app_.name);
    t.d2hBytes += outputs[i].size() * sizeof(double);
  }
  Expected<RunReport> r = session->finish();
  if (!r)
    return r.status().withContext(app_.name);
  t.report = *r;
  t.totalMs = r->wallSeconds * 1e3;
  t.h2dMs = r->h2dSeconds * 1e3;
  t.kernelMs = r->kernelSeconds * 1e3;
  t.d2hMs = r->d2hSeconds * 1e3;
  if (opt.mode == SessionMode::Profile && profile) {
    APPROX_ASSIGN_OR_RETURN(*profile, session->profile());
  }
  return Status::ok();
}

} // namespace approx::polybench
