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
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

#include "compress/table_file.hpp"
#include "gen/memory_budget.hpp"
#include "gen/slices.hpp"
#include "rules/draw_rules.hpp"
#include "rules/draw_tracker.hpp"
#include "rules/movegen.hpp"
#include "tables/position_index.hpp"
#include "tables/rule_values.hpp"
#include "tables/signatures.hpp"
#include "tables/table_names.hpp"

namespace dtb {

template <class V>
class RuleSolver {
public:
    using Judge = RuleJudge<V, RuleSolver>;
    using Phase = typename Judge::Phase;

    RuleSolver() = default;

    // Solves every table of up to `max_pieces` pieces, in memory.
    explicit RuleSolver(int max_pieces) {
        for (const MaterialSignature& key : solving_order(all_signatures(V::id, max_pieces))) solve_pair(key);
    }

    // Solves the pair of `key` (both sides to move), every table its
    // conversions lead into solved or loaded already.
    void solve_pair(const MaterialSignature& key) {
        std::vector<MaterialSignature> sides{key};
        if (!key.is_symmetric()) sides.push_back(key.mirror());
        for (const MaterialSignature& s : sides) {
            Table t = empty_table(s);
            t.dtc.assign(t.index.size(), Timed::kUnknown);
            tables_.insert_or_assign(s, std::move(t));
        }
        solve_dtc(sides);
        if (table(key).lone) solve_lone(sides);
    }

    // The memory solve_pair(key) takes before its move graphs' edges, with
    // the tables its conversions lead into loaded: every table's values,
    // the pair's lists by level, the king-move count's two layers, and the
    // per-position part of the graphs of the largest level (both sides) or
    // of the lone-king sides. The edges are known only once counted: with
    // a limit set, each graph checks them against it before it stores them.
    static std::uint64_t memory_before_edges(const MaterialSignature& key) {
        std::vector<MaterialSignature> sides{key};
        if (!key.is_symmetric()) sides.push_back(key.mirror());
        std::set<MaterialSignature> tables(sides.begin(), sides.end());
        for (const MaterialSignature& s : sides)
            for (const MaterialSignature& c : successor_signatures(s)) tables.insert(c);
        std::uint64_t values = 0, lists = 0, lone_graphs = 0;
        std::vector<std::uint64_t> level_graphs;
        for (const MaterialSignature& t : tables) {
            const Table e = empty_table(t);
            const std::uint64_t n = e.index.size(), slots = n * (e.both_lone ? 2 : 1);
            values += 2 * n + (e.lone ? 2 * slots : 0);
            if (std::find(sides.begin(), sides.end(), t) == sides.end()) continue;
            lists += 8 * n + (e.counts.king_move_limit < kNoLimit ? 4 * n : 0);
            const SideLevels<V> levels(e.index);
            if (level_graphs.size() < std::size_t(levels.levels())) level_graphs.resize(std::size_t(levels.levels()));
            for (int l = 0; l < levels.levels(); ++l)
                level_graphs[std::size_t(l)] +=
                    levels.placements(l) * e.index.king_ways() * (sizeof(std::uint64_t) + sizeof(TimedChoice) + 4);
            if (e.lone) lone_graphs += slots * (2 + 3 * kR + 4);
        }
        const std::uint64_t graphs =
            level_graphs.empty() ? 0 : *std::max_element(level_graphs.begin(), level_graphs.end());
        return values + lists + std::max(graphs, lone_graphs);
    }

    // The resident memory the solver may reach (0: no limit). A graph whose
    // edges would take it past the limit throws std::runtime_error before
    // they are stored, naming the pair and what it needed.
    void set_memory_limit(std::uint64_t bytes) { memory_limit_ = bytes; }

