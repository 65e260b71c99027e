// Helpers shared by the format tests: a scratch directory per test and
// whole-file reads and writes.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "compress/format.hpp"
#include "tests/scratch_dir.hpp"

namespace dtb::compress::testing {

using test_support::ScratchDir;

inline std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    // A new file rather than a truncated one: ext4 flushes a file that is
    // truncated and rewritten (auto_da_alloc), which made these tests 20x slower.
    std::filesystem::remove(path);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

inline TableDescription sample_description(Metric metric = Metric::wdl) {
    TableDescription d;
    d.variant = 1;  // opaque to the format layer
    d.material = {1, 2, 0, 3};
    d.metric = metric;
    d.index_scheme = 7;
    return d;
}

}  // namespace dtb::compress::testing
