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
// King moves keep the men, so each level is solved in blocks a king move
// never leaves (docs/VALUES.md 5), computing again only what changed.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "compress/table_file.hpp"
#include "gen/bitmap.hpp"
#include "gen/block_window.hpp"
#include "gen/level_file.hpp"
#include "gen/memory_budget.hpp"
#include "gen/parallel_errors.hpp"
#include "gen/slices.hpp"
#include "rules/draw_rules.hpp"
#include "rules/draw_tracker.hpp"
#include "rules/movegen.hpp"
#include "tables/position_index.hpp"
#include "tables/rule_values.hpp"
#include "tables/signatures.hpp"
#include "tables/table_names.hpp"

namespace dtb {

// The zstd level of the .dtc files. Level 12 makes them 5% larger than 15
// (Russian <= 5: 17.9 MB against 17.0) in a quarter of its time, which at
// 15 was a third of the .dtc build; they stay smaller than the .dtw files
// (BENCHMARKS.md).
inline constexpr int kDtcZstdLevel = 12;
// Positions per block of the .dtc files, as the .dtw files: 8 KiB blocks of
// byte symbols. Against the writer's default of 4096, international <= 5's
// .dtc files are 9% smaller (134.4 MB to 121.8 MB, from 1.03 to 0.93 times
// its .dtw files; 16384 would make them 14% smaller), each cache miss
// decompressing twice as much (BENCHMARKS.md).
inline constexpr std::uint32_t kDtcPositionsPerBlock = 8192;

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

    // Solves the pair of `key` (both sides to move) and keeps its values
    // in memory, every table its conversions lead into solved or opened
    // already. A pair whose memory_bound exceeds the limit is refused
    // before anything is allocated.
    void solve_pair(const MaterialSignature& key) {
        check_memory(key, true);
        const std::vector<MaterialSignature> sides = sides_of(key);
        for (const MaterialSignature& s : sides) {
            Table t = empty_table(s);
            t.dtc.assign(t.index.size(), Timed::kUnknown);
            if (t.lone) t.least_win.assign(t.index.size() * slots_per_position(t), kNever);
            t.least_loss = t.least_win;
            tables_.insert_or_assign(s, std::move(t));
        }
        const Table& first = table(key);
        const bool lone_after = lone_after_levels(first);
        const PairLevels levels(sides);
        std::optional<LevelValues> above;
        bool count_binds = false;
        for (int level = levels.count() - 1; level >= 0; --level) {
            LevelValues here =
                solve_level(sides, levels, level, above ? &*above : nullptr, first.lone && !lone_after, count_binds);
            keep(sides, here, first.lone && !lone_after);
            above = std::move(here);
        }
        if (!lone_after) return;
        if (first.counts.conversion_limit <= 2 * kMaxLoneMoves) {
            solve_lone_timed(sides);
        } else {
            LoneScratch w;
            for (int level = levels.count() - 1; level >= 0; --level)
                levels.for_each_block(level, block_positions_, [&](const Block& b) {
                    solve_lone_block(sides, b, w, nullptr, false);
                    store_lone(sides, b, w);
                });
        }
    }

    // Solves the pair of `key` level by level and writes its .dtc files
    // into `dir` (atomically). Each solved level goes to a scratch file
    // (gen/level_file.hpp) in dir/.dtb-work/VARIANT-PAIR.dtc/, and only the
    // level being solved and the one above are in memory; a run that stops
    // goes on from the last level written. A pair that solve_pair must keep
    // whole (a lone-king count solved over the whole pair: king against
    // king, or 2.1.9.1.5 ending the game sooner), or smaller than
    // set_whole_below, is solved in memory instead. `progress` hears
    // "level N" before each level is solved.
    std::vector<compress::Header> build_pair(const MaterialSignature& key, const std::filesystem::path& dir,
                                             int threads = 0,
                                             const std::function<void(const std::string&)>& progress = {}) {
        const std::vector<MaterialSignature> sides = sides_of(key);
        std::vector<compress::Header> headers;
        if (solved_whole(key)) {
            solve_pair(key);
            for (const MaterialSignature& s : sides) headers.push_back(write(dir, s, threads));
            for (const MaterialSignature& s : sides) tables_.erase(s);
            return headers;
        }
        check_memory(key, false);
        const std::filesystem::path work = dtc_work_dir(dir, key);
        std::filesystem::create_directories(work);
        start_solving(sides);
        const PairLevels levels(sides);
        const Table& first = table(key);
        // Levels an earlier run wrote (from the top down) are not solved
        // again; the lowest of them is read back as the level above.
        int level = levels.count() - 1;
        while (level >= 0 && level_done(key, levels, work, level)) --level;
        std::optional<LevelValues> above;
        if (level >= 0 && level + 1 < levels.count()) above = read_level(levels, work, level + 1, first.lone);
        bool count_binds = false;
        for (; level >= 0; --level) {
            if (progress) progress("level " + std::to_string(level));
            LevelValues here = solve_level(sides, levels, level, above ? &*above : nullptr, first.lone, count_binds);
            if (here.size() != 0) write_level(level_file_path(work, level), key, here);
            above = std::move(here);
        }
        above.reset();
        if (progress) progress("writing");
        for (std::size_t s = 0; s < sides.size(); ++s)
            headers.push_back(write_from_levels(dir, work, sides, levels, s, threads));
        std::error_code left;  // left behind if it cannot be removed: a later run checks what it holds
        std::filesystem::remove_all(work, left);
        solving_.clear();
        return headers;
    }

    // Solves the pair of `key` level by level without keeping it, calling
    // check(side, first, count, symbol) for runs of positions of each level
    // solved: symbol(j) is the .dtc symbol (rule_symbol) of position
    // first + j of sides_of(key)[side], kLevelCapture set where the side to
    // move must capture. Called from several threads at once. For a pair
    // that solved_whole(key), use solve_pair and symbols instead.
    template <class Check>
    void solve_levels(const MaterialSignature& key, Check&& check) {
        check_memory(key, false);
        const std::vector<MaterialSignature> sides = sides_of(key);
        start_solving(sides);
        const PairLevels levels(sides);
        const bool lone = has_lone_values<V>(key);
        std::optional<LevelValues> above;
        bool count_binds = false;
        for (int level = levels.count() - 1; level >= 0; --level) {
            LevelValues here = solve_level(sides, levels, level, above ? &*above : nullptr, lone, count_binds);
            for (std::size_t s = 0; s < sides.size(); ++s) {
                // Runs of at most kRun positions of one men placement.
                constexpr std::uint64_t kRun = std::uint64_t{1} << 16;
                const std::uint64_t k = here.king_ways, runs = (k + kRun - 1) / kRun;
                std::vector<std::uint64_t> ranks;
                here.members[s].for_each([&](std::uint64_t r) { ranks.push_back(r); });
#pragma omp parallel for schedule(dynamic, 16)
                for (std::uint64_t x = 0; x < ranks.size() * runs; ++x) {
                    const std::uint64_t first = ranks[x / runs] * k + x % runs * kRun;
                    const std::uint64_t at = here.at(s, first);
                    check(s, first, std::min(kRun, k - x % runs * kRun),
                          [&](std::uint64_t j) { return here.symbol(at + j); });
                }
            }
            above = std::move(here);
        }
        solving_.clear();
    }

    // Whether build_pair solves the pair of `key` whole in memory.
    bool solved_whole(const MaterialSignature& key) const {
        const Table t = empty_table(key);
        const std::uint64_t positions = t.index.size() * (key.is_symmetric() ? 1 : 2);
        return lone_after_levels(t) || positions < whole_below_;
    }

    // Pairs of fewer positions are solved whole in memory by build_pair
    // (kDtcWholeBelow: their levels' scratch files cost more than they save).
    void set_whole_below(std::uint64_t positions) { whole_below_ = positions; }

    // The sides of the pair of `key`: key, and its mirror unless symmetric.
    static std::vector<MaterialSignature> sides_of(const MaterialSignature& key) {
        std::vector<MaterialSignature> sides{key};
        if (!key.is_symmetric()) sides.push_back(key.mirror());
        return sides;
    }

    // The memory solving the pair of `key` needs: in memory (solve_pair),
    // the pair's values (2 bytes a position, and 2 more a slot where a
    // lone-king count runs); by levels (build_pair, solve_levels) or in
    // memory, two levels (a byte and a bit a position, a byte more where a
    // lone-king count runs). Besides, each thread's window on the tables it
    // converts into, and the scratch of the largest block: T's exits,
    // values, next layer and king moves left (a byte each; the values are
    // the level's own where one block is the whole level), where
    // solve_dtc_unbound runs its plies (a byte), five bitmaps (six there),
    // and (found in the same pass) W's exits, king moves (of the position
    // and of the slot still to be answered) and least r (a byte each) and
    // four bitmaps.
    std::uint64_t memory_bound(const MaterialSignature& key, bool whole) const {
        const std::vector<MaterialSignature> sides = sides_of(key);
        std::uint64_t values =
            std::uint64_t(omp_get_max_threads()) * ((std::uint64_t{32} << 20) + kRemembered * sizeof(Remembered));
        const Table first = empty_table(key);
        const PairLevels levels(sides);
        if (whole)
            for (const MaterialSignature& t : sides) {
                const Table e = empty_table(t);
                values += 2 * e.index.size() + (e.lone ? 2 * e.index.size() * slots_per_position(e) : 0);
            }
        std::uint64_t most = 0;
        for (int l = 0; l < levels.count(); ++l) most = std::max(most, levels.positions(l) + levels.positions(l + 1));
        values += most * (first.lone ? 2 : 1) + most / 8 + 2 * sides.size() * (first.index.men_count() / 4 + 64);
        // The generator's level read whole (set_exact_levels), where a level
        // is not solved in place: two bits a position.
        std::uint64_t exact = 0;
        for (int l = 0; l < levels.count(); ++l)
            if (!levels.one_block(l)) exact = std::max(exact, levels.positions(l) / 4 + 8);
        values += exact;
        values += levels.bytes();
        if (first.lone && first.counts.conversion_limit <= 2 * kMaxLoneMoves) {
            const std::uint64_t slots = first.index.size() * sides.size() * slots_per_position(first);
            return values + slots * (3 * kR + 2);
        }
        const std::uint64_t block = levels.largest_block(block_positions_);
        // The king moves left, and where the layers are solved (a count
        // that starts again at a capture or crowning binds) the next layer
        // and solve_dtc_unbound's plies.
        const bool unbound = first.counts.king_move_limit < kNoLimit && first.counts.to_conversion();
        const int layer_bytes = first.counts.king_move_limit >= kNoLimit ? 0 : unbound ? 3 : 1;
        const std::uint64_t dtc =
            block * (1 + std::uint64_t(layer_bytes) + (levels.one_block(levels.count() - 1) ? 0 : 1)) +
            block * (unbound ? 6 : 5) / 8;
        const std::uint64_t lone = first.lone ? block * slots_per_position(first) * 6 : 0;
        return values + dtc + lone;
    }
    // As the solver would solve it: whole when solve_pair keeps it, else
    // as build_pair does.
    std::uint64_t memory_bound(const MaterialSignature& key) const { return memory_bound(key, solved_whole(key)); }

    // The generator's levels of the pair solved next (exact_levels_dir, as
    // dtb gen --dtc keeps them), or empty: none. A position they hold drawn
    // is drawn under every count too (a count only ends a game drawn, so
    // what the loser can hold without the counts it holds with them), and
    // its exits are not looked up. A level file that is missing, damaged or
    // not the pair's is not read: its positions are solved in full.
    void set_exact_levels(std::filesystem::path dir) { exact_levels_ = std::move(dir); }

    // Positions of a level solved at once (at least a men placement and its
    // partner, which king moves connect).
    void set_block_positions(std::uint64_t positions) { block_positions_ = std::max<std::uint64_t>(positions, 1); }

