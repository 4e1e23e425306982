// A gpu.module name that would climb out of output-dir as a file name.
module attributes {gpu.container_module} {
  gpu.module @".." {
    gpu.func @k(%a: memref<?xf32>) kernel {
      gpu.return
    }
  }
}
