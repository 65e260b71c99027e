// A game of the engine against itself, from a position to its end: a side
// with no move loses (docs/RULES.md 2.7); a position repeated three times,
// or the ply limit, ends it in a draw. The move-count rules do not end the
// game here (dtb adjudicate --pdn judges a game by them), but their counts
// are kept (count_after) and handed to the search, which plays positions in
// the tables by the values under them.
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

// The counts after `m` is played at `pos` (the game's counts before it:
// `counts`). The lone-king count is the stronger side's moves since one
// side became a lone king; where a lone-king rule's material comes later
// in that ending than its start, this counts more moves than the rule has
// (never fewer), so a win the search finds under these counts is a win.
RuleCounts count_after(const Position& pos, const Move& m, RuleCounts counts);

// `white` and `black` may be the same engine.
Game play_game(Engine& white, Engine& black, const Position& start, const Limits& limits, int max_plies);

// The start position of the variant.
const char* start_fen(int variant);

}  // namespace engine
