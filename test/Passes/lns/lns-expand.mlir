// approx-lns-expand: !approx.lns values become (f32 log, i1 negative) and
// the arithmetic becomes f32/i1 ops plus nonpositive sb/db.
// RUN: approx-opt %s -split-input-file -approx-lns-expand | FileCheck %s
// RUN: approx-opt %s -split-input-file -approx-lns-expand -canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @mul_div
// CHECK-SAME: (%[[LA:.*]]: f32, %[[NA:.*]]: i1, %[[LB:.*]]: f32, %[[NB:.*]]: i1) -> (f32, i1)
// CHECK: %[[L:.*]] = arith.addf %[[LA]], %[[LB]] : f32
// CHECK: %[[N:.*]] = arith.xori %[[NA]], %[[NB]] : i1
// CHECK: %[[Q:.*]] = arith.subf %[[L]], %[[LB]] : f32
// CHECK: %[[M:.*]] = arith.xori %[[N]], %[[NB]] : i1
// CHECK: return %[[Q]], %[[M]] : f32, i1
func.func @mul_div(%a: !approx.lns, %b: !approx.lns) -> !approx.lns {
  %p = approx.lns.mul %a, %b
  %q = approx.lns.div %p, %b
  return %q : !approx.lns
}

// -----

// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[LA:.*]]: f32, %[[NA:.*]]: i1, %[[LB:.*]]: f32, %[[NB:.*]]: i1)
// CHECK: %[[BIG:.*]] = arith.maximumf %[[LA]], %[[LB]] : f32
// CHECK: %[[SMALL:.*]] = arith.minimumf %[[LA]], %[[LB]] : f32
// CHECK: %[[D:.*]] = arith.subf %[[SMALL]], %[[BIG]] : f32
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[NA]], %[[NB]] : i1
// CHECK: %[[SB:.*]] = approx.lns.sb %[[D]] impl(<texture2, segments = 64>) nonpositive : f32
// CHECK: %[[DB:.*]] = approx.lns.db %[[D]] impl(<texture2, segments = 64>) nonpositive : f32
// CHECK: %[[F:.*]] = arith.select %[[SAME]], %[[SB]], %[[DB]] : f32
// CHECK: %[[SUM:.*]] = arith.addf %[[BIG]], %[[F]] : f32
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[ZERO:.*]] = arith.cmpf oeq, %[[BIG]], %[[NEGINF]] : f32
// CHECK: %[[LOG:.*]] = arith.select %[[ZERO]], %[[NEGINF]], %[[SUM]] : f32
// CHECK: %[[AL:.*]] = arith.cmpf oge, %[[LA]], %[[LB]] : f32
// CHECK: %[[NEG:.*]] = arith.select %[[AL]], %[[NA]], %[[NB]] : i1
// CHECK: return %[[LOG]], %[[NEG]]
func.func @add(%a: !approx.lns, %b: !approx.lns) -> !approx.lns {
  %c = approx.lns.add %a, %b impl(#approx.lns_impl<texture2, segments = 64>)
  return %c : !approx.lns
}

// -----

// A subtraction flips the right operand's sign first.
// CHECK-LABEL: func.func @sub
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[NB:.*]] = arith.xori %{{.*}}, %[[TRUE]] : i1
// CHECK: arith.cmpi eq, %{{.*}}, %[[NB]] : i1
// CHECK: approx.lns.sb {{.*}} impl(<sfu>) nonpositive
// CHECK: approx.lns.db {{.*}} impl(<sfu>) nonpositive
func.func @sub(%a: !approx.lns, %b: !approx.lns) -> !approx.lns {
  %c = approx.lns.sub %a, %b impl(#approx.lns_impl<sfu>)
  return %c : !approx.lns
}

// -----

// Data known to be positive: the signs fold, and so does db; only the
// exact-zero select is left.
// CANON-LABEL: func.func @positive_sum
// CANON-NOT: approx.lns.db
// CANON: approx.lns.sb
// CANON-NOT: approx.lns.db
// CANON: arith.select
// CANON-NOT: arith.select
// CANON: return
func.func @positive_sum(%x: f32, %y: f32) -> f32 {
  %false = arith.constant false
  %a = approx.lns.pack %x, %false
  %b = approx.lns.pack %y, %false
  %c = approx.lns.add %a, %b impl(#approx.lns_impl<texture2, segments = 64>)
  %l, %n = approx.lns.unpack %c
  return %l : f32
}

// -----

// CHECK-LABEL: func.func @float_round_trip
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK: %[[LOG:.*]] = math.log2 %[[ABS]] : f32
// CHECK: %[[NEG:.*]] = arith.cmpf olt, %[[X]], %{{.*}} : f32
// CHECK: %[[MAG:.*]] = math.exp2 %[[LOG]] : f32
// CHECK: %[[NMAG:.*]] = arith.negf %[[MAG]] : f32
// CHECK: arith.select %[[NEG]], %[[NMAG]], %[[MAG]] : f32
func.func @float_round_trip(%x: f32) -> f32 {
  %a = approx.lns.from_float %x : f32
  %y = approx.lns.to_float %a : f32
  return %y : f32
}

// -----

// Loop-carried LNS values become two iter_args (upstream's structural
// conversion); the HMM forward recursion has this shape. The sign starts
// false and stays false (a sum of positive values): it becomes the
// constant, and canonicalization then drops the db.
// CANON-LABEL: func.func @accumulate
// CANON: scf.for
// CANON-NOT: approx.lns.db
// CANON: approx.lns.sb
// CANON-NOT: approx.lns.db
// CANON: return
// CHECK-LABEL: func.func @accumulate
// CHECK: scf.for {{.*}} iter_args(%[[L:.*]] = %{{.*}}, %[[N:.*]] = %{{.*}}) -> (f32, i1)
// CHECK: approx.lns.sb
// CHECK: scf.yield %{{.*}}, %{{.*}} : f32, i1
func.func @accumulate(%x: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %ninf = arith.constant 0xFF800000 : f32
  %zero = approx.lns.pack %ninf, %false
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (!approx.lns) {
    %v = memref.load %x[%i] : memref<16xf32>
    %e = approx.lns.pack %v, %false
    %s = approx.lns.add %acc, %e impl(#approx.lns_impl<sfu>)
    scf.yield %s : !approx.lns
  }
  %l, %n = approx.lns.unpack %r
  return %l : f32
}

// -----

// Device functions and kernels: gpu.func signatures and gpu.return too.
// CHECK-LABEL: gpu.func @helper
// CHECK-SAME: (%{{.*}}: f32, %{{.*}}: i1) -> (f32, i1)
// CHECK: gpu.return %{{.*}}, %{{.*}} : f32, i1
gpu.module @m {
  gpu.func @helper(%a: !approx.lns) -> !approx.lns {
    %b = approx.lns.mul %a, %a
    gpu.return %b : !approx.lns
  }
}

// -----

// A sign that may turn true (a term of unknown sign) stays a loop variable,
// and db stays.
// CANON-LABEL: func.func @signed_accumulate
// CANON: scf.for {{.*}} -> (f32, i1)
// CANON: approx.lns.db
func.func @signed_accumulate(%x: memref<16xf32>, %s: memref<16xi1>) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %ninf = arith.constant 0xFF800000 : f32
  %zero = approx.lns.pack %ninf, %false
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (!approx.lns) {
    %v = memref.load %x[%i] : memref<16xf32>
    %n = memref.load %s[%i] : memref<16xi1>
    %e = approx.lns.pack %v, %n
    %t = approx.lns.add %acc, %e impl(#approx.lns_impl<sfu>)
    scf.yield %t : !approx.lns
  }
  %l, %neg = approx.lns.unpack %r
  return %l : f32
}
