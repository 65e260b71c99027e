// The generator's scratch files: one per solved level of a pair, in
// DIR/.dtb-work/VARIANT-PAIR/level-NN.slice, holding the exact value of
// every position of the level (side to move's signature first, then its
// mirror's; each in men rank order) and whether its side to move has a
// capture. They are table files (metric exact, 16-bit symbols, zstd's
// fastest level, no fsync: a damaged one fails its checksums and is made
// again), read back block by block when the pair's final files are
// written, and removed after.
//
// Symbol: bit 15 set when the side to move has a capture; bits 0..14 the
// distance in plies, or kLevelDraw. The rule solver (gen/rule_solver.hpp)
// writes its levels the same way, in DIR/.dtb-work/VARIANT-PAIR.dtc/, with
// the .dtc symbol (tables/rule_values.hpp) in bits 0..14.
//
// A run that builds the .dtc files too (dtb gen --dtc) keeps each pair's
// levels after its .wdl and .dtw are written, in
// DIR/.dtb-work/VARIANT-PAIR.exact/: the rule solver reads there which
// positions are drawn without the counts (they are drawn under them) and
// removes them once the pair's .dtc files are written.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "compress/table_file.hpp"
#include "gen/parallel_errors.hpp"
#include "gen/slices.hpp"
#include "rules/variant.hpp"
#include "tables/material_signature.hpp"
#include "tables/table_names.hpp"
#include "tables/values.hpp"

namespace dtb {

inline constexpr std::uint16_t kLevelDraw = 0x7FFF;
inline constexpr std::uint16_t kLevelCapture = 0x8000;
inline constexpr int kLevelMaxDistance = kLevelDraw - 1;

inline std::uint16_t level_symbol(int value, bool capture) {
    if (value > kLevelMaxDistance) throw DistanceOverflow("a distance above " + std::to_string(kLevelMaxDistance));
    return std::uint16_t((value == kDraw ? kLevelDraw : std::uint16_t(value)) | (capture ? kLevelCapture : 0));
}
inline int level_value(std::uint16_t symbol) {
    const std::uint16_t v = symbol & ~kLevelCapture;
    return v == kLevelDraw ? kDraw : int(v);
}
inline bool level_capture(std::uint16_t symbol) { return (symbol & kLevelCapture) != 0; }

inline std::filesystem::path pair_work_dir(const std::filesystem::path& dir, VariantId variant,
                                           const MaterialSignature& key) {
    return dir / ".dtb-work" / table_basename(variant, key);
}

// Where a pair's levels wait for its .dtc files (dtb gen --dtc).
inline std::filesystem::path exact_levels_dir(const std::filesystem::path& dir, VariantId variant,
                                              const MaterialSignature& key) {
    return dir / ".dtb-work" / (table_basename(variant, key) + ".exact");
}

// Where a format 3 run keeps the full .wdl and .dtw files of the sides it
// leaves out (gen/pair_writer.hpp), for the pairs built after them in the
// same run to read instead of searching; removed at the end of the run.
inline std::filesystem::path full_sides_dir(const std::filesystem::path& dir) {
    return dir / ".dtb-work" / "sides-left-out";
}

// Where a run keeps the exact values of every table it builds, capture
// positions included (VARIANT-SIG.raw, as dtb gen --keep-raw writes them but
// in blocks of 16 KiB), for the pairs built on them to read in one look-up
// instead of searching the captures that the .wdl and .dtw files leave out
// (ChildTables). Removed at the end of the run unless asked to keep them
// (dtb gen --keep-exact-values).
inline std::filesystem::path exact_values_dir(const std::filesystem::path& dir) {
    return dir / ".dtb-work" / "exact-values";
}

inline std::filesystem::path level_file_path(const std::filesystem::path& work, int level) {
    return work / ((level < 10 ? "level-0" : "level-") + std::to_string(level) + ".slice");
}

// The part of a level that process `part` of an MPI run solved
// (docs/GENERATOR.md, "Many machines"): level-NN.part-P-of-N.slice.
inline std::filesystem::path level_part_path(const std::filesystem::path& work, int level, int part, int parts) {
    std::string name = level_file_path(work, level).stem().string();
    name += ".part-" + std::to_string(part) + "-of-" + std::to_string(parts) + ".slice";
    return work / name;
}

// Whether a scratch file holds a finished level of `key`'s pair: there,
// sound (every checksum), of `positions` positions. One that is not is
// removed (quietly if another process removed it first), to be made again.
inline bool scratch_file_done(const std::filesystem::path& path, std::uint64_t positions,
                              const MaterialSignature& key) {
    if (!std::filesystem::exists(path)) return false;
    auto file = compress::TableFile::open(path, nullptr);
    if (!file || (*file)->verify() || (*file)->position_count() != positions ||
        (*file)->header().table.material != file_material(key)) {
        std::error_code gone;
        std::filesystem::remove(path, gone);
        return false;
    }
    return true;
}

// Reads a level's symbols in order: from its file, one block at a time (a
// level file is read front to back, so one block per file is all a reader
// needs), or from memory, where a small pair keeps its levels instead of
// writing them (PairBuilder).
class LevelReader {
public:
    // `file` may be null for a level without positions, which is never read.
    explicit LevelReader(const compress::TableFile* file) : file_(file) {}
    explicit LevelReader(std::span<const std::uint16_t> held) : file_(nullptr), held_(held) {}

