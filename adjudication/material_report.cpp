// material_report (facade.hpp): every position of a material's two
// tables, either side to move, counted against the limits the move-count
// draw rules set for it.
#include "adjudication/material_report.hpp"

#include <algorithm>
#include <stdexcept>

#include "adjudication/facade.hpp"
#include "probe/c_handle.hpp"
#include "probe/search.hpp"
#include "rules/draw_tracker.hpp"
#include "tables/position_index.hpp"

namespace dtb::adjudication {

using probe::Outcome;
using probe::Search;

namespace {

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

}  // namespace

MaterialReport material_report(dtb_tablebase* handle, VariantId variant, const MaterialSignature& sig) {
    return with_variant(variant, [&]<class V>() {
        MaterialReport report = report_frame<V>(sig);
        const Search<V> search(*handle->tables);
        for (const bool stronger_to_move : {true, false}) {
            auto side = report_side<V>(search, report, stronger_to_move);
            if (!side) throw std::runtime_error(side.error().message);
            report.sides.push_back(std::move(*side));
        }
        return report;
    });
}

}  // namespace dtb::adjudication
