// Log-domain sums on the LNS ops, written once with the author's impl
// (texture2): compiled with `lns-impls=precise,sfu,horner,texture1,
// texture2,texture3`, each kernel becomes one variant per impl behind the
// variant knob @lns_impl, and approx-tune chooses the fastest whose error
// meets a QoS (bench/lns/tune-impl.sh, docs/lns.md "The tuner chooses
// impl").
//   logaddexp:  out[i] = log2(2^a[i] + 2^b[i])            (one LNS add)
//   logsumexp16: out[i] = log2(sum_{j<16} 2^a[min(i+j, n-1)]) (16 adds)
//   logsubexp:  out[i] = log2|2^a[i] - 2^b[i]|            (one LNS sub: db,
//               which the SFU form loses near 0)
gpu.module @lns_logaddexp {
  gpu.func @logaddexp(%a: memref<?xf32>, %b: memref<?xf32>,
                      %out: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %false = arith.constant false
    %n = memref.dim %a, %c0 : memref<?xf32>
    %i = gpu.global_id x
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %x = memref.load %a[%i] : memref<?xf32>
      %y = memref.load %b[%i] : memref<?xf32>
      %lx = approx.lns.pack %x, %false
      %ly = approx.lns.pack %y, %false
      %s = approx.lns.add %lx, %ly impl(#approx.lns_impl<texture2, segments = 64>)
      %l, %neg = approx.lns.unpack %s
      memref.store %l, %out[%i] : memref<?xf32>
    }
    gpu.return
  }
  gpu.func @logsumexp16(%a: memref<?xf32>, %out: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %false = arith.constant false
    %ninf = arith.constant 0xFF800000 : f32
    %n = memref.dim %a, %c0 : memref<?xf32>
    %last = arith.subi %n, %c1 : index
    %i = gpu.global_id x
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %zero = approx.lns.pack %ninf, %false
      %sum = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (!approx.lns) {
        %k0 = arith.addi %i, %j : index
        %k = arith.minui %k0, %last : index
        %x = memref.load %a[%k] : memref<?xf32>
        %lx = approx.lns.pack %x, %false
        %s = approx.lns.add %acc, %lx impl(#approx.lns_impl<texture2, segments = 64>)
        scf.yield %s : !approx.lns
      }
      %l, %neg = approx.lns.unpack %sum
      memref.store %l, %out[%i] : memref<?xf32>
    }
    gpu.return
  }
  gpu.func @logsubexp(%a: memref<?xf32>, %b: memref<?xf32>,
                      %out: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %false = arith.constant false
    %n = memref.dim %a, %c0 : memref<?xf32>
    %i = gpu.global_id x
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %x = memref.load %a[%i] : memref<?xf32>
      %y = memref.load %b[%i] : memref<?xf32>
      %lx = approx.lns.pack %x, %false
      %ly = approx.lns.pack %y, %false
      %s = approx.lns.sub %lx, %ly impl(#approx.lns_impl<texture2, segments = 64>)
      %l, %neg = approx.lns.unpack %s
      memref.store %l, %out[%i] : memref<?xf32>
    }
    gpu.return
  }
}
