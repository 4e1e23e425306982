//===- approx-build.cpp - configurations built on demand, cached ----------===//
//
// approx-build INPUT.mlir --cache DIR [--options "approx-to-ptx options"]
//              [--name NAME] [--config KNOB=VALUE ...] [--plan PLAN.json]
//
// Builds configurations of a source's knob space into a content-addressed
// cache (docs/configurations.md): each build is DIR/<key>/ with what
// approx-to-ptx writes (NAME.ptx and NAME.manifest.json, or one pair per
// gpu.module), each manifest's `recipe` naming the source and options, and
// config.json. `--config` entries make one configuration (the build knobs
// not named take their defaults); `--plan` gives a JSON array of them,
// built in one process. A build the cache holds is not built again. The
// first build of a recipe also writes DIR/<recipe>.space.json (the build
// knobs and their values), which later runs use to put a configuration in
// canonical form before looking it up.
//
// Every path and option reaches the pipeline as data (ApproxToPTXOptions
// fields), never spliced into a pipeline string. Errors are one line and
// exit status 1; nothing half-written stays in the cache (a build is
// written into a temporary directory and renamed into place).
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/InitApprox.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef APPROX_VERSION
#define APPROX_VERSION "unknown"
#endif

using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::opt<std::string> input(cl::Positional, cl::desc("<input.mlir>"),
                           cl::Required);
cl::opt<std::string> cacheDir("cache", cl::desc("The cache directory"),
                              cl::value_desc("DIR"), cl::Required);
cl::opt<std::string> options("options",
                             cl::desc("approx-to-ptx options, as one string "
                                      "(not output-dir, name, configuration, "
                                      "export: this tool sets them)"),
                             cl::init(""));
cl::opt<std::string> name("name", cl::desc("Base name of the outputs "
                                           "(default: the input's stem)"),
                          cl::init(""));
cl::list<std::string> configEntries("config",
                                    cl::desc("KNOB=VALUE of the one "
                                             "configuration to build"),
                                    cl::value_desc("KNOB=VALUE"));
cl::opt<std::string> plan("plan",
                          cl::desc("A JSON array of configurations (objects "
                                   "KNOB -> VALUE id) to build"),
                          cl::value_desc("PLAN.json"), cl::init(""));

[[noreturn]] void die(const llvm::Twine &msg) {
  std::string text = msg.str();
  for (char &c : text)
    if (c == '\n' || c == '\r')
      c = ' ';
  llvm::errs() << "approx-build: " << text << "\n";
  std::exit(1);
}

std::string hex(ArrayRef<uint8_t> bytes) {
  static const char *digits = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

std::string sha256(StringRef data) {
  std::array<uint8_t, 32> d = llvm::SHA256::hash(
      ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(data.data()),
                        data.size()));
  return hex(d);
}

/// One configuration: build knob -> value id (sorted by name).
using Config = std::map<std::string, std::string>;

/// The canonical text of a configuration (docs/configurations.md).
std::string configText(const Config &c) {
  std::string out;
  for (const auto &[k, v] : c)
    out += (out.empty() ? "" : ";") + k + "=" + v;
  return out;
}

/// The build knobs of a recipe: name -> (value ids, default id).
struct Space {
  std::map<std::string, std::pair<std::vector<std::string>, std::string>>
      knobs;
};

/// The space of a built manifest: its build knobs.
Space spaceOf(const llvm::json::Object &manifest) {
  Space s;
  if (const llvm::json::Array *knobs = manifest.getArray("knobs"))
    for (const llvm::json::Value &v : *knobs) {
      const llvm::json::Object *k = v.getAsObject();
      if (!k || k->getString("kind") != StringRef("build"))
        continue;
      std::vector<std::string> ids;
      if (const llvm::json::Object *d = k->getObject("domain"))
        if (const llvm::json::Array *vals = d->getArray("values"))
          for (const llvm::json::Value &x : *vals)
            if (const llvm::json::Object *xo = x.getAsObject())
              if (auto id = xo->getString("id"))
                ids.push_back(id->str());
      int64_t def = k->getInteger("default").value_or(0);
      std::string defId = def >= 0 && size_t(def) < ids.size() ? ids[def] : "";
      s.knobs[k->getString("name").value_or("").str()] = {ids, defId};
    }
  return s;
}

