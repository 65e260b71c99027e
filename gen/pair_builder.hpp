// Builds one pair (a signature and its mirror) level by level
// (gen/slices.hpp, docs/GENERATOR.md): each level is solved from the level
// above and the smaller tables, written to a scratch file, and kept in
// memory only until the level below has been initialised from it. When the
// last level is done the pair's files are written in index order from the
// scratch files, which are then removed.
#pragma once

#include <omp.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "format/table_file.hpp"
#include "gen/child_tables.hpp"
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
    std::uint64_t parallel_positions = std::uint64_t{1} << 17;
    SolveProgress progress;
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
    }

    // Solves what the scratch files do not hold yet and writes the pair's
    // files; returns the stats of each side.
    std::vector<TableStats> build() {
        const auto start = std::chrono::steady_clock::now();
        std::filesystem::create_directories(work_);
        int symbol_bytes = 1;
        try {
            solve_levels<std::uint8_t>();
        } catch (const DistanceOverflow&) {
            symbol_bytes = 2;  // the levels written so far are kept: their files hold any distance
            solve_levels<std::uint16_t>();
        }
        solve_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::vector<TableStats> out;
        for (std::size_t s = 0; s < indexes_.size(); ++s) out.push_back(write_side(int(s), symbol_bytes));
        std::filesystem::remove_all(work_);
        std::error_code busy;  // another pair's scratch files (another process of an MPI run)
        std::filesystem::remove(work_.parent_path(), busy);
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

    // One solved level: its members and its sides (which point into them).
    template <class T>
    struct Level {
        std::vector<RankedBitmap> members;
        std::vector<LevelSide<V, T>> sides;
    };

    std::uint64_t level_positions(int level) const {
        if (level >= level_count_) return 0;
        std::uint64_t n = 0;
        for (std::size_t s = 0; s < levels_.size(); ++s) n += levels_[s].placements(level) * indexes_[s].king_ways();
        return n;
    }

    template <class T>
    std::unique_ptr<Level<T>> make_level(int level) const {
        auto l = std::make_unique<Level<T>>();
        l->members.reserve(levels_.size());
        for (const auto& side_levels : levels_) l->members.push_back(side_levels.members(level));
        for (std::size_t s = 0; s < levels_.size(); ++s) l->sides.emplace_back(indexes_[s], l->members[s]);
        return l;
    }

    // Whether the scratch file of `level` is complete and sound.
    bool level_done(int level) const {
        const auto path = level_file_path(work_, level);
        if (!std::filesystem::exists(path)) return false;
        auto file = format::TableFile::open(path, nullptr);
        if (!file || (*file)->verify() || (*file)->position_count() != level_positions(level) ||
            (*file)->header().table.material != file_material(key_)) {
            std::filesystem::remove(path);  // made again below
            return false;
        }
        return true;
    }

    template <class T>
    void load_level(int level, Level<T>& l) const {
        auto file = format::TableFile::open(level_file_path(work_, level), nullptr);
        if (!file) throw std::runtime_error(file.error().message);
        BlockWindow window(std::size_t{1} << 18, std::size_t{1} << 17);
        std::uint64_t at = 0;
        for (auto& side : l.sides) {
            side.values.resize(side.size());
            for (std::uint64_t i = 0; i < side.size(); ++i, ++at) {
                const int v = level_value(window.read(**file, at));
                if (v != kDraw && v > ValueCodec<T>::kMaxDistance)
                    throw DistanceOverflow("a stored distance does not fit");
                side.values[i] = encode_value<T>(v);
            }
        }
    }

    template <class T>
    void write_level(int level, const Level<T>& l) const {
        std::vector<const LevelSide<V, T>*> sides;
        for (const auto& s : l.sides) sides.push_back(&s);
        const std::uint64_t first_size = sides[0]->size();
        format::write_table(level_file_path(work_, level),
                            level_description(settings_.variant, key_, PositionIndex<V>::kVersion),
                            level_positions(level),
                            format::SymbolSource<std::uint16_t>([&](std::uint64_t first, std::span<std::uint16_t> out) {
                                for (std::size_t j = 0; j < out.size(); ++j) {
                                    const std::uint64_t i = first + j;
                                    const LevelSide<V, T>& side = i < first_size ? *sides[0] : *sides[1];
                                    const std::uint64_t k = i < first_size ? i : i - first_size;
                                    out[j] = level_symbol(decode_value(side.values[k]), side.captures.test(k));
                                }
                            }),
                            {}, level_writer_options());
    }

    template <class T>
    void solve_levels() {
        const std::uint64_t need = solving_bytes(int(sizeof(T)));
        if (need > settings_.memory.solving_bytes())
            throw std::runtime_error(key_.name() + " needs " + format_bytes(need) + " to solve its largest slice; " +
                                     settings_.memory.describe() + ": give more with --memory");
        // Levels done in an earlier run (from the top down) are not solved
        // again; the lowest of them is loaded as the level above.
        int level = level_count_ - 1;
        illegal_.assign(indexes_.size(), 0);
        for (; level >= 0 && (level_positions(level) == 0 || level_done(level)); --level) {
            const auto done = make_level<T>(level);
            for (std::size_t s = 0; s < done->sides.size(); ++s) illegal_[s] += done->sides[s].count_illegal();
        }
        if (level < 0) return;  // every slice is done: only the files are left to write
        std::unique_ptr<Level<T>> above;
        if (level + 1 < level_count_) {
            above = make_level<T>(level + 1);
            load_level(level + 1, *above);
        }
        const ChildTables<V> children(settings_.dir, settings_.variant, reachable_signatures(key_));
        Readers readers;
        const int threads = omp_get_max_threads();
        for (int t = 0; t < threads; ++t) readers.emplace_back(children, settings_.memory.window_bytes(threads));
        for (; level >= 0; --level) {
            auto here = make_level<T>(level);
            if (level_positions(level) > 0) {
                LevelSolver<V, T> solver(here->sides, above ? &above->sides : nullptr, readers,
                                         settings_.parallel_positions);
                const std::string stage = "slice " + std::to_string(level) + " ";
                solver.solve(SolveProgress{[&](const std::string& s, std::uint64_t done, std::uint64_t total) {
                    settings_.progress(stage + s, done, total);
                }});
                if constexpr (sizeof(T) > 2 || ValueCodec<T>::kMaxDistance > kLevelMaxDistance)
                    for (const auto& side : here->sides)
                        for (const T v : side.values)
                            if (v != ValueCodec<T>::kDrawSymbol && int(v) > kLevelMaxDistance)
                                throw std::runtime_error(key_.name() + ": a distance above " +
                                                         std::to_string(kLevelMaxDistance) + " plies");
                write_level(level, *here);
                for (std::size_t s = 0; s < here->sides.size(); ++s) illegal_[s] += here->sides[s].illegal_slots;
            }
            for (auto& side : here->sides) side.captures = Bitmap();
            above = std::move(here);
        }
    }

    TableStats write_side(int s, int symbol_bytes) const;

    MaterialSignature key_;
    const PairSettings& settings_;
    std::filesystem::path work_;
    std::vector<PositionIndex<V>> indexes_;
    std::vector<SideLevels<V>> levels_;
    int level_count_ = 0;
    std::vector<std::uint64_t> illegal_;  // per side, over every level
    double solve_seconds_ = 0;
};

}  // namespace dtb

#include "gen/pair_writer.hpp"
