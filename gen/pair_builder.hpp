// Builds one pair (a signature and its mirror) level by level
// (gen/slices.hpp, docs/GENERATOR.md): each level is solved from the level
// above and the smaller tables, written to a scratch file, and kept in
// memory only until the level below has been initialised from it. When the
// last level is done the pair's files are written in index order from the
// scratch files, which are then removed. A small pair holds its solved
// levels in memory instead (PairSettings::held_slices_positions): the
// scratch files' compression and reading back cost more than their
// resumability is worth there.
//
// Under MPI a large pair is solved by a team of processes: each solves one
// part of every level (a set of men placements closed under the king moves,
// so the parts do not talk while they are solved), and after each level
// every process reads the whole level back from the parts' files to solve
// the level below (docs/GENERATOR.md, "Many machines").
#pragma once

#include <omp.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "compress/table_file.hpp"
#include "gen/child_tables.hpp"
#include "gen/cluster.hpp"
#include "gen/level_file.hpp"
#include "gen/level_solver.hpp"
#include "gen/memory_budget.hpp"
#include "gen/slices.hpp"
#include "gen/table_writer.hpp"
#include "tables/manifest.hpp"
#include "tables/signatures.hpp"

namespace dtb {

struct PairSettings {
    VariantId variant = VariantId::Russian;
    std::filesystem::path dir;
    MemoryBudget memory;
    bool keep_raw = false;
    std::uint32_t format_version = compress::kDefaultFormatVersion;  // of the .wdl and .dtw files (GenerateOptions)
    std::uint64_t parallel_positions = std::uint64_t{1} << 17;
    // A pair of fewer positions keeps its solved levels in memory, when they
    // fit, rather than in scratch files (GenerateOptions).
    std::uint64_t held_slices_positions = 0;
    // Keep the solved levels once the files are written, for the rule
    // solver (exact_levels_dir; GenerateOptions).
    bool keep_exact_levels = false;
    // Write each table's exact values to exact_values_dir, and read the
    // smaller tables' values there where they are (GenerateOptions).
    bool exact_values = true;
    SolveProgress progress;
    // The processes that solve this pair together, each a part of every
    // level; null (or a team of one): this process alone.
    const Cluster* team = nullptr;
};

template <class V>
class PairBuilder {
public:
    PairBuilder(const MaterialSignature& key, const PairSettings& settings)
        : key_(key), settings_(settings), work_(pair_work_dir(settings.dir, settings.variant, key)) {
        indexes_.emplace_back(key);
        if (!key.is_symmetric()) indexes_.emplace_back(key.mirror());
        for (const auto& index : indexes_) levels_.emplace_back(index);
        level_count_ = 0;
        for (const auto& l : levels_) level_count_ = std::max(level_count_, l.levels());
        if (settings.team && settings.team->size() > 1) {
            part_ = settings.team->rank();
            parts_ = settings.team->size();
        }
    }

    // Solves what the scratch files do not hold yet and writes the pair's
    // files; returns the stats of each side.
    std::vector<TableStats> build() {
        const auto start = std::chrono::steady_clock::now();
        if (holds_levels()) held_.resize(std::size_t(level_count_));
        int symbol_bytes = 1;
        try {
            solve_levels<std::uint8_t>();
        } catch (const DistanceOverflow&) {
            symbol_bytes = 2;  // the levels written so far are kept: their files hold any distance
            solve_levels<std::uint16_t>();
        }
        solve_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // Each process counted the illegal slots of its own parts.
        if (parts_ > 1) illegal_ = settings_.team->sum(illegal_);
        std::vector<TableStats> out;
        team_step([&] {
            for (std::size_t s = 0; s < indexes_.size(); ++s)
                if (int(s) % parts_ == part_) out.push_back(write_side(int(s), symbol_bytes));
        });
        if (settings_.format_version >= 3 && indexes_.size() == 2) leave_out_larger_side(out);
        // Left behind if it cannot be removed: a later run of the same
        // pair starts by checking what it holds. (The parent directory is
        // removed by generate_tables, once no process can be making another
        // pair's directory in it.)
        std::error_code left;
        if (part_ == 0) {
            if (settings_.keep_exact_levels) keep_exact_levels();
            std::filesystem::remove_all(work_, left);
        }
        held_.clear();
        return out;
    }

