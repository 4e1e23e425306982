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

#include <algorithm>
#include <unordered_set>
#include <cctype>
#include <functional>
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
  case KnobKind::Build:
    return "build";
  case KnobKind::Host:
    return "host";
  }
  return "?";
}

const char *domainKindName(DomainKind k) {
  switch (k) {
  case DomainKind::Ordinal:
    return "ordinal";
  case DomainKind::Categorical:
    return "categorical";
  case DomainKind::Storage:
    return "storage";
  }
  return "?";
}

const char *payloadTypeName(Payload::Type t) {
  switch (t) {
  case Payload::Type::None:
    return "none";
  case Payload::Type::PerforationScheme:
    return "perforation_scheme";
  case Payload::Type::BlockShape:
    return "block_shape";
  case Payload::Type::LnsImpl:
    return "lns_impl";
  case Payload::Type::TextureTable:
    return "texture_table";
  case Payload::Type::StorageConfig:
    return "storage_config";
  case Payload::Type::Storage:
    return "storage";
  }
  return "?";
}

std::string KnobInfo::valueId(int64_t v) const {
  if (domain.kind == DomainKind::Ordinal || v < min || v > max ||
      uint64_t(v - min) >= domain.values.size())
    return std::to_string(v);
  return domain.values[size_t(v - min)].id;
}

