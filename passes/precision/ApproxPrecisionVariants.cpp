//===- ApproxPrecisionVariants.cpp - storage-precision kernel variants ----===//
//
// The compiler side of precision scaling of memory objects (PreScaler, issue
// 10): for each configuration the decision maker may ask for -- a storage
// type per memref argument of a kernel -- a clone of the kernel whose scaled
// arguments are memrefs of the storage type, loads converted back to the
// kernel's element type and stores converted to the storage type, so that
// the kernel computes in its own types. The clones are dispatched by one
// approx.variant_knob (knob value i = configuration i). What the rewrite
// cannot keep exact (a scaled memref escaping into a call, a view, a vector
// or atomic access) is left alone with a remark (docs/precision.md,
// "Compiler side").
//
// The original kernel is never erased: the configuration equal to its own
// types (types=: always variant 0) is the original itself, under its own
// name, and with no such configuration it stays outside the dispatch. Why:
// host code in the same file (`gpu.launch_func @mod::@k`, lowered by
// gpu-to-llvm to a lookup of "k" at run time) must keep resolving, and an
// unscaled launch must run the kernel as written. Both run-time selectors
// agree with this: runtime/core's Module takes a dispatched name's
// variants[value] first (the manifest allows a logical name to be one of
// its own variants), and the precision hooks and Session pick by element
// types among "the kernel itself, then its dispatch entry's variants", so
// the original is what an unscaled launch gets. The alternatives cost more:
// rewriting host launches would need this gpu.module pass to edit its
// parent, and a kept copy next to a `__p0` clone would compile the same
// kernel twice.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/PtxNames.h"
#include "approx/Passes/Passes.h"
#include "common/ModuleUtils.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/DebugStringHelper.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXPRECISIONVARIANTS
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {

/// One parsed configuration: its text and one entry per memref argument, a
/// null Type for `keep`.
struct Config {
  std::string text;
  SmallVector<Type> entries;
};

/// A kernel to clone: its memref arguments (function argument indices) and,
/// per configuration, the storage element type of each and the variant's
/// name (the kernel's own for the configuration equal to its types).
struct KernelPlan {
  gpu::GPUFuncOp func;
  SmallVector<unsigned> memrefArgs;
  SmallVector<SmallVector<Type>> storage;
  SmallVector<std::string> cloneNames;
  /// The configuration whose types are the kernel's own: its variant is the
  /// original kernel, not a clone.
  std::optional<unsigned> own;
};

/// The element types of `func`'s memref arguments `memrefArgs`.
static SmallVector<Type> ownTypes(gpu::GPUFuncOp func,
                                  ArrayRef<unsigned> memrefArgs) {
  SmallVector<Type> types;
  for (unsigned i : memrefArgs)
    types.push_back(
        cast<MemRefType>(func.getArgument(i).getType()).getElementType());
  return types;
}

/// The element types precision scaling stores and converts between.
static bool isScalableFloat(Type t) {
  return isa<Float64Type, Float32Type, Float16Type, BFloat16Type>(t);
}

static std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// One config entry: `keep` gives a null Type; f64/f32/f16/bf16, iN and
/// index their type; anything else nullopt.
static std::optional<Type> parseEntry(StringRef s, MLIRContext *ctx) {
  if (s == "keep")
    return Type();
  if (s == "f64")
    return Float64Type::get(ctx);
  if (s == "f32")
    return Float32Type::get(ctx);
  if (s == "f16")
    return Float16Type::get(ctx);
  if (s == "bf16")
    return BFloat16Type::get(ctx);
  if (s == "index")
    return IndexType::get(ctx);
  unsigned width = 0;
  if (s.consume_front("i") && !s.getAsInteger(10, width) && width >= 1 &&
      width <= IntegerType::kMaxWidth)
    return IntegerType::get(ctx, width);
  return std::nullopt;
}

/// `v` converted to the float type `to`: extf to a wider type, truncf
/// (round to nearest even) to a narrower one, through f32 between the two
/// 16-bit formats (exact, then one rounding).
static Value convertFloat(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  unsigned wf = from.getIntOrFloatBitWidth(), wt = to.getIntOrFloatBitWidth();
  if (wt > wf)
    return arith::ExtFOp::create(b, loc, to, v);
  if (wt < wf)
    return arith::TruncFOp::create(b, loc, to, v);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  return arith::TruncFOp::create(b, loc, to, wide);
}

/// Makes `arg` a memref of `storage`: each memref.load of it yields the
/// storage type and is converted back to the original element type for its
/// users, each memref.store converts its value first. memref.dim is left
/// as it is. The caller has checked that there are no other uses.
static void scaleArgument(BlockArgument arg, Type storage) {
  auto type = cast<MemRefType>(arg.getType());
  Type original = type.getElementType();
  if (storage == original)
    return;
  arg.setType(MemRefType::Builder(type).setElementType(storage));
  OpBuilder b(arg.getContext());
  for (OpOperand &use : llvm::make_early_inc_range(arg.getUses())) {
    Operation *user = use.getOwner();
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      SmallVector<OpOperand *> readers;
      for (OpOperand &r : load.getResult().getUses())
        readers.push_back(&r);
      load.getResult().setType(storage);
      b.setInsertionPointAfter(load);
      Value v = convertFloat(b, load.getLoc(), load.getResult(), original);
      for (OpOperand *r : readers)
        r->set(v);
    } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
      b.setInsertionPoint(store);
      store.getValueMutable().assign(
          convertFloat(b, store.getLoc(), store.getValueToStore(), storage));
    }
  }
}

