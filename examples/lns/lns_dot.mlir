// LNS matrix-vector product y = A x with signed values: every element is a
// log2 magnitude plus a sign, so the sums take both branches of LNS
// addition, sb(x) = log2(1 + 2^x) where the signs agree and
// db(x) = log2|1 - 2^x| where they differ (catastrophic cancellation near
// x = 0 is where db is hard, and where texture tables switch to their
// cotransformation). One thread per row, the row's sum carried as an
// !approx.lns value in registers.
//
// Arguments of the LNS kernels (R rows, C columns):
//   %la, %sa  C x R  log2|A[r][c]| and sign (i8, nonzero: negative) at
//                    [c, r]: A is stored column-major so that the 32
//                    threads of a warp read 32 consecutive elements per
//                    column;
//   %lx, %sx  C      log2|x| and sign;
//   %ly, %sy  R      log2|y| and sign (exact zero: log -inf).
// dot_f32 takes A (C x R, same layout), x and y as plain f32: the reference
// on the FMA units. Launch: 1-D, one thread per row (the kernels guard
// r < R; no barriers).
//
// Module @lns: dot_lns_<impl>, six kernels that differ only in the `impl`
// alias of their approx.lns.add (edit them together). Module @f32: dot_f32.
//
// Compile: approx-opt lns_dot.mlir
//   --approx-to-ptx="output-dir=D name=lns_dot" -o /dev/null
// writes D/lns_dot.{lns,f32}.{ptx,manifest.json}.

#texture2 = #approx.lns_impl<texture2, segments = 64>
#texture1 = #approx.lns_impl<texture1, segments = 256>
#horner = #approx.lns_impl<horner, segments = 1, degree = 5>
#sfu = #approx.lns_impl<sfu>
#precise = #approx.lns_impl<precise>
#split = #approx.lns_impl<split, segments = 64, knob = @lambda>

