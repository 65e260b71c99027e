// Values under the move-count draw rules (docs/VALUES.md), as the generator
// (gen/rule_solver.hpp) and the probe (probe/dtc_tables.hpp) share them:
// what is stored per position, its 16-bit symbol in the .dtc files
// (docs/FORMAT.md), and RuleJudge, which answers the value of a position
// under any counts from the stored values of its table and the tables its
// conversions lead into.
//
// Stored per position (with every count fresh at it):
//   - T, the distance to conversion: who wins under the counts and in how
//     many plies the next move that starts the table's binding count again
//     comes (a capture or crowning where 2.1.9.1.5 covers the material,
//     else a capture or man move);
//   - in endings against a lone king, W(p, r) for r = 1..16 moves left to
//     the stronger side under a lone-king count, as the least r that wins
//     (or loses): W is monotone in r.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "rules/draw_rules.hpp"
#include "rules/draw_tracker.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "tables/king_block.hpp"
#include "tables/position_index.hpp"
#include "tables/values.hpp"

namespace dtb {

// A min-max result: who wins (for the side to move) and in how many plies
// the quantity being measured is reached. Packed in 16 bits: 0 draw, t + 1
// a win in t plies, -(t + 1) a loss in t.
struct Timed {
    std::int8_t wdl = 0;
    int plies = 0;

