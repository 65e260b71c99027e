// The statistics of a material's tables, as endgame sites show them: for
// each side to move, how many positions it wins, draws and loses, its
// longest win and loss in plies, and example positions of each. Found by
// probing every position of the material (tables/position_index.hpp
// enumerates them) through the C API of dtb/probe.h, the calls an engine
// makes, so the counts are of the values engines get. serve_api.cpp renders
// them as JSON.
//
// A scan probes every position, so it is bounded: materials of more than
// kMaxStatsPositions positions (both sides to move together) are refused
// before anything is probed, and one scan runs at a time. A scan's answer is
// kept for the life of the TableStatsCache.
#pragma once

#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "cli/position_query.hpp"
#include "dtb/probe.h"
#include "rules/variant.hpp"
#include "tables/material_signature.hpp"

namespace dtb {

// The most positions a scan probes, both sides to move together: every
// Russian and Brazilian material of up to 5 pieces fits (kings only, the
// largest, has 4,027,520) and every international one of up to 4. A scan
// probes a few million positions a second.
inline constexpr std::uint64_t kMaxStatsPositions = 5'000'000;

// Example positions kept of the longest win and of the longest loss.
inline constexpr int kStatsExamples = 3;

// One table: the positions of a material with the side named first to move.
struct SideToMoveStats {
    MaterialSignature material;  // the side to move first
    std::uint64_t positions = 0;
    std::uint64_t wins = 0;
    std::uint64_t draws = 0;
    std::uint64_t losses = 0;                    // a position with no legal move counts here, lost in 0 plies
    int longest_win = -1;                        // plies; -1 when the side to move wins nowhere
    int longest_loss = -1;                       // plies; -1 when it loses nowhere
    std::vector<std::string> longest_win_fens;   // the first kStatsExamples in index order, White to move
    std::vector<std::string> longest_loss_fens;  // likewise
};

// A material's tables: the side to move named first, then the mirror
// (absent for a symmetric material, whose one table is both).
struct TableStats {
    VariantId variant;
    MaterialSignature material;
    std::vector<SideToMoveStats> tables;
};

// The material of a position, its side to move first.
MaterialSignature material_of(const dtb_position& pos);

// The positions of a material's tables, both sides to move together (one
// table for a symmetric material).
std::uint64_t material_positions(VariantId variant, const MaterialSignature& sig);

// Why no table can hold a material, or nullopt: a side without pieces, or
// more pieces than a side starts with.
std::optional<std::string> impossible_material(VariantId variant, const MaterialSignature& sig);

// Why a material is not scanned, or nullopt: impossible, or more than
// kMaxStatsPositions positions. The message names the material.
std::optional<std::string> stats_refusal(VariantId variant, const MaterialSignature& sig);

// Probes every position of one table; a failure of the tables (a missing or
// damaged file) is the QueryError of the first probe that failed.
Answer<SideToMoveStats> scan_table(dtb_tablebase* tb, VariantId variant, const MaterialSignature& sig);

// The statistics of each material asked, scanned once per tablebase and
// material and then answered from memory. Any number of threads may call
// get() at once: a second request for a material being scanned waits for
// that scan, and scans of different materials run one after another so
// that at most one thread is busy scanning. Failures are not kept: the
// next request tries again.
class TableStatsCache {
public:
    // Refused materials (stats_refusal) are a DTB_BAD_ARGUMENT QueryError.
    Answer<TableStats> get(dtb_tablebase* tb, VariantId variant, const MaterialSignature& sig);

private:
    using Key = std::tuple<const dtb_tablebase*, VariantId, MaterialSignature>;
    using Scan = std::shared_future<Answer<SideToMoveStats>>;

    Answer<SideToMoveStats> side(dtb_tablebase* tb, VariantId variant, const MaterialSignature& sig);

    std::mutex mutex_;  // guards scans_
    std::map<Key, Scan> scans_;
    std::mutex scanning_;  // held by the one thread scanning
};

}  // namespace dtb
