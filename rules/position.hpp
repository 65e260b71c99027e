// A draughts position: pieces by colour, which of them are kings, and the
// side to move. Plain data; move generation lives in movegen.hpp.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>

#include "rules/bitboard.hpp"
#include "rules/geometry.hpp"

namespace dtb {

enum class Piece : std::uint8_t { Man, King };

// A move as the board sees it: where the piece starts and ends (bit
// indexes), what it captures, and whether it is crowned. Capture routes
// that start, end and capture alike are the same Move (docs/RULES.md 2.6).
// No default member initialisers: a MoveList of them must cost nothing to
// create. Write Move{captured, from, to, crowns}.
struct Move {
    Bitboard captured;
    std::uint8_t from;
    std::uint8_t to;
    bool crowns;

    bool is_capture() const { return captured != 0; }
    friend bool operator==(const Move&, const Move&) = default;
};

template <class V>
struct Position {
    using Board = typename V::Board;

    Bitboard pieces[2] = {0, 0};  // by Color
    Bitboard kings = 0;           // kings of both colours
    Color side_to_move = White;

    Bitboard occupied() const { return pieces[White] | pieces[Black]; }
    Bitboard empty() const { return Board::all & ~occupied(); }
    Bitboard men(Color c) const { return pieces[c] & ~kings; }
    Bitboard kings_of(Color c) const { return pieces[c] & kings; }
    int piece_count() const { return popcount(occupied()); }

    void put(Color c, Piece p, BitIndex b) {
        pieces[c] |= bit(b);
        if (p == Piece::King) kings |= bit(b);
    }

    // The position after `m`, which must be legal here.
    Position after(const Move& m) const {
        const Color us = side_to_move;
        const Bitboard from_to = bit(m.from) ^ bit(m.to);  // 0 when a capture returns to its start
        const Bitboard movers = pieces[us] ^ from_to;
        const Bitboard others = pieces[opponent(us)] & ~m.captured;
        Position next;
        // Chosen, not indexed: a store through pieces[us] followed by whole
        // loads of the copy stalls the processor (store forwarding), and
        // perft makes one position per node.
        next.pieces[White] = us == White ? movers : others;
        next.pieces[Black] = us == White ? others : movers;
        Bitboard k = kings;
        if (k & bit(m.from))
            k ^= from_to;
        else if (m.crowns)
            k |= bit(m.to);
        next.kings = k & ~m.captured;
        next.side_to_move = opponent(us);
        return next;
    }

    friend bool operator==(const Position&, const Position&) = default;
};

// For hash tables of positions (repetitions, search memos).
struct PositionHash {
    template <class V>
    std::size_t operator()(const Position<V>& p) const {
        std::uint64_t h = p.pieces[White] * 0x9E3779B97F4A7C15ULL;
        h ^= (p.pieces[Black] + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
        h ^= (p.kings + std::uint64_t(p.side_to_move)) * 0x165667B19E3779F9ULL;
        return std::size_t(h ^ (h >> 29));
    }
};

}  // namespace dtb