    static constexpr std::int16_t kUnknown = std::numeric_limits<std::int16_t>::min();
    std::int16_t pack() const { return wdl == 0 ? 0 : std::int16_t(wdl * (plies + 1)); }
    static Timed unpack(std::int16_t s) {
        if (s == 0) return {};
        return {std::int8_t(s > 0 ? 1 : -1), (s > 0 ? s : -s) - 1};
    }
    // The value for the side that moved into a position of this value, one ply earlier.
    Timed before() const { return wdl == 0 ? Timed{} : Timed{std::int8_t(-wdl), plies + 1}; }
    friend bool operator==(const Timed&, const Timed&) = default;
};

// Collects the moves' results by the one min-max rule of
// tables/values.hpp (BestOutcome): the fastest win, else a draw, else the
// slowest loss (no move at all: lost at once).
struct TimedChoice : BestOutcome {
    void add(Timed t) {
        if (t.wdl > 0)
            add_win(t.plies);
        else if (t.wdl < 0)
            add_loss(t.plies);
        else
            add_draw();
    }
    Timed result() const { return {std::int8_t(wdl()), plies()}; }
};

inline constexpr int kNoLimit = 1 << 20;

// The counts that run inside one material (docs/VALUES.md 1), in plies.
struct TableCounts {
    int conversion_limit = kNoLimit;  // plies without a capture or crowning (2.1.9.1.5)
    int king_move_limit = kNoLimit;   // plies without a man move or capture
    // Whether T measures to a capture or crowning (a conversion count
    // covers the material), or to a capture or man move.
    bool to_conversion() const { return conversion_limit < kNoLimit; }
};

template <class V>
TableCounts table_counts(const MaterialSignature& sig) {
    TableCounts c;
    if (sig.kings[0] == 0 || sig.kings[1] == 0) return c;  // both rules need kings on both sides
    for (const DrawRule& r : V::draw_rules) {
        if (r.count == DrawCount::moves_without_conversion && r.total.contains(sig.total()))
            c.conversion_limit = std::min(c.conversion_limit, 2 * r.limit);
        if (r.count == DrawCount::king_moves) c.king_move_limit = std::min(c.king_move_limit, 2 * r.limit);
    }
    return c;
}

// Whether the side to move or the other is a lone king against pieces.
inline bool lone_king_material(const MaterialSignature& sig) {
    const auto lone = [&](int s) { return sig.men[s] == 0 && sig.kings[s] == 1; };
    return (lone(0) && sig.pieces(1) > 0) || (lone(1) && sig.pieces(0) > 0);
}

// Whether a lone-king count of V's rules can be running in material `sig`
// (a lone king against pieces): some rule that counts the stronger side's
// moves covers a material that captures and crownings turn into sig, as
// such a count runs on until the lone king is captured. The stronger side
// only loses pieces and crowns men, so k kings and m men come from k'
// kings and m' men exactly when m <= m' and k + m <= k' + m'. Where no
// count can run, W (the value with r moves of a count left) is never asked
// for: the solver does not solve it and the .dtc table holds T alone. (In
// international draughts, four pieces or more against a lone king; in
// Brazilian, with no lone-king count, every table.)
template <class V>
bool lone_count_can_run(const MaterialSignature& sig) {
    constexpr int most = V::max_pieces_per_side;
    for (const int s : {0, 1}) {
        const int lone = 1 - s;
        if (sig.men[lone] != 0 || sig.kings[lone] != 1 || sig.pieces(s) == 0) continue;
        const int k = sig.kings[s], m = sig.men[s];
        for (const DrawRule& r : V::draw_rules) {
            if (!counts_stronger_side(r)) continue;
            // Some k' + m' (k' kings, m' >= m men, each in the rule's range)
            // at least k + m, in its pieces' range and on the board.
            const int kings_most = std::min(r.kings.max, most), men_least = std::max(r.men.min, m),
                      men_most = std::min(r.men.max, most);
            if (r.kings.min > kings_most || men_least > men_most) continue;
            const int least = std::max({k + m, r.pieces.min, r.kings.min + men_least});
            if (least <= std::min({r.pieces.max, kings_most + men_most, most})) return true;
        }
    }
    return false;
}

// King against king: either side may be the stronger one of a lone-king count.
inline bool both_lone_kings(const MaterialSignature& sig) {
    return sig.men[0] == 0 && sig.men[1] == 0 && sig.kings[0] == 1 && sig.kings[1] == 1;
}

// Whether a table's entries hold W, the values under a lone-king count
// (RuleEntry::least_win, least_loss): where such a count can run, and king
// against king (whose W is derived from T: king_against_king_entry).
template <class V>
bool has_lone_values(const MaterialSignature& sig) {
    return both_lone_kings(sig) || lone_count_can_run<V>(sig);
}

inline constexpr int kMaxLoneMoves = 16;      // no lone-king count is longer (rules/draw_rules.hpp)
inline constexpr std::uint8_t kNever = 0xFF;  // no r up to kMaxLoneMoves decides

// What is stored of one position: T, and for a lone-king ending the least
// r with which the stronger side wins and loses (kNever: none up to 16).
struct RuleEntry {
    Timed dtc;
    std::uint8_t least_win = kNever;
    std::uint8_t least_loss = kNever;
    friend bool operator==(const RuleEntry&, const RuleEntry&) = default;
};

// The symbol of a position in a .dtc file (docs/FORMAT.md): bits 0-7 T (0 a
// draw, 2t - 1 a win in t plies, 2t + 2 a loss in t), bits 8-13 the
// lone-king field (0 neither within 16 moves, r the stronger side wins with
// r or more, 16 + r it loses with r or more). Throws std::range_error for a
// value the symbol cannot hold (the writer then refuses the table).
inline std::uint16_t rule_symbol(const RuleEntry& e) {
    unsigned dtc = 0;
    if (e.dtc.wdl > 0) dtc = 2 * unsigned(e.dtc.plies) - 1;
    if (e.dtc.wdl < 0) dtc = 2 * unsigned(e.dtc.plies) + 2;
    if (dtc > 0xFF || (e.dtc.wdl > 0 && e.dtc.plies < 1) || e.dtc.plies < 0)
        throw std::range_error("a distance to conversion of " + std::to_string(e.dtc.plies) + " plies");
    unsigned lone = 0;
    if (e.least_win != kNever && e.least_loss != kNever) throw std::range_error("a lone-king ending both won and lost");
    if (e.least_win != kNever) lone = e.least_win;
    if (e.least_loss != kNever) lone = kMaxLoneMoves + unsigned(e.least_loss);
    if ((e.least_win != kNever && (e.least_win < 1 || e.least_win > kMaxLoneMoves)) ||
        (e.least_loss != kNever && (e.least_loss < 1 || e.least_loss > kMaxLoneMoves)))
        throw std::range_error("a lone-king count of more than 16 moves");
    return std::uint16_t(dtc | lone << 8);
}

// The entry of a symbol; nullopt for a symbol no writer makes.
inline std::optional<RuleEntry> rule_entry(std::uint16_t symbol) {
    const unsigned dtc = symbol & 0xFF, lone = symbol >> 8;
    if (lone > 2 * kMaxLoneMoves) return std::nullopt;
    RuleEntry e;
    if (dtc % 2 == 1) e.dtc = {1, int(dtc + 1) / 2};
    if (dtc >= 2 && dtc % 2 == 0) e.dtc = {-1, int(dtc - 2) / 2};
    if (lone >= 1 && lone <= kMaxLoneMoves) e.least_win = std::uint8_t(lone);
    if (lone > kMaxLoneMoves) e.least_loss = std::uint8_t(lone - kMaxLoneMoves);
    return e;
}

// King against king, where the only conversion ends the game (a king takes
// the other): W(p, r) is T cut at the plies the count leaves, so it is not
// stored (a symbol holds one orientation only) but derived. The stronger
// side to move makes its r-th move at ply 2r - 1 and the game ends after
// it; with the other side to move, at ply 2r. The writer checks this
// against the solved W of every position.
inline RuleEntry king_against_king_entry(Timed dtc, bool stronger_to_move) {
    RuleEntry e{dtc};
    if (dtc.wdl == 0) return e;
    const bool stronger_wins = (dtc.wdl > 0) == stronger_to_move;
    // The least r whose last ply (2r - 1 or 2r) reaches the winning move at ply t.
    const int r = stronger_to_move ? (dtc.plies + 2) / 2 : (dtc.plies + 1) / 2;
    if (r > kMaxLoneMoves) return e;
    (stronger_wins ? e.least_win : e.least_loss) = std::uint8_t(std::max(r, 1));
    return e;
}

// The counts standing at a position in a game, in plies (the lone-king
// count in the stronger side's moves made, for the rules that cover the
// position with their board condition; the others have not started).
struct RuleCounts {
    int lone_moves = 0;
    int conversion_plies = 0;
    int king_plies = 0;
};

// Answers under the counts from stored values. Store::entry(n,
// stronger_to_move) gives the RuleEntry of a normalized position n (the
// orientation matters for king against king only); it may throw (a probe's
// store throws for a missing or damaged file).
template <class V, class Store>
class RuleJudge {
public:
    explicit RuleJudge(const Store& store) : store_(store) {}

