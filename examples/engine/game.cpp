#include "game.hpp"

#include <algorithm>

namespace engine {

namespace {

// The side that is a lone king (one king, no man) against pieces, or -1.
int lone_king_side(const Position& pos) {
    for (int side : {White, Black}) {
        const Bitboard own = pos.pieces[side];
        if (count(own) == 1 && (own & pos.kings) == own && pos.pieces[side ^ 1] != 0) return side;
    }
    return -1;
}

}  // namespace

RuleCounts count_after(const Position& pos, const Move& m, RuleCounts counts) {
    const bool man = (pos.kings & bit(m.from)) == 0;
    const Position next = after(pos, m);
    counts.conversion_plies = m.is_capture() || m.crowns ? 0 : counts.conversion_plies + 1;
    counts.king_plies = m.is_capture() || man ? 0 : counts.king_plies + 1;
    const int lone_before = lone_king_side(pos);
    const int lone_now = lone_king_side(next);
    if (lone_now < 0)
        counts.lone_moves = 0;
    else if (lone_before == lone_now && pos.side != lone_now)
        ++counts.lone_moves;  // a move of the stronger side in an ending under way
    else if (lone_before != lone_now)
        counts.lone_moves = 0;  // the ending begins
    return counts;
}

Game play_game(Engine& white, Engine& black, const Position& start, const Limits& limits, int max_plies) {
    Game game;
    Position pos = start;
    RuleCounts counts;
    std::vector<std::uint64_t> history;
    for (;;) {
        Engine& engine = pos.side == White ? white : black;
        const std::uint64_t key = engine.hash(pos);
        if (std::count(history.begin(), history.end(), key) >= 2) {
            game.reason = "repetition";
            return game;
        }
        const SearchResult result = engine.think(pos, limits, history, &counts);
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
        counts = count_after(pos, result.best, counts);
        pos = after(pos, result.best);
    }
}

const char* start_fen(int variant) {
    return variant == DTB_RUSSIAN ? "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
                                  : "W:W31-50:B1-20";
}

}  // namespace engine
