// Adjudicating the move-count draw rules (rules/draw_rules.hpp) with the
// tables: given a position and how many moves the stronger side has made
// since its count started, which rule ends the game first, how many moves
// it leaves, and whether the stronger side can still win within them.
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
//     tables do not store. A bounded search over the tables (RuleSearch)
//     settles it when it is small enough; otherwise the answer is marked
//     inexact.
//   - m <= r: the fastest win ends the game inside every count running now,
//     and none can repeat a position. Only a count that a capture or a
//     crowning on the way starts afresh could cut it short. That cannot
//     happen when m is no more than the shortest count of the variant (5),
//     nor when every material the game can convert into has no win longer
//     than its own shortest count (read from the headers of the WDL tables,
//     docs/FORMAT.md). Otherwise RuleSearch, or inexact.
//
// Readings of the rules that a FEN cannot carry: the board condition of
// 2.1.9.1.3 and 2.1.9.1.7 (a king on the main road), which the rules judge
// when the count starts, is judged on the position given; repetitions need
// the game (dtb adjudicate --pdn).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "probe/adjudication.hpp"
#include "probe/rule_tables.hpp"
#include "probe/search.hpp"
#include "probe/tablebase.hpp"
#include "rules/draw_tracker.hpp"
#include "tables/table_names.hpp"

