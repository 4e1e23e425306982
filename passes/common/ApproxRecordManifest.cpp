//===- ApproxRecordManifest.cpp - record launch ABI, knobs and sites ------===//
//
// Kernel signatures are gone once gpu.modules become gpu.binary, so this pass
// records, while they still exist, what a launcher needs (manifest v2,
// docs/manifest.md): per gpu.module, its knobs of every kind, its kernels'
// arguments and the flat PTX parameter list, the knobs and sites each kernel
// reaches through its call graph, and the sites the techniques recorded. The
// record is a plain attribute on the top module; approx-export writes it out
// as JSON. It also refuses names that cannot be PTX symbols.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"
#include "common/ModuleUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/FormatVariadic.h"

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

/// A type as the manifest spells it, with its byte size.
struct TypeName {
  std::string name;
  int64_t size = 0;
};
} // namespace

/// Scalars a launcher can pass by value: integers of 1-64 bits, index, f16,
/// bf16, f32, f64.
static std::optional<TypeName> scalarName(Type type) {
  if (isa<IndexType>(type))
    return TypeName{"index", 8}; // convert-gpu-to-nvvm's index bitwidth
  if (auto i = dyn_cast<IntegerType>(type)) {
    unsigned w = i.getWidth();
    if (w == 1 || w == 8 || w == 16 || w == 32 || w == 64)
      return TypeName{"i" + std::to_string(w), w == 1 ? 1 : w / 8};
    return std::nullopt;
  }
  if (type.isF16())
    return TypeName{"f16", 2};
  if (type.isBF16())
    return TypeName{"bf16", 2};
  if (type.isF32())
    return TypeName{"f32", 4};
  if (type.isF64())
    return TypeName{"f64", 8};
  return std::nullopt;
}

/// Scalars, and fixed vectors of non-i1 scalars (`vector<4xf32>`).
static std::optional<TypeName> valueName(Type type) {
  auto vec = dyn_cast<VectorType>(type);
  if (!vec)
    return scalarName(type);
  if (vec.isScalable() || vec.getElementType().isInteger(1))
    return std::nullopt;
  std::optional<TypeName> elem = scalarName(vec.getElementType());
  if (!elem)
    return std::nullopt;
  std::string text;
  llvm::raw_string_ostream os(text);
  vec.print(os);
  return TypeName{text, elem->size * vec.getNumElements()};
}

static std::string paramTypeName(const TypeName &t) {
  return t.name == "index" ? "i64" : t.name;
}

//===----------------------------------------------------------------------===//
// How a kernel uses a memref argument.
//===----------------------------------------------------------------------===//

/// "read", "write", "readwrite" or "none", following the memref through
/// views, selects, region and branch forwarding. Where it reaches an op that
/// declares no memory effects and is not a known pure shape query (a call,
/// a pointer extraction), it may be read and written.
static StringRef accessOf(Value memref) {
  bool read = false, write = false;
  SmallVector<Value> work{memref};
  llvm::SmallPtrSet<Value, 16> seen{memref};
  auto follow = [&](Value v) {
    if (isa<BaseMemRefType>(v.getType()) && seen.insert(v).second)
      work.push_back(v);
  };
  auto followAll = [&](Operation *op) {
    for (Value r : op->getResults())
      follow(r);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          follow(arg);
  };
  while (!work.empty() && !(read && write)) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == v) {
        for (Value r : user->getResults())
          follow(r);
        continue;
      }
      if (user->hasTrait<OpTrait::IsTerminator>()) {
        // scf.yield / scf.condition: the parent's results and region
        // arguments; cf.br and friends: the successors' arguments.
        if (auto branch = dyn_cast<BranchOpInterface>(user)) {
          for (Block *succ : user->getSuccessors())
            for (BlockArgument arg : succ->getArguments())
              follow(arg);
          continue;
        }
        if (isa<RegionBranchTerminatorOpInterface>(user)) {
          followAll(user->getParentOp());
          continue;
        }
        read = write = true; // e.g. a return: the caller may do anything
        continue;
      }
      if (isa<RegionBranchOpInterface>(user)) {
        // scf.for/while iter_args, scf.if/execute_region: forwarded into the
        // regions and out as results.
        followAll(user);
        continue;
      }
      if (isa<memref::DimOp, memref::RankOp>(user))
        continue;
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (effects && effects.hasNoEffect()) {
        bool allMemref = llvm::all_of(user->getResultTypes(),
                                      llvm::IsaPred<BaseMemRefType>);
        if (allMemref) {
          for (Value r : user->getResults())
            follow(r); // arith.select, memref.cast, ...
          continue;
        }
        read = write = true; // escapes as a pointer or a cast
        continue;
      }
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

