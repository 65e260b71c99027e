#include "compress/format.hpp"

#include <xxhash.h>

#include <cstring>
#include <string>

#include "compress/little_endian.hpp"

namespace dtb::compress {

std::string_view to_string(ErrorCode code) {
    switch (code) {
        case ErrorCode::io:
            return "i/o error";
        case ErrorCode::bad_magic:
            return "not a dtb table";
        case ErrorCode::unsupported_version:
            return "unsupported format version";
        case ErrorCode::corrupt_header:
            return "corrupt header";
        case ErrorCode::corrupt_index:
            return "corrupt block index";
        case ErrorCode::corrupt_block:
            return "corrupt block";
        case ErrorCode::corrupt_data:
            return "corrupt data";
        case ErrorCode::out_of_range:
            return "position out of range";
    }
    return "unknown error";
}

namespace {

// Field offsets, as in the header table of docs/FORMAT.md.
enum Offset : std::size_t {
    o_magic = 0,
    o_format_version = 8,
    o_header_size = 12,
    o_variant = 16,
    o_metric = 17,
    o_symbol_bits = 18,
    o_reserved1 = 19,
    o_material = 20,
    o_index_scheme = 24,
    o_flags = 28,
    o_position_count = 32,
    o_positions_per_block = 40,
    o_block_count = 44,
    o_index_offset = 48,
    o_index_size = 56,
    o_data_offset = 64,
    o_data_size = 72,
    o_file_size = 80,
    o_index_checksum = 88,
    o_data_checksum = 96,
    o_max_symbol = 104,
    o_longest_win = 108,   // version 2; reserved (zero) in version 1
    o_longest_loss = 112,  // likewise
    o_reserved2 = 116,
    o_header_checksum = 120,
};

template <class T>
void put(std::uint8_t* out, std::size_t offset, T value) {
    put_le(out + offset, value);
}

template <class T>
T get(const std::uint8_t* in, std::size_t offset) {
    return get_le<T>(in + offset);
}

// Whether bytes [begin, end) of the header are all zero.
bool zero(const std::uint8_t* p, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
        if (p[i] != 0) return false;
    return true;
}

}  // namespace

std::uint64_t section_checksum(std::span<const std::uint8_t> bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

std::uint32_t block_checksum(std::span<const std::uint8_t> compressed, std::uint64_t block) {
    return static_cast<std::uint32_t>(XXH3_64bits_withSeed(compressed.data(), compressed.size(), block));
}

bool valid_positions_per_block(std::uint32_t p, unsigned symbol_bits) {
    return std::has_single_bit(p) && p >= kMinPositionsPerBlock && p <= kMaxPositionsPerBlock &&
           stored_block_bytes(p, symbol_bits) <= kMaxBlockBytes;
}

std::array<std::uint8_t, kHeaderSize> encode_header(const Header& h) {
    std::array<std::uint8_t, kHeaderSize> b{};  // reserved bytes stay 0
    std::uint8_t* p = b.data();
    std::memcpy(p + o_magic, kMagic.data(), kMagic.size());
    put<std::uint32_t>(p, o_format_version, h.format_version);
    put<std::uint32_t>(p, o_header_size, kHeaderSize);
    put<std::uint8_t>(p, o_variant, h.table.variant);
    put<std::uint8_t>(p, o_metric, static_cast<std::uint8_t>(h.table.metric));
    put<std::uint8_t>(p, o_symbol_bits, h.symbol_bits);
    std::memcpy(p + o_material, h.table.material.data(), h.table.material.size());
    put<std::uint32_t>(p, o_index_scheme, h.table.index_scheme);
    put<std::uint32_t>(p, o_flags, h.flags);
    put<std::uint64_t>(p, o_position_count, h.position_count);
    put<std::uint32_t>(p, o_positions_per_block, h.positions_per_block);
    put<std::uint32_t>(p, o_block_count, h.block_count);
    put<std::uint64_t>(p, o_index_offset, h.index_offset);
    put<std::uint64_t>(p, o_index_size, h.index_size);
    put<std::uint64_t>(p, o_data_offset, h.data_offset);
    put<std::uint64_t>(p, o_data_size, h.data_size);
    put<std::uint64_t>(p, o_file_size, h.file_size);
    put<std::uint64_t>(p, o_index_checksum, h.index_checksum);
    put<std::uint64_t>(p, o_data_checksum, h.data_checksum);
    put<std::uint32_t>(p, o_max_symbol, h.max_symbol);
    if (h.format_version >= 2) {  // a version 1 header keeps these bytes zero
        put<std::uint32_t>(p, o_longest_win, static_cast<std::uint32_t>(h.table.longest_win));
        put<std::uint32_t>(p, o_longest_loss, static_cast<std::uint32_t>(h.table.longest_loss));
    }
    put<std::uint64_t>(p, o_header_checksum, XXH3_64bits(p, o_header_checksum));
    return b;
}

Result<Header> decode_header(std::span<const std::uint8_t> bytes, std::uint64_t file_size, std::string_view file_name) {
    const auto fail = [&](ErrorCode code, const std::string& what) {
        return Error{code, std::string(file_name) + ": " + std::string(to_string(code)) + ": " + what};
    };
    if (bytes.size() < kHeaderSize || file_size < kHeaderSize)
        return fail(ErrorCode::corrupt_header, "truncated: " + std::to_string(file_size) + " bytes, shorter than the " +
                                                   std::to_string(kHeaderSize) + "-byte header");
    const std::uint8_t* p = bytes.data();
    if (std::memcmp(p + o_magic, kMagic.data(), kMagic.size()) != 0)
        return fail(ErrorCode::bad_magic, "the file does not start with the dtb magic bytes");

    Header h;
    h.format_version = get<std::uint32_t>(p, o_format_version);
    if (h.format_version < kOldestFormatVersion || h.format_version > kFormatVersion)
        return fail(ErrorCode::unsupported_version,
                    "version " + std::to_string(h.format_version) + ", this build reads versions " +
                        std::to_string(kOldestFormatVersion) + " to " + std::to_string(kFormatVersion));
    if (get<std::uint64_t>(p, o_header_checksum) != XXH3_64bits(p, o_header_checksum))
        return fail(ErrorCode::corrupt_header, "header checksum mismatch");

    // The checksum matched, so what follows can only fail for a file written
    // by a buggy or newer writer: say which field is wrong.
    const auto bad = [&](const std::string& what) { return fail(ErrorCode::corrupt_header, what); };
    if (get<std::uint32_t>(p, o_header_size) != kHeaderSize) return bad("header size is not 128");
    const std::uint8_t metric = p[o_metric];
    h.symbol_bits = p[o_symbol_bits];
    if (metric > kLastMetric) return bad("unknown metric " + std::to_string(metric));
    if (!valid_symbol_bits(h.symbol_bits)) return bad("symbol size " + std::to_string(h.symbol_bits) + " bits");
    h.table.variant = p[o_variant];  // opaque: the table layer checks it against the file's name
    h.table.metric = static_cast<Metric>(metric);
    std::memcpy(h.table.material.data(), p + o_material, h.table.material.size());
    h.table.index_scheme = get<std::uint32_t>(p, o_index_scheme);
    h.flags = get<std::uint32_t>(p, o_flags);
    if (h.flags & ~known_flags(h.format_version)) return bad("reserved flag bits set");
    if (contradictory_flags(h.flags)) return bad("flags 2 and 4 together (threat positions of a side not stored)");
    h.table.flags = h.flags;
    const std::size_t reserved_from = h.format_version >= 2 ? o_reserved2 : o_longest_win;
    if (p[o_reserved1] != 0 || !zero(p, reserved_from, o_header_checksum)) return bad("reserved bytes are not zero");
    h.table.longest_win = h.table.longest_loss = kNotRecorded;
    if (h.format_version >= 2) {
        h.table.longest_win = static_cast<std::int32_t>(get<std::uint32_t>(p, o_longest_win));
        h.table.longest_loss = static_cast<std::int32_t>(get<std::uint32_t>(p, o_longest_loss));
        if (h.table.longest_win < -1 || h.table.longest_loss < -1) return bad("longest win or loss below -1");
    }

    h.position_count = get<std::uint64_t>(p, o_position_count);
    h.positions_per_block = get<std::uint32_t>(p, o_positions_per_block);
    h.block_count = get<std::uint32_t>(p, o_block_count);
    h.index_offset = get<std::uint64_t>(p, o_index_offset);
    h.index_size = get<std::uint64_t>(p, o_index_size);
    h.data_offset = get<std::uint64_t>(p, o_data_offset);
    h.data_size = get<std::uint64_t>(p, o_data_size);
    h.file_size = get<std::uint64_t>(p, o_file_size);
    h.index_checksum = get<std::uint64_t>(p, o_index_checksum);
    h.data_checksum = get<std::uint64_t>(p, o_data_checksum);
    h.max_symbol = get<std::uint32_t>(p, o_max_symbol);

    if (!valid_positions_per_block(h.positions_per_block, h.symbol_bits))
        return bad("invalid positions per block " + std::to_string(h.positions_per_block));
    if (h.block_count != block_count_for(h.position_count, h.positions_per_block))
        return bad("block count does not match the number of positions");
    if (h.index_offset != kHeaderSize) return bad("index offset is not 128");
    if (h.index_size != index_size_for(h.block_count)) return bad("index size does not match the block count");
    if (h.data_offset != h.index_offset + h.index_size) return bad("data offset does not follow the index");
    // data_size is at most the file size (checked next), so this cannot wrap.
    if (h.data_size > file_size || h.file_size != h.data_offset + h.data_size)
        return bad("file size does not match the sections");
    if (h.file_size != file_size)
        return bad("truncated or extended: the header says " + std::to_string(h.file_size) + " bytes, the file has " +
                   std::to_string(file_size));
    if (h.max_symbol >= (1u << h.symbol_bits)) return bad("max symbol does not fit the symbol size");
    return h;
}

}  // namespace dtb::compress
