// Two gpu.modules in one input: approx-to-ptx writes one PTX + manifest pair
// per module (NAME.MODULE.*).
module attributes {gpu.container_module} {
  gpu.module @m1 {
    gpu.func @k1(%a: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xf32>
      %e = math.log %x : f32
      memref.store %e, %a[%i] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @m2 {
    gpu.func @k2(%a: memref<?xf64>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xf64>
      %e = math.sqrt %x : f64
      memref.store %e, %a[%i] : memref<?xf64>
      gpu.return
    }
  }
}
