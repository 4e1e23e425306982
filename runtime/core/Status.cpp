//===- Status.cpp - Status formatting ---------------------------------------===//
//
// Names of the status codes and the one-line rendering of a Status.
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
  case StatusCode::CudaError:
    return "CudaError";
  case StatusCode::IoError:
    return "IoError";
  case StatusCode::Internal:
    return "Internal";
  }
  return "Unknown";
}

std::string Status::toString() const {
  if (isOk())
    return "Ok";
  return std::string(statusCodeName(code_)) + ": " + message_;
}

Status Status::withContext(const std::string &context) const {
  if (isOk())
    return *this;
  return Status(code_, context + ": " + message_);
}

} // namespace approx::rt