    // When a search under a running king-move count solves the count's
    // king blocks whole (king_block.hpp) instead of position by position:
    // Auto once the search has visited a sixteenth of the block's
    // positions (the block costs about that many searched states); the
    // others for the tests that compare the two.
    enum class BlockSolving { Auto, Always, Never };
    void set_block_solving(BlockSolving mode) { block_solving_ = mode; }

    // Where the store keeps solved king blocks between questions (a probe's
    // tables: Store::kept_blocks()); else each question solves its own.
    SolvedKingBlocks* kept_blocks() const {
        if constexpr (requires { store_.kept_blocks(); })
            return &store_.kept_blocks();
        else
            return nullptr;
    }

    // With every count fresh at `pos` (not over, side to move has a piece):
    // the rule-aware value for the side to move.
    int fresh_wdl(const Position<V>& pos) const { return entering_wdl(pos, std::nullopt); }

    // With every count fresh at `pos` (not over): the rule-aware value and
    // the distance to conversion under the counts (docs/VALUES.md 2), the
    // length of line_to_conversion. The stored T where no lone-king count
    // starts at `pos`; where one does, T assumes none runs and the count
    // may make the winner take longer: searched (Search::distance).
    Timed fresh_dtc(const Position<V>& pos) const {
        if (game_over(pos)) return {-1, 0};
        Search search = search_for(pos, RuleCounts{});
        const SearchState s = state_for(pos, search, RuleCounts{});
        const int value = s.left <= 0 ? 0 : search.value(pos, s);
        if (value == 0) return {};
        return {std::int8_t(value), search.distance(pos, s, value > 0)};
    }

    // Whether, with every count fresh at `pos`, the side to move wins with
    // a DTC of at most `plies`: one search that stops at the first proof,
    // where fresh_dtc may need several (a report that looks for the
    // longest DTC asks this of most positions, fresh_dtc of few).
    bool fresh_win_within(const Position<V>& pos, int plies) const {
        if (game_over(pos)) return false;
        Search search = search_for(pos, RuleCounts{});
        const SearchState s = state_for(pos, search, RuleCounts{});
        if (s.left <= 0 || entering_wdl(pos, std::nullopt) <= 0) return false;
        return search.within(pos, s, true, plies);
    }

    // The value for the side to move under any counts, exactly: from the
    // stored values where they settle it, else by a search that stays in
    // the material until the counts the stored values assume are fresh
    // again: a man move (the king-move count starts again), a capture or
    // crowning (all but the lone-king counts do), or the end of the
    // lone-king count.
    // `Counts`: RuleCounts, or the DrawCounts of a game in progress
    // (rules/draw_tracker.hpp) with each lone-king count as it started.
    template <class Counts>
    int exact_value(const Position<V>& pos, const Counts& c) const {
        if (game_over(pos)) return -1;
        Search search = search_for(pos, c);
        const SearchState s = state_for(pos, search, c);
        if (s.left <= 0) return 0;
        return search.value(pos, s);
    }

    // Best play under the counts `c` from `pos` to the next conversion, the
    // move that starts the material's binding count again (what T measures
    // to): the moves until one captures, crowns or ends the game, or, where
    // no conversion count covers the material and the king-move count
    // binds, moves a man (that move included), at most `max_plies`. The
    // side that wins under the counts keeps the win and plays the move
    // that converts soonest under the counts as they stand; the side that
    // loses plays the one that converts latest (moves_under_counts' plies).
    // The line has as many plies as the distance under the counts; with
    // every count fresh, fresh_dtc's. Empty where the position is drawn
    // under the counts (no side can force anything) or over.
    template <class Counts>
    std::vector<Move> line_to_conversion(const Position<V>& pos, const Counts& c, int max_plies = 512) const {
        std::vector<Move> line;
        if (game_over(pos)) return line;
        Search search = search_for(pos, c);
        SearchState s = state_for(pos, search, c);
        if (s.left <= 0 || search.value(pos, s) == 0) return line;
        Position<V> p = pos;
        while (int(line.size()) < max_plies) {
            MoveList moves;
            MoveGenerator<V>::generate(p, moves);
            const int value = search.value(p, s);
            // The first move (in the generator's order) that keeps the value
            // and leads to the conversion in the plies the position's
            // distance says: for the winner the least of its moves', for
            // the loser the most. One search for the distance, then each
            // move's is only checked against it.
            const int plies = search.distance(p, s, value > 0);
            std::optional<Move> best;
            for (const Move& m : moves) {
                if (search.move_value(p, s, m) != value) continue;
                if (converts(search, p, m)) {
                    if (plies == 1) best = m;
                } else {
                    const Position<V> after = p.after(m);
                    const SearchState next = search.next_state(p, s, m);
                    const bool winner_after = value < 0;
                    // At least plies - 1 after the winner's move, at most after the loser's.
                    if (value > 0 ? search.within(after, next, winner_after, plies - 1)
                                  : !search.within(after, next, winner_after, plies - 2))
                        best = m;
                }
                if (best) break;
            }
            if (!best) break;  // cannot happen: the distance is some move's
            line.push_back(*best);
            if (converts(search, p, *best)) break;
            s = search.next_state(p, s, *best);
            p = p.after(*best);
        }
        return line;
    }

