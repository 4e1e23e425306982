// An LNS sum per element, on the warp split of texture units and SFU, and a
// texture1 sb: input of test/Pipeline/lns.test.
gpu.module @lns {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @add(%la: memref<?xf32>, %na: memref<?xi8>, %lb: memref<?xf32>,
                %out: memref<?xf32>) kernel {
    %i = gpu.global_id x
    %false = arith.constant false
    %c0 = arith.constant 0 : i8
    %x = memref.load %la[%i] : memref<?xf32>
    %s = memref.load %na[%i] : memref<?xi8>
    %neg = arith.cmpi ne, %s, %c0 : i8
    %y = memref.load %lb[%i] : memref<?xf32>
    %a = approx.lns.pack %x, %neg
    %b = approx.lns.pack %y, %false
    %c = approx.lns.add %a, %b impl(#approx.lns_impl<split, segments = 64, knob = @lambda>)
    %l, %n = approx.lns.unpack %c
    memref.store %l, %out[%i] : memref<?xf32>
    gpu.return
  }
  gpu.func @sb1(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %i = gpu.global_id x
    %x = memref.load %in[%i] : memref<?xf32>
    %s = approx.lns.sb %x impl(#approx.lns_impl<texture1, segments = 16>) : f32
    memref.store %s, %out[%i] : memref<?xf32>
    gpu.return
  }
}
