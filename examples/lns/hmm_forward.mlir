// HMM forward algorithm in the log domain, one block per sequence, one
// thread per state: the logarithmic number system (LNS) against the usual
// f32 log-sum-exp. The likelihood of a sequence is a sum over exponentially
// many paths, far below f32's range after a few dozen steps, so it is kept
// as log2 values: LNS products are f32 additions, LNS sums go through
// sb(x) = log2(1 + 2^x), the part each `impl` evaluates differently
// (textures, SFU, FMA polynomials, libdevice, or a warp split).
//
// Arguments of every kernel (N states <= 1024, M symbols, B sequences of T
// steps; row-major):
//   %la  N x N  log2 A, A[i][j] = P(state j at t+1 | state i at t)
//   %lb  N x M  log2 B, B[j][o] = P(symbol o | state j)
//   %lpi N      log2 of the initial distribution
//   %obs B x T  observed symbols (i32, in [0, M))
//   %out B      log2-likelihood of each sequence
// (hmm_f32_logsumexp takes natural logs in %la, %lb, %lpi, as the usual
// implementation does, and also writes log2.) Launch: grid B, block N
// rounded up to a warp; threads past N only take part in the barriers.
//
// alpha_t(j) = log2 P(o_0..o_t, state j at t) lives in workgroup memory,
// double-buffered: step t reads row (t-1) mod 2 and writes row t mod 2, so
// one block-level gpu.barrier per step separates the writes of a step from
// the reads of the next; every barrier is at the top level of the step loop,
// never under the per-thread `active` branch. Thread 0 sums alpha_{T-1} at
// the end. Thread j reads A[i][j] for i = 0..N-1: a warp reads 32
// consecutive floats per i.
//
// Module @lns: hmm_lns_<impl>, six kernels that differ only in the `impl`
// alias their two approx.lns.add use (edit them together). Module @f32: the
// f32 reference, whose math.exp/math.log approx-to-ptx turns into tunable
// SFU ops on its own knob @lambda (0 precise, max all SFU). Two modules keep
// the two λ knobs apart: split's knob chooses texture vs SFU per warp, the
// f32 kernel's precise vs SFU.
//
// Compile: approx-opt hmm_forward.mlir
//   --approx-to-ptx="output-dir=D name=hmm_forward" -o /dev/null
// writes D/hmm_forward.{lns,f32}.{ptx,manifest.json}.

#texture2 = #approx.lns_impl<texture2, segments = 64>
#texture1 = #approx.lns_impl<texture1, segments = 256>
#horner = #approx.lns_impl<horner, segments = 1, degree = 5>
#sfu = #approx.lns_impl<sfu>
#precise = #approx.lns_impl<precise>
#split = #approx.lns_impl<split, segments = 64, knob = @lambda>

