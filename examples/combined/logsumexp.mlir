// Log-domain inference in two kernels of one gpu.module, each with its own
// approximation, f64 buffers everywhere, so that one manifest holds every
// knob a joint tuner needs (examples/combined/README.md lists them):
//   hmm_forward: the HMM forward algorithm in the logarithmic number system
//     (as examples/lns/hmm_forward.mlir), one block per sequence, one thread
//     per state (N <= 1024 states; block N rounded up to a warp, grid B).
//     The LNS sums use impl `split` (docs/lns.md): warps whose hardware slot
//     id is below the knob @lns_lambda evaluate sb(x) = log2(1 + 2^x) by one
//     bilinear texture fetch (texture2, 64 segments per unit; the table is a
//     resource knob), the others on the SFU.
//       %la  N x N  log2 A (transition), %lb N x M  log2 B (emission),
//       %lpi N      log2 initial distribution, %obs B x T  symbols (i32),
//       %out B      log2-likelihood of each sequence.
//   logsumexp: the log-partition of each row of a score matrix (the softmax
//     normaliser), one row per thread (any 1-D block, grid ceil(R/block)):
//       out[r] = m + log(sum_j exp(x[r][j] - m)),  m = max_j x[r][j]
//     in f64; approx-from-math makes the exp and the log SFU sites on the
//     knob @lambda, demoted to the f32 SFU forms by sfu.f64-demote (the
//     arguments of exp are <= 0, so f32's range is no concern).
//       %x  R x C  scores, %lse R  results.
// Every float buffer is f64 and names its memory object (approx.object);
// precision.space= gives each a build knob over its storage type (f64, f32,
// f16, bf16). The LNS arithmetic is f32 (the logs are truncated on load),
// the log-sum-exp f64.
//
//   approx-opt examples/combined/logsumexp.mlir -o /dev/null --approx-to-ptx="chip=sm_90 output-dir=DIR name=logsumexp sfu.f64-demote precision.space=f32,f16,bf16"
//
// writes DIR/logsumexp.{ptx,manifest.json}: knobs lns_lambda (global,
// ordinal; the LNS split's, though the manifest labels every warp-slot knob
// technique "sfu"), lns_texture2_s64 (lns, resource: the texture2 table),
// lambda (sfu, global, ordinal) and precision__la, precision__lb,
// precision__lpi, precision__out, precision__x, precision__lse (precision,
// build, storage).

#split = #approx.lns_impl<split, segments = 64, knob = @lns_lambda>