//===----------------------------------------------------------------------===//
// The record.
//===----------------------------------------------------------------------===//

namespace {
/// Builds the record of one gpu.module.
class ModuleRecorder {
public:
  ModuleRecorder(gpu::GPUModuleOp module, bool barePtr)
      : module(module), symbols(module), b(module.getContext()),
        barePtr(barePtr) {}
  FailureOr<DictionaryAttr> record();

private:
  LogicalResult checkNames();
  Attribute recordKnob(Operation *op);
  FailureOr<DictionaryAttr> recordKernel(gpu::GPUFuncOp fn,
                                         ArrayRef<SiteAttr> sites);
  /// Names of the knobs read (or tuned) anywhere in `functions`.
  void collectKnobs(const llvm::SetVector<Operation *> &functions,
                    llvm::SetVector<StringRef> &knobs);

  gpu::GPUModuleOp module;
  SymbolTable symbols;
  Builder b;
  bool barePtr;
};
} // namespace

LogicalResult ModuleRecorder::checkNames() {
  // Every symbol keeps its name in the PTX, where a runtime looks kernels
  // and knobs up (docs/manifest.md). The module's own name keys its record
  // (MLIR accepts @"" but prints it back as text it cannot parse).
  if (module.getName().empty()) {
    module.emitError("approx-record-manifest: a gpu.module with an empty "
                     "name cannot have a manifest record");
    return failure();
  }
  std::string why;
  Operation *op = findNonPtxSymbol(module, why);
  if (!op)
    return success();
  op->emitError("approx-record-manifest: ")
      << (isKernel(op) ? "kernel" : "symbol") << " name "
      << quoteName(cast<SymbolOpInterface>(op).getName())
      << " cannot be a PTX symbol: it " << why;
  return failure();
}

/// The manifest domain of a knob whose values are `values` (one attribute
/// per value implementing KnobValueAttrInterface), or, without them, of
/// `count` values known only by their index (ids "0", "1", ...).
static DictionaryAttr categoricalDomain(Builder &b, ArrayAttr values,
                                        int64_t count) {
  SmallVector<Attribute> list;
  for (int64_t i = 0; i < count; ++i) {
    SmallVector<NamedAttribute> v;
    if (values) {
      auto value = cast<KnobValueAttrInterface>(values[i]); // verified
      v.push_back(b.getNamedAttr("id", b.getStringAttr(value.getValueId())));
      v.push_back(b.getNamedAttr("payload", value.getPayload()));
    } else {
      v.push_back(b.getNamedAttr("id", b.getStringAttr(std::to_string(i))));
    }
    list.push_back(b.getDictionaryAttr(v));
  }
  return b.getDictionaryAttr(
      {b.getNamedAttr("kind", b.getStringAttr("categorical")),
       b.getNamedAttr("values", b.getArrayAttr(list))});
}

/// The technique of a knob with `values` ("" when unknown).
static StringRef techniqueOf(ArrayAttr values) {
  if (!values || values.empty())
    return "";
  return cast<KnobValueAttrInterface>(values[0]).getTechnique();
}

