//===- Plan.h - What approx-tune will launch, before any GPU work -*- C++ -*-===//
//
// `makePlan` binds the command line to the manifest without touching a GPU
// or allocating buffers: the kernel (variant dispatch resolved), every
// knob's value, and per argument its shape, byte size (overflow-checked),
// role and data source, or its scalar value parsed by the argument's type
// (vectors lane by lane). Input files are checked to be regular files of
// exactly the buffer's size, without being read. `checkHostMemory` refuses
// plans whose host-side data cannot fit the machine. `printDryRun` packs the
// arguments against fake device pointers and prints the PTX parameter
// layout; `printList` prints the manifest; `makeSpecs` generates or reads
// the data (after the device checks).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNE_PLAN_H
#define APPROX_TUNE_PLAN_H

#include "CommandLine.h"

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/tune/KernelEvaluator.h"

#include <map>
#include <string>
#include <vector>

namespace approx::tune {

/// How one kernel argument is supplied.
struct ArgPlan {
  /// A device buffer, a value, or a null pointer argument.
  enum class Kind { Buffer, Scalar, NullPointer };
  Kind kind = Kind::Scalar;
  const approx::rt::ArgInfo *info = nullptr; ///< the manifest's argument
  // Buffers (memrefs, and pointers as byte buffers).
  approx::rt::ValueType elem = approx::rt::ScalarType::I8;
  std::vector<int64_t> shape; ///< sizes in elements
  uint64_t bytes = 0;         ///< shape x element size (checked)
  uint64_t values = 0; ///< scalars held (vector lanes counted)
  uint64_t elements = 0; ///< product of the shape
  approx::rt::ArgSpec::Role role = approx::rt::ArgSpec::Role::Out;
  bool hasData = false; ///< In/InOut: `dist` fills it
  DistSpec dist;
  // Scalars.
  approx::rt::Arg value = approx::rt::Arg::integer(0);
  std::string text; ///< as given on the command line
};

/// Everything approx-tune will run.
struct RunPlan {
  std::string launchName;                    ///< --kernel
  const approx::rt::KernelInfo *kernel = nullptr; ///< the kernel launched
  const approx::rt::KnobInfo *dispatchKnob = nullptr; ///< when dispatched
  std::string tunedKnob;                     ///< "" when the kernel reads none
  std::map<std::string, int64_t> knobValues; ///< every knob, for the run
  std::vector<ArgPlan> args;                 ///< one per kernel argument
  approx::rt::LaunchConfig launch;
};

/// Binds `o` to `m`; throws CliError.
RunPlan makePlan(const approx::rt::Manifest &m, const Options &o);

/// Throws CliError (exit 2) when the plan's host data (inputs as generated
/// doubles and bytes, compared outputs downloaded and held as doubles twice)
/// exceeds the machine's physical memory.
void checkHostMemory(const RunPlan &p);

/// Device bytes the plan allocates (outputs once, inputs twice).
uint64_t deviceBytes(const RunPlan &p);

/// Prints knobs, kernels, arguments, parameters and sites (names escaped).
void printList(const approx::rt::Manifest &m);

/// Prints the parameter layout of `p` over fake device pointers.
void printDryRun(const approx::rt::Manifest &m, const RunPlan &p,
                 const std::string &image);

/// Generates or reads the argument data; throws CliError.
std::vector<approx::rt::ArgSpec> makeSpecs(const RunPlan &p,
                                           const Options &o);

} // namespace approx::tune

#endif // APPROX_TUNE_PLAN_H
