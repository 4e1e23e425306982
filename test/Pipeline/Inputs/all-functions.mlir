// Every function of the paper's Tables 1-2 in one kernel, for the PTX tests.
module attributes {gpu.container_module} {
  gpu.module @all {
    gpu.func @f32_all(%a: memref<?xf32>, %b: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xf32>
      %y = memref.load %b[%i] : memref<?xf32>
      %one = arith.constant 1.0 : f32
      %0 = math.sin %x : f32
      %1 = math.cos %0 : f32
      %2 = math.exp %1 : f32
      %3 = math.log %2 : f32
      %4 = math.powf %3, %y : f32
      %5 = arith.divf %4, %y : f32
      %6 = arith.divf %one, %5 : f32
      %7 = math.sqrt %6 : f32
      %8 = math.rsqrt %7 : f32
      memref.store %8, %a[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @f64_all(%a: memref<?xf64>, %b: memref<?xf64>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xf64>
      %y = memref.load %b[%i] : memref<?xf64>
      %one = arith.constant 1.0 : f64
      %0 = arith.divf %x, %y : f64
      %1 = arith.divf %one, %0 : f64
      %2 = math.sqrt %1 : f64
      %3 = math.rsqrt %2 : f64
      %4 = math.sin %3 : f64
      memref.store %4, %a[%i] : memref<?xf64>
      gpu.return
    }
  }
}
