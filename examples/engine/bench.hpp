// The engine's benchmark: the same searches on a fixed set of positions,
// once probing the tables and once not.
#pragma once

#include <cstdint>
#include <vector>

#include "search.hpp"

namespace engine {

struct BenchRun {
    std::uint64_t nodes = 0;
    double seconds = 0;
    ProbeStats probes;
};

struct BenchReport {
    int variant = DTB_RUSSIAN;
    int positions = 0;
    std::uint64_t nodes_per_position = 0;
    int max_pieces = 0;  // of the tables (0: no tables)
    BenchRun without_tables;
    BenchRun with_tables;  // empty without tables
};

// The fixed positions of a variant, more pieces than 6 so that the search
// reaches the tables through captures.
const std::vector<const char*>& bench_positions(int variant);

BenchReport run_bench(int variant, Tables* tables, const Limits& limits, std::size_t hash_bytes);

}  // namespace engine