/// The space as the cache keeps it (RECIPE.space.json: `build_knobs`, name
/// -> {values, default}); nullopt when the file is not of that shape, so
/// that the default build remakes it.
std::optional<Space> spaceOfFile(const llvm::json::Object &file) {
  const llvm::json::Object *knobs = file.getObject("build_knobs");
  if (!knobs)
    return std::nullopt;
  Space s;
  for (const auto &[name, v] : *knobs) {
    const llvm::json::Object *k = v.getAsObject();
    const llvm::json::Array *vals = k ? k->getArray("values") : nullptr;
    std::optional<StringRef> def = k ? k->getString("default") : std::nullopt;
    if (!vals || !def)
      return std::nullopt;
    std::vector<std::string> ids;
    for (const llvm::json::Value &x : *vals) {
      std::optional<StringRef> id = x.getAsString();
      if (!id)
        return std::nullopt;
      ids.push_back(id->str());
    }
    s.knobs[name.str()] = {ids, def->str()};
  }
  return s;
}

/// `c` with every build knob of `s` (defaults filled in), checked.
Config canonical(const Config &c, const Space &s) {
  Config out;
  for (const auto &[k, v] : c) {
    auto it = s.knobs.find(k);
    if (it == s.knobs.end())
      die("configuration names knob " + approx::quoteName(k) +
          ", which is not a build knob of the source");
    const auto &ids = it->second.first;
    if (std::find(ids.begin(), ids.end(), v) == ids.end()) {
      std::string list;
      for (const std::string &id : ids)
        list += (list.empty() ? "" : ", ") + id;
      die("configuration: " + approx::quoteName(v) + " is not a value of "
          "knob " + approx::quoteName(k) + " (" + list + ")");
    }
    out[k] = v;
  }
  for (const auto &[k, entry] : s.knobs)
    out.emplace(k, entry.second);
  return out;
}

/// KNOB=VALUE entries into a configuration.
Config parseEntries(ArrayRef<std::string> entries) {
  Config c;
  for (const std::string &e : entries) {
    size_t eq = e.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == e.size())
      die("--config " + approx::quoteName(e) + " is not KNOB=VALUE");
    if (!c.emplace(e.substr(0, eq), e.substr(eq + 1)).second)
      die("--config names knob " + approx::quoteName(e.substr(0, eq)) +
          " twice");
  }
  return c;
}

/// The configurations of --plan.
std::vector<Config> readPlan(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    die("cannot read --plan " + approx::quoteName(path) + ": " +
        buffer.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    die("--plan " + approx::quoteName(path) + " is not JSON: " +
        llvm::toString(json.takeError()));
  const llvm::json::Array *list = json->getAsArray();
  if (!list)
    die("--plan " + approx::quoteName(path) +
        " must be an array of configurations");
  std::vector<Config> out;
  for (const llvm::json::Value &v : *list) {
    const llvm::json::Object *o = v.getAsObject();
    if (!o)
      die("--plan: a configuration is not an object KNOB -> VALUE");
    Config c;
    for (const auto &[k, val] : *o) {
      auto s = val.getAsString();
      if (!s)
        die("--plan: the value of knob " + approx::quoteName(k.str()) +
            " is not a string id");
      c[k.str()] = s->str();
    }
    out.push_back(std::move(c));
  }
  if (out.empty())
    die("--plan " + approx::quoteName(path) + " holds no configuration");
  return out;
}

/// Reads a JSON object file.
std::optional<llvm::json::Object> readObject(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> v =
      llvm::json::parse((*buffer)->getBuffer());
  if (!v) {
    llvm::consumeError(v.takeError());
    return std::nullopt;
  }
  if (llvm::json::Object *o = v->getAsObject())
    return std::move(*o);
  return std::nullopt;
}

/// The manifests a build wrote (one per gpu.module: NAME.manifest.json, or
/// NAME.MODULE.manifest.json with several), sorted.
std::vector<std::string> manifestsIn(const std::string &dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (StringRef(it->path()).ends_with(".manifest.json"))
      out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

/// Writes `text` to `path` through a temporary and a rename.
void writeFile(const std::string &path, StringRef text) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(tmp, ec);
    if (ec)
      die("cannot write " + approx::quoteName(tmp) + ": " + ec.message());
    os << text;
    os.close();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error(); // a stream destroyed with its error set is fatal
      llvm::sys::fs::remove(tmp);
      die("cannot write " + approx::quoteName(path) + ": " + why);
    }
  }
  if ((ec = llvm::sys::fs::rename(tmp, path))) {
    llvm::sys::fs::remove(tmp);
    die("cannot write " + approx::quoteName(path) + ": " + ec.message());
  }
}

