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
// distance in plies, or kLevelDraw.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "compress/table_file.hpp"
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

}  // namespace dtb
