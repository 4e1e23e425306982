//===- Capture.h - A program's outputs, for a tuner running it --*- C++ -*-===//
//
// The tuner that runs a whole program (approx tune ... -- PROGRAM,
// tune/ExecEvaluator.h) compares the program's outputs between
// configurations. With APPROX_CAPTURE=DIR in the program's environment the
// runtime writes them there:
//   - every device-to-host copy it makes (DeviceBuffer::copyToHost, and
//     mgpuMemcpy in libapprox_mgpu.so), in order, as
//     DIR/d2h-NNNNNN.TYPE.bin;
//   - the kernel arguments the tuner asked for in DIR/capture.json
//     ({"format": "approx-capture", "version": 1, "args": [{"kernel": K,
//     "index": I, "type": T}]}; T optional for a memref, whose element type
//     the manifest gives): after each launch of K through Module::launch,
//     the memory of argument I, from its address to the end of its
//     allocation (a cudaMalloc'd pointer included), as DIR/arg-NN.TYPE.bin
//     (NN: the request's index), overwritten, so the last launch's stays.
//     This is how a program whose copies go through the CUDA runtime API
//     (cudaMemcpy, which the runtime never sees) is judged by its outputs;
//   - DIR/capture-seconds: the wall time the capturing took so far (file
//     writes, the synchronizations and copies of arguments), which the
//     tuner subtracts from the run's wall time: every configuration pays
//     it alike and it is not the program's.
// A capture that cannot be written fails the operation: a program must not
// pass for correct with its outputs missing.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_CAPTURE_H
#define APPROX_RUNTIME_CORE_CAPTURE_H

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Status.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace approx::rt::capture {

/// One argument to capture (DIR/capture.json's "args" entry).
struct ArgRequest {
  std::string kernel;               ///< as the program launches it
  size_t index = 0;                 ///< the argument
  std::optional<ScalarType> type;   ///< the element type, where given
};

/// Whether APPROX_CAPTURE names a directory.
bool enabled();

/// Writes `bytes` at `host` (elements of `elem`) as the next
/// DIR/d2h-NNNNNN.TYPE.bin; nothing without APPROX_CAPTURE.
Status deviceToHost(const void *host, size_t bytes, ScalarType elem);

/// DIR/capture.json's requests (empty without the file or the variable);
/// a malformed file is an error naming it.
Expected<std::vector<ArgRequest>> argRequests();

/// Writes request `slot`'s bytes as DIR/arg-NN.TYPE.bin, replacing the
/// last launch's.
Status writeArg(size_t slot, const void *host, size_t bytes, ScalarType elem);

/// Adds `seconds` spent capturing outside the functions above (the
/// synchronization before an argument's copy) to DIR/capture-seconds.
Status addSeconds(double seconds);

/// The capture request file's text, for the tuner.
std::string requestFileText(const std::vector<ArgRequest> &args);

} // namespace approx::rt::capture

#endif // APPROX_RUNTIME_CORE_CAPTURE_H