    // A legal move's value under the counts, for the side playing it.
    struct MoveUnderCounts {
        Move move;
        int wdl = 0;     // 1 win, 0 draw, -1 loss
        int plies = -1;  // to the conversion T measures to, along best play; -1 for a draw
    };

    // Every legal move of `pos` under the counts `c` (in the move
    // generator's order): what it is worth to the side that plays it, and,
    // for a move that wins or loses, the plies to the next conversion it
    // leads to with best play under the counts after it (1 if it
    // converts), the measure line_to_conversion ranks moves by. Empty for
    // a game over.
    template <class Counts>
    std::vector<MoveUnderCounts> moves_under_counts(const Position<V>& pos, const Counts& c) const {
        std::vector<MoveUnderCounts> out;
        if (game_over(pos)) return out;
        Search search = search_for(pos, c);
        const SearchState s = state_for(pos, search, c);
        // A count that has already ended the game leaves every move a draw.
        const bool ended = s.left <= 0 || count_over(search.counts, s);
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        for (const Move& m : moves) {
            MoveUnderCounts u{m};
            u.wdl = ended ? 0 : search.move_value(pos, s, m);
            if (u.wdl != 0) u.plies = plies_to_conversion(search, pos, s, m, u.wdl);
            out.push_back(u);
        }
        return out;
    }

    // The lone-king ending under way when a position is entered: its
    // stronger side and the moves its running counts leave (kNoLimit: none
    // runs), with the position before the conversion (whose material's
    // rules have started already).
    struct Phase {
        Color stronger;
        int moves_left;
        Position<V> before;
    };

    // The value of `pos` for its side to move when the game enters it: at
    // the start (no phase), or by a conversion in a lone-king ending.
    int entering_wdl(const Position<V>& pos, const std::optional<Phase>& phase) const {
        const Position<V> n = normalize(pos);
        const MaterialSignature sig = signature_of(n);
        if (!has_lone_values<V>(sig)) return threshold(store_.entry(n, true).dtc, fresh_budget(sig));
        const Color stronger = phase ? phase->stronger : *lone_king_opponent(pos);
        const int left = std::min(phase ? phase->moves_left : kNoLimit, starting_limit(pos, stronger, phase));
        return lone_wdl(n, pos.side_to_move == stronger, left);
    }

    // The entry of a normalized position whose side to move must capture,
    // from its captures (the .dtc files leave these positions out: every
    // capture converts, so T is 1 ply, and W at r is the best capture's).
    // The solver computes the same values the same way (gen/rule_solver.hpp).
    RuleEntry capture_entry(const Position<V>& n, bool stronger_to_move) const {
        const MaterialSignature sig = signature_of(n);
        const bool lone = lone_king_material(sig);
        // The stronger side (the side to move for king against king).
        const Color stronger = lone ? *lone_king_opponent(n) : White;
        MoveList moves;
        MoveGenerator<V>::generate(n, moves);
        TimedChoice t;
        for (const Move& m : moves) {
            const Position<V> after = n.after(m);
            if (!after.pieces[after.side_to_move]) {
                t.add({1, 1});
                continue;
            }
            const int wdl =
                lone ? entering_wdl(after, Phase{stronger, kNoLimit, n}) : entering_wdl(after, std::nullopt);
            t.add(Timed{std::int8_t(wdl), 0}.before());
        }
        RuleEntry e{t.result()};
        if (!has_lone_values<V>(sig)) return e;
        if (both_lone_kings(sig)) return king_against_king_entry(e.dtc, stronger_to_move);
        // W at r: the stronger side's best capture (its move leaves r - 1;
        // the last one that does not win draws), or the lone king's.
        const bool ours = n.side_to_move == stronger;
        std::array<int, kMaxLoneMoves + 1> w;
        w.fill(ours ? -1 : 1);
        for (const Move& m : moves) {
            const Position<V> after = n.after(m);
            const bool over = game_over(after);
            const Entering entered = over ? Entering{} : entering(after, stronger, n);
            for (int r = 1; r <= kMaxLoneMoves; ++r) {
                const int left = ours ? r - 1 : r;
                int v = ours ? 1 : -1;
                if (!over) {
                    v = left == 0 ? 0 : entered.wdl(left);
                    if (left != 0 && after.side_to_move != stronger) v = -v;
                }
                w[std::size_t(r)] = ours ? std::max(w[std::size_t(r)], v) : std::min(w[std::size_t(r)], v);
            }
        }
        for (int r = kMaxLoneMoves; r >= 1; --r) {
            if (w[std::size_t(r)] > 0) e.least_win = std::uint8_t(r);
            if (w[std::size_t(r)] < 0) e.least_loss = std::uint8_t(r);
        }
        return e;
    }

    // entering_wdl(pos, Phase{stronger, left, before}) for every `left`
    // at once: one look-up, then wdl(left).
    struct Entering {
        int fixed = 0;  // the value where no lone-king count covers pos
        bool lone = false;
        int start = kNoLimit;  // the least limit of the rules starting at pos
        int fresh_budget = kNoLimit;
        bool stronger_to_move = false;
        RuleEntry entry;
        int wdl(int left) const {
            if (!lone) return fixed;
            left = std::min(left, start);
            if (left >= kNoLimit) return threshold(entry.dtc, fresh_budget);
            const int sign = stronger_to_move ? 1 : -1;
            if (entry.least_win <= left) return sign;
            if (entry.least_loss <= left) return -sign;
            return 0;
        }
    };
    Entering entering(const Position<V>& pos, Color stronger, const Position<V>& before) const {
        const Position<V> n = normalize(pos);
        const MaterialSignature sig = signature_of(n);
        Entering e;
        if (!has_lone_values<V>(sig)) {
            e.fixed = threshold(store_.entry(n, true).dtc, fresh_budget(sig));
            return e;
        }
        e.lone = true;
        e.start = starting_limit(pos, stronger, Phase{stronger, kNoLimit, before});
        e.fresh_budget = fresh_budget(sig);
        e.stronger_to_move = pos.side_to_move == stronger;
        e.entry = store_.entry(n, e.stronger_to_move);
        return e;
    }

