// The judge: the move-count draw rules (rules/draw_rules.hpp) decided with
// the tables. Given a position and the counts standing at it, which rule
// ends the game first, how many moves it leaves, and whether the stronger
// side can still win within them: a Ruling (ruling.hpp). It reads the
// store through probe/ (the WDL and DTW tables, the .dtc tables); it says
// nothing in words (ruling_text.hpp does).
//
// What DTW decides. DTW is the length of the whole game with best play
// (docs/RULES.md 3.2). The stronger side needs m = (DTW + 1) / 2 of its own moves when
// it is to move, DTW / 2 when the other side is; with r moves left:
//
//   - The lone-king rules (2.1.9.1.3, .4, .7; 3.5's 16 and 5 moves) count
//     until the lone king is captured and nothing starts them again
//     (draw_rules.hpp): if m > r the defender can make the game outlast the
//     count whatever the stronger side does. Not winnable, exactly.
//   - The other counts (2.1.9.1.5, 2.1.9.1.8, 3.5's 25 king moves) start
//     again at a capture or a crowning (or a man move): with m > r the
//     stronger side may still reset the count in time and win later. DTW
//     cannot say; that needs the distance to conversion (DTC), which the
//     WDL and DTW tables do not store. The .dtc tables (probe/dtc_tables.hpp)
//     answer it exactly when they are there; without them a bounded search
//     over the tables (CountSearch, count_search.hpp) settles it when it is
//     small enough; otherwise the answer is marked inexact.
//   - m <= r: the fastest win ends the game inside every count running now,
//     and none can repeat a position. Only a count that a capture or a
//     crowning on the way starts afresh could cut it short. That cannot
//     happen when m is no more than the shortest count of the variant (5),
//     nor when every material the game can convert into has no win longer
//     than its own shortest count (read from the headers of the WDL tables,
//     docs/FORMAT.md; conversions.hpp). Otherwise the .dtc tables,
//     CountSearch, or inexact.
//
// Readings of the rules that a FEN cannot carry: the board condition of
// 2.1.9.1.3 and 2.1.9.1.7 (a king on the main road), which the rules judge
// when the count starts, is judged on the position given; repetitions need
// the game (dtb adjudicate --pdn).
#pragma once

#include <algorithm>
#include <climits>
#include <optional>
#include <string>
#include <vector>

#include "adjudication/conversions.hpp"
#include "adjudication/count_search.hpp"
#include "adjudication/ruling.hpp"
#include "probe/dtc_tables.hpp"
#include "probe/search.hpp"
#include "probe/tablebase.hpp"
#include "rules/draw_tracker.hpp"

