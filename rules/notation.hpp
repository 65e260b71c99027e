// Notation (docs/RULES.md section 1): square names, PDN FEN, move text.
//
// Russian squares are written algebraically (a1..h8) and read either way
// (algebraic or the PDN numbers 1..32); international squares are 1..50.
// Every parser throws InputError with a message that says what is wrong and
// where; none of them trusts its input.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/errors.hpp"
#include "rules/movegen.hpp"
#include "rules/position.hpp"
#include "rules/variant.hpp"

namespace dtb {

// The variant's usual name of a square.
template <class V>
std::string square_name(BitIndex b);

// The PDN number (1-based) of a square.
template <class V>
int square_number(BitIndex b);

// A square written in any notation the variant accepts.
template <class V>
std::optional<BitIndex> parse_square(std::string_view text);

template <class V>
Position<V> initial_position();

// A PDN FEN: the side to move, then each colour's list of squares
// ("W:W21-32:B1-12"); "W:W:B" is an empty board, "W" is bad input.
template <class V>
Position<V> parse_fen(std::string_view fen);

// Squares in the variant's usual notation; for international, runs of
// consecutive squares as ranges (W:W31-50:B1-20).
template <class V>
std::string to_fen(const Position<V>& pos);

// Checks what a position must satisfy to be reachable at all: no man on its
// crowning row, no more pieces than a side starts with. Throws InputError.
template <class V>
void check_position(const Position<V>& pos);

// The mark between the squares of a capture: ':' where squares are written
// a1..h8 (Russian records write c3:e5), 'x' where they are numbered (PDN
// and the players of international draughts write 32x14). A plain move is
// always written with '-'. parse_move reads '-', ':' and 'x' alike.
inline constexpr char kNumericCaptureMark = 'x';
template <class V>
constexpr char capture_mark() {
    return V::algebraic_notation ? ':' : kNumericCaptureMark;
}

// The text of `m`, a legal move of `pos`: "c3-d4", "c3:e5", "32x14", and the
// turning squares where the same piece has more than one capture (rule
// 2.1.6.2, diagram 8; docs/RULES.md 1.5): "d2:h6:f8:c5:a7", "d2:g5:d8:a5".
template <class V>
std::string move_text(const Position<V>& pos, const Move& m);

// The route's start, turning squares and end.
template <class V>
std::string route_text(const CaptureRoute& route);

// The legal move of `pos` that `text` names. Separators '-', ':' and 'x' are
// all read; intermediate squares pick among captures with the same start and
// end. Throws InputError when no legal move or more than one matches.
template <class V>
Move parse_move(const Position<V>& pos, std::string_view text);

// Renders the board as text, Black at the top (for people, not programs),
// labelled in the variant's notation: files a.. and ranks 1.. for an
// algebraic board, each row's first and last square number ("46-50") for a
// numbered one.
template <class V>
std::string board_diagram(const Position<V>& pos);

}  // namespace dtb
