// The inside of the C handle (dtb_tablebase of dtb/probe.h) and what every
// extern "C" function does at the boundary: check its arguments, turn the
// C position into the rules' Position for its variant, record a failure on
// the handle, and catch everything, since nothing may unwind into C.
// probe.cpp's functions use it, and so do the layers that add C functions
// on the same handle (adjudication/c_api.cpp), so that they report errors
// and follow the threading rules of dtb/probe.h exactly as the probes do.
#pragma once

#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "dtb/probe.h"
#include "probe/convert.hpp"
#include "probe/search.hpp"
#include "probe/status.hpp"
#include "probe/tablebase.hpp"

struct dtb_tablebase {
    std::unique_ptr<dtb::probe::Tablebase> tables;

    // The last failure of each thread that called (errno-like, per handle).
    // Written only when a call fails, so probing never takes this lock.
    mutable std::mutex errors_mutex;
    mutable std::unordered_map<std::thread::id, std::string> errors;

    int fail(const dtb::probe::Failure& f) const {
        using dtb::probe::Status;
        // A conditional probe's miss is routine in a search: no message, no lock.
        if (f.status == Status::not_cached) return DTB_NOT_CACHED;
        try {
            std::lock_guard lock(errors_mutex);
            errors[std::this_thread::get_id()] = f.message;
        } catch (...) {
            // Out of memory for the message: the status still says what happened.
        }
        return int(f.status);
    }
};

namespace dtb::probe {

// Runs `body` and turns any exception into a status (recorded on `tb`).
template <class F>
int guarded(const dtb_tablebase* tb, F&& body) noexcept {
    Failure failure{Status::internal_error, "internal error"};
    try {
        return body();
    } catch (const std::bad_alloc&) {
        failure = Failure{Status::out_of_memory, "out of memory"};
    } catch (const std::exception& e) {
        try {
            failure.message = std::string("internal error: ") + e.what();
        } catch (...) {
        }
    } catch (...) {
    }
    return tb ? tb->fail(failure) : int(failure.status);
}

inline Failure unknown_variant(int variant) {
    std::vector<std::string> codes;
    for (const VariantId id : kVariantIds)
        codes.push_back(std::string(variant_name(id)) + " " + std::to_string(c_variant(id)));
    return Failure{Status::bad_argument, "unknown variant " + std::to_string(variant) + ": the codes are " +
                                             choice_list(codes, " and ") + " (DTB_RUSSIAN, ... of dtb/probe.h)"};
}

// The shared prologue of the functions on a position: arguments checked,
// position converted. Calls body(search, position) with the variant's types.
template <class Body>
int probe_position(dtb_tablebase* tb, const dtb_position* pos, bool out_ok, Body&& body) {
    if (tb == nullptr) return DTB_BAD_ARGUMENT;
    return guarded(tb, [&]() -> int {
        if (pos == nullptr || !out_ok) return tb->fail({Status::bad_argument, "a NULL pointer argument"});
        const auto variant = variant_from_c(pos->variant);
        if (!variant) return tb->fail(unknown_variant(pos->variant));
        return with_variant(*variant, [&]<class V>() -> int {
            auto p = from_c<V>(*pos);
            if (!p) return tb->fail(p.error());
            return body(Search<V>(*tb->tables), *p);
        });
    });
}

}  // namespace dtb::probe
