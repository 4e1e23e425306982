//===- KernelEvaluator.cpp - Evaluating configurations on the GPU ---------===//
//
// Uploads inputs once, restores/poisons buffers before every launch, takes
// the reference configuration's outputs and turns timed launches of any
// configuration into Evaluations (and, for the λ tuners, TunePoints).
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/KernelEvaluator.h"
#include "approx/runtime/tune/TimeUntilTight.h"

#include "approx/runtime/core/Args.h"
#include "approx/runtime/core/Text.h"

#include <cstdint>
#include <cstring>
#include <tuple>
#include <new>

namespace approx::rt {

ArgSpec ArgSpec::input(ValueType elem, std::vector<int64_t> shape,
                       std::vector<uint8_t> bytes, bool inout) {
  ArgSpec s;
  s.role = inout ? Role::InOut : Role::In;
  s.elem = elem;
  s.shape = std::move(shape);
  s.data = std::move(bytes);
  return s;
}

ArgSpec ArgSpec::output(ValueType elem, std::vector<int64_t> shape) {
  ArgSpec s;
  s.role = Role::Out;
  s.elem = elem;
  s.shape = std::move(shape);
  return s;
}

ArgSpec ArgSpec::value(Arg a) {
  ArgSpec s;
  s.role = Role::Scalar;
  s.scalar = std::move(a);
  return s;
}

/// The bytes of a buffer of `shape` elements of `elem`, or an error when
/// that overflows 64 bits.
static Expected<uint64_t> bufferBytes(const std::vector<int64_t> &shape,
                                      const ValueType &elem,
                                      const std::string &where) {
  uint64_t n = elem.size();
  for (int64_t d : shape) {
    if (d < 0)
      return invalidArgument(where + ": negative size " + std::to_string(d));
    if (d != 0 && n > UINT64_MAX / uint64_t(d))
      return invalidArgument(where + ": the shape's byte size overflows 64 "
                                     "bits");
    n *= uint64_t(d);
  }
  if (n > SIZE_MAX)
    return invalidArgument(where + ": " + std::to_string(n) +
                           " bytes do not fit size_t");
  return n;
}

void appendAsDouble(const std::vector<uint8_t> &bytes,
                           const ValueType &t, std::vector<double> &out) {
  size_t es = scalarTypeSize(t.scalar), n = bytes.size() / es;
  const uint8_t *p = bytes.data();
  for (size_t i = 0; i < n; ++i, p += es) {
    double v = 0;
    switch (t.scalar) {
    case ScalarType::F32: {
      float f;
      std::memcpy(&f, p, 4);
      v = f;
      break;
    }
    case ScalarType::F64:
      std::memcpy(&v, p, 8);
      break;
    case ScalarType::F16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      v = halfBitsToFloat(h);
      break;
    }
    case ScalarType::BF16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      v = bf16BitsToFloat(h);
      break;
    }
    case ScalarType::I1:
    case ScalarType::I8:
      v = double(int8_t(*p));
      break;
    case ScalarType::I16: {
      int16_t x;
      std::memcpy(&x, p, 2);
      v = x;
      break;
    }
    case ScalarType::I32: {
      int32_t x;
      std::memcpy(&x, p, 4);
      v = x;
      break;
    }
    default: {
      int64_t x;
      std::memcpy(&x, p, 8);
      v = double(x);
      break;
    }
    }
    out.push_back(v);
  }
}

/// True when every byte is zero.
static bool allZero(const std::vector<uint8_t> &bytes) {
  for (uint8_t b : bytes)
    if (b)
      return false;
  return true;
}

/// Host allocations grow with the data (downloads, doubles of the outputs):
/// running out of host memory is an error value, not an exception.
static Status hostMemoryError(const std::string &kernel) {
  return Status(StatusCode::OutOfMemory,
                "kernel " + quote(kernel) +
                    ": out of host memory for the evaluator's buffers");
}

Expected<std::unique_ptr<KernelEvaluator>>
KernelEvaluator::create(Module &module, std::vector<ArgSpec> args,
                        EvaluatorOptions opts) {
  std::string kernel = opts.kernel;
  try {
    return createImpl(module, std::move(args), std::move(opts));
  } catch (const std::bad_alloc &) {
    return hostMemoryError(kernel);
  }
}

