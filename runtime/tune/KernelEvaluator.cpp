//===- KernelEvaluator.cpp - Measuring T(λ), E(λ) on the GPU --------------===//
//
// Uploads inputs once, restores/poisons buffers before every launch, takes
// the λ=0 reference and turns timed launches into TunePoints.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/tune/KernelEvaluator.h"

#include "approx/runtime/core/Args.h"

#include <cstdint>
#include <cstring>

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

/// Appends the elements of `bytes` (of type t, vectors lane by lane) to
/// `out` as doubles.
static void appendAsDouble(const std::vector<uint8_t> &bytes,
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

Expected<std::unique_ptr<KernelEvaluator>>
KernelEvaluator::create(Module &module, std::vector<ArgSpec> args,
                        EvaluatorOptions opts) {
  const Manifest &m = module.manifest();
  const KernelInfo *k = m.findKernel(opts.kernel);
  if (!k)
    return notFound("unknown kernel '" + opts.kernel + "'");
  if (opts.knob.empty()) {
    if (!k->knobs.empty())
      opts.knob = k->knobs.front();
    else if (m.knobs.size() == 1)
      opts.knob = m.knobs.front().name;
    else
      return invalidArgument("kernel '" + opts.kernel +
                             "' names no knob; choose one explicitly");
  }
  const KnobInfo *knob = m.findKnob(opts.knob);
  if (!knob)
    return notFound("unknown knob '" + opts.knob + "'");
  if (!k->knobs.empty()) {
    bool governs = false;
    for (const std::string &n : k->knobs)
      governs |= n == opts.knob;
    if (!governs)
      return invalidArgument("knob '" + opts.knob +
                             "' governs no site of kernel '" + opts.kernel +
                             "'");
  }
  if (args.size() != k->args.size())
    return invalidArgument("kernel '" + opts.kernel + "' takes " +
                           std::to_string(k->args.size()) +
                           " arguments, got " + std::to_string(args.size()));

  std::unique_ptr<KernelEvaluator> ev(new KernelEvaluator(module));
  ev->opts_ = opts;
  std::shared_ptr<Context> ctx = module.context();
  bool anyCompared = false;
  for (size_t i = 0; i < args.size(); ++i) {
    ArgSpec &s = args[i];
    std::string where = "argument " + std::to_string(i);
    ev->work_.emplace_back();
    ev->pristine_.emplace_back();
    if (!s.isBuffer()) {
      ev->args_.push_back(s.scalar);
      continue;
    }
    anyCompared |= s.compared();
    APPROX_ASSIGN_OR_RETURN(uint64_t total,
                            bufferBytes(s.shape, s.elem, where));
    size_t bytes = size_t(total);
    uint64_t n = total / s.elem.size();
    APPROX_ASSIGN_OR_RETURN(ev->work_[i],
                            DeviceBuffer::allocate(ctx, bytes, s.elem));
    if (s.role != ArgSpec::Role::Out) {
      if (s.data.size() != bytes)
        return invalidArgument(where + ": input has " +
                               std::to_string(s.data.size()) +
                               " bytes, its shape needs " +
                               std::to_string(bytes));
      bool allZero = true;
      for (uint8_t b : s.data)
        if (b) {
          allZero = false;
          break;
        }
      if (allZero && bytes > 0 && !opts.allowZeroInputs)
        return invalidArgument(
            where + ": input is all zeros; timing and tuning on zero-filled "
                    "inputs is refused (use real or random data)");
      APPROX_ASSIGN_OR_RETURN(
          ev->pristine_[i],
          DeviceBuffer::fromHost(ctx, s.data.data(), size_t(n), s.elem));
    }
    ev->args_.push_back(Arg::memref(ev->work_[i].view(), s.shape));
  }
  if (!anyCompared)
    return invalidArgument("kernel '" + opts.kernel +
                           "': no output buffer to compare (mark at least one "
                           "memref argument as output)");
  // Validate the whole argument list against the ABI once, up front.
  APPROX_RETURN_IF_ERROR(packArgs(*k, ev->args_).status());
  ev->specs_ = std::move(args);

  APPROX_ASSIGN_OR_RETURN(ev->occ_,
                          lambdaBound(module, opts.kernel, opts.launch, opts.knob));
  ev->lambdaMax_ = ev->occ_.lambdaMax;
  if (opts.lambdaMaxOverride >= 0)
    ev->lambdaMax_ = std::min(opts.lambdaMaxOverride, knob->max);
  if (ev->lambdaMax_ < knob->min)
    ev->lambdaMax_ = knob->min;
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

Expected<std::vector<double>> KernelEvaluator::runOnce(int64_t lambda) {
  APPROX_RETURN_IF_ERROR(module_.setKnob(opts_.knob, lambda));
  APPROX_RETURN_IF_ERROR(prepare());
  ++launches_;
  APPROX_RETURN_IF_ERROR(
      module_.launchSync(opts_.kernel, opts_.launch, args_));
  return downloadOutputs();
}

Expected<std::vector<double>> KernelEvaluator::reference() {
  if (haveRef_)
    return ref_;
  APPROX_ASSIGN_OR_RETURN(std::vector<double> ref, runOnce(0));
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
          "kernel '" + opts_.kernel + "' left " + std::to_string(unwritten) +
          " output element(s) unwritten (still the NaN poison) at lambda 0; "
          "is the launch shape covering the data?");
  }
  ref_ = std::move(ref);
  haveRef_ = true;
  return ref_;
}

Expected<ErrorStats> KernelEvaluator::statsAt(int64_t lambda) {
  APPROX_ASSIGN_OR_RETURN(std::vector<double> ref, reference());
  APPROX_ASSIGN_OR_RETURN(std::vector<double> out, runOnce(lambda));
  return compareOutputs(ref, out, opts_.metric.zeroPolicy);
}

Expected<TunePoint> KernelEvaluator::evaluate(int64_t lambda) {
  if (opts_.cache) {
    auto it = cache_.find(lambda);
    if (it != cache_.end())
      return it->second;
  }
  APPROX_ASSIGN_OR_RETURN(std::vector<double> ref, reference());
  APPROX_RETURN_IF_ERROR(module_.setKnob(opts_.knob, lambda));
  APPROX_ASSIGN_OR_RETURN(
      Timing t, module_.time(opts_.kernel, opts_.launch, args_, opts_.timing,
                             [this] { return prepare(); }));
  launches_ += uint64_t(opts_.timing.warmup + opts_.timing.reps);
  // The last timed launch ran on restored inputs: its outputs are E(λ)'s.
  APPROX_ASSIGN_OR_RETURN(std::vector<double> out, downloadOutputs());
  APPROX_ASSIGN_OR_RETURN(double e, opts_.metric(ref, out));
  TunePoint p{lambda, t.medianMs, e};
  if (opts_.cache)
    cache_[lambda] = p;
  return p;
}

} // namespace approx::rt
