// Over a whole table: how many positions the stronger side wins, and wins
// within each limit the move-count draw rules (rules/draw_rules.hpp) set
// for its material, with either side to move. The values behind dtb
// adjudicate --report, which words and formats them; material_report.cpp
// counts them (facade.hpp: material_report()).
//
// The stronger side needs (DTW + 1) / 2 of its own moves when it is to
// move, DTW / 2 when the other side is (judge.hpp's header).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "tables/material_signature.hpp"

namespace dtb::adjudication {

// Which positions a row of the report counts: all, or those meeting a board
// condition of a rule for the material (2.1.9.1.3, 2.1.9.1.7).
enum class PositionClass { all, stronger_king_on_road, lone_king_on_road };

struct ReportRow {
    PositionClass which = PositionClass::all;
    std::uint64_t positions = 0, won = 0, drawn = 0, lost = 0;  // for the stronger side
    std::map<int, std::uint64_t, std::greater<>> within;        // limit -> won within that many moves
    int longest = 0;                                            // the most moves a win needs
};

struct ReportSide {
    bool stronger_to_move = true;
    MaterialSignature table;  // the table read: `strong_first` or its mirror
    std::vector<ReportRow> rows;
};

struct MaterialReport {
    MaterialSignature strong_first;  // the material, the stronger side first
    std::vector<std::size_t> rules;  // indexes in V::draw_rules of the rules that cover it
    // Their limits and the variant's shortest count (the wins any count
    // leaves room for), the longest first.
    std::set<int, std::greater<>> limits;
    std::vector<PositionClass> classes;  // the rows of each side
    std::vector<ReportSide> sides;       // the stronger side to move, then the other
};

}  // namespace dtb::adjudication