Expected<std::unique_ptr<KernelEvaluator>>
KernelEvaluator::createImpl(Module &module, std::vector<ArgSpec> args,
                            EvaluatorOptions opts) {
  const Manifest &m = module.manifest();
  APPROX_ASSIGN_OR_RETURN(const KernelInfo *k,
                          module.resolveKernel(opts.kernel));
  std::string kname = "kernel " + quote(opts.kernel);
  if (opts.knob.empty()) {
    // The SFU split's knob when there is one, else the first knob read.
    for (const std::string &n : k->knobs)
      if (opts.knob.empty() && m.findKnob(n)->warpSlot != WarpSlot::None)
        opts.knob = n;
    if (opts.knob.empty() && !k->knobs.empty())
      opts.knob = k->knobs.front();
    if (opts.knob.empty())
      return invalidArgument(kname + " reads no knob; nothing to tune");
  }
  const KnobInfo *knob = m.findKnob(opts.knob);
  if (!knob)
    return notFound("unknown knob " + quote(opts.knob));
  if (!k->readsKnob(opts.knob))
    return invalidArgument("knob " + quote(opts.knob) + " is not read by " +
                           kname);
  if (knob->min > 0 || knob->max < 0)
    return invalidArgument("knob " + quote(opts.knob) + " has range [" +
                           std::to_string(knob->min) + ", " +
                           std::to_string(knob->max) +
                           "]; tuning measures against the value 0 (the "
                           "precise reference), which it must contain");
  if (args.size() != k->args.size())
    return invalidArgument(kname + " takes " + std::to_string(k->args.size()) +
                           " arguments, got " + std::to_string(args.size()));

  // Check every argument and size every buffer before allocating anything.
  bool anyCompared = false;
  uint64_t deviceBytes = 0;
  std::vector<uint64_t> sizes(args.size(), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgSpec &s = args[i];
    const ArgInfo &a = k->args[i];
    std::string where = kname + " argument " + std::to_string(i) + " (" +
                        describeArgInfo(a) + ")";
    bool wantsBuffer = a.kind != ArgInfo::Kind::Scalar;
    if (s.isBuffer() != wantsBuffer)
      return invalidArgument(where + (wantsBuffer
                                          ? ": needs a buffer (input, output "
                                            "or inout), got a scalar"
                                          : ": needs a scalar value, got a "
                                            "buffer"));
    if (!s.isBuffer())
      continue;
    anyCompared |= s.compared();
    APPROX_ASSIGN_OR_RETURN(sizes[i], bufferBytes(s.shape, s.elem, where));
    uint64_t copies = s.role == ArgSpec::Role::Out ? 1 : 2; // + pristine
    if (sizes[i] > (UINT64_MAX - deviceBytes) / copies)
      return invalidArgument(where + ": the buffers' total size overflows 64 "
                                     "bits");
    deviceBytes += copies * sizes[i];
    if (s.role != ArgSpec::Role::Out) {
      if (s.data.size() != sizes[i])
        return invalidArgument(where + ": input has " +
                               std::to_string(s.data.size()) +
                               " bytes, its shape needs " +
                               std::to_string(sizes[i]));
      if (sizes[i] > 0 && !opts.allowZeroInputs && allZero(s.data))
        return invalidArgument(
            where + ": input is all zeros; timing and tuning on zero-filled "
                    "inputs is refused (use real or random data)");
    }
  }
  if (!anyCompared)
    return invalidArgument(kname + ": no output buffer to compare (mark at "
                                   "least one memref argument as output)");
  std::shared_ptr<Context> ctx = module.context();
  size_t freeBytes = 0, totalBytes = 0;
  APPROX_RETURN_IF_ERROR(ctx->memInfo(freeBytes, totalBytes));
  if (deviceBytes > freeBytes)
    return Status(StatusCode::OutOfMemory,
                  kname + ": the buffers need " + std::to_string(deviceBytes) +
                      " bytes of device memory (inputs twice: working copy "
                      "and pristine copy); " +
                      std::to_string(freeBytes) + " of " +
                      std::to_string(totalBytes) + " bytes are free");

  std::unique_ptr<KernelEvaluator> ev(new KernelEvaluator(module));
  ev->opts_ = opts;
  for (size_t i = 0; i < args.size(); ++i) {
    ArgSpec &s = args[i];
    ev->work_.emplace_back();
    ev->pristine_.emplace_back();
    if (!s.isBuffer()) {
      ev->args_.push_back(s.scalar);
      continue;
    }
    APPROX_ASSIGN_OR_RETURN(ev->work_[i],
                            DeviceBuffer::allocate(ctx, size_t(sizes[i]),
                                                   s.elem));
    if (s.role != ArgSpec::Role::Out) {
      APPROX_ASSIGN_OR_RETURN(
          ev->pristine_[i],
          DeviceBuffer::fromHost(ctx, s.data.data(),
                                 size_t(sizes[i] / s.elem.size()), s.elem));
    }
    ev->args_.push_back(Arg::memref(ev->work_[i].view(), s.shape));
  }
  // Validate the whole argument list against the ABI once, up front (knob
  // parameters take their values at launch).
  KnobParamValues knobParams;
  for (const ParamInfo &p : k->params)
    if (p.isKnob())
      knobParams[p.knob] = 0;
  APPROX_RETURN_IF_ERROR(packArgs(*k, ev->args_, knobParams).status());
  ev->specs_ = std::move(args);

  if (opts.reference) {
    ev->reference_ = *opts.reference;
  } else {
    // The knobs as the module holds them (their defaults, or what the
    // caller set, e.g. approx-tune --knob NAME=VALUE), the tuned one at 0.
    for (const KnobInfo &kn : m.knobs) {
      if (kn.kind == KnobKind::Build) {
        ev->reference_.values[kn.name] = kn.builtValue;
        continue;
      }
      APPROX_ASSIGN_OR_RETURN(ev->reference_.values[kn.name],
                              module.getKnob(kn.name));
    }
    ev->reference_.values[opts.knob] = 0;
  }
  if (Status st = checkConfig(m, ev->reference_); !st.isOk())
    return st.withContext("reference configuration");
  if (!isBuiltFor(m, ev->reference_))
    return invalidArgument("reference configuration " +
                           quote(buildConfigText(m, ev->reference_)) +
                           " needs another build of the module");
  ev->lambdaMax_ = knob->max;
  if (opts.bound) {
    APPROX_ASSIGN_OR_RETURN(
        int64_t bound, opts.bound(module, opts.kernel, opts.launch, opts.knob));
    ev->lambdaMax_ = std::min(bound, knob->max);
  }
  if (opts.lambdaMaxOverride >= 0)
    ev->lambdaMax_ = std::min(opts.lambdaMaxOverride, knob->max);
  if (ev->lambdaMax_ < 0)
    ev->lambdaMax_ = 0;
  return ev;
}

