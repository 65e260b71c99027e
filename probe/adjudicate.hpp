// Adjudicating the move-count draw rules (rules/draw_rules.hpp) with the
// tables: given a position and how many moves the stronger side has made
// since its count started, which rule ends the game first, how many moves
// it leaves, and whether the stronger side can still win within them.
//
// What DTW decides. DTW is the length of the whole game with best play
// (SPEC 3). The stronger side needs m = (DTW + 1) / 2 of its own moves when
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

#include "tables/table_names.hpp"
#include "probe/search.hpp"
#include "probe/tablebase.hpp"
#include "rules/draw_tracker.hpp"

namespace dtb::probe {

// One rule of V::draw_rules at the position.
struct RuleStanding {
    std::size_t index = 0;  // in V::draw_rules
    bool applies = false;
    int moves_made = 0;  // of the stronger side (of each side for the counts that name none)
    int moves_left = 0;  // limit - moves_made, never below 0
    std::string note;    // why it does not apply
};

struct Adjudication {
    std::vector<RuleStanding> rules;  // every rule of the variant, in the table's order
    std::optional<std::size_t> rule;  // the rule that ends the game first; nullopt: none applies
    std::vector<std::size_t> also;    // others that end it at the same move
    int limit = 0;
    int moves_left = 0;
    std::optional<Color> stronger;
    bool probed = false;              // whether the tables were read (only when a rule applies)
    int value = kDraw;                // the position's value for the side to move: plies, or kDraw
    int wdl = 0;                      // for the stronger side, with no count: -1, 0, 1
    std::optional<int> moves_needed;  // the stronger side's own moves to win (DTW); nullopt: it cannot win
    bool winnable = false;
    bool exact = true;  // false: the tables do not settle it (the verdict says why)
    std::string basis;  // how it was decided: "no rule", "wdl", "dtw", "search"
    std::string verdict;
};

struct AdjudicateOptions {
    int moves_played = 0;        // the stronger side's moves since the count started
    int king_moves_played = -1;  // under the king-move rules; -1: the same as moves_played
    // Positions RuleSearch may visit before it gives up (the answer is then
    // DTW's, marked inexact).
    std::size_t search_nodes = 20000;
};

namespace detail {

inline std::string plural(int n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}
inline std::string moves_text(int n) { return plural(n, "move", "moves"); }
inline const char* side_name(Color c) { return c == White ? "White" : "Black"; }

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

// The most moves the side `s` needs to win any position of material
// (s, d), either side to move, by the headers of their WDL tables (the
// longest win of s to move, the longest loss of d to move); nullopt if one
// is missing or does not record it (*missing then says which and why).
template <class V>
std::optional<int> longest_win_moves(const Tablebase& tb, Material s, Material d, std::string* missing) {
    constexpr VariantId variant = Search<V>::kVariant;
    const MaterialSignature s_to_move{{s.men, d.men}, {s.kings, d.kings}};
    const auto own = tb.extremes(variant, s_to_move);
    const auto other = own ? tb.extremes(variant, s_to_move.mirror()) : own;
    if (!own || !other) {
        *missing = (own ? other : own).error().message;
        return std::nullopt;
    }
    const int win = own->longest_win, loss = other->longest_loss;  // -1: no win, no loss
    return std::max(win < 0 ? 0 : (win + 1) / 2, loss < 0 ? 0 : loss / 2);
}

// The fewest moves a count that starts afresh in material (s, d) can leave
// side s: the least limit of the rules that can cover it, in any position
// (board conditions ignored). A large number when none can.
template <class V>
int fresh_count_moves(Material s, Material d, std::string* rule_id) {
    int least = kAnyNumber;
    const auto lone_covers = [](const DrawRule& r, Material strong, Material lone) {
        return lone.kings == 1 && lone.men == 0 && r.kings.contains(strong.kings) && r.men.contains(strong.men) &&
               r.pieces.contains(strong.pieces());
    };
    for (const DrawRule& r : V::draw_rules) {
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
            *rule_id = r.id;
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
bool conversions_fit(const Tablebase& tb, Material s, Material d, int remaining, std::string* why) {
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
            std::string rule_id;
            const int fresh = fresh_count_moves<V>(s2, d2, &rule_id);
            if (remaining <= fresh) continue;
            std::string missing;
            const std::optional<int> longest = longest_win_moves<V>(tb, s2, d2, &missing);
            const MaterialSignature sig{{s2.men, d2.men}, {s2.kings, d2.kings}};
            if (!longest) {
                *why = "a capture or crowning on the way may lead into " + sig.name() + ", where rule " + rule_id +
                       " starts a count of " + moves_text(fresh) + ", and its longest win is unknown: " + missing;
                return false;
            }
            if (*longest > fresh) {
                *why = "a capture or crowning on the way may lead into " + sig.name() + ", where wins take up to " +
                       moves_text(*longest) + " but rule " + rule_id + " starts a count of " + moves_text(fresh);
                return false;
            }
        }
    return true;
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
        std::string ignored;
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

// Adjudicates `pos` (a position to probe: checked, game not over).
template <class V>
Outcome<Adjudication> adjudicate(const Tablebase& tb, const Position<V>& pos, const AdjudicateOptions& o) {
    using detail::moves_text;
    using detail::side_name;
    if (o.moves_played < 0)
        return Failure{Status::bad_argument,
                       "moves played is " + std::to_string(o.moves_played) + ": it counts moves, 0 or more"};
    const int king_moves = o.king_moves_played < 0 ? o.moves_played : o.king_moves_played;
    const std::optional<Color> lone_opponent = lone_king_opponent(pos);

    Adjudication a;
    for (std::size_t i = 0; i < V::draw_rules.size(); ++i) {
        const DrawRule& r = V::draw_rules[i];
        RuleStanding st;
        st.index = i;
        if (r.count == DrawCount::repetitions) {
            st.note = "counts positions over the whole game: give the game (--pdn)";
        } else if (!material_covers(r, pos, lone_opponent)) {
            st.note = "not this material";
        } else if (!board_condition_holds(r, pos, lone_opponent)) {
            st.note = r.board == BoardCondition::stronger_king_on_main_road
                          ? "no king of the stronger side on the main road"
                          : "the lone king is not on the main road";
        } else {
            st.applies = true;
            st.moves_made = r.count == DrawCount::king_moves ? king_moves : o.moves_played;
            st.moves_left = std::max(0, r.limit - st.moves_made);
        }
        a.rules.push_back(st);
    }
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
    if (!a.rule) {
        a.basis = "no rule";
        a.verdict = "No move-count draw rule covers this material (" + signature_of(pos).name() + " with " +
                    side_name(pos.side_to_move) + " to move); only a threefold repetition could draw it by rule.";
        return a;
    }
    const DrawRule& rule = V::draw_rules[*a.rule];

    // The stronger side: the one with more than a lone king if a lone-king
    // rule applies; otherwise the side the tables give the win, or the side
    // with more pieces.
    bool lone_king_rule = false;
    for (const RuleStanding& st : a.rules)
        if (st.applies && counts_stronger_side(V::draw_rules[st.index])) lone_king_rule = true;
    Search<V> search(tb);
    auto value = search.value(pos);
    if (!value) return value.take_error();
    a.probed = true;
    a.value = *value;
    const Color us = pos.side_to_move;
    const int wdl_us = wdl_of(*value);
    if (lone_king_rule)
        a.stronger = *lone_opponent;
    else if (wdl_us != 0)
        a.stronger = wdl_us > 0 ? us : opponent(us);
    else
        a.stronger = popcount(pos.pieces[opponent(us)]) > popcount(pos.pieces[us]) ? opponent(us) : us;
    const Color s = *a.stronger;
    a.wdl = s == us ? wdl_us : -wdl_us;
    if (a.wdl > 0) a.moves_needed = s == us ? (*value + 1) / 2 : *value / 2;

    const std::string S = side_name(s), D = side_name(opponent(s));
    const int made = a.rules[*a.rule].moves_made;
    // "the rule leaves White 12 of its 15 moves (3 played)"
    const std::string leaves_only = " leaves " + S + " " + std::to_string(a.moves_left) + " of its " +
                                    moves_text(a.limit) + " (" + std::to_string(made) + " played)";
    const std::string leaves = "rule " + std::string(rule.id) + leaves_only;

    if (a.moves_left == 0) {
        a.basis = "count";
        a.verdict = "Drawn by rule " + std::string(rule.id) + " (" + std::string(rule.title) + "): its count of " +
                    moves_text(a.limit) + " has run out (" + std::to_string(made) + " played).";
        return a;
    }
    if (a.wdl <= 0) {
        a.basis = "wdl";
        a.verdict = S + " cannot win at all: the tables give " + (a.wdl == 0 ? "a draw" : "a loss for " + S) +
                    " with best play, count or no count (" + leaves + ").";
        return a;
    }
    const int need = *a.moves_needed;
    const bool fits = need <= a.moves_left;
    a.winnable = fits;
    a.basis = "dtw";
    const std::string need_text = S + " needs " + moves_text(need) + " to win with best play (DTW " +
                                  std::to_string(*value) + " plies, " + side_name(us) + " to move)";

    // Is DTW's answer the rules' answer? (This file's header.)
    std::string doubt;
    if (fits) {
        const int remaining = s == us ? need - 1 : need;  // after a conversion, at most
        if (remaining > shortest_limit(V::draw_rules) &&
            !detail::conversions_fit<V>(tb, detail::material_of(pos, s), detail::material_of(pos, opponent(s)),
                                        remaining, &doubt))
            a.exact = false;
    } else {
        // A lone-king count runs to the end: if one leaves too few moves,
        // nothing the stronger side does helps.
        bool inescapable = false;
        for (const RuleStanding& st : a.rules)
            if (st.applies && counts_stronger_side(V::draw_rules[st.index]) && st.moves_left < need) inescapable = true;
        if (!inescapable) {
            a.exact = false;
            doubt = std::string("a capture or a crowning") +
                    (rule.count == DrawCount::king_moves ? " or a man move" : "") +
                    " within them starts the count of " + std::string(rule.id) + " again, and whether " + S +
                    " can force one and still win needs the distance to conversion (DTC), which the tables do not "
                    "store";
        }
    }
    if (!a.exact) {
        RuleSearch<V> rs(tb, s, o.search_nodes);
        auto r = rs.wins(pos, DrawCounts<V>::resumed(pos, o.moves_played, king_moves));
        if (!r) return r.take_error();
        if (r->has_value()) {
            a.exact = true;
            a.basis = "search";
            a.winnable = **r;
        } else {
            doubt += " (a search over the tables gave up after " +
                     detail::plural(int(rs.nodes()), "position", "positions") + ")";
        }
    }

    std::string v;
    if (a.basis == "search") {
        if (a.winnable && fits)
            v = "Winnable: " + need_text + " and " + leaves +
                "; a search over the tables shows no count that a capture or crowning starts on the way cuts it short.";
        else if (a.winnable)
            v = "Winnable: " + need_text + ", more than " + leaves + ", but a search over the tables shows " + S +
                " can force a capture or crowning that starts the count again and still win.";
        else if (fits)
            v = "Draw by rule: " + need_text + " and " + leaves + ", but a search over the tables shows " + D +
                " can force a capture or crowning into a count that ends the game first.";
        else
            v = "Draw by rule " + std::string(rule.id) + ": " + need_text + ", more than " + leaves +
                "; a search over the tables shows " + S + " cannot start the count again in time either.";
    } else if (a.winnable) {
        v = "Winnable: " + need_text + " and " + leaves + ".";
        if (!a.exact) v += " Not proven, though: " + doubt + ".";
    } else if (a.exact) {
        v = "Draw by rule " + std::string(rule.id) + ": " + need_text + ", but the rule" + leaves_only + "; " + D +
            " can hold out past them.";
    } else {
        v = "Not settled: " + need_text + ", more than " + leaves + "; but " + doubt + ".";
    }
    if (!a.also.empty()) {
        v += " (Rule";
        if (a.also.size() > 1) v += "s";
        for (std::size_t i : a.also) v += " " + std::string(V::draw_rules[i].id);
        v += a.also.size() > 1 ? " leave" : " leaves";
        v += " as many moves.)";
    }
    a.verdict = v;
    return a;
}

}  // namespace dtb::probe
