//===- Plan.cpp - What approx-tune will launch, before any GPU work -------===//
//
// Sizes use checked 64-bit arithmetic throughout; host-memory totals
// saturate (a saturated total is larger than any machine). Dry-run pointers
// are 1 TiB apart (buffer#N at (N + 1) << 40) and texture handles carry the
// knob and table (0x7e.. | knob << 20 | table), so the printed layout maps
// every value back to its origin.
//
//===----------------------------------------------------------------------===//
#include "Plan.h"

#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Text.h"

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <unistd.h>

namespace approx::tune {

using namespace approx::rt;

namespace {

std::string argName(size_t i, const ArgInfo &a) {
  return "argument " + std::to_string(i) + " (" + describeArgInfo(a) + ")";
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s;
  for (int64_t d : shape)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s.empty() ? "scalar" : s;
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t saturatingMul(uint64_t a, uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/// The integer range a value of `t` may take (signed or unsigned reading of
/// the width: MLIR integers are signless).
std::pair<int64_t, int64_t> integerRange(ScalarType t) {
  switch (t) {
  case ScalarType::I1:
    return {0, 1};
  case ScalarType::I8:
    return {INT8_MIN, UINT8_MAX};
  case ScalarType::I16:
    return {INT16_MIN, UINT16_MAX};
  case ScalarType::I32:
    return {INT32_MIN, UINT32_MAX};
  default:
    return {INT64_MIN, INT64_MAX};
  }
}

/// Writes one value of scalar type `t` (little-endian) to `dst`.
void putInt(uint8_t *dst, int64_t v, ScalarType t) {
  uint64_t bits = uint64_t(v);
  for (size_t b = 0; b < scalarTypeSize(t); ++b)
    dst[b] = uint8_t(bits >> (8 * b));
}

void putFloat(uint8_t *dst, double v, ScalarType t) {
  uint64_t bits = 0;
  switch (t) {
  case ScalarType::F64:
    std::memcpy(&bits, &v, 8);
    break;
  case ScalarType::F32: {
    float f = float(v);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    bits = b;
    break;
  }
  case ScalarType::F16:
    bits = doubleToHalfBits(v);
    break;
  case ScalarType::BF16:
    bits = doubleToBf16Bits(v);
    break;
  default:
    break;
  }
  for (size_t b = 0; b < scalarTypeSize(t); ++b)
    dst[b] = uint8_t(bits >> (8 * b));
}

/// The value of --scalar for argument `a`.
Arg scalarValue(const std::string &text, const ArgInfo &a, size_t i,
                const Options &o) {
  std::string where = "--scalar " + std::to_string(i) + " (" + a.type.name() +
                      ")";
  ScalarType t = a.type.scalar;
  if (!a.type.isVector()) {
    if (text == "size") {
      if (isIntegerType(t)) {
        auto [lo, hi] = integerRange(t);
        if (o.size < lo || o.size > hi)
          usageError(where + ": size " + std::to_string(o.size) +
                     " does not fit " + scalarTypeName(t));
      }
      return Arg::integer(o.size);
    }
    if (isIntegerType(t)) {
      auto [lo, hi] = integerRange(t);
      return Arg::integer(parseInteger(text, where, lo, hi));
    }
    return Arg::floating(parseFinite(text, where));
  }
  std::vector<std::string> lanes = split(text, ',');
  if (lanes.size() != a.type.laneCount())
    usageError(where + ": " + std::to_string(lanes.size()) +
               " lane value(s) given, the type has " +
               std::to_string(a.type.laneCount()));
  size_t es = scalarTypeSize(t);
  std::vector<uint8_t> bytes(size_t(a.type.size()), 0);
  for (size_t l = 0; l < lanes.size(); ++l) {
    std::string lw = where + " lane " + std::to_string(l);
    if (isIntegerType(t)) {
      auto [lo, hi] = integerRange(t);
      putInt(bytes.data() + l * es, parseInteger(lanes[l], lw, lo, hi), t);
    } else {
      putFloat(bytes.data() + l * es, parseFinite(lanes[l], lw), t);
    }
  }
  return Arg::bytes(std::move(bytes));
}

/// Resolves --kernel (or the default) to the kernel launched.
void resolveKernel(const Manifest &m, const Options &o, RunPlan &p) {
  p.launchName = o.kernel;
  if (p.launchName.empty()) {
    if (m.kernels.size() == 1) {
      p.launchName = m.kernels[0].name;
    } else {
      // One logical name dispatching to every kernel is the natural choice.
      const VariantDispatch *only = nullptr;
      size_t names = 0;
      for (const KnobInfo &k : m.knobs)
        for (const VariantDispatch &d : k.dispatch) {
          only = &d;
          ++names;
        }
      bool covers = names == 1;
      for (const KernelInfo &k : m.kernels)
        covers = covers && std::find(only->variants.begin(),
                                     only->variants.end(),
                                     k.name) != only->variants.end();
      if (covers)
        p.launchName = only->kernel;
      else
        usageError("the manifest has " + std::to_string(m.kernels.size()) +
                   " kernels; choose one with --kernel (see --list)");
    }
  }
  auto [knob, dispatch] = m.findDispatch(p.launchName);
  if (dispatch) {
    int64_t v = p.knobValues.at(knob->name);
    p.dispatchKnob = knob;
    p.kernel = m.findKernel(dispatch->variants[size_t(v - knob->min)]);
    return;
  }
  p.kernel = m.findKernel(p.launchName);
  if (!p.kernel) {
    std::string known;
    for (const KernelInfo &k : m.kernels)
      known += (known.empty() ? "" : ", ") + k.name;
    usageError("--kernel: no kernel " + quote(p.launchName) +
               " in the manifest (known: " + known + ")");
  }
}

/// The knob tuned: --knob NAME, or the kernel's knob with a warp slot, or
/// its first knob (KernelEvaluator's rule).
void chooseTunedKnob(const Manifest &m, const Options &o, RunPlan &p) {
  const KernelInfo &k = *p.kernel;
  if (!o.tunedKnob.empty()) {
    if (!m.findKnob(o.tunedKnob))
      usageError("--knob: unknown knob " + quote(o.tunedKnob));
    if (!k.readsKnob(o.tunedKnob))
      usageError("--knob: knob " + quote(o.tunedKnob) +
                 " is not read by kernel " + quote(k.name));
    p.tunedKnob = o.tunedKnob;
    return;
  }
  // Joint tuning searches every knob but pinned ones: the evaluator's own
  // knob is then one that is not pinned.
  auto free = [&](const std::string &n) {
    return !o.joint || !o.knobValues.count(n);
  };
  for (const std::string &n : k.knobs)
    if (p.tunedKnob.empty() && free(n) &&
        m.findKnob(n)->warpSlot != WarpSlot::None)
      p.tunedKnob = n;
  for (const std::string &n : k.knobs)
    if (p.tunedKnob.empty() && free(n))
      p.tunedKnob = n;
}

/// Plans a buffer argument (memref, or pointer as bytes).
void planBuffer(size_t i, const ArgInfo &a, const Options &o, ArgPlan &ap) {
  std::string where = argName(i, a);
  ap.kind = ArgPlan::Kind::Buffer;
  auto given = o.shapes.find(int(i));
  auto element = o.elements.find(int(i));
  if (element != o.elements.end() && a.kind != ArgInfo::Kind::Pointer)
    usageError("--element " + std::to_string(i) + ": " + where +
               " is not a pointer (a memref's element type is its own)");
  if (a.kind == ArgInfo::Kind::Pointer) {
    ap.elem = ScalarType::I8;
    if (element != o.elements.end()) {
      Expected<ScalarType> t = parseScalarType(element->second);
      if (!t || *t == ScalarType::Ptr || *t == ScalarType::I1 ||
          *t == ScalarType::Index)
        usageError("--element " + std::to_string(i) + ": " +
                   quote(element->second) +
                   " is not one of i8, i16, i32, i64, f16, bf16, f32, f64");
      ap.elem = *t;
    }
    if (given != o.shapes.end() && given->second.size() != 1)
      usageError("--shape " + std::to_string(i) +
                 ": a pointer argument takes one size");
    ap.shape = {given != o.shapes.end() ? given->second[0] : o.size};
  } else {
    ap.elem = a.type;
    if (given != o.shapes.end()) {
      if (int64_t(given->second.size()) != a.rank)
        usageError("--shape " + std::to_string(i) + ": rank " +
                   std::to_string(given->second.size()) + " for " + where);
      for (int64_t d = 0; d < a.rank; ++d)
        if (a.shape[d] >= 0 && a.shape[d] != given->second[d])
          usageError("--shape " + std::to_string(i) + ": dimension " +
                     std::to_string(d) + " of " + where + " is static " +
                     std::to_string(a.shape[d]));
      ap.shape = given->second;
    } else {
      for (int64_t d : a.shape)
        ap.shape.push_back(d >= 0 ? d : o.size);
    }
  }
  uint64_t elements = 1;
  for (int64_t d : ap.shape) {
    if (d != 0 && elements > UINT64_MAX / uint64_t(d))
      usageError(where + ": shape " + shapeText(ap.shape) +
                 " has more than 2^64 elements");
    elements *= uint64_t(d);
  }
  uint64_t es = ap.elem.size();
  if (elements > uint64_t(SIZE_MAX) / es)
    usageError(where + ": shape " + shapeText(ap.shape) + " of " +
               ap.elem.name() + " needs more than 2^64 bytes");
  ap.elements = elements;
  ap.bytes = elements * es;
  ap.values = ap.bytes / scalarTypeSize(ap.elem.scalar);

  auto in = o.inputs.find(int(i));
  if (in == o.inputs.end()) {
    // The compiler records what the kernel reads: such a buffer needs data.
    if (a.kind == ArgInfo::Kind::Memref && isRead(a.access))
      usageError(where + " is " +
                 (a.access == ArgInfo::Access::Read ? "read"
                                                    : "read and written") +
                 " by the kernel: give it data with --input or --inout " +
                 std::to_string(i) + "=DIST");
    ap.role = ArgSpec::Role::Out;
    return;
  }
  ap.role = in->second.second ? ArgSpec::Role::InOut : ArgSpec::Role::In;
  ap.dist = in->second.first;
  ap.hasData = true;
  if (ap.dist.kind == "file") {
    Expected<uint64_t> size = regularFileSize(ap.dist.path, "input file");
    if (!size)
      statusError(size.status().withContext(where));
    if (*size != ap.bytes)
      statusError(invalidArgument(
          where + ": input file " + quote(ap.dist.path) + " has " +
          std::to_string(*size) + " bytes, the buffer (" +
          shapeText(ap.shape) + " x " + ap.elem.name() + ") has " +
          std::to_string(ap.bytes)));
  }
}

/// Formats the value of parameter `i` of a packed launch for the dry run.
std::string formatParam(const ParamInfo &pi, const std::vector<uint8_t> &b,
                        const RunPlan &p, const Manifest &m) {
  auto le = [&](size_t off, size_t n) {
    uint64_t v = 0;
    for (size_t k = 0; k < n; ++k)
      v |= uint64_t(b[off + k]) << (8 * k);
    return v;
  };
  auto scalar = [&](ScalarType t, size_t off) -> std::string {
    size_t n = scalarTypeSize(t);
    uint64_t bits = le(off, n);
    char buf[64];
    switch (t) {
    case ScalarType::I1:
    case ScalarType::I8:
      return std::to_string(int8_t(bits));
    case ScalarType::I16:
      return std::to_string(int16_t(bits));
    case ScalarType::I32:
      return std::to_string(int32_t(bits));
    case ScalarType::I64:
    case ScalarType::Index:
      return std::to_string(int64_t(bits));
    case ScalarType::F16:
      std::snprintf(buf, sizeof buf, "%.9g (0x%04" PRIx64 ")",
                    double(halfBitsToFloat(uint16_t(bits))), bits);
      return buf;
    case ScalarType::BF16:
      std::snprintf(buf, sizeof buf, "%.9g (0x%04" PRIx64 ")",
                    double(bf16BitsToFloat(uint16_t(bits))), bits);
      return buf;
    case ScalarType::F32: {
      float f;
      uint32_t b32 = uint32_t(bits);
      std::memcpy(&f, &b32, 4);
      std::snprintf(buf, sizeof buf, "%.9g (0x%08" PRIx64 ")", double(f),
                    bits);
      return buf;
    }
    case ScalarType::F64: {
      double d;
      std::memcpy(&d, &bits, 8);
      std::snprintf(buf, sizeof buf, "%.17g (0x%016" PRIx64 ")", d, bits);
      return buf;
    }
    case ScalarType::Ptr: {
      if (bits == 0)
        return "null";
      if ((bits & ((uint64_t(1) << 40) - 1)) == 0) {
        uint64_t n = (bits >> 40) - 1;
        if (n < p.args.size() && p.args[n].kind == ArgPlan::Kind::Buffer)
          return "buffer#" + std::to_string(n);
      }
      std::snprintf(buf, sizeof buf, "0x%" PRIx64, bits);
      return buf;
    }
    }
    return "?";
  };
  if (pi.isKnob()) {
    const KnobInfo *k = m.findKnob(pi.knob);
    if (k->kind == KnobKind::Resource)
      return "texture(" + k->name + " = " +
             std::to_string(p.knobValues.at(k->name)) + ")";
    return scalar(pi.type.scalar, 0);
  }
  if (!pi.type.isVector())
    return scalar(pi.type.scalar, 0);
  std::string s = "[";
  size_t es = scalarTypeSize(pi.type.scalar);
  for (uint64_t l = 0; l < pi.type.laneCount(); ++l) {
    std::string v = scalar(pi.type.scalar, size_t(l) * es);
    size_t paren = v.find(" (");
    s += (l ? ", " : "") + (paren == std::string::npos ? v : v.substr(0, paren));
  }
  return s + "]";
}

} // namespace

RunPlan makePlan(const Manifest &m, const Options &o) {
  RunPlan p;
  for (const KnobInfo &k : m.knobs)
    p.knobValues[k.name] = k.defaultValue;
  for (auto &[name, value] : o.knobValues) {
    const KnobInfo *k = m.findKnob(name);
    if (!k) {
      std::string known;
      for (const KnobInfo &x : m.knobs)
        known += (known.empty() ? "" : ", ") + x.name;
      usageError("--knob " + quote(name) + ": unknown knob (known: " +
                 (known.empty() ? "none" : known) + ")");
    }
    if (value < k->min || value > k->max)
      usageError("--knob " + name + "=" + std::to_string(value) +
                 ": outside the knob's range [" + std::to_string(k->min) +
                 ", " + std::to_string(k->max) + "]");
    p.knobValues[name] = value;
  }
  resolveKernel(m, o, p);
  chooseTunedKnob(m, o, p);
  if (!o.dryRun && !o.list && !p.tunedKnob.empty() &&
      o.knobValues.count(p.tunedKnob))
    usageError("--knob " + p.tunedKnob + "=...: that is the knob being tuned "
               "(the tuner sets it); --knob NAME=VALUE sets other knobs");

  const KernelInfo &k = *p.kernel;
  auto checkIndex = [&](int idx, const char *opt) {
    if (idx >= int(k.args.size()))
      usageError(std::string(opt) + " " + std::to_string(idx) + ": kernel " +
                 quote(k.name) + " has " + std::to_string(k.args.size()) +
                 " argument(s)");
  };
  for (auto &[idx, v] : o.shapes) {
    checkIndex(idx, "--shape");
    if (k.args[size_t(idx)].kind == ArgInfo::Kind::Scalar)
      usageError("--shape " + std::to_string(idx) + ": " +
                 argName(size_t(idx), k.args[size_t(idx)]) +
                 " is a scalar");
  }
  for (auto &[idx, v] : o.inputs) {
    checkIndex(idx, "--input/--inout");
    if (k.args[size_t(idx)].kind == ArgInfo::Kind::Scalar)
      usageError("--input/--inout " + std::to_string(idx) + ": " +
                 argName(size_t(idx), k.args[size_t(idx)]) +
                 " is a scalar; give it --scalar");
  }
  for (auto &[idx, v] : o.scalars) {
    checkIndex(idx, "--scalar");
    const ArgInfo &a = k.args[size_t(idx)];
    if (a.kind == ArgInfo::Kind::Memref)
      usageError("--scalar " + std::to_string(idx) + ": " +
                 argName(size_t(idx), a) + " is a memref");
    if (a.kind == ArgInfo::Kind::Pointer && v != "null")
      usageError("--scalar " + std::to_string(idx) + ": " +
                 argName(size_t(idx), a) +
                 " takes \"null\", or is a byte buffer (--shape, --input, "
                 "--inout)");
    if (a.kind == ArgInfo::Kind::Pointer && (o.inputs.count(idx) ||
                                             o.shapes.count(idx)))
      usageError("--scalar " + std::to_string(idx) +
                 "=null: the argument also has a buffer option");
  }

  uint64_t largest = 0;
  for (size_t i = 0; i < k.args.size(); ++i) {
    const ArgInfo &a = k.args[i];
    ArgPlan ap;
    ap.info = &a;
    auto sc = o.scalars.find(int(i));
    if (a.kind == ArgInfo::Kind::Scalar) {
      if (sc == o.scalars.end())
        usageError(argName(i, a) + " needs --scalar " + std::to_string(i) +
                   "=VALUE");
      ap.kind = ArgPlan::Kind::Scalar;
      ap.text = sc->second;
      ap.value = scalarValue(sc->second, a, i, o);
    } else if (a.kind == ArgInfo::Kind::Pointer && sc != o.scalars.end()) {
      ap.kind = ArgPlan::Kind::NullPointer;
      ap.text = "null";
      ap.value = Arg::pointer(0);
    } else {
      planBuffer(i, a, o, ap);
      largest = std::max(largest, ap.elements);
    }
    p.args.push_back(std::move(ap));
  }

  p.launch.block = o.block;
  p.launch.sharedMemBytes = o.shared;
  if (o.gridAuto) {
    uint64_t bt = o.block.total();
    uint64_t blocks = std::max<uint64_t>(1, largest / bt + (largest % bt != 0));
    if (blocks > uint64_t(kMaxGridX))
      usageError("--grid auto: " + std::to_string(blocks) +
                 " blocks of " + std::to_string(bt) +
                 " threads exceed the grid's x limit 2147483647; give --grid");
    p.launch.grid.x = unsigned(blocks);
  } else {
    p.launch.grid = o.grid;
  }
  return p;
}

void checkHostMemory(const RunPlan &p) {
  uint64_t need = 0;
  for (const ArgPlan &a : p.args) {
    if (a.kind != ArgPlan::Kind::Buffer)
      continue;
    if (a.role != ArgSpec::Role::Out) // generated doubles + encoded bytes
      need = saturatingAdd(need, saturatingAdd(a.bytes,
                                               saturatingMul(a.values, 8)));
    if (a.role != ArgSpec::Role::In) // download + output and reference
      need = saturatingAdd(need, saturatingAdd(a.bytes,
                                               saturatingMul(a.values, 16)));
  }
  long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0)
    return; // unknown: the allocations themselves will tell
  uint64_t have = saturatingMul(uint64_t(pages), uint64_t(page));
  if (need > have)
    throw CliError{2, "the arguments need " +
                          (need == UINT64_MAX ? std::string("more than 2^64")
                                              : std::to_string(need)) +
                          " bytes of host memory (input data as generated, "
                          "outputs downloaded and kept with the reference); "
                          "this machine has " +
                          std::to_string(have)};
}

uint64_t deviceBytes(const RunPlan &p) {
  uint64_t need = 0;
  for (const ArgPlan &a : p.args)
    if (a.kind == ArgPlan::Kind::Buffer)
      need = saturatingAdd(need, saturatingMul(
                                     a.bytes, a.role == ArgSpec::Role::Out
                                                  ? 1
                                                  : 2));
  return need;
}

//===----------------------------------------------------------------------===//
// --list and --dry-run
//===----------------------------------------------------------------------===//

static std::string knobSummary(const KnobInfo &k) {
  std::string s = knobKindName(k.kind);
  if (k.hasSymbol())
    s += std::string(", path ") + knobPathName(k.path) + ", symbol " +
         k.symbol + ", " + scalarTypeName(k.type);
  if (k.warpSlot != WarpSlot::None)
    s += std::string(", warp slot ") + warpSlotName(k.warpSlot);
  return s;
}

static std::string tableSummary(const KnobInfo &k, size_t option) {
  const TextureTable &t = k.resource.options[option];
  // 2-D: WxHxC; 3-D: "3-D WxHxDxC".
  std::string shape = std::to_string(t.width) + "x" + std::to_string(t.height);
  if (k.resource.type == TextureType::Texture3D)
    shape = "3-D " + shape + "x" + std::to_string(t.depth);
  return shape + "x" + std::to_string(t.channels) + " f32, " +
         textureFilterName(k.resource.filter) + ", " +
         textureAddressName(k.resource.address) +
         (k.resource.normalizedCoords ? ", normalized" : "");
}

void printList(const Manifest &m) {
  std::printf("module %s", escapeBytes(m.module).c_str());
  if (!m.chip.empty())
    std::printf(" (%s)", escapeBytes(m.chip).c_str());
  if (!m.producer.empty())
    std::printf(", produced by %s", escapeBytes(m.producer).c_str());
  std::printf("\n");
  for (const KnobInfo &k : m.knobs) {
    std::printf("  knob %s: %s, [%lld, %lld], default %lld\n", k.name.c_str(),
                knobSummary(k).c_str(), (long long)k.min, (long long)k.max,
                (long long)k.defaultValue);
    for (const VariantDispatch &d : k.dispatch) {
      std::printf("    dispatch %s ->", d.kernel.c_str());
      for (const std::string &v : d.variants)
        std::printf(" %s", v.c_str());
      std::printf("\n");
    }
    for (size_t i = 0; i < k.resource.options.size(); ++i)
      std::printf("    table %lld: %s\n", (long long)(k.min + int64_t(i)),
                  tableSummary(k, i).c_str());
  }
  for (const KernelInfo &k : m.kernels) {
    std::printf("  kernel %s", k.name.c_str());
    if (!k.knobs.empty()) {
      std::printf(" (knobs:");
      for (const std::string &n : k.knobs)
        std::printf(" %s", n.c_str());
      std::printf(")");
    }
    std::printf("\n");
    for (size_t i = 0; i < k.args.size(); ++i) {
      const ArgInfo &a = k.args[i];
      std::printf("    arg %zu: %s", i, describeArgInfo(a).c_str());
      if (a.kind == ArgInfo::Kind::Memref)
        std::printf(", %s", accessName(a.access));
      std::printf("\n");
    }
    for (const ParamInfo &p : k.params)
      if (p.isKnob())
        std::printf("    knob parameter: %s (%s)\n", p.knob.c_str(),
                    p.type.name().c_str());
    for (size_t s : k.sites) {
      const SiteInfo &site = m.sites[s];
      std::printf("    site %zu: %s %s %s, %s", s,
                  escapeBytes(site.technique).c_str(),
                  escapeBytes(site.op).c_str(), escapeBytes(site.type).c_str(),
                  escapeBytes(site.form).c_str());
      if (!site.knob.empty())
        std::printf(" (knob %s)", site.knob.c_str());
      if (!site.loc.empty())
        std::printf(" at %s", escapeBytes(site.loc).c_str());
      if (!site.reason.empty())
        std::printf(": %s", escapeBytes(site.reason).c_str());
      if (!site.data.empty())
        std::printf(" %s", escapeBytes(site.data).c_str());
      std::printf("\n");
    }
  }
}

void printDryRun(const Manifest &m, const RunPlan &p,
                 const std::string &image) {
  std::printf("module %s\n", escapeBytes(m.module).c_str());
  std::printf("image %s\n", escapeBytes(image).c_str());
  if (p.dispatchKnob)
    std::printf("kernel %s -> %s (knob %s = %lld)\n", p.launchName.c_str(),
                p.kernel->name.c_str(), p.dispatchKnob->name.c_str(),
                (long long)p.knobValues.at(p.dispatchKnob->name));
  else
    std::printf("kernel %s\n", p.kernel->name.c_str());
  std::printf("launch grid %u,%u,%u block %u,%u,%u shared %u\n",
              p.launch.grid.x, p.launch.grid.y, p.launch.grid.z,
              p.launch.block.x, p.launch.block.y, p.launch.block.z,
              p.launch.sharedMemBytes);
  for (const KnobInfo &k : m.knobs) {
    int64_t v = p.knobValues.at(k.name);
    std::printf("knob %s = %lld (%s", k.name.c_str(), (long long)v,
                knobSummary(k).c_str());
    if (k.kind == KnobKind::Resource)
      std::printf(", table %s", tableSummary(k, size_t(v - k.min)).c_str());
    for (const VariantDispatch &d : k.dispatch)
      std::printf(", %s -> %s", d.kernel.c_str(),
                  d.variants[size_t(v - k.min)].c_str());
    if (!p.kernel->readsKnob(k.name))
      std::printf(", not read");
    if (k.name == p.tunedKnob)
      std::printf(", tuned");
    std::printf(")\n");
  }
  // Fake device pointers and texture handles, packed as a launch would be.
  std::vector<Arg> args;
  for (size_t i = 0; i < p.args.size(); ++i) {
    const ArgPlan &a = p.args[i];
    switch (a.kind) {
    case ArgPlan::Kind::Buffer: {
      BufferView v{uint64_t(i + 1) << 40, size_t(a.bytes), a.elem};
      args.push_back(Arg::memref(v, a.shape));
      const char *role = a.role == ArgSpec::Role::Out     ? "output"
                         : a.role == ArgSpec::Role::InOut ? "inout"
                                                          : "input";
      std::printf("arg %zu: %s buffer#%zu %s%s%s, shape %s, %llu bytes\n", i,
                  describeArgInfo(*a.info).c_str(), i, role,
                  a.hasData ? " " : "",
                  a.hasData ? escapeBytes(a.dist.text).c_str() : "",
                  shapeText(a.shape).c_str(), (unsigned long long)a.bytes);
      break;
    }
    case ArgPlan::Kind::NullPointer:
    case ArgPlan::Kind::Scalar:
      args.push_back(a.value);
      std::printf("arg %zu: %s = %s\n", i, describeArgInfo(*a.info).c_str(),
                  escapeBytes(a.text).c_str());
      break;
    }
  }
  KnobParamValues knobParams;
  for (size_t ki = 0; ki < m.knobs.size(); ++ki) {
    const KnobInfo &k = m.knobs[ki];
    int64_t v = p.knobValues.at(k.name);
    knobParams[k.name] =
        k.kind == KnobKind::Resource
            ? int64_t(0x7e00000000000000ull | uint64_t(ki) << 20 |
                      uint64_t(v - k.min))
            : v;
  }
  Expected<PackedArgs> packed = packArgs(*p.kernel, args, knobParams);
  if (!packed)
    statusError(packed.status());
  for (size_t i = 0; i < p.kernel->params.size(); ++i) {
    const ParamInfo &pi = p.kernel->params[i];
    std::string value = formatParam(pi, packed->bytes(i), p, m);
    if (pi.isKnob())
      std::printf("param %zu: knob %s %s %zu %s\n", i, pi.knob.c_str(),
                  pi.type.name().c_str(), pi.size, value.c_str());
    else
      std::printf("param %zu: arg %zu %s %s %zu %s\n", i, *pi.arg,
                  pi.field.c_str(), pi.type.name().c_str(), pi.size,
                  value.c_str());
  }
  for (const std::string &name : p.kernel->knobs) {
    const KnobInfo &k = *m.findKnob(name);
    if (!k.hasSymbol() || k.path != KnobPath::Global)
      continue;
    int64_t v = p.knobValues.at(name);
    std::string value = k.kind == KnobKind::Resource
                            ? "texture(" + name + " = " + std::to_string(v) +
                                  ")"
                            : std::to_string(v);
    std::printf("global %s %s = %s\n", k.symbol.c_str(),
                scalarTypeName(k.type), value.c_str());
  }
}

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

std::vector<ArgSpec> makeSpecs(const RunPlan &p, const Options &o) {
  std::vector<ArgSpec> specs;
  for (size_t i = 0; i < p.args.size(); ++i) {
    const ArgPlan &a = p.args[i];
    std::string where = argName(i, *a.info);
    if (a.kind != ArgPlan::Kind::Buffer) {
      specs.push_back(ArgSpec::value(a.value));
      continue;
    }
    if (a.role == ArgSpec::Role::Out) {
      specs.push_back(ArgSpec::output(a.elem, a.shape));
      continue;
    }
    std::vector<uint8_t> bytes;
    if (a.dist.kind == "file") {
      Expected<std::string> data =
          readRegularFile(a.dist.path, a.bytes, "input file");
      if (!data)
        statusError(data.status().withContext(where));
      if (data->size() != a.bytes)
        statusError(invalidArgument(where + ": input file " +
                                    quote(a.dist.path) + " has " +
                                    std::to_string(data->size()) +
                                    " bytes, the buffer has " +
                                    std::to_string(a.bytes)));
      bytes.assign(data->begin(), data->end());
    } else {
      ScalarType t = a.elem.scalar;
      size_t es = scalarTypeSize(t), n = size_t(a.values);
      bytes.assign(size_t(a.bytes), 0);
      std::mt19937_64 rng(o.seed + uint64_t(i));
      std::uniform_real_distribution<double> uni(a.dist.a, a.dist.b);
      std::normal_distribution<double> gauss(a.dist.a, a.dist.b);
      auto [lo, hi] = integerRange(t);
      for (size_t j = 0; j < n; ++j) {
        double v = a.dist.kind == "uniform"  ? uni(rng)
                   : a.dist.kind == "normal" ? gauss(rng)
                   : n > 1 ? a.dist.a + (a.dist.b - a.dist.a) * double(j) /
                                            double(n - 1)
                           : a.dist.a;
        if (isIntegerType(t)) {
          double r = std::nearbyint(v);
          // hi + 1 as a double is exact for every width (2^63 for i64).
          if (!(r >= double(lo) && r < double(hi) + 1.0))
            statusError(invalidArgument(
                where + ": " + escapeBytes(a.dist.text) + " gave " +
                std::to_string(v) + " (value " + std::to_string(j) +
                "), which does not fit " + scalarTypeName(t) +
                "; use a distribution within [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "]"));
          putInt(bytes.data() + j * es, int64_t(r), t);
        } else {
          putFloat(bytes.data() + j * es, v, t);
        }
      }
    }
    specs.push_back(ArgSpec::input(a.elem, a.shape, std::move(bytes),
                                   a.role == ArgSpec::Role::InOut));
  }
  return specs;
}

} // namespace approx::tune
