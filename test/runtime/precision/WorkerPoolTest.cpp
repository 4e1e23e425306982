//===- WorkerPoolTest.cpp - convert()'s persistent threads ----------------===//
//
// Every chunk runs exactly once, on at most the threads asked for, across
// many back-to-back calls (a thread that wakes late must not run a chunk of
// the next call with the previous call's function) and concurrent callers.
//
//===----------------------------------------------------------------------===//
#include "WorkerPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using approx::rt::precision::detail::parallelChunks;
using approx::rt::precision::detail::poolThreads;

namespace {

TEST(WorkerPool, EveryChunkOnceOverManyCalls) {
  for (unsigned call = 0; call < 2000; ++call) {
    const size_t chunks = 1 + call % 37;
    const unsigned threads = 1 + call % 9;
    std::vector<std::atomic<int>> hits(chunks);
    for (auto &h : hits)
      h = 0;
    // Each call's function writes its own tag: a chunk run by the wrong
    // call's function would leave a wrong tag or a double hit.
    std::vector<unsigned> tag(chunks, ~0u);
    parallelChunks(chunks, threads, [&](size_t i) {
      ++hits[i];
      tag[i] = call;
    });
    for (size_t i = 0; i < chunks; ++i) {
      ASSERT_EQ(hits[i].load(), 1) << "call " << call << " chunk " << i;
      ASSERT_EQ(tag[i], call);
    }
  }
}

TEST(WorkerPool, AtMostTheThreadsAsked) {
  std::mutex m;
  std::set<std::thread::id> seen;
  std::atomic<int> inside{0}, most{0};
  parallelChunks(64, 3, [&](size_t) {
    const int now = ++inside;
    int prev = most.load();
    while (now > prev && !most.compare_exchange_weak(prev, now)) {
    }
    {
      std::lock_guard<std::mutex> l(m);
      seen.insert(std::this_thread::get_id());
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    --inside;
  });
  EXPECT_LE(seen.size(), 3u);
  EXPECT_LE(most.load(), 3);
  EXPECT_GE(poolThreads(), 2u); // two helpers were started for 3 threads
}

TEST(WorkerPool, OneThreadRunsOnTheCaller) {
  const std::thread::id me = std::this_thread::get_id();
  parallelChunks(10, 1, [&](size_t) { EXPECT_EQ(std::this_thread::get_id(), me); });
  parallelChunks(0, 8, [&](size_t) { ADD_FAILURE() << "no chunk to run"; });
}

TEST(WorkerPool, ConcurrentCallers) {
  std::vector<std::thread> callers;
  std::atomic<long> total{0};
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      for (int k = 0; k < 200; ++k)
        parallelChunks(16, 4, [&](size_t i) { total += long(i) + 1; });
    });
  for (auto &t : callers)
    t.join();
  EXPECT_EQ(total.load(), 4L * 200 * (16 * 17 / 2));
}

} // namespace