    // A timed result's value when it must come within `budget` plies.
    static int threshold(Timed v, int budget) { return v.plies <= budget ? v.wdl : 0; }

    // The least limit of the lone-king rules that start at `pos`: those
    // covering its material and not the material before (they started
    // then), whose board condition holds now.
    static int starting_limit(const Position<V>& pos, Color stronger, const std::optional<Phase>& phase) {
        int least = kNoLimit;
        for (const DrawRule& r : V::draw_rules) {
            if (!counts_stronger_side(r) || !material_covers(r, pos, stronger)) continue;
            if (phase && material_covers(r, phase->before, stronger)) continue;
            if (board_condition_holds(r, pos, stronger)) least = std::min(least, r.limit);
        }
        return least;
    }

private:
    struct Search;
    struct SearchState;

    // Whether `m` at `p` is the move T measures to: a capture, crowning or
    // end of the game, or a man move where the king-move count binds.
    static bool converts(const Search& search, const Position<V>& p, const Move& m) {
        if (m.is_capture() || m.crowns || game_over(p.after(m))) return true;
        return !search.counts.to_conversion() && (p.kings & bit(m.from)) == 0;
    }

    // Plies to the conversion `m` (worth `wdl` to its side, not a draw)
    // leads to in state `s`: 1 if it converts, else one more than the
    // distance under the counts after it, where the winner is the other
    // side to move if `m` loses.
    static int plies_to_conversion(Search& search, const Position<V>& p, const SearchState& s, const Move& m, int wdl) {
        if (converts(search, p, m)) return 1;
        return 1 + search.distance(p.after(m), search.next_state(p, s, m), wdl < 0);
    }

    // Whether the conversion or king-move count has run out in state `s`.
    static bool count_over(const TableCounts& counts, const SearchState& s) {
        return (counts.conversion_limit < kNoLimit && s.a >= counts.conversion_limit) ||
               (counts.king_move_limit < kNoLimit && s.b >= counts.king_move_limit);
    }

    Search search_for(const Position<V>& pos, const RuleCounts&) const {
        const std::optional<Color> stronger =
            lone_king_material(signature_of(pos)) ? lone_king_opponent(pos) : std::nullopt;
        return Search{*this, table_counts<V>(signature_of(pos)), stronger, {}, {}, {}};
    }
    // A game's lone-king ending keeps the stronger side it began with (it
    // differs from lone_king_opponent only with a lone king on each side).
    Search search_for(const Position<V>& pos, const DrawCounts<V>& c) const {
        Search search = search_for(pos, RuleCounts{});
        if (search.stronger && c.stronger()) search.stronger = c.stronger();
        return search;
    }

    // The search's state for counts `c` at `pos`: the lone-king rules that
    // cover it with their board condition leave `left` moves.
    static SearchState state_for(const Position<V>& pos, const Search& search, const RuleCounts& c) {
        int left = kNoLimit;
        if (search.stronger)
            for (const DrawRule& r : V::draw_rules)
                if (counts_stronger_side(r) && material_covers(r, pos, *search.stronger) &&
                    board_condition_holds(r, pos, *search.stronger))
                    left = std::min(left, r.limit - std::max(0, c.lone_moves));
        return {std::max(0, c.conversion_plies), std::max(0, c.king_plies), left};
    }
    // From a game's counts: every lone-king count that runs, as it started
    // (its board condition judged then, its material perhaps an earlier
    // one), leaves its limit less the moves made.
    static SearchState state_for(const Position<V>& pos, const Search&, const DrawCounts<V>& c) {
        int left = kNoLimit;
        for (std::size_t i = 0; i < V::draw_rules.size(); ++i)
            if (counts_stronger_side(V::draw_rules[i]) && c.counting(i, pos))
                left = std::min(left, V::draw_rules[i].limit - c.moves_made(i));
        return {c.plies_since_conversion(), c.plies_of_kings_only(), left};
    }

    // The plies T may take with the counts fresh.
    static int fresh_budget(const MaterialSignature& sig) {
        const TableCounts c = table_counts<V>(sig);
        return c.to_conversion() ? c.conversion_limit : kNoLimit;
    }

    // W(n, left) for the side to move of a normalized lone-king position.
    int lone_wdl(const Position<V>& n, bool stronger_to_move, int left) const {
        const RuleEntry e = store_.entry(n, stronger_to_move);
        if (left >= kNoLimit) return threshold(e.dtc, fresh_budget(signature_of(n)));
        const int sign = stronger_to_move ? 1 : -1;
        if (e.least_win <= left) return sign;
        if (e.least_loss <= left) return -sign;
        return 0;
    }