Attribute ModuleRecorder::recordKnob(Operation *op) {
  return llvm::TypeSwitch<Operation *, Attribute>(op)
      .Case([&](KnobOp k) {
        SmallVector<NamedAttribute> e = {
            b.getNamedAttr("name", b.getStringAttr(k.getSymName())),
            b.getNamedAttr("kind", b.getStringAttr("global")),
            b.getNamedAttr("symbol", b.getStringAttr(k.getSymName())),
            b.getNamedAttr("type", b.getStringAttr("i32")),
            b.getNamedAttr("path", b.getStringAttr(k.getParamPath()
                                                       ? "param"
                                                       : "global")),
            b.getNamedAttr("min", b.getI64IntegerAttr(k.getMin())),
            b.getNamedAttr("max", b.getI64IntegerAttr(k.getMax())),
            b.getNamedAttr("default",
                           b.getI64IntegerAttr(k.getDefaultValue()))};
        if (std::optional<SlotKind> slot = k.getWarpSlot())
          e.push_back(b.getNamedAttr(
              "warp_slot", b.getStringAttr(stringifySlotKind(*slot))));
        // Without values: ordinal (λ: more approximation as it grows).
        e.push_back(b.getNamedAttr(
            "domain", k.getValuesAttr()
                          ? categoricalDomain(b, k.getValuesAttr(),
                                              k.getMax() - k.getMin() + 1)
                          : b.getDictionaryAttr({b.getNamedAttr(
                                "kind", b.getStringAttr("ordinal"))})));
        // A λ takes its technique from the sites it governs (below): a
        // warp split is the SFU's or an LNS split's.
        if (StringRef t = techniqueOf(k.getValuesAttr()); !t.empty())
          e.push_back(b.getNamedAttr("technique", b.getStringAttr(t)));
        return b.getDictionaryAttr(e);
      })
      .Case([&](VariantKnobOp k) {
        SmallVector<Attribute> dispatch;
        for (NamedAttribute entry : k.getDispatch()) {
          SmallVector<Attribute> variants;
          for (Attribute v : cast<ArrayAttr>(entry.getValue()))
            variants.push_back(
                b.getStringAttr(cast<FlatSymbolRefAttr>(v).getValue()));
          dispatch.push_back(b.getDictionaryAttr(
              {b.getNamedAttr("kernel", entry.getName()),
               b.getNamedAttr("variants", b.getArrayAttr(variants))}));
        }
        SmallVector<NamedAttribute> e = {
            b.getNamedAttr("name", b.getStringAttr(k.getSymName())),
            b.getNamedAttr("kind", b.getStringAttr("variant")),
            b.getNamedAttr("min", b.getI64IntegerAttr(0)),
            b.getNamedAttr("max", b.getI64IntegerAttr(k.getNumVariants() - 1)),
            b.getNamedAttr("default",
                           b.getI64IntegerAttr(k.getDefaultValue())),
            b.getNamedAttr("dispatch", b.getArrayAttr(dispatch)),
            b.getNamedAttr("domain",
                           categoricalDomain(b, k.getValuesAttr(),
                                             k.getNumVariants())),
        };
        if (StringRef t = techniqueOf(k.getValuesAttr()); !t.empty())
          e.push_back(b.getNamedAttr("technique", b.getStringAttr(t)));
        return b.getDictionaryAttr(e);
      })
      .Case([&](BuildKnobOp k) {
        const int64_t n = k.getValues().size();
        DictionaryAttr domain = categoricalDomain(b, k.getValues(), n);
        if (FlatSymbolRefAttr kernel = k.getObjectKernelAttr()) {
          // The storage type of one memory object.
          SmallVector<NamedAttribute> object{
              b.getNamedAttr("kernel", b.getStringAttr(kernel.getValue())),
              b.getNamedAttr("arg", k.getObjectArgAttr())};
          // The other kernels' arguments that receive the same buffer.
          auto uses = k.getObjectUses();
          if (uses.size() > 1) {
            SmallVector<Attribute> also;
            for (auto [kn, arg] : llvm::drop_begin(uses))
              also.push_back(b.getDictionaryAttr(
                  {b.getNamedAttr("kernel", b.getStringAttr(kn.getValue())),
                   b.getNamedAttr("arg", b.getI64IntegerAttr(arg))}));
            object.push_back(b.getNamedAttr("also", b.getArrayAttr(also)));
          }
          if (StringAttr name = k.getObjectNameAttr())
            object.push_back(b.getNamedAttr("name", name));
          domain = b.getDictionaryAttr(
              {b.getNamedAttr("kind", b.getStringAttr("storage")),
               b.getNamedAttr("object", b.getDictionaryAttr(object)),
               b.getNamedAttr("values", domain.get("values"))});
        }
        SmallVector<NamedAttribute> e = {
            b.getNamedAttr("name", b.getStringAttr(k.getSymName())),
            b.getNamedAttr("kind", b.getStringAttr("build")),
            b.getNamedAttr("min", b.getI64IntegerAttr(0)),
            b.getNamedAttr("max", b.getI64IntegerAttr(n - 1)),
            b.getNamedAttr("default",
                           b.getI64IntegerAttr(k.getDefaultValue())),
            b.getNamedAttr("domain", domain)};
        if (StringRef t = techniqueOf(k.getValues()); !t.empty())
          e.push_back(b.getNamedAttr("technique", b.getStringAttr(t)));
        return b.getDictionaryAttr(e);
      })
      .Case([&](ResourceKnobOp k) {
        // A table is tensor<H x W x C> (texture_2d) or tensor<D x H x W x C>
        // (texture_3d, with "depth"); its data is row-major either way: x
        // fastest, then y, then z.
        const bool threeD = k.getTextureType() == TextureType::texture_3d;
        SmallVector<Attribute> options, tableValues;
        for (Attribute a : k.getTables()) {
          auto elements = cast<ElementsAttr>(a);
          auto type = cast<RankedTensorType>(elements.getShapedType());
          const int64_t rank = type.getRank();
          std::vector<char> bytes;
          bytes.reserve(elements.getNumElements() * 4);
          for (float f : elements.getValues<float>()) {
            uint32_t bits;
            std::memcpy(&bits, &f, 4);
            for (int i = 0; i < 4; ++i) // little-endian, whatever the host
              bytes.push_back(char((bits >> (8 * i)) & 0xff));
          }
          SmallVector<NamedAttribute> table{
              b.getNamedAttr("width",
                             b.getI64IntegerAttr(type.getDimSize(rank - 2))),
              b.getNamedAttr("height",
                             b.getI64IntegerAttr(type.getDimSize(rank - 3))),
              b.getNamedAttr("channels",
                             b.getI64IntegerAttr(type.getDimSize(rank - 1))),
              b.getNamedAttr("element", b.getStringAttr("f32")),
              b.getNamedAttr("data", b.getStringAttr(llvm::encodeBase64(
                                         ArrayRef<char>(bytes)))),
          };
          if (threeD)
            table.push_back(b.getNamedAttr(
                "depth", b.getI64IntegerAttr(type.getDimSize(0))));
          options.push_back(b.getDictionaryAttr(table));
          // The table's shape as the value's payload (its data stays in
          // resource.options).
          SmallVector<NamedAttribute> payload{
              b.getNamedAttr("type", b.getStringAttr("texture_table")),
              b.getNamedAttr("width",
                             b.getI64IntegerAttr(type.getDimSize(rank - 2))),
              b.getNamedAttr("height",
                             b.getI64IntegerAttr(type.getDimSize(rank - 3))),
              b.getNamedAttr("channels",
                             b.getI64IntegerAttr(type.getDimSize(rank - 1)))};
          if (threeD)
            payload.push_back(b.getNamedAttr(
                "depth", b.getI64IntegerAttr(type.getDimSize(0))));
          tableValues.push_back(b.getDictionaryAttr(
              {b.getNamedAttr("id", b.getStringAttr(
                                        "table" + std::to_string(
                                                      tableValues.size()))),
               b.getNamedAttr("payload", b.getDictionaryAttr(payload))}));
        }
        return b.getDictionaryAttr({
            b.getNamedAttr("name", b.getStringAttr(k.getSymName())),
            b.getNamedAttr("kind", b.getStringAttr("resource")),
            b.getNamedAttr("symbol", b.getStringAttr(k.getSymName())),
            b.getNamedAttr("type", b.getStringAttr("i64")),
            b.getNamedAttr("path", b.getStringAttr(k.getParamPath()
                                                       ? "param"
                                                       : "global")),
            b.getNamedAttr("min", b.getI64IntegerAttr(0)),
            b.getNamedAttr("max",
                           b.getI64IntegerAttr(k.getTables().size() - 1)),
            b.getNamedAttr("default",
                           b.getI64IntegerAttr(k.getDefaultValue())),
            b.getNamedAttr(
                "resource",
                b.getDictionaryAttr({
                    b.getNamedAttr("type", b.getStringAttr(stringifyTextureType(
                                               k.getTextureType()))),
                    b.getNamedAttr("filter", b.getStringAttr(
                                                 stringifyTextureFilter(
                                                     k.getFilter()))),
                    b.getNamedAttr("address", b.getStringAttr(
                                                  stringifyTextureAddress(
                                                      k.getAddress()))),
                    b.getNamedAttr("normalized_coords",
                                   b.getBoolAttr(k.getNormalizedCoords())),
                    b.getNamedAttr("options", b.getArrayAttr(options)),
                })),
            b.getNamedAttr(
                "domain",
                b.getDictionaryAttr(
                    {b.getNamedAttr("kind", b.getStringAttr("categorical")),
                     b.getNamedAttr("values", b.getArrayAttr(tableValues))})),
            // Texture tables are LNS's (approx-lns-lower).
            b.getNamedAttr("technique", b.getStringAttr("lns")),
        });
      })
      .Default([](Operation *) { return Attribute(); });
}