    std::uint16_t read(std::uint64_t index) {
        if (file_ == nullptr) return held_[index];
        const unsigned shift = file_->block_shift();
        if (index >> shift != number_) {
            auto block = file_->read_block(index >> shift);
            if (!block) throw std::runtime_error(block.error().message);
            data_ = std::move(*block);
            number_ = index >> shift;
            positions_ = file_->block_positions(number_);
        }
        return compress::decode_symbol(data_.data(), positions_,
                                       std::uint32_t(index & ((std::uint64_t{1} << shift) - 1)), 16);
    }

private:
    const compress::TableFile* file_;
    std::span<const std::uint16_t> held_;
    std::uint64_t number_ = ~std::uint64_t{0};
    std::uint32_t positions_ = 0;
    std::vector<std::uint8_t> data_;
};

inline compress::TableDescription level_description(VariantId variant, const MaterialSignature& key,
                                                    std::uint32_t index_version) {
    compress::TableDescription d;
    d.variant = file_variant(variant);
    d.material = file_material(key);
    d.metric = compress::Metric::exact;
    d.index_scheme = index_version;
    return d;
}

inline compress::WriterOptions level_writer_options() {
    compress::WriterOptions o;
    o.positions_per_block = 1 << 16;
    o.zstd_level = 1;
    o.durable = false;
    return o;
}

// Reads one side's symbols in index order from its pair's level files (or
// levels held in memory): men rank r of the side lies in level level_of(r), at its ordinal
// among that level's placements.
template <class V>
class SideSymbols {
public:
    // `levels_read`: a reader of each level, not yet used.
    SideSymbols(const PositionIndex<V>& index, const SideLevels<V>& levels, const std::vector<LevelReader>& levels_read,
                std::vector<std::uint64_t> base)
        : index_(index), levels_(levels), level_count_(levels_read.size()), base_(std::move(base)) {
        // Each thread reads each level's file in order: one block per level
        // is all it needs, and a slot of its own per level never evicts
        // another level's block (a shared hashed window did, again and again,
        // in pairs whose men ranks alternate between many levels).
        readers_.reserve(std::size_t(omp_get_max_threads()) * level_count_);
        for (int t = 0; t < omp_get_max_threads(); ++t)
            readers_.insert(readers_.end(), levels_read.begin(), levels_read.end());
    }

    // Symbols of positions first .. first + out.size() - 1; from any OpenMP thread.
    void fill(std::uint64_t first, std::span<std::uint16_t> out) {
        LevelReader* reader = &readers_[std::size_t(omp_get_thread_num()) * level_count_];
        const std::uint64_t k = index_.king_ways();
        std::vector<std::int64_t> ordinal(std::size_t(levels_.levels()), -1);
        std::uint64_t rank = ~std::uint64_t{0}, at = 0;
        int level = 0;
        for (std::size_t j = 0; j < out.size(); ++j) {
            const std::uint64_t i = first + j;
            if (i / k != rank) {
                // Every rank from the first on is visited, so the next
                // member of a level seen before is the one after it.
                rank = i / k;
                level = levels_.level_of(rank);
                std::int64_t& o = ordinal[std::size_t(level)];
                o = o < 0 ? std::int64_t(levels_.ordinal(rank, level)) : o + 1;
                at = base_[std::size_t(level)] + std::uint64_t(o) * k;
            }
            out[j] = reader[level].read(at + i % k);
        }
    }

    // Calls visit(first, symbols) for every run of up to 2^16 positions of
    // the side, in index order within a run, from several OpenMP threads at
    // once; rethrows the first failure once all have stopped.
    template <class Visit>
    void for_each_run(const Visit& visit) {
        constexpr std::uint64_t kRun = std::uint64_t{1} << 16;
        const std::uint64_t n = index_.size();
        ParallelErrors errors;
#pragma omp parallel
        {
            std::vector<std::uint16_t> buffer(kRun);
#pragma omp for schedule(dynamic, 1)
            for (std::uint64_t c = 0; c < (n + kRun - 1) / kRun; ++c)
                errors.run([&] {
                    const std::uint64_t first = c * kRun, count = std::min(kRun, n - first);
                    fill(first, std::span(buffer.data(), count));
                    visit(first, std::span<const std::uint16_t>(buffer.data(), count));
                });
        }
        errors.rethrow();
    }

private:
    const PositionIndex<V>& index_;
    const SideLevels<V>& levels_;
    std::size_t level_count_;
    std::vector<std::uint64_t> base_;

    std::vector<LevelReader> readers_;  // thread t, level l: readers_[t * levels + l]
};

}  // namespace dtb
