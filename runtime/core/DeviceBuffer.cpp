//===- DeviceBuffer.cpp - RAII device memory ------------------------------===//
//
// cuMemAlloc/cuMemFree with range-checked synchronous copies and fills. A
// moved-from buffer is empty, so nothing is freed twice.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "approx/runtime/core/Capture.h"
#include "approx/runtime/core/Text.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace approx::rt {

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

Expected<DeviceBuffer> DeviceBuffer::allocate(std::shared_ptr<Context> ctx,
                                              size_t bytes, ValueType elem) {
  if (!ctx)
    return invalidArgument("DeviceBuffer::allocate: null context");
  if (elem.scalar == ScalarType::Ptr)
    return invalidArgument("DeviceBuffer::allocate: element type ptr");
  if (bytes % elem.size() != 0)
    return invalidArgument("DeviceBuffer::allocate: " + std::to_string(bytes) +
                           " bytes is not a whole number of " + elem.name());
  APPROX_RETURN_IF_ERROR(ctx->makeCurrent());
  DeviceBuffer b;
  b.elem_ = elem;
  if (bytes > 0) {
    CUdeviceptr p = 0;
    APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx), cuMemAlloc, &p, bytes);
    b.ptr_ = p;
    b.bytes_ = bytes;
  }
  b.ctx_ = std::move(ctx);
  return b;
}

Expected<DeviceBuffer> DeviceBuffer::fromHost(std::shared_ptr<Context> ctx,
                                              const void *host, size_t count,
                                              ValueType elem) {
  if (count > SIZE_MAX / elem.size())
    return invalidArgument("DeviceBuffer::fromHost: " + std::to_string(count) +
                           " elements of " + elem.name() +
                           " overflow size_t");
  APPROX_ASSIGN_OR_RETURN(
      DeviceBuffer b,
      allocate(std::move(ctx), count * size_t(elem.size()), elem));
  APPROX_RETURN_IF_ERROR(b.copyFromHost(host, b.bytes()));
  return b; // on error above, b's destructor frees it
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&o) noexcept
    : ctx_(std::move(o.ctx_)), ptr_(o.ptr_), bytes_(o.bytes_),
      elem_(o.elem_) {
  o.ptr_ = 0;
  o.bytes_ = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  if (this != &o) {
    (void)free();
    ctx_ = std::move(o.ctx_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    elem_ = o.elem_;
    o.ptr_ = 0;
    o.bytes_ = 0;
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { (void)free(); }

Status DeviceBuffer::free() {
  if (!ptr_)
    return Status::ok();
  CUdeviceptr p = ptr_;
  ptr_ = 0;
  bytes_ = 0;
  // Free even when the context cannot be made current (e.g. after a device
  // fault): the handle is released either way, and nothing else would.
  Status current = ctx_->makeCurrent();
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx_), cuMemFree, p);
  return current;
}

static Status checkRange(size_t offset, size_t bytes, size_t cap,
                         const char *what) {
  if (offset > cap || bytes > cap - offset)
    return invalidArgument(std::string(what) + ": range [" +
                           std::to_string(offset) + ", " +
                           std::to_string(offset + bytes) +
                           ") exceeds the buffer's " + std::to_string(cap) +
                           " bytes");
  return Status::ok();
}

Status DeviceBuffer::copyFromHost(const void *host, size_t bytes,
                                  size_t offset) {
  APPROX_RETURN_IF_ERROR(checkRange(offset, bytes, bytes_, "copyFromHost"));
  if (bytes == 0)
    return Status::ok();
  if (!host)
    return invalidArgument("copyFromHost: null host pointer");
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx_), cuMemcpyHtoD, ptr_ + offset, host,
                            bytes);
  return Status::ok();
}

Status DeviceBuffer::copyToHost(void *host, size_t bytes,
                                size_t offset) const {
  APPROX_RETURN_IF_ERROR(checkRange(offset, bytes, bytes_, "copyToHost"));
  if (bytes == 0)
    return Status::ok();
  if (!host)
    return invalidArgument("copyToHost: null host pointer");
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx_), cuMemcpyDtoH, host, ptr_ + offset,
                            bytes);
  // APPROX_CAPTURE: the outputs a tuner running this program compares.
  return capture::deviceToHost(host, bytes, elem_.scalar);
}

Status DeviceBuffer::copyFrom(const DeviceBuffer &src) {
  if (src.bytes_ != bytes_)
    return invalidArgument("copyFrom: source has " +
                           std::to_string(src.bytes_) + " bytes, destination " +
                           std::to_string(bytes_));
  if (bytes_ == 0)
    return Status::ok();
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx_), cuMemcpyDtoD, ptr_, src.ptr_,
                            bytes_);
  return Status::ok();
}

Status DeviceBuffer::fillBytes(uint8_t value) {
  if (bytes_ == 0)
    return Status::ok();
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx_), cuMemsetD8, ptr_, value, bytes_);
  return Status::ok();
}

Status DeviceBuffer::fill32(uint32_t pattern) {
  if (bytes_ % 4 != 0)
    return invalidArgument("fill32: " + std::to_string(bytes_) +
                           " bytes is not a multiple of 4");
  if (bytes_ == 0)
    return Status::ok();
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx_), cuMemsetD32, ptr_, pattern,
                            bytes_ / 4);
  return Status::ok();
}

} // namespace approx::rt
