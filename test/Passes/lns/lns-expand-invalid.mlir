// approx-lns-expand refuses LNS values it cannot convert, naming the op.
// RUN: approx-opt %s -split-input-file -allow-unregistered-dialect -approx-lns-expand -verify-diagnostics

func.func @unknown_user(%a: !approx.lns) {
  // expected-error @+1 {{failed to legalize operation 'test.use'}}
  "test.use"(%a) : (!approx.lns) -> ()
  return
}