    // Reads a table written by write() back whole, to solve the tables
    // whose conversions lead into it. Throws std::runtime_error naming the
    // file if it is missing, damaged, or not this signature's .dtc table.
    void load(const std::filesystem::path& dir, const MaterialSignature& sig) {
        const std::filesystem::path path = dir / table_file_name(V::id, sig, compress::Metric::dtc);
        auto whole = compress::read_whole_table(path);
        if (!whole) throw std::runtime_error(whole.error().message);
        const compress::Header& h = whole->header;
        Table t = empty_table(sig);
        if (h.table.metric != compress::Metric::dtc || h.table.variant != file_variant(V::id) ||
            !(h.table.material == file_material(sig)) || h.table.index_scheme != PositionIndex<V>::kVersion ||
            h.position_count != t.index.size())
            throw std::runtime_error(path.string() + ": not the .dtc table of " + sig.name());
        t.dtc.resize(t.index.size());
        if (t.lone) t.least_win.assign(t.index.size() * (t.both_lone ? 2 : 1), kNever), t.least_loss = t.least_win;
        for (std::uint64_t i = 0; i < t.index.size(); ++i) {
            const std::uint16_t symbol = h.symbol_bits == 16 ? whole->words[i] : whole->bytes[i];
            const std::optional<RuleEntry> e = rule_entry(symbol);
            if (!e)
                throw std::runtime_error(path.string() + ": position " + std::to_string(i) + " holds symbol " +
                                         std::to_string(symbol) + ", which no .dtc table holds");
            t.dtc[i] = e->dtc.pack();
            if (!t.lone) continue;
            for (const bool ours : {true, false}) {
                if (!t.both_lone && !ours) continue;
                const RuleEntry o = t.both_lone ? king_against_king_entry(e->dtc, ours) : *e;
                t.least_win[slot(t, i, ours)] = o.least_win;
                t.least_loss[slot(t, i, ours)] = o.least_loss;
            }
        }
        tables_.insert_or_assign(sig, std::move(t));
    }

    // The .dtc symbols of a solved signature (docs/FORMAT.md), and its
    // longest T of a win and of a loss in `d`. King against king stores T
    // alone: its W is derived (king_against_king_entry), checked here
    // against the solved one for every position.
    std::vector<std::uint16_t> symbols(const MaterialSignature& sig, compress::TableDescription& d) const {
        const Table& t = table(sig);
        const std::uint64_t n = t.index.size();
        std::vector<std::uint16_t> out(n);
        d = compress::TableDescription{
            file_variant(V::id), file_material(sig), compress::Metric::dtc, PositionIndex<V>::kVersion, -1, -1};
        for (std::uint64_t i = 0; i < n; ++i) {
            const RuleEntry e = stored_entry(t, i);
            if (t.both_lone)
                for (const bool ours : {true, false})
                    if (!(king_against_king_entry(e.dtc, ours) == entry_of(t, i, ours)))
                        throw std::logic_error("rule solver: " + sig.name() + " position " + std::to_string(i) +
                                               ": W is not T cut at the count's plies");
            try {
                out[i] = rule_symbol(e);
            } catch (const std::range_error& err) {
                throw std::runtime_error("rule solver: " + sig.name() + " position " + std::to_string(i) + ": " +
                                         err.what() + " does not fit a .dtc symbol");
            }
            if (out[i] > 0xFF && !(t.lone && !t.both_lone))
                throw std::logic_error("rule solver: a lone-king field outside a lone-king table");
            if (e.dtc.wdl > 0) d.longest_win = std::max(d.longest_win, e.dtc.plies);
            if (e.dtc.wdl < 0) d.longest_loss = std::max(d.longest_loss, e.dtc.plies);
        }
        return out;
    }

    // Writes the .dtc table of a solved signature into `dir` (atomically):
    // 8-bit symbols, or 16 where the lone-king field is needed.
    compress::Header write(const std::filesystem::path& dir, const MaterialSignature& sig, int threads = 0) const {
        compress::TableDescription d;
        const std::vector<std::uint16_t> words = symbols(sig, d);
        compress::WriterOptions options;
        options.threads = threads;
        const std::filesystem::path path = dir / table_file_name(V::id, sig, compress::Metric::dtc);
        const Table& t = table(sig);
        if (t.lone && !t.both_lone)
            return compress::write_table(path, d, std::span<const std::uint16_t>(words), {}, options);
        const std::vector<std::uint8_t> bytes(words.begin(), words.end());
        return compress::write_table(path, d, std::span<const std::uint8_t>(bytes), {}, options);
    }

    // Drops every table from memory.
    void forget() { tables_.clear(); }

    // With every count fresh at `pos` (not over, side to move has a piece):
    // the rule-aware value for the side to move.
    int fresh_wdl(const Position<V>& pos) const { return Judge(*this).fresh_wdl(pos); }

    // T(pos) for a position of a solved table (docs/VALUES.md).
    Timed dtc(const Position<V>& pos) const {
        const Position<V> n = normalize(pos);
        const Table& t = table(signature_of(n));
        return Timed::unpack(t.dtc[t.index.rank(n)]);
    }

