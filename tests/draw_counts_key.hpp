// A position with the counts of DrawCounts (rules/draw_tracker.hpp): the
// memo key of the tests' minimax searches over moves and counts.
#pragma once

#include <cstdint>

#include "rules/draw_tracker.hpp"

namespace dtb {

template <class V>
struct CountedPosition {
    Position<V> pos;
    typename DrawCounts<V>::Key counts;
    friend bool operator==(const CountedPosition&, const CountedPosition&) = default;
};

struct CountedPositionHash {
    template <class V>
    std::size_t operator()(const CountedPosition<V>& k) const {
        std::uint64_t h = k.pos.pieces[White] * 0x9E3779B97F4A7C15ULL ^ k.pos.pieces[Black] * 0xC2B2AE3D27D4EB4FULL;
        h ^= (k.pos.kings + std::uint64_t(k.pos.side_to_move)) * 0x165667B19E3779F9ULL;
        h ^= std::uint64_t(std::uint16_t(k.counts.plies_since_conversion)) << 40;
        h ^= std::uint64_t(std::uint16_t(k.counts.plies_of_kings_only)) << 20;
        h ^= std::uint64_t(std::uint8_t(k.counts.stronger)) << 56;
        for (std::int8_t c : k.counts.lone) h = (h ^ std::uint8_t(c)) * 0x100000001B3ULL;
        return std::size_t(h ^ (h >> 29));
    }
};

}  // namespace dtb