void ModuleRecorder::collectKnobs(const llvm::SetVector<Operation *> &functions,
                                  llvm::SetVector<StringRef> &knobs) {
  for (Operation *fn : functions)
    walkWithoutNestedSymbolTables(fn, [&](Operation *op) {
      if (auto v = dyn_cast<KnobValueOp>(op))
        knobs.insert(v.getKnob());
      else if (auto h = dyn_cast<ResourceHandleOp>(op))
        knobs.insert(h.getKnob());
      else if (auto f = dyn_cast<ApproxFunctionOp>(op); f && !f.getForm())
        knobs.insert(f.getKnobAttr().getValue());
    });
}

FailureOr<DictionaryAttr>
ModuleRecorder::recordKernel(gpu::GPUFuncOp fn, ArrayRef<SiteAttr> sites) {
  auto fail = [&](const Twine &msg) -> FailureOr<DictionaryAttr> {
    fn.emitError("approx-record-manifest: ") << msg;
    return failure();
  };
  SmallVector<Attribute> args, params;
  bool inKnobParams = false;
  llvm::SetVector<StringRef> knobs;
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
    Type type = fn.getArgumentTypes()[i];
    std::string where = "argument #" + std::to_string(i) + " of kernel @" +
                        fn.getName().str();
    auto param = [&](StringRef field, const TypeName &t) {
      params.push_back(b.getDictionaryAttr({
          b.getNamedAttr("arg", b.getI64IntegerAttr(i)),
          b.getNamedAttr("field", b.getStringAttr(field)),
          b.getNamedAttr("type", b.getStringAttr(paramTypeName(t))),
          b.getNamedAttr("size", b.getI64IntegerAttr(t.size)),
      }));
    };
    // Knob parameters (approx-knobs-to-params) come last.
    if (auto knob = fn.getArgAttrOfType<FlatSymbolRefAttr>(i,
                                                          kKnobArgAttrName)) {
      std::optional<TypeName> t = scalarName(type);
      if (!t || (t->name != "i32" && t->name != "i64"))
        return fail(where + " carries knob " + knob.getValue().str() +
                    " but is not i32 or i64");
      inKnobParams = true;
      knobs.insert(knob.getValue());
      params.push_back(b.getDictionaryAttr({
          b.getNamedAttr("field", b.getStringAttr("knob")),
          b.getNamedAttr("knob", b.getStringAttr(knob.getValue())),
          b.getNamedAttr("type", b.getStringAttr(t->name)),
          b.getNamedAttr("size", b.getI64IntegerAttr(t->size)),
      }));
      continue;
    }
    if (inKnobParams)
      return fail(where + " follows a knob parameter: knob parameters must "
                          "come last");
    int64_t first = params.size();
    SmallVector<NamedAttribute> arg;
    if (auto mr = dyn_cast<MemRefType>(type)) {
      std::optional<TypeName> elem = valueName(mr.getElementType());
      if (!elem)
        return fail(where + " is " + ("'" + llvm::formatv("{0}", type).str() + "'") +
                    ", a memref of an element type a launcher cannot "
                    "describe");
      SmallVector<int64_t> strides;
      int64_t offset = 0;
      bool identity = mr.getLayout().isIdentity();
      if (!identity && failed(mr.getStridesAndOffset(strides, offset)))
        return fail(where + " is " + ("'" + llvm::formatv("{0}", type).str() + "'") +
                    ", whose layout is not strided");
      if (barePtr) {
        if (!mr.hasStaticShape() || !identity)
          return fail("bare-ptr needs static shapes and identity layouts, "
                      "but " +
                      where + " is " + ("'" + llvm::formatv("{0}", type).str() + "'"));
        param("aligned", {"ptr", 8});
      } else {
        TypeName i64{"i64", 8};
        param("allocated", {"ptr", 8});
        param("aligned", {"ptr", 8});
        param("offset", i64);
        for (int64_t d = 0; d < mr.getRank(); ++d)
          param(("size" + Twine(d)).str(), i64);
        for (int64_t d = 0; d < mr.getRank(); ++d)
          param(("stride" + Twine(d)).str(), i64);
      }
      SmallVector<Attribute> shape;
      for (int64_t s : mr.getShape())
        shape.push_back(b.getI64IntegerAttr(ShapedType::isDynamic(s) ? -1 : s));
      arg = {b.getNamedAttr("kind", b.getStringAttr("memref")),
             b.getNamedAttr("element", b.getStringAttr(elem->name)),
             b.getNamedAttr("rank", b.getI64IntegerAttr(mr.getRank())),
             b.getNamedAttr("shape", b.getArrayAttr(shape)),
             b.getNamedAttr("abi",
                            b.getStringAttr(barePtr ? "bare" : "descriptor")),
             b.getNamedAttr("access",
                            b.getStringAttr(accessOf(fn.getArgument(i))))};
      if (!identity) {
        SmallVector<Attribute> s;
        for (int64_t v : strides)
          s.push_back(b.getI64IntegerAttr(ShapedType::isDynamic(v) ? -1 : v));
        arg.push_back(b.getNamedAttr("strides", b.getArrayAttr(s)));
        arg.push_back(b.getNamedAttr(
            "offset",
            b.getI64IntegerAttr(ShapedType::isDynamic(offset) ? -1 : offset)));
      }
    } else if (auto ptr = dyn_cast<LLVM::LLVMPointerType>(type)) {
      param("value", {"ptr", 8});
      arg = {b.getNamedAttr("kind", b.getStringAttr("pointer")),
             b.getNamedAttr("address_space",
                            b.getI64IntegerAttr(ptr.getAddressSpace()))};
    } else if (std::optional<TypeName> t = valueName(type)) {
      param("value", *t);
      arg = {b.getNamedAttr("kind", b.getStringAttr("scalar")),
             b.getNamedAttr("type", b.getStringAttr(t->name))};
    } else {
      return fail(where + " has type " + ("'" + llvm::formatv("{0}", type).str() + "'") +
                  ", which a launcher cannot pass (supported: integers, "
                  "index, f16, bf16, f32, f64, fixed vectors of them, "
                  "!llvm.ptr, and memrefs of them)");
    }
    arg.push_back(b.getNamedAttr("first_param", b.getI64IntegerAttr(first)));
    arg.push_back(b.getNamedAttr(
        "num_params", b.getI64IntegerAttr(int64_t(params.size()) - first)));
    args.push_back(b.getDictionaryAttr(arg));
  }

  // Knobs and sites through the call graph.
  llvm::SetVector<Operation *> reach = reachableFunctions({fn}, symbols);
  collectKnobs(reach, knobs);
  for (auto v : module.getOps<VariantKnobOp>())
    for (NamedAttribute entry : v.getDispatch())
      for (Attribute a : cast<ArrayAttr>(entry.getValue()))
        if (cast<FlatSymbolRefAttr>(a).getValue() == fn.getName())
          knobs.insert(v.getSymName());
  // Build knobs of this kernel's memory objects: its layout depends on them.
  for (auto k : module.getOps<BuildKnobOp>())
    for (auto [kernel, arg] : k.getObjectUses())
      if (kernel.getValue() == fn.getName())
        knobs.insert(k.getSymName());
  llvm::StringSet<> reachNames;
  for (Operation *f : reach)
    reachNames.insert(SymbolTable::getSymbolName(f).getValue());
  SmallVector<Attribute> siteIndices;
  for (auto [i, site] : llvm::enumerate(sites))
    if (reachNames.contains(site.getFunction()))
      siteIndices.push_back(b.getI64IntegerAttr(i));
  SmallVector<Attribute> knobNames;
  for (StringRef k : knobs)
    knobNames.push_back(b.getStringAttr(k));
  SmallVector<NamedAttribute> entry = {
      b.getNamedAttr("name", b.getStringAttr(fn.getName())),
      b.getNamedAttr("knobs", b.getArrayAttr(knobNames)),
      b.getNamedAttr("sites", b.getArrayAttr(siteIndices)),
      b.getNamedAttr("args", b.getArrayAttr(args)),
      b.getNamedAttr("params", b.getArrayAttr(params)),
  };
  // Raised kernels: whether the split versioned structured regions or
  // fell back to blocks of the LLVM CFG (approx-raise-kernel-cfg).
  if (auto cfg = fn->getAttrOfType<StringAttr>(kControlFlowAttrName))
    entry.push_back(b.getNamedAttr("control_flow", cfg));
  return b.getDictionaryAttr(entry);
}

