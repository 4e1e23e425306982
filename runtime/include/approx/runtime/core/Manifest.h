//===- Manifest.h - The compiler -> runtime contract (version 3) -*- C++ -*-===//
//
// In-memory form of `NAME.manifest.json` (docs/manifest.md, format version 3;
// version 2 is read too, its knobs' domains derived from their kinds)
// and its parser. Parsing validates everything a launcher relies on: types
// and sizes, the memref ABIs (descriptor: 3 + 2*rank params; bare: one
// pointer), arguments tiling the parameter list, trailing knob parameters,
// knob kinds (global, variant, resource) with their ranges, dispatch tables
// and texture tables, site and kernel cross references, and that every
// integer fits the field it lands in. A manifest that parses is safe to
// launch from. Every error is one line naming the JSON path at fault.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_MANIFEST_H
#define APPROX_RUNTIME_CORE_MANIFEST_H

#include "approx/runtime/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace approx::rt {

/// The format version this runtime reads.
constexpr int64_t kManifestVersion = 3;
/// Manifest files larger than this are refused before they are read.
constexpr uint64_t kMaxManifestBytes = uint64_t(256) << 20;
/// Deepest JSON nesting accepted (the format itself needs 7 levels; `data`
/// objects a few more).
constexpr int kMaxManifestNesting = 64;
/// The largest memref rank accepted (3 + 2*rank descriptor parameters).
constexpr int64_t kMaxMemrefRank = 32;
/// The largest PTX parameter (and vector value) in bytes: CUDA's limit on a
/// kernel's whole parameter space since CUDA 12.1 on Volta and later.
constexpr uint64_t kMaxParamBytes = 32764;
/// The largest LLVM address space number.
constexpr int64_t kMaxAddressSpace = (int64_t(1) << 24) - 1;
/// Texture table limits (docs/manifest.md).
constexpr int64_t kMaxTextureExtent = 65536;
/// The largest width, height and depth of a `texture_3d` table: 16384, the
/// 3-D texture limit per dimension of every compute capability from 5.0 on
/// (CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_{WIDTH,HEIGHT,DEPTH}). Some GPUs
/// also accept an "alternate" shape that is longer on one axis and shorter
/// on the others (..._ALTERNATE); a manifest is parsed without a device, so
/// it is held to the bound that fits every GPU the runtime targets.
constexpr int64_t kMaxTexture3DExtent = 16384;

/// Scalar types of the manifest ("ptr" is a CUdeviceptr).
enum class ScalarType { I1, I8, I16, I32, I64, Index, F16, BF16, F32, F64, Ptr };

/// Parses a scalar type name ("f32", "index", "bf16", ...).
Expected<ScalarType> parseScalarType(const std::string &name);
/// The manifest spelling of `t`.
const char *scalarTypeName(ScalarType t);
/// Size in bytes of one value of `t` as passed to / stored by the kernel
/// (i1 is one byte, index is 8).
size_t scalarTypeSize(ScalarType t);
/// f16, bf16, f32, f64.
bool isFloatType(ScalarType t);
/// i1..i64 and index.
bool isIntegerType(ScalarType t);

/// A value type: a scalar, or a fixed vector of scalars (`vector<4xf32>`,
/// `vector<2x2xf16>`) passed as lanes x element-size packed bytes.
struct ValueType {
  ScalarType scalar = ScalarType::F32; ///< the element (lane) type.
  std::vector<int64_t> lanes; ///< vector shape; empty for a scalar.

  /// f32.
  ValueType() = default;
  /// A scalar type (implicit: a ScalarType is a ValueType).
  ValueType(ScalarType s) : scalar(s) {}
  /// A vector of `elem` with shape `shape`.
  static ValueType vector(ScalarType elem, std::vector<int64_t> shape);

  /// True for a vector type.
  bool isVector() const { return !lanes.empty(); }
  /// Product of the vector shape (1 for a scalar).
  uint64_t laneCount() const;
  /// Size in bytes: laneCount() * scalarTypeSize(scalar).
  uint64_t size() const;
  /// "f32", "vector<2x2xf16>".
  std::string name() const;
  /// Same scalar and same vector shape.
  bool operator==(const ValueType &o) const {
    return scalar == o.scalar && lanes == o.lanes;
  }
  bool operator!=(const ValueType &o) const { return !(*this == o); }
};

/// Parses a value type: a scalar name or `vector<D0x...xT>` with every
/// Di in [1, 65536], T a non-ptr scalar type and a total size of at most
/// kMaxParamBytes.
Expected<ValueType> parseValueType(const std::string &name);

