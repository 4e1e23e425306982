gpu.module @kernels {
  func.func private @opaque(f32) -> f32
  gpu.func @k(%x: f32, %out: memref<4xf32>) kernel {
    %e = math.exp %x : f32
    %o = func.call @opaque(%e) : (f32) -> f32
    gpu.return
  }
}
