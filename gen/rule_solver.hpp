// Values under the move-count draw rules (docs/VALUES.md): for every
// position of every table, in memory, from the smallest material up.
//
// Two things are solved per table:
//
//   - T(p), the distance to conversion (DTC): with every count fresh at p
//     and best play under all the counts, the plies until the next move
//     that starts the table's binding count again, signed by who wins. The
//     binding count is the variant's count that a capture or a crowning
//     restarts (2.1.9.1.5) where it covers the material, else the count
//     that a capture or a man move restarts (2.1.9.1.8, 3.5's 25 king
//     moves). The value with `a` plies already counted since the last
//     conversion is: won when |T| <= limit - a (docs/VALUES.md 2).
//   - in an ending against a lone king, W(p, r): the value when the
//     stronger side has r moves left under a lone-king count (those counts
//     never start again, so they are carried over captures and crownings).
//     W is monotone in r, so it is kept as the least r that wins (or
//     loses).
//
// The game with the counts in its state is finite and acyclic (every ply
// raises a count that ends the game, advances a man, or converts), so each
// quantity is a min-max over moves computed in an order where every move's
// successor is known: tables after those they convert into, men placements
// from the most advanced down (a man move raises the advancement), and
// the king-move count b from its limit down (a king move raises it).
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

#include "gen/slices.hpp"
#include "rules/draw_rules.hpp"
#include "rules/draw_tracker.hpp"
#include "rules/movegen.hpp"
#include "tables/position_index.hpp"
#include "tables/signatures.hpp"

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
};

// Collects the moves' results: the fastest win, else a draw, else the
// slowest loss (no move at all: lost at once).
struct TimedChoice {
    int fastest_win = -1, slowest_loss = -1;
    bool draw = false;
    void add(Timed t) {
        if (t.wdl > 0)
            fastest_win = fastest_win < 0 ? t.plies : std::min(fastest_win, t.plies);
        else if (t.wdl < 0)
            slowest_loss = std::max(slowest_loss, t.plies);
        else
            draw = true;
    }
    Timed result() const {
        if (fastest_win >= 0) return {1, fastest_win};
        if (draw) return {};
        return {-1, std::max(slowest_loss, 0)};
    }
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
template <class V>
bool lone_king_material(const MaterialSignature& sig) {
    const auto lone = [&](int s) { return sig.men[s] == 0 && sig.kings[s] == 1; };
    return (lone(0) && sig.pieces(1) > 0) || (lone(1) && sig.pieces(0) > 0);
}

template <class V>
class RuleSolver {
public:
    static constexpr int kMaxLoneMoves = 16;  // no lone-king count is longer (rules/draw_rules.hpp)
    static constexpr std::uint8_t kNever = 0xFF;

    // Solves every table of up to `max_pieces` pieces.
    explicit RuleSolver(int max_pieces) {
        for (const MaterialSignature& key : solving_order(all_signatures(V::id, max_pieces))) solve_pair(key);
    }

    // With every count fresh at `pos` (not over, side to move has a piece):
    // the rule-aware value for the side to move.
    int fresh_wdl(const Position<V>& pos) const { return entering_wdl(pos, std::nullopt, std::nullopt); }

    // T(pos) for a position of a solved table (docs/VALUES.md).
    Timed dtc(const Position<V>& pos) const {
        const Position<V> n = normalize(pos);
        const Table& t = table(signature_of(n));
        return Timed::unpack(t.dtc[t.index.rank(n)]);
    }

    // The least r (stronger side's moves left) at which `pos` is won by the
    // stronger side (win) or by the lone king (loss), counts other than
    // the lone-king ones fresh; kNever if none up to 16. `stronger` must be
    // the stronger side of the ending (either one when both are lone kings).
    std::uint8_t least_moves(const Position<V>& pos, Color stronger, bool win) const {
        const Position<V> n = normalize(pos);
        const Table& t = table(signature_of(n));
        const bool to_move = stronger == pos.side_to_move;
        const std::uint64_t i = t.index.rank(n);
        return (win ? t.least_win : t.least_loss)[slot(t, i, to_move)];
    }