FailureOr<DictionaryAttr> ModuleRecorder::record() {
  if (failed(checkNames()))
    return failure();
  SmallVector<Attribute> knobs;
  for (Operation &op : module.getBody()->without_terminator())
    if (Attribute k = recordKnob(&op))
      knobs.push_back(k);

  SmallVector<SiteAttr> sites;
  if (auto array = module->getAttrOfType<ArrayAttr>(kSitesAttrName))
    for (Attribute a : array)
      sites.push_back(cast<SiteAttr>(a)); // the dialect verified the array
  // A site in a function no kernel reaches (a helper's copy left after
  // inlining) describes no code that runs: it is not recorded.
  llvm::StringSet<> reached;
  bool anyKernel = false;
  for (auto fn : module.getOps<gpu::GPUFuncOp>())
    if (fn.isKernel()) {
      anyKernel = true;
      for (Operation *f : reachableFunctions({fn}, symbols))
        reached.insert(SymbolTable::getSymbolName(f).getValue());
    }
  llvm::erase_if(sites, [&](SiteAttr s) {
    return !reached.contains(s.getFunction());
  });
  if (!anyKernel)
    module.emitWarning("approx-record-manifest: gpu.module ")
        << quoteName(module.getName())
        << " has no kernel (gpu.func ... kernel): its manifest lists none";

  // Which kernels reach each function, for the sites' "kernels".
  llvm::StringMap<SmallVector<Attribute>> kernelsOf;
  SmallVector<Attribute> kernels;
  for (auto fn : module.getOps<gpu::GPUFuncOp>()) {
    if (!fn.isKernel())
      continue;
    FailureOr<DictionaryAttr> k = recordKernel(fn, sites);
    if (failed(k))
      return failure();
    kernels.push_back(*k);
    for (Operation *f : reachableFunctions({fn}, symbols))
      kernelsOf[SymbolTable::getSymbolName(f).getValue()].push_back(
          b.getStringAttr(fn.getName()));
  }

  // A site that names a knob must be read by it in every kernel that
  // reaches the site (docs/manifest.md): an approx.sites attribute written
  // by hand, or left over from other code, may claim otherwise.
  llvm::StringMap<llvm::StringSet<>> knobsOf;
  for (Attribute k : kernels) {
    auto dict = cast<DictionaryAttr>(k);
    auto &set = knobsOf[dict.getAs<StringAttr>("name").getValue()];
    for (Attribute n : dict.getAs<ArrayAttr>("knobs"))
      set.insert(cast<StringAttr>(n).getValue());
  }
  llvm::StringSet<> declared;
  for (Attribute k : knobs)
    declared.insert(cast<DictionaryAttr>(k).getAs<StringAttr>("name"));
  for (SiteAttr s : sites) {
    if (!s.getKnob())
      continue;
    if (!declared.contains(s.getKnob().getValue())) {
      module.emitError("approx-record-manifest: the site of ")
          << quoteName(s.getOp()) << " in " << quoteName(s.getFunction())
          << " names knob " << quoteName(s.getKnob().getValue())
          << ", which gpu.module " << quoteName(module.getName())
          << " does not declare: approx.sites does not match the code";
      return failure();
    }
    for (Attribute k : kernelsOf.lookup(s.getFunction())) {
      StringRef kernel = cast<StringAttr>(k).getValue();
      if (knobsOf[kernel].contains(s.getKnob().getValue()))
        continue;
      module.emitError("approx-record-manifest: the site of ")
          << quoteName(s.getOp()) << " in " << quoteName(s.getFunction())
          << " names knob " << quoteName(s.getKnob().getValue())
          << ", which kernel " << quoteName(kernel)
          << " does not read: approx.sites does not match the code";
      return failure();
    }
  }

  SmallVector<Attribute> jsonSites;
  for (SiteAttr s : sites) {
    std::string type;
    llvm::raw_string_ostream os(type);
    s.getType().print(os);
    SmallVector<NamedAttribute> e = {
        b.getNamedAttr("technique", b.getStringAttr(s.getTechnique())),
        b.getNamedAttr("function", b.getStringAttr(s.getFunction())),
        b.getNamedAttr("kernels",
                       b.getArrayAttr(kernelsOf.lookup(s.getFunction()))),
        b.getNamedAttr("op", b.getStringAttr(s.getOp())),
        b.getNamedAttr("type", b.getStringAttr(type)),
        b.getNamedAttr("form",
                       b.getStringAttr(stringifySiteForm(s.getForm()))),
        b.getNamedAttr("loc", b.getStringAttr(s.getLoc()))};
    if (s.getKnob())
      e.push_back(b.getNamedAttr("knob", b.getStringAttr(s.getKnob().getValue())));
    if (!s.getReason().empty())
      e.push_back(b.getNamedAttr("reason", b.getStringAttr(s.getReason())));
    if (s.getData())
      e.push_back(b.getNamedAttr("data", s.getData()));
    jsonSites.push_back(b.getDictionaryAttr(e));
  }
  // What each knob governs: the kernels that read it (or that it selects)
  // and the sites that name it.
  SmallVector<Attribute> governed;
  for (Attribute k : knobs) {
    auto dict = cast<DictionaryAttr>(k);
    StringRef name = dict.getAs<StringAttr>("name").getValue();
    SmallVector<Attribute> byKernel, bySite;
    for (Attribute kernel : kernels) {
      auto kd = cast<DictionaryAttr>(kernel);
      if (knobsOf[kd.getAs<StringAttr>("name").getValue()].contains(name))
        byKernel.push_back(kd.get("name"));
    }
    for (auto [i, s] : llvm::enumerate(sites))
      if (s.getKnob() && s.getKnob().getValue() == name)
        bySite.push_back(b.getI64IntegerAttr(i));
    SmallVector<NamedAttribute> e(dict.getValue());
    e.push_back(b.getNamedAttr(
        "governs",
        b.getDictionaryAttr({b.getNamedAttr("kernels", b.getArrayAttr(byKernel)),
                             b.getNamedAttr("sites", b.getArrayAttr(bySite))})));
    // A knob without values of its own takes its technique from the sites
    // it governs (λ of an LNS split, a scheme knob written by hand).
    bool hasTechnique = dict.get("technique") != nullptr;
    if (!hasTechnique)
      for (SiteAttr s : sites)
        if (s.getKnob() && s.getKnob().getValue() == name) {
          e.push_back(
              b.getNamedAttr("technique", b.getStringAttr(s.getTechnique())));
          hasTechnique = true;
          break;
        }
    // A warp-split λ that governs no site is the SFU's (the default split).
    if (!hasTechnique && dict.get("warp_slot"))
      e.push_back(b.getNamedAttr("technique", b.getStringAttr("sfu")));
    governed.push_back(b.getDictionaryAttr(e));
  }
  // The value each build knob took in this build (docs/configurations.md).
  SmallVector<NamedAttribute> configuration;
  for (auto k : module.getOps<BuildKnobOp>())
    configuration.push_back(b.getNamedAttr(
        k.getSymName(),
        b.getStringAttr(cast<KnobValueAttrInterface>(k.getValues()[k.getValue()])
                            .getValueId())));
  SmallVector<NamedAttribute> result = {
      b.getNamedAttr("gpu_module", b.getStringAttr(module.getName())),
      b.getNamedAttr("knobs", b.getArrayAttr(governed)),
      b.getNamedAttr("kernels", b.getArrayAttr(kernels)),
      b.getNamedAttr("sites", b.getArrayAttr(jsonSites))};
  if (!configuration.empty())
    result.push_back(b.getNamedAttr("configuration",
                                    b.getDictionaryAttr(configuration)));
  return b.getDictionaryAttr(result);
}

