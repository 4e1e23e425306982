//===- Stream.cpp - RAII CUDA streams -------------------------------------===//
//
// Streams are created blocking (CU_STREAM_DEFAULT), i.e. ordered with the
// legacy default stream that DeviceBuffer's synchronous copies use.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

namespace approx::rt {

Expected<Stream> Stream::create(std::shared_ptr<Context> ctx) {
  if (!ctx)
    return invalidArgument("Stream::create: null context");
  APPROX_RETURN_IF_ERROR(ctx->makeCurrent());
  CUstream s = nullptr;
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx), cuStreamCreate, &s,
                            CU_STREAM_DEFAULT);
  Stream out;
  out.ctx_ = std::move(ctx);
  out.stream_ = s;
  return out;
}

Stream::Stream(Stream &&o) noexcept
    : ctx_(std::move(o.ctx_)), stream_(o.stream_) {
  o.stream_ = nullptr;
}

Stream &Stream::operator=(Stream &&o) noexcept {
  if (this != &o) {
    (void)destroy();
    ctx_ = std::move(o.ctx_);
    stream_ = o.stream_;
    o.stream_ = nullptr;
  }
  return *this;
}

Stream::~Stream() { (void)destroy(); }

Status Stream::destroy() {
  if (!stream_)
    return Status::ok();
  CUstream s = static_cast<CUstream>(stream_);
  stream_ = nullptr;
  Status current = ctx_->makeCurrent(); // destroy even if this fails
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx_), cuStreamDestroy, s);
  return current;
}

Status Stream::synchronize() const {
  if (!stream_)
    return invalidArgument("Stream::synchronize: empty stream");
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx_), cuStreamSynchronize,
                            static_cast<CUstream>(stream_));
  return Status::ok();
}

} // namespace approx::rt