    // The value for the side to move when the counts stand as `dtb
    // adjudicate` gives them (DrawCounts::resumed): the stronger side has
    // made `moves` moves under the lone-king counts that cover `pos` and
    // 2 x moves plies have passed since the last conversion, 2 x king_moves
    // since the last man move or capture. nullopt where the stored values
    // alone do not settle it (the king-move count part-run in a material
    // that the conversion count also covers, or beside a lone-king count):
    // the probe searches those.
    std::optional<int> value_with_counts(const Position<V>& pos, int moves, int king_moves) const {
        const Position<V> n = normalize(pos);
        const Table& t = table(signature_of(n));
        const std::uint64_t i = t.index.rank(n);
        const Timed dtc = Timed::unpack(t.dtc[i]);
        const int a = 2 * moves, b = 2 * king_moves;
        if (t.lone) {
            const Color stronger = *lone_king_opponent(pos);
            const int fresh = starting_limit(pos, stronger, std::nullopt);
            if (fresh < kNoLimit) {
                if (b > 0) return std::nullopt;
                return lone_wdl(t, i, pos, stronger, std::max(0, fresh - moves));
            }
        }
        if (t.counts.to_conversion()) {
            if (b > 0) return std::nullopt;
            return threshold(dtc, t.counts.conversion_limit - a);
        }
        return threshold(dtc, t.counts.king_move_limit - b);
    }

    const TableCounts counts_of(const Position<V>& pos) const { return table(signature_of(normalize(pos))).counts; }

private:
    struct Table {
        MaterialSignature sig;
        PositionIndex<V> index;
        TableCounts counts;
        bool lone = false;
        bool both_lone = false;  // king against king: either side may be the stronger
        std::vector<std::int16_t> dtc;
        std::vector<std::uint8_t> least_win, least_loss;  // lone-king tables: per position and orientation
    };

    static std::size_t slot(const Table& t, std::uint64_t i, bool stronger_to_move) {
        return t.both_lone ? 2 * i + (stronger_to_move ? 0 : 1) : i;
    }

    const Table& table(const MaterialSignature& sig) const {
        const auto it = tables_.find(sig);
        if (it == tables_.end()) throw std::logic_error("rule solver: table " + sig.name() + " not solved");
        return it->second;
    }
    Table& table(const MaterialSignature& sig) { return tables_.at(sig); }

    // The lone-king ending under way when a position is entered: its
    // stronger side and the moves its running counts leave (kNoLimit: none
    // runs), with the position before the conversion (whose material's
    // rules have started already).
    struct Phase {
        Color stronger;
        int moves_left;
        Position<V> before;
    };

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

    // The value of `pos` for its side to move when the game enters it: at
    // the start (no phase), or by a conversion in a lone-king ending.
    int entering_wdl(const Position<V>& pos, const std::optional<Phase>& phase, std::optional<int>) const {
        const Position<V> n = normalize(pos);
        const Table& t = table(signature_of(n));
        const std::uint64_t i = t.index.rank(n);
        if (!t.lone)
            return threshold(Timed::unpack(t.dtc[i]), t.counts.to_conversion() ? t.counts.conversion_limit : kNoLimit);
        const Color stronger = phase ? phase->stronger : *lone_king_opponent(pos);
        const int left = std::min(phase ? phase->moves_left : kNoLimit, starting_limit(pos, stronger, phase));
        return lone_wdl(t, i, pos, stronger, left);
    }

