gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    %y = math.sin %x : f32