Status KernelEvaluator::prepare() {
  for (size_t i = 0; i < specs_.size(); ++i) {
    switch (specs_[i].role) {
    case ArgSpec::Role::In:
    case ArgSpec::Role::InOut:
      APPROX_RETURN_IF_ERROR(work_[i].copyFrom(pristine_[i]));
      break;
    case ArgSpec::Role::Out:
      APPROX_RETURN_IF_ERROR(work_[i].fillBytes(0xff));
      break;
    case ArgSpec::Role::Scalar:
      break;
    }
  }
  return Status::ok();
}

Expected<std::vector<double>> KernelEvaluator::downloadOutputs() {
  std::vector<double> out;
  for (size_t i = 0; i < specs_.size(); ++i) {
    if (!specs_[i].compared())
      continue;
    std::vector<uint8_t> bytes(work_[i].bytes());
    APPROX_RETURN_IF_ERROR(work_[i].copyToHost(bytes.data(), bytes.size()));
    appendAsDouble(bytes, specs_[i].elem, out);
  }
  return out;
}

Status KernelEvaluator::stopped() const {
  return fault_.withContext("kernel " + quote(opts_.kernel) +
                            ": no further launches after a device fault");
}

void KernelEvaluator::noteFault(const Status &s) {
  if (isStickyFault(s) && fault_.isOk())
    fault_ = s;
}

Config KernelEvaluator::configAt(int64_t lambda) const {
  Config c = reference_;
  c.values[opts_.knob] = lambda;
  return c;
}

Status KernelEvaluator::bind(const Config &c, LaunchOptions &lo,
                             LaunchConfig &cfg) const {
  const Manifest &m = module_.manifest();
  APPROX_RETURN_IF_ERROR(checkConfig(m, c));
  if (!isBuiltFor(m, c))
    return invalidArgument("configuration " + quote(buildConfigText(m, c)) +
                           " needs another build of module " +
                           quote(m.module) +
                           " (approx-build --config ...; "
                           "docs/configurations.md)");
  for (const KnobInfo &k : m.knobs)
    if (k.kind != KnobKind::Build)
      lo.knobs[k.name] = c.valueOf(m, k.name);
  if (!opts_.launchFor) {
    cfg = opts_.launch;
    return Status::ok();
  }
  Expected<LaunchConfig> l = opts_.launchFor(c);
  if (!l)
    return l.status().withContext("configuration " +
                                  quote(configText(m, c)));
  cfg = *l;
  return Status::ok();
}

Expected<std::vector<double>> KernelEvaluator::runOnce(int64_t lambda) {
  return run(configAt(lambda));
}

Expected<std::vector<double>> KernelEvaluator::run(const Config &c) {
  if (!fault_.isOk())
    return stopped();
  try {
    Expected<std::vector<double>> r = runImpl(c);
    if (!r)
      noteFault(r.status());
    return r;
  } catch (const std::bad_alloc &) {
    return hostMemoryError(opts_.kernel);
  }
}

Expected<std::vector<double>> KernelEvaluator::runImpl(const Config &c) {
  LaunchOptions lo;
  LaunchConfig cfg;
  APPROX_RETURN_IF_ERROR(bind(c, lo, cfg));
  APPROX_RETURN_IF_ERROR(prepare());
  ++launches_;
  APPROX_RETURN_IF_ERROR(module_.launchSync(opts_.kernel, cfg, args_, lo));
  return downloadOutputs();
}