    // The value for the side to move under any counts, exactly
    // (RuleJudge::exact_value).
    int exact_value(const Position<V>& pos, const RuleCounts& c) const { return Judge(*this).exact_value(pos, c); }

    // The store RuleJudge reads: the entry of a normalized position.
    RuleEntry entry(const Position<V>& n, bool stronger_to_move) const {
        const Table& t = table(signature_of(n));
        return entry_of(t, t.index.rank(n), stronger_to_move);
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

    static Table empty_table(const MaterialSignature& s) {
        return Table{s, PositionIndex<V>(s), table_counts<V>(s), lone_king_material(s), both_lone_kings(s), {}, {}, {}};
    }

    static std::size_t slot(const Table& t, std::uint64_t i, bool stronger_to_move) {
        return t.both_lone ? 2 * i + (stronger_to_move ? 0 : 1) : i;
    }

    static RuleEntry entry_of(const Table& t, std::uint64_t i, bool stronger_to_move) {
        RuleEntry e{Timed::unpack(t.dtc[i])};
        if (t.lone) {
            const std::size_t k = slot(t, i, stronger_to_move);
            e.least_win = t.least_win[k];
            e.least_loss = t.least_loss[k];
        }
        return e;
    }

    // What the file stores of position i: king against king without W.
    static RuleEntry stored_entry(const Table& t, std::uint64_t i) {
        return t.both_lone ? RuleEntry{Timed::unpack(t.dtc[i])} : entry_of(t, i, true);
    }

    const Table& table(const MaterialSignature& sig) const {
        const auto it = tables_.find(sig);
        if (it == tables_.end()) throw std::logic_error("rule solver: table " + sig.name() + " not solved");
        return it->second;
    }
    Table& table(const MaterialSignature& sig) { return tables_.at(sig); }

    int entering_wdl(const Position<V>& pos, const std::optional<Phase>& phase) const {
        return Judge(*this).entering_wdl(pos, phase);
    }
    static int threshold(Timed v, int budget) { return Judge::threshold(v, budget); }

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

    // Where the moves the graphs keep lead, gathered without a list per
    // position: a first pass counts each item's edges, a second writes them
    // into one array at their offsets (a list per position and the copy
    // into one array took more than twice the memory at the peak).
    // visit(k, first_pass, sink) reports item k's edges to sink in a fixed
    // order; what else an item holds it computes on the first pass only.
    struct CountEdges {
        static constexpr bool stores = false;
        std::uint32_t edges = 0;
        void operator()(std::uint64_t) { ++edges; }
    };
    struct StoreEdges {
        static constexpr bool stores = true;
        std::uint64_t* next;
        void operator()(std::uint64_t e) { *next++ = e; }
    };
    template <class Visit>
    void gather_edges(std::size_t n, std::vector<std::uint32_t>& first, std::vector<std::uint64_t>& to,
                      const MaterialSignature& sig, const Visit& visit) const {
        first.assign(n + 1, 0);
#pragma omp parallel for schedule(dynamic, 256) if (n > 4096)
        for (std::size_t k = 0; k < n; ++k) {
            CountEdges count;
            visit(k, true, count);
            first[k + 1] = count.edges;
        }
        std::uint64_t edges = 0;
        for (std::size_t k = 0; k <= n; ++k) {
            edges += first[k];
            if (edges > std::numeric_limits<std::uint32_t>::max())
                throw std::length_error("rule solver: " + sig.name() + " has too many moves in one part");
            first[k] = std::uint32_t(edges);
        }
        if (const std::uint64_t need = resident_bytes() + edges * sizeof(std::uint64_t);
            memory_limit_ && need > memory_limit_)
            throw std::runtime_error("the .dtc tables of " + sig.name() +
                                     "'s pair are solved whole in memory and need " + format_bytes(need) +
                                     " at least, more than the " + format_bytes(memory_limit_) +
                                     " allowed (--memory); give more, or build without --dtc");
        to.resize(edges);
#pragma omp parallel for schedule(dynamic, 256) if (n > 4096)
        for (std::size_t k = 0; k < n; ++k) {
            StoreEdges store{to.data() + first[k]};
            visit(k, false, store);
        }
    }

    LevelGraph level_graph(const std::vector<MaterialSignature>& sides, std::size_t s,
                           std::vector<std::uint64_t> positions) const {
        const Table& t = table(sides[s]);
        LevelGraph g;
        g.positions = std::move(positions);
        g.settled.resize(g.positions.size());
        gather_edges(g.positions.size(), g.first, g.king_to, sides[s], [&](std::size_t k, bool first, auto& sink) {
            settle_moves(t, sides, t.index.unrank(g.positions[k]), first ? &g.settled[k] : nullptr, sink);
        });
        return g;
    }

    // The moves of `pos` that leave its level (or end the game) into
    // `*settled` (unless null); where its king moves lead into `king_to`.
    template <class Sink>
    void settle_moves(const Table& t, const std::vector<MaterialSignature>& sides, const Position<V>& pos,
                      TimedChoice* settled, Sink& king_to) const {
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        const std::optional<Color> stronger = t.lone ? lone_king_opponent(pos) : std::nullopt;
        for (const Move& m : moves) {
            const bool king_move = (pos.kings & bit(m.from)) != 0 && !m.is_capture() && !m.crowns;
            if (!settled && !king_move) continue;
            const Position<V> after = pos.after(m);
            if (game_over(after)) {
                if (settled) settled->add({1, 1});
                continue;
            }
            if (m.is_capture() || m.crowns) {
                std::optional<Phase> phase;
                if (stronger) phase = Phase{*stronger, kNoLimit, pos};
                settled->add(Timed{std::int8_t(entering_wdl(after, phase)), 0}.before());
                continue;
            }
            if (king_move && !Sink::stores) {
                king_to(0);
                continue;
            }
            const Position<V> n = normalize(after);
            const MaterialSignature sig = signature_of(n);
            const std::uint64_t j = table(sig).index.rank(n);
            if (king_move) {
                king_to((sig == sides[0] ? 0 : kSideBit) | j);
                continue;
            }
            const Timed next = Timed::unpack(table(sig).dtc[j]);
            if (t.counts.to_conversion())
                settled->add(next.before());
            else  // the man move starts the measured count again: its value is the successor's
                settled->add(Timed{std::int8_t(threshold(next, t.counts.king_move_limit)), 0}.before());
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
        gather_edges(slots, g.first, g.to, sides[s], [&](std::size_t k, bool first, auto& sink) {
            const std::uint64_t i = t.both_lone ? k / 2 : k;
            const Position<V> pos = t.index.unrank(i);
            for (const bool stronger_to_move : {true, false}) {
                if (slot(t, i, stronger_to_move) != k) continue;
                const Color stronger = stronger_to_move ? pos.side_to_move : opponent(pos.side_to_move);
                if (!t.both_lone && lone_king_opponent(pos) != stronger) continue;
                if (first) {
                    g.valid[k] = 1;
                    g.ours[k] = stronger_to_move;
                }
                lone_moves(sides, pos, stronger, first ? &g.settled[k * kR] : nullptr, sink);
            }
        });
        return g;
    }

    // The moves of `pos` (stronger side `stronger`): for each r, the
    // stronger side's best over those that end the game or leave the
    // material into settled[r] (unless null); where the others lead into `to`.
    template <class Sink>
    void lone_moves(const std::vector<MaterialSignature>& sides, const Position<V>& pos, Color stronger,
                    std::int8_t* settled, Sink& to) const {
        const bool ours = pos.side_to_move == stronger;
        const auto add = [&](int r, int v) {
            std::int8_t& best = settled[r];
            best = std::int8_t(best == kNone ? v : ours ? std::max<int>(best, v) : std::min<int>(best, v));
        };
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        for (const Move& m : moves) {
            const bool converts = m.is_capture() || m.crowns;
            if (!settled && converts) continue;
            const Position<V> after = pos.after(m);
            if (game_over(after)) {
                if (settled)
                    for (int r = 1; r <= kMaxLoneMoves; ++r) add(r, ours ? 1 : -1);
            } else if (converts) {
                for (int r = 1; r <= kMaxLoneMoves; ++r) {
                    const int left = ours ? r - 1 : r;
                    if (left == 0) {
                        add(r, 0);  // the count's last move did not win
                        continue;
                    }
                    const int w = entering_wdl(after, Phase{stronger, left, pos});
                    add(r, after.side_to_move == stronger ? w : -w);
                }
            } else if (!Sink::stores) {
                to(0);
            } else {
                const Position<V> n = normalize(after);
                const MaterialSignature sig = signature_of(n);
                const std::uint64_t j = slot(table(sig), table(sig).index.rank(n), after.side_to_move == stronger);
                to((sig == sides[0] ? 0 : kSideBit) | j);
            }
        }
    }

    std::map<MaterialSignature, Table> tables_;
    std::uint64_t memory_limit_ = 0;
};

}  // namespace dtb
