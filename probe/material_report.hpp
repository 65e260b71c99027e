// Over a whole table: how many positions the stronger side wins, and wins
// within each limit the move-count draw rules (rules/draw_rules.hpp) set
// for its material, with either side to move. The values behind dtb
// adjudicate --report, which words and formats them.
//
// The stronger side needs (DTW + 1) / 2 of its own moves when it is to
// move, DTW / 2 when the other side is (probe/adjudicate.hpp's header).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "probe/search.hpp"
#include "probe/tablebase.hpp"
#include "rules/draw_tracker.hpp"

namespace dtb::probe {

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

namespace detail {

// The rules that cover the material (board conditions aside), their limits
// and the classes of positions their board conditions name. The stronger
// side is the signature's first side, unless that is the lone king.
template <class V>
MaterialReport report_frame(const MaterialSignature& sig) {
    MaterialReport r;
    const bool first_is_lone = sig.kings[0] == 1 && sig.men[0] == 0 && sig.pieces(1) > 1;
    r.strong_first = first_is_lone ? sig.mirror() : sig;
    const Position<V> sample = PositionIndex<V>(r.strong_first).unrank(0);  // White: the stronger side
    bool road_strong = false, road_lone = false;
    for (std::size_t i = 0; i < V::draw_rules.size(); ++i) {
        const DrawRule& rule = V::draw_rules[i];
        if (rule.count == DrawCount::repetitions || !material_covers(rule, sample, lone_king_opponent(sample)))
            continue;
        r.limits.insert(rule.limit);
        r.rules.push_back(i);
        road_strong |= rule.board == BoardCondition::stronger_king_on_main_road;
        road_lone |= rule.board == BoardCondition::lone_king_on_main_road;
    }
    r.limits.insert(shortest_limit(V::draw_rules));
    r.classes.push_back(PositionClass::all);
    if (road_strong) r.classes.push_back(PositionClass::stronger_king_on_road);
    if (road_lone) r.classes.push_back(PositionClass::lone_king_on_road);
    return r;
}

// One position counted in `row`: `wdl` and `need` for the stronger side.
inline void count_position(ReportRow& row, int wdl, int need) {
    ++row.positions;
    if (wdl > 0) {
        ++row.won;
        row.longest = std::max(row.longest, need);
        for (auto& [limit, n] : row.within)
            if (need <= limit) ++n;
    } else if (wdl == 0) {
        ++row.drawn;
    } else {
        ++row.lost;
    }
}

// Every position of the table with the stronger side (or the other) to move.
template <class V>
Outcome<ReportSide> report_side(const Search<V>& search, const MaterialReport& frame, bool stronger_to_move) {
    constexpr Bitboard road = main_road<typename V::Board>();
    ReportSide side{stronger_to_move, stronger_to_move ? frame.strong_first : frame.strong_first.mirror(), {}};
    for (const PositionClass c : frame.classes) {
        ReportRow row;
        row.which = c;
        for (int l : frame.limits) row.within[l] = 0;
        side.rows.push_back(row);
    }
    const PositionIndex<V> index(side.table);
    typename PositionIndex<V>::Cursor cursor(index);
    const Color strong = stronger_to_move ? White : Black;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position<V> pos = cursor.at(i);  // White to move
        auto value = search.value(pos);
        if (!value) return value.take_error();
        const int wdl = stronger_to_move ? wdl_of(*value) : -wdl_of(*value);
        const int need = wdl > 0 ? (stronger_to_move ? (*value + 1) / 2 : *value / 2) : 0;
        for (ReportRow& row : side.rows) {
            const bool counted =
                row.which == PositionClass::all ||
                (row.which == PositionClass::stronger_king_on_road && (pos.kings_of(strong) & road)) ||
                (row.which == PositionClass::lone_king_on_road && (pos.kings_of(opponent(strong)) & road));
            if (counted) count_position(row, wdl, need);
        }
    }
    return side;
}

}  // namespace detail

// The report on the material `sig` (either side first), from the tables.
template <class V>
Outcome<MaterialReport> material_report(const Tablebase& tb, const MaterialSignature& sig) {
    MaterialReport report = detail::report_frame<V>(sig);
    const Search<V> search(tb);
    for (const bool stronger_to_move : {true, false}) {
        auto side = detail::report_side<V>(search, report, stronger_to_move);
        if (!side) return side.take_error();
        report.sides.push_back(std::move(*side));
    }
    return report;
}

}  // namespace dtb::probe
