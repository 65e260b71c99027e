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
#include <string>

#include "format/table_file.hpp"
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

inline format::TableDescription level_description(VariantId variant, const MaterialSignature& key,
                                                  std::uint32_t index_version) {
    format::TableDescription d;
    d.variant = file_variant(variant);
    d.material = file_material(key);
    d.metric = format::Metric::exact;
    d.index_scheme = index_version;
    return d;
}

inline format::WriterOptions level_writer_options() {
    format::WriterOptions o;
    o.positions_per_block = 1 << 16;
    o.zstd_level = 1;
    o.durable = false;
    return o;
}

}  // namespace dtb
