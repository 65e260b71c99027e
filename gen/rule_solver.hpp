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
#include <unordered_map>
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
    int fresh_wdl(const Position<V>& pos) const { return entering_wdl(pos, std::nullopt); }

    // T(pos) for a position of a solved table (docs/VALUES.md).
    Timed dtc(const Position<V>& pos) const {
        const Position<V> n = normalize(pos);
        const Table& t = table(signature_of(n));
        return Timed::unpack(t.dtc[t.index.rank(n)]);
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

    // The counts standing at a position in a game, in plies (the lone-king
    // count in the stronger side's moves made, for the rules that cover the
    // position with their board condition; the others have not started).
    struct Counts {
        int lone_moves = 0;
        int conversion_plies = 0;
        int king_plies = 0;
    };

    // The value for the side to move under any counts, exactly: from the
    // stored values where they settle it (value_with_counts), else by a
    // search that stays in the material until the counts the stored values
    // assume are fresh again: a man move (the king-move count starts
    // again), a capture or crowning (all but the lone-king counts do), or
    // the end of the lone-king count.
    int exact_value(const Position<V>& pos, const Counts& c) const {
        if (game_over(pos)) return -1;
        const Table& t = table(signature_of(normalize(pos)));
        const std::optional<Color> stronger = t.lone ? lone_king_opponent(pos) : std::nullopt;
        Search search{*this, t, stronger, {}};
        int left = kNoLimit;
        if (stronger)
            for (const DrawRule& r : V::draw_rules)
                if (counts_stronger_side(r) && material_covers(r, pos, *stronger) &&
                    board_condition_holds(r, pos, *stronger))
                    left = std::min(left, r.limit - std::max(0, c.lone_moves));
        if (left <= 0) return 0;
        return search.value(pos, {std::max(0, c.conversion_plies), std::max(0, c.king_plies), left});
    }

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
    int entering_wdl(const Position<V>& pos, const std::optional<Phase>& phase) const {
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

    // One level of a side, its moves generated once: per position, what its
    // moves that leave the level give (a partial choice), and where its king
    // moves lead (the only moves whose value depends on the king-move count).
    struct LevelGraph {
        std::vector<std::uint64_t> positions;
        std::vector<TimedChoice> settled;    // per position: moves leaving the level
        std::vector<std::uint32_t> first;    // per position, then one past the end: its king moves
        std::vector<std::uint64_t> king_to;  // side << 63 | index of the successor
    };
    static constexpr std::uint64_t kSideBit = std::uint64_t{1} << 63;

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
        const bool layered = counts.king_move_limit < kNoLimit;
        // The king-move count's layers: b = limit - 1 down to 0, the layer
        // above kept in `above`. Without that count the side without kings
        // (whose moves all leave the level) goes first, then the other.
        std::vector<std::vector<std::int16_t>> above(sides.size()), here(sides.size());
        for (std::size_t s = 0; s < sides.size(); ++s) {
            above[s].assign(layered ? table(sides[s]).index.size() : 0, Timed::kUnknown);
            here[s] = above[s];
        }
        for (int level = top; level >= 0; --level) {
            std::vector<LevelGraph> graphs(sides.size());
            for (std::size_t s = 0; s < sides.size(); ++s)
                if (std::size_t(level) < by_level[s].size())
                    graphs[s] = level_graph(sides, s, std::move(by_level[s][level]));
            if (layered) {
                for (int b = counts.king_move_limit - 1; b >= 0; --b) {
                    const bool last = b + 1 >= counts.king_move_limit;
                    for (std::size_t s = 0; s < sides.size(); ++s)
                        combine(graphs[s], here[s], [&](std::uint64_t to) {
                            return last ? Timed{} : Timed::unpack(above[to >> 63][to & ~kSideBit]);
                        });
                    std::swap(above, here);
                }
                for (std::size_t s = 0; s < sides.size(); ++s)
                    for (const std::uint64_t i : graphs[s].positions) table(sides[s]).dtc[i] = above[s][i];
            } else {
                for (const bool kings_to_move : {false, true})
                    for (std::size_t s = 0; s < sides.size(); ++s)
                        if ((sides[s].kings[0] > 0) == kings_to_move)
                            combine(graphs[s], table(sides[s]).dtc, [&](std::uint64_t to) {
                                return Timed::unpack(table(sides[to >> 63]).dtc[to & ~kSideBit]);
                            });
            }
        }
    }

    // Each position's value from its settled moves and its king moves'
    // successors (read through `successor`), into out.
    template <class Successor>
    static void combine(const LevelGraph& g, std::vector<std::int16_t>& out, const Successor& successor) {
        const std::int64_t n = std::int64_t(g.positions.size());
#pragma omp parallel for schedule(static) if (n > 65536)
        for (std::int64_t k = 0; k < n; ++k) {
            TimedChoice choice = g.settled[std::size_t(k)];
            for (std::uint32_t e = g.first[std::size_t(k)]; e < g.first[std::size_t(k) + 1]; ++e)
                choice.add(successor(g.king_to[e]).before());
            out[g.positions[std::size_t(k)]] = choice.result().pack();
        }
    }

    // Per-position lists of successors as one array and where each
    // position's part begins (`first` has one entry more, the end).
    static void flatten(const std::vector<std::vector<std::uint64_t>>& lists, std::vector<std::uint32_t>& first,
                        std::vector<std::uint64_t>& all, const MaterialSignature& sig) {
        first.resize(lists.size() + 1);
        std::size_t edges = 0;
        for (std::size_t k = 0; k < lists.size(); ++k) {
            first[k] = std::uint32_t(edges);
            edges += lists[k].size();
        }
        if (edges > std::numeric_limits<std::uint32_t>::max())
            throw std::length_error("rule solver: " + sig.name() + " has too many moves in one part");
        first[lists.size()] = std::uint32_t(edges);
        all.reserve(edges);
        for (const auto& v : lists) all.insert(all.end(), v.begin(), v.end());
    }

    LevelGraph level_graph(const std::vector<MaterialSignature>& sides, std::size_t s,
                           std::vector<std::uint64_t> positions) const {
        const Table& t = table(sides[s]);
        LevelGraph g;
        g.positions = std::move(positions);
        const std::size_t n = g.positions.size();
        g.settled.resize(n);
        std::vector<std::vector<std::uint64_t>> king_to(n);
#pragma omp parallel for schedule(dynamic, 256) if (n > 4096)
        for (std::size_t k = 0; k < n; ++k) {
            const Position<V> pos = t.index.unrank(g.positions[k]);
            settle_moves(t, sides, pos, g.settled[k], king_to[k]);
        }
        flatten(king_to, g.first, g.king_to, sides[s]);
        return g;
    }

    // The moves of `pos` that leave its level (or end the game) into
    // `settled`; where its king moves lead into `king_to`.
    void settle_moves(const Table& t, const std::vector<MaterialSignature>& sides, const Position<V>& pos,
                      TimedChoice& settled, std::vector<std::uint64_t>& king_to) const {
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        const std::optional<Color> stronger = t.lone ? lone_king_opponent(pos) : std::nullopt;
        for (const Move& m : moves) {
            const Position<V> after = pos.after(m);
            if (game_over(after)) {
                settled.add({1, 1});
                continue;
            }
            if (m.is_capture() || m.crowns) {
                std::optional<Phase> phase;
                if (stronger) phase = Phase{*stronger, kNoLimit, pos};
                settled.add(Timed{std::int8_t(entering_wdl(after, phase)), 0}.before());
                continue;
            }
            const Position<V> n = normalize(after);
            const MaterialSignature sig = signature_of(n);
            const std::uint64_t j = table(sig).index.rank(n);
            if ((pos.kings & bit(m.from)) != 0) {
                king_to.push_back((sig == sides[0] ? 0 : kSideBit) | j);
                continue;
            }
            const Timed next = Timed::unpack(table(sig).dtc[j]);
            if (t.counts.to_conversion())
                settled.add(next.before());
            else  // the man move starts the measured count again: its value is the successor's
                settled.add(Timed{std::int8_t(threshold(next, t.counts.king_move_limit)), 0}.before());
        }
    }

    // ---- W, lone-king counts ------------------------------------------

    static constexpr std::size_t kR = kMaxLoneMoves + 1;  // r = 0..16

    // A side of a lone-king material, its moves generated once: per slot
    // (position and, for king against king, which side is the stronger),
    // the stronger side's best over the moves that end the game or leave
    // the material for each r, and where its other moves lead.
    struct LoneGraph {
        std::vector<std::int8_t> valid;    // the slot is a position of this orientation
        std::vector<std::int8_t> ours;     // the stronger side is to move
        std::vector<std::int8_t> settled;  // slot * kR + r: the best of the moves leaving; kNone if none
        std::vector<std::uint32_t> first;  // per slot, then one past the end
        std::vector<std::uint64_t> to;     // side << 63 | slot of the successor
    };
    static constexpr std::int8_t kNone = -2;

    // W(p, r) for r = 1..16 (both orientations where both sides are lone
    // kings), the stronger side's wdl. Its moves lead to r - 1, the lone
    // king's keep r. Where the conversion count is shorter than any
    // lone-king count could last (2.1.9.1.5 for 2-3 pieces), the plies t
    // since entering the material are part of the state too, in layers
    // from that count's limit down; otherwise layer r needs r - 1 only:
    // first the stronger side to move, then the lone king.
    void solve_lone(const std::vector<MaterialSignature>& sides) {
        std::vector<LoneGraph> graphs;
        for (std::size_t s = 0; s < sides.size(); ++s) graphs.push_back(lone_graph(sides, s));
        const int plies_limit = table(sides[0]).counts.conversion_limit;
        const bool timed = plies_limit <= 2 * kMaxLoneMoves;
        std::vector<std::vector<std::int8_t>> read(sides.size()), made(sides.size());
        for (std::size_t s = 0; s < sides.size(); ++s) {
            read[s].assign(graphs[s].ours.size() * kR, 0);
            made[s] = read[s];
        }
        if (timed) {
            // Every ply reads the layer t + 1; its last ply draws.
            for (int t = plies_limit - 1; t >= 0; --t) {
                const bool last = t + 1 >= plies_limit;
                for (int r = 1; r <= kMaxLoneMoves; ++r)
                    for (std::size_t s = 0; s < sides.size(); ++s)
                        lone_layer(graphs[s], r, std::nullopt, made[s], [&](std::uint64_t to, int left) {
                            return last ? std::int8_t(0) : read[to >> 63][(to & ~kSideBit) * kR + std::size_t(left)];
                        });
                std::swap(read, made);
            }
            std::swap(read, made);
        } else {
            // `made` holds r - 1 whole, and r for the stronger side to move.
            for (int r = 1; r <= kMaxLoneMoves; ++r)
                for (const bool stronger_moves : {true, false})
                    for (std::size_t s = 0; s < sides.size(); ++s)
                        lone_layer(graphs[s], r, stronger_moves, made[s], [&](std::uint64_t to, int left) {
                            return made[to >> 63][(to & ~kSideBit) * kR + std::size_t(left)];
                        });
        }
        for (std::size_t s = 0; s < sides.size(); ++s) {
            Table& t = table(sides[s]);
            t.least_win.assign(graphs[s].ours.size(), kNever);
            t.least_loss.assign(graphs[s].ours.size(), kNever);
            for (std::size_t k = 0; k < graphs[s].ours.size(); ++k)
                for (int r = kMaxLoneMoves; r >= 1; --r) {
                    const std::int8_t v = made[s][k * kR + std::size_t(r)];
                    if (v > 0) t.least_win[k] = std::uint8_t(r);
                    if (v < 0) t.least_loss[k] = std::uint8_t(r);
                }
        }
    }

    template <class Lookup>
    static void lone_layer(const LoneGraph& g, int r, std::optional<bool> stronger_moves, std::vector<std::int8_t>& out,
                           const Lookup& lookup) {
        const std::int64_t n = std::int64_t(g.ours.size());
#pragma omp parallel for schedule(static) if (n > 65536)
        for (std::int64_t k = 0; k < n; ++k) {
            if (!g.valid[std::size_t(k)]) continue;
            const bool ours = g.ours[std::size_t(k)];
            if (stronger_moves && *stronger_moves != ours) continue;
            const int left = ours ? r - 1 : r;
            int best = g.settled[std::size_t(k) * kR + std::size_t(r)];
            const bool none = best == kNone;
            if (none) best = ours ? -1 : 1;  // no move: the side to move has lost
            for (std::uint32_t e = g.first[std::size_t(k)]; e < g.first[std::size_t(k) + 1]; ++e) {
                const int v = left == 0 ? 0 : lookup(g.to[e], left);  // the count's last move did not win
                best = ours ? std::max(best, v) : std::min(best, v);
            }
            out[std::size_t(k) * kR + std::size_t(r)] = std::int8_t(best);
        }
    }

    LoneGraph lone_graph(const std::vector<MaterialSignature>& sides, std::size_t s) const {
        const Table& t = table(sides[s]);
        const std::size_t slots = t.index.size() * (t.both_lone ? 2 : 1);
        LoneGraph g;
        g.valid.assign(slots, 0);
        g.ours.assign(slots, 0);
        g.settled.assign(slots * kR, kNone);
        std::vector<std::vector<std::uint64_t>> to(slots);
#pragma omp parallel for schedule(dynamic, 256) if (t.index.size() > 4096)
        for (std::size_t i = 0; i < t.index.size(); ++i) {
            const Position<V> pos = t.index.unrank(i);
            for (const bool stronger_to_move : {true, false}) {
                const Color stronger = stronger_to_move ? pos.side_to_move : opponent(pos.side_to_move);
                if (!t.both_lone && lone_king_opponent(pos) != stronger) continue;
                const std::size_t k = slot(t, i, stronger_to_move);
                g.valid[k] = 1;
                g.ours[k] = stronger_to_move;
                lone_moves(sides, pos, stronger, &g.settled[k * kR], to[k]);
            }
        }
        flatten(to, g.first, g.to, sides[s]);
        return g;
    }

    // The moves of `pos` (stronger side `stronger`): for each r, the
    // stronger side's best over those that end the game or leave the
    // material into settled[r]; where the others lead into `to`.
    void lone_moves(const std::vector<MaterialSignature>& sides, const Position<V>& pos, Color stronger,
                    std::int8_t* settled, std::vector<std::uint64_t>& to) const {
        const bool ours = pos.side_to_move == stronger;
        const auto add = [&](int r, int v) {
            std::int8_t& best = settled[r];
            best = std::int8_t(best == kNone ? v : ours ? std::max<int>(best, v) : std::min<int>(best, v));
        };
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        for (const Move& m : moves) {
            const Position<V> after = pos.after(m);
            if (game_over(after)) {
                for (int r = 1; r <= kMaxLoneMoves; ++r) add(r, ours ? 1 : -1);
            } else if (m.is_capture() || m.crowns) {
                for (int r = 1; r <= kMaxLoneMoves; ++r) {
                    const int left = ours ? r - 1 : r;
                    if (left == 0) {
                        add(r, 0);  // the count's last move did not win
                        continue;
                    }
                    const int w = entering_wdl(after, Phase{stronger, left, pos});
                    add(r, after.side_to_move == stronger ? w : -w);
                }
            } else {
                const Position<V> n = normalize(after);
                const MaterialSignature sig = signature_of(n);
                const std::uint64_t j = slot(table(sig), table(sig).index.rank(n), after.side_to_move == stronger);
                to.push_back((sig == sides[0] ? 0 : kSideBit) | j);
            }
        }
    }

    // exact_value's search: the state inside one material.
    struct SearchState {
        int a, b, left;  // plies since conversion, plies of kings only, the stronger side's moves left
        friend bool operator==(const SearchState&, const SearchState&) = default;
    };
    struct Search {
        const RuleSolver& solver;
        const Table& t;
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

        // The value at `pos` (of the material of `t`, not over, no count ended).
        int value(const Position<V>& pos, const SearchState& s) {
            const TableCounts& counts = t.counts;
            if (counts.conversion_limit < kNoLimit && s.a >= counts.conversion_limit) return 0;
            if (counts.king_move_limit < kNoLimit && s.b >= counts.king_move_limit) return 0;
            if (const std::optional<int> v = settled(pos, s)) return *v;
            const Key key{pos, s};
            if (const auto it = memo.find(key); it != memo.end()) return it->second;
            MoveList moves;
            MoveGenerator<V>::generate(pos, moves);
            int best = -1;
            for (const Move& m : moves) {
                const Position<V> after = pos.after(m);
                int v;
                const bool stronger_moved = stronger && *stronger == pos.side_to_move;
                const int left = s.left < kNoLimit && stronger_moved ? s.left - 1 : s.left;
                if (game_over(after)) {
                    v = 1;
                } else if (left <= 0) {
                    v = 0;  // the lone-king count's last move did not win
                } else if (m.is_capture() || m.crowns) {
                    std::optional<Phase> phase;
                    if (stronger) phase = Phase{*stronger, left, pos};
                    v = -solver.entering_wdl(after, phase);
                } else {
                    const bool man = (pos.kings & bit(m.from)) == 0;
                    v = -value(after, {s.a + 1, man ? 0 : s.b + 1, left});
                }
                best = std::max(best, v);
                if (best == 1) break;
            }
            memo.emplace(key, best);
            return best;
        }

        // Where the stored values answer: the counts they assume fresh are.
        std::optional<int> settled(const Position<V>& pos, const SearchState& s) const {
            const Position<V> n = normalize(pos);
            const Table& here = solver.table(signature_of(n));  // this side to move's table
            const std::uint64_t i = here.index.rank(n);
            const TableCounts& counts = here.counts;
            if (s.left < kNoLimit) {
                // W assumes the conversion and king-move counts fresh; they
                // cannot end the game first when the lone-king count ends
                // before them.
                const int plies = 2 * s.left;
                const bool a_free = counts.conversion_limit >= kNoLimit || s.a + plies <= counts.conversion_limit;
                const bool b_free = counts.king_move_limit >= kNoLimit || s.b + plies <= counts.king_move_limit;
                if (s.a == 0 && s.b == 0) return lone_wdl(here, i, pos, *stronger, s.left);
                if (a_free && b_free && counts.conversion_limit > 2 * kMaxLoneMoves)
                    return lone_wdl(here, i, pos, *stronger, s.left);
                return std::nullopt;
            }
            const Timed dtc = Timed::unpack(here.dtc[i]);
            if (counts.to_conversion()) {
                if (s.b != 0) return std::nullopt;
                return threshold(dtc, counts.conversion_limit - s.a);
            }
            return threshold(dtc, counts.king_move_limit - s.b);
        }
    };

    std::map<MaterialSignature, Table> tables_;
};

}  // namespace dtb
