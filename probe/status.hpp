// What a probe returns inside the library: a value, or a Failure with the
// status code of probe.h and a message for a person. Nothing in probe/
// throws on purpose; probe.cpp still catches everything at the C boundary.
#pragma once

#include <string>

#include "compress/error.hpp"

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
    not_cached = 11,  // a conditional probe's block (or table) is not in memory: no message
};

struct Failure {
    Status status;
    std::string message;
};

// A value or a Failure.
template <class T>
using Outcome = compress::Result<T, Failure>;

}  // namespace dtb::probe
