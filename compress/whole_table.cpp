#include "compress/whole_table.hpp"

#include <omp.h>
#include <sys/mman.h>

#include <cstring>
#include <string>

#include "compress/reader.hpp"

namespace dtb::compress {

// TableFile::read_all is defined here, beside its one user, rather than in
// reader.cpp: it needs OpenMP, and the probe library that engines link
// (probe/install.cmake) is built without OpenMP and without this file.
namespace {

// Symbols j = 0 .. positions - 1 of a decompressed block into `out`.
void unpack(const std::uint8_t* block, std::uint32_t positions, unsigned bits, std::uint8_t* out) {
    if (bits == 8) {
        std::memcpy(out, block, positions);
        return;
    }
    for (std::uint32_t j = 0; j < positions; ++j)
        out[j] = static_cast<std::uint8_t>(decode_symbol(block, positions, j, bits));
}

void unpack(const std::uint8_t* block, std::uint32_t positions, unsigned bits, std::uint16_t* out) {
    for (std::uint32_t j = 0; j < positions; ++j) out[j] = decode_symbol(block, positions, j, bits);
}

}  // namespace

template <class Symbol>
std::optional<Error> TableFile::read_all(std::span<Symbol> out, int threads) const {
    if (out.size() != header_.position_count)
        return error(ErrorCode::out_of_range, "read_all: room for " + std::to_string(out.size()) +
                                                  " symbols, the table has " + std::to_string(header_.position_count));
    if (8 * sizeof(Symbol) < header_.symbol_bits)
        return error(ErrorCode::out_of_range, "read_all: 16-bit symbols do not fit in bytes");
    const std::span<const std::uint8_t> data(map_ + header_.data_offset, header_.data_size);
    if (section_checksum(data) != header_.data_checksum)
        return error(ErrorCode::corrupt_data, "data checksum mismatch");
    ::madvise(const_cast<std::uint8_t*>(map_), map_size_, MADV_SEQUENTIAL);
    const auto blocks = static_cast<std::int64_t>(header_.block_count);
    std::optional<Error> first_error;
    std::int64_t first_bad = blocks;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads > 0 ? threads : omp_get_max_threads())
    for (std::int64_t b = 0; b < blocks; ++b) {
        auto raw = load_block(static_cast<std::uint64_t>(b));
        if (raw) {
            const std::uint64_t first = static_cast<std::uint64_t>(b) << block_shift_;
            unpack(raw->data(), block_positions(static_cast<std::uint64_t>(b)), header_.symbol_bits,
                   out.data() + first);
            continue;
        }
#pragma omp critical(dtb_read_all_error)
        if (b < first_bad) {  // the first damaged block, whatever the schedule
            first_bad = b;
            first_error = raw.error();
        }
    }
    ::madvise(const_cast<std::uint8_t*>(map_), map_size_, MADV_RANDOM);
    return first_error;
}

template std::optional<Error> TableFile::read_all(std::span<std::uint8_t>, int) const;
template std::optional<Error> TableFile::read_all(std::span<std::uint16_t>, int) const;

Result<WholeTable> read_whole_table(const std::filesystem::path& path, int threads) {
    auto file = TableFile::open(path, nullptr);
    if (!file) return file.take_error();
    WholeTable table;
    table.header = (*file)->header();
    std::optional<Error> failure;
    if (table.header.symbol_bits == 16) {
        table.words.resize(table.header.position_count);
        failure = (*file)->read_all(std::span<std::uint16_t>(table.words), threads);
    } else {
        table.bytes.resize(table.header.position_count);
        failure = (*file)->read_all(std::span<std::uint8_t>(table.bytes), threads);
    }
    if (failure) return std::move(*failure);
    return table;
}

}  // namespace dtb::compress
