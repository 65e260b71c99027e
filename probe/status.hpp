// What a probe returns inside the library: a value, or a Failure with the
// status code of probe.h and a message for a person. Nothing in probe/
// throws on purpose; probe.cpp still catches everything at the C boundary.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace dtb::probe {

// The same numbers as the DTB_* codes of dtb/probe.h (checked there).
enum class Status : int {
    ok = 0,
    missing_table = 1,
    corrupt_table = 2,
    bad_position = 3,
    too_many_pieces = 4,
    io_error = 5,
    bad_argument = 6,
    no_move = 7,
    buffer_too_small = 8,
    out_of_memory = 9,
    internal_error = 10,
};

struct Failure {
    Status status;
    std::string message;
};

// A value or a Failure (std::expected is C++23).
template <class T>
class Outcome {
public:
    Outcome(T value) : v_(std::move(value)) {}  // NOLINT: implicit on purpose, like std::expected
    Outcome(Failure failure) : v_(std::move(failure)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    // Only when ok().
    T& value() { return std::get<0>(v_); }
    const T& value() const { return std::get<0>(v_); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    // Only when !ok().
    const Failure& failure() const { return std::get<1>(v_); }
    Failure&& take_failure() { return std::get<1>(std::move(v_)); }

private:
    std::variant<T, Failure> v_;
};

}  // namespace dtb::probe
