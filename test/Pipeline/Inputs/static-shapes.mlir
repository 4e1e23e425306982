// A kernel on static-shaped memrefs, for bare-ptr.
module attributes {gpu.container_module} {
  gpu.module @static {
    gpu.func @scale(%a: memref<1024xf32>, %b: memref<1024xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<1024xf32>
      %y = math.exp %x : f32
      memref.store %y, %b[%i] : memref<1024xf32>
      gpu.return
    }
  }
}