namespace dtb::adjudication {

// Positions CountSearch may visit before it gives up (the answer is then
// DTW's, marked inexact).
inline constexpr std::size_t kSearchNodes = 20000;

// The counts standing at a position given alone (dtb_counts of
// dtb/adjudication.h): the lone-king counts in the stronger side's moves,
// the others in plies. Each 0 or more.
struct Counts {
    int moves_played = 0;      // the stronger side's moves since a lone-king count started
    int king_plies = 0;        // since the last man move or capture (2.1.9.1.8, 3.5's 25 king moves)
    int conversion_plies = 0;  // since the last capture or crowning (2.1.9.1.5)
};

// The counts in whole moves of each side, as dtb_adjudicate and
// dtb_adjudicate_counts take them (n moves are 2n plies).
struct AdjudicateOptions {
    int moves_played = 0;        // the stronger side's moves since the count started
    int king_moves_played = -1;  // under the king-move rules; -1: the same as moves_played
    // Since the last capture or crowning (2.1.9.1.5); -1: the same as moves_played.
    int conversion_moves_played = -1;
    std::size_t search_nodes = kSearchNodes;
};

// AdjudicateOptions' counts in plies.
inline Counts counts_in_plies(int moves_played, int king_moves_played, int conversion_moves_played) {
    // n moves are 2n plies; a negative count stays negative, to be refused.
    const auto plies = [](int moves) { return moves > INT_MAX / 2 ? INT_MAX / 2 * 2 : 2 * moves; };
    return Counts{moves_played, plies(king_moves_played < 0 ? moves_played : king_moves_played),
                  plies(conversion_moves_played < 0 ? moves_played : conversion_moves_played)};
}

namespace detail {

// Every rule of V::draw_rules at `pos`: whether it applies and, if so, the
// moves it has counted and leaves; if not, why not. `moves_made(i)` gives
// rule i's count where it runs, nullopt where it does not; `stronger` is
// the stronger side of a lone-king ending.
template <class V, class MovesMade>
std::vector<RuleStanding> standings(const Position<V>& pos, std::optional<Color> stronger, MovesMade moves_made) {
    std::vector<RuleStanding> out;
    for (std::size_t i = 0; i < V::draw_rules.size(); ++i) {
        const DrawRule& r = V::draw_rules[i];
        RuleStanding st;
        st.index = i;
        if (r.count == DrawCount::repetitions) {
            st.why_not = RuleNote::needs_game;
        } else if (const std::optional<int> made = moves_made(i)) {
            st.applies = true;
            st.moves_made = *made;
            st.moves_left = std::max(0, r.limit - *made);
        } else if (material_covers(r, pos, stronger)) {
            // Its material stands but it does not count: its board condition
            // does not hold (for a game: did not when the material came).
            st.why_not = r.board == BoardCondition::stronger_king_on_main_road ? RuleNote::no_stronger_king_on_road
                                                                               : RuleNote::lone_king_off_road;
        } else {
            st.why_not = RuleNote::other_material;
        }
        out.push_back(st);
    }
    return out;
}

// For a position given alone: each rule whose material and board condition
// hold at `pos` has counted the moves given for its kind of count.
template <class V>
std::vector<RuleStanding> standings(const Position<V>& pos, int moves_played, int king_moves, int conversion_moves) {
    const std::optional<Color> stronger = lone_king_opponent(pos);
    return standings(pos, stronger, [&](std::size_t i) -> std::optional<int> {
        const DrawRule& r = V::draw_rules[i];
        if (!material_covers(r, pos, stronger) || !board_condition_holds(r, pos, stronger)) return std::nullopt;
        return r.count == DrawCount::king_moves                 ? king_moves
               : r.count == DrawCount::moves_without_conversion ? conversion_moves
                                                                : moves_played;
    });
}

// In a game whose counts are `counts`: a lone-king count runs as it started
// (perhaps in an earlier material, its board condition judged then), the
// others count each side's moves.
template <class V>
std::vector<RuleStanding> standings_in_game(const Position<V>& pos, const DrawCounts<V>& counts) {
    return standings(pos, counts.stronger(), [&](std::size_t i) -> std::optional<int> {
        if (!counts.counting(i, pos)) return std::nullopt;
        return counts.moves_made(i);
    });
}

// The rule that ends the game first (the fewest moves left; of a tie, the
// first in the table), and the others that end it at the same move.
template <class V>
void pick_first_rule(Ruling& a) {
    for (const RuleStanding& st : a.rules) {
        if (!st.applies) continue;
        if (!a.rule || st.moves_left < a.moves_left) {
            a.rule = st.index;
            a.moves_left = st.moves_left;
            a.limit = V::draw_rules[st.index].limit;
            a.also.clear();
        } else if (st.moves_left == a.moves_left) {
            a.also.push_back(st.index);
        }
    }
}

// The stronger side: the one the lone-king ending began with if a lone-king
// rule applies (with a lone king on each side, the one that had more);
// otherwise the side the tables give the win (`wdl_us`, for the side to
// move), or the side with more pieces.
template <class V>
Color stronger_side(const Ruling& a, const Position<V>& pos, const DrawCounts<V>& counts, int wdl_us) {
    const Color us = pos.side_to_move;
    for (const RuleStanding& st : a.rules)
        if (st.applies && counts_stronger_side(V::draw_rules[st.index])) return *counts.stronger();
    if (wdl_us != 0) return wdl_us > 0 ? us : opponent(us);
    return popcount(pos.pieces[opponent(us)]) > popcount(pos.pieces[us]) ? opponent(us) : us;
}

// Why DTW's answer may not be the rules' answer (this file's header); kind
// none when it is.
template <class V>
DoubtDetail dtw_doubt(const Tablebase& tb, const Position<V>& pos, const Ruling& a) {
    DoubtDetail doubt;
    const Color s = *a.stronger;
    const int need = *a.moves_needed;
    if (need <= a.moves_left) {
        const int remaining = s == pos.side_to_move ? need - 1 : need;  // after a conversion, at most
        if (remaining > shortest_limit(V::draw_rules))
            conversions_fit<V>(tb, material_of(pos, s), material_of(pos, opponent(s)), remaining, &doubt);
        return doubt;
    }
    // A lone-king count runs to the end: if one leaves too few moves,
    // nothing the stronger side does helps.
    for (const RuleStanding& st : a.rules)
        if (st.applies && counts_stronger_side(V::draw_rules[st.index]) && st.moves_left < need) return doubt;
    doubt.kind = Doubt::needs_dtc;
    return doubt;
}

// What adjudicate_position and adjudicate_in_game share once the standings
// are known.
template <class V>
Outcome<Ruling> judge(const Tablebase& tb, const Position<V>& pos, const DrawCounts<V>& counts, Ruling a,
                      std::size_t search_nodes) {
    a.side_to_move = pos.side_to_move;
    a.material = signature_of(pos);
    pick_first_rule<V>(a);
    if (!a.rule) {
        a.basis = Basis::no_rule;
        return a;
    }

    Search<V> search(tb);
    auto value = search.value(pos);
    if (!value) return value.take_error();
    a.probed = true;
    a.value = *value;
    const Color us = pos.side_to_move;
    const int wdl_us = wdl_of(*value);
    const Color s = stronger_side(a, pos, counts, wdl_us);
    a.stronger = s;
    a.wdl = s == us ? wdl_us : -wdl_us;
    if (a.wdl > 0) a.moves_needed = s == us ? (*value + 1) / 2 : *value / 2;

    if (a.moves_left == 0) {
        a.basis = Basis::count;
        return a;
    }
    if (a.wdl <= 0) {
        a.basis = Basis::wdl;
        return a;
    }
    a.winnable = *a.moves_needed <= a.moves_left;
    // The values under the counts (.dtc tables) answer every count exactly.
    const probe::DtcTables<V> rule_tables(tb);
    auto ruled = rule_tables.exact_value(pos, counts);
    if (ruled) {
        a.winnable = (s == us ? *ruled : -*ruled) > 0;
        a.basis = Basis::dtc;
        if (auto t = rule_tables.dtc(pos)) a.dtc = t->wdl == 0 ? -1 : t->plies;
        return a;
    }
    // Without the .dtc tables (a missing one, or more pieces than any
    // present: the DTW probe may have reached smaller tables by captures),
    // DTW and the search answer as before.
    if (ruled.error().status != Status::missing_table && ruled.error().status != Status::too_many_pieces)
        return ruled.take_error();
    a.missing_dtc = ruled.error().message;
    a.basis = Basis::dtw;
    a.doubt = dtw_doubt<V>(tb, pos, a);
    a.exact = a.doubt.kind == Doubt::none;
    if (!a.exact) {
        CountSearch<V> rs(tb, s, search_nodes);
        auto r = rs.wins(pos, counts);
        if (!r) return r.take_error();
        a.search_nodes = rs.nodes();
        if (r->has_value()) {
            a.exact = true;
            a.basis = Basis::search;
            a.winnable = **r;
        }
    }
    return a;
}

}  // namespace detail

// Adjudicates `pos` (a position to probe: checked, game not over) with the
// counts `c`, each counted from `pos` as if it had started there or
// earlier in the same material (the board conditions judged at `pos`).
// The one judgement of a position given alone: dtb_adjudicate_position and
// every older C call come here.
template <class V>
Outcome<Ruling> adjudicate_position(const Tablebase& tb, const Position<V>& pos, const Counts& c,
                                    std::size_t search_nodes = kSearchNodes) {
    if (c.moves_played < 0)
        return Failure{Status::bad_argument,
                       "moves played is " + std::to_string(c.moves_played) + ": it counts moves, 0 or more"};
    if (c.king_plies < 0 || c.conversion_plies < 0)
        return Failure{Status::bad_argument, "moves played " + std::to_string(c.moves_played) + ", king plies " +
                                                 std::to_string(c.king_plies) + ", conversion plies " +
                                                 std::to_string(c.conversion_plies) + ": each counts, 0 or more"};
    Ruling a;
    a.rules = detail::standings(pos, c.moves_played, c.king_plies / 2, c.conversion_plies / 2);
    return detail::judge(tb, pos, DrawCounts<V>::resumed_plies(pos, c.moves_played, c.king_plies, c.conversion_plies),
                         std::move(a), search_nodes);
}

// The same with the counts in whole moves (AdjudicateOptions).
template <class V>
Outcome<Ruling> adjudicate(const Tablebase& tb, const Position<V>& pos, const AdjudicateOptions& o) {
    return adjudicate_position(tb, pos, counts_in_plies(o.moves_played, o.king_moves_played, o.conversion_moves_played),
                               o.search_nodes);
}

// The same in a game (rules/draw_tracker.hpp): `counts` as they stand after
// the moves played, each count in plies and each lone-king count as it
// started (perhaps in an earlier material, its board condition judged
// then), so that the answer is exact for the game.
template <class V>
Outcome<Ruling> adjudicate_in_game(const Tablebase& tb, const Position<V>& pos, const DrawCounts<V>& counts,
                                   std::size_t search_nodes = kSearchNodes) {
    Ruling a;
    a.rules = detail::standings_in_game(pos, counts);
    return detail::judge(tb, pos, counts, std::move(a), search_nodes);
}

}  // namespace dtb::adjudication
