//===- Joint.h - approx tune: the joint search over a kernel's knobs -*- C++ -*-===//
//
// `approx tune` (approx-tune --joint): every knob of one kernel (runJoint),
// or of a whole program after `--` (runJointExec), searched together by the
// joint tuner (approx/runtime/tune/JointTuner.h) under an absolute error
// bound, the pick verified on other inputs with and without the run-time
// guard, and reported as a table, JSON and an HTML page. Both front ends
// hand one search-and-report routine a set of evaluator makers.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNE_JOINT_H
#define APPROX_TUNE_JOINT_H

#include "CommandLine.h"
#include "Plan.h"

namespace approx::tune {

/// Runs joint tuning; the exit status (0, or 3 when the pick misses the
/// bound on a verification input with the guard on). Throws CliError.
int runJoint(const approx::rt::Manifest &man, const RunPlan &plan,
             const Options &o, const std::string &image);

/// Runs joint tuning of the whole program after `--` (o.execCommand) over
/// `man`'s run-time knobs (and, with --storage, its memory objects' storage
/// types): ExecEvaluator (JointExec.cpp). Throws CliError.
int runJointExec(const approx::rt::Manifest &man, const Options &o);

} // namespace approx::tune

#endif // APPROX_TUNE_JOINT_H
