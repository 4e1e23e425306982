//===- WarpVersioning.h - version code on a warp-uniform slot < knob ------===//
//
// The paper's Algorithm 1 on MLIR regions, shared by every technique whose
// ops a warp-slot knob splits (the SFU forms: approx-warp-split; the LNS
// split impl: approx-lns-version). Per function: read each slot kind and
// knob once at entry, compute the warp-uniform flags `slot < knob`, and
// replicate each span of ops holding tunable ops into an scf.if whose
// branches pin the ops to the two sides of the split. A loop is versioned
// once, outside; straight-line code branches once per span.
//
// A flag is uniform per warp, not per block, so block-level synchronisation
// (barriers and the like) must never end up under the branch: such an op
// ends a span, and where it holds tunable ops its inner blocks are versioned
// instead. Spans of several knobs are versioned on each in turn while the
// copies stay within max-versions; beyond that each op gets its own branch.
//
// What a technique supplies (WarpSplitPolicy): which ops are tunable and
// by which knob and slot kind, and how to pin one to a side.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PASSES_COMMON_WARPVERSIONING_H
#define APPROX_PASSES_COMMON_WARPVERSIONING_H

#include "approx/Dialect/ApproxDialect.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::approx {

/// What one technique's tunable ops are, and how a copy pins them.
class WarpSplitPolicy {
public:
  virtual ~WarpSplitPolicy() = default;
  /// The knob of `op` if it is tunable (not yet pinned), else null.
  virtual FlatSymbolRefAttr tunableKnob(Operation *op) = 0;
  /// The slot kind `op`'s knob is compared against.
  virtual SlotKind slotKind(Operation *op) = 0;
  /// Pins `op` (tunable, of `knob`) in a copy: `belowKnob` for the copy that
  /// warps with slot < knob run.
  virtual void pin(Operation *op, FlatSymbolRefAttr knob, bool belowKnob) = 0;
  /// Called once per tunable op before it is versioned, with "region" or
  /// "per-op" (a span with too many knobs for max-versions).
  virtual void versioned(Operation *op, StringRef versioning) {}
};

/// Answers "does this op hold block-level synchronisation?", following
/// calls into the module's functions (a call that cannot be resolved, or an
/// external function other than libdevice's `__nv_*`, may synchronise).
class SyncAnalysis {
public:
  explicit SyncAnalysis(SymbolTable &symbols) : symbols(symbols) {}
  bool holdsSync(Operation *op);

private:
  bool callMaySync(Operation *op);
  SymbolTable &symbols;
  llvm::DenseMap<Operation *, bool> functions;
};

/// The max-versions option of a pass that versions on warp slots: in
/// [2, 1024], else a one-line error on `module` naming `pass`.
LogicalResult checkMaxVersions(Operation *module, StringRef pass,
                               unsigned maxVersions);

/// Versions the tunable ops of `fn` (Algorithm 1). Returns the knobs whose
/// flags it computed, each with the slot kind compared; the same knob with
/// two slot kinds is reported on `fn` and fails.
FailureOr<llvm::SmallVector<std::pair<FlatSymbolRefAttr, SlotKind>>>
versionOnWarpSlots(FunctionOpInterface fn, WarpSplitPolicy &policy,
                   SyncAnalysis &sync, unsigned maxVersions);

} // namespace mlir::approx

#endif // APPROX_PASSES_COMMON_WARPVERSIONING_H
