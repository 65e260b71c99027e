// The ways to name a square, as types that do not mix:
//
//   BitIndex  where the square lives in a Bitboard (the ghost layout of
//             rules/geometry.hpp: bit = square + square / W);
//   Square    the square counted from 0 in PDN order (its PDN number - 1);
//   int       the PDN number itself (1..32, 1..50), what people read.
//
// Geometry<W> converts between them (bit_of, square_of, pdn_number,
// square_numbered). Move generation and the solver work on Bitboards and raw
// bit numbers (Move::from, Move::to); code that hands a square to notation,
// to the C API or to a person goes through these types, so a bit index
// passed where a square is meant is a compile error, not a wrong answer.
#pragma once

#include <compare>

#include "rules/bitboard.hpp"

namespace dtb {

struct BitIndex {
    int value;
    friend constexpr auto operator<=>(BitIndex, BitIndex) = default;
};

struct Square {
    int index;
    friend constexpr auto operator<=>(Square, Square) = default;
};

constexpr Bitboard bit(BitIndex b) { return bit(b.value); }

// The lowest set bit of a non-empty bitboard.
constexpr BitIndex lowest_bit_index(Bitboard b) { return BitIndex{lowest_bit(b)}; }

}  // namespace dtb
