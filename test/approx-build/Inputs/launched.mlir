// A kernel launched by host code beside it: a storage configuration that
// changes its argument types cannot be built (the launch would break).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf64>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf64>
      memref.store %v, %x[%i] : memref<?xf64>
      gpu.return
    }
  }
  func.func @main(%x: memref<?xf64>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf64>)
    return
  }
}
