// Between the C API's types (dtb/probe.h: PDN square n is bit n-1) and the
// rules' types (ghost-square bitboards, rules/geometry.hpp). A dtb_position
// is checked completely before anything trusts it.
#pragma once

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "dtb/probe.h"
#include "probe/status.hpp"
#include "rules/notation.hpp"
#include "tables/combinatorics.hpp"

namespace dtb::probe {

// The C API's variant codes (DTB_RUSSIAN, ...) are the variants' ids
// (rules/variant.hpp), which never change: checked here, once per code.
static_assert(DTB_RUSSIAN == int(VariantId::Russian) && DTB_INTERNATIONAL == int(VariantId::International) &&
                  DTB_BRAZILIAN == int(VariantId::Brazilian) && DTB_VARIANT_COUNT == int(kVariantIds.size()),
              "dtb/probe.h's DTB_* variant codes must equal the ids of rules/variant.hpp");
constexpr int c_variant(VariantId variant) { return static_cast<int>(variant); }
// nullopt for a code that names no variant.
constexpr std::optional<VariantId> variant_from_c(int variant) { return variant_from_number(variant); }

// bit (n-1) = square n  <->  bit bit_of(n-1): the ghost layout's used bits
// are the squares in order, so pdep/pext convert in one instruction.
template <class V>
Bitboard to_ghost(std::uint64_t pdn_bits) {
    return deposit_bits(pdn_bits, V::Board::all);
}
template <class V>
std::uint64_t to_pdn(Bitboard ghost) {
    return extract_bits(ghost, V::Board::all);
}

// Any placement a board can hold (a finished game included).
template <class V>
Outcome<Position<V>> board_from_c(const dtb_position& c) {
    using Board = typename V::Board;
    const auto bad = [](const std::string& what) { return Failure{Status::bad_position, "bad position: " + what}; };
    const std::uint64_t squares = (std::uint64_t{1} << Board::squares) - 1;
    if ((c.white | c.black | c.kings) & ~squares)
        return bad("a bit above square " + std::to_string(Board::squares) + " is set");
    if (c.white & c.black) return bad("a square holds a white and a black piece");
    if (c.kings & ~(c.white | c.black)) return bad("a king bit is set on an empty square");
    if (c.side_to_move != DTB_WHITE && c.side_to_move != DTB_BLACK)
        return bad("side_to_move is " + std::to_string(c.side_to_move) + ", not DTB_WHITE (0) or DTB_BLACK (1)");
    Position<V> pos;
    pos.pieces[White] = to_ghost<V>(c.white);
    pos.pieces[Black] = to_ghost<V>(c.black);
    pos.kings = to_ghost<V>(c.kings);
    pos.side_to_move = c.side_to_move == DTB_WHITE ? White : Black;
    try {
        check_position(pos);
    } catch (const InputError& e) {
        return bad(e.what());
    }
    return pos;
}

// A position to probe: also refuses a game that is over.
template <class V>
Outcome<Position<V>> from_c(const dtb_position& c) {
    auto pos = board_from_c<V>(c);
    if (!pos) return pos;
    // The game ended when the other side lost its last piece: that position
    // never stands with its winner to move, and no table holds it.
    const Color us = pos->side_to_move;
    if (!pos->occupied()) return Failure{Status::bad_position, "bad position: the board is empty"};
    if (pos->pieces[us] && !pos->pieces[opponent(us)])
        return Failure{Status::bad_position,
                       "bad position: the side not to move has no pieces: the game is already over"};
    return pos;
}

template <class V>
dtb_position to_c(const Position<V>& pos) {
    dtb_position c{};
    c.white = to_pdn<V>(pos.pieces[White]);
    c.black = to_pdn<V>(pos.pieces[Black]);
    c.kings = to_pdn<V>(pos.kings);
    c.side_to_move = pos.side_to_move == White ? DTB_WHITE : DTB_BLACK;
    c.variant = c_variant(V::id);
    return c;
}

// Copies text into a C buffer of `size` bytes, cut if need be, always
// NUL-terminated (nothing is written when size is 0).
inline void copy_text(const std::string& text, char* out, std::size_t size) {
    if (out == nullptr || size == 0) return;
    const std::size_t n = std::min(text.size(), size - 1);
    std::memcpy(out, text.data(), n);
    out[n] = '\0';
}

// A move's squares, without its text.
template <class V>
dtb_move move_squares(const Move& m) {
    dtb_move c{};
    c.from = square_number<V>(BitIndex{m.from});
    c.to = square_number<V>(BitIndex{m.to});
    c.crowns = m.crowns ? 1 : 0;
    // bits_of runs in ghost-bit order, which is square order. A side has at
    // most DTB_MAX_CAPTURED pieces, so the array always has room.
    for (int b : bits_of{m.captured})
        if (c.n_captured < DTB_MAX_CAPTURED) c.captured[c.n_captured++] = square_number<V>(BitIndex{b});
    return c;
}

// `m` must be a legal move of `pos`.
template <class V>
dtb_move to_c(const Position<V>& pos, const Move& m) {
    dtb_move c = move_squares<V>(m);
    copy_text(move_text(pos, m), c.text, sizeof c.text);
    return c;
}

// The legal move of `pos` that `c` describes (from, to and captured
// squares; the text is not read).
template <class V>
Outcome<Move> from_c(const Position<V>& pos, const dtb_move& c) {
    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    for (const Move& m : moves) {
        const dtb_move other = move_squares<V>(m);
        if (other.from == c.from && other.to == c.to && other.n_captured == c.n_captured &&
            std::equal(other.captured, other.captured + other.n_captured, c.captured))
            return m;
    }
    return Failure{Status::bad_argument, "the move from square " + std::to_string(c.from) + " to " +
                                             std::to_string(c.to) + " is not a legal move of " + to_fen(pos)};
}

}  // namespace dtb::probe
