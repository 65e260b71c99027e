// dtb_preload: tables opened and their blocks decompressed into the cache
// before a search, so that its conditional probes find them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "probe/status.hpp"
#include "probe/tablebase.hpp"

namespace dtb::probe {

struct PreloadReport {
    std::size_t tables = 0;
    std::uint64_t blocks = 0, blocks_cached = 0;
    std::uint64_t bytes = 0, bytes_cached = 0;
    std::string first_incomplete;  // file name of the first table not wholly cached
};

// Every table of `variant` up to `max_pieces` pieces, WDL first then DTW
// (each as asked), fewest pieces first; blocks go into the cache while
// they fit in what is free (nothing is evicted). Fills `report` as it goes:
// on failure (a table missing its file, damaged, unreadable) it says what
// was done before.
std::optional<Failure> preload(const Tablebase& tb, VariantId variant, int max_pieces, bool wdl, bool dtw,
                               PreloadReport& report);

}  // namespace dtb::probe
