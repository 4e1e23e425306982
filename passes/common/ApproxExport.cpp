//===- ApproxExport.cpp - write NAME.ptx, NAME.manifest.json, NAME.cubin --===//
//
// The compiler/runtime boundary is a set of files. This pass writes them from
// each gpu.binary (PTX made by gpu-module-to-binary{format=isa}) and the
// record of approx-record-manifest, all or nothing:
//   - file names come from validated names only, so nothing lands outside
//     output-dir;
//   - every file is first written to a temporary created exclusively (no
//     existing file or link is ever opened) with a unique name, so two runs
//     never share one;
//   - the files are committed together under the output directory's lock
//     (approx/Passes/OutputFiles.h): every destination is checked before the
//     first rename, and the renames keep the previous files aside until all
//     succeeded: on any failure the previous files are put back and the
//     temporaries removed; two runs never mix their files.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/OutputFiles.h"
#include "approx/Passes/Passes.h"
#include "Ptxas.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <optional>

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXEXPORT
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

#ifndef APPROX_DEFAULT_PTXAS
#define APPROX_DEFAULT_PTXAS ""
#endif
#ifndef APPROX_VERSION
#define APPROX_VERSION "unknown"
#endif

/// The longest base name accepted for output files.
static constexpr size_t kMaxBaseNameLength = 200;

/// True if `name` can be a file name in output-dir: letters, digits, `_`,
/// `-` and `.`, not starting with `.`, at most kMaxBaseNameLength characters.
static bool isSafeBaseName(StringRef name, std::string &why) {
  if (name.empty()) {
    why = "is empty";
    return false;
  }
  if (name.size() > kMaxBaseNameLength) {
    why = "is longer than " + std::to_string(kMaxBaseNameLength) +
          " characters";
    return false;
  }
  if (name.front() == '.') {
    why = "starts with '.'";
    return false;
  }
  for (char c : name)
    if (!llvm::isAlnum(c) && c != '_' && c != '-' && c != '.') {
      why = "contains " + quoteName(StringRef(&c, 1)) +
            " (use letters, digits, '_', '-' and '.')";
      return false;
    }
  return true;
}

namespace {
struct ApproxExportPass final
    : public approx::impl::ApproxExportBase<ApproxExportPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Attribute -> JSON, for the plain attributes the manifest record holds.
/// The record is an attribute of the input and may have been written by
/// hand: numbers JSON cannot hold (inf, nan, beyond 64 bits) are refused
/// rather than printed as text no JSON reader takes.
static std::optional<llvm::json::Value> toJSON(Attribute attr,
                                               std::string &why) {
  if (auto s = dyn_cast<StringAttr>(attr))
    return llvm::json::Value(s.getValue().str());
  if (auto b = dyn_cast<BoolAttr>(attr))
    return llvm::json::Value(b.getValue());
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    const APInt &v = i.getValue();
    bool isUnsigned = i.getType().isUnsignedInteger();
    if (isUnsigned ? v.getActiveBits() > 63 : !v.isSignedIntN(64)) {
      SmallString<32> text;
      v.toString(text, 10, /*Signed=*/!isUnsigned);
      why = "holds the integer " + text.str().str() +
            ", which does not fit in 64 bits";
      return std::nullopt;
    }
    return llvm::json::Value(isUnsigned ? static_cast<int64_t>(v.getZExtValue())
                                        : v.getSExtValue());
  }
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    double d = f.getValueAsDouble();
    if (!std::isfinite(d)) {
      why = std::string("holds the number ") + (std::isnan(d) ? "nan" : "inf") +
            ", which JSON cannot represent";
      return std::nullopt;
    }
    return llvm::json::Value(d);
  }
  if (auto a = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array arr;
    for (Attribute e : a) {
      std::optional<llvm::json::Value> v = toJSON(e, why);
      if (!v)
        return std::nullopt;
      arr.push_back(std::move(*v));
    }
    return llvm::json::Value(std::move(arr));
  }
  if (auto d = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object obj;
    for (NamedAttribute e : d) {
      std::optional<llvm::json::Value> v = toJSON(e.getValue(), why);
      if (!v)
        return std::nullopt;
      obj[e.getName().getValue()] = std::move(*v);
    }
    return llvm::json::Value(std::move(obj));
  }
  std::string str;
  llvm::raw_string_ostream os(str);
  attr.print(os);
  return llvm::json::Value(str);
}

