// y = a*x + y on f64 x and f32 y: two float memory objects a storage
// configuration can narrow.
gpu.module @axpy_module {
  gpu.func @axpy(%x: memref<?xf64>, %y: memref<?xf32>, %a: f64, %n: index) kernel {
    %i = gpu.global_id x
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %v = memref.load %x[%i] : memref<?xf64>
      %w = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %v, %a : f64
      %q = arith.truncf %p : f64 to f32
      %r = arith.addf %q, %w : f32
      memref.store %r, %y[%i] : memref<?xf32>
    }
    gpu.return
  }
}
