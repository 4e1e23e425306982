//===- DeviceConvert.cpp - conversion kernels as generated PTX ------------===//
//
// Why PTX text generated here, and not CUDA C++: the runtime builds with
// plain g++/clang on the GPU machines and in CI, where nvcc is not
// guaranteed; the driver JIT-compiles PTX at load time (once per context,
// through Module, as it does the compiler's output). Twelve kernels that
// differ in a few instructions are a loop over pairs and one snippet each,
// which keeps every instruction in view: no `.ftz` anywhere (subnormals are
// exact), and explicit rounding modifiers (`cvt.rn`, `cvt.rz`).
//
// One `.entry approx_cvt_<from>_<to>(src, dst, n, counters)` per pair, all
// alike: a grid-stride loop of coalesced scalar loads and stores (each warp
// touches 32 consecutive elements per step; the kernels are memory-bound,
// and scalar accesses take any element-aligned address, so odd offsets need
// no prologue), 64-bit indices. Per element, with s the source bits and d
// the result bits:
//
//   widening (f32/f16/bf16 -> wider)  cvt.f64.f32, cvt.f32.f16, cvt.f64.f16,
//                                     bf16 -> f32 as s << 16: exact
//   f64 -> f32, f64 -> f16,           cvt.rn.f32.f64, cvt.rn.f16.f64,
//   f32 -> f16                        cvt.rn.f16.f32: one IEEE rounding
//   -> bf16 from an f32 value x       integer RNE (x + 0x7fff + ((x >> 16)
//                                     & 1)) >> 16, as the host's AVX2 path
//   f64 -> bf16                       round to odd into f32 (cvt.rz.f32.f64,
//                                     then OR 1 into the last bit when the
//                                     truncation was inexact), then the bf16
//                                     RNE above: exact (Boldo & Melquiond;
//                                     docs/precision.md has the argument)
//   f16 <-> bf16                      through f32, which holds both exactly
//
// PTX for sm_75 .. sm_90 has cvt.rn.f16.f64 (all of them) but cvt.rn.bf16.*
// only from sm_80 (from f32) and sm_90 + PTX ISA 7.8 (from f64); one image
// for every GPU from Turing on (.target sm_75, PTX ISA 7.0, accepted by every
// driver since CUDA 11.0) therefore rounds to bf16 in integer arithmetic.
//
// NaNs: hardware cvt may return a canonical NaN, so a NaN source takes an
// integer path instead (selected with selp): sign, the target's infinity
// exponent, its quiet bit, and the source's fraction aligned at the top
// (truncated or zero-extended), exactly the host's rule (Scalar.cpp).
//
// Counts, as the host's ConvertStats: nans = NaN sources; overflowed =
// finite sources whose result is +-inf; underflowedToZero = nonzero sources
// whose result is +-0 (the last two only for pairs that can lose range).
// Each thread counts in registers; at the end each warp sums its lanes with
// shfl.sync.down and lane 0 adds the non-zero sums to the counter block
// with red.global.add.u64: one atomic per warp and counter, none when the
// counter address is 0 (counting is then free but for a few integer ops).
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/precision/DeviceConvert.h"

#include "Driver.h"


#include <nlohmann/json.hpp>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