/// How a knob reaches the kernel.
enum class KnobKind {
  Global,   ///< a device global written before a launch
  Variant,  ///< a choice among kernels of the module
  Resource, ///< a host-created object (texture) whose handle the kernel reads
  Build,    ///< fixed when the PTX was built (`configuration`); version 3
  /// Applied by the host around launches (a memory object's storage type,
  /// its transfers' conversion methods): declared by a program-level space
  /// (approx/runtime/precision/ProgramEvaluator.h), never by a manifest
  /// file, whose reader does not accept the kind.
  Host,
};
/// "global", "variant", "resource", "build", "host".
const char *knobKindName(KnobKind k);

/// Where a global or resource knob's value is read by the kernel.
enum class KnobPath {
  Global, ///< from `symbol`, written by the runtime before the launch
  Param,  ///< from a trailing kernel parameter, filled per launch
};
/// "global", "param".
const char *knobPathName(KnobPath p);

/// The warp-slot id an SFU warp split compares against a knob (docs/sfu.md).
enum class WarpSlot { None, Hw, Virtual, Software };
/// "", "hw", "virtual", "software".
const char *warpSlotName(WarpSlot s);

/// One entry of a variant knob's `dispatch`.
struct VariantDispatch {
  std::string kernel;                ///< the logical name launched
  std::vector<std::string> variants; ///< variants[value - min] is launched
};

/// A texture's `filter` (point: nearest texel; linear: bilinear).
enum class TextureFilter { Point, Linear };
/// A texture's `address` mode outside [0, size): clamp to the edge, border
/// (0), wrap or mirror (normalized coordinates only).
enum class TextureAddress { Clamp, Border, Wrap, Mirror };
/// "point", "linear".
const char *textureFilterName(TextureFilter f);
/// "clamp", "border", "wrap", "mirror".
const char *textureAddressName(TextureAddress a);

/// A resource's `type`: a 2-D texture (bilinear when linear) or a 3-D one
/// (trilinear when linear).
enum class TextureType { Texture2D, Texture3D };
/// "texture_2d", "texture_3d".
const char *textureTypeName(TextureType t);

/// One option of a resource knob: a width x height (x depth, for a 3-D
/// texture) table of `channels` f32 per texel, x fastest, then y, then z.
struct TextureTable {
  uint32_t width = 0, height = 0, channels = 1;
  /// The number of width x height slices: `depth` of a texture_3d table, 1
  /// for a texture_2d table (which has no `depth` key).
  uint32_t depth = 1;
  /// width * height * depth * channels floats, decoded from the manifest's
  /// base64. Shared: copies of a Manifest do not copy tables.
  std::shared_ptr<const std::vector<float>> data;
  /// Bytes of one row (width * channels * 4).
  uint64_t rowBytes() const { return uint64_t(width) * channels * 4; }
  /// Bytes of the whole table (at most 2^14 * 2^14 * 2^14 * 16 = 2^46 for a
  /// 3-D table, 2^36 for a 2-D one: no overflow).
  uint64_t bytes() const { return rowBytes() * height * depth; }
};

/// A resource knob's `resource` object.
struct ResourceInfo {
  TextureType type = TextureType::Texture2D;       ///< `type`
  TextureFilter filter = TextureFilter::Point;     ///< `filter`
  TextureAddress address = TextureAddress::Clamp;  ///< `address`
  bool normalizedCoords = false;                   ///< `normalized_coords`
  std::vector<TextureTable> options; ///< options[value - min]
};

/// One knob of the module.
/// What a knob's values mean (version 3 `domain`; derived for version 2).
enum class DomainKind {
  Ordinal,     ///< an integer in [min, max], more approximation as it grows
  Categorical, ///< one of `values`, each with a typed payload
  Storage,     ///< the storage type of one memory object
};
const char *domainKindName(DomainKind k);

/// A value's typed meaning (docs/manifest.schema.json `payload`). Only the
/// fields of `type` are set; enumerations are checked when parsed.
struct Payload {
  enum class Type {
    None,              ///< no payload (the id is all there is)
    PerforationScheme, ///< scheme, skip, reconstruction
    BlockShape,        ///< x, y, rows
    LnsImpl,           ///< impl, segments, degree
    TextureTable,      ///< width, height, depth, channels
    StorageConfig,     ///< args: (argument, storage type) pairs
    Storage,           ///< storage
  };
  Type type = Type::None;
  std::string scheme;         ///< accurate, rows, cols, stencil, center
  int64_t skip = 1;           ///< perforation: n of every n+1
  std::string reconstruction; ///< nn, linear, copy
  unsigned x = 0, y = 0, rows = 1;     ///< block shape
  std::string impl;                    ///< LNS: precise, sfu, horner, ...
  int64_t segments = 0, degree = 0;    ///< LNS (0: not given)
  int64_t width = 0, height = 0, depth = 1, channels = 1; ///< texture table
  ScalarType storage = ScalarType::F32; ///< storage
  std::vector<std::pair<size_t, ScalarType>> args; ///< storage_config
};
const char *payloadTypeName(Payload::Type t);

