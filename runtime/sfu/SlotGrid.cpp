//===- SlotGrid.cpp - Measuring the λ grid of T(λ) ------------------------===//
#include "approx/runtime/sfu/SlotGrid.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace approx::rt {

SlotGrid gridFromCurve(const std::vector<double> &t, int maxStep,
                       double minFit, double minDrop) {
  SlotGrid g;
  g.timeMs = t;
  g.captured = 1;
  if (t.size() < 3 || !(t.front() > 0))
    return g;
  double lo = *std::min_element(t.begin(), t.end()),
         hi = *std::max_element(t.begin(), t.end());
  if (!(hi - lo >= minDrop * t.front()))
    return g; // no visible staircase (or no SFU gain): every λ counts
  double mean = 0;
  for (double x : t)
    mean += x;
  mean /= double(t.size());
  double sst = 0;
  for (double x : t)
    sst += (x - mean) * (x - mean);
  // The largest step whose staircase (T constant on [k·step, (k+1)·step))
  // explains the curve (see the header for the threshold).
  for (int step = std::min<int>(maxStep, int(t.size()) / 2); step >= 1;
       --step) {
    double sse = 0;
    for (size_t k = 0; k < t.size(); k += size_t(step)) {
      size_t end = std::min(t.size(), k + size_t(step));
      double m = 0;
      for (size_t l = k; l < end; ++l)
        m += t[l];
      m /= double(end - k);
      for (size_t l = k; l < end; ++l)
        sse += (t[l] - m) * (t[l] - m);
    }
    double fit = 1 - sse / sst;
    if (fit >= minFit || step == 1) {
      g.step = step;
      g.captured = fit;
      return g;
    }
  }
  return g;
}

namespace {
// Precise warps run 32 dependent FMAs per iteration, SFU warps two
// ex2.approx (each after a negation, keeping x in (0, 1]): an SFU warp costs
// about half a precise one on its SMSP, so the slowest SMSP sets the time.
// The slot is %warpid, or the virtual slot of docs/sfu.md: (block x *
// warps per block + warp in block) mod %nwarpid (1-D launch).
std::string probePtx() {
  std::string fma;
  for (int i = 0; i < 32; ++i)
    fma += "  fma.rn.f32 %f1, %f1, 0f3F7FF000, 0f3A800000;\n";
  return R"(.version 7.8
.target sm_70
.address_size 64
.visible .entry approx_slot_probe(.param .u64 out, .param .u32 lambda,
                                  .param .u32 iters, .param .u32 virt)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [lambda];
  ld.param.u32 %r2, [iters];
  ld.param.u32 %r3, [virt];
  mov.u32 %r4, %warpid;
  mov.u32 %r5, %ctaid.x;
  mov.u32 %r6, %ntid.x;
  shr.u32 %r6, %r6, 5;
  mov.u32 %r7, %tid.x;
  shr.u32 %r8, %r7, 5;
  mad.lo.u32 %r9, %r5, %r6, %r8;
  mov.u32 %r10, %nwarpid;
  rem.u32 %r9, %r9, %r10;
  setp.ne.u32 %p1, %r3, 0;
  selp.b32 %r4, %r9, %r4, %p1;
  setp.lt.u32 %p2, %r4, %r1;
  cvt.rn.f32.u32 %f1, %r7;
  mul.f32 %f1, %f1, 0f3A800000;
  mov.u32 %r11, 0;
  @%p2 bra $SFU;
$PRECISE:
)" + fma + R"(  add.u32 %r11, %r11, 1;
  setp.lt.u32 %p3, %r11, %r2;
  @%p3 bra $PRECISE;
  bra.uni $DONE;
$SFU:
  mul.f32 %f2, %f1, 0fBF800000;
  ex2.approx.ftz.f32 %f1, %f2;
  mul.f32 %f2, %f1, 0fBF800000;
  ex2.approx.ftz.f32 %f1, %f2;
  add.u32 %r11, %r11, 1;
  setp.lt.u32 %p3, %r11, %r2;
  @%p3 bra $SFU;
$DONE:
  mad.lo.u32 %r12, %r5, %r6, %r8;
  shl.b32 %r12, %r12, 5;
  and.b32 %r13, %r7, 31;
  add.u32 %r12, %r12, %r13;
  mul.wide.u32 %rd2, %r12, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f1;
  ret;
}
)";
}