void ApproxRecordManifestPass::runOnOperation() {
  ModuleOp top = getOperation();
  Builder b(&getContext());
  // Every configuration entry must have been taken by a build knob.
  for (const std::string &entry : configuration) {
    size_t eq = entry.find('=');
    StringRef name = StringRef(entry).take_front(eq);
    StringRef value =
        eq == std::string::npos ? "" : StringRef(entry).drop_front(eq + 1);
    bool taken = false, declared = false;
    for (gpu::GPUModuleOp gm : getGpuModules(top))
      for (auto k : gm.getOps<BuildKnobOp>())
        if (k.getSymName() == name) {
          declared = true;
          taken |= cast<KnobValueAttrInterface>(k.getValues()[k.getValue()])
                       .getValueId() == value;
        }
    if (!declared) {
      top.emitError("approx-record-manifest: configuration names knob ")
          << quoteName(name)
          << ", which no build knob of the module declares";
      return signalPassFailure();
    }
    if (!taken) {
      top.emitError("approx-record-manifest: configuration asks knob ")
          << quoteName(name) << " for " << quoteName(value)
          << ", which the build did not take";
      return signalPassFailure();
    }
  }
  SmallVector<NamedAttribute> modules;
  for (gpu::GPUModuleOp gm : getGpuModules(top)) {
    FailureOr<DictionaryAttr> record = ModuleRecorder(gm, barePtr).record();
    if (failed(record))
      return signalPassFailure();
    modules.push_back(b.getNamedAttr(gm.getName(), *record));
  }
  top->setAttr(kManifestAttrName, b.getDictionaryAttr(modules));
}