/// One value of a categorical or storage domain.
struct KnobValue {
  std::string id; ///< letters, digits and `_ . : + -`
  Payload payload;
};

/// Values of this knob that need the knob `knob` at one of `values`.
struct KnobConstraint {
  std::vector<std::string> when; ///< value ids of the constrained knob
  std::string knob;
  std::vector<std::string> values;
};

struct KnobDomain {
  DomainKind kind = DomainKind::Ordinal;
  std::vector<KnobValue> values; ///< values[i - min]; empty when ordinal
  std::string objectKernel;      ///< storage: the memory object's kernel,
  size_t objectArg = 0;          ///< its argument,
  std::string objectName;        ///< and its source name ("" if unknown);
  /// the other kernels' arguments that receive the same buffer (`also`).
  std::vector<std::pair<std::string, size_t>> objectAlso;
};

struct KnobInfo {
  std::string name;                           ///< a PTX identifier
  KnobKind kind = KnobKind::Global;           ///< `kind`
  int64_t min = 0, max = 0, defaultValue = 0; ///< inclusive range, default
  // Global and resource knobs.
  std::string symbol;                 ///< the `.visible .global` in the PTX
  ScalarType type = ScalarType::I32;  ///< i8..i64 (resource: i64)
  KnobPath path = KnobPath::Global;   ///< `path`
  WarpSlot warpSlot = WarpSlot::None; ///< global knobs of an SFU split
  // Variant knobs.
  std::vector<VariantDispatch> dispatch; ///< `dispatch`
  // Resource knobs.
  ResourceInfo resource; ///< `resource`
  // The knob space (version 3; derived from the kind for version 2).
  KnobDomain domain;                       ///< `domain`
  std::string technique;                   ///< `technique` ("" if not given)
  std::vector<std::string> governsKernels; ///< `governs.kernels`
  std::vector<size_t> governsSites;        ///< `governs.sites`
  std::vector<KnobConstraint> constraints; ///< `constraints`
  int64_t builtValue = 0; ///< build knobs: the value `configuration` names

  /// Global and resource knobs have a device symbol; variant, build and
  /// host knobs do not.
  bool hasSymbol() const {
    return kind == KnobKind::Global || kind == KnobKind::Resource;
  }
  /// The id of value `v` (a decimal number for an ordinal knob).
  std::string valueId(int64_t v) const;
  /// The value whose id is `id`, if any.
  std::optional<int64_t> valueOf(const std::string &id) const;
  /// True for a global or resource knob with `path: "param"`.
  bool isParam() const { return hasSymbol() && path == KnobPath::Param; }
};

/// One MLIR-level kernel argument.
struct ArgInfo {
  /// `kind`.
  enum class Kind { Memref, Scalar, Pointer };
  /// `abi` of a memref: the flattened descriptor or one aligned pointer.
  enum class Abi { Descriptor, Bare };
  /// `access` of a memref, as the compiler saw it.
  enum class Access { Read, Write, ReadWrite, None };
  Kind kind = Kind::Scalar; ///< `kind`
  /// Element type (memref) or value type (scalar); ptr for a pointer.
  ValueType type = ScalarType::I32;
  int64_t rank = 0;           ///< memref only.
  std::vector<int64_t> shape; ///< memref only; -1 for dynamic sizes.
  Abi abi = Abi::Descriptor;  ///< memref only.
  Access access = Access::ReadWrite; ///< memref only.
  uint32_t addressSpace = 0;  ///< pointer only.
  size_t firstParam = 0; ///< `first_param`
  size_t numParams = 0;  ///< `num_params`
};
/// "read", "write", "readwrite", "none".
const char *accessName(ArgInfo::Access a);
/// True when the kernel reads the memref (read or readwrite).
inline bool isRead(ArgInfo::Access a) {
  return a == ArgInfo::Access::Read || a == ArgInfo::Access::ReadWrite;
}

/// One PTX parameter (one `void*` given to cuLaunchKernel).
struct ParamInfo {
  std::optional<size_t> arg; ///< the argument; absent for knob parameters.
  std::string field; ///< allocated, aligned, offset, sizeN, strideN, value,
                     ///< knob.
  std::string knob;  ///< with field "knob": the knob it carries.
  ValueType type = ScalarType::I64; ///< `type`
  size_t size = 0;                  ///< `size` in bytes (= type.size())
  /// True for a trailing knob parameter.
  bool isKnob() const { return !arg.has_value(); }
};

