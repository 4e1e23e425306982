//===- ApproxRecordManifest.cpp - record launch ABI, knobs and sites ------===//
//
// Kernel signatures are gone once gpu.modules become gpu.binary, so this pass
// records, while they still exist, what a launcher needs: per gpu.module, its
// kernels' arguments and the flat PTX parameter list, its knobs, the slot
// source and the sites approx-warp-split versioned. The record is a plain
// attribute on the top module; approx-export writes it out as JSON.
//
//===----------------------------------------------------------------------===//

#include "approx/Passes/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXRECORDMANIFEST
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {
struct ApproxRecordManifestPass final
    : public approx::impl::ApproxRecordManifestBase<ApproxRecordManifestPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Spelling of a scalar type in the manifest, "" if a launcher cannot pass it.
static std::string scalarName(Type type) {
  if (isa<IndexType>(type))
    return "i64"; // convert-gpu-to-nvvm's index bitwidth
  if (auto i = dyn_cast<IntegerType>(type))
    if (llvm::is_contained({1u, 8u, 16u, 32u, 64u}, i.getWidth()))
      return "i" + std::to_string(i.getWidth());
  if (type.isF16())
    return "f16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  return "";
}

static int64_t byteSize(StringRef name) {
  if (name == "ptr" || name == "i64" || name == "f64")
    return 8;
  if (name == "i32" || name == "f32")
    return 4;
  if (name == "i16" || name == "f16")
    return 2;
  return 1;
}

/// How a kernel uses a memref argument: "read", "write", "readwrite" or
/// "none", following views of it. An op that does not declare its memory
/// effects (a call, say) counts as reading and writing.
static StringRef accessOf(Value memref) {
  bool read = false, write = false;
  SmallVector<Value> work{memref};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == v) {
        llvm::append_range(work, user->getResults());
        continue;
      }
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects) {
        read = write = true;
        continue;
      }
      SmallVector<MemoryEffects::EffectInstance> found;
      effects.getEffectsOnValue(v, found);
      for (MemoryEffects::EffectInstance &e : found) {
        read |= isa<MemoryEffects::Read>(e.getEffect());
        write |= isa<MemoryEffects::Write>(e.getEffect());
      }
    }
  }
  if (read && write)
    return "readwrite";
  return write ? "write" : read ? "read" : "none";
}

