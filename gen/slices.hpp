// The slices of a pair (docs/GENERATOR.md): positions grouped by how far
// their men have advanced. A man never moves backwards, so a plain man move
// raises a position's advancement by exactly one, a king move keeps it, and
// captures and crownings leave the pair. Slice (level) L therefore needs
// only the tables below and level L + 1 of its own pair; the generator
// solves the levels from the most advanced down.
//
// Every position of a men placement lies in one level, and in the index the
// positions of one men placement are one run (PositionIndex::men_rank), so
// a level is a set of men ranks on each side.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "rules/bitboard.hpp"
#include "rules/position.hpp"
#include "tables/position_index.hpp"

namespace dtb {

// How many rows the men of `pos` have advanced, summed over both sides:
// 0 for a man on its own back row, one more per row towards its crowning row.
template <class V>
int advancement(const Position<V>& pos) {
    using Board = typename V::Board;
    int total = 0;
    for (int row = 0; row < Board::width; ++row) {
        const Bitboard on_row = Board::make_row(row);
        // White crowns on row 0, Black on the last row.
        total += popcount(pos.men(White) & on_row) * (Board::width - 1 - row) + popcount(pos.men(Black) & on_row) * row;
    }
    return total;
}

// A set of numbers 0..n-1 that answers "how many members are below x" in
// constant time: one bit each, and a running count per 64.
class RankedBitmap {
public:
    RankedBitmap() = default;
    explicit RankedBitmap(std::uint64_t n) : words_((n + 63) / 64, 0), before_(words_.size() + 1, 0) {}

    void set(std::uint64_t x) { words_[x / 64] |= std::uint64_t{1} << (x % 64); }
    // Call once every member is set.
    void finish() {
        for (std::size_t w = 0; w < words_.size(); ++w)
            before_[w + 1] = before_[w] + std::uint64_t(popcount(words_[w]));
    }
    // Members below x (x itself a member: its ordinal).
    std::uint64_t rank(std::uint64_t x) const {
        return before_[x / 64] + std::uint64_t(popcount(words_[x / 64] & ((std::uint64_t{1} << (x % 64)) - 1)));
    }
    std::uint64_t count() const { return before_.back(); }

    template <class F>
    void for_each(F&& f) const {
        for (std::size_t w = 0; w < words_.size(); ++w)
            for (int j : bits_of{words_[w]}) f(std::uint64_t(w * 64 + std::size_t(j)));
    }

private:
    std::vector<std::uint64_t> words_;
    std::vector<std::uint64_t> before_;  // members in the words before
};

// The level of each men placement of one side of a pair.
template <class V>
class SideLevels {
public:
    explicit SideLevels(const PositionIndex<V>& index) : level_of_(index.men_count()) {
        const std::uint64_t n = index.men_count(), k = index.king_ways();
        int top = 0;
#pragma omp parallel reduction(max : top) if (n > (1u << 16))
        {
            typename PositionIndex<V>::Cursor cursor(index);
#pragma omp for schedule(static)
            for (std::uint64_t r = 0; r < n; ++r) {
                const int level = advancement(cursor.at(r * k));
                level_of_[r] = std::uint8_t(level);
                top = std::max(top, level);
            }
        }
        levels_ = n == 0 ? 0 : top + 1;
        // Running counts per level every kStride placements, for ordinals
        // in index order (the final files are written in that order).
        const std::uint64_t strides = n / kStride + 1;
        before_.assign(strides * std::uint64_t(levels_), 0);
        std::vector<std::uint64_t> count(std::size_t(levels_), 0);
        for (std::uint64_t r = 0; r < n; ++r) {
            if (r % kStride == 0)
                std::copy(count.begin(), count.end(), before_.begin() + std::ptrdiff_t(r / kStride * levels_));
            ++count[level_of_[r]];
        }
        counts_ = count;
    }

    int levels() const { return levels_; }
    int level_of(std::uint64_t men_rank) const { return level_of_[men_rank]; }
    std::uint64_t placements(int level) const { return counts_[std::size_t(level)]; }
    std::uint64_t men_count() const { return level_of_.size(); }

    // The men ranks of a level.
    RankedBitmap members(int level) const {
        RankedBitmap m(level_of_.size());
        for (std::uint64_t r = 0; r < level_of_.size(); ++r)
            if (level_of_[r] == level) m.set(r);
        m.finish();
        return m;
    }

    // The placements of `level` before men rank r (a scan of at most
    // kStride bytes: for starting a walk in index order, not per position).
    std::uint64_t ordinal(std::uint64_t r, int level) const {
        const std::uint64_t stride = r / kStride;
        std::uint64_t n = before_[stride * std::uint64_t(levels_) + std::uint64_t(level)];
        for (std::uint64_t x = stride * kStride; x < r; ++x) n += level_of_[x] == level;
        return n;
    }

    std::uint64_t bytes() const { return level_of_.size() + before_.size() * 8; }

private:
    static constexpr std::uint64_t kStride = 4096;
    std::vector<std::uint8_t> level_of_;
    std::vector<std::uint64_t> before_;
    std::vector<std::uint64_t> counts_;
    int levels_ = 0;
};

}  // namespace dtb
