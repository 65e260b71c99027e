// The table file format, version 3: constants, the header, and the small
// pure functions that the writer and the reader share. docs/FORMAT.md is the
// specification; this file follows it field by field. Nothing here knows
// draughts: the variant and the material are opaque bytes, which the table
// layer (tables/table_names.hpp) gives their meaning.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "compress/error.hpp"

namespace dtb::compress {

inline constexpr std::array<std::uint8_t, 8> kMagic = {0x89, 'D', 'T', 'B', '\r', '\n', 0x1A, '\n'};
// The newest version, read and written. Versions 1 (no longest win and
// loss) and 2 (no kFlagThreatsNotStored) are read too.
inline constexpr std::uint32_t kFormatVersion = 3;
// What writers write unless asked for version 3: the threat positions it
// leaves out make probes search (docs/FORMAT.md, "Positions not stored"),
// so tables stay version 2, which every dtb reads, by default.
inline constexpr std::uint32_t kDefaultFormatVersion = 2;
inline constexpr std::uint32_t kOldestFormatVersion = 1;
inline constexpr std::size_t kHeaderSize = 128;
// Bounds on the block size: small enough that a reader never allocates much
// for one block, large enough that the per-block overhead stays small.
inline constexpr std::uint32_t kMinPositionsPerBlock = 64;
inline constexpr std::uint32_t kMaxPositionsPerBlock = 1u << 20;
inline constexpr std::size_t kMaxBlockBytes = std::size_t{2} << 20;

// What the symbols are: win/draw/loss, distance to win, distance to
// conversion, or the generator's exact values (every position, captures
// included, 8 or 16 bits; the `.raw` files).
enum class Metric : std::uint8_t { wdl = 0, dtw = 1, dtc = 2, exact = 3 };
inline constexpr std::uint8_t kLastMetric = 3;

// Four bytes naming the material (for dtb: the side to move's men and
// kings, the other side's men and kings). Opaque here.
using Material = std::array<std::uint8_t, 4>;

// Header flags. A reader refuses a file with a flag it does not know, so a
// file whose meaning a flag changes is never misread by an older reader.
// kFlagCapturesNotStored: positions whose side to move must capture are
// don't-care (the reader works them out from their captures).
// kFlagThreatsNotStored (version 3): so are the threat positions of
// tables/stored_positions.hpp (the reader searches them one ply).
// kFlagSideNotStored (version 3): no position is stored; the reader searches
// each one ply into the mirror table (the other side to move), which stores
// all of its positions but the captures.
inline constexpr std::uint32_t kFlagCapturesNotStored = 1;
inline constexpr std::uint32_t kFlagThreatsNotStored = 2;
inline constexpr std::uint32_t kFlagSideNotStored = 4;
inline constexpr std::uint32_t kKnownFlags = kFlagCapturesNotStored | kFlagThreatsNotStored | kFlagSideNotStored;
// The flags a file of `format_version` may have.
constexpr std::uint32_t known_flags(std::uint32_t format_version) {
    return format_version >= 3 ? kKnownFlags : kFlagCapturesNotStored;
}
// A file that stores no position has no threat positions to leave out.
constexpr bool contradictory_flags(std::uint32_t flags) {
    return (flags & kFlagThreatsNotStored) != 0 && (flags & kFlagSideNotStored) != 0;
}

// longest_win / longest_loss of a version 1 file, which does not record them.
inline constexpr std::int32_t kNotRecorded = -2;

// What the generator knows about a table; the writer works out the rest.
struct TableDescription {
    std::uint8_t variant = 0;  // opaque here: the table layer numbers the variants
    Material material{};
    Metric metric = Metric::wdl;
    std::uint32_t index_scheme = 0;  // opaque here: the index scheme's version
    // The longest win and the longest loss of the table, in plies, for the
    // side to move; -1 when it has none (version 2; kNotRecorded when read
    // from a version 1 file).
    std::int32_t longest_win = -1;
    std::int32_t longest_loss = -1;
    std::uint32_t flags = 0;  // kFlag... (the header's)
};

// Every header field but the magic and the header checksum, which are
// checked or computed on the way in and out.
struct Header {
    std::uint32_t format_version = kFormatVersion;
    TableDescription table;
    std::uint8_t symbol_bits = 8;  // 2 (packed), 8 or 16
    std::uint32_t flags = 0;
    std::uint64_t position_count = 0;
    std::uint32_t positions_per_block = 0;
    std::uint32_t block_count = 0;
    std::uint64_t index_offset = kHeaderSize;
    std::uint64_t index_size = 0;
    std::uint64_t data_offset = 0;
    std::uint64_t data_size = 0;
    std::uint64_t file_size = 0;
    std::uint64_t index_checksum = 0;
    std::uint64_t data_checksum = 0;
    std::uint32_t max_symbol = 0;
};

// The 128 header bytes of `h`, header checksum included.
std::array<std::uint8_t, kHeaderSize> encode_header(const Header& h);

// Steps 1 to 5 of "How a reader validates" in docs/FORMAT.md: `bytes` is the
// start of the file (all of it, or at least its first 128 bytes), and
// `file_size` its real size. Messages start with `file_name`.
Result<Header> decode_header(std::span<const std::uint8_t> bytes, std::uint64_t file_size, std::string_view file_name);

// B = ceil(N / P).
constexpr std::uint64_t block_count_for(std::uint64_t positions, std::uint32_t positions_per_block) {
    return positions / positions_per_block + (positions % positions_per_block != 0);
}

// Offsets, checksums, padding to a multiple of 8.
constexpr std::uint64_t index_size_for(std::uint64_t block_count) {
    const std::uint64_t raw = 8 * (block_count + 1) + 4 * block_count;
    return (raw + 7) / 8 * 8;
}

// Bytes a decompressed block of `positions` symbols of `symbol_bits` bits
// takes: 2-bit symbols are packed four to a byte.
constexpr std::size_t stored_block_bytes(std::uint32_t positions, unsigned symbol_bits) {
    return (std::size_t{positions} * symbol_bits + 7) / 8;
}

// Symbol sizes a table may use: 2 bits (WDL), 8 or 16 bits.
constexpr bool valid_symbol_bits(unsigned bits) { return bits == 2 || bits == 8 || bits == 16; }

bool valid_positions_per_block(std::uint32_t positions_per_block, unsigned symbol_bits);

// XXH3-64 of a whole section.
std::uint64_t section_checksum(std::span<const std::uint8_t> bytes);
// Low 32 bits of XXH3-64 seeded with the block number.
std::uint32_t block_checksum(std::span<const std::uint8_t> compressed, std::uint64_t block);

// Symbol j of a decompressed block of `positions` symbols (packed for 2
// bits, byte planes for 16 bits; see "Blocks" in docs/FORMAT.md).
inline std::uint16_t decode_symbol(const std::uint8_t* block, std::uint32_t positions, std::uint32_t j, unsigned bits) {
    if (bits == 2) return static_cast<std::uint16_t>((block[j >> 2] >> (2 * (j & 3))) & 3);
    if (bits == 8) return block[j];
    return static_cast<std::uint16_t>(block[j] | (block[positions + j] << 8));
}

}  // namespace dtb::compress
