//===- Status.h - Error values for the approx runtime ------------*- C++ -*-===//
//
// Every fallible runtime call returns a `Status` or an `Expected<T>`; nothing
// in the runtime throws or aborts on a user or driver error. A CUDA failure is
// turned into a Status whose code classifies the CUresult (out of memory, bad
// image, launch resources, invalid value, not found, unsupported, no device,
// and the sticky device faults that leave the context unusable), which keeps
// the CUresult and the failing call's name, and whose message names both with
// the driver's own error text.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_STATUS_H
#define APPROX_RUNTIME_CORE_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace approx::rt {

/// Classes of failure; the message carries the detail. Driver failures map
/// to the class of their CUresult (statusCodeForCudaResult) and keep it.
enum class StatusCode {
  Ok = 0,
  InvalidArgument, ///< A value is wrong (size, type, name; CUDA: invalid
                   ///< value, handle, device or context).
  NotFound,        ///< Unknown kernel, knob, file or symbol.
  OutOfRange,      ///< A knob value or index outside its declared range.
  ParseError,      ///< Malformed manifest or input file.
  Unavailable,     ///< No driver, no GPU: the caller may skip.
  Unsupported,     ///< The driver or device cannot do this (CUDA: not
                   ///< supported, not permitted, newer driver needed).
  OutOfMemory,     ///< Device (or host) memory exhausted.
  InvalidImage,    ///< PTX/cubin refused: JIT error, no code for this GPU.
  LaunchOutOfResources, ///< Too many threads, registers or parameter bytes
                        ///< for the launch.
  DeviceFault, ///< Sticky: a kernel faulted (illegal address or
               ///< instruction, misaligned access, trap, assert, timeout,
               ///< uncorrectable ECC, ...); the CUDA context is unusable and
               ///< the process must restart to use the GPU again.
  CudaError,   ///< Any other CUDA driver failure.
  IoError,     ///< File system error.
  Internal,    ///< A runtime bug.
};

/// Returns a short name ("InvalidArgument", ...) for `code`.
const char *statusCodeName(StatusCode code);

/// The StatusCode of a CUresult (given as an int so this header needs no
/// cuda.h); CUDA_SUCCESS (0) maps to Ok.
StatusCode statusCodeForCudaResult(int cuResult);

/// A success-or-error value. Cheap to copy on success.
class [[nodiscard]] Status {
public:
  /// Ok.
  Status() = default;
  /// An error of class `code` (one line: callers print it as is).
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  /// Ok, spelled out.
  static Status ok() { return Status(); }
  /// A failed driver call: the code is statusCodeForCudaResult(cuResult);
  /// `call` is the driver entry point ("cuMemAlloc").
  static Status fromCuda(int cuResult, std::string call, std::string message);

  /// True when no error.
  bool isOk() const { return code_ == StatusCode::Ok; }
  /// isOk().
  explicit operator bool() const { return isOk(); }
  /// The class of the error (Ok when none).
  StatusCode code() const { return code_; }
  /// The one-line description ("" when Ok).
  const std::string &message() const { return message_; }
  /// The CUresult of a driver failure, 0 otherwise.
  int cudaResult() const { return cuResult_; }
  /// The failing driver call's name ("" when not a driver failure).
  const std::string &cudaCall() const { return cuCall_; }

  /// "CodeName: message", or "Ok".
  std::string toString() const;

  /// Returns a copy whose message is prefixed with `context + ": "` (code,
  /// CUresult and call are kept).
  Status withContext(const std::string &context) const;

private:
  StatusCode code_ = StatusCode::Ok;
  std::string message_;
  int cuResult_ = 0;
  std::string cuCall_;
};

/// True for a sticky device fault: the CUDA context is unusable, every later
/// driver call fails the same way, and only a new process can use the GPU.
inline bool isStickyFault(const Status &s) {
  return s.code() == StatusCode::DeviceFault;
}

/// Shorthands for an error of each non-driver class.
inline Status invalidArgument(std::string m) {
  return Status(StatusCode::InvalidArgument, std::move(m));
}
inline Status notFound(std::string m) {
  return Status(StatusCode::NotFound, std::move(m));
}
inline Status outOfRange(std::string m) {
  return Status(StatusCode::OutOfRange, std::move(m));
}
inline Status parseError(std::string m) {
  return Status(StatusCode::ParseError, std::move(m));
}
inline Status unavailable(std::string m) {
  return Status(StatusCode::Unavailable, std::move(m));
}
inline Status ioError(std::string m) {
  return Status(StatusCode::IoError, std::move(m));
}
inline Status internalError(std::string m) {
  return Status(StatusCode::Internal, std::move(m));
}

/// Either a value of type T or a non-Ok Status.
template <typename T> class [[nodiscard]] Expected {
public:
  /// A value.
  Expected(T value) : value_(std::move(value)) {}
  /// An error (`status` must not be Ok; an Ok one becomes Internal).
  Expected(Status status) : status_(std::move(status)) {
    assert(!status_.isOk() && "Expected<T> built from an Ok status");
    if (status_.isOk())
      status_ = internalError("Expected<T> built from an Ok status");
  }

  /// True when a value is held.
  bool isOk() const { return value_.has_value(); }
  /// isOk().
  explicit operator bool() const { return isOk(); }
  /// The error (Ok when a value is held).
  const Status &status() const { return status_; }

  /// The value (only valid when isOk()).
  T &value() & { return *value_; }
  const T &value() const & { return *value_; }
  T &&value() && { return std::move(*value_); }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }
  T &operator*() & { return *value_; }
  const T &operator*() const & { return *value_; }

  /// Moves the value out (only valid when isOk()).
  T take() { return std::move(*value_); }

private:
  std::optional<T> value_;
  Status status_;
};

} // namespace approx::rt

/// Returns from the enclosing function if `expr` (a Status) is not Ok.
#define APPROX_RETURN_IF_ERROR(expr)                                           \
  do {                                                                         \
    ::approx::rt::Status approx_status_ = (expr);                              \
    if (!approx_status_.isOk())                                                \
      return approx_status_;                                                   \
  } while (0)

#define APPROX_CONCAT_INNER(a, b) a##b
#define APPROX_CONCAT(a, b) APPROX_CONCAT_INNER(a, b)

/// `APPROX_ASSIGN_OR_RETURN(auto x, makeX());` binds the value or returns the
/// error from the enclosing function.
#define APPROX_ASSIGN_OR_RETURN(decl, expr)                                    \
  APPROX_ASSIGN_OR_RETURN_IMPL(APPROX_CONCAT(approx_expected_, __LINE__),      \
                               decl, expr)
#define APPROX_ASSIGN_OR_RETURN_IMPL(tmp, decl, expr)                          \
  auto tmp = (expr);                                                           \
  if (!tmp.isOk())                                                             \
    return tmp.status();                                                       \
  decl = tmp.take()

#endif // APPROX_RUNTIME_CORE_STATUS_H