void ApproxExportPass::runOnOperation() {
  ModuleOp top = getOperation();
  auto record = top->getAttrOfType<DictionaryAttr>(kManifestAttrName);
  SmallVector<gpu::BinaryOp> binaries(top.getOps<gpu::BinaryOp>());
  auto fail = [&](Operation *at, const Twine &msg) {
    at->emitError("approx-export: ") << msg;
    signalPassFailure();
  };
  if (binaries.empty())
    return fail(top, "no gpu.binary to export; run "
                     "gpu-module-to-binary{format=isa} first");
  std::string why;
  if (!name.empty() && !isSafeBaseName(name, why))
    return fail(top, "name=" + quoteName(name) + " cannot be a file name: it " +
                         why);
  if (!llvm::sys::fs::is_directory(outputDir))
    return fail(top, "output directory " + quoteName(outputDir) +
                         " does not exist or is not a directory");

  OutputFiles pending(outputDir);
  std::string ptxas;
  for (gpu::BinaryOp bin : binaries) {
    // The PTX object and its target.
    gpu::ObjectAttr ptxObject;
    for (Attribute a : bin.getObjects()) {
      auto obj = cast<gpu::ObjectAttr>(a);
      if (obj.getFormat() == gpu::CompilationTarget::Assembly &&
          isa<NVVM::NVVMTargetAttr>(obj.getTarget()))
        ptxObject = obj;
    }
    if (!ptxObject)
      return fail(bin, "gpu.binary @" + bin.getName() +
                           " holds no PTX; run gpu-module-to-binary{format=isa}");
    // PTX is ASCII (ptxas stops at any other byte); inline asm copies its
    // text from the source, so a non-ASCII byte there reaches the PTX.
    StringRef ptxText = ptxObject.getObject().getValue();
    if (auto bad = llvm::find_if(ptxText,
                                 [](char c) { return (unsigned char)c > 0x7f; });
        bad != ptxText.end()) {
      size_t line = 1 + ptxText.take_front(bad - ptxText.begin()).count('\n');
      return fail(bin, "gpu.binary @" + bin.getName() + ": line " +
                           std::to_string(line) + " of the PTX holds the " +
                           "non-ASCII byte " +
                           llvm::formatv("{0:x2}", (unsigned char)*bad).str() +
                           ", which ptxas refuses (from inline asm text?)");
    }
    StringRef chip =
        cast<NVVM::NVVMTargetAttr>(ptxObject.getTarget()).getChip();
    // One binary: NAME (or the gpu.module's name); several: NAME.MODULE.
    StringRef moduleName = bin.getName();
    if ((name.empty() || binaries.size() > 1) &&
        !isSafeBaseName(moduleName, why))
      return fail(bin, "gpu.module name " + quoteName(moduleName) +
                           " cannot be a file name: it " + why +
                           (binaries.size() > 1
                                ? ""
                                : "; pass name= for the output files"));
    std::string base = name.empty() ? moduleName.str()
                       : binaries.size() > 1
                           ? name.getValue() + "." + moduleName.str()
                           : name.getValue();
    if (!isSafeBaseName(base, why))
      return fail(bin, "output name " + quoteName(base) +
                           " cannot be a file name: it " + why);

    SmallString<256> ptxPath(outputDir), manifestPath(outputDir),
        cubinPath(outputDir);
    llvm::sys::path::append(ptxPath, base + ".ptx");
    llvm::sys::path::append(manifestPath, base + ".manifest.json");
    llvm::sys::path::append(cubinPath, base + ".cubin");

    DictionaryAttr entry =
        record ? record.getAs<DictionaryAttr>(bin.getName()) : nullptr;
    if (!entry)
      return fail(bin, "no manifest record for gpu.binary " + quoteName(bin.getName()) +
                           "; run approx-record-manifest before lowering");
    llvm::json::Object manifest{{"format", "approx-manifest"},
                                {"version", 3},
                                {"producer", "approx " APPROX_VERSION},
                                {"module", base},
                                {"ptx", base + ".ptx"},
                                {"chip", chip}};
    for (NamedAttribute e : entry) {
      std::optional<llvm::json::Value> v = toJSON(e.getValue(), why);
      if (!v)
        return fail(bin, "the manifest record of " + quoteName(bin.getName()) +
                             " " + why + " (in " + quoteName(e.getName().getValue()) +
                             "); it is not a record approx-record-manifest "
                             "wrote");
      manifest[e.getName().getValue()] = std::move(*v);
    }
    if (cubin)
      manifest["cubin"] = base + ".cubin";

    if (std::string err = pending.write(ptxPath, ptxObject.getObject());
        !err.empty())
      return fail(bin, err);
    std::string json;
    llvm::raw_string_ostream os(json);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
       << "\n";
    if (std::string err = pending.write(manifestPath, json); !err.empty())
      return fail(bin, err);

    if (cubin) {
      if (ptxas.empty())
        ptxas = findPtxas(this->ptxas);
      if (ptxas.empty())
        return fail(bin, "cubin=true but ptxas was not found (set CUDA_PATH "
                         "or ptxas=)");
      // ptxas reads its own copy of the PTX, so that it never sees the file
      // under its final name before the commit.
      std::string ptxCopy;
      std::string err = pending.write(ptxPath.str().str() + ".in",
                                      ptxObject.getObject(), &ptxCopy);
      if (!err.empty())
        return fail(bin, err);
      std::string cubinTmp = pending.reserve(cubinPath, err);
      if (cubinTmp.empty())
        return fail(bin, err);
      err = runPtxas(ptxas, chip, ptxCopy, cubinTmp, base + ".ptx");
      if (!err.empty())
        return fail(bin, err);
      pending.discard(ptxCopy);
    }
  }
  if (std::string err = pending.commit(); !err.empty())
    return fail(top, err);
}
