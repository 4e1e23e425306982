//===- WorkerPool.cpp - persistent threads for convert() ------------------===//
//
// One process-wide pool, started lazily and never destroyed (its threads
// sleep on a condition variable; at exit they are simply not joined, so no
// static destructor can race with them). Each call publishes a Job through
// a shared_ptr: a thread that wakes late holds the old Job, finds its chunk
// counter exhausted and never touches the finished call's function.
//
//===----------------------------------------------------------------------===//
#include "WorkerPool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace approx::rt::precision::detail {

namespace {

struct Job {
  const std::function<void(size_t)> *fn;
  size_t chunks;
  unsigned helpers; ///< pool threads 0 .. helpers-1 take part
  std::atomic<size_t> next{0};
  std::atomic<size_t> finished{0};
};

constexpr std::chrono::microseconds kSpin{100};

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

class Pool {
public:
  void run(size_t chunks, unsigned threads,
           const std::function<void(size_t)> &fn) {
    std::lock_guard<std::mutex> serial(callMutex_);
    const size_t wanted = std::min<size_t>(threads - 1, chunks - 1);
    grow(wanted);
    auto job = std::make_shared<Job>();
    job->fn = &fn;
    job->chunks = chunks;
    job->helpers = unsigned(std::min<size_t>(wanted, workers_.size()));
    if (job->helpers > 0) {
      {
        std::lock_guard<std::mutex> l(m_);
        job_ = job;
        generation_.fetch_add(1);
      }
      wake_.notify_all();
    }
    work(*job);
    std::unique_lock<std::mutex> l(m_);
    done_.wait(l, [&] { return job->finished.load() == chunks; });
    job_.reset();
  }

  unsigned size() {
    std::lock_guard<std::mutex> serial(callMutex_);
    return unsigned(workers_.size());
  }

private:
  /// Takes chunks until none is left; the thread finishing the last one
  /// wakes the caller.
  void work(Job &job) {
    for (;;) {
      const size_t i = job.next.fetch_add(1);
      if (i >= job.chunks)
        return;
      (*job.fn)(i);
      if (job.finished.fetch_add(1) + 1 == job.chunks) {
        std::lock_guard<std::mutex> l(m_);
        done_.notify_all();
      }
    }
  }

  void loop(unsigned id) {
    uint64_t seen = 0;
    for (;;) {
      // Spin a little before sleeping: the next call often comes within
      // microseconds (the next chunk of a pipeline, the next object's
      // transfer), and waking sleeping threads one by one costs more than
      // converting a small chunk.
      const auto until = std::chrono::steady_clock::now() + kSpin;
      while (generation_.load() == seen &&
             std::chrono::steady_clock::now() < until)
        relax();
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> l(m_);
        wake_.wait(l, [&] { return generation_.load() != seen; });
        seen = generation_.load();
        job = job_;
      }
      if (job && id < job->helpers)
        work(*job);
    }
  }

  /// Starts threads until there are `n`, or the system refuses one.
  void grow(size_t n) {
    while (workers_.size() < n) {
      try {
        const unsigned id = unsigned(workers_.size());
        workers_.emplace_back([this, id] { loop(id); });
        workers_.back().detach();
      } catch (const std::system_error &) {
        return;
      }
    }
  }

  std::mutex callMutex_; ///< one call at a time
  std::mutex m_;         ///< guards job_ and generation_
  std::condition_variable wake_, done_;
  std::shared_ptr<Job> job_;
  /// Written under m_ (so a sleeping thread cannot miss it); read while
  /// spinning without it.
  std::atomic<uint64_t> generation_{0};
  std::vector<std::thread> workers_;
};

Pool &pool() {
  static Pool *p = new Pool; // never destroyed: see the file comment
  return *p;
}

} // namespace

void parallelChunks(size_t chunks, unsigned threads,
                    const std::function<void(size_t)> &fn) {
  if (chunks == 0)
    return;
  if (chunks == 1 || threads <= 1) {
    for (size_t i = 0; i < chunks; ++i)
      fn(i);
    return;
  }
  pool().run(chunks, threads, fn);
}

unsigned poolThreads() { return pool().size(); }

} // namespace approx::rt::precision::detail
