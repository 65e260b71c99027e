// Turns a solved table into the compressed WDL and DTW files engines probe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

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
    std::uint64_t capture_positions = 0;  // don't-care in both files
};

// `values` are the generator's symbols (values.hpp, 8 or 16 bits), one per
// position of `sig` in index order. `captures` marks the positions whose
// side to move has a capture, when the caller knows them (the solver does);
// without it they are worked out here.
template <class T>
CompressedSizes write_compressed_tables(const std::filesystem::path& dir, VariantId variant,
                                        const MaterialSignature& sig, std::span<const T> values, LongestValues longest,
                                        const Bitmap* captures = nullptr);

}  // namespace dtb
