//===- BuildSetEvaluator.cpp - One kernel across the builds of a cache ----===//
#include "approx/runtime/tune/BuildSetEvaluator.h"

#include "approx/runtime/core/Args.h"
#include "approx/runtime/core/Text.h"

#include <cstring>

namespace approx::rt {

namespace {

/// The kernel `name` launches in `m`: itself, or the first variant a
/// variant knob dispatches it to.
const KernelInfo *launchedKernel(const Manifest &m, const std::string &name) {
  if (const KernelInfo *k = m.findKernel(name))
    return k;
  for (const KnobInfo &k : m.knobs)
    for (const VariantDispatch &d : k.dispatch)
      if (d.kernel == name && !d.variants.empty())
        return m.findKernel(d.variants.front());
  return nullptr;
}

/// `bytes` of type `from` as the same values of type `to` (float types:
/// rounded to nearest even once; equal types: unchanged).
Expected<std::vector<uint8_t>> convert(const std::vector<uint8_t> &bytes,
                                       const ValueType &from,
                                       const ValueType &to) {
  if (from == to)
    return bytes;
  if (from.isVector() || to.isVector() || !isFloatType(from.scalar) ||
      !isFloatType(to.scalar))
    return invalidArgument(std::string("cannot convert ") +
                           scalarTypeName(from.scalar) + " data to " +
                           scalarTypeName(to.scalar) +
                           " (only float storage types differ per build)");
  std::vector<double> v;
  appendAsDouble(bytes, from, v);
  size_t es = scalarTypeSize(to.scalar);
  std::vector<uint8_t> out(v.size() * es);
  for (size_t i = 0; i < v.size(); ++i) {
    uint8_t *p = out.data() + i * es;
    switch (to.scalar) {
    case ScalarType::F64:
      std::memcpy(p, &v[i], 8);
      break;
    case ScalarType::F32: {
      float f = float(v[i]); // round to nearest even, once
      std::memcpy(p, &f, 4);
      break;
    }
    case ScalarType::F16: {
      uint16_t h = doubleToHalfBits(v[i]);
      std::memcpy(p, &h, 2);
      break;
    }
    case ScalarType::BF16: {
      uint16_t h = doubleToBf16Bits(v[i]);
      std::memcpy(p, &h, 2);
      break;
    }
    default:
      return internalError("unhandled float type");
    }
  }
  return out;
}

} // namespace

Expected<std::unique_ptr<BuildSetEvaluator>>
BuildSetEvaluator::create(Module &base, std::vector<ArgSpec> args,
                          EvaluatorOptions opts, std::string cacheDir,
                          LoadOptions load) {
  std::unique_ptr<BuildSetEvaluator> e(new BuildSetEvaluator(base));
  e->args_ = args;
  e->opts_ = opts;
  e->opts_.cache = true;
  e->cache_ = ConfigCache(std::move(cacheDir));
  e->load_ = load;
  // The base build: its evaluator's reference is the reference of all.
  APPROX_ASSIGN_OR_RETURN(std::unique_ptr<KernelEvaluator> ev,
                          KernelEvaluator::create(base, std::move(args), opts));
  APPROX_ASSIGN_OR_RETURN(e->reference_, ev->reference());
  Build b;
  b.eval = std::move(ev);
  e->builds_[buildConfigText(base.manifest(), b.eval->referenceConfig())] =
      std::move(b);
  return e;
}

uint64_t BuildSetEvaluator::launches() const {
  uint64_t n = 0;
  for (const auto &[key, b] : builds_)
    n += b.eval->launches();
  return n;
}

Expected<BuildSetEvaluator::Build *>
BuildSetEvaluator::buildFor(const Config &c) {
  const Manifest &m = base_.manifest();
  APPROX_RETURN_IF_ERROR(checkConfig(m, c));
  std::string key = buildConfigText(m, c);
  auto it = builds_.find(key);
  if (it != builds_.end())
    return &it->second;
  APPROX_ASSIGN_OR_RETURN(std::string path, cache_.find(m, c));
  // Each build runs its own image: an image named for the base build
  // (LoadOptions::imagePath) would run the base build's code with this
  // build's argument types.
  LoadOptions load = load_;
  load.imagePath.clear();
  Expected<std::unique_ptr<Module>> loaded =
      Module::load(base_.context(), path, load);
  if (!loaded) {
    // NotFound means "not built" to the tuners; a build that is there but
    // does not load (a symbol its image lacks) is another failure.
    Status s = loaded.status().withContext("build " + quote(key));
    return s.code() == StatusCode::NotFound
               ? Status(StatusCode::InvalidImage, s.message())
               : s;
  }
  std::unique_ptr<Module> mod = std::move(*loaded);
  const Manifest &bm = mod->manifest();
  const KernelInfo *want = launchedKernel(m, opts_.kernel);
  const KernelInfo *got = launchedKernel(bm, opts_.kernel);
  if (!want || !got || got->args.size() != want->args.size())
    return invalidArgument("build " + quote(key) + " has no kernel " +
                           quote(opts_.kernel) + " with the base build's " +
                           std::to_string(want ? want->args.size() : 0) +
                           " arguments");
  std::vector<ArgSpec> specs = args_;
  for (size_t i = 0; i < specs.size(); ++i) {
    ArgSpec &s = specs[i];
    const ArgInfo &a = got->args[i];
    if (!s.isBuffer() || a.type == s.elem)
      continue;
    if (s.role != ArgSpec::Role::Out) {
      APPROX_ASSIGN_OR_RETURN(s.data, convert(s.data, s.elem, a.type));
    }
    s.elem = a.type;
  }
  EvaluatorOptions o = opts_;
  // The build's own reference (its build knobs as built, the rest as the
  // base reference): needed by its evaluator, never used for errors here.
  Config ref = o.reference ? *o.reference : Config();
  for (const KnobInfo &k : bm.knobs)
    if (k.kind == KnobKind::Build)
      ref.values[k.name] = k.builtValue;
  o.reference = ref;
  APPROX_ASSIGN_OR_RETURN(std::unique_ptr<KernelEvaluator> ev,
                          KernelEvaluator::create(*mod, std::move(specs), o));
  Build b;
  b.module = std::move(mod);
  b.eval = std::move(ev);
  return &(builds_[key] = std::move(b));
}

Expected<Evaluation> BuildSetEvaluator::measure(const Config &c,
                                                bool withOutputs, bool fresh) {
  APPROX_ASSIGN_OR_RETURN(Build * b, buildFor(c));
  std::string key = configText(base_.manifest(), c);
  auto known = errors_.find(key);
  if (fresh) {
    APPROX_ASSIGN_OR_RETURN(Evaluation e, b->eval->remeasure(c));
    if (known != errors_.end()) {
      e.error = known->second;
      return e;
    }
  }
  APPROX_ASSIGN_OR_RETURN(Evaluation e, b->eval->evaluate(c, true));
  APPROX_ASSIGN_OR_RETURN(e.error, opts_.metric(reference_, e.outputs));
  errors_[key] = e.error;
  if (!withOutputs)
    e.outputs.clear();
  return e;
}

Expected<Evaluation> BuildSetEvaluator::evaluate(const Config &c,
                                                 bool withOutputs) {
  return measure(c, withOutputs, false);
}

Expected<Evaluation> BuildSetEvaluator::remeasure(const Config &c) {
  return measure(c, false, true);
}

} // namespace approx::rt
