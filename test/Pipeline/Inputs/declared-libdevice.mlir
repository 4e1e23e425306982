// A kernel that calls libdevice through a func.func declaration, as code
// written against libdevice does.
gpu.module @declared {
  func.func private @__nv_sinf(f32) -> f32
  func.func private @__nv_powf(f32, f32) -> f32
  gpu.func @k(%x: f32, %out: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = func.call @__nv_sinf(%x) : (f32) -> f32
    %p = func.call @__nv_powf(%x, %s) : (f32, f32) -> f32
    memref.store %s, %out[%c0] : memref<2xf32>
    memref.store %p, %out[%c1] : memref<2xf32>
    gpu.return
  }
}
