// A game of the engine against itself, from a position to its end: a side
// with no move loses (docs/RULES.md 2.7); a position repeated three times,
// or the ply limit, ends it in a draw (the move-count rules are left out).
#pragma once

#include <string>
#include <vector>

#include "search.hpp"

namespace engine {

struct Ply {
    Position before;
    SearchResult search;
};

struct Game {
    int winner = -1;     // White, Black, or -1 for a draw
    std::string reason;  // "no move", "repetition", "ply limit"
    std::vector<Ply> plies;
};

// `white` and `black` may be the same engine.
Game play_game(Engine& white, Engine& black, const Position& start, const Limits& limits, int max_plies);

// The start position of the variant.
const char* start_fen(int variant);

}  // namespace engine
