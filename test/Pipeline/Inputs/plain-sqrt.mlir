// A kernel whose only math is a sqrt; compiled with functions=exp, nothing is
// approximated and the plain math.sqrt is lowered by precise-sqrt's rule.
module attributes {gpu.container_module} {
  gpu.module @plain {
    gpu.func @norm(%a: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xf32>
      %s = math.sqrt %x fastmath<nnan> : f32
      memref.store %s, %a[%i] : memref<?xf32>
      gpu.return
    }
  }
}
