// The manifest of a table (NAME.json, docs/FORMAT.md "Manifests"): the
// generator's record of what one solved table holds and what it cost. It
// is for people and scripts; nothing dtb reads depends on it (the probe
// takes what it needs from the table headers).
#pragma once

#include <cstdint>
#include <string>

#include "rules/variant.hpp"
#include "tables/material_signature.hpp"

namespace dtb {

// What one solved table holds (one side to move).
struct TableStats {
    MaterialSignature signature;
    std::uint64_t positions = 0;      // index slots
    std::uint64_t illegal_slots = 0;  // slots that are no legal placement (the index's waste)
    std::uint64_t wins = 0, draws = 0, losses = 0;
    int longest_win = -1;                 // plies; -1 when nothing is won
    int longest_loss = -1;                // plies; -1 when nothing is lost
    std::uint64_t capture_positions = 0;  // side to move must capture
    int symbol_bytes = 1;
    double seconds = 0;                     // for the pair solved together
    std::uint64_t bytes = 0;                // raw (exact) table file size
    std::uint64_t wdl_bytes = 0;            // compressed WDL file size
    std::uint64_t dtw_bytes = 0;            // compressed DTW file size
    std::uint64_t positions_in_flight = 0;  // the pair's positions
    std::uint64_t peak_rss_bytes = 0;       // the process's peak resident memory while solving the pair

    double index_waste_percent() const { return positions ? 100.0 * double(illegal_slots) / double(positions) : 0.0; }
};

// The manifest's JSON text: one object, two-space indent, fields in the
// documented order, a final newline. Written by hand rather than with a
// JSON library: every value is a number, null, or an ASCII name (a variant
// name, a signature of K, M and v) that needs no escaping, and so the
// generator does not depend on one.
std::string manifest_json(VariantId variant, const TableStats& stats);

}  // namespace dtb