    // The most positions held in memory at once: a level and the one above.
    std::uint64_t positions_in_flight() const {
        std::uint64_t most = 0;
        for (int level = 0; level < level_count_; ++level)
            most = std::max(most, level_positions(level) + level_positions(level + 1));
        return most;
    }

    // Memory the solving needs at its peak, beyond the windows on the
    // smaller tables, with symbols of `symbol_bytes` bytes.
    std::uint64_t solving_bytes(int symbol_bytes) const {
        std::uint64_t most = 0;
        for (int level = 0; level < level_count_; ++level) {
            // Values, a king-move count and three bits per position here,
            // values above, the placements lists and the two levels'
            // membership bitmaps.
            const std::uint64_t here = level_positions(level), above = level_positions(level + 1);
            std::uint64_t bytes =
                here * (std::uint64_t(symbol_bytes) + 1) + here * 3 / 8 + above * std::uint64_t(symbol_bytes);
            for (std::size_t s = 0; s < levels_.size(); ++s)
                bytes += 8 * (levels_[s].placements(level) +
                              (level + 1 < level_count_ ? levels_[s].placements(level + 1) : 0)) +
                         2 * (levels_[s].men_count() / 8 + levels_[s].men_count() / 8);
            most = std::max(most, bytes);
        }
        for (const auto& l : levels_) most += l.bytes();
        return most;
    }

private:
    using Readers = std::vector<typename ChildTables<V>::Reader>;

    // One solved level (or part of a level): its members and its sides
    // (which point into them).
    template <class T>
    struct Level {
        std::vector<RankedBitmap> members;
        std::vector<LevelSide<V, T>> sides;
        std::uint64_t positions() const {
            std::uint64_t n = 0;
            for (const auto& side : sides) n += side.size();
            return n;
        }
    };

    // The part of each men placement of a level, per side, in the level's
    // placement order; empty when the level is not cut into parts. A
    // placement and its mirror image (where its king moves lead: the same
    // men seen from the other side) are in the same part, so every king
    // move stays in its part; the parts are runs of side 0's placements of
    // nearly equal length.
    using PartMap = std::vector<std::vector<std::uint16_t>>;

    std::uint64_t pair_positions() const {
        std::uint64_t n = 0;
        for (const auto& index : indexes_) n += index.size();
        return n;
    }

    // Whether the solved levels are held in memory rather than written to
    // scratch files: for a pair solved by this process alone, smaller than
    // the setting, whose levels (two bytes a position, as in the files) fit
    // beside its solving, and of which no earlier run left scratch files to
    // go on from.
    bool holds_levels() const {
        if (parts_ > 1 || pair_positions() >= settings_.held_slices_positions) return false;
        std::error_code error;
        if (std::filesystem::exists(work_, error) && !std::filesystem::is_empty(work_, error)) return false;
        return 2 * pair_positions() + solving_bytes(2) <= settings_.memory.solving_bytes();
    }
    bool holding() const { return !held_.empty(); }

    // A solved level's reader: from memory or from its file (null when the
    // level has no positions).
    LevelReader level_reader(int level, const compress::TableFile* file) const {
        if (holding()) return LevelReader(std::span<const std::uint16_t>(held_[std::size_t(level)]));
        return LevelReader(file);
    }

    std::uint64_t level_positions(int level) const {
        if (level >= level_count_) return 0;
        std::uint64_t n = 0;
        for (std::size_t s = 0; s < levels_.size(); ++s) n += levels_[s].placements(level) * indexes_[s].king_ways();
        return n;
    }

    PartMap part_map(int level) const {
        if (parts_ == 1) return {};
        const RankedBitmap first = levels_[0].members(level);
        const std::uint64_t n = first.count();
        PartMap map(levels_.size());
        for (std::size_t s = 0; s < levels_.size(); ++s) {
            const RankedBitmap members = s == 0 ? first : levels_[s].members(level);
            typename PositionIndex<V>::Cursor cursor(indexes_[s]);
            const std::uint64_t k = indexes_[s].king_ways();
            map[s].reserve(members.count());
            members.for_each([&](std::uint64_t r) {
                // Side 0 of a pair of two goes by its own order, the mirror
                // side by its image's; a symmetric side by the lower of the two.
                std::uint64_t o = 0;
                if (s == 0 && indexes_.size() == 2) {
                    o = first.rank(r);
                } else {
                    const std::uint64_t image = first.rank(indexes_[0].men_rank(flip(cursor.at(r * k))));
                    o = s == 1 ? image : std::min(first.rank(r), image);
                }
                map[s].push_back(std::uint16_t(o * std::uint64_t(parts_) / n));
            });
        }
        return map;
    }

