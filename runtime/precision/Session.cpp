//===- Session.cpp - Profiling and scaling a program's memory objects ----===//
//
// Session of Session.h. Plain and profile modes copy with DeviceBuffer's
// synchronous copies between two events on the legacy default stream;
// scale mode moves through a TransferEngine with the configured plan. Launch
// times are events recorded around each launch and resolved in finish(), so
// timing adds no host synchronisation between launches.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/Session.h"

#include "approx/runtime/core/Text.h"
#include "approx/runtime/precision/Quality.h"

#include <algorithm>
#include <tuple>
#include <cmath>

namespace approx::rt::precision {

struct Session::Object {
  std::string name;
  ScalarType declared = ScalarType::F64, storage = ScalarType::F64;
  uint64_t elements = 0;
  HostMemory host = HostMemory::Pageable;
  Method h2d = Method::copy(), d2h = Method::copy();
  DeviceBuffer buf;
  std::vector<TransferEvent> events;
  std::vector<std::string> readBy, writtenBy;
};

struct Session::Timed {
  std::string kernel;
  Event start, end;
};

const char *sessionModeName(SessionMode m) {
  switch (m) {
  case SessionMode::Plain:
    return "plain";
  case SessionMode::Profile:
    return "profile";
  case SessionMode::Scale:
    return "scale";
  }
  return "?";
}

std::string transferSignature(Direction d, const std::string &object,
                              uint64_t elements) {
  return std::string(directionName(d)) + " " + object + " " +
         std::to_string(elements);
}

LaunchArg LaunchArg::object(size_t id, std::vector<int64_t> shape,
                            ArgInfo::Access role) {
  LaunchArg a;
  a.isObject = true;
  a.id = id;
  a.shape = std::move(shape);
  a.role = role;
  return a;
}

LaunchArg LaunchArg::value(Arg v) {
  LaunchArg a;
  a.arg = std::move(v);
  return a;
}

Expected<TransferPlan> planFor(const Method &m, Direction d,
                               ScalarType declared, ScalarType storage) {
  switch (m.kind) {
  case Method::None:
    return invalidArgument("no method (none) for a transfer");
  case Method::Copy:
    return TransferPlan::copy();
  case Method::Host:
    return m.threads == 1 ? TransferPlan::hostSingle()
                          : TransferPlan::hostMulti(m.threads);
  case Method::Device:
    return TransferPlan::device();
  case Method::Transient:
    return TransferPlan::transient(m.intermediate, m.threads);
  case Method::Pipelined: {
    const uint64_t hs = scalarTypeSize(declared), ds = scalarTypeSize(storage);
    // The database's chunk counts source bytes; the plan's, host bytes.
    uint64_t host = d == Direction::H2D ? m.chunkBytes : m.chunkBytes / ds * hs;
    const uint64_t unit = std::max(hs, ds); // sizes are powers of two
    host = std::max(unit, host / unit * unit);
    return TransferPlan::pipelined(size_t(host), m.threads,
                                   m.where == Where::Host ? ConvertSide::Host
                                                          : ConvertSide::Device);
  }
  }
  return invalidArgument("unknown method");
}

//===----------------------------------------------------------------------===//
// Setup and objects
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<Session>> Session::create(std::shared_ptr<Context> ctx,
                                                   SessionOptions options) {
  if (!ctx)
    return invalidArgument("Session::create: null context");
  std::unique_ptr<Session> s(new Session());
  s->ctx_ = std::move(ctx);
  if (options.mode == SessionMode::Scale) {
    if (!options.config)
      return invalidArgument("a scaling session needs a configuration");
    // The configuration's own checks (types, methods, names), as a file
    // would get them.
    Expected<Configuration> c =
        parseConfiguration(configurationToJson(*options.config));
    if (!c)
      return c.status();
    if (!options.engine) {
      APPROX_ASSIGN_OR_RETURN(std::unique_ptr<TransferEngine> e,
                              TransferEngine::create(s->ctx_));
      options.engine = std::move(e);
    }
  }
  s->opt_ = std::move(options);
  s->start_ = std::chrono::steady_clock::now();
  return s;
}

Session::~Session() = default;

Status Session::checkId(size_t id, const char *what) const {
  if (id >= objects_.size())
    return invalidArgument(std::string(what) + ": no object " +
                           std::to_string(id) + " (" +
                           std::to_string(objects_.size()) + " registered)");
  if (finished_)
    return invalidArgument(std::string(what) + ": the session has finished");
  return Status::ok();
}

Expected<size_t> Session::object(const std::string &name, ScalarType declared,
                                 uint64_t elements, HostMemory host) {
  if (finished_)
    return invalidArgument("object: the session has finished");
  if (name.empty())
    return invalidArgument("an object needs a name");
  for (const auto &o : objects_)
    if (o->name == name)
      return invalidArgument("object " + quote(name) + " is registered twice");
  if (!isPrecision(declared))
    return invalidArgument("object " + quote(name) + ": type " +
                           scalarTypeName(declared) +
                           " is not f64, f32, f16 or bf16");
  if (elements == 0)
    return invalidArgument("object " + quote(name) + " has no elements");
  auto o = std::make_unique<Object>();
  o->name = name;
  o->declared = o->storage = declared;
  o->elements = elements;
  o->host = host;
  if (opt_.mode == SessionMode::Scale)
    if (const ObjectChoice *c = opt_.config->find(name)) {
      if (c->declared != declared)
        return invalidArgument(
            "object " + quote(name) + " is declared " +
            scalarTypeName(declared) + ", the configuration says " +
            scalarTypeName(c->declared));
      o->storage = c->storage;
      o->h2d = c->h2d;
      o->d2h = c->d2h;
    }
  const uint64_t size = scalarTypeSize(o->storage);
  if (elements > UINT64_MAX / size)
    return invalidArgument("object " + quote(name) + ": " +
                           std::to_string(elements) + " elements overflow");
  Expected<DeviceBuffer> b =
      DeviceBuffer::allocate(ctx_, size_t(elements * size), o->storage);
  if (!b)
    return b.status().withContext("object " + quote(name));
  o->buf = b.take();
  objects_.push_back(std::move(o));
  return objects_.size() - 1;
}

Expected<BufferView> Session::buffer(size_t id) const {
  if (id >= objects_.size())
    return invalidArgument("buffer: no object " + std::to_string(id));
  return objects_[id]->buf.view();
}

Expected<ScalarType> Session::storage(size_t id) const {
  if (id >= objects_.size())
    return invalidArgument("storage: no object " + std::to_string(id));
  return objects_[id]->storage;
}

Status Session::zero(size_t id) {
  APPROX_RETURN_IF_ERROR(checkId(id, "zero"));
  return objects_[id]->buf.fillBytes(0);
}

//===----------------------------------------------------------------------===//
// Transfers
//===----------------------------------------------------------------------===//

static const char *kDiffer =
    "the program's transfers differ from the profiled run: ";

Status Session::checkNext(const std::string &sig) {
  const std::vector<std::string> &want = opt_.expectedTransfers;
  if (opt_.mode != SessionMode::Scale || want.empty())
    return Status::ok();
  const size_t k = transfers_.size();
  if (k >= want.size())
    return invalidArgument(std::string(kDiffer) + "transfer " +
                           std::to_string(k + 1) + " (" + sig +
                           ") is one more than the profiled run's " +
                           std::to_string(want.size()));
  if (want[k] != sig)
    return invalidArgument(std::string(kDiffer) + "transfer " +
                           std::to_string(k + 1) + " is " + sig +
                           ", the profiled run's was " + want[k]);
  return Status::ok();
}

Status Session::transfer(size_t id, Direction d, const void *in, void *out) {
  const char *what = d == Direction::H2D ? "toDevice" : "toHost";
  APPROX_RETURN_IF_ERROR(checkId(id, what));
  Object &o = *objects_[id];
  if ((d == Direction::H2D ? in : out) == nullptr)
    return invalidArgument(std::string(what) + ": object " + quote(o.name) +
                           ": null host array");
  const std::string sig = transferSignature(d, o.name, o.elements);
  APPROX_RETURN_IF_ERROR(checkNext(sig));
  const size_t bytes = size_t(o.elements * scalarTypeSize(o.declared));
  double seconds = 0;
  if (opt_.mode == SessionMode::Scale) {
    const Method &m = d == Direction::H2D ? o.h2d : o.d2h;
    if (m.kind == Method::None)
      return invalidArgument(std::string(kDiffer) + sig +
                             ": the configuration has no " + directionName(d) +
                             " method for " + quote(o.name) +
                             " (no such transfer was profiled)");
    Expected<TransferPlan> plan = planFor(m, d, o.declared, o.storage);
    if (!plan)
      return plan.status().withContext("object " + quote(o.name));
    TransferResult r;
    Status st = d == Direction::H2D
                    ? opt_.engine->toDevice(in, o.declared, o.buf.view(),
                                            o.storage, size_t(o.elements),
                                            *plan, &r)
                    : opt_.engine->toHost(o.buf.view(), o.storage, out,
                                          o.declared, size_t(o.elements),
                                          *plan, &r);
    if (!st)
      return st.withContext(std::string(directionName(d)) + " of object " +
                            quote(o.name) + " (" + m.str() + ")");
    seconds = r.totalMs / 1e3;
    report_.busBytes += r.busBytes;
    report_.stats += r.stats;
    if (r.stats.overflowed &&
        std::find(report_.overflowed.begin(), report_.overflowed.end(),
                  o.name) == report_.overflowed.end())
      report_.overflowed.push_back(o.name);
  } else {
    APPROX_ASSIGN_OR_RETURN(Event e0, Event::create(ctx_));
    APPROX_ASSIGN_OR_RETURN(Event e1, Event::create(ctx_));
    APPROX_RETURN_IF_ERROR(e0.record());
    Status st = d == Direction::H2D ? o.buf.copyFromHost(in, bytes)
                                    : o.buf.copyToHost(out, bytes);
    if (!st)
      return st.withContext(std::string(directionName(d)) + " of object " +
                            quote(o.name));
    APPROX_RETURN_IF_ERROR(e1.record());
    APPROX_RETURN_IF_ERROR(e1.synchronize());
    APPROX_ASSIGN_OR_RETURN(double ms, Event::elapsedMs(e0, e1));
    seconds = ms / 1e3;
    report_.busBytes += bytes;
  }
  (d == Direction::H2D ? report_.h2dSeconds : report_.d2hSeconds) += seconds;
  auto per = std::find_if(
      report_.objectTransfers.begin(), report_.objectTransfers.end(),
      [&](const ObjectTransferTime &t) { return t.name == o.name; });
  if (per == report_.objectTransfers.end())
    per = report_.objectTransfers.insert(per, ObjectTransferTime{o.name});
  (d == Direction::H2D ? per->h2dSeconds : per->d2hSeconds) += seconds;
  ++report_.transfers;
  transfers_.push_back(sig);
  if (opt_.mode == SessionMode::Profile)
    o.events.push_back({d, seconds, o.elements});
  return Status::ok();
}

Status Session::toDevice(size_t id, const void *host) {
  return transfer(id, Direction::H2D, host, nullptr);
}

Status Session::toHost(size_t id, void *host) {
  return transfer(id, Direction::D2H, nullptr, host);
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

namespace {

std::string typesText(const KernelInfo &k) {
  std::string s;
  for (const ArgInfo &a : k.args)
    if (a.kind == ArgInfo::Kind::Memref)
      s += std::string(s.empty() ? "" : ", ") + scalarTypeName(a.type.scalar);
  return k.name + " (" + s + ")";
}

void addUnique(std::vector<std::string> &v, const std::string &s) {
  if (std::find(v.begin(), v.end(), s) == v.end())
    v.push_back(s);
}

} // namespace

Expected<const KernelInfo *>
Session::select(const Module &module, const std::string &kernel,
                const std::vector<LaunchArg> &args) const {
  // Once per launch: the module's index, no string built unless it fails.
  const std::vector<const KernelInfo *> &cands =
      module.index().candidates(kernel);
  if (cands.empty())
    return notFound("kernel " + quote(kernel) + " is not in module " +
                    quote(module.manifest().module));
  // The element type each argument needs: an object's storage type, a
  // memref value's buffer type.
  std::vector<std::optional<ScalarType>> want(args.size());
  for (size_t j = 0; j < args.size(); ++j) {
    const LaunchArg &a = args[j];
    if (a.isObject) {
      if (a.id >= objects_.size())
        return invalidArgument("kernel " + quote(kernel) + ": argument " +
                               std::to_string(j) + " names no object (" +
                               std::to_string(a.id) + ")");
      want[j] = objects_[a.id]->storage;
    } else if (a.arg.kind() == Arg::Kind::Memref) {
      want[j] = a.arg.buffer().elem.scalar;
    }
  }
  for (const KernelInfo *k : cands) {
    if (k->args.size() != args.size())
      continue;
    bool ok = true;
    for (size_t j = 0; j < args.size() && ok; ++j) {
      const ArgInfo &ai = k->args[j];
      if (args[j].isObject && ai.kind == ArgInfo::Kind::Scalar)
        ok = false;
      else if (want[j] && ai.kind == ArgInfo::Kind::Memref)
        ok = ai.type.scalar == *want[j];
    }
    if (ok)
      return k;
  }
  std::string wantText;
  for (size_t j = 0; j < args.size(); ++j) {
    if (!want[j])
      continue;
    wantText += std::string(wantText.empty() ? "" : ", ") +
                (args[j].isObject ? objects_[args[j].id]->name
                                  : "argument " + std::to_string(j)) +
                ": " + scalarTypeName(*want[j]);
  }
  std::string have;
  const size_t shown = std::min<size_t>(cands.size(), 4);
  for (size_t i = 0; i < shown; ++i)
    have += std::string(i ? ", " : "") + typesText(*cands[i]);
  if (cands.size() > shown)
    have += " and " + std::to_string(cands.size() - shown) + " more";
  return notFound("kernel " + quote(kernel) +
                  " has no variant whose memref arguments are (" + wantText +
                  "); the module has " + have +
                  ": compile it with the storage variants this configuration "
                  "needs (approx-precision-variants)");
}

Status Session::launch(Module &module, const std::string &kernel,
                       const LaunchConfig &cfg,
                       const std::vector<LaunchArg> &args,
                       const LaunchOptions &opts) {
  if (finished_)
    return invalidArgument("launch: the session has finished");
  APPROX_ASSIGN_OR_RETURN(const KernelInfo *k, select(module, kernel, args));
  std::vector<Arg> packed;
  packed.reserve(args.size());
  for (const LaunchArg &a : args) {
    if (!a.isObject) {
      packed.push_back(a.arg);
      continue;
    }
    const Object &o = *objects_[a.id];
    packed.push_back(Arg::memref(
        o.buf.view(), a.shape.empty() ? std::vector<int64_t>{int64_t(o.elements)}
                                      : a.shape));
  }
  std::unique_ptr<Timed> t;
  if (opt_.timeKernels) {
    t = std::make_unique<Timed>();
    t->kernel = kernel;
    APPROX_ASSIGN_OR_RETURN(t->start, Event::create(ctx_));
    APPROX_ASSIGN_OR_RETURN(t->end, Event::create(ctx_));
    APPROX_RETURN_IF_ERROR(t->start.record(opts.stream));
  }
  Status st = module.launch(k->name, cfg, packed, opts);
  if (!st)
    return k->name == kernel ? st : st.withContext("variant " + quote(k->name));
  if (t) {
    APPROX_RETURN_IF_ERROR(t->end.record(opts.stream));
    launches_.push_back(std::move(t));
  }
  ++report_.launches;
  addUnique(kernelOrder_, kernel);
  if (opt_.mode == SessionMode::Profile)
    for (size_t j = 0; j < args.size(); ++j) {
      if (!args[j].isObject)
        continue;
      Object &o = *objects_[args[j].id];
      const ArgInfo &ai = k->args[j];
      ArgInfo::Access acc =
          ai.kind == ArgInfo::Kind::Memref ? ai.access : args[j].role;
      if (acc == ArgInfo::Access::Read || acc == ArgInfo::Access::ReadWrite)
        addUnique(o.readBy, kernel);
      if (acc == ArgInfo::Access::Write || acc == ArgInfo::Access::ReadWrite)
        addUnique(o.writtenBy, kernel);
    }
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// The end of a run
//===----------------------------------------------------------------------===//

Expected<RunReport> Session::finish() {
  if (finished_)
    return invalidArgument("finish: the session has finished");
  APPROX_RETURN_IF_ERROR(ctx_->synchronize());
  report_.kernelSeconds = 0;
  for (const auto &t : launches_) {
    APPROX_ASSIGN_OR_RETURN(double ms, Event::elapsedMs(t->start, t->end));
    report_.kernelSeconds += ms / 1e3;
  }
  report_.wallSeconds = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start_)
                            .count();
  finished_ = true;
  const std::vector<std::string> &want = opt_.expectedTransfers;
  if (opt_.mode == SessionMode::Scale && transfers_.size() < want.size())
    return invalidArgument(std::string(kDiffer) + "it made " +
                           std::to_string(transfers_.size()) +
                           " transfers, the profiled run " +
                           std::to_string(want.size()) + " (the next was " +
                           want[transfers_.size()] + ")");
  return report_;
}

Expected<AppProfile> Session::profile() const {
  if (opt_.mode != SessionMode::Profile)
    return invalidArgument(std::string("profile: a ") + sessionModeName(opt_.mode) +
                      " session records no profile");
  if (!finished_)
    return invalidArgument("profile: call finish() first");
  AppProfile p;
  for (const auto &o : objects_) {
    ObjectProfile op;
    op.name = o->name;
    op.declared = o->declared;
    op.elements = o->elements;
    op.hostMemory = o->host;
    op.events = o->events;
    op.readBy = o->readBy;
    op.writtenBy = o->writtenBy;
    p.objects.push_back(std::move(op));
  }
  std::map<std::string, double> seconds;
  for (const auto &t : launches_) {
    Expected<double> ms = Event::elapsedMs(t->start, t->end);
    if (!ms)
      return ms.status();
    seconds[t->kernel] += *ms / 1e3;
  }
  for (const std::string &k : kernelOrder_)
    p.kernels.push_back({k, seconds[k], false});
  p.totalSeconds = report_.wallSeconds;
  p.transfers = transfers_;
  return p;
}

//===----------------------------------------------------------------------===//
// Trials
//===----------------------------------------------------------------------===//

TrialResult trialResult(const ProgramRun &run,
                        const std::vector<std::vector<double>> &reference) {
  TrialResult r;
  OutputsError e = compareOutputs(run.outputs, reference);
  r.overflow = !run.report.overflowed.empty() || e.nonFinite > 0;
  r.quality = e.nonFinite ? 0.0 : 1.0 - e.mean();
  r.totalSeconds = run.report.wallSeconds;
  r.totalLo = r.totalHi = r.totalSeconds;
  if (run.report.wallSamples.size() > 1) {
    std::tie(r.totalLo, r.totalHi) = medianInterval(run.report.wallSamples);
    r.runs = unsigned(run.report.wallSamples.size());
  }
  r.kernelSeconds = run.report.kernelSeconds;
  r.objectTransfers = run.report.objectTransfers;
  return r;
}

ScaledProgram medianOf(ScaledProgram program, unsigned warmups,
                       unsigned reps, Tightness tight) {
  return [program = std::move(program), warmups, reps,
          tight](const Configuration &c) -> Expected<ProgramRun> {
    if (reps == 0)
      return invalidArgument("medianOf: reps must be at least 1");
    for (unsigned w = 0; w < warmups; ++w)
      APPROX_RETURN_IF_ERROR(program(c).status());
    std::vector<ProgramRun> runs;
    runs.reserve(reps);
    for (unsigned k = 0; k < reps; ++k) {
      APPROX_ASSIGN_OR_RETURN(ProgramRun r, program(c));
      runs.push_back(std::move(r));
    }
    std::vector<double> seconds;
    for (const ProgramRun &r : runs)
      seconds.push_back(r.report.wallSeconds);
    ProgramRun chosen = std::move(runs[medianIndex(seconds)]);
    // Until the median is tight: times only.
    while (!tight.reached(seconds) && seconds.size() < size_t(tight.maxReps)) {
      APPROX_ASSIGN_OR_RETURN(ProgramRun r, program(c));
      seconds.push_back(r.report.wallSeconds);
    }
    if (seconds.size() > reps)
      chosen.report.wallSeconds = median(seconds);
    if (seconds.size() > 1)
      chosen.report.wallSamples = std::move(seconds);
    return chosen;
  };
}

size_t medianIndex(const std::vector<double> &seconds) {
  if (seconds.empty())
    return 0;
  std::vector<size_t> order(seconds.size());
  for (size_t k = 0; k < order.size(); ++k)
    order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return seconds[a] < seconds[b];
  });
  return order[(order.size() - 1) / 2];
}

Trial makeTrial(ScaledProgram program,
                std::vector<std::vector<double>> reference) {
  auto ref = std::make_shared<std::vector<std::vector<double>>>(
      std::move(reference));
  return [program = std::move(program),
          ref](const Configuration &c) -> Expected<TrialResult> {
    APPROX_ASSIGN_OR_RETURN(ProgramRun run, program(c));
    return trialResult(run, *ref);
  };
}

Trial memoizeTrial(Trial trial, std::shared_ptr<TrialMemo> memo,
                   std::shared_ptr<unsigned> ran) {
  if (!memo)
    memo = std::make_shared<TrialMemo>();
  return [trial = std::move(trial), memo,
          ran](const Configuration &c) -> Expected<TrialResult> {
    const std::string key = c.key();
    auto it = memo->find(key);
    if (it != memo->end())
      return it->second;
    APPROX_ASSIGN_OR_RETURN(TrialResult r, trial(c));
    (*memo)[key] = r;
    if (ran)
      ++*ran;
    return r;
  };
}

} // namespace approx::rt::precision
