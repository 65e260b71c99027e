// Moves as game records write them, read leniently but by the rules: which
// legal moves of a position a record's move text can mean.
//
// Accepted forms: every form parse_move reads (c3-d4, c3:e5, c3xe5, 32-28,
// full capture paths); for Russian the shortened forms of rule 2.1.6.2
// ("ed4", "b:d6"); and squares with no separator ("a3b4", allowed by PDN
// 3.0). A capture whose text leaves more than one route is narrowed in this
// order: the squares written are exactly its start, turning squares and end;
// they are squares it stops on (lands on after a capture), in order; they
// are squares it passes, in order. Whatever stays open the caller settles
// with the record's next move (rules/pdn.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules/notation.hpp"
#include "rules/position.hpp"

namespace dtb {

// The legal moves `text` can mean in `pos`: one or more. Throws InputError
// for a text that is no move, or matches no legal move (the message lists
// the legal ones), or a shortened form that matches several.
template <class V>
std::vector<Move> pdn_move_candidates(const Position<V>& pos, std::string_view text);

// "ambiguous move 'd8:g1' in FEN: it could be d8:f6:d4:g1, d8:g5:e3:g1".
template <class V>
std::string ambiguous_move_message(const Position<V>& pos, std::string_view text, const std::vector<Move>& moves);

}  // namespace dtb