module attributes {gpu.container_module} {
  gpu.module @lns {
    // λ of dot_lns_split: warps whose hardware slot id is below λ use
    // texture2, the others the SFU.
    approx.knob @lambda range(0, 64) default(0)

    gpu.func @dot_lns_texture2(%la: memref<?x?xf32>, %sa: memref<?x?xi8>,
                           %lx: memref<?xf32>, %sx: memref<?xi8>,
                           %ly: memref<?xf32>, %sy: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %false = arith.constant false
      %i8zero = arith.constant 0 : i8
      %ninf = arith.constant 0xFF800000 : f32
      %cols = memref.dim %la, %c0 : memref<?x?xf32>
      %rows = memref.dim %la, %c1 : memref<?x?xf32>
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %r = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %r, %rows : index
      scf.if %inside {
        // The LNS zero (log -inf): x + 0 = x exactly.
        %zero = approx.lns.pack %ninf, %false
        %y = scf.for %c = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (!approx.lns) {
          %al = memref.load %la[%c, %r] : memref<?x?xf32>
          %as8 = memref.load %sa[%c, %r] : memref<?x?xi8>
          %xl = memref.load %lx[%c] : memref<?xf32>
          %xs8 = memref.load %sx[%c] : memref<?xi8>
          %as = arith.cmpi ne, %as8, %i8zero : i8
          %xs = arith.cmpi ne, %xs8, %i8zero : i8
          %a = approx.lns.pack %al, %as
          %x = approx.lns.pack %xl, %xs
          %p = approx.lns.mul %a, %x
          %s = approx.lns.add %acc, %p impl(#texture2)
          scf.yield %s : !approx.lns
        }
        %yl, %yn = approx.lns.unpack %y
        %ys = arith.extui %yn : i1 to i8
        memref.store %yl, %ly[%r] : memref<?xf32>
        memref.store %ys, %sy[%r] : memref<?xi8>
      }
      gpu.return
    }

    gpu.func @dot_lns_texture1(%la: memref<?x?xf32>, %sa: memref<?x?xi8>,
                           %lx: memref<?xf32>, %sx: memref<?xi8>,
                           %ly: memref<?xf32>, %sy: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %false = arith.constant false
      %i8zero = arith.constant 0 : i8
      %ninf = arith.constant 0xFF800000 : f32
      %cols = memref.dim %la, %c0 : memref<?x?xf32>
      %rows = memref.dim %la, %c1 : memref<?x?xf32>
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %r = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %r, %rows : index
      scf.if %inside {
        // The LNS zero (log -inf): x + 0 = x exactly.
        %zero = approx.lns.pack %ninf, %false
        %y = scf.for %c = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (!approx.lns) {
          %al = memref.load %la[%c, %r] : memref<?x?xf32>
          %as8 = memref.load %sa[%c, %r] : memref<?x?xi8>
          %xl = memref.load %lx[%c] : memref<?xf32>
          %xs8 = memref.load %sx[%c] : memref<?xi8>
          %as = arith.cmpi ne, %as8, %i8zero : i8
          %xs = arith.cmpi ne, %xs8, %i8zero : i8
          %a = approx.lns.pack %al, %as
          %x = approx.lns.pack %xl, %xs
          %p = approx.lns.mul %a, %x
          %s = approx.lns.add %acc, %p impl(#texture1)
          scf.yield %s : !approx.lns
        }
        %yl, %yn = approx.lns.unpack %y
        %ys = arith.extui %yn : i1 to i8
        memref.store %yl, %ly[%r] : memref<?xf32>
        memref.store %ys, %sy[%r] : memref<?xi8>
      }
      gpu.return
    }

    gpu.func @dot_lns_horner(%la: memref<?x?xf32>, %sa: memref<?x?xi8>,
                           %lx: memref<?xf32>, %sx: memref<?xi8>,
                           %ly: memref<?xf32>, %sy: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %false = arith.constant false
      %i8zero = arith.constant 0 : i8
      %ninf = arith.constant 0xFF800000 : f32
      %cols = memref.dim %la, %c0 : memref<?x?xf32>
      %rows = memref.dim %la, %c1 : memref<?x?xf32>
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %r = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %r, %rows : index
      scf.if %inside {
        // The LNS zero (log -inf): x + 0 = x exactly.
        %zero = approx.lns.pack %ninf, %false
        %y = scf.for %c = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (!approx.lns) {
          %al = memref.load %la[%c, %r] : memref<?x?xf32>
          %as8 = memref.load %sa[%c, %r] : memref<?x?xi8>
          %xl = memref.load %lx[%c] : memref<?xf32>
          %xs8 = memref.load %sx[%c] : memref<?xi8>
          %as = arith.cmpi ne, %as8, %i8zero : i8
          %xs = arith.cmpi ne, %xs8, %i8zero : i8
          %a = approx.lns.pack %al, %as
          %x = approx.lns.pack %xl, %xs
          %p = approx.lns.mul %a, %x
          %s = approx.lns.add %acc, %p impl(#horner)
          scf.yield %s : !approx.lns
        }
        %yl, %yn = approx.lns.unpack %y
        %ys = arith.extui %yn : i1 to i8
        memref.store %yl, %ly[%r] : memref<?xf32>
        memref.store %ys, %sy[%r] : memref<?xi8>
      }
      gpu.return
    }

    gpu.func @dot_lns_sfu(%la: memref<?x?xf32>, %sa: memref<?x?xi8>,
                           %lx: memref<?xf32>, %sx: memref<?xi8>,
                           %ly: memref<?xf32>, %sy: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %false = arith.constant false
      %i8zero = arith.constant 0 : i8
      %ninf = arith.constant 0xFF800000 : f32
      %cols = memref.dim %la, %c0 : memref<?x?xf32>
      %rows = memref.dim %la, %c1 : memref<?x?xf32>
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %r = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %r, %rows : index
      scf.if %inside {
        // The LNS zero (log -inf): x + 0 = x exactly.
        %zero = approx.lns.pack %ninf, %false
        %y = scf.for %c = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (!approx.lns) {
          %al = memref.load %la[%c, %r] : memref<?x?xf32>
          %as8 = memref.load %sa[%c, %r] : memref<?x?xi8>
          %xl = memref.load %lx[%c] : memref<?xf32>
          %xs8 = memref.load %sx[%c] : memref<?xi8>
          %as = arith.cmpi ne, %as8, %i8zero : i8
          %xs = arith.cmpi ne, %xs8, %i8zero : i8
          %a = approx.lns.pack %al, %as
          %x = approx.lns.pack %xl, %xs
          %p = approx.lns.mul %a, %x
          %s = approx.lns.add %acc, %p impl(#sfu)
          scf.yield %s : !approx.lns
        }
        %yl, %yn = approx.lns.unpack %y
        %ys = arith.extui %yn : i1 to i8
        memref.store %yl, %ly[%r] : memref<?xf32>
        memref.store %ys, %sy[%r] : memref<?xi8>
      }
      gpu.return
    }

    gpu.func @dot_lns_precise(%la: memref<?x?xf32>, %sa: memref<?x?xi8>,
                           %lx: memref<?xf32>, %sx: memref<?xi8>,
                           %ly: memref<?xf32>, %sy: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %false = arith.constant false
      %i8zero = arith.constant 0 : i8
      %ninf = arith.constant 0xFF800000 : f32
      %cols = memref.dim %la, %c0 : memref<?x?xf32>
      %rows = memref.dim %la, %c1 : memref<?x?xf32>
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %r = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %r, %rows : index
      scf.if %inside {
        // The LNS zero (log -inf): x + 0 = x exactly.
        %zero = approx.lns.pack %ninf, %false
        %y = scf.for %c = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (!approx.lns) {
          %al = memref.load %la[%c, %r] : memref<?x?xf32>
          %as8 = memref.load %sa[%c, %r] : memref<?x?xi8>
          %xl = memref.load %lx[%c] : memref<?xf32>
          %xs8 = memref.load %sx[%c] : memref<?xi8>
          %as = arith.cmpi ne, %as8, %i8zero : i8
          %xs = arith.cmpi ne, %xs8, %i8zero : i8
          %a = approx.lns.pack %al, %as
          %x = approx.lns.pack %xl, %xs
          %p = approx.lns.mul %a, %x
          %s = approx.lns.add %acc, %p impl(#precise)
          scf.yield %s : !approx.lns
        }
        %yl, %yn = approx.lns.unpack %y
        %ys = arith.extui %yn : i1 to i8
        memref.store %yl, %ly[%r] : memref<?xf32>
        memref.store %ys, %sy[%r] : memref<?xi8>
      }
      gpu.return
    }

    gpu.func @dot_lns_split(%la: memref<?x?xf32>, %sa: memref<?x?xi8>,
                           %lx: memref<?xf32>, %sx: memref<?xi8>,
                           %ly: memref<?xf32>, %sy: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %false = arith.constant false
      %i8zero = arith.constant 0 : i8
      %ninf = arith.constant 0xFF800000 : f32
      %cols = memref.dim %la, %c0 : memref<?x?xf32>
      %rows = memref.dim %la, %c1 : memref<?x?xf32>
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %r = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %r, %rows : index
      scf.if %inside {
        // The LNS zero (log -inf): x + 0 = x exactly.
        %zero = approx.lns.pack %ninf, %false
        %y = scf.for %c = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (!approx.lns) {
          %al = memref.load %la[%c, %r] : memref<?x?xf32>
          %as8 = memref.load %sa[%c, %r] : memref<?x?xi8>
          %xl = memref.load %lx[%c] : memref<?xf32>
          %xs8 = memref.load %sx[%c] : memref<?xi8>
          %as = arith.cmpi ne, %as8, %i8zero : i8
          %xs = arith.cmpi ne, %xs8, %i8zero : i8
          %a = approx.lns.pack %al, %as
          %x = approx.lns.pack %xl, %xs
          %p = approx.lns.mul %a, %x
          %s = approx.lns.add %acc, %p impl(#split)
          scf.yield %s : !approx.lns
        }
        %yl, %yn = approx.lns.unpack %y
        %ys = arith.extui %yn : i1 to i8
        memref.store %yl, %ly[%r] : memref<?xf32>
        memref.store %ys, %sy[%r] : memref<?xi8>
      }
      gpu.return
    }
  }

  gpu.module @f32 {
    // y[r] = sum_c A[r][c] x[c] with one fma per term, A at [c, r].
    gpu.func @dot_f32(%a: memref<?x?xf32>, %x: memref<?xf32>,
                      %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %cols = memref.dim %a, %c0 : memref<?x?xf32>
      %rows = memref.dim %a, %c1 : memref<?x?xf32>
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %r = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %r, %rows : index
      scf.if %inside {
        %sum = scf.for %c = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %av = memref.load %a[%c, %r] : memref<?x?xf32>
          %xv = memref.load %x[%c] : memref<?xf32>
          %acc2 = math.fma %av, %xv, %acc : f32
          scf.yield %acc2 : f32
        }
        memref.store %sum, %y[%r] : memref<?xf32>
      }
      gpu.return
    }
  }
}