/// One kernel (`.entry`) of the module.
struct KernelInfo {
  std::string name;               ///< the `.entry`
  std::vector<std::string> knobs; ///< every knob the kernel reads
  std::vector<size_t> sites;      ///< indices into Manifest::sites
  std::vector<ArgInfo> args;      ///< the MLIR-level signature
  std::vector<ParamInfo> params;  ///< the PTX parameters, in order
  /// True when `knob` is among `knobs`.
  bool readsKnob(const std::string &knob) const;
};

/// One place where a technique acted or chose not to (informational).
struct SiteInfo {
  std::string technique, function; ///< `technique`, `function`
  std::vector<std::string> kernels; ///< `kernels`
  std::string knob; ///< "" when no knob governs the site
  std::string op, type, form, reason, loc; ///< as in the manifest
  /// The technique's `data` object as compact JSON text ("" when absent);
  /// the runtime only displays it.
  std::string data;
  /// Perforation sites: the typed schemes, in the order of the knob's values
  /// (version 3; empty for version 2, whose schemes are strings in `data`).
  std::vector<Payload> schemes;
};

/// A parsed, validated manifest.
struct Manifest {
  int64_t version = kManifestVersion; ///< 2 or 3, as read
  std::string producer;               ///< "" when absent
  std::string module;                 ///< NAME
  std::string gpuModule;              ///< "" when absent
  std::string ptx;   ///< as written (relative to `directory`); may be empty.
  std::string cubin; ///< as written; may be empty.
  std::string chip;                   ///< "" when absent
  std::vector<KnobInfo> knobs;        ///< in manifest order
  std::vector<KernelInfo> kernels;    ///< in manifest order
  std::vector<SiteInfo> sites;        ///< in manifest order
  /// Build knob -> value id, as this PTX was built (version 3).
  std::map<std::string, std::string> configuration;
  std::string recipeId, recipeKey; ///< `recipe` ("" when absent)
  std::string directory; ///< directory of the manifest file ("" if parsed
                         ///< from a string).

  /// The kernel `name` (not a dispatched logical name), or nullptr.
  const KernelInfo *findKernel(const std::string &name) const;
  /// The knob `name`, or nullptr.
  const KnobInfo *findKnob(const std::string &name) const;
  /// The variant knob and dispatch entry whose logical name is `name`, or
  /// {nullptr, nullptr}.
  std::pair<const KnobInfo *, const VariantDispatch *>
  findDispatch(const std::string &name) const;
};

/// Constant-time lookups into a manifest that no longer changes (a loaded
/// module's, a launch hook's). Manifest's find* scan; a launch that scans a
/// storage-variants module (hundreds of kernels per logical name) costs
/// tens of microseconds each time (FDTD-2D's 1,500 launches, issue 30).
/// Holds pointers into the manifest, which must outlive it unchanged.
class ManifestIndex {
public:
  ManifestIndex() = default;
  explicit ManifestIndex(const Manifest &m);

  /// Manifest::findKernel.
  const KernelInfo *kernel(const std::string &name) const;
  /// Manifest::findDispatch.
  std::pair<const KnobInfo *, const VariantDispatch *>
  dispatch(const std::string &name) const;
  /// What a launch of `name` may run: the kernel `name` if there is one,
  /// then the kernels its dispatch lists, each once, in that order (a
  /// storage-variants module lists the kernel itself among its variants).
  /// Empty when `name` is neither.
  const std::vector<const KernelInfo *> &
  candidates(const std::string &name) const;

private:
  std::unordered_map<std::string, const KernelInfo *> kernels_;
  std::unordered_map<std::string,
                     std::pair<const KnobInfo *, const VariantDispatch *>>
      dispatch_;
  std::unordered_map<std::string, std::vector<const KernelInfo *>>
      candidates_;
};

/// Parses and validates manifest JSON text. `directory` is recorded to
/// resolve the ptx/cubin paths.
Expected<Manifest> parseManifest(const std::string &jsonText,
                                 const std::string &directory = "");

/// Reads (a regular file of at most kMaxManifestBytes) and parses a
/// manifest file.
Expected<Manifest> loadManifestFile(const std::string &path);

/// The file to load for `m`'s `ptx` (or `cubin`): its path joined to the
/// manifest's directory. Unless `allowOutside`, the path must be relative,
/// without `..` components, and must not resolve (through symbolic links)
/// outside the manifest's directory; the file must exist.
Expected<std::string> resolveImagePath(const Manifest &m, bool cubin,
                                       bool allowOutside);

} // namespace approx::rt

#endif // APPROX_RUNTIME_CORE_MANIFEST_H
