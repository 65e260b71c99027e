// A whole table file read into memory at once: for the generator, which
// looks up every position of the tables its captures and crownings lead
// into, and for verification. Engines probe through TableFile instead.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "compress/error.hpp"
#include "compress/format.hpp"

namespace dtb::compress {

struct WholeTable {
    Header header;
    std::vector<std::uint8_t> bytes;   // the symbols, when they take 2 or 8 bits
    std::vector<std::uint16_t> words;  // the symbols, when they take 16 bits
};

// Opens and validates `path`, then reads every symbol (TableFile::read_all:
// every checksum checked, blocks decompressed in parallel on `threads`
// OpenMP threads, 0 for OpenMP's default). Errors name the file.
Result<WholeTable> read_whole_table(const std::filesystem::path& path, int threads = 0);

}  // namespace dtb::compress
