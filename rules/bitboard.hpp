// Bitboards: one bit per playable square, in the "ghost square" layout of
// geometry.hpp. Small named helpers so that move generation reads as intent.
#pragma once

#include <bit>
#include <cstdint>

namespace dtb {

using Bitboard = std::uint64_t;

constexpr Bitboard bit(int index) { return Bitboard{1} << index; }
constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr int lowest_bit(Bitboard b) { return std::countr_zero(b); }
constexpr int highest_bit(Bitboard b) { return 63 - std::countl_zero(b); }
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// Removes the lowest set bit and returns its index.
inline int pop_lowest(Bitboard& b) {
    const int index = lowest_bit(b);
    b &= b - 1;
    return index;
}

// Iterate the set bits: for (int sq : bits_of(b)) ...
class BitIterator {
public:
    constexpr explicit BitIterator(Bitboard b) : rest_(b) {}
    constexpr int operator*() const { return lowest_bit(rest_); }
    constexpr BitIterator& operator++() {
        rest_ &= rest_ - 1;
        return *this;
    }
    constexpr bool operator!=(const BitIterator& other) const { return rest_ != other.rest_; }

private:
    Bitboard rest_;
};

struct bits_of {
    Bitboard b;
    constexpr BitIterator begin() const { return BitIterator(b); }
    constexpr BitIterator end() const { return BitIterator(0); }
};

}  // namespace dtb
