// The smallest module that needs an LNS table on the runtime side: one
// kernel, out[i] = a[i] (+) b[i] in the log domain through the order-2
// texture method with 16 segments (a small table). ../regen.sh compiles it into
// ../lns_add.ptx + ../lns_add.manifest.json for test/runtime/core/LnsTableTest.cpp.
module attributes {gpu.container_module} {
  gpu.module @lns_add {
    gpu.func @lns_add(%a: memref<?xf32>, %b: memref<?xf32>,
                      %out: memref<?xf32>, %n: index) kernel {
      %false = arith.constant false
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %al = memref.load %a[%i] : memref<?xf32>
        %bl = memref.load %b[%i] : memref<?xf32>
        %x = approx.lns.pack %al, %false
        %y = approx.lns.pack %bl, %false
        %s = approx.lns.add %x, %y impl(#approx.lns_impl<texture2, segments = 16>)
        %sl, %sn = approx.lns.unpack %s
        memref.store %sl, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