    // exact_value's search: the state inside one material.
    struct SearchState {
        int a, b, left;  // plies since conversion, plies of kings only, the stronger side's moves left
        friend bool operator==(const SearchState&, const SearchState&) = default;
    };
    struct Search {
        const RuleJudge& judge;
        TableCounts counts;             // of the material (either side to move: the same)
        std::optional<Color> stronger;  // of the lone-king ending, fixed at its start
        struct Key {
            Position<V> pos;
            SearchState s;
            friend bool operator==(const Key&, const Key&) = default;
        };
        struct Hash {
            std::size_t operator()(const Key& k) const {
                std::uint64_t h =
                    k.pos.pieces[White] * 0x9E3779B97F4A7C15ULL ^ k.pos.pieces[Black] * 0xC2B2AE3D27D4EB4FULL;
                h ^= (k.pos.kings + std::uint64_t(k.pos.side_to_move)) * 0x165667B19E3779F9ULL;
                h ^= (std::uint64_t(std::uint32_t(k.s.a)) << 40) ^ (std::uint64_t(std::uint32_t(k.s.b)) << 20) ^
                     std::uint64_t(std::uint32_t(k.s.left));
                return std::size_t(h ^ (h >> 29));
            }
        };
        std::unordered_map<Key, int, Hash> memo;
        // What within() has found of a state: it fails below `least` plies
        // and holds from `most` on.
        struct Bounds {
            int least = 0;
            int most = kNoLimit;
        };
        std::unordered_map<Key, Bounds, Hash> bounds;
        // No count runs longer (plies), so no distance under the counts is.
        static constexpr int kMostPlies = 1024;

        // The value at `pos` (of the search's material, not over, no count ended).
        int value(const Position<V>& pos, const SearchState& s) {
            if (count_over(counts, s)) return 0;
            if (const std::optional<int> v = settled(pos, s)) return *v;
            const Key key{pos, s};
            if (const auto it = memo.find(key); it != memo.end()) return it->second;
            if (const std::optional<int> v = from_block(pos, s)) return *v;
            MoveList moves;
            MoveGenerator<V>::generate(pos, moves);
            int best = -1;
            for (const Move& m : moves) {
                best = std::max(best, move_value(pos, s, m));
                if (best == 1) break;
            }
            memo.emplace(key, best);
            return best;
        }

        // King blocks solved by layers (solve_king_layers), by their men, king
        // counts and the conversion count's lead over the king-move count
        // (constant inside a block: a king move adds a ply to both).
        struct SolvedBlock {
            KingBlock<V> block;
            SolvedKingBlocks::Layers last;  // layers the stored value holds to (solve_king_layers)
        };
        std::unordered_map<SolvedKingBlocks::Key, SolvedBlock, SolvedKingBlocks::KeyHash> blocks;

        // The value at `pos` in state `s` from its king block solved whole,
        // where the search under a running king-move count may take that
        // way (not where a lone-king count runs: its values are W's) and
        // judge's BlockSolving chooses it (and `may_solve`, where a block
        // not solved yet is not to be); nullopt to search on.
        std::optional<int> from_block(const Position<V>& pos, const SearchState& s, bool may_solve = true) {
            if (judge.block_solving_ == BlockSolving::Never || stronger || s.left < kNoLimit ||
                !counts.to_conversion() || counts.king_move_limit >= kNoLimit || s.b == 0)
                return std::nullopt;
            const SolvedKingBlocks::Key key{int(V::id),
                                            {pos.men(White), pos.men(Black)},
                                            {popcount(pos.kings_of(White)), popcount(pos.kings_of(Black))},
                                            s.a - s.b};
            auto it = blocks.find(key);
            if (it == blocks.end()) {
                if (!may_solve) return std::nullopt;
                const KingBlock<V> block(pos);
                // Solved by an earlier question to the same tables, else here.
                SolvedKingBlocks* kept = judge.kept_blocks();
                SolvedKingBlocks::Layers last = kept ? kept->find(key) : nullptr;
                if (!last) {
                    if (judge.block_solving_ == BlockSolving::Auto && memo.size() < block.size() / 16)
                        return std::nullopt;
                    last = std::make_shared<const std::vector<std::int8_t>>(solve_block(block, key.lead));
                    if (kept) kept->keep(key, last);
                }
                it = blocks.emplace(key, SolvedBlock{block, std::move(last)}).first;
            }
            const Timed t = stored(pos);
            return s.b <= (*it->second.last)[it->second.block.index(pos)] ? t.wdl : 0;
        }

        // The layers of a block where the conversion count leads the
        // king-move count by `lead` plies: at layer b the counts stand at
        // (lead + b, b), and the count ends the game after the last layer
        // both leave. A man's plain move starts the king-move count again:
        // its successor's stored T must fit in what the conversion count
        // leaves; a capture or crowning converts.
        std::vector<std::int8_t> solve_block(const KingBlock<V>& block, int lead) {
            const int cap = std::min(counts.king_move_limit - 1, counts.conversion_limit - lead - 1);
            if (cap < 0) return std::vector<std::int8_t>(block.size(), -1);
            // T's value; for a capture position, the captures' (T does the
            // same), found at the first that wins.
            const auto role = [&](const Position<V>& p, const MoveList& moves) {
                if (!moves[0].is_capture()) return int(stored(p).wdl);
                int best = -1;
                for (const Move& m : moves) {
                    const Position<V> after = p.after(m);
                    best = std::max(best, game_over(after) ? 1 : -judge.entering_wdl(after, std::nullopt));
                    if (best == 1) break;
                }
                return best;
            };
            const auto exit = [&](const Position<V>& p, const Move& m) {
                const Position<V> after = p.after(m);
                if (game_over(after)) return ExitValue{1};
                if (m.is_capture() || m.crowns) return ExitValue{-judge.entering_wdl(after, std::nullopt)};
                // At layer b the successor stands at (lead + b + 1, 0).
                const Timed t = stored(after);
                return ExitValue{-t.wdl, counts.conversion_limit - lead - 1 - t.plies};
            };
            return solve_king_layers(block, cap, role, exit);
        }

