// What table files some directories hold, each checked: the values behind
// dtb info (which words and formats them). A file that fails its checks is
// listed with its problem, not an error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "probe/status.hpp"
#include "probe/tablebase.hpp"

namespace dtb::probe {

struct TableInfo {
    std::filesystem::path path;
    TableName name;
    std::uint64_t positions = 0;
    std::uint64_t bytes = 0;
    std::string problem;  // the failed check's message; empty: valid
    // Whether the file stores positions: false for the side of a pair that
    // format 3 leaves out (its positions are searched from its mirror).
    bool stores_positions = true;
};

struct TableTotal {
    int tables = 0;
    int invalid = 0;
    std::uint64_t positions = 0;
    std::uint64_t bytes = 0;
};

struct TableInventory {
    std::vector<TableInfo> tables;  // smallest material first, as the tables are built
    std::map<std::pair<VariantId, compress::Metric>, TableTotal> totals;
    TableTotal all;
};

// Every table file (NAME.wdl, NAME.dtw) in `dirs`, checked in full (every
// block checksum) or, `quick`, only its header and block index. Fails
// (io_error) when a directory cannot be listed, (missing_table) when none
// holds a table file.
Outcome<TableInventory> take_inventory(const std::vector<std::filesystem::path>& dirs, bool quick);

}  // namespace dtb::probe
