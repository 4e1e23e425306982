//===- Approx.td - the whole approx dialect ------------------*- tablegen -*-===//
//
// Includes every op family, for the dialect declaration and its reference
// documentation. Each family's ops are generated from its own file.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_TD
#define APPROX_TD

include "approx/Dialect/ApproxBase.td"
include "approx/Dialect/CoreOps.td"
include "approx/Dialect/SfuOps.td"
include "approx/Dialect/LnsOps.td"
include "approx/Dialect/PerforationOps.td"
include "approx/Dialect/PrecisionOps.td"

#endif // APPROX_TD