        // The state after `m`, a move that neither converts nor ends the game.
        SearchState next_state(const Position<V>& pos, const SearchState& s, const Move& m) const {
            const bool stronger_moved = stronger && *stronger == pos.side_to_move;
            const bool man = (pos.kings & bit(m.from)) == 0;
            return {s.a + 1, man ? 0 : s.b + 1, s.left < kNoLimit && stronger_moved ? s.left - 1 : s.left};
        }

        // The value of playing `m` at `pos` in state `s`, for the side playing it.
        int move_value(const Position<V>& pos, const SearchState& s, const Move& m) {
            const Position<V> after = pos.after(m);
            const SearchState next = next_state(pos, s, m);
            if (game_over(after)) return 1;
            if (next.left <= 0) return 0;  // the lone-king count's last move did not win
            if (m.is_capture() || m.crowns) {
                std::optional<Phase> phase;
                if (stronger) phase = Phase{*stronger, next.left, pos};
                return -judge.entering_wdl(after, phase);
            }
            return -value(after, next);
        }

        // The plies to the next conversion at `pos` in state `s`, with best
        // play under the counts (the winner hurrying, the loser delaying),
        // where the side to move wins (`winner_to_move`) or loses there. T
        // bounds it from below: T is the same min-max with the counts the
        // state has run fresh and no lone-king count carried, and a count
        // further on only takes winning lines away, never adds one or
        // shortens one. Where the state cannot cut T's lines short, it is
        // T; else the least d at which the winner converts within d plies
        // (within()), tried from T up.
        int distance(const Position<V>& pos, const SearchState& s, bool winner_to_move) {
            const Timed t = stored(pos);
            if (stored_is_exact(t, s)) return t.plies;
            if (const std::optional<int> most = lone_bound(pos, s, winner_to_move); most && *most <= t.plies)
                return t.plies;
            // The counts end the game within their limits: some d is found
            // by then, as the position is won or lost under them.
            for (int d = std::max(t.plies, 1); d <= kMostPlies; ++d)
                if (within(pos, s, winner_to_move, d)) return d;
            throw std::logic_error("rule values: no conversion within the counts from " + to_fen(pos));
        }

        // Whether the winner (the side to move if `winner_to_move`) wins at
        // `pos` in state `s` with a conversion within `d` plies: one of its
        // moves, or every move of the other side, leads there (a converting
        // move that wins, or d - 1 plies more from the position after it).
        bool within(const Position<V>& pos, const SearchState& real, bool winner_to_move, int d) {
            if (d <= 0) return false;
            SearchState s = real;
            // A count that cannot end the game within d plies is as good as
            // fresh (the search keys fewer states): the conversion and the
            // king-move count only grow by a ply a ply, and at a man move
            // the king-move count starts again anyway.
            if (counts.conversion_limit >= kNoLimit || s.a + d <= counts.conversion_limit) s.a = 0;
            if (counts.king_move_limit >= kNoLimit || s.b + d <= counts.king_move_limit) s.b = 0;
            const Timed t = stored(pos);
            if (t.wdl == 0 || (t.wdl > 0) != winner_to_move || t.plies > d) return false;
            if (stored_is_exact(t, s)) return true;
            if (const std::optional<int> most = lone_bound(pos, s, winner_to_move); most && *most <= d) return true;
            // A block already solved for the counts as they are says whether
            // the winner wins at all: if not, not within d plies either.
            if (const std::optional<int> v = from_block(pos, real, false); v && *v != (winner_to_move ? 1 : -1))
                return false;
            Bounds& known = bounds[Key{pos, s}];
            if (known.most <= d) return true;
            if (known.least > d) return false;
            MoveList moves;
            MoveGenerator<V>::generate(pos, moves);
            // Converting moves first, then the others by T after them, the
            // nearest conversion for the winner first; the other side's moves
            // T already refutes are found before any search.
            struct Candidate {
                int least_plies;  // T after the move, one more; 0 for a move that converts
                Move move;
            };
            std::vector<Candidate> order;
            bool refuted = false;
            for (const Move& m : moves) {
                if (converts_here(pos, m)) {
                    order.push_back({0, m});
                    continue;
                }
                const Timed after = stored(pos.after(m));
                const bool bounded = after.wdl != 0 && (after.wdl < 0) == winner_to_move && after.plies < d;
                if (!winner_to_move && !bounded) {
                    refuted = true;
                    break;
                }
                if (bounded) order.push_back({after.plies + 1, m});
            }
            bool result = false;
            if (!refuted) {
                std::stable_sort(order.begin(), order.end(),
                                 [](const Candidate& x, const Candidate& y) { return x.least_plies < y.least_plies; });
                result = !winner_to_move;
                for (const Candidate& c : order) {
                    bool won;  // by the winner, converting within d plies
                    if (c.least_plies == 0) {
                        won = move_value(pos, s, c.move) == (winner_to_move ? 1 : -1);
                    } else {
                        // The counts as they are after the move: the same
                        // as fresh wherever s has them fresh, and they name
                        // the move's block.
                        const SearchState next = next_state(pos, s, c.move);
                        won = next.left > 0 && !count_over(counts, next) &&
                              within(pos.after(c.move), next_state(pos, real, c.move), !winner_to_move, d - 1);
                    }
                    if (won == winner_to_move) {
                        result = won;
                        break;
                    }
                }
            }
            // (References into an unordered_map outlive the insertions the search made.)
            if (result)
                known.most = std::min(known.most, d);
            else
                known.least = std::max(known.least, d + 1);
            return result;
        }

