//===- ApproxExport.cpp - write NAME.ptx, NAME.manifest.json, NAME.cubin --===//
//
// The compiler/runtime boundary is a pair of files. This pass writes them from
// each gpu.binary (PTX made by gpu-module-to-binary{format=isa}) and the
// record of approx-record-manifest. Everything is written to temporaries
// first and renamed at the end, so a failure leaves no partial output.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXEXPORT
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

#ifndef APPROX_DEFAULT_PTXAS
#define APPROX_DEFAULT_PTXAS ""
#endif

namespace {
struct ApproxExportPass final
    : public approx::impl::ApproxExportBase<ApproxExportPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// Files written to `path.tmp` and renamed into place on commit(); removed
/// on destruction otherwise.
class PendingFiles {
public:
  ~PendingFiles() {
    for (auto &f : files)
      llvm::sys::fs::remove(f.first);
  }
  /// Writes `contents` to a temporary for `path`; returns an error message.
  std::string write(StringRef path, StringRef contents) {
    std::string tmp = (path + ".tmp").str();
    std::error_code ec;
    llvm::raw_fd_ostream os(tmp, ec);
    if (ec)
      return "cannot write '" + path.str() + "': " + ec.message();
    os << contents;
    os.close();
    if (os.has_error()) {
      llvm::sys::fs::remove(tmp);
      return "cannot write '" + path.str() + "': " + os.error().message();
    }
    files.emplace_back(tmp, path.str());
    return "";
  }
  /// Adds an already written temporary.
  void adopt(StringRef tmp, StringRef path) {
    files.emplace_back(tmp.str(), path.str());
  }
  std::string commit() {
    for (auto &f : files)
      if (std::error_code ec = llvm::sys::fs::rename(f.first, f.second))
        return "cannot write '" + f.second + "': " + ec.message();
    files.clear();
    return "";
  }

private:
  SmallVector<std::pair<std::string, std::string>> files;
};
} // namespace

/// Attribute -> JSON, for the plain attributes the manifest record holds.
static llvm::json::Value toJSON(Attribute attr) {
  if (auto s = dyn_cast<StringAttr>(attr))
    return s.getValue().str();
  if (auto b = dyn_cast<BoolAttr>(attr))
    return b.getValue();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getInt();
  if (auto a = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array arr;
    for (Attribute e : a)
      arr.push_back(toJSON(e));
    return arr;
  }
  if (auto d = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object obj;
    for (NamedAttribute e : d)
      obj[e.getName().getValue()] = toJSON(e.getValue());
    return obj;
  }
  std::string str;
  llvm::raw_string_ostream os(str);
  attr.print(os);
  return str;
}

/// The ptxas to run: option, CUDA_PATH, build-time default, PATH.
static std::string findPtxas(StringRef option) {
  if (!option.empty())
    return option.str();
  if (const char *cuda = std::getenv("CUDA_PATH")) {
    SmallString<256> p(cuda);
    llvm::sys::path::append(p, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(p))
      return std::string(p);
  }
  if (StringRef(APPROX_DEFAULT_PTXAS).size() &&
      llvm::sys::fs::can_execute(APPROX_DEFAULT_PTXAS))
    return APPROX_DEFAULT_PTXAS;
  if (auto p = llvm::sys::findProgramByName("ptxas"))
    return *p;
  return "";
}

void ApproxExportPass::runOnOperation() {
  ModuleOp top = getOperation();
  auto record = top->getAttrOfType<DictionaryAttr>("approx.manifest");
  SmallVector<gpu::BinaryOp> binaries(top.getOps<gpu::BinaryOp>());
  if (binaries.empty()) {
    top.emitError("approx-export: no gpu.binary to export; run "
                  "gpu-module-to-binary{format=isa} first");
    return signalPassFailure();
  }
  if (!name.empty() && binaries.size() > 1) {
    top.emitError("approx-export: name= needs a single gpu.binary, found ")
        << binaries.size();
    return signalPassFailure();
  }
  if (!llvm::sys::fs::is_directory(outputDir)) {
    top.emitError("approx-export: output directory '")
        << outputDir << "' does not exist";
    return signalPassFailure();
  }

  PendingFiles pending;
  for (gpu::BinaryOp bin : binaries) {
    auto fail = [&](const Twine &msg) {
      bin.emitError("approx-export: ") << msg;
      signalPassFailure();
    };
    // The PTX object and its target.
    gpu::ObjectAttr ptxObject;
    for (Attribute a : bin.getObjects()) {
      auto obj = cast<gpu::ObjectAttr>(a);
      if (obj.getFormat() == gpu::CompilationTarget::Assembly &&
          isa<NVVM::NVVMTargetAttr>(obj.getTarget()))
        ptxObject = obj;
    }
    if (!ptxObject)
      return fail("gpu.binary @" + bin.getName() +
                  " holds no PTX; run gpu-module-to-binary{format=isa}");
    StringRef chip = cast<NVVM::NVVMTargetAttr>(ptxObject.getTarget()).getChip();
    std::string base = name.empty() ? bin.getName().str() : name.getValue();

    SmallString<256> ptxPath(outputDir), manifestPath(outputDir),
        cubinPath(outputDir);
    llvm::sys::path::append(ptxPath, base + ".ptx");
    llvm::sys::path::append(manifestPath, base + ".manifest.json");
    llvm::sys::path::append(cubinPath, base + ".cubin");

    // Manifest JSON.
    llvm::json::Object manifest{{"format", "approx-manifest"},
                                {"version", 1},
                                {"module", base},
                                {"gpu_module", bin.getName()},
                                {"ptx", base + ".ptx"},
                                {"chip", chip}};
    DictionaryAttr entry =
        record ? record.getAs<DictionaryAttr>(bin.getName()) : nullptr;
    if (!entry)
      return fail("no manifest record for @" + bin.getName() +
                  "; run approx-record-manifest before lowering");
    for (NamedAttribute e : entry)
      if (e.getName() != "gpu_module")
        manifest[e.getName().getValue()] = toJSON(e.getValue());
    if (cubin)
      manifest["cubin"] = base + ".cubin";

    if (std::string err = pending.write(ptxPath, ptxObject.getObject());
        !err.empty())
      return fail(err);
    std::string json;
    llvm::raw_string_ostream os(json);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
       << "\n";
    if (std::string err = pending.write(manifestPath, json); !err.empty())
      return fail(err);

    if (cubin) {
      std::string ptxas = findPtxas(this->ptxas);
      if (ptxas.empty())
        return fail("cubin=true but ptxas was not found (set CUDA_PATH or "
                    "ptxas=)");
      std::string tmpCubin = (cubinPath + ".tmp").str();
      std::string tmpPtx = (ptxPath + ".tmp").str();
      StringRef args[] = {ptxas, "-arch", chip, "-o", tmpCubin, tmpPtx};
      std::string errMsg;
      SmallString<128> logPath;
      llvm::sys::fs::createTemporaryFile("approx-ptxas", "log", logPath);
      std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                              logPath.str()};
      int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         0, 0, &errMsg);
      auto log = llvm::MemoryBuffer::getFile(logPath);
      std::string logText = log ? (*log)->getBuffer().trim().str() : "";
      llvm::sys::fs::remove(logPath);
      if (rc != 0) {
        llvm::sys::fs::remove(tmpCubin);
        return fail("ptxas failed on " + base + ".ptx: " +
                    (logText.empty() ? errMsg : logText));
      }
      pending.adopt(tmpCubin, cubinPath);
    }
  }
  if (std::string err = pending.commit(); !err.empty()) {
    top.emitError("approx-export: ") << err;
    return signalPassFailure();
  }
}