    // The resident memory the solver may reach (0: no limit): a pair whose
    // memory_bound would take it past the limit is refused before it starts.
    void set_memory_limit(std::uint64_t bytes) { memory_limit_ = bytes; }

    // Opens the .dtc files of `signatures` in `dir` for reading, to solve
    // the tables whose conversions lead into them: nothing is loaded whole,
    // each thread reads through its own window of blocks. Positions where
    // the side to move must capture are not stored (docs/FORMAT.md); their
    // entries come from their captures (RuleJudge::capture_entry), so the
    // tables those lead into must be open too (conversion_closure). Throws
    // std::runtime_error naming a file that is missing, damaged, or not
    // that signature's .dtc table.
    void open_files(const std::filesystem::path& dir, const std::vector<MaterialSignature>& signatures) {
        auto files = std::make_unique<Files>();
        for (const MaterialSignature& sig : signatures) {
            const std::filesystem::path path = dir / table_file_name(V::id, sig, compress::Metric::dtc);
            if (!std::filesystem::exists(path)) throw std::runtime_error("table " + path.string() + " is missing");
            auto file = compress::TableFile::open(path, nullptr);
            if (!file) throw std::runtime_error(file.error().message);
            const compress::Header& h = (*file)->header();
            Table t = empty_table(sig);
            if (h.table.metric != compress::Metric::dtc || h.table.variant != file_variant(V::id) ||
                !(h.table.material == file_material(sig)) || h.table.index_scheme != PositionIndex<V>::kVersion ||
                h.position_count != t.index.size())
                throw std::runtime_error(path.string() + ": not the .dtc table of " + sig.name());
            const File& opened = files->tables.emplace(sig, File{std::move(t), std::move(*file)}).first->second;
            if (const std::optional<std::size_t> k = Files::key(sig)) files->by_key[*k] = &opened;
        }
        files->readers.resize(std::size_t(omp_get_max_threads()));
        files_ = std::move(files);
    }

    // The tables a pair's conversions lead into, and theirs, down to the
    // smallest: what open_files needs for the pair of `key`.
    static std::vector<MaterialSignature> conversion_closure(const MaterialSignature& key) {
        std::set<MaterialSignature> pair{key, key.mirror()}, seen;
        std::vector<MaterialSignature> todo{key, key.mirror()};
        while (!todo.empty()) {
            const MaterialSignature s = todo.back();
            todo.pop_back();
            for (const MaterialSignature& c : successor_signatures(s))
                if (!pair.count(c) && seen.insert(c).second) todo.push_back(c);
        }
        return {seen.begin(), seen.end()};
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
        options.zstd_level = kDtcZstdLevel;
        options.positions_per_block = kDtcPositionsPerBlock;
        const std::filesystem::path path = dir / table_file_name(V::id, sig, compress::Metric::dtc);
        const Table& t = table(sig);
        // Capture positions are worked out by the reader (RuleJudge::capture_entry).
        d.flags = compress::kFlagCapturesNotStored;
        const std::vector<std::uint8_t> captures = capture_positions(t.index);
        const compress::DontCare dont_care = compress::DontCare::bytes(captures);
        if (t.lone && !t.both_lone)
            return compress::write_table(path, d, std::span<const std::uint16_t>(words), dont_care, options);
        const std::vector<std::uint8_t> bytes(words.begin(), words.end());
        return compress::write_table(path, d, std::span<const std::uint8_t>(bytes), dont_care, options);
    }

    // 1 where the side to move of position i must capture, per position.
    static std::vector<std::uint8_t> capture_positions(const PositionIndex<V>& index) {
        std::vector<std::uint8_t> out(index.size());
#pragma omp parallel
        {
            typename PositionIndex<V>::Cursor cursor(index);
#pragma omp for schedule(static)
            for (std::uint64_t i = 0; i < out.size(); ++i) out[i] = MoveGenerator<V>::has_capture(cursor.at(i));
        }
        return out;
    }
    static std::vector<std::uint8_t> capture_positions(const MaterialSignature& sig) {
        return capture_positions(PositionIndex<V>(sig));
    }

    // Drops every table from memory, and closes the files.
    void forget() {
        tables_.clear();
        solving_.clear();
        files_.reset();
    }

    // With every count fresh at `pos` (not over, side to move has a piece):
    // the rule-aware value for the side to move.
    int fresh_wdl(const Position<V>& pos) const { return Judge(*this).fresh_wdl(pos); }

    // DTC(pos) for a position of a solved table (RuleJudge::fresh_dtc:
    // the stored T, or searched where a lone-king count starts at pos).
    Timed dtc(const Position<V>& pos) const { return Judge(*this).fresh_dtc(pos); }
    // Whether the side to move wins with a DTC of at most `plies` (RuleJudge::fresh_win_within).
    bool win_within(const Position<V>& pos, int plies) const { return Judge(*this).fresh_win_within(pos, plies); }

    // The value for the side to move under any counts, exactly
    // (RuleJudge::exact_value).
    int exact_value(const Position<V>& pos, const RuleCounts& c) const { return Judge(*this).exact_value(pos, c); }

    // The store RuleJudge reads: the entry of a normalized position.
    RuleEntry entry(const Position<V>& n, bool stronger_to_move) const {
        const MaterialSignature sig = signature_of(n);
        if (const auto it = tables_.find(sig); it != tables_.end())
            return entry_of(it->second, it->second.index.rank(n), stronger_to_move);
        if (files_)
            if (const File* f = files_->find(sig)) return file_entry(*f, n, stronger_to_move);
        throw std::logic_error("rule solver: table " + sig.name() + " not solved");
    }

private:
    struct Table {
        MaterialSignature sig;
        PositionIndex<V> index;
        TableCounts counts;
        bool lone_material = false;  // a lone king against pieces
        bool lone = false;           // W is solved: has_lone_values
        bool both_lone = false;      // king against king: either side may be the stronger
        std::vector<std::int16_t> dtc;
        std::vector<std::uint8_t> least_win, least_loss;  // lone-king tables: per position and orientation
    };

    // A table read from its file, and each thread's window and the capture
    // positions' entries it worked out last (neighbouring positions of a
    // level lead to the same ones again and again).
    struct File {
        Table table;  // its index and counts; no values
        std::unique_ptr<compress::TableFile> file;
    };
    struct Remembered {
        Bitboard white = 0, black = 0, kings = 0;
        int orientation = -1;  // stronger_to_move; -1: empty
        RuleEntry entry;
    };
    static constexpr std::size_t kRemembered = 1 << 14;
    struct Reader {
        BlockWindow window{std::size_t{32} << 20, 16 << 10};
        std::vector<Remembered> remembered = std::vector<Remembered>(kRemembered);
    };
    struct Files {
        std::map<MaterialSignature, File> tables;
        mutable std::vector<Reader> readers;  // one per OpenMP thread
        // The tables again, by their counts packed in 16 bits: every
        // conversion of a pair looks one up, and the map's comparisons of
        // signatures were 2% of a build's time.
        std::vector<const File*> by_key = std::vector<const File*>(std::size_t{1} << 16, nullptr);
        static std::optional<std::size_t> key(const MaterialSignature& s) {
            for (const int c : {s.men[0], s.men[1], s.kings[0], s.kings[1]})
                if (c < 0 || c > 15) return std::nullopt;
            return std::size_t(s.men[0]) | std::size_t(s.men[1]) << 4 | std::size_t(s.kings[0]) << 8 |
                   std::size_t(s.kings[1]) << 12;
        }
        const File* find(const MaterialSignature& s) const {
            if (const std::optional<std::size_t> k = key(s)) return by_key[*k];
            const auto it = tables.find(s);
            return it == tables.end() ? nullptr : &it->second;
        }
    };

    RuleEntry file_entry(const File& f, const Position<V>& n, bool stronger_to_move) const {
        Reader& reader = files_->readers.at(std::size_t(omp_get_thread_num()));
        if (Gen::has_capture(n)) {
            const std::uint64_t h = (n.pieces[White] * 0x9E3779B97F4A7C15ULL) ^
                                    (n.pieces[Black] * 0xC2B2AE3D27D4EB4FULL) ^ (n.kings * 0x165667B19E3779F9ULL);
            Remembered& slot = reader.remembered[(h ^ (h >> 31) ^ std::uint64_t(stronger_to_move)) & (kRemembered - 1)];
            if (slot.white == n.pieces[White] && slot.black == n.pieces[Black] && slot.kings == n.kings &&
                slot.orientation == int(stronger_to_move))
                return slot.entry;
            const RuleEntry e = Judge(*this).capture_entry(n, stronger_to_move);
            slot = Remembered{n.pieces[White], n.pieces[Black], n.kings, int(stronger_to_move), e};
            return e;
        }
        const std::uint64_t i = f.table.index.rank(n);
        const std::uint16_t symbol = reader.window.read(*f.file, i);
        const std::optional<RuleEntry> e = rule_entry(symbol);
        if (!e)
            throw std::runtime_error(f.file->path().string() + ": position " + std::to_string(i) + " holds symbol " +
                                     std::to_string(symbol) + ", which no .dtc table holds");
        return f.table.both_lone ? king_against_king_entry(e->dtc, stronger_to_move) : *e;
    }

