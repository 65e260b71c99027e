// dtb gen: builds every missing table up to a piece count, in dependency
// order, resumably: a table is written to a temporary file and renamed when
// complete, so an interrupted run leaves finished tables and nothing else.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tables/table_names.hpp"  // table_basename, manifest_file_name
#include "tables/material_signature.hpp"
#include "rules/variant.hpp"

namespace dtb {

struct GenerateOptions {
    VariantId variant = VariantId::Russian;
    int max_pieces = 0;
    std::filesystem::path dir;
    int threads = 0;  // 0: OpenMP's default
    std::optional<MaterialSignature> only;
    bool progress = false;  // a live progress line (on a terminal)
    // Pairs smaller than this are solved on one thread (see PairSolver).
    std::uint64_t parallel_positions = std::uint64_t{1} << 22;
};

// What one solved table holds (one side to move); also written as the
// table's JSON manifest.
struct TableStats {
    MaterialSignature signature;
    std::uint64_t positions = 0;      // index slots
    std::uint64_t illegal_slots = 0;  // slots that are no legal placement (the index's waste)
    std::uint64_t wins = 0, draws = 0, losses = 0;
    int longest_win = -1;   // plies; -1 when nothing is won
    int longest_loss = -1;  // plies; -1 when nothing is lost
    std::uint64_t capture_positions = 0;  // side to move must capture
    int symbol_bytes = 1;
    double seconds = 0;           // for the pair solved together
    std::uint64_t bytes = 0;      // raw table file size
    std::uint64_t wdl_bytes = 0;  // compressed WDL file size
    std::uint64_t dtw_bytes = 0;  // compressed DTW file size
    std::uint64_t positions_in_flight = 0;  // the pair's positions
    std::uint64_t peak_rss_bytes = 0;       // the process's peak resident memory while solving the pair

    double index_waste_percent() const { return positions ? 100.0 * double(illegal_slots) / double(positions) : 0.0; }
};

std::filesystem::path raw_table_path(const std::filesystem::path& dir, VariantId variant, const MaterialSignature& sig);
std::filesystem::path manifest_path(const std::filesystem::path& dir, VariantId variant, const MaterialSignature& sig);

// Builds what is missing; returns the stats of the tables built this run.
std::vector<TableStats> generate_tables(const GenerateOptions& options, std::ostream& log);

// The process's peak resident memory (VmHWM) since the last reset, in bytes.
std::uint64_t peak_resident_bytes();
void reset_peak_resident_bytes();

}  // namespace dtb