namespace dtb::probe {

struct AdjudicateOptions {
    int moves_played = 0;        // the stronger side's moves since the count started
    int king_moves_played = -1;  // under the king-move rules; -1: the same as moves_played
    // Since the last capture or crowning (2.1.9.1.5); -1: the same as moves_played.
    int conversion_moves_played = -1;
    // Positions RuleSearch may visit before it gives up (the answer is then
    // DTW's, marked inexact).
    std::size_t search_nodes = 20000;
};

namespace detail {

// The side's material, as counts.
struct Material {
    int kings = 0;
    int men = 0;
    int pieces() const { return kings + men; }
    friend bool operator==(const Material&, const Material&) = default;
};

template <class V>
Material material_of(const Position<V>& pos, Color c) {
    return {popcount(pos.kings_of(c)), popcount(pos.men(c))};
}

// Why the longest win of a material is not known: its WDL table (the file
// name) is missing or unreadable, or is of format version 1, which does not
// record it.
struct UnknownLongest {
    std::string file;
    bool unrecorded = false;
};

// The most moves the side `s` needs to win any position of material
// (s, d), either side to move, by the headers of their WDL tables (the
// longest win of s to move, the longest loss of d to move); nullopt if one
// is missing or does not record it (*unknown then says which and why).
template <class V>
std::optional<int> longest_win_moves(const Tablebase& tb, Material s, Material d, UnknownLongest* unknown) {
    constexpr VariantId variant = V::id;
    const MaterialSignature s_to_move{{s.men, d.men}, {s.kings, d.kings}};
    const auto own = tb.extremes(variant, s_to_move);
    const auto other = own ? tb.extremes(variant, s_to_move.mirror()) : own;
    if (!own || !other) {
        const MaterialSignature which = own ? s_to_move.mirror() : s_to_move;
        unknown->file = table_file_name(variant, which, compress::Metric::wdl);
        // The table opens, so what it lacks is the record (format version 1).
        unknown->unrecorded = bool(tb.table(variant, which, compress::Metric::wdl));
        return std::nullopt;
    }
    const int win = own->longest_win, loss = other->longest_loss;  // -1: no win, no loss
    return std::max(win < 0 ? 0 : (win + 1) / 2, loss < 0 ? 0 : loss / 2);
}

// The fewest moves a count that starts afresh in material (s, d) can leave
// side s: the least limit of the rules that can cover it, in any position
// (board conditions ignored), and that rule (index in V::draw_rules). A
// large number and no rule when none can.
template <class V>
int fresh_count_moves(Material s, Material d, std::optional<std::size_t>* rule) {
    int least = kAnyNumber;
    const auto lone_covers = [](const DrawRule& r, Material strong, Material lone) {
        return lone.kings == 1 && lone.men == 0 && r.kings.contains(strong.kings) && r.men.contains(strong.men) &&
               r.pieces.contains(strong.pieces());
    };
    for (std::size_t i = 0; i < V::draw_rules.size(); ++i) {
        const DrawRule& r = V::draw_rules[i];
        int moves = kAnyNumber;
        switch (r.count) {
            case DrawCount::stronger_side_moves:
                if (lone_covers(r, s, d)) moves = r.limit;
                // s the lone king: it moves at most once less than the other side.
                if (lone_covers(r, d, s)) moves = std::min(moves, r.limit - 1);
                break;
            case DrawCount::moves_without_conversion:
                if (s.kings > 0 && d.kings > 0 && r.total.contains(s.pieces() + d.pieces())) moves = r.limit;
                break;
            case DrawCount::king_moves:
                if (s.kings > 0 && d.kings > 0) moves = r.limit;
                break;
            case DrawCount::repetitions:
                break;
        }
        if (moves < least) {
            least = moves;
            *rule = i;
        }
    }
    return least;
}

// Whether a win of side s (material s against d) that needs at most
// `remaining` more moves after any capture or crowning fits every count
// such a conversion can start: for each material the game can convert into,
// either `remaining` or its longest win (table headers) fits its shortest fresh
// count. On failure *why says which material and count.
template <class V>
bool conversions_fit(const Tablebase& tb, Material s, Material d, int remaining, DoubtDetail* why) {
    // Every material reachable by captures (pieces lost) and crownings (men
    // become kings), neither side left empty, the present one excluded.
    const auto reachable = [](Material now) {
        std::vector<Material> out;
        for (int men = 0; men <= now.men; ++men)
            for (int kings = 0; kings + men <= now.pieces() && kings <= now.kings + (now.men - men); ++kings)
                if (kings + men > 0) out.push_back({kings, men});
        return out;
    };
    for (const Material s2 : reachable(s))
        for (const Material d2 : reachable(d)) {
            if (s2 == s && d2 == d) continue;
            std::optional<std::size_t> rule;
            const int fresh = fresh_count_moves<V>(s2, d2, &rule);
            if (remaining <= fresh) continue;
            UnknownLongest unknown;
            const std::optional<int> longest = longest_win_moves<V>(tb, s2, d2, &unknown);
            if (longest && *longest <= fresh) continue;
            why->into = MaterialSignature{{s2.men, d2.men}, {s2.kings, d2.kings}};
            why->fresh_rule = rule;
            why->fresh_moves = fresh;
            if (!longest) {
                why->kind = unknown.unrecorded ? Doubt::conversion_unrecorded : Doubt::conversion_unknown;
                why->missing_file = unknown.file;
            } else {
                why->kind = Doubt::conversion_longer;
                why->longest_moves = *longest;
            }
            return false;
        }
    return true;
}

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
void pick_first_rule(Adjudication& a) {
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
Color stronger_side(const Adjudication& a, const Position<V>& pos, const DrawCounts<V>& counts, int wdl_us) {
    const Color us = pos.side_to_move;
    for (const RuleStanding& st : a.rules)
        if (st.applies && counts_stronger_side(V::draw_rules[st.index])) return *counts.stronger();
    if (wdl_us != 0) return wdl_us > 0 ? us : opponent(us);
    return popcount(pos.pieces[opponent(us)]) > popcount(pos.pieces[us]) ? opponent(us) : us;
}

// Why DTW's answer may not be the rules' answer (this file's header); kind
// none when it is.
template <class V>
DoubtDetail dtw_doubt(const Tablebase& tb, const Position<V>& pos, const Adjudication& a) {
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

}  // namespace detail

// An exact answer, by search over the tables, to: can `stronger` end the
// game (win) before a draw rule does? Every move is played through
// DrawCounts, so counts start, run and start again exactly as in a game.
// Sound shortcuts: a position the tables do not give the stronger side as
// won is not won; a lone-king count that leaves fewer moves than DTW needs
// cannot be escaped; a DTW win that fits every count and no conversion can
// spoil (adjudicate.hpp's header) is won. Repetitions are left out: the
// stronger side never needs to repeat a position (from a repeated position
// with higher counts, the play from its first occurrence does as well),
// and the defender cannot repeat one alone.
template <class V>
class RuleSearch {
public:
    RuleSearch(const Tablebase& tb, Color stronger, std::size_t node_limit)
        : tb_(tb), search_(tb), stronger_(stronger), node_limit_(node_limit) {}

    // true or false; nullopt when the node limit was reached.
    Outcome<std::optional<bool>> wins(const Position<V>& pos, const DrawCounts<V>& counts) {
        if (!counts.reached_at(pos).empty()) return std::optional<bool>(false);  // drawn already
        if (pos.side_to_move == stronger_) return stronger_to_move(pos, counts);
        // The defender to move: every reply must leave a win.
        return all_replies(pos, counts);
    }

    std::size_t nodes() const { return nodes_; }

private:
    using Result = Outcome<std::optional<bool>>;

    struct Key {
        Position<V> pos;
        typename DrawCounts<V>::Key counts;
        friend bool operator==(const Key&, const Key&) = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            std::uint64_t h = PositionHash{}(k.pos);
            h ^= std::uint64_t(std::uint16_t(k.counts.plies_since_conversion)) * 0x27D4EB2F165667C5ULL;
            h ^= std::uint64_t(std::uint16_t(k.counts.plies_of_kings_only)) << 17;
            for (std::int8_t c : k.counts.lone) h = (h ^ std::uint8_t(c)) * 0x100000001B3ULL;
            return std::size_t(h ^ (h >> 31));
        }
    };

    Result stronger_to_move(const Position<V>& pos, const DrawCounts<V>& counts) {
        if (game_over(pos)) return std::optional<bool>(false);
        auto value = search_.value(pos);
        if (!value) return value.take_error();
        if (wdl_of(*value) != 1) return std::optional<bool>(false);
        const int need = (*value + 1) / 2;
        // A lone-king count shorter than the need cannot be escaped.
        int budget = kAnyNumber;
        for (std::size_t i = 0; i < DrawCounts<V>::kRules; ++i) {
            if (!counts.counting(i, pos)) continue;
            const DrawRule& r = DrawCounts<V>::rule(i);
            const int left = r.limit - counts.moves_made(i);
            budget = std::min(budget, left);
            if (counts_stronger_side(r) && left < need) return std::optional<bool>(false);
        }
        if (need <= budget && fits_after_conversions(pos, need - 1)) return std::optional<bool>(true);

        const Key key{pos, counts.key()};
        if (const auto it = memo_.find(key); it != memo_.end()) return std::optional<bool>(it->second);
        if (++nodes_ > node_limit_) return std::optional<bool>();

        auto moves = search_.root(pos);
        if (!moves) return moves.take_error();
        std::stable_sort(moves->begin(), moves->end(),
                         [](const auto& a, const auto& b) { return better(a.value, b.value); });
        bool unknown = false;
        for (const auto& rm : *moves) {
            if (wdl_of(rm.value) != 1) break;  // sorted: no win further on
            DrawCounts<V> next = counts;
            if (!next.play(pos, rm.move).empty()) continue;  // a count ends the game with this move
            const Position<V> after = pos.after(rm.move);
            if (game_over(after)) return remember(key, true);
            auto r = all_replies(after, next);
            if (!r) return r;
            if (!r->has_value())
                unknown = true;
            else if (**r)
                return remember(key, true);
        }
        if (unknown) return std::optional<bool>();
        return remember(key, false);
    }

    Result all_replies(const Position<V>& pos, const DrawCounts<V>& counts) {
        if (game_over(pos)) return std::optional<bool>(true);
        auto replies = search_.root(pos);
        if (!replies) return replies.take_error();
        // The defender's best (longest) first: the likeliest refutation.
        std::stable_sort(replies->begin(), replies->end(),
                         [](const auto& a, const auto& b) { return better(a.value, b.value); });
        bool unknown = false;
        for (const auto& rm : *replies) {
            DrawCounts<V> next = counts;
            const Position<V> after = pos.after(rm.move);
            if (!next.play(pos, rm.move).empty()) return std::optional<bool>(false);  // drawn by a count
            auto r = stronger_to_move(after, next);
            if (!r) return r;
            if (!r->has_value())
                unknown = true;
            else if (!**r)
                return std::optional<bool>(false);
        }
        if (unknown) return std::optional<bool>();
        return std::optional<bool>(true);
    }

    bool fits_after_conversions(const Position<V>& pos, int remaining) {
        if (remaining <= shortest_limit(V::draw_rules)) return true;
        DoubtDetail ignored;
        return detail::conversions_fit<V>(tb_, detail::material_of(pos, stronger_),
                                          detail::material_of(pos, opponent(stronger_)), remaining, &ignored);
    }

    Result remember(const Key& key, bool won) {
        memo_.emplace(key, won);
        return std::optional<bool>(won);
    }

    const Tablebase& tb_;
    Search<V> search_;
    Color stronger_;
    std::size_t node_limit_;
    std::size_t nodes_ = 0;
    std::unordered_map<Key, bool, KeyHash> memo_;
};

namespace detail {

// What adjudicate and adjudicate_in_game share once the standings are known.
template <class V>
Outcome<Adjudication> judge(const Tablebase& tb, const Position<V>& pos, const DrawCounts<V>& counts, Adjudication a,
                            std::size_t search_nodes) {
    a.side_to_move = pos.side_to_move;
    a.material = signature_of(pos);
    detail::pick_first_rule<V>(a);
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
    const Color s = detail::stronger_side(a, pos, counts, wdl_us);
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
    const RuleTables<V> rule_tables(tb);
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
    a.doubt = detail::dtw_doubt<V>(tb, pos, a);
    a.exact = a.doubt.kind == Doubt::none;
    if (!a.exact) {
        RuleSearch<V> rs(tb, s, search_nodes);
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

// Adjudicates `pos` (a position to probe: checked, game not over).
template <class V>
Outcome<Adjudication> adjudicate(const Tablebase& tb, const Position<V>& pos, const AdjudicateOptions& o) {
    if (o.moves_played < 0)
        return Failure{Status::bad_argument,
                       "moves played is " + std::to_string(o.moves_played) + ": it counts moves, 0 or more"};
    const int king_moves = o.king_moves_played < 0 ? o.moves_played : o.king_moves_played;
    const int conversion_moves = o.conversion_moves_played < 0 ? o.moves_played : o.conversion_moves_played;

    Adjudication a;
    a.rules = detail::standings(pos, o.moves_played, king_moves, conversion_moves);
    return detail::judge(tb, pos, DrawCounts<V>::resumed(pos, o.moves_played, king_moves, conversion_moves),
                         std::move(a), o.search_nodes);
}

// The same in a game (rules/draw_tracker.hpp): `counts` as they stand after
// the moves played, each count in plies and each lone-king count as it
// started, so that the answer is exact for the game and not for a position
// whose counts are given in whole moves.
template <class V>
Outcome<Adjudication> adjudicate_in_game(const Tablebase& tb, const Position<V>& pos, const DrawCounts<V>& counts,
                                         std::size_t search_nodes = AdjudicateOptions{}.search_nodes) {
    Adjudication a;
    a.rules = detail::standings_in_game(pos, counts);
    return detail::judge(tb, pos, counts, std::move(a), search_nodes);
}

}  // namespace dtb::probe
