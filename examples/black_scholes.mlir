// Black-Scholes European option pricing (CUDA samples' BlackScholes): exp, log,
// sqrt, a division, and the cumulative normal through exp and rcp. One option
// per thread, straight-line code: approx-warp-split branches once per block.
// Memory-streaming: 5 floats read, 2 written per option.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Polynomial approximation of the cumulative normal distribution.
    func.func private @cnd(%d: f32) -> f32 {
      %a1 = arith.constant 0.31938153 : f32
      %a2 = arith.constant -0.356563782 : f32
      %a3 = arith.constant 1.781477937 : f32
      %a4 = arith.constant -1.821255978 : f32
      %a5 = arith.constant 1.330274429 : f32
      %rsqrt2pi = arith.constant 0.39894228040143267793994605993438 : f32
      %one = arith.constant 1.0 : f32
      %p = arith.constant 0.2316419 : f32
      %mhalf = arith.constant -0.5 : f32
      %zero = arith.constant 0.0 : f32
      %ad = math.absf %d : f32
      %pk = arith.mulf %p, %ad : f32
      %den = arith.addf %one, %pk : f32
      %k = arith.divf %one, %den : f32
      %t5 = arith.mulf %k, %a5 : f32
      %t4 = arith.addf %a4, %t5 : f32
      %t4k = arith.mulf %k, %t4 : f32
      %t3 = arith.addf %a3, %t4k : f32
      %t3k = arith.mulf %k, %t3 : f32
      %t2 = arith.addf %a2, %t3k : f32
      %t2k = arith.mulf %k, %t2 : f32
      %t1 = arith.addf %a1, %t2k : f32
      %poly = arith.mulf %k, %t1 : f32
      %d2 = arith.mulf %d, %d : f32
      %e = arith.mulf %mhalf, %d2 : f32
      %ex = math.exp %e : f32
      %g = arith.mulf %rsqrt2pi, %ex : f32
      %c = arith.mulf %g, %poly : f32
      %pos = arith.cmpf ogt, %d, %zero : f32
      %oc = arith.subf %one, %c : f32
      %r = arith.select %pos, %oc, %c : f32
      return %r : f32
    }

    gpu.func @black_scholes(%call: memref<?xf32>, %put: memref<?xf32>,
                            %price: memref<?xf32>, %strike: memref<?xf32>,
                            %years: memref<?xf32>, %riskfree: f32,
                            %volatility: f32, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %one = arith.constant 1.0 : f32
        %half = arith.constant 0.5 : f32
        %zero = arith.constant 0.0 : f32
        %s = memref.load %price[%i] : memref<?xf32>
        %x = memref.load %strike[%i] : memref<?xf32>
        %t = memref.load %years[%i] : memref<?xf32>
        %sqrtt = math.sqrt %t : f32
        %sx = arith.divf %s, %x : f32
        %lsx = math.log %sx : f32
        %v2 = arith.mulf %volatility, %volatility : f32
        %hv2 = arith.mulf %half, %v2 : f32
        %rv = arith.addf %riskfree, %hv2 : f32
        %rvt = arith.mulf %rv, %t : f32
        %num = arith.addf %lsx, %rvt : f32
        %vst = arith.mulf %volatility, %sqrtt : f32
        %d1 = arith.divf %num, %vst : f32
        %d2 = arith.subf %d1, %vst : f32
        %cnd1 = func.call @cnd(%d1) : (f32) -> f32
        %cnd2 = func.call @cnd(%d2) : (f32) -> f32
        %nrt = arith.subf %zero, %riskfree : f32
        %nrtt = arith.mulf %nrt, %t : f32
        %expRT = math.exp %nrtt : f32
        %xe = arith.mulf %x, %expRT : f32
        %scnd1 = arith.mulf %s, %cnd1 : f32
        %xecnd2 = arith.mulf %xe, %cnd2 : f32
        %c = arith.subf %scnd1, %xecnd2 : f32
        %ncnd2 = arith.subf %one, %cnd2 : f32
        %ncnd1 = arith.subf %one, %cnd1 : f32
        %xen = arith.mulf %xe, %ncnd2 : f32
        %sn = arith.mulf %s, %ncnd1 : f32
        %p = arith.subf %xen, %sn : f32
        memref.store %c, %call[%i] : memref<?xf32>
        memref.store %p, %put[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