std::optional<int64_t> KnobInfo::valueOf(const std::string &id) const {
  if (domain.kind == DomainKind::Ordinal) {
    char *end = nullptr;
    errno = 0;
    long long v = std::strtoll(id.c_str(), &end, 10);
    if (id.empty() || errno || *end || v < min || v > max)
      return std::nullopt;
    return int64_t(v);
  }
  for (size_t i = 0; i < domain.values.size(); ++i)
    if (domain.values[i].id == id)
      return min + int64_t(i);
  return std::nullopt;
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

ManifestIndex::ManifestIndex(const Manifest &m) {
  for (const KernelInfo &k : m.kernels)
    kernels_.emplace(k.name, &k); // the first, as findKernel (names are unique)
  for (const KnobInfo &k : m.knobs)
    for (const VariantDispatch &d : k.dispatch)
      dispatch_.emplace(d.kernel, std::make_pair(&k, &d));
  auto add = [&](const std::string &name) {
    std::vector<const KernelInfo *> c;
    std::unordered_set<const KernelInfo *> seen;
    if (const KernelInfo *k = kernel(name); k && seen.insert(k).second)
      c.push_back(k);
    if (const VariantDispatch *d = dispatch(name).second)
      for (const std::string &v : d->variants)
        if (const KernelInfo *k = kernel(v); k && seen.insert(k).second)
          c.push_back(k);
    candidates_.emplace(name, std::move(c));
  };
  for (const KernelInfo &k : m.kernels)
    add(k.name);
  for (const auto &[name, entry] : dispatch_)
    if (!candidates_.count(name))
      add(name);
}

const KernelInfo *ManifestIndex::kernel(const std::string &name) const {
  auto it = kernels_.find(name);
  return it == kernels_.end() ? nullptr : it->second;
}

std::pair<const KnobInfo *, const VariantDispatch *>
ManifestIndex::dispatch(const std::string &name) const {
  auto it = dispatch_.find(name);
  return it == dispatch_.end()
             ? std::pair<const KnobInfo *, const VariantDispatch *>{}
             : it->second;
}

const std::vector<const KernelInfo *> &
ManifestIndex::candidates(const std::string &name) const {
  static const std::vector<const KernelInfo *> kNone;
  auto it = candidates_.find(name);
  return it == candidates_.end() ? kNone : it->second;
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

//===----------------------------------------------------------------------===//
// The knob space (version 3): domains, payloads, governs, constraints
//===----------------------------------------------------------------------===//

/// The string at `key`, one of `names` ("unknown value 'x'").
std::string oneOf(const json &obj, const std::string &path, const char *key,
                  std::initializer_list<const char *> names) {
  std::string s = reader.string(obj, path, key);
  for (const char *n : names)
    if (s == n)
      return s;
  fail(at(path, key), "unknown value " + quote(s));
}

/// f64, f32, f16 or bf16 ("unknown value" otherwise).
ScalarType storageType(const json &v, const std::string &path) {
  std::string s = reader.asString(v, path);
  for (auto [name, t] : {std::pair{"f64", ScalarType::F64},
                         std::pair{"f32", ScalarType::F32},
                         std::pair{"f16", ScalarType::F16},
                         std::pair{"bf16", ScalarType::BF16}})
    if (s == name)
      return t;
  fail(path, "unknown value " + quote(s));
}

bool isValueId(const std::string &s) {
  if (s.empty() || s.size() > 256)
    return false;
  for (char c : s)
    if (!std::isalnum((unsigned char)c) && !std::strchr("_.:+-", c))
      return false;
  return true;
}

std::string valueIdAt(const json &v, const std::string &path) {
  std::string s = reader.asString(v, path);
  if (!isValueId(s))
    fail(path, quote(s.size() > 80 ? s.substr(0, 80) + "..." : s) +
                   " is not a value id (1 to 256 letters, digits and "
                   "'_ . : + -')");
  return s;
}

Payload parsePayload(const json &j, const std::string &path) {
  reader.expectObject(j, path);
  Payload p;
  std::string type = reader.string(j, path, "type");
  if (type == "perforation_scheme") {
    reader.onlyKeys(j, path, {"type", "scheme", "skip", "reconstruction"});
    p.type = Payload::Type::PerforationScheme;
    p.scheme = oneOf(j, path, "scheme",
                     {"accurate", "rows", "cols", "stencil", "center"});
    p.skip = reader.integer(j, path, "skip", 1, 64);
    p.reconstruction =
        oneOf(j, path, "reconstruction", {"nn", "linear", "copy"});
  } else if (type == "block_shape") {
    reader.onlyKeys(j, path, {"type", "x", "y", "rows"});
    p.type = Payload::Type::BlockShape;
    p.x = unsigned(reader.integer(j, path, "x", 1, 1024));
    p.y = unsigned(reader.integer(j, path, "y", 1, 1024));
    p.rows = unsigned(reader.integer(j, path, "rows", 1, 64));
    if (uint64_t(p.x) * p.y > 1024)
      fail(path, "block " + std::to_string(p.x) + "x" + std::to_string(p.y) +
                     " has more than 1024 threads");
  } else if (type == "lns_impl") {
    reader.onlyKeys(j, path, {"type", "impl", "segments", "degree"});
    p.type = Payload::Type::LnsImpl;
    p.impl = oneOf(j, path, "impl",
                   {"precise", "sfu", "horner", "texture1", "texture2",
                    "texture3", "split"});
    if (reader.find(j, path, "segments"))
      p.segments = reader.integer(j, path, "segments", 0, 1024);
    if (reader.find(j, path, "degree"))
      p.degree = reader.integer(j, path, "degree", 1, 5);
  } else if (type == "texture_table") {
    reader.onlyKeys(j, path, {"type", "width", "height", "depth", "channels"});
    p.type = Payload::Type::TextureTable;
    p.width = reader.integer(j, path, "width", 1, kMaxTextureExtent);
    p.height = reader.integer(j, path, "height", 1, kMaxTextureExtent);
    if (reader.find(j, path, "depth"))
      p.depth = reader.integer(j, path, "depth", 1, kMaxTexture3DExtent);
    p.channels = reader.integer(j, path, "channels", 1, 4);
    if (p.channels == 3)
      fail(at(path, "channels"), "is 3, expected 1, 2 or 4");
  } else if (type == "storage_config") {
    reader.onlyKeys(j, path, {"type", "args"});
    p.type = Payload::Type::StorageConfig;
    const json &args = reader.array(j, path, "args");
    for (size_t i = 0; i < args.size(); ++i) {
      std::string apath = at(at(path, "args"), i);
      reader.onlyKeys(args[i], apath, {"arg", "storage"});
      size_t arg = size_t(reader.integer(args[i], apath, "arg", 0, 1 << 20));
      if (!p.args.empty() && arg <= p.args.back().first)
        fail(at(apath, "arg"), "arguments must ascend");
      p.args.push_back(
          {arg, storageType(reader.member(args[i], apath, "storage"),
                            at(apath, "storage"))});
    }
  } else if (type == "storage") {
    reader.onlyKeys(j, path, {"type", "storage"});
    p.type = Payload::Type::Storage;
    p.storage =
        storageType(reader.member(j, path, "storage"), at(path, "storage"));
  } else {
    fail(at(path, "type"), "unknown payload type " + quote(type));
  }
  return p;
}

KnobDomain parseDomain(const json &j, const std::string &path,
                       const KnobInfo &k) {
  reader.expectObject(j, path);
  KnobDomain d;
  std::string kind = oneOf(j, path, "kind", {"ordinal", "categorical", "storage"});
  uint64_t count = valueCount(k.min, k.max);
  if (kind == "ordinal") {
    reader.onlyKeys(j, path, {"kind"});
    if (k.kind != KnobKind::Global)
      fail(at(path, "kind"), std::string("an ordinal domain belongs to a "
                                         "global knob, not a ") +
                                 knobKindName(k.kind) + " one");
    return d;
  }
  d.kind = kind == "categorical" ? DomainKind::Categorical : DomainKind::Storage;
  if (d.kind == DomainKind::Categorical) {
    reader.onlyKeys(j, path, {"kind", "values"});
  } else {
    reader.onlyKeys(j, path, {"kind", "object", "values"});
    if (k.kind != KnobKind::Build)
      fail(at(path, "kind"), std::string("a storage domain belongs to a build "
                                         "knob, not a ") +
                                 knobKindName(k.kind) + " one");
    std::string opath = at(path, "object");
    const json &object = reader.object(j, path, "object");
    reader.onlyKeys(object, opath, {"kernel", "arg", "name", "also"});
    d.objectKernel = getIdentifier(object, opath, "kernel");
    d.objectArg = size_t(reader.integer(object, opath, "arg", 0, 1 << 20));
    d.objectName = reader.optionalString(object, opath, "name");
    if (object.contains("also")) {
      std::string apath = at(opath, "also");
      const json &also = reader.array(object, opath, "also");
      for (size_t i = 0; i < also.size(); ++i) {
        std::string upath = at(apath, i);
        reader.expectObject(also[i], upath);
        reader.onlyKeys(also[i], upath, {"kernel", "arg"});
        std::pair<std::string, size_t> use{
            getIdentifier(also[i], upath, "kernel"),
            size_t(reader.integer(also[i], upath, "arg", 0, 1 << 20))};
        if (use == std::pair{d.objectKernel, d.objectArg} ||
            std::find(d.objectAlso.begin(), d.objectAlso.end(), use) !=
                d.objectAlso.end())
          fail(upath, "argument " + std::to_string(use.second) + " of " +
                          quote(use.first) + " is listed twice");
        d.objectAlso.push_back(std::move(use));
      }
    }
  }
  std::string vpath = at(path, "values");
  const json &values = reader.array(j, path, "values");
  if (values.size() != count)
    fail(vpath, std::to_string(values.size()) + " values for the " +
                    std::to_string(count) + " indices " +
                    std::to_string(k.min) + ".." + std::to_string(k.max));
  for (size_t i = 0; i < values.size(); ++i) {
    std::string ipath = at(vpath, i);
    reader.expectObject(values[i], ipath);
    reader.onlyKeys(values[i], ipath, {"id", "payload"});
    KnobValue v;
    if (d.kind == DomainKind::Storage) {
      ScalarType t = storageType(reader.member(values[i], ipath, "id"),
                                 at(ipath, "id"));
      v.id = scalarTypeName(t);
      v.payload = parsePayload(reader.member(values[i], ipath, "payload"),
                               at(ipath, "payload"));
      if (v.payload.type != Payload::Type::Storage || v.payload.storage != t)
        fail(at(ipath, "payload"), "is not the storage payload of " +
                                       quote(v.id));
    } else {
      v.id = valueIdAt(reader.member(values[i], ipath, "id"), at(ipath, "id"));
      if (const json *payload = reader.find(values[i], ipath, "payload"))
        v.payload = parsePayload(*payload, at(ipath, "payload"));
    }
    for (size_t e = 0; e < d.values.size(); ++e)
      if (d.values[e].id == v.id)
        fail(at(ipath, "id"), quote(v.id) + " is also values[" +
                                  std::to_string(e) + "]");
    d.values.push_back(std::move(v));
  }
  return d;
}

/// A version-2 knob's domain, from its kind (docs/manifest.md): a global
/// knob is ordinal; a variant or resource knob categorical, with the ids
/// "0", "1", ... and no payloads.
KnobDomain derivedDomain(const KnobInfo &k) {
  KnobDomain d;
  if (k.kind == KnobKind::Global)
    return d;
  d.kind = DomainKind::Categorical;
  for (int64_t v = k.min; v <= k.max; ++v)
    d.values.push_back({std::to_string(v - k.min), Payload{}});
  return d;
}

/// `technique`, `domain`, `governs` and `constraints` of a version-3 knob
/// (names are checked against the whole manifest later, crossCheckSpace).
void parseKnobSpace(const json &j, const std::string &path, KnobInfo &k) {
  if (reader.find(j, path, "technique"))
    k.technique = reader.nonEmptyString(j, path, "technique");
  k.domain = parseDomain(reader.member(j, path, "domain"), at(path, "domain"),
                         k);
  if (const json *governs = reader.find(j, path, "governs")) {
    std::string gpath = at(path, "governs");
    reader.expectObject(*governs, gpath);
    reader.onlyKeys(*governs, gpath, {"kernels", "sites"});
    const json &kernels = reader.array(*governs, gpath, "kernels");
    for (size_t i = 0; i < kernels.size(); ++i)
      k.governsKernels.push_back(
          asIdentifier(kernels[i], at(at(gpath, "kernels"), i)));
    const json &sites = reader.array(*governs, gpath, "sites");
    for (size_t i = 0; i < sites.size(); ++i)
      k.governsSites.push_back(size_t(reader.asInteger(
          sites[i], at(at(gpath, "sites"), i), 0, int64_t(1) << 40)));
  }
  const json &constraints = reader.optionalArray(j, path, "constraints");
  for (size_t i = 0; i < constraints.size(); ++i) {
    std::string cpath = at(at(path, "constraints"), i);
    reader.expectObject(constraints[i], cpath);
    reader.onlyKeys(constraints[i], cpath, {"when", "require"});
    KnobConstraint c;
    const json &when = reader.array(constraints[i], cpath, "when");
    if (when.empty())
      fail(at(cpath, "when"), "is empty");
    for (size_t w = 0; w < when.size(); ++w)
      c.when.push_back(valueIdAt(when[w], at(at(cpath, "when"), w)));
    std::string rpath = at(cpath, "require");
    const json &require = reader.object(constraints[i], cpath, "require");
    reader.onlyKeys(require, rpath, {"knob", "values"});
    c.knob = getIdentifier(require, rpath, "knob");
    const json &values = reader.array(require, rpath, "values");
    if (values.empty())
      fail(at(rpath, "values"), "is empty");
    for (size_t v = 0; v < values.size(); ++v)
      c.values.push_back(valueIdAt(values[v], at(at(rpath, "values"), v)));
    k.constraints.push_back(std::move(c));
  }
}

KnobInfo parseKnob(const json &j, const std::string &path, int64_t version) {
  KnobInfo k;
  k.name = getIdentifier(j, path, "name");
  k.kind = reader.choice<KnobKind>(j, path, "kind",
                                   {{"global", KnobKind::Global},
                                    {"variant", KnobKind::Variant},
                                    {"resource", KnobKind::Resource},
                                    {"build", KnobKind::Build}});
  if (k.kind == KnobKind::Build && version < 3)
    fail(at(path, "kind"), "\"build\" knobs are version 3");
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
  case KnobKind::Build:
    break;
  }
  if (version >= 3)
    parseKnobSpace(j, path, k);
  else
    k.domain = derivedDomain(k);
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
    // Version 3: a perforation site's schemes are typed payloads, one per
    // value of its knob.
    if (m.version >= 3 && s.technique == "perforation" &&
        data->contains("schemes")) {
      std::string dpath = at(path, "data");
      const json &schemes = reader.array(*data, dpath, "schemes");
      for (size_t i = 0; i < schemes.size(); ++i) {
        std::string spath = at(at(dpath, "schemes"), i);
        reader.expectObject(schemes[i], spath);
        Payload p = parsePayload(schemes[i], spath);
        if (p.type != Payload::Type::PerforationScheme)
          fail(at(spath, "type"), "is " + quote(payloadTypeName(p.type)) +
                                      ", expected 'perforation_scheme'");
        s.schemes.push_back(std::move(p));
      }
      const KnobInfo *knob = s.knob.empty() ? nullptr : m.findKnob(s.knob);
      if (knob && valueCount(knob->min, knob->max) != s.schemes.size())
        fail(at(dpath, "schemes"),
             "has " + std::to_string(s.schemes.size()) + " schemes for the " +
                 std::to_string(valueCount(knob->min, knob->max)) +
                 " values of knob " + quote(knob->name));
    }
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

/// `configuration` (every build knob's value id) and `recipe`.
void parseConfiguration(const json &root, Manifest &m) {
  const json *config = reader.find(root, "", "configuration");
  if (config) {
    reader.expectObject(*config, "configuration");
    for (auto it = config->begin(); it != config->end(); ++it) {
      std::string cpath = at("configuration", escapeBytes(it.key()));
      KnobInfo *k = nullptr;
      for (KnobInfo &x : m.knobs)
        if (x.name == it.key())
          k = &x;
      if (!k)
        fail(cpath, "unknown knob " + quote(it.key()));
      if (k->kind != KnobKind::Build)
        fail(cpath, "knob " + quote(k->name) + " is not a build knob");
      std::string id = valueIdAt(it.value(), cpath);
      std::optional<int64_t> v = k->valueOf(id);
      if (!v)
        fail(cpath, quote(id) + " is not a value of knob " + quote(k->name));
      k->builtValue = *v;
      m.configuration[k->name] = id;
    }
  }
  for (const KnobInfo &k : m.knobs)
    if (k.kind == KnobKind::Build && !m.configuration.count(k.name))
      fail("configuration", "build knob " + quote(k.name) + " has no value");
  if (const json *recipe = reader.find(root, "", "recipe")) {
    reader.expectObject(*recipe, "recipe");
    reader.onlyKeys(*recipe, "recipe", {"id", "key"});
    for (const char *key : {"id", "key"}) {
      std::string h = reader.string(*recipe, "recipe", key);
      if (h.size() != 64 ||
          h.find_first_not_of("0123456789abcdef") != std::string::npos)
        fail(at("recipe", key), "is not 64 lowercase hex digits (a sha256)");
      (std::string(key) == "id" ? m.recipeId : m.recipeKey) = h;
    }
  }
}

/// The knob space's names against the manifest: governed kernels and sites,
/// storage objects, constraint knobs and values, and no constraint cycle.
void crossCheckSpace(const Manifest &m) {
  std::map<std::string, std::vector<std::string>> edges;
  for (size_t ki = 0; ki < m.knobs.size(); ++ki) {
    const KnobInfo &k = m.knobs[ki];
    std::string path = at("knobs", ki);
    for (size_t i = 0; i < k.governsKernels.size(); ++i)
      if (!m.findKernel(k.governsKernels[i]))
        fail(at(at(at(path, "governs"), "kernels"), i),
             "unknown kernel " + quote(k.governsKernels[i]));
    for (size_t i = 0; i < k.governsSites.size(); ++i)
      if (k.governsSites[i] >= m.sites.size())
        fail(at(at(at(path, "governs"), "sites"), i),
             "site " + std::to_string(k.governsSites[i]) + " of " +
                 std::to_string(m.sites.size()));
    if (k.domain.kind == DomainKind::Storage) {
      // Every argument the memory object is passed to: a memref of floats,
      // of one element type.
      std::string opath = at(at(path, "domain"), "object");
      std::optional<ValueType> first;
      auto check = [&](const std::string &kname, size_t arg,
                       const std::string &upath) {
        const KernelInfo *kernel = m.findKernel(kname);
        if (!kernel)
          fail(at(upath, "kernel"), "unknown kernel " + quote(kname));
        if (arg >= kernel->args.size())
          fail(at(upath, "arg"), "kernel " + quote(kernel->name) + " has " +
                                     std::to_string(kernel->args.size()) +
                                     " arguments");
        const ArgInfo &a = kernel->args[arg];
        if (a.kind != ArgInfo::Kind::Memref || a.type.isVector() ||
            !isFloatType(a.type.scalar))
          fail(at(upath, "arg"), "argument " + std::to_string(arg) + " of " +
                                     quote(kernel->name) +
                                     " is not a memref of floats");
        if (first && !(*first == a.type))
          fail(at(upath, "arg"), "argument " + std::to_string(arg) + " of " +
                                     quote(kernel->name) + " is " +
                                     a.type.name() +
                                     ", not the memory object's " +
                                     first->name());
        first = a.type;
      };
      check(k.domain.objectKernel, k.domain.objectArg, opath);
      for (size_t i = 0; i < k.domain.objectAlso.size(); ++i)
        check(k.domain.objectAlso[i].first, k.domain.objectAlso[i].second,
              at(at(opath, "also"), i));
    }
    for (size_t ci = 0; ci < k.constraints.size(); ++ci) {
      const KnobConstraint &c = k.constraints[ci];
      std::string cpath = at(at(path, "constraints"), ci);
      const KnobInfo *other = m.findKnob(c.knob);
      if (!other)
        fail(at(at(cpath, "require"), "knob"), "unknown knob " + quote(c.knob));
      for (size_t w = 0; w < c.when.size(); ++w)
        if (!k.valueOf(c.when[w]))
          fail(at(at(cpath, "when"), w), quote(c.when[w]) +
                                             " is not a value of knob " +
                                             quote(k.name));
      for (size_t v = 0; v < c.values.size(); ++v)
        if (!other->valueOf(c.values[v]))
          fail(at(at(at(cpath, "require"), "values"), v),
               quote(c.values[v]) + " is not a value of knob " +
                   quote(other->name));
      edges[k.name].push_back(c.knob);
    }
  }
  // A cycle of constraints has no order in which to choose values.
  std::map<std::string, int> state; // 1: on the path, 2: done
  std::vector<std::string> stack;
  std::function<void(const std::string &)> visit = [&](const std::string &n) {
    state[n] = 1;
    stack.push_back(n);
    for (const std::string &next : edges[n]) {
      if (state[next] == 1) {
        std::string cycle;
        auto from = std::find(stack.begin(), stack.end(), next);
        for (auto it = from; it != stack.end(); ++it)
          cycle += *it + " -> ";
        fail("<root>", "constraints form a cycle: " + cycle + next);
      }
      if (state[next] == 0)
        visit(next);
    }
    stack.pop_back();
    state[n] = 2;
  };
  for (const KnobInfo &k : m.knobs)
    if (state[k.name] == 0)
      visit(k.name);
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
  // Version 2 is read (its knobs' domains derived from their kinds);
  // version 1 and anything newer are refused in one line.
  int64_t v = version.is_number_unsigned()
                  ? (version.get<uint64_t>() > 1000 ? 1000
                                                    : int64_t(version.get<uint64_t>()))
                  : version.get<int64_t>();
  if (v == 1)
    fail("version", "format version 1 is no longer read (this runtime reads "
                    "versions 2 and 3); recompile with approx-opt");
  if (v > kManifestVersion)
    fail("version", "format version " + version.dump() +
                        " is newer than this runtime reads (versions 2 and "
                        "3)");
  if (v != 2 && v != 3)
    fail("version", "format version " + version.dump() +
                        " is not supported (this runtime reads versions 2 "
                        "and 3)");
  m.version = v;
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
    KnobInfo k = parseKnob(knobs[i], path, m.version);
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
  if (m.version >= 3) {
    parseConfiguration(root, m);
    crossCheckSpace(m);
  } else {
    for (const char *key : {"configuration", "recipe"})
      if (reader.find(root, "", key))
        fail(key, "is version 3; this manifest says version 2");
  }
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