    // W(pos, left) for the side to move of a lone-king position.
    static int lone_wdl(const Table& t, std::uint64_t i, const Position<V>& pos, Color stronger, int left) {
        if (left >= kNoLimit)
            return threshold(Timed::unpack(t.dtc[i]), t.counts.to_conversion() ? t.counts.conversion_limit : kNoLimit);
        const std::size_t s = slot(t, i, stronger == pos.side_to_move);
        const int sign = stronger == pos.side_to_move ? 1 : -1;
        if (t.least_win[s] <= left) return sign;
        if (t.least_loss[s] <= left) return -sign;
        return 0;
    }

    // A timed result's value when it must come within `budget` plies.
    static int threshold(Timed v, int budget) { return v.plies <= budget ? v.wdl : 0; }

    void solve_pair(const MaterialSignature& key) {
        std::vector<MaterialSignature> sides{key};
        if (!key.is_symmetric()) sides.push_back(key.mirror());
        for (const MaterialSignature& s : sides) {
            Table t{s, PositionIndex<V>(s), table_counts<V>(s), lone_king_material<V>(s), false, {}, {}, {}};
            t.both_lone = s.men[0] == 0 && s.men[1] == 0 && s.kings[0] == 1 && s.kings[1] == 1;
            t.dtc.assign(t.index.size(), Timed::kUnknown);
            tables_.emplace(s, std::move(t));
        }
        solve_dtc(sides);
        if (table(key).lone) solve_lone(sides);
    }

    // ---- T, level by level --------------------------------------------

    struct Slot {
        MaterialSignature sig;
        std::uint64_t index;
    };

    void solve_dtc(const std::vector<MaterialSignature>& sides) {
        std::vector<std::vector<std::vector<std::uint64_t>>> by_level(sides.size());
        int top = 0;
        for (std::size_t s = 0; s < sides.size(); ++s) {
            const Table& t = table(sides[s]);
            for (std::uint64_t i = 0; i < t.index.size(); ++i) {
                const int level = advancement(t.index.unrank(i));
                if (std::size_t(level) >= by_level[s].size()) by_level[s].resize(level + 1);
                by_level[s][level].push_back(i);
                top = std::max(top, level);
            }
        }
        const TableCounts counts = table(sides[0]).counts;
        // The king-move count's layers: b = limit - 1 down to 0 (the layer
        // above is kept in `above`); without that count, one pass in which
        // the side without kings (whose moves all leave the level) goes first.
        std::vector<std::vector<std::int16_t>> above(sides.size()), here(sides.size());
        for (std::size_t s = 0; s < sides.size(); ++s) {
            above[s].assign(table(sides[s]).index.size(), Timed::kUnknown);
            here[s] = above[s];
        }
        const bool layered = counts.king_move_limit < kNoLimit;
        for (int level = top; level >= 0; --level) {
            if (layered) {
                for (int b = counts.king_move_limit - 1; b >= 0; --b) {
                    for (std::size_t s = 0; s < sides.size(); ++s)
                        if (std::size_t(level) < by_level[s].size())
                            evaluate_level(sides, s, by_level[s][level], b, above, here[s]);
                    std::swap(above, here);
                }
                for (std::size_t s = 0; s < sides.size(); ++s)
                    if (std::size_t(level) < by_level[s].size())
                        for (const std::uint64_t i : by_level[s][level]) table(sides[s]).dtc[i] = above[s][i];
            } else {
                for (const bool kings_to_move : {false, true})
                    for (std::size_t s = 0; s < sides.size(); ++s) {
                        if (std::size_t(level) >= by_level[s].size()) continue;
                        if ((sides[s].kings[0] > 0) != kings_to_move) continue;
                        std::vector<std::int16_t>& dtc = table(sides[s]).dtc;
                        evaluate_level(sides, s, by_level[s][level], -1, above, dtc);
                    }
            }
        }
    }

