// An exception may not leave an OpenMP parallel region (the program would
// end). Work inside one runs through ParallelErrors::run, which keeps the
// first exception; the caller rethrows it after the region.
#pragma once

#include <atomic>
#include <exception>
#include <mutex>

namespace dtb {

class ParallelErrors {
public:
    template <class F>
    void run(F&& f) noexcept {
        if (failed()) return;  // the rest of the work is pointless
        try {
            f();
        } catch (...) {
            std::lock_guard lock(mutex_);
            if (!first_) first_ = std::current_exception();
            failed_.store(true, std::memory_order_relaxed);
        }
    }
    bool failed() const { return failed_.load(std::memory_order_relaxed); }
    void rethrow() const {
        if (first_) std::rethrow_exception(first_);
    }

private:
    std::mutex mutex_;
    std::exception_ptr first_;
    std::atomic<bool> failed_{false};
};

}  // namespace dtb