        // T, as stored for `pos` (or worked out from its captures).
        Timed stored(const Position<V>& pos) const { return judge.store_.entry(normalize(pos), true).dtc; }

        // Whether a win or loss in T plies is the distance in state `s` too:
        // no lone-king count runs (T assumes none), and every count already
        // under way leaves T's lines room to end (the king-move count only
        // for the first king moves, where another count binds: a man move
        // starts it again, as fresh as T has it).
        bool stored_is_exact(Timed t, const SearchState& s) const {
            if (s.left < kNoLimit || t.wdl == 0) return false;
            const int king_room = counts.king_move_limit >= kNoLimit ? kNoLimit : counts.king_move_limit - s.b;
            if (!counts.to_conversion()) return t.plies <= king_room;
            return t.plies <= counts.conversion_limit - s.a && (s.b == 0 || t.plies <= king_room);
        }

        bool converts_here(const Position<V>& pos, const Move& m) const { return converts(*this, pos, m); }

        // An upper bound of the distance where a lone-king count runs and the
        // stronger side is the winner: W's least r with which it wins means
        // the game ends, by its last capture, within r of its moves (the
        // count ends it drawn after the r-th), so the next conversion comes
        // no later: 2r - 1 plies with the stronger side to move, 2r
        // otherwise. Only where W answers for the state (as in settled()).
        std::optional<int> lone_bound(const Position<V>& pos, const SearchState& s, bool winner_to_move) const {
            if (s.left >= kNoLimit || !stronger) return std::nullopt;
            const bool stronger_to_move = pos.side_to_move == *stronger;
            if (winner_to_move != stronger_to_move) return std::nullopt;
            const int plies = 2 * s.left;
            const bool a_free = counts.conversion_limit >= kNoLimit || s.a + plies <= counts.conversion_limit;
            const bool b_free = counts.king_move_limit >= kNoLimit || s.b + plies <= counts.king_move_limit;
            if (!((s.a == 0 && s.b == 0) || (a_free && b_free && counts.conversion_limit > 2 * kMaxLoneMoves)))
                return std::nullopt;
            const RuleEntry e = judge.store_.entry(normalize(pos), stronger_to_move);
            if (e.least_win == kNever || e.least_win > s.left) return std::nullopt;
            return 2 * int(e.least_win) - (stronger_to_move ? 1 : 0);
        }

        // Where the stored values answer: the counts they assume fresh are,
        // or they settle it anyway. Counts already run only take wins away,
        // from both sides (the game is the same with more of its lines cut
        // short as draws), so a draw with them fresh is a draw now; and a
        // conversion T promises within the plies every count still leaves
        // comes along the same lines now.
        std::optional<int> settled(const Position<V>& pos, const SearchState& s) const {
            const Position<V> n = normalize(pos);
            if (s.left < kNoLimit) {
                // W assumes the conversion and king-move counts fresh; they
                // cannot end the game first when the lone-king count ends
                // before them.
                const int plies = 2 * s.left;
                const bool a_free = counts.conversion_limit >= kNoLimit || s.a + plies <= counts.conversion_limit;
                const bool b_free = counts.king_move_limit >= kNoLimit || s.b + plies <= counts.king_move_limit;
                const int w = judge.lone_wdl(n, pos.side_to_move == *stronger, s.left);
                if ((s.a == 0 && s.b == 0) || w == 0 ||
                    (a_free && b_free && counts.conversion_limit > 2 * kMaxLoneMoves))
                    return w;
                return std::nullopt;
            }
            const Timed dtc = judge.store_.entry(n, true).dtc;
            if (!counts.to_conversion()) return threshold(dtc, counts.king_move_limit - s.b);
            const int fresh_b = threshold(dtc, counts.conversion_limit - s.a);
            if (s.b == 0 || fresh_b == 0) return fresh_b;
            const int left = std::min(counts.conversion_limit - s.a, counts.king_move_limit - s.b);
            // Kings alone (no man to move): every ply raises both counts, and
            // T's fastest conversion is the one the nearer limit allows.
            if (n.men(White) == 0 && n.men(Black) == 0) return threshold(dtc, left);
            if (dtc.plies <= left) return dtc.wdl;
            return std::nullopt;
        }
    };

    const Store& store_;
    BlockSolving block_solving_ = BlockSolving::Auto;
};

}  // namespace dtb