/// The first use of `arg` that scaleArgument cannot rewrite, if any: only
/// memref.load, memref.store (as its memref) and memref.dim read a memref
/// without reinterpreting its elements.
static Operation *unsupportedUse(BlockArgument arg) {
  for (OpOperand &use : arg.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::LoadOp, memref::DimOp>(user))
      continue;
    if (auto store = dyn_cast<memref::StoreOp>(user);
        store && &use == &store.getMemrefMutable())
      continue;
    return user;
  }
  return nullptr;
}

struct ApproxPrecisionVariantsPass final
    : mlir::approx::impl::ApproxPrecisionVariantsBase<
          ApproxPrecisionVariantsPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto fail = [&](Operation *at, const Twine &msg) {
      at->emitError(msg);
      signalPassFailure();
    };

    // Options first: nothing changes unless they are all valid.
    std::string why;
    if (!isValidPtxIdentifier(knob, &why))
      return fail(module, "knob name " + quoteName(knob) +
                              " is not an identifier: it " + why);
    if (int(!types.empty()) + int(!configs.empty()) + int(!space.empty()) > 1)
      return fail(module, "configs, types and space are exclusive: give one");
    if (!types.empty())
      return runAllTypes(fail);
    if (!space.empty())
      return runSpace(fail);
    if (!configuration.empty())
      return fail(module, "configuration= chooses values of space= knobs: "
                          "give space= too");
    SmallVector<Config> parsed;
    llvm::StringSet<> seen;
    for (const std::string &text : configs) {
      if (!seen.insert(text).second)
        return fail(module, "config '" + text + "' is listed twice");
      Config c{text, {}};
      SmallVector<StringRef> parts;
      StringRef(text).split(parts, ':');
      for (StringRef p : parts) {
        std::optional<Type> t = parseEntry(p, ctx);
        if (!t)
          return fail(module, "config '" + text + "' names unknown type '" + p +
                                  "' (expected keep, f64, f32, f16, bf16, or "
                                  "an integer argument's iN or index)");
        c.entries.push_back(*t);
      }
      parsed.push_back(std::move(c));
    }
    if (configs.size() < 2)
      return fail(module, "configs has " + Twine(configs.size()) +
                              " configuration(s): a variant knob needs at "
                              "least 2");

    // Plan every kernel before changing any.
    SmallVector<KernelPlan> plans;
    for (gpu::GPUFuncOp func : selectedKernels()) {
      StringRef name = func.getName();
      KernelPlan plan{func, {}, {}, {}, std::nullopt};
      std::optional<unsigned> ptrArg;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
        Type t = func.getArgument(i).getType();
        if (isa<LLVM::LLVMPointerType>(t) && !ptrArg)
          ptrArg = i;
        if (isa<MemRefType>(t))
          plan.memrefArgs.push_back(i);
      }
      if (ptrArg) {
        func.emitRemark("not precision-scaled: argument #")
            << *ptrArg << " of kernel @" << name
            << " is an !llvm.ptr; only memref arguments are supported";
        continue;
      }
      auto elementOf = [&](unsigned j) {
        return cast<MemRefType>(func.getArgument(plan.memrefArgs[j]).getType())
            .getElementType();
      };
      if (llvm::none_of(
              llvm::seq<unsigned>(0, plan.memrefArgs.size()),
              [&](unsigned j) { return isScalableFloat(elementOf(j)); })) {
        if (!kernels.empty())
          func.emitRemark("not precision-scaled: kernel @")
              << name << " has no memref argument of f64, f32, f16 or bf16";
        continue;
      }
      for (const Config &c : parsed) {
        if (c.entries.size() != plan.memrefArgs.size())
          return fail(
              func, "config '" + c.text + "' has " + Twine(c.entries.size()) +
                        " type(s) but kernel @" + name + " has " +
                        Twine(plan.memrefArgs.size()) + " memref argument(s)");
        SmallVector<Type> types;
        for (auto [j, entry] : llvm::enumerate(c.entries)) {
          Type original = elementOf(j);
          Type t = entry ? entry : original;
          if (t != original &&
              !(isScalableFloat(original) && isScalableFloat(t)))
            return fail(func, "config '" + c.text + "' stores argument #" +
                                  Twine(plan.memrefArgs[j]) + " of kernel @" +
                                  name + " (element type " +
                                  typeString(original) + ") as " +
                                  typeString(t) +
                                  ": only f64, f32, f16 and bf16 elements are "
                                  "scaled, to one of those");
          types.push_back(t);
        }
        for (auto [k, earlier] : llvm::enumerate(plan.storage))
          if (earlier == types)
            return fail(func, "configs '" + parsed[k].text + "' and '" +
                                  c.text + "' give kernel @" + name +
                                  " the same types");
        plan.storage.push_back(std::move(types));
      }
      if (dispatched(func))
        continue;
      SmallVector<Type> own = ownTypes(func, plan.memrefArgs);
      for (unsigned i = 0; i < parsed.size(); ++i) {
        if (plan.storage[i] == own)
          plan.own = i;
        plan.cloneNames.push_back(
            plan.own == i ? name.str() : (name + "__p" + Twine(i)).str());
      }
      if (auto clash = llvm::find_if(
              plan.cloneNames,
              [&](const std::string &c) {
                return c != name &&
                       (c == knob || SymbolTable::lookupSymbolIn(module, c));
              });
          clash != plan.cloneNames.end()) {
        func.emitRemark("not precision-scaled: symbol @")
            << *clash << " exists; it would be a precision variant of @"
            << name;
        continue;
      }
      if (!unscalable(plan))
        plans.push_back(std::move(plan));
    }
    if (plans.empty())
      return;
    if (SymbolTable::lookupSymbolIn(module, knob))
      return fail(module, "symbol @" + knob +
                              " exists; the precision variant knob needs "
                              "that name (choose another knob=)");

    SmallVector<NamedAttribute> dispatch;
    for (KernelPlan &plan : plans)
      dispatch.push_back(emitClones(plan));
    OpBuilder b(ctx);
    b.setInsertionPointToStart(module.getBody());
    // configs= applies one list to every kernel's own arguments: its values
    // have ids (the config's index) but no one payload for all kernels.
    VariantKnobOp::create(b, module.getLoc(), knob, 0,
                          DictionaryAttr::get(ctx, dispatch),
                          /*values=*/nullptr);
  }

  /// The module's kernels that kernels= selects (all when empty), taken
  /// before any is cloned.
  SmallVector<gpu::GPUFuncOp> selectedKernels() {
    SmallVector<gpu::GPUFuncOp> r;
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>())
      if (func.isKernel() &&
          (kernels.empty() || llvm::is_contained(kernels, func.getName())))
        r.push_back(func);
    return r;
  }

  /// Whether `func` is dispatched by, or a variant of, a variant knob
  /// already (no dispatch chains); says so in a remark.
  bool dispatched(gpu::GPUFuncOp func) {
    VariantKnobOp knob = dispatchingKnob(getOperation(), func.getName());
    if (knob)
      func.emitRemark("not precision-scaled: kernel @")
          << func.getName() << " is already dispatched by variant knob @"
          << knob.getSymName();
    return bool(knob);
  }

  /// Whether some argument a configuration of `plan` scales has a use the
  /// rewrite cannot keep exact; the remark is on that use.
  static bool unscalable(KernelPlan &plan) {
    for (auto [j, arg] : llvm::enumerate(plan.memrefArgs)) {
      BlockArgument value = plan.func.getArgument(arg);
      Type own = cast<MemRefType>(value.getType()).getElementType();
      if (llvm::none_of(plan.storage,
                        [&](ArrayRef<Type> t) { return t[j] != own; }))
        continue;
      if (Operation *user = unsupportedUse(value)) {
        user->emitRemark("not precision-scaled: argument #")
            << arg << " of kernel @" << plan.func.getName() << " is used by '"
            << user->getName()
            << "'; a scaled memref may only be read by memref.load, "
               "written by memref.store and measured by memref.dim";
        return true;
      }
    }
    return false;
  }

  /// One clone per configuration of `plan` other than the kernel's own
  /// types, right after the original, which stays (the file comment says
  /// why); returns the dispatch entry {kernel = [variants]}.
  static NamedAttribute emitClones(KernelPlan &plan) {
    MLIRContext *ctx = plan.func.getContext();
    OpBuilder b(plan.func);
    b.setInsertionPointAfter(plan.func);
    SmallVector<Attribute> variants;
    for (auto [i, types, name] :
         llvm::enumerate(plan.storage, plan.cloneNames)) {
      if (plan.own == i) {
        variants.push_back(FlatSymbolRefAttr::get(ctx, name));
        continue;
      }
      auto clone = cast<gpu::GPUFuncOp>(b.clone(*plan.func));
      clone.setName(name);
      for (auto [arg, t] : llvm::zip(plan.memrefArgs, types))
        scaleArgument(clone.getArgument(arg), t);
      SmallVector<Type> inputs;
      for (unsigned i = 0, e = clone.getNumArguments(); i < e; ++i)
        inputs.push_back(clone.getArgument(i).getType());
      clone.setFunctionType(FunctionType::get(
          ctx, inputs, clone.getFunctionType().getResults()));
      variants.push_back(FlatSymbolRefAttr::get(ctx, name));
    }
    return NamedAttribute(plan.func.getNameAttr(),
                          ArrayAttr::get(ctx, variants));
  }

  /// The listed storage types (types=, space=), checked.
  FailureOr<SmallVector<Type>>
  parseListed(ArrayRef<std::string> list, StringRef option,
              function_ref<void(Operation *, const Twine &)> fail) {
    SmallVector<Type> listed;
    for (const std::string &text : list) {
      std::optional<Type> t = parseEntry(text, &getContext());
      if (!t || !*t || !isScalableFloat(*t)) {
        fail(getOperation(), option + " names '" + text +
                                 "': expected f64, f32, f16 or bf16");
        return failure();
      }
      if (llvm::is_contained(listed, *t)) {
        fail(getOperation(), option + " lists '" + text + "' twice");
        return failure();
      }
      listed.push_back(*t);
    }
    return listed;
  }

  /// A gpu.launch_func of `func` in the host code around its gpu.module,
  /// or null. Reads only the host functions (not the other gpu.modules,
  /// which their own pass instances may be changing).
  static Operation *hostLaunchOf(gpu::GPUFuncOp func) {
    auto gpuModule = func->getParentOfType<gpu::GPUModuleOp>();
    Operation *host = gpuModule ? gpuModule->getParentOp() : nullptr;
    if (!host || host->getNumRegions() != 1 || host->getRegion(0).empty())
      return nullptr;
    Operation *found = nullptr;
    for (Operation &op : host->getRegion(0).front()) {
      if (isa<gpu::GPUModuleOp>(op))
        continue;
      op.walk([&](gpu::LaunchFuncOp launch) {
        if (launch.getKernelModuleName() == gpuModule.getNameAttr() &&
            launch.getKernelName() == func.getNameAttr()) {
          found = launch;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (found)
        break;
    }
    return found;
  }

  static std::string valueId(ArrayRef<Attribute> values, int64_t i) {
    return cast<KnobValueAttrInterface>(values[i]).getValueId();
  }

  /// space=: a build knob per memory object, the kernels built for the
  /// configured values (the default: their own types), no clones. A memory
  /// object is one float memref argument, or every argument carrying the
  /// same `approx.object` name (kernels a frontend knows receive one
  /// buffer): one knob, one type for all of them.
  void runSpace(function_ref<void(Operation *, const Twine &)> fail) {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    FailureOr<SmallVector<Type>> listed = parseListed(space, "space", fail);
    if (failed(listed))
      return;
    // configuration=: KNOB=VALUE; entries for knobs of other passes stay.
    llvm::StringMap<std::string> chosen;
    for (const std::string &entry : configuration) {
      size_t eq = entry.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == entry.size())
        return fail(module, "configuration entry '" + entry +
                                "' is not KNOB=VALUE");
      if (!chosen.try_emplace(entry.substr(0, eq), entry.substr(eq + 1))
               .second)
        return fail(module, "configuration names knob '" +
                                entry.substr(0, eq) + "' twice");
    }
    // The memory objects, in order of their first argument.
    struct Object {
      std::string knobName, name; // name: "" for an unnamed argument
      SmallVector<std::pair<gpu::GPUFuncOp, unsigned>> uses;
      Type own;
      bool unsupported = false;
    };
    SmallVector<Object> objects;
    llvm::StringMap<size_t> byName;
    for (gpu::GPUFuncOp func : selectedKernels()) {
      StringRef name = func.getName();
      if (llvm::any_of(func.getArgumentTypes(),
                       llvm::IsaPred<LLVM::LLVMPointerType>)) {
        func.emitRemark("not precision-scaled: kernel @")
            << name << " takes an !llvm.ptr; only memref arguments are "
            << "supported";
        continue;
      }
      if (dispatched(func))
        continue;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
        auto memref = dyn_cast<MemRefType>(func.getArgument(i).getType());
        if (!memref || !isScalableFloat(memref.getElementType()))
          continue;
        Type own = memref.getElementType();
        // The verifier holds approx.object to a non-empty string.
        auto tag = func.getArgAttrOfType<StringAttr>(i, kObjectArgAttrName);
        std::string object = tag ? tag.str() : "";
        size_t at;
        if (!object.empty() && byName.count(object)) {
          at = byName[object];
          if (objects[at].own != own)
            return fail(func, "memory object '" + object + "' is " +
                                  Twine(debugString(objects[at].own)) +
                                  " in @" +
                                  objects[at].uses.front().first.getName() +
                                  " but " + Twine(debugString(own)) +
                                  " in argument " + Twine(i) + " of @" + name);
        } else {
          at = objects.size();
          Object o;
          o.name = object;
          o.own = own;
          o.knobName = knob + "__" +
                       (object.empty() ? name.str() + "__a" + std::to_string(i)
                                       : object);
          objects.push_back(std::move(o));
          if (!object.empty())
            byName[object] = at;
        }
        objects[at].uses.emplace_back(func, i);
        if (Operation *user = unsupportedUse(func.getArgument(i))) {
          user->emitRemark("argument ")
              << i << " of @" << name << " is not precision-scaled: "
              << user->getName() << " uses it";
          objects[at].unsupported = true;
        }
      }
    }
    OpBuilder b(ctx);
    b.setInsertionPointToStart(module.getBody());
    llvm::SetVector<gpu::GPUFuncOp> changed;
    for (Object &o : objects) {
      SmallVector<Type> choices{o.own};
      for (Type l : *listed)
        if (l.getIntOrFloatBitWidth() < o.own.getIntOrFloatBitWidth())
          choices.push_back(l);
      if (choices.size() < 2 || o.unsupported)
        continue;
      std::string why;
      if (!isValidPtxIdentifier(o.knobName, &why))
        return fail(o.uses.front().first,
                    "memory object '" + o.name + "' cannot name knob @" +
                        o.knobName + ": it " + why);
      if (SymbolTable::lookupSymbolIn(module, o.knobName))
        return fail(module, "symbol @" + o.knobName +
                                " exists; the storage knob of " +
                                (o.name.empty()
                                     ? "argument " +
                                           std::to_string(o.uses[0].second) +
                                           " of @" +
                                           o.uses[0].first.getName().str()
                                     : "memory object '" + o.name + "'") +
                                " needs that name (choose another knob=)");
      SmallVector<Attribute> values;
      std::string ids;
      for (Type t : choices) {
        auto v = StorageAttr::get(ctx, cast<FloatType>(t));
        values.push_back(v);
        ids += (ids.empty() ? "" : ", ") + v.getValueId();
      }
      int64_t value = 0;
      if (auto it = chosen.find(o.knobName); it != chosen.end()) {
        auto at = llvm::find_if(values, [&](Attribute v) {
          return cast<StorageAttr>(v).getValueId() == it->second;
        });
        if (at == values.end())
          return fail(module, "configuration: '" + it->second +
                                  "' is not a value of knob @" + o.knobName +
                                  " (" + ids + ")");
        value = at - values.begin();
      }
      SmallVector<Attribute> also;
      for (auto [func, i] : llvm::drop_begin(o.uses))
        also.push_back(b.getArrayAttr({FlatSymbolRefAttr::get(func.getNameAttr()),
                                       b.getI64IntegerAttr(i)}));
      BuildKnobOp::create(
          b, module.getLoc(), o.knobName, /*default=*/0, value,
          ArrayAttr::get(ctx, values),
          FlatSymbolRefAttr::get(o.uses[0].first.getNameAttr()),
          b.getI64IntegerAttr(o.uses[0].second),
          also.empty() ? ArrayAttr() : b.getArrayAttr(also),
          o.name.empty() ? StringAttr() : b.getStringAttr(o.name));
      if (value == 0)
        continue;
      for (auto [func, i] : o.uses) {
        if (Operation *launch = hostLaunchOf(func))
          return fail(launch,
                      "configuration: @" + o.knobName + "=" +
                          valueId(values, value) +
                          " changes the type of argument " + Twine(i) +
                          " of @" + func.getName() +
                          ", which this host code launches: build the "
                          "gpu.module without its host code");
        scaleArgument(func.getArgument(i), choices[value]);
        changed.insert(func);
      }
    }
    for (gpu::GPUFuncOp func : changed) {
      SmallVector<Type> inputs;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        inputs.push_back(func.getArgument(i).getType());
      func.setFunctionType(FunctionType::get(
          ctx, inputs, func.getFunctionType().getResults()));
    }
  }

  /// types=: every combination per kernel, one knob per kernel.
  void runAllTypes(function_ref<void(Operation *, const Twine &)> fail) {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<Type> listed;
    for (const std::string &text : types) {
      std::optional<Type> t = parseEntry(text, ctx);
      if (!t || !*t || !isScalableFloat(*t))
        return fail(module, "types names '" + text +
                                "': expected f64, f32, f16 or bf16");
      if (llvm::is_contained(listed, *t))
        return fail(module, "types lists '" + text + "' twice");
      listed.push_back(*t);
    }
    SmallVector<KernelPlan> plans;
    for (gpu::GPUFuncOp func : selectedKernels()) {
      StringRef name = func.getName();
      KernelPlan plan{func, {}, {}, {}, std::nullopt};
      // The choices of each memref argument: its own type first, then the
      // listed types narrower than it.
      SmallVector<SmallVector<Type>> choices;
      bool pointer = false;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
        Type t = func.getArgument(i).getType();
        pointer |= isa<LLVM::LLVMPointerType>(t);
        auto memref = dyn_cast<MemRefType>(t);
        if (!memref)
          continue;
        plan.memrefArgs.push_back(i);
        Type own = memref.getElementType();
        SmallVector<Type> c{own};
        if (isScalableFloat(own))
          for (Type l : listed)
            if (l.getIntOrFloatBitWidth() < own.getIntOrFloatBitWidth())
              c.push_back(l);
        choices.push_back(std::move(c));
      }
      if (pointer) {
        func.emitRemark("not precision-scaled: kernel @")
            << name << " takes an !llvm.ptr; only memref arguments are "
            << "supported";
        continue;
      }
      uint64_t count = 1;
      for (auto &c : choices)
        count = std::min<uint64_t>(count * c.size(), uint64_t(1) << 40);
      if (count < 2) {
        if (!kernels.empty())
          func.emitRemark("not precision-scaled: kernel @")
              << name << " has no memref argument that a listed type narrows";
        continue;
      }
      if (count > maxVariants)
        return fail(func, "kernel @" + name + " would get " + Twine(count) +
                              " precision variants (more than max-variants=" +
                              Twine(maxVariants) + ")");
      // Mixed-radix enumeration, first argument slowest.
      for (uint64_t v = 0; v < count; ++v) {
        SmallVector<Type> t(choices.size());
        uint64_t rest = v;
        for (size_t j = choices.size(); j-- > 0;) {
          t[j] = choices[j][rest % choices[j].size()];
          rest /= choices[j].size();
        }
        plan.storage.push_back(std::move(t));
        plan.cloneNames.push_back(v == 0 ? name.str()
                                         : (name + "__p" + Twine(v)).str());
      }
      plan.own = 0; // the own type of every argument comes first
      if (dispatched(func) || unscalable(plan))
        continue;
      std::string knobName = knob + "__" + name.str();
      if (SymbolTable::lookupSymbolIn(module, knobName))
        return fail(module, "symbol @" + knobName +
                                " exists; the precision variant knob of @" +
                                name + " needs that name (choose another "
                                "knob=)");
      if (auto clash = llvm::find_if(
              plan.cloneNames,
              [&](const std::string &c) {
                return c != name && SymbolTable::lookupSymbolIn(module, c);
              });
          clash != plan.cloneNames.end()) {
        func.emitRemark("not precision-scaled: symbol @")
            << *clash << " exists; it would be a precision variant of @"
            << name;
        continue;
      }
      plans.push_back(std::move(plan));
    }
    for (KernelPlan &plan : plans) {
      std::string knobName = knob + "__" + plan.func.getName().str();
      // Each variant's storage types, by argument (the manifest's typed
      // values: a host picks a variant by them, not by its name).
      // Only float arguments have a storage type; others keep theirs.
      SmallVector<Attribute> values;
      SmallVector<unsigned> floats;
      SmallVector<int64_t> args;
      for (auto [j, i] : llvm::enumerate(plan.memrefArgs))
        if (isScalableFloat(cast<MemRefType>(plan.func.getArgument(i).getType())
                                .getElementType())) {
          floats.push_back(j);
          args.push_back(i);
        }
      for (const SmallVector<Type> &types : plan.storage) {
        SmallVector<Type> floatTypes;
        for (unsigned j : floats)
          floatTypes.push_back(types[j]);
        values.push_back(StorageConfigAttr::get(ctx, args, floatTypes));
      }
      NamedAttribute entry = emitClones(plan);
      OpBuilder b(ctx);
      b.setInsertionPointToStart(module.getBody());
      VariantKnobOp::create(b, module.getLoc(), knobName, 0,
                            DictionaryAttr::get(ctx, {entry}),
                            ArrayAttr::get(ctx, values));
    }
  }
};

} // namespace
