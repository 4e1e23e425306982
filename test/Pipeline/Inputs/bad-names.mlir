// A kernel name the NVPTX backend cannot print.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @"k-1"(%a: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xf32>
      %e = math.exp %x : f32
      memref.store %e, %a[%i] : memref<?xf32>
      gpu.return
    }
  }
}