/// Removes a directory tree (a failed build's temporary).
void removeTree(const std::string &dir) {
  if (!dir.empty())
    llvm::sys::fs::remove_directories(dir);
}

/// Runs approx-to-ptx on a copy of the source for one configuration.
struct ConfigBuilder {
  MLIRContext &context;
  ModuleOp source;
  std::string baseName;

  /// Builds `c` (the entries as given) into a temporary directory of the
  /// cache; returns it. Diagnostics go to stderr; a failed build dies.
  std::string build(const Config &c) {
    SmallString<256> tmp(cacheDir);
    // createUniqueDirectory puts a relative model under the system's
    // temporary directory: the build must land in the cache, whose renames
    // stay on one file system.
    llvm::sys::fs::make_absolute(tmp);
    llvm::sys::path::append(tmp, ".build-" + std::to_string(::getpid()) +
                                     "-%%%%%%");
    SmallString<256> dir;
    if (std::error_code ec = llvm::sys::fs::createUniqueDirectory(tmp, dir))
      die("cannot write in " + approx::quoteName(cacheDir) + ": " +
          ec.message());
    std::string error;
    std::unique_ptr<approx::ApproxToPTXOptions> parsed =
        approx::parseApproxToPTXOptions(options, error);
    if (!parsed)
      die("internal: the options do not parse again: " + error);
    approx::ApproxToPTXOptions &o = *parsed;
    o.outputDir = dir.str().str();
    o.name = baseName;
    for (const auto &[k, v] : c)
      o.configuration.push_back(k + "=" + v);
    OwningOpRef<ModuleOp> module(cast<ModuleOp>(source->clone()));
    PassManager pm(&context);
    approx::buildApproxToPTXPipeline(pm, o);
    if (failed(pm.run(*module))) {
      removeTree(dir.str().str());
      die("the build of configuration " + approx::quoteName(configText(c)) +
          " failed (the diagnostic above says why)");
    }
    return dir.str().str();
  }
};

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "approx-build: configurations built on demand "
                              "into a content-addressed cache\n");
  if (!plan.empty() && !configEntries.empty())
    die("--plan and --config are exclusive");
  std::string optionsError;
  auto parsed = approx::parseApproxToPTXOptions(options, optionsError);
  if (!parsed)
    die("bad --options " + approx::quoteName(options) + ": " + optionsError);
  // Options this tool owns may not come through --options.
  for (auto [set, owned] :
       {std::pair{parsed->outputDir.getNumOccurrences() > 0, "output-dir"},
        {parsed->name.getNumOccurrences() > 0, "name"},
        {parsed->configuration.getNumOccurrences() > 0, "configuration"},
        {parsed->exportFiles.getNumOccurrences() > 0, "export"}})
    if (set)
      die(std::string("--options may not set ") + owned +
          ": approx-build sets it");
  std::string base = name.empty() ? llvm::sys::path::stem(input).str()
                                  : name.getValue();
  std::string why;
  if (!approx::isValidPtxIdentifier(base, &why))
    die((name.empty() ? "the input's stem " : "--name ") +
        approx::quoteName(base) + " cannot name the module: it " + why +
        (name.empty() ? "; pass --name" : ""));
  if (std::error_code ec = llvm::sys::fs::create_directories(cacheDir))
    die("cannot create the cache " + approx::quoteName(cacheDir) + ": " +
        ec.message());
  auto text = llvm::MemoryBuffer::getFile(input);
  if (!text)
    die("cannot read " + approx::quoteName(input) + ": " +
        text.getError().message());

  // The recipe: everything the build depends on besides the configuration.
  std::string normalized;
  {
    llvm::raw_string_ostream os(normalized);
    parsed->print(os);
  }
  const std::string recipe =
      sha256((*text)->getBuffer().str() + "\n" + normalized + "\n" +
             APPROX_VERSION);

  DialectRegistry registry;
  approx::registerApproxCompilerDependencies(registry);
  approx::registerApproxPassesAndPipelines();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy((*text)->getBuffer(), input),
      llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, llvm::errs());
  OwningOpRef<ModuleOp> source = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!source)
    die("cannot parse " + approx::quoteName(input) +
        " (the diagnostic above says where)");

  ConfigBuilder builder{context, *source, base};
  const std::string spacePath = cacheDir + "/" + recipe + ".space.json";
  std::vector<Config> wanted =
      plan.empty() ? std::vector<Config>{parseEntries(configEntries)}
                   : readPlan(plan);

  // The space: from the cache, or from the default build (made first).
  std::optional<Space> space;
  if (auto s = readObject(spacePath))
    space = spaceOfFile(*s);

  // A finished build gets its recipe and key in the manifest and a
  // config.json, then moves into place under its key.
  auto store = [&](const std::string &dir, const Config &c,
                   const std::string &key) {
    std::string final = cacheDir + "/" + key;
    std::vector<std::string> manifests = manifestsIn(dir);
    if (manifests.empty()) {
      removeTree(dir);
      die("internal: the build wrote no manifest");
    }
    for (const std::string &path : manifests) {
      std::optional<llvm::json::Object> m = readObject(path);
      if (!m) {
        removeTree(dir);
        die("internal: the build wrote an unreadable manifest");
      }
      (*m)["recipe"] = llvm::json::Object{{"id", recipe}, {"key", key}};
      std::string mtext;
      llvm::raw_string_ostream os(mtext);
      os << llvm::formatv("{0:2}", llvm::json::Value(std::move(*m))) << "\n";
      writeFile(path, os.str());
    }
    llvm::json::Object cfg;
    for (const auto &[k, v] : c)
      cfg[k] = v;
    std::string ctext;
    {
      llvm::raw_string_ostream os(ctext);
      os << llvm::formatv("{0:2}",
                          llvm::json::Value(llvm::json::Object{
                              {"recipe", recipe},
                              {"key", key},
                              {"source", input.getValue()},
                              {"options", normalized},
                              {"configuration", std::move(cfg)}}))
         << "\n";
    }
    writeFile(dir + "/config.json", ctext);
    // A directory without config.json is an interrupted store: replace it.
    if (llvm::sys::fs::exists(final) &&
        !llvm::sys::fs::exists(final + "/config.json"))
      removeTree(final);
    if (std::error_code ec = llvm::sys::fs::rename(dir, final)) {
      // Another builder got there first: its build is the same.
      removeTree(dir);
      if (!llvm::sys::fs::exists(final + "/config.json"))
        die("cannot move a build into " + approx::quoteName(final) + ": " +
            ec.message());
    }
  };
  auto timed = [](auto t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
        .count();
  };

  int built = 0, hits = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (const Config &entries : wanted) {
    if (!space) {
      // The space comes from the default build, kept like any other.
      auto tb = std::chrono::steady_clock::now();
      std::string dir = builder.build({});
      space = Space{};
      for (const std::string &path : manifestsIn(dir)) {
        std::optional<llvm::json::Object> m = readObject(path);
        if (!m) {
          removeTree(dir);
          die("internal: the default build wrote an unreadable manifest");
        }
        Space part = spaceOf(*m);
        space->knobs.insert(part.knobs.begin(), part.knobs.end());
      }
      llvm::json::Object knobs;
      for (const auto &[k, entry] : space->knobs) {
        llvm::json::Array ids;
        for (const std::string &id : entry.first)
          ids.push_back(id);
        knobs[k] = llvm::json::Object{{"values", std::move(ids)},
                                      {"default", entry.second}};
      }
      Config def = canonical({}, *space);
      std::string key = sha256(recipe + "\n" + configText(def));
      store(dir, def, key);
      std::string spaceText;
      llvm::raw_string_ostream os(spaceText);
      os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                       {"recipe", recipe},
                                       {"build_knobs", std::move(knobs)}}))
         << "\n";
      writeFile(spacePath, os.str());
      ++built;
      llvm::outs() << "built " << key << " " << configText(def) << " ("
                   << llvm::formatv("{0:f2}", timed(tb)) << " s)\n";
    }
    Config c = canonical(entries, *space);
    std::string key = sha256(recipe + "\n" + configText(c));
    if (llvm::sys::fs::exists(cacheDir + "/" + key + "/config.json")) {
      ++hits;
      llvm::outs() << "hit " << key << " " << configText(c) << "\n";
      continue;
    }
    auto tb = std::chrono::steady_clock::now();
    store(builder.build(c), c, key);
    ++built;
    llvm::outs() << "built " << key << " " << configText(c) << " ("
                 << llvm::formatv("{0:f2}", timed(tb)) << " s)\n";
  }
  double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  llvm::outs() << "approx-build: " << built << " built, " << hits
               << " already in the cache (" << llvm::formatv("{0:f2}", s)
               << " s), recipe " << recipe << "\n";
  return 0;
}