    // T at king-move count b (b < 0: no such count) for each position of a
    // level of side s, into out.
    void evaluate_level(const std::vector<MaterialSignature>& sides, std::size_t s,
                        const std::vector<std::uint64_t>& level, int b,
                        const std::vector<std::vector<std::int16_t>>& above, std::vector<std::int16_t>& out) {
        const Table& t = table(sides[s]);
#pragma omp parallel for schedule(dynamic, 256)
        for (std::size_t k = 0; k < level.size(); ++k) {
            const Position<V> pos = t.index.unrank(level[k]);
            out[level[k]] = evaluate(t, sides, pos, b, above).pack();
        }
    }

    Timed evaluate(const Table& t, const std::vector<MaterialSignature>& sides, const Position<V>& pos, int b,
                   const std::vector<std::vector<std::int16_t>>& above) const {
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        TimedChoice choice;
        const std::optional<Color> stronger = t.lone ? lone_king_opponent(pos) : std::nullopt;
        for (const Move& m : moves) {
            const Position<V> after = pos.after(m);
            if (game_over(after)) {
                choice.add({1, 1});
                continue;
            }
            const bool man_move = (pos.kings & bit(m.from)) == 0;
            if (m.is_capture() || m.crowns) {
                std::optional<Phase> phase;
                if (stronger) phase = Phase{*stronger, kNoLimit, pos};
                choice.add(Timed{std::int8_t(entering_wdl(after, phase, std::nullopt)), 0}.before());
                continue;
            }
            const Position<V> n = normalize(after);
            const MaterialSignature sig = signature_of(n);
            const std::size_t side = sig == sides[0] ? 0 : 1;
            const std::uint64_t j = table(sig).index.rank(n);
            if (man_move) {
                const Timed next = Timed::unpack(table(sig).dtc[j]);
                if (t.counts.to_conversion())
                    choice.add(next.before());
                else  // the man move starts the measured count again: its value is the successor's
                    choice.add(Timed{std::int8_t(threshold(next, t.counts.king_move_limit)), 0}.before());
                continue;
            }
            if (b < 0) {
                choice.add(Timed::unpack(table(sig).dtc[j]).before());
            } else if (b + 1 >= t.counts.king_move_limit) {
                choice.add({});  // the king-move count ends the game
            } else {
                choice.add(Timed::unpack(above[side][j]).before());
            }
        }
        return choice.result();
    }

    // ---- W, lone-king counts ------------------------------------------

    // W(p, r) for r = 1..16 (both orientations where both sides are lone
    // kings), the stronger side's wdl. Its moves lead to r - 1, the lone
    // king's keep r. Where the conversion count is shorter than any
    // lone-king count could last (2.1.9.1.5 for 2-3 pieces), the plies t
    // since entering the material are part of the state too, in layers
    // from that count's limit down; otherwise layer r needs r - 1 only:
    // first the stronger side to move, then the lone king.
    void solve_lone(const std::vector<MaterialSignature>& sides) {
        std::vector<std::size_t> slots(sides.size());
        for (std::size_t s = 0; s < sides.size(); ++s) {
            Table& t = table(sides[s]);
            slots[s] = t.index.size() * (t.both_lone ? 2 : 1);
            t.least_win.assign(slots[s], kNever);
            t.least_loss.assign(slots[s], kNever);
        }
        const int plies_limit = table(sides[0]).counts.conversion_limit;
        const bool timed = plies_limit <= 2 * kMaxLoneMoves;
        // wdl per slot and r (0..16): the layer being made and the one it reads.
        constexpr std::size_t R = kMaxLoneMoves + 1;
        std::vector<std::vector<std::int8_t>> read(sides.size()), made(sides.size());
        for (std::size_t s = 0; s < sides.size(); ++s) {
            read[s].assign(slots[s] * R, 0);
            made[s] = read[s];
        }
        const auto layer = [&](int r, bool stronger_moves, bool last_ply) {
            for (std::size_t s = 0; s < sides.size(); ++s)
                lone_layer(
                    sides, s, r, stronger_moves,
                    [&](std::size_t side, std::size_t slot, int left) {
                        if (last_ply) return std::int8_t(0);  // the conversion count ends the game
                        // Timed: every ply reads the layer t + 1. Otherwise `made`
                        // holds r - 1 whole, and r for the stronger side to move.
                        return (timed ? read : made)[side][slot * R + std::size_t(left)];
                    },
                    made);
        };
        if (timed) {
            for (int t = plies_limit - 1; t >= 0; --t) {
                for (int r = 1; r <= kMaxLoneMoves; ++r)
                    for (const bool stronger_moves : {true, false}) layer(r, stronger_moves, t + 1 >= plies_limit);
                std::swap(read, made);
            }
            std::swap(read, made);  // layer t = 0 in `made`
        } else {
            for (int r = 1; r <= kMaxLoneMoves; ++r)
                for (const bool stronger_moves : {true, false}) layer(r, stronger_moves, false);
        }
        for (std::size_t s = 0; s < sides.size(); ++s) {
            Table& t = table(sides[s]);
            for (std::size_t k = 0; k < slots[s]; ++k)
                for (int r = kMaxLoneMoves; r >= 1; --r) {
                    const std::int8_t v = made[s][k * R + std::size_t(r)];
                    if (v > 0) t.least_win[k] = std::uint8_t(r);
                    if (v < 0) t.least_loss[k] = std::uint8_t(r);
                }
        }
    }