    static Table empty_table(const MaterialSignature& s) {
        return Table{s,
                     PositionIndex<V>(s),
                     table_counts<V>(s),
                     lone_king_material(s),
                     has_lone_values<V>(s),
                     both_lone_kings(s),
                     {},
                     {},
                     {}};
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

    // A table of the solver: solved and kept, or (without values) of the
    // pair being solved by levels.
    const Table& table(const MaterialSignature& sig) const {
        if (const auto it = tables_.find(sig); it != tables_.end()) return it->second;
        if (const auto it = solving_.find(sig); it != solving_.end()) return it->second;
        throw std::logic_error("rule solver: table " + sig.name() + " not solved");
    }
    Table& table(const MaterialSignature& sig) {
        const auto it = tables_.find(sig);
        return it != tables_.end() ? it->second : solving_.at(sig);
    }

    // Whether the pair's lone-king counts are solved after its T, over the
    // whole pair (which solve_pair alone does): king against king, whose
    // values hold both orientations, or where 2.1.9.1.5 ends the game
    // sooner than a lone-king count could (solve_lone_timed).
    static bool lone_after_levels(const Table& t) {
        return t.lone && (t.both_lone || t.counts.conversion_limit <= 2 * kMaxLoneMoves);
    }

    // The pair about to be solved by levels: its tables without values.
    void start_solving(const std::vector<MaterialSignature>& sides) {
        solving_.clear();
        for (const MaterialSignature& s : sides) solving_.insert_or_assign(s, empty_table(s));
    }

    void check_memory(const MaterialSignature& key, bool whole) const {
        if (const std::uint64_t need = memory_bound(key, whole); memory_limit_ && need > memory_limit_)
            throw std::runtime_error("the .dtc tables of " + key.name() + "'s pair need " + format_bytes(need) +
                                     ", more than the " + format_bytes(memory_limit_) +
                                     " allowed (--memory); give more, or build without --dtc");
    }

    std::filesystem::path dtc_work_dir(const std::filesystem::path& dir, const MaterialSignature& key) const {
        std::filesystem::path work = pair_work_dir(dir, V::id, key);
        return work.replace_filename(work.filename().string() + ".dtc");
    }

    int entering_wdl(const Position<V>& pos, const std::optional<Phase>& phase) const {
        return Judge(*this).entering_wdl(pos, phase);
    }
    static int threshold(Timed v, int budget) { return Judge::threshold(v, budget); }

    // ---- Blocks: the positions king moves connect ---------------------

    using Index = PositionIndex<V>;
    using Gen = MoveGenerator<V>;
    static constexpr std::uint64_t kNowhere = ~std::uint64_t{0};
    // Below this many positions a block's loops run on one thread.
    static constexpr std::uint64_t kParallelPositions = std::uint64_t{1} << 14;
    // Of the positions the generator's level holds drawn, one in this many
    // has the level's capture bit checked against the position (every
    // other position read there is checked): a level of another pair or
    // build disagrees at many.
    static constexpr std::uint64_t kCheckEvery = 64;

    // A block (docs/VALUES.md 5): positions that king moves connect, as
    // parts of equal size. A men-placement part is one men placement of a
    // side with every placement of the kings; its partner is the placement
    // a king move turns it into (the same men seen from the other side), so
    // a king move never leaves a part and its partner. A level's block is
    // every part of the level; a man move leads to the level above, a
    // capture or crowning to another table. Where the plies since the
    // material stood are part of the state (solve_lone_timed), the block is
    // the whole pair: one part a side.
    struct Part {
        std::size_t side = 0;    // into `sides`
        std::uint64_t base = 0;  // global index of its first position
        std::uint64_t size = 0;
        std::uint64_t offset = 0;        // local id of its first position
        typename Index::MenFrame men{};  // a men-placement part's men
        std::size_t partner = 0;         // a men-placement part's partner
    };
    struct Block {
        std::vector<Part> parts;
        std::uint64_t part_size = 0;  // every part's size; 0 for the whole pair
        bool whole() const { return part_size == 0; }
        std::uint64_t size() const { return parts.empty() ? 0 : parts.back().offset + parts.back().size; }
        std::size_t part_of(std::uint64_t l) const {
            if (!whole()) return std::size_t(l / part_size);
            return parts.size() > 1 && l >= parts[1].offset ? 1 : 0;
        }
        std::uint64_t local(std::size_t side, std::uint64_t j) const {
            for (const Part& p : parts)
                if (p.side == side && j >= p.base && j - p.base < p.size) return p.offset + j - p.base;
            return kNowhere;
        }
    };

    // One cursor per side, for one thread.
    class Cursors {
    public:
        Cursors(const RuleSolver& solver, const std::vector<MaterialSignature>& sides) {
            for (const MaterialSignature& s : sides) cursors_.emplace_back(solver.table(s).index);
        }
        Position<V> at(const Block& b, std::uint64_t l) {
            const Part& p = b.parts[b.part_of(l)];
            return cursors_[p.side].at(p.base + (l - p.offset));
        }

    private:
        std::vector<typename Index::Cursor> cursors_;
    };

    std::size_t side_of(const std::vector<MaterialSignature>& sides, const MaterialSignature& sig) const {
        return sig == sides[0] ? 0 : 1;
    }

    // Calls f(local id) for each king move of `pos` (in part k of a level's
    // block, no capture): the successor's index differs only in its kings,
    // so its men frame is the partner part's.
    template <class F>
    void for_each_king_successor(const std::vector<MaterialSignature>& sides, const Block& b, std::size_t k,
                                 const Position<V>& pos, F&& f) const {
        const Part& to = b.parts[b.parts[k].partner];
        const Index& index = table(sides[to.side]).index;
        // Seen from the other side: White's kings become Black's.
        const Bitboard their_kings = rotate_half_turn<typename V::Board>(pos.kings_of(Black));
        const Bitboard ours = pos.kings_of(White);
        Gen::all_king_moves(pos, [&](int from, Bitboard to_square) {
            const Bitboard moved = rotate_half_turn<typename V::Board>((ours ^ bit(from)) | to_square);
            f(to.offset + index.rank(to.men, their_kings, moved) - to.base);
            return true;
        });
    }

    // Calls f(local id) for each position of a level's block from which a
    // king move leads to local id l (whether that move was legal, the side
    // to move having no capture, is left to the caller).
    template <class F>
    void for_each_king_predecessor(const std::vector<MaterialSignature>& sides, const Block& b, std::uint64_t l,
                                   Cursors& cursors, F&& f) const {
        const Part& from = b.parts[b.parts[b.part_of(l)].partner];
        const Index& index = table(sides[from.side]).index;
        const Position<V> after = flip(cursors.at(b, l));  // the predecessor's move made, Black to move
        const Bitboard empty = after.empty(), kings = after.kings_of(White);
        const auto frame = index.king_frame(from.men, after.kings_of(Black));
        const Bitboard placed = extract_bits(kings, frame.squares);
        for (int king : bits_of{kings}) {
            const Bitboard without = placed ^ extract_bits(bit(king), frame.squares);
            for (Direction d : kAllDirections)
                for (Bitboard sq = V::Board::shift(bit(king), d); sq & empty; sq = V::Board::shift(sq, d))
                    f(from.offset + frame.base + colex_rank(without | extract_bits(sq, frame.squares)) - from.base);
        }
    }

    // T in a byte, as the .dtc symbol's low byte holds it (rule_symbol): 0
    // a draw, 2t - 1 a win in t plies, 2t + 2 a loss in t. The solver's
    // scratch holds T so, a third of the packed values' memory; the order of
    // the value rule and the step one ply back are looked up.
    using Code = std::uint8_t;
    static constexpr Code kDrawCode = 0, kWinNowCode = 1, kLostNowCode = 2, kLossInOneCode = 4;
    static constexpr Code win_code(int plies) { return Code(2 * plies - 1); }
    static constexpr Code loss_code(int plies) { return Code(2 * plies + 2); }
    static constexpr bool is_loss_code(Code c) { return c != kDrawCode && c % 2 == 0; }
    static constexpr bool is_win_code(Code c) { return c % 2 == 1; }
    struct CodeTables {
        std::array<int, 256> order{};          // order_key of the value
        std::array<std::int16_t, 256> back{};  // the code of before(), or -1 where it does not fit
        CodeTables() {
            for (int c = 0; c < 256; ++c) {
                const Timed t = rule_entry(std::uint16_t(c))->dtc;
                order[std::size_t(c)] = order_key(t.pack());
                back[std::size_t(c)] = code_or_none(t.before());
            }
        }
    };
    static inline const CodeTables kCodes{};
    // The code of t, or -1 where it does not fit a byte.
    static int code_or_none(Timed t) {
        if (t.wdl > 0) return t.plies >= 1 && t.plies <= 128 ? 2 * t.plies - 1 : -1;
        if (t.wdl < 0) return t.plies <= 126 ? 2 * t.plies + 2 : -1;
        return kDrawCode;
    }
    static Code better_code(Code a, Code b) { return kCodes.order[a] >= kCodes.order[b] ? a : b; }
    // A position's value from its exits alone, before its king moves are
    // looked at: with a king move it does no worse than a draw.
    static Code value_before_king_moves(Code exits, int king_moves) {
        return king_moves ? better_code(exits, kDrawCode) : exits;
    }

    // A solved level of a pair, in the order of its scratch file
    // (gen/level_file.hpp): side 0's men placements in men rank order, then
    // side 1's. Each position's .dtc symbol (rule_symbol) is kept in parts:
    // T's byte, the lone-king field's (lone-king tables only), and whether
    // the side to move must capture (kLevelCapture in the file).
    struct LevelValues {
        std::uint64_t king_ways = 0;
        std::vector<RankedBitmap> members;  // per side: the men ranks of the level
        std::vector<std::uint64_t> base;    // per side: where its positions start
        std::vector<Code> dtc;
        std::vector<std::uint8_t> lone;
        Bitmap captures;
        std::uint64_t size() const { return dtc.size(); }
        std::uint64_t at(std::size_t s, std::uint64_t i) const {
            return base[s] + members[s].rank(i / king_ways) * king_ways + i % king_ways;
        }
        std::uint16_t symbol(std::uint64_t j) const {
            return std::uint16_t(dtc[j] | (lone.empty() ? 0 : lone[j] << 8) | (captures.test(j) ? kLevelCapture : 0));
        }
        void set_symbol(std::uint64_t j, std::uint16_t symbol) {
            dtc[j] = Code(symbol & 0xFF);
            if (!lone.empty()) lone[j] = std::uint8_t((symbol >> 8) & 0x3F);
            if (symbol & kLevelCapture) captures.set(j);
        }
    };

    // The generator's level being solved (set_exact_levels): each
    // position's value without the counts and whether it has a capture (to
    // check the file against the positions). Where the level is one block
    // in its own order (a pair without men, solved in place) each thread
    // reads the file as it goes; else the level is read whole first, as two
    // bits a position in its order (a block's parts stand far apart in it).
    struct ExactLevel {
        ExactLevel() = default;
        bool known = false;
        std::unique_ptr<compress::TableFile> in_order;  // the file, read as the block goes
        Bitmap drawn, captures;                         // else: the level read whole
        const LevelValues* level = nullptr;             // where each position stands
        std::filesystem::path path;
    };
    class ExactReader {
    public:
        explicit ExactReader(const ExactLevel& exact) : exact_(exact), reader_(exact.in_order.get()) {}
        // Where local id l of `b` stands in the level, when it is known.
        std::optional<std::uint64_t> at(const Block& b, std::uint64_t l) const {
            if (!exact_.known) return std::nullopt;
            if (exact_.in_order) return l;
            const Part& p = b.parts[b.part_of(l)];
            return exact_.level->at(p.side, p.base + (l - p.offset));
        }
        // What the level holds of the position at `at`.
        struct Known {
            bool drawn = false;
            bool capture = false;  // the side to move must capture
        };
        Known read(std::uint64_t at) {
            if (exact_.in_order) {
                const std::uint16_t symbol = reader_.read(at);
                return {level_value(symbol) == kDraw, level_capture(symbol)};
            }
            return {exact_.drawn.test(at), exact_.captures.test(at)};
        }
        // Throws where the level disagrees with the position about a
        // capture (a level of another build).
        void check(const Known& known, bool capture) const {
            if (known.capture != capture)
                throw std::runtime_error("rule solver: " + exact_.path.string() +
                                         " does not match its pair (a capture where it has none, or none where it "
                                         "has one): remove it and build again");
        }

    private:
        const ExactLevel& exact_;
        LevelReader reader_;
    };

    // The levels of a pair (gen/slices.hpp) and their blocks: a level is
    // solved a block at a time, each block some men placements of the first
    // side with their partners (of the same side for a symmetric pair, each
    // part once), as many as make up `block_positions`.
    class PairLevels {
    public:
        explicit PairLevels(const std::vector<MaterialSignature>& sides) {
            for (const MaterialSignature& s : sides) indexes_.emplace_back(s);
            for (const Index& index : indexes_) levels_.emplace_back(index);
            if (indexes_.back().king_ways() != indexes_[0].king_ways())
                throw std::logic_error("rule solver: the sides of a pair place their kings apart");
        }
        int count() const { return levels_[0].levels(); }
        const SideLevels<V>& side(std::size_t s) const { return levels_[s]; }
        std::uint64_t king_ways() const { return indexes_[0].king_ways(); }
        std::uint64_t positions(int level) const {
            if (level >= count()) return 0;
            std::uint64_t n = 0;
            for (const SideLevels<V>& l : levels_) n += l.placements(level) * king_ways();
            return n;
        }
        std::uint64_t bytes() const {
            std::uint64_t n = 0;
            for (const SideLevels<V>& l : levels_) n += l.bytes();
            return n;
        }
        // The most positions a block holds: it takes parts until it has
        // `block_positions`, so at most a part and its partner more.
        std::uint64_t largest_block(std::uint64_t block_positions) const {
            std::uint64_t most = 0;
            for (int l = 0; l < count(); ++l) most = std::max(most, positions(l));
            return std::min(most, block_positions - 1 + 2 * king_ways());
        }

        // A level's values, every symbol 0, each side's placements in men
        // rank order (the order of its scratch file).
        LevelValues make(int level, bool lone) const {
            LevelValues v;
            v.king_ways = king_ways();
            std::uint64_t base = 0;
            for (const SideLevels<V>& l : levels_) {
                v.members.push_back(l.members(level));
                v.base.push_back(base);
                base += v.members.back().count() * king_ways();
            }
            v.dtc.assign(base, kDrawCode);
            if (lone) v.lone.assign(base, 0);
            v.captures = Bitmap(base);
            return v;
        }

        // Whether a level is one block whose order is the level's own: one
        // men placement a side (a pair without men), so that the block's T
        // is solved in place in the level's values.
        bool one_block(int level) const { return count() == 1 && level == 0 && levels_[0].placements(0) == 1; }

        // Calls solve(block) for the blocks of `level`.
        template <class Solve>
        void for_each_block(int level, std::uint64_t block_positions, const Solve& solve) const {
            const Index& first = indexes_[0];
            const std::size_t other = indexes_.size() - 1;
            const Index& second = indexes_[other];
            const std::uint64_t k = king_ways();
            typename Index::Cursor cursor(first);
            Block b;
            b.part_size = k;
            levels_[0].members(level).for_each([&](std::uint64_t r) {
                const Position<V> pos = cursor.at(r * k);
                const Position<V> seen = flip(pos);
                const std::uint64_t partner = second.men_rank(seen);
                if (other == 0 && partner < r) return;  // a part already, as the partner of another
                const std::size_t i = b.parts.size();
                b.parts.push_back({0, r * k, k, i * k, first.men_frame(pos), i});
                if (!(other == 0 && partner == r)) {
                    b.parts[i].partner = i + 1;
                    b.parts.push_back({other, partner * k, k, (i + 1) * k, second.men_frame(seen), i});
                }
                if (b.size() >= block_positions) {
                    solve(b);
                    b.parts.clear();
                }
            });
            if (!b.parts.empty()) solve(b);
        }

    private:
        std::vector<Index> indexes_;
        std::vector<SideLevels<V>> levels_;
    };

    // A solved level into the pair's tables (solve_pair).
    void keep(const std::vector<MaterialSignature>& sides, const LevelValues& here, bool with_lone) {
        const std::uint64_t k = here.king_ways;
        for (std::size_t s = 0; s < sides.size(); ++s) {
            Table& t = table(sides[s]);
            here.members[s].for_each([&](std::uint64_t r) {
                for (std::uint64_t i = r * k; i < r * k + k; ++i) {
                    const RuleEntry e = level_entry(here, s, i);
                    t.dtc[i] = e.dtc.pack();
                    if (with_lone) {
                        t.least_win[i] = e.least_win;
                        t.least_loss[i] = e.least_loss;
                    }
                }
            });
        }
    }

    static RuleEntry level_entry(const LevelValues& v, std::size_t s, std::uint64_t i) {
        const std::uint64_t j = v.at(s, i);
        const std::uint16_t symbol = std::uint16_t(v.dtc[j] | (v.lone.empty() ? 0 : v.lone[j] << 8));
        const std::optional<RuleEntry> e = rule_entry(symbol);
        if (!e) throw std::runtime_error("rule solver: a level holds symbol " + std::to_string(symbol));
        return *e;
    }

    // ---- Levels in scratch files (build_pair) ---------------------------

    bool level_done(const MaterialSignature& key, const PairLevels& levels, const std::filesystem::path& work,
                    int level) const {
        if (levels.positions(level) == 0) return true;
        return scratch_file_done(level_file_path(work, level), levels.positions(level), key);
    }

    LevelValues read_level(const PairLevels& levels, const std::filesystem::path& work, int level, bool lone) const {
        LevelValues v = levels.make(level, lone);
        if (v.size() == 0) return v;
        auto file = compress::TableFile::open(level_file_path(work, level), nullptr);
        if (!file) throw std::runtime_error(file.error().message);
        LevelReader reader(file->get());
        for (std::uint64_t i = 0; i < v.size(); ++i) v.set_symbol(i, reader.read(i));
        return v;
    }

    void write_level(const std::filesystem::path& path, const MaterialSignature& key, const LevelValues& v) const {
        compress::write_table(
            path, level_description(V::id, key, Index::kVersion), v.size(),
            compress::SymbolSource<std::uint16_t>([&](std::uint64_t first, std::span<std::uint16_t> out) {
                for (std::size_t j = 0; j < out.size(); ++j) out[j] = v.symbol(first + j);
            }),
            {}, level_writer_options());
    }

    // Side s's .dtc file from the levels' scratch files, in index order.
    compress::Header write_from_levels(const std::filesystem::path& dir, const std::filesystem::path& work,
                                       const std::vector<MaterialSignature>& sides, const PairLevels& levels,
                                       std::size_t s, int threads) const {
        const Table& t = table(sides[s]);
        const std::uint64_t n = t.index.size(), k = t.index.king_ways();
        std::vector<std::unique_ptr<compress::TableFile>> files(std::size_t(levels.count()));
        std::vector<LevelReader> readers;
        std::vector<std::uint64_t> base(std::size_t(levels.count()), 0);
        for (int level = 0; level < levels.count(); ++level) {
            if (levels.positions(level) != 0) {
                auto file = compress::TableFile::open(level_file_path(work, level), nullptr);
                if (!file) throw std::runtime_error(file.error().message);
                files[std::size_t(level)] = std::move(*file);
            }
            readers.emplace_back(files[std::size_t(level)].get());
            if (s == 1) base[std::size_t(level)] = levels.side(0).placements(level) * k;
        }
        SideSymbols<V> symbols(t.index, levels.side(s), readers, base);
        // First pass: the capture positions, and the longest T of each kind.
        Bitmap captures(n);
        int longest_win = -1, longest_loss = -1;
        std::mutex merge;
        symbols.for_each_run([&](std::uint64_t first, std::span<const std::uint16_t> run) {
            int longest_w = -1, longest_l = -1;
            for (std::size_t j = 0; j < run.size(); ++j) {
                if (run[j] & kLevelCapture) captures.set(first + j);
                const std::optional<RuleEntry> e = rule_entry(run[j] & std::uint16_t(~kLevelCapture));
                if (!e) throw std::runtime_error("rule solver: a level holds symbol " + std::to_string(run[j]));
                if (e->dtc.wdl > 0) longest_w = std::max(longest_w, e->dtc.plies);
                if (e->dtc.wdl < 0) longest_l = std::max(longest_l, e->dtc.plies);
            }
            const std::lock_guard<std::mutex> lock(merge);
            longest_win = std::max(longest_win, longest_w);
            longest_loss = std::max(longest_loss, longest_l);
        });
        compress::TableDescription d{file_variant(V::id),   file_material(sides[s]),
                                     compress::Metric::dtc, Index::kVersion,
                                     longest_win,           longest_loss};
        d.flags = compress::kFlagCapturesNotStored;
        compress::WriterOptions options;
        options.threads = threads;
        options.zstd_level = kDtcZstdLevel;
        options.positions_per_block = kDtcPositionsPerBlock;
        const std::filesystem::path path = dir / table_file_name(V::id, sides[s], compress::Metric::dtc);
        ParallelErrors read_errors;
        const auto fill = [&](std::uint64_t first, auto out) {
            std::vector<std::uint16_t> raw(out.size(), 0);
            read_errors.run([&] { symbols.fill(first, raw); });
            for (std::size_t j = 0; j < out.size(); ++j)
                out[j] = static_cast<typename decltype(out)::value_type>(raw[j] & std::uint16_t(~kLevelCapture));
        };
        const compress::DontCare dont_care = compress::DontCare::bitmap(captures.words());
        const compress::Header h =
            t.lone ? compress::write_table(
                         path, d, n,
                         compress::SymbolSource<std::uint16_t>(
                             [&](std::uint64_t first, std::span<std::uint16_t> out) { fill(first, out); }),
                         dont_care, options)
                   : compress::write_table(
                         path, d, n,
                         compress::SymbolSource<std::uint8_t>(
                             [&](std::uint64_t first, std::span<std::uint8_t> out) { fill(first, out); }),
                         dont_care, options);
        if (read_errors.failed()) {
            std::filesystem::remove(path);
            read_errors.rethrow();
        }
        return h;
    }

    // ---- T ------------------------------------------------------------

    // The packed values (Timed::pack) in the order of the value rule: the
    // fastest win first, the quickest loss (no move at all: lost now) last.
    static int order_key(std::int16_t v) { return v > 0 ? (1 << 16) - v : v == 0 ? 0 : -(1 << 15) - v; }
    static std::int16_t better(std::int16_t a, std::int16_t b) { return order_key(a) >= order_key(b) ? a : b; }
    static constexpr std::int16_t kNoMove = -1;  // Timed{-1, 0}: lost at once

    struct LoneScratch;

    struct DtcScratch {
        std::vector<Code> exits, next, own, king_moves_left;
        Code* value = nullptr;  // `own`, or the level's values where the block is solved in place
        // captures: the side to move must capture. The other five are the
        // scratch of solve_dtc_unbound, solve_dtc_layers and
        // solve_dtc_by_distance, which name their use; `next` holds each
        // position's king moves on entry.
        Bitmap captures, marks, changed, candidates, front, exhausted;
        // solve_dtc_unbound's plies inside the block: of a settled position,
        // its own; of one not yet settled, the fewest of the wins offered it
        // (kWinOffered set), else the most of the wins that answer its king
        // moves.
        std::vector<std::uint8_t> plies;
        std::atomic<bool> too_long{false};  // a value T's byte cannot hold
        // A block needed the king-move count's layers: solve_dtc_unbound,
        // whose pass is lost where it does not hold, is not tried again.
        bool count_binds = false;
    };

    // T of a block's positions. With the king-move count, by its layers b
    // from the limit down (solve_dtc_layers): in the last a king move ends
    // the game drawn, and each layer reads the one above; or, where that
    // count is the binding one, by distance (solve_dtc_by_distance). Without
    // that count one side has no kings: its moves all leave the block, and
    // the other side's king moves lead to it.
    // `in_place`: the level's values, where the block is the whole level in
    // its order (PairLevels::one_block); else the block's own.
    // `exact`: the generator's level, where known (a position drawn there
    // is drawn here, its exits not looked up).
    // `lone`: where W is solved too (one orientation a position), its
    // exits, found in the same pass (the same moves and conversions), for
    // solve_lone_block to take as they are.
    void solve_dtc_block(const std::vector<MaterialSignature>& sides, const Block& b, DtcScratch& w,
                         const TableCounts& counts, const LevelValues* above, Code* in_place, const ExactLevel& exact,
                         LoneScratch* lone) const {
        const std::uint64_t n = b.size();
        const bool parallel = n >= kParallelPositions;
        const bool layered = counts.king_move_limit < kNoLimit;
        w.exits.assign(n, kLostNowCode);
        if (in_place) {
            w.own = {};
            w.value = in_place;
        } else {
            w.own.assign(n, kLostNowCode);
            w.value = w.own.data();
        }
        if (layered) w.next.assign(n, kLostNowCode);
        w.captures = Bitmap(n);
        w.marks = Bitmap(n);
        w.too_long = false;
        if (lone) start_lone(sides, b, *lone);
        const auto fit = [&](int code) {
            if (code >= 0) return Code(code);
            w.too_long = true;
            return kDrawCode;
        };
        // Whatever leaves the block, and the last layer (or, without the
        // count, the side without kings): there a king move draws...
        std::vector<const Table*> pair;
        for (const MaterialSignature& s : sides) pair.push_back(&table(s));
        // Per side of the pair, in a lone-king ending: whether the stronger
        // side is to move.
        std::array<bool, 2> stronger_moves{};
        for (std::size_t s = 0; s < sides.size(); ++s)
            stronger_moves[s] = sides[s].men[1] == 0 && sides[s].kings[1] == 1;
        ParallelErrors errors;
#pragma omp parallel if (parallel)
        {
            Cursors cursors(*this, sides);
            ExactReader known(exact);
#pragma omp for schedule(dynamic, 256)
            for (std::uint64_t l = 0; l < n; ++l)
                errors.run([&] {
                    const std::optional<std::uint64_t> at = known.at(b, l);
                    const auto level = at ? known.read(*at) : typename ExactReader::Known{};
                    if (level.drawn) {
                        // No exit wins or loses for it, nor does it ever change
                        // (W: a draw at every r, the exits' 0), so neither its
                        // moves nor its exits are looked at: only whether it
                        // must capture (its king moves are not legal), which
                        // the level holds. No successor of it is ever lost or
                        // won for its mover, so its king moves are not counted:
                        // counted down from none, it is never computed again.
                        // One position in kCheckEvery has the level's capture
                        // checked against the position.
                        if (level.capture) w.captures.set(l);
                        w.exits[l] = w.value[l] = kDrawCode;
                        if (layered) w.next[l] = 0;
                        if (lone)
                            set_lone(*lone, l, stronger_moves[b.parts[b.part_of(l)].side], level.capture, 0, false, 0);
                        if (l % kCheckEvery == 0) known.check(level, Gen::has_capture(cursors.at(b, l)));
                        return;
                    }
                    const Position<V> pos = cursors.at(b, l);
                    const bool capture = Gen::has_capture(pos);
                    if (capture) w.captures.set(l);
                    if (at) known.check(level, capture);
                    std::array<std::int8_t, kR> by_r;
                    by_r.fill(kNone);
                    const ExitsFound found =
                        exits_of(pair, b.parts[b.part_of(l)].side, above, pos, capture, lone ? by_r.data() : nullptr);
                    w.exits[l] = fit(code_or_none(Timed::unpack(found.best)));
                    if (layered) w.next[l] = Code(found.king_moves);  // at most 4 kings x 17 squares
                    w.value[l] = value_before_king_moves(w.exits[l], found.king_moves);
                    if (lone)
                        set_lone(*lone, l, stronger_moves[b.parts[b.part_of(l)].side], capture, found.king_moves,
                                 found.no_move, exits_step(by_r));
                });
        }
        errors.rethrow();
        if (layered && !counts.to_conversion()) {
            solve_dtc_by_distance(sides, b, w, counts.king_move_limit, parallel);
            return;
        }
        // With the king-move count: first without it, kept where no line
        // of it needs more of the count than a fresh one gives.
        const bool unbound =
            layered && !w.count_binds && solve_dtc_unbound(sides, b, w, counts.king_move_limit, parallel);
        if (layered && !unbound) w.count_binds = true;
        // ...unless it leaves the other side no move at all (a position
        // with no move never changes: it has no king move).
        if (layered && !unbound) {
            Cursors cursors(*this, sides);
            for (std::uint64_t q = 0; q < n; ++q)
                if (w.value[q] == kLostNowCode)
                    for_each_king_predecessor(sides, b, q, cursors, [&](std::uint64_t p) {
                        if (!w.captures.test(p)) w.value[p] = kWinNowCode;
                    });
        }
        const auto recompute = [&](std::uint64_t l, Cursors& cursors) {
            const std::size_t k = b.part_of(l);
            Code v = w.exits[l];
            for_each_king_successor(sides, b, k, cursors.at(b, l),
                                    [&](std::uint64_t q) { v = better_code(v, fit(kCodes.back[w.value[q]])); });
            return v;
        };
        if (!layered) {
            // The side with kings moves into the kingless side's positions,
            // whose values are their exits: in place, in one pass.
#pragma omp parallel if (parallel)
            {
                Cursors cursors(*this, sides);
#pragma omp for schedule(dynamic, 256)
                for (std::uint64_t l = 0; l < n; ++l)
                    if (sides[b.parts[b.part_of(l)].side].kings[0] > 0 && !w.captures.test(l))
                        w.value[l] = recompute(l, cursors);
            }
        } else if (!unbound) {
            solve_dtc_layers(sides, b, w, counts.king_move_limit, parallel, fit, recompute);
        }
        if (w.too_long)
            throw std::runtime_error("rule solver: " + sides[0].name() +
                                     "'s pair: a distance to conversion longer than a .dtc symbol holds (128 plies)");
    }

    // T's layers b from the count's limit down, the last one (b = limit - 1)
    // in w.value, king moves counted in w.next. From one layer to the next a
    // position's outcome, once decided, stays, and its distance only shortens
    // (more plies of the count only let the winner win sooner), so a
    // position is computed again only where that can change its value:
    //   - a successor became a loss or lost sooner: a win one ply longer is
    //     offered to its predecessors, which take it where it is better;
    //   - a successor became a win: its predecessors have one king move fewer
    //     that does not lose (counted down), and one with none left is
    //     computed again;
    //   - a successor won sooner: its predecessors that lose are computed
    //     again (the longest defence may be shorter).
    // A layer that changes nothing ends the block: every layer under it
    // would be the same.
    template <class Fit, class Recompute>
    void solve_dtc_layers(const std::vector<MaterialSignature>& sides, const Block& b, DtcScratch& w, int limit,
                          bool parallel, const Fit& fit, const Recompute& recompute) const {
        const std::uint64_t n = b.size(), words = w.captures.word_count();
        w.king_moves_left.swap(w.next);
        w.next.assign(w.value, w.value + n);
        Bitmap &changed = w.changed, &again = w.candidates, &touched = w.front, &newly_won = w.marks;
        changed = Bitmap(n);
        again = Bitmap(n);
        touched = Bitmap(n);
        // The last layer's readers took a draw: a value that is not one
        // changed. (Word by word, every word written: a word is one
        // thread's.)
#pragma omp parallel for schedule(static) if (parallel)
        for (std::uint64_t x = 0; x < words; ++x) {
            std::uint64_t now = 0, won = 0;
            for (std::uint64_t l = x * 64; l < std::min(n, x * 64 + 64); ++l) {
                now |= std::uint64_t(w.value[l] != kDrawCode) << (l % 64);
                won |= std::uint64_t(is_win_code(w.value[l])) << (l % 64);
            }
            changed.word(x) = now;
            newly_won.word(x) = won;
        }
        const auto offer = [&](std::uint64_t p, Code v) {
            std::atomic_ref<Code> at(w.next[p]);
            Code seen = at.load(std::memory_order_relaxed);
            while (kCodes.order[v] > kCodes.order[seen] &&
                   !at.compare_exchange_weak(seen, v, std::memory_order_relaxed)) {
            }
        };
        for (int layer = limit - 2; layer >= 0; --layer) {
            bool any = false;
            for (const std::uint64_t word : changed.words()) any = any || word != 0;
            if (!any) break;
#pragma omp parallel if (parallel)
            {
                Cursors cursors(*this, sides);
#pragma omp for schedule(dynamic, 64)
                for (std::uint64_t x = 0; x < words; ++x)
                    for (int j : bits_of{changed.word(x)}) {
                        const std::uint64_t q = x * 64 + std::uint64_t(j);
                        const Code v = w.value[q];
                        const bool lost = is_loss_code(v), won_now = newly_won.test(q);
                        const Code back = lost ? fit(kCodes.back[v]) : kDrawCode;
                        for_each_king_predecessor(sides, b, q, cursors, [&](std::uint64_t p) {
                            if (w.captures.test(p)) return;
                            if (lost) {
                                offer(p, back);
                                touched.set(p);
                            } else if (won_now ? std::atomic_ref<Code>(w.king_moves_left[p])
                                                         .fetch_sub(1, std::memory_order_relaxed) == 1
                                               : is_loss_code(w.value[p])) {
                                again.set(p);
                                touched.set(p);
                            }
                        });
                    }
#pragma omp for schedule(dynamic, 64)
                for (std::uint64_t x = 0; x < words; ++x)
                    for (int j : bits_of{again.word(x)}) {
                        const std::uint64_t l = x * 64 + std::uint64_t(j);
                        w.next[l] = recompute(l, cursors);
                    }
#pragma omp for schedule(static)
                for (std::uint64_t x = 0; x < words; ++x) {
                    std::uint64_t now = 0, won = 0;
                    for (int j : bits_of{touched.word(x)}) {
                        const std::uint64_t l = x * 64 + std::uint64_t(j);
                        if (w.next[l] == w.value[l]) continue;
                        now |= bit(j);
                        if (w.value[l] == kDrawCode && is_win_code(w.next[l])) won |= bit(j);
                        w.value[l] = w.next[l];
                    }
                    changed.word(x) = now;
                    newly_won.word(x) = won;
                    touched.word(x) = 0;
                    again.word(x) = 0;
                }
            }
        }
    }

    // T with the king-move count as the game without it, where that is
    // what the count gives: the game without the count is solved in order
    // of distance (each position settled once, as solve_dtc_by_distance
    // does, exits entering at their own distances), and with each settled
    // position the plies its line spends inside the block (king moves, then
    // the move that leaves it or leaves the other side no move): for a win
    // the fewest of the moves that win as soon, for a loss the most of all
    // its moves. Where none of those needs more plies than the count has
    // (`limit`, fresh at every position stored), the values are T: the
    // winner's line fits the count, so it wins as soon as without it, and
    // the count, which only ever ends a game drawn, cannot make a win
    // sooner or a loss later for the side that wins (docs/VALUES.md 5).
    // Then w.value holds T and it returns true; else w.value is as on entry
    // and the layers solve the block (the king moves in w.next, unchanged).
    bool solve_dtc_unbound(const std::vector<MaterialSignature>& sides, const Block& b, DtcScratch& w, int limit,
                           bool parallel) const {
        const std::uint64_t n = b.size(), words = w.captures.word_count();
        constexpr std::uint8_t kWinOffered = 0x80, kMostPlies = 0x7f;
        constexpr int kLongest = 126;  // the longest loss a Code holds (win_code(126) fits too)
        const auto exit_distance = [](Code c) { return is_win_code(c) ? (c + 1) / 2 : (c - 2) / 2; };
        // The bits of word x that are positions of the block.
        const auto in_block = [n](std::uint64_t x) {
            return x * 64 + 64 <= n ? ~std::uint64_t{0} : bit(int(n % 64)) - 1;
        };
        Bitmap &settled = w.marks, &wins = w.changed, &losses = w.candidates, &front = w.front,
               &exhausted = w.exhausted;
        settled = Bitmap(n);
        wins = Bitmap(n);
        losses = Bitmap(n);
        front = Bitmap(n);
        exhausted = Bitmap(n);
        w.king_moves_left.assign(w.next.begin(), w.next.end());
        w.plies.assign(n, 0);
        // Exhausted: every move but the exits answered by a win (or none),
        // and the exits lose; settled at the longer of the two.
        int last_exit = 0;
#pragma omp parallel for schedule(static) reduction(max : last_exit) if (parallel)
        for (std::uint64_t x = 0; x < words; ++x) {
            std::uint64_t none_left = 0;
            for (std::uint64_t l = x * 64; l < std::min(n, x * 64 + 64); ++l) {
                const Code e = w.exits[l];
                if (e != kDrawCode) last_exit = std::max(last_exit, exit_distance(e));
                if (w.next[l] == 0 && is_loss_code(e)) none_left |= bit(int(l % 64));
            }
            exhausted.word(x) = none_left;
        }
        bool fits = true;
        for (int d = 0;; ++d) {
            if (d > kLongest) {
                fits = false;
                break;
            }
            // Settle those at d: a win offered by a king move or an exit,
            // else a loss whose last move was answered (at d - 1, or before
            // and its exits lose at d).
            std::uint64_t settled_now = 0;
            bool too_many = false;
#pragma omp parallel for schedule(static) reduction(+ : settled_now) reduction(|| : too_many) if (parallel)
            for (std::uint64_t x = 0; x < words; ++x) {
                const std::uint64_t first = x * 64;
                const int count = int(std::min<std::uint64_t>(64, n - first));
                const Code* exits = w.exits.data() + first;
                const std::uint64_t open = ~settled.word(x) & in_block(x);
                const std::uint64_t exit_wins = d >= 1 ? match_mask(exits, count, win_code(d)) : 0;
                const std::uint64_t won = open & (wins.word(x) | exit_wins);
                const std::uint64_t lost =
                    open & ~won & (losses.word(x) | (exhausted.word(x) & match_mask(exits, count, loss_code(d))));
                for (int j : bits_of{won}) {
                    const std::uint64_t l = first + std::uint64_t(j);
                    w.value[l] = win_code(d);
                    w.plies[l] = (exit_wins & bit(j)) != 0 ? 1 : std::uint8_t(w.plies[l] & kMostPlies);
                    too_many = too_many || w.plies[l] > limit;
                }
                for (int j : bits_of{lost}) {
                    const std::uint64_t l = first + std::uint64_t(j);
                    w.value[l] = loss_code(d);
                    w.plies[l] = d == 0 ? 0 : std::uint8_t(w.plies[l] + 1);
                    too_many = too_many || w.plies[l] > limit;
                }
                front.word(x) = won | lost;
                settled.word(x) |= won | lost;
                wins.word(x) = 0;
                losses.word(x) = 0;
                settled_now += std::uint64_t(popcount(won | lost));
            }
            if (too_many) {
                fits = false;
                break;
            }
            if (settled_now == 0 && d >= last_exit) break;
#pragma omp parallel if (parallel)
            {
                // Tell their king-move predecessors (a capture position has
                // no king move) what they offer at d + 1.
                Cursors cursors(*this, sides);
#pragma omp for schedule(dynamic, 64)
                for (std::uint64_t x = 0; x < words; ++x)
                    for (int j : bits_of{front.word(x)}) {
                        const std::uint64_t q = x * 64 + std::uint64_t(j);
                        const bool lost = is_loss_code(w.value[q]);
                        const std::uint8_t here = w.plies[q],
                                           offered = std::uint8_t(kWinOffered | std::min<int>(here + 1, kMostPlies));
                        for_each_king_predecessor(sides, b, q, cursors, [&](std::uint64_t p) {
                            if (w.captures.test(p) || settled.test(p)) return;
                            std::atomic_ref<std::uint8_t> at(w.plies[p]);
                            std::uint8_t seen = at.load(std::memory_order_relaxed);
                            if (lost) {
                                wins.set(p);
                                while ((!(seen & kWinOffered) || offered < seen) &&
                                       !at.compare_exchange_weak(seen, offered, std::memory_order_relaxed)) {
                                }
                                return;
                            }
                            // One whose exits do not lose is never lost, nor
                            // one offered a win.
                            if (!is_loss_code(w.exits[p])) return;
                            while (!(seen & kWinOffered) && here > seen &&
                                   !at.compare_exchange_weak(seen, here, std::memory_order_relaxed)) {
                            }
                            if (std::atomic_ref<Code>(w.king_moves_left[p]).fetch_sub(1, std::memory_order_relaxed) !=
                                1)
                                return;
                            exhausted.set(p);
                            if (exit_distance(w.exits[p]) <= d + 1) losses.set(p);
                        });
                    }
            }
        }
        if (!fits) {
            // As on entry, for the layers.
#pragma omp parallel for schedule(static) if (parallel)
            for (std::uint64_t l = 0; l < n; ++l) w.value[l] = value_before_king_moves(w.exits[l], w.next[l]);
            return false;
        }
        // Never settled: drawn without the count, so with it.
#pragma omp parallel for schedule(static) if (parallel)
        for (std::uint64_t x = 0; x < words; ++x)
            for (int j : bits_of{~settled.word(x) & in_block(x)}) w.value[x * 64 + std::uint64_t(j)] = kDrawCode;
        return true;
    }

    // T where the king-move count is the binding count (it starts again at
    // every move that leaves the block): the game without the count, solved
    // in order of distance and cut at the count's plies. Every ply of a line
    // but its last is a king move that spends a ply of the count, and the
    // last may be made with the count at its limit less one, so a line of d
    // plies fits the count exactly when d is at most the limit: the value
    // with a fresh count is the value without it where its distance fits,
    // else a draw (docs/VALUES.md 5). Each position is settled once, at its
    // distance: a win when one of its king moves reaches a loss, a loss when
    // the last of its king moves (counted down in w.next) reaches a win and
    // its exits lose as well. Positions never settled are draws. On entry
    // the exits, captures and king-move counts are known.
    void solve_dtc_by_distance(const std::vector<MaterialSignature>& sides, const Block& b, DtcScratch& w, int limit,
                               bool parallel) const {
        const std::uint64_t n = b.size(), words = w.captures.word_count();
        Bitmap& settled = w.marks;
        Bitmap &wins = w.changed, &losses = w.candidates;
        settled.clear();
        wins = Bitmap(n);
        losses = Bitmap(n);
        w.front = Bitmap(n);
        // Distances 0 and 1 from the exits: no move at all, or an exit that
        // wins (nothing wins sooner), or no king move and an exit that loses.
#pragma omp parallel for schedule(static) if (parallel)
        for (std::uint64_t x = 0; x < words; ++x)
            for (std::uint64_t l = x * 64; l < std::min(n, x * 64 + 64); ++l) {
                const Code e = w.exits[l];
                const bool king_moves = w.next[l] > 0 && !w.captures.test(l);
                w.value[l] = kDrawCode;
                if (e == kLostNowCode && !king_moves) {
                    w.value[l] = kLostNowCode;
                    settled.set(l);
                    w.front.set(l);
                } else if (e == kWinNowCode) {
                    wins.set(l);
                } else if (e == kLossInOneCode && !king_moves) {
                    losses.set(l);
                }
            }
        for (int d = 0; d < limit; ++d) {
            // Pass on what the positions settled at d tell their king-move
            // predecessors (a capture position has no king move).
#pragma omp parallel if (parallel)
            {
                Cursors cursors(*this, sides);
#pragma omp for schedule(dynamic, 64)
                for (std::uint64_t x = 0; x < words; ++x)
                    for (int j : bits_of{w.front.word(x)}) {
                        const std::uint64_t q = x * 64 + std::uint64_t(j);
                        const bool lost = is_loss_code(w.value[q]);
                        for_each_king_predecessor(sides, b, q, cursors, [&](std::uint64_t p) {
                            if (w.captures.test(p) || settled.test(p)) return;
                            if (lost)
                                wins.set(p);
                            else if (std::atomic_ref<Code>(w.next[p]).fetch_sub(1, std::memory_order_relaxed) == 1 &&
                                     is_loss_code(w.exits[p]))
                                losses.set(p);
                        });
                    }
            }
            // Settle those at d + 1.
            std::uint64_t settled_now = 0;
#pragma omp parallel for schedule(static) reduction(+ : settled_now) if (parallel)
            for (std::uint64_t x = 0; x < words; ++x) {
                const std::uint64_t won = wins.word(x) & ~settled.word(x);
                const std::uint64_t lost = losses.word(x) & ~won & ~settled.word(x);
                for (int j : bits_of{won}) w.value[x * 64 + std::uint64_t(j)] = win_code(d + 1);
                for (int j : bits_of{lost}) w.value[x * 64 + std::uint64_t(j)] = loss_code(d + 1);
                w.front.word(x) = won | lost;
                settled.word(x) |= won | lost;
                wins.word(x) = 0;
                losses.word(x) = 0;
                settled_now += std::uint64_t(popcount(won | lost));
            }
            if (settled_now == 0) break;
        }
    }

    // What exits_of finds of a position.
    struct ExitsFound {
        std::int16_t best = kNoMove;  // T's best exit, packed
        int king_moves = 0;           // none where it must capture
        bool no_move = false;         // no legal move at all
    };

    // The best of the moves of `pos` that leave its block (or end the game),
    // packed, and how many king moves it has (`capture`: whether it must
    // capture). A move that leaves the other side no move needs no test:
    // that position is stored lost at once, and its value gives a win in 1.
    // With `lone_by_r` (a lone-king table, its slot of one orientation), W's
    // exits too, for r = 1..16, as lone_exits finds them: from the same
    // moves and the same look-ups (a conversion's Entering gives T's value
    // as its wdl with no count running).
    ExitsFound exits_of(const std::vector<const Table*>& pair, std::size_t side, const LevelValues* above,
                        const Position<V>& pos, bool capture, std::int8_t* lone_by_r) const {
        const Table& t = *pair[side];
        ExitsFound found;
        MoveList moves;
        if (capture) {
            Gen::generate(pos, moves);
        } else {
            Gen::generate_man_moves(pos, moves);
            found.king_moves = Gen::count_king_moves(pos);
        }
        found.no_move = moves.size() == 0 && found.king_moves == 0;
        const std::optional<Color> lone_opponent = t.lone_material ? lone_king_opponent(pos) : std::nullopt;
        const bool lone = lone_opponent.has_value();
        const Color stronger = lone_opponent.value_or(White);
        const bool ours = lone && stronger == pos.side_to_move;
        const auto add = [&](int r, int v) {
            std::int8_t& best = lone_by_r[r];
            best = std::int8_t(best == kNone ? v : ours ? std::max<int>(best, v) : std::min<int>(best, v));
        };
        std::int16_t& best = found.best;
        for (const Move& m : moves) {
            const Position<V> after = pos.after(m);
            const bool over = lone_by_r && game_over(after);
            if (over)  // W: the mover wins whatever the count leaves
                for (int r = 1; r <= kMaxLoneMoves; ++r) add(r, ours ? 1 : -1);
            if (m.is_capture() || m.crowns) {
                if (!after.pieces[after.side_to_move]) {
                    best = better(best, Timed{1, 1}.pack());
                    continue;
                }
                if (!lone) {
                    best = better(best, Timed{std::int8_t(entering_wdl(after, std::nullopt)), 0}.before().pack());
                    continue;
                }
                const typename Judge::Entering entered = Judge(*this).entering(after, stronger, pos);
                best = better(best, Timed{std::int8_t(entered.wdl(kNoLimit)), 0}.before().pack());
                if (lone_by_r && !over)
                    for (int r = 1; r <= kMaxLoneMoves; ++r) {
                        // The count's last move (none left after it) that does not win draws.
                        const int left = ours ? r - 1 : r;
                        const int v = entered.wdl(left);
                        add(r, left == 0 ? 0 : after.side_to_move == stronger ? v : -v);
                    }
                continue;
            }
            // A man move: to the level above, solved, in the other side's table.
            const Position<V> n = flip(after);
            const std::size_t to = pair.size() == 1 ? 0 : 1 - side;
            if (!above) throw std::logic_error("rule solver: a man move out of the top level");
            const RuleEntry e = level_entry(*above, to, pair[to]->index.rank(n));
            const Timed next = e.dtc;
            if (t.counts.to_conversion())
                best = better(best, next.before().pack());
            else  // the man move starts the measured count again: its value is the successor's
                best = better(best, Timed{std::int8_t(threshold(next, t.counts.king_move_limit)), 0}.before().pack());
            if (lone_by_r && !over) {
                // The stronger side's man move (the lone king has none): r - 1 left.
                for (int r = 1; r <= kMaxLoneMoves; ++r) {
                    const int left = ours ? r - 1 : r;
                    add(r, left == 0 ? 0 : left >= e.least_win ? 1 : left >= e.least_loss ? -1 : 0);
                }
            }
        }
        return found;
    }

    // ---- W, lone-king counts ------------------------------------------

    static constexpr std::size_t kR = kMaxLoneMoves + 1;  // r = 0..16
    static constexpr std::int8_t kNone = -2;

    struct LoneScratch {
        Bitmap valid, ours;                    // per slot: a lone-king position; the stronger side to move
        Bitmap dead;                           // per position: the side to move has no move
        Bitmap capture;                        // per position: the side to move must capture
        std::vector<std::uint8_t> king_moves;  // per position: its king moves (none where it must capture)
        std::vector<std::int8_t> exits;        // per slot: the best of the moves leaving, by r (exit_at)
        // per slot (solve_lone_block: king moves not yet answered by a win),
        // or slot * kR + r (solve_lone_timed)
        std::vector<std::int8_t> value, next;
        std::vector<std::uint8_t> least_win, least_loss;  // per slot: the least r that wins, that loses
    };

    // The exits of a slot as a function of r, in a byte: W's shape (0 up
    // to some r, then a win or a loss for every r from there on), as the
    // signed r where the win (+) or loss (-) starts, 0 for a draw at every
    // r, or kNoExit where no move leaves. The best of moves of that shape
    // has it too (exits_step checks).
    static constexpr std::int8_t kNoExit = std::numeric_limits<std::int8_t>::min();
    static int exit_at(std::int8_t e, int r) {
        if (e == kNoExit) return kNone;
        if (e > 0) return r >= e ? 1 : 0;
        return e < 0 && r >= -e ? -1 : 0;
    }
    // by_r[r] for r = 1..kMaxLoneMoves in that shape.
    static std::int8_t exits_step(const std::array<std::int8_t, kR>& by_r) {
        if (by_r[1] == kNone) return kNoExit;
        int start = 0;
        for (int r = 1; r <= kMaxLoneMoves && start == 0; ++r)
            if (by_r[std::size_t(r)] != 0) start = r;
        const std::int8_t e = start == 0 ? 0 : std::int8_t(by_r[std::size_t(start)] * start);
        for (int r = 1; r <= kMaxLoneMoves; ++r)
            if (exit_at(e, r) != by_r[std::size_t(r)])
                throw std::logic_error("rule solver: exits that are not of a lone-king count's shape");
        return e;
    }

    // A block's slots: its positions, and for king against king each
    // orientation (which side is the stronger).
    static std::uint64_t slots_per_position(const Table& t) { return t.both_lone ? 2 : 1; }

    // W(p, r) for r = 1..16 of a block, the stronger side's wdl. Its moves
    // lead to r - 1, the lone king's keep r: phase r reads phase r - 1,
    // first the stronger side to move, then the lone king, which reads the
    // stronger side's phase r. A man move (the stronger side's) leads to
    // the level above, whose W is read from what it stores (least_win,
    // least_loss). W is monotone in r: once a slot wins or loses it does so
    // for every larger r, so each slot is decided once, at the least r, the
    // way a retrograde solver settles a position at its distance:
    //   - the side to move wins as soon as one move wins (an exit at r, or
    //     a king move into a slot decided so in the phase before), which is
    //     offered to the predecessors of each slot as it is decided;
    //   - it loses when every move loses: its king moves into slots not yet
    //     decided so are counted down (w.value), and a slot with none left
    //     loses from the phase where its exits lose too.
    // At r = 1 the stronger side's king moves read 0 (the count's last move
    // did not win), except a move that leaves the lone king no move at all.
    // `prepared`: w's exits were found with T's (solve_dtc_block).
    void solve_lone_block(const std::vector<MaterialSignature>& sides, const Block& b, LoneScratch& w,
                          const LevelValues* above, bool prepared) const {
        const Table& t = table(sides[0]);
        const std::uint64_t per = slots_per_position(t), slots = b.size() * per, words = (slots + 63) / 64;
        const bool parallel = slots >= kParallelPositions;
        if (!prepared) prepare_lone(sides, b, w, above, false);
        // The king moves of each slot not yet known to be answered by the
        // other side's win (the mover's best is then worse).
        w.value.resize(slots);
#pragma omp parallel for schedule(static) if (parallel)
        for (std::uint64_t l = 0; l < b.size(); ++l)
            for (std::uint64_t o = 0; o < per; ++o) w.value[l * per + o] = std::int8_t(w.king_moves[l]);
        w.least_win.assign(slots, kNever);
        w.least_loss.assign(slots, kNever);
        // Offered: the slots one of whose moves gives the side to move its
        // win (by the value's sign: the stronger side to move wins, the
        // lone king's makes the stronger side lose) in the coming phase;
        // decided: those decided in the phase just done.
        // Zeroed: the slots whose last king move was answered by a win since
        // their phase before (or that have none).
        Bitmap offered(slots), decided(slots), zeroed(slots);
#pragma omp parallel for schedule(static) if (parallel)
        for (std::uint64_t x = 0; x < words; ++x)
            zeroed.word(x) =
                w.valid.word(x) &
                match_mask(w.value.data() + x * 64, int(std::min<std::uint64_t>(64, slots - x * 64)), std::int8_t(0));
        const auto predecessors = [&](std::uint64_t q, Cursors& cursors, auto&& f) {
            // The mover of the move into q: the other orientation.
            const std::uint64_t o = per == 2 ? 1 - q % 2 : 0;
            for_each_king_predecessor(sides, b, q / per, cursors, [&](std::uint64_t p) {
                if (!w.capture.test(p)) f(p * per + o);
            });
        };
        // A stronger side's king move that leaves the lone king no move
        // wins with any count: offered from the start.
        {
            Cursors cursors(*this, sides);
            for (std::uint64_t x = 0; x < words; ++x)
                for (int j : bits_of{w.valid.word(x) & ~w.ours.word(x)})
                    if (const std::uint64_t q = x * 64 + std::uint64_t(j); w.dead.test(q / per))
                        predecessors(q, cursors, [&](std::uint64_t p) { offered.set(p); });
        }
        for (int r = 1; r <= kMaxLoneMoves; ++r)
            for (const bool stronger_moves : {true, false}) {
#pragma omp parallel if (parallel)
                {
                    // Decide the slots of this phase.
#pragma omp for schedule(static)
                    for (std::uint64_t x = 0; x < words; ++x) {
                        // Only a slot offered a win, zeroed, or whose exits
                        // start to win or lose at this r can be decided now:
                        // any other would have been decided before.
                        const std::uint64_t first = x * 64,
                                            mine_bits =
                                                w.valid.word(x) & (stronger_moves ? w.ours.word(x) : ~w.ours.word(x));
                        const int count = int(std::min<std::uint64_t>(64, slots - first));
                        const std::int8_t* exits = w.exits.data() + first;
                        const std::uint64_t candidates =
                            mine_bits & (offered.word(x) | zeroed.word(x) | match_mask(exits, count, std::int8_t(r)) |
                                         match_mask(exits, count, std::int8_t(-r)));
                        std::uint64_t now = 0;
                        for (int j : bits_of{candidates}) {
                            const std::uint64_t k = first + std::uint64_t(j);
                            if (w.least_win[k] != kNever || w.least_loss[k] != kNever) continue;
                            const int exit = exit_at(w.exits[k], r);
                            // The mover's own win, and every move lost (no exit counts as lost).
                            const int mine = stronger_moves ? 1 : -1;
                            const bool wins = offered.test(k) || exit == mine;
                            const bool loses = !wins && w.value[k] == 0 && (exit == kNone || exit == -mine);
                            if (!wins && !loses) continue;
                            const int stronger = wins ? mine : -mine;
                            (stronger > 0 ? w.least_win[k] : w.least_loss[k]) = std::uint8_t(r);
                            now |= bit(int(k % 64));
                        }
                        decided.word(x) = now;
                        offered.word(x) = 0;
                        zeroed.word(x) &= ~mine_bits;
                    }
                    // Tell their predecessors (the other phase: the lone
                    // king's at this r, the stronger side's at r + 1).
                    Cursors cursors(*this, sides);
#pragma omp for schedule(dynamic, 64)
                    for (std::uint64_t x = 0; x < words; ++x)
                        for (int j : bits_of{decided.word(x)}) {
                            const std::uint64_t q = x * 64 + std::uint64_t(j);
                            // The predecessor's mover wins where q's mover lost.
                            const bool mover_lost =
                                stronger_moves ? w.least_loss[q] != kNever : w.least_win[q] != kNever;
                            predecessors(q, cursors, [&](std::uint64_t p) {
                                if (mover_lost)
                                    offered.set(p);
                                else if (std::atomic_ref<std::int8_t>(w.value[p])
                                             .fetch_sub(1, std::memory_order_relaxed) == 1)
                                    zeroed.set(p);
                            });
                        }
                }
            }
    }

    // W where the plies since the material stood are part of the state too
    // (2.1.9.1.5 for 2-3 pieces ends the game sooner than any lone-king
    // count could): the whole pair as one block, in layers of those plies
    // from the count's limit down, each reading the one above (every move
    // raises them); its last ply draws.
    void solve_lone_timed(const std::vector<MaterialSignature>& sides) {
        std::vector<Part> parts;
        std::uint64_t offset = 0;
        for (std::size_t s = 0; s < sides.size(); ++s) {
            const std::uint64_t size = table(sides[s]).index.size();
            parts.push_back({s, 0, size, offset, {}, 0});
            offset += size;
        }
        Block b;
        b.parts = std::move(parts);
        const Table& t = table(sides[0]);
        const std::uint64_t slots = b.size() * slots_per_position(t);
        LoneScratch w;
        prepare_lone(sides, b, w, nullptr, true);
        // The pair is small (2-3 pieces): its moves are listed once.
        std::vector<std::uint32_t> first(b.size() + 1, 0);
        std::vector<std::uint32_t> to;
        {
            Cursors cursors(*this, sides);
            for (std::uint64_t l = 0; l < b.size(); ++l) {
                for_each_staying_move(sides, b, cursors.at(b, l),
                                      [&](std::uint64_t q) { to.push_back(std::uint32_t(q)); });
                first[l + 1] = std::uint32_t(to.size());
            }
        }
        const std::uint64_t per = slots_per_position(t);
        w.value.assign(slots * kR, 0);
        w.next = w.value;
        const int plies_limit = t.counts.conversion_limit;
        for (int ply = plies_limit - 1; ply >= 0; --ply) {
            const bool last = ply + 1 >= plies_limit;
#pragma omp parallel for schedule(dynamic, 256)
            for (std::uint64_t k = 0; k < slots; ++k) {
                if (!w.valid.test(k)) continue;
                const std::uint64_t l = k / per;
                const auto successors = [&](auto&& add) {
                    for (std::uint32_t e = first[l]; e < first[l + 1]; ++e) add(to[e]);
                };
                for (int r = 1; r <= kMaxLoneMoves; ++r) {
                    const int left = w.ours.test(k) ? r - 1 : r;
                    w.next[k * kR + std::size_t(r)] = lone_value(w, per, k, r, successors, [&](std::uint64_t q) {
                        return last || left == 0 ? std::int8_t(0) : w.value[q * kR + std::size_t(left)];
                    });
                }
            }
            std::swap(w.value, w.next);
        }
        w.least_win.assign(slots, kNever);
        w.least_loss.assign(slots, kNever);
        for (std::uint64_t k = 0; k < slots; ++k)
            for (int r = kMaxLoneMoves; r >= 1; --r) {
                const std::int8_t v = w.value[k * kR + std::size_t(r)];
                if (v > 0) w.least_win[k] = std::uint8_t(r);
                if (v < 0) w.least_loss[k] = std::uint8_t(r);
            }
        store_lone(sides, b, w);
    }

    // The value of slot k at r: its exits', then its moves that stay in the
    // block (successors(add) calls add(local id) for each), each read
    // through `read(successor's slot)`.
    template <class Successors, class Read>
    static std::int8_t lone_value(const LoneScratch& w, std::uint64_t per, std::uint64_t k, int r,
                                  const Successors& successors, const Read& read) {
        const bool ours = w.ours.test(k);
        int best = exit_at(w.exits[k], r);
        if (best == kNone) best = ours ? -1 : 1;  // no move at all: the side to move has lost
        successors([&](std::uint64_t q) {
            // A move that leaves no move wins whatever the count leaves.
            const int v = w.dead.test(q) ? (ours ? 1 : -1) : read(q * per + (per == 2 && ours ? 1 : 0));
            best = ours ? std::max(best, v) : std::min(best, v);
        });
        return std::int8_t(best);
    }

    // Calls f(local id) for each move of `pos` that neither captures nor
    // crowns nor ends the game (the whole-pair block).
    template <class F>
    void for_each_staying_move(const std::vector<MaterialSignature>& sides, const Block& b, const Position<V>& pos,
                               F&& f) const {
        MoveList moves;
        Gen::generate(pos, moves);
        for (const Move& m : moves) {
            if (m.is_capture() || m.crowns) continue;
            const Position<V> after = pos.after(m);
            if (game_over(after)) continue;
            const Position<V> n = normalize(after);
            const std::size_t s = side_of(sides, signature_of(n));
            f(b.local(s, table(sides[s]).index.rank(n)));
        }
    }

    // A block's scratch for W, every slot empty.
    void start_lone(const std::vector<MaterialSignature>& sides, const Block& b, LoneScratch& w) const {
        const std::uint64_t slots = b.size() * slots_per_position(table(sides[0]));
        w.valid = Bitmap(slots);
        w.ours = Bitmap(slots);
        w.exits.assign(slots, kNoExit);
        w.dead = Bitmap(b.size());
        w.capture = Bitmap(b.size());
        w.king_moves.assign(b.size(), 0);
    }

    // What W needs of position l of a table of one orientation a position,
    // found with its T (solve_dtc_block): its slot (whether the stronger
    // side is to move), its moves, and its exits (exits_step).
    static void set_lone(LoneScratch& w, std::uint64_t l, bool stronger_moves, bool capture, int king_moves,
                         bool no_move, std::int8_t exits) {
        w.valid.set(l);
        if (stronger_moves) w.ours.set(l);
        if (no_move) w.dead.set(l);
        if (capture) w.capture.set(l);
        w.king_moves[l] = std::uint8_t(king_moves);
        w.exits[l] = exits;
    }

    // Each slot's orientation, and for each r the best of its moves that
    // leave the block or end the game.
    void prepare_lone(const std::vector<MaterialSignature>& sides, const Block& b, LoneScratch& w,
                      const LevelValues* above, bool men_moves_stay) const {
        const Table& t = table(sides[0]);
        const std::uint64_t per = slots_per_position(t);
        const bool parallel = b.size() >= kParallelPositions;
        start_lone(sides, b, w);
        ParallelErrors errors;
#pragma omp parallel if (parallel)
        {
            Cursors cursors(*this, sides);
#pragma omp for schedule(dynamic, 256)
            for (std::uint64_t l = 0; l < b.size(); ++l)
                errors.run([&] {
                    const Position<V> pos = cursors.at(b, l);
                    if (Gen::count(pos) == 0) w.dead.set(l);
                    const bool capture = Gen::has_capture(pos);
                    if (capture)
                        w.capture.set(l);
                    else
                        w.king_moves[l] = std::uint8_t(Gen::count_king_moves(pos));
                    for (const bool stronger_to_move : {true, false}) {
                        const Color stronger = stronger_to_move ? pos.side_to_move : opponent(pos.side_to_move);
                        if (!t.both_lone && lone_king_opponent(pos) != stronger) continue;
                        const std::uint64_t k = l * per + (per == 2 && !stronger_to_move ? 1 : 0);
                        w.valid.set(k);
                        if (stronger_to_move) w.ours.set(k);
                        std::array<std::int8_t, kR> by_r;
                        by_r.fill(kNone);
                        lone_exits(sides, above, pos, stronger, men_moves_stay, by_r.data());
                        w.exits[k] = exits_step(by_r);
                    }
                });
        }
        errors.rethrow();
    }

    // The moves of `pos` (stronger side `stronger`) that end the game or
    // leave the block: for each r, the stronger side's best into exits[r].
    void lone_exits(const std::vector<MaterialSignature>& sides, const LevelValues* above, const Position<V>& pos,
                    Color stronger, bool men_moves_stay, std::int8_t* exits) const {
        const bool ours = pos.side_to_move == stronger;
        const auto add = [&](int r, int v) {
            std::int8_t& best = exits[r];
            best = std::int8_t(best == kNone ? v : ours ? std::max<int>(best, v) : std::min<int>(best, v));
        };
        MoveList moves;
        Gen::generate(pos, moves);
        for (const Move& m : moves) {
            const bool converts = m.is_capture() || m.crowns;
            // A king move stays in the block (lone_value), except where every
            // move does (whole-pair block) and this one ends the game.
            const bool king_move = (pos.kings & bit(m.from)) != 0 && !converts;
            if (king_move && !men_moves_stay) continue;
            const Position<V> after = pos.after(m);
            if (game_over(after)) {
                for (int r = 1; r <= kMaxLoneMoves; ++r) add(r, ours ? 1 : -1);
            } else if (converts) {
                const typename Judge::Entering entered = Judge(*this).entering(after, stronger, pos);
                for (int r = 1; r <= kMaxLoneMoves; ++r) {
                    const int left = ours ? r - 1 : r;
                    if (left == 0) {
                        add(r, 0);  // the count's last move did not win
                        continue;
                    }
                    const int v = entered.wdl(left);
                    add(r, after.side_to_move == stronger ? v : -v);
                }
            } else if (!men_moves_stay) {
                // The stronger side's man move, to the level above (r - 1 left).
                // (Not king against king: that pair has no men.)
                const Position<V> n = normalize(after);
                const std::size_t to = side_of(sides, signature_of(n));
                if (!above) throw std::logic_error("rule solver: a man move out of the top level");
                const RuleEntry e = level_entry(*above, to, table(sides[to]).index.rank(n));
                for (int r = 1; r <= kMaxLoneMoves; ++r) {
                    const int left = ours ? r - 1 : r;
                    add(r, left == 0 ? 0 : left >= e.least_win ? 1 : left >= e.least_loss ? -1 : 0);
                }
            }
        }
    }

    // ---- A level: T and W, block by block ----------------------------

    // Solves a level: T, and W where asked, block by block, reading the
    // level above (null for the top level: no man move leaves it).
    // `count_binds`: a block of the pair needed the king-move count's
    // layers (solve_dtc_unbound did not hold); the pair's later blocks go
    // to them at once.
    LevelValues solve_level(const std::vector<MaterialSignature>& sides, const PairLevels& levels, int level,
                            const LevelValues* above, bool with_lone, bool& count_binds) const {
        const TableCounts counts = table(sides[0]).counts;
        if (counts.king_move_limit >= kNoLimit && sides[0].kings[0] > 0 && sides[0].kings[1] > 0)
            throw std::logic_error("rule solver: both sides of " + sides[0].name() +
                                   " have kings and no king-move count");
        if (with_lone && table(sides[0]).both_lone)
            throw std::logic_error("rule solver: king against king solved by levels");
        LevelValues here = levels.make(level, with_lone);
        DtcScratch dtc;
        dtc.count_binds = count_binds;
        LoneScratch lone;
        const bool in_place = levels.one_block(level);
        ExactLevel exact = read_exact_level(sides[0], levels, level, in_place);
        exact.level = &here;
        levels.for_each_block(level, block_positions_, [&](const Block& b) {
            solve_dtc_block(sides, b, dtc, counts, above, in_place ? here.dtc.data() : nullptr, exact,
                            with_lone ? &lone : nullptr);
            if (with_lone) solve_lone_block(sides, b, lone, above, true);
            emit(sides, b, dtc, in_place, with_lone ? &lone : nullptr, here);
        });
        count_binds = dtc.count_binds;
        return here;
    }

    // The generator's level of the pair (set_exact_levels), where there is
    // one sound and of that pair; `in_order` where the level is solved in
    // place (PairLevels::one_block).
    ExactLevel read_exact_level(const MaterialSignature& key, const PairLevels& levels, int level,
                                bool in_order) const {
        ExactLevel exact;
        const std::uint64_t n = levels.positions(level);
        if (exact_levels_.empty() || n == 0) return exact;
        exact.path = level_file_path(exact_levels_, level);
        if (!scratch_file_done(exact.path, n, key)) return exact;
        auto file = compress::TableFile::open(exact.path, nullptr);
        if (!file || (*file)->header().table.metric != compress::Metric::exact ||
            (*file)->header().table.index_scheme != Index::kVersion)
            return exact;
        exact.known = true;
        if (in_order) {
            exact.in_order = std::move(*file);
            return exact;
        }
        const compress::TableFile& f = **file;
        exact.drawn = Bitmap(n);
        exact.captures = Bitmap(n);
        const std::uint64_t block = std::uint64_t{1} << f.block_shift(), blocks = (n + block - 1) / block;
        ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1)
        for (std::uint64_t k = 0; k < blocks; ++k)
            errors.run([&] {
                LevelReader reader(&f);
                for (std::uint64_t i = k * block; i < std::min(n, (k + 1) * block); ++i) {
                    const std::uint16_t symbol = reader.read(i);
                    if (level_value(symbol) == kDraw) exact.drawn.set(i);
                    if (level_capture(symbol)) exact.captures.set(i);
                }
            });
        errors.rethrow();
        return exact;
    }

