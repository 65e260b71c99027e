// The worker threads of dtb serve: a fixed number of threads and a bounded
// queue of accepted connections. httplib's own ThreadPool queues without
// limit; here, once `max_queued` connections wait, the accepting thread
// waits too, so further clients wait in the kernel's listen backlog and the
// server's memory stays bounded however many connect at once.
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace dtb::serve {

class BoundedPool : public httplib::TaskQueue {
public:
    BoundedPool(std::size_t threads, std::size_t max_queued) : max_queued_(max_queued) {
        for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
    }
    ~BoundedPool() override = default;
    BoundedPool(const BoundedPool&) = delete;
    BoundedPool& operator=(const BoundedPool&) = delete;

    void enqueue(std::function<void()> job) override {
        std::unique_lock lock(mutex_);
        room_.wait(lock, [&] { return jobs_.size() < max_queued_; });
        jobs_.push_back(std::move(job));
        lock.unlock();
        ready_.notify_one();
    }

    // Runs what is queued, then joins the threads.
    void shutdown() override {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        ready_.notify_all();
        for (std::thread& t : threads_) t.join();
    }

private:
    void work() {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(mutex_);
                ready_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
                if (jobs_.empty()) return;  // stopping, nothing left
                job = std::move(jobs_.front());
                jobs_.pop_front();
            }
            room_.notify_one();
            job();
        }
    }

    std::size_t max_queued_;
    std::mutex mutex_;
    std::condition_variable ready_, room_;
    std::deque<std::function<void()>> jobs_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace dtb::serve
