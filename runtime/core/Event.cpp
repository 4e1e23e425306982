//===- Event.cpp - RAII CUDA events ---------------------------------------===//
//
// Events are created with timing enabled (CU_EVENT_DEFAULT) and recorded on
// a Stream or on the legacy default stream (a null CUstream), so callers can
// time DeviceBuffer's synchronous copies and launches without a Stream.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

namespace approx::rt {

Expected<Event> Event::create(std::shared_ptr<Context> ctx) {
  if (!ctx)
    return invalidArgument("Event::create: null context");
  APPROX_RETURN_IF_ERROR(ctx->makeCurrent());
  CUevent e = nullptr;
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx), cuEventCreate, &e,
                            CU_EVENT_DEFAULT);
  Event out;
  out.ctx_ = std::move(ctx);
  out.event_ = e;
  return out;
}

Event::Event(Event &&o) noexcept : ctx_(std::move(o.ctx_)), event_(o.event_) {
  o.event_ = nullptr;
}

Event &Event::operator=(Event &&o) noexcept {
  if (this != &o) {
    (void)destroy();
    ctx_ = std::move(o.ctx_);
    event_ = o.event_;
    o.event_ = nullptr;
  }
  return *this;
}

Event::~Event() { (void)destroy(); }

Status Event::destroy() {
  if (!event_)
    return Status::ok();
  CUevent e = static_cast<CUevent>(event_);
  event_ = nullptr;
  Status current = ctx_->makeCurrent(); // destroy even if this fails
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx_), cuEventDestroy, e);
  return current;
}

Status Event::record(const Stream *stream) {
  if (!event_)
    return invalidArgument("Event::record: empty event");
  CUstream s = nullptr;
  if (stream) {
    if (stream->empty())
      return invalidArgument("Event::record: empty stream");
    if (stream->context()->impl().ctx != ctx_->impl().ctx)
      return invalidArgument(
          "Event::record: the stream belongs to another context");
    s = static_cast<CUstream>(stream->handle());
  }
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx_), cuEventRecord,
                            static_cast<CUevent>(event_), s);
  return Status::ok();
}

Status Event::synchronize() const {
  if (!event_)
    return invalidArgument("Event::synchronize: empty event");
  APPROX_RETURN_IF_ERROR(ctx_->makeCurrent());
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*ctx_), cuEventSynchronize,
                            static_cast<CUevent>(event_));
  return Status::ok();
}

Expected<double> Event::elapsedMs(const Event &start, const Event &end) {
  if (start.empty() || end.empty())
    return invalidArgument("Event::elapsedMs: empty event");
  if (start.ctx_->impl().ctx != end.ctx_->impl().ctx)
    return invalidArgument("Event::elapsedMs: events of two contexts");
  APPROX_RETURN_IF_ERROR(end.ctx_->makeCurrent());
  float ms = 0;
  APPROX_CU_RETURN_IF_ERROR(detail::driverOf(*end.ctx_), cuEventElapsedTime,
                            &ms, static_cast<CUevent>(start.event_),
                            static_cast<CUevent>(end.event_));
  return double(ms);
}

} // namespace approx::rt
