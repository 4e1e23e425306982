// Black-Scholes European option pricing in f64 (the CUDA samples' kernel,
// examples/black_scholes.mlir, with double buffers and double arithmetic),
// one option per thread, any number of options n (block: any 1-D size):
//   d1 = (log(S/X) + (r + v^2/2) T) / (v sqrt(T)),  d2 = d1 - v sqrt(T)
//   call = S N(d1) - X e^(-rT) N(d2),  put = X e^(-rT) (1 - N(d2)) - S (1 - N(d1))
// N is the cumulative normal by the Abramowitz-Stegun polynomial (an exp and
// a reciprocal each call).
// Two techniques, one manifest (examples/combined/README.md lists the knobs):
//   SFU warp split (docs/sfu.md): approx-from-math makes the log, the three
//     exp, the sqrt, the two divisions and the two reciprocals (1/x in N)
//     tunable sites on the knob @lambda. f64 exp and log have no SFU form:
//     sfu.f64-demote gives them the f32 one (cvt, ex2/lg2.approx, cvt); f64
//     sqrt, div and rcp use rsqrt/rcp.approx.ftz.f64, refined by
//     sfu.newton-steps Newton steps (1 here: div and sqrt to 1 ulp).
//   Precision scaling (docs/precision.md, docs/configurations.md): the five
//     f64 arrays are memory objects (approx.object); precision.space= gives
//     each a build knob over its storage type (f64, f32, f16, bf16). The
//     arithmetic stays f64.
//
//   approx-opt examples/combined/option_pricing.mlir -o /dev/null --approx-to-ptx="chip=sm_90 output-dir=DIR name=option_pricing sfu.f64-demote sfu.newton-steps=1 precision.space=f32,f16,bf16"
//
// writes DIR/option_pricing.{ptx,manifest.json}: knobs lambda (sfu, global,
// ordinal) and precision__call, precision__put, precision__price,
// precision__strike, precision__years (precision, build, storage).
gpu.module @option_pricing {
  // Cumulative normal distribution, |error| < 7.5e-8 (Abramowitz-Stegun
  // 26.2.17).
  func.func private @cnd(%d: f64) -> f64 {
    %a1 = arith.constant 0.31938153 : f64
    %a2 = arith.constant -0.356563782 : f64
    %a3 = arith.constant 1.781477937 : f64
    %a4 = arith.constant -1.821255978 : f64
    %a5 = arith.constant 1.330274429 : f64
    %rsqrt2pi = arith.constant 0.39894228040143267793994605993438 : f64
    %one = arith.constant 1.0 : f64
    %p = arith.constant 0.2316419 : f64
    %mhalf = arith.constant -0.5 : f64
    %zero = arith.constant 0.0 : f64
    %ad = math.absf %d : f64
    %pk = arith.mulf %p, %ad : f64
    %den = arith.addf %one, %pk : f64
    %k = arith.divf %one, %den : f64
    %t5 = arith.mulf %k, %a5 : f64
    %t4 = arith.addf %a4, %t5 : f64
    %t4k = arith.mulf %k, %t4 : f64
    %t3 = arith.addf %a3, %t4k : f64
    %t3k = arith.mulf %k, %t3 : f64
    %t2 = arith.addf %a2, %t3k : f64
    %t2k = arith.mulf %k, %t2 : f64
    %t1 = arith.addf %a1, %t2k : f64
    %poly = arith.mulf %k, %t1 : f64
    %d2 = arith.mulf %d, %d : f64
    %e = arith.mulf %mhalf, %d2 : f64
    %ex = math.exp %e : f64
    %g = arith.mulf %rsqrt2pi, %ex : f64
    %c = arith.mulf %g, %poly : f64
    %pos = arith.cmpf ogt, %d, %zero : f64
    %oc = arith.subf %one, %c : f64
    %r = arith.select %pos, %oc, %c : f64
    return %r : f64
  }

  // Inputs: price S, strike X, years T (n each); outputs: call, put (n
  // each); riskfree r and volatility v are scalars; n the option count.
  gpu.func @black_scholes(%call: memref<?xf64> {approx.object = "call"},
                          %put: memref<?xf64> {approx.object = "put"},
                          %price: memref<?xf64> {approx.object = "price"},
                          %strike: memref<?xf64> {approx.object = "strike"},
                          %years: memref<?xf64> {approx.object = "years"},
                          %riskfree: f64, %volatility: f64, %n: index)
      kernel {
    %i = gpu.global_id x
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %one = arith.constant 1.0 : f64
      %half = arith.constant 0.5 : f64
      %zero = arith.constant 0.0 : f64
      %s = memref.load %price[%i] : memref<?xf64>
      %x = memref.load %strike[%i] : memref<?xf64>
      %t = memref.load %years[%i] : memref<?xf64>
      %sqrtt = math.sqrt %t : f64
      %sx = arith.divf %s, %x : f64
      %lsx = math.log %sx : f64
      %v2 = arith.mulf %volatility, %volatility : f64
      %hv2 = arith.mulf %half, %v2 : f64
      %rv = arith.addf %riskfree, %hv2 : f64
      %rvt = arith.mulf %rv, %t : f64
      %num = arith.addf %lsx, %rvt : f64
      %vst = arith.mulf %volatility, %sqrtt : f64
      %d1 = arith.divf %num, %vst : f64
      %d2 = arith.subf %d1, %vst : f64
      %cnd1 = func.call @cnd(%d1) : (f64) -> f64
      %cnd2 = func.call @cnd(%d2) : (f64) -> f64
      %nrt = arith.subf %zero, %riskfree : f64
      %nrtt = arith.mulf %nrt, %t : f64
      %expRT = math.exp %nrtt : f64
      %xe = arith.mulf %x, %expRT : f64
      %scnd1 = arith.mulf %s, %cnd1 : f64
      %xecnd2 = arith.mulf %xe, %cnd2 : f64
      %c = arith.subf %scnd1, %xecnd2 : f64
      %ncnd2 = arith.subf %one, %cnd2 : f64
      %ncnd1 = arith.subf %one, %cnd1 : f64
      %xen = arith.mulf %xe, %ncnd2 : f64
      %sn = arith.mulf %s, %ncnd1 : f64
      %p = arith.subf %xen, %sn : f64
      memref.store %c, %call[%i] : memref<?xf64>
      memref.store %p, %put[%i] : memref<?xf64>
    }
    gpu.return
  }
}