    template <class Lookup>
    void lone_layer(const std::vector<MaterialSignature>& sides, std::size_t s, int r, bool stronger_moves,
                    const Lookup& lookup, std::vector<std::vector<std::int8_t>>& out) {
        constexpr std::size_t R = kMaxLoneMoves + 1;
        const Table& t = table(sides[s]);
        const std::int64_t n = std::int64_t(t.index.size());
#pragma omp parallel for schedule(dynamic, 256)
        for (std::int64_t i = 0; i < n; ++i) {
            const Position<V> pos = t.index.unrank(std::uint64_t(i));
            for (const bool stronger_to_move : {true, false}) {
                if (stronger_to_move != stronger_moves) continue;
                const Color stronger = stronger_to_move ? pos.side_to_move : opponent(pos.side_to_move);
                if (!t.both_lone && lone_king_opponent(pos) != stronger) continue;
                const std::size_t k = slot(t, std::uint64_t(i), stronger_to_move);
                out[s][k * R + std::size_t(r)] = std::int8_t(lone_value(sides, pos, stronger, r, lookup));
            }
        }
    }

    // The stronger side's wdl at (pos, r): it has r moves left, and on
    // its r-th move without a win the game is drawn. lookup(side, slot,
    // left) reads an in-material successor.
    template <class Lookup>
    int lone_value(const std::vector<MaterialSignature>& sides, const Position<V>& pos, Color stronger, int r,
                   const Lookup& lookup) const {
        const bool ours = pos.side_to_move == stronger;
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        int best = ours ? -1 : 1;  // no move: the side to move has lost
        for (const Move& m : moves) {
            const Position<V> after = pos.after(m);
            int v;  // for the stronger side
            const int left = ours ? r - 1 : r;
            if (game_over(after)) {
                v = ours ? 1 : -1;
            } else if (left == 0) {
                v = 0;  // the count's last move did not win
            } else if (m.is_capture() || m.crowns) {
                const int w = entering_wdl(after, Phase{stronger, left, pos}, std::nullopt);
                v = after.side_to_move == stronger ? w : -w;
            } else {
                const Position<V> n = normalize(after);
                const MaterialSignature sig = signature_of(n);
                const std::size_t side = sig == sides[0] ? 0 : 1;
                const std::uint64_t j = table(sig).index.rank(n);
                v = lookup(side, slot(table(sig), j, after.side_to_move == stronger), left);
            }
            best = ours ? std::max(best, v) : std::min(best, v);
        }
        return best;
    }

    std::map<MaterialSignature, Table> tables_;
};

}  // namespace dtb