    // A solved block into its level's values: T (unless solved in place),
    // the lone-king field, the capture positions.
    void emit(const std::vector<MaterialSignature>& sides, const Block& b, const DtcScratch& dtc, bool in_place,
              const LoneScratch* lone, LevelValues& here) const {
        ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1) if (b.size() >= kParallelPositions)
        for (std::size_t k = 0; k < b.parts.size(); ++k)
            errors.run([&] {
                const Part& p = b.parts[k];
                const std::uint64_t at = here.at(p.side, p.base);
                if (in_place && at != p.offset) throw std::logic_error("rule solver: a block solved out of place");
                for (std::uint64_t j = 0; j < p.size; ++j) {
                    const std::uint64_t l = p.offset + j;
                    if (!in_place) here.dtc[at + j] = dtc.value[l];
                    if (dtc.captures.test(l)) here.captures.set(at + j);
                    if (!lone) continue;
                    try {
                        here.lone[at + j] =
                            std::uint8_t(rule_symbol(RuleEntry{Timed{}, lone->least_win[l], lone->least_loss[l]}) >> 8);
                    } catch (const std::range_error& err) {
                        throw std::runtime_error("rule solver: " + sides[p.side].name() + " position " +
                                                 std::to_string(p.base + j) + ": " + err.what() +
                                                 " does not fit a .dtc symbol");
                    }
                }
            });
        errors.rethrow();
    }

    // The least r that wins and that loses, into the pair's tables.
    void store_lone(const std::vector<MaterialSignature>& sides, const Block& b, const LoneScratch& w) {
        const std::uint64_t per = slots_per_position(table(sides[0]));
        for (const Part& p : b.parts) {
            Table& t = table(sides[p.side]);
            const auto from = std::ptrdiff_t(p.offset * per), to = std::ptrdiff_t(p.base * per);
            std::copy_n(w.least_win.begin() + from, p.size * per, t.least_win.begin() + to);
            std::copy_n(w.least_loss.begin() + from, p.size * per, t.least_loss.begin() + to);
        }
    }

    static constexpr std::uint64_t kBlockPositions = std::uint64_t{1} << 22;

    std::map<MaterialSignature, Table> tables_;
    std::map<MaterialSignature, Table> solving_;  // the pair being solved by levels, without values
    std::unique_ptr<Files> files_;
    std::uint64_t memory_limit_ = 0;
    std::uint64_t whole_below_ = 0;
    std::uint64_t block_positions_ = kBlockPositions;
    std::filesystem::path exact_levels_;
};

}  // namespace dtb
