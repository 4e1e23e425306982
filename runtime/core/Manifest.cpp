//===- Manifest.cpp - Parse and validate NAME.manifest.json (v2) ----------===//
//
// Read with core/Json.h, which confines the exceptions: every JSON error or
// schema violation becomes a one-line ParseError naming the JSON path at
// fault ("manifest: kernels[0].params[3].size: 4 does not match type i64 (8
// bytes)"). Strings taken from the file are escaped before they reach a
// message. Parsing runs in three passes: knobs, then kernels (which name
// knobs), then sites and the cross references among all three.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Manifest.h"

#include "approx/runtime/core/Base64.h"
#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Json.h"
#include "approx/runtime/core/Text.h"

#include "approx/Common/PtxIdentifier.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <set>

namespace approx::rt {

using json = nlohmann::json;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static const std::pair<const char *, ScalarType> kScalarTypes[] = {
    {"i1", ScalarType::I1},       {"i8", ScalarType::I8},
    {"i16", ScalarType::I16},     {"i32", ScalarType::I32},
    {"i64", ScalarType::I64},     {"index", ScalarType::Index},
    {"f16", ScalarType::F16},     {"bf16", ScalarType::BF16},
    {"f32", ScalarType::F32},     {"f64", ScalarType::F64},
    {"ptr", ScalarType::Ptr}};

Expected<ScalarType> parseScalarType(const std::string &name) {
  for (auto &[n, t] : kScalarTypes)
    if (name == n)
      return t;
  return parseError("unknown type " + quote(name));
}

const char *scalarTypeName(ScalarType t) {
  for (auto &[n, tt] : kScalarTypes)
    if (tt == t)
      return n;
  return "?";
}

size_t scalarTypeSize(ScalarType t) {
  switch (t) {
  case ScalarType::I1:
  case ScalarType::I8:
    return 1;
  case ScalarType::I16:
  case ScalarType::F16:
  case ScalarType::BF16:
    return 2;
  case ScalarType::I32:
  case ScalarType::F32:
    return 4;
  case ScalarType::I64:
  case ScalarType::Index:
  case ScalarType::F64:
  case ScalarType::Ptr:
    return 8;
  }
  return 0;
}

bool isFloatType(ScalarType t) {
  return t == ScalarType::F16 || t == ScalarType::BF16 ||
         t == ScalarType::F32 || t == ScalarType::F64;
}

bool isIntegerType(ScalarType t) {
  return t == ScalarType::I1 || t == ScalarType::I8 || t == ScalarType::I16 ||
         t == ScalarType::I32 || t == ScalarType::I64 ||
         t == ScalarType::Index;
}

ValueType ValueType::vector(ScalarType elem, std::vector<int64_t> shape) {
  ValueType v(elem);
  v.lanes = std::move(shape);
  return v;
}

uint64_t ValueType::laneCount() const {
  uint64_t n = 1;
  for (int64_t d : lanes)
    n *= uint64_t(d); // bounded by parseValueType
  return n;
}

uint64_t ValueType::size() const {
  return laneCount() * scalarTypeSize(scalar);
}

std::string ValueType::name() const {
  if (lanes.empty())
    return scalarTypeName(scalar);
  std::string s = "vector<";
  for (int64_t d : lanes)
    s += std::to_string(d) + "x";
  return s + scalarTypeName(scalar) + ">";
}

Expected<ValueType> parseValueType(const std::string &name) {
  static const std::string kPrefix = "vector<";
  if (name.compare(0, kPrefix.size(), kPrefix) != 0) {
    Expected<ScalarType> t = parseScalarType(name);
    if (!t)
      return t.status();
    return ValueType(*t);
  }
  if (name.back() != '>')
    return parseError("malformed vector type " + quote(name));
  std::string body = name.substr(kPrefix.size(),
                                 name.size() - kPrefix.size() - 1);
  ValueType v;
  size_t pos = 0;
  uint64_t lanes = 1;
  for (;;) {
    size_t x = body.find('x', pos);
    // The element type follows the last dimension; element names hold no
    // 'x', so a token that does not start with a digit is the element.
    if (pos >= body.size() || !(body[pos] >= '1' && body[pos] <= '9'))
      break;
    if (x == std::string::npos)
      return parseError("malformed vector type " + quote(name) +
                        ": no element type");
    std::string dim = body.substr(pos, x - pos);
    if (dim.size() > 5 || dim.find_first_not_of("0123456789") !=
                              std::string::npos)
      return parseError("malformed vector type " + quote(name) +
                        ": bad dimension " + quote(dim));
    int64_t d = std::strtoll(dim.c_str(), nullptr, 10);
    if (d < 1 || d > 65536)
      return parseError("vector type " + quote(name) + ": dimension " +
                        dim + " is out of range [1, 65536]");
    lanes *= uint64_t(d);
    if (lanes > kMaxParamBytes)
      return parseError("vector type " + quote(name) + " is larger than " +
                        std::to_string(kMaxParamBytes) + " bytes");
    v.lanes.push_back(d);
    pos = x + 1;
  }
  if (v.lanes.empty())
    return parseError("malformed vector type " + quote(name) +
                      ": no dimensions");
  Expected<ScalarType> elem = parseScalarType(body.substr(pos));
  if (!elem)
    return parseError("vector type " + quote(name) + ": " +
                      elem.status().message());
  if (*elem == ScalarType::Ptr)
    return parseError("vector type " + quote(name) +
                      ": vectors of ptr are not supported");
  v.scalar = *elem;
  if (v.size() > kMaxParamBytes)
    return parseError("vector type " + quote(name) + " is larger than " +
                      std::to_string(kMaxParamBytes) + " bytes");
  return v;
}

const char *knobKindName(KnobKind k) {
  switch (k) {
  case KnobKind::Global:
    return "global";
  case KnobKind::Variant:
    return "variant";
  case KnobKind::Resource:
    return "resource";
  }
  return "?";
}

const char *knobPathName(KnobPath p) {
  return p == KnobPath::Global ? "global" : "param";
}

const char *warpSlotName(WarpSlot s) {
  switch (s) {
  case WarpSlot::None:
    return "";
  case WarpSlot::Hw:
    return "hw";
  case WarpSlot::Virtual:
    return "virtual";
  case WarpSlot::Software:
    return "software";
  }
  return "?";
}

const char *textureTypeName(TextureType t) {
  return t == TextureType::Texture2D ? "texture_2d" : "texture_3d";
}

const char *textureFilterName(TextureFilter f) {
  return f == TextureFilter::Point ? "point" : "linear";
}

const char *textureAddressName(TextureAddress a) {
  switch (a) {
  case TextureAddress::Clamp:
    return "clamp";
  case TextureAddress::Border:
    return "border";
  case TextureAddress::Wrap:
    return "wrap";
  case TextureAddress::Mirror:
    return "mirror";
  }
  return "?";
}

const char *accessName(ArgInfo::Access a) {
  switch (a) {
  case ArgInfo::Access::Read:
    return "read";
  case ArgInfo::Access::Write:
    return "write";
  case ArgInfo::Access::ReadWrite:
    return "readwrite";
  case ArgInfo::Access::None:
    return "none";
  }
  return "?";
}

bool KernelInfo::readsKnob(const std::string &knob) const {
  for (const std::string &k : knobs)
    if (k == knob)
      return true;
  return false;
}

const KernelInfo *Manifest::findKernel(const std::string &name) const {
  for (const KernelInfo &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

const KnobInfo *Manifest::findKnob(const std::string &name) const {
  for (const KnobInfo &k : knobs)
    if (k.name == name)
      return &k;
  return nullptr;
}

std::pair<const KnobInfo *, const VariantDispatch *>
Manifest::findDispatch(const std::string &name) const {
  for (const KnobInfo &k : knobs)
    for (const VariantDispatch &d : k.dispatch)
      if (d.kernel == name)
        return {&k, &d};
  return {nullptr, nullptr};
}

//===----------------------------------------------------------------------===//
// JSON access with paths (core/Json.h)
//===----------------------------------------------------------------------===//

namespace {

using jsonread::at;
using jsonread::fail;

/// The manifest's wording ("expected an integer", "missing required key"),
/// which its tests and users' scripts match; names reach C APIs, so no NUL
/// in strings.
constexpr jsonread::Reader reader(jsonread::Wording::Expected,
                                  jsonread::Nul::Refused);

/// A PTX identifier (kernel, knob and symbol names).
std::string asIdentifier(const json &v, const std::string &path) {
  std::string s = reader.asString(v, path);
  if (!isPtxIdentifier(s))
    fail(path, quote(s.size() > 80 ? s.substr(0, 80) + "..." : s) +
                   " is not a PTX identifier ([A-Za-z][A-Za-z0-9_$]* or "
                   "[_$%][A-Za-z0-9_$]+, at most " +
                   std::to_string(ptx::kMaxIdentifierLength) + " characters)");
  return s;
}

std::string getIdentifier(const json &obj, const std::string &path,
                          const char *key) {
  return asIdentifier(reader.member(obj, path, key), at(path, key));
}

ValueType getValueType(const json &obj, const std::string &path,
                       const char *key) {
  std::string name = reader.string(obj, path, key);
  Expected<ValueType> t = parseValueType(name);
  if (!t)
    fail(at(path, key), t.status().message());
  return *t;
}

/// The signed range of knob type `t` (i8..i64).
std::pair<int64_t, int64_t> signedRange(ScalarType t) {
  size_t bits = scalarTypeSize(t) * 8;
  if (bits >= 64)
    return {std::numeric_limits<int64_t>::min(),
            std::numeric_limits<int64_t>::max()};
  return {-(int64_t(1) << (bits - 1)), (int64_t(1) << (bits - 1)) - 1};
}

/// max - min + 1 without overflow (min <= max).
uint64_t valueCount(int64_t min, int64_t max) {
  return uint64_t(max) - uint64_t(min) + 1; // 0 only for the full int64 range
}

//===----------------------------------------------------------------------===//
// Knobs
//===----------------------------------------------------------------------===//

/// One TABLE of a resource of type `type`. A texture_3d table needs
/// `depth`; a texture_2d table may not have one (a stray `depth` would
/// otherwise be ignored and the data length blamed instead).
TextureTable parseTable(const json &j, const std::string &path,
                        TextureType type) {
  TextureTable t;
  const bool is3d = type == TextureType::Texture3D;
  const int64_t maxExtent = is3d ? kMaxTexture3DExtent : kMaxTextureExtent;
  t.width = uint32_t(reader.integer(j, path, "width", 1, maxExtent));
  t.height = uint32_t(reader.integer(j, path, "height", 1, maxExtent));
  if (is3d) {
    if (!reader.find(j, path, "depth"))
      fail(path, "missing required key 'depth' (a \"texture_3d\" table has "
                 "width, height and depth)");
    t.depth =
        uint32_t(reader.integer(j, path, "depth", 1, kMaxTexture3DExtent));
  } else if (reader.find(j, path, "depth")) {
    fail(at(path, "depth"), "is only for \"texture_3d\" tables; this "
                            "resource is \"texture_2d\"");
  }
  int64_t channels = reader.integer(j, path, "channels", 1, 4);
  if (channels == 3)
    fail(at(path, "channels"), "3 is not supported (1, 2 or 4)");
  t.channels = uint32_t(channels);
  std::string element = reader.string(j, path, "element");
  if (element != "f32")
    fail(at(path, "element"), "is " + quote(element) + ", expected \"f32\"");
  std::string text = reader.string(j, path, "data");
  // <= 2^16 * 2^16 * 16 (2-D) or 2^14 * 2^14 * 2^14 * 16 (3-D): no overflow.
  uint64_t want = t.bytes();
  Expected<uint64_t> size = base64DecodedSize(text);
  if (!size)
    fail(at(path, "data"), size.status().message());
  if (*size != want)
    fail(at(path, "data"),
         "decodes to " + std::to_string(*size) + " bytes; " +
             std::to_string(t.width) + " x " + std::to_string(t.height) +
             (is3d ? " x " + std::to_string(t.depth) : std::string()) + " x " +
             std::to_string(t.channels) + " f32 need " + std::to_string(want));
  Expected<std::vector<uint8_t>> bytes = decodeBase64(text);
  if (!bytes)
    fail(at(path, "data"), bytes.status().message());
  auto floats = std::make_shared<std::vector<float>>(size_t(want / 4));
  const uint8_t *p = bytes->data();
  for (size_t i = 0; i < floats->size(); ++i, p += 4) {
    uint32_t bits = uint32_t(p[0]) | uint32_t(p[1]) << 8 |
                    uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    std::memcpy(&(*floats)[i], &bits, 4); // little-endian by definition
  }
  t.data = std::move(floats);
  return t;
}

KnobInfo parseKnob(const json &j, const std::string &path) {
  KnobInfo k;
  k.name = getIdentifier(j, path, "name");
  k.kind = reader.choice<KnobKind>(j, path, "kind",
                                   {{"global", KnobKind::Global},
                                    {"variant", KnobKind::Variant},
                                    {"resource", KnobKind::Resource}});
  k.min = reader.integer(j, path, "min");
  k.max = reader.integer(j, path, "max");
  if (k.min > k.max)
    fail(path, "min " + std::to_string(k.min) + " > max " +
                   std::to_string(k.max));
  k.defaultValue = reader.integer(j, path, "default", k.min, k.max);

  if (k.hasSymbol()) {
    k.symbol = getIdentifier(j, path, "symbol");
    std::string type = reader.string(j, path, "type");
    Expected<ScalarType> t = parseScalarType(type);
    if (!t)
      fail(at(path, "type"), t.status().message());
    k.type = *t;
    if (k.kind == KnobKind::Resource && k.type != ScalarType::I64)
      fail(at(path, "type"), "is " + quote(type) +
                                 "; a resource knob carries a 64-bit handle "
                                 "(\"i64\")");
    if (k.type != ScalarType::I8 && k.type != ScalarType::I16 &&
        k.type != ScalarType::I32 && k.type != ScalarType::I64)
      fail(at(path, "type"),
           "is " + quote(type) + ", expected \"i8\", \"i16\", \"i32\" or "
                                  "\"i64\"");
    k.path = reader.choice<KnobPath>(
        j, path, "path",
        {{"global", KnobPath::Global}, {"param", KnobPath::Param}});
    // Resource knob values index the options; global values are written to
    // the symbol as `type`: either way they must fit it (no wrap).
    auto [lo, hi] = signedRange(k.type);
    for (const char *key : {"min", "max"})
      reader.asInteger(reader.member(j, path, key), at(path, key), lo, hi);
  }

  switch (k.kind) {
  case KnobKind::Global:
    if (reader.find(j, path, "warp_slot"))
      k.warpSlot = reader.choice<WarpSlot>(j, path, "warp_slot",
                                           {{"hw", WarpSlot::Hw},
                                            {"virtual", WarpSlot::Virtual},
                                            {"software", WarpSlot::Software}});
    break;
  case KnobKind::Variant: {
    const json &dispatch = reader.array(j, path, "dispatch");
    std::string dpath = at(path, "dispatch");
    if (dispatch.empty())
      fail(dpath, "a variant knob needs at least one dispatch entry");
    uint64_t count = valueCount(k.min, k.max);
    for (size_t i = 0; i < dispatch.size(); ++i) {
      std::string epath = at(dpath, i);
      VariantDispatch d;
      d.kernel = getIdentifier(dispatch[i], epath, "kernel");
      const json &variants = reader.array(dispatch[i], epath, "variants");
      std::string vpath = at(epath, "variants");
      if (variants.size() != count || count == 0)
        fail(vpath, "has " + std::to_string(variants.size()) +
                        " variants; the knob's range [" +
                        std::to_string(k.min) + ", " + std::to_string(k.max) +
                        "] needs max - min + 1 of them");
      for (size_t v = 0; v < variants.size(); ++v)
        d.variants.push_back(asIdentifier(variants[v], at(vpath, v)));
      k.dispatch.push_back(std::move(d));
    }
    break;
  }
  case KnobKind::Resource: {
    const json &r = reader.member(j, path, "resource");
    std::string rpath = at(path, "resource");
    std::string type = reader.string(r, rpath, "type");
    ResourceInfo &res = k.resource;
    if (type == "texture_2d")
      res.type = TextureType::Texture2D;
    else if (type == "texture_3d")
      res.type = TextureType::Texture3D;
    else
      fail(at(rpath, "type"), "is " + quote(type) +
                                  ", expected \"texture_2d\" or "
                                  "\"texture_3d\"");
    res.filter = reader.choice<TextureFilter>(
        r, rpath, "filter",
        {{"point", TextureFilter::Point}, {"linear", TextureFilter::Linear}});
    res.address =
        reader.choice<TextureAddress>(r, rpath, "address",
                                      {{"clamp", TextureAddress::Clamp},
                                       {"border", TextureAddress::Border},
                                       {"wrap", TextureAddress::Wrap},
                                       {"mirror", TextureAddress::Mirror}});
    res.normalizedCoords = reader.boolean(r, rpath, "normalized_coords");
    // CUDA supports wrap and mirror only with normalized coordinates.
    if (!res.normalizedCoords && (res.address == TextureAddress::Wrap ||
                                  res.address == TextureAddress::Mirror))
      fail(at(rpath, "address"),
           std::string("\"") + textureAddressName(res.address) +
               "\" needs \"normalized_coords\": true (CUDA supports wrap "
               "and mirror addressing with normalized coordinates only)");
    const json &options = reader.array(r, rpath, "options");
    std::string opath = at(rpath, "options");
    uint64_t count = valueCount(k.min, k.max);
    if (options.size() != count || count == 0)
      fail(opath, "has " + std::to_string(options.size()) +
                      " tables; the knob's range [" + std::to_string(k.min) +
                      ", " + std::to_string(k.max) +
                      "] needs max - min + 1 of them");
    for (size_t i = 0; i < options.size(); ++i)
      res.options.push_back(parseTable(options[i], at(opath, i), res.type));
    break;
  }
  }
  return k;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

ArgInfo parseArg(const json &j, const std::string &path, size_t numParams) {
  ArgInfo a;
  a.kind = reader.choice<ArgInfo::Kind>(j, path, "kind",
                                        {{"memref", ArgInfo::Kind::Memref},
                                         {"scalar", ArgInfo::Kind::Scalar},
                                         {"pointer", ArgInfo::Kind::Pointer}});
  size_t expect = 1;
  switch (a.kind) {
  case ArgInfo::Kind::Memref: {
    a.type = getValueType(j, path, "element");
    if (a.type == ValueType(ScalarType::Ptr))
      fail(at(path, "element"), "memrefs of ptr are not supported");
    a.rank = reader.integer(j, path, "rank", 0, kMaxMemrefRank);
    const json &shape = reader.array(j, path, "shape");
    if (int64_t(shape.size()) != a.rank)
      fail(at(path, "shape"), "has " + std::to_string(shape.size()) +
                                  " entries for rank " +
                                  std::to_string(a.rank));
    for (size_t i = 0; i < shape.size(); ++i)
      a.shape.push_back(reader.asInteger(shape[i], at(at(path, "shape"), i), -1,
                                         std::numeric_limits<int64_t>::max()));
    a.abi =
        reader.choice<ArgInfo::Abi>(j, path, "abi",
                                    {{"descriptor", ArgInfo::Abi::Descriptor},
                                     {"bare", ArgInfo::Abi::Bare}});
    if (a.abi == ArgInfo::Abi::Bare)
      for (size_t i = 0; i < a.shape.size(); ++i)
        if (a.shape[i] < 0)
          fail(at(at(path, "shape"), i),
               "is dynamic (-1); abi \"bare\" needs a static shape");
    a.access = reader.choice<ArgInfo::Access>(
        j, path, "access",
        {{"read", ArgInfo::Access::Read},
         {"write", ArgInfo::Access::Write},
         {"readwrite", ArgInfo::Access::ReadWrite},
         {"none", ArgInfo::Access::None}});
    expect = a.abi == ArgInfo::Abi::Bare ? 1 : size_t(3 + 2 * a.rank);
    break;
  }
  case ArgInfo::Kind::Scalar:
    a.type = getValueType(j, path, "type");
    if (a.type == ValueType(ScalarType::Ptr))
      fail(at(path, "type"),
           "a ptr value is an argument of kind \"pointer\", not \"scalar\"");
    break;
  case ArgInfo::Kind::Pointer:
    a.type = ScalarType::Ptr;
    a.addressSpace =
        uint32_t(reader.integer(j, path, "address_space", 0, kMaxAddressSpace));
    break;
  }
  a.firstParam =
      size_t(reader.integer(j, path, "first_param", 0, int64_t(numParams)));
  a.numParams =
      size_t(reader.integer(j, path, "num_params", 0, int64_t(numParams)));
  if (a.numParams != expect)
    fail(at(path, "num_params"), "is " + std::to_string(a.numParams) +
                                     ", expected " + std::to_string(expect));
  return a;
}

ParamInfo parseParam(const json &j, const std::string &path, size_t numArgs) {
  ParamInfo p;
  if (const json *arg = reader.find(j, path, "arg"))
    p.arg = size_t(reader.asInteger(*arg, at(path, "arg"), 0,
                                    int64_t(numArgs == 0 ? 0 : numArgs - 1)));
  p.field = reader.string(j, path, "field");
  p.type = getValueType(j, path, "type");
  p.size = size_t(reader.integer(j, path, "size", 1, int64_t(kMaxParamBytes)));
  if (p.size != p.type.size())
    fail(at(path, "size"), std::to_string(p.size) + " does not match type " +
                               p.type.name() + " (" +
                               std::to_string(p.type.size()) + " bytes)");
  if (p.field == "knob") {
    if (p.arg)
      fail(path, "a knob parameter belongs to no argument (has \"arg\")");
    p.knob = getIdentifier(j, path, "knob");
  } else {
    if (!p.arg)
      fail(path, "missing required key 'arg' (only \"field\": \"knob\" "
                 "parameters have none)");
    if (numArgs == 0)
      fail(at(path, "arg"), "the kernel has no arguments");
    if (reader.find(j, path, "knob"))
      fail(at(path, "knob"), "only \"field\": \"knob\" parameters name a "
                             "knob");
  }
  return p;
}

/// Checks that the params of argument `argIdx` are its ABI, in order.
void checkArgParams(const KernelInfo &k, size_t argIdx,
                    const std::string &kpath) {
  const ArgInfo &a = k.args[argIdx];
  if (a.firstParam + a.numParams > k.params.size())
    fail(at(at(kpath, "args"), argIdx),
         "params [" + std::to_string(a.firstParam) + ", " +
             std::to_string(a.firstParam + a.numParams) + ") run past the " +
             std::to_string(k.params.size()) + " params of the kernel");
  for (size_t i = 0; i < a.numParams; ++i) {
    size_t pi = a.firstParam + i;
    const ParamInfo &p = k.params[pi];
    std::string ppath = at(at(kpath, "params"), pi);
    if (!p.arg || *p.arg != argIdx)
      fail(ppath, std::string(p.arg ? "belongs to arg " +
                                          std::to_string(*p.arg)
                                    : "is a knob parameter") +
                      " but lies in the range of arg " +
                      std::to_string(argIdx));
    std::string want;
    bool typeOk = false;
    std::string wantType;
    switch (a.kind) {
    case ArgInfo::Kind::Scalar:
      want = "value";
      wantType = a.type.name();
      typeOk = p.type == a.type ||
               // index and i64 are the same 8 bytes.
               ((a.type == ValueType(ScalarType::Index) ||
                 a.type == ValueType(ScalarType::I64)) &&
                (p.type == ValueType(ScalarType::Index) ||
                 p.type == ValueType(ScalarType::I64)));
      break;
    case ArgInfo::Kind::Pointer:
      want = "value";
      wantType = "ptr";
      typeOk = p.type == ValueType(ScalarType::Ptr);
      break;
    case ArgInfo::Kind::Memref:
      if (a.abi == ArgInfo::Abi::Bare || i < 2) {
        want = a.abi == ArgInfo::Abi::Bare ? "aligned"
               : i == 0                    ? "allocated"
                                           : "aligned";
        wantType = "ptr";
        typeOk = p.type == ValueType(ScalarType::Ptr);
      } else {
        if (i == 2)
          want = "offset";
        else if (i < size_t(3 + a.rank))
          want = "size" + std::to_string(i - 3);
        else
          want = "stride" + std::to_string(i - 3 - size_t(a.rank));
        wantType = "i64";
        typeOk = p.type == ValueType(ScalarType::I64) ||
                 p.type == ValueType(ScalarType::Index);
      }
      break;
    }
    if (p.field != want)
      fail(at(ppath, "field"), "is " + quote(p.field) + ", expected '" +
                                   want + "'");
    if (!typeOk)
      fail(at(ppath, "type"), "is " + p.type.name() + "; field '" + want +
                                  "' of arg " + std::to_string(argIdx) +
                                  " needs " + wantType);
  }
}

KernelInfo parseKernel(const json &j, const std::string &path,
                       const std::vector<KnobInfo> &knobs) {
  KernelInfo k;
  k.name = getIdentifier(j, path, "name");
  const json &kn = reader.optionalArray(j, path, "knobs");
  for (size_t i = 0; i < kn.size(); ++i) {
    std::string name = asIdentifier(kn[i], at(at(path, "knobs"), i));
    bool known = false;
    for (const KnobInfo &x : knobs)
      known |= x.name == name;
    if (!known)
      fail(at(at(path, "knobs"), i), "unknown knob " + quote(name));
    if (k.readsKnob(name))
      fail(at(at(path, "knobs"), i), "knob " + quote(name) +
                                         " is listed twice");
    k.knobs.push_back(name);
  }
  const json &sites = reader.optionalArray(j, path, "sites");
  std::set<size_t> seenSites;
  for (size_t i = 0; i < sites.size(); ++i) {
    // Checked against the number of sites once those are parsed.
    size_t s = size_t(reader.asInteger(sites[i], at(at(path, "sites"), i), 0,
                                       std::numeric_limits<int64_t>::max()));
    if (!seenSites.insert(s).second)
      fail(at(at(path, "sites"), i), "site " + std::to_string(s) +
                                         " is listed twice");
    k.sites.push_back(s);
  }
  const json &params = reader.array(j, path, "params");
  const json &args = reader.array(j, path, "args");
  for (size_t i = 0; i < args.size(); ++i)
    k.args.push_back(parseArg(args[i], at(at(path, "args"), i),
                              params.size()));
  for (size_t i = 0; i < params.size(); ++i)
    k.params.push_back(
        parseParam(params[i], at(at(path, "params"), i), k.args.size()));

  // Arguments tile a prefix of the params: in order, no gaps, no overlap.
  size_t next = 0;
  for (size_t i = 0; i < k.args.size(); ++i) {
    if (k.args[i].firstParam != next)
      fail(at(at(at(path, "args"), i), "first_param"),
           "is " + std::to_string(k.args[i].firstParam) + ", expected " +
               std::to_string(next));
    checkArgParams(k, i, path);
    next += k.args[i].numParams;
  }
  // After them only knob parameters, one per param-path knob the kernel
  // reads.
  std::set<std::string> knobParams;
  for (size_t i = next; i < k.params.size(); ++i) {
    const ParamInfo &p = k.params[i];
    std::string ppath = at(at(path, "params"), i);
    if (!p.isKnob())
      fail(ppath, "belongs to arg " + std::to_string(*p.arg) +
                      " but lies after the last argument's parameters "
                      "(only knob parameters may follow them)");
    const KnobInfo *knob = nullptr;
    for (const KnobInfo &x : knobs)
      if (x.name == p.knob)
        knob = &x;
    if (!knob)
      fail(at(ppath, "knob"), "unknown knob " + quote(p.knob));
    if (!knob->isParam())
      fail(at(ppath, "knob"),
           "knob " + quote(p.knob) + " is a " + knobKindName(knob->kind) +
               " knob" +
               (knob->hasSymbol() ? std::string(" with path \"") +
                                        knobPathName(knob->path) + "\""
                                  : std::string()) +
               "; only path \"param\" knobs have parameters");
    if (!k.readsKnob(p.knob))
      fail(at(ppath, "knob"), "knob " + quote(p.knob) +
                                  " is not in the kernel's \"knobs\"");
    if (p.type != ValueType(knob->type))
      fail(at(ppath, "type"), "is " + p.type.name() + "; knob " +
                                  quote(p.knob) + " has type " +
                                  scalarTypeName(knob->type));
    if (!knobParams.insert(p.knob).second)
      fail(at(ppath, "knob"), "knob " + quote(p.knob) +
                                  " has a second parameter");
  }
  for (const std::string &name : k.knobs)
    for (const KnobInfo &x : knobs)
      if (x.name == name && x.isParam() && !knobParams.count(name))
        fail(at(path, "params"), "no parameter for knob " + quote(name) +
                                     " (path \"param\": every kernel that "
                                     "reads it takes it as a trailing "
                                     "parameter)");
  return k;
}

//===----------------------------------------------------------------------===//
// Sites and the whole manifest
//===----------------------------------------------------------------------===//

SiteInfo parseSite(const json &j, const std::string &path,
                   const Manifest &m) {
  SiteInfo s;
  s.technique = reader.string(j, path, "technique");
  if (s.technique.empty())
    fail(at(path, "technique"), "is empty");
  s.function = reader.string(j, path, "function");
  const json &kernels = reader.array(j, path, "kernels");
  for (size_t i = 0; i < kernels.size(); ++i) {
    std::string name = asIdentifier(kernels[i], at(at(path, "kernels"), i));
    if (!m.findKernel(name))
      fail(at(at(path, "kernels"), i), "unknown kernel " + quote(name));
    for (const std::string &k : s.kernels)
      if (k == name)
        fail(at(at(path, "kernels"), i), "kernel " + quote(name) +
                                             " is listed twice");
    s.kernels.push_back(name);
  }
  if (reader.find(j, path, "knob")) {
    s.knob = getIdentifier(j, path, "knob");
    if (!m.findKnob(s.knob))
      fail(at(path, "knob"), "unknown knob " + quote(s.knob));
  }
  s.op = reader.string(j, path, "op");
  s.type = reader.string(j, path, "type");
  s.form = reader.string(j, path, "form");
  if (s.form != "tunable" && s.form != "sfu" && s.form != "precise" &&
      s.form != "fast" && s.form != "approximate" && s.form != "correct")
    fail(at(path, "form"), "is " + quote(s.form) +
                               ", expected one of \"tunable\", \"sfu\", "
                               "\"precise\", \"fast\", \"approximate\", "
                               "\"correct\"");
  if (s.form == "tunable" && s.knob.empty())
    fail(path, "a \"tunable\" site names the knob that tunes it (\"knob\")");
  s.reason = reader.optionalString(j, path, "reason");
  s.loc = reader.optionalString(j, path, "loc");
  if (const json *data = reader.find(j, path, "data")) {
    if (!data->is_object())
      fail(at(path, "data"), "expected an object");
    s.data = data->dump();
  }
  return s;
}

/// Cross references among knobs, kernels and sites.
void crossCheck(const Manifest &m) {
  // Variant dispatch: variants exist and list their knob; logical names are
  // unique and do not chain into another dispatch.
  std::map<std::string, std::string> logical; // name -> knob
  for (size_t ki = 0; ki < m.knobs.size(); ++ki)
    for (size_t di = 0; di < m.knobs[ki].dispatch.size(); ++di) {
      const std::string &name = m.knobs[ki].dispatch[di].kernel;
      if (!logical.emplace(name, m.knobs[ki].name).second)
        fail(at(at(at(at("knobs", ki), "dispatch"), di), "kernel"),
             "kernel name " + quote(name) +
                 " is dispatched by two entries (knobs " +
                 quote(logical[name]) + " and " + quote(m.knobs[ki].name) +
                 ")");
    }
  for (size_t ki = 0; ki < m.knobs.size(); ++ki) {
    const KnobInfo &k = m.knobs[ki];
    for (size_t di = 0; di < k.dispatch.size(); ++di) {
      const VariantDispatch &d = k.dispatch[di];
      std::string dpath = at(at(at("knobs", ki), "dispatch"), di);
      for (size_t vi = 0; vi < d.variants.size(); ++vi) {
        const std::string &v = d.variants[vi];
        std::string vpath = at(at(dpath, "variants"), vi);
        const KernelInfo *kernel = m.findKernel(v);
        if (!kernel)
          fail(vpath, "unknown kernel " + quote(v));
        if (v != d.kernel && logical.count(v))
          fail(vpath, "kernel " + quote(v) +
                          " is itself dispatched by knob " +
                          quote(logical[v]) +
                          " (dispatch does not chain)");
        if (!kernel->readsKnob(k.name))
          fail(vpath, "kernel " + quote(v) + " does not list knob " +
                          quote(k.name) + " in its \"knobs\"");
      }
    }
  }
  // Kernel sites <-> site kernels; a site's knob is read by its kernels.
  for (size_t ki = 0; ki < m.kernels.size(); ++ki) {
    const KernelInfo &k = m.kernels[ki];
    for (size_t i = 0; i < k.sites.size(); ++i) {
      std::string spath = at(at(at("kernels", ki), "sites"), i);
      size_t s = k.sites[i];
      if (s >= m.sites.size())
        fail(spath, std::to_string(s) + " is out of range [0, " +
                        std::to_string(m.sites.size()) + ")");
      bool listed = false;
      for (const std::string &name : m.sites[s].kernels)
        listed |= name == k.name;
      if (!listed)
        fail(spath, "site " + std::to_string(s) + " does not list kernel " +
                        quote(k.name) + " in its \"kernels\"");
    }
  }
  for (size_t si = 0; si < m.sites.size(); ++si) {
    const SiteInfo &s = m.sites[si];
    for (size_t i = 0; i < s.kernels.size(); ++i) {
      const KernelInfo *k = m.findKernel(s.kernels[i]);
      bool listed = false;
      for (size_t x : k->sites)
        listed |= x == si;
      std::string kpath = at(at(at("sites", si), "kernels"), i);
      if (!listed)
        fail(kpath, "kernel " + quote(k->name) + " does not list site " +
                        std::to_string(si) + " in its \"sites\"");
      if (!s.knob.empty() && !k->readsKnob(s.knob))
        fail(kpath, "kernel " + quote(k->name) + " does not list knob " +
                        quote(s.knob) + " (the site's knob) in its "
                                         "\"knobs\"");
    }
  }
}

Manifest parseOrThrow(const json &root) {
  Manifest m;
  if (!root.is_object())
    fail("<root>", "expected a JSON object");
  std::string format = reader.string(root, "", "format");
  if (format != "approx-manifest")
    fail("format", "is " + quote(format) + ", expected 'approx-manifest'");
  const json &version = reader.member(root, "", "version");
  if (!version.is_number_integer())
    fail("version", "expected an integer");
  bool one = version.is_number_unsigned() ? version.get<uint64_t>() == 1
                                          : version.get<int64_t>() == 1;
  if (one)
    fail("version", "format version 1 is no longer read (this runtime reads "
                    "version 2); recompile with approx-opt");
  bool two = version.is_number_unsigned() ? version.get<uint64_t>() == 2
                                          : version.get<int64_t>() == 2;
  if (!two)
    fail("version", "format version " + version.dump() +
                        " is not supported (this runtime reads version 2)");
  m.version = kManifestVersion;
  m.producer = reader.optionalString(root, "", "producer");
  m.module = reader.string(root, "", "module");
  if (m.module.empty())
    fail("module", "is empty");
  m.gpuModule = reader.optionalString(root, "", "gpu_module");
  m.ptx = reader.optionalString(root, "", "ptx");
  m.cubin = reader.optionalString(root, "", "cubin");
  if (reader.find(root, "", "ptx") && m.ptx.empty())
    fail("ptx", "is empty");
  if (reader.find(root, "", "cubin") && m.cubin.empty())
    fail("cubin", "is empty");
  if (m.ptx.empty() && m.cubin.empty())
    fail("<root>", "neither 'ptx' nor 'cubin' is given");
  m.chip = reader.optionalString(root, "", "chip");

  const json &knobs = reader.optionalArray(root, "", "knobs");
  std::map<std::string, std::string> symbols; // symbol -> knob
  for (size_t i = 0; i < knobs.size(); ++i) {
    std::string path = at("knobs", i);
    KnobInfo k = parseKnob(knobs[i], path);
    if (m.findKnob(k.name))
      fail(at(path, "name"), "duplicate knob " + quote(k.name));
    if (k.hasSymbol() && !symbols.emplace(k.symbol, k.name).second)
      fail(at(path, "symbol"), quote(k.symbol) + " is also the symbol of "
                                                  "knob " +
                                   quote(symbols[k.symbol]));
    m.knobs.push_back(std::move(k));
  }
  const json &kernels = reader.array(root, "", "kernels");
  for (size_t i = 0; i < kernels.size(); ++i) {
    std::string path = at("kernels", i);
    KernelInfo k = parseKernel(kernels[i], path, m.knobs);
    if (m.findKernel(k.name))
      fail(at(path, "name"), "duplicate kernel " + quote(k.name));
    m.kernels.push_back(std::move(k));
  }
  const json &sites = reader.optionalArray(root, "", "sites");
  for (size_t i = 0; i < sites.size(); ++i)
    m.sites.push_back(parseSite(sites[i], at("sites", i), m));
  crossCheck(m);
  return m;
}

} // namespace

Expected<Manifest> parseManifest(const std::string &jsonText,
                                 const std::string &directory) {
  return jsonread::parseDocument<Manifest>(
      jsonText, "manifest",
      [&](const json &root) {
        Manifest m = parseOrThrow(root);
        m.directory = directory;
        return m;
      },
      kMaxManifestNesting);
}

Expected<Manifest> loadManifestFile(const std::string &path) {
  APPROX_ASSIGN_OR_RETURN(std::string text,
                          readRegularFile(path, kMaxManifestBytes,
                                          "manifest"));
  size_t slash = path.find_last_of('/');
  std::string dir = slash == std::string::npos ? "."
                    : slash == 0               ? "/"
                                               : path.substr(0, slash);
  Expected<Manifest> m = parseManifest(text, dir);
  if (!m)
    return m.status().withContext(escapeBytes(path));
  return m;
}

Expected<std::string> resolveImagePath(const Manifest &m, bool cubin,
                                       bool allowOutside) {
  const char *key = cubin ? "cubin" : "ptx";
  const std::string &rel = cubin ? m.cubin : m.ptx;
  if (rel.empty())
    return notFound(std::string("the manifest names no '") + key + "' file");
  std::string where = std::string("manifest: ") + key + ": ";
  const char *allow = " (allow it with --allow-outside-paths or "
                      "LoadOptions::allowPathsOutsideManifestDir)";
  bool absolute = rel[0] == '/';
  if (!allowOutside) {
    if (absolute)
      return invalidArgument(where + quote(rel) +
                             " is absolute; paths are relative to the "
                             "manifest's directory" +
                             allow);
    size_t start = 0;
    while (start <= rel.size()) {
      size_t end = rel.find('/', start);
      if (end == std::string::npos)
        end = rel.size();
      if (rel.compare(start, end - start, "..") == 0 && end - start == 2)
        return invalidArgument(where + quote(rel) +
                               " has a '..' component; paths stay inside "
                               "the manifest's directory" +
                               allow);
      start = end + 1;
    }
  }
  std::string dir = m.directory.empty() ? "." : m.directory;
  std::string full = absolute ? rel : dir + "/" + rel;
  if (allowOutside)
    return full;
  // Symbolic links may still lead outside: compare canonical paths.
  char *canonDir = ::realpath(dir.c_str(), nullptr);
  if (!canonDir)
    return ioError(where + "cannot resolve the manifest's directory " +
                   quote(dir) + ": " + std::strerror(errno));
  std::string cdir = canonDir;
  std::free(canonDir);
  char *canonFull = ::realpath(full.c_str(), nullptr);
  if (!canonFull)
    return ioError(where + "cannot find " + quote(full) + ": " +
                   std::strerror(errno));
  std::string cfull = canonFull;
  std::free(canonFull);
  std::string prefix = cdir == "/" ? "/" : cdir + "/";
  if (cfull.compare(0, prefix.size(), prefix) != 0)
    return invalidArgument(where + quote(rel) + " resolves to " +
                           quote(cfull) +
                           ", outside the manifest's directory " +
                           quote(cdir) + allow);
  return full;
}

} // namespace approx::rt