    // A level, or only the placements of `part` when `map` is not empty.
    template <class T>
    std::unique_ptr<Level<T>> make_level(int level, const PartMap& map = {}, int part = 0) const {
        auto l = std::make_unique<Level<T>>();
        l->members.reserve(levels_.size());
        for (std::size_t s = 0; s < levels_.size(); ++s) {
            RankedBitmap all = levels_[s].members(level);
            if (map.empty()) {
                l->members.push_back(std::move(all));
                continue;
            }
            RankedBitmap mine(levels_[s].men_count());
            std::size_t o = 0;
            all.for_each([&](std::uint64_t r) {
                if (map[s][o++] == part) mine.set(r);
            });
            mine.finish();
            l->members.push_back(std::move(mine));
        }
        for (std::size_t s = 0; s < levels_.size(); ++s) l->sides.emplace_back(indexes_[s], l->members[s]);
        return l;
    }

    // Whether a scratch file is complete and sound; a damaged one is removed.
    bool file_done(const std::filesystem::path& path, std::uint64_t positions) const {
        return scratch_file_done(path, positions, key_);
    }
    bool level_done(int level) const {
        if (holding()) return held_[std::size_t(level)].size() == level_positions(level);
        return file_done(level_file_path(work_, level), level_positions(level));
    }

    // Reads a whole level from its file, or from its parts' files when `map`
    // is not empty; the capture bits too when asked.
    template <class T>
    void load_level(int level, Level<T>& l, const PartMap& map = {}, bool with_captures = false) const {
        const int parts = map.empty() ? 1 : parts_;
        std::vector<std::unique_ptr<compress::TableFile>> files(static_cast<std::size_t>(parts));
        std::vector<LevelReader> readers;
        for (int p = 0; p < parts; ++p) {
            const auto path = map.empty() ? level_file_path(work_, level) : level_part_path(work_, level, p, parts_);
            if (!holding() && (std::filesystem::exists(path) || map.empty())) {  // a part without positions has no file
                auto file = compress::TableFile::open(path, nullptr);
                if (!file) throw std::runtime_error(file.error().message);
                files[std::size_t(p)] = std::move(*file);
            }
            readers.push_back(level_reader(level, files[std::size_t(p)].get()));
        }
        std::vector<std::uint64_t> at(static_cast<std::size_t>(parts), 0);  // the next position of each file
        for (std::size_t s = 0; s < l.sides.size(); ++s) {
            auto& side = l.sides[s];
            side.values.resize(side.size());
            if (with_captures) side.captures = Bitmap(side.size());
            for (std::uint64_t i = 0; i < side.size(); ++i) {
                const std::size_t p = map.empty() ? 0 : map[s][i / side.king_ways];
                if (!files[p] && !holding())
                    throw std::runtime_error(level_part_path(work_, level, int(p), parts_).string() + ": missing");
                const std::uint16_t symbol = readers[p].read(at[p]++);
                const int v = level_value(symbol);
                if (v != kDraw && v > ValueCodec<T>::kMaxDistance)
                    throw DistanceOverflow("a stored distance does not fit");
                side.values[i] = encode_value<T>(v);
                if (with_captures && level_capture(symbol)) side.captures.set(i);
            }
        }
        for (int p = 0; p < parts; ++p)
            if (files[std::size_t(p)] && at[std::size_t(p)] != files[std::size_t(p)]->position_count())
                throw std::runtime_error(level_part_path(work_, level, p, parts_).string() + ": wrong size");
    }

    // Keeps a solved level: in memory when the pair holds its levels, else
    // in its scratch file.
    template <class T>
    void store_level(int level, const Level<T>& l) {
        if (!holding()) return write_level(level_file_path(work_, level), l);
        std::vector<std::uint16_t>& held = held_[std::size_t(level)];
        held.resize(l.positions());
        level_symbols(l, 0, held);
    }

