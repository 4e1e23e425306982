//===- ApproxOccupancyCap.cpp - spill-free register caps for occupancy ----===//
//
// Rewrites the PTX text of each gpu.binary: `.maxnreg N` on the entries
// where N fits more warps per SM than ptxas' own register count and ptxas
// still reports no spill (CommonPasses.td says why). The PTX is edited as
// text because the register count is only known after ptxas has run.
//
//===----------------------------------------------------------------------===//
#include "Ptxas.h"
#include "approx/Passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::approx {
#define GEN_PASS_DEF_APPROXOCCUPANCYCAP
#include "approx/Passes/Passes.h.inc"
} // namespace mlir::approx

using namespace mlir;
using namespace mlir::approx;

namespace {

constexpr unsigned kRegistersPerSm = 65536;
constexpr unsigned kAllocationUnit = 256; // registers, per warp
constexpr unsigned kMinCap = 24;          // below this, leave it to ptxas

/// Resident warps per SM of the chip (CUDA C Programming Guide, compute
/// capabilities table): 48 on sm_86/87/89, 32 on sm_75, else 64.
unsigned maxWarpsPerSm(StringRef chip) {
  StringRef arch = chip.drop_front(chip.starts_with("sm_") ? 3 : 0);
  if (arch.starts_with("86") || arch.starts_with("87") ||
      arch.starts_with("89"))
    return 48;
  if (arch.starts_with("75"))
    return 32;
  return 64;
}

/// Warps per SM the registers allow (block granularity ignored: the block
/// size is the launcher's).
unsigned warpsFor(unsigned registers, unsigned maxWarps) {
  unsigned perWarp =
      (registers * 32 + kAllocationUnit - 1) / kAllocationUnit * kAllocationUnit;
  return std::min(maxWarps, perWarp ? kRegistersPerSm / perWarp : maxWarps);
}

/// The largest register count below `registers` that fits more warps, or 0.
unsigned capFor(unsigned registers, unsigned maxWarps) {
  const unsigned now = warpsFor(registers, maxWarps);
  for (unsigned r = registers; r-- > kMinCap;)
    if (warpsFor(r, maxWarps) > now)
      return r;
  return 0;
}

/// The position of the `{` opening entry `name`'s body, or npos; `capped`
/// tells whether its header already has a .maxnreg.
size_t entryBody(StringRef ptx, StringRef name, bool &capped) {
  size_t at = ptx.find((".entry " + name + "(").str());
  if (at == StringRef::npos)
    return StringRef::npos;
  size_t close = ptx.find(')', at);
  if (close == StringRef::npos)
    return StringRef::npos;
  size_t open = ptx.find('{', close);
  if (open == StringRef::npos)
    return StringRef::npos;
  capped = ptx.slice(close, open).contains(".maxnreg");
  return open;
}

/// `ptx` with `.maxnreg caps[name]` before each named entry's body.
std::string withCaps(StringRef ptx, const std::map<std::string, unsigned> &caps) {
  std::vector<std::pair<size_t, unsigned>> at;
  for (const auto &[name, cap] : caps) {
    bool capped = false;
    size_t open = entryBody(ptx, name, capped);
    if (open != StringRef::npos && !capped)
      at.emplace_back(open, cap);
  }
  llvm::sort(at);
  std::string out;
  size_t from = 0;
  for (const auto &[open, cap] : at) {
    out += ptx.slice(from, open).str();
    out += ".maxnreg " + std::to_string(cap) + "\n";
    from = open;
  }
  out += ptx.drop_front(from).str();
  return out;
}

struct ApproxOccupancyCapPass
    : approx::impl::ApproxOccupancyCapBase<ApproxOccupancyCapPass> {
  using ApproxOccupancyCapBase::ApproxOccupancyCapBase;

  void runOnOperation() override {
    ModuleOp top = getOperation();
    std::string tool;
    for (gpu::BinaryOp bin : top.getOps<gpu::BinaryOp>()) {
      SmallVector<Attribute> objects(bin.getObjects().begin(),
                                     bin.getObjects().end());
      bool changed = false;
      for (Attribute &a : objects) {
        auto obj = cast<gpu::ObjectAttr>(a);
        auto target = dyn_cast<NVVM::NVVMTargetAttr>(obj.getTarget());
        if (obj.getFormat() != gpu::CompilationTarget::Assembly || !target)
          continue;
        if (tool.empty())
          tool = findPtxas(ptxas);
        if (tool.empty()) {
          bin.emitError("approx-occupancy-cap: ptxas was not found (set "
                        "CUDA_PATH or ptxas=)");
          return signalPassFailure();
        }
        FailureOr<std::string> ptx =
            cap(bin, tool, target.getChip(), obj.getObject().getValue());
        if (failed(ptx))
          return signalPassFailure();
        if (*ptx == obj.getObject().getValue())
          continue;
        a = gpu::ObjectAttr::get(obj.getTarget(), obj.getFormat(),
                                 StringAttr::get(&getContext(), *ptx),
                                 obj.getProperties(), obj.getKernels());
        changed = true;
      }
      if (changed)
        bin.setObjectsAttr(ArrayAttr::get(&getContext(), objects));
    }
  }

  /// ptxas -v on `ptx`; errors are reported on `bin`.
  FailureOr<std::map<std::string, PtxasEntryInfo>>
  info(gpu::BinaryOp bin, StringRef tool, StringRef chip, StringRef ptx) {
    SmallString<128> in, out;
    int fd = -1;
    if (llvm::sys::fs::createTemporaryFile("approx-cap", "ptx", fd, in)) {
      bin.emitError("approx-occupancy-cap: cannot create a temporary file");
      return failure();
    }
    {
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      os << ptx;
      os.close();
      if (os.has_error()) {
        std::string why = os.error().message();
        os.clear_error(); // a stream destroyed with an error is fatal
        llvm::sys::fs::remove(in);
        bin.emitError("approx-occupancy-cap: cannot write a temporary file: ")
            << why;
        return failure();
      }
    }
    if (llvm::sys::fs::createTemporaryFile("approx-cap", "cubin", out)) {
      llvm::sys::fs::remove(in);
      bin.emitError("approx-occupancy-cap: cannot create a temporary file");
      return failure();
    }
    std::string log;
    std::string err = runPtxas(tool, chip, in, out, "gpu.binary @" +
                               bin.getName().str(), /*verbose=*/true, &log);
    llvm::sys::fs::remove(in);
    llvm::sys::fs::remove(out);
    if (!err.empty()) {
      bin.emitError("approx-occupancy-cap: ") << err;
      return failure();
    }
    return parsePtxasInfo(log);
  }

  FailureOr<std::string> cap(gpu::BinaryOp bin, StringRef tool, StringRef chip,
                             StringRef ptx) {
    FailureOr<std::map<std::string, PtxasEntryInfo>> before =
        info(bin, tool, chip, ptx);
    if (failed(before))
      return failure();
    const unsigned maxWarps = maxWarpsPerSm(chip);
    std::map<std::string, unsigned> caps;
    for (const auto &[name, e] : *before) {
      if (e.spillStoreBytes || e.spillLoadBytes || !e.registers)
        continue;
      bool capped = false;
      if (entryBody(ptx, name, capped) == StringRef::npos || capped)
        continue;
      if (unsigned c = capFor(e.registers, maxWarps))
        caps[name] = c;
    }
    if (caps.empty())
      return ptx.str();
    FailureOr<std::map<std::string, PtxasEntryInfo>> after =
        info(bin, tool, chip, withCaps(ptx, caps));
    if (failed(after))
      return failure();
    // Entries compile independently: dropping one cap leaves the others'
    // results as measured.
    for (auto it = caps.begin(); it != caps.end();) {
      auto e = after->find(it->first);
      const unsigned regs = before->at(it->first).registers;
      if (e == after->end() || e->second.spillStoreBytes ||
          e->second.spillLoadBytes || e->second.registers > it->second) {
        bin.emitRemark("approx-occupancy-cap: ")
            << it->first << ": " << regs << " registers kept (.maxnreg "
            << it->second << " spills)";
        it = caps.erase(it);
        continue;
      }
      bin.emitRemark("approx-occupancy-cap: ")
          << it->first << ": " << regs << " -> " << e->second.registers
          << " registers (.maxnreg " << it->second << "), "
          << warpsFor(regs, maxWarps) << " -> "
          << warpsFor(e->second.registers, maxWarps)
          << " warps per SM, no spill";
      ++it;
    }
    return withCaps(ptx, caps);
  }
};

} // namespace