void ApproxRecordManifestPass::runOnOperation() {
  ModuleOp top = getOperation();
  Builder b(&getContext());
  SmallVector<NamedAttribute> modules;
  bool failed = false;

  top.walk([&](gpu::GPUModuleOp gm) {
    SmallVector<Attribute> kernels, knobs;
    gm.walk([&](KnobOp k) {
      knobs.push_back(b.getDictionaryAttr({
          b.getNamedAttr("name", b.getStringAttr(k.getSymName())),
          b.getNamedAttr("symbol", b.getStringAttr(k.getSymName())),
          b.getNamedAttr("type", b.getStringAttr("i32")),
          b.getNamedAttr("min", b.getI64IntegerAttr(k.getMin())),
          b.getNamedAttr("max", b.getI64IntegerAttr(k.getMax())),
          b.getNamedAttr("default", b.getI64IntegerAttr(k.getDefaultValue())),
      }));
    });
    ArrayAttr sites = gm->getAttrOfType<ArrayAttr>("approx.sites");
    if (!sites)
      sites = b.getArrayAttr({});

    for (auto fn : gm.getOps<gpu::GPUFuncOp>()) {
      if (!fn.isKernel())
        continue;
      SmallVector<Attribute> args, params;
      for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
        Type type = fn.getArgumentTypes()[i];
        auto param = [&](StringRef field, StringRef t) {
          params.push_back(b.getDictionaryAttr({
              b.getNamedAttr("arg", b.getI64IntegerAttr(i)),
              b.getNamedAttr("field", b.getStringAttr(field)),
              b.getNamedAttr("type", b.getStringAttr(t)),
              b.getNamedAttr("size", b.getI64IntegerAttr(byteSize(t))),
          }));
        };
        int64_t first = params.size();
        SmallVector<NamedAttribute> arg;
        if (auto mr = dyn_cast<MemRefType>(type)) {
          std::string elem = scalarName(mr.getElementType());
          if (elem.empty() || !mr.getLayout().isIdentity()) {
            fn.emitError("approx-record-manifest: argument #")
                << i << " of kernel @" << fn.getName() << " has type " << type
                << ", which a launcher cannot describe (need an identity-"
                << "layout memref of a scalar element type)";
            failed = true;
            return;
          }
          if (barePtr) {
            if (!mr.hasStaticShape()) {
              fn.emitError("approx-record-manifest: bare-ptr needs static "
                           "shapes, but argument #")
                  << i << " of kernel @" << fn.getName() << " is " << type;
              failed = true;
              return;
            }
            param("aligned", "ptr");
          } else {
            param("allocated", "ptr");
            param("aligned", "ptr");
            param("offset", "i64");
            for (int64_t d = 0; d < mr.getRank(); ++d)
              param(("size" + Twine(d)).str(), "i64");
            for (int64_t d = 0; d < mr.getRank(); ++d)
              param(("stride" + Twine(d)).str(), "i64");
          }
          SmallVector<Attribute> shape;
          for (int64_t s : mr.getShape())
            shape.push_back(
                b.getI64IntegerAttr(ShapedType::isDynamic(s) ? -1 : s));
          arg = {b.getNamedAttr("kind", b.getStringAttr("memref")),
                 b.getNamedAttr("access", b.getStringAttr(accessOf(
                                              fn.getArgument(i)))),
                 b.getNamedAttr("element", b.getStringAttr(elem)),
                 b.getNamedAttr("rank", b.getI64IntegerAttr(mr.getRank())),
                 b.getNamedAttr("shape", b.getArrayAttr(shape))};
        } else {
          std::string t = scalarName(type);
          if (t.empty()) {
            fn.emitError("approx-record-manifest: argument #")
                << i << " of kernel @" << fn.getName() << " has type " << type
                << ", which a launcher cannot pass";
            failed = true;
            return;
          }
          param("value", t);
          arg = {b.getNamedAttr("kind", b.getStringAttr("scalar")),
                 b.getNamedAttr("type", b.getStringAttr(t))};
        }
        arg.push_back(b.getNamedAttr("first_param", b.getI64IntegerAttr(first)));
        arg.push_back(b.getNamedAttr(
            "num_params", b.getI64IntegerAttr(params.size() - first)));
        args.push_back(b.getDictionaryAttr(arg));
      }
      // Knobs governing sites of this kernel (sites record their function).
      llvm::SetVector<Attribute> kernelKnobs;
      for (Attribute s : sites) {
        auto d = cast<DictionaryAttr>(s);
        if (d.getAs<StringAttr>("function").getValue() == fn.getName())
          kernelKnobs.insert(d.get("knob"));
      }
      kernels.push_back(b.getDictionaryAttr({
          b.getNamedAttr("name", b.getStringAttr(fn.getName())),
          b.getNamedAttr("knobs", b.getArrayAttr(kernelKnobs.getArrayRef())),
          b.getNamedAttr("args", b.getArrayAttr(args)),
          b.getNamedAttr("params", b.getArrayAttr(params)),
      }));
    }
    // Sites' types as strings for JSON.
    SmallVector<Attribute> jsonSites;
    for (Attribute s : sites) {
      SmallVector<NamedAttribute> entries(cast<DictionaryAttr>(s).getValue());
      for (NamedAttribute &e : entries)
        if (auto t = dyn_cast<TypeAttr>(e.getValue())) {
          std::string str;
          llvm::raw_string_ostream os(str);
          t.getValue().print(os);
          e.setValue(b.getStringAttr(str));
        }
      jsonSites.push_back(b.getDictionaryAttr(entries));
    }
    auto slot = gm->getAttrOfType<StringAttr>("approx.slot");
    modules.push_back(b.getNamedAttr(
        gm.getName(),
        b.getDictionaryAttr({
            b.getNamedAttr("gpu_module", b.getStringAttr(gm.getName())),
            b.getNamedAttr("slot", slot ? slot : b.getStringAttr("none")),
            b.getNamedAttr("knobs", b.getArrayAttr(knobs)),
            b.getNamedAttr("kernels", b.getArrayAttr(kernels)),
            b.getNamedAttr("sites", b.getArrayAttr(jsonSites)),
        })));
  });
  if (failed)
    return signalPassFailure();
  top->setAttr("approx.manifest", b.getDictionaryAttr(modules));
}