    // The symbols of a level's positions first, first + 1, ... (side 0's
    // positions, then side 1's), as its scratch file holds them.
    template <class T>
    static void level_symbols(const Level<T>& l, std::uint64_t first, std::span<std::uint16_t> out) {
        const std::uint64_t first_size = l.sides[0].size();
        for (std::size_t j = 0; j < out.size(); ++j) {
            const std::uint64_t i = first + j;
            const LevelSide<V, T>& side = i < first_size ? l.sides[0] : l.sides[1];
            const std::uint64_t k = i < first_size ? i : i - first_size;
            out[j] = level_symbol(decode_value(side.values[k]), side.captures.test(k));
        }
    }

    template <class T>
    void write_level(const std::filesystem::path& path, const Level<T>& l) const {
        compress::write_table(
            path, level_description(settings_.variant, key_, PositionIndex<V>::kVersion), l.positions(),
            compress::SymbolSource<std::uint16_t>(
                [&](std::uint64_t first, std::span<std::uint16_t> out) { level_symbols(l, first, out); }),
            {}, level_writer_options());
    }

    // Runs `step` here, then lets every process of the team know whether it
    // failed on any of them, so that all leave together: their collective
    // calls stay in step, and none waits for ever on one that failed.
    template <class F>
    void team_step(F&& step) const {
        std::exception_ptr failure;
        bool overflow = false;
        try {
            step();
        } catch (const DistanceOverflow&) {
            overflow = true;  // every process starts again with wider values
        } catch (...) {
            failure = std::current_exception();
        }
        const bool team = parts_ > 1;
        if (team ? settings_.team->any(failure != nullptr) : failure != nullptr) {
            if (failure) std::rethrow_exception(failure);
            throw std::runtime_error("another process of this run failed while solving " + key_.name() +
                                     " (its message names the cause)");
        }
        if (team ? settings_.team->any(overflow) : overflow) throw DistanceOverflow("a distance does not fit");
    }

    // Solves a level, or a part of one, from the level above.
    template <class T>
    void solve(int level, Level<T>& here, const Level<T>* above, Readers& readers) {
        LevelSolver<V, T> solver(here.sides, above ? &above->sides : nullptr, readers, settings_.parallel_positions);
        const std::string stage = "slice " + std::to_string(level) + " ";
        solver.solve(SolveProgress{[&](const std::string& s, std::uint64_t done, std::uint64_t total) {
            settings_.progress(stage + s, done, total);
        }});
        if constexpr (sizeof(T) > 2 || ValueCodec<T>::kMaxDistance > kLevelMaxDistance)
            for (const auto& side : here.sides)
                for (const T v : side.values)
                    if (v != ValueCodec<T>::kDrawSymbol && int(v) > kLevelMaxDistance)
                        throw std::runtime_error(key_.name() + ": a distance above " +
                                                 std::to_string(kLevelMaxDistance) + " plies");
        for (std::size_t s = 0; s < here.sides.size(); ++s) illegal_[s] += here.sides[s].illegal_slots;
    }

    // This process's part of a level, solved unless an earlier run did,
    // then the whole level read back from every part (and written whole by
    // process 0). Returns the whole level, the level above for the next.
    template <class T>
    std::unique_ptr<Level<T>> solve_part(int level, std::unique_ptr<Level<T>> above, Readers& readers) {
        if (level_positions(level) == 0) return make_level<T>(level);
        const PartMap map = part_map(level);
        team_step([&] {
            auto mine = make_level<T>(level, map, part_);
            const auto path = level_part_path(work_, level, part_, parts_);
            if (mine->positions() == 0) return;
            if (file_done(path, mine->positions())) {
                for (std::size_t s = 0; s < mine->sides.size(); ++s) illegal_[s] += mine->sides[s].count_illegal();
                return;
            }
            solve(level, *mine, above.get(), readers);
            write_level(path, *mine);
        });
        above.reset();
        std::unique_ptr<Level<T>> here;
        team_step([&] {
            here = make_level<T>(level);
            load_level(level, *here, map, part_ == 0);
            if (part_ == 0) write_level(level_file_path(work_, level), *here);
        });
        team_step([&] {  // every process has read the parts
            if (part_ == 0)
                for (int p = 0; p < parts_; ++p) std::filesystem::remove(level_part_path(work_, level, p, parts_));
        });
        return here;
    }

