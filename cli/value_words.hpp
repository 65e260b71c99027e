// Values in words, as dtb analyze and dtb show write them: "White wins in 9
// plies", "Black draws", and for a game already over (DTW 0) what happened,
// "Black has no move: White has won", rather than "loses in 0 plies".
#pragma once

#include <string>

#include "cli/options.hpp"
#include "rules/position.hpp"
#include "tables/values.hpp"

namespace dtb {

// "wins in 9 plies", "draws", "loses in 12 plies".
inline std::string result_words(int value) {
    if (value == kDraw) return "draws";
    return std::string(value % 2 == 1 ? "wins" : "loses") + " in " + plies_text(value);
}

// "Black has no move: White has won", or "... no piece left: ...": the
// side to move in `pos` cannot move, so the game is over.
template <class V>
std::string no_move_text(const Position<V>& pos) {
    const Color loser = pos.side_to_move;
    return std::string(side_name(loser)) + (pos.pieces[loser] ? " has no move: " : " has no piece left: ") +
           side_name(opponent(loser)) + " has won";
}

// "White wins in 9 plies", "Black draws": the value of `pos` for the side
// to move; no_move_text when the game is over.
template <class V>
std::string value_text(int value, const Position<V>& pos) {
    if (value == 0) return no_move_text(pos);
    return std::string(side_name(pos.side_to_move)) + " " + result_words(value);
}

}  // namespace dtb
