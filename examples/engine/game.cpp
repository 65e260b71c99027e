#include "game.hpp"

#include <algorithm>

namespace engine {

Game play_game(Engine& white, Engine& black, const Position& start, const Limits& limits, int max_plies) {
    Game game;
    Position pos = start;
    std::vector<std::uint64_t> history;
    for (;;) {
        Engine& engine = pos.side == White ? white : black;
        const std::uint64_t key = engine.hash(pos);
        if (std::count(history.begin(), history.end(), key) >= 2) {
            game.reason = "repetition";
            return game;
        }
        const SearchResult result = engine.think(pos, limits, history);
        if (!result.has_move) {
            game.winner = pos.side ^ 1;
            game.reason = "no move";
            return game;
        }
        if (static_cast<int>(game.plies.size()) >= max_plies) {
            game.reason = "ply limit";
            return game;
        }
        history.push_back(key);
        game.plies.push_back(Ply{pos, result});
        pos = after(pos, result.best);
    }
}

const char* start_fen(int variant) {
    return variant == DTB_RUSSIAN ? "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
                                  : "W:W31-50:B1-20";
}

}  // namespace engine