namespace approx::rt::precision {

using detail::Driver;

namespace {

/// What the generator needs to know of a format.
struct Fmt {
  ScalarType type;
  const char *name;
  int bits;     ///< storage width
  int frac;     ///< fraction bits
  uint64_t inf; ///< +inf pattern
};

constexpr Fmt kFmts[] = {
    {ScalarType::F64, "f64", 64, 52, uint64_t(0x7ff) << 52},
    {ScalarType::F32, "f32", 32, 23, 0x7f800000u},
    {ScalarType::F16, "f16", 16, 10, 0x7c00u},
    {ScalarType::BF16, "bf16", 16, 7, 0x7f80u},
};

const Fmt *fmtOf(ScalarType t) {
  for (const Fmt &f : kFmts)
    if (f.type == t)
      return &f;
  return nullptr;
}

std::string hex64(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016" PRIX64, v);
  return buf;
}

std::string hexAddr(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#" PRIx64, v);
  return buf;
}

/// Same rule as HostConvert.cpp: pairs whose target range does not hold
/// every source value.
bool canLoseRange(ScalarType from, ScalarType to) {
  using S = ScalarType;
  return (from == S::F64 && to != S::F64) ||
         (from == S::F32 && (to == S::F16 || to == S::BF16)) ||
         (from == S::BF16 && to == S::F16);
}

/// The bf16 RNE of the f32 bits in `x` into `d` (x is not a NaN).
std::string bf16Rne(const char *x, const char *d) {
  std::ostringstream o;
  o << "\tshr.u32 %r13, " << x << ", 16;\n"
    << "\tand.b32 %r13, %r13, 1;\n"
    << "\tadd.u32 %r13, %r13, 32767;\n"
    << "\tadd.u32 %r13, " << x << ", %r13;\n"
    << "\tshr.u32 " << d << ", %r13, 16;\n";
  return o.str();
}

/// The non-NaN conversion: source bits in %rd20 (f64) or %r10 (others, a
/// 16-bit source zero-extended, also in %h1), result bits into %rd21 (f64)
/// or %r11 (others, 16-bit results zero-extended).
std::string convertSnippet(const Fmt &s, const Fmt &d) {
  using S = ScalarType;
  std::ostringstream o;
  // The source as a float register: %fd1 (f64) or %f1 (f32 value).
  switch (s.type) {
  case S::F64:
    o << "\tmov.b64 %fd1, %rd20;\n";
    break;
  case S::F32:
    o << "\tmov.b32 %f1, %r10;\n";
    break;
  case S::F16:
    if (d.type != S::F64) // f16 -> f64 converts directly
      o << "\tcvt.f32.f16 %f1, %h1;\n";
    break;
  case S::BF16:
    o << "\tshl.b32 %r12, %r10, 16;\n\tmov.b32 %f1, %r12;\n";
    break;
  default:
    break;
  }
  switch (d.type) {
  case S::F64:
    if (s.type == S::F16)
      o << "\tcvt.f64.f16 %fd1, %h1;\n";
    else
      o << "\tcvt.f64.f32 %fd1, %f1;\n";
    o << "\tmov.b64 %rd21, %fd1;\n";
    break;
  case S::F32:
    if (s.type == S::F64)
      o << "\tcvt.rn.f32.f64 %f1, %fd1;\n";
    o << "\tmov.b32 %r11, %f1;\n";
    break;
  case S::F16:
    if (s.type == S::F64)
      o << "\tcvt.rn.f16.f64 %h2, %fd1;\n";
    else
      o << "\tcvt.rn.f16.f32 %h2, %f1;\n";
    o << "\tcvt.u32.u16 %r11, %h2;\n";
    break;
  case S::BF16:
    if (s.type == S::F64) {
      // Round to odd into f32: truncate, then make the last bit odd when
      // the truncation lost anything.
      o << "\tcvt.rz.f32.f64 %f1, %fd1;\n"
        << "\tcvt.f64.f32 %fd2, %f1;\n"
        << "\tsetp.neu.f64 %p4, %fd2, %fd1;\n"
        << "\tmov.b32 %r12, %f1;\n"
        << "\t@%p4 or.b32 %r12, %r12, 1;\n"
        << bf16Rne("%r12", "%r11");
    } else if (s.type == S::F32) {
      o << bf16Rne("%r10", "%r11");
    } else {
      o << "\tmov.b32 %r12, %f1;\n" << bf16Rne("%r12", "%r11");
    }
    break;
  default:
    break;
  }
  return o.str();
}

/// One kernel.
std::string kernelPtx(const Fmt &s, const Fmt &d) {
  const std::string name =
      std::string("approx_cvt_") + s.name + "_" + d.name;
  const int sBytes = s.bits / 8, dBytes = d.bits / 8;
  const int sShift = sBytes == 8 ? 3 : sBytes == 4 ? 2 : 1;
  const int dShift = dBytes == 8 ? 3 : dBytes == 4 ? 2 : 1;
  const uint64_t sAbs = s.bits == 64 ? ~(uint64_t(1) << 63)
                                     : (uint64_t(1) << (s.bits - 1)) - 1;
  const uint64_t dAbs = d.bits == 64 ? ~(uint64_t(1) << 63)
                                     : (uint64_t(1) << (d.bits - 1)) - 1;
  const uint64_t sFrac = (uint64_t(1) << s.frac) - 1;
  const uint64_t dNanBase = d.inf | (uint64_t(1) << (d.frac - 1));

  std::ostringstream o;
  o << "\n// " << s.name << " -> " << d.name << "\n"
    << ".visible .entry " << name << "(\n"
    << "\t.param .u64 " << name << "_src,\n"
    << "\t.param .u64 " << name << "_dst,\n"
    << "\t.param .u64 " << name << "_n,\n"
    << "\t.param .u64 " << name << "_counters\n"
    << ")\n{\n"
    << "\t.reg .pred %p<8>;\n"
    << "\t.reg .b16 %h<4>;\n"
    << "\t.reg .b32 %r<24>;\n"
    << "\t.reg .b64 %rd<32>;\n"
    << "\t.reg .f32 %f<4>;\n"
    << "\t.reg .f64 %fd<4>;\n\n"
    << "\tld.param.u64 %rd1, [" << name << "_src];\n"
    << "\tld.param.u64 %rd2, [" << name << "_dst];\n"
    << "\tld.param.u64 %rd3, [" << name << "_n];\n"
    << "\tld.param.u64 %rd4, [" << name << "_counters];\n"
    << "\tcvta.to.global.u64 %rd1, %rd1;\n"
    << "\tcvta.to.global.u64 %rd2, %rd2;\n"
    // i = ctaid * ntid + tid; stride = nctaid * ntid.
    << "\tmov.u32 %r1, %ctaid.x;\n"
    << "\tmov.u32 %r2, %ntid.x;\n"
    << "\tmov.u32 %r3, %tid.x;\n"
    << "\tmov.u32 %r4, %nctaid.x;\n"
    << "\tmul.wide.u32 %rd5, %r1, %r2;\n"
    << "\tcvt.u64.u32 %rd6, %r3;\n"
    << "\tadd.u64 %rd5, %rd5, %rd6;\n"
    << "\tmul.wide.u32 %rd7, %r4, %r2;\n"
    << "\tmov.u64 %rd10, 0;\n"  // overflowed
    << "\tmov.u64 %rd11, 0;\n"  // underflowedToZero
    << "\tmov.u64 %rd12, 0;\n"  // nans
    << "\tsetp.ge.u64 %p1, %rd5, %rd3;\n"
    << "\t@%p1 bra $DONE;\n"
    << "$LOOP:\n"
    << "\tshl.b64 %rd8, %rd5, " << sShift << ";\n"
    << "\tadd.u64 %rd8, %rd8, %rd1;\n"
    << "\tshl.b64 %rd9, %rd5, " << dShift << ";\n"
    << "\tadd.u64 %rd9, %rd9, %rd2;\n";
  // Load; the source bits as u64 in %rd23 for the NaN path and counts.
  if (s.bits == 64) {
    o << "\tld.global.u64 %rd20, [%rd8];\n"
      << "\tmov.b64 %rd23, %rd20;\n";
  } else {
    if (s.bits == 32)
      o << "\tld.global.u32 %r10, [%rd8];\n";
    else
      o << "\tld.global.u16 %h1, [%rd8];\n"
        << "\tcvt.u32.u16 %r10, %h1;\n";
    o << "\tcvt.u64.u32 %rd23, %r10;\n";
  }
  o << convertSnippet(s, d);
  // NaN result: sign | inf | quiet | fraction aligned at the top.
  o << "\tand.b64 %rd24, %rd23, " << hex64(sAbs) << ";\n"
    << "\tsetp.gt.u64 %p5, %rd24, " << hex64(s.inf) << ";\n"
    << "\tshr.u64 %rd25, %rd23, " << (s.bits - 1) << ";\n"
    << "\tshl.b64 %rd25, %rd25, " << (d.bits - 1) << ";\n"
    << "\tand.b64 %rd26, %rd23, " << hex64(sFrac) << ";\n";
  if (s.frac > d.frac)
    o << "\tshr.u64 %rd26, %rd26, " << (s.frac - d.frac) << ";\n";
  else if (d.frac > s.frac)
    o << "\tshl.b64 %rd26, %rd26, " << (d.frac - s.frac) << ";\n";
  o << "\tor.b64 %rd26, %rd26, %rd25;\n"
    << "\tor.b64 %rd26, %rd26, " << hex64(dNanBase) << ";\n";
  if (d.bits == 64) {
    o << "\tselp.b64 %rd21, %rd26, %rd21, %p5;\n"
      << "\tmov.b64 %rd27, %rd21;\n";
  } else {
    o << "\tcvt.u32.u64 %r14, %rd26;\n"
      << "\tselp.b32 %r11, %r14, %r11, %p5;\n"
      << "\tcvt.u64.u32 %rd27, %r11;\n";
  }
  // Counts.
  o << "\t@%p5 add.u64 %rd12, %rd12, 1;\n";
  if (canLoseRange(s.type, d.type)) {
    o << "\tand.b64 %rd28, %rd27, " << hex64(dAbs) << ";\n"
      << "\tsetp.eq.u64 %p6, %rd28, " << hex64(d.inf) << ";\n"
      << "\tsetp.ne.and.u64 %p6, %rd24, " << hex64(s.inf) << ", %p6;\n"
      << "\t@%p6 add.u64 %rd10, %rd10, 1;\n"
      << "\tsetp.eq.u64 %p7, %rd28, 0;\n"
      << "\tsetp.ne.and.u64 %p7, %rd24, 0, %p7;\n"
      << "\t@%p7 add.u64 %rd11, %rd11, 1;\n";
  }
  // Store.
  if (d.bits == 64)
    o << "\tst.global.u64 [%rd9], %rd21;\n";
  else if (d.bits == 32)
    o << "\tst.global.u32 [%rd9], %r11;\n";
  else
    o << "\tcvt.u16.u32 %h3, %r11;\n"
      << "\tst.global.u16 [%rd9], %h3;\n";
  o << "\tadd.u64 %rd5, %rd5, %rd7;\n"
    << "\tsetp.lt.u64 %p1, %rd5, %rd3;\n"
    << "\t@%p1 bra $LOOP;\n"
    << "$DONE:\n"
    // No counter block: done (uniform over the launch).
    << "\tsetp.eq.u64 %p1, %rd4, 0;\n"
    << "\t@%p1 bra.uni $END;\n";
  // Warp sums: every lane of every (full: blocks are multiples of 32
  // threads) warp gets here.
  for (int c = 10; c <= 12; ++c)
    for (int off = 16; off >= 1; off /= 2)
      o << "\tmov.b64 {%r20, %r21}, %rd" << c << ";\n"
        << "\tshfl.sync.down.b32 %r22, %r20, " << off << ", 31, -1;\n"
        << "\tshfl.sync.down.b32 %r23, %r21, " << off << ", 31, -1;\n"
        << "\tmov.b64 %rd13, {%r22, %r23};\n"
        << "\tadd.u64 %rd" << c << ", %rd" << c << ", %rd13;\n";
  o << "\tmov.u32 %r5, %laneid;\n"
    << "\tsetp.ne.u32 %p1, %r5, 0;\n"
    << "\t@%p1 bra $END;\n"
    << "\tcvta.to.global.u64 %rd4, %rd4;\n";
  for (int c = 10; c <= 12; ++c)
    o << "\tsetp.ne.u64 %p2, %rd" << c << ", 0;\n"
      << "\t@%p2 red.global.add.u64 [%rd4+" << (c - 10) * 8 << "], %rd" << c
      << ";\n";
  o << "$END:\n"
    << "\tret;\n"
    << "}\n";
  return o.str();
}

std::string buildPtx() {
  std::ostringstream o;
  o << "//\n// approx runtime: f64/f32/f16/bf16 conversion kernels, generated "
       "by runtime/precision/DeviceConvert.cpp\n//\n"
    << ".version 7.0\n"
    << ".target sm_75\n"
    << ".address_size 64\n";
  for (const Fmt &s : kFmts)
    for (const Fmt &d : kFmts)
      if (s.type != d.type)
        o << kernelPtx(s, d);
  return o.str();
}

/// The manifest of the module: each kernel takes (ptr src, ptr dst, i64 n,
/// ptr counters), passed as `pointer` arguments and one scalar.
Expected<Manifest> buildManifest() {
  using json = nlohmann::json;
  auto ptrArg = [](int i) {
    return json{{"kind", "pointer"},  {"address_space", 1},
                {"first_param", i},   {"num_params", 1}};
  };
  auto param = [](int i, const char *type) {
    return json{{"arg", i}, {"field", "value"}, {"type", type}, {"size", 8}};
  };
  json kernels = json::array();
  for (const Fmt &s : kFmts)
    for (const Fmt &d : kFmts)
      if (s.type != d.type)
        kernels.push_back(
            {{"name", deviceConvertKernelName(s.type, d.type)},
             {"knobs", json::array()},
             {"args",
              {ptrArg(0), ptrArg(1),
               {{"kind", "scalar"},
                {"type", "i64"},
                {"first_param", 2},
                {"num_params", 1}},
               ptrArg(3)}},
             {"params",
              {param(0, "ptr"), param(1, "ptr"), param(2, "i64"),
               param(3, "ptr")}}});
  json m = {{"format", "approx-manifest"},
            {"version", kManifestVersion},
            {"producer", "approx runtime (precision/DeviceConvert.cpp)"},
            {"module", "approx_convert"},
            // Loaded from memory (deviceConvertPtx()); the name is nominal.
            {"ptx", "approx_convert.ptx"},
            {"kernels", kernels}};
  return parseManifest(m.dump());
}

} // namespace

const std::string &deviceConvertPtx() {
  static const std::string ptx = buildPtx();
  return ptx;
}

std::string deviceConvertKernelName(ScalarType from, ScalarType to) {
  const Fmt *s = fmtOf(from), *d = fmtOf(to);
  if (!s || !d || s == d)
    return "";
  return std::string("approx_cvt_") + s->name + "_" + d->name;
}

Expected<std::shared_ptr<DeviceConverter>>
DeviceConverter::create(std::shared_ptr<Context> ctx) {
  if (!ctx)
    return invalidArgument("DeviceConverter: null context");
  APPROX_ASSIGN_OR_RETURN(Manifest m, buildManifest());
  Expected<std::unique_ptr<Module>> mod =
      Module::loadFromMemory(ctx, std::move(m), deviceConvertPtx());
  if (!mod)
    return mod.status().withContext("loading the conversion kernels");
  std::shared_ptr<DeviceConverter> c(new DeviceConverter());
  c->ctx_ = std::move(ctx);
  c->module_ = mod.take();
  return c;
}

Expected<std::shared_ptr<DeviceConverter>>
DeviceConverter::forContext(const std::shared_ptr<Context> &ctx) {
  if (!ctx)
    return invalidArgument("DeviceConverter: null context");
  // A live converter holds its Context, so the address is not reused while
  // the entry can be locked.
  static std::mutex mutex;
  static std::map<const Context *, std::weak_ptr<DeviceConverter>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  for (auto it = cache.begin(); it != cache.end();)
    it = it->second.expired() ? cache.erase(it) : std::next(it);
  auto it = cache.find(ctx.get());
  if (it != cache.end())
    if (std::shared_ptr<DeviceConverter> c = it->second.lock())
      if (c->ctx_ == ctx)
        return c;
  APPROX_ASSIGN_OR_RETURN(std::shared_ptr<DeviceConverter> c, create(ctx));
  cache[ctx.get()] = c;
  return c;
}

unsigned DeviceConverter::gridFor(size_t n) const {
  const size_t blocks = (n + kDeviceConvertBlock - 1) / kDeviceConvertBlock;
  const size_t cap = size_t(std::max(1, ctx_->device().smCount)) * 8;
  return unsigned(std::max<size_t>(1, std::min(blocks, cap)));
}

Status DeviceConverter::enqueue(uint64_t src, ScalarType from, uint64_t dst,
                                ScalarType to, size_t n, const Stream *stream,
                                uint64_t counters) const {
  const Fmt *s = fmtOf(from), *d = fmtOf(to);
  if (!s)
    return invalidArgument("device convert: source type " +
                           std::string(scalarTypeName(from)) +
                           " is not a precision (f64, f32, f16, bf16)");
  if (!d)
    return invalidArgument("device convert: destination type " +
                           std::string(scalarTypeName(to)) +
                           " is not a precision (f64, f32, f16, bf16)");
  if (s == d)
    return invalidArgument(std::string("device convert: source and "
                                       "destination are both ") +
                           s->name + " (a copy, not a conversion)");
  if (n == 0)
    return Status::ok();
  const std::string count = std::to_string(n);
  if (!src)
    return invalidArgument("device convert: null source address for " +
                           count + " elements");
  if (!dst)
    return invalidArgument("device convert: null destination address for " +
                           count + " elements");
  if (n > uint64_t(std::numeric_limits<int64_t>::max()) / 8)
    return invalidArgument("device convert: " + count +
                           " elements overflow the kernels' 64-bit offsets");
  const uint64_t sBytes = uint64_t(n) * (s->bits / 8);
  const uint64_t dBytes = uint64_t(n) * (d->bits / 8);
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  if (src > kMax - sBytes)
    return invalidArgument("device convert: " + std::to_string(sBytes) +
                           " source bytes at " + hexAddr(src) +
                           " wrap around the address space");
  if (dst > kMax - dBytes)
    return invalidArgument("device convert: " + std::to_string(dBytes) +
                           " destination bytes at " + hexAddr(dst) +
                           " wrap around the address space");
  if (src % (s->bits / 8))
    return invalidArgument("device convert: source address " + hexAddr(src) +
                           " is not aligned to " +
                           std::to_string(s->bits / 8) + " bytes (" +
                           s->name + ")");
  if (dst % (d->bits / 8))
    return invalidArgument("device convert: destination address " +
                           hexAddr(dst) + " is not aligned to " +
                           std::to_string(d->bits / 8) + " bytes (" +
                           d->name + ")");
  if (counters % 8)
    return invalidArgument("device convert: counter block address " +
                           hexAddr(counters) + " is not aligned to 8 bytes");
  if (src < dst + dBytes && dst < src + sBytes)
    return invalidArgument("device convert: source (" +
                           std::to_string(sBytes) + " bytes at " +
                           hexAddr(src) + ") and destination (" +
                           std::to_string(dBytes) + " bytes at " +
                           hexAddr(dst) + ") overlap");
  LaunchConfig cfg;
  cfg.grid.x = gridFor(n);
  cfg.block.x = kDeviceConvertBlock;
  LaunchOptions lo;
  lo.stream = stream;
  return module_->launch(deviceConvertKernelName(from, to), cfg,
                         {Arg::pointer(src), Arg::pointer(dst),
                          Arg::integer(int64_t(n)), Arg::pointer(counters)},
                         lo);
}

void DeviceConverter::addCounters(const uint64_t counters[3],
                                  ConvertStats &stats) {
  stats.overflowed += counters[0];
  stats.underflowedToZero += counters[1];
  stats.nans += counters[2];
}

Status DeviceConverter::convert(uint64_t src, ScalarType from, uint64_t dst,
                                ScalarType to, size_t n,
                                ConvertStats *stats) {
  if (stats)
    *stats = ConvertStats();
  std::lock_guard<std::mutex> lock(mutex_);
  const Driver *drv = detail::driverOf(*ctx_);
  uint64_t counters = 0;
  if (stats && n > 0) {
    if (counters_.empty()) {
      APPROX_ASSIGN_OR_RETURN(
          counters_, DeviceBuffer::allocate(ctx_, kDeviceCounterBytes,
                                            ScalarType::I64));
    }
    APPROX_RETURN_IF_ERROR(counters_.fillBytes(0));
    counters = counters_.devicePtr();
  }
  APPROX_RETURN_IF_ERROR(enqueue(src, from, dst, to, n, nullptr, counters));
  if (n == 0)
    return Status::ok();
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(drv, cuStreamSynchronize, nullptr);
  if (stats) {
    uint64_t c[3] = {0, 0, 0};
    APPROX_RETURN_IF_ERROR(counters_.copyToHost(c, sizeof c));
    addCounters(c, *stats);
  }
  return Status::ok();
}

} // namespace approx::rt::precision
