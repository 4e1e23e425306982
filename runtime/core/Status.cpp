//===- Status.cpp - Status formatting ---------------------------------------===//
//
// Names of the status codes, the CUresult classification and the one-line
// rendering of a Status. CUresults are matched by number so that older
// cuda.h headers (which lack the newest codes) build the same table.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Status.h"

namespace approx::rt {

const char *statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::Ok:
    return "Ok";
  case StatusCode::InvalidArgument:
    return "InvalidArgument";
  case StatusCode::NotFound:
    return "NotFound";
  case StatusCode::OutOfRange:
    return "OutOfRange";
  case StatusCode::ParseError:
    return "ParseError";
  case StatusCode::Unavailable:
    return "Unavailable";
  case StatusCode::Unsupported:
    return "Unsupported";
  case StatusCode::OutOfMemory:
    return "OutOfMemory";
  case StatusCode::InvalidImage:
    return "InvalidImage";
  case StatusCode::LaunchOutOfResources:
    return "LaunchOutOfResources";
  case StatusCode::DeviceFault:
    return "DeviceFault";
  case StatusCode::CudaError:
    return "CudaError";
  case StatusCode::IoError:
    return "IoError";
  case StatusCode::Internal:
    return "Internal";
  }
  return "Unknown";
}

StatusCode statusCodeForCudaResult(int r) {
  switch (r) {
  case 0: // CUDA_SUCCESS
    return StatusCode::Ok;
  case 2: // OUT_OF_MEMORY
    return StatusCode::OutOfMemory;
  case 200: // INVALID_IMAGE
  case 209: // NO_BINARY_FOR_GPU
  case 218: // INVALID_PTX
  case 222: // UNSUPPORTED_PTX_VERSION
  case 300: // INVALID_SOURCE
  case 303: // SHARED_OBJECT_INIT_FAILED
    return StatusCode::InvalidImage;
  case 701: // LAUNCH_OUT_OF_RESOURCES
  case 720: // COOPERATIVE_LAUNCH_TOO_LARGE
    return StatusCode::LaunchOutOfResources;
  case 1:   // INVALID_VALUE
  case 101: // INVALID_DEVICE
  case 201: // INVALID_CONTEXT
  case 400: // INVALID_HANDLE
  case 709: // CONTEXT_IS_DESTROYED
  case 912: // INVALID_CLUSTER_SIZE
    return StatusCode::InvalidArgument;
  case 301: // FILE_NOT_FOUND
  case 302: // SHARED_OBJECT_SYMBOL_NOT_FOUND
  case 500: // NOT_FOUND
    return StatusCode::NotFound;
  case 36:  // CALL_REQUIRES_NEWER_DRIVER
  case 215: // UNSUPPORTED_LIMIT
  case 217: // PEER_ACCESS_UNSUPPORTED
  case 221: // JIT_COMPILER_NOT_FOUND
  case 223: // JIT_COMPILATION_DISABLED
  case 224: // UNSUPPORTED_EXEC_AFFINITY
  case 225: // UNSUPPORTED_DEVSIDE_SYNC
  case 703: // LAUNCH_INCOMPATIBLE_TEXTURING
  case 800: // NOT_PERMITTED
  case 801: // NOT_SUPPORTED
  case 811: // CDP_NOT_SUPPORTED
    return StatusCode::Unsupported;
  case 3:   // NOT_INITIALIZED
  case 4:   // DEINITIALIZED
  case 34:  // STUB_LIBRARY
  case 46:  // DEVICE_UNAVAILABLE
  case 100: // NO_DEVICE
  case 102: // DEVICE_NOT_LICENSED
  case 802: // SYSTEM_NOT_READY
  case 803: // SYSTEM_DRIVER_MISMATCH
  case 804: // COMPAT_NOT_SUPPORTED_ON_DEVICE
    return StatusCode::Unavailable;
  // cuda.h: "This leaves the process in an inconsistent state and any
  // further CUDA work will return the same error. To continue using CUDA,
  // the process must be terminated and relaunched" (or, for ASSERT, "the
  // context cannot be used anymore").
  case 214: // ECC_UNCORRECTABLE
  case 220: // NVLINK_UNCORRECTABLE
  case 226: // CONTAINED
  case 700: // ILLEGAL_ADDRESS
  case 702: // LAUNCH_TIMEOUT
  case 710: // ASSERT
  case 714: // HARDWARE_STACK_ERROR
  case 715: // ILLEGAL_INSTRUCTION
  case 716: // MISALIGNED_ADDRESS
  case 717: // INVALID_ADDRESS_SPACE
  case 718: // INVALID_PC
  case 719: // LAUNCH_FAILED
  case 721: // TENSOR_MEMORY_LEAK
  case 911: // EXTERNAL_DEVICE
    return StatusCode::DeviceFault;
  default:
    return StatusCode::CudaError;
  }
}

Status Status::fromCuda(int cuResult, std::string call, std::string message) {
  StatusCode code = statusCodeForCudaResult(cuResult);
  if (code == StatusCode::Ok) // not a failure; keep the value an error
    code = StatusCode::Internal;
  Status s(code, std::move(message));
  s.cuResult_ = cuResult;
  s.cuCall_ = std::move(call);
  return s;
}

std::string Status::toString() const {
  if (isOk())
    return "Ok";
  return std::string(statusCodeName(code_)) + ": " + message_;
}

Status Status::withContext(const std::string &context) const {
  if (isOk())
    return *this;
  Status s = *this;
  s.message_ = context + ": " + message_;
  return s;
}

} // namespace approx::rt
