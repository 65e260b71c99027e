// The generator's plain table format: a checked header and one symbol per
// position in PositionIndex order, every position's exact value included
// (capture positions too). Generation reads its smaller tables from these
// files; `dtb verify` checks them; the compressed files engines probe are
// made from them. Layout: docs/FORMAT.md, "Raw tables".
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "tables/material_signature.hpp"
#include "rules/variant.hpp"

namespace dtb {

struct RawTableHeader {
    VariantId variant = VariantId::Russian;
    MaterialSignature signature;
    int symbol_bytes = 1;  // 1 or 2
    std::uint32_t index_version = 0;
    std::uint64_t positions = 0;
};

// A loaded raw table: header and symbols (widened to 16 bits when stored
// as 16 bits; kept as bytes otherwise).
struct RawTable {
    RawTableHeader header;
    std::vector<std::uint8_t> bytes;    // symbol_bytes == 1
    std::vector<std::uint16_t> words;   // symbol_bytes == 2

    // Decoded value of position i: a distance, or kDrawValue.
    int value(std::uint64_t i) const;
};

inline constexpr std::size_t kRawHeaderSize = 48;

// Writes atomically: a temporary file, flushed to disk, then renamed.
void write_raw_table(const std::filesystem::path& path, const RawTableHeader& header,
                     std::span<const std::uint8_t> symbol_bytes);

// Reads and checks a raw table; throws std::runtime_error naming the file
// when it is missing, truncated, of another version, or fails a checksum.
RawTable read_raw_table(const std::filesystem::path& path);

// Reads only the header (checked); for listing what a directory holds.
RawTableHeader read_raw_header(const std::filesystem::path& path);

// Writes `data` to `path` atomically (temporary file, fsync, rename).
void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> data);
// The same for a file made of several parts, written one after the other.
void write_file_atomically(const std::filesystem::path& path,
                           std::initializer_list<std::span<const std::uint8_t>> parts);

}  // namespace dtb