const char *kProbeManifest = R"json({"format": "approx-manifest", "version": 2,
  "producer": "approx runtime (slot-grid probe)", "module": "approx_slot_probe",
  "ptx": "probe.ptx", "knobs": [], "sites": [],
  "kernels": [{"name": "approx_slot_probe", "knobs": [], "sites": [],
    "args": [{"kind": "pointer", "address_space": 1, "first_param": 0, "num_params": 1},
             {"kind": "scalar", "type": "i32", "first_param": 1, "num_params": 1},
             {"kind": "scalar", "type": "i32", "first_param": 2, "num_params": 1},
             {"kind": "scalar", "type": "i32", "first_param": 3, "num_params": 1}],
    "params": [{"arg": 0, "field": "value", "size": 8, "type": "ptr"},
               {"arg": 1, "field": "value", "size": 4, "type": "i32"},
               {"arg": 2, "field": "value", "size": 4, "type": "i32"},
               {"arg": 3, "field": "value", "size": 4, "type": "i32"}]}]})json";
} // namespace

Expected<SlotGrid> measureSlotGrid(std::shared_ptr<Context> ctx, WarpSlot slot,
                                   int reps) {
  if (!ctx)
    return invalidArgument("measureSlotGrid: null context");
  if (slot != WarpSlot::Hw && slot != WarpSlot::Virtual) {
    SlotGrid g;
    g.slot = slot;
    return g; // software ids and unsplit knobs: every λ is a step
  }
  const DeviceInfo &dev = ctx->device();
  const int warpsPerSM = dev.maxThreadsPerSM / std::max(1, dev.warpSize);
  if (dev.smCount <= 0 || warpsPerSM <= 0)
    return internalError("measureSlotGrid: the device reports no SMs");
  APPROX_ASSIGN_OR_RETURN(Manifest m, parseManifest(kProbeManifest));
  APPROX_ASSIGN_OR_RETURN(std::unique_ptr<Module> mod,
                          Module::loadFromMemory(ctx, std::move(m), probePtx()));
  // Full occupancy in one wave: every warp slot of every SM is taken.
  const unsigned block = 256;
  const unsigned blocks = unsigned(dev.smCount) *
                          unsigned(dev.maxThreadsPerSM / int(block));
  APPROX_ASSIGN_OR_RETURN(
      DeviceBuffer out,
      DeviceBuffer::allocate(ctx, size_t(blocks) * block * sizeof(float),
                             ScalarType::F32));
  LaunchConfig cfg{{blocks, 1, 1}, {block, 1, 1}};
  // Three sweeps, λ ascending then descending then ascending, and the
  // median per λ: clock or thermal drift during one sweep would otherwise
  // tilt the staircase (measured: one sweep alone misread the step in 1 of
  // 7 runs on an H100).
  const int sweeps = 3, perSweep = std::max(1, reps / sweeps);
  std::vector<std::vector<double>> samples(size_t(warpsPerSM) + 1);
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (int k = 0; k <= warpsPerSM; ++k) {
      int lambda = sweep % 2 ? warpsPerSM - k : k;
      std::vector<Arg> args = {Arg::pointer(out.devicePtr()),
                               Arg::integer(lambda), Arg::integer(2048),
                               Arg::integer(slot == WarpSlot::Virtual ? 1 : 0)};
      TimingOptions timing;
      timing.warmup = 1;
      timing.reps = perSweep;
      APPROX_ASSIGN_OR_RETURN(
          Timing tm, mod->time("approx_slot_probe", cfg, args, timing));
      samples[size_t(lambda)].push_back(tm.medianMs);
    }
  std::vector<double> t;
  for (std::vector<double> &v : samples) {
    std::sort(v.begin(), v.end());
    t.push_back(v[v.size() / 2]);
  }
  SlotGrid g = gridFromCurve(t);
  g.slot = slot;
  return g;
}

} // namespace approx::rt