Expected<std::vector<double>> KernelEvaluator::reference() {
  try {
    return referenceImpl();
  } catch (const std::bad_alloc &) {
    return hostMemoryError(opts_.kernel);
  }
}

Expected<std::vector<double>> KernelEvaluator::referenceImpl() {
  if (haveRef_)
    return ref_;
  APPROX_ASSIGN_OR_RETURN(std::vector<double> ref, run(reference_));
  if (opts_.requireAllWritten) {
    // Poison (all 0xFF bytes) decodes to NaN for floats and -1 for ints;
    // count float NaNs in Out buffers as unwritten.
    size_t idx = 0, unwritten = 0;
    for (size_t i = 0; i < specs_.size(); ++i) {
      if (!specs_[i].compared())
        continue;
      // Values, not elements: a vector element holds several.
      size_t n = work_[i].bytes() / scalarTypeSize(specs_[i].elem.scalar);
      if (specs_[i].role == ArgSpec::Role::Out &&
          isFloatType(specs_[i].elem.scalar))
        for (size_t j = 0; j < n; ++j)
          unwritten += ref[idx + j] != ref[idx + j];
      idx += n;
    }
    if (unwritten)
      return invalidArgument(
          "kernel " + quote(opts_.kernel) + " left " +
          std::to_string(unwritten) +
          " output element(s) unwritten (still the NaN poison) in the "
          "reference configuration; is the launch shape covering the data?");
  }
  ref_ = std::move(ref);
  haveRef_ = true;
  return ref_;
}

Expected<ErrorStats> KernelEvaluator::statsAt(int64_t lambda) {
  try {
    APPROX_ASSIGN_OR_RETURN(std::vector<double> ref, reference());
    APPROX_ASSIGN_OR_RETURN(std::vector<double> out, runOnce(lambda));
    return compareOutputs(ref, out, opts_.metric.zeroPolicy);
  } catch (const std::bad_alloc &) {
    return hostMemoryError(opts_.kernel);
  }
}

Expected<TunePoint> KernelEvaluator::evaluate(int64_t lambda) {
  APPROX_ASSIGN_OR_RETURN(Evaluation e, evaluate(configAt(lambda), false));
  return TunePoint{lambda, e.timeMs, e.error, e.timeLoMs, e.timeHiMs};
}

Expected<Evaluation> KernelEvaluator::evaluate(const Config &c,
                                               bool withOutputs) {
  if (!fault_.isOk())
    return stopped();
  try {
    Expected<Evaluation> r = evaluateImpl(c, withOutputs);
    if (!r)
      noteFault(r.status());
    return r;
  } catch (const std::bad_alloc &) {
    return hostMemoryError(opts_.kernel);
  }
}

Expected<Evaluation> KernelEvaluator::remeasure(const Config &c) {
  if (!fault_.isOk())
    return stopped();
  cache_.erase(configText(module_.manifest(), c));
  return evaluate(c, false);
}

Expected<Evaluation> KernelEvaluator::evaluateImpl(const Config &c,
                                                   bool withOutputs) {
  const std::string key = configText(module_.manifest(), c);
  if (opts_.cache) {
    auto it = cache_.find(key);
    if (it != cache_.end()) {
      Evaluation e = it->second;
      if (withOutputs) {
        APPROX_ASSIGN_OR_RETURN(e.outputs, run(c));
      }
      return e;
    }
  }
  LaunchOptions lo;
  LaunchConfig cfg;
  APPROX_RETURN_IF_ERROR(bind(c, lo, cfg));
  APPROX_ASSIGN_OR_RETURN(std::vector<double> ref, reference());
  // Until the median's interval is tight (opts_.tightness).
  APPROX_ASSIGN_OR_RETURN(
      Timing t, timeUntilTight(module_, opts_.kernel, cfg, args_, opts_.timing,
                               opts_.tightness, [this] { return prepare(); }, lo));
  launches_ += uint64_t(opts_.timing.warmup) + uint64_t(t.samplesMs.size());
  // The last timed launch ran on restored inputs: its outputs are the
  // error's.
  APPROX_ASSIGN_OR_RETURN(std::vector<double> out, downloadOutputs());
  APPROX_ASSIGN_OR_RETURN(double err, opts_.metric(ref, out));
  Evaluation e;
  e.timeMs = t.medianMs;
  std::tie(e.timeLoMs, e.timeHiMs) = medianInterval(t.samplesMs);
  e.error = err;
  if (opts_.cache)
    cache_[key] = e;
  if (withOutputs)
    e.outputs = std::move(out);
  return e;
}

} // namespace approx::rt
