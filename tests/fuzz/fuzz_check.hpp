// What the fuzz targets share: turning text into the fuzzer's bytes and
// back, and reporting a broken invariant so that libFuzzer (or the corpus
// replay test) stops on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

namespace dtb::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// An invariant that does not hold is a bug, found: say which and abort, so
// that libFuzzer saves the input.
inline void check(bool holds, std::string_view what, std::string_view detail = {}) {
    if (holds) return;
    std::cerr << "invariant broken: " << what << '\n';
    if (!detail.empty()) std::cerr << "  " << detail << '\n';
    std::abort();
}

}  // namespace dtb::fuzz

// libFuzzer's entry point; each target defines it.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
