// Every function of the function table in kernels of f32, f64, f16 and
// vector types, for the PTX tests.
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
      %9 = math.tan %8 : f32
      %10 = math.exp2 %9 : f32
      %11 = math.log2 %10 : f32
      %12 = math.log10 %11 : f32
      %13 = math.tanh %12 : f32
      %14 = math.expm1 %13 : f32
      memref.store %14, %a[%i] : memref<?xf32>
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
    gpu.func @half_all(%a: memref<?xvector<2xf16>>, %b: memref<?xbf16>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xvector<2xf16>>
      %y = memref.load %b[%i] : memref<?xbf16>
      %0 = math.exp2 %x : vector<2xf16>
      %1 = math.tanh %0 : vector<2xf16>
      %2 = math.sin %1 : vector<2xf16>
      %3 = math.exp2 %y : bf16
      %4 = math.tanh %3 : bf16
      %5 = math.log %4 : bf16
      memref.store %2, %a[%i] : memref<?xvector<2xf16>>
      memref.store %5, %b[%i] : memref<?xbf16>
      gpu.return
    }
  }
}
