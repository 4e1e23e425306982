// An LNS sum per element on texture3 (the order-3 row: one trilinear fetch
// of a 3-D texture for sb and db): input of test/Pipeline/lns-texture3.test.
gpu.module @lns3 {
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
    %c = approx.lns.add %a, %b impl(#approx.lns_impl<texture3, segments = 16>)
    %l, %n = approx.lns.unpack %c
    memref.store %l, %out[%i] : memref<?xf32>
    gpu.return
  }
}