module attributes {gpu.container_module} {
  gpu.module @lns {
    // λ of hmm_lns_split: warps whose hardware slot id is below λ use
    // texture2, the others the SFU.
    approx.knob @lambda range(0, 64) default(0)

    gpu.func @hmm_lns_texture2(%la: memref<?x?xf32>, %lb: memref<?x?xf32>,
                           %lpi: memref<?xf32>, %obs: memref<?x?xi32>,
                           %out: memref<?xf32>)
        workgroup(%alpha: memref<2x1024xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      // Probabilities are positive: every value is packed with sign false.
      %false = arith.constant false
      %ninf = arith.constant 0xFF800000 : f32
      %n = memref.dim %la, %c0 : memref<?x?xf32>
      %steps = memref.dim %obs, %c1 : memref<?x?xi32>
      %seq = gpu.block_id x
      %j = gpu.thread_id x
      %active = arith.cmpi ult, %j, %n : index
      // alpha_0(j) = pi(j) * B[j][o_0].
      scf.if %active {
        %o32 = memref.load %obs[%seq, %c0] : memref<?x?xi32>
        %o = arith.index_cast %o32 : i32 to index
        %p = memref.load %lpi[%j] : memref<?xf32>
        %e = memref.load %lb[%j, %o] : memref<?x?xf32>
        %pv = approx.lns.pack %p, %false
        %ev = approx.lns.pack %e, %false
        %a0 = approx.lns.mul %pv, %ev
        %l0, %n0 = approx.lns.unpack %a0
        memref.store %l0, %alpha[%c0, %j] : memref<2x1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // alpha_t(j) = (sum_i alpha_{t-1}(i) * A[i][j]) * B[j][o_t].
      scf.for %t = %c1 to %steps step %c1 {
        %cur = arith.remui %t, %c2 : index
        %prev = arith.subi %c1, %cur : index
        scf.if %active {
          %o32 = memref.load %obs[%seq, %t] : memref<?x?xi32>
          %o = arith.index_cast %o32 : i32 to index
          // The running sum is carried as its f32 log and re-packed with
          // sign false: a loop-carried !approx.lns would carry its sign as
          // an i1 the canonicalizer cannot prove false, and keep a db
          // evaluation that is never selected.
          %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> (f32) {
            %ai = memref.load %alpha[%prev, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
            %aij = memref.load %la[%i, %j] : memref<?x?xf32>
            %accv = approx.lns.pack %acc, %false
            %x = approx.lns.pack %ai, %false
            %y = approx.lns.pack %aij, %false
            %xy = approx.lns.mul %x, %y
            %s = approx.lns.add %accv, %xy impl(#texture2)
            %sl, %sn = approx.lns.unpack %s
            scf.yield %sl : f32
          }
          %e = memref.load %lb[%j, %o] : memref<?x?xf32>
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
          %s = approx.lns.add %accv, %x impl(#texture2)
          %sl, %sn = approx.lns.unpack %s
          scf.yield %sl : f32
        }
        memref.store %total, %out[%seq] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @hmm_lns_texture1(%la: memref<?x?xf32>, %lb: memref<?x?xf32>,
                           %lpi: memref<?xf32>, %obs: memref<?x?xi32>,
                           %out: memref<?xf32>)
        workgroup(%alpha: memref<2x1024xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      // Probabilities are positive: every value is packed with sign false.
      %false = arith.constant false
      %ninf = arith.constant 0xFF800000 : f32
      %n = memref.dim %la, %c0 : memref<?x?xf32>
      %steps = memref.dim %obs, %c1 : memref<?x?xi32>
      %seq = gpu.block_id x
      %j = gpu.thread_id x
      %active = arith.cmpi ult, %j, %n : index
      // alpha_0(j) = pi(j) * B[j][o_0].
      scf.if %active {
        %o32 = memref.load %obs[%seq, %c0] : memref<?x?xi32>
        %o = arith.index_cast %o32 : i32 to index
        %p = memref.load %lpi[%j] : memref<?xf32>
        %e = memref.load %lb[%j, %o] : memref<?x?xf32>
        %pv = approx.lns.pack %p, %false
        %ev = approx.lns.pack %e, %false
        %a0 = approx.lns.mul %pv, %ev
        %l0, %n0 = approx.lns.unpack %a0
        memref.store %l0, %alpha[%c0, %j] : memref<2x1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // alpha_t(j) = (sum_i alpha_{t-1}(i) * A[i][j]) * B[j][o_t].
      scf.for %t = %c1 to %steps step %c1 {
        %cur = arith.remui %t, %c2 : index
        %prev = arith.subi %c1, %cur : index
        scf.if %active {
          %o32 = memref.load %obs[%seq, %t] : memref<?x?xi32>
          %o = arith.index_cast %o32 : i32 to index
          // The running sum is carried as its f32 log and re-packed with
          // sign false: a loop-carried !approx.lns would carry its sign as
          // an i1 the canonicalizer cannot prove false, and keep a db
          // evaluation that is never selected.
          %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> (f32) {
            %ai = memref.load %alpha[%prev, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
            %aij = memref.load %la[%i, %j] : memref<?x?xf32>
            %accv = approx.lns.pack %acc, %false
            %x = approx.lns.pack %ai, %false
            %y = approx.lns.pack %aij, %false
            %xy = approx.lns.mul %x, %y
            %s = approx.lns.add %accv, %xy impl(#texture1)
            %sl, %sn = approx.lns.unpack %s
            scf.yield %sl : f32
          }
          %e = memref.load %lb[%j, %o] : memref<?x?xf32>
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
          %s = approx.lns.add %accv, %x impl(#texture1)
          %sl, %sn = approx.lns.unpack %s
          scf.yield %sl : f32
        }
        memref.store %total, %out[%seq] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @hmm_lns_horner(%la: memref<?x?xf32>, %lb: memref<?x?xf32>,
                           %lpi: memref<?xf32>, %obs: memref<?x?xi32>,
                           %out: memref<?xf32>)
        workgroup(%alpha: memref<2x1024xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      // Probabilities are positive: every value is packed with sign false.
      %false = arith.constant false
      %ninf = arith.constant 0xFF800000 : f32
      %n = memref.dim %la, %c0 : memref<?x?xf32>
      %steps = memref.dim %obs, %c1 : memref<?x?xi32>
      %seq = gpu.block_id x
      %j = gpu.thread_id x
      %active = arith.cmpi ult, %j, %n : index
      // alpha_0(j) = pi(j) * B[j][o_0].
      scf.if %active {
        %o32 = memref.load %obs[%seq, %c0] : memref<?x?xi32>
        %o = arith.index_cast %o32 : i32 to index
        %p = memref.load %lpi[%j] : memref<?xf32>
        %e = memref.load %lb[%j, %o] : memref<?x?xf32>
        %pv = approx.lns.pack %p, %false
        %ev = approx.lns.pack %e, %false
        %a0 = approx.lns.mul %pv, %ev
        %l0, %n0 = approx.lns.unpack %a0
        memref.store %l0, %alpha[%c0, %j] : memref<2x1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // alpha_t(j) = (sum_i alpha_{t-1}(i) * A[i][j]) * B[j][o_t].
      scf.for %t = %c1 to %steps step %c1 {
        %cur = arith.remui %t, %c2 : index
        %prev = arith.subi %c1, %cur : index
        scf.if %active {
          %o32 = memref.load %obs[%seq, %t] : memref<?x?xi32>
          %o = arith.index_cast %o32 : i32 to index
          // The running sum is carried as its f32 log and re-packed with
          // sign false: a loop-carried !approx.lns would carry its sign as
          // an i1 the canonicalizer cannot prove false, and keep a db
          // evaluation that is never selected.
          %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> (f32) {
            %ai = memref.load %alpha[%prev, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
            %aij = memref.load %la[%i, %j] : memref<?x?xf32>
            %accv = approx.lns.pack %acc, %false
            %x = approx.lns.pack %ai, %false
            %y = approx.lns.pack %aij, %false
            %xy = approx.lns.mul %x, %y
            %s = approx.lns.add %accv, %xy impl(#horner)
            %sl, %sn = approx.lns.unpack %s
            scf.yield %sl : f32
          }
          %e = memref.load %lb[%j, %o] : memref<?x?xf32>
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
          %s = approx.lns.add %accv, %x impl(#horner)
          %sl, %sn = approx.lns.unpack %s
          scf.yield %sl : f32
        }
        memref.store %total, %out[%seq] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @hmm_lns_sfu(%la: memref<?x?xf32>, %lb: memref<?x?xf32>,
                           %lpi: memref<?xf32>, %obs: memref<?x?xi32>,
                           %out: memref<?xf32>)
        workgroup(%alpha: memref<2x1024xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      // Probabilities are positive: every value is packed with sign false.
      %false = arith.constant false
      %ninf = arith.constant 0xFF800000 : f32
      %n = memref.dim %la, %c0 : memref<?x?xf32>
      %steps = memref.dim %obs, %c1 : memref<?x?xi32>
      %seq = gpu.block_id x
      %j = gpu.thread_id x
      %active = arith.cmpi ult, %j, %n : index
      // alpha_0(j) = pi(j) * B[j][o_0].
      scf.if %active {
        %o32 = memref.load %obs[%seq, %c0] : memref<?x?xi32>
        %o = arith.index_cast %o32 : i32 to index
        %p = memref.load %lpi[%j] : memref<?xf32>
        %e = memref.load %lb[%j, %o] : memref<?x?xf32>
        %pv = approx.lns.pack %p, %false
        %ev = approx.lns.pack %e, %false
        %a0 = approx.lns.mul %pv, %ev
        %l0, %n0 = approx.lns.unpack %a0
        memref.store %l0, %alpha[%c0, %j] : memref<2x1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // alpha_t(j) = (sum_i alpha_{t-1}(i) * A[i][j]) * B[j][o_t].
      scf.for %t = %c1 to %steps step %c1 {
        %cur = arith.remui %t, %c2 : index
        %prev = arith.subi %c1, %cur : index
        scf.if %active {
          %o32 = memref.load %obs[%seq, %t] : memref<?x?xi32>
          %o = arith.index_cast %o32 : i32 to index
          // The running sum is carried as its f32 log and re-packed with
          // sign false: a loop-carried !approx.lns would carry its sign as
          // an i1 the canonicalizer cannot prove false, and keep a db
          // evaluation that is never selected.
          %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> (f32) {
            %ai = memref.load %alpha[%prev, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
            %aij = memref.load %la[%i, %j] : memref<?x?xf32>
            %accv = approx.lns.pack %acc, %false
            %x = approx.lns.pack %ai, %false
            %y = approx.lns.pack %aij, %false
            %xy = approx.lns.mul %x, %y
            %s = approx.lns.add %accv, %xy impl(#sfu)
            %sl, %sn = approx.lns.unpack %s
            scf.yield %sl : f32
          }
          %e = memref.load %lb[%j, %o] : memref<?x?xf32>
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
          %s = approx.lns.add %accv, %x impl(#sfu)
          %sl, %sn = approx.lns.unpack %s
          scf.yield %sl : f32
        }
        memref.store %total, %out[%seq] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @hmm_lns_precise(%la: memref<?x?xf32>, %lb: memref<?x?xf32>,
                           %lpi: memref<?xf32>, %obs: memref<?x?xi32>,
                           %out: memref<?xf32>)
        workgroup(%alpha: memref<2x1024xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      // Probabilities are positive: every value is packed with sign false.
      %false = arith.constant false
      %ninf = arith.constant 0xFF800000 : f32
      %n = memref.dim %la, %c0 : memref<?x?xf32>
      %steps = memref.dim %obs, %c1 : memref<?x?xi32>
      %seq = gpu.block_id x
      %j = gpu.thread_id x
      %active = arith.cmpi ult, %j, %n : index
      // alpha_0(j) = pi(j) * B[j][o_0].
      scf.if %active {
        %o32 = memref.load %obs[%seq, %c0] : memref<?x?xi32>
        %o = arith.index_cast %o32 : i32 to index
        %p = memref.load %lpi[%j] : memref<?xf32>
        %e = memref.load %lb[%j, %o] : memref<?x?xf32>
        %pv = approx.lns.pack %p, %false
        %ev = approx.lns.pack %e, %false
        %a0 = approx.lns.mul %pv, %ev
        %l0, %n0 = approx.lns.unpack %a0
        memref.store %l0, %alpha[%c0, %j] : memref<2x1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // alpha_t(j) = (sum_i alpha_{t-1}(i) * A[i][j]) * B[j][o_t].
      scf.for %t = %c1 to %steps step %c1 {
        %cur = arith.remui %t, %c2 : index
        %prev = arith.subi %c1, %cur : index
        scf.if %active {
          %o32 = memref.load %obs[%seq, %t] : memref<?x?xi32>
          %o = arith.index_cast %o32 : i32 to index
          // The running sum is carried as its f32 log and re-packed with
          // sign false: a loop-carried !approx.lns would carry its sign as
          // an i1 the canonicalizer cannot prove false, and keep a db
          // evaluation that is never selected.
          %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> (f32) {
            %ai = memref.load %alpha[%prev, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
            %aij = memref.load %la[%i, %j] : memref<?x?xf32>
            %accv = approx.lns.pack %acc, %false
            %x = approx.lns.pack %ai, %false
            %y = approx.lns.pack %aij, %false
            %xy = approx.lns.mul %x, %y
            %s = approx.lns.add %accv, %xy impl(#precise)
            %sl, %sn = approx.lns.unpack %s
            scf.yield %sl : f32
          }
          %e = memref.load %lb[%j, %o] : memref<?x?xf32>
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
          %s = approx.lns.add %accv, %x impl(#precise)
          %sl, %sn = approx.lns.unpack %s
          scf.yield %sl : f32
        }
        memref.store %total, %out[%seq] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @hmm_lns_split(%la: memref<?x?xf32>, %lb: memref<?x?xf32>,
                           %lpi: memref<?xf32>, %obs: memref<?x?xi32>,
                           %out: memref<?xf32>)
        workgroup(%alpha: memref<2x1024xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      // Probabilities are positive: every value is packed with sign false.
      %false = arith.constant false
      %ninf = arith.constant 0xFF800000 : f32
      %n = memref.dim %la, %c0 : memref<?x?xf32>
      %steps = memref.dim %obs, %c1 : memref<?x?xi32>
      %seq = gpu.block_id x
      %j = gpu.thread_id x
      %active = arith.cmpi ult, %j, %n : index
      // alpha_0(j) = pi(j) * B[j][o_0].
      scf.if %active {
        %o32 = memref.load %obs[%seq, %c0] : memref<?x?xi32>
        %o = arith.index_cast %o32 : i32 to index
        %p = memref.load %lpi[%j] : memref<?xf32>
        %e = memref.load %lb[%j, %o] : memref<?x?xf32>
        %pv = approx.lns.pack %p, %false
        %ev = approx.lns.pack %e, %false
        %a0 = approx.lns.mul %pv, %ev
        %l0, %n0 = approx.lns.unpack %a0
        memref.store %l0, %alpha[%c0, %j] : memref<2x1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // alpha_t(j) = (sum_i alpha_{t-1}(i) * A[i][j]) * B[j][o_t].
      scf.for %t = %c1 to %steps step %c1 {
        %cur = arith.remui %t, %c2 : index
        %prev = arith.subi %c1, %cur : index
        scf.if %active {
          %o32 = memref.load %obs[%seq, %t] : memref<?x?xi32>
          %o = arith.index_cast %o32 : i32 to index
          // The running sum is carried as its f32 log and re-packed with
          // sign false: a loop-carried !approx.lns would carry its sign as
          // an i1 the canonicalizer cannot prove false, and keep a db
          // evaluation that is never selected.
          %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> (f32) {
            %ai = memref.load %alpha[%prev, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
            %aij = memref.load %la[%i, %j] : memref<?x?xf32>
            %accv = approx.lns.pack %acc, %false
            %x = approx.lns.pack %ai, %false
            %y = approx.lns.pack %aij, %false
            %xy = approx.lns.mul %x, %y
            %s = approx.lns.add %accv, %xy impl(#split)
            %sl, %sn = approx.lns.unpack %s
            scf.yield %sl : f32
          }
          %e = memref.load %lb[%j, %o] : memref<?x?xf32>
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
        memref.store %total, %out[%seq] : memref<?xf32>
      }
      gpu.return
    }
  }

  gpu.module @f32 {
    // The usual log-domain forward, in natural logs: for each j,
    // m = max_i x_i and alpha_t(j) = m + log(sum_i exp(x_i - m)) + lnB[j][o_t]
    // with x_i = alpha_{t-1}(i) + lnA[i][j]. Same layout and barriers as the
    // LNS kernels; the result is converted to log2 at the end.
    gpu.func @hmm_f32_logsumexp(%la: memref<?x?xf32>, %lb: memref<?x?xf32>,
                                %lpi: memref<?xf32>, %obs: memref<?x?xi32>,
                                %out: memref<?xf32>)
        workgroup(%alpha: memref<2x1024xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %ninf = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %n = memref.dim %la, %c0 : memref<?x?xf32>
      %steps = memref.dim %obs, %c1 : memref<?x?xi32>
      %seq = gpu.block_id x
      %j = gpu.thread_id x
      %active = arith.cmpi ult, %j, %n : index
      scf.if %active {
        %o32 = memref.load %obs[%seq, %c0] : memref<?x?xi32>
        %o = arith.index_cast %o32 : i32 to index
        %p = memref.load %lpi[%j] : memref<?xf32>
        %e = memref.load %lb[%j, %o] : memref<?x?xf32>
        %a0 = arith.addf %p, %e : f32
        memref.store %a0, %alpha[%c0, %j] : memref<2x1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.for %t = %c1 to %steps step %c1 {
        %cur = arith.remui %t, %c2 : index
        %prev = arith.subi %c1, %cur : index
        scf.if %active {
          %o32 = memref.load %obs[%seq, %t] : memref<?x?xi32>
          %o = arith.index_cast %o32 : i32 to index
          %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> (f32) {
            %ai = memref.load %alpha[%prev, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
            %aij = memref.load %la[%i, %j] : memref<?x?xf32>
            %x = arith.addf %ai, %aij : f32
            %acc2 = arith.maximumf %acc, %x : f32
            scf.yield %acc2 : f32
          }
          %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
            %ai = memref.load %alpha[%prev, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
            %aij = memref.load %la[%i, %j] : memref<?x?xf32>
            %x = arith.addf %ai, %aij : f32
            %d = arith.subf %x, %m : f32
            %ex = math.exp %d : f32
            %acc2 = arith.addf %acc, %ex : f32
            scf.yield %acc2 : f32
          }
          %ls = math.log %s : f32
          %e = memref.load %lb[%j, %o] : memref<?x?xf32>
          %r0 = arith.addf %m, %ls : f32
          %r = arith.addf %r0, %e : f32
          memref.store %r, %alpha[%cur, %j] : memref<2x1024xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %j, %c0 : index
      scf.if %first {
        %tm1 = arith.subi %steps, %c1 : index
        %last = arith.remui %tm1, %c2 : index
        %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> (f32) {
          %ai = memref.load %alpha[%last, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
          %acc2 = arith.maximumf %acc, %ai : f32
          scf.yield %acc2 : f32
        }
        %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
          %ai = memref.load %alpha[%last, %i] : memref<2x1024xf32, #gpu.address_space<workgroup>>
          %d = arith.subf %ai, %m : f32
          %ex = math.exp %d : f32
          %acc2 = arith.addf %acc, %ex : f32
          scf.yield %acc2 : f32
        }
        %ls = math.log %s : f32
        %ll = arith.addf %m, %ls : f32
        %ll2 = arith.mulf %ll, %log2e : f32
        memref.store %ll2, %out[%seq] : memref<?xf32>
      }
      gpu.return
    }
  }
}