gpu.module @logsumexp {
  approx.knob @lns_lambda range(0, 64) default(0)

  gpu.func @hmm_forward(%la: memref<?x?xf64> {approx.object = "la"},
                        %lb: memref<?x?xf64> {approx.object = "lb"},
                        %lpi: memref<?xf64> {approx.object = "lpi"},
                        %obs: memref<?x?xi32>,
                        %out: memref<?xf64> {approx.object = "out"})
      workgroup(%alpha: memref<2x1024xf32, #gpu.address_space<workgroup>>)
      kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // Probabilities are positive: every value is packed with sign false.
    %false = arith.constant false
    %ninf = arith.constant 0xFF800000 : f32
    %n = memref.dim %la, %c0 : memref<?x?xf64>
    %steps = memref.dim %obs, %c1 : memref<?x?xi32>
    %seq = gpu.block_id x
    %j = gpu.thread_id x
    %active = arith.cmpi ult, %j, %n : index
    // alpha_0(j) = pi(j) * B[j][o_0].
    scf.if %active {
      %o32 = memref.load %obs[%seq, %c0] : memref<?x?xi32>
      %o = arith.index_cast %o32 : i32 to index
      %p64 = memref.load %lpi[%j] : memref<?xf64>
      %e64 = memref.load %lb[%j, %o] : memref<?x?xf64>
      %p = arith.truncf %p64 : f64 to f32
      %e = arith.truncf %e64 : f64 to f32
      %pv = approx.lns.pack %p, %false
      %ev = approx.lns.pack %e, %false
      %a0 = approx.lns.mul %pv, %ev
      %l0, %n0 = approx.lns.unpack %a0
      memref.store %l0, %alpha[%c0, %j] : memref<2x1024xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    // alpha_t(j) = (sum_i alpha_{t-1}(i) * A[i][j]) * B[j][o_t]; the
    // barrier at the end of each step is at the loop's top level, never
    // under the per-thread `active` branch.
    scf.for %t = %c1 to %steps step %c1 {
      %cur = arith.remui %t, %c2 : index
      %prev = arith.subi %c1, %cur : index
      scf.if %active {
        %o32 = memref.load %obs[%seq, %t] : memref<?x?xi32>
        %o = arith.index_cast %o32 : i32 to index
        // The running sum is carried as its f32 log and re-packed with sign
        // false (a loop-carried !approx.lns keeps a db nobody selects).
        %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> (f32) {
          %ai = memref.load %alpha[%prev, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
          %aij64 = memref.load %la[%i, %j] : memref<?x?xf64>
          %aij = arith.truncf %aij64 : f64 to f32
          %accv = approx.lns.pack %acc, %false
          %x = approx.lns.pack %ai, %false
          %y = approx.lns.pack %aij, %false
          %xy = approx.lns.mul %x, %y
          %s = approx.lns.add %accv, %xy impl(#split)
          %sl, %sn = approx.lns.unpack %s
          scf.yield %sl : f32
        }
        %e64 = memref.load %lb[%j, %o] : memref<?x?xf64>
        %e = arith.truncf %e64 : f64 to f32
        %sv = approx.lns.pack %sum, %false
        %ev = approx.lns.pack %e, %false
        %r = approx.lns.mul %sv, %ev
        %rl, %rn = approx.lns.unpack %r
        memref.store %rl, %alpha[%cur, %j] : memref<2x1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
    }
    // P(o_0..o_{T-1}) = sum_j alpha_{T-1}(j), by thread 0 (no barrier
    // follows, so the branch may diverge).
    %first = arith.cmpi eq, %j, %c0 : index
    scf.if %first {
      %tm1 = arith.subi %steps, %c1 : index
      %last = arith.remui %tm1, %c2 : index
      %total = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> (f32) {
        %ai = memref.load %alpha[%last, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
        %accv = approx.lns.pack %acc, %false
        %x = approx.lns.pack %ai, %false
        %s = approx.lns.add %accv, %x impl(#split)
        %sl, %sn = approx.lns.unpack %s
        scf.yield %sl : f32
      }
      %total64 = arith.extf %total : f32 to f64
      memref.store %total64, %out[%seq] : memref<?xf64>
    }
    gpu.return
  }

  gpu.func @logsumexp(%x: memref<?x?xf64> {approx.object = "x"},
                      %lse: memref<?xf64> {approx.object = "lse"}) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ninf = arith.constant 0xFFF0000000000000 : f64
    %zero = arith.constant 0.0 : f64
    %rows = memref.dim %x, %c0 : memref<?x?xf64>
    %cols = memref.dim %x, %c1 : memref<?x?xf64>
    %r = gpu.global_id x
    %inside = arith.cmpi ult, %r, %rows : index
    scf.if %inside {
      %m = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %ninf) -> (f64) {
        %v = memref.load %x[%r, %j] : memref<?x?xf64>
        %acc2 = arith.maximumf %acc, %v : f64
        scf.yield %acc2 : f64
      }
      %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f64) {
        %v = memref.load %x[%r, %j] : memref<?x?xf64>
        %d = arith.subf %v, %m : f64
        %e = math.exp %d : f64
        %acc2 = arith.addf %acc, %e : f64
        scf.yield %acc2 : f64
      }
      %ls = math.log %s : f64
      %res = arith.addf %m, %ls : f64
      memref.store %res, %lse[%r] : memref<?xf64>
    }
    gpu.return
  }
}
