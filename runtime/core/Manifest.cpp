//===- Manifest.cpp - Parse and validate NAME.manifest.json ---------------===//
//
// Uses nlohmann-json with exceptions confined to this file: every JSON error
// or schema violation becomes a ParseError naming the JSON path at fault
// (e.g. "kernels[0].params[3]: size 4 does not match type i64 (8 bytes)").
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Manifest.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

namespace approx::rt {

using json = nlohmann::json;

Expected<ScalarType> parseScalarType(const std::string &name) {
  static const std::pair<const char *, ScalarType> kTypes[] = {
      {"i1", ScalarType::I1},       {"i8", ScalarType::I8},
      {"i16", ScalarType::I16},     {"i32", ScalarType::I32},
      {"i64", ScalarType::I64},     {"index", ScalarType::Index},
      {"f16", ScalarType::F16},     {"f32", ScalarType::F32},
      {"f64", ScalarType::F64},     {"ptr", ScalarType::Ptr}};
  for (auto &[n, t] : kTypes)
    if (name == n)
      return t;
  return parseError("unknown type '" + name + "'");
}

const char *scalarTypeName(ScalarType t) {
  switch (t) {
  case ScalarType::I1:
    return "i1";
  case ScalarType::I8:
    return "i8";
  case ScalarType::I16:
    return "i16";
  case ScalarType::I32:
    return "i32";
  case ScalarType::I64:
    return "i64";
  case ScalarType::Index:
    return "index";
  case ScalarType::F16:
    return "f16";
  case ScalarType::F32:
    return "f32";
  case ScalarType::F64:
    return "f64";
  case ScalarType::Ptr:
    return "ptr";
  }
  return "?";
}

size_t scalarTypeSize(ScalarType t) {
  switch (t) {
  case ScalarType::I1:
  case ScalarType::I8:
    return 1;
  case ScalarType::I16:
  case ScalarType::F16:
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
  return t == ScalarType::F16 || t == ScalarType::F32 || t == ScalarType::F64;
}

bool isIntegerType(ScalarType t) {
  return t == ScalarType::I1 || t == ScalarType::I8 || t == ScalarType::I16 ||
         t == ScalarType::I32 || t == ScalarType::I64 ||
         t == ScalarType::Index;
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

namespace {

/// Thrown only inside this file, turned into a ParseError at the boundary.
struct SchemaError {
  std::string message;
};

[[noreturn]] void fail(const std::string &path, const std::string &what) {
  throw SchemaError{path + ": " + what};
}

const json &member(const json &obj, const std::string &path, const char *key) {
  if (!obj.is_object())
    fail(path, "expected an object");
  auto it = obj.find(key);
  if (it == obj.end())
    fail(path, std::string("missing required key '") + key + "'");
  return *it;
}

std::string getString(const json &obj, const std::string &path,
                      const char *key) {
  const json &v = member(obj, path, key);
  if (!v.is_string())
    fail(path + "." + key, "expected a string");
  return v.get<std::string>();
}

std::string getOptString(const json &obj, const std::string &path,
                         const char *key, const std::string &dflt) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null())
    return dflt;
  if (!it->is_string())
    fail(path + "." + key, "expected a string");
  return it->get<std::string>();
}

int64_t getInt(const json &obj, const std::string &path, const char *key) {
  const json &v = member(obj, path, key);
  if (!v.is_number_integer())
    fail(path + "." + key, "expected an integer");
  return v.get<int64_t>();
}

int64_t getOptInt(const json &obj, const std::string &path, const char *key,
                  int64_t dflt) {
  auto it = obj.find(key);
  if (it == obj.end())
    return dflt;
  if (!it->is_number_integer())
    fail(path + "." + key, "expected an integer");
  return it->get<int64_t>();
}

bool getOptBool(const json &obj, const std::string &path, const char *key,
                bool dflt) {
  auto it = obj.find(key);
  if (it == obj.end())
    return dflt;
  if (!it->is_boolean())
    fail(path + "." + key, "expected a boolean");
  return it->get<bool>();
}

const json &getArray(const json &obj, const std::string &path,
                     const char *key) {
  const json &v = member(obj, path, key);
  if (!v.is_array())
    fail(path + "." + key, "expected an array");
  return v;
}

ScalarType getType(const json &obj, const std::string &path, const char *key) {
  std::string name = getString(obj, path, key);
  Expected<ScalarType> t = parseScalarType(name);
  if (!t)
    fail(path + "." + key, t.status().message());
  return *t;
}

KnobInfo parseKnob(const json &j, const std::string &path) {
  KnobInfo k;
  k.name = getString(j, path, "name");
  k.symbol = getOptString(j, path, "symbol", k.name);
  k.type = getType(j, path, "type");
  if (!isIntegerType(k.type) || k.type == ScalarType::I1)
    fail(path + ".type", std::string("knob type must be an integer type "
                                     "(i8/i16/i32/i64), got ") +
                             scalarTypeName(k.type));
  k.min = getInt(j, path, "min");
  k.max = getInt(j, path, "max");
  k.defaultValue = getOptInt(j, path, "default", k.min);
  if (k.min > k.max)
    fail(path, "min " + std::to_string(k.min) + " > max " +
                   std::to_string(k.max));
  if (k.defaultValue < k.min || k.defaultValue > k.max)
    fail(path, "default " + std::to_string(k.defaultValue) +
                   " outside [" + std::to_string(k.min) + ", " +
                   std::to_string(k.max) + "]");
  size_t bits = scalarTypeSize(k.type) * 8;
  if (bits < 64) {
    int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << bits) - 1;
    if (k.min < lo || k.max > hi)
      fail(path, "range [" + std::to_string(k.min) + ", " +
                     std::to_string(k.max) + "] does not fit " +
                     scalarTypeName(k.type));
  }
  return k;
}

ArgInfo parseArg(const json &j, const std::string &path) {
  ArgInfo a;
  std::string kind = getString(j, path, "kind");
  if (kind == "memref") {
    a.kind = ArgInfo::Kind::Memref;
    a.type = getType(j, path, "element");
    if (a.type == ScalarType::Ptr)
      fail(path + ".element", "memref of ptr is not supported");
    a.rank = getInt(j, path, "rank");
    if (a.rank < 0 || a.rank > 16)
      fail(path + ".rank", "rank " + std::to_string(a.rank) + " unsupported");
    const json &shape = getArray(j, path, "shape");
    if (int64_t(shape.size()) != a.rank)
      fail(path + ".shape", "has " + std::to_string(shape.size()) +
                                " entries for rank " + std::to_string(a.rank));
    for (size_t i = 0; i < shape.size(); ++i) {
      if (!shape[i].is_number_integer() || shape[i].get<int64_t>() < -1)
        fail(path + ".shape[" + std::to_string(i) + "]",
             "expected a size >= 0 or -1 (dynamic)");
      a.shape.push_back(shape[i].get<int64_t>());
    }
    a.access = getOptString(j, path, "access", "");
    if (!a.access.empty() && a.access != "read" && a.access != "write" &&
        a.access != "readwrite" && a.access != "none")
      fail(path + ".access", "expected \"read\", \"write\", \"readwrite\" "
                             "or \"none\", got \"" + a.access + "\"");
  } else if (kind == "scalar") {
    a.kind = ArgInfo::Kind::Scalar;
    a.type = getType(j, path, "type");
  } else {
    fail(path + ".kind", "expected \"memref\" or \"scalar\", got \"" + kind +
                             "\"");
  }
  int64_t first = getInt(j, path, "first_param");
  int64_t num = getInt(j, path, "num_params");
  if (first < 0 || num < 0)
    fail(path, "negative first_param/num_params");
  a.firstParam = size_t(first);
  a.numParams = size_t(num);
  size_t expect = a.kind == ArgInfo::Kind::Memref ? size_t(3 + 2 * a.rank) : 1;
  if (a.numParams != expect)
    fail(path + ".num_params", "is " + std::to_string(a.numParams) +
                                   ", expected " + std::to_string(expect));
  return a;
}

ParamInfo parseParam(const json &j, const std::string &path) {
  ParamInfo p;
  int64_t arg = getInt(j, path, "arg");
  if (arg < 0)
    fail(path + ".arg", "negative");
  p.arg = size_t(arg);
  p.field = getString(j, path, "field");
  p.type = getType(j, path, "type");
  int64_t size = getInt(j, path, "size");
  if (size <= 0 || size_t(size) != scalarTypeSize(p.type))
    fail(path + ".size", "size " + std::to_string(size) +
                             " does not match type " +
                             scalarTypeName(p.type) + " (" +
                             std::to_string(scalarTypeSize(p.type)) +
                             " bytes)");
  p.size = size_t(size);
  return p;
}

/// Checks that the params of `arg` are its descriptor (or value) in order.
void checkArgParams(const KernelInfo &k, size_t argIdx,
                    const std::string &path) {
  const ArgInfo &a = k.args[argIdx];
  if (a.firstParam + a.numParams > k.params.size())
    fail(path, "params [" + std::to_string(a.firstParam) + ", " +
                   std::to_string(a.firstParam + a.numParams) +
                   ") run past the " + std::to_string(k.params.size()) +
                   " params of the kernel");
  for (size_t i = 0; i < a.numParams; ++i) {
    const ParamInfo &p = k.params[a.firstParam + i];
    std::string ppath =
        "kernels." + k.name + ".params[" + std::to_string(a.firstParam + i) +
        "]";
    if (p.arg != argIdx)
      fail(ppath, "belongs to arg " + std::to_string(p.arg) +
                      " but lies in the range of arg " +
                      std::to_string(argIdx));
    std::string want;
    ScalarType wantType = ScalarType::I64;
    if (a.kind == ArgInfo::Kind::Scalar) {
      want = "value";
      wantType = a.type == ScalarType::Index ? ScalarType::I64 : a.type;
      if (p.type != wantType && !(a.type == ScalarType::Index &&
                                  p.type == ScalarType::Index))
        fail(ppath, std::string("type ") + scalarTypeName(p.type) +
                        " does not match the scalar's type " +
                        scalarTypeName(a.type));
    } else {
      if (i == 0 || i == 1) {
        want = i == 0 ? "allocated" : "aligned";
        wantType = ScalarType::Ptr;
      } else if (i == 2) {
        want = "offset";
      } else if (i < size_t(3 + a.rank)) {
        want = "size" + std::to_string(i - 3);
      } else {
        want = "stride" + std::to_string(i - 3 - a.rank);
      }
      bool typeOk = wantType == ScalarType::Ptr
                        ? p.type == ScalarType::Ptr
                        : (p.type == ScalarType::I64 ||
                           p.type == ScalarType::Index);
      if (!typeOk)
        fail(ppath, std::string("field '") + want + "' must be " +
                        (wantType == ScalarType::Ptr ? "ptr" : "i64") +
                        ", got " + scalarTypeName(p.type));
    }
    if (p.field != want)
      fail(ppath, "field is '" + p.field + "', expected '" + want + "'");
  }
}

KernelInfo parseKernel(const json &j, const std::string &path,
                       const std::vector<KnobInfo> &knobs) {
  KernelInfo k;
  k.name = getString(j, path, "name");
  if (k.name.empty())
    fail(path + ".name", "empty kernel name");
  if (j.contains("knobs")) {
    const json &ks = getArray(j, path, "knobs");
    for (size_t i = 0; i < ks.size(); ++i) {
      if (!ks[i].is_string())
        fail(path + ".knobs[" + std::to_string(i) + "]", "expected a string");
      std::string name = ks[i].get<std::string>();
      bool known = false;
      for (const KnobInfo &kn : knobs)
        known |= kn.name == name;
      if (!known)
        fail(path + ".knobs[" + std::to_string(i) + "]",
             "unknown knob '" + name + "'");
      k.knobs.push_back(name);
    }
  }
  const json &args = getArray(j, path, "args");
  for (size_t i = 0; i < args.size(); ++i)
    k.args.push_back(parseArg(args[i], path + ".args[" + std::to_string(i) +
                                           "]"));
  const json &params = getArray(j, path, "params");
  for (size_t i = 0; i < params.size(); ++i) {
    ParamInfo p =
        parseParam(params[i], path + ".params[" + std::to_string(i) + "]");
    if (p.arg >= k.args.size())
      fail(path + ".params[" + std::to_string(i) + "].arg",
           "refers to arg " + std::to_string(p.arg) + " of " +
               std::to_string(k.args.size()));
    k.params.push_back(p);
  }
  // Args must tile the params: in order, no gaps, no overlap.
  size_t next = 0;
  for (size_t i = 0; i < k.args.size(); ++i) {
    std::string apath = path + ".args[" + std::to_string(i) + "]";
    if (k.args[i].firstParam != next)
      fail(apath + ".first_param",
           "is " + std::to_string(k.args[i].firstParam) + ", expected " +
               std::to_string(next));
    checkArgParams(k, i, apath);
    next += k.args[i].numParams;
  }
  if (next != k.params.size())
    fail(path + ".params", std::to_string(k.params.size() - next) +
                               " params belong to no argument");
  return k;
}

Manifest parseOrThrow(const json &root) {
  Manifest m;
  if (!root.is_object())
    fail("<root>", "expected a JSON object");
  std::string format = getString(root, "<root>", "format");
  if (format != "approx-manifest")
    fail("format", "is '" + format + "', expected 'approx-manifest'");
  m.version = int(getInt(root, "<root>", "version"));
  if (m.version != 1)
    fail("version", "format version " + std::to_string(m.version) +
                        " is not supported (this runtime reads version 1)");
  m.module = getString(root, "<root>", "module");
  m.gpuModule = getOptString(root, "<root>", "gpu_module", "");
  m.ptx = getOptString(root, "<root>", "ptx", "");
  m.cubin = getOptString(root, "<root>", "cubin", "");
  if (m.ptx.empty() && m.cubin.empty())
    fail("<root>", "neither 'ptx' nor 'cubin' is given");
  m.chip = getOptString(root, "<root>", "chip", "");
  m.slot = getOptString(root, "<root>", "slot", "hw");
  if (m.slot != "hw" && m.slot != "virtual" && m.slot != "software")
    fail("slot", "is '" + m.slot + "', expected hw, virtual or software");
  if (root.contains("knobs")) {
    const json &knobs = getArray(root, "<root>", "knobs");
    std::set<std::string> names;
    for (size_t i = 0; i < knobs.size(); ++i) {
      std::string path = "knobs[" + std::to_string(i) + "]";
      KnobInfo k = parseKnob(knobs[i], path);
      if (!names.insert(k.name).second)
        fail(path + ".name", "duplicate knob '" + k.name + "'");
      m.knobs.push_back(k);
    }
  }
  const json &kernels = getArray(root, "<root>", "kernels");
  std::set<std::string> names;
  for (size_t i = 0; i < kernels.size(); ++i) {
    std::string path = "kernels[" + std::to_string(i) + "]";
    KernelInfo k = parseKernel(kernels[i], path, m.knobs);
    if (!names.insert(k.name).second)
      fail(path + ".name", "duplicate kernel '" + k.name + "'");
    m.kernels.push_back(std::move(k));
  }
  if (root.contains("sites")) {
    const json &sites = getArray(root, "<root>", "sites");
    for (size_t i = 0; i < sites.size(); ++i) {
      std::string path = "sites[" + std::to_string(i) + "]";
      const json &s = sites[i];
      SiteInfo site;
      // "kernel" (docs/manifest.md) or "function" (what approx-opt writes).
      site.kernel = getOptString(s, path, "kernel",
                                 getOptString(s, path, "function", ""));
      site.op = getOptString(s, path, "op", "");
      site.type = getOptString(s, path, "type", "");
      site.knob = getOptString(s, path, "knob", "");
      site.loc = getOptString(s, path, "loc", "");
      site.rangeReduction = getOptBool(s, path, "range_reduction", false);
      site.newtonSteps = getOptInt(s, path, "newton_steps", 0);
      site.demoteToF32 = getOptBool(s, path, "demote_to_f32", false);
      site.sfuForm = getOptBool(s, path, "sfu_form", true);
      m.sites.push_back(site);
    }
  }
  return m;
}

} // namespace

Expected<Manifest> parseManifest(const std::string &jsonText,
                                 const std::string &directory) {
  json root;
  try {
    root = json::parse(jsonText);
  } catch (const json::parse_error &e) {
    return parseError(std::string("manifest is not valid JSON: ") + e.what());
  }
  try {
    Manifest m = parseOrThrow(root);
    m.directory = directory;
    return m;
  } catch (const SchemaError &e) {
    return parseError("manifest: " + e.message);
  } catch (const json::exception &e) {
    return parseError(std::string("manifest: ") + e.what());
  }
}

Expected<Manifest> loadManifestFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return ioError("cannot open manifest '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string dir;
  size_t slash = path.find_last_of('/');
  dir = slash == std::string::npos ? "." : path.substr(0, slash);
  Expected<Manifest> m = parseManifest(ss.str(), dir);
  if (!m)
    return m.status().withContext(path);
  return m;
}

} // namespace approx::rt