    template <class T>
    void solve_levels() {
        int level = level_count_ - 1;
        std::unique_ptr<Level<T>> above;
        std::unique_ptr<const ChildTables<V>> children;
        Readers readers;
        // Every failure in a step is known to every process of a team.
        team_step([&] {
            if (!holding()) std::filesystem::create_directories(work_);
            const std::uint64_t need = solving_bytes(int(sizeof(T)));
            if (need > settings_.memory.solving_bytes())
                throw std::runtime_error(key_.name() + " needs " + format_bytes(need) +
                                         " to solve its largest slice; " + settings_.memory.describe() +
                                         ": give more with --memory");
            // Levels done in an earlier run (from the top down) are not
            // solved again; the lowest of them is loaded as the level above.
            // Each process counts the illegal slots of its own part of them.
            illegal_.assign(indexes_.size(), 0);
            for (; level >= 0 && (level_positions(level) == 0 || level_done(level)); --level) {
                const auto done = make_level<T>(level, part_map(level), part_);
                for (std::size_t s = 0; s < done->sides.size(); ++s) illegal_[s] += done->sides[s].count_illegal();
            }
            if (level < 0) return;  // every slice is done: only the files are left to write
            if (level + 1 < level_count_) {
                above = make_level<T>(level + 1);
                load_level(level + 1, *above);
            }
            children = std::make_unique<ChildTables<V>>(
                settings_.dir, settings_.variant, reachable_signatures(key_), full_sides_dir(settings_.dir),
                settings_.exact_values ? exact_values_dir(settings_.dir) : std::filesystem::path{});
            const int threads = omp_get_max_threads();
            // The windows take what the slices leave of the solving memory,
            // less the levels held (two bytes a position of the pair).
            const std::uint64_t held = holding() ? 2 * pair_positions() : 0;
            for (int t = 0; t < threads; ++t)
                readers.emplace_back(*children, settings_.memory.window_bytes(threads, need + held));
        });
        for (; level >= 0; --level) {
            if (parts_ > 1) {
                above = solve_part<T>(level, std::move(above), readers);
                continue;
            }
            auto here = make_level<T>(level);
            if (here->positions() > 0) {
                solve(level, *here, above.get(), readers);
                store_level(level, *here);
            }
            for (auto& side : here->sides) side.captures = Bitmap();
            above = std::move(here);
        }
    }

    // Moves the solved levels (written out first where they were held in
    // memory) to where the rule solver reads them (exact_levels_dir).
    void keep_exact_levels() const {
        const std::filesystem::path kept = exact_levels_dir(settings_.dir, settings_.variant, key_);
        std::filesystem::remove_all(kept);
        if (holding()) {
            std::filesystem::create_directories(work_);
            for (int level = 0; level < level_count_; ++level) {
                const std::vector<std::uint16_t>& held = held_[std::size_t(level)];
                if (held.empty()) continue;
                compress::write_table(
                    level_file_path(work_, level),
                    level_description(settings_.variant, key_, PositionIndex<V>::kVersion), held.size(),
                    compress::SymbolSource<std::uint16_t>([&](std::uint64_t first, std::span<std::uint16_t> out) {
                        std::copy_n(held.begin() + std::ptrdiff_t(first), out.size(), out.begin());
                    }),
                    {}, level_writer_options());
            }
        }
        std::filesystem::rename(work_, kept);
    }

    TableStats write_side(int s, int symbol_bytes) const;
    void leave_out_larger_side(std::vector<TableStats>& written) const;

    MaterialSignature key_;
    const PairSettings& settings_;
    std::filesystem::path work_;
    std::vector<PositionIndex<V>> indexes_;
    std::vector<SideLevels<V>> levels_;
    int level_count_ = 0;
    int part_ = 0, parts_ = 1;            // this process's part of each level, and how many parts
    std::vector<std::uint64_t> illegal_;  // per side, over every level
    // Each level's symbols, as its scratch file would hold them, when the
    // pair holds its levels in memory (holds_levels()); else empty.
    std::vector<std::vector<std::uint16_t>> held_;
    double solve_seconds_ = 0;
};

}  // namespace dtb

#include "gen/pair_writer.hpp"
