// Writes a solved table's files: the compressed WDL and DTW files engines
// probe, and on request the exact (.raw) table.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>

#include "compress/format.hpp"
#include "gen/bitmap.hpp"
#include "rules/variant.hpp"
#include "tables/material_signature.hpp"

namespace dtb {

// The longest win and loss of a table in plies (-1: none), recorded in the
// headers of its files (docs/FORMAT.md, format version 2).
struct LongestValues {
    int win = -1;
    int loss = -1;
};

struct CompressedSizes {
    std::uint64_t wdl_bytes = 0;
    std::uint64_t dtw_bytes = 0;
};

// The values (tables/values.hpp: a distance or kDraw) of positions first ..
// first + out.size() - 1 of a table, in index order. Called from several
// threads at once (each with its own OpenMP thread number); must not throw.
using ValueSource = std::function<void(std::uint64_t first, std::span<int> out)>;

// What the writers need besides the values.
struct TableLayout {
    VariantId variant = VariantId::Russian;
    MaterialSignature signature;
    std::uint64_t positions = 0;
    std::uint32_t index_version = 0;
    LongestValues longest;
    // Don't-care positions: those the files leave out (capture positions,
    // and threat positions in format 3), and in the DTW file
    // the draws too (the WDL file tells them).
    const Bitmap* wdl_dont_care = nullptr;
    const Bitmap* dtw_dont_care = nullptr;
    // Of both files: 2, or 3, which may leave out more (below).
    std::uint32_t format_version = compress::kDefaultFormatVersion;
    // Format 3 only: the threat positions are not stored (flag
    // kFlagThreatsNotStored; tables/stored_positions.hpp).
    bool threats_not_stored = false;
};

CompressedSizes write_compressed_tables(const std::filesystem::path& dir, const TableLayout& table,
                                        const ValueSource& values);

// The .wdl and .dtw files of a table that stores none of its positions
// (format 3, flag kFlagSideNotStored): the reader searches each one ply into
// the mirror table. The blocks hold nothing: as large as the format allows,
// a few bytes each. Replaces what `dir` held under those names.
CompressedSizes write_unstored_tables(const std::filesystem::path& dir, const TableLayout& table);

// NAME.raw: every value as a symbol of `symbol_bytes` bytes (values.hpp),
// in blocks of `positions_per_block` (the default, the format's largest,
// suits reading the table whole); `durable`: flushed to disk before it is
// renamed into place (compress::WriterOptions).
void write_exact_table(const std::filesystem::path& dir, const TableLayout& table, const ValueSource& values,
                       int symbol_bytes, std::uint32_t positions_per_block = compress::kMaxPositionsPerBlock,
                       bool durable = true);

}  // namespace dtb
